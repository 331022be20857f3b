//! The one panic boundary of the C ABI (the rustls-ffi pattern) and the checks of the caller's
//! pointers and strings.

use super::error::MetaoptErrorCode;
use super::result::{c_string, CResult};
use crate::error::{Error, Result};
use std::any::Any;
use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Drops a panic payload without letting a panicking `Drop` escape.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}

/// Runs the body of an `extern "C"` function: its `Ok` is the C result, its `Err` and any panic
/// become the result's error code and message. Never unwinds.
pub(crate) fn boundary<R: CResult>(body: impl FnOnce() -> Result<R>) -> R {
    let error = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(r)) => return r,
        Ok(Err(e)) => e,
        Err(payload) => {
            let e = Error::Panic(panic_message(&*payload));
            drop_payload(payload);
            e
        }
    };
    // formatting a message does not panic in practice; if it did, the code still gets through
    let message =
        catch_unwind(AssertUnwindSafe(|| c_string(&error.to_string()))).unwrap_or(ptr::null_mut());
    R::from_error(MetaoptErrorCode::from(&error) as i32, message)
}

/// The body of every `extern "C"` function: `ffi_boundary!({ ...; value })` evaluates the block
/// (where `?` propagates a [`crate::Error`]) under [`boundary`], which turns errors and panics
/// into the C result's error fields.
macro_rules! ffi_boundary {
    ($body:block) => {
        $crate::ffi::boundary::boundary(move || -> $crate::error::Result<_> { Ok($body) })
    };
}
pub(crate) use ffi_boundary;

/// Copies `len` elements of `T` from a caller's pointer, which need not be aligned.
///
/// # Safety
/// `p` must be valid for reads of `len * size_of::<T>()` bytes, and every bit pattern of those
/// bytes must be a valid `T` (true of the integer and float types used here).
pub(crate) unsafe fn copy_in<T: Copy>(
    p: *const c_void,
    len: usize,
    arg: &'static str,
) -> Result<Vec<T>> {
    if p.is_null() {
        return Err(Error::NullPointer(arg));
    }
    let bytes = len
        .checked_mul(std::mem::size_of::<T>())
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| Error::arg(arg, format!("{len} elements overflow the address space")))?;
    // a huge length from the caller must be an error, not an abort on allocation failure
    let mut v = Vec::<T>::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::arg(
            arg,
            format!("{len} elements ({bytes} bytes) cannot be allocated"),
        )
    })?;
    // SAFETY: the caller vouches for `bytes` readable bytes; `v` has room for them, and they
    // form valid `T`s.
    unsafe {
        ptr::copy_nonoverlapping(p as *const u8, v.as_mut_ptr() as *mut u8, bytes);
        v.set_len(len);
    }
    Ok(v)
}

/// The bytes of a func-data buffer (`data`, `bytes` long; 0 bytes is an empty buffer, and then
/// `data` may be NULL).
///
/// # Safety
/// `data` must be valid for reads of `bytes` bytes when `bytes` is not 0.
pub(crate) unsafe fn func_data_arg(data: *const c_void, bytes: u64) -> Result<Vec<u8>> {
    let len = usize::try_from(bytes)
        .map_err(|_| Error::arg("bytes", format!("{bytes} exceeds the address space")))?;
    if len == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's contract.
    unsafe { copy_in::<u8>(data, len, "data") }
}

/// A caller's C string as UTF-8.
///
/// # Safety
/// `s` must be NULL or point to a NUL-terminated string.
pub(crate) unsafe fn str_arg<'a>(s: *const c_char, arg: &'static str) -> Result<&'a str> {
    if s.is_null() {
        return Err(Error::NullPointer(arg));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let cs = unsafe { CStr::from_ptr(s) };
    cs.to_str()
        .map_err(|e| Error::arg(arg, format!("not valid UTF-8 ({e})")))
}

/// The error of a C argument `arg` whose value `v` is none of the values `choices` lists:
/// "`v`; expected `choices`" (one wording for every enum and flag field of the C API).
pub(crate) fn not_one_of(arg: &'static str, v: impl std::fmt::Display, choices: &str) -> Error {
    Error::arg(arg, format!("{v}; expected {choices}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::result::{free_c, MetaoptInt32Result};

    #[test]
    fn boundary_turns_panics_and_errors_into_codes() {
        let r: MetaoptInt32Result = boundary(|| panic!("boom"));
        assert_eq!(r.error_code, MetaoptErrorCode::MetaoptErrPanic as i32);
        let msg = unsafe { CStr::from_ptr(r.error_message) }
            .to_str()
            .unwrap()
            .to_string();
        assert!(msg.contains("boom"), "{msg}");
        free_c(r.error_message);
        let r: MetaoptInt32Result = ffi_boundary!({ Err(Error::NullPointer("q"))? });
        assert_eq!(r.error_code, 3);
        free_c(r.error_message);
        let r: MetaoptInt32Result = ffi_boundary!({ MetaoptInt32Result::ok(7) });
        assert_eq!(
            (r.result, r.error_code, r.error_message.is_null()),
            (7, 0, true)
        );
    }
}
