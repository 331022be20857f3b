//! One module per command: its arguments (the shared groups of `crate::args` flattened in), its
//! run function and its text and JSON output.

pub mod awvd;
pub mod de;
pub mod devices;
pub mod functions;
pub mod hc12;
pub mod knapsack;
pub mod qap;
pub mod qiga;
pub mod sat;
pub mod sp;
