//! The engine both backends implement ([`Engine`]: `device.rs` on an OpenCL device, `cpu.rs`
//! with rayon) and the solver over it ([`DeMultiPop`], the thesis's `DEMultiPop`), which adds the
//! bookkeeping, the migration planning of `ops.rs` and the stop conditions. Neither backend is
//! named here: `DeMultiPop::new` (in `mod.rs`) picks one.

use super::config::{Config, DeOptions, Migration, MigrationKind, Mutation};
use super::constraints::{self, Constraints};
use super::ops;
use super::pace::{Cut, PIECE_SECONDS};
use crate::error::{Error, Result};
use crate::interrupt::{Clock, StopToken, Watch};
use crate::objective::Objective;
use crate::precision::Precision;
use crate::run::checkpoint::{self, Schedule};
use crate::run::Stop;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The most generations of one fused launch.
const FUSED_MAX: u64 = 1000;
/// Fused launches enqueued at most between two waits for the device, where no time limit or
/// stop token asks for one after every launch: launches cut short by a migration period, a
/// record or a budget follow each other with no host round trip between them.
const FUSED_AHEAD: u32 = 8;

/// What [`Engine::start`] makes a population for: the objective, the mutation, and the cut of a
/// call under a time limit or a stop token.
#[derive(Clone, Copy)]
pub struct Start<'a> {
    pub objective: &'a Objective,
    pub mutation: Mutation,
    pub cut: Option<&'a Cut>,
    /// The run's constraints (`constraints.rs`), if any.
    pub constraints: Option<&'a Constraints>,
}

/// What an engine keeps between generations ([`Engine::save`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EngineState {
    /// The CPU engine (`cpu.rs`): X and Fx with the best rows, the trials (a generation cut
    /// midway only), and the adaptive variants' state.
    Cpu {
        x: Vec<f64>,
        fx: Vec<f64>,
        y: Vec<f64>,
        fy: Vec<f64>,
        /// JADE, SHADE, L-SHADE, jSO: every island's memories, archive and counters.
        ade: Option<Vec<super::ade::State>>,
        /// jDE100: F and CR of every member, and every island's counters.
        jde: Option<(Vec<f64>, Vec<f64>, Vec<super::jde::JdeState>)>,
    },
    /// A device engine (`device.rs`): `path` names what its buffers are (the fixed DE, the
    /// adaptive variants fused or planned on the host, jDE100) and `buffers` their bytes as the
    /// device holds them, in that path's order; `adapt` the host-planned variants' islands,
    /// `na` and `nfe` the fused variants' active members and evaluations the host follows.
    Device {
        path: String,
        buffers: Vec<Vec<u8>>,
        adapt: Option<Vec<super::adapt::Island>>,
        na: Vec<u32>,
        nfe: Vec<u64>,
    },
    /// Several devices (`multi.rs`): each engine's, in block order, and what each did of a
    /// generation cut midway.
    Blocks {
        engines: Vec<EngineState>,
        cut: Option<Vec<u64>>,
    },
}

/// What an engine does; `DeMultiPop` adds the bookkeeping, migration planning and stopping.
pub trait Engine: Send {
    /// Builds what `objective` needs and makes, evaluates and ranks the initial population,
    /// in pieces under a `cut` (`pace.rs`). Returns the members evaluated (all of them without
    /// a cut); when the cut came due a leading range of them (the others keep +inf, which any
    /// finite trial replaces), or `None` when it came before the population was made.
    fn start(&mut self, s: &Start<'_>) -> Result<Option<u64>>;
    /// Generation `gen` (1-based): trials, evaluation, selection, bests, in pieces under a cut.
    /// Returns the trials evaluated and selected: all of them, or when the cut came due a
    /// leading range (0 when it came while trials were made), the population still whole and
    /// ranked. The pieces compute what one launch would: the trials all come from the previous
    /// generation, and each selection writes only its own member.
    fn generation(&mut self, gen: u64, cut: Option<&Cut>) -> Result<u64>;
    /// Whether [`Engine::generations`] runs several generations in one launch (the device's
    /// fused kernel, when an island fits one work-group and `DeOptions::fused` is set).
    fn fused(&self) -> bool {
        false
    }
    /// Generations `gen + 1 ..= gen + count` with no migration between them, every trial
    /// evaluated and selected, the bests ranked after the last: what `count` calls of
    /// [`Engine::generation`] without a cut compute, in one launch where [`Engine::fused`].
    fn generations(&mut self, gen: u64, count: u64) -> Result<()> {
        for g in gen + 1..=gen + count {
            self.generation(g, None)?;
        }
        Ok(())
    }
    /// Whether a migration follows the next [`Engine::generations`], and how many worst
    /// members per population its plan reads (`ops::worst_needed`): an engine may read the
    /// migration view with the generations' wait (`multi.rs`), and skip it when none follows.
    fn next_migration(&mut self, _worst: Option<usize>) {}
    /// Every value: population p's members at `p * (Nm + 1) + m`, its best at m = Nm.
    fn fitness(&mut self) -> Result<Vec<f64>>;
    /// With constraints, every value's violation in [`Engine::fitness`]'s layout; `None`
    /// without.
    fn violations(&mut self) -> Result<Option<Vec<f64>>> {
        Ok(None)
    }
    /// The level of the comparisons now (`constraints.rs`; 0 under Deb's rules and without
    /// constraints).
    fn level(&self) -> f64 {
        0.0
    }
    /// `[mean, sum of squared deviations]` of each population's members' values
    /// ([`ops::moments`]), for the convergence test; a device computes them where the values
    /// are and reads two numbers a population.
    fn moments(&mut self, nm: usize) -> Result<Vec<f64>> {
        Ok(ops::moments(&self.fitness()?, nm))
    }
    /// Applies migration moves and re-ranks. A move's member may be [`ops::WORST`] (the
    /// receiver's worst member now; one such move per receiver at most).
    fn migrate(&mut self, moves: &[ops::Move]) -> Result<()>;
    /// The best rows (population `islands[k]`'s at `k * Nn ..`) and best values of some of
    /// this engine's populations: the migrants that leave it for another engine.
    fn best_rows(&mut self, islands: &[u32]) -> Result<(Vec<f64>, Vec<f64>)> {
        let v = self.migration_view(1, true)?;
        let nn = v.rows.len() / v.best.len().max(1);
        let rows = islands
            .iter()
            .flat_map(|&p| {
                v.rows[p as usize * nn..(p as usize + 1) * nn]
                    .iter()
                    .copied()
            })
            .collect();
        Ok((rows, islands.iter().map(|&p| v.best[p as usize]).collect()))
    }
    /// What a migration plan reads ([`ops::MigrationView`]): every population's best value and
    /// its `k` worst members, and with `rows` the best rows (an engine may add them unasked,
    /// for its own [`Engine::migrate`]). By default from [`Engine::fitness`].
    fn migration_view(&mut self, k: usize, rows: bool) -> Result<ops::MigrationView> {
        view_from_values(self, k, rows)
    }
    /// Migrant export (`multi.rs`): the best row of every population, row p of Nn values.
    fn export_bests(&mut self) -> Result<Vec<f64>> {
        let (np, nm) = self.shape();
        let mut out = Vec::new();
        for p in 0..np {
            out.extend(self.member(p, nm)?);
        }
        Ok(out)
    }
    /// Migrant import (`multi.rs`): migrant k (row k of `x`, value `fx[k]`) replaces member
    /// `slots[k].1` of population `slots[k].0` ([`ops::WORST`]: its worst now), as
    /// [`Engine::migrate`] writes a move; then re-ranks.
    fn import(&mut self, slots: &[(u32, u32)], x: &[f64], fx: &[f64]) -> Result<()>;
    /// Np and Nm of this engine.
    fn shape(&self) -> (u32, u32);
    /// Member m (Nm: the best copy) of population p.
    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>>;
    /// The last trials, row `p * Nm + m` of `Nn` values, and their values.
    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)>;
    /// Replaces a user source objective's data buffer.
    fn set_func_data(&mut self, data: &[u8]) -> Result<()>;
    /// Waits until the work enqueued so far is done (device launches are asynchronous).
    fn sync(&mut self) -> Result<()>;
    fn describe(&self) -> String;
    /// Evaluations of the next generation: every member (Np Nm), or for L-SHADE and jSO the
    /// active ones (`adapt.rs`).
    fn per_generation(&self) -> u64;
    /// Evaluations of the next `count` generations (L-SHADE's and jSO's islands shrink from one
    /// to the next; the others make `count` times [`Engine::per_generation`]).
    fn per_generations(&self, count: u64) -> u64 {
        count * self.per_generation()
    }
    /// The constraint evaluations the gradient-based repair of generation `gen`'s trials counts
    /// beside [`Engine::per_generation`] (`constraints::repair_charge`; 0 without a repair).
    fn repair_charge(&self, _gen: u64) -> u64 {
        0
    }
    /// jDE100's counters of every population (`jde.rs`); empty for the other algorithms.
    fn jde_state(&mut self) -> Result<Vec<super::jde::JdeState>> {
        Ok(Vec::new())
    }
    /// Takes new F, CR and seeds (same sizes, limits, bounds and precision) before `start`.
    fn configure(&mut self, cfg: &Config) -> Result<()>;
    /// Generation `gen` cut by a [`Cut`] after its first `from` trials were evaluated and
    /// selected ([`Engine::generation`] returned `from`): the trials from `from` on (still in Y,
    /// made from the previous generation) evaluated and selected, in pieces under `cut`.
    /// Returns the trials of the generation evaluated and selected so far (`from` and more).
    /// Only the fixed DE's launch-per-phase generations are cut after a selection began.
    fn resume_generation(&mut self, gen: u64, from: u64, cut: Option<&Cut>) -> Result<u64>;
    /// Everything the engine keeps between generations (the populations and their values, the
    /// adaptive variants' memories, archives, parameters per member and counters), with the
    /// trials when `trials` (a generation cut midway continues from them): a checkpoint's part.
    fn save(&mut self, trials: bool) -> Result<EngineState>;
    /// Takes back a state of [`Engine::save`] of an engine made alike and started with the same
    /// objective; a state of another engine or shape is refused (naming `state`).
    fn restore(&mut self, state: EngineState) -> Result<()>;
    /// Every member, row `p * Nm + m` of Nn values (the best copies left out).
    fn population(&mut self) -> Result<Vec<f64>>;
    /// Replaces every member with row `p * Nm + m` of `x` and evaluates them all afresh (Fx of
    /// the members reset first, as after the initial population), then ranks.
    fn set_population(&mut self, x: &[f64]) -> Result<()>;
    /// The devices the engine runs on: 0 for the CPU backend.
    fn devices(&self) -> usize;
    /// This process's index among the processes of a run across processes, and their count.
    fn process(&self) -> (usize, usize) {
        (0, 1)
    }
    /// The step of [`DeMultiPop::run`] every process of a run across processes takes (island
    /// DE over MPI ranks, `multi.rs`'s [`IslandExchange`](super::multi::IslandExchange)):
    /// from each process's wish, stop when any process is interrupted or past its time limit,
    /// and run the fewest generations any process would. One process decides alone: `mine`.
    fn agree(&mut self, mine: Pace) -> Result<Pace> {
        Ok(mine)
    }
}

/// [`Engine::migration_view`] from every value ([`Engine::fitness`]) and the best rows
/// ([`Engine::export_bests`]).
pub fn view_from_values<E: Engine + ?Sized>(
    e: &mut E,
    k: usize,
    rows: bool,
) -> Result<ops::MigrationView> {
    let (np, nm) = e.shape();
    let mut fx = e.fitness()?;
    if let Some(vx) = e.violations()? {
        // constrained: each value's rank in the order of the comparisons
        fx = super::constraints::keys(&fx, &vx, e.level());
    }
    let mut v = ops::MigrationView::from_fitness(&fx, np, nm, k);
    if rows {
        v.rows = e.export_bests()?;
    }
    Ok(v)
}

/// A process's wish at a step of [`DeMultiPop::run`] (see [`Engine::agree`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// Its stop token or `metaopt::interrupt` asks to stop.
    pub interrupted: bool,
    /// Its clock is past the time limit.
    pub late: bool,
    /// Generations of the next launch (at least 1).
    pub count: u64,
    /// Its checkpoint is due (all processes then write theirs, at the same generation).
    pub checkpoint: bool,
}

/// Why a run ended: the one reason of every solver.
pub use crate::run::StopReason;

/// The best of every population after `generation` generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub generation: u64,
    pub evaluations: u64,
    pub seconds: f64,
    pub bests: Vec<f64>,
}

/// The result of [`DeMultiPop::run`].
#[derive(Clone, Debug, Serialize)]
pub struct DeRunResult {
    /// The best value over all populations, and where (with constraints the best by Deb's
    /// rules: the best feasible point, or the least violation when none is feasible).
    pub value: f64,
    /// The best point's constraint violation (`constraints.rs`): 0 when it is feasible, and
    /// without constraints.
    pub violation: f64,
    pub x: Vec<f64>,
    pub island: u32,
    /// Totals since `init`.
    pub generations: u64,
    pub evaluations: u64,
    /// Time of this call.
    pub seconds: f64,
    pub stopped_by: StopReason,
    pub history: Vec<Record>,
    /// The precision the solver computes in (resolved at creation).
    pub precision: Precision,
    /// The precision of the fitness values (resolved at creation; the storage precision unless
    /// `DeOptions::fitness_precision` named another).
    pub fitness_precision: Precision,
}

pub(super) struct Running {
    pub(super) mutation: Mutation,
    pub(super) migration: Migration,
    pub(super) objective_label: String,
    /// A user OpenCL source objective: the only kind that takes a data buffer.
    pub(super) source: bool,
    /// What a checkpoint's problem fingerprint reads: a catalogue function's name or a source's
    /// code, and the source's data (as `set_func_data` last set it).
    pub(super) code: String,
    pub(super) data: Vec<u8>,
}

/// The progress of a run ([`DeMultiPop::run_observed`]) that a checkpoint holds, so that the
/// run continued from it counts its budget, time and records from the same start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct CallState {
    /// Generations and evaluations when the run began.
    pub(super) g0: u64,
    pub(super) e0: u64,
    /// Seconds the run had taken.
    pub(super) elapsed: f64,
    pub(super) history: Vec<Record>,
}

/// The island DE solver (the thesis's `DEMultiPop`).
pub struct DeMultiPop {
    pub(super) cfg: Config,
    pub(super) engine: Box<dyn Engine>,
    pub(super) running: Option<Running>,
    pub(super) generation: u64,
    pub(super) evaluations: u64,
    /// jDE100: the restart evaluations counted so far (the engine's counters summed).
    pub(super) jde_counted: u64,
    /// A generation cut midway: its number and the trials evaluated and selected so far; the
    /// next step completes it from them (`Engine::resume_generation`).
    pub(super) partial: Option<(u64, u64)>,
    /// The last run's progress, for [`DeMultiPop::save_state`].
    pub(super) last_call: Option<CallState>,
    /// A run of a loaded state that the next [`DeMultiPop::run_observed`] continues.
    pub(super) resume: Option<CallState>,
    /// The constraints the next `init` starts with ([`DeMultiPop::set_constraints`]).
    pub(super) constraints: Option<Constraints>,
}

impl DeMultiPop {
    /// The solver over `engine`, made for `cfg` ([`DeMultiPop::new`] picks the engine of a
    /// backend; the backends depend on this module, not it on them).
    pub fn with_engine(cfg: Config, engine: Box<dyn Engine>) -> Self {
        DeMultiPop {
            cfg,
            engine,
            running: None,
            generation: 0,
            evaluations: 0,
            jde_counted: 0,
            partial: None,
            last_call: None,
            resume: None,
            constraints: None,
        }
    }

    /// Sets the objective, mutation and migration, and makes and evaluates a new initial
    /// population (the generation count restarts at 0). Errors name the setting: a population
    /// too small for the mutation, migration with one population or period 0, an objective not
    /// defined in Nn dimensions, a source that does not compile.
    pub fn init(
        &mut self,
        objective: &Objective,
        mutation: Mutation,
        migration: Migration,
    ) -> Result<()> {
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
        self.init_within(objective, mutation, migration, options, None, None)
            .map(|_| ())
    }

    /// [`DeMultiPop::init_with`] under a time limit counted from this call and a stop token
    /// (a large initial population in many dimensions can take minutes on a CPU device). With either, the initial values and the evaluation come
    /// in launches of about `PIECE_SECONDS`, and the clock and the token are asked between them. Returns
    /// the members evaluated: all of them, or when the limit passed (or the stop came) during
    /// the evaluation only the first ones, the rest keeping +inf (a run that follows ends at
    /// once, with the time limit, and reports the best of those evaluated; one that goes on
    /// replaces them with their first finite trials). When the limit passed before the
    /// population was even made, the call is `Error::TimeLimit` ("set-up"; an
    /// interrupt: `Error::Interrupted`) and the solver is
    /// left without an objective, as after a failed `init`.
    pub fn init_within(
        &mut self,
        objective: &Objective,
        mutation: Mutation,
        migration: Migration,
        options: Option<&DeOptions>,
        time_limit: Option<Duration>,
        token: Option<&StopToken>,
    ) -> Result<u64> {
        let clock = Clock::new(time_limit);
        let watch = Watch::new(token);
        crate::interrupt::check_time_limit(time_limit, "time_limit")?;
        let cut = (time_limit.is_some() || token.is_some()).then_some(Cut { clock, watch });
        // the kernels built for the start count in the limit and answer the token
        let _setup = cut.as_ref().map(Cut::setup_scope);
        let cfg = match options {
            Some(o) => Some(self.cfg.with_options(o)?),
            None => None,
        };
        if self.cfg.nm < mutation.min_members() {
            return Err(Error::arg(
                "members",
                format!(
                    "{}; {} needs at least {} members per population",
                    self.cfg.nm,
                    mutation,
                    mutation.min_members()
                ),
            ));
        }
        if migration.kind != MigrationKind::None {
            let alg = cfg.as_ref().unwrap_or(&self.cfg).options.algorithm;
            if alg == super::config::Algorithm::Jde100 {
                return Err(Error::arg(
                    "migration",
                    format!("{}: jde100 islands are independent runs (each keeps its best ever across restarts); give migration None", migration.kind),
                ));
            }
            if alg.reduces() {
                return Err(Error::arg(
                    "migration",
                    format!(
                        "{}: {alg} shrinks its populations; give migration None",
                        migration.kind
                    ),
                ));
            }
            if migration.period == 0 {
                return Err(Error::arg(
                    "period",
                    "0; expected a migration period of at least 1 generation",
                ));
            }
            if self.cfg.np < 2 {
                return Err(Error::arg(
                    "migration",
                    format!("{} needs at least 2 populations, not 1", migration.kind),
                ));
            }
        }
        objective.check_dims(self.cfg.nn as usize)?;
        self.running = None;
        self.partial = None;
        self.last_call = None;
        self.resume = None;
        let previous = cfg.as_ref().map(|_| self.cfg.clone());
        if let Some(cfg) = cfg {
            self.engine.configure(&cfg)?;
            self.cfg = cfg;
        }
        let started = match self.engine.start(&Start {
            objective,
            mutation,
            cut: cut.as_ref(),
            constraints: self.constraints.as_ref(),
        }) {
            Ok(Some(evaluated)) => Ok(evaluated),
            Ok(None) => Err(Error::cut_short(
                cut.as_ref().is_some_and(|c| c.watch.stopped()),
                "the set-up of island DE, before the initial population was made",
            )),
            Err(e) => Err(e),
        };
        let evaluated = match started {
            Ok(n) => n,
            Err(e) => {
                // an objective that fails to build or to evaluate leaves the options as they were
                if let Some(old) = previous {
                    self.engine.configure(&old)?;
                    self.cfg = old;
                }
                return Err(e);
            }
        };
        let objective_label = match objective {
            Objective::Catalogue { name } => name.clone(),
            Objective::Source { .. } => "OpenCL source".into(),
            Objective::Callback(_) => "host callback".into(),
        };
        let source = matches!(objective, Objective::Source { .. });
        let (code, data) = match objective {
            Objective::Catalogue { name } => (name.clone(), Vec::new()),
            Objective::Source { code, data } => (code.clone(), data.clone()),
            Objective::Callback(_) => (String::new(), Vec::new()),
        };
        self.running = Some(Running {
            mutation,
            migration,
            objective_label,
            source,
            code,
            data,
        });
        self.generation = 0;
        self.evaluations = evaluated;
        self.jde_counted = 0;
        self.partial = None;
        self.last_call = None;
        self.resume = None;
        Ok(evaluated)
    }

    pub(super) fn running(&self) -> Result<&Running> {
        self.running
            .as_ref()
            .ok_or_else(|| Error::arg("init", "the solver has no objective yet; call init first"))
    }

    /// One generation: trials, evaluation, selection, and migration when its period comes (a
    /// generation a run's time limit or stop cut midway is completed).
    pub fn iteration(&mut self) -> Result<()> {
        self.running()?;
        // a step outside a run: a loaded run's progress no longer describes the state
        self.last_call = None;
        self.resume = None;
        self.step(None).map(|_| ())
    }

    /// One generation, in pieces under a cut: whether it was completed (a cut one counts its
    /// evaluations, not itself, and has no migration; the next step completes it from the
    /// trials it left, as if it had not been cut).
    pub(super) fn step(&mut self, cut: Option<&Cut>) -> Result<bool> {
        let migration = self.running()?.migration;
        let gen = self.generation + 1;
        let per_gen = self.engine.per_generation();
        let (from, done) = match self.partial.take() {
            Some((g, from)) if g == gen => (from, self.engine.resume_generation(gen, from, cut)?),
            _ => {
                let done = self.engine.generation(gen, cut)?;
                // the repair is made with the trials, before their evaluation: counted once the
                // evaluation began (a generation cut before it is made afresh, repair included)
                if done > 0 {
                    self.evaluations += self.engine.repair_charge(gen);
                }
                (0, done)
            }
        };
        self.evaluations += done - from;
        self.count_restarts()?;
        if done < per_gen {
            // cut while its trials were made (none selected: the generation is made afresh), or
            // after some were selected (completed from the others)
            if done > 0 {
                self.partial = Some((gen, done));
            }
            return Ok(false);
        }
        self.generation = gen;
        self.migrate_if_due(migration)?;
        Ok(true)
    }

    /// jDE100: adds the evaluations of the restarts made since the last call (the engine counts
    /// them per island).
    fn count_restarts(&mut self) -> Result<()> {
        if self.cfg.options.algorithm == super::config::Algorithm::Jde100 {
            let total: u64 = self
                .engine
                .jde_state()?
                .iter()
                .map(|s| s.restart_evaluations)
                .sum();
            self.evaluations += total - self.jde_counted;
            self.jde_counted = total;
        }
        Ok(())
    }

    /// jDE100's counters of every island (its age, the evaluations and the number of the
    /// restarts of its big and small populations); empty for the other algorithms.
    pub fn jde_state(&mut self) -> Result<Vec<super::jde::JdeState>> {
        self.running()?;
        self.engine.jde_state()
    }

    /// The migration of the generation just completed, when its period comes: planned from
    /// the engine's [`ops::MigrationView`] (on a device a few values per island, not all), or
    /// where the kind reads no value ([`ops::plan_blind`]) from the random numbers alone.
    fn migrate_if_due(&mut self, migration: Migration) -> Result<()> {
        let gen = self.generation;
        if migration.is_period(gen) {
            let (np, nm) = (self.cfg.np, self.cfg.nm);
            // One2One, One2N and PermuteN read nothing: the engine finds each receiver's worst
            if let Some(moves) =
                ops::plan_blind(migration.kind, self.cfg.options.migration_seed, gen, np, nm)
            {
                return self.engine.migrate(&moves);
            }
            let view = self
                .engine
                .migration_view(ops::worst_needed(migration.kind, np, nm), false)?;
            let moves = ops::plan_migration_view(
                migration.kind,
                self.cfg.options.migration_seed,
                gen,
                np,
                nm,
                &view,
            );
            self.engine.migrate(&moves)?;
        }
        Ok(())
    }

    /// Generations until a stop condition of `stop` holds (its budget counts generations of this
    /// call, its evaluations the objective evaluations of this call, which the run never passes:
    /// it stops before a generation that would); `observe` sees every record as it is made. The run
    /// decides through `stop`'s [`Driver`](crate::run::Driver): the target, the generations,
    /// the evaluations, the interrupt or the token, the time limit, in that order. Across MPI
    /// processes each process's wish goes through [`Engine::agree`], so all stop at the same
    /// generation for the same reason.
    ///
    /// On a device whose engine is fused ([`Engine::fused`]: `DeOptions::fused` and an island that
    /// fits one work-group), the generations up to the next migration, record or budget run in
    /// launches of the fused kernel, each sized by the run's [`Driver`](crate::run::Driver) to
    /// take about `PIECE_SECONDS` (never more than the time left under a limit); the stop conditions are
    /// asked between launches, through the driver. With a target a launch
    /// is one generation, so the run stops at the generation that reached it, as on the
    /// per-phase path and the CPU backend. The numbers are those of the per-phase path.
    ///
    /// With a time limit or a stop token, a generation comes in launches of about `PIECE_SECONDS`
    /// (`pace.rs`) and the clock and the token are asked between them: a generation the limit
    /// (or the stop) cuts is left with its evaluations counted and the trials selected so far
    /// kept (each is a valid DE move), the population ranked again; the result reports the
    /// completed generations, the best value known and its vector. A later `run` or `iteration`
    /// completes that generation from the trials it left (those not yet evaluated and selected),
    /// so the run goes on as if it had not been cut. Without either, a generation is one set of
    /// launches, as it always was; the pieces compute the same numbers, so results do not
    /// depend on them.
    ///
    /// With `stop.checkpoint`, the run writes its whole state to the file when due (between
    /// generations or fused launches) and when it ends, whatever ended it. A run after
    /// [`DeMultiPop::load_state`] continues the saved run: its budget of generations and
    /// evaluations, its time limit and its records count from that run's start, so it ends as
    /// the run that never stopped.
    pub fn run_observed(
        &mut self,
        stop: &Stop,
        mut observe: impl FnMut(&Record),
    ) -> Result<DeRunResult> {
        // the limit counts from here: everything the call does is inside it (and a resumed
        // run's clock counts the time the run had taken)
        let now = Instant::now();
        self.running()?;
        stop.check("stop")?;
        // a loaded state's run is continued (and used up) by a run that starts
        let resumed = self.resume.take();
        let t0 = checkpoint::resumed_start(now, resumed.as_ref().map_or(0.0, |c| c.elapsed));
        // where the run decides to stop (target, generations, evaluations, interrupt or token,
        // time limit) and how many generations a fused launch runs
        let mut driver = stop.driver(t0);
        let cut = (stop.time_limit.is_some() || stop.token.is_some()).then(|| driver.cut().clone());
        let _setup = cut.as_ref().map(Cut::setup_scope);
        let (g0, e0) = match &resumed {
            Some(c) => (c.g0, c.e0),
            None => (self.generation, self.evaluations),
        };
        let header = match &stop.checkpoint {
            Some(_) => Some(self.header()?),
            None => None,
        };
        let mut schedule = Schedule::new(stop.checkpoint.as_ref());
        // a fused engine's generations are all alike (Np Nm evaluations; a jDE100 cycle's
        // without its restarts)
        let per_gen = self.engine.per_generation();
        let migration = self.running()?.migration;
        // the fused path: launches sized by the driver from the time per generation measured,
        // to take about `run::STEP_SECONDS` (never more than the time left); the first launch
        // is one generation, timed (a generation of a large population on a CPU device may take
        // seconds: a first launch of several would outlast a short limit)
        let mut fused = self.engine.fused();
        // the launches since the last wait for the device: their number, generations and start
        let (mut ahead, mut ahead_gens, mut ahead_t) = (0u32, 0u64, Instant::now());
        let resumed_run = resumed.is_some();
        let mut history = resumed.map_or_else(Vec::new, |c| c.history);
        let call = |history: &Vec<Record>| CallState {
            g0,
            e0,
            elapsed: t0.elapsed().as_secs_f64(),
            history: history.clone(),
        };
        let record = |s: &mut Self,
                      history: &mut Vec<Record>,
                      observe: &mut dyn FnMut(&Record)|
         -> Result<Vec<f64>> {
            let bests = s.bests_fitness()?;
            let r = Record {
                generation: s.generation,
                evaluations: s.evaluations,
                seconds: t0.elapsed().as_secs_f64(),
                bests,
            };
            observe(&r);
            let bests = r.bests.clone();
            history.push(r);
            Ok(bests)
        };
        if stop.record_every > 0 && !resumed_run {
            record(self, &mut history, &mut observe)?;
        }
        let stopped_by = loop {
            let done = self.generation - g0;
            // (L-SHADE's and jSO's shrink: their evaluations are asked every generation)
            let shrinks = self.cfg.options.algorithm.reduces();
            let per_gen = if fused && !shrinks {
                per_gen
            } else {
                self.engine.per_generation()
            };
            // launches are asynchronous: the clock means something only once they are done
            if stop.time_limit.is_some() {
                self.engine.sync()?;
            }
            // the bests are read (a device read) only for a target; any island reaching it ends
            // the run
            let best = if stop.target.is_some() {
                self.target_best()?
            } else {
                f64::INFINITY
            };
            // the evaluation budget is never passed: the run stops before a generation that
            // would pass it, so the driver is asked with what that generation would reach, less
            // one (the evaluations would then be at least the budget)
            let next =
                (self.evaluations - e0 + per_gen + self.engine.repair_charge(self.generation + 1))
                    .saturating_sub(1);
            let wish = driver.check(done, next, best);
            // the target, the generations and the evaluations are alike on every process of a
            // run across processes (the bests are every island's), so each ends it alone
            if let Some(r @ (StopReason::Target | StopReason::Budget | StopReason::Evaluations)) =
                wish
            {
                break r;
            }
            // on the fused path, as many generations as the pace, budget, next migration and
            // record allow; else one
            let mut count = 1;
            let mut paced = 1;
            if fused {
                paced = driver.next_size(1, FUSED_MAX, done);
                count = paced;
                if let Some(e) = stop.evaluations {
                    count = count.min(e.saturating_sub(self.evaluations - e0) / per_gen);
                }
                if migration.kind != MigrationKind::None {
                    let p = migration.period as u64;
                    count = count.min(p - self.generation % p);
                }
                if stop.record_every > 0 {
                    count = count.min(stop.record_every - done % stop.record_every);
                }
                // with a target, one generation a launch: the target is asked after every
                // generation, as on the per-phase path and the CPU backend, so the run stops at
                // the same generation on every backend. (L-SHADE and jSO launch several: the
                // evaluation budget above divides by this generation's size, which the next
                // ones do not exceed, so a launch never passes it.)
                if stop.target.is_some() {
                    count = 1;
                }
            }
            // the interrupt, the token and the clock are each process's own: the processes of
            // a run across processes decide together (one process: as is), all stopping at the
            // same generation
            let pace = self.engine.agree(Pace {
                interrupted: wish == Some(StopReason::Interrupted),
                late: wish == Some(StopReason::TimeLimit),
                count: count.max(1),
                checkpoint: schedule.due(),
            })?;
            if pace.interrupted {
                break StopReason::Interrupted;
            }
            if pace.late {
                break StopReason::TimeLimit;
            }
            if pace.checkpoint {
                let c = call(&history);
                let h = header.as_ref().expect("made with the plan");
                schedule.write(|| self.state_bytes(h, Some(c)))?;
            }
            // a generation cut midway is completed on the per-phase path first
            if fused && self.partial.is_none() {
                let count = pace.count;
                let made = if shrinks {
                    self.engine.per_generations(count)
                } else {
                    count * per_gen
                };
                // (a blind migration reads no view)
                let worst = ops::worst_needed(migration.kind, self.cfg.np, self.cfg.nm);
                let view =
                    migration.is_period(self.generation + count) && !ops::is_blind(migration.kind);
                self.engine.next_migration(view.then_some(worst));
                if ahead == 0 {
                    ahead_t = Instant::now();
                }
                self.engine.generations(self.generation, count)?;
                (ahead, ahead_gens) = (ahead + 1, ahead_gens + count);
                // the launches are timed (to size the next) when the pace sized this one, and
                // under a time limit or a stop token after every launch; else launches cut
                // short by a migration or a record go on with no wait, a few at most
                let timed = cut.is_some() || count >= paced || ahead >= FUSED_AHEAD;
                if timed {
                    self.engine.sync()?;
                    let seconds = ahead_t.elapsed().as_secs_f64();
                    driver.stepped(ahead_gens, seconds);
                    let per = seconds / ahead_gens as f64;
                    let aim = cut
                        .as_ref()
                        .and_then(|c| c.clock.left())
                        .map_or(PIECE_SECONDS, |l| {
                            (l.as_secs_f64() / 10.0).min(PIECE_SECONDS)
                        });
                    if cut.is_some() && per > aim {
                        // a generation takes longer than a tenth of the time left (or than a
                        // piece): the per-phase path cuts it
                        fused = false;
                    }
                    (ahead, ahead_gens) = (0, 0);
                }
                self.generation += count;
                self.evaluations += made;
                self.count_restarts()?;
                self.migrate_if_due(migration)?;
            } else {
                if !self.step(cut.as_ref())? {
                    self.engine.sync()?;
                    break driver.due().unwrap_or(StopReason::TimeLimit);
                }
                // device launches are asynchronous: a queue kept short lets an interrupt end the
                // run within a few generations rather than after everything enqueued
                if (self.generation - g0).is_multiple_of(8) {
                    self.engine.sync()?;
                }
            }
            if stop.record_every > 0 && (self.generation - g0).is_multiple_of(stop.record_every) {
                record(self, &mut history, &mut observe)?;
            }
        };
        self.engine.sync()?;
        // the run's end, whatever ended it, is a checkpoint (before the closing record, which a
        // continued run would not have made there): a larger budget continues it
        let last = call(&history);
        if let Some(h) = &header {
            let c = last.clone();
            schedule.write(|| self.state_bytes(h, Some(c)))?;
        }
        self.last_call = Some(last);
        if stop.record_every > 0
            && history
                .last()
                .is_none_or(|r| r.generation != self.generation)
        {
            record(self, &mut history, &mut observe)?;
        }
        let seconds = t0.elapsed().as_secs_f64();
        let (island, member, value, violation) = self.best_point()?;
        if !value.is_finite() && stopped_by != StopReason::Interrupted {
            return Err(Error::NonFiniteObjective(format!(
                "island DE made {} evaluations and none had a finite value",
                self.evaluations
            )));
        }
        Ok(DeRunResult {
            value,
            violation,
            x: self.engine.member(island, member)?,
            island,
            generations: self.generation,
            evaluations: self.evaluations,
            seconds,
            stopped_by,
            history,
            precision: self.cfg.options.precision,
            fitness_precision: self.cfg.options.fitness_precision,
        })
    }

    /// [`DeMultiPop::run_observed`] without an observer.
    pub fn run(&mut self, stop: &Stop) -> Result<DeRunResult> {
        self.run_observed(stop, |_| {})
    }

    /// The best value of every population (thesis `getBestsFitness`).
    pub fn bests_fitness(&mut self) -> Result<Vec<f64>> {
        self.running()?;
        let fx = self.engine.fitness()?;
        let s = self.cfg.nm as usize + 1;
        Ok(fx.chunks_exact(s).map(|c| c[s - 1]).collect())
    }

    /// The mean and standard deviation of every member's value (the populations' best slots
    /// left out): scipy's convergence test, `spread().converged(tol, atol)`. A device computes
    /// each population's moments where the values are (`de_moments`) and the host combines
    /// them, so the populations are not read.
    pub fn spread(&mut self) -> Result<ops::Spread> {
        self.running()?;
        let nm = self.cfg.nm as usize;
        Ok(ops::spread(&self.engine.moments(nm)?, nm))
    }

    /// The constraints of the runs from the next `init` on (`None`: unconstrained). They need
    /// the fixed DE or a SHADE-family variant (not jDE100) on one device or the CPU backend; a host callback objective takes them as
    /// a violation callback, a compiled one as its `constraints` function's counts. Errors name
    /// `constraints` or `eq_tol`.
    pub fn set_constraints(&mut self, c: Option<Constraints>) -> Result<()> {
        if let Some(c) = &c {
            c.check()?;
        }
        self.constraints = c;
        Ok(())
    }

    /// The constraints of the runs ([`DeMultiPop::set_constraints`]).
    pub fn constraints(&self) -> Option<&Constraints> {
        self.constraints.as_ref()
    }

    /// What a target is compared with: the best value, with constraints the best feasible one
    /// (+inf while none is feasible).
    fn target_best(&mut self) -> Result<f64> {
        let b = self.bests_fitness()?;
        match self.engine.violations()? {
            None => Ok(b.into_iter().fold(f64::INFINITY, f64::min)),
            Some(vx) => {
                let fx = self.engine.fitness()?;
                Ok(fx
                    .iter()
                    .zip(&vx)
                    .filter(|(_, &v)| v <= 0.0)
                    .map(|(&f, _)| f)
                    .fold(f64::INFINITY, f64::min))
            }
        }
    }

    /// The best point: its population, member (Nm: the population's best copy), value and
    /// violation. Without constraints the best island's best ([`DeMultiPop::best_island`]); with
    /// them the best member by Deb's rules over every population (the populations' own bests
    /// follow the comparisons' level, which epsilon-DE holds above 0 for a while).
    pub fn best_point(&mut self) -> Result<(u32, u32, f64, f64)> {
        self.running()?;
        let nm = self.cfg.nm;
        match self.engine.violations()? {
            None => {
                let (p, v) = self.best_island()?;
                Ok((p, nm, v, 0.0))
            }
            Some(vx) => {
                let fx = self.engine.fitness()?;
                let i = constraints::best_of(&fx, &vx).unwrap_or(nm as usize);
                let s = nm as usize + 1;
                Ok(((i / s) as u32, (i % s) as u32, fx[i], vx[i]))
            }
        }
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
            return Err(Error::arg(
                "member",
                format!("{m}; the populations have {} members", self.cfg.nm),
            ));
        }
        self.engine.member(p, m)
    }

    /// Every value: population p's members at `p * (Nm + 1) + m`, its best at m = Nm.
    pub fn fitness(&mut self) -> Result<Vec<f64>> {
        self.running()?;
        self.engine.fitness()
    }

    /// With constraints, every value's violation in [`DeMultiPop::fitness`]'s layout; `None`
    /// without.
    pub fn violations(&mut self) -> Result<Option<Vec<f64>>> {
        self.running()?;
        self.engine.violations()
    }

    /// The trials of the last generation (row `p * Nm + m`) and their values.
    pub fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        self.running()?;
        self.engine.trials()
    }

    fn check_p(&self, p: u32) -> Result<()> {
        self.running()?;
        if p >= self.cfg.np {
            return Err(Error::arg(
                "island",
                format!("{p}; there are {} populations", self.cfg.np),
            ));
        }
        Ok(())
    }

    /// Replaces the data buffer of a user OpenCL source objective (the thesis's `func-data`) and
    /// evaluates the population again under it (counted as Np * Nm evaluations), so no member
    /// keeps a fitness of the old data. Only a user OpenCL source objective takes data.
    pub fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        if !self.running()?.source {
            return Err(Error::arg(
                "func-data",
                "only a user OpenCL source objective takes a data buffer",
            ));
        }
        self.engine.set_func_data(data)?;
        self.evaluations += self.cfg.np as u64 * self.cfg.nm as u64;
        // the trials of a cut generation were of the old data: the next one is made afresh
        self.partial = None;
        if let Some(r) = self.running.as_mut() {
            r.data = data.to_vec();
        }
        Ok(())
    }

    describe_alias!();

    /// The backend in words: the OpenCL device (and its platform, with the tile size), or the
    /// CPU backend with its thread count.
    pub fn describe(&self) -> String {
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

    /// A description: sizes, strategies, objective and where it runs (the precision: `float` or
    /// `double`, with the fitness precision after it when it differs, `float (fitness double)`).
    pub fn info(&self) -> String {
        let c = &self.cfg;
        let mut s = format!(
            "island DE: {} populations x {} members x {} dimensions, {}, F {} {}..{}, CR {}{}\nrunning on {}\n",
            c.np,
            c.nm,
            c.nn,
            precisions(c),
            c.options.f_mode.name(),
            c.options.f_min,
            c.options.f_max,
            c.cr[0],
            if c.cr.iter().any(|&v| v != c.cr[0]) { " (per population)" } else { "" },
            self.engine.describe()
        );
        let kinds: Vec<&str> = c.kinds.iter().map(|k| k.name()).collect();
        s += &format!("bounds: {}\n", kinds.join(","));
        s += &format!(
            "selection: {} (f(trial) {} f(target))\n",
            c.options.selection,
            c.options.selection.operator()
        );
        s += &format!("algorithm: {}", c.options.algorithm);
        if c.options.algorithm == super::config::Algorithm::Jde100 {
            let o = &c.options;
            s += &format!(
                " (big population {} + small {} members per island, self-adaptive F and CR per member, DE/rand/1/bin, restarts at eps {:e}{})",
                c.nm - o.jde_small,
                o.jde_small,
                o.jde_eps,
                if o.jde_age > 0 { format!(" or age {}", o.jde_age) } else { String::new() }
            );
        } else if c.options.algorithm.adaptive() {
            s += " (adaptive F and CR per member, current-to-pbest/1 with an archive";
            if c.options.algorithm.reduces() {
                s += &format!(
                    ", population reduced to 4 over {} evaluations per population",
                    c.options.lshade_budget
                );
            }
            s += ")";
        }
        s += "\n";
        if let Some(r) = &self.running {
            s += &format!(
                "objective: {}, mutation {}, migration {} every {} generations\ngeneration {}, {} evaluations\n",
                r.objective_label, r.mutation, r.migration.kind, r.migration.period, self.generation, self.evaluations
            );
        }
        s
    }
}

/// The storage precision's type, with the fitness precision when it differs.
fn precisions(c: &Config) -> String {
    let name = |d: bool| if d { "double" } else { "float" };
    if c.fitness_double() == c.options.double {
        name(c.options.double).to_string()
    } else {
        format!(
            "{} (fitness {})",
            name(c.options.double),
            name(c.fitness_double())
        )
    }
}
