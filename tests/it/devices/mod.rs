//! The device layer: listing and selection, the environment variables, several devices of one
//! machine, and a machine without any OpenCL driver.

mod env;
mod list;
mod multi;
mod multi_handles;
mod none;
