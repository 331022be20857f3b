//! Helpers of the tests that call the C ABI directly: error codes, messages (read and freed with
//! `metaopt_pointer_free`) and the lock that keeps handle addresses from being reused.

use metaopt::ffi::*;
use std::ffi::{c_char, CStr};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Tests share the process: one that frees a handle and then uses its address takes this lock
/// exclusively, so that no other test's new handle can reuse that address meanwhile.
static HANDLES: RwLock<()> = RwLock::new(());

pub fn shared() -> RwLockReadGuard<'static, ()> {
    HANDLES.read().unwrap_or_else(|e| e.into_inner())
}

pub fn exclusive() -> RwLockWriteGuard<'static, ()> {
    HANDLES.write().unwrap_or_else(|e| e.into_inner())
}

pub const OK: i32 = MetaoptErrorCode::MetaoptOk as i32;
pub const INVALID: i32 = MetaoptErrorCode::MetaoptErrInvalidArgument as i32;
pub const NULL: i32 = MetaoptErrorCode::MetaoptErrNullPointer as i32;
pub const UNSUPPORTED_TYPE: i32 = MetaoptErrorCode::MetaoptErrUnsupportedType as i32;
pub const KERNEL_BUILD: i32 = MetaoptErrorCode::MetaoptErrKernelBuild as i32;
pub const CALLBACK: i32 = MetaoptErrorCode::MetaoptErrCallback as i32;
pub const BUSY: i32 = MetaoptErrorCode::MetaoptErrBusy as i32;

/// Takes a returned message: reads it and frees it with `metaopt_pointer_free`.
pub fn take_message(p: *mut c_char) -> String {
    assert!(!p.is_null(), "an error must carry a message");
    let s = unsafe { CStr::from_ptr(p) }
        .to_str()
        .expect("messages are UTF-8")
        .to_string();
    unsafe { metaopt_pointer_free(p.cast()) };
    s
}

/// Checks an error's code and that its message mentions `needle`; frees the message.
pub fn expect_error(code: i32, message: *mut c_char, want: i32, needle: &str) {
    let m = take_message(message);
    assert_eq!(code, want, "message: {m}");
    assert!(m.contains(needle), "`{m}` should mention `{needle}`");
}

/// The result of a call that must succeed.
pub fn expect_ok(r: MetaoptInt32Result) -> i32 {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null());
    r.result
}
