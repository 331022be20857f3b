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
    UnsupportedType {
        arg: &'static str,
        name: String,
        expected: &'static str,
    },

    /// An OpenCL call failed.
    #[error("OpenCL error in {call}: {code} ({name})")]
    OpenCl {
        call: &'static str,
        code: i32,
        name: &'static str,
    },

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
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    /// A file was read but its content is malformed: at line `line` (from 1), or with `line`
    /// 0 in the file as a whole (no line is at fault: no atoms, no balls, a block missing).
    #[error("{path}:{line}: {msg}")]
    Parse {
        path: PathBuf,
        line: usize,
        msg: String,
    },

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
    /// result with the best so far. An exact computation (shortest paths, the Voronoi diagram)
    /// has no best so far: stopped, it returns this error and no result.
    #[error("interrupted: {0}")]
    Interrupted(String),

    /// The host could not allocate memory that a size from the caller asked for (a fallible
    /// allocation failed, or the size is above what the host can hold).
    #[error("out of host memory: {0}")]
    OutOfHostMemory(String),

    /// The objective returned only NaN or infinite values: no finite value to report as best.
    #[error("objective returned only non-finite values: {0}")]
    NonFiniteObjective(String),

    /// An exact computation (shortest paths, the Voronoi diagram) did not finish within its time
    /// limit: there is no result (a partial one would look complete).
    #[error("time limit: {0}")]
    TimeLimit(String),
}

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    pub fn arg(arg: &'static str, msg: impl Into<String>) -> Self {
        Error::InvalidArgument {
            arg,
            msg: msg.into(),
        }
    }

    /// Shorthand for [`Error::Parse`].
    pub fn parse(path: impl Into<PathBuf>, line: usize, msg: impl Into<String>) -> Self {
        Error::Parse {
            path: path.into(),
            line,
            msg: msg.into(),
        }
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
            Error::OutOfHostMemory(_) => 17,
            Error::NonFiniteObjective(_) => 18,
            Error::TimeLimit(_) => 19,
        }
    }

    /// The error of an exact computation, `what`, cut short before it finished: by the
    /// interrupt or its stop token ([`Error::Interrupted`]) or else by its time limit
    /// ([`Error::TimeLimit`]); either way there is no result.
    pub fn cut_short(interrupted: bool, what: &str) -> Self {
        if interrupted {
            Error::Interrupted(format!(
                "{what}: stopped by metaopt_interrupt or the stop token before it finished; no result"
            ))
        } else {
            Error::TimeLimit(format!(
                "{what}: the time limit passed before it finished; no result"
            ))
        }
    }
}

/// A vector of `len` copies of `value`, or [`Error::OutOfHostMemory`] naming `arg` when the host
/// cannot allocate it (a size from the caller must be an error, not an abort on allocation
/// failure).
pub fn try_filled<T: Clone>(len: usize, value: T, arg: &'static str) -> Result<Vec<T>> {
    let mut v = try_vec(len, arg)?;
    v.resize(len, value);
    Ok(v)
}

/// An empty vector with room for exactly `len` values, or [`Error::OutOfHostMemory`] naming `arg`.
pub fn try_vec<T>(len: usize, arg: &'static str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::OutOfHostMemory(format!(
            "`{arg}`: {len} values ({} bytes) cannot be allocated on the host",
            len.saturating_mul(std::mem::size_of::<T>())
        ))
    })?;
    Ok(v)
}

/// A vector of `v[0]` repeated `n` times when `v` holds one value ("one value for all"), or `v`
/// itself when it holds `n`; fallible, so a huge `n` is an error and not an abort.
pub fn try_expand<T: Clone>(v: &[T], n: usize, arg: &'static str) -> Result<Vec<T>> {
    match v.len() {
        1 => try_filled(n, v[0].clone(), arg),
        l if l == n => {
            let mut out = try_vec(n, arg)?;
            out.extend_from_slice(v);
            Ok(out)
        }
        l => Err(Error::arg(arg, format!("{l} values; expected 1 or {n}"))),
    }
}

/// The product of sizes, or an invalid `arg` naming the factors when it overflows `usize` (sizes
/// multiply with checked arithmetic everywhere: a wrapped product would pass later checks).
pub fn size_product(arg: &'static str, factors: &[usize]) -> Result<usize> {
    factors
        .iter()
        .try_fold(1usize, |acc, &f| acc.checked_mul(f))
        .ok_or_else(|| {
            let text: Vec<String> = factors.iter().map(|f| f.to_string()).collect();
            Error::arg(
                arg,
                format!(
                    "{} is too large (overflows the address space)",
                    text.join(" x ")
                ),
            )
        })
}
