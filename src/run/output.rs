//! Outputs a run writes: every path checked for writability before the run starts
//! ([`check_writable`]), every file written to a temporary name beside its target and renamed
//! over it ([`write_atomic`], [`AtomicFile`]), so a kill never leaves a truncated file and a path
//! that cannot be written costs no work.

use crate::error::{Error, Result};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

fn io_error(path: &Path, source: io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The folder a file of `path` goes in (`.` for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks, before any work, that `path` can be written: its folder exists and takes a new file,
/// and the path is not a folder nor an existing file that cannot be replaced. Writes nothing that
/// stays (a temporary file is made and removed). `arg` names the option in the error.
pub fn check_writable(path: &Path, arg: &'static str) -> Result<()> {
    if path.as_os_str().is_empty() {
        return Err(Error::arg(arg, "an empty path"));
    }
    if path.is_dir() {
        return Err(Error::arg(
            arg,
            format!("{} is a folder, not a file", path.display()),
        ));
    }
    let dir = folder(path);
    if !dir.is_dir() {
        return Err(Error::arg(
            arg,
            format!(
                "cannot write {}: no folder {}",
                path.display(),
                dir.display()
            ),
        ));
    }
    tempfile::Builder::new()
        .prefix(".metaopt-check-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| Error::arg(arg, format!("cannot write {}: {e}", path.display())))
}

/// A file written under a temporary name beside `path` and renamed over it by
/// [`commit`](AtomicFile::commit); dropped uncommitted, it leaves `path` as it was.
pub struct AtomicFile {
    path: PathBuf,
    tmp: tempfile::NamedTempFile,
}

impl AtomicFile {
    pub fn create(path: &Path) -> Result<Self> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".metaopt-").suffix(".part");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // a new file gets the mode `File::create` gives (0o666 less the umask; a temporary
            // file's own 0o600 would stay after the rename), a replaced file keeps its mode
            let mode = std::fs::metadata(path).map_or(0o666, |m| m.permissions().mode() & 0o7777);
            builder.permissions(std::fs::Permissions::from_mode(mode));
        }
        let tmp = builder
            .tempfile_in(folder(path))
            .map_err(|e| io_error(path, e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
        })
    }

    /// Flushes the file to disk and renames it over the target.
    pub fn commit(mut self) -> Result<()> {
        let path = self.path;
        self.tmp.flush().map_err(|e| io_error(&path, e))?;
        self.tmp
            .as_file()
            .sync_all()
            .map_err(|e| io_error(&path, e))?;
        self.tmp
            .persist(&path)
            .map(drop)
            .map_err(|e| io_error(&path, e.error))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// Writes `bytes` to `path` atomically: the target holds the old content or the new, never a
/// part.
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes.as_ref()).map_err(|e| io_error(path, e))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn writes_replace_whole_files_and_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, "first").unwrap();
        write_atomic(&p, "second").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
        // an uncommitted file leaves the old content
        let mut f = AtomicFile::create(&p).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[cfg(unix)]
    #[test]
    fn files_get_the_mode_of_an_ordinary_file_or_keep_their_own() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let plain = dir.path().join("plain.txt");
        fs::File::create(&plain).unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, "new").unwrap();
        assert_eq!(mode(&p), mode(&plain));
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, "again").unwrap();
        assert_eq!(mode(&p), 0o640);
    }

    #[test]
    fn unwritable_paths_are_named_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("new.txt"), "output").unwrap();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        for (p, what) in [
            (dir.path().join("no/such/x.txt"), "no folder"),
            (dir.path().to_path_buf(), "is a folder"),
            (PathBuf::new(), "empty"),
        ] {
            let e = check_writable(&p, "output").unwrap_err().to_string();
            assert!(e.contains("output") && e.contains(what), "{e}");
        }
    }
}
