//! Robust tabu search for the QAP (Taillard 1991, with the 2006 tenure rule), many independent
//! chains at once: docs/specs/QAP_TS.md.
//!
//! [`QapTs::solve`] runs every chain in rounds of `launch_iterations` iterations, made of short
//! launches, on an
//! [`Engine`] (`device.rs`: one work-group per chain in `cl/qap_ts.cl`; `cpu.rs`: one rayon task
//! per chain, the same draws). Between launches this module, once for both backends, keeps an
//! elite pool of the best distinct permutations and restarts the chains that found no new best
//! for a stagnation horizon from a perturbed elite permutation. On integer data a seed, a chain
//! count and the iteration options give the same result on every device and on the CPU.
//!
//! # One iteration
//!
//! The host uploads each chain's small state (permutation, cost, best, iteration counters, a
//! fresh-start flag); `qap_ts_run` runs one work-group per chain for a whole launch (thousands of
//! iterations): it recomputes the chain's delta matrix, then per iteration every work-item scans a
//! strided share of the n(n-1)/2 swaps under the tabu and aspiration rules, a work-group reduction
//! picks the move by (aspired, delta, random tie key), one work-item applies it and stamps the tabu
//! matrix, and all work-items update the deltas (O(1) per pair, O(n) for the pairs that touch the
//! move). The host reads the states back, keeps the elite pool and restarts stagnant chains. The
//! CPU engine (`cpu.rs`) runs the same chains with the same Philox draws, so integer chains agree
//! bit for bit. On several devices (`QapTs::on_devices`) each device launches a block of chains
//! (draws keyed by the global chain index, `c0`) from its own thread, and the pool acts on all
//! chains after every launch, so the split does not change the result.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`device`] | `qap_ts_run` of `cl/qap_ts.cl`: one work-group per chain |
//! | [`cpu`] | one chain on the host and the rayon engine, the reference of the device |

pub mod cpu;
pub mod device;

use crate::device::Footprint;
use crate::error::{Error, Result};
use crate::interrupt::StopReason;
use crate::problem::qap::{check_perm, Cost, QapProblem};
use crate::rng::Philox;
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::checks::{check_counted_stop, check_resumable};
use crate::run::Stop;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

pub use crate::device::Backend;
pub use cpu::TsParams;

/// How a tenure is drawn (each of the two placements of a move draws its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TenureRule {
    /// Taillard 2006 (`tabou_qap2`): floor(u^3 * 8n), u uniform in (0, 1]: mean 2n, up to 8n.
    Cubic,
    /// Taillard 1991: uniform in [floor(0.9n), floor(1.1n)].
    Uniform,
}

/// The options of a solve. Its limits are [`stop`](Self::stop): the budget is iterations per chain
/// in total (`max_iterations` in the C ABI, Python and the CLI), with a time limit, a target (a
/// cost at or below it stops), a stop token and a checkpoint plan; a budget, a time limit or a
/// token must be set, and evaluations are not counted (refused). The stops act between launches; the pool and the restarts every `launch_iterations` iterations (a
/// round), made of launches of a short step each (see `launch_iterations`). Results
/// are reproducible for equal `seed`, `chains`, budget, `launch_iterations` and pool
/// options (and identical across backends on integer data) up to where a time limit ends the
/// solve.
#[derive(Clone, Debug)]
pub struct QapTsOptions {
    /// Independent chains (work-groups on the device, tasks on the CPU); 0 (the default): the
    /// solve's own count, [`QapTs::default_chains`].
    pub chains: usize,
    /// When the solve stops (budget: iterations per chain in total) and where it writes its
    /// checkpoint ([`QapTs::load_state`] continues from one).
    pub stop: Stop,
    /// Iterations per chain per round, after which the elite pool and the restarts act; the
    /// most of one launch (the device's kernel runs them without the host). Launches are a short
    /// step each (a time limit, Ctrl-C and a stop token act between them), ending at every
    /// round; on float data and with an exchange between ranks a round is one launch unless a
    /// time limit sizes them.
    pub launch_iterations: u32,
    pub seed: u64,
    pub tenure: TenureRule,
    /// The long-term aspiration horizon; None: 5 n^2.
    pub aspiration_horizon: Option<u32>,
    /// Best distinct permutations kept (0: no pool, no restarts). Default 8; with hundreds of
    /// chains 16 is better ([`elite_size_for`]).
    pub elite_size: usize,
    /// Iterations without a new best of a chain after which it restarts from the pool (0: never);
    /// None: n^2 (a lower mean gap than 20 n^2 on tai100a and sko100a in 10 s runs; see
    /// benchmarks/INDEX.md, 2026-11-24-h100-qap_ts_chains).
    pub stagnation: Option<u64>,
    /// Random swaps applied to the elite permutation of a restart: uniform in this range;
    /// None: 2 ..= max(2, n / 4). Provisional: no benchmark record has compared ranges yet.
    pub perturbation: Option<(usize, usize)>,
    /// The share of restarts (0 to 1) that start from a child of two pool members instead of a
    /// perturbed member: the placements both parents share are kept, the others taken from
    /// either parent where still free, the rest at random ([`crossover`]).
    pub crossover: f64,
    /// Start permutations (one per chain, or fewer: the rest random).
    pub starts: Vec<Vec<usize>>,
    /// Work-items per chain on a device (a power of two, at most the device allows and one per
    /// pair); None: the device kind's tuning. Ignored by the CPU backend.
    pub group_size: Option<usize>,
    /// The global index of this solve's first chain: chain c draws as chain `first_chain + c`
    /// (its start, restarts and iterations), for a job whose chains are numbered across
    /// processes, such as MPI ranks ([`QapTs::solve_shared`]). 0 for a solve on its own.
    pub first_chain: usize,
    /// When `chains` chains would not fit the memory of the device (or, on the CPU backend, of
    /// the host), run as many as fit and say so in the result (`chains` below
    /// `chains_requested`); false: refuse the solve, naming `chains` and the most that fit.
    pub fit_chains: bool,
}

impl Default for QapTsOptions {
    fn default() -> Self {
        QapTsOptions {
            chains: 0,
            stop: Stop::budget(100_000),
            launch_iterations: 2_000,
            seed: 1,
            tenure: TenureRule::Cubic,
            aspiration_horizon: None,
            elite_size: 8,
            stagnation: None,
            perturbation: None,
            crossover: 0.0,
            starts: Vec::new(),
            group_size: None,
            first_chain: 0,
            fit_chains: true,
        }
    }
}

/// The chains of a solve that leaves `chains` at 0, summed over its `backends`: four per compute
/// unit on a GPU (the best of one, two, four and eight per unit; see benchmarks/INDEX.md,
/// 2026-11-24-h100-qap_ts_chains), one per compute unit on another device and one per thread on
/// the CPU backend. On cores, at equal iterations in all, a few long chains end lower than many
/// short ones (benchmarks/INDEX.md, 2026-12-07-pocl2core-qap_chains_equal_work), as Taillard's
/// one search per core does.
pub fn default_chains(backends: &[Backend]) -> Result<usize> {
    let mut total = 0usize;
    for &b in backends {
        total += match b {
            Backend::Cpu => rayon::current_num_threads(),
            Backend::Device(_) => {
                let ctx = b.context("QAP tabu search")?;
                let units = ctx.info.compute_units.max(1) as usize;
                if ctx.info.kind == crate::device::DeviceKind::Gpu {
                    4 * units
                } else {
                    units
                }
            }
        };
    }
    Ok(total.clamp(1, MAX_CHAINS))
}

/// The elite pool size measured best for `chains` chains: 16 from 256 chains on (pools of 4 to
/// 32 on tai50a and tai100a at 528 chains; see benchmarks/INDEX.md, 2026-11-24-h100-qap_ts_kernel2),
/// 8 below (with few chains a larger pool dilutes the restarts: bur26a with 4 chains stalls at 16).
pub fn elite_size_for(chains: usize) -> usize {
    if chains >= 256 {
        16
    } else {
        8
    }
}

/// Iterations of the first launch of a time-limited solve (it is timed to size the next ones).
const FIRST_TIMED_LAUNCH: u64 = 8;

/// Most chains of one solve.
pub const MAX_CHAINS: usize = 1 << 20;

impl QapTsOptions {
    /// Errors name the option.
    pub fn check(&self, n: usize) -> Result<()> {
        // (0: the backend's count, chosen when the solve starts)
        if self.chains > MAX_CHAINS {
            return Err(Error::arg(
                "chains",
                format!(
                    "{}; expected 1..={MAX_CHAINS} (or 0: the backend's count)",
                    self.chains
                ),
            ));
        }
        if self.launch_iterations == 0 {
            return Err(Error::arg("launch_iterations", "0; expected at least 1"));
        }
        check_counted_stop(
            &self.stop,
            "max_iterations",
            "the tabu search counts iterations",
        )?;
        if let Some(h) = self.aspiration_horizon {
            if h == 0 {
                return Err(Error::arg("aspiration_horizon", "0; expected at least 1"));
            }
        }
        if let Some(t) = self.stop.target {
            if !t.is_finite() {
                return Err(Error::arg(
                    "target",
                    format!("{t}; expected a finite number"),
                ));
            }
        }
        if let Some(g) = self.group_size {
            if g == 0 || !g.is_power_of_two() || g > 1024 {
                return Err(Error::arg(
                    "group_size",
                    format!("{g}; expected a power of two in 1..=1024"),
                ));
            }
        }
        if let Some((lo, hi)) = self.perturbation {
            if lo == 0 || lo > hi {
                return Err(Error::arg(
                    "perturbation",
                    format!("({lo}, {hi}); expected 1 <= min <= max"),
                ));
            }
        }
        if !(0.0..=1.0).contains(&self.crossover) {
            return Err(Error::arg(
                "crossover",
                format!("{}; expected a share in 0..=1", self.crossover),
            ));
        }
        // (with chains 0 the solve checks the starts against the count it chooses)
        if self.chains > 0 && self.starts.len() > self.chains {
            return Err(Error::arg(
                "starts",
                format!(
                    "{} permutations for {} chains",
                    self.starts.len(),
                    self.chains
                ),
            ));
        }
        for p in &self.starts {
            check_perm(p, n, "starts")?;
        }
        // the chain's iteration counter and its tabu stamps are 32-bit between restarts
        Ok(())
    }

    fn horizon(&self, n: usize) -> u32 {
        self.aspiration_horizon
            .unwrap_or((5 * n * n).min(i32::MAX as usize / 4) as u32)
    }

    fn stagnation(&self, n: usize) -> u64 {
        self.stagnation.unwrap_or((n * n) as u64)
    }

    fn perturbation(&self, n: usize) -> (usize, usize) {
        self.perturbation.unwrap_or((2, (n / 4).max(2)))
    }
}

/// What [`QapTs::solve`] returns.
#[derive(Clone, Debug, Serialize)]
pub struct QapTsSolveResult {
    pub cost: Cost,
    /// The best permutation, 0-based, direct (unit i at location `permutation[i]`).
    pub permutation: Vec<usize>,
    /// Chains run: `chains_requested`, or fewer where that many would not fit the memory
    /// ([`QapTsOptions::fit_chains`]).
    pub chains: usize,
    pub chains_requested: usize,
    /// Iterations per chain.
    pub iterations: u64,
    /// Launches (engine calls).
    pub launches: u64,
    /// Chains restarted from the elite pool, in total.
    pub restarts: u64,
    pub seconds: f64,
    pub seconds_to_best: f64,
    pub target_reached: bool,
    /// Why the solve ended (`Budget`: the iteration budget, or the progress callback).
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
    pub backend: String,
}

/// Reported after every launch; the callback returns false to stop.
#[derive(Clone, Debug)]
pub struct QapTsProgress {
    pub iterations: u64,
    pub best: Cost,
    pub seconds: f64,
    pub restarts: u64,
}

/// The state of one chain the host owns between launches (costs as 64-bit transports, as
/// `Cost::bits`). The engine keeps the tabu matrices (reset when `fresh`) and the deltas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainState {
    pub perm: Vec<u16>,
    pub cost: u64,
    pub best: u64,
    pub best_perm: Vec<u16>,
    /// Iteration within the current start.
    pub t: i32,
    /// Iterations since the first start (the Philox counter of the chain).
    pub g: u64,
    /// `g` at the last new best of the current start.
    pub best_iter: u64,
    /// A new start: the engine resets the chain's tabu matrix.
    pub fresh: bool,
}

impl ChainState {
    /// A fresh start from `perm` after `g` iterations of the chain (its Philox counter).
    pub fn start(problem: &QapProblem, perm: Vec<u16>, g: u64) -> Self {
        let cost = problem.cost_order(&perm).bits();
        ChainState {
            best_perm: perm.clone(),
            perm,
            cost,
            best: cost,
            t: 0,
            g,
            best_iter: g,
            fresh: true,
        }
    }
}

/// What a solve tells its partners between two launches ([`QapTs::solve_shared`]).
#[derive(Clone, Debug)]
pub struct ShareRound<'a> {
    /// The solve's best so far (the problem's units) and its permutation.
    pub best: f64,
    pub permutation: &'a [u16],
    /// The solve would stop now (its target, iteration or time limit, or a stop request).
    pub stop: bool,
    /// The solve's checkpoint is due (by its own clock).
    pub checkpoint: bool,
}

/// What the partners answer: stop together (when any of them would), and the best permutation
/// among them when it is better than this solve's (offered to its best and its elite pool).
#[derive(Clone, Debug, Default)]
pub struct Shared {
    pub stop: bool,
    pub permutation: Option<Vec<u16>>,
    /// Every partner writes its checkpoint now, before it takes the shared permutation (when
    /// any partner's is due), so that the partners' files are of the same iteration.
    pub checkpoint: bool,
}

/// Runs launches of all chains: the device engine or the CPU engine.
pub trait Engine: Send {
    /// `iterations` iterations of every chain from `states`, which it updates.
    fn advance(&mut self, states: &mut [ChainState], iterations: u32) -> Result<()>;
    /// The tabu matrices of the engine's `chains` chains (n^2 stamps each, in chain order), for
    /// a checkpoint.
    fn tabu(&mut self, chains: usize) -> Result<Vec<i32>>;
    /// Sets the tabu matrices (as [`tabu`](Engine::tabu) gives them), to resume a solve.
    fn set_tabu(&mut self, tabu: &[i32]) -> Result<()>;
    fn describe(&self) -> String;
}

/// The robust tabu search solver of one problem on one backend, or on several devices
/// ([`QapTs::on_devices`]).
pub struct QapTs {
    problem: Arc<QapProblem>,
    backend: Backend,
    /// The devices of a multi-device solver (empty: `backend` alone).
    devices: Vec<usize>,
    /// A checkpoint the next solve continues from ([`QapTs::load_state`]).
    resume: Option<Vec<u8>>,
    /// The last solve's state, its header and its engines (which hold the tabu matrices), for
    /// [`QapTs::save_state`].
    last: Option<Finished>,
}

/// Everything of a solve but the tabu matrices, which stay in its engines: the state a
/// checkpoint holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TsState {
    chains: Vec<ChainState>,
    /// The n^2 stamps of every chain, filled only in a checkpoint.
    tabu: Vec<i32>,
    host_rng: Vec<Philox>,
    /// The elite pool, best first (cost bits, permutation).
    elite: Vec<(u64, Vec<u16>)>,
    best: (u64, Vec<u16>),
    /// Iterations per chain, launches and restarts so far.
    done: u64,
    launches: u64,
    restarts: u64,
    /// Seconds the solve had run, and when it found its best.
    elapsed: f64,
    to_best: f64,
}

impl TsState {
    /// Checks a state read from a checkpoint against the solve's `chains` and `n` before any of
    /// it is used: counts, and every permutation a permutation of 0..n (a damaged state whose
    /// checksum was forged must be an error, never an index out of bounds).
    fn check(&self, chains: usize, n: usize) -> Result<()> {
        let bad = |what: &str| {
            Error::arg(
                "state",
                format!("a corrupt checkpoint: {what} do not match the solve"),
            )
        };
        if self.chains.len() != chains
            || self.host_rng.len() != chains
            || self.tabu.len() != chains * n * n
        {
            return Err(bad("its chain counts"));
        }
        let perms = self
            .chains
            .iter()
            .flat_map(|c| [&c.perm, &c.best_perm])
            .chain(self.elite.iter().map(|e| &e.1))
            .chain(std::iter::once(&self.best.1));
        for p in perms {
            let p: Vec<usize> = p.iter().map(|&v| v as usize).collect();
            check_perm(&p, n, "state").map_err(|_| bad("its permutations"))?;
        }
        if self.chains.iter().any(|c| c.t < 0 || c.best_iter > c.g) {
            return Err(bad("its iteration counters"));
        }
        if !(self.elapsed.is_finite() && self.elapsed >= 0.0) {
            return Err(bad("its time taken"));
        }
        Ok(())
    }
}

/// A finished solve, kept for [`QapTs::save_state`].
struct Finished {
    header: Header,
    state: TsState,
    engines: Vec<Box<dyn Engine>>,
    ranges: Vec<std::ops::Range<usize>>,
}

/// The state with the engines' tabu matrices, as a checkpoint's bytes.
fn snapshot(
    header: &Header,
    state: &mut TsState,
    engines: &mut [Box<dyn Engine>],
    ranges: &[std::ops::Range<usize>],
) -> Result<Vec<u8>> {
    let mut tabu = Vec::new();
    for (e, r) in engines.iter_mut().zip(ranges) {
        tabu.extend(e.tabu(r.len())?);
    }
    state.tabu = tabu;
    let bytes = checkpoint::encode(header, state);
    state.tabu = Vec::new();
    bytes
}

impl QapTs {
    pub fn new(problem: Arc<QapProblem>, backend: Backend) -> Result<Self> {
        if problem.n < 3 {
            return Err(Error::arg(
                "n",
                format!("{}; robust tabu search needs at least 3 units", problem.n),
            ));
        }
        if let Backend::Device(_) = backend {
            // fail early on a missing device or fp64
            let ctx = backend.context("QAP tabu search")?;
            if problem.elem_type() == crate::problem::qap::ElemType::F64 {
                ctx.require_fp64()?;
            }
        }
        Ok(QapTs {
            problem,
            backend,
            devices: Vec::new(),
            resume: None,
            last: None,
        })
    }

    /// What a checkpoint of a solve with `opts` on this problem is checked against: the problem's
    /// fingerprint and the options that shape the chains' course (not the stops: a resumed solve
    /// may have more iterations or time). The device count is not recorded: the chains draw the
    /// same on any split.
    fn header(&self, opts: &QapTsOptions) -> Header {
        let p = &self.problem;
        let n = p.n;
        let (a, b) = p.data.bytes();
        let (pmin, pmax) = opts.perturbation(n);
        Header::new(
            "qap_ts",
            checkpoint::fingerprint(
                "QAP",
                &format!("n={n}, {} slices, {:?}", p.slices, p.elem_type()),
                &[a, b],
            ),
        )
        .option("chains", opts.chains)
        .option("launch_iterations", opts.launch_iterations)
        .option("seed", opts.seed)
        .option("tenure", format!("{:?}", opts.tenure))
        .option("aspiration_horizon", opts.horizon(n))
        .option("elite_size", opts.elite_size)
        .option("stagnation", opts.stagnation(n))
        .option("perturbation", format!("{pmin}..={pmax}"))
        .option("crossover", opts.crossover)
        .option("first_chain", opts.first_chain)
    }

    /// The next solve continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or
    /// a checkpoint file) instead of starting afresh. Checked now: the file's frame, version,
    /// solver and problem; the options when the solve starts (errors name `state`).
    pub fn load_state(&mut self, bytes: Vec<u8>) -> Result<()> {
        check_resumable(&bytes, self.header(&QapTsOptions::default()))?;
        self.resume = Some(bytes);
        Ok(())
    }

    /// The iterations per chain of the state [`load_state`](Self::load_state) loaded and no
    /// solve has used yet (None: none loaded).
    pub fn loaded_iterations(&self) -> Result<Option<u64>> {
        let Some(bytes) = &self.resume else {
            return Ok(None);
        };
        let h = checkpoint::header(bytes, "state")?;
        let state: TsState = checkpoint::decode(bytes, &h, "state")?;
        Ok(Some(state.done))
    }

    /// The last solve's whole state (chains, tabu matrices, elite pool, draws, counters, time)
    /// as checkpoint bytes, from which [`load_state`](Self::load_state) continues it.
    pub fn save_state(&mut self) -> Result<Vec<u8>> {
        let Some(f) = self.last.as_mut() else {
            return Err(Error::arg(
                "state",
                "no solve has run on this solver: nothing to save",
            ));
        };
        snapshot(&f.header, &mut f.state, &mut f.engines, &f.ranges)
    }

    /// A solver over several OpenCL devices (`metaopt devices`; checked: none twice, each
    /// exists, errors name `devices`): the chains are split into one contiguous block per device,
    /// each launched from its own host thread, and the elite pool and the restarts act on all
    /// chains in host memory after every launch (a barrier), so for a seed the result equals the
    /// one-device result (docs/specs/SCALE.md).
    pub fn on_devices(problem: Arc<QapProblem>, devices: &[usize]) -> Result<Self> {
        crate::multi::check_devices(devices)?;
        let mut s = QapTs::new(problem.clone(), Backend::Device(Some(devices[0])))?;
        for &d in &devices[1..] {
            QapTs::new(problem.clone(), Backend::Device(Some(d)))?;
        }
        s.devices = devices.to_vec();
        Ok(s)
    }

    pub fn problem(&self) -> &Arc<QapProblem> {
        &self.problem
    }

    /// The backend (the first device of a multi-device solver).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The state [`load_state`](Self::load_state) gave that no solve has used yet, taken away.
    pub fn take_loaded_state(&mut self) -> Option<Vec<u8>> {
        self.resume.take()
    }

    /// The engine of `params` on this backend.
    pub fn engine(
        &self,
        params: TsParams,
        chains: usize,
        group_size: Option<usize>,
    ) -> Result<Box<dyn Engine>> {
        engine_on(&self.problem, self.backend, params, chains, group_size)
    }

    pub fn solve(&mut self, opts: &QapTsOptions) -> Result<QapTsSolveResult> {
        self.solve_with_progress(opts, |_| true)
    }

    /// As [`QapTs::solve`], calling `progress` after every launch (false stops the solve).
    pub fn solve_with_progress(
        &mut self,
        opts: &QapTsOptions,
        progress: impl FnMut(&QapTsProgress) -> bool,
    ) -> Result<QapTsSolveResult> {
        self.solve_shared(opts, progress, None::<fn(&ShareRound) -> Result<Shared>>)
    }

    /// As [`QapTs::solve_with_progress`], with solves elsewhere (other processes: MPI ranks, each
    /// with its own `first_chain`): before every launch `share` gets this solve's best and
    /// whether it would stop, and answers whether all stop and the best permutation among them.
    /// Every partner calls it once per launch, so the calls can be collectives: all partners
    /// stop at the same launch (when any would), never one waiting for another.
    pub fn solve_shared(
        &mut self,
        opts: &QapTsOptions,
        mut progress: impl FnMut(&QapTsProgress) -> bool,
        mut share: Option<impl FnMut(&ShareRound) -> Result<Shared>>,
    ) -> Result<QapTsSolveResult> {
        let p = self.problem.clone();
        let n = p.n;
        let counted;
        let opts = if opts.chains == 0 {
            let mut o = opts.clone();
            o.chains = self.chains_for_zero()?;
            counted = o;
            &counted
        } else {
            opts
        };
        opts.check(n)?;
        let requested = opts.chains;
        let fitted;
        let opts = match self.chains_that_fit(opts)? {
            c if c == opts.chains => opts,
            c => {
                let mut o = opts.clone();
                o.chains = c;
                o.starts.truncate(c);
                fitted = o;
                &fitted
            }
        };
        let header = self.header(opts);
        // a loaded checkpoint is checked against these options; it is used up only by a solve
        // that starts from it
        let resumed: Option<TsState> = match &self.resume {
            Some(bytes) => Some(checkpoint::decode(bytes, &header, "state")?),
            None => None,
        };
        let t0 =
            checkpoint::resumed_start(Instant::now(), resumed.as_ref().map_or(0.0, |r| r.elapsed));
        let c0 = u32::try_from(opts.first_chain)
            .ok()
            .filter(|&c| c as usize + opts.chains <= 0x8000_0000)
            .ok_or_else(|| {
                Error::arg(
                    "first_chain",
                    "the chains' global indices must stay below 2^31",
                )
            })?;
        let params = TsParams {
            seed: opts.seed,
            tenure: opts.tenure,
            horizon: opts.horizon(n),
            first_chain: c0,
        };
        // one engine per device, each with a contiguous block of chains (keyed by global index)
        let backends = crate::multi::backends(&self.devices, self.backend)?;
        let ranges = crate::multi::blocks(opts.chains, backends.len());
        if ranges.iter().any(|r| r.is_empty()) {
            return Err(Error::arg(
                "devices",
                format!(
                    "{} devices for {} chains; give at least one chain per device",
                    backends.len(),
                    opts.chains
                ),
            ));
        }
        // the last solve's engines go before new ones are made
        self.last = None;
        // the engines are made side by side (a queue, the kernel and the buffers on each device)
        // (their kernels' build counts in the time limit and answers the stop token)
        let setup = opts.stop.cut(t0);
        let mut engines = {
            use rayon::prelude::*;
            backends
                .par_iter()
                .zip(ranges.par_iter())
                .map(|(&b, r)| {
                    setup.during_setup(|| {
                        engine_on(
                            &p,
                            b,
                            TsParams {
                                first_chain: c0 + r.start as u32,
                                ..params
                            },
                            r.len(),
                            opts.group_size,
                        )
                    })
                })
                .collect::<Result<Vec<_>>>()?
        };
        let ft = p.elem_type().ft_kind();
        let cost_of = |perm: &[u16]| p.cost_order(perm);
        let mut elite = Elite::new(opts.elite_size);
        let mut s = match resumed {
            Some(mut r) => {
                let nn = n * n;
                r.check(opts.chains, n)?;
                for (e, rg) in engines.iter_mut().zip(&ranges) {
                    e.set_tabu(&r.tabu[rg.start * nn..rg.end * nn])?;
                }
                r.tabu = Vec::new();
                for (c, perm) in std::mem::take(&mut r.elite) {
                    elite.offer(Cost::from_bits(ft, c), &perm);
                }
                r
            }
            None => {
                // host draws (starts, restarts): one stream per chain, apart from the iteration
                // streams
                let mut host_rng: Vec<Philox> = (0..opts.chains)
                    .map(|c| Philox::new(opts.seed, 0x8000_0000 | (c0 + c as u32)))
                    .collect();
                let chains: Vec<ChainState> = (0..opts.chains)
                    .map(|c| {
                        let perm: Vec<u16> = match opts.starts.get(c) {
                            Some(s) => s.iter().map(|&v| v as u16).collect(),
                            None => host_rng[c]
                                .permutation(n)
                                .into_iter()
                                .map(|v| v as u16)
                                .collect(),
                        };
                        ChainState::start(&p, perm, 0)
                    })
                    .collect();
                let mut best = (chains[0].best, chains[0].best_perm.clone());
                for st in &chains {
                    if Cost::from_bits(ft, st.best).less(&Cost::from_bits(ft, best.0)) {
                        best = (st.best, st.best_perm.clone());
                    }
                }
                TsState {
                    chains,
                    tabu: Vec::new(),
                    host_rng,
                    elite: Vec::new(),
                    best,
                    done: 0,
                    launches: 0,
                    restarts: 0,
                    elapsed: 0.0,
                    to_best: 0.0,
                }
            }
        };
        let mut best: (Cost, Vec<u16>) = (Cost::from_bits(ft, s.best.0), s.best.1.clone());
        let reached = |c: &Cost| opts.stop.target.is_some_and(|t| c.as_f64() <= t);
        let stagnation = opts.stagnation(n);
        let (pmin, pmax) = opts.perturbation(n);
        let mut stop = StopReason::Budget;
        let mut schedule = Schedule::new(opts.stop.checkpoint.as_ref());
        // the state as a checkpoint holds it (the elite pool and the best back in the state)
        let sync = |s: &mut TsState, best: &(Cost, Vec<u16>), elite: &Elite| {
            s.best = (best.0.bits(), best.1.clone());
            s.elite = elite
                .items
                .iter()
                .map(|(c, perm)| (c.bits(), perm.clone()))
                .collect();
            s.elapsed = t0.elapsed().as_secs_f64();
        };
        // the stop rules and the launch sizes: the first launch is short and timed, the next
        // ones take a short step (and end before the time left), so that a time limit, Ctrl-C
        // or a stop token ends the solve promptly. The pool and the restarts act every
        // `launch_iterations` iterations whatever the launches, and integer deltas are exact
        // and kept between launches, so for integer data the sizes do not change the course a
        // seed gives. Float data (whose host costs are recomputed after every launch) and an
        // exchange between ranks (made before every launch) keep launches of whole rounds
        // without a time limit, so that their course stays the seed's.
        let paced =
            opts.stop.time_limit.is_some() || (p.elem_type().is_integer() && share.is_none());
        let mut driver = opts.stop.driver(t0);
        loop {
            let done = s.done;
            let mine = driver.check(done, 0, best.0.as_f64());
            if let Some(share) = share.as_mut() {
                let shared = share(&ShareRound {
                    best: best.0.as_f64(),
                    permutation: &best.1,
                    stop: mine.is_some(),
                    checkpoint: schedule.due(),
                })?;
                // partners write at the same iteration, with the state from before the
                // exchange (a resumed job makes the same exchange first); a stop's checkpoint is
                // written at the end
                if shared.checkpoint && !shared.stop {
                    sync(&mut s, &best, &elite);
                    schedule.write(|| snapshot(&header, &mut s, &mut engines, &ranges))?;
                }
                if let Some(perm) = shared.permutation {
                    if perm.len() != n {
                        return Err(Error::arg(
                            "share",
                            format!(
                                "a shared permutation of {} elements for a problem of {n}",
                                perm.len()
                            ),
                        ));
                    }
                    let c = cost_of(&perm);
                    if c.less(&best.0) {
                        best = (c, perm.clone());
                        s.to_best = t0.elapsed().as_secs_f64();
                    }
                    elite.offer(c, &perm);
                }
                if shared.stop {
                    // a partner's stop (its limit or request) ends this solve too. Its reason is
                    // not shared: the target is known here, and the iteration budget is the same
                    // on every partner (they launch together); otherwise it was the partner's
                    // clock (which started apart from this one) under a time limit, else its
                    // request to stop
                    stop = mine.unwrap_or(if reached(&best.0) {
                        StopReason::Target
                    } else if opts.stop.budget.is_some_and(|b| done >= b) {
                        StopReason::Budget
                    } else if opts.stop.time_limit.is_some() {
                        StopReason::TimeLimit
                    } else {
                        StopReason::Interrupted
                    });
                    break;
                }
            } else if let Some(m) = mine {
                stop = m;
                break;
            }
            // the pool and the restarts act every `launch_iterations` iterations (a round),
            // whatever the launches: under a time limit a round is made
            // of launches sized to end before the time left (the first short and timed), so a
            // seed's course does not depend on the machine's speed until the limit ends it
            let round = opts.launch_iterations as u64;
            let mut count = round - done % round;
            if let Some(b) = opts.stop.budget {
                count = count.min(b - done);
            }
            if paced {
                count = count.min(driver.next_size(FIRST_TIMED_LAUNCH, round, done));
            }
            // tabu stamps are 32-bit iterations of one start: a start that long begins anew
            for st in &mut s.chains {
                if st.t as u64 + count > (i32::MAX / 2) as u64 {
                    st.t = 0;
                    st.fresh = true;
                }
            }
            driver.step(count, |count| {
                crate::multi::run_blocks(&mut engines, &ranges, &mut s.chains, |e, _, st| {
                    e.advance(st, count as u32)
                })
            })?;
            s.done += count;
            s.launches += 1;
            // (not the end of the budget: a resumed solve with a larger budget goes on through the
            // same rounds as one that never stopped)
            let round_end = s.done.is_multiple_of(round);
            for st in &mut s.chains {
                // float costs drift with the deltas: the host's full cost is the truth
                if !p.elem_type().is_integer() {
                    st.cost = cost_of(&st.perm).bits();
                    st.best = cost_of(&st.best_perm).bits();
                }
                let c = Cost::from_bits(ft, st.best);
                if c.less(&best.0) {
                    best = (c, st.best_perm.clone());
                    s.to_best = t0.elapsed().as_secs_f64();
                }
                if round_end {
                    elite.offer(c, &st.best_perm);
                }
            }
            if round_end && opts.elite_size > 0 && stagnation > 0 && !reached(&best.0) {
                for (c, st) in s.chains.iter_mut().enumerate() {
                    if st.g - st.best_iter < stagnation {
                        continue;
                    }
                    let rng = &mut s.host_rng[c];
                    let pool = elite.items.len() as u32;
                    // (no draw for the choice without crossover: the course is the one before)
                    let perm = if pool >= 2 && opts.crossover > 0.0 && rng.unit() < opts.crossover {
                        let a = rng.below(pool);
                        let b = (a + 1 + rng.below(pool - 1)) % pool;
                        crossover(&elite.items[a as usize].1, &elite.items[b as usize].1, rng)
                    } else {
                        let mut perm = elite.items[rng.below(pool) as usize].1.clone();
                        let swaps = pmin + rng.below((pmax - pmin + 1) as u32) as usize;
                        for _ in 0..swaps {
                            let i = rng.below(n as u32) as usize;
                            let j = (i + 1 + rng.below(n as u32 - 1) as usize) % n;
                            perm.swap(i, j);
                        }
                        perm
                    };
                    *st = ChainState::start(&p, perm, st.g);
                    s.restarts += 1;
                }
            }
            if share.is_none() && schedule.due() {
                sync(&mut s, &best, &elite);
                schedule.write(|| snapshot(&header, &mut s, &mut engines, &ranges))?;
            }
            let report = QapTsProgress {
                iterations: s.done,
                best: best.0,
                seconds: t0.elapsed().as_secs_f64(),
                restarts: s.restarts,
            };
            if !progress(&report) {
                break;
            }
        }
        sync(&mut s, &best, &elite);
        // the run's end, whatever ended it, is a checkpoint: a larger budget continues it
        schedule.write(|| snapshot(&header, &mut s, &mut engines, &ranges))?;
        self.resume = None;
        let result = QapTsSolveResult {
            cost: best.0,
            permutation: best.1.iter().map(|&v| v as usize).collect(),
            chains: opts.chains,
            chains_requested: requested,
            iterations: s.done,
            launches: s.launches,
            restarts: s.restarts,
            seconds: t0.elapsed().as_secs_f64(),
            seconds_to_best: s.to_best,
            target_reached: reached(&best.0),
            stop: if reached(&best.0) {
                StopReason::Target
            } else {
                stop
            },
            backend: engines
                .iter()
                .map(|e| e.describe())
                .collect::<Vec<_>>()
                .join(" + "),
        };
        self.last = Some(Finished {
            header,
            state: s,
            engines,
            ranges,
        });
        Ok(result)
    }
}

/// The bytes of a solve of `p` on `backend`: once and per chain, on the device and on the host
/// (the device engine with its deltas in global memory, the case that needs the most), with
/// `checkpoint` when it writes checkpoints (every tabu matrix then passes through the host).
fn chain_bytes(p: &QapProblem, backend: Backend, checkpoint: bool) -> (Footprint, Footprint) {
    let n = p.n as u64;
    let np = n * (n - 1) / 2;
    let tabu = 4 * n * n;
    let (a, b) = p.data.bytes();
    let matrices = (a.len() + b.len()) as u64;
    let (mut once, mut chain) = (Footprint::default(), Footprint::default());
    // host: the chain's state, its copy in a launch's transfers, and a checkpoint's stamps
    chain.host(&[2, 4 * 2 * n + 64]);
    if checkpoint {
        chain.host(&[tabu]);
    }
    match backend {
        Backend::Device(_) => {
            // the matrices and, for asymmetric data, their transposes
            once.host(&[2, matrices])
                .device(&[2, matrices])
                .device(&[4 * np]);
            // the tabu and delta buffers hold every chain's matrices
            chain
                .device(&[tabu])
                .device(&[device::delta_bytes(p) as u64, np])
                .device(&[4 * n + 64]);
        }
        // the chain's tabu and delta matrices (64-bit deltas at most), beside one copy of the
        // matrices, their transposes and the pairs
        Backend::Cpu => {
            once.host(&[3, matrices]).host(&[4 * np]);
            chain.host(&[tabu]).host(&[8, np]).host(&[4 * n]);
        }
    }
    (once, chain)
}

impl QapTs {
    /// The chains of a solve on this solver's devices that leaves `chains` at 0
    /// ([`default_chains`]).
    pub fn default_chains(&self) -> Result<usize> {
        default_chains(&crate::multi::backends(&self.devices, self.backend)?)
    }

    /// What `chains` 0 stands for in the next solve: the loaded checkpoint's chains when it
    /// resumes one (a state continues with its own chains), else [`Self::default_chains`].
    fn chains_for_zero(&self) -> Result<usize> {
        match self.state_chains()? {
            Some(c) => Ok(c),
            None => self.default_chains(),
        }
    }

    /// The chains of the loaded checkpoint, if one is loaded (from its header's options).
    fn state_chains(&self) -> Result<Option<usize>> {
        Ok(match &self.resume {
            Some(bytes) => checkpoint::header(bytes, "state")?
                .options
                .iter()
                .find(|(name, _)| name == "chains")
                .and_then(|(_, v)| v.parse::<usize>().ok()),
            None => None,
        })
    }

    /// The chains of the solve: `opts.chains`, or as many as fit the memory when fewer do and
    /// `opts.fit_chains` is set (else an error naming `chains`), per
    /// [`crate::device::units_that_fit`] on every device (each runs its block of the chains).
    /// A solve continuing a loaded state keeps that state's chains.
    pub fn chains_that_fit(&self, opts: &QapTsOptions) -> Result<usize> {
        if opts.chains == 0 {
            let o = QapTsOptions {
                chains: self.chains_for_zero()?,
                starts: Vec::new(),
                ..opts.clone()
            };
            return self.chains_that_fit(&o);
        }
        let p = &self.problem;
        let backends = crate::multi::backends(&self.devices, self.backend)?;
        let parts = backends.len() as u64;
        let checkpoint = opts.stop.checkpoint.is_some();
        // chains per device (the host's share counted per device too), times the devices
        let (mut per_part, mut why) = (u64::MAX, None);
        for &b in &backends {
            let (once, chain) = chain_bytes(p, b, checkpoint);
            let ctx = match b {
                Backend::Device(_) => Some(b.context("QAP tabu search")?),
                Backend::Cpu => None,
            };
            let (c, w) =
                crate::device::units_that_fit(&once, &chain, ctx.as_ref().map(|c| &c.info));
            if c < per_part {
                (per_part, why) = (c, w);
            }
        }
        let total = if parts > 1 {
            // the host holds every device's chains: its bound is on their sum
            let (once, chain) = chain_bytes(p, backends[0], checkpoint);
            let host_only = |f: &Footprint| Footprint {
                host: f.host,
                ..Footprint::default()
            };
            let (c, w) = crate::device::units_that_fit(&host_only(&once), &host_only(&chain), None);
            let devices = per_part.saturating_mul(parts);
            if c < devices {
                why = w;
                c
            } else {
                devices
            }
        } else {
            per_part
        };
        // a loaded state keeps its chains (it was written by a solve that fitted them)
        let mut want = opts.chains;
        if let Some(c) = self.state_chains()? {
            want = want.min(c);
        }
        if (want as u64) <= total {
            return Ok(want);
        }
        let why = why.unwrap_or_default();
        let n = p.n;
        if total < parts {
            return Err(Error::OutOfDeviceMemory(format!(
                "`chains`: not one chain of n = {n} fits per device: {why}"
            )));
        }
        if !opts.fit_chains {
            return Err(Error::arg(
                "chains",
                format!(
                    "{want} chains of n = {n} do not fit the memory; at most {total} do ({why})"
                ),
            ));
        }
        Ok(total as usize)
    }
}

/// The engine of `params` for `chains` chains of `problem` on `backend`.
fn engine_on(
    problem: &QapProblem,
    backend: Backend,
    params: TsParams,
    chains: usize,
    group_size: Option<usize>,
) -> Result<Box<dyn Engine>> {
    Ok(match backend {
        Backend::Cpu => cpu::engine(problem, params),
        Backend::Device(_) => {
            let layout = device::LayoutRequest {
                group_size,
                ..Default::default()
            };
            Box::new(device::DeviceEngine::new(
                problem, backend, params, chains, layout,
            )?)
        }
    })
}

/// A child of two permutations (uniform crossover with repair, as memetic QAP solvers use): the
/// units both parents place alike keep their location; the others, in random order, take the
/// location of a parent drawn at random, else the other parent's, where it is still free; the
/// units left over take the free locations in random order.
pub fn crossover(a: &[u16], b: &[u16], rng: &mut Philox) -> Vec<u16> {
    let n = a.len();
    const FREE: u16 = u16::MAX;
    let mut child = vec![FREE; n];
    let mut used = vec![false; n];
    for i in 0..n {
        if a[i] == b[i] {
            child[i] = a[i];
            used[a[i] as usize] = true;
        }
    }
    let mut open: Vec<usize> = (0..n).filter(|&i| child[i] == FREE).collect();
    // Fisher-Yates: the units that differ, in random order
    for k in (1..open.len()).rev() {
        let j = rng.below(k as u32 + 1) as usize;
        open.swap(k, j);
    }
    let mut left = Vec::new();
    for &i in &open {
        let (first, second) = if rng.below(2) == 0 {
            (a[i], b[i])
        } else {
            (b[i], a[i])
        };
        if !used[first as usize] {
            child[i] = first;
            used[first as usize] = true;
        } else if !used[second as usize] {
            child[i] = second;
            used[second as usize] = true;
        } else {
            left.push(i);
        }
    }
    let mut free: Vec<u16> = (0..n as u16).filter(|&l| !used[l as usize]).collect();
    for k in (1..free.len()).rev() {
        let j = rng.below(k as u32 + 1) as usize;
        free.swap(k, j);
    }
    for (i, l) in left.into_iter().zip(free) {
        child[i] = l;
    }
    child
}

/// The best distinct permutations seen, best first.
struct Elite {
    size: usize,
    items: Vec<(Cost, Vec<u16>)>,
}

impl Elite {
    fn new(size: usize) -> Self {
        Elite {
            size,
            items: Vec::new(),
        }
    }

    fn offer(&mut self, c: Cost, perm: &[u16]) {
        if self.size == 0 || self.items.iter().any(|(_, p)| p == perm) {
            return;
        }
        if self.items.len() == self.size && !c.less(&self.items[self.size - 1].0) {
            return;
        }
        let at = self
            .items
            .iter()
            .position(|(x, _)| c.less(x))
            .unwrap_or(self.items.len());
        self.items.insert(at, (c, perm.to_vec()));
        self.items.truncate(self.size);
    }
}
