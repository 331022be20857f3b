//! The device layer: listing and selection, the environment variables, several devices of one
//! machine, a machine without any OpenCL driver, and the tiny cases Oclgrind runs.

mod env;
mod list;
mod multi;
mod multi_handles;
mod none;
mod oclgrind;
