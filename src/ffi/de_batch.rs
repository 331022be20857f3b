//! Batched differential evolution over the C ABI (`crate::de::batch`): many
//! independent problems, each with its own catalogue function (or OpenCL source and data),
//! dimensions, bounds, members, F, CR, mutation, bound correction, seed, generation budget and
//! target, in one `BatchDe` on the device in use or the CPU backend. Create from an array of
//! problem specs, run (again to go on) under a time limit or a stop token, read the per-problem
//! results and best vectors, free.

use super::handle::{self, opaque_handle};
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::state::{checkpoint_plan, load_state_call, save_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, func_data_arg, owned_result, plain_result, str_arg, CArray,
    MetaoptInt32Result,
};
use crate::de::{
    Backend, BatchConstraints, BatchDe, BatchFunction, BatchOptions, BatchProblem, BatchResult,
    Placement,
};
use crate::error::{Error, Result};
use crate::precision::Precision;
use crate::run::{Stop, StopReason};
use std::ffi::{c_char, c_void};
use std::ptr;
use std::time::Instant;

/// A batch of DE problems with its populations and device buffers. Opaque: made by
/// `metaopt_batch_de_create`, released by `metaopt_batch_de_free`. A handle may be used by one
/// thread at a time.
pub struct MetaoptBatchDeInstance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptBatchDeInstance => Handle, b"metaBDE1", "metaopt_batch_de_create");

/// One problem of a batch; start from `metaopt_batch_de_default_problem()` and set at least
/// `function` (or `source`), `dims` and the bounds. The pointers are borrowed for the call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptBatchDeProblem {
    /// A catalogue function by name (`F1`, `CEC07t`, ...; `metaopt functions` lists them), or
    /// NULL when `source` is given.
    pub function: *const c_char,
    /// NULL, or OpenCL C defining `objective` as for the island DE's source objective
    /// (`FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)`);
    /// exactly one of `function` and `source` is set.
    pub source: *const c_char,
    /// The problem's own data bytes for `source` (its `data` argument); NULL when `data_bytes`
    /// is 0.
    pub data: *const c_void,
    pub data_bytes: u64,
    /// Dimensions (at least 1, and what the function allows).
    pub dims: u32,
    /// Lower bounds: `lower_length` values, 1 (every dimension) or `dims`.
    pub lower: *const f64,
    pub lower_length: u32,
    /// Upper bounds, alike; finite, and lower < upper in every dimension.
    pub upper: *const f64,
    pub upper_length: u32,
    /// Population size NP (at least 4, and at least what the mutation draws plus one).
    pub members: u32,
    /// F (finite, >= 0) and CR (in [0, 1]).
    pub f: f64,
    pub cr: f64,
    /// The mutation by name (`DE/rand/1`, `DE/rand/2`, `DE/best/1`, `DE/best/2`,
    /// `DE/current-to-rand/1`, `DE/current-to-best/1`); NULL = `DE/rand/1`.
    pub mutation: *const c_char,
    /// The bound correction by name (`sat`, `mir`, `tor`, `HVB`, `uni`, `COTN`); NULL = `sat`.
    pub bounds: *const c_char,
    /// The problem's seed: a problem's run depends on its spec only, not on the batch.
    pub seed: u64,
    /// Generations after the initial population (0: the initial population only).
    pub max_generations: u64,
    /// 1: the problem stops once its best value is at most `target`; 0: no target.
    pub has_target: u8,
    pub target: f64,
    /// A `MetaoptDeAlgorithm`: 0 the fixed DE (`f`, `cr`, `mutation`); 1 JADE, 2 SHADE,
    /// 3 L-SHADE, 4 jSO (their papers' settings; `f`, `cr` and `mutation` not used; L-SHADE and
    /// jSO shrink over `members` x (`max_generations` + 1) evaluations and stop when they are
    /// spent); 5 jDE100 (`members` = big + `jde_small`; `f`, `cr` and `mutation` not used; a
    /// generation is a cycle; the result the best ever). Another value is an error naming
    /// `algorithm`.
    pub algorithm: i32,
    /// jDE100's small population (at least 4, and at least 4 members left for the big one);
    /// ignored by the fixed DE.
    pub jde_small: u32,
    /// NULL (no integer variable), or `integrality_length` flags, 1 for an integer dimension
    /// and 0 for a continuous one (scipy's `integrality`): an integer dimension's bounds are
    /// rounded inward and its components rounded, so the best point is integral there.
    pub integrality: *const u8,
    /// 0 (none), or `dims`; another count is an error naming `integrality`.
    pub integrality_length: u32,
    /// NULL (unconstrained), or the counts and tolerance of the constraints the problem's
    /// `source` computes with its `constraints` function, compared by Deb's feasibility rules
    /// (`handling` 0; the epsilon level and a `violation` callback are refused, naming
    /// `constraints`); the fixed DE only (`algorithm` 0).
    pub constraints: *const super::de::MetaoptConstraints,
}

/// Options of `metaopt_batch_de_create`; start from `metaopt_batch_de_default_options()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptBatchDeOptions {
    /// A `MetaoptBackend`: 0 the OpenCL device in use, 1 the rayon CPU backend.
    pub backend: i32,
    /// A `MetaoptPrecision`: 0 auto (double on the CPU backend and on a device with
    /// `cl_khr_fp64`), 1 single, 2 double.
    pub precision: i32,
    /// Generations per kernel launch (at least 1; fewer under a time limit). Default 100.
    pub generations_per_launch: u32,
    /// A `MetaoptBatchDePlacement`: where the device keeps the populations.
    pub placement: i32,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. Ignored by the CPU backend; below -1 or not in the device list is an error naming
    /// `options.device`.
    pub device: i32,
}

/// Where the device keeps the populations during a launch (`MetaoptBatchDeOptions.placement`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptBatchDePlacement {
    /// Local memory when the largest population fits, else global (the default).
    MetaoptBatchDePlacementAuto = 0,
    MetaoptBatchDePlacementLocal = 1,
    MetaoptBatchDePlacementGlobal = 2,
}

/// Stop conditions of `metaopt_batch_de_run` besides each problem's own budget and target.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptBatchDeStop {
    /// Seconds of this call (0..=1e9; 0 = none), checked between launches. NaN, infinite,
    /// negative or larger values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a file the run writes every problem's state to (atomically) when it ends,
    /// whatever ended it, and every `checkpoint_every_s` seconds between launches;
    /// `metaopt_batch_de_load_state` with its bytes continues the run.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the run ends.
    pub checkpoint_every_s: f64,
}

/// Why a problem stopped (`MetaoptBatchDeRunResult.stop_reason`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptBatchDeStopReason {
    /// Not stopped (not run yet).
    MetaoptBatchDeStopRunning = 0,
    /// Its best value reached its target.
    MetaoptBatchDeStopTarget = 1,
    /// It ran its `max_generations`.
    MetaoptBatchDeStopBudget = 2,
    /// The call's time limit passed first.
    MetaoptBatchDeStopTimeLimit = 3,
    /// `metaopt_interrupt` or the stop token (the call returns `METAOPT_INTERRUPTED`).
    MetaoptBatchDeStopInterrupted = 4,
}

/// `MetaoptBatchDeCreateResult.instance` of a failed call is NULL; on success it is a new handle
/// owned by the caller, who releases it with `metaopt_batch_de_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptBatchDeCreateResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptBatchDeInstance,
}

/// Per-problem results of `metaopt_batch_de_run` and `metaopt_batch_de_results`, in problem
/// order (`count` entries each). The arrays and `error_message` are the caller's: free them with
/// `metaopt_batch_de_free_run_result`. A problem's best vector comes from
/// `metaopt_batch_de_best`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptBatchDeRunResult {
    /// Problems in the batch.
    pub count: u32,
    /// Each problem's best value (+inf for a problem not started).
    pub best_value: *mut f64,
    /// Generations each problem ran after its initial population.
    pub generations: *mut u64,
    /// Each problem's `MetaoptBatchDeStopReason`.
    pub stop_reason: *mut i32,
    /// Wall time of the call in seconds (0 for `metaopt_batch_de_results`).
    pub seconds: f64,
    /// The `MetaoptPrecision` used: 1 single or 2 double.
    pub precision: i32,
    /// 1: the device keeps the populations in local memory, 0: in global memory, -1: the CPU
    /// backend.
    pub local_memory: i32,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the state so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// Each problem's best point's violation (the sum of its violated constraints' amounts): 0
    /// when feasible and for an unconstrained problem, +inf for a constrained problem not started.
    pub violation: *mut f64,
}

owned_result!(MetaoptBatchDeCreateResult);
owned_result!(MetaoptBatchDeRunResult: frees best_value, generations, stop_reason, violation; zeroes count);
plain_result!(
    MetaoptBatchDeProblem,
    MetaoptBatchDeOptions,
    MetaoptBatchDeStop
);

pub(crate) struct Handle {
    solver: BatchDe,
    dims: Vec<u32>,
    /// The results of the last run (or `results` call), so that reading every problem's vector
    /// reads the device's populations back once, not once per problem.
    cache: Option<Vec<BatchResult>>,
}

impl Handle {
    fn results(&mut self) -> Result<&[BatchResult]> {
        if self.cache.is_none() {
            self.cache = Some(self.solver.results()?);
        }
        Ok(self.cache.as_deref().unwrap_or_default())
    }
}

/// A problem with the library's defaults (50 members, F 0.5, CR 0.9, `DE/rand/1`, `sat`, seed 1,
/// 1000 generations, no target) and no function, dimensions or bounds yet.
#[no_mangle]
pub extern "C" fn metaopt_batch_de_default_problem() -> MetaoptBatchDeProblem {
    ffi_boundary!({
        let d = BatchProblem::new("F1", 1, -1.0, 1.0);
        MetaoptBatchDeProblem {
            function: ptr::null(),
            source: ptr::null(),
            data: ptr::null(),
            data_bytes: 0,
            dims: 0,
            lower: ptr::null(),
            lower_length: 0,
            upper: ptr::null(),
            upper_length: 0,
            members: d.members,
            f: d.f,
            cr: d.cr,
            mutation: ptr::null(),
            bounds: ptr::null(),
            seed: d.seed,
            max_generations: d.max_generations,
            has_target: 0,
            target: 0.0,
            algorithm: d.algorithm as i32,
            jde_small: d.jde_small,
            integrality: ptr::null(),
            integrality_length: 0,
            constraints: ptr::null(),
        }
    })
}

/// The device in use, automatic precision, 100 generations per launch, automatic placement.
#[no_mangle]
pub extern "C" fn metaopt_batch_de_default_options() -> MetaoptBatchDeOptions {
    ffi_boundary!({ default_options() })
}

fn default_options() -> MetaoptBatchDeOptions {
    let d = BatchOptions::default();
    MetaoptBatchDeOptions {
        backend: 0,
        precision: d.precision.code(),
        generations_per_launch: d.generations_per_launch,
        placement: MetaoptBatchDePlacement::MetaoptBatchDePlacementAuto as i32,
        device: -1,
    }
}

/// No time limit and no token: a run goes on until every problem reached its target or budget.
#[no_mangle]
pub extern "C" fn metaopt_batch_de_default_stop() -> MetaoptBatchDeStop {
    ffi_boundary!({
        MetaoptBatchDeStop {
            time_limit: 0.0,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// Names problem `i` in an error's message (the argument keeps its field name).
fn at(i: usize, e: Error) -> Error {
    match e {
        Error::InvalidArgument { arg, msg } if !msg.starts_with("problem ") => {
            Error::arg(arg, format!("problem {i}: {msg}"))
        }
        Error::NullPointer(arg) => Error::arg(arg, format!("problem {i}: NULL")),
        e => e,
    }
}

/// The library's problem from the C spec; errors name the field.
///
/// # Safety
/// The pointers of `p` must be NULL or valid as documented on `MetaoptBatchDeProblem`.
unsafe fn problem(p: &MetaoptBatchDeProblem) -> Result<BatchProblem> {
    let function = match (p.function.is_null(), p.source.is_null()) {
        // SAFETY: the caller's contract for the strings.
        (false, true) => {
            BatchFunction::Name(unsafe { str_arg(p.function, "function")? }.to_string())
        }
        (true, false) => {
            // SAFETY: the caller's contract.
            let code = unsafe { str_arg(p.source, "source")? }.to_string();
            // SAFETY: the caller's contract: `data_bytes` readable bytes.
            let data = unsafe { func_data_arg(p.data, p.data_bytes) }.map_err(|e| match e {
                Error::NullPointer(_) => Error::NullPointer("data"),
                Error::InvalidArgument { msg, .. } => Error::arg("data_bytes", msg),
                e => e,
            })?;
            BatchFunction::Source { code, data }
        }
        (true, true) => {
            return Err(Error::arg(
                "function",
                "NULL and no source; set one of function and source",
            ))
        }
        (false, false) => {
            return Err(Error::arg(
                "source",
                "set together with function; set one of function and source",
            ))
        }
    };
    let bounds_of =
        |v: *const f64, len: u32, arg: &'static str, len_arg: &'static str| -> Result<Vec<f64>> {
            if len != 1 && len != p.dims {
                return Err(Error::arg(
                    len_arg,
                    format!("{len}; expected 1 or dims = {}", p.dims),
                ));
            }
            // SAFETY: the caller's contract: `len` values.
            unsafe { copy_in::<f64>(v.cast(), len as usize, arg) }
        };
    let lower = bounds_of(p.lower, p.lower_length, "lower", "lower_length")?;
    let upper = bounds_of(p.upper, p.upper_length, "upper", "upper_length")?;
    let mutation = if p.mutation.is_null() {
        crate::de::Mutation::Rand1
    } else {
        // SAFETY: the caller's contract.
        unsafe { str_arg(p.mutation, "mutation")? }.parse()?
    };
    let bounds = if p.bounds.is_null() {
        crate::de::BoundsCorrection::Saturation
    } else {
        // SAFETY: the caller's contract.
        unsafe { str_arg(p.bounds, "bounds")? }.parse()?
    };
    let target = match p.has_target {
        0 => None,
        1 if !p.target.is_nan() => Some(p.target),
        1 => return Err(Error::arg("target", "NaN; expected a number")),
        h => return Err(Error::arg("has_target", format!("{h}; expected 0 or 1"))),
    };
    Ok(BatchProblem {
        function,
        dims: p.dims,
        lower,
        upper,
        members: p.members,
        f: p.f,
        cr: p.cr,
        mutation,
        bounds,
        seed: p.seed,
        max_generations: p.max_generations,
        target,
        algorithm: crate::de::Algorithm::from_code(p.algorithm, "algorithm")?,
        jde_small: p.jde_small,
        lshade_budget: 0,
        integrality: integrality_arg(p)?,
        // SAFETY: the caller's contract: NULL or a valid struct.
        constraints: match unsafe { p.constraints.as_ref() } {
            None => None,
            Some(c) => Some(batch_constraints(c)?),
        },
    })
}

/// The integer flags of `p` (none, or one per dimension, each 0 or 1).
///
/// # Safety
/// `p.integrality` must be NULL or hold `p.integrality_length` bytes.
unsafe fn integrality_arg(p: &MetaoptBatchDeProblem) -> Result<Vec<bool>> {
    if p.integrality_length != 0 && p.integrality_length != p.dims {
        return Err(Error::arg(
            "integrality_length",
            format!("{}; expected 0 or dims = {}", p.integrality_length, p.dims),
        ));
    }
    if p.integrality_length == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's contract: `integrality_length` bytes.
    let flags = unsafe {
        copy_in::<u8>(
            p.integrality.cast(),
            p.integrality_length as usize,
            "integrality",
        )?
    };
    flags
        .iter()
        .enumerate()
        .map(|(n, &f)| match f {
            0 | 1 => Ok(f == 1),
            f => Err(Error::arg(
                "integrality",
                format!("flag {n} is {f}; expected 0 or 1"),
            )),
        })
        .collect()
}

/// A batched problem's constraints from the C struct: compiled counts only.
fn batch_constraints(c: &super::de::MetaoptConstraints) -> Result<BatchConstraints> {
    let full = super::de::constraints_arg(c)?;
    if full.violation.is_some() {
        return Err(Error::arg(
            "constraints",
            "a violation callback: a batch takes an OpenCL source's `constraints` counts only",
        ));
    }
    if full.repair.is_some() {
        return Err(Error::arg(
            "constraints.repair_probability",
            "the gradient-based repair is island DE's; a batch takes none (set 0)",
        ));
    }
    Ok(BatchConstraints {
        inequalities: full.inequalities,
        equalities: full.equalities,
        eq_tol: full.eq_tol,
        handling: full.handling,
    })
}

/// `BatchOptions` and the backend from the C options.
fn batch_options(o: &MetaoptBatchDeOptions) -> Result<(Backend, BatchOptions)> {
    let backend =
        super::device::backend_on(o.backend, o.device, "options.backend", "options.device")?;
    let placement = match o.placement {
        0 => Placement::Auto,
        1 => Placement::Local,
        2 => Placement::Global,
        p => {
            return Err(Error::arg(
                "options.placement",
                format!("{p}; expected 0 (auto), 1 (local) or 2 (global)"),
            ))
        }
    };
    if o.generations_per_launch == 0 {
        return Err(Error::arg(
            "options.generations_per_launch",
            "0; expected at least 1",
        ));
    }
    Ok((
        backend,
        BatchOptions {
            precision: Precision::from_code(o.precision, "options.precision")?,
            generations_per_launch: o.generations_per_launch,
            placement,
        },
    ))
}

/// Creates a batch of `count` (at least 1) problems from `problems` (each validated; an error
/// names the field and the problem's index) with `options` (NULL:
/// `metaopt_batch_de_default_options()`): on a device, builds the program (one per set of
/// functions and precision) and the buffers. Nothing runs until `metaopt_batch_de_run`.
///
/// # Safety
/// `problems` must be NULL or hold `count` specs whose pointers are as documented on
/// `MetaoptBatchDeProblem`; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_create(
    problems: *const MetaoptBatchDeProblem,
    count: u32,
    options: *const MetaoptBatchDeOptions,
) -> MetaoptBatchDeCreateResult {
    ffi_boundary!({
        if problems.is_null() {
            return Err(Error::NullPointer("problems"));
        }
        if count == 0 {
            return Err(Error::arg("count", "0; expected at least 1 problem"));
        }
        // SAFETY: the caller's contract: `count` specs.
        let specs = unsafe {
            copy_in::<MetaoptBatchDeProblem>(problems.cast(), count as usize, "problems")?
        };
        let mut probs = crate::error::try_vec(specs.len(), "count")?;
        for (i, s) in specs.iter().enumerate() {
            // SAFETY: the caller's contract for each spec's pointers.
            probs.push(unsafe { problem(s) }.map_err(|e| at(i, e))?);
        }
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { options.as_ref() }
            .copied()
            .unwrap_or_else(default_options);
        let (backend, opts) = batch_options(&o)?;
        let dims = probs.iter().map(|p| p.dims).collect();
        let solver = BatchDe::new(probs, backend, opts)?;
        let instance = handle::insert(Handle {
            solver,
            dims,
            cache: None,
        });
        MetaoptBatchDeCreateResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

fn run_result(h: &Handle, r: &[BatchResult], seconds: f64) -> Result<MetaoptBatchDeRunResult> {
    let best_value = CArray::from_slice(&r.iter().map(|r| r.best_value).collect::<Vec<_>>())?;
    let generations = CArray::from_slice(&r.iter().map(|r| r.generations).collect::<Vec<_>>())?;
    let stop_reason = CArray::from_slice(
        &r.iter()
            .map(|r| r.stop.map_or(0, StopReason::batch_code))
            .collect::<Vec<_>>(),
    )?;
    let violation = CArray::from_slice(&r.iter().map(|r| r.violation).collect::<Vec<_>>())?;
    let interrupted = r.iter().any(|r| r.stop == Some(StopReason::Interrupted));
    let (error_code, error_message) = stop_status(interrupted, "metaopt_batch_de_run");
    Ok(MetaoptBatchDeRunResult {
        count: r.len() as u32,
        best_value: best_value.into_raw(),
        generations: generations.into_raw(),
        stop_reason: stop_reason.into_raw(),
        seconds,
        precision: if h.solver.is_double() {
            Precision::Double.code()
        } else {
            Precision::Single.code()
        },
        local_memory: h.solver.uses_local_memory().map_or(-1, i32::from),
        error_code,
        error_message,
        violation: violation.into_raw(),
    })
}

/// Runs every problem until its target or budget, the time limit of `stop` or its token (NULL
/// `stop`: `metaopt_batch_de_default_stop()`); may be called again to go on. A stopped call is
/// `METAOPT_INTERRUPTED` with the results so far. Free the result with
/// `metaopt_batch_de_free_run_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `stop` NULL or valid, its `checkpoint_path` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_run(
    h: *mut MetaoptBatchDeInstance,
    stop: *const MetaoptBatchDeStop,
) -> MetaoptBatchDeRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let s = unsafe { stop.as_ref() }
            .copied()
            .unwrap_or(MetaoptBatchDeStop {
                time_limit: 0.0,
                stop_token: ptr::null(),
                checkpoint_path: ptr::null(),
                checkpoint_every_s: 0.0,
            });
        let stop = Stop {
            time_limit: crate::interrupt::time_limit_from_secs(s.time_limit, "stop.time_limit")?,
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { token_arg(s.stop_token, "stop.stop_token")? },
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe { checkpoint_plan(s.checkpoint_path, s.checkpoint_every_s)? },
            ..Stop::default()
        };
        let t0 = Instant::now();
        h.cache = None;
        let r = h.solver.run(&stop)?;
        let out = run_result(&h, &r, t0.elapsed().as_secs_f64())?;
        h.cache = Some(r);
        out
    })
}

/// The per-problem results as they stand, without running (`seconds` 0, never
/// `METAOPT_INTERRUPTED`). Free with `metaopt_batch_de_free_run_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_results(
    h: *mut MetaoptBatchDeInstance,
) -> MetaoptBatchDeRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let r = h.results()?.to_vec();
        let mut out = run_result(&h, &r, 0.0)?;
        super::result::free_c(std::mem::replace(&mut out.error_message, ptr::null_mut()));
        out.error_code = 0;
        out
    })
}

/// Copies the best vector of problem `problem` (its `dims` values) into `out`, which holds
/// `out_length` values (at least the problem's dims). The result is the problem's dims; `out`
/// NULL with `out_length` 0 only asks for them. A problem not started yet is
/// `METAOPT_ERR_INVALID_ARGUMENT`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks; `out` NULL or valid for
/// writes of `out_length` doubles.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_best(
    h: *mut MetaoptBatchDeInstance,
    problem: u32,
    out: *mut f64,
    out_length: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let n = h.dims.len();
        let dims = *h.dims.get(problem as usize).ok_or_else(|| {
            Error::arg(
                "problem",
                format!("{problem}; the batch has {n} problems (0..{})", n - 1),
            )
        })?;
        if out.is_null() {
            if out_length == 0 {
                return Ok(MetaoptInt32Result::ok(dims as i32));
            }
            return Err(Error::NullPointer("out"));
        }
        if out_length < dims {
            return Err(Error::arg(
                "out_length",
                format!("{out_length}; problem {problem} has {dims} dimensions"),
            ));
        }
        let best = &h.results()?[problem as usize].best;
        if best.len() != dims as usize {
            return Err(Error::arg(
                "problem",
                format!("{problem} has not started; run the batch first"),
            ));
        }
        // SAFETY: the caller's contract: `out` holds `out_length` >= dims doubles.
        unsafe { ptr::copy_nonoverlapping(best.as_ptr(), out, best.len()) };
        MetaoptInt32Result::ok(dims as i32)
    })
}

/// Frees the arrays and the message of a `MetaoptBatchDeRunResult` and sets them to NULL (a
/// second call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_batch_de_run` or `metaopt_batch_de_results`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_free_run_result(r: *mut MetaoptBatchDeRunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Releases a batch and its device buffers; NULL and already freed handles are ignored.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_free(h: *mut MetaoptBatchDeInstance) {
    // SAFETY: the caller's contract; unregistered pointers are ignored.
    ffi_boundary!({ unsafe { handle::free(h) } })
}

/// Every problem's state (populations, values, adaptive memories and archives, jDE100's
/// per-member F and CR and counters, generations, statuses) and the time taken, as checkpoint
/// bytes, the caller's to free with `metaopt_bytes_free_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_save_state(
    h: *mut MetaoptBatchDeInstance,
) -> MetaoptBytesResult {
    // SAFETY: the caller's contract.
    unsafe { save_state_call(h, "h", |h| h.solver.save_state()) }
}

/// Continues from the state `data` holds (`length` bytes of `metaopt_batch_de_save_state` or of
/// a checkpoint file) on a batch created with the same problems and options: every problem's
/// state becomes the saved one, and the next `metaopt_batch_de_run` goes on as the run that
/// never stopped. Refused (naming `state`, saying what differs): another library version,
/// problem set, precision, placement, backend or device count, a corrupt or truncated state; a
/// refused state changes nothing. `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_batch_de_load_state(
    h: *mut MetaoptBatchDeInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(h, "h", data, length, |h, bytes| {
            h.cache = None;
            h.solver.load_state(&bytes)
        })
    }
}
