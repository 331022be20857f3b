//! What the CLI's tests share with the library's (`tests/it/common/`): the test data and what a
//! test needs.

#[path = "../../../../tests/it/common/data.rs"]
pub mod data;
// only the MPI runs need something this machine may lack
#[cfg_attr(not(feature = "mpi"), allow(dead_code, unused))]
#[path = "../../../../tests/it/common/need.rs"]
pub mod need;

pub use data::*;
