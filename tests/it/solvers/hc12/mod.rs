//! HC12: the general engine, QAP (qapswap2: solve, device, errors, the tabu list) and SAT.

mod general;
mod qap;
mod qap_device;
mod qap_errors;
mod sat;
mod tabu;
