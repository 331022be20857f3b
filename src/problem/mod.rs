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
