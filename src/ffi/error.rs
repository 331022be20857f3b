//! The C error codes (`MetaoptErrorCode`); the one table from every [`Error`] to its number is
//! [`Error::code`] in `src/error.rs`.

use crate::error::Error;

/// Error codes of the C API: the `error_code` field of every result struct. The numbers are
/// stable and never reused; 0 is success.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptErrorCode {
    /// Success (the thesis's `EC_OK`).
    MetaoptOk = 0,
    /// The thesis's `EC_STD_EXCEPTION`; kept so that its numbers stay valid, never returned.
    MetaoptErrStdException = 1,
    /// An argument is out of range or inconsistent; the message names it.
    MetaoptErrInvalidArgument = 2,
    /// A pointer argument was null; the message names it.
    MetaoptErrNullPointer = 3,
    /// An unknown element type name (see `metaopt_qap_params`).
    MetaoptErrUnsupportedType = 4,
    /// An OpenCL call failed; the message names the call and the OpenCL error.
    MetaoptErrOpencl = 5,
    /// No OpenCL driver, platform or device.
    MetaoptErrNoDevice = 6,
    /// A kernel failed to compile; the message holds the build log.
    MetaoptErrKernelBuild = 7,
    /// The device ran out of memory, or a buffer exceeds its largest allocation.
    MetaoptErrOutOfDeviceMemory = 8,
    /// The device lacks a needed feature (e.g. double precision).
    MetaoptErrUnsupported = 9,
    /// A file could not be read.
    MetaoptErrIo = 10,
    /// A file is malformed; the message gives the path and line.
    MetaoptErrParse = 11,
    /// An internal error (a caught panic, or a failed host allocation).
    MetaoptErrPanic = 12,
    /// An earlier device failure invalidated the device context; call `metaopt_device_reset`.
    MetaoptErrInvalidMemSpace = 13,
    /// A host callback reported failure.
    MetaoptErrCallback = 14,
    /// The handle is in use by a call still running: called again from its own objective
    /// callback, or by a second thread at the same time (a handle serves one call at a time).
    MetaoptErrBusy = 15,
    /// The call was stopped by `metaopt_interrupt` or its stop token; unlike the errors, its
    /// result (or handle) holds the best found so far, and its stop reason says interrupted.
    /// The exact computations (shortest paths, the Voronoi diagram) have no best so far: their
    /// result is then empty, as after an error.
    MetaoptInterrupted = 16,
    /// The host could not allocate what the call's sizes ask for.
    MetaoptErrOutOfHostMemory = 17,
    /// The objective returned only NaN or infinite values (a non-finite value is worse than
    /// every finite one and never reported as best).
    MetaoptErrNonFiniteObjective = 18,
    /// An exact computation (shortest paths, the Voronoi diagram) did not finish within its
    /// `time_limit_s`; the result is empty.
    MetaoptErrTimeLimit = 19,
}

impl From<&Error> for MetaoptErrorCode {
    /// The code of `e`: [`Error::code`] (`src/error.rs`) is the one table from errors to their
    /// numbers; this only turns the number into the C enum.
    fn from(e: &Error) -> Self {
        Self::from_code(e.code()).expect("Error::code gives a number of MetaoptErrorCode")
    }
}

impl MetaoptErrorCode {
    /// Every code, in numeric order.
    const ALL: [MetaoptErrorCode; 20] = {
        use MetaoptErrorCode::*;
        [
            MetaoptOk,
            MetaoptErrStdException,
            MetaoptErrInvalidArgument,
            MetaoptErrNullPointer,
            MetaoptErrUnsupportedType,
            MetaoptErrOpencl,
            MetaoptErrNoDevice,
            MetaoptErrKernelBuild,
            MetaoptErrOutOfDeviceMemory,
            MetaoptErrUnsupported,
            MetaoptErrIo,
            MetaoptErrParse,
            MetaoptErrPanic,
            MetaoptErrInvalidMemSpace,
            MetaoptErrCallback,
            MetaoptErrBusy,
            MetaoptInterrupted,
            MetaoptErrOutOfHostMemory,
            MetaoptErrNonFiniteObjective,
            MetaoptErrTimeLimit,
        ]
    };

    /// The code of number `code`, if there is one.
    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| *c as i32 == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// One value of every variant (the match of the table is exhaustive, so a new variant is a
    /// compile error there).
    fn every_error() -> Vec<Error> {
        vec![
            Error::arg("x", "y"),
            Error::NullPointer("p"),
            Error::UnsupportedType {
                arg: "t",
                name: "n".into(),
                expected: "e",
            },
            Error::OpenCl {
                call: "c",
                code: -1,
                name: "n",
            },
            Error::NoDevice("d".into()),
            Error::KernelBuild {
                device: "d".into(),
                log: "l".into(),
            },
            Error::OutOfDeviceMemory("m".into()),
            Error::Unsupported("u".into()),
            Error::Io {
                path: "p".into(),
                source: std::io::Error::other("x"),
            },
            Error::parse("p", 1, "m"),
            Error::Panic("p".into()),
            Error::InvalidMemSpace("m".into()),
            Error::Callback(1),
            Error::Busy("b".into()),
            Error::Interrupted("i".into()),
            Error::OutOfHostMemory("h".into()),
            Error::NonFiniteObjective("n".into()),
            Error::TimeLimit("t".into()),
        ]
    }

    #[test]
    fn every_error_has_a_distinct_code_and_rust_agrees() {
        let mut seen = HashSet::new();
        for e in every_error() {
            let c = MetaoptErrorCode::from(&e);
            assert_eq!(c as i32, e.code(), "{e:?}");
            assert!(
                c != MetaoptErrorCode::MetaoptOk && c != MetaoptErrorCode::MetaoptErrStdException,
                "{e:?}"
            );
            assert!(seen.insert(c), "{e:?} shares code {}", c as i32);
        }
        assert_eq!(seen.len(), 18);
        for code in 0..=19 {
            assert_eq!(
                MetaoptErrorCode::from_code(code).map(|c| c as i32),
                Some(code)
            );
        }
        assert_eq!(MetaoptErrorCode::from_code(20), None);
    }
}
