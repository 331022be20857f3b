//! The robust tabu search for the QAP (`crate::qap_ts`, docs/specs/QAP_TS.md) over the C ABI:
//! a solve over an instance made by `metaopt_qap_params*`, on the instance's backend
//! (`metaopt_qap_set_backend`).

use super::boundary::not_one_of;
use super::handle;
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::qap::{CostFields, MetaoptQapInstance};
use super::state::{checkpoint_plan, load_state_call, MetaoptBytesResult};
use super::MetaoptInt32Result;
use super::{c_string, ffi_boundary, free_result, owned_result, plain_result, CArray};
use crate::error::{Error, Result};
use crate::interrupt::StopReason;
use crate::problem::qap::gap_percent;
use crate::qap_ts::{QapTsOptions, TenureRule};
use crate::run::Stop;
use std::ffi::c_char;
use std::ptr;

/// How a tabu tenure is drawn (`MetaoptQapTsOptions.tenure`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQapTsTenure {
    /// Taillard 2006: floor(u^3 * 8n), u uniform in (0, 1] (the default).
    MetaoptQapTsTenureCubic = 0,
    /// Taillard 1991: uniform in [floor(0.9n), floor(1.1n)].
    MetaoptQapTsTenureUniform = 1,
}

/// Options of `metaopt_qap_ts_solve`; start from `metaopt_qap_ts_default_options()` and change
/// fields. At least one of `max_iterations` and `time_limit_s` must be set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptQapTsOptions {
    /// Independent chains (work-groups on the device, tasks on the CPU); 0 (the default): four
    /// per compute unit on a GPU, one per compute unit on another device, one per thread on the
    /// CPU backend.
    pub chains: u32,
    /// Iterations per chain in total; 0 = no limit (then `time_limit_s` must be set).
    pub max_iterations: u64,
    /// Iterations per chain per round, after which the elite pool and the restarts act, and the
    /// most of one launch (launches are a short step each; the stop rules act between them).
    pub launch_iterations: u32,
    /// Seed: on integer data a seed, the chains and the iteration counts give the same result on
    /// every device and on the CPU.
    pub seed: u64,
    /// A `MetaoptQapTsTenure` value.
    pub tenure: i32,
    /// The long-term aspiration horizon in iterations; 0 = 5 n^2.
    pub aspiration_horizon: u32,
    /// Time limit in seconds (0..=1e9; checked between launches, which are sized to the time
    /// left); 0 = none. NaN, infinite, negative or larger values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// 1 to stop once the best cost is at or below `target`.
    pub has_target: u8,
    /// The target cost (used when `has_target` is 1).
    pub target: f64,
    /// Best distinct permutations kept for restarts; 0 = no pool, no restarts.
    pub elite_size: u32,
    /// Iterations without a new best after which a chain restarts from the pool; -1 = n^2,
    /// 0 = never.
    pub stagnation: i64,
    /// Random swaps of a restart's elite permutation, uniform in
    /// [`perturbation_min`, `perturbation_max`]; both 0 = 2 ..= max(2, n / 4).
    pub perturbation_min: u32,
    /// See `perturbation_min`.
    pub perturbation_max: u32,
    /// The share of restarts (0 to 1) that start from a child of two pool members (uniform
    /// crossover with repair) instead of a perturbed member; 0 (the default): none.
    pub crossover: f64,
    /// `starts_count` start permutations of nElements entries each, 0-based, one after the other
    /// (borrowed, read during the call only); NULL when `starts_count` is 0. Chains beyond them
    /// start at random.
    pub starts: *const u16,
    /// Permutations in `starts` (at most `chains`).
    pub starts_count: u32,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call between launches as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a file the search writes its whole state to (atomically) when it ends and every
    /// `checkpoint_every_s` seconds; `metaopt_qap_ts_load_state` with its bytes continues it.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the search ends.
    pub checkpoint_every_s: f64,
    /// 1 (the default): when `chains` chains would not fit the memory of the device (or of the
    /// host, on the CPU backend), run as many as fit (the result's `chains` is then below its
    /// `chains_requested`); 0: refuse with `METAOPT_ERR_INVALID_ARGUMENT` naming `chains`.
    pub fit_chains: u8,
}

/// The result of `metaopt_qap_ts_solve`: the best over all chains. The cost sits in the field
/// that `result_type` names, as in `MetaoptQapSolveResult`. `permutation`, `backend` and
/// `error_message` are owned by the caller: free them with `metaopt_qap_ts_free_solve_result` (or
/// each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptQapTsSolveResult {
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
    /// The best permutation, 0-based (facility i goes to location `permutation[i]`);
    /// `permutation_length` entries.
    pub permutation: *mut u16,
    /// Entries of `permutation` (nElements).
    pub permutation_length: u32,
    /// Chains run.
    pub chains: u32,
    /// Iterations per chain.
    pub iterations: u64,
    /// Launches (engine calls).
    pub launches: u64,
    /// Chains restarted from the elite pool, in total.
    pub restarts: u64,
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
    /// The backend that ran the solve, in words.
    pub backend: *mut c_char,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// A `MetaoptStopReason`: why the solve ended.
    pub stop_reason: i32,
    /// The chains asked for: `chains` is fewer where that many would not fit the memory
    /// (`fit_chains`).
    pub chains_requested: u32,
}

owned_result!(MetaoptQapTsSolveResult: frees permutation, backend; zeroes permutation_length);
plain_result!(MetaoptQapTsOptions);

/// The defaults of the robust tabu search (chains 0: the backend's count, 100,000 iterations per chain, launches of
/// 2,000 iterations, seed 1, the 2006 tenure, horizon 5 n^2, an elite pool of 8, restarts after
/// n^2 iterations without a new best, perturbations of 2 ..= max(2, n / 4) swaps).
#[no_mangle]
pub extern "C" fn metaopt_qap_ts_default_options() -> MetaoptQapTsOptions {
    ffi_boundary!({
        let d = QapTsOptions::default();
        MetaoptQapTsOptions {
            chains: d.chains as u32,
            max_iterations: d.stop.budget.unwrap_or(0),
            launch_iterations: d.launch_iterations,
            seed: d.seed,
            tenure: MetaoptQapTsTenure::MetaoptQapTsTenureCubic as i32,
            aspiration_horizon: d.aspiration_horizon.unwrap_or(0),
            time_limit_s: d.stop.time_limit.map_or(0.0, |t| t.as_secs_f64()),
            has_target: d.stop.target.is_some() as u8,
            target: d.stop.target.unwrap_or(0.0),
            elite_size: d.elite_size as u32,
            stagnation: d.stagnation.map_or(-1, |s| s as i64),
            perturbation_min: d.perturbation.map_or(0, |p| p.0 as u32),
            perturbation_max: d.perturbation.map_or(0, |p| p.1 as u32),
            crossover: d.crossover,
            starts: ptr::null(),
            starts_count: 0,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
            fit_chains: d.fit_chains as u8,
        }
    })
}

/// The library's options from the C struct, for an instance of `n` units; errors name the field.
///
/// # Safety
/// `o.starts` must be NULL or hold `o.starts_count * n` entries; `o.checkpoint_path` NULL or a
/// NUL-terminated string.
unsafe fn ts_options(o: &MetaoptQapTsOptions, n: usize) -> Result<QapTsOptions> {
    let tenure = match o.tenure {
        0 => TenureRule::Cubic,
        1 => TenureRule::Uniform,
        t => return Err(not_one_of("tenure", t, "0 (cubic) or 1 (uniform)")),
    };
    let time_limit = crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?;
    let stagnation = match o.stagnation {
        -1 => None,
        s if s >= 0 => Some(s as u64),
        s => {
            return Err(not_one_of(
                "stagnation",
                s,
                "-1 (default), 0 (never) or a count",
            ))
        }
    };
    let perturbation = match (o.perturbation_min, o.perturbation_max) {
        (0, 0) => None,
        (lo, hi) => Some((lo as usize, hi as usize)),
    };
    let mut starts = Vec::new();
    if o.starts_count > 0 {
        if o.starts.is_null() {
            return Err(Error::NullPointer("starts"));
        }
        let total = (o.starts_count as usize).checked_mul(n).ok_or_else(|| {
            Error::arg(
                "starts_count",
                format!(
                    "{} permutations of {n} entries do not fit in memory",
                    o.starts_count
                ),
            )
        })?;
        // SAFETY: the caller's contract: `starts_count * n` entries.
        let all = unsafe { std::slice::from_raw_parts(o.starts, total) };
        starts = all
            .chunks(n.max(1))
            .map(|c| c.iter().map(|&v| v as usize).collect())
            .collect();
    }
    let opts = QapTsOptions {
        chains: o.chains as usize,
        stop: Stop {
            budget: (o.max_iterations > 0).then_some(o.max_iterations),
            time_limit,
            target: (o.has_target != 0).then_some(o.target),
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { token_arg(o.stop_token, "stop_token")? },
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s)? },
            ..Stop::default()
        },
        launch_iterations: o.launch_iterations,
        seed: o.seed,
        tenure,
        aspiration_horizon: (o.aspiration_horizon != 0).then_some(o.aspiration_horizon),
        elite_size: o.elite_size as usize,
        stagnation,
        perturbation,
        crossover: o.crossover,
        starts,
        group_size: None,
        first_chain: 0,
        fit_chains: match o.fit_chains {
            0 => false,
            1 => true,
            f => return Err(not_one_of("fit_chains", f, "0 or 1")),
        },
    };
    opts.check(n)?;
    Ok(opts)
}

/// The robust tabu search on the instance's problem and backend (`metaopt_qap_set_backend`): many
/// independent chains until the iteration count, the time limit or the target ends it. `options`
/// is borrowed for the call; NULL means `metaopt_qap_ts_default_options()`. The permutation,
/// backend and message of the result are the caller's: free them with
/// `metaopt_qap_ts_free_solve_result`.
///
/// # Safety
/// `instance` must be NULL or a handle pointer, which the library checks (freed, forged and
/// wrong-kind handles are errors); `options` NULL or valid, with `starts` as its documentation
/// says.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_ts_solve(
    instance: *mut MetaoptQapInstance,
    options: *const MetaoptQapTsOptions,
) -> MetaoptQapTsSolveResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(instance, "instance")? };
        let (problem, _, bks) = h.shared();
        let n = problem.n;
        // SAFETY: NULL or valid by the caller's contract.
        let o = match unsafe { options.as_ref() } {
            Some(o) => *o,
            None => metaopt_qap_ts_default_options(),
        };
        // SAFETY: the caller's contract.
        let opts = unsafe { ts_options(&o, n)? };
        let r = h.ts()?.solve(&opts)?;
        let perm: Vec<u16> = r.permutation.iter().map(|&v| v as u16).collect();
        let perm = CArray::from_slice(&perm)?;
        let c = CostFields::from(r.cost);
        let (error_code, error_message) =
            stop_status(r.stop == StopReason::Interrupted, "metaopt_qap_ts_solve");
        MetaoptQapTsSolveResult {
            result_type: c.0,
            f_t1: c.1,
            f_t2: c.2,
            f_t3: c.3,
            f_t4: c.4,
            permutation: perm.into_raw(),
            permutation_length: n as u32,
            chains: r.chains as u32,
            iterations: r.iterations,
            launches: r.launches,
            restarts: r.restarts,
            seconds: r.seconds,
            seconds_to_best: r.seconds_to_best,
            target_reached: r.target_reached as u8,
            has_bks: bks.is_some() as u8,
            bks: bks.unwrap_or(0),
            gap_percent: bks.map_or(0.0, |b| gap_percent(r.cost.as_f64(), b as f64)),
            backend: c_string(&r.backend),
            error_code,
            error_message,
            stop_reason: r.stop.code(),
            chains_requested: r.chains_requested as u32,
        }
    })
}

/// Frees the permutation, the backend text and the message of a `MetaoptQapTsSolveResult` and
/// sets them to NULL (so a second call is harmless); the struct itself belongs to the caller.
/// NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_qap_ts_solve` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_ts_free_solve_result(r: *mut MetaoptQapTsSolveResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The whole state of the instance's last `metaopt_qap_ts_solve` (chains, tabu matrices, elite
/// pool, random-number counters, counters, time taken) as checkpoint bytes, the caller's to free
/// with `metaopt_bytes_free_result`. An error if no search has run on the instance.
///
/// # Safety
/// `instance` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_ts_save_state(
    instance: *mut MetaoptQapInstance,
) -> MetaoptBytesResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(instance, "instance")? };
        let bytes = h.last_ts()?.save_state()?;
        MetaoptBytesResult::ok(&bytes)?
    })
}

/// The next `metaopt_qap_ts_solve` on the instance continues the search whose state `data`
/// holds (`length` bytes of `metaopt_qap_ts_save_state` or of a checkpoint file) instead of
/// starting afresh, as if it had never stopped: its options must be those of the saved search
/// (its iteration count and time limit may be larger; they count the work already done).
/// Checked now: the bytes' frame and checksum, the library version, the solver and the problem;
/// the options when the search starts. `result` is 0 on success.
///
/// # Safety
/// `instance` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qap_ts_load_state(
    instance: *mut MetaoptQapInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(instance, "instance", data, length, |h, bytes| {
            h.ts()?.load_state(bytes)
        })
    }
}
