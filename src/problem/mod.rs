pub mod qap;
pub mod functions;
