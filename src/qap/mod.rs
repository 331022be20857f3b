//! Solvers of the quadratic assignment problem that work on permutations directly (the HC12 QAP
//! solver over the qapswap2 encoding is `hc12::qap`). `ts`: Taillard's robust tabu search, many
//! chains on the device or on the CPU (docs/specs/QAP_TS.md).

pub mod ts;
