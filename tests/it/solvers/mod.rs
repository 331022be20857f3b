//! The solvers through the Rust API, one module per solver.

mod aco;
mod awvd;
mod awvd_hostile;
mod bh;
mod de;
mod hc12;
mod qap_ts;
mod qiga;
mod sat_sls;
mod sp;
