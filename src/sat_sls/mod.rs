//! Stochastic local search for SAT with many independent walks (docs/specs/SAT_SLS.md):
//! probSAT (Balint & Schöning, SAT 2012) and WalkSAT/SKC as a second rule of the same kernel
//! (`cl/sat_sls.cl`, `device.rs`), and their rayon twin (`cpu.rs`), which draws the same random
//! words (Philox keyed by seed, walk and flip) and walks through the same assignments.
//!
//! Each walk keeps, incrementally, the true-literal count of every clause, its critical variable
//! (the XOR of its true variables: the only one when the count is 1), the break value of every
//! variable and the list of unsatisfied clauses with their positions. A step picks an
//! unsatisfied clause uniformly and one of its variables by the rule; a walk restarts from a
//! fresh random assignment after `restart_flips` flips. The search ends at the first model (the
//! launch stops for every walk: a flag polled every [`POLL`] flips), the time limit, the flip
//! budget or an interrupt; every model is verified on the host against the input clauses.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `device` | `sat_sls_run` of `cl/sat_sls.cl`, and the decoding of the records it writes |
//! | [`cpu`] | the rayon walks, step for step those of the kernel, and [`SlsTracker`] for tests |

pub mod cpu;
mod device;

use crate::device::{Backend, Footprint};
use crate::error::{Error, Result};
use crate::interrupt::StopReason;
use crate::problem::sat::{Assignment, Cnf, Model, Occurrences};
use crate::run::checkpoint::{self, le_bytes, Header, Schedule};
use crate::run::checks::{check_counted_stop, check_resumable};
use crate::run::{Progress, Stop};
use cpu::CpuWalks;
use device::DeviceWalks;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

pub use cpu::SlsTracker;

/// Flips between two reads of the stop flag (a power of two).
pub const POLL: u32 = 64;

/// Flips per walk of a solve's first launch where launches are sized by the clock: a walk's
/// start (its state built) is in it, so its rate is a low estimate and the next launch is short.
const FIRST_LAUNCH: u64 = POLL as u64;

/// The default of [`SlsOptions::restart_flips`]: no restarts (probSAT's default).
pub const NO_RESTARTS: u64 = u64::MAX;

/// Entries of the break table: break values from `BREAK_TABLE - 1` on share the last entry.
pub const BREAK_TABLE: usize = 64;

/// The fixed-point scale of the break table: f(0) is `1 << BREAK_SCALE_BITS`, every entry at
/// least 1.
pub const BREAK_SCALE_BITS: u32 = 24;

/// The formula the walks run on: every clause with its repeated literals written once, and
/// without the tautological clauses (always true); clause `i` here is clause `orig[i]` of the
/// input. The occurrence lists are per literal index `2 (v - 1) + (negative)`.
#[derive(Clone, Debug)]
pub struct SlsFormula {
    pub num_vars: usize,
    pub offsets: Vec<u32>,
    pub literals: Vec<i32>,
    pub occ_offsets: Vec<u32>,
    pub occ_clauses: Vec<u32>,
    /// The input clause of each clause.
    pub orig: Vec<u32>,
    /// The longest clause.
    pub max_len: usize,
}

impl SlsFormula {
    pub fn new(cnf: &Cnf) -> Self {
        let mut kept: Vec<Vec<i32>> = Vec::new();
        let mut orig = Vec::new();
        for (i, c) in cnf.clauses().enumerate() {
            let mut lits: Vec<i32> = Vec::with_capacity(c.len());
            let mut taut = false;
            for &l in c {
                if lits.contains(&-l) {
                    taut = true;
                    break;
                }
                if !lits.contains(&l) {
                    lits.push(l);
                }
            }
            if !taut {
                kept.push(lits);
                orig.push(i as u32);
            }
        }
        let simple =
            Cnf::from_clauses("", cnf.num_vars, &kept).expect("the clauses of a valid formula");
        let occ = Occurrences::new(&simple);
        let max_len = kept.iter().map(Vec::len).max().unwrap_or(0);
        SlsFormula {
            num_vars: cnf.num_vars,
            offsets: simple.offsets,
            literals: simple.literals,
            occ_offsets: occ.offsets,
            occ_clauses: occ.clauses,
            orig,
            max_len,
        }
    }

    pub fn num_clauses(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn words(&self) -> usize {
        Assignment::words_for(self.num_vars)
    }
}

/// The random walk's parameters shared by every walk.
#[derive(Clone, Debug)]
pub(crate) struct WalkParams {
    pub method: SlsMethod,
    pub table: Vec<u32>,
    pub noise: u32,
    pub seed: u64,
    pub restart_flips: u64,
    /// The walks' state persists across launches ([`persists`]).
    pub persist: bool,
    /// Entries of a walk's flip log ([`log_capacity`]).
    pub log_capacity: usize,
}

/// Bytes of a walk's state above which it persists across launches (in global memory on a
/// device) instead of being rebuilt at every launch: 48 KB, the local memory of a GPU's group.
pub const PERSIST_BYTES: usize = 48 * 1024;

/// Whether the walks over `f` keep their state across launches: its state (in the device's
/// narrow types) takes more than [`PERSIST_BYTES`]. Depends on the formula only, so that both
/// backends apply the same rule and walk identically.
pub fn persists(f: &SlsFormula) -> bool {
    device::state_words(f) * 4 > PERSIST_BYTES
}

/// The default length of a walk's flip log: the assignment's words, at least 64, so that a
/// replay costs no more than a copy of the assignment.
pub fn log_capacity(f: &SlsFormula) -> usize {
    f.words().max(64)
}

/// The memory of `walks` walks over `f` (see [`SatSls::footprint`]): `device` `None` on the CPU
/// backend, else whether the walks' state is in local memory (`Some(false)`: in a global buffer,
/// which the estimate assumes unless local memory is forced).
fn footprint(
    f: &SlsFormula,
    walks: u32,
    device: Option<bool>,
    log_capacity: usize,
    checkpoint: bool,
) -> Footprint {
    let w = walks as u64;
    let (n, m) = (f.num_vars as u64, f.num_clauses() as u64);
    let (lits, words) = (f.literals.len() as u64, f.words() as u64);
    // an assignment as a report holds it (its words and the vector)
    let assignment = words * 4 + 32;
    let mut fp = Footprint::default();
    // each walk's report: its assignment and best, and the best beside it; 128 bytes of counters
    fp.host(&[w, assignment * 3 + 128]);
    if checkpoint {
        // the state written: assignment, best, flip log and unsatisfied list
        fp.host(&[w, 2 * assignment + 4 * log_capacity as u64 + 4 * m + 128]);
    }
    match device {
        None => {
            // a walk: counts, critical variables, positions and list per clause, break values,
            // assignment and best, its flip log
            fp.host(&[
                w,
                16 * m + 4 * n + 2 * assignment + 4 * log_capacity as u64 + 256,
            ]);
        }
        Some(local) => {
            let rec = device::record_words(f, log_capacity) as u64 * 4;
            let state = if local {
                0
            } else {
                device::state_words(f) as u64 * 4
            };
            // the formula, the records and the states; their host copies (made fresh, read back)
            fp.device(&[4 * (2 * lits + m + 2 * n + 2)])
                .device(&[w, rec])
                .device(&[w, state]);
            fp.host(&[w, 2 * rec + state]);
        }
    }
    fp
}

/// The rule that picks the variable of an unsatisfied clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SlsMethod {
    /// probSAT: each variable with probability proportional to f(break).
    ProbSat,
    /// WalkSAT/SKC: a variable of break 0 if any, else with probability `noise` a random one,
    /// else one of least break (ties at random).
    WalkSat,
}

impl SlsMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            SlsMethod::ProbSat => "probsat",
            SlsMethod::WalkSat => "walksat",
        }
    }
}

/// probSAT's f(break).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BreakFunction {
    /// probSAT's SC13 defaults by the longest clause k: polynomial cb 2.06, eps 0.9 for k <= 3;
    /// exponential cb 2.85 (k = 4), 3.7 (5), 5.1 (6), 5.4 (7 and more).
    Auto,
    /// `f(b) = (eps + b)^(-cb)`; cb > 0, eps > 0.
    Polynomial { cb: f64, eps: f64 },
    /// `f(b) = cb^(-b)`; cb > 1.
    Exponential { cb: f64 },
}

impl BreakFunction {
    /// The function of [`BreakFunction::Auto`] for clauses of at most `k` literals.
    pub fn for_clause_length(k: usize) -> Self {
        match k {
            0..=3 => BreakFunction::Polynomial { cb: 2.06, eps: 0.9 },
            4 => BreakFunction::Exponential { cb: 2.85 },
            5 => BreakFunction::Exponential { cb: 3.7 },
            6 => BreakFunction::Exponential { cb: 5.1 },
            _ => BreakFunction::Exponential { cb: 5.4 },
        }
    }

    /// The function of the front ends' `cb` and `eps` options for clauses of at most `k`
    /// literals: neither is `Auto`; `eps` given is the polynomial (cb 2.06 unless given); `cb`
    /// alone keeps the family of [`BreakFunction::for_clause_length`] (polynomial with eps 0.9
    /// for k <= 3, else exponential) with that cb.
    pub fn from_options(cb: Option<f64>, eps: Option<f64>, k: usize) -> Self {
        match (cb, eps) {
            (None, None) => BreakFunction::Auto,
            (cb, Some(eps)) => BreakFunction::Polynomial {
                cb: cb.unwrap_or(2.06),
                eps,
            },
            (Some(cb), None) => match Self::for_clause_length(k) {
                BreakFunction::Polynomial { eps, .. } => BreakFunction::Polynomial { cb, eps },
                _ => BreakFunction::Exponential { cb },
            },
        }
    }

    fn check(&self) -> Result<()> {
        match *self {
            BreakFunction::Auto => Ok(()),
            BreakFunction::Polynomial { cb, eps } => {
                if !(cb.is_finite() && cb > 0.0) {
                    return Err(Error::arg(
                        "cb",
                        format!(
                            "{cb}; expected a finite number > 0 for the polynomial break function"
                        ),
                    ));
                }
                if !(eps.is_finite() && eps > 0.0) {
                    return Err(Error::arg(
                        "eps",
                        format!("{eps}; expected a finite number > 0"),
                    ));
                }
                Ok(())
            }
            BreakFunction::Exponential { cb } => {
                if !(cb.is_finite() && cb > 1.0) {
                    return Err(Error::arg(
                        "cb",
                        format!(
                            "{cb}; expected a finite number > 1 for the exponential break function"
                        ),
                    ));
                }
                Ok(())
            }
        }
    }

    /// The fixed-point table both backends select with: entry b is `f(b) / f(0)` scaled by
    /// `2^BREAK_SCALE_BITS`, rounded, at least 1; `k` picks the function of `Auto`.
    pub fn table(&self, k: usize) -> Vec<u32> {
        let f = match *self {
            BreakFunction::Auto => Self::for_clause_length(k),
            other => other,
        };
        let value = |b: f64| match f {
            BreakFunction::Polynomial { cb, eps } => (eps + b).powf(-cb),
            BreakFunction::Exponential { cb } => cb.powf(-b),
            BreakFunction::Auto => unreachable!(),
        };
        let f0 = value(0.0);
        let scale = (1u64 << BREAK_SCALE_BITS) as f64;
        (0..BREAK_TABLE)
            .map(|b| {
                ((value(b as f64) / f0 * scale).round() as u64).clamp(1, 1 << BREAK_SCALE_BITS)
                    as u32
            })
            .collect()
    }
}

/// Options of [`SatSls::solve`].
#[derive(Clone, Debug)]
pub struct SlsOptions {
    pub method: SlsMethod,
    /// probSAT's break function.
    pub break_function: BreakFunction,
    /// WalkSAT's noise, in [0, 1].
    pub noise: f64,
    pub seed: u64,
    /// Flips of a walk before it restarts from a fresh random assignment (>= 1; default
    /// [`NO_RESTARTS`]: never, as probSAT, since a restart every few million flips kills the
    /// progress of a walk on a large formula).
    pub restart_flips: u64,
    /// Flips of every walk per launch (>= 1): the device and the CPU backend rebuild each walk's
    /// state from its assignment at every launch when the state is small (see
    /// [`persists`]), so walks agree only for equal values.
    pub flips_per_launch: u32,
    /// When the walks stop besides a model (budget: flips per walk in all, `max_flips` in the
    /// C ABI, Python and the CLI; a time limit; a stop token) and where the solve writes its
    /// checkpoint ([`SatSls::load_state`] continues from one). A budget, a time limit or a
    /// token must be set; evaluations and a target are refused (the walks stop at a model).
    pub stop: Stop,
    /// The moment the time limit counts from (`None`: the solve call).
    pub since: Option<Instant>,
    /// A warm start: one assignment, from which every walk starts; or several (at most the
    /// walks), walk `w` starting from the `w`-th and the others from their random assignments.
    /// Restarts draw random assignments as usual. Empty: every walk starts at random.
    pub start: Vec<Assignment>,
}

impl Default for SlsOptions {
    fn default() -> Self {
        SlsOptions {
            method: SlsMethod::ProbSat,
            break_function: BreakFunction::Auto,
            noise: 0.567,
            seed: 1,
            restart_flips: NO_RESTARTS,
            flips_per_launch: 4096,
            stop: Stop::time_limit(Duration::from_secs(10)),
            since: None,
            start: Vec::new(),
        }
    }
}

impl SlsOptions {
    /// The flip budget per walk, if any (`max_flips`).
    pub fn max_flips_cap(&self) -> Option<u64> {
        self.stop.budget
    }

    /// Checks every option; errors name the argument.
    pub fn check(&self) -> Result<()> {
        self.break_function.check()?;
        if !(0.0..=1.0).contains(&self.noise) {
            return Err(Error::arg(
                "noise",
                format!("{}; expected a probability in [0, 1]", self.noise),
            ));
        }
        if self.restart_flips == 0 {
            return Err(Error::arg(
                "restart_flips",
                "0; expected at least 1 flip before a restart",
            ));
        }
        if self.flips_per_launch == 0 {
            return Err(Error::arg("flips_per_launch", "0; expected at least 1"));
        }
        check_counted_stop(&self.stop, "max_flips", "the walks count flips")?;
        if self.stop.target.is_some() {
            return Err(Error::arg(
                "target",
                "the walks stop at a model (no unsatisfied clause): give no target",
            ));
        }
        Ok(())
    }

    fn noise_threshold(&self) -> u32 {
        (self.noise * 4_294_967_296.0).min(u32::MAX as f64) as u32
    }
}

/// One walk at the end of a search.
#[derive(Clone, Debug, Serialize)]
pub struct SlsWalkReport {
    pub flips: u64,
    pub restarts: u32,
    /// Unsatisfied clauses of its assignment now.
    pub unsatisfied: u32,
    pub best_unsatisfied: u32,
    /// Its assignment now.
    #[serde(skip)]
    pub assignment: Assignment,
    /// Its best assignment (`best_unsatisfied` clauses unsatisfied; all false before a start).
    #[serde(skip)]
    pub best: Assignment,
}

/// The longest clause of `cnf` (the `k` of [`BreakFunction::for_clause_length`]).
pub fn max_clause_length(cnf: &Cnf) -> usize {
    cnf.clauses().map(<[i32]>::len).max().unwrap_or(0)
}

/// The result of [`SatSls::solve`].
#[derive(Clone, Debug, Serialize)]
pub struct SatSlsSolveResult {
    /// A model, verified against every input clause.
    #[serde(skip)]
    pub model: Option<Model>,
    pub satisfiable: bool,
    /// The fewest unsatisfied clauses any walk reached (0 with a model).
    pub best_unsatisfied: u32,
    /// An assignment with that count.
    #[serde(skip)]
    pub best: Assignment,
    pub method: SlsMethod,
    pub walks: u32,
    pub launches: u64,
    /// Flips of all walks.
    pub flips: u64,
    pub seconds: f64,
    pub flips_per_second: f64,
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
    /// Every walk (flips, restarts, counts, assignment).
    #[serde(skip)]
    pub walk_reports: Vec<SlsWalkReport>,
}

impl SatSlsSolveResult {
    /// Restarts of all walks.
    pub fn restarts(&self) -> u64 {
        self.walk_reports.iter().map(|w| w.restarts as u64).sum()
    }
}

/// One walk between two launches, as a checkpoint holds it (both backends read and write this
/// form): its counters, assignment, best assignment, the log of flips since its best and, where
/// the walks' state persists across launches ([`persists`]), the order of its unsatisfied list
/// (the only part of the incremental state that does not follow from the assignment).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct WalkState {
    pub flips: u64,
    pub since_restart: u64,
    pub restarts: u32,
    pub best_unsatisfied: u32,
    pub unsatisfied: u32,
    pub started: bool,
    pub x: Vec<u32>,
    pub best: Vec<u32>,
    /// The variables flipped since the last new best (None: over, or not started).
    pub log: Option<Vec<u32>>,
    /// The unsatisfied clauses in the walk's list order (a started walk whose state persists).
    pub list: Option<Vec<u32>>,
}

impl WalkState {
    /// A walk about to start from assignment `x` (its words): as a fresh walk after drawing its
    /// first assignment; `list`: the unsatisfied list in clause order where the state persists.
    fn starting(f: &SlsFormula, persist: bool, x: Vec<u32>) -> Self {
        let m = f.num_clauses();
        let mut list = Vec::new();
        for c in 0..m {
            let lits = &f.literals[f.offsets[c] as usize..f.offsets[c + 1] as usize];
            let sat = lits.iter().any(|&l| {
                let v = l.unsigned_abs() as usize - 1;
                ((x[v >> 5] >> (v & 31)) & 1 == 1) == (l > 0)
            });
            if !sat {
                list.push(c as u32);
            }
        }
        let nu = list.len() as u32;
        // a model is its own best at once; otherwise the first launch records the best
        let (best, best_unsatisfied, log) = if nu == 0 {
            (x.clone(), 0, Some(Vec::new()))
        } else {
            (vec![0; x.len()], u32::MAX, None)
        };
        WalkState {
            flips: 0,
            since_restart: 0,
            restarts: 0,
            best_unsatisfied,
            unsatisfied: nu,
            started: true,
            x,
            best,
            log,
            list: persist.then_some(list),
        }
    }

    /// A walk not started yet.
    fn fresh(words: usize) -> Self {
        WalkState {
            flips: 0,
            since_restart: 0,
            restarts: 0,
            best_unsatisfied: u32::MAX,
            unsatisfied: u32::MAX,
            started: false,
            x: vec![0; words],
            best: vec![0; words],
            log: None,
            list: None,
        }
    }
}

/// A solve's whole state between two launches: what a checkpoint holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SlsState {
    walks: Vec<WalkState>,
    /// 0, or 1 + the walk that found a model.
    found: u32,
    /// Flips per walk and launches so far.
    done: u64,
    launches: u64,
    /// Seconds of the driver's clock (set-up included) and of the walks so far.
    elapsed: f64,
    seconds: f64,
}

/// A finished solve, kept for [`SatSls::save_state`]: its header, counters and engine (which
/// holds the walks).
struct Finished {
    header: Header,
    state: SlsState,
    engine: Engine,
    persist: bool,
}

enum Engine {
    Cpu(CpuWalks),
    Device(Box<DeviceWalks>),
}

impl Engine {
    /// The walks and the found flag.
    fn states(&self, f: &SlsFormula, persist: bool) -> Result<(Vec<WalkState>, u32)> {
        match self {
            Engine::Cpu(c) => Ok((
                c.states(persist),
                c.found.load(std::sync::atomic::Ordering::Relaxed),
            )),
            Engine::Device(d) => d.states(f, persist),
        }
    }

    /// The walks and the found flag of a checkpoint, each walk checked by
    /// [`Walk::from_state`](cpu::Walk::from_state).
    fn set_states(
        &mut self,
        f: &SlsFormula,
        p: &WalkParams,
        states: &[WalkState],
        found: u32,
    ) -> Result<()> {
        let walks = states
            .iter()
            .enumerate()
            .map(|(i, s)| cpu::Walk::from_state(f, p, i as u32, s, "state"))
            .collect::<Result<Vec<_>>>()?;
        match self {
            Engine::Cpu(c) => {
                c.set_walks(walks, found);
                Ok(())
            }
            Engine::Device(d) => d.set_states(f, p.persist, states, &walks, found),
        }
    }
}

/// The checkpoint bytes of `state` with the walks of `engine`.
fn snapshot(
    header: &Header,
    state: &mut SlsState,
    engine: &Engine,
    f: &SlsFormula,
    persist: bool,
) -> Result<Vec<u8>> {
    let (walks, found) = engine.states(f, persist)?;
    state.walks = walks;
    state.found = found;
    let bytes = checkpoint::encode(header, state);
    state.walks = Vec::new();
    bytes
}

/// Many probSAT or WalkSAT walks over one formula, on a device or on the CPU backend. The walks
/// start afresh at every [`SatSls::solve`].
pub struct SatSls {
    cnf: Cnf,
    f: SlsFormula,
    backend: Backend,
    walks: u32,
    local: Option<bool>,
    log_capacity: Option<usize>,
    description: String,
    /// A checkpoint the next solve continues from ([`SatSls::load_state`]).
    resume: Option<Vec<u8>>,
    /// The last solve, for [`SatSls::save_state`].
    last: Option<Finished>,
}

impl SatSls {
    /// Walks over `cnf` on `backend`; `walks` `None` picks the count (device: compute units times
    /// the tuning's walks per unit; CPU: the rayon threads).
    pub fn new(cnf: Cnf, walks: Option<u32>, backend: Backend) -> Result<Self> {
        if walks == Some(0) {
            return Err(Error::arg("walks", "0; expected at least 1 walk"));
        }
        if cnf.num_vars == 0 {
            return Err(Error::arg("cnf", "the formula has no variables"));
        }
        let f = SlsFormula::new(&cnf);
        let (walks, description) = match backend {
            Backend::Cpu => {
                let w = walks.unwrap_or(rayon::current_num_threads() as u32);
                footprint(&f, w, None, log_capacity(&f), false).check(
                    "walks",
                    &format!("a solve of {w} walks"),
                    None,
                )?;
                (w, backend.describe())
            }
            Backend::Device(_) => {
                let ctx = backend.context("the SAT walks")?;
                let i = &ctx.info;
                let mut w = walks.unwrap_or(
                    (i.compute_units.max(1) as usize * ctx.tuning().sat_sls_walks_per_cu) as u32,
                );
                if walks.is_none() {
                    w = w.min(device::walks_that_fit(
                        &f,
                        i.max_alloc_bytes,
                        i.global_mem_bytes,
                    ));
                }
                footprint(&f, w, Some(false), log_capacity(&f), false).check(
                    "walks",
                    &format!("a solve of {w} walks"),
                    Some(i),
                )?;
                (w, i.describe())
            }
        };
        Ok(SatSls {
            cnf,
            f,
            backend,
            walks,
            local: None,
            log_capacity: None,
            description,
            resume: None,
            last: None,
        })
    }

    /// The memory a solve with `opts` holds at its peak (docs/specs/SAT_SLS.md "Memory"): the
    /// formula, and for each walk its state, record, flip log, reports and, under a checkpoint
    /// plan, its checkpointed state. [`SatSls::new`] and every solve refuse walks whose
    /// footprint the device or the host cannot hold.
    pub fn footprint(&self, opts: &SlsOptions) -> Footprint {
        let p = self.params(opts);
        footprint(
            &self.f,
            self.walks,
            match self.backend {
                Backend::Cpu => None,
                Backend::Device(_) => Some(self.local == Some(true)),
            },
            p.log_capacity,
            opts.stop.checkpoint.is_some(),
        )
    }

    /// [`SatSls::footprint`] against the backend's device and the host (errors name `walks`).
    fn check_footprint(&self, opts: &SlsOptions, p: &WalkParams) -> Result<()> {
        let device = match self.backend {
            Backend::Cpu => None,
            b => Some(b.context("the SAT walks")?),
        };
        footprint(
            &self.f,
            self.walks,
            device.as_ref().map(|_| self.local == Some(true)),
            p.log_capacity,
            opts.stop.checkpoint.is_some(),
        )
        .check(
            "walks",
            &format!("a solve of {} walks", self.walks),
            device.as_ref().map(|c| &c.info),
        )
    }

    /// The walks' parameters of `opts` on this formula.
    fn params(&self, opts: &SlsOptions) -> WalkParams {
        WalkParams {
            method: opts.method,
            table: opts.break_function.table(self.f.max_len),
            noise: opts.noise_threshold(),
            seed: opts.seed,
            restart_flips: opts.restart_flips,
            persist: persists(&self.f),
            log_capacity: self
                .log_capacity
                .unwrap_or_else(|| log_capacity(&self.f))
                .min(u32::MAX as usize - 1),
        }
    }

    /// What a checkpoint of a solve with `opts` is checked against: the formula and the options
    /// that shape the walks (not the stops: a resumed solve may have more flips or time). The
    /// backend is not recorded: both walk alike.
    fn header(&self, opts: &SlsOptions, p: &WalkParams) -> Header {
        let c = &self.cnf;
        let lits = le_bytes(&c.literals, i32::to_le_bytes);
        let offs = le_bytes(&c.offsets, u32::to_le_bytes);
        let table = le_bytes(&p.table, u32::to_le_bytes);
        let mut start = Vec::new();
        for a in &opts.start {
            start.extend(le_bytes(a.words(), u32::to_le_bytes));
        }
        Header::new(
            "sat_sls",
            checkpoint::fingerprint(
                "SAT",
                &format!("{} variables, {} clauses", c.num_vars, c.num_clauses()),
                &[&lits, &offs],
            ),
        )
        .option("method", p.method.as_str())
        .option("break_table", format!("{:08x}", crc32fast::hash(&table)))
        .option("noise", p.noise)
        .option("seed", p.seed)
        .option("restart_flips", p.restart_flips)
        .option("flips_per_launch", opts.flips_per_launch)
        .option("walks", self.walks)
        .option("log_capacity", p.log_capacity)
        .option(
            "start",
            if opts.start.is_empty() {
                "none".to_string()
            } else {
                format!(
                    "{} assignments, checksum {:08x}",
                    opts.start.len(),
                    crc32fast::hash(&start)
                )
            },
        )
    }

    /// The next solve continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or
    /// a checkpoint file) instead of starting afresh. Checked now: the file's frame, version,
    /// solver and formula; the options when the solve starts (errors name `state`).
    pub fn load_state(&mut self, bytes: Vec<u8>) -> Result<()> {
        let opts = SlsOptions::default();
        check_resumable(&bytes, self.header(&opts, &self.params(&opts)))?;
        self.resume = Some(bytes);
        Ok(())
    }

    /// The state [`load_state`](Self::load_state) gave that no solve has used yet, taken away.
    pub fn take_loaded_state(&mut self) -> Option<Vec<u8>> {
        self.resume.take()
    }

    /// The last solve's whole state (every walk's assignment, best assignment, flip log and
    /// counters, the unsatisfied lists of persisting walks, the found flag, launches and time)
    /// as checkpoint bytes, from which [`load_state`](Self::load_state) continues it.
    pub fn save_state(&mut self) -> Result<Vec<u8>> {
        let Some(l) = self.last.as_mut() else {
            return Err(Error::arg(
                "state",
                "no solve has run on this solver: nothing to save",
            ));
        };
        snapshot(&l.header, &mut l.state, &l.engine, &self.f, l.persist)
    }

    /// The backend the walks run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Forces the device walks' state into local (`Some(true)`) or global memory (`None`: local
    /// where a group's states fit).
    pub fn set_local_memory(&mut self, local: Option<bool>) {
        self.local = local;
    }

    /// The entries of each walk's flip log (`None`: [`log_capacity`]); 0 copies the whole
    /// assignment at every new best. For tests: the best assignments do not depend on it.
    #[doc(hidden)]
    pub fn set_log_capacity(&mut self, cap: Option<usize>) {
        self.log_capacity = cap;
    }

    /// Whether the walks' state persists across launches ([`persists`]).
    pub fn state_persists(&self) -> bool {
        persists(&self.f)
    }

    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    pub fn walks(&self) -> u32 {
        self.walks
    }

    describe_alias!();

    pub fn describe(&self) -> String {
        self.description.clone()
    }

    /// Runs the walks until a model, the flip budget, the time limit or an interrupt.
    pub fn solve(&mut self, opts: &SlsOptions) -> Result<SatSlsSolveResult> {
        self.solve_observed(opts, |_| true)
    }

    /// [`solve`](Self::solve), calling `progress` before every launch and at the end (its `work`
    /// is the flips per walk so far, its `best` the fewest unsatisfied clauses of any walk so far,
    /// infinite before the first launch); `false` from it stops the walks (stopped by the
    /// budget).
    pub fn solve_observed(
        &mut self,
        opts: &SlsOptions,
        progress: impl FnMut(&Progress) -> bool,
    ) -> Result<SatSlsSolveResult> {
        opts.check()?;
        let params = self.params(opts);
        let header = self.header(opts, &params);
        // a loaded checkpoint is checked against these options; it is used up only by a solve
        // that starts from it
        let resumed: Option<SlsState> = match &self.resume {
            Some(bytes) => Some(checkpoint::decode(bytes, &header, "state")?),
            None => None,
        };
        if let Some(r) = &resumed {
            if r.walks.len() != self.walks as usize || r.found > self.walks {
                return Err(Error::arg(
                    "state",
                    "a corrupt checkpoint: its walks do not match its options",
                ));
            }
        }
        if resumed.is_none() {
            self.check_start(&opts.start)?;
        }
        let since = opts.since.unwrap_or_else(Instant::now);
        let mut driver = opts
            .stop
            .driver(checkpoint::resumed_start(
                since,
                resumed.as_ref().map_or(0.0, |r| r.elapsed),
            ))
            .on_progress(progress);
        // the last solve's engine goes before a new one is made
        self.last = None;
        self.check_footprint(opts, &params)?;
        let setup = driver.cut().setup_scope();
        let mut engine = match self.backend {
            Backend::Cpu => Engine::Cpu(CpuWalks::new(&self.f, self.walks)),
            b => Engine::Device(Box::new(DeviceWalks::new(
                &self.f, b, self.walks, &params, self.local,
            )?)),
        };
        drop(setup);
        let mut s = match resumed {
            Some(mut r) => {
                engine.set_states(&self.f, &params, &r.walks, r.found)?;
                r.walks = Vec::new();
                r
            }
            None => {
                let mut found = 0;
                if !opts.start.is_empty() {
                    let words = self.f.words();
                    let mut walks: Vec<WalkState> = (0..self.walks as usize)
                        .map(|w| {
                            let a = if opts.start.len() == 1 {
                                opts.start.first()
                            } else {
                                opts.start.get(w)
                            };
                            match a {
                                Some(a) => {
                                    WalkState::starting(&self.f, params.persist, a.words().to_vec())
                                }
                                None => WalkState::fresh(words),
                            }
                        })
                        .collect();
                    if let Some(w) = walks.iter().position(|w| w.unsatisfied == 0) {
                        found = w as u32 + 1;
                    }
                    engine.set_states(&self.f, &params, &walks, found)?;
                    walks.clear();
                }
                SlsState {
                    walks: Vec::new(),
                    found,
                    done: 0,
                    launches: 0,
                    elapsed: 0.0,
                    seconds: 0.0,
                }
            }
        };
        let mut schedule = Schedule::new(opts.stop.checkpoint.as_ref());
        let started = Instant::now();
        let prior_seconds = s.seconds;
        // the fewest unsatisfied clauses of any walk so far (none before the first launch of
        // this call)
        let mut best = u32::MAX;
        let stop = loop {
            let best_f = if best == u32::MAX {
                f64::INFINITY
            } else {
                f64::from(best)
            };
            // checked (and reported) after the launch that found a model too
            let r = driver.check(s.done, 0, best_f);
            if s.found != 0 {
                break StopReason::Target;
            }
            if let Some(r) = r {
                break r;
            }
            // launches of at most the chosen size; under a time limit sized to end before the
            // time left, and under a stop token sized to about `STEP_SECONDS` where the walks
            // persist (their course does not depend on the launches), so that the token is
            // honoured within one short launch. Walks rebuilt at every launch keep launches of
            // the chosen size without a time limit, so that a seed gives the same walks
            let done = s.done;
            let mut flips = opts.flips_per_launch as u64;
            if opts.stop.time_limit.is_some() || (params.persist && driver.watch().has_token()) {
                flips = driver.next_size(flips.min(FIRST_LAUNCH), flips, done);
            } else if let Some(b) = opts.stop.budget {
                flips = flips.min(b - done);
            }
            (s.found, best) = driver.step(flips, |flips| -> Result<(u32, u32)> {
                Ok(match &mut engine {
                    Engine::Cpu(c) => c.launch(&self.f, &params, flips as u32, POLL),
                    Engine::Device(d) => d.launch(
                        flips as u32,
                        params.restart_flips,
                        params.seed,
                        params.noise,
                    )?,
                })
            })?;
            s.done += flips;
            s.launches += 1;
            if schedule.due() {
                s.elapsed = driver.elapsed();
                s.seconds = prior_seconds + started.elapsed().as_secs_f64();
                schedule.write(|| snapshot(&header, &mut s, &engine, &self.f, params.persist))?;
            }
        };
        s.elapsed = driver.elapsed();
        s.seconds = prior_seconds + started.elapsed().as_secs_f64();
        // the solve's end, whatever ended it, is a checkpoint: a larger budget continues it
        schedule.write(|| snapshot(&header, &mut s, &engine, &self.f, params.persist))?;
        self.resume = None;
        let found = s.found;
        let launches = s.launches;
        let seconds = s.seconds;
        let reports = self.reports(&engine)?;
        let flips: u64 = reports.iter().map(|r| r.0.flips).sum();
        let (bi, _) = reports
            .iter()
            .enumerate()
            .min_by_key(|(_, r)| r.0.best_unsatisfied)
            .expect("at least one walk");
        let (best_unsat, best) = if found != 0 {
            let w = &reports[found as usize - 1];
            (w.0.best_unsatisfied, w.1.clone())
        } else {
            (reports[bi].0.best_unsatisfied, reports[bi].1.clone())
        };
        // no walk started (a stop before the first launch): the count of the all-false assignment
        let best_unsat = if best_unsat == u32::MAX {
            self.cnf.unsatisfied_count(&best)
        } else {
            best_unsat
        };
        // the model is checked against the input clauses; its count there must be the walk's
        let model = if best_unsat == 0 {
            Some(Model::verified(&self.cnf, best.clone()).map_err(|e| {
                Error::Panic(format!("a walk reported a model that is not one: {e}"))
            })?)
        } else {
            None
        };
        let stop = if model.is_some() {
            StopReason::Target
        } else {
            stop
        };
        self.last = Some(Finished {
            header,
            state: s,
            engine,
            persist: params.persist,
        });
        Ok(SatSlsSolveResult {
            satisfiable: model.is_some(),
            model,
            best_unsatisfied: best_unsat,
            best,
            method: opts.method,
            walks: self.walks,
            launches,
            flips,
            seconds,
            flips_per_second: if seconds > 0.0 {
                flips as f64 / seconds
            } else {
                0.0
            },
            stop,
            walk_reports: reports.into_iter().map(|r| r.0).collect(),
        })
    }

    /// Checks a warm start's assignments against the formula and the walks (errors name
    /// `start`).
    fn check_start(&self, start: &[Assignment]) -> Result<()> {
        if start.len() > self.walks as usize {
            return Err(Error::arg(
                "start",
                format!(
                    "{} assignments for {} walks; expected at most one per walk",
                    start.len(),
                    self.walks
                ),
            ));
        }
        for (i, a) in start.iter().enumerate() {
            if a.num_vars() != self.f.num_vars {
                return Err(Error::arg(
                    "start",
                    format!(
                        "assignment {i} has {} variables; the formula has {}",
                        a.num_vars(),
                        self.f.num_vars
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every walk's report with its best assignment.
    fn reports(&self, engine: &Engine) -> Result<Vec<(SlsWalkReport, Assignment)>> {
        let n = self.f.num_vars;
        let a =
            |w: &[u32]| Assignment::from_words(n, w.to_vec()).expect("the formula's word count");
        match engine {
            Engine::Cpu(c) => Ok(c
                .walks
                .iter()
                .map(|w| {
                    let r = SlsWalkReport {
                        flips: w.flips,
                        restarts: w.restarts,
                        unsatisfied: w.unsatisfied,
                        best_unsatisfied: w.best_unsatisfied,
                        assignment: a(&w.x),
                        best: a(&w.best),
                    };
                    (r, a(&w.best))
                })
                .collect()),
            Engine::Device(d) => Ok(d
                .records()?
                .into_iter()
                .map(|r| {
                    let rep = SlsWalkReport {
                        flips: r.flips,
                        restarts: r.restarts,
                        unsatisfied: r.unsatisfied,
                        best_unsatisfied: r.best_unsatisfied,
                        assignment: a(&r.assignment),
                        best: a(&r.best),
                    };
                    (rep, a(&r.best))
                })
                .collect()),
        }
    }
}
