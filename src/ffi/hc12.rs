//! The general HC12 solver over the C ABI: the thesis's Table 1 (`params`, `params:noR`,
//! `set-tabu-list`, `run` with its option list, `func-data`, `func-data-clean`, `kernel-verbose`,
//! `profiler-on`, `profiler-output`, `info`, `free`) under a `metaopt_hc12_` prefix, with the
//! error discipline of the QAP functions (docs/specs/API.md, docs/specs/HC12.md).

use super::handle::{self, opaque_handle};
use super::interrupt::{stop_status, token_arg, MetaoptPrecision, MetaoptStopToken};
use super::state::{checkpoint_plan, load_state_call, save_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, func_data_arg, owned_result, plain_result, str_arg, CArray,
    MetaoptInt32Result, MetaoptStringResult, MetaoptTabuOptions,
};
use crate::error::{Error, Result};
use crate::hc12::general::{
    Coding, Domain, Hc12, Hc12Params, Profile, RunOptions, Sense, StartPoint,
};
use crate::hc12::tabu::TabuConfig;
use crate::interrupt::StopReason;
use crate::objective::{HostCallback, Objective};
use crate::precision::Precision;
use crate::run::Stop;
use std::ffi::{c_char, c_void};
use std::fmt::Write as _;
use std::ptr;
use std::sync::Arc;

/// An instance of the general HC12 solver: the problem's shape, its objective, the solver's
/// settings and its device buffers. Opaque: made by `metaopt_hc12_params`, released by
/// `metaopt_hc12_free`. A handle may be used by one thread at a time.
pub struct MetaoptHc12Instance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptHc12Instance => Handle, b"metaHC12", "metaopt_hc12_params");

/// What a parameter's value is to the objective (`metaopt_hc12_params`, argument `domain`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptDomain {
    /// The bit string of each parameter (B); no real matrix is made (the thesis's `params:noR`).
    MetaoptDomainBinary = 0,
    /// The decoded unsigned integer of each parameter (I); no real matrix is made (`params:noR`).
    MetaoptDomainInteger = 1,
    /// The real value a + I (b - a) / (2^bits - 1) of each parameter (R).
    MetaoptDomainReal = 2,
}

/// Where an objective comes from (`MetaoptObjective.kind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptObjectiveKind {
    /// A function of the built-in catalogue, by name (`function_name`, e.g. "F1", "CEC05t").
    MetaoptObjectiveCatalogue = 0,
    /// OpenCL C source (`source`) defining the objective of the objective contract, compiled at
    /// run time.
    MetaoptObjectiveSource = 1,
    /// A host function (`callback` with `user_data`) that receives a whole matrix per iteration.
    MetaoptObjectiveHostCallback = 2,
}

/// How a parameter's bits encode its integer (`MetaoptHc12RunOptions.coding`, thesis `mCode`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptCoding {
    /// `GC`: Gray code (the default).
    MetaoptCodingGray = 0,
    /// `BC`: plain binary.
    MetaoptCodingBinary = 1,
}

/// Minimise or maximise (`MetaoptHc12RunOptions.sense`, thesis `funOpt`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptSense {
    /// Minimise (the default).
    MetaoptSenseMin = 0,
    /// Maximise.
    MetaoptSenseMax = 1,
}

/// Where the first run starts (`MetaoptHc12RunOptions.start`, thesis `startSeed`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptHc12Start {
    /// A random string from the seed (the default).
    MetaoptHc12StartRandom = 0,
    /// The all-zero string (the thesis's `bit-zeros`).
    MetaoptHc12StartZeros = 1,
    /// `MetaoptHc12RunOptions.start_vector`, quantised onto the parameters' grids and encoded.
    MetaoptHc12StartVector = 2,
}

/// A host objective: fills `f[r]` with the objective value of row `r` of `x`, for `r` in
/// `0..rows`. `x` holds `rows * dims` values, row `r` at `x[r * dims]`: the reals R, or for the
/// integer and binary domains the integers I or the bit strings B as doubles (exact). Both
/// arrays belong to the library and are valid during the call only. Returns 0 on success; any
/// other value ends the run with `METAOPT_ERR_CALLBACK`, the status in the message.
pub type MetaoptObjectiveCallback = Option<
    unsafe extern "C" fn(
        x: *const f64,
        rows: u32,
        dims: u32,
        f: *mut f64,
        user_data: *mut c_void,
    ) -> i32,
>;

/// The objective of `metaopt_hc12_params`. The strings are borrowed for that call only (the
/// library keeps copies); `callback` and `user_data` are kept and used by every
/// `metaopt_hc12_run` of the instance until `metaopt_hc12_free`, after which the callback is
/// never called.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptObjective {
    /// A `MetaoptObjectiveKind` value.
    pub kind: i32,
    /// The catalogue function's name (`METAOPT_OBJECTIVE_CATALOGUE`, required); for the other
    /// kinds an optional label (NULL or a name) that `metaopt_hc12_info` shows.
    pub function_name: *const c_char,
    /// `METAOPT_OBJECTIVE_SOURCE`: OpenCL C defining
    /// `FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)`
    /// (component j of the point at `x[j * stride]`; `data` is the buffer of
    /// `metaopt_hc12_func_data`), or `objective_u` over `__global const uint *` for the integer
    /// and binary domains. Ignored for the other kinds.
    pub source: *const c_char,
    /// `METAOPT_OBJECTIVE_HOST_CALLBACK`: the function. Ignored for the other kinds.
    pub callback: MetaoptObjectiveCallback,
    /// Passed unchanged to every call of `callback`; the library never reads or frees it.
    pub user_data: *mut c_void,
}

/// `MetaoptHc12ParamsResult.instance` of a failed call is NULL; on success it is a new handle owned
/// by the caller, who releases it with `metaopt_hc12_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptHc12ParamsResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptHc12Instance,
}

/// Options of `metaopt_hc12_run` (the thesis's `run` option list); start from
/// `metaopt_hc12_default_run_options()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptHc12RunOptions {
    /// A `MetaoptCoding` value (0 `GC`, 1 `BC`).
    pub coding: i32,
    /// A `MetaoptSense` value (0 min, 1 max).
    pub sense: i32,
    /// Runs (restarts, at least 1): the first from `start`, the others from random strings. More
    /// than 2^24 runs need a `stop_token` (the caller then ends the call with it or
    /// `metaopt_interrupt`); without one they are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub runs: u32,
    /// A `MetaoptHc12Start` value (0 random, 1 bit-zeros, 2 vector).
    pub start: i32,
    /// For `METAOPT_HC12_START_VECTOR`: nParam reals (borrowed, read during the call only);
    /// ignored otherwise.
    pub start_vector: *const f64,
    /// Seed of the random strings: the same seed gives the same runs on every device.
    pub seed: u64,
    /// Cap on iterations per plain run (at least 1); a tabu run ends by its own limits
    /// (`metaopt_hc12_set_tabu_options`).
    pub max_iterations: u32,
    /// The thesis's `run:taboo`: nonzero runs with the tabu list of
    /// `metaopt_hc12_init_tabu_list` (an error when there is none); 0 runs plain HC12, which ends
    /// at the first local optimum, whether a list is set or not.
    pub taboo: u8,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// Seconds the call may take (0: no limit), checked before every climb step: the result is
    /// the best so far, stopped by `METAOPT_STOP_TIME_LIMIT`.
    pub time_limit_s: f64,
    /// NULL, or a file the runs write their whole state to (atomically) when the call ends and
    /// every `checkpoint_every_s` seconds (between runs); `metaopt_hc12_load_state` with its
    /// bytes continues them.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the call ends.
    pub checkpoint_every_s: f64,
}

/// The result of `metaopt_hc12_run`: the best over all runs. Every array is owned by the caller:
/// free them all with `metaopt_hc12_free_run_result` (or each, and `error_message`, with
/// `metaopt_pointer_free`). On error the arrays are NULL and the numbers 0.
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Debug)]
pub struct MetaoptHc12RunResult {
    /// The best objective value.
    pub value: f64,
    /// The best string as stored, one word per parameter (Gray-coded under `GC`: the thesis's
    /// `K_GC`); `nParam` entries.
    pub string: *mut u32,
    /// Its decoded integers; `nParam` entries.
    pub integers: *mut u32,
    /// Its real parameters; `nParam` entries.
    pub reals: *mut f64,
    /// Entries of `string`, `integers` and `reals`.
    pub nParam: u32,
    /// Iterations of the best run.
    pub iterations: u32,
    /// Rows evaluated over all runs.
    pub evaluations: u64,
    /// Wall time of the call in seconds.
    pub seconds: f64,
    /// The best value of each run; `runs` entries.
    pub run_values: *mut f64,
    /// The iterations of each run; `runs` entries.
    pub run_iterations: *mut u32,
    /// Entries of `run_values` and `run_iterations`.
    pub runs: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// A `MetaoptStopReason`: why the runs ended (`METAOPT_STOP_INTERRUPTED` with
    /// `METAOPT_INTERRUPTED`: the result is the best so far).
    pub stop_reason: i32,
    /// The `MetaoptPrecision` used: 1 single or 2 double.
    pub precision: i32,
}

owned_result!(MetaoptHc12ParamsResult);
owned_result!(MetaoptHc12RunResult: frees string, integers, reals, run_values, run_iterations; zeroes nParam, runs);
plain_result!(MetaoptHc12RunOptions);

/// What a `MetaoptHc12Instance *` points to (behind the registry's magic number).
pub(crate) struct Handle {
    solver: Hc12,
    /// The list of `metaopt_hc12_init_tabu_list`, handed to the solver by runs with `taboo`.
    tabu: Option<TabuConfig>,
    /// What `metaopt_hc12_info` says of the objective.
    objective: String,
    /// Bytes of the current func-data buffer (user sources only).
    func_data: usize,
    /// A state of `metaopt_hc12_load_state` that the next run continues.
    resume: Option<Vec<u8>>,
}

/// The caller's function and user pointer as a [`HostCallback`] (an objective's, or a
/// constraint violation's): called from the thread running the instance, one call at a time.
pub(crate) fn host_callback(
    f: unsafe extern "C" fn(*const f64, u32, u32, *mut f64, *mut c_void) -> i32,
    user_data: *mut c_void,
) -> HostCallback {
    let cb = CCallback { f, user_data };
    HostCallback {
        f: Arc::new(
            move |x: &[f64], rows: usize, dims: usize, out: &mut [f64]| cb.call(x, rows, dims, out),
        ),
    }
}

/// The caller's callback and user pointer, called by the solver during runs.
struct CCallback {
    f: unsafe extern "C" fn(*const f64, u32, u32, *mut f64, *mut c_void) -> i32,
    user_data: *mut c_void,
}

// SAFETY: the library calls the callback only from the thread that calls `metaopt_hc12_run`
// on the handle, one call at a time, and never after `metaopt_hc12_free`. The raw pointers make
// the closure neither `Send` nor `Sync`; the C caller guarantees (as documented on
// `metaopt_hc12_params`) that its function and `user_data` may be used from whatever thread
// runs the instance.
unsafe impl Send for CCallback {}
// SAFETY: as for `Send`: shared use is sequential calls from the running thread.
unsafe impl Sync for CCallback {}

impl CCallback {
    fn call(
        &self,
        x: &[f64],
        rows: usize,
        dims: usize,
        out: &mut [f64],
    ) -> std::result::Result<(), i32> {
        debug_assert!(x.len() == rows * dims && out.len() == rows);
        // the solver refuses neighbourhoods of more than u32::MAX rows for callbacks
        let (r, d) = (
            u32::try_from(rows).map_err(|_| -1)?,
            u32::try_from(dims).map_err(|_| -1)?,
        );
        // SAFETY: `x` holds rows * dims values and `out` rows; the function and user pointer
        // are valid by the caller's contract of `metaopt_hc12_params`.
        match unsafe { (self.f)(x.as_ptr(), r, d, out.as_mut_ptr(), self.user_data) } {
            0 => Ok(()),
            status => Err(status),
        }
    }
}

/// An optional label of a non-catalogue objective.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string.
unsafe fn label(name: *const c_char) -> Result<Option<String>> {
    if name.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(
        unsafe { str_arg(name, "objective.function_name")? }.to_string(),
    ))
}

/// The Rust objective of a C one, and its description for `metaopt_hc12_info`.
///
/// # Safety
/// The strings of `o` must be NULL or NUL-terminated.
pub(crate) unsafe fn objective_arg(o: &MetaoptObjective) -> Result<(Objective, String)> {
    match o.kind {
        0 => {
            // SAFETY: the caller's contract.
            let name = unsafe { str_arg(o.function_name, "objective.function_name")? };
            let objective = Objective::catalogue(name).map_err(|e| match e {
                Error::InvalidArgument { msg, .. } => Error::arg("objective.function_name", msg),
                e => e,
            })?;
            let what = match objective.info()? {
                Some(f) => format!("catalogue function `{}` ({})", f.name, f.description),
                None => format!("catalogue function `{name}`"),
            };
            Ok((objective, what))
        }
        1 => {
            // SAFETY: the caller's contract.
            let code = unsafe { str_arg(o.source, "objective.source")? };
            // SAFETY: the caller's contract.
            let what = match unsafe { label(o.function_name)? } {
                Some(l) => format!("user OpenCL source `{l}` ({} bytes)", code.len()),
                None => format!("user OpenCL source ({} bytes)", code.len()),
            };
            Ok((
                Objective::Source {
                    code: code.to_string(),
                    data: Vec::new(),
                },
                what,
            ))
        }
        2 => {
            let f = o.callback.ok_or(Error::NullPointer("objective.callback"))?;
            // SAFETY: the caller's contract.
            let what = match unsafe { label(o.function_name)? } {
                Some(l) => format!("host callback `{l}`"),
                None => "host callback".to_string(),
            };
            Ok((Objective::Callback(host_callback(f, o.user_data)), what))
        }
        k => Err(Error::arg(
            "objective.kind",
            format!("{k}; expected 0 (catalogue), 1 (OpenCL source) or 2 (host callback)"),
        )),
    }
}

/// Creates a general HC12 instance (the thesis's `params`; `params:noR` is the binary or integer
/// domain). `nParam` parameters (at least 1) of `nBitParam[p]` bits each (1..32), given as one
/// value for all (`nBitParamLength` 1) or one per parameter (`nBitParamLength` nParam);
/// `dodParam` the interval [a, b] (finite, a < b) of each parameter as consecutive pairs a, b:
/// one pair for all (`dodParamLength` 2) or one per parameter (2 * nParam). `maskOrder` (1..3)
/// is the Hamming radius of the neighbourhood and `startBit`/`bitLength` (both >= 0, `bitLength` 0 = to the end; a negative one is `METAOPT_ERR_INVALID_ARGUMENT` naming it) its
/// window of the string. `domain` is a `MetaoptDomain`: what the objective reads (only that
/// matrix is made on the device). `double_precision` nonzero computes R and F in double (the
/// device needs `cl_khr_fp64`); 0 is `METAOPT_PRECISION_AUTO`: double where the device has
/// `cl_khr_fp64`, else single (`metaopt_hc12_params_precision` can ask for single). The objective is built now, so a source that does not compile
/// fails here with `METAOPT_ERR_KERNEL_BUILD` and the build log in the message. The instance
/// runs on the device in use (`metaopt_device_set_number`).
///
/// The arrays and the objective's strings are copied. A host callback and its `user_data` are
/// kept until `metaopt_hc12_free` and called only from the thread calling `metaopt_hc12_run`;
/// the caller guarantees that this is safe for them (the library adds no locking of its own).
/// On success `instance` is a new handle the caller releases with `metaopt_hc12_free`; on error
/// the message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `nBitParam` must be NULL or hold `nBitParamLength` values; `dodParam` NULL or hold
/// `dodParamLength` values; `objective` NULL or valid, with its strings NULL or NUL-terminated
/// and its callback (when used) valid until the instance is freed.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_hc12_params(
    nParam: u32,
    nBitParam: *const u32,
    nBitParamLength: u32,
    dodParam: *const f64,
    dodParamLength: u32,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    domain: i32,
    double_precision: u8,
    objective: *const MetaoptObjective,
) -> MetaoptHc12ParamsResult {
    let precision = if double_precision != 0 {
        MetaoptPrecision::MetaoptPrecisionDouble
    } else {
        MetaoptPrecision::MetaoptPrecisionAuto
    };
    // SAFETY: the caller's contract, the same.
    unsafe {
        metaopt_hc12_params_precision(
            nParam,
            nBitParam,
            nBitParamLength,
            dodParam,
            dodParamLength,
            maskOrder,
            startBit,
            bitLength,
            domain,
            precision as i32,
            objective,
        )
    }
}

/// `metaopt_hc12_params` with the precision named: `precision` is a `MetaoptPrecision` (0 auto:
/// double where the device has `cl_khr_fp64`, else single; 1 single; 2 double, which a device
/// without `cl_khr_fp64` refuses with `METAOPT_ERR_UNSUPPORTED`). `metaopt_hc12_run` reports
/// the precision used.
///
/// # Safety
/// As `metaopt_hc12_params`.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_hc12_params_precision(
    nParam: u32,
    nBitParam: *const u32,
    nBitParamLength: u32,
    dodParam: *const f64,
    dodParamLength: u32,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    domain: i32,
    precision: i32,
    objective: *const MetaoptObjective,
) -> MetaoptHc12ParamsResult {
    // SAFETY: the caller's contract, the same.
    unsafe {
        metaopt_hc12_params_on_device(
            nParam,
            nBitParam,
            nBitParamLength,
            dodParam,
            dodParamLength,
            maskOrder,
            startBit,
            bitLength,
            domain,
            precision,
            -1,
            objective,
        )
    }
}

/// `metaopt_hc12_params_precision` on device `device`: a number of the device list, or -1 for
/// the device in use (`metaopt_device_set_number`). Instances on different devices may run from
/// different threads. A number below -1 or not in the list is `METAOPT_ERR_INVALID_ARGUMENT`
/// naming `device`.
///
/// # Safety
/// As `metaopt_hc12_params`.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_hc12_params_on_device(
    nParam: u32,
    nBitParam: *const u32,
    nBitParamLength: u32,
    dodParam: *const f64,
    dodParamLength: u32,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    domain: i32,
    precision: i32,
    device: i32,
    objective: *const MetaoptObjective,
) -> MetaoptHc12ParamsResult {
    ffi_boundary!({
        let backend = super::device::backend_on(0, device, "backend", "device")?;
        if nBitParam.is_null() {
            return Err(Error::NullPointer("nBitParam"));
        }
        if dodParam.is_null() {
            return Err(Error::NullPointer("dodParam"));
        }
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { objective.as_ref() }.ok_or(Error::NullPointer("objective"))?;
        if nParam == 0 {
            return Err(Error::arg("nParam", "0; expected at least 1"));
        }
        // lengths are checked before anything is read through the pointers
        if nBitParamLength != 1 && nBitParamLength != nParam {
            return Err(Error::arg(
                "nBitParamLength",
                format!("{nBitParamLength}; expected 1 or nParam = {nParam}"),
            ));
        }
        let pairs = u64::from(nParam) * 2;
        if dodParamLength != 2 && u64::from(dodParamLength) != pairs {
            return Err(Error::arg(
                "dodParamLength",
                format!("{dodParamLength}; expected 2 or 2 * nParam = {pairs}"),
            ));
        }
        let domain = match domain {
            0 => Domain::Binary,
            1 => Domain::Integer,
            2 => Domain::Real,
            d => {
                return Err(Error::arg(
                    "domain",
                    format!("{d}; expected 0 (binary), 1 (integer) or 2 (real)"),
                ))
            }
        };
        // SAFETY: the caller's contract, for the lengths checked above.
        let bits =
            unsafe { copy_in::<u32>(nBitParam.cast(), nBitParamLength as usize, "nBitParam")? };
        // SAFETY: as above.
        let dod = unsafe { copy_in::<f64>(dodParam.cast(), dodParamLength as usize, "dodParam")? };
        // SAFETY: the caller's contract for the objective's strings.
        let (objective, description) = unsafe { objective_arg(o)? };
        let callback = matches!(objective, Objective::Callback(_));
        let params = Hc12Params {
            n_param: nParam,
            bits,
            bounds: dod.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
            mask_order: maskOrder,
            start_bit: startBit.into(),
            bit_length: bitLength.into(),
            domain,
            double: false,
            precision: Precision::from_code(precision, "precision")?,
        };
        let solver = Hc12::new(params, objective, backend)?;
        if callback && solver.rows() > u64::from(u32::MAX) {
            return Err(Error::arg(
                "maskOrder",
                format!(
                    "{} rows per iteration; a host callback takes at most 2^32 - 1",
                    solver.rows()
                ),
            ));
        }
        let instance = handle::insert(Handle {
            solver,
            tabu: None,
            objective: description,
            func_data: 0,
            resume: None,
        });
        MetaoptHc12ParamsResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// Sets the tabu list that runs with `taboo` use, with room for `maxLength` strings (the
/// thesis's `set-tabu-list`; 0 removes it). The options of `metaopt_hc12_set_tabu_options` are
/// kept when the length changes; a new list starts from `metaopt_tabu_default_options()`. Each
/// run starts with an empty list. The result is 0; an error message is the caller's to free with
/// `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_hc12_init_tabu_list(
    h: *mut MetaoptHc12Instance,
    maxLength: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        if maxLength == 0 {
            h.tabu = None;
        } else {
            let mut cfg = match &h.tabu {
                Some(c) => c.clone(),
                None => TabuConfig::new(maxLength as usize)?,
            };
            cfg.max_length = maxLength as usize;
            cfg.check()?;
            h.tabu = Some(cfg);
        }
        MetaoptInt32Result::ok(0)
    })
}

/// Sets the options of the tabu list of `h` (`MetaoptTabuOptions`, as for the QAP solver), which
/// `metaopt_hc12_init_tabu_list` must have set. `opts` is borrowed for the call. The result is
/// 0; an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `opts` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_set_tabu_options(
    h: *mut MetaoptHc12Instance,
    opts: *const MetaoptTabuOptions,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or readable by the caller's contract.
        let o = unsafe { opts.as_ref() }.ok_or(Error::NullPointer("opts"))?;
        let mut cfg = h.tabu.clone().ok_or_else(|| {
            Error::arg("h", "no tabu list: call metaopt_hc12_init_tabu_list first")
        })?;
        cfg.activation_limit = (o.has_activation_limit != 0).then_some(o.activation_limit);
        cfg.aspiration = o.aspiration != 0;
        cfg.max_iterations = o.max_iterations;
        cfg.max_no_improve = o.max_no_improve;
        cfg.check()?;
        h.tabu = Some(cfg);
        MetaoptInt32Result::ok(0)
    })
}

/// The default run options: Gray code, minimise, 1 run, random start, seed 1, 1,000,000
/// iterations at most, no tabu list.
#[no_mangle]
pub extern "C" fn metaopt_hc12_default_run_options() -> MetaoptHc12RunOptions {
    ffi_boundary!({
        let d = RunOptions::default();
        MetaoptHc12RunOptions {
            coding: MetaoptCoding::MetaoptCodingGray as i32,
            sense: MetaoptSense::MetaoptSenseMin as i32,
            runs: d.stop.budget.map_or(0, |n| n as u32),
            start: MetaoptHc12Start::MetaoptHc12StartRandom as i32,
            start_vector: ptr::null(),
            seed: d.seed,
            max_iterations: d.max_iterations,
            taboo: 0,
            stop_token: ptr::null(),
            time_limit_s: 0.0,
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// The Rust options of C options.
///
/// # Safety
/// `o.start_vector` must be NULL or hold `n` values; `o.checkpoint_path` NULL or a
/// NUL-terminated string.
unsafe fn run_options(o: &MetaoptHc12RunOptions, n: usize) -> Result<RunOptions> {
    let coding = match o.coding {
        0 => Coding::Gray,
        1 => Coding::Binary,
        c => {
            return Err(Error::arg(
                "coding",
                format!("{c}; expected 0 (GC, Gray) or 1 (BC, binary)"),
            ))
        }
    };
    let sense = match o.sense {
        0 => Sense::Min,
        1 => Sense::Max,
        s => {
            return Err(Error::arg(
                "sense",
                format!("{s}; expected 0 (min) or 1 (max)"),
            ))
        }
    };
    let start = match o.start {
        0 => StartPoint::Random,
        1 => StartPoint::Zeros,
        2 => {
            // SAFETY: the caller's contract.
            let x = unsafe { copy_in::<f64>(o.start_vector.cast(), n, "start_vector")? };
            if let Some((i, v)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(Error::arg(
                    "start_vector",
                    format!("value {i} is {v}; expected finite values"),
                ));
            }
            StartPoint::Vector(x)
        }
        s => {
            return Err(Error::arg(
                "start",
                format!("{s}; expected 0 (random), 1 (bit-zeros) or 2 (vector)"),
            ))
        }
    };
    if o.runs == 0 {
        return Err(Error::arg("runs", "0; expected at least 1"));
    }
    if o.max_iterations == 0 {
        return Err(Error::arg("max_iterations", "0; expected at least 1"));
    }
    // SAFETY: the caller's contract: NULL or a stop token.
    let token = unsafe { token_arg(o.stop_token, "stop_token")? };
    Ok(RunOptions {
        coding,
        sense,
        stop: Stop {
            budget: (o.runs != 0).then_some(u64::from(o.runs)),
            token,
            time_limit: crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?,
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s)? },
            ..Stop::default()
        },
        start,
        seed: o.seed,
        max_iterations: o.max_iterations,
    })
}

/// Runs HC12 (the thesis's `run`): `opts.runs` runs, each to a local optimum (or, with `taboo`,
/// by the tabu list's limits) or the iteration cap; the result is the best of them. `opts` is
/// borrowed for the call. The arrays and message of the result are the caller's: free them with
/// `metaopt_hc12_free_run_result`. A failing host callback ends the call with
/// `METAOPT_ERR_CALLBACK`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `opts` NULL or valid, with `start_vector` as its documentation says.
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_run(
    h: *mut MetaoptHc12Instance,
    opts: *const MetaoptHc12RunOptions,
) -> MetaoptHc12RunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { opts.as_ref() }.ok_or(Error::NullPointer("opts"))?;
        let n = h.solver.params().n_param as usize;
        // SAFETY: the caller's contract.
        let run = unsafe { run_options(o, n)? };
        if o.taboo != 0 {
            let cfg = h.tabu.clone().ok_or_else(|| {
                Error::arg(
                    "taboo",
                    "no tabu list: call metaopt_hc12_init_tabu_list first",
                )
            })?;
            h.solver.init_tabu_list(cfg)?;
        } else {
            h.solver.clear_tabu_list();
        }
        // a loaded state is used up by this run, which fails if its options differ
        if let Some(bytes) = h.resume.take() {
            h.solver.load_state(&bytes, &run)?;
        }
        let r = h.solver.run(&run)?;
        let values: Vec<f64> = r.runs.iter().map(|f| f.value).collect();
        let iterations: Vec<u32> = r.runs.iter().map(|f| f.iterations).collect();
        // every array is made before any is handed out, so an allocation failure leaks nothing
        let (string, integers) = (
            CArray::from_slice(&r.string)?,
            CArray::from_slice(&r.integers)?,
        );
        let reals = CArray::from_slice(&r.reals)?;
        let (run_values, run_iterations) = (
            CArray::from_slice(&values)?,
            CArray::from_slice(&iterations)?,
        );
        let (error_code, error_message) =
            stop_status(r.stop == StopReason::Interrupted, "metaopt_hc12_run");
        MetaoptHc12RunResult {
            value: r.value,
            string: string.into_raw(),
            integers: integers.into_raw(),
            reals: reals.into_raw(),
            nParam: n as u32,
            iterations: r.iterations,
            evaluations: r.evaluations,
            seconds: r.seconds,
            run_values: run_values.into_raw(),
            run_iterations: run_iterations.into_raw(),
            runs: values.len() as u32,
            error_code,
            error_message,
            stop_reason: r.stop.code(),
            precision: r.precision.code(),
        }
    })
}

/// The whole state of the last `metaopt_hc12_run` on `h` (runs made, counters, the best string
/// and every run's figures, the random restarts' position, the seconds taken) as checkpoint
/// bytes, the caller's to free with `metaopt_bytes_free_result`. The state is taken between
/// runs: a run cut short is not in it (a continued call climbs it again). An error naming
/// `state` if no run has been made on `h`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_save_state(
    h: *mut MetaoptHc12Instance,
) -> MetaoptBytesResult {
    // SAFETY: the caller's contract.
    unsafe { save_state_call(h, "h", |h| h.solver.save_state()) }
}

/// The next `metaopt_hc12_run` on `h` continues the runs whose state `data` holds (`length`
/// bytes of `metaopt_hc12_save_state` or of a checkpoint file) instead of starting afresh, and
/// ends as they would have: its options and tabu list must be those of the saved call (its run
/// count and time limit may be larger; they count the work already done). Checked now: the
/// bytes' frame and checksum, the library version, the solver and the objective with its
/// parameters (errors name `data`); the options when the run starts (errors name `state`), and
/// that run uses the state up, failing or not. `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_load_state(
    h: *mut MetaoptHc12Instance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(h, "h", data, length, |h, bytes| {
            h.solver.check_state(&bytes, "data")?;
            h.resume = Some(bytes);
            Ok(())
        })
    }
}

/// Frees the arrays and the message of a `MetaoptHc12RunResult` and sets them to NULL and their
/// lengths to 0 (so a second call is harmless); the struct itself belongs to the caller. NULL is
/// a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_hc12_run` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_free_run_result(r: *mut MetaoptHc12RunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Replaces the data buffer of a user OpenCL source objective (the thesis's `func-data`): the
/// `data` argument of its `objective` function, `bytes` bytes copied to the device (the caller
/// keeps ownership of `data`). `bytes` 0 is `metaopt_hc12_func_data_clean` (then `data` may be
/// NULL). Other objectives have no data buffer: an error. The result is 0; an error message is
/// the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `data` NULL or holding `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_func_data(
    h: *mut MetaoptHc12Instance,
    data: *const c_void,
    bytes: u64,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: the caller's contract.
        let buffer = unsafe { func_data_arg(data, bytes)? };
        let len = buffer.len();
        h.solver.set_func_data(&buffer)?;
        h.func_data = len;
        MetaoptInt32Result::ok(0)
    })
}

/// Empties the data buffer of a user OpenCL source objective (the thesis's `func-data-clean`).
/// The result is 0; an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_func_data_clean(
    h: *mut MetaoptHc12Instance,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        h.solver.set_func_data(&[])?;
        h.func_data = 0;
        MetaoptInt32Result::ok(0)
    })
}

/// Nonzero `on` prints every kernel launch of `h` (name, work-items, work-group size) to
/// stderr; 0 stops it (the thesis's `kernel-verbose`). The result is 0; an error message is the
/// caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_kernel_verbose(
    h: *mut MetaoptHc12Instance,
    on: u8,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        h.solver.verbose = on != 0;
        MetaoptInt32Result::ok(0)
    })
}

/// Turns kernel profiling on for `h` and clears the timings gathered so far (the thesis's
/// `profiler-on`): from now on every kernel launch's OpenCL event time is summed per kernel
/// until the handle is freed. The result is 0; an error message is the caller's to free with
/// `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_profiler_on(
    h: *mut MetaoptHc12Instance,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        h.solver.profile = Some(Profile::new());
        MetaoptInt32Result::ok(0)
    })
}

/// The profile as text: one line per kernel, sorted by name,
/// `NAME launches=N total_ms=T mean_us=M` (device time from the OpenCL events; a kernel not yet
/// launched is not listed).
fn profile_text(p: &Profile) -> String {
    let mut s = String::new();
    for (name, &(launches, ns)) in p {
        let mean_us = if launches == 0 {
            0.0
        } else {
            ns as f64 / launches as f64 / 1e3
        };
        let _ = writeln!(
            s,
            "{name} launches={launches} total_ms={:.3} mean_us={mean_us:.3}",
            ns as f64 / 1e6
        );
    }
    s
}

/// The kernel timings gathered since `metaopt_hc12_profiler_on` (the thesis's
/// `profiler-output`): one line per kernel, `NAME launches=N total_ms=T mean_us=M`, where T is
/// the summed device time of its launches in milliseconds and M the mean per launch in
/// microseconds (from OpenCL profiling events). An error when the profiler is off. `text` is the
/// caller's to free with `metaopt_pointer_free`, as is an error message.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_profiler_output(
    h: *const MetaoptHc12Instance,
) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        let p = (h.solver.profile.as_ref()).ok_or_else(|| {
            Error::arg(
                "h",
                "the profiler is off: call metaopt_hc12_profiler_on first",
            )
        })?;
        MetaoptStringResult::ok(&profile_text(p))?
    })
}

/// One value when all are equal, else the list.
fn compact<T: PartialEq>(v: &[T], show: impl Fn(&T) -> String) -> String {
    match v {
        [first, rest @ ..] if rest.iter().all(|x| x == first) => {
            format!("{} (every parameter)", show(first))
        }
        _ => v.iter().map(show).collect::<Vec<_>>().join(", "),
    }
}

fn info_text(h: &Handle) -> String {
    let s = &h.solver;
    let p = s.params();
    let domain = match p.domain {
        Domain::Binary => "binary (the objective reads the bit strings B; params:noR)",
        Domain::Integer => "integer (the objective reads the integers I; params:noR)",
        Domain::Real => "real (the objective reads the reals R)",
    };
    let window = match (p.start_bit, p.bit_length) {
        (0, 0) => "the whole string".to_string(),
        (start, 0) => format!("bits {start} to the end"),
        (start, len) => format!("bits {start}..{}", start + len),
    };
    let mut t = String::new();
    let _ = writeln!(t, "HC12 (general solver)");
    let _ = writeln!(t, "parameters: {}", p.n_param);
    let _ = writeln!(
        t,
        "bits per parameter: {}",
        compact(&p.bits, |b| b.to_string())
    );
    let _ = writeln!(
        t,
        "intervals: {}",
        compact(&p.bounds, |&(a, b)| format!("[{a}, {b}]"))
    );
    let _ = writeln!(t, "domain: {domain}");
    let _ = writeln!(
        t,
        "precision: {}",
        if p.double { "double" } else { "float" }
    );
    let _ = writeln!(
        t,
        "string: {} bits; neighbourhood: mask order {} over {window}, {} rows per iteration",
        s.string_bits(),
        p.mask_order,
        s.rows()
    );
    let _ = writeln!(t, "objective: {}", h.objective);
    if matches!(s.objective(), Objective::Source { .. }) {
        let _ = writeln!(t, "func-data: {} bytes", h.func_data);
    }
    let _ = writeln!(t, "{}", s.describe());
    match &h.tabu {
        None => {
            let _ = writeln!(t, "tabu list: none");
        }
        Some(c) => {
            let limit = c
                .activation_limit
                .map_or("none".to_string(), |l| l.to_string());
            let _ = writeln!(
                t,
                "tabu list: {} strings (used by runs with taboo), activation limit {limit}, aspiration {}, \
                 {} iterations at most, {} without improvement",
                c.max_length,
                if c.aspiration { "on" } else { "off" },
                c.max_iterations,
                c.max_no_improve
            );
        }
    }
    let _ = writeln!(
        t,
        "kernel verbose: {}; profiler: {}",
        if s.verbose { "on" } else { "off" },
        if s.profile.is_some() { "on" } else { "off" }
    );
    t
}

/// A human-readable description of `h` (the thesis's `info`): parameters, bits, intervals,
/// domain, precision, string length, neighbourhood rows, objective, device, tabu list, verbose
/// and profiler state; lines end in `\n`. `text` is the caller's to free with
/// `metaopt_pointer_free`, as is an error message.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_info(h: *const MetaoptHc12Instance) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        MetaoptStringResult::ok(&info_text(&h))?
    })
}

/// Releases an instance, its device buffers and its copy of the objective; a host callback is
/// never called again. NULL, and a pointer that is not a live instance (e.g. one freed already),
/// are ignored.
///
/// # Safety
/// `h` must not be in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn metaopt_hc12_free(h: *mut MetaoptHc12Instance) {
    ffi_boundary!({
        // SAFETY: the caller's contract; unregistered pointers are ignored.
        unsafe { handle::free(h) }
    })
}
