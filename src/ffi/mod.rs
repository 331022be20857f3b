//! The C ABI of `libmetaopt.so` (docs/API.md); cbindgen turns this module, and only this module,
//! into `include/metaopt.h`.
//!
//! Conventions, shared by every function:
//! - Nothing unwinds out of an `extern "C"` function: each body runs under `ffi_boundary!`,
//!   which catches panics and maps every [`Error`] to its stable code (`MetaoptErrorCode`) and a
//!   message.
//! - Every pointer argument is checked; null is `METAOPT_ERR_NULL_POINTER` naming the argument.
//! - Everything the library returns (strings, arrays) is allocated with the C allocator, so
//!   `metaopt_free_pointer` (= `free`) releases any of it; the `metaopt_free_*` helpers free whole
//!   result structs. The caller never frees library memory with its own allocator functions
//!   other than through these.
//! - Handles are opaque, carry a magic number and are tracked in a registry of live handles, so a
//!   freed or forged handle is an error rather than a crash (best effort: a freed address reused
//!   by a new handle is indistinguishable from it).
//! - A handle serves one call at a time: a call on a handle whose previous call is still running
//!   (re-entered from its own objective callback, or from a second thread) is
//!   `METAOPT_ERR_BUSY`, and a free meanwhile takes effect when the running call returns.

mod de;
mod device;
mod hc12;
mod qap;
mod sat;

pub use de::*;
pub use device::*;
pub use hc12::*;
pub use qap::*;
pub use sat::*;

use crate::error::{Error, Result};
use std::any::Any;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CStr};
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::{Mutex, MutexGuard};

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
    /// An unknown element type name (see `metaopt_params`).
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
    /// An earlier device failure invalidated the device context; call `metaopt_reset_device`.
    MetaoptErrInvalidMemSpace = 13,
    /// A host callback reported failure.
    MetaoptErrCallback = 14,
    /// The handle is in use by a call still running: called again from its own objective
    /// callback, or by a second thread at the same time (a handle serves one call at a time).
    MetaoptErrBusy = 15,
}

impl MetaoptErrorCode {
    /// The enum value of a code of [`Error::code`]; `None` for a number it does not define.
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

/// A 32-bit result with its error: `result` is meaningful only when `error_code` is
/// `METAOPT_OK`.
#[repr(C)]
#[derive(Debug)]
pub struct Int32Result {
    /// The value (what it means is documented by each function).
    pub result: i32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; owned by the caller, who frees it with
    /// `metaopt_free_pointer`.
    pub error_message: *mut c_char,
}

impl Int32Result {
    /// A success carrying `result`.
    pub fn ok(result: i32) -> Self {
        Int32Result { result, error_code: 0, error_message: ptr::null_mut() }
    }
}

/// A string with its error: `text` is non-NULL exactly when `error_code` is `METAOPT_OK`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptStringResult {
    /// The text, NUL-terminated UTF-8; owned by the caller, who frees it with
    /// `metaopt_free_pointer`. NULL on error.
    pub text: *mut c_char,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; owned by the caller, who frees it with
    /// `metaopt_free_pointer`.
    pub error_message: *mut c_char,
}

impl MetaoptStringResult {
    /// A success carrying a C copy of `s`.
    pub(crate) fn ok(s: &str) -> Result<Self> {
        let text = c_string(s);
        if text.is_null() {
            return Err(Error::Panic(format!("out of host memory: malloc({}) failed", s.len() + 1)));
        }
        Ok(MetaoptStringResult { text, error_code: 0, error_message: ptr::null_mut() })
    }
}

/// Maps every library error to the error fields of a C result struct.
pub(crate) trait FfiResult {
    /// The result that reports `code` and `message` (both from an [`Error`]).
    fn from_error(code: i32, message: *mut c_char) -> Self;
}

/// Implements [`FfiResult`] for C result structs with `error_code` and `error_message` fields
/// whose other fields are integers, floats and pointers: an error result is all zeros (NULL
/// arrays, zero values) apart from those two.
macro_rules! zeroed_error_result {
    ($($t:ty),*) => {$(
        impl $crate::ffi::FfiResult for $t {
            fn from_error(error_code: i32, error_message: *mut std::ffi::c_char) -> Self {
                // SAFETY: a plain C struct of integers, floats and pointers: all-zero is valid
                // (zero values, NULL arrays, `result_type` 0 = error where there is one).
                let mut r: Self = unsafe { std::mem::zeroed() };
                r.error_code = error_code;
                r.error_message = error_message;
                r
            }
        }
    )*};
}
pub(crate) use zeroed_error_result;

zeroed_error_result!(MetaoptStringResult);

impl FfiResult for Int32Result {
    fn from_error(error_code: i32, error_message: *mut c_char) -> Self {
        Int32Result { result: 0, error_code, error_message }
    }
}

/// Functions returning a plain flag report an error as 0.
impl FfiResult for u8 {
    fn from_error(_: i32, message: *mut c_char) -> Self {
        free_c(message);
        0
    }
}

/// Functions returning nothing (the `metaopt_free_*` family) drop an error silently.
impl FfiResult for () {
    fn from_error(_: i32, message: *mut c_char) -> Self {
        free_c(message);
    }
}

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
pub(crate) fn boundary<R: FfiResult>(body: impl FnOnce() -> Result<R>) -> R {
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
    let message = catch_unwind(AssertUnwindSafe(|| c_string(&error.to_string()))).unwrap_or(ptr::null_mut());
    R::from_error(error.code(), message)
}

/// The body of every `extern "C"` function: `ffi_boundary!({ ...; value })` evaluates the block
/// (where `?` propagates a [`crate::Error`]) under [`boundary`], which turns errors and panics
/// into the C result's error fields (the rustls-ffi pattern).
macro_rules! ffi_boundary {
    ($body:block) => {
        $crate::ffi::boundary(move || -> $crate::error::Result<_> { Ok($body) })
    };
}
pub(crate) use ffi_boundary;

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
                return Err(Error::Panic(format!("out of host memory: malloc({bytes}) failed")));
            }
            ptr::copy_nonoverlapping(v.as_ptr(), p, v.len());
            Ok(CArray { ptr: p })
        }
    }

    /// Hands the array to the caller, who frees it with `metaopt_free_pointer`.
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

/// Copies `len` elements of `T` from a caller's pointer, which need not be aligned.
///
/// # Safety
/// `p` must be valid for reads of `len * size_of::<T>()` bytes, and every bit pattern of those
/// bytes must be a valid `T` (true of the integer and float types used here).
pub(crate) unsafe fn copy_in<T: Copy>(p: *const c_void, len: usize, arg: &'static str) -> Result<Vec<T>> {
    if p.is_null() {
        return Err(Error::NullPointer(arg));
    }
    let bytes = len
        .checked_mul(std::mem::size_of::<T>())
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| Error::arg(arg, format!("{len} elements overflow the address space")))?;
    // a huge length from the caller must be an error, not an abort on allocation failure
    let mut v = Vec::<T>::new();
    v.try_reserve_exact(len)
        .map_err(|_| Error::arg(arg, format!("{len} elements ({bytes} bytes) cannot be allocated")))?;
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
    let len = usize::try_from(bytes).map_err(|_| Error::arg("bytes", format!("{bytes} exceeds the address space")))?;
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
    cs.to_str().map_err(|e| Error::arg(arg, format!("not valid UTF-8 ({e})")))
}

/// What a handle points to: the magic number first (`repr(C)`), then the object.
#[repr(C)]
struct Tagged<T> {
    magic: u64,
    value: T,
}

/// The state of a live handle: whether a call is using it, and whether a free came meanwhile.
#[derive(Clone, Copy, Default)]
struct Use {
    busy: bool,
    free_pending: bool,
}

/// The live handles of one opaque C type, each a boxed `T` behind a magic number. A pointer that
/// is not registered is never dereferenced, so a freed or forged handle is an error rather than a
/// crash; the magic number catches a registered object that was overwritten. A handle serves one
/// call at a time: [`Registry::get`] marks it busy until its [`InUse`] guard drops, so a call
/// re-entered from the handle's own objective callback, or made by a second thread while the
/// first runs, is `METAOPT_ERR_BUSY` rather than a data race; a free meanwhile is deferred.
pub(crate) struct Registry<T> {
    live: Mutex<BTreeMap<usize, Use>>,
    magic: u64,
    /// The C name of the handle type, for messages.
    c_name: &'static str,
    /// The functions that make such handles, for messages.
    made_by: &'static str,
    _t: PhantomData<fn() -> T>,
}

/// The object behind a handle, held for the length of one call (see [`Registry::get`]).
pub(crate) struct InUse<'a, T> {
    registry: &'a Registry<T>,
    tagged: *mut Tagged<T>,
}

impl<T> std::ops::Deref for InUse<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the handle is live and marked busy while this guard exists, so no other call
        // frees or uses it.
        unsafe { &(*self.tagged).value }
    }
}

impl<T> std::ops::DerefMut for InUse<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; the guard is the only access.
        unsafe { &mut (*self.tagged).value }
    }
}

impl<T> Drop for InUse<'_, T> {
    fn drop(&mut self) {
        let key = self.tagged as usize;
        let free = {
            let mut live = self.registry.live();
            let free = live.get(&key).is_some_and(|u| u.free_pending);
            if free {
                live.remove(&key);
            } else if let Some(u) = live.get_mut(&key) {
                u.busy = false;
            }
            free
        };
        if free {
            // SAFETY: the address has just left the registry, so this is its only free.
            unsafe { Registry::drop_tagged(self.tagged) }
        }
    }
}

impl<T> Registry<T> {
    pub(crate) const fn new(magic: u64, c_name: &'static str, made_by: &'static str) -> Self {
        Registry { live: Mutex::new(BTreeMap::new()), magic, c_name, made_by, _t: PhantomData }
    }

    fn live(&self) -> MutexGuard<'_, BTreeMap<usize, Use>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Boxes `value` behind the magic number and registers it: a new handle of C type `H`.
    pub(crate) fn insert<H>(&self, value: T) -> *mut H {
        let p = Box::into_raw(Box::new(Tagged { magic: self.magic, value }));
        self.live().insert(p as usize, Use::default());
        p.cast()
    }

    /// The object behind handle `h` (named `arg` in errors), checked: non-null, live, with its
    /// magic number, and not in use by a call still running (`METAOPT_ERR_BUSY`). It stays
    /// marked busy until the guard drops.
    ///
    /// # Safety
    /// `h` must be NULL, a handle of this registry, or a pointer that is not registered (it is
    /// then never dereferenced).
    pub(crate) unsafe fn get<H>(&self, h: *const H, arg: &'static str) -> Result<InUse<'_, T>> {
        if h.is_null() {
            return Err(Error::NullPointer(arg));
        }
        let mut live = self.live();
        let Some(state) = live.get_mut(&(h as usize)) else {
            return Err(Error::arg(
                arg,
                format!("{h:p} is not a live {} (freed already, or not made by {})", self.c_name, self.made_by),
            ));
        };
        if state.busy {
            return Err(Error::Busy(format!(
                "`{arg}` ({h:p}, a {}) is in use by a call still running: called again from its own objective \
                 callback, or by a second thread at the same time",
                self.c_name
            )));
        }
        let tagged = h as *mut Tagged<T>;
        // SAFETY: registered addresses come from Box::into_raw in `insert` and leave the set
        // before being freed; the lock is held.
        if unsafe { (*tagged).magic } != self.magic {
            return Err(Error::arg(arg, format!("{h:p} is a corrupted {} (bad magic number)", self.c_name)));
        }
        state.busy = true;
        Ok(InUse { registry: self, tagged })
    }

    /// Unregisters and drops the object behind `h`; NULL and unregistered pointers (freed or
    /// forged) are ignored. A handle in use by a running call is freed when that call returns.
    ///
    /// # Safety
    /// `h` must be NULL, a handle of this registry, or an unregistered pointer.
    pub(crate) unsafe fn free<H>(&self, h: *mut H) {
        let key = h as usize;
        let free = {
            let mut live = self.live();
            match live.get_mut(&key) {
                Some(u) if u.busy => {
                    u.free_pending = true;
                    false
                }
                Some(_) => live.remove(&key).is_some(),
                None => false,
            }
        };
        if free {
            // SAFETY: a live address comes from Box::into_raw in `insert`, and it has just left
            // the registry, so no other call frees it again.
            unsafe { Self::drop_tagged(h as *mut Tagged<T>) }
        }
    }

    /// # Safety
    /// `p` comes from `insert` and has left the registry.
    unsafe fn drop_tagged(p: *mut Tagged<T>) {
        // SAFETY: the caller's contract.
        unsafe {
            (*p).magic = 0;
            drop(Box::from_raw(p));
        }
    }
}

/// Frees a string or array that the library returned (any `char *` or array pointer of a result
/// struct: `uint16_t *`, `uint32_t *`, `double *`). NULL is a no-op.
///
/// # Safety
/// `p` must be NULL or a pointer the library returned and that has not been freed yet.
#[no_mangle]
pub unsafe extern "C" fn metaopt_free_pointer(p: *mut c_void) {
    free_c(p);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// One value of every variant; the exhaustive match makes a new variant a compile error here.
    fn every_error() -> Vec<Error> {
        let all = vec![
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
        ];
        for e in &all {
            match e {
                Error::InvalidArgument { .. }
                | Error::NullPointer(_)
                | Error::UnsupportedType { .. }
                | Error::OpenCl { .. }
                | Error::NoDevice(_)
                | Error::KernelBuild { .. }
                | Error::OutOfDeviceMemory(_)
                | Error::Unsupported(_)
                | Error::Io { .. }
                | Error::Parse { .. }
                | Error::Panic(_)
                | Error::InvalidMemSpace(_)
                | Error::Callback(_)
                | Error::Busy(_) => {}
            }
        }
        all
    }

    #[test]
    fn every_error_code_is_a_distinct_enum_value() {
        let mut seen = HashSet::new();
        for e in every_error() {
            let c = MetaoptErrorCode::from_code(e.code()).unwrap_or_else(|| panic!("{e:?}: code {} not in the enum", e.code()));
            assert_eq!(c as i32, e.code());
            assert!(c != MetaoptErrorCode::MetaoptOk && c != MetaoptErrorCode::MetaoptErrStdException, "{e:?}");
            assert!(seen.insert(c), "{e:?} shares code {}", e.code());
        }
        assert_eq!(seen.len(), 14);
        for code in 0..=15 {
            assert_eq!(MetaoptErrorCode::from_code(code).map(|c| c as i32), Some(code));
        }
        assert_eq!(MetaoptErrorCode::from_code(16), None);
    }

    #[test]
    fn boundary_turns_panics_and_errors_into_codes() {
        let r: Int32Result = boundary(|| panic!("boom"));
        assert_eq!(r.error_code, MetaoptErrorCode::MetaoptErrPanic as i32);
        let msg = unsafe { CStr::from_ptr(r.error_message) }.to_str().unwrap().to_string();
        assert!(msg.contains("boom"), "{msg}");
        free_c(r.error_message);
        let r: Int32Result = ffi_boundary!({ Err(Error::NullPointer("q"))? });
        assert_eq!(r.error_code, 3);
        free_c(r.error_message);
        let r: Int32Result = ffi_boundary!({ Int32Result::ok(7) });
        assert_eq!((r.result, r.error_code, r.error_message.is_null()), (7, 0, true));
    }

    #[test]
    fn a_handle_serves_one_call_at_a_time_and_a_free_meanwhile_waits() {
        static R: Registry<Vec<u8>> = Registry::new(0x7e57, "TestInstance", "the test");
        let h: *mut u8 = R.insert(vec![1, 2, 3]);
        let mut first = unsafe { R.get(h, "h") }.expect("live");
        first.push(4);
        let e = unsafe { R.get(h, "h") }.err().expect("busy");
        assert_eq!(e.code(), 15);
        assert!(e.to_string().contains("`h`") && e.to_string().contains("TestInstance"), "{e}");
        // a free during the call is deferred to its end
        unsafe { R.free(h) };
        assert_eq!(*first, [1, 2, 3, 4]);
        drop(first);
        let e = unsafe { R.get(h, "h") }.err().expect("freed");
        assert_eq!(e.code(), 2, "{e}");
        // and a handle not freed is usable again once the call ends
        let h2: *mut u8 = R.insert(vec![9]);
        drop(unsafe { R.get(h2, "h") }.expect("live"));
        assert_eq!(*unsafe { R.get(h2, "h") }.expect("no longer busy"), [9]);
        unsafe { R.free(h2) };
    }

    #[test]
    fn c_string_replaces_interior_nul() {
        let p = c_string("a\0b");
        assert_eq!(unsafe { CStr::from_ptr(p) }.to_bytes(), b"a?b");
        free_c(p);
    }
}
