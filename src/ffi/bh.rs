//! Basin hopping over the C ABI: chains over a box made once (`metaopt_bh_create`), started from
//! a point (`metaopt_bh_start`), solved under the run contract's stops (`metaopt_bh_solve`), saved
//! and continued (`metaopt_bh_save_state`, `metaopt_bh_load_state`) (docs/specs/API.md,
//! docs/specs/DE.md, "Basin hopping").

use super::handle::{self, opaque_handle};
use super::interrupt::{c_stop, stop_status, MetaoptStopToken};
use super::state::{load_state_call, save_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, func_data_arg, objective_arg, owned_result, plain_result,
    CArray, MetaoptInt32Result, MetaoptObjective, MetaoptStringResult,
};
use crate::bh::{BasinHopping, BhParams, BhRun, Polish};
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::objective::Objective;
use crate::precision::Precision;
use crate::run::{Stop, StopReason};
use std::ffi::{c_char, c_void};
use std::ptr;

/// Chains of basin hopping over a box, with their objective and device buffers. Opaque: made by
/// `metaopt_bh_create`, released by `metaopt_bh_free`. A handle may be used by one thread at a
/// time.
pub struct MetaoptBhInstance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptBhInstance => Handle, b"metaBH01", "metaopt_bh_create");

/// Options of `metaopt_bh_create`; start from `metaopt_bh_default_options()` and change fields.
/// They are fixed for the instance (a saved state is checked against them).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptBhOptions {
    /// Chains side by side, each with its own random numbers (default 4096).
    pub chains: u32,
    /// The smallest and largest hop, fractions of each dimension's width (defaults 1e-6 and
    /// 0.015): `hop_scales` values spaced evenly in log between them (default 16), one drawn
    /// per hop.
    pub hop_min: f64,
    pub hop_max: f64,
    pub hop_scales: u32,
    /// The local search's first step and the step at which it ends, fractions of the widths
    /// (defaults 0.0015 and 5e-17).
    pub step0: f64,
    pub step_stop: f64,
    /// The local search also ends after this many steps (default 20000).
    pub max_search: u32,
    /// Seed of the chains' random numbers (default 1).
    pub seed: u64,
    /// A `MetaoptPrecision`: 0 auto (the default: double where the device has `cl_khr_fp64`,
    /// and on the CPU backend; else single), 1 single (a device only), 2 double.
    pub precision: i32,
    /// A `MetaoptBackend`: 0 the OpenCL device, 1 the rayon CPU backend (catalogue functions
    /// and host callbacks; a source runs on a device, a host callback on the CPU backend).
    pub backend: i32,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use.
    pub device: i32,
    /// Steps between two shares of the lowest anchor, and the most steps of one launch
    /// (default 250).
    pub launch_steps: u32,
    /// Nonzero (the default): every `launch_steps` steps every chain's anchor moves to the
    /// lowest one; 0: the chains stay independent and a solve reports the lowest anchor.
    pub share: u8,
    /// Constraints (NULL: none), read by `metaopt_bh_create`: an OpenCL source objective's
    /// `constraints` counts on a device, or a host callback objective's `violation` on the CPU
    /// backend; compared by Deb's rules (`handling` 0). Its `violation` and `user_data` must
    /// stay valid until the instance is freed.
    pub constraints: *const super::de::MetaoptConstraints,
}

/// When `metaopt_bh_solve` stops (at least one of `steps`, `evaluations`, a target or a time
/// limit); `metaopt_bh_default_stop()` has none set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptBhStop {
    /// Steps of every chain since `metaopt_bh_start` (0: no limit).
    pub steps: u64,
    /// Objective evaluations, the starting point's included (0: no limit).
    pub evaluations: u64,
    /// Nonzero: stop once the best value is at most `target`.
    pub has_target: u8,
    pub target: f64,
    /// Seconds of the solve (0: no limit; a continued solve counts the saved one's seconds).
    pub time_limit: f64,
    /// NULL, or a token whose request stops the solve (as `metaopt_interrupt` does).
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a checkpoint file written (atomically) every `checkpoint_every_s` seconds and
    /// when the solve ends; 0 seconds: only at the end.
    pub checkpoint_path: *const c_char,
    pub checkpoint_every_s: f64,
}

/// `MetaoptBhCreateResult.instance` of a failed call is NULL; on success it is a new handle
/// owned by the caller, who releases it with `metaopt_bh_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptBhCreateResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptBhInstance,
}

/// The result of `metaopt_bh_solve`. `x` is owned by the caller: free it with
/// `metaopt_bh_free_solve_result`. On error `x` is NULL and the numbers 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptBhSolveResult {
    /// The best anchor's value and point (`dims` entries).
    pub value: f64,
    pub x: *mut f64,
    pub dims: u32,
    /// Steps of every chain since `metaopt_bh_start`, launches, evaluations (the starting
    /// point's included).
    pub steps: u64,
    pub launches: u64,
    pub evaluations: u64,
    /// Seconds since the start (of every solve continuing it), and until the best was found.
    pub seconds: f64,
    pub seconds_to_best: f64,
    /// A `MetaoptStopReason`: why the solve stopped.
    pub stop_reason: i32,
    /// The `MetaoptPrecision` used: 1 single or 2 double.
    pub precision: i32,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// With constraints the best anchor's violation (0: feasible; the best is then by Deb's
    /// rules); 0 without.
    pub violation: f64,
}

owned_result!(MetaoptBhCreateResult);
owned_result!(MetaoptBhSolveResult: frees x; zeroes dims);
plain_result!(MetaoptBhOptions, MetaoptBhStop);

pub(crate) struct Handle {
    solver: BasinHopping,
    run: BhRun,
    precision: Precision,
    what: String,
    backend: Backend,
    dims: usize,
}

/// The library's defaults (`BhParams::default()`, 250 steps a launch, shared anchors), auto
/// precision, the device backend, the device in use.
#[no_mangle]
pub extern "C" fn metaopt_bh_default_options() -> MetaoptBhOptions {
    ffi_boundary!({
        let p = BhParams::default();
        let r = BhRun::default();
        MetaoptBhOptions {
            chains: p.chains as u32,
            hop_min: p.hop_min,
            hop_max: p.hop_max,
            hop_scales: p.hop_scales as u32,
            step0: p.step0,
            step_stop: p.step_stop,
            max_search: p.max_search,
            seed: p.seed,
            precision: Precision::Auto.code(),
            backend: 0,
            device: -1,
            launch_steps: r.launch_steps,
            share: r.share as u8,
            constraints: ptr::null(),
        }
    })
}

/// No limits: set at least one field before `metaopt_bh_solve`.
#[no_mangle]
pub extern "C" fn metaopt_bh_default_stop() -> MetaoptBhStop {
    // SAFETY: a plain C struct of integers, floats and pointers: all zero (NULL pointers) is
    // valid, and it is the documented "no limit" of every field.
    ffi_boundary!({ unsafe { std::mem::zeroed::<MetaoptBhStop>() } })
}

/// Creates chains over the box `lo[j]`..`hi[j]` (`dims` finite intervals, lo < hi) of
/// `objective` (a catalogue function, an OpenCL source with `data_bytes` bytes of `data` as its
/// data buffer, or a host callback on the CPU backend, called on the solving thread with every
/// chain's trial point of a step in one call: `chains` rows).
/// `options` may be NULL for `metaopt_bh_default_options()`. A source is compiled now
/// (`METAOPT_ERR_KERNEL_BUILD` with the log). Nothing runs until `metaopt_bh_start`. Errors name
/// the argument (`lo`, `hi`, `dims`, `objective`, `options.<field>`).
///
/// # Safety
/// `objective` NULL or valid (its callback valid until the instance is freed); `lo` and `hi`
/// NULL or `dims` values; `data` NULL or `data_bytes` bytes; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_create(
    objective: *const MetaoptObjective,
    lo: *const f64,
    hi: *const f64,
    dims: u32,
    data: *const c_void,
    data_bytes: u64,
    options: *const MetaoptBhOptions,
) -> MetaoptBhCreateResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let (obj, what, lo, hi) =
            unsafe { objective_box(objective, lo, hi, dims, data, data_bytes)? };
        // SAFETY: NULL or valid by the caller's contract.
        let c = unsafe { options.as_ref() }
            .copied()
            .unwrap_or_else(|| metaopt_bh_default_options());
        let (backend, precision) = backend_precision(c.backend, c.device, c.precision)?;
        let params = BhParams {
            chains: c.chains as usize,
            hop_min: c.hop_min,
            hop_max: c.hop_max,
            hop_scales: c.hop_scales as usize,
            step0: c.step0,
            step_stop: c.step_stop,
            max_search: c.max_search,
            seed: c.seed,
            double: precision.is_double(),
        };
        params.check().map_err(options_field)?;
        if c.launch_steps == 0 {
            return Err(Error::arg("options.launch_steps", "0; at least 1"));
        }
        // SAFETY: NULL or valid by the caller's contract.
        let cons = unsafe { options_constraints(c.constraints)? };
        let solver =
            BasinHopping::with_constraints(&obj, cons.as_ref(), &lo, &hi, &params, backend)?;
        let instance = handle::insert(Handle {
            solver,
            run: BhRun {
                launch_steps: c.launch_steps,
                share: c.share != 0,
                stop: Stop::default(),
            },
            precision,
            what,
            backend,
            dims: dims as usize,
        });
        MetaoptBhCreateResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// The objective (with `data_bytes` bytes of `data` as a source's buffer), its description and
/// the box `lo`..`hi` of `dims` dimensions, as `metaopt_bh_create` and `metaopt_bh_polish` take
/// them; errors name `objective`, `data`, `dims`, `lo` or `hi`.
///
/// # Safety
/// `objective` NULL or valid; `lo` and `hi` NULL or `dims` values; `data` NULL or `data_bytes`
/// bytes.
unsafe fn objective_box(
    objective: *const MetaoptObjective,
    lo: *const f64,
    hi: *const f64,
    dims: u32,
    data: *const c_void,
    data_bytes: u64,
) -> Result<(Objective, String, Vec<f64>, Vec<f64>)> {
    // SAFETY: NULL or valid by the caller's contract.
    let o = unsafe { objective.as_ref() }.ok_or(Error::NullPointer("objective"))?;
    // SAFETY: the caller's contract for the strings and the callback.
    let (mut obj, what) = unsafe { objective_arg(o)? };
    // SAFETY: the caller's contract.
    let buffer = unsafe { func_data_arg(data, data_bytes)? };
    match &mut obj {
        Objective::Source { data, .. } => *data = buffer,
        _ if !buffer.is_empty() => {
            return Err(Error::arg(
                "data",
                "a data buffer is for an OpenCL source objective only",
            ))
        }
        _ => {}
    }
    if dims == 0 {
        return Err(Error::arg("dims", "0; expected at least 1"));
    }
    // SAFETY: the caller's contract: `dims` values each.
    let lo = unsafe { copy_in::<f64>(lo.cast(), dims as usize, "lo")? };
    // SAFETY: as above.
    let hi = unsafe { copy_in::<f64>(hi.cast(), dims as usize, "hi")? };
    Ok((obj, what, lo, hi))
}

/// The backend and the precision of `options.backend`, `options.device` and
/// `options.precision` (auto: double on the CPU backend and where the device has
/// `cl_khr_fp64`).
fn backend_precision(backend: i32, device: i32, precision: i32) -> Result<(Backend, Precision)> {
    let backend = super::device::backend_on(backend, device, "options.backend", "options.device")?;
    let asked = Precision::from_code(precision, "options.precision")?;
    let precision = match backend {
        Backend::Cpu if asked == Precision::Single => {
            return Err(Error::arg(
                "options.precision",
                "single on the CPU backend; it computes in double (auto or double)",
            ))
        }
        Backend::Cpu => Precision::Double,
        Backend::Device(_) => asked.resolve(false, backend.context("basin hopping")?.info.fp64),
    };
    Ok((backend, precision))
}

/// The constraints of `options.constraints` (NULL: none).
///
/// # Safety
/// `c` NULL or valid, its callback and user data valid for the call.
unsafe fn options_constraints(
    c: *const super::de::MetaoptConstraints,
) -> Result<Option<crate::de::constraints::Constraints>> {
    // SAFETY: NULL or valid by the caller's contract.
    match unsafe { c.as_ref() } {
        None => Ok(None),
        Some(k) => Ok(Some(super::de::constraints_arg(k).map_err(
            |e| match e {
                Error::InvalidArgument {
                    arg: "constraints.handling",
                    msg,
                } => Error::arg("options.constraints.handling", msg),
                e => e,
            },
        )?)),
    }
}

/// A parameter's error under its C name (`options.<field>`).
fn options_field(e: Error) -> Error {
    match e {
        Error::InvalidArgument { arg, msg } => Error::InvalidArgument {
            arg: match arg {
                "chains" => "options.chains",
                "hop_min" => "options.hop_min",
                "hop_scales" => "options.hop_scales",
                "step_stop" => "options.step_stop",
                "max_search" => "options.max_search",
                a => a,
            },
            msg,
        },
        e => e,
    }
}

/// Every chain starts anew from `x` (`dims` values inside the box), evaluated here: the next
/// `metaopt_bh_solve` counts its steps, time and best from this point. The result is 0.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `x` NULL or `dims` values.
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_start(
    h: *mut MetaoptBhInstance,
    x: *const f64,
    dims: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        if dims as usize != h.dims {
            return Err(Error::arg(
                "dims",
                format!("{dims}; the instance has {} dimensions", h.dims),
            ));
        }
        // SAFETY: the caller's contract: `dims` values.
        let x = unsafe { copy_in::<f64>(x.cast(), h.dims, "x")? };
        h.solver.start(&x, None)?;
        MetaoptInt32Result::ok(0)
    })
}

/// Runs the chains from where `metaopt_bh_start`, `metaopt_bh_load_state` or the last solve left
/// them until a condition of `stop` holds (borrowed for the call); launches are sized to the
/// time left, and `metaopt_interrupt` or the stop token ends the solve within one launch with
/// `METAOPT_INTERRUPTED` and the best so far. Free the result with
/// `metaopt_bh_free_solve_result`. A failing host callback ends the call with
/// `METAOPT_ERR_CALLBACK`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `stop` NULL or valid, its `stop_token` NULL
/// or a token, its `checkpoint_path` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_solve(
    h: *mut MetaoptBhInstance,
    stop: *const MetaoptBhStop,
) -> MetaoptBhSolveResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let s = unsafe { stop.as_ref() }.ok_or(Error::NullPointer("stop"))?;
        let run = BhRun {
            stop: c_stop!(s, steps),
            ..h.run.clone()
        };
        let r = h.solver.solve(&run).map_err(|e| match e {
            Error::InvalidArgument { arg: "steps", msg } => Error::arg("stop.steps", msg),
            Error::InvalidArgument { arg: "target", msg } => Error::arg("stop.target", msg),
            Error::InvalidArgument {
                arg: "evaluations",
                msg,
            } => Error::arg("stop.evaluations", msg),
            Error::InvalidArgument { arg: "start", msg } => Error::arg("h", msg),
            e => e,
        })?;
        let x = CArray::from_slice(&r.x)?;
        let (error_code, error_message) =
            stop_status(r.stop == StopReason::Interrupted, "metaopt_bh_solve");
        MetaoptBhSolveResult {
            value: r.value,
            dims: r.x.len() as u32,
            x: x.into_raw(),
            steps: r.steps,
            launches: r.launches,
            evaluations: r.evaluations,
            seconds: r.seconds,
            seconds_to_best: r.seconds_to_best,
            stop_reason: r.stop.code(),
            precision: h.precision.code(),
            error_code,
            error_message,
            violation: r.violation,
        }
    })
}

/// Frees the point and the message of a `MetaoptBhSolveResult` and sets them to NULL (a second
/// call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_bh_solve` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_free_solve_result(r: *mut MetaoptBhSolveResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The whole state (every chain's anchor, search point, step and search length, the step and
/// evaluation counters, the solve's best, steps, launches and seconds) as checkpoint bytes, the
/// caller's to free with `metaopt_bytes_free_result`. Needs `metaopt_bh_start` (or a loaded
/// state).
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_save_state(h: *mut MetaoptBhInstance) -> MetaoptBytesResult {
    // SAFETY: the caller's contract.
    unsafe {
        save_state_call(h, "h", |h| {
            let run = h.run.clone();
            h.solver.save_state(&run)
        })
    }
}

/// Continues from the state `data` holds (`length` bytes of `metaopt_bh_save_state` or of a
/// checkpoint file): on an instance created with the saved one's objective, box and options,
/// the chains, counters and the solve's course become the saved ones, and the next
/// `metaopt_bh_solve` continues the saved solve as if it had never stopped (the device and the
/// CPU backend take the same steps in double). Refused (naming `state`, saying what differs):
/// another library version, objective, box or option, a corrupt or truncated state. `result` is
/// 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_load_state(
    h: *mut MetaoptBhInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(h, "h", data, length, |h, bytes| {
            let run = h.run.clone();
            h.solver.load_state(&bytes, &run)
        })
    }
}

/// A description of the instance: dimensions, chains, objective, precision, backend, steps and
/// evaluations so far. Free the text with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_info(h: *const MetaoptBhInstance) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        let s = format!(
            "basin hopping: {} dimensions, {} chains\nobjective: {}\nprecision: {}\n\
             backend: {}\nlaunch steps: {}, {}\nsteps: {}, evaluations: {}\n",
            h.dims,
            h.solver.chains(),
            h.what,
            h.precision.name(),
            h.backend.describe(),
            h.run.launch_steps,
            if h.run.share {
                "shared anchors"
            } else {
                "independent chains"
            },
            h.solver.steps(),
            h.solver.evaluations(),
        );
        MetaoptStringResult::ok(&s)?
    })
}

/// Releases an instance and its device buffers; NULL and already freed handles are ignored.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_free(h: *mut MetaoptBhInstance) {
    // SAFETY: the caller's contract; unregistered pointers are ignored.
    ffi_boundary!({ unsafe { handle::free(h) } })
}

/// The settings of `metaopt_bh_polish` (`bh::Polish`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptPolishOptions {
    /// Chains searching side by side from the point, each with its own random numbers
    /// (default 8).
    pub chains: u32,
    /// Steps of every chain's search (default 1000 + 200 dims, at most 100000): the polish
    /// evaluates `chains (steps + 2) + 1` points.
    pub steps: u32,
    /// Seed of the chains' random numbers (default 1).
    pub seed: u64,
    /// A `MetaoptPrecision`, a `MetaoptBackend` and a device number (or -1), as in
    /// `MetaoptBhOptions`.
    pub precision: i32,
    pub backend: i32,
    pub device: i32,
    /// Constraints (NULL: none), compared by Deb's rules, as `MetaoptBhOptions.constraints`
    /// (the repair's fields are not used).
    pub constraints: *const super::de::MetaoptConstraints,
    /// Seconds of the polish (0: no limit).
    pub time_limit: f64,
    /// NULL, or a token whose request stops the polish (as `metaopt_interrupt` does).
    pub stop_token: *const MetaoptStopToken,
}

/// The result of `metaopt_bh_polish`. `x` is owned by the caller: free it with
/// `metaopt_bh_free_polish_result`. On error `x` is NULL and the numbers 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptPolishResult {
    /// The best point (`dims` entries; the given one when nothing better was found), its value
    /// and violation (0 without constraints).
    pub value: f64,
    pub x: *mut f64,
    pub dims: u32,
    pub violation: f64,
    /// The given point's value and violation, as the polish evaluated them.
    pub start_value: f64,
    pub start_violation: f64,
    /// 1 when the result is better than the given point by Deb's rules, else 0.
    pub improved: u8,
    pub evaluations: u64,
    pub seconds: f64,
    /// A `MetaoptStopReason`: budget (the steps spent), time_limit or interrupted.
    pub stop_reason: i32,
    /// The `MetaoptPrecision` used.
    pub precision: i32,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the given point or a better one)
    /// or another `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptPolishResult: frees x; zeroes dims);
plain_result!(MetaoptPolishOptions);

/// The library's polish settings for `dims` dimensions (`bh::Polish::for_dims`), auto
/// precision, the device backend, the device in use, no constraints, no limit.
#[no_mangle]
pub extern "C" fn metaopt_bh_default_polish_options(dims: u32) -> MetaoptPolishOptions {
    ffi_boundary!({
        let p = Polish::for_dims(dims as usize);
        MetaoptPolishOptions {
            chains: p.chains as u32,
            steps: p.steps,
            seed: p.seed,
            precision: Precision::Auto.code(),
            backend: 0,
            device: -1,
            constraints: ptr::null(),
            time_limit: 0.0,
            stop_token: ptr::null(),
        }
    })
}

/// Polishes `x` (`dims` values inside the box `lo[j]`..`hi[j]`) of `objective` (as
/// `metaopt_bh_create` takes it, with `data_bytes` bytes of `data` for a source): basin
/// hopping's (1+1)-ES from the point, kept only when better by Deb's rules (`bh::polish`).
/// `options` may be NULL for `metaopt_bh_default_polish_options(dims)`. A time limit or an
/// interrupt before the searches end returns `METAOPT_INTERRUPTED` (an interrupt) or
/// `METAOPT_OK` (the limit) with the given point. Errors name the argument (`objective`, `lo`,
/// `hi`, `dims`, `x`, `data`, `options.<field>`). Free the result with
/// `metaopt_bh_free_polish_result`.
///
/// # Safety
/// `objective` NULL or valid (its callback valid for the call); `lo`, `hi` and `x` NULL or
/// `dims` values; `data` NULL or `data_bytes` bytes; `options` NULL or valid, its
/// `constraints` and `stop_token` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_polish(
    objective: *const MetaoptObjective,
    lo: *const f64,
    hi: *const f64,
    dims: u32,
    data: *const c_void,
    data_bytes: u64,
    x: *const f64,
    options: *const MetaoptPolishOptions,
) -> MetaoptPolishResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let (obj, _, lo, hi) = unsafe { objective_box(objective, lo, hi, dims, data, data_bytes)? };
        // SAFETY: as above.
        let x = unsafe { copy_in::<f64>(x.cast(), dims as usize, "x")? };
        // SAFETY: NULL or valid by the caller's contract.
        let c = unsafe { options.as_ref() }
            .copied()
            .unwrap_or_else(|| metaopt_bh_default_polish_options(dims));
        let (backend, precision) = backend_precision(c.backend, c.device, c.precision)?;
        // SAFETY: the caller's contract.
        let cons = unsafe { options_constraints(c.constraints)? };
        let stop = Stop {
            time_limit: crate::interrupt::time_limit_from_secs(c.time_limit, "options.time_limit")?,
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { super::interrupt::token_arg(c.stop_token, "options.stop_token")? },
            ..Stop::default()
        };
        let p = Polish {
            chains: c.chains as usize,
            steps: c.steps,
            seed: c.seed,
            double: precision.is_double(),
        };
        let r = crate::bh::polish(&obj, cons.as_ref(), (&lo, &hi), &x, &p, backend, &stop)
            .map_err(|e| match e {
                Error::InvalidArgument {
                    arg: "polish.chains",
                    msg,
                } => Error::arg("options.chains", msg),
                Error::InvalidArgument {
                    arg: "polish.steps",
                    msg,
                } => Error::arg("options.steps", msg),
                e => options_field(e),
            })?;
        let out = CArray::from_slice(&r.x)?;
        let (error_code, error_message) =
            stop_status(r.stopped_by == StopReason::Interrupted, "metaopt_bh_polish");
        MetaoptPolishResult {
            value: r.value,
            dims: r.x.len() as u32,
            x: out.into_raw(),
            violation: r.violation,
            start_value: r.start_value,
            start_violation: r.start_violation,
            improved: u8::from(r.improved),
            evaluations: r.evaluations,
            seconds: r.seconds,
            stop_reason: r.stopped_by.code(),
            precision: precision.code(),
            error_code,
            error_message,
        }
    })
}

/// Frees the point and the message of a `MetaoptPolishResult` and sets them to NULL (a second
/// call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_bh_polish` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_bh_free_polish_result(r: *mut MetaoptPolishResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}
