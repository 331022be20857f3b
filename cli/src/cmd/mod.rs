//! One module per command: its arguments (the shared groups of `crate::args` flattened in), its
//! run function and its text and JSON output.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`awvd`] | `metaopt awvd` |
//! | [`bh`] | `metaopt bh` |
//! | [`de`] | `metaopt de` |
//! | [`devices`] | `metaopt devices` |
//! | [`functions`] | `metaopt functions` |
//! | [`hc12`] | `metaopt hc12` |
//! | [`knapsack`] | `metaopt knapsack` |
//! | [`qap`] | `metaopt qap` |
//! | [`qiga`] | `metaopt qiga` |
//! | [`sat`] | `metaopt sat` |
//! | [`sp`] | `metaopt sp` |

pub mod awvd;
pub mod bh;
pub mod de;
pub mod devices;
pub mod functions;
pub mod hc12;
pub mod knapsack;
pub mod qap;
pub mod qiga;
pub mod sat;
pub mod sp;
