//! The library's integration tests, one test binary: `cargo test --test it` runs them all,
//! `cargo test --test it solvers::de` one group. Tests that change what a process shares run in a
//! child process of their own (`common::child`); tests that need something this machine may lack
//! say so and are skipped with the reason printed (`common::need`).

mod abi;
mod common;
mod devices;
mod examples;
mod problems;
mod reliability;
mod solvers;
