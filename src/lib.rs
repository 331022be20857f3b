//! metaopt: GPU-accelerated metaheuristics over OpenCL, with a C ABI.
//!
//! Layers (data flows down, no module imports one that imports it; docs/ARCHITECTURE.md): front
//! ends (`ffi`; the `metaopt` binary is the `cli/` crate) over solvers (`hc12`: one engine and its
//! landscapes general, QAP and SAT; `qap`: QAP robust tabu search; `de`: island DE; `sat`: clause
//! evaluation) over problems (`problem`, `objective`) and the device layer (`device`). Each
//! solver's rayon CPU twin sits beside its device code.

pub mod de;
pub mod device;
pub mod error;
pub mod ffi;
pub mod hc12;
pub mod interrupt;
pub mod objective;
pub mod precision;
pub mod problem;
pub mod qap;
pub mod rng;
pub mod sat;

pub use error::{Error, Result};
pub use interrupt::{interrupt, StopReason, StopToken, Watch};
pub use precision::Precision;
