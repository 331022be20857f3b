//! The C error codes and the one table that maps every [`Error`] to its code.

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
}

impl From<&Error> for MetaoptErrorCode {
    /// The table: the code of every error the library can report over the C ABI.
    fn from(e: &Error) -> Self {
        use MetaoptErrorCode::*;
        match e {
            Error::InvalidArgument { .. } => MetaoptErrInvalidArgument,
            Error::NullPointer(_) => MetaoptErrNullPointer,
            Error::UnsupportedType { .. } => MetaoptErrUnsupportedType,
            Error::OpenCl { .. } => MetaoptErrOpencl,
            Error::NoDevice(_) => MetaoptErrNoDevice,
            Error::KernelBuild { .. } => MetaoptErrKernelBuild,
            Error::OutOfDeviceMemory(_) => MetaoptErrOutOfDeviceMemory,
            Error::Unsupported(_) => MetaoptErrUnsupported,
            Error::Io { .. } => MetaoptErrIo,
            Error::Parse { .. } => MetaoptErrParse,
            Error::Panic(_) => MetaoptErrPanic,
            Error::InvalidMemSpace(_) => MetaoptErrInvalidMemSpace,
            Error::Callback(_) => MetaoptErrCallback,
            Error::Busy(_) => MetaoptErrBusy,
        }
    }
}

impl MetaoptErrorCode {
    /// The enum value of a code number; `None` for a number it does not define.
    pub fn from_code(code: i32) -> Option<Self> {
        use MetaoptErrorCode::*;
        Some(match code {
            0 => MetaoptOk,
            1 => MetaoptErrStdException,
            2 => MetaoptErrInvalidArgument,
            3 => MetaoptErrNullPointer,
            4 => MetaoptErrUnsupportedType,
            5 => MetaoptErrOpencl,
            6 => MetaoptErrNoDevice,
            7 => MetaoptErrKernelBuild,
            8 => MetaoptErrOutOfDeviceMemory,
            9 => MetaoptErrUnsupported,
            10 => MetaoptErrIo,
            11 => MetaoptErrParse,
            12 => MetaoptErrPanic,
            13 => MetaoptErrInvalidMemSpace,
            14 => MetaoptErrCallback,
            15 => MetaoptErrBusy,
            _ => return None,
        })
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
            Error::UnsupportedType { arg: "t", name: "n".into(), expected: "e" },
            Error::OpenCl { call: "c", code: -1, name: "n" },
            Error::NoDevice("d".into()),
            Error::KernelBuild { device: "d".into(), log: "l".into() },
            Error::OutOfDeviceMemory("m".into()),
            Error::Unsupported("u".into()),
            Error::Io { path: "p".into(), source: std::io::Error::other("x") },
            Error::parse("p", 1, "m"),
            Error::Panic("p".into()),
            Error::InvalidMemSpace("m".into()),
            Error::Callback(1),
            Error::Busy("b".into()),
        ]
    }

    #[test]
    fn every_error_has_a_distinct_code_and_rust_agrees() {
        let mut seen = HashSet::new();
        for e in every_error() {
            let c = MetaoptErrorCode::from(&e);
            // `Error::code` (the Rust API's number) must say the same as the C table
            assert_eq!(c as i32, e.code(), "{e:?}");
            assert!(c != MetaoptErrorCode::MetaoptOk && c != MetaoptErrorCode::MetaoptErrStdException, "{e:?}");
            assert!(seen.insert(c), "{e:?} shares code {}", c as i32);
        }
        assert_eq!(seen.len(), 14);
        for code in 0..=15 {
            assert_eq!(MetaoptErrorCode::from_code(code).map(|c| c as i32), Some(code));
        }
        assert_eq!(MetaoptErrorCode::from_code(16), None);
    }
}
