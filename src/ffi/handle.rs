//! The one handle mechanism of the C ABI. Every opaque C type (`MetaoptQapInstance`,
//! `MetaoptHc12Instance`, `MetaoptDeInstance`, `MetaoptSatInstance`, `MetaoptKnapsack`, `MetaoptGraph`) is
//! declared with [`opaque_handle!`], which ties it to the Rust state behind it, a magic number and the names
//! used in messages; [`insert`], [`get`] and [`free`] then work for every kind alike.
//!
//! A handle is a boxed [`Tagged`] value (the magic number first) whose address is recorded in one
//! process-wide registry of live handles together with its kind. A pointer that is not recorded
//! is never dereferenced, so a freed or forged handle is an error rather than a crash, and so is
//! a live handle of another kind (its recorded kind differs); the magic number catches a recorded
//! object that was overwritten. Best effort: a freed address reused by a new handle of the same
//! kind is indistinguishable from it.
//!
//! A handle serves one call at a time: [`get`] marks it busy until its [`InUse`] guard drops, so
//! a call re-entered from the handle's own objective callback, or made by a second thread while
//! the first runs, is `METAOPT_ERR_BUSY` rather than a data race; a [`free`] meanwhile is
//! deferred to the end of the running call.

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::{Mutex, MutexGuard};

/// An opaque C handle type and the Rust state it stands for. Implemented by [`opaque_handle!`].
pub(crate) trait OpaqueHandle: Sized + 'static {
    /// What a handle of this type points to (behind the magic number).
    type Target;
    /// The first word of every live handle of this type; zeroed when it is freed.
    const MAGIC: u64;
    /// The C name of the type, for messages.
    const C_NAME: &'static str;
    /// The functions that make such handles, for messages.
    const MADE_BY: &'static str;
}

/// Declares an opaque C handle type: `opaque_handle!(CType => RustState, b"8 bytes", "maker")`
/// implements [`OpaqueHandle`] for `CType` (a `pub struct` with a zero-sized private field,
/// written out beside the macro call so that cbindgen declares it as an incomplete type).
macro_rules! opaque_handle {
    ($c:ident => $target:ty, $magic:literal, $made_by:literal) => {
        impl $crate::ffi::handle::OpaqueHandle for $c {
            type Target = $target;
            const MAGIC: u64 = u64::from_be_bytes(*$magic);
            const C_NAME: &'static str = stringify!($c);
            const MADE_BY: &'static str = $made_by;
        }
    };
}
pub(crate) use opaque_handle;

/// What a handle points to: the magic number first (`repr(C)`), then the object.
#[repr(C)]
struct Tagged<T> {
    magic: u64,
    value: T,
}

/// The registry's record of a live handle: its kind, whether a call is using it, and whether a
/// free came meanwhile.
#[derive(Clone, Copy)]
struct Entry {
    magic: u64,
    c_name: &'static str,
    busy: bool,
    free_pending: bool,
}

/// Every live handle of every kind, by address.
static LIVE: Mutex<BTreeMap<usize, Entry>> = Mutex::new(BTreeMap::new());

fn live() -> MutexGuard<'static, BTreeMap<usize, Entry>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Boxes `value` behind the magic number of `H` and registers it: a new handle owned by the
/// caller until [`free`].
pub(crate) fn insert<H: OpaqueHandle>(value: H::Target) -> *mut H {
    let p = Box::into_raw(Box::new(Tagged {
        magic: H::MAGIC,
        value,
    }));
    live().insert(
        p as usize,
        Entry {
            magic: H::MAGIC,
            c_name: H::C_NAME,
            busy: false,
            free_pending: false,
        },
    );
    p.cast()
}

/// The object behind a handle, held busy for the length of one call (see [`get`]).
pub(crate) struct InUse<H: OpaqueHandle> {
    tagged: *mut Tagged<H::Target>,
    _h: PhantomData<*mut H>,
}

impl<H: OpaqueHandle> std::ops::Deref for InUse<H> {
    type Target = H::Target;
    fn deref(&self) -> &H::Target {
        // SAFETY: the handle is live and marked busy while this guard exists, so no other call
        // frees or uses it.
        unsafe { &(*self.tagged).value }
    }
}

impl<H: OpaqueHandle> std::ops::DerefMut for InUse<H> {
    fn deref_mut(&mut self) -> &mut H::Target {
        // SAFETY: as in `deref`; the guard is the only access.
        unsafe { &mut (*self.tagged).value }
    }
}

impl<H: OpaqueHandle> Drop for InUse<H> {
    fn drop(&mut self) {
        let key = self.tagged as usize;
        let free = {
            let mut live = live();
            let free = live.get(&key).is_some_and(|e| e.free_pending);
            if free {
                live.remove(&key);
            } else if let Some(e) = live.get_mut(&key) {
                e.busy = false;
            }
            free
        };
        if free {
            // SAFETY: the address has just left the registry, so this is its only free.
            unsafe { drop_tagged::<H>(self.tagged) }
        }
    }
}

/// The object behind handle `h` (named `arg` in errors), checked: non-null, live, of kind `H`,
/// with its magic number, and not in use by a call still running (`METAOPT_ERR_BUSY`). It stays
/// marked busy until the guard drops.
///
/// # Safety
/// `h` must be NULL, a handle made by [`insert`], or a pointer that is not registered (it is then
/// never dereferenced).
pub(crate) unsafe fn get<H: OpaqueHandle>(h: *const H, arg: &'static str) -> Result<InUse<H>> {
    if h.is_null() {
        return Err(Error::NullPointer(arg));
    }
    let mut live = live();
    let Some(entry) = live.get_mut(&(h as usize)) else {
        return Err(Error::arg(
            arg,
            format!(
                "{h:p} is not a live {} (freed already, or not made by {})",
                H::C_NAME,
                H::MADE_BY
            ),
        ));
    };
    if entry.magic != H::MAGIC {
        return Err(Error::arg(
            arg,
            format!(
                "{h:p} is not a live {}: it is a {} (made by another family of functions)",
                H::C_NAME,
                entry.c_name
            ),
        ));
    }
    if entry.busy {
        return Err(Error::Busy(format!(
            "`{arg}` ({h:p}, a {}) is in use by a call still running: called again from its own objective \
             callback, or by a second thread at the same time",
            H::C_NAME
        )));
    }
    let tagged = h as *mut Tagged<H::Target>;
    // SAFETY: registered addresses of kind `H` come from Box::into_raw in `insert::<H>` and leave
    // the registry before being freed; the lock is held.
    if unsafe { (*tagged).magic } != H::MAGIC {
        return Err(Error::arg(
            arg,
            format!("{h:p} is a corrupted {} (bad magic number)", H::C_NAME),
        ));
    }
    entry.busy = true;
    Ok(InUse {
        tagged,
        _h: PhantomData,
    })
}

/// Unregisters and drops the object behind `h`; NULL, unregistered pointers (freed or forged)
/// and live handles of another kind are ignored. A handle in use by a running call is freed when
/// that call returns.
///
/// # Safety
/// `h` must be NULL, a handle made by [`insert`], or an unregistered pointer.
pub(crate) unsafe fn free<H: OpaqueHandle>(h: *mut H) {
    let key = h as usize;
    let free = {
        let mut live = live();
        match live.get_mut(&key) {
            Some(e) if e.magic != H::MAGIC => false,
            Some(e) if e.busy => {
                e.free_pending = true;
                false
            }
            Some(_) => live.remove(&key).is_some(),
            None => false,
        }
    };
    if free {
        // SAFETY: a live address of kind `H` comes from Box::into_raw in `insert::<H>`, and it has
        // just left the registry, so no other call frees it again.
        unsafe { drop_tagged::<H>(h.cast()) }
    }
}

/// # Safety
/// `p` comes from `insert::<H>` and has left the registry.
unsafe fn drop_tagged<H: OpaqueHandle>(p: *mut Tagged<H::Target>) {
    // SAFETY: the caller's contract.
    unsafe {
        (*p).magic = 0;
        drop(Box::from_raw(p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct TestInstance {
        _opaque: [u8; 0],
    }
    opaque_handle!(TestInstance => Vec<u8>, b"metaTST1", "the test");

    struct OtherInstance {
        _opaque: [u8; 0],
    }
    opaque_handle!(OtherInstance => u32, b"metaTST2", "the other test");

    #[test]
    fn a_handle_serves_one_call_at_a_time_and_a_free_meanwhile_waits() {
        let h: *mut TestInstance = insert(vec![1, 2, 3]);
        let mut first = unsafe { get(h, "h") }.expect("live");
        first.push(4);
        let e = unsafe { get(h, "h") }.err().expect("busy");
        assert_eq!(e.code(), 15);
        assert!(
            e.to_string().contains("`h`") && e.to_string().contains("TestInstance"),
            "{e}"
        );
        // a free during the call is deferred to its end
        unsafe { free(h) };
        assert_eq!(*first, [1, 2, 3, 4]);
        drop(first);
        let e = unsafe { get(h, "h") }.err().expect("freed");
        assert_eq!(e.code(), 2, "{e}");
        assert!(e.to_string().contains("not a live TestInstance"), "{e}");
        // and a handle not freed is usable again once the call ends
        let h2: *mut TestInstance = insert(vec![9]);
        drop(unsafe { get(h2, "h") }.expect("live"));
        assert_eq!(*unsafe { get(h2, "h") }.expect("no longer busy"), [9]);
        unsafe { free(h2) };
    }

    #[test]
    fn a_handle_of_another_kind_is_an_error_and_not_freed() {
        let h: *mut OtherInstance = insert(7u32);
        let e = unsafe { get(h.cast::<TestInstance>(), "h") }
            .err()
            .expect("wrong kind");
        assert_eq!(e.code(), 2, "{e}");
        assert!(
            e.to_string().contains("not a live TestInstance")
                && e.to_string().contains("OtherInstance"),
            "{e}"
        );
        unsafe { free(h.cast::<TestInstance>()) };
        assert_eq!(*unsafe { get(h, "h") }.expect("still live"), 7);
        unsafe { free(h) };
        assert!(unsafe { get(h, "h") }.is_err());
    }
}
