//! The one error type of the library. Every variant maps to a stable C error code
//! (`ErrorCode` in `include/metaopt.h`); numbers are never reused.

use std::path::PathBuf;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in metaopt.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An argument is out of range or inconsistent; the message names it.
    #[error("invalid argument `{arg}`: {msg}")]
    InvalidArgument { arg: &'static str, msg: String },

    /// A pointer argument of the C ABI was null.
    #[error("null pointer passed as `{0}`")]
    NullPointer(&'static str),

    /// A data type name that the solver does not know.
    #[error("unsupported type `{name}` for `{arg}` (expected one of: {expected})")]
    UnsupportedType { arg: &'static str, name: String, expected: &'static str },

    /// An OpenCL call failed.
    #[error("OpenCL error in {call}: {code} ({name})")]
    OpenCl { call: &'static str, code: i32, name: &'static str },

    /// No OpenCL platform or device (or no OpenCL driver at all).
    #[error("no OpenCL device: {0}")]
    NoDevice(String),

    /// A kernel failed to compile; the build log is part of the message.
    #[error("OpenCL program build failed on {device}:\n{log}")]
    KernelBuild { device: String, log: String },

    /// The device ran out of memory, or a buffer is larger than it allows.
    #[error("out of device memory: {0}")]
    OutOfDeviceMemory(String),

    /// The device does not support what was asked (double precision, sizes).
    #[error("device does not support {0}")]
    Unsupported(String),

    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },

    /// A file was read but its content is malformed.
    #[error("{path}:{line}: {msg}")]
    Parse { path: PathBuf, line: usize, msg: String },

    /// A panic was caught at the C ABI boundary.
    #[error("internal error (panic): {0}")]
    Panic(String),

    /// The device context was invalidated by an earlier failure; make a new one.
    #[error("device memory space is no longer valid: {0}")]
    InvalidMemSpace(String),

    /// A host callback reported failure.
    #[error("callback failed with status {0}")]
    Callback(i32),

    /// A handle was used while a call on it was still running.
    #[error("busy: {0}")]
    Busy(String),

    /// A call was stopped by `metaopt::interrupt` or its stop token. The Rust solvers return
    /// `Ok` with their stop reason instead; the C ABI reports this code after it filled the
    /// result with the best so far.
    #[error("interrupted: {0}")]
    Interrupted(String),
}

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    pub fn arg(arg: &'static str, msg: impl Into<String>) -> Self {
        Error::InvalidArgument { arg, msg: msg.into() }
    }

    /// Shorthand for [`Error::Parse`].
    pub fn parse(path: impl Into<PathBuf>, line: usize, msg: impl Into<String>) -> Self {
        Error::Parse { path: path.into(), line, msg: msg.into() }
    }

    /// The stable C error code of this error (`MetaoptErrorCode` in the C header): the one table
    /// from errors to codes, which the C ABI (`src/ffi/error.rs`) and the Rust API share.
    pub fn code(&self) -> i32 {
        match self {
            Error::InvalidArgument { .. } => 2,
            Error::NullPointer(_) => 3,
            Error::UnsupportedType { .. } => 4,
            Error::OpenCl { .. } => 5,
            Error::NoDevice(_) => 6,
            Error::KernelBuild { .. } => 7,
            Error::OutOfDeviceMemory(_) => 8,
            Error::Unsupported(_) => 9,
            Error::Io { .. } => 10,
            Error::Parse { .. } => 11,
            Error::Panic(_) => 12,
            Error::InvalidMemSpace(_) => 13,
            Error::Callback(_) => 14,
            Error::Busy(_) => 15,
            Error::Interrupted(_) => 16,
        }
    }
}

/// A vector of `len` copies of `value`, or an invalid `arg` when the host cannot allocate it (a
/// size from the caller must be an error, not an abort on allocation failure).
pub fn try_filled<T: Clone>(len: usize, value: T, arg: &'static str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::arg(arg, format!("{len} values ({} bytes) cannot be allocated on the host", len.saturating_mul(std::mem::size_of::<T>())))
    })?;
    v.resize(len, value);
    Ok(v)
}
