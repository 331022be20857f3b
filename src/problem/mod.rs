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

/// The most bytes an input file that is not gzip may hold: 4 GiB (a reader holds the whole file
/// while it parses it, so this bounds its memory; the largest inputs the readers know, road
/// networks of a continent, are about 1 GiB of text).
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Why [`read_regular`] or [`open_regular`] read nothing.
#[derive(Debug)]
pub enum ReadFailure {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The path is a device, a pipe, a socket or a folder.
    NotRegular,
    /// The file holds more than this many bytes.
    TooLarge(u64),
}

impl ReadFailure {
    /// The reason, naming `path` (the caller puts the argument's name in front).
    pub fn message(&self, path: &std::path::Path) -> String {
        let p = path.display();
        match self {
            ReadFailure::Io(e) => format!("cannot read {p}: {e}"),
            ReadFailure::NotRegular => {
                format!("{p} is not a regular file (not a device, a pipe or a folder)")
            }
            ReadFailure::TooLarge(max) => format!("{p} holds more than {max} bytes"),
        }
    }

    /// As the library's error: [`Error::Io`](crate::error::Error::Io) of `path`, else a parse
    /// error of `path` at line 0.
    pub fn into_error(self, path: &std::path::Path) -> crate::error::Error {
        match self {
            ReadFailure::Io(source) => crate::error::Error::Io {
                path: path.to_path_buf(),
                source,
            },
            e => crate::error::Error::parse(path, 0, e.message(path)),
        }
    }
}

/// Opens `path`, a regular file of at most `max` bytes (nothing is read: a device such as
/// `/dev/zero`, a pipe or a folder is refused, so that no read can hang or run without end),
/// with its size.
pub fn open_regular(
    path: &std::path::Path,
    max: u64,
) -> std::result::Result<(std::fs::File, u64), ReadFailure> {
    use std::io::{Error, ErrorKind};
    // a pipe's open blocks until a writer comes: look before opening
    let meta = std::fs::metadata(path).map_err(ReadFailure::Io)?;
    if !meta.is_file() {
        return Err(ReadFailure::NotRegular);
    }
    let file = std::fs::File::open(path).map_err(ReadFailure::Io)?;
    let meta = file.metadata().map_err(ReadFailure::Io)?;
    if !meta.is_file() {
        // replaced between the two looks
        return Err(ReadFailure::Io(Error::new(
            ErrorKind::InvalidInput,
            "changed while it was opened",
        )));
    }
    if meta.len() > max {
        return Err(ReadFailure::TooLarge(max));
    }
    Ok((file, meta.len()))
}

/// The bytes of `path`, a regular file of at most `max` bytes ([`open_regular`]); a file that
/// grows while it is read is cut at `max + 1` bytes and refused, so never more than that is held.
pub fn read_regular(path: &std::path::Path, max: u64) -> std::result::Result<Vec<u8>, ReadFailure> {
    use std::io::Read;
    let (file, len) = open_regular(path, max)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len as usize).map_err(|_| {
        ReadFailure::Io(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!("the host cannot hold its {len} bytes"),
        ))
    })?;
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadFailure::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadFailure::TooLarge(max));
    }
    Ok(bytes)
}

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
