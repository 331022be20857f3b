//! SAT local search with HC12 (thesis 000, 5.3.3): the string is the assignment, one bit per
//! variable; mask order 1 flips one variable (the GSAT neighbourhood), 2 flips two. The
//! objective, the number of unsatisfied clauses, is evaluated incrementally on the device (only
//! the clauses of the flipped variables change: `sat_hc12_eval` in `cl/sat.cl`, see
//! `device.rs`), the tabu list keeps the walk from cycling on plateaus, a variable tenure holds
//! recently flipped variables, and runs restart from random assignments. [`SatSolver`] is the
//! [`Landscape`] the engine climbs (`src/hc12/climb.rs`, `src/hc12/restarts.rs`). Every model
//! is checked against the original clauses on the host before it is reported.
//!
//! # One iteration
//!
//! The assignment and the true-literal count of every clause are on the device; `sat_hc12_eval`
//! gives each row (one or two flipped variables) the number of unsatisfied clauses after its flips
//! by visiting only the clauses of those variables, then `hc12_select` (with the variable tenure as
//! a landscape rule). The host applies the winning flips to its clause counts; a model is verified
//! against every clause before it is reported.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `device` | the formula and clause counts on the device, and the row search of `sat_hc12_eval` (`cl/sat.cl`) |

mod device;

use crate::device::{DeviceBuffer, Queue};
use crate::error::{Error, Result};
use crate::hc12::climb::Climb;
use crate::hc12::restarts::{resumable_restarts, Checkpoints, Resumable, RunReport};
use crate::hc12::rows::RowSearch;
use crate::hc12::tabu::TabuConfig;
use crate::hc12::{Landscape, Neighbourhood, TabuQuery};
use crate::interrupt::StopReason;
use crate::problem::sat::{Assignment, ClauseCounts, Cnf, Model, Occurrences};
use crate::rng::Philox;
use crate::run::checkpoint::{self, le_bytes, Header};
use crate::run::Stop;
use serde::Serialize;
use std::time::Duration;

/// Options of [`SatSolver::solve`].
#[derive(Clone, Debug)]
pub struct SatOptions {
    /// 1: flips of one variable; 2: also every pair.
    pub mask_order: u32,
    /// The tabu list (None: plain HC12, which stops at the first local optimum of each run).
    pub tabu: Option<TabuConfig>,
    /// Iterations a flipped variable stays put (0: off), unless flipping it beats the run's best:
    /// the variable tenure of tabu search for SAT, which the list of whole assignments cannot
    /// give (it only forbids exact revisits, so the walk cycles on plateaus).
    pub tenure: u32,
    pub seed: u64,
    /// The stop: its budget counts runs (None: until the time limit or the stop token), the
    /// time limit and token are checked before every iteration; a model always ends the search.
    pub stop: Stop,
    /// The moment the time limit counts from (`None`: the solve call). A front end that makes
    /// the solver in the same call ([`SatSolver::new_within`]) sets its start here, so the
    /// set-up is inside the limit; a limit already spent leaves one run that evaluates its
    /// start and stops, reporting that assignment's count.
    pub since: Option<std::time::Instant>,
}

impl Default for SatOptions {
    fn default() -> Self {
        // measured on uf75 (PoCL): a long list with early restarts solved every seed tried, where
        // 50 strings and 2,000 iterations without improvement left some at one clause
        let mut tabu = TabuConfig::new(500).expect("a valid length");
        tabu.max_iterations = 100_000;
        tabu.max_no_improve = 300;
        SatOptions {
            mask_order: 1,
            tabu: Some(tabu),
            tenure: DEFAULT_TENURE,
            seed: 1,
            stop: Stop::time_limit(Duration::from_secs(10)),
            since: None,
        }
    }
}

/// The default variable tenure.
pub const DEFAULT_TENURE: u32 = 10;

/// The result of [`SatSolver::solve`].
#[derive(Clone, Debug, Serialize)]
pub struct SatSolveResult {
    /// A model, verified against every clause.
    #[serde(skip)]
    pub model: Option<Model>,
    pub satisfiable: bool,
    /// The fewest unsatisfied clauses seen (0 with a model).
    pub best_unsatisfied: u32,
    /// The best assignment seen.
    #[serde(skip)]
    pub best: Assignment,
    pub runs: u32,
    pub iterations: u64,
    pub evaluations: u64,
    pub seconds: f64,
    /// Why the search ended (`Target`: a model).
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
}

/// HC12 over one formula on one device.
pub struct SatSolver {
    cnf: Cnf,
    occ: Occurrences,
    nb: Neighbourhood,
    queue: Queue,
    search: RowSearch,
    tabu_len: usize,
    offsets: DeviceBuffer<u32>,
    literals: DeviceBuffer<u8>,
    occ_off: DeviceBuffer<u32>,
    occ_clauses: DeviceBuffer<u32>,
    x: DeviceBuffer<u32>,
    counts: DeviceBuffer<u32>,
    until: DeviceBuffer<u32>,
    /// The run in progress: the tenure, the assignment with its clause counts, and the
    /// iteration until which each variable is held.
    tenure: u32,
    cc: Option<ClauseCounts>,
    held_until: Vec<u32>,
    /// The course the next solve continues (`load_state`), and the last solve's course with
    /// its checkpoint header (`save_state`).
    checkpoints: Checkpoints<Assignment, i64>,
}

impl SatSolver {
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    pub fn rows(&self) -> u64 {
        self.nb.rows
    }

    describe_alias!();

    pub fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        i.describe()
    }

    /// Runs until a model, the run count or the time limit.
    pub fn solve(&mut self, opts: &SatOptions) -> Result<SatSolveResult> {
        self.solve_observed(opts, |_| {})
    }

    /// [`SatSolver::solve`], with `on_run` seeing each run's report (for progress bars).
    pub fn solve_observed(
        &mut self,
        opts: &SatOptions,
        on_run: impl FnMut(&RunReport<i64>),
    ) -> Result<SatSolveResult> {
        if let Some(t) = &opts.tabu {
            t.check()?;
            if t.max_length != self.tabu_len {
                return Err(Error::arg(
                    "tabu",
                    format!(
                        "the solver was built for a tabu list of {}, not {}",
                        self.tabu_len, t.max_length
                    ),
                ));
            }
        }
        crate::hc12::restarts::check(&opts.stop, "runs")?;
        self.tenure = opts.tenure;
        let n = self.cnf.num_vars;
        let header = self.header(opts);
        // each run's start from a stream of its own
        let next_start = |_: &mut Self,
                          run: u32,
                          _: Option<&Climb<Assignment, i64>>,
                          _: &mut Philox|
         -> Result<Assignment> {
            let mut rng = Philox::new(opts.seed, run);
            Ok(Assignment::random(n, &mut rng))
        };
        let mut stop = opts.stop.clone();
        if let (Some(since), Some(limit)) = (opts.since, stop.time_limit) {
            // what is left of it; zero still makes one run, which stops before its first step
            stop.time_limit = Some(limit.saturating_sub(since.elapsed()));
        }
        let out = resumable_restarts(
            self,
            &stop,
            u32::MAX,
            opts.tabu.as_ref(),
            header,
            opts.seed,
            next_start,
            on_run,
        )?;
        let best_unsat = out.value as u32;
        let model = if best_unsat == 0 {
            Some(Model::verified(&self.cnf, out.best.clone())?)
        } else {
            None
        };
        Ok(SatSolveResult {
            satisfiable: model.is_some(),
            model,
            best_unsatisfied: best_unsat,
            best: out.best,
            runs: out.course.runs,
            iterations: out.course.iterations,
            evaluations: out.course.evaluations,
            seconds: out.course.seconds,
            stop: out.stop,
        })
    }

    /// What a checkpoint of a solve with `opts` is checked against: the formula's fingerprint,
    /// the neighbourhood, and the options that shape the course (tabu list, tenure, seed). Not
    /// the stops: a continued solve may have more runs or time.
    fn header(&self, opts: &SatOptions) -> Header {
        formula_header(&self.cnf)
            .option("mask_order", self.nb.mask_order)
            .option("tabu", format!("{:?}", opts.tabu))
            .option("tenure", opts.tenure)
            .option("seed", opts.seed)
    }

    /// The last solve's whole state (runs made, counters, the best assignment and every run's
    /// figures, the seconds taken) as checkpoint bytes, from which
    /// [`load_state`](Self::load_state) continues it. The state is taken between runs: a run
    /// cut short is not in it (a continued solve climbs it again).
    pub fn save_state(&self) -> Result<Vec<u8>> {
        self.checkpoints
            .save("no solve has run on this solver: nothing to save")
    }

    /// The next [`solve`](Self::solve) with options `opts` continues the search that
    /// checkpoint `bytes` (of [`save_state`](Self::save_state) or a checkpoint file) holds, and
    /// ends as that search would have with the same seed and stop. Errors name `state` and say
    /// what differs (the formula, an option) or that the file is damaged.
    pub fn load_state(&mut self, bytes: &[u8], opts: &SatOptions) -> Result<()> {
        let n = self.cnf.num_vars;
        let words = Assignment::words_for(n);
        let header = self.header(opts);
        self.checkpoints.load(bytes, &header, |a: &Assignment| {
            a.num_vars() == n && a.words().len() == words
        })
    }

    fn counts_now(&self) -> &ClauseCounts {
        self.cc.as_ref().expect("a run has started")
    }
}

/// The header of an HC12 state of formula `c`, without its options.
fn formula_header(c: &Cnf) -> Header {
    let lits = le_bytes(&c.literals, i32::to_le_bytes);
    let offs = le_bytes(&c.offsets, u32::to_le_bytes);
    Header::new(
        "sat_hc12",
        checkpoint::fingerprint(
            "SAT",
            &format!("{} variables, {} clauses", c.num_vars, c.num_clauses()),
            &[&lits, &offs],
        ),
    )
}

/// Checks now what can be checked of an HC12 state of formula `cnf` before the solve that
/// continues it: its frame, library version, solver and formula (the options when the solve
/// starts). Errors name `arg`.
pub fn check_state(cnf: &Cnf, bytes: &[u8], arg: &'static str) -> Result<()> {
    checkpoint::check_problem(bytes, &formula_header(cnf), arg).map(|_| ())
}

impl Resumable for SatSolver {
    fn checkpoints(&mut self) -> &mut Checkpoints<Assignment, i64> {
        &mut self.checkpoints
    }
}

/// The climb over assignments: the value is the number of unsatisfied clauses, kept on the host
/// by incremental clause counts; the time limit is checked before every iteration and a model
/// ends the search.
impl Landscape for SatSolver {
    type Value = i64;
    type Start = Assignment;
    type Best = Assignment;
    const TIME_EACH_ITERATION: bool = true;

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.search.set_deadline(deadline);
    }

    fn start_run(&mut self, a: Assignment) -> Result<u64> {
        self.cc = Some(ClauseCounts::new(&self.cnf, a));
        self.held_until = vec![0; self.cnf.num_vars];
        Ok(0)
    }

    fn reset_tabu(&mut self, _cfg: &TabuConfig) -> Result<()> {
        self.search.clear_tabu(&self.queue)
    }

    fn rows(&self) -> u64 {
        self.nb.rows
    }

    fn best_row(&mut self, q: &TabuQuery<i64>) -> Result<(i64, u64)> {
        let cc = self.cc.as_ref().expect("a run has started");
        self.x.write(&self.queue, cc.assignment.words())?;
        self.counts.write(&self.queue, &cc.counts)?;
        if q.insert && self.search.tabu().is_some() {
            // only the assignment moved to is listed
            self.search.insert(&self.queue, &self.x, 0)?;
        }
        if self.tenure > 0 {
            self.until.write(&self.queue, &self.held_until)?;
        }
        let iteration = if self.tenure > 0 {
            q.iteration
        } else {
            u32::MAX
        };
        self.search_rows(q.check, iteration, q.best, q.aspiration)
    }

    fn excluded(&self, value: i64, _tabu_checked: bool) -> bool {
        // the tenure excludes rows too: every row held or listed
        value == i64::MAX
    }

    fn apply_row(&mut self, row: u64, _value: i64, iteration: u32) -> Result<()> {
        let (bits, h) = self.nb.row_bits(row);
        let tenure = self.tenure;
        let cc = self.cc.as_mut().expect("a run has started");
        for &b in &bits[..h] {
            cc.flip(&self.occ, b as usize + 1);
            self.held_until[b as usize] = iteration.saturating_add(tenure);
        }
        debug_assert_eq!(cc.unsatisfied as i64, _value);
        Ok(())
    }

    fn current(&self) -> i64 {
        self.counts_now().unsatisfied as i64
    }

    fn best_so_far(&self) -> Assignment {
        self.counts_now().assignment.clone()
    }

    minimised_count!();

    fn reached_target(&self) -> bool {
        self.counts_now().unsatisfied == 0
    }
}
