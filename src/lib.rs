//! metaopt: GPU-accelerated metaheuristics over OpenCL, with a C ABI.
//!
//! Layers (docs/DESIGN.md): front ends (`ffi`, the `metaopt` binary) over solvers (`hc12`) over
//! problems (`problem`) and the device layer (`device`), with rayon CPU twins in `cpu`.

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
