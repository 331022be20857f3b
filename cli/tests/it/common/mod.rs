//! What the CLI's tests share with the library's (`tests/it/common/`): the test data and what a
//! test needs.

#[path = "../../../../tests/it/common/data.rs"]
pub mod data;
// only the MPI runs (feature `mpi`) need something this machine may lack; the other needs are
// the library's tests'
#[allow(unused)]
#[path = "../../../../tests/it/common/need.rs"]
pub mod need;

pub use data::*;
