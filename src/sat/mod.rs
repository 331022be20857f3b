//! SAT beyond the formula types of `problem::sat`: the HC12 local search lives with the engine
//! (`src/hc12/sat/`); its names stay reachable here.

pub use crate::hc12::sat::{SatOptions, SatSolveResult, SatSolver, DEFAULT_TENURE};
