//! The problems, with their readers, host costs and checks; no device code (the solvers that
//! search them live beside this module).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`functions`] | the continuous test-function catalogue (GEATbx F1..F12, CEC 2019) |
//! | [`qap`] | QAP instances, element and cost types, full and delta cost, readers and lower bounds |
//! | [`sat`] | DIMACS CNF formulas, bit-packed assignments, host references and verified models |
//! | [`knapsack`] | 0-1 knapsack instances, readers, generators and the exact optimum |
//! | [`graph`] | directed graphs in CSR form, readers, generators and host Dijkstra |
pub mod functions;
pub mod graph;
pub mod knapsack;
pub mod qap;
pub mod sat;

/// The text of a file read by a problem's reader: bytes that are not UTF-8 are replaced (and then
/// fail as numbers or tokens with the reader's own message); an I/O error names the path.
pub(crate) fn read_text(path: &std::path::Path) -> crate::error::Result<String> {
    let bytes = std::fs::read(path).map_err(|source| crate::error::Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
