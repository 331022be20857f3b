//! The C ABI called from Rust, one module per solver (`basics`: arguments, handles, errors and
//! devices), the generated header, the compatibility names and the installed package.

mod awvd;
mod basics;
mod bh;
mod compat_names;
mod de;
mod de_batch;
mod functions;
mod hc12;
mod hc12_state;
mod header;
mod interrupt;
mod knapsack;
mod packaging;
mod qap_ts;
mod qiga;
mod sat;
mod sp;
