//! CPU backends: rayon implementations of the device algorithms with the same random numbers.
//! They are the reference the device results are tested against, and the CPU side of the
//! benchmarks.

pub mod de;
pub mod sat;
