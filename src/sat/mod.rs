//! Clause evaluation of many assignments (docs/specs/SAT.md): `eval.rs` on the device (MCSX: one
//! assignment, parallel over its clauses; DXAC: many assignments, one work-item each, transposed
//! pitched storage) and `cpu.rs`, its rayon twin and reference. The formula types are
//! `problem::sat`; the HC12 local search over assignments is a landscape of the HC12 engine
//! (`hc12::sat`).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`eval`] | MCSX and DXAC on the device (`cl/sat.cl`) |
//! | [`cpu`] | the rayon evaluator, the devices' reference |

pub mod cpu;
pub mod eval;

/// The stochastic local search moved to [`crate::sat_sls`]; `sat::sls` names it for one more
/// release.
pub use crate::sat_sls as sls;
