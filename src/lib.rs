//! metaopt: GPU-accelerated metaheuristics over OpenCL, with a C ABI.
//!
//! The solvers run their neighbourhoods, chains or populations on an OpenCL device (a GPU, or the
//! CPU through a driver such as PoCL) and have a rayon CPU twin that draws the same random numbers
//! (Philox4x32-10, [`rng`]), so a seed gives the same run on every device and on the CPU
//! (bit for bit on integer data). Kernels are compiled at run time from sources embedded in the
//! library ([`device`]).
//!
//! # Modules
//!
//! Layers (data flows down, no module imports one that imports it; `scripts/check-import-cycles.py`
//! checks it): front ends (`ffi`; the `metaopt` binary is the `cli/` crate) over the solvers over
//! the problems (`problem`, `objective`) and the device layer (`device`). Each solver's rayon CPU
//! twin sits beside its device code. The algorithms are specified in `docs/specs/`.
//!
//! | module | what |
//! |---|---|
//! | [`hc12`] | the HC12 hill climber (the 12-neighbourhood of a bit string) with restarts and a tabu list, on three landscapes: [`hc12::general`] (functions of binary, integer or real parameters), [`hc12::qap`] (QAP permutations), [`hc12::sat`] (SAT assignments) |
//! | [`qap_ts`] | robust tabu search for the quadratic assignment problem, many chains at once ([`qap_ts::QapTs`]) |
//! | [`de`] | island differential evolution ([`de::DeMultiPop`]) with migrations, its adaptive variants and batched DE |
//! | [`bh`] | basin hopping with a (1+1)-ES local search, many chains at once ([`bh::BasinHopping`]) |
//! | [`qiga`] | the quantum-inspired genetic algorithm for the 0-1 knapsack ([`qiga::Qiga`]) |
//! | [`sat`] | clause evaluation of many assignments at once (MCSX, DXAC) |
//! | [`sat_sls`] | probSAT and WalkSAT walks for SAT, many at once ([`sat_sls::SatSls`]) |
//! | [`sp`] | exact shortest paths: Bellman-Ford, frontier and near-far on the device, the Lee wave on grids |
//! | [`aco`] | ant colony optimisation for the single-pair shortest path ([`aco::Aco`]) on [`problem::graph::Graph`] |
//! | [`awvd`] | the additively weighted Voronoi diagram of balls (atoms): vertices, edges and contacts |
//! | [`problem`] | the problems without device code: QAPLIB instances and costs, DIMACS formulas, knapsacks, graphs, the function catalogue |
//! | [`objective`] | what the general HC12, DE and basin hopping minimise: a catalogue function, OpenCL C source, or a host callback |
//! | [`multi`] | several devices of one machine: device lists, blocks of work by global index, one host thread per device |
//! | [`device`] | OpenCL devices, contexts, programs and the [`device::Backend`] every solver takes |
//! | [`ffi`] | the C ABI of `libmetaopt.so` (header `include/metaopt.h`) |
//! | [`error`] | the one [`Error`] type |
//! | [`files`] | reading the files a caller names: regular files of a bounded size |
//! | [`interrupt`](mod@interrupt) | cancellation: the process-wide interrupt, stop tokens, clocks |
//! | [`run`] | the run contract: one [`StopReason`], the [`run::Driver`] that decides when a run stops and sizes its launches, atomic outputs |
//! | [`precision`] | [`Precision`]: single, double, or double where the device has it |
//! | [`rng`] | the counter-based random numbers host and kernels share |
//! | [`qap`] | the former path of [`qap_ts`] (`qap::ts`), kept for one release |
//!
//! # Quick start
//!
//! Solve a QAPLIB instance with the robust tabu search on the default device
//! (`METAOPT_DEVICE=n` picks another; [`device::Backend::Cpu`] runs on the CPU):
//!
//! ```no_run
//! use metaopt::problem::qap::{QapInstance, QapProblem};
//! use metaopt::qap_ts::{Backend, QapTs, QapTsOptions};
//! use metaopt::run::Stop;
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! # fn main() -> metaopt::Result<()> {
//! let instance = QapInstance::from_dat("data/qaplib/nug12.dat".as_ref())?;
//! let mut solver = QapTs::new(Arc::new(QapProblem::from_instance(&instance)), Backend::DEVICE)?;
//! let options = QapTsOptions {
//!     stop: Stop {
//!         time_limit: Some(Duration::from_secs(10)),
//!         target: Some(578.0), // nug12's optimum: stop once a chain reaches it
//!         ..Stop::default()
//!     },
//!     ..QapTsOptions::default()
//! };
//! let result = solver.solve(&options)?;
//! println!("cost {} permutation {:?}", result.cost, result.permutation);
//! # Ok(())
//! # }
//! ```
//!
//! The `examples/` folder holds runnable programs for each solver
//! (`cargo run --release --example qap_ts`, `de`, `hc12`, `sat`, `sat_sls`, `sp`).

/// The former name of a solver's `describe`, `backend_description`, kept for one release: one
/// definition for every solver (used inside an `impl` that has `describe(&self) -> String`).
macro_rules! describe_alias {
    () => {
        /// The former name of [`describe`](Self::describe), kept for one release.
        #[deprecated(note = "renamed `describe`")]
        pub fn backend_description(&self) -> String {
            self.describe()
        }
    };
}

pub mod aco;
pub mod awvd;
pub mod bh;
pub mod de;
pub mod device;
pub mod error;
pub mod ffi;
pub mod files;
pub mod hc12;
/// Cancellation: the process-wide interrupt, stop tokens, clocks ([`run::cancel`]) and the stop
/// reason, under the path every solver and front end names.
pub mod interrupt {
    pub use crate::run::cancel::*;
    pub use crate::run::StopReason;
}
#[cfg(test)]
mod module_tables;
pub mod multi;
pub mod objective;
pub mod precision;
pub mod problem;
pub mod qap_ts;
pub mod qiga;
pub mod rng;
pub mod run;
pub mod sat;
pub mod sat_sls;
pub mod sp;

/// The QAP's robust tabu search moved to [`qap_ts`]; `qap::ts` names it for one more release.
pub mod qap {
    pub use crate::qap_ts as ts;
}

pub use error::{Error, Result};
pub use interrupt::{
    check_time_limit, interrupt, time_limit_from_secs, Clock, StopReason, StopToken, Watch,
    MAX_TIME_LIMIT_S,
};
pub use precision::Precision;
