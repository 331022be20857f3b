//! The examples built and run: the Rust examples (`rust`) and the C and C++ examples of
//! `c_examples/`, one module per solver, each also under valgrind's memcheck where installed.

mod awvd;
mod bh;
mod cpp;
mod de;
mod de_batch;
mod hc12;
mod qap;
mod qiga;
mod rust;
mod sat;
mod sp;
