//! What the CLI's tests share with the library's (`tests/it/common/`): the test data and what a
//! test needs.

#[path = "../../../../tests/it/common/data.rs"]
pub mod data;
#[path = "../../../../tests/it/common/need.rs"]
pub mod need;

pub use data::*;
