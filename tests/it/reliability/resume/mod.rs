//! Checkpoint and resume (docs/specs/RUN.md): a run stopped at any step and continued from its
//! checkpoint ends exactly as the run that never stopped; checkpoints of another problem, option
//! set or version, and corrupt or truncated ones, are refused with what differs.

mod aco;
mod batch_de;
mod bh;
mod de;
mod hc12;
mod qap_ts;
mod qiga;
mod sat_sls;
