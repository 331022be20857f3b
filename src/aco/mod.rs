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
//! A run ends after its iterations, after `max_no_improve` iterations without a shorter path, or
//! at the caller's word: `time_limit`, `stop_token` or [`interrupt`](crate::interrupt()), asked by
//! a [`Driver`] between iterations (one launch of the ants and one of the deposit each). It
//! returns its best path so far with its [`StopReason`].
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
use crate::interrupt::StopToken;
use crate::problem::graph::{dijkstra_until, Graph, Weights};
use crate::run::{Driver, Progress, StopReason};
use serde::{Serialize, Serializer};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::device::Backend;

/// The marker of "no arc left this vertex" in an ant's successor row.
pub const NONE: u32 = u32::MAX;

/// How many iterations a run makes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Iterations {
    /// A fixed count.
    Fixed(u32),
    /// The thesis's rule: as many as evaporation needs to bring the initial pheromone down to 1,
    /// `ceil(ln(tau0) / -ln(1 - evaporation))`; needs `initial_pheromone > 1` and
    /// `evaporation < 1`.
    Thesis,
}

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
    pub iterations: Iterations,
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
    /// Stop after this long (counted from the start of [`Aco::run`], or from the instant given to
    /// [`Aco::run_since`]), asked between iterations (`None`: no limit; at most
    /// [`MAX_TIME_LIMIT_S`](crate::interrupt::MAX_TIME_LIMIT_S)).
    #[serde(serialize_with = "seconds")]
    pub time_limit: Option<Duration>,
    /// Requesting it (as [`interrupt`](crate::interrupt()) does for every run) stops the run
    /// between iterations with its best path so far, stopped as interrupted.
    #[serde(skip)]
    pub stop_token: Option<StopToken>,
}

/// A time limit in seconds (JSON `null` for none).
fn seconds<S: Serializer>(d: &Option<Duration>, s: S) -> std::result::Result<S::Ok, S::Error> {
    d.map(|d| d.as_secs_f64()).serialize(s)
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
            iterations: Iterations::Fixed(100),
            max_no_improve: None,
            max_min: Some(0.01),
            deposit: Deposit::All,
            selection: Selection::Roulette,
            max_steps: None,
            seed: 0,
            group_size: None,
            local_search: true,
            restart: None,
            time_limit: None,
            stop_token: None,
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
    /// Why the run ended: `budget` (its iterations), `stagnation` (`max_no_improve`),
    /// `time_limit`, `interrupted`, or `done` when it needed no iteration (an unreachable target,
    /// or the source itself).
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
            return Err(Error::arg("ants", format!("{}; at least 1", self.ants)));
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
        if let Some(r) = self.max_min {
            check(
                "max_min",
                r,
                r > 0.0 && r <= 1.0,
                "the ratio tmin / tmax, in (0, 1]",
            )?;
        }
        match self.iterations {
            Iterations::Fixed(0) => return Err(Error::arg("iterations", "0; at least 1")),
            Iterations::Thesis => match self.initial_pheromone {
                Some(t) if t > 1.0 && rho < 1.0 => {}
                _ => {
                    return Err(Error::arg(
                        "iterations",
                        "the thesis's rule needs initial_pheromone > 1 and evaporation < 1",
                    ))
                }
            },
            Iterations::Fixed(_) => {}
        }
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
        crate::interrupt::check_time_limit(self.time_limit, "time_limit")?;
        Ok(())
    }

    /// The iteration count of [`Iterations`].
    pub fn iteration_count(&self) -> u32 {
        match self.iterations {
            Iterations::Fixed(k) => k,
            Iterations::Thesis => {
                let t = self.initial_pheromone.unwrap_or(1.0);
                let n = (t.ln() / -(1.0 - self.evaporation).ln()).ceil();
                n.clamp(1.0, u32::MAX as f64) as u32
            }
        }
    }
}

/// The solver: a graph and options on one backend; [`Aco::run`] as often as wanted.
pub struct Aco {
    setup: Arc<Setup>,
    engine: Box<dyn Engine>,
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
        let by_weight = options.local_search.then(|| local::ByWeight::new(graph));
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
            Backend::Device(_) => Box::new(device::DeviceEngine::new(setup.clone(), backend)?),
        };
        Ok(Aco { setup, engine })
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

    /// One run from `source` to `target` (pheromone starts afresh).
    pub fn run(&mut self, source: u32, target: u32) -> Result<AcoRunResult> {
        self.run_since(source, target, Instant::now())
    }

    /// [`run`](Self::run) with the time limit counted from `start`: a caller that made this
    /// `Aco` for the run passes the instant before [`Aco::new`], so that the set-up (program
    /// build, upload) counts against the limit.
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
        // `elapsed` is the run's own time, as without a limit
        let t0 = Instant::now();
        let o = self.setup.opts.clone();
        let mut driver = Driver::new(start, o.time_limit, o.stop_token.as_ref())
            .budget(Some(u64::from(o.iteration_count())))
            .stagnation(o.max_no_improve.map(u64::from))
            .on_progress(progress);
        let g = &self.setup.graph;
        let n = g.n();
        for (name, v) in [("source", source), ("target", target)] {
            if v as usize >= n {
                return Err(Error::arg(name, format!("{v}; the graph has {n} vertices")));
            }
        }
        // the exact length first (host Dijkstra): a run cut short during it has no path at all
        let Some(exact) = dijkstra_until(g, source, || driver.due().is_some())? else {
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
        self.engine.fill(o.initial_pheromone.unwrap_or(1.0))?;
        let mut best_len = f64::INFINITY;
        let mut stale = 0u32;
        let mut dep = vec![0.0; o.ants];
        // budget (the iterations), stagnation (max_no_improve), the time limit, the interrupt
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
        };
        let tau = self.engine.pheromone()?;
        res.pheromone = strongest_path(g, &tau, source, target).map(|p| self.path_of(p, exact_len));
        res.elapsed = t0.elapsed();
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
