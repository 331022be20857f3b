//! metaopt: GPU-accelerated metaheuristics over OpenCL, with a C ABI.
//!
//! Layers: front ends (`ffi`, the `metaopt` binary) over solvers (`hc12`, `de`, `sat`) over
//! problems (`problem`) and the device layer (`device`); each solver keeps its rayon CPU twin
//! beside its device code (`de::cpu`, `sat::cpu`).

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

pub use error::{Error, Result};
