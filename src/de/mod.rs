//! Island differential evolution (thesis 000, 2.3, 2.3.1, 5.2, 5.2.1; docs/DE.md): Np
//! populations of Nm members in Nn dimensions evolve side by side, each with its own F and CR,
//! one mutation strategy, a bound correction per dimension, and a migration strategy that every
//! `period` generations copies bests between populations.
//!
//! [`DeMultiPop`] is the thesis's `DEMultiPop`: [`DeMultiPop::new`] with the sizes, limits,
//! bound corrections and options, [`DeMultiPop::init`] with the objective, mutation and
//! migration, then [`DeMultiPop::iteration`] or [`DeMultiPop::run`], and the accessors
//! [`DeMultiPop::bests_fitness`], [`DeMultiPop::best`] and [`DeMultiPop::x`]. It runs on an
//! OpenCL device (`device.rs`, `cl/de.cl`) or on the rayon CPU backend (`crate::cpu::de`); both
//! draw the same random numbers (`ops.rs`), so on one seed they follow the same run.

pub mod device;
pub mod ops;

use crate::error::{Error, Result};
use crate::objective::Objective;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Mutation strategies (docs/DE.md); the numbers are those of `cl/de.cl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Mutation {
    /// `DE/rand/1`: v = x_r1 + F (x_r2 - x_r3).
    Rand1 = 1,
    /// `DE/rand/2`: v = x_r1 + F (x_r2 - x_r3) + F (x_r4 - x_r5).
    Rand2 = 2,
    /// `DE/best/1`: v = x_best + F (x_r1 - x_r2).
    Best1 = 3,
    /// `DE/best/2`: v = x_best + F (x_r1 - x_r2) + F (x_r3 - x_r4).
    Best2 = 4,
    /// `DE/current-to-rand/1`: v = x_i + F (x_r1 - x_i) + F (x_r2 - x_r3).
    CurrentToRand1 = 5,
    /// `DE/current-to-best/1`: v = x_i + F (x_best - x_i) + F (x_r1 - x_r2).
    CurrentToBest1 = 6,
}

impl Mutation {
    pub const ALL: [Mutation; 6] =
        [Mutation::Rand1, Mutation::Rand2, Mutation::Best1, Mutation::Best2, Mutation::CurrentToRand1, Mutation::CurrentToBest1];

    pub fn name(self) -> &'static str {
        match self {
            Mutation::Rand1 => "DE/rand/1",
            Mutation::Rand2 => "DE/rand/2",
            Mutation::Best1 => "DE/best/1",
            Mutation::Best2 => "DE/best/2",
            Mutation::CurrentToRand1 => "DE/current-to-rand/1",
            Mutation::CurrentToBest1 => "DE/current-to-best/1",
        }
    }

    /// How many distinct random members besides the target the strategy draws.
    pub fn randoms(self) -> usize {
        match self {
            Mutation::Rand2 => 5,
            Mutation::Best2 => 4,
            Mutation::Rand1 | Mutation::CurrentToRand1 => 3,
            Mutation::Best1 | Mutation::CurrentToBest1 => 2,
        }
    }

    /// The fewest members a population needs for the strategy (the target and its randoms).
    pub fn min_members(self) -> u32 {
        self.randoms() as u32 + 1
    }
}

impl FromStr for Mutation {
    type Err = Error;
    /// `DE/rand/1` style names (case-insensitive; `_` may stand for `-`).
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim().to_ascii_lowercase().replace('_', "-");
        Mutation::ALL.into_iter().find(|m| m.name().to_ascii_lowercase() == key).ok_or_else(|| {
            Error::arg("mutation", format!("unknown strategy `{s}`; expected one of: {}", Mutation::ALL.map(|m| m.name()).join(", ")))
        })
    }
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Strategies of dealing with infeasible solutions (SDIS), per dimension; numbers as in
/// `cl/de.cl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BoundsCorrection {
    /// `sat`: clamp to the violated bound.
    Saturation = 0,
    /// `mir`: reflect on the violated bound; clamp when farther than the width past it.
    Mirror = 1,
    /// `tor`: wrap around, a + ((v - a) mod (b - a)).
    Toroidal = 2,
    /// `HVB`: halfway from the target's component to the violated bound.
    Halfway = 3,
    /// `uni`: uniform in [a, b].
    Uniform = 4,
    /// `COTN`: complete one-sided truncated normal next to the violated bound.
    Cotn = 5,
}

impl BoundsCorrection {
    pub const ALL: [BoundsCorrection; 6] = [
        BoundsCorrection::Saturation,
        BoundsCorrection::Mirror,
        BoundsCorrection::Toroidal,
        BoundsCorrection::Halfway,
        BoundsCorrection::Uniform,
        BoundsCorrection::Cotn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BoundsCorrection::Saturation => "sat",
            BoundsCorrection::Mirror => "mir",
            BoundsCorrection::Toroidal => "tor",
            BoundsCorrection::Halfway => "HVB",
            BoundsCorrection::Uniform => "uni",
            BoundsCorrection::Cotn => "COTN",
        }
    }

    /// One name, or a comma-separated list of names (one per dimension).
    pub fn parse_list(s: &str) -> Result<Vec<Self>> {
        s.split(',').map(str::parse).collect()
    }
}

impl FromStr for BoundsCorrection {
    type Err = Error;
    /// `sat`, `mir`, `tor`, `HVB`, `uni`, `COTN` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim();
        BoundsCorrection::ALL.into_iter().find(|b| b.name().eq_ignore_ascii_case(key)).ok_or_else(|| {
            Error::arg("bounds", format!("unknown strategy `{s}`; expected one of: sat, mir, tor, HVB, uni, COTN"))
        })
    }
}

impl fmt::Display for BoundsCorrection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Migration strategies (docs/DE.md; `ops::plan_migration` says exactly what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MigrationKind {
    None,
    One2One,
    One2N,
    N2One,
    N2N,
    PermuteN,
    RandTarget,
}

impl MigrationKind {
    pub const ALL: [MigrationKind; 7] = [
        MigrationKind::None,
        MigrationKind::One2One,
        MigrationKind::One2N,
        MigrationKind::N2One,
        MigrationKind::N2N,
        MigrationKind::PermuteN,
        MigrationKind::RandTarget,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MigrationKind::None => "None",
            MigrationKind::One2One => "One2One",
            MigrationKind::One2N => "One2N",
            MigrationKind::N2One => "N2One",
            MigrationKind::N2N => "N2N",
            MigrationKind::PermuteN => "PermuteN",
            MigrationKind::RandTarget => "RandTarget",
        }
    }
}

impl FromStr for MigrationKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim();
        MigrationKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(key)).ok_or_else(|| {
            Error::arg(
                "migration",
                format!("unknown strategy `{s}`; expected one of: {}", MigrationKind::ALL.map(|k| k.name()).join(", ")),
            )
        })
    }
}

impl fmt::Display for MigrationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A migration strategy and its period in generations (thesis `DEMigration(period, type)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Migration {
    pub kind: MigrationKind,
    pub period: u32,
}

impl Migration {
    pub const NONE: Migration = Migration { kind: MigrationKind::None, period: 1 };

    pub fn new(kind: MigrationKind, period: u32) -> Self {
        Migration { kind, period }
    }

    /// Whether migration happens after generation `gen` (1-based).
    pub fn is_period(&self, gen: u64) -> bool {
        self.kind != MigrationKind::None && self.period > 0 && gen.is_multiple_of(self.period as u64)
    }
}

/// How the F coefficients of the populations are set (thesis `F_coefs_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum FMode {
    /// F_p evenly from `f_min` to `f_max` over the populations.
    #[default]
    Linspace,
    /// `f_min` for every population.
    Const,
}

impl FMode {
    pub fn name(self) -> &'static str {
        match self {
            FMode::Linspace => "linspace",
            FMode::Const => "const",
        }
    }
}

impl FromStr for FMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "linspace" => Ok(FMode::Linspace),
            "const" | "const_min" => Ok(FMode::Const),
            _ => Err(Error::arg("f_mode", format!("`{s}`; expected `linspace` or `const`"))),
        }
    }
}

/// The options of the thesis's `OptionsDict` (Table 3), with its defaults, plus the
/// precision and whether populations share random numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeOptions {
    pub f_mode: FMode,
    pub f_min: f64,
    pub f_max: f64,
    /// CR: one value for all populations, or one per population.
    pub cr: Vec<f64>,
    pub init_seed: u64,
    pub mutation_seed: u64,
    pub crossover_seed: u64,
    pub migration_seed: u64,
    /// Double precision on the device (needs `cl_khr_fp64`); the CPU backend always computes
    /// in double.
    pub double: bool,
    /// Populations share the random numbers of mutation and crossover for equal member
    /// indices (the thesis's device compromise: coalesced reads, correlated populations).
    pub shared_random: bool,
}

impl Default for DeOptions {
    fn default() -> Self {
        DeOptions {
            f_mode: FMode::Linspace,
            f_min: 0.1,
            f_max: 1.5,
            cr: vec![0.5],
            init_seed: 123,
            mutation_seed: 345,
            crossover_seed: 457,
            migration_seed: 581,
            double: false,
            shared_random: false,
        }
    }
}

/// The shape of the problem: what the thesis's constructor takes.
#[derive(Clone, Debug, PartialEq)]
pub struct DeParams {
    pub islands: u32,
    pub members: u32,
    pub dims: u32,
    /// [a, b] of each dimension: one interval for all, or one per dimension (finite, a < b).
    pub limits: Vec<(f64, f64)>,
    /// Bound correction of each dimension: one for all, or one per dimension.
    pub bounds: Vec<BoundsCorrection>,
    pub options: DeOptions,
}

impl DeParams {
    /// One interval and one bound correction for every dimension, default options.
    pub fn new(islands: u32, members: u32, dims: u32, a: f64, b: f64, bounds: BoundsCorrection) -> Self {
        DeParams { islands, members, dims, limits: vec![(a, b)], bounds: vec![bounds], options: DeOptions::default() }
    }
}

pub use crate::device::Backend;

/// The validated configuration every engine works from.
#[derive(Clone, Debug)]
pub struct Config {
    pub np: u32,
    pub nm: u32,
    pub nn: u32,
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    pub kinds: Vec<BoundsCorrection>,
    /// F and CR of each population.
    pub f: Vec<f64>,
    pub cr: Vec<f64>,
    pub options: DeOptions,
}

fn per_dim<T: Copy>(v: &[T], n: usize, arg: &'static str) -> Result<Vec<T>> {
    match v.len() {
        1 => Ok(vec![v[0]; n]),
        l if l == n => Ok(v.to_vec()),
        l => Err(Error::arg(arg, format!("{l} values; expected 1 or one per dimension ({n})"))),
    }
}

impl Config {
    pub fn new(p: &DeParams) -> Result<Self> {
        if p.islands == 0 {
            return Err(Error::arg("islands", "0; expected at least 1 population"));
        }
        if p.members < 3 {
            return Err(Error::arg("members", format!("{}; every strategy needs at least 3 members", p.members)));
        }
        if p.dims == 0 {
            return Err(Error::arg("dims", "0; expected at least 1"));
        }
        let total = p.islands as u64 * (p.members as u64 + 1) * p.dims as u64;
        if total > (1 << 31) {
            return Err(Error::arg("islands", format!("{} x {} x {} values; at most 2^31", p.islands, p.members + 1, p.dims)));
        }
        let nn = p.dims as usize;
        let limits = per_dim(&p.limits, nn, "limits")?;
        crate::objective::check_intervals("limits", &limits, p.options.double)?;
        let kinds = per_dim(&p.bounds, nn, "bounds")?;
        let o = &p.options;
        for (name, v) in [("f_min", o.f_min), ("f_max", o.f_max)] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::arg(name, format!("{v}; expected a finite F >= 0")));
            }
        }
        let np = p.islands as usize;
        let f = match o.f_mode {
            FMode::Const => vec![o.f_min; np],
            FMode::Linspace if np == 1 => vec![o.f_min],
            FMode::Linspace => (0..np).map(|i| o.f_min + i as f64 * (o.f_max - o.f_min) / (np - 1) as f64).collect(),
        };
        let cr = match o.cr.len() {
            1 => vec![o.cr[0]; np],
            l if l == np => o.cr.clone(),
            l => return Err(Error::arg("cr", format!("{l} values; expected 1 or one per population ({np})"))),
        };
        if let Some(c) = cr.iter().find(|c| !(0.0..=1.0).contains(*c)) {
            return Err(Error::arg("cr", format!("{c}; expected CR in [0, 1]")));
        }
        Ok(Config {
            np: p.islands,
            nm: p.members,
            nn: p.dims,
            lo: limits.iter().map(|l| l.0).collect(),
            hi: limits.iter().map(|l| l.1).collect(),
            kinds,
            f,
            cr,
            options: o.clone(),
        })
    }

    /// This configuration with other options (the thesis's `optionsUpdate` of `init`): F, CR
    /// and the seeds may change; the precision is fixed when the solver is created.
    pub fn with_options(&self, options: &DeOptions) -> Result<Config> {
        if options.double != self.options.double {
            return Err(Error::arg(
                "double",
                format!(
                    "{}; the precision is fixed when the solver is created ({}); create a new solver",
                    options.double, self.options.double
                ),
            ));
        }
        Config::new(&DeParams {
            islands: self.np,
            members: self.nm,
            dims: self.nn,
            limits: self.lo.iter().copied().zip(self.hi.iter().copied()).collect(),
            bounds: self.kinds.clone(),
            options: options.clone(),
        })
    }

    /// Number of values in X and Fx (with the best rows).
    pub fn fx_len(&self) -> usize {
        self.np as usize * (self.nm as usize + 1)
    }
}

/// What an engine does; `DeMultiPop` adds the bookkeeping, migration planning and stopping.
pub trait Engine: Send {
    /// Builds what `objective` needs and makes, evaluates and ranks the initial population.
    fn start(&mut self, objective: &Objective, mutation: Mutation) -> Result<()>;
    /// Generation `gen` (1-based): trials, evaluation, selection, bests.
    fn generation(&mut self, gen: u64) -> Result<()>;
    /// Every value: population p's members at `p * (Nm + 1) + m`, its best at m = Nm.
    fn fitness(&mut self) -> Result<Vec<f64>>;
    /// Applies migration moves and re-ranks.
    fn migrate(&mut self, moves: &[ops::Move]) -> Result<()>;
    /// Member m (Nm: the best copy) of population p.
    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>>;
    /// The last trials, row `p * Nm + m` of `Nn` values, and their values.
    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)>;
    /// Replaces a user source objective's data buffer.
    fn set_func_data(&mut self, data: &[u8]) -> Result<()>;
    /// Waits until the work enqueued so far is done (device launches are asynchronous).
    fn sync(&mut self) -> Result<()>;
    fn describe(&self) -> String;
    /// Takes new F, CR and seeds (same sizes, limits, bounds and precision) before `start`.
    fn configure(&mut self, cfg: &Config) -> Result<()>;
}

/// Stop conditions of [`DeMultiPop::run`]; `None` means no limit, and at least one is needed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stop {
    /// Generations of this call.
    pub generations: Option<u64>,
    /// Objective evaluations of this call.
    pub evaluations: Option<u64>,
    /// Stop once the best value is at most this.
    pub target: Option<f64>,
    pub time_limit: Option<Duration>,
    /// Record the best of every population every this many generations (0: never).
    pub record_every: u64,
}

impl Stop {
    pub fn generations(g: u64) -> Self {
        Stop { generations: Some(g), ..Stop::default() }
    }
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StopReason {
    Generations,
    Evaluations,
    Target,
    TimeLimit,
}

/// The best of every population after `generation` generations.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    pub generation: u64,
    pub evaluations: u64,
    pub seconds: f64,
    pub bests: Vec<f64>,
}

/// The result of [`DeMultiPop::run`].
#[derive(Clone, Debug, Serialize)]
pub struct DeResult {
    /// The best value over all populations, and where.
    pub value: f64,
    pub x: Vec<f64>,
    pub island: u32,
    /// Totals since `init`.
    pub generations: u64,
    pub evaluations: u64,
    /// Time of this call.
    pub seconds: f64,
    pub stopped_by: StopReason,
    pub history: Vec<Record>,
}

struct Running {
    mutation: Mutation,
    migration: Migration,
    objective_label: String,
    /// A user OpenCL source objective: the only kind that takes a data buffer.
    source: bool,
}

/// The island DE solver (the thesis's `DEMultiPop`).
pub struct DeMultiPop {
    cfg: Config,
    engine: Box<dyn Engine>,
    running: Option<Running>,
    generation: u64,
    evaluations: u64,
}

impl DeMultiPop {
    /// Checks the settings and prepares the backend (the device's buffers, or the CPU's).
    pub fn new(params: &DeParams, backend: Backend) -> Result<Self> {
        let cfg = Config::new(params)?;
        let engine: Box<dyn Engine> = match backend {
            Backend::Device(d) => Box::new(device::DeviceDe::new(cfg.clone(), d)?),
            Backend::Cpu => Box::new(crate::cpu::de::CpuDe::new(cfg.clone())?),
        };
        Ok(DeMultiPop { cfg, engine, running: None, generation: 0, evaluations: 0 })
    }

    /// Sets the objective, mutation and migration, and makes and evaluates a new initial
    /// population (the generation count restarts at 0). Errors name the setting: a population
    /// too small for the mutation, migration with one population or period 0, an objective not
    /// defined in Nn dimensions, a source that does not compile.
    pub fn init(&mut self, objective: &Objective, mutation: Mutation, migration: Migration) -> Result<()> {
        self.init_with(objective, mutation, migration, None)
    }

    /// `init` with an options update (the thesis's `optionsUpdate`): new F mode and range, CR
    /// and seeds for this and later runs; `None` keeps the current options. The precision
    /// (`double`) is fixed at creation. Nothing changes when an argument is invalid; an
    /// objective that fails to compile or to evaluate leaves the options as they were and the
    /// solver without an objective.
    pub fn init_with(
        &mut self,
        objective: &Objective,
        mutation: Mutation,
        migration: Migration,
        options: Option<&DeOptions>,
    ) -> Result<()> {
        let cfg = match options {
            Some(o) => Some(self.cfg.with_options(o)?),
            None => None,
        };
        if self.cfg.nm < mutation.min_members() {
            return Err(Error::arg(
                "members",
                format!("{}; {} needs at least {} members per population", self.cfg.nm, mutation, mutation.min_members()),
            ));
        }
        if migration.kind != MigrationKind::None {
            if migration.period == 0 {
                return Err(Error::arg("period", "0; expected a migration period of at least 1 generation"));
            }
            if self.cfg.np < 2 {
                return Err(Error::arg("migration", format!("{} needs at least 2 populations, not 1", migration.kind)));
            }
        }
        objective.check_dims(self.cfg.nn as usize)?;
        self.running = None;
        let previous = cfg.as_ref().map(|_| self.cfg.clone());
        if let Some(cfg) = cfg {
            self.engine.configure(&cfg)?;
            self.cfg = cfg;
        }
        if let Err(e) = self.engine.start(objective, mutation) {
            // an objective that fails to build or to evaluate leaves the options as they were
            if let Some(old) = previous {
                self.engine.configure(&old)?;
                self.cfg = old;
            }
            return Err(e);
        }
        let objective_label = match objective {
            Objective::Catalogue { name } => name.clone(),
            Objective::Source { .. } => "OpenCL source".into(),
            Objective::Callback(_) => "host callback".into(),
        };
        let source = matches!(objective, Objective::Source { .. });
        self.running = Some(Running { mutation, migration, objective_label, source });
        self.generation = 0;
        self.evaluations = self.cfg.np as u64 * self.cfg.nm as u64;
        Ok(())
    }

    fn running(&self) -> Result<&Running> {
        self.running.as_ref().ok_or_else(|| Error::arg("init", "the solver has no objective yet; call init first"))
    }

    /// One generation: trials, evaluation, selection, and migration when its period comes.
    pub fn iteration(&mut self) -> Result<()> {
        let migration = self.running()?.migration;
        let gen = self.generation + 1;
        self.engine.generation(gen)?;
        self.generation = gen;
        self.evaluations += self.cfg.np as u64 * self.cfg.nm as u64;
        if migration.is_period(gen) {
            let fx = self.engine.fitness()?;
            let moves = ops::plan_migration(migration.kind, self.cfg.options.migration_seed, gen, self.cfg.np, self.cfg.nm, &fx);
            self.engine.migrate(&moves)?;
        }
        Ok(())
    }

    /// Generations until a stop condition holds; `observe` sees every record as it is made.
    pub fn run_observed(&mut self, stop: &Stop, mut observe: impl FnMut(&Record)) -> Result<DeResult> {
        self.running()?;
        if stop.generations.is_none() && stop.evaluations.is_none() && stop.target.is_none() && stop.time_limit.is_none() {
            return Err(Error::arg("stop", "no stop condition; give generations, evaluations, a target or a time limit"));
        }
        if let Some(t) = stop.target {
            if t.is_nan() {
                return Err(Error::arg("target", "NaN"));
            }
        }
        let t0 = Instant::now();
        let (g0, e0) = (self.generation, self.evaluations);
        let per_gen = self.cfg.np as u64 * self.cfg.nm as u64;
        let mut history = Vec::new();
        let record = |s: &mut Self, history: &mut Vec<Record>, observe: &mut dyn FnMut(&Record)| -> Result<Vec<f64>> {
            let bests = s.bests_fitness()?;
            let r = Record { generation: s.generation, evaluations: s.evaluations, seconds: t0.elapsed().as_secs_f64(), bests };
            observe(&r);
            let bests = r.bests.clone();
            history.push(r);
            Ok(bests)
        };
        if stop.record_every > 0 {
            record(self, &mut history, &mut observe)?;
        }
        let reached = |bests: &[f64]| stop.target.is_some_and(|t| bests.iter().any(|&b| b <= t));
        let stopped_by = loop {
            if stop.target.is_some() && reached(&self.bests_fitness()?) {
                break StopReason::Target;
            }
            if stop.generations.is_some_and(|g| self.generation - g0 >= g) {
                break StopReason::Generations;
            }
            if stop.evaluations.is_some_and(|e| self.evaluations - e0 + per_gen > e) {
                break StopReason::Evaluations;
            }
            if let Some(t) = stop.time_limit {
                // launches are asynchronous: the clock means something only once they are done
                self.engine.sync()?;
                if t0.elapsed() >= t {
                    break StopReason::TimeLimit;
                }
            }
            self.iteration()?;
            if stop.record_every > 0 && (self.generation - g0).is_multiple_of(stop.record_every) {
                record(self, &mut history, &mut observe)?;
            }
        };
        if stop.record_every > 0 && history.last().is_none_or(|r| r.generation != self.generation) {
            record(self, &mut history, &mut observe)?;
        }
        self.engine.sync()?;
        let seconds = t0.elapsed().as_secs_f64();
        let (island, value) = self.best_island()?;
        Ok(DeResult {
            value,
            x: self.best(island)?,
            island,
            generations: self.generation,
            evaluations: self.evaluations,
            seconds,
            stopped_by,
            history,
        })
    }

    /// [`DeMultiPop::run_observed`] without an observer.
    pub fn run(&mut self, stop: &Stop) -> Result<DeResult> {
        self.run_observed(stop, |_| {})
    }

    /// The best value of every population (thesis `getBestsFitness`).
    pub fn bests_fitness(&mut self) -> Result<Vec<f64>> {
        self.running()?;
        let fx = self.engine.fitness()?;
        let s = self.cfg.nm as usize + 1;
        Ok(fx.chunks_exact(s).map(|c| c[s - 1]).collect())
    }

    /// The population holding the best value, and the value (ties: lowest population).
    pub fn best_island(&mut self) -> Result<(u32, f64)> {
        let b = self.bests_fitness()?;
        let i = ops::best_member(&b).unwrap_or(0);
        Ok((i as u32, b[i]))
    }

    /// The best member of population `p` (thesis `getBest`).
    pub fn best(&mut self, p: u32) -> Result<Vec<f64>> {
        self.check_p(p)?;
        self.engine.member(p, self.cfg.nm)
    }

    /// Member `m` of population `p` (thesis `getX`).
    pub fn x(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        self.check_p(p)?;
        if m >= self.cfg.nm {
            return Err(Error::arg("member", format!("{m}; the populations have {} members", self.cfg.nm)));
        }
        self.engine.member(p, m)
    }

    /// Every value: population p's members at `p * (Nm + 1) + m`, its best at m = Nm.
    pub fn fitness(&mut self) -> Result<Vec<f64>> {
        self.running()?;
        self.engine.fitness()
    }

    /// The trials of the last generation (row `p * Nm + m`) and their values.
    pub fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        self.running()?;
        self.engine.trials()
    }

    fn check_p(&self, p: u32) -> Result<()> {
        self.running()?;
        if p >= self.cfg.np {
            return Err(Error::arg("island", format!("{p}; there are {} populations", self.cfg.np)));
        }
        Ok(())
    }

    /// Replaces the data buffer of a user OpenCL source objective (the thesis's `func-data`) and
    /// evaluates the population again under it (counted as Np * Nm evaluations), so no member
    /// keeps a fitness of the old data. Only a user OpenCL source objective takes data.
    pub fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        if !self.running()?.source {
            return Err(Error::arg("func-data", "only a user OpenCL source objective takes a data buffer"));
        }
        self.engine.set_func_data(data)?;
        self.evaluations += self.cfg.np as u64 * self.cfg.nm as u64;
        Ok(())
    }

    /// The backend in words: the OpenCL device (and its platform, with the tile size), or the
    /// CPU backend with its thread count.
    pub fn backend_description(&self) -> String {
        self.engine.describe()
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    pub fn mutation(&self) -> Option<Mutation> {
        self.running.as_ref().map(|r| r.mutation)
    }

    pub fn migration(&self) -> Option<Migration> {
        self.running.as_ref().map(|r| r.migration)
    }

    /// A description: sizes, strategies, objective and where it runs.
    pub fn info(&self) -> String {
        let c = &self.cfg;
        let mut s = format!(
            "island DE: {} populations x {} members x {} dimensions, {}, F {} {}..{}, CR {}{}\nrunning on {}\n",
            c.np,
            c.nm,
            c.nn,
            if c.options.double { "double" } else { "float" },
            c.options.f_mode.name(),
            c.options.f_min,
            c.options.f_max,
            c.cr[0],
            if c.cr.iter().any(|&v| v != c.cr[0]) { " (per population)" } else { "" },
            self.engine.describe()
        );
        let kinds: Vec<&str> = c.kinds.iter().map(|k| k.name()).collect();
        s += &format!("bounds: {}\n", kinds.join(","));
        if let Some(r) = &self.running {
            s += &format!(
                "objective: {}, mutation {}, migration {} every {} generations\ngeneration {}, {} evaluations\n",
                r.objective_label, r.mutation, r.migration.kind, r.migration.period, self.generation, self.evaluations
            );
        }
        s
    }
}
