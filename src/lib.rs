//! metaopt: GPU-accelerated metaheuristics over OpenCL, with a C ABI.
//!
//! Layers (data flows down, no module imports one that imports it): front ends (`ffi`, the
//! `metaopt` binary) over solvers (`hc12`: one engine and its landscapes, `de`) over problems
//! (`problem`) and the device layer (`device`); each solver's CPU twin sits beside its device
//! code (`hc12/qap/cpu.rs`; `cpu` holds the others until they move).

pub mod cpu;
pub mod de;
pub mod device;
pub mod error;
pub mod ffi;
pub mod hc12;
pub mod objective;
pub mod problem;
pub mod rng;
pub mod sat;
pub mod sateval;

pub use error::{Error, Result};
