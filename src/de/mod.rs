//! Island differential evolution (thesis 000, 2.3, 2.3.1, 5.2, 5.2.1): Np populations of Nm
//! members in Nn dimensions evolve side by side, each with its own F and CR, one mutation
//! strategy, a bound correction per dimension, and a migration strategy that every `period`
//! generations copies bests between populations.
//!
//! [`DeMultiPop`] is the thesis's `DEMultiPop`: [`DeMultiPop::new`] with the sizes, limits,
//! bound corrections and options, [`DeMultiPop::init`] with the objective, mutation and
//! migration, then [`DeMultiPop::iteration`] or [`DeMultiPop::run`], and the accessors
//! [`DeMultiPop::bests_fitness`], [`DeMultiPop::best`] and [`DeMultiPop::x`].
//!
//! # One iteration
//!
//! One generation: `de_trial` makes every trial (mutation, binomial crossover, bound correction)
//! from counter-based random numbers, written in the Y layout (member-fastest) through a
//! local-memory tile transposition from X; the objective evaluates Y (or the host callback does, on
//! Y read back); `de_eval_select` (or `de_select` after a host callback) keeps the better of trial
//! and member; `de_best` refreshes each island's best row; every `period` generations the host
//! plans the migration moves (`ops.rs`) from the view `de_view` computes (each island's best value
//! and worst member, not every value) and `de_migrate` applies them (on several devices,
//! `multi.rs`: each device holds a block of islands, draws by global island `p0 + p` of `npg`, its
//! view carries the best rows, and the migrants travel through host memory with `de_import`; across
//! MPI ranks each process holds a block, and the values and migrants travel through the caller's
//! `IslandExchange`). The CPU engine (`cpu.rs`) draws the same numbers and follows the same run.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`config`] | the strategies, options and parameters, validated into a [`Config`] |
//! | [`constraints`] | inequality and equality constraints: violations, Deb's rules and the epsilon level, the CEC 2006 problems as runs |
//! | [`engine`] | the [`Engine`] both backends implement, and [`DeMultiPop`] over it |
//! | [`ops`] | the operators and random numbers both backends draw, so on one seed they follow the same run |
//! | [`device`] | the OpenCL engine (`cl/de.cl`) |
//! | [`cpu`] | the rayon engine |
//! | [`multi`] | several devices, a block of islands each ([`DeMultiPop::on_devices`]) |
//! | [`pace`] | the work of one phase in pieces short enough for a time limit or a stop token |
//! | [`adapt`] | the self-adapting variants (JADE, SHADE, L-SHADE, jSO): their formulas and the host-planned path |
//! | [`ade`] | the SHADE family on the device (`cl/de_batch.cl`) and its host twin |
//! | [`jde`] | jDE100 on the device and its host twin |
//! | [`batch`] | batched DE: many independent problems, one work-group each (`cl/de_batch.cl`) |
//! | [`batch_file`] | batch files: the JSON problems of `de --batch`, the files they name read within bounds |
//! | [`state`] | checkpoints (`save_state`, `load_state`) and warm starts (`set_population`) |

pub mod adapt;
pub mod ade;
pub mod batch;
pub mod batch_file;
pub mod config;
pub mod constraints;
pub mod cpu;
pub mod device;
pub mod engine;
pub mod jde;
pub mod multi;
pub mod ops;
pub mod pace;
pub mod state;

pub use self::batch::{
    batch_footprint, BatchConstraints, BatchDe, BatchFunction, BatchOptions, BatchProblem,
    BatchProgress, BatchResult, Placement,
};
pub use self::batch_file::{read_batch_file, BatchFileProblem};
pub use self::config::{
    Algorithm, BoundsCorrection, Config, DeOptions, DeParams, FMode, Migration, MigrationKind,
    Mutation, Selection,
};
pub use self::constraints::{Constraints, Handling as ConstraintHandling};
pub use self::engine::EngineState;
pub use self::engine::{DeMultiPop, DeRunResult, Engine, Pace, Record, StopReason};
pub use self::multi::IslandExchange;
pub use crate::device::Backend;

use crate::error::Result;

impl DeMultiPop {
    /// Checks the settings and prepares the backend (the device's buffers, or the CPU's).
    /// The precision is resolved here: `Auto` is double on the CPU backend and on a device with
    /// `cl_khr_fp64`, else single (`config().options.precision` says which).
    pub fn new(params: &DeParams, backend: Backend) -> Result<Self> {
        let fp64 = match backend {
            Backend::Cpu => true,
            Backend::Device(_) => backend.context("island DE")?.info.fp64,
        };
        let cfg = Config::resolved(params, fp64)?;
        let engine: Box<dyn Engine> = match backend {
            Backend::Device(d) => Box::new(device::DeviceDe::new(cfg.clone(), d)?),
            Backend::Cpu => Box::new(cpu::CpuDe::new(cfg.clone())?),
        };
        Ok(DeMultiPop::with_engine(cfg, engine))
    }
}
