//! The problems, with their readers, host costs and checks; no device code (the solvers that
//! search them live beside this module).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`cec2006`] | the CEC 2006 constrained set G01..G24: bounds, best known points, evaluation |
//! | [`functions`] | the continuous test-function catalogue (GEATbx F1..F12, CEC 2019) |
//! | [`qap`] | QAP instances, element and cost types, full and delta cost, readers and lower bounds |
//! | [`sat`] | DIMACS CNF formulas, bit-packed assignments, host references and verified models |
//! | [`knapsack`] | 0-1 knapsack instances, readers, generators and the exact optimum |
//! | [`graph`] | directed graphs in CSR form, readers, generators and host Dijkstra |
pub mod cec2006;
pub mod functions;
pub mod graph;
pub mod knapsack;
pub mod qap;
pub mod sat;

pub use crate::files::{open_regular, read_regular, ReadFailure, MAX_INPUT_BYTES};

/// The text of a file read by a problem's reader (a regular file of at most [`MAX_INPUT_BYTES`]):
/// bytes that are not UTF-8 are replaced (and then fail as numbers or tokens with the reader's
/// own message); an I/O error names the path.
pub(crate) fn read_text(path: &std::path::Path) -> crate::error::Result<String> {
    let bytes = read_regular(path, MAX_INPUT_BYTES).map_err(|e| e.into_error(path))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// At most this many characters of input are quoted in an error message.
pub const QUOTE_CHARS: usize = 80;

/// `s` for an error message: its first [`QUOTE_CHARS`] characters, control characters (and
/// quotes, backslashes) escaped, `...` where cut. Every reader quotes input through it, so that
/// a line of megabytes or of terminal escapes never reaches a message whole.
pub fn quote(s: &str) -> String {
    clip(s, QUOTE_CHARS)
}

/// The first `max` characters of `s`, escaped as [`quote`] escapes them.
pub(crate) fn clip(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k == max {
            out.push_str("...");
            break;
        }
        out.extend(c.escape_debug());
    }
    out
}

/// The most bytes a `.gz` input may decompress to: 64 MiB plus 100 times its compressed size
/// (text files compress about 4 to 8 times), and 2 GiB in all.
pub fn max_decompressed(compressed: u64) -> u64 {
    (64u64 << 20)
        .saturating_add(compressed.saturating_mul(100))
        .min(2u64 << 30)
}

/// Whether `path`'s name ends in `.gz` (any case).
pub(crate) fn is_gzip_name(path: &std::path::Path) -> bool {
    path.to_string_lossy().to_lowercase().ends_with(".gz")
}

/// The bytes of a file (a regular file of at most [`MAX_INPUT_BYTES`], [`open_regular`]),
/// decompressed when its name ends in `.gz` (gzip, several members allowed), bounded by [`max_decompressed`] of the file's size: past the bound the read stops
/// and the error names the file, so a small compressed file cannot fill the memory. An I/O
/// error (a corrupt gzip stream included) names the file too.
pub fn read_bytes_maybe_gz(path: &std::path::Path) -> crate::error::Result<Vec<u8>> {
    use crate::error::Error;
    use std::io::Read;
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        source: e,
    };
    if !is_gzip_name(path) {
        return read_regular(path, MAX_INPUT_BYTES).map_err(|e| e.into_error(path));
    }
    let (file, len) = open_regular(path, MAX_INPUT_BYTES).map_err(|e| e.into_error(path))?;
    let limit = max_decompressed(len);
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(io)?;
    if out.len() as u64 > limit {
        return Err(Error::parse(
            path,
            0,
            format!(
                "decompresses to more than {limit} bytes (the limit: 64 MiB plus 100 times \
                 the compressed size)"
            ),
        ));
    }
    Ok(out)
}
