//! Reading the files a caller names: regular files only (a device such as `/dev/zero`, a pipe
//! or a folder is refused before it is opened, so no read can hang or run without end), of a
//! bounded size, held whole. Every reader of the library reads through here: the problems'
//! readers ([`crate::problem`]), checkpoints ([`crate::run::checkpoint`]), batch specs.

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
