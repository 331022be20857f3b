//! Cancellation in the C ABI (`src/interrupt.rs`): `metaopt_interrupt` stops every call running
//! now; a `MetaoptStopToken` stops the calls whose options carry it. An interrupted call fills its
//! result (or keeps its handle's state) with the best so far and reports `METAOPT_INTERRUPTED`.

use super::ffi_boundary;
use super::handle::{self, opaque_handle};
use super::result::{c_string, free_c, CResult, MetaoptInt32Result};
use crate::error::{Error, Result};
use crate::interrupt::StopToken;
use std::ffi::c_char;
use std::ptr;

/// A per-call stop request (opaque): made by `metaopt_stop_token_create`, set from any thread by
/// `metaopt_stop_token_request`, passed to a call in its options' `stop_token` field, released
/// by `metaopt_stop_token_free`.
pub struct MetaoptStopToken {
    _opaque: [u8; 0],
}

opaque_handle!(MetaoptStopToken => StopToken, b"metaSTOP", "metaopt_stop_token_create");

/// Why a run stopped: `stop_reason` of every result (its numbers are `StopReason::code`'s
/// table). DE's `stopped_by` and batched DE's `stop_reason` array keep their older numbers
/// (`MetaoptDeStopReason`, `MetaoptBatchDeStopReason`) for one release.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptStopReason {
    /// The target was reached (for SAT: a model).
    MetaoptStopTarget = 1,
    /// The time limit passed.
    MetaoptStopTimeLimit = 2,
    /// The solver's own budget (runs, iterations, generations, flips, rounds) was spent; the
    /// outputs call it "budget".
    MetaoptStopLimit = 3,
    /// `metaopt_interrupt` or the call's stop token.
    MetaoptStopInterrupted = 4,
    /// The evaluation budget was spent.
    MetaoptStopEvaluations = 5,
    /// No improvement for the allowed number of steps.
    MetaoptStopStagnation = 6,
    /// The solver's convergence test held.
    MetaoptStopConverged = 7,
    /// An exact algorithm finished.
    MetaoptStopDone = 8,
}

#[cfg(test)]
mod stop_codes {
    use super::MetaoptStopReason as C;
    use crate::run::StopReason as R;

    #[test]
    fn the_c_enum_is_the_table() {
        for (r, c) in [
            (R::Target, C::MetaoptStopTarget),
            (R::TimeLimit, C::MetaoptStopTimeLimit),
            (R::Budget, C::MetaoptStopLimit),
            (R::Interrupted, C::MetaoptStopInterrupted),
            (R::Evaluations, C::MetaoptStopEvaluations),
            (R::Stagnation, C::MetaoptStopStagnation),
            (R::Converged, C::MetaoptStopConverged),
            (R::Done, C::MetaoptStopDone),
        ] {
            assert_eq!(r.code(), c as i32, "{r}");
            let w = super::metaopt_stop_reason_word(c as i32);
            // SAFETY: a non-null result is a static NUL-terminated string
            assert_eq!(
                unsafe { std::ffi::CStr::from_ptr(w) }.to_str(),
                Ok(r.word())
            );
        }
        assert!(super::metaopt_stop_reason_word(0).is_null());
        assert!(super::metaopt_stop_reason_word(9).is_null());
    }
}

/// The word every output uses for a `MetaoptStopReason` number ("budget", "time_limit",
/// "target", "interrupted", "evaluations", "stagnation", "converged", "done"), or NULL for a number
/// that names none. A static string: the caller must not free it.
#[no_mangle]
pub extern "C" fn metaopt_stop_reason_word(stop_reason: i32) -> *const c_char {
    crate::run::StopReason::from_code(stop_reason).map_or(ptr::null(), |r| r.c_word().as_ptr())
}

/// The precision of a solver with a float choice (DE, general HC12), resolved at creation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptPrecision {
    /// Double where the device has `cl_khr_fp64` (and on the CPU backend), else single: the
    /// default.
    MetaoptPrecisionAuto = 0,
    /// Single precision (float), asked for explicitly.
    MetaoptPrecisionSingle = 1,
    /// Double precision; `METAOPT_ERR_UNSUPPORTED` on a device without `cl_khr_fp64`.
    MetaoptPrecisionDouble = 2,
}

impl CResult for *mut MetaoptStopToken {
    fn from_error(_: i32, message: *mut c_char) -> Self {
        free_c(message);
        ptr::null_mut()
    }
}

/// Stops every call of the library running at this moment, in any thread: each returns within
/// about one kernel launch, generation or climb step with its best so far and
/// `METAOPT_INTERRUPTED`; calls started afterwards run normally. Async-signal-safe (one atomic
/// increment, no lock, no allocation): meant to be called from a SIGINT handler.
#[no_mangle]
pub extern "C" fn metaopt_interrupt() {
    // no panic boundary: the body cannot panic, and nothing here may allocate in a signal handler
    crate::interrupt::interrupt();
}

/// A new stop token (not requested), or NULL should the library fail. Pass it in the
/// `stop_token` field of a call's options; release it with `metaopt_stop_token_free`.
#[no_mangle]
pub extern "C" fn metaopt_stop_token_create() -> *mut MetaoptStopToken {
    ffi_boundary!({ handle::insert::<MetaoptStopToken>(StopToken::new()) })
}

/// Asks the calls that carry `token` to stop (those running, and later ones until
/// `metaopt_stop_token_reset`). May be called from any thread while the call runs (not from a
/// signal handler: use `metaopt_interrupt` there). The result is 0.
///
/// # Safety
/// `token` must be NULL or a token of `metaopt_stop_token_create` (freed ones are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_stop_token_request(
    token: *mut MetaoptStopToken,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let t = unsafe { token_arg(token, "token")? }.ok_or(Error::NullPointer("token"))?;
        t.request();
        MetaoptInt32Result::ok(0)
    })
}

/// Clears the request of `token`, so it can serve another call. The result is 0.
///
/// # Safety
/// As `metaopt_stop_token_request`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_stop_token_reset(
    token: *mut MetaoptStopToken,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let t = unsafe { token_arg(token, "token")? }.ok_or(Error::NullPointer("token"))?;
        t.reset();
        MetaoptInt32Result::ok(0)
    })
}

/// 1 when `token` has been requested, else 0 (also for an invalid token).
///
/// # Safety
/// As `metaopt_stop_token_request`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_stop_token_is_requested(token: *const MetaoptStopToken) -> u8 {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        unsafe { token_arg(token, "token")? }.is_some_and(|t| t.is_requested()) as u8
    })
}

/// Releases a stop token; calls running with it keep their own reference. NULL is a no-op.
///
/// # Safety
/// `token` must be NULL or a token of `metaopt_stop_token_create` (freed ones are ignored).
#[no_mangle]
pub unsafe extern "C" fn metaopt_stop_token_free(token: *mut MetaoptStopToken) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { handle::free(token) } })
}

/// The token behind `p` (None for NULL). A token is held only for the instant of a clone, so a
/// busy one is waited for rather than reported: a request from another thread must not fail
/// because a call is reading the token at that moment.
///
/// # Safety
/// `p` must be NULL or a handle of `metaopt_stop_token_create` (unregistered ones are errors).
pub(crate) unsafe fn token_arg(
    p: *const MetaoptStopToken,
    arg: &'static str,
) -> Result<Option<StopToken>> {
    if p.is_null() {
        return Ok(None);
    }
    loop {
        // SAFETY: the caller's contract.
        match unsafe { handle::get(p, arg) } {
            Ok(t) => return Ok(Some((*t).clone())),
            Err(Error::Busy(_)) => std::thread::yield_now(),
            Err(e) => return Err(e),
        }
    }
}

/// The error code and message of a result whose call stopped for `stop`: `METAOPT_INTERRUPTED`
/// with a message for an interrupted call (its result is filled all the same), else success.
pub(crate) fn stop_status(interrupted: bool, what: &str) -> (i32, *mut c_char) {
    if interrupted {
        let e = Error::Interrupted(format!(
            "{what} stopped by metaopt_interrupt or its stop token; the result is the best so far"
        ));
        (e.code(), c_string(&e.to_string()))
    } else {
        (0, ptr::null_mut())
    }
}

/// The library's [`crate::run::Stop`] of a C stop struct `$s` whose budget field is `$budget` (a
/// count, 0: none) and whose other fields are the ones every C stop struct has: `evaluations`,
/// `has_target`, `target`, `time_limit`, `stop_token`, `checkpoint_path`, `checkpoint_every_s`.
/// A struct with no stop condition is refused naming `stop`: a stop token alone does not end a
/// call of the C ABI (the front ends pass one to every call, for Ctrl-C), so such a call would
/// run until interrupted. Used inside an `ffi_boundary!` body (it returns the error); the caller
/// answers for the pointers of `$s` (NULL or a token, NULL or a string).
macro_rules! c_stop {
    ($s:expr, $budget:ident) => {{
        let s = $s;
        let time_limit = $crate::interrupt::time_limit_from_secs(s.time_limit, "stop.time_limit")?;
        if s.$budget == 0 && s.evaluations == 0 && s.has_target == 0 && time_limit.is_none() {
            return Err($crate::error::Error::arg(
                "stop",
                concat!(
                    "no stop condition; give ",
                    stringify!($budget),
                    ", evaluations, a target or a time limit"
                ),
            ));
        }
        $crate::run::Stop {
            budget: (s.$budget > 0).then_some(s.$budget),
            evaluations: (s.evaluations > 0).then_some(s.evaluations),
            target: (s.has_target != 0).then_some(s.target),
            time_limit,
            record_every: 0,
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { $crate::ffi::interrupt::token_arg(s.stop_token, "stop.stop_token")? },
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe {
                $crate::ffi::state::checkpoint_plan(s.checkpoint_path, s.checkpoint_every_s)?
            },
        }
    }};
}
pub(crate) use c_stop;
