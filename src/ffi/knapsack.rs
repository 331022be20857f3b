//! The 0/1 knapsack problem over the C ABI (`crate::problem::knapsack`, docs/specs/QIGA.md): an
//! instance from a file, from real arrays or from a generator, its data, the exact optimum and
//! the evaluation of a bit string. `metaopt_qiga_run` (`qiga.rs`) solves such an instance.

use super::handle::{self, opaque_handle};
use super::{c_string, copy_in, ffi_boundary, free_result, owned_result, str_arg, CArray};
use crate::error::{Error, Result};
use crate::problem::knapsack::{CapacityRule, GenerateOptions, Knapsack, KnapsackKind};
use std::ffi::c_char;
use std::path::Path;
use std::ptr;

/// A 0/1 knapsack instance. Opaque: made by `metaopt_knapsack_from_file`,
/// `metaopt_knapsack_from_arrays` or `metaopt_knapsack_generate`, released by
/// `metaopt_knapsack_free`. A handle may be used by one thread at a time.
pub struct MetaoptKnapsack {
    _opaque: [u8; 0],
}
opaque_handle!(
    MetaoptKnapsack => Handle,
    b"metaKNP1",
    "metaopt_knapsack_from_file, metaopt_knapsack_from_arrays or metaopt_knapsack_generate"
);

/// The classes of `metaopt_knapsack_generate` (Han & Kim's, and Pisinger's four).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptKnapsackKind {
    /// Han & Kim: w uniform in [1, 10) on a grid of 10^-6, p = w + 5, capacity half the total
    /// weight (`range` is ignored).
    MetaoptKnapsackHanKim = 0,
    /// Pisinger: w and p uniform in [1, range], independent.
    MetaoptKnapsackUncorrelated = 1,
    /// Pisinger: w uniform in [1, range], p uniform in [max(1, w - range/10), w + range/10].
    MetaoptKnapsackWeaklyCorrelated = 2,
    /// Pisinger: w uniform in [1, range], p = w + range/10.
    MetaoptKnapsackStronglyCorrelated = 3,
    /// Pisinger: w uniform in [1, range], p = w.
    MetaoptKnapsackSubsetSum = 4,
}

/// The result of the `metaopt_knapsack_from_*` and `metaopt_knapsack_generate` functions.
/// `knapsack` is NULL on error; on success it is a new handle owned by the caller, who releases
/// it with `metaopt_knapsack_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptKnapsackResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub knapsack: *mut MetaoptKnapsack,
    /// Items of the instance (0 on error).
    pub n: u32,
}

/// The data of an instance (`metaopt_knapsack_data`): copies owned by the caller, freed with
/// `metaopt_knapsack_free_data` (or each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptKnapsackData {
    /// Items.
    pub n: u32,
    /// The weights as reals, `n` entries.
    pub weights: *mut f64,
    /// The profits as reals, `n` entries.
    pub profits: *mut f64,
    /// The capacity as a real.
    pub capacity: f64,
    /// The integer form's scale 10^decimals: integer weight = weight * scale exactly.
    pub scale: u64,
    /// Decimals of the data (0..=9).
    pub decimals: u32,
    /// The capacity on the integer scale (at most the total integer weight).
    pub int_capacity: u64,
    /// The instance's name (the file stem, `<kind>-<items>-s<seed>` of a generated one, or
    /// `arrays`).
    pub name: *mut c_char,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// The exact optimum of an instance (`metaopt_knapsack_optimum`). `bits` and the message are the
/// caller's: free them with `metaopt_knapsack_free_optimum_result`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptKnapsackOptimumResult {
    /// The optimal profit as a real (`int_value / scale`).
    pub value: f64,
    /// The optimal profit on the integer scale (exact).
    pub int_value: u64,
    /// The weight of the optimal item set as a real.
    pub weight: f64,
    /// Its weight on the integer scale.
    pub int_weight: u64,
    /// One optimal item set as `n` bytes, 1 for an item taken, else 0.
    pub bits: *mut u8,
    /// Entries of `bits` (the items of the instance).
    pub n: u32,
    /// Items taken.
    pub items_taken: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode` (`METAOPT_ERR_INVALID_ARGUMENT` naming `max_states`
    /// when the exact solver's state list outgrows its limit).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// The profit and weight of one bit string (`metaopt_knapsack_evaluate`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptKnapsackEvaluation {
    /// The profit as a real.
    pub profit: f64,
    /// The weight as a real.
    pub weight: f64,
    /// The profit on the integer scale (exact).
    pub int_profit: u64,
    /// The weight on the integer scale (exact).
    pub int_weight: u64,
    /// 1 when the weight is within the capacity.
    pub feasible: u8,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptKnapsackResult);
owned_result!(MetaoptKnapsackData: frees weights, profits, name; zeroes n);
owned_result!(MetaoptKnapsackOptimumResult: frees bits; zeroes n, items_taken);
owned_result!(MetaoptKnapsackEvaluation);

/// What a `MetaoptKnapsack *` points to: the instance, and the state of its last QIGA run and
/// one loaded for the next (`metaopt_qiga_save_state`, `metaopt_qiga_load_state`).
pub(crate) struct Handle {
    k: Knapsack,
    pub(super) qiga_last: Option<crate::qiga::QigaSaved>,
    pub(super) qiga_resume: Option<Vec<u8>>,
}

impl std::ops::Deref for Handle {
    type Target = Knapsack;
    fn deref(&self) -> &Knapsack {
        &self.k
    }
}

/// A new handle for `k`.
fn new_handle(k: Knapsack) -> Result<MetaoptKnapsackResult> {
    let n = u32::try_from(k.n()).map_err(|_| Error::arg("n", "more than 2^32 - 1 items"))?;
    Ok(MetaoptKnapsackResult {
        error_code: 0,
        error_message: ptr::null_mut(),
        knapsack: handle::insert(Handle {
            k,
            qiga_last: None,
            qiga_resume: None,
        }),
        n,
    })
}

/// Reads an instance file: the QIGA paper's format (`n capacity` then `weight profit` lines) or
/// Pisinger's (`n`, `index profit weight` lines, `capacity`); module documentation of
/// `crate::problem::knapsack`. A file that cannot be read is `METAOPT_ERR_IO`, malformed content
/// `METAOPT_ERR_PARSE` or `METAOPT_ERR_INVALID_ARGUMENT` with the path and line. On success
/// `knapsack` is a new handle the caller releases with `metaopt_knapsack_free`.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_from_file(path: *const c_char) -> MetaoptKnapsackResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let path = unsafe { str_arg(path, "path")? };
        new_handle(Knapsack::from_file(Path::new(path))?)?
    })
}

/// An instance of `n` items (1..=2^20) from real weights (finite, > 0), profits (finite, >= 0)
/// and a capacity (finite, >= 0), each with at most 9 decimals (the integer form's scale is
/// 10^decimals). The arrays are copied. Errors name `n`, `weights`, `profits` or `capacity` and
/// the 0-based item. On success `knapsack` is a new handle the caller releases with
/// `metaopt_knapsack_free`.
///
/// # Safety
/// `weights` and `profits` must be NULL or hold `n` values each.
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_from_arrays(
    n: u32,
    weights: *const f64,
    profits: *const f64,
    capacity: f64,
) -> MetaoptKnapsackResult {
    ffi_boundary!({
        if n == 0 {
            return Err(Error::arg("n", "0; expected at least 1 item"));
        }
        let max = crate::problem::knapsack::MAX_ITEMS;
        if n as usize > max {
            return Err(Error::arg(
                "n",
                format!("{n} items exceed the maximum {max}"),
            ));
        }
        // SAFETY: the caller's contract for `n` values each.
        let w: Vec<f64> = unsafe { copy_in(weights.cast(), n as usize, "weights")? };
        // SAFETY: as above.
        let p: Vec<f64> = unsafe { copy_in(profits.cast(), n as usize, "profits")? };
        new_handle(Knapsack::new("arrays", w, p, capacity)?)?
    })
}

/// A seeded random instance of `items` items (1..=2^20) of class `kind` (a `MetaoptKnapsackKind`),
/// with Pisinger's range R = `range` (1..=10^9; ignored by `METAOPT_KNAPSACK_HAN_KIM`) and the
/// capacity half the total weight; the same arguments give the same instance on every machine.
/// On success `knapsack` is a new handle the caller releases with `metaopt_knapsack_free`.
#[no_mangle]
pub extern "C" fn metaopt_knapsack_generate(
    kind: i32,
    items: u32,
    range: u64,
    seed: u64,
) -> MetaoptKnapsackResult {
    ffi_boundary!({
        let kind = match kind {
            0 => KnapsackKind::HanKim,
            1 => KnapsackKind::Uncorrelated,
            2 => KnapsackKind::WeaklyCorrelated,
            3 => KnapsackKind::StronglyCorrelated,
            4 => KnapsackKind::SubsetSum,
            k => {
                return Err(Error::arg(
                    "kind",
                    format!("{k}; expected 0 (hankim), 1 (uncorrelated), 2 (weak), 3 (strong) or 4 (subset-sum)"),
                ))
            }
        };
        let o = GenerateOptions {
            kind,
            items: items as usize,
            range,
            seed,
            capacity: CapacityRule::Half,
        };
        new_handle(Knapsack::generate(&o)?)?
    })
}

/// Copies of the data of `knapsack`: weights, profits, capacity, the integer scale and the name.
/// Free the result with `metaopt_knapsack_free_data`.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer, which the library checks (freed, forged and
/// wrong-kind handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_data(
    knapsack: *const MetaoptKnapsack,
) -> MetaoptKnapsackData {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let k = unsafe { handle::get(knapsack, "knapsack")? };
        let weights = CArray::from_slice(k.weights())?;
        let profits = CArray::from_slice(k.profits())?;
        MetaoptKnapsackData {
            n: k.n() as u32,
            weights: weights.into_raw(),
            profits: profits.into_raw(),
            capacity: k.capacity(),
            scale: k.scale(),
            decimals: k.decimals(),
            int_capacity: k.int_capacity(),
            name: c_string(k.name()),
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// Frees the arrays, the name and the message of a `MetaoptKnapsackData` and sets them to NULL
/// and `n` to 0 (so a second call is harmless); the struct itself belongs to the caller. NULL
/// is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_knapsack_data` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_free_data(r: *mut MetaoptKnapsackData) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The exact optimum of `knapsack` (dynamic programming over non-dominated states grown from the
/// break solution, on the integer form), with one optimal item set. An instance whose state list
/// outgrows the solver's limit (2^22 states) is `METAOPT_ERR_INVALID_ARGUMENT` naming
/// `max_states`. Free the result with `metaopt_knapsack_free_optimum_result`.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_optimum(
    knapsack: *mut MetaoptKnapsack,
) -> MetaoptKnapsackOptimumResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let k = unsafe { handle::get(knapsack, "knapsack")? };
        let o = k.optimum()?;
        let bits = CArray::from_slice(&o.bits)?;
        MetaoptKnapsackOptimumResult {
            value: o.value,
            int_value: o.int_value,
            weight: o.weight,
            int_weight: o.int_weight,
            bits: bits.into_raw(),
            n: o.bits.len() as u32,
            items_taken: o.items.len() as u32,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// Frees the bits and the message of a `MetaoptKnapsackOptimumResult` and sets them to NULL and
/// the counts to 0 (so a second call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_knapsack_optimum` (or one already freed
/// here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_free_optimum_result(
    r: *mut MetaoptKnapsackOptimumResult,
) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The profit and weight of the item set `bits` (`n` bytes, each 0 or 1; `n` must equal the
/// instance's items) and whether it fits. `bits` is read during the call only. The message of an
/// error is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer, which the library checks; `bits` NULL or holding
/// `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_evaluate(
    knapsack: *const MetaoptKnapsack,
    bits: *const u8,
    n: u32,
) -> MetaoptKnapsackEvaluation {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let k = unsafe { handle::get(knapsack, "knapsack")? };
        if bits.is_null() {
            return Err(Error::NullPointer("bits"));
        }
        if n as usize != k.n() {
            return Err(Error::arg(
                "n",
                format!("{n}; the instance has {} items", k.n()),
            ));
        }
        // SAFETY: the caller's contract for `n` bytes.
        let b: Vec<u8> = unsafe { copy_in(bits.cast(), n as usize, "bits")? };
        if let Some(i) = b.iter().position(|&x| x > 1) {
            return Err(Error::arg(
                "bits",
                format!("entry {i} is {}; expected 0 or 1", b[i]),
            ));
        }
        let (p, w) = k.value_and_weight(&b);
        MetaoptKnapsackEvaluation {
            profit: k.to_real(p),
            weight: k.to_real(w),
            int_profit: p,
            int_weight: w,
            feasible: (w <= k.int_capacity()) as u8,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// Releases an instance. NULL, and a pointer that is not a live instance (e.g. one freed
/// already), are ignored.
///
/// # Safety
/// `knapsack` must not be in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn metaopt_knapsack_free(knapsack: *mut MetaoptKnapsack) {
    ffi_boundary!({
        // SAFETY: the caller's contract; unregistered pointers are ignored.
        unsafe { handle::free(knapsack) }
    })
}

/// The instance behind a handle, for `metaopt_qiga_run` (held for the call).
///
/// # Safety
/// As `handle::get`.
pub(super) unsafe fn get(
    k: *const MetaoptKnapsack,
    arg: &'static str,
) -> Result<handle::InUse<MetaoptKnapsack>> {
    // SAFETY: the caller's contract.
    unsafe { handle::get(k, arg) }
}
