//! The one pattern of the C ABI's result structs: each carries `error_code` and `error_message`,
//! and everything it points to is allocated with the C allocator and owned by the caller.
//! [`owned_result!`] gives a result struct its error filling ([`CResult`]) and the release of what
//! it owns ([`OwnedResult`]), which its exported `metaopt_<noun>_free_<what>_result` function
//! calls through [`free_result`]; [`metaopt_pointer_free`] releases any single string or array.

use crate::error::{Error, Result};
use std::ffi::{c_char, c_void};
use std::ptr;

/// A C return value that can carry an error: what the panic boundary returns for an error.
pub(crate) trait CResult {
    /// The result that reports `code` and `message` (the message is C-allocated, or NULL).
    fn from_error(code: i32, message: *mut c_char) -> Self;
}

/// A result struct that owns C-allocated memory (its arrays, strings and `error_message`).
pub(crate) trait OwnedResult: CResult {
    /// Frees everything the result owns and sets the pointers to NULL and the lengths to 0, so a
    /// second release is harmless; the struct itself belongs to the caller.
    fn release(&mut self);
}

/// Implements [`CResult`] and [`OwnedResult`] for a C result struct with `error_code` and
/// `error_message` fields whose other fields are integers, floats and pointers: an error result
/// is all zeros (NULL arrays, zero values, `result_type` 0 where there is one) apart from those
/// two. `owned_result!(T)` owns only its message; `owned_result!(T: frees a, b; zeroes n, m)`
/// also owns the arrays `a` and `b`, whose lengths `n` and `m` are zeroed on release.
macro_rules! owned_result {
    ($t:ty) => {
        $crate::ffi::result::owned_result!($t: frees; zeroes);
    };
    ($t:ty: frees $($array:ident),*; zeroes $($len:ident),*) => {
        impl $crate::ffi::result::CResult for $t {
            fn from_error(error_code: i32, error_message: *mut std::ffi::c_char) -> Self {
                // SAFETY: a plain C struct of integers, floats and pointers: all-zero is valid.
                let mut r: Self = unsafe { std::mem::zeroed() };
                r.error_code = error_code;
                r.error_message = error_message;
                r
            }
        }
        impl $crate::ffi::result::OwnedResult for $t {
            fn release(&mut self) {
                $( $crate::ffi::result::free_c(std::mem::replace(&mut self.$array, std::ptr::null_mut())); )*
                $crate::ffi::result::free_c(std::mem::replace(&mut self.error_message, std::ptr::null_mut()));
                $( self.$len = 0; )*
            }
        }
    };
}
pub(crate) use owned_result;

/// Implements [`CResult`] for plain C structs without error fields (the option structs of the
/// `metaopt_*_default_*` functions): should such a function ever fail, it returns all zeros.
macro_rules! plain_result {
    ($($t:ty),*) => {$(
        impl $crate::ffi::result::CResult for $t {
            fn from_error(_: i32, message: *mut std::ffi::c_char) -> Self {
                $crate::ffi::result::free_c(message);
                // SAFETY: a plain C struct of integers, floats and pointers: all-zero is valid.
                unsafe { std::mem::zeroed() }
            }
        }
    )*};
}
pub(crate) use plain_result;

/// The body of every `metaopt_*_free_*_result` function: releases `*r` ([`OwnedResult::release`]);
/// NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one released already).
pub(crate) unsafe fn free_result<R: OwnedResult>(r: *mut R) {
    // SAFETY: NULL or valid by the caller's contract.
    if let Some(r) = unsafe { r.as_mut() } {
        r.release();
    }
}

/// Functions returning a plain flag report an error as 0.
impl CResult for u8 {
    fn from_error(_: i32, message: *mut c_char) -> Self {
        free_c(message);
        0
    }
}

/// Functions returning nothing (the `metaopt_*_free*` family) drop an error silently.
impl CResult for () {
    fn from_error(_: i32, message: *mut c_char) {
        free_c(message);
    }
}

/// A 32-bit result with its error: `result` is meaningful only when `error_code` is
/// `METAOPT_OK`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptInt32Result {
    /// The value (what it means is documented by each function).
    pub result: i32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; owned by the caller, who frees it with
    /// `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

impl MetaoptInt32Result {
    /// A success carrying `result`.
    pub fn ok(result: i32) -> Self {
        MetaoptInt32Result {
            result,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    }
}

/// A string with its error: `text` is non-NULL exactly when `error_code` is `METAOPT_OK`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptStringResult {
    /// The text, NUL-terminated UTF-8; owned by the caller, who frees it with
    /// `metaopt_pointer_free`. NULL on error.
    pub text: *mut c_char,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; owned by the caller, who frees it with
    /// `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

impl MetaoptStringResult {
    /// A success carrying a C copy of `s`.
    pub(crate) fn ok(s: &str) -> Result<Self> {
        let text = c_string(s);
        if text.is_null() {
            return Err(Error::Panic(format!(
                "out of host memory: malloc({}) failed",
                s.len() + 1
            )));
        }
        Ok(MetaoptStringResult {
            text,
            error_code: 0,
            error_message: ptr::null_mut(),
        })
    }
}

/// An array of doubles owned by the caller: free it with `metaopt_double_array_free_result` (or
/// `values` and `error_message` with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptDoubleArrayResult {
    pub values: *mut f64,
    pub length: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

impl MetaoptDoubleArrayResult {
    /// A success carrying a C copy of `v`.
    pub(crate) fn ok(v: &[f64]) -> Result<Self> {
        let length = u32::try_from(v.len())
            .map_err(|_| Error::arg("length", "more than 2^32 - 1 values"))?;
        Ok(MetaoptDoubleArrayResult {
            values: CArray::from_slice(v)?.into_raw(),
            length,
            error_code: 0,
            error_message: ptr::null_mut(),
        })
    }
}

owned_result!(MetaoptInt32Result);
owned_result!(MetaoptStringResult: frees text; zeroes);
owned_result!(MetaoptDoubleArrayResult: frees values; zeroes length);

/// Frees the values and the message of a `MetaoptDoubleArrayResult` and sets them to NULL and
/// `length` to 0. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_double_array_free_result(r: *mut MetaoptDoubleArrayResult) {
    // SAFETY: the caller's contract.
    super::ffi_boundary!({ unsafe { free_result(r) } })
}

/// Frees a string or array that the library returned (any `char *` or array pointer of a result
/// struct: `uint16_t *`, `uint32_t *`, `int32_t *`, `double *`). NULL is a no-op.
///
/// # Safety
/// `p` must be NULL or a pointer the library returned and that has not been freed yet.
#[no_mangle]
pub unsafe extern "C" fn metaopt_pointer_free(p: *mut c_void) {
    super::ffi_boundary!({ free_c(p) })
}

/// A copy of `s` in C-allocated memory, NUL-terminated (interior NULs become `?`); NULL when the
/// allocation fails.
pub(crate) fn c_string(s: &str) -> *mut c_char {
    // SAFETY: malloc'd len + 1 bytes, all written before the pointer is returned.
    unsafe {
        let p = libc::malloc(s.len() + 1) as *mut u8;
        if p.is_null() {
            return ptr::null_mut();
        }
        for (i, &b) in s.as_bytes().iter().enumerate() {
            *p.add(i) = if b == 0 { b'?' } else { b };
        }
        *p.add(s.len()) = 0;
        p as *mut c_char
    }
}

/// Frees memory from [`c_string`] or [`CArray`] (NULL is a no-op).
pub(crate) fn free_c<T>(p: *mut T) {
    // SAFETY: every pointer the library hands out comes from libc::malloc.
    unsafe { libc::free(p as *mut c_void) }
}

/// An array in C-allocated memory, freed on drop unless handed out with [`CArray::into_raw`]
/// (so that a failure between two allocations leaks nothing).
pub(crate) struct CArray<T: Copy> {
    ptr: *mut T,
}

impl<T: Copy> CArray<T> {
    /// A C copy of `v` (at least one element is allocated, so the pointer is never NULL).
    pub(crate) fn from_slice(v: &[T]) -> Result<Self> {
        let bytes = std::mem::size_of_val(v).max(1);
        // SAFETY: the allocation holds `v.len()` elements; malloc aligns for any scalar type.
        unsafe {
            let p = libc::malloc(bytes) as *mut T;
            if p.is_null() {
                return Err(Error::Panic(format!(
                    "out of host memory: malloc({bytes}) failed"
                )));
            }
            ptr::copy_nonoverlapping(v.as_ptr(), p, v.len());
            Ok(CArray { ptr: p })
        }
    }

    /// A C array of `f` applied to each of `v`, written in place on rayon threads (no
    /// intermediate vector: a distance table of billions of entries is converted and handed
    /// over in one pass).
    pub(crate) fn from_map<U: Copy + Sync>(v: &[U], f: impl Fn(U) -> T + Sync) -> Result<Self>
    where
        T: Send,
    {
        use rayon::prelude::*;
        let bytes = v.len().saturating_mul(std::mem::size_of::<T>()).max(1);
        // SAFETY: malloc aligns for any scalar type; `bytes` holds `v.len()` values of `T`.
        let p = unsafe { libc::malloc(bytes) } as *mut T;
        if p.is_null() {
            return Err(Error::Panic(format!(
                "out of host memory: malloc({bytes}) failed"
            )));
        }
        let a = CArray { ptr: p };
        // SAFETY: the allocation holds `v.len()` values of `T`, written once each below before
        // anything reads them; `MaybeUninit` makes no claim on the uninitialised contents.
        let out =
            unsafe { std::slice::from_raw_parts_mut(p as *mut std::mem::MaybeUninit<T>, v.len()) };
        out.par_chunks_mut(1 << 16)
            .zip(v.par_chunks(1 << 16))
            .for_each(|(o, i)| {
                for (o, &x) in o.iter_mut().zip(i) {
                    o.write(f(x));
                }
            });
        Ok(a)
    }

    /// Hands the array to the caller, who frees it with `metaopt_pointer_free`.
    pub(crate) fn into_raw(self) -> *mut T {
        let p = self.ptr;
        std::mem::forget(self);
        p
    }
}

impl<T: Copy> Drop for CArray<T> {
    fn drop(&mut self) {
        free_c(self.ptr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn a_mapped_c_array_holds_each_value_mapped() {
        // more values than one parallel chunk, and none
        let v: Vec<u32> = (0..200_000).collect();
        let a = CArray::from_map(&v, |x| x as f64 * 0.5).unwrap();
        let p = a.into_raw();
        // SAFETY: `p` holds `v.len()` values written by `from_map`.
        let got = unsafe { std::slice::from_raw_parts(p, v.len()) };
        assert!(got.iter().zip(&v).all(|(&g, &x)| g == x as f64 * 0.5));
        free_c(p);
        let e = CArray::<i32>::from_map(&[] as &[u32], |x| x as i32)
            .unwrap()
            .into_raw();
        assert!(!e.is_null());
        free_c(e);
    }

    #[test]
    fn c_string_replaces_interior_nul() {
        let p = c_string("a\0b");
        assert_eq!(unsafe { CStr::from_ptr(p) }.to_bytes(), b"a?b");
        free_c(p);
    }

    #[test]
    fn a_released_result_is_empty_and_may_be_released_again() {
        let mut r = MetaoptDoubleArrayResult::ok(&[1.0, 2.0]).unwrap();
        r.error_message = c_string("x");
        unsafe { free_result(&mut r) };
        assert!(r.values.is_null() && r.error_message.is_null() && r.length == 0);
        unsafe { free_result(&mut r) };
        unsafe { free_result::<MetaoptDoubleArrayResult>(ptr::null_mut()) };
        let e = MetaoptStringResult::from_error(3, c_string("m"));
        assert!(e.text.is_null() && e.error_code == 3);
        free_c(e.error_message);
    }
}
