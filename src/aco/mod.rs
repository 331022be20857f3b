//! Ant colony optimisation for the single-pair shortest path (thesis 003, corrected; specification
//! docs/specs/ACO.md).
//!
//! [`Aco::new`] takes a [`Graph`], [`AcoOptions`] and a [`Backend`]; [`Aco::run`] sends
//! `ants` ants per iteration from `source` toward `target`. Each ant walks without revisiting a
//! vertex, choosing among the unvisited neighbours with the weight `tau^alpha / (w + c)^beta`
//! (pheromone per CSR arc), until it reaches `target` or a dead end. The path of every ant that
//! reached `target` is then improved by a local search ([`local_search`]: shortcuts and one-, two-
//! and three-vertex detours; option `local_search`, on by default, the library's addition beyond the thesis). Ants
//! that reach `target` deposit `1 / L^gamma` on their arcs after evaporation (only the
//! iteration's best with `Deposit::IterationBest`); failed ants deposit nothing. The result
//! holds the best path any ant found, the strongest-pheromone path, their lengths, the exact
//! length (host Dijkstra) and the gaps.
//!
//! A run ends at its [`Stop`] (`AcoOptions::stop`: its budget of iterations, a target length,
//! a time limit, a stop token or [`interrupt`](crate::interrupt())) or after `max_no_improve`
//! iterations without a shorter path, asked by a [`Driver`](crate::run::Driver) between
//! iterations (one launch of the ants and one of the deposit each). It returns its best path so
//! far with its [`StopReason`]. [`AcoOptions::thesis_iterations`] gives the thesis's iteration
//! count, for a caller to make it the budget.
//!
//! Engines: `device.rs` (`cl/aco.cl`: one work-group per ant, one work-item per vertex for the
//! deposit) and `cpu.rs` (rayon, one task per ant). Every random number is a Philox word keyed by
//! (seed, iteration, ant, step), the roulette works on exact integers, and the deposit adds in
//! ant order, so a seed gives the same run (paths, lengths, pheromone bit for bit) on the device
//! and on the CPU with the roulette and `alpha` in {0, 1, 2} (other exponents go through `pow`,
//! whose last bit may differ between libraries). Gumbel-max selection uses `log`, so there the
//! backends agree in distribution, not necessarily bit for bit.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`device`] | `aco_ants` (one work-group per ant) and `aco_deposit` (one work-item per vertex) of `cl/aco.cl` |
//! | [`cpu`] | the rayon twin: one task per ant, the same words and roulette |
//! | [`local`] | the path local search (shortcuts and one-, two- and three-vertex detours), on the host for both backends |

pub mod cpu;
pub mod device;
pub mod local;

pub use local::local_search;

use crate::error::{Error, Result};
use crate::problem::graph::{dijkstra_until, Graph, Weights};
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::{Progress, Stop, StopReason};
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::device::Backend;

/// The marker of "no arc left this vertex" in an ant's successor row.
pub const NONE: u32 = u32::MAX;

/// How the next vertex is drawn among the eligible neighbours (the same distribution).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// Roulette by a scan of the quantised weights (three passes; exact integers, so the device
    /// and the CPU agree bit for bit).
    #[default]
    Roulette,
    /// Gumbel-max: the argmax of `ln p + G` with G standard Gumbel noise (one reduction).
    Gumbel,
}

/// Which ants deposit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Deposit {
    /// Every ant that reached the target (the thesis; the default: with the local search it
    /// found as many exact paths as `IterationBest` at a quarter of the time, docs/specs/ACO.md).
    #[default]
    All,
    /// Only the iteration's best ant (ties: the lowest ant number).
    IterationBest,
}

/// The options of a run; docs/specs/ACO.md gives the reasons for the defaults.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcoOptions {
    /// Ants per iteration (one work-group each on a device).
    pub ants: usize,
    /// Exponent of the pheromone (thesis `pow_pher`); finite, >= 0.
    pub alpha: f64,
    /// Exponent of the arc weight (thesis `pow_dist`); finite, >= 0.
    pub beta: f64,
    /// The damping constant c added to the arc weight (thesis version 4); finite, >= 0, and > 0
    /// when the graph has zero-weight arcs and `beta > 0`.
    pub damping: f64,
    /// The fraction of pheromone evaporated per iteration, rho in (0, 1] (thesis: `1 - vap_coef`).
    pub evaporation: f64,
    /// Exponent of the path length in the deposit 1 / L^gamma (thesis `pow_road`); finite, >= 0.
    pub deposit_exponent: f64,
    /// Initial pheromone (thesis `def`), finite > 0; `None`: every arc starts at 1 and, after the
    /// first iteration in which an ant reaches the target, is reset to MAX-MIN's
    /// `1 / (rho * L^gamma)` with L that iteration's best length.
    pub initial_pheromone: Option<f64>,
    /// When the run stops (its budget counts iterations, at most `u32::MAX`; `Some(0)` is
    /// refused; the thesis's count is [`thesis_iterations`](Self::thesis_iterations)), with a
    /// target (a best path length at or below it stops the run), a time limit (counted from the
    /// start of [`Aco::run`], or from the instant given to [`Aco::run_since`]), a stop token
    /// (requesting it, as [`interrupt`](crate::interrupt()) does for every run, stops the run
    /// with its best path so far, stopped as interrupted), all asked between iterations; and
    /// where and how often the run writes its checkpoint (the pheromone, the best path, the
    /// counters; [`Aco::load_state`] continues it): after the iterations when due and when the
    /// run ends, whatever ended it. A budget, a time limit or a token must be set; evaluations
    /// are not counted and no history is kept (`evaluations` and `record_every` are refused).
    /// Serialised as `iterations` (the budget), `time_limit` (seconds) and, when set, `target`.
    #[serde(flatten, serialize_with = "stop_fields")]
    pub stop: Stop,
    /// Stop after this many iterations without a shorter best path (`None`: never; `Some(0)` is
    /// refused).
    pub max_no_improve: Option<u32>,
    /// MAX-MIN bounds: `Some(r)` clamps the pheromone to [r * tmax, tmax] with
    /// tmax = 1 / (rho * Lbest^gamma) (Lbest: the best length so far) after every deposit;
    /// 0 < r <= 1.
    pub max_min: Option<f64>,
    pub deposit: Deposit,
    pub selection: Selection,
    /// The most arcs an ant walks before it counts as failed (`None`: V - 1, no limit).
    pub max_steps: Option<u32>,
    pub seed: u64,
    /// Work-items per ant on a device (at most; `None`: `Tuning::aco`).
    pub group_size: Option<usize>,
    /// Improve every successful ant's path before the deposit by shortcuts and detours through
    /// one, two or three new vertices ([`local_search`]; the library's addition beyond the thesis, as ACS and
    /// MAX-MIN with local search do). An improved path may have more arcs than `max_steps`.
    pub local_search: bool,
    /// MAX-MIN's reinitialisation on stagnation: after this many iterations without a shorter
    /// best path (counted from the last reset), every arc is reset to tau_max before the deposit
    /// (`None`: never; `Some(0)` is refused).
    pub restart: Option<u32>,
}

/// The run's stops as the options' JSON shows them: `iterations` (the budget), `time_limit` in
/// seconds (`null` for none) and `target` when set; the token and the checkpoint plan are not
/// shown.
fn stop_fields<S: Serializer>(stop: &Stop, s: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Shown {
        iterations: Option<u64>,
        time_limit: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<f64>,
    }
    Shown {
        iterations: stop.budget,
        time_limit: stop.time_limit.map(|d| d.as_secs_f64()),
        target: stop.target,
    }
    .serialize(s)
}

impl Default for AcoOptions {
    fn default() -> Self {
        AcoOptions {
            ants: 64,
            alpha: 1.0,
            beta: 2.0,
            damping: 0.0,
            evaporation: 0.1,
            deposit_exponent: 1.0,
            initial_pheromone: None,
            stop: Stop::budget(100),
            max_no_improve: None,
            max_min: Some(0.01),
            deposit: Deposit::All,
            selection: Selection::Roulette,
            max_steps: None,
            seed: 0,
            group_size: None,
            local_search: true,
            restart: None,
        }
    }
}

/// A path with its length (`length_int`: the exact sum on integer weights).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcoPath {
    /// The vertices from source to target.
    pub vertices: Vec<u32>,
    pub length: f64,
    pub length_int: Option<u64>,
    /// (length - exact) / exact; 0 when both are 0.
    pub gap: f64,
}

/// What [`Aco::run`] returns.
///
/// When `target` is unreachable from `source` the run makes no iteration and returns
/// `exact_length = None`, `best = None`, `pheromone = None`. When `source == target` the run
/// makes no iteration and both paths are `[source]` of length 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcoRunResult {
    pub source: u32,
    pub target: u32,
    /// The shortest path any ant found (`None`: no ant reached the target).
    pub best: Option<AcoPath>,
    /// The walk from the source along the strongest pheromone among unvisited neighbours (ties:
    /// the lowest arc), as the thesis reports; `None` when it dead-ends before the target.
    pub pheromone: Option<AcoPath>,
    /// The exact shortest length (host Dijkstra); `None`: unreachable.
    pub exact_length: Option<f64>,
    /// Iterations made.
    pub iterations: u32,
    /// The iteration (1-based) whose ant found `best`.
    pub found_at_iteration: Option<u32>,
    /// Ants that reached the target, over the run.
    pub successful_ants: u64,
    pub elapsed: Duration,
    pub backend_description: String,
    /// Why the run ended: `target` (a best path at most `stop.target` long), `budget` (its
    /// iterations), `stagnation` (`max_no_improve`), `time_limit`, `interrupted`, or `done` when
    /// it needed no iteration (an unreachable target, or the source itself).
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
}

impl AcoRunResult {
    pub fn best_path(&self) -> Option<&[u32]> {
        self.best.as_ref().map(|p| p.vertices.as_slice())
    }
    pub fn best_length(&self) -> Option<f64> {
        self.best.as_ref().map(|p| p.length)
    }
    /// The best path's gap to the exact length.
    pub fn gap(&self) -> Option<f64> {
        self.best.as_ref().map(|p| p.gap)
    }
    /// Whether the best path is a shortest one.
    pub fn exact(&self) -> bool {
        self.best.as_ref().is_some_and(|p| p.gap == 0.0)
    }
}

/// The graph and the options as the engines see them.
pub(crate) struct Setup {
    pub graph: Graph,
    /// eta = 1 / (w + c)^beta per arc.
    pub eta: Vec<f64>,
    pub opts: AcoOptions,
    /// The roulette's quantisation scale, 2^b with b such that a sum over the largest degree fits.
    pub qscale: f64,
    pub max_degree: usize,
    /// Every vertex's arcs by weight, for the local search (`None` without it).
    pub by_weight: Option<local::ByWeight>,
}

/// What an iteration's walks give: per ant whether it reached the target and its length (the
/// bits of a `u64` for integer weights, of an `f64` for real ones).
pub(crate) struct Walks {
    pub ok: Vec<u32>,
    pub lengths: Vec<u64>,
}

/// The per-iteration parameters of the deposit.
pub(crate) struct DepositStep<'a> {
    pub dep: &'a [f64],
    pub keep: f64,
    pub reset: bool,
    pub tau0: f64,
    pub tmin: f64,
    pub tmax: f64,
}

/// One backend's engine.
pub(crate) trait Engine: Send {
    /// Sets every arc's pheromone to `tau`.
    fn fill(&mut self, tau: f64) -> Result<()>;
    /// One iteration's ants from s to t.
    fn walk(&mut self, s: u32, t: u32, iter: u32, max_steps: u32) -> Result<Walks>;
    /// The successor row of `ant` after the last walk.
    fn successors(&mut self, ant: usize) -> Result<Vec<u32>>;
    /// Evaporation, deposit and bounds.
    fn deposit(&mut self, step: &DepositStep) -> Result<()>;
    fn pheromone(&mut self) -> Result<Vec<f64>>;
    /// Sets every arc's pheromone (`m` values; a resumed run's).
    fn set_pheromone(&mut self, tau: &[f64]) -> Result<()>;
    fn describe(&self) -> String;
}

/// x^a with the exponents 0, 1 and 2 exact (as `aco_pow` in `cl/aco.cl`).
pub(crate) fn pow_exact(x: f64, a: f64) -> f64 {
    if a == 1.0 {
        x
    } else if a == 2.0 {
        x * x
    } else if a == 0.0 {
        1.0
    } else {
        x.powf(a)
    }
}

fn check(name: &'static str, v: f64, ok: bool, want: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::arg(name, format!("{v}; {want}")))
    }
}

impl AcoOptions {
    /// Checks every option; errors name the option.
    pub fn validate(&self) -> Result<()> {
        if self.ants == 0 || self.ants > u32::MAX as usize {
            return Err(Error::arg("ants", format!("{}; 1 to 2^32 - 1", self.ants)));
        }
        let fin = |v: f64| v.is_finite() && v >= 0.0;
        check("alpha", self.alpha, fin(self.alpha), "a finite number >= 0")?;
        check("beta", self.beta, fin(self.beta), "a finite number >= 0")?;
        check(
            "damping",
            self.damping,
            fin(self.damping),
            "a finite number >= 0",
        )?;
        check(
            "deposit_exponent",
            self.deposit_exponent,
            fin(self.deposit_exponent),
            "a finite number >= 0",
        )?;
        self.check_pheromone()?;
        if let Some(r) = self.max_min {
            check(
                "max_min",
                r,
                r > 0.0 && r <= 1.0,
                "the ratio tmin / tmax, in (0, 1]",
            )?;
        }
        self.check_stop()?;
        if self.max_no_improve == Some(0) {
            return Err(Error::arg(
                "max_no_improve",
                "0; at least 1 iteration without improvement",
            ));
        }
        if self.restart == Some(0) {
            return Err(Error::arg(
                "restart",
                "0; at least 1 iteration without improvement",
            ));
        }
        if self.group_size == Some(0) {
            return Err(Error::arg("group_size", "0; at least 1"));
        }
        Ok(())
    }

    /// Checks `evaporation` and `initial_pheromone`; errors name them.
    fn check_pheromone(&self) -> Result<()> {
        let rho = self.evaporation;
        check(
            "evaporation",
            rho,
            rho > 0.0 && rho <= 1.0,
            "the evaporated fraction, in (0, 1]",
        )?;
        if let Some(t) = self.initial_pheromone {
            check(
                "initial_pheromone",
                t,
                t.is_finite() && t > 0.0,
                "a finite number > 0",
            )?;
        }
        Ok(())
    }

    /// Checks the run's stops: something must end the run (its budget, named `iterations`, a
    /// time limit or a token), a budget of 1 to `u32::MAX` iterations, a target that is a
    /// finite length, no evaluation budget (ACO does not count them) and no record interval
    /// (ACO keeps no history).
    fn check_stop(&self) -> Result<()> {
        let stop = &self.stop;
        match stop.budget {
            Some(0) => return Err(Error::arg("iterations", "0; at least 1")),
            Some(k) if k > u64::from(u32::MAX) => {
                return Err(Error::arg(
                    "iterations",
                    format!("{k}; at most {}", u32::MAX),
                ))
            }
            _ => {}
        }
        stop.check("iterations")?;
        if let Some(t) = stop.target {
            if !t.is_finite() {
                return Err(Error::arg("target", format!("{t}; a finite path length")));
            }
        }
        if stop.evaluations.is_some() {
            return Err(Error::arg(
                "evaluations",
                "ACO counts iterations, not evaluations: give iterations",
            ));
        }
        if stop.record_every > 0 {
            return Err(Error::arg(
                "record_every",
                "ACO keeps no history of its best: give 0 (its progress callback reports every iteration)",
            ));
        }
        Ok(())
    }

    /// The thesis's iteration count: as many as evaporation needs to bring the initial
    /// pheromone down to 1, `ceil(ln(tau0) / -ln(1 - evaporation))` (at most `u32::MAX`), for a
    /// front end to make it the budget (`stop.budget`). Needs `initial_pheromone > 1` and
    /// `evaporation < 1` (else an error naming `iterations`); an `evaporation` or
    /// `initial_pheromone` out of its range is an error naming it.
    pub fn thesis_iterations(&self) -> Result<u64> {
        self.check_pheromone()?;
        let rho = self.evaporation;
        match self.initial_pheromone {
            Some(t) if t > 1.0 && rho < 1.0 => {
                // ln(1 - rho) by ln_1p: a tiny rho would otherwise round 1 - rho to 1
                let n = (t.ln() / -(-rho).ln_1p()).ceil();
                Ok(n.clamp(1.0, u32::MAX as f64) as u64)
            }
            _ => Err(Error::arg(
                "iterations",
                "the thesis's rule needs initial_pheromone > 1 and evaporation < 1",
            )),
        }
    }
}

/// The solver: a graph and options on one backend; [`Aco::run`] as often as wanted.
pub struct Aco {
    setup: Arc<Setup>,
    engine: Box<dyn Engine>,
    /// The graph's fingerprint, made when a checkpoint first needs it.
    problem: std::sync::OnceLock<String>,
    /// A checkpoint the next run continues from ([`Aco::load_state`]).
    resume: Option<AcoState>,
    /// The last run's state, for [`Aco::save_state`] (None: no run, or one that needed no
    /// iteration).
    last: Option<AcoState>,
}

/// What a run keeps between two iterations: the state a checkpoint holds. Every random number
/// is keyed by (seed, iteration, ant, step), so the iteration count is the whole random state.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct AcoState {
    source: u32,
    target: u32,
    /// The pheromone per CSR arc after the last deposit.
    tau: Vec<f64>,
    /// Whether the pheromone has its MAX-MIN start (given, or set at the first success).
    tau_set: bool,
    /// The best path so far (empty: none) and its length's bits (+inf: none).
    best: Vec<u32>,
    best_len: u64,
    found_at_iteration: Option<u32>,
    iterations: u32,
    successful_ants: u64,
    /// Iterations without a shorter path since the last improvement or restart.
    stale: u32,
    /// Seconds on the run's clock (set-up included, as its time limit counts them) and of the
    /// run itself (`elapsed` of the result).
    clock: f64,
    elapsed: f64,
}

impl AcoState {
    /// The state of a run with result so far `r`, pheromone `tau`, its (pheromone set, best
    /// length, stale count) and its (clock, elapsed) seconds.
    fn of(r: &AcoRunResult, tau: Vec<f64>, run: (bool, f64, u32), time: (f64, f64)) -> Self {
        AcoState {
            source: r.source,
            target: r.target,
            tau,
            tau_set: run.0,
            best: r.best.as_ref().map_or(Vec::new(), |p| p.vertices.clone()),
            best_len: run.1.to_bits(),
            found_at_iteration: r.found_at_iteration,
            iterations: r.iterations,
            successful_ants: r.successful_ants,
            stale: run.2,
            clock: time.0,
            elapsed: time.1,
        }
    }
}

impl Aco {
    /// Checks the options against the graph and prepares the backend (on a device: builds the
    /// program and uploads the graph).
    pub fn new(graph: &Graph, options: AcoOptions, backend: Backend) -> Result<Aco> {
        options.validate()?;
        let n = graph.n();
        if n == 0 {
            return Err(Error::arg("graph", "no vertices"));
        }
        let w = graph.weights();
        let (c, beta) = (options.damping, options.beta);
        let mut eta = crate::error::try_vec(graph.m(), "graph")?;
        for e in 0..graph.m() {
            let x = w.get_f64(e) + c;
            if x == 0.0 && beta > 0.0 {
                return Err(Error::arg(
                    "damping",
                    "0 with zero-weight arcs: 1 / (0 + c)^beta is infinite; take damping > 0",
                ));
            }
            eta.push(1.0 / pow_exact(x, beta));
        }
        let max_degree = (0..n).map(|u| graph.arcs_of(u).len()).max().unwrap_or(0);
        // q <= 2^b per neighbour and the sum over max_degree neighbours below 2^63
        let bits = 63 - (usize::BITS - max_degree.max(1).leading_zeros()) as i32 - 1;
        let qscale = 2f64.powi(bits.clamp(1, 52));
        // the reverse graph of the local search, built fallibly: a graph the host cannot hold
        // twice is an error here, not an abort or a panic
        let by_weight = if options.local_search {
            Some(local::ByWeight::try_new(graph)?)
        } else {
            None
        };
        let setup = Arc::new(Setup {
            graph: graph.clone(),
            eta,
            opts: options,
            qscale,
            max_degree,
            by_weight,
        });
        let engine: Box<dyn Engine> = match backend {
            Backend::Cpu => Box::new(cpu::CpuEngine::new(setup.clone())),
            // the program's build counts in a run's time limit (counted from here at the
            // latest) and answers its stop token
            Backend::Device(_) => setup
                .opts
                .stop
                .cut(std::time::Instant::now())
                .during_setup(|| device::DeviceEngine::new(setup.clone(), backend))
                .map(|e| Box::new(e) as Box<dyn Engine>)?,
        };
        Ok(Aco {
            setup,
            engine,
            problem: std::sync::OnceLock::new(),
            resume: None,
            last: None,
        })
    }

    /// What a checkpoint of this solver's runs is checked against: the graph's fingerprint and
    /// the options that shape the run's course (not its stops: a resumed run may have more
    /// iterations, another `max_no_improve` or time limit). Neither the backend nor the group
    /// size is part of it: the device and the CPU take the same steps.
    fn header(&self) -> Header {
        let g = &self.setup.graph;
        let problem = self.problem.get_or_init(|| graph_fingerprint(g));
        let o = &self.setup.opts;
        let opt = |v: Option<f64>| v.map_or("none".to_string(), |x| format!("{x:?}"));
        Header::new("aco", problem.clone())
            .option("ants", o.ants)
            .option("alpha", format!("{:?}", o.alpha))
            .option("beta", format!("{:?}", o.beta))
            .option("damping", format!("{:?}", o.damping))
            .option("evaporation", format!("{:?}", o.evaporation))
            .option("deposit_exponent", format!("{:?}", o.deposit_exponent))
            .option("initial_pheromone", opt(o.initial_pheromone))
            .option("max_min", opt(o.max_min))
            .option("deposit", format!("{:?}", o.deposit))
            .option("selection", format!("{:?}", o.selection))
            .option(
                "max_steps",
                o.max_steps.map_or("none".into(), |k| k.to_string()),
            )
            .option("seed", o.seed)
            .option("local_search", o.local_search)
            .option(
                "restart",
                o.restart.map_or("none".into(), |k| k.to_string()),
            )
    }

    /// The next run continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or a
    /// checkpoint file) instead of starting afresh: checked now against this solver's graph and
    /// options (errors name `state` and say what differs), and against the run's source and
    /// target when it starts. A run that starts from it uses it up.
    pub fn load_state(&mut self, bytes: &[u8]) -> Result<()> {
        let st: AcoState = checkpoint::decode(bytes, &self.header(), "state")?;
        let bad = |what: &str| {
            Error::arg(
                "state",
                format!("a corrupt checkpoint: its {what} does not match its graph"),
            )
        };
        let g = &self.setup.graph;
        if st.tau.len() != g.m() {
            return Err(bad("pheromone"));
        }
        if st.source as usize >= g.n() || st.target as usize >= g.n() {
            return Err(bad("source or target"));
        }
        if !st.best.is_empty() && path_length(g, &st.best).is_none() {
            return Err(bad("best path"));
        }
        self.resume = Some(st);
        Ok(())
    }

    /// The last run's whole state (pheromone, best path, counters, time taken) as checkpoint
    /// bytes, from which [`load_state`](Self::load_state) continues it (with a larger budget).
    /// An error when no run has made an iteration (none ran, or the last needed none: an
    /// unreachable target, or the source itself).
    pub fn save_state(&self) -> Result<Vec<u8>> {
        let Some(st) = &self.last else {
            return Err(Error::arg(
                "state",
                "no run of this solver has made an iteration: nothing to save",
            ));
        };
        checkpoint::encode(&self.header(), st)
    }

    pub fn options(&self) -> &AcoOptions {
        &self.setup.opts
    }

    /// The pheromone per CSR arc after the last run.
    pub fn pheromone(&mut self) -> Result<Vec<f64>> {
        self.engine.pheromone()
    }

    describe_alias!();

    pub fn describe(&self) -> String {
        self.engine.describe()
    }

    /// One run from `source` to `target` (pheromone starts afresh, or from the state
    /// [`load_state`](Self::load_state) gave).
    pub fn run(&mut self, source: u32, target: u32) -> Result<AcoRunResult> {
        self.run_since(source, target, Instant::now())
    }

    /// [`run`](Self::run) with the time limit counted from `start`: a caller that made this
    /// `Aco` for the run passes the instant before [`Aco::new`], so that the set-up (program
    /// build, upload) counts against the limit. A resumed run's clock also counts the time the
    /// run had taken before its checkpoint.
    pub fn run_since(&mut self, source: u32, target: u32, start: Instant) -> Result<AcoRunResult> {
        self.run_observed(source, target, start, |_| true)
    }

    /// [`run_since`](Self::run_since), calling `progress` before every iteration and at the end
    /// (its `work` is the iterations done, its `best` the shortest length an ant found so far,
    /// infinite before the first path); `false` from it ends the run (stopped by the budget)
    /// with its best path so far.
    pub fn run_observed(
        &mut self,
        source: u32,
        target: u32,
        start: Instant,
        progress: impl FnMut(&Progress) -> bool,
    ) -> Result<AcoRunResult> {
        let o = self.setup.opts.clone();
        let g = &self.setup.graph;
        let n = g.n();
        for (name, v) in [("source", source), ("target", target)] {
            if v as usize >= n {
                return Err(Error::arg(name, format!("{v}; the graph has {n} vertices")));
            }
        }
        if let Some(r) = &self.resume {
            if (r.source, r.target) != (source, target) {
                return Err(Error::arg(
                    "state",
                    format!(
                        "cannot resume from this checkpoint: a run from {} to {}; this run goes \
                         from {source} to {target}",
                        r.source, r.target
                    ),
                ));
            }
        }
        // a loaded state is used up by this run; the last run's goes
        let resumed = self.resume.take();
        self.last = None;
        // `elapsed` is the run's own time, as without a limit
        let now = Instant::now();
        let t0 = checkpoint::resumed_start(now, resumed.as_ref().map_or(0.0, |r| r.elapsed));
        let start = match &resumed {
            Some(r) => checkpoint::resumed_start(start, r.clock),
            None => start,
        };
        // the iteration count is a u32 (the random words' key): a run without a budget stops at
        // its largest
        let mut driver = o
            .stop
            .driver(start)
            .budget(Some(o.stop.budget.unwrap_or(u64::from(u32::MAX))))
            .stagnation(o.max_no_improve.map(u64::from))
            .on_progress(progress);
        // the exact length first (host Dijkstra): a run cut short during it has no path at all
        let Some(exact) = dijkstra_until(g, source, || driver.due().is_some())? else {
            // no iteration ran: a loaded state waits for the next run
            self.resume = resumed;
            return Err(Error::cut_short(
                driver.watch().stopped(),
                "ACO (the exact length by host Dijkstra, before any iteration)",
            ));
        };
        let exact_length = exact
            .dist
            .reachable(target as usize)
            .then(|| exact.dist.get_f64(target as usize));
        let mut res = AcoRunResult {
            source,
            target,
            best: None,
            pheromone: None,
            exact_length,
            iterations: 0,
            found_at_iteration: None,
            successful_ants: 0,
            elapsed: Duration::ZERO,
            backend_description: self.engine.describe(),
            stop: StopReason::Done,
        };
        let Some(exact_len) = exact_length else {
            res.elapsed = t0.elapsed();
            return Ok(res);
        };
        if source == target {
            let p = self.path_of(vec![source], exact_len);
            res.best = Some(p.clone());
            res.pheromone = Some(p);
            res.elapsed = t0.elapsed();
            return Ok(res);
        }
        let real = matches!(g.weights(), Weights::F32(_) | Weights::F64(_));
        let rho = o.evaporation;
        let gamma = o.deposit_exponent;
        // the smallest positive arc weight: a zero-length path deposits as if of this length
        let min_pos = (0..g.m())
            .map(|e| g.weights().get_f64(e))
            .filter(|&x| x > 0.0)
            .fold(f64::INFINITY, f64::min);
        let min_pos = if min_pos.is_finite() { min_pos } else { 1.0 };
        let dep_of = |l: f64| 1.0 / pow_exact(l.max(min_pos), gamma);
        let max_steps = o.max_steps.unwrap_or(u32::MAX).min((n - 1) as u32);
        let mut tau_set = o.initial_pheromone.is_some();
        let mut best_len = f64::INFINITY;
        let mut stale = 0u32;
        match resumed {
            Some(r) => {
                self.engine.set_pheromone(&r.tau)?;
                tau_set = r.tau_set;
                best_len = f64::from_bits(r.best_len);
                if !r.best.is_empty() {
                    res.best = Some(self.path_of(r.best, exact_len));
                }
                res.found_at_iteration = r.found_at_iteration;
                res.iterations = r.iterations;
                res.successful_ants = r.successful_ants;
                stale = r.stale;
                // the stagnation count goes on from the iteration of the best path
                driver = driver.improved(best_len, u64::from(r.found_at_iteration.unwrap_or(0)));
            }
            None => self.engine.fill(o.initial_pheromone.unwrap_or(1.0))?,
        }
        let header = o.stop.checkpoint.is_some().then(|| self.header());
        let mut schedule = Schedule::new(o.stop.checkpoint.as_ref());
        let mut dep = vec![0.0; o.ants];
        // the target, the budget (the iterations), stagnation (max_no_improve), the time limit,
        // the token and the interrupt
        res.stop = loop {
            if let Some(why) = driver.check(u64::from(res.iterations), 0, best_len) {
                break why;
            }
            let it = res.iterations;
            let w = self.engine.walk(source, target, it, max_steps)?;
            res.iterations = it + 1;
            let len_of = |a: usize| {
                if real {
                    f64::from_bits(w.lengths[a])
                } else {
                    w.lengths[a] as f64
                }
            };
            // the iteration's best ant (ties: the lowest number)
            let mut ib: Option<usize> = None;
            for a in 0..o.ants {
                if w.ok[a] != 0 {
                    res.successful_ants += 1;
                    let better = match ib {
                        None => true,
                        Some(b) => {
                            if real {
                                len_of(a) < len_of(b)
                            } else {
                                w.lengths[a] < w.lengths[b]
                            }
                        }
                    };
                    if better {
                        ib = Some(a);
                    }
                }
            }
            let mut improved = false;
            if let Some(b) = ib {
                let l = len_of(b);
                if l < best_len {
                    let succ = self.engine.successors(b)?;
                    let path = follow(g, &succ, source, target).ok_or_else(|| {
                        Error::Panic(format!(
                            "internal: ACO ant {b}'s successors do not lead to the target"
                        ))
                    })?;
                    let p = self.path_of(path, exact_len);
                    best_len = l;
                    res.best = Some(p);
                    res.found_at_iteration = Some(it + 1);
                    improved = true;
                }
            }
            let mut reset = false;
            let mut tau0 = 1.0;
            if !tau_set {
                if let Some(b) = ib {
                    tau0 = dep_of(len_of(b)) / rho;
                    tau_set = true;
                    reset = true;
                }
            }
            for (a, da) in dep.iter_mut().enumerate() {
                *da = match o.deposit {
                    _ if w.ok[a] == 0 => 0.0,
                    Deposit::All => dep_of(len_of(a)),
                    Deposit::IterationBest if Some(a) == ib => dep_of(len_of(a)),
                    Deposit::IterationBest => 0.0,
                };
            }
            let (tmin, tmax) = match o.max_min {
                Some(r) if best_len.is_finite() => {
                    let tmax = dep_of(best_len) / rho;
                    (tmax * r, tmax)
                }
                _ => (0.0, f64::INFINITY),
            };
            stale = if improved { 0 } else { stale + 1 };
            if o.restart.is_some_and(|k| stale >= k) && best_len.is_finite() {
                // MAX-MIN's reinitialisation: every arc back to tau_max (1 / (rho L^gamma))
                reset = true;
                tau0 = dep_of(best_len) / rho;
                stale = 0;
            }
            self.engine.deposit(&DepositStep {
                dep: &dep,
                keep: 1.0 - rho,
                reset,
                tau0,
                tmin,
                tmax,
            })?;
            if schedule.due() {
                let st = AcoState::of(
                    &res,
                    self.engine.pheromone()?,
                    (tau_set, best_len, stale),
                    (driver.elapsed(), t0.elapsed().as_secs_f64()),
                );
                let h = header.as_ref().expect("a checkpoint plan");
                schedule.write(|| checkpoint::encode(h, &st))?;
            }
        };
        let tau = self.engine.pheromone()?;
        res.pheromone = strongest_path(g, &tau, source, target).map(|p| self.path_of(p, exact_len));
        res.elapsed = t0.elapsed();
        let st = AcoState::of(
            &res,
            tau,
            (tau_set, best_len, stale),
            (driver.elapsed(), res.elapsed.as_secs_f64()),
        );
        // the run's end, whatever ended it, is a checkpoint: a larger budget continues it
        if let Some(h) = &header {
            schedule.write(|| checkpoint::encode(h, &st))?;
        }
        self.last = Some(st);
        Ok(res)
    }

    fn path_of(&self, vertices: Vec<u32>, exact: f64) -> AcoPath {
        let (length, length_int) =
            path_length(&self.setup.graph, &vertices).expect("a path of the graph's arcs");
        let gap = if exact == 0.0 {
            if length == 0.0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (length - exact) / exact
        };
        AcoPath {
            vertices,
            length,
            length_int,
            gap,
        }
    }
}

/// The graph as a checkpoint's header names it: its sizes, weight type and a checksum of its
/// arrays.
fn graph_fingerprint(g: &Graph) -> String {
    // the arrays' little-endian bytes, in pieces (no copy of the graph)
    let mut h = crc32fast::Hasher::new();
    crc_le(&mut h, g.offsets(), u64::to_le_bytes);
    crc_le(&mut h, g.targets(), u32::to_le_bytes);
    match g.weights() {
        Weights::U32(w) => crc_le(&mut h, w, u32::to_le_bytes),
        Weights::U64(w) => crc_le(&mut h, w, u64::to_le_bytes),
        Weights::F32(w) => crc_le(&mut h, w, f32::to_le_bytes),
        Weights::F64(w) => crc_le(&mut h, w, f64::to_le_bytes),
    }
    checkpoint::fingerprint(
        "graph",
        &format!("n={}, m={}, {:?} weights", g.n(), g.m(), g.weight_kind()),
        &[&h.finalize().to_le_bytes()],
    )
}

/// Checks that checkpoint `bytes` is a whole ant-colony state of this library version on graph
/// `g` (errors name `state` and say what differs); its options are checked by
/// [`Aco::load_state`], against the solver's.
pub fn check_state(g: &Graph, bytes: &[u8]) -> Result<()> {
    let h = checkpoint::header(bytes, "state")?;
    let mine = Header {
        options: h.options.clone(),
        rank: h.rank,
        ranks: h.ranks,
        ..Header::new("aco", graph_fingerprint(g))
    };
    match mine.mismatch(&h) {
        Some(why) => Err(Error::arg(
            "state",
            format!("cannot resume from this checkpoint: {why}"),
        )),
        None => Ok(()),
    }
}

/// Adds the little-endian bytes of `v` to `h`, a piece at a time.
fn crc_le<T: Copy, const N: usize>(h: &mut crc32fast::Hasher, v: &[T], le: fn(T) -> [u8; N]) {
    let mut buf = Vec::with_capacity(4096 * N);
    for piece in v.chunks(4096) {
        buf.clear();
        for &x in piece {
            buf.extend_from_slice(&le(x));
        }
        h.update(&buf);
    }
}

/// The path from `s` along an ant's successor row (`None` if it does not reach `t`).
fn follow(g: &Graph, succ: &[u32], s: u32, t: u32) -> Option<Vec<u32>> {
    let mut path = vec![s];
    let mut cur = s;
    while cur != t {
        let k = succ[cur as usize];
        if k == NONE || path.len() > g.n() {
            return None;
        }
        let e = g.arcs_of(cur as usize).start + k as usize;
        cur = g.targets()[e];
        path.push(cur);
    }
    Some(path)
}

/// The walk from `s` along the strongest pheromone among unvisited neighbours (ties: the lowest
/// arc); `None` at a dead end.
pub fn strongest_path(g: &Graph, tau: &[f64], s: u32, t: u32) -> Option<Vec<u32>> {
    let mut seen = vec![false; g.n()];
    let mut path = vec![s];
    seen[s as usize] = true;
    let mut cur = s;
    while cur != t {
        let mut best: Option<(f64, u32)> = None;
        for e in g.arcs_of(cur as usize) {
            let d = g.targets()[e];
            if !seen[d as usize] && best.is_none_or(|(b, _)| tau[e] > b) {
                best = Some((tau[e], d));
            }
        }
        let (_, d) = best?;
        seen[d as usize] = true;
        path.push(d);
        cur = d;
    }
    Some(path)
}

/// The length of a vertex path (its arcs must exist): as f64, and exactly on integer weights.
/// `None` when an arc is missing.
pub fn path_length(g: &Graph, path: &[u32]) -> Option<(f64, Option<u64>)> {
    let real = matches!(g.weights(), Weights::F32(_) | Weights::F64(_));
    let (mut lf, mut li) = (0.0f64, 0u64);
    for p in path.windows(2) {
        let e = g.find_arc(p[0] as usize, p[1])?;
        let w = g.weights().get_f64(e);
        lf += w;
        if !real {
            li = li.saturating_add(match g.weights() {
                Weights::U32(x) => x[e] as u64,
                Weights::U64(x) => x[e],
                _ => 0,
            });
        }
    }
    if real {
        Some((lf, None))
    } else {
        Some((li as f64, Some(li)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_json_shows_the_stops_as_iterations_time_limit_and_target() {
        let v = serde_json::to_value(AcoOptions::default()).unwrap();
        assert_eq!(v["iterations"], 100);
        assert!(v["time_limit"].is_null());
        assert!(v.get("target").is_none() && v.get("stop").is_none());
        assert_eq!(v["ants"], 64);
        let o = AcoOptions {
            stop: Stop {
                time_limit: Some(Duration::from_millis(1500)),
                target: Some(12.5),
                token: Some(crate::interrupt::StopToken::new()),
                ..Stop::default()
            },
            ..AcoOptions::default()
        };
        let v = serde_json::to_value(o).unwrap();
        assert!(v["iterations"].is_null());
        assert_eq!(v["time_limit"], 1.5);
        assert_eq!(v["target"], 12.5);
        assert!(v.get("token").is_none() && v.get("checkpoint").is_none());
    }

    #[test]
    fn the_thesis_rule_and_the_budget_are_checked() {
        let o = AcoOptions {
            initial_pheromone: Some(100.0),
            evaporation: 0.5,
            ..AcoOptions::default()
        };
        // ceil(ln 100 / -ln 0.5) = ceil(6.64)
        assert_eq!(o.thesis_iterations().unwrap(), 7);
        let huge = AcoOptions {
            initial_pheromone: Some(f64::MAX),
            evaporation: 1e-300,
            ..AcoOptions::default()
        };
        assert_eq!(huge.thesis_iterations().unwrap(), u64::from(u32::MAX));
        let name = |r: Result<u64>| match r {
            Err(Error::InvalidArgument { arg, .. }) => arg,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            name(AcoOptions::default().thesis_iterations()),
            "iterations"
        );
        let at_one = AcoOptions {
            evaporation: 1.0,
            ..o.clone()
        };
        assert_eq!(name(at_one.thesis_iterations()), "iterations");
        let nan = AcoOptions {
            evaporation: f64::NAN,
            ..o.clone()
        };
        assert_eq!(name(nan.thesis_iterations()), "evaporation");
        assert!(o.validate().is_ok());
        let budget = |b: u64| {
            AcoOptions {
                stop: Stop::budget(b),
                ..AcoOptions::default()
            }
            .validate()
        };
        assert!(budget(u64::from(u32::MAX)).is_ok());
        for b in [0, u64::from(u32::MAX) + 1] {
            match budget(b) {
                Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, "iterations"),
                other => panic!("{other:?}"),
            }
        }
    }
}
