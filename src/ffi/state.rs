//! Checkpoints over the C ABI (`crate::run::checkpoint`, docs/specs/RUN.md): the bytes a
//! `metaopt_<solver>_save_state` returns ([`MetaoptBytesResult`]), a description of any state
//! ([`metaopt_state_describe`]), and the checkpoint plan of a solver's options
//! ([`checkpoint_plan`]). Each solver's `metaopt_<solver>_load_state` takes the bytes back.

use super::boundary::{copy_in, str_arg};
use super::handle::{self, OpaqueHandle};
use super::{
    ffi_boundary, free_result, owned_result, CArray, MetaoptInt32Result, MetaoptStringResult,
};
use crate::error::{Error, Result};
use crate::run::checkpoint::{self, Checkpointing};
use std::ffi::c_char;
use std::path::PathBuf;
use std::ptr;
use std::time::Duration;

/// Bytes owned by the caller (a run's state): free them with `metaopt_bytes_free_result`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptBytesResult {
    /// NULL on error.
    pub data: *mut u8,
    pub length: usize,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

impl MetaoptBytesResult {
    /// A success carrying a C copy of `v`.
    pub(crate) fn ok(v: &[u8]) -> Result<Self> {
        Ok(MetaoptBytesResult {
            data: CArray::from_slice(v)?.into_raw(),
            length: v.len(),
            error_code: 0,
            error_message: ptr::null_mut(),
        })
    }
}

owned_result!(MetaoptBytesResult: frees data; zeroes length);

/// Frees the data and the message of a `MetaoptBytesResult` and sets them to NULL and `length`
/// to 0. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of this library (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bytes_free_result(r: *mut MetaoptBytesResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// A copy of the caller's `length` bytes at `data` (a state to load); errors name `arg`.
///
/// # Safety
/// `data` must be NULL or hold `length` bytes.
pub(crate) unsafe fn state_arg(
    data: *const u8,
    length: usize,
    arg: &'static str,
) -> Result<Vec<u8>> {
    if length == 0 {
        return Err(Error::arg(arg, "0 bytes: not a checkpoint"));
    }
    // SAFETY: the caller's contract.
    unsafe { copy_in(data.cast(), length, arg) }
}

/// The body of a `metaopt_*_save_state` entry point: the state `save` gives of the object
/// behind handle `h` (named `h_arg` in errors), as bytes the caller frees with
/// `metaopt_bytes_free_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
pub(crate) unsafe fn save_state_call<H: OpaqueHandle>(
    h: *const H,
    h_arg: &'static str,
    save: impl FnOnce(&mut H::Target) -> Result<Vec<u8>>,
) -> MetaoptBytesResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, h_arg)? };
        let bytes = save(&mut h)?;
        MetaoptBytesResult::ok(&bytes)?
    })
}

/// The body of a `metaopt_*_load_state` entry point: `load` gives the object behind handle `h`
/// (named `h_arg` in errors) the state that `data` holds (`length` bytes, [`state_arg`]);
/// `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
pub(crate) unsafe fn load_state_call<H: OpaqueHandle>(
    h: *const H,
    h_arg: &'static str,
    data: *const u8,
    length: usize,
    load: impl FnOnce(&mut H::Target, Vec<u8>) -> Result<()>,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, h_arg)? };
        // SAFETY: the caller's contract.
        let bytes = unsafe { state_arg(data, length, "data")? };
        load(&mut h, bytes)?;
        MetaoptInt32Result::ok(0)
    })
}

/// What a state is of, as one line of JSON: the library version that wrote it, the solver, the
/// problem, the options that shape the run, the device count and the MPI rank (its frame and
/// checksum checked). The text is the caller's: free it with `metaopt_pointer_free`.
///
/// # Safety
/// `data` must be NULL or hold `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_state_describe(
    data: *const u8,
    length: usize,
) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let bytes = unsafe { state_arg(data, length, "data")? };
        let h = checkpoint::header(&bytes, "data")?;
        let text = serde_json::to_string(&h)
            .map_err(|e| Error::Unsupported(format!("cannot describe the state: {e}")))?;
        MetaoptStringResult::ok(&text)?
    })
}

/// The checkpoint plan of a solver's C options: `path` NULL is none; `every_s` 0 writes only
/// when the run ends, else every `every_s` seconds. Errors name the option fields.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
pub(crate) unsafe fn checkpoint_plan(
    path: *const c_char,
    every_s: f64,
) -> Result<Option<Checkpointing>> {
    if path.is_null() {
        if every_s != 0.0 {
            return Err(Error::arg(
                "checkpoint_every_s",
                "set without a checkpoint_path",
            ));
        }
        return Ok(None);
    }
    // SAFETY: the caller's contract.
    let p = unsafe { str_arg(path, "checkpoint_path")? };
    let every = if every_s == 0.0 {
        None
    } else if every_s.is_finite() && every_s > 0.0 && every_s < 1e9 {
        Some(Duration::from_secs_f64(every_s))
    } else {
        return Err(Error::arg(
            "checkpoint_every_s",
            format!("{every_s}; expected 0 (only at the end) or a positive number of seconds"),
        ));
    };
    let plan = Checkpointing::new(PathBuf::from(p), every);
    plan.check("checkpoint_path")?;
    Ok(Some(plan))
}
