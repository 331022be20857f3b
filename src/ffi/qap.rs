//! The QAP solver (HC12 over qapswap2, the thesis's `libhc12qap`) over the C ABI: instances as
//! opaque handles, one run, and the iterated solve.

use super::boundary::not_one_of;
use super::handle::{self, opaque_handle};
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::state::{checkpoint_plan, load_state_call, save_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, owned_result, plain_result, str_arg, CArray,
    MetaoptInt32Result,
};
use crate::error::{Error, Result};
use crate::hc12::qap::solve::{solve, QapSolveOptions, RestartMode, Start};
use crate::hc12::qap::{Backend, CostForm, QapHc12};
use crate::hc12::tabu::TabuConfig;
use crate::interrupt::StopReason;
use crate::problem::qap::gap_percent;
use crate::problem::qap::{find_bks, QapInstance, MAX_N};
use crate::problem::qap::{split_df, Cost, ElemType, QapMatrices, QapProblem};
use crate::run::Stop;
use std::ffi::{c_char, c_void};
use std::path::Path;
use std::ptr;
use std::sync::Arc;

/// An instance of the QAP solver: the problem's matrices, the solver's settings and its device
/// buffers. Opaque: made by `metaopt_qap_params`, `metaopt_qap_params_ab` or
/// `metaopt_qap_params_from_file`, released by `metaopt_qap_free`. A handle may be used by one
/// thread at a time.
pub struct MetaoptQapInstance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptQapInstance => Handle, b"metaQAP1", "metaopt_qap_params*");

/// `MetaoptQapParamsResult.instance` of a failed call is NULL; on success it is a new handle owned
/// by the caller, who releases it with `metaopt_qap_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptQapParamsResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptQapInstance,
}

/// The result of `metaopt_qap_run`. The cost sits in the field that `result_type` names
/// (`MetaoptQapResultType`: 1 `f_t1`, 2 `f_t2`, 3 `f_t3`, 4 `f_t4`; 0 on error). `order` and `K_GC`
/// are owned by the caller: free them with `metaopt_qap_free_run_result` (or each, and
/// `error_message`, with `metaopt_pointer_free`).
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Debug)]
pub struct MetaoptQapRunResult {
    /// A `MetaoptQapResultType`: which of `f_t1`..`f_t4` holds the cost.
    pub result_type: i32,
    /// The cost of integer-signed data (int32, int64).
    pub f_t1: i64,
    /// The cost of unsigned data (uint32, uint64).
    pub f_t2: u64,
    /// The cost of float32 data.
    pub f_t3: f32,
    /// The cost of float64 data.
    pub f_t4: f64,
    /// The best permutation, 0-based: facility i goes to location `order[i]`; `orderLength`
    /// entries.
    pub order: *mut u16,
    /// Entries of `order` (nElements).
    pub orderLength: u16,
    /// Iterations of the run (neighbourhood evaluations).
    pub lastIteration: u32,
    /// The final string, Gray-coded, one parameter per word, relative to the run's base
    /// `initOrder`: passing both back continues from this result.
    pub K_GC: *mut u32,
    /// Entries of `K_GC` (2 * swaps).
    pub K_GCLength: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// Which field of a result holds its cost (`result_type`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQapResultType {
    /// The call failed; no cost.
    MetaoptQapResultError = 0,
    /// `f_t1` (int64), for int32 and int64 data.
    MetaoptQapResultInt64 = 1,
    /// `f_t2` (uint64), for uint32 and uint64 data.
    MetaoptQapResultUint64 = 2,
    /// `f_t3` (float), for float32 data.
    MetaoptQapResultFloat = 3,
    /// `f_t4` (double), for float64 data.
    MetaoptQapResultDouble = 4,
}

/// Where an instance evaluates its neighbourhoods (`metaopt_qap_set_backend`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptBackend {
    /// The OpenCL device in use when the solver is (re)built (the default).
    MetaoptBackendDevice = 0,
    /// The rayon CPU backend.
    MetaoptBackendCpu = 1,
}

/// How a row's cost is computed (`metaopt_qap_set_backend`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQapCostForm {
    /// The O(n) delta form (the default).
    MetaoptQapCostDelta = 0,
    /// The thesis's full O(n^2) sum.
    MetaoptQapCostFull = 1,
}

/// Where the first run of `metaopt_qap_solve` starts (`MetaoptQapSolveOptions.start`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQapStart {
    /// A random permutation from the seed.
    MetaoptQapStartRandom = 0,
    /// The identity permutation.
    MetaoptQapStartIdentity = 1,
    /// The assignment of the Gilmore-Lawler bound; only for instances made by
    /// `metaopt_qap_params_from_file`.
    MetaoptQapStartGlb = 2,
    /// `MetaoptQapSolveOptions.start_order`.
    MetaoptQapStartGiven = 3,
    /// Projected from the eigenvalue bound (thesis Table 5's HRW); instances from files only.
    MetaoptQapStartHrw = 4,
    /// Projected from the projected eigenvalue bound of Hadley, Rendl and Wolkowicz (Table 5's
    /// PE, "semidefinite bound"); instances from files only.
    MetaoptQapStartPe = 5,
    /// Projected from the convex quadratic programming bound of Anstreicher and Brixius (Table 5's
    /// AB); instances from files only.
    MetaoptQapStartAb = 6,
}

/// What follows a run of `metaopt_qap_solve` (`MetaoptQapSolveOptions.restart`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQapRestart {
    /// Rebase on the best permutation while that improves it, else restart at random.
    MetaoptQapRestartRebase = 0,
    /// Always restart from a new random permutation.
    MetaoptQapRestartRandom = 1,
}

/// Options of `metaopt_qap_solve`; start from `metaopt_qap_default_solve_options()` and change
/// fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptQapSolveOptions {
    /// Most runs (HC12 climbs); 0 = no limit, then a time limit or a `stop_token` must be given
    /// (a target alone may be unreachable; with only a token, the caller ends the solve).
    pub runs: u32,
    /// Time limit in seconds (0..=1e9; checked between climb steps and runs); 0 = none. NaN,
    /// infinite, negative or larger values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// Seed of the random starts: the same seed gives the same result on every device.
    pub seed: u64,
    /// A `MetaoptQapStart` value.
    pub start: i32,
    /// For `METAOPT_QAP_START_GIVEN`: nElements entries, a 0-based permutation (borrowed, read
    /// during the call only); ignored otherwise.
    pub start_order: *const u16,
    /// A `MetaoptQapRestart` value.
    pub restart: i32,
    /// 1 to stop once the best cost is at or below `target`.
    pub has_target: u8,
    /// The target cost (used when `has_target` is 1).
    pub target: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a file the solve writes its whole state to (atomically) when it ends and every
    /// `checkpoint_every_s` seconds (between runs); `metaopt_qap_load_state` with its bytes
    /// continues it.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the solve ends.
    pub checkpoint_every_s: f64,
}

/// The result of `metaopt_qap_solve`: the best over all runs. The cost sits in the field that
/// `result_type` names, as in `MetaoptQapRunResult`. `permutation` and `error_message` are owned by
/// the caller: free them with `metaopt_qap_free_solve_result` (or each with
/// `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptQapSolveResult {
    /// A `MetaoptQapResultType`: which of `f_t1`..`f_t4` holds the best cost.
    pub result_type: i32,
    /// The cost of integer-signed data.
    pub f_t1: i64,
    /// The cost of unsigned data.
    pub f_t2: u64,
    /// The cost of float32 data.
    pub f_t3: f32,
    /// The cost of float64 data.
    pub f_t4: f64,
    /// The best permutation, 0-based; `permutation_length` entries.
    pub permutation: *mut u16,
    /// Entries of `permutation` (nElements).
    pub permutation_length: u32,
    /// Runs made.
    pub runs: u32,
    /// Iterations over all runs.
    pub iterations: u64,
    /// Iterations of the run that found the best.
    pub best_run_iterations: u32,
    /// Rows evaluated over all runs.
    pub evaluations: u64,
    /// Wall time of the solve in seconds.
    pub seconds: f64,
    /// Seconds until the best was first found.
    pub seconds_to_best: f64,
    /// 1 when the target ended the solve.
    pub target_reached: u8,
    /// 1 when the instance came from a file with a `BKS.csv` beside it that lists it.
    pub has_bks: u8,
    /// The best-known value (when `has_bks`).
    pub bks: i64,
    /// 100 * (cost - bks) / |bks| (when `has_bks`).
    pub gap_percent: f64,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// A `MetaoptStopReason`: why the solve ended.
    pub stop_reason: i32,
}

/// What `metaopt_qap_info` reports of an instance (sizes for `initOrder` and `initK`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MetaoptQapInfo {
    /// Problem size n: entries of a permutation (`initOrder`).
    pub n_elements: u32,
    /// Number of matrix slices (scenarios, summed).
    pub n_slices: u32,
    /// Swaps per string.
    pub swaps: u32,
    /// Words of a string (`initK`): 2 * swaps.
    pub k_length: u32,
    /// Bits per parameter: ceil(log2 n) unless `metaopt_qap_set_bits_per_param` set more.
    pub bits_per_param: u32,
    /// Rows of one neighbourhood (evaluations per iteration).
    pub rows: u64,
    /// The `MetaoptQapResultType` of this instance's costs.
    pub result_type: i32,
    /// The `MetaoptBackend` in use.
    pub backend: i32,
    /// The `MetaoptQapCostForm` in use.
    pub cost_form: i32,
    /// The cap on iterations per run.
    pub max_iterations: u32,
}

owned_result!(MetaoptQapParamsResult);
owned_result!(MetaoptQapRunResult: frees order, K_GC; zeroes orderLength, K_GCLength);
owned_result!(MetaoptQapSolveResult: frees permutation; zeroes permutation_length);
plain_result!(MetaoptQapSolveOptions, MetaoptTabuOptions);

/// `result_type` and `f_t1`..`f_t4` of a cost.
pub(super) struct CostFields(
    pub(super) i32,
    pub(super) i64,
    pub(super) u64,
    pub(super) f32,
    pub(super) f64,
);

impl From<Cost> for CostFields {
    fn from(c: Cost) -> Self {
        let mut f = CostFields(c.result_type(), 0, 0, 0.0, 0.0);
        match c {
            Cost::I64(v) => f.1 = v,
            Cost::U64(v) => f.2 = v,
            Cost::F32(v) => f.3 = v,
            Cost::F64(v) => f.4 = v,
        }
        f
    }
}

/// The solver's settings, kept to rebuild it when the backend changes.
#[derive(Clone, Copy)]
struct Settings {
    swaps: u32,
    mask_order: u32,
    start_bit: i32,
    bit_length: i32,
    backend: MetaoptBackend,
    /// The device of the device backend; `None` = the device in use when (re)built.
    device: Option<usize>,
    form: MetaoptQapCostForm,
    /// Bits per parameter; 0 = ceil(log2 n).
    nbit: u32,
}

impl Settings {
    fn build(&self, problem: Arc<QapProblem>) -> Result<QapHc12> {
        let backend = match self.backend {
            MetaoptBackend::MetaoptBackendDevice => Backend::Device(self.device),
            MetaoptBackend::MetaoptBackendCpu => Backend::Cpu,
        };
        let form = match self.form {
            MetaoptQapCostForm::MetaoptQapCostDelta => CostForm::Delta,
            MetaoptQapCostForm::MetaoptQapCostFull => CostForm::Full,
        };
        QapHc12::with_bits(
            problem,
            self.swaps,
            self.nbit,
            self.mask_order,
            self.start_bit.into(),
            self.bit_length.into(),
            backend,
            form,
        )
    }
}

/// What a `MetaoptQapInstance *` points to (behind the registry's magic number).
pub(crate) struct Handle {
    problem: Arc<QapProblem>,
    /// HC12 on the instance; None where it does not take the instance (n above
    /// `crate::hc12::qap::MAX_N`: the tabu search runs it, the HC12 calls answer HC12's error).
    solver: Option<QapHc12>,
    settings: Settings,
    /// The QAPLIB instance, for the GLB start (instances from files only).
    instance: Option<QapInstance>,
    bks: Option<i64>,
    /// The robust tabu search of `metaopt_qap_ts_solve`, kept between calls for its state
    /// (`metaopt_qap_ts_save_state`, `metaopt_qap_ts_load_state`).
    ts: Option<crate::qap_ts::QapTs>,
    /// A state of `metaopt_qap_load_state` that the next `metaopt_qap_solve` continues.
    resume: Option<Vec<u8>>,
}

impl Handle {
    /// The instance's problem, backend (`metaopt_qap_set_backend`) and best-known value, for the
    /// other QAP solvers over the same handle (`qap_ts.rs`).
    pub(super) fn shared(&self) -> (Arc<QapProblem>, Backend, Option<i64>) {
        let backend = match self.settings.backend {
            MetaoptBackend::MetaoptBackendDevice => Backend::Device(self.settings.device),
            MetaoptBackend::MetaoptBackendCpu => Backend::Cpu,
        };
        (self.problem.clone(), backend, self.bks)
    }

    /// HC12 on the instance, or the error that says why it does not take it.
    fn hc12(&mut self) -> Result<&mut QapHc12> {
        hc12_of(&mut self.solver, self.problem.n)
    }

    /// The instance's tabu search on its current backend: the one of the last call, or a new one
    /// (after `metaopt_qap_set_backend`) that keeps a loaded state not used yet.
    pub(super) fn ts(&mut self) -> Result<&mut crate::qap_ts::QapTs> {
        let (problem, backend, _) = self.shared();
        if !self.ts.as_ref().is_some_and(|t| t.backend() == backend) {
            let mut t = crate::qap_ts::QapTs::new(problem, backend)?;
            if let Some(bytes) = self.ts.as_mut().and_then(|old| old.take_loaded_state()) {
                t.load_state(bytes)?;
            }
            self.ts = Some(t);
        }
        Ok(self.ts.as_mut().expect("made above"))
    }

    /// The tabu search of the last call on any backend (a state saved after a call that switched
    /// the backend for itself), else the instance's.
    pub(super) fn last_ts(&mut self) -> Result<&mut crate::qap_ts::QapTs> {
        match self.ts {
            Some(ref mut t) => Ok(t),
            None => self.ts(),
        }
    }
}

/// The HC12 solver of a handle of an n-element instance, or HC12's refusal of n (the only
/// reason a handle has none).
fn hc12_of(solver: &mut Option<QapHc12>, n: usize) -> Result<&mut QapHc12> {
    match solver {
        Some(s) => Ok(s),
        None => Err(crate::hc12::qap::check_size(n)
            .err()
            .unwrap_or_else(|| Error::arg("n", "HC12 is not built on this instance"))),
    }
}

fn new_handle(
    problem: QapProblem,
    settings: Settings,
    instance: Option<QapInstance>,
    bks: Option<i64>,
) -> Result<*mut MetaoptQapInstance> {
    let problem = Arc::new(problem);
    // an instance HC12 does not take is still an instance of the tabu search
    let solver = match problem.n <= crate::hc12::qap::MAX_N {
        true => Some(settings.build(problem.clone())?),
        false => None,
    };
    Ok(handle::insert(Handle {
        problem,
        solver,
        settings,
        instance,
        bks,
        ts: None,
        resume: None,
    }))
}

/// Element types of QAP matrices as the C caller passes them.
trait Elem: Copy + Default + PartialEq {
    fn matrices(a: Vec<Self>, b: Vec<Self>) -> QapMatrices;
}

macro_rules! elem {
    ($($t:ty => $variant:ident),*) => {$(
        impl Elem for $t {
            fn matrices(a: Vec<Self>, b: Vec<Self>) -> QapMatrices {
                QapMatrices::$variant(a, b)
            }
        }
    )*};
}
elem!(i32 => I32, i64 => I64, u32 => U32, u64 => U64, f32 => F32, f64 => F64);

/// Calls the generic function `$f::<T>(args)` with the Rust type `T` of an [`ElemType`].
macro_rules! with_elem_type {
    ($ty:expr, $f:ident($($arg:expr),*)) => {
        match $ty {
            ElemType::I32 => $f::<i32>($($arg),*),
            ElemType::I64 => $f::<i64>($($arg),*),
            ElemType::U32 => $f::<u32>($($arg),*),
            ElemType::U64 => $f::<u64>($($arg),*),
            ElemType::F32 => $f::<f32>($($arg),*),
            ElemType::F64 => $f::<f64>($($arg),*),
        }
    };
}

/// Elements of nSlices matrices of n x n, checked before anything is read through a pointer.
fn matrix_len(n: u32, slices: u32) -> Result<usize> {
    if n < 2 || n as usize > MAX_N {
        return Err(Error::arg("nElements", format!("{n}; expected 2..{MAX_N}")));
    }
    if slices == 0 {
        return Err(Error::arg("nSlices", "0; expected at least 1"));
    }
    (n as usize)
        .checked_mul(n as usize)
        .and_then(|nn| nn.checked_mul(slices as usize))
        .ok_or_else(|| {
            Error::arg(
                "nSlices",
                format!("{slices} slices of {n} x {n} overflow the address space"),
            )
        })
}

/// The element type called `name`, the error naming argument `arg`.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string.
unsafe fn elem_type(name: *const c_char, arg: &'static str) -> Result<ElemType> {
    // SAFETY: forwarded contract.
    let name = unsafe { str_arg(name, arg)? };
    ElemType::from_name(name).map_err(|e| match e {
        Error::UnsupportedType { name, expected, .. } => Error::UnsupportedType {
            arg,
            name,
            expected,
        },
        e => e,
    })
}

/// # Safety
/// `df` must hold `len` elements of `T`.
unsafe fn df_matrices<T: Elem>(
    n: usize,
    slices: usize,
    len: usize,
    df: *const c_void,
) -> Result<QapMatrices> {
    // SAFETY: forwarded contract.
    let df = unsafe { copy_in::<T>(df, len, "DF")? };
    let (a, b) = split_df(n, slices, &df)?;
    Ok(T::matrices(a, b))
}

/// # Safety
/// `a` and `b` must hold `len` elements of `T` each.
unsafe fn ab_matrices<T: Elem>(
    len: usize,
    a: *const c_void,
    b: *const c_void,
) -> Result<QapMatrices> {
    // SAFETY: forwarded contract.
    unsafe { Ok(T::matrices(copy_in(a, len, "A")?, copy_in(b, len, "B")?)) }
}

/// A C device number: -1 the device in use (`None`), else a number of the device list; errors
/// name `device`.
fn device_arg(device: i32) -> Result<Option<usize>> {
    match device {
        -1 => Ok(None),
        d if d < -1 => Err(Error::arg(
            "device",
            format!("{d}; expected a device number or -1 (the device in use)"),
        )),
        d => Ok(Some(crate::device::check_index(d as i64, "device")?)),
    }
}

fn default_settings(swaps: u32, mask_order: u32, start_bit: i32, bit_length: i32) -> Settings {
    Settings {
        swaps,
        mask_order,
        start_bit,
        bit_length,
        backend: MetaoptBackend::MetaoptBackendDevice,
        device: None,
        form: MetaoptQapCostForm::MetaoptQapCostDelta,
        nbit: 0,
    }
}

/// A 0-based permutation of `n` entries from a caller's array.
///
/// # Safety
/// `p` must be NULL or hold `n` entries.
unsafe fn order_arg(p: *const u16, n: usize, arg: &'static str) -> Result<Vec<usize>> {
    // SAFETY: forwarded contract.
    Ok(unsafe { copy_in::<u16>(p.cast(), n, arg)? }
        .into_iter()
        .map(usize::from)
        .collect())
}

/// Creates a QAP instance from the thesis's combined matrix DF: nSlices consecutive row-major
/// nElements x nElements matrices whose part below the diagonal is the flow matrix and whose part
/// above it is the distance matrix (both symmetric; the diagonal must be zero). `DF_type_name` is
/// one of `int32`, `int64`, `uint32`, `uint64`, `single`/`float`/`float32`,
/// `double`/`float64`; float data must be finite. The string of a solution holds 2 * `swaps`
/// parameters (1..64 swaps); `maskOrder` (1..3) is the Hamming radius of the neighbourhood, and
/// `startBit`/`bitLength` (both >= 0, `bitLength` 0 = to the end; a negative one is `METAOPT_ERR_INVALID_ARGUMENT` naming it) the window of the string it acts on. The solver is
/// built on the device in use (see `metaopt_qap_set_backend`). DF is copied: the caller keeps
/// ownership of it. On success `instance` is a new handle the caller releases with
/// `metaopt_qap_free`; on error the message is the caller's to free with
/// `metaopt_pointer_free`.
///
/// # Safety
/// `DF` must be NULL or hold nElements * nElements * nSlices elements of the named type;
/// `DF_type_name` must be NULL or a NUL-terminated string.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_qap_params(
    swaps: u32,
    nElements: u32,
    nSlices: u32,
    DF: *const c_void,
    DF_type_name: *const c_char,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
) -> MetaoptQapParamsResult {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        metaopt_qap_params_on_device(
            swaps,
            nElements,
            nSlices,
            DF,
            DF_type_name,
            maskOrder,
            startBit,
            bitLength,
            -1,
        )
    }
}

/// `metaopt_qap_params` on device `device`: a number of the device list, or -1 for the device in
/// use (`metaopt_device_set_number`). Instances on different devices may run from different
/// threads. A number below -1 or not in the list is `METAOPT_ERR_INVALID_ARGUMENT` naming
/// `device`.
///
/// # Safety
/// As `metaopt_qap_params`.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_qap_params_on_device(
    swaps: u32,
    nElements: u32,
    nSlices: u32,
    DF: *const c_void,
    DF_type_name: *const c_char,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    device: i32,
) -> MetaoptQapParamsResult {
    ffi_boundary!({
        let device = device_arg(device)?;
        if DF.is_null() {
            return Err(Error::NullPointer("DF"));
        }
        // SAFETY: the caller's contract.
        let ty = unsafe { elem_type(DF_type_name, "DF_type_name")? };
        let len = matrix_len(nElements, nSlices)?;
        let (n, slices) = (nElements as usize, nSlices as usize);
        // SAFETY: the caller's contract, for the length checked above.
        let data = unsafe { with_elem_type!(ty, df_matrices(n, slices, len, DF))? };
        let problem = QapProblem::new("DF", n, slices, data)?;
        let settings = Settings {
            device,
            ..default_settings(swaps, maskOrder, startBit, bitLength)
        };
        let instance = new_handle(problem, settings, None, None)?;
        MetaoptQapParamsResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// As `metaopt_qap_params`, from the two matrix stacks of a general (possibly asymmetric) instance:
/// `A` the flow matrices (indexed by facilities) and `B` the distance matrices (indexed by
/// locations), each nSlices consecutive row-major nElements x nElements matrices of `type_name`
/// elements. The cost of a permutation p is the sum over slices, i and j of
/// `A[i][j] * B[p[i]][p[j]]`. A and B are copied. Ownership as in `metaopt_qap_params`.
///
/// # Safety
/// `A` and `B` must be NULL or hold nElements * nElements * nSlices elements of the named type
/// each; `type_name` must be NULL or a NUL-terminated string.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_qap_params_ab(
    swaps: u32,
    nElements: u32,
    nSlices: u32,
    A: *const c_void,
    B: *const c_void,
    type_name: *const c_char,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
) -> MetaoptQapParamsResult {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        metaopt_qap_params_ab_on_device(
            swaps, nElements, nSlices, A, B, type_name, maskOrder, startBit, bitLength, -1,
        )
    }
}

/// `metaopt_qap_params_ab` on device `device` (as `metaopt_qap_params_on_device`).
///
/// # Safety
/// As `metaopt_qap_params_ab`.
#[no_mangle]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub unsafe extern "C" fn metaopt_qap_params_ab_on_device(
    swaps: u32,
    nElements: u32,
    nSlices: u32,
    A: *const c_void,
    B: *const c_void,
    type_name: *const c_char,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    device: i32,
) -> MetaoptQapParamsResult {
    ffi_boundary!({
        let device = device_arg(device)?;
        if A.is_null() {
            return Err(Error::NullPointer("A"));
        }
        if B.is_null() {
            return Err(Error::NullPointer("B"));
        }
        // SAFETY: the caller's contract.
        let ty = unsafe { elem_type(type_name, "type_name")? };
        let len = matrix_len(nElements, nSlices)?;
        // SAFETY: the caller's contract, for the length checked above.
        let data = unsafe { with_elem_type!(ty, ab_matrices(len, A, B))? };
        let problem = QapProblem::new("AB", nElements as usize, nSlices as usize, data)?;
        let settings = Settings {
            device,
            ..default_settings(swaps, maskOrder, startBit, bitLength)
        };
        let instance = new_handle(problem, settings, None, None)?;
        MetaoptQapParamsResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// As `metaopt_qap_params`, from a QAPLIB `.dat` file (int64 data, one slice). The instance keeps
/// the file's matrices, so `METAOPT_QAP_START_GLB` works, and the best-known value from a `BKS.csv`
/// in the same folder (a missing or malformed `BKS.csv` only means no BKS). The path must be UTF-8.
/// Ownership as in `metaopt_qap_params`.
///
/// # Safety
/// `dat_path` must be NULL or a NUL-terminated string.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_qap_params_from_file(
    dat_path: *const c_char,
    swaps: u32,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
) -> MetaoptQapParamsResult {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        metaopt_qap_params_from_file_on_device(dat_path, swaps, maskOrder, startBit, bitLength, -1)
    }
}

/// `metaopt_qap_params_from_file` on device `device` (as `metaopt_qap_params_on_device`).
///
/// # Safety
/// As `metaopt_qap_params_from_file`.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_qap_params_from_file_on_device(
    dat_path: *const c_char,
    swaps: u32,
    maskOrder: u32,
    startBit: i32,
    bitLength: i32,
    device: i32,
) -> MetaoptQapParamsResult {
    ffi_boundary!({
        let device = device_arg(device)?;
        // SAFETY: the caller's contract.
        let path = Path::new(unsafe { str_arg(dat_path, "dat_path")? });
        let inst = QapInstance::from_dat(path)?;
        let bks = find_bks(path).ok().flatten().map(|b| b.bks);
        let problem = QapProblem::from_instance_as(&inst, ElemType::I64)?;
        let settings = Settings {
            device,
            ..default_settings(swaps, maskOrder, startBit, bitLength)
        };
        let instance = new_handle(problem, settings, Some(inst), bks)?;
        MetaoptQapParamsResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// Rebuilds the solver of `h` with another backend (`MetaoptBackend`: 0 the device in use now,
/// 1 the CPU) and cost form (`MetaoptQapCostForm`: 0 delta, 1 full); the iteration cap is kept. On
/// error the instance keeps its previous solver. The result is 0; an error message is the
/// caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_set_backend(
    h: *mut MetaoptQapInstance,
    backend: i32,
    cost_form: i32,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract, passed on.
    unsafe { metaopt_qap_set_backend_on_device(h, backend, cost_form, -1) }
}

/// `metaopt_qap_set_backend` with the device named: `device` is a number of the device list, or
/// -1 for the device in use (`metaopt_device_set_number`); ignored by the CPU backend. A number
/// below -1 or not in the list is `METAOPT_ERR_INVALID_ARGUMENT` naming `device` (the instance
/// keeps its solver). The robust tabu search over the instance (`metaopt_qap_ts_solve`) runs on
/// this device too.
///
/// # Safety
/// As `metaopt_qap_set_backend`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_set_backend_on_device(
    h: *mut MetaoptQapInstance,
    backend: i32,
    cost_form: i32,
    device: i32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let device = if backend == 0 || device < -1 {
            device_arg(device)?
        } else {
            None
        };
        let backend = match backend {
            0 => MetaoptBackend::MetaoptBackendDevice,
            1 => MetaoptBackend::MetaoptBackendCpu,
            b => return Err(not_one_of("backend", b, "0 (device) or 1 (CPU)")),
        };
        let form = match cost_form {
            0 => MetaoptQapCostForm::MetaoptQapCostDelta,
            1 => MetaoptQapCostForm::MetaoptQapCostFull,
            f => return Err(not_one_of("cost_form", f, "0 (delta) or 1 (full)")),
        };
        let settings = Settings {
            backend,
            form,
            device,
            ..h.settings
        };
        rebuild(&mut h, settings)?;
        MetaoptInt32Result::ok(0)
    })
}

/// Rebuilds the instance's solver with new settings, keeping its iteration cap and tabu list.
fn rebuild(h: &mut Handle, settings: Settings) -> Result<()> {
    if let Some(old) = &h.solver {
        let mut solver = settings.build(h.problem.clone())?;
        solver.max_iterations = old.max_iterations;
        if let Some(cfg) = old.tabu_config() {
            solver.init_tabu_list(cfg.clone())?;
        }
        h.solver = Some(solver);
    } else if let MetaoptBackend::MetaoptBackendDevice = settings.backend {
        // no HC12 to rebuild: the device is checked here as the rebuild would
        Backend::Device(settings.device).context("QAP")?;
    }
    h.settings = settings;
    Ok(())
}

/// Sets the bits per parameter of the instance's strings (the thesis's `nBitParam` of its C++
/// `Params` and MEX `params`): 0 or ceil(log2 n) is the default; more, up to 32, is a longer
/// string whose parameters decode to I below 2^nBitParam and name position `I mod n` (as the
/// thesis's kernel, docs/specs/QAP.md); fewer than ceil(log2 n) is
/// `METAOPT_ERR_INVALID_ARGUMENT` naming `nBitParam` (positions no swap could reach). The
/// neighbourhood (rows) and `k_length` strings' word range change with it; the tabu list and
/// the iteration cap are kept. The result is 0; an error message is the caller's to free with
/// `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_qap_set_bits_per_param(
    h: *mut MetaoptQapInstance,
    nBitParam: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let settings = Settings {
            nbit: nBitParam,
            ..h.settings
        };
        rebuild(&mut h, settings)?;
        MetaoptInt32Result::ok(0)
    })
}

/// Sets the cap on iterations per run (at least 1; the default is 1,000,000). The result is 0;
/// an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_set_max_iterations(
    h: *mut MetaoptQapInstance,
    max_iterations: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        if max_iterations == 0 {
            return Err(Error::arg("max_iterations", "0; expected at least 1"));
        }
        h.hc12()?.max_iterations = max_iterations;
        MetaoptInt32Result::ok(0)
    })
}

/// Options of the tabu list (thesis Table 1: `set-tabu-list`, `run:taboo`, `activationLimit`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptTabuOptions {
    /// Nonzero: the list is consulted only while the current cost is below `activation_limit`.
    pub has_activation_limit: u8,
    pub activation_limit: f64,
    /// Nonzero: a tabu neighbour better than the best cost ever seen may still be selected.
    pub aspiration: u8,
    /// A tabu run ends after this many iterations (at least 1; default 10,000).
    pub max_iterations: u32,
    /// ... or after this many iterations without a new best (at least 1; default 100).
    pub max_no_improve: u32,
}

/// Turns the tabu list on with room for `maxLength` strings (thesis `init_tabu_list`; 0 turns it
/// off again). Runs then leave local optima by their best neighbour not on the list and end by the
/// limits of `metaopt_qap_set_tabu_options`; each run starts with an empty list. The result is 0;
/// an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_qap_init_tabu_list(
    h: *mut MetaoptQapInstance,
    maxLength: u32,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        if maxLength == 0 {
            h.hc12()?.clear_tabu_list()?;
        } else {
            let mut cfg = h
                .hc12()?
                .tabu_config()
                .cloned()
                .unwrap_or(TabuConfig::new(maxLength as usize)?);
            cfg.max_length = maxLength as usize;
            h.hc12()?.init_tabu_list(cfg)?;
        }
        MetaoptInt32Result::ok(0)
    })
}

/// The default tabu options: no activation limit, no aspiration, 10,000 iterations, 100 without
/// improvement.
#[no_mangle]
pub extern "C" fn metaopt_tabu_default_options() -> MetaoptTabuOptions {
    ffi_boundary!({
        let d = TabuConfig::new(1)?;
        MetaoptTabuOptions {
            has_activation_limit: 0,
            activation_limit: 0.0,
            aspiration: d.aspiration as u8,
            max_iterations: d.max_iterations,
            max_no_improve: d.max_no_improve,
        }
    })
}

/// Sets the options of the tabu list of `h`, which `metaopt_qap_init_tabu_list` must have turned
/// on. The result is 0; an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `opts` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_set_tabu_options(
    h: *mut MetaoptQapInstance,
    opts: *const MetaoptTabuOptions,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: non-null is readable by the caller's contract.
        let o = unsafe { opts.as_ref() }.ok_or(Error::NullPointer("opts"))?;
        let mut cfg = h.hc12()?.tabu_config().cloned().ok_or_else(|| {
            Error::arg("h", "no tabu list: call metaopt_qap_init_tabu_list first")
        })?;
        cfg.activation_limit = (o.has_activation_limit != 0).then_some(o.activation_limit);
        cfg.aspiration = o.aspiration != 0;
        cfg.max_iterations = o.max_iterations;
        cfg.max_no_improve = o.max_no_improve;
        h.hc12()?.init_tabu_list(cfg)?;
        MetaoptInt32Result::ok(0)
    })
}

/// Fills `*out` with the sizes and settings of `h` (e.g. the lengths of `initOrder` and `initK`
/// of an instance read from a file). The result is 0; an error message is the caller's to free
/// with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_info(
    h: *const MetaoptQapInstance,
    out: *mut MetaoptQapInfo,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        if out.is_null() {
            return Err(Error::NullPointer("out"));
        }
        let p = &h.problem;
        // an instance HC12 does not take has no strings and no rows
        let (swaps, k_length, bits, rows, max_iterations) = match &h.solver {
            Some(s) => {
                let nb = s.neighbourhood();
                (s.swaps(), nb.n_param, nb.nbit, nb.rows, s.max_iterations)
            }
            None => (h.settings.swaps, 0, 0, 0, 0),
        };
        let info = MetaoptQapInfo {
            n_elements: p.n as u32,
            n_slices: p.slices as u32,
            swaps,
            k_length,
            bits_per_param: bits,
            rows,
            result_type: p.elem_type().ft_kind() as i32,
            backend: h.settings.backend as i32,
            cost_form: h.settings.form as i32,
            max_iterations,
        };
        // SAFETY: non-null and writable by the caller's contract.
        unsafe { out.write(info) };
        MetaoptInt32Result::ok(0)
    })
}

/// One HC12 run from base permutation `initOrder` (nElements entries, 0-based; NULL = identity)
/// and string `initK` (2 * swaps Gray-coded words below 2^bits_per_param; NULL = zeros, i.e. the
/// base itself), to a local optimum or the iteration cap. Both arrays are borrowed for the call.
/// The arrays and message of the result are the caller's: free them with
/// `metaopt_qap_free_run_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `initOrder` and `initK` NULL or holding the number of entries above.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_qap_run(
    h: *mut MetaoptQapInstance,
    initOrder: *const u16,
    initK: *const u32,
) -> MetaoptQapRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let n = h.problem.n;
        let k_len = h.hc12()?.neighbourhood().n_param as usize;
        // SAFETY: the caller's contract for the lengths.
        let base = (!initOrder.is_null())
            .then(|| unsafe { order_arg(initOrder, n, "initOrder") })
            .transpose()?;
        let k = (!initK.is_null())
            .then(|| unsafe { copy_in::<u32>(initK.cast(), k_len, "initK") })
            .transpose()?;
        let out = h.hc12()?.run(base.as_deref(), k.as_deref())?;
        let order: Vec<u16> = out.order.iter().map(|&v| v as u16).collect();
        let (order, k_gc) = (CArray::from_slice(&order)?, CArray::from_slice(&out.k_gc)?);
        let c = CostFields::from(out.cost);
        let (error_code, error_message) = stop_status(out.interrupted, "metaopt_qap_run");
        MetaoptQapRunResult {
            result_type: c.0,
            f_t1: c.1,
            f_t2: c.2,
            f_t3: c.3,
            f_t4: c.4,
            order: order.into_raw(),
            orderLength: n as u16,
            lastIteration: out.iterations,
            K_GC: k_gc.into_raw(),
            K_GCLength: out.k_gc.len() as u32,
            error_code,
            error_message,
        }
    })
}

/// Frees the arrays and the message of a `MetaoptQapRunResult` and sets them to NULL (so a second
/// call is harmless); the struct itself belongs to the caller. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a `MetaoptQapRunResult` returned by `metaopt_qap_run` (or already
/// freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_free_run_result(r: *mut MetaoptQapRunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The default options: 100 runs, no time limit, seed 1, random start, rebase restarts, no
/// target.
#[no_mangle]
pub extern "C" fn metaopt_qap_default_solve_options() -> MetaoptQapSolveOptions {
    ffi_boundary!({
        let d = QapSolveOptions::default();
        MetaoptQapSolveOptions {
            runs: d.stop.budget.map_or(0, |n| n as u32),
            time_limit_s: 0.0,
            seed: d.seed,
            start: MetaoptQapStart::MetaoptQapStartRandom as i32,
            start_order: ptr::null(),
            restart: MetaoptQapRestart::MetaoptQapRestartRebase as i32,
            has_target: 0,
            target: 0.0,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// The Rust options of C options.
///
/// # Safety
/// `o.start_order` must be NULL or hold `n` entries; `o.checkpoint_path` NULL or a
/// NUL-terminated string.
unsafe fn solve_options(o: &MetaoptQapSolveOptions, n: usize) -> Result<QapSolveOptions> {
    let start = match o.start {
        0 => Start::Random,
        1 => Start::Identity,
        2 => Start::Glb,
        // SAFETY: the caller's contract.
        3 => Start::Given(unsafe { order_arg(o.start_order, n, "start_order")? }),
        4 => Start::Hrw,
        5 => Start::Pe,
        6 => Start::Ab,
        s => {
            return Err(not_one_of(
                "start",
                s,
                "0 (random), 1 (identity), 2 (GLB), 3 (given), 4 (HRW), 5 (PE) or 6 (AB)",
            ))
        }
    };
    let restart = match o.restart {
        0 => RestartMode::Rebase,
        1 => RestartMode::Random,
        r => return Err(not_one_of("restart", r, "0 (rebase) or 1 (random)")),
    };
    let time_limit = crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?;
    Ok(QapSolveOptions {
        // SAFETY: the caller's contract: NULL or a stop token.
        stop: Stop {
            budget: (o.runs != 0).then_some(u64::from(o.runs)),
            time_limit,
            target: (o.has_target != 0).then_some(o.target),
            token: unsafe { token_arg(o.stop_token, "stop_token")? },
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s)? },
            ..Stop::default()
        },
        seed: o.seed,
        start,
        restart,
    })
}

/// The iterated solve (runs from a start, rebasing or restarting, until the run count, the time
/// limit or the target ends it), on the instance's backend. `opts` is borrowed for the call. The
/// permutation and message of the result are the caller's: free them with
/// `metaopt_qap_free_solve_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `opts` NULL or valid, with `start_order` as its documentation says.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_solve(
    h: *mut MetaoptQapInstance,
    opts: *const MetaoptQapSolveOptions,
) -> MetaoptQapSolveResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { opts.as_ref() }.ok_or(Error::NullPointer("opts"))?;
        let n = h.problem.n;
        // SAFETY: the caller's contract.
        let opts = unsafe { solve_options(o, n)? };
        let h = &mut *h;
        // a loaded state is used up by this solve, which fails if its options differ
        if let Some(bytes) = h.resume.take() {
            h.hc12()?.load_state(&bytes, &opts)?;
        }
        let Handle {
            solver, instance, ..
        } = &mut *h;
        let r = solve(hc12_of(solver, n)?, &opts, instance.as_ref(), |_| {})?;
        let perm: Vec<u16> = r.permutation.iter().map(|&v| v as u16).collect();
        let perm = CArray::from_slice(&perm)?;
        let c = CostFields::from(r.cost);
        let (error_code, error_message) =
            stop_status(r.stop == StopReason::Interrupted, "metaopt_qap_solve");
        MetaoptQapSolveResult {
            result_type: c.0,
            f_t1: c.1,
            f_t2: c.2,
            f_t3: c.3,
            f_t4: c.4,
            permutation: perm.into_raw(),
            permutation_length: n as u32,
            runs: r.runs,
            iterations: r.iterations,
            best_run_iterations: r.best_run_iterations,
            evaluations: r.evaluations,
            seconds: r.seconds,
            seconds_to_best: r.seconds_to_best,
            target_reached: r.target_reached as u8,
            has_bks: h.bks.is_some() as u8,
            bks: h.bks.unwrap_or(0),
            gap_percent: h
                .bks
                .map_or(0.0, |b| gap_percent(r.cost.as_f64(), b as f64)),
            error_code,
            error_message,
            stop_reason: r.stop.code(),
        }
    })
}

/// The whole state of the instance's last `metaopt_qap_solve` (runs made, counters, the best
/// permutation and every run's figures, the last run, the random restarts' position, the
/// seconds taken) as checkpoint bytes, the caller's to free with `metaopt_bytes_free_result`.
/// The state is taken between runs: a run cut short is not in it (a continued solve climbs it
/// again). An error naming `state` if no solve has run on the instance since it was made or its
/// solver rebuilt (`metaopt_qap_set_backend`, `metaopt_qap_set_bits_per_param`).
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_save_state(h: *mut MetaoptQapInstance) -> MetaoptBytesResult {
    // SAFETY: the caller's contract.
    unsafe { save_state_call(h, "h", |h| h.hc12()?.save_state()) }
}

/// The next `metaopt_qap_solve` on the instance continues the solve whose state `data` holds
/// (`length` bytes of `metaopt_qap_save_state` or of a checkpoint file) instead of starting
/// afresh, and ends as it would have: its options, the string's shape (bits, mask order,
/// window) and the tabu list must be those of the saved solve (its run count and time limit may
/// be larger; they count the work already done). Checked now: the bytes' frame and checksum, the
/// library version, the solver and the problem (errors name `data`); the options when the solve
/// starts (errors name `state`), and that solve uses the state up, failing or not. `result` is 0
/// on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_load_state(
    h: *mut MetaoptQapInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(h, "h", data, length, |h, bytes| {
            h.hc12()?.check_state(&bytes, "data")?;
            h.resume = Some(bytes);
            Ok(())
        })
    }
}

/// Frees the permutation and the message of a `MetaoptQapSolveResult` and sets them to NULL (so a
/// second call is harmless); the struct itself belongs to the caller. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_qap_solve` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_free_solve_result(r: *mut MetaoptQapSolveResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Releases an instance and its device buffers. NULL, and a pointer that is not a live instance
/// (e.g. one freed already), are ignored.
///
/// # Safety
/// `h` must not be in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_free(h: *mut MetaoptQapInstance) {
    ffi_boundary!({
        // SAFETY: the caller's contract; unregistered pointers are ignored.
        unsafe { handle::free(h) }
    })
}
