//! The `metaopt` binary end to end, one test binary: `cargo test -p metaopt-cli --test it` runs
//! them all, `... --test it sat::` one command's. With the `mpi` feature, `mpi::` runs the
//! binary under mpirun.

mod common;
mod run;

mod awvd;
mod bench_constrained;
mod bh;
mod commands;
mod contract;
mod convergence;
mod de;
mod de_batch;
mod hc12;
mod knapsack;
mod mpi;
mod multi_device;
mod qap_bounds;
mod qap_figs;
mod qiga;
mod reliability;
mod resume;
mod sat;
mod sp;
