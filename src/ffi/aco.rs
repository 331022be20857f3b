//! The ant colony for the single-pair shortest path over the C ABI (`crate::aco`,
//! docs/specs/ACO.md): one run from a source to a target on a `MetaoptGraph` (`graph.rs`), on the
//! device in use or the CPU backend.
//!
//! `MetaoptAcoOptions` mirrors the fields of `AcoOptions` that the C ABI offers; a field the
//! library adds later takes its `AcoOptions::default()` value until the struct grows with it.

use super::graph::{self, MetaoptGraph};
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::qap::MetaoptBackend;
use super::state::{checkpoint_plan, state_arg, MetaoptBytesResult};
use super::MetaoptInt32Result;
use super::{c_string, ffi_boundary, free_result, owned_result, plain_result, CArray};
use crate::aco::{Aco, AcoOptions, AcoPath, AcoRunResult, Deposit, Selection};
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::run::{Stop, StopReason};
use std::ffi::c_char;
use std::ptr;

/// Which ants deposit pheromone (`MetaoptAcoOptions.deposit`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptAcoDeposit {
    /// Every ant that reached the target (the thesis; the default).
    MetaoptAcoDepositAll = 0,
    /// Only the iteration's best ant.
    MetaoptAcoDepositIterationBest = 1,
}

/// How an ant draws its next vertex (`MetaoptAcoOptions.selection`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptAcoSelection {
    /// Roulette over quantised weights (the default; device and CPU agree bit for bit).
    MetaoptAcoSelectionRoulette = 0,
    /// Gumbel-max.
    MetaoptAcoSelectionGumbel = 1,
}

/// Options of `metaopt_aco_run`; start from `metaopt_aco_default_options()` and change fields.
/// docs/specs/ACO.md gives the meaning and the reasons for the defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptAcoOptions {
    /// Ants per iteration, >= 1.
    pub ants: u32,
    /// Exponent of the pheromone, finite >= 0.
    pub alpha: f64,
    /// Exponent of the arc weight, finite >= 0.
    pub beta: f64,
    /// Constant added to the arc weight, finite >= 0.
    pub damping: f64,
    /// Fraction of pheromone evaporated per iteration, in (0, 1].
    pub evaporation: f64,
    /// Exponent of the path length in the deposit 1 / L^gamma, finite >= 0.
    pub deposit_exponent: f64,
    /// Initial pheromone, finite > 0; 0 = every arc starts at 1 and is reset to MAX-MIN's bound
    /// after the first success.
    pub initial_pheromone: f64,
    /// Iterations; 0 = the thesis's rule (as many as evaporation needs to bring
    /// `initial_pheromone` down to 1).
    pub iterations: u32,
    /// Stop after this many iterations without a shorter path; 0 = never.
    pub max_no_improve: u32,
    /// MAX-MIN ratio r in (0, 1] of the pheromone bounds; 0 = no bounds.
    pub max_min: f64,
    /// A `MetaoptAcoDeposit`.
    pub deposit: i32,
    /// A `MetaoptAcoSelection`.
    pub selection: i32,
    /// Most arcs an ant walks; 0 = no limit (n - 1).
    pub max_steps: u32,
    /// Seed: a seed and the options give the same result on every backend.
    pub seed: u64,
    /// Work-items per ant on a device; 0 = the device kind's tuning.
    pub group_size: u32,
    /// A `MetaoptBackend`: the device in use or the CPU backend.
    pub backend: i32,
    /// 1: improve every successful ant's path by shortcuts and one- to three-vertex detours before the
    /// deposit (the library's addition, the default); 0: the thesis's method.
    pub local_search: u8,
    /// Reset the pheromone to its upper bound after this many iterations without a shorter path
    /// (MAX-MIN's restart); 0 = never.
    pub restart: u32,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. Ignored by the CPU backend; below -1 or not in the device list is an error naming
    /// `device`.
    pub device: i32,
    /// Time limit in seconds (0..=1e9), counted from the start of the call (program build and
    /// upload included) and checked between iterations; 0 = none. NaN, infinite, negative or
    /// larger values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the run between iterations as `metaopt_interrupt` does (the best path so far,
    /// `METAOPT_INTERRUPTED`).
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a file the run writes its whole state to (atomically) when it ends and every
    /// `checkpoint_every_s` seconds; `metaopt_aco_load_state` with its bytes continues it.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the run ends.
    pub checkpoint_every_s: f64,
}

/// The result of `metaopt_aco_run`. The paths, `backend` and `error_message` are the caller's:
/// free them with `metaopt_aco_free_run_result` (or each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptAcoRunResult {
    pub source: u32,
    pub target: u32,
    /// 1 when an ant reached the target (then `path` holds the best path), else 0.
    pub found: u8,
    /// The shortest path the ants found, source to target, `path_length` vertices; NULL when
    /// `found` is 0.
    pub path: *mut u32,
    /// Vertices of `path`.
    pub path_length: u32,
    /// Its length (weights summed as doubles); +infinity when `found` is 0.
    pub length: f64,
    /// Its exact length on integer weights; `UINT64_MAX` for real weights or when `found` is 0.
    pub length_int: u64,
    /// (length - exact) / exact (0 when both are 0); +infinity when `found` is 0.
    pub gap: f64,
    /// 1 when the walk along the strongest pheromone reaches the target, else 0.
    pub pheromone_found: u8,
    /// That walk, `pheromone_path_length` vertices; NULL when `pheromone_found` is 0.
    pub pheromone_path: *mut u32,
    pub pheromone_path_length: u32,
    /// Its length; +infinity when `pheromone_found` is 0.
    pub pheromone_length: f64,
    /// Its gap; +infinity when `pheromone_found` is 0.
    pub pheromone_gap: f64,
    /// The exact shortest length (host Dijkstra); +infinity when the target is unreachable (the
    /// run then makes no iteration).
    pub exact_length: f64,
    /// Iterations made.
    pub iterations: u32,
    /// The iteration (1-based) whose ant found the best path; 0 when none did.
    pub found_at_iteration: u32,
    /// Ants that reached the target over the run.
    pub successful_ants: u64,
    /// Wall time of the run in seconds.
    pub elapsed_s: f64,
    /// What ran, in words.
    pub backend: *mut c_char,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best path so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// A `MetaoptStopReason`: why the run ended (`METAOPT_STOP_LIMIT`: its iterations;
    /// `METAOPT_STOP_STAGNATION`: `max_no_improve`; `METAOPT_STOP_TIME_LIMIT`;
    /// `METAOPT_STOP_INTERRUPTED`; `METAOPT_STOP_DONE`: no iteration was needed, the target being
    /// unreachable or the source itself).
    pub stop_reason: i32,
}

owned_result!(MetaoptAcoRunResult: frees path, pheromone_path, backend; zeroes path_length, pheromone_path_length);
plain_result!(MetaoptAcoOptions);

/// The library's defaults (`AcoOptions::default()`: 64 ants, alpha 1, beta 2, evaporation 0.1,
/// 100 iterations, MAX-MIN 0.01, every successful ant deposits, roulette, seed 0) on the device
/// in use.
#[no_mangle]
pub extern "C" fn metaopt_aco_default_options() -> MetaoptAcoOptions {
    ffi_boundary!({
        let d = AcoOptions::default();
        MetaoptAcoOptions {
            ants: d.ants as u32,
            alpha: d.alpha,
            beta: d.beta,
            damping: d.damping,
            evaporation: d.evaporation,
            deposit_exponent: d.deposit_exponent,
            initial_pheromone: d.initial_pheromone.unwrap_or(0.0),
            // the default budget is a count within the field's range
            iterations: d
                .stop
                .budget
                .map_or(0, |k| k.min(u64::from(u32::MAX)) as u32),
            max_no_improve: d.max_no_improve.unwrap_or(0),
            max_min: d.max_min.unwrap_or(0.0),
            deposit: match d.deposit {
                Deposit::All => MetaoptAcoDeposit::MetaoptAcoDepositAll,
                Deposit::IterationBest => MetaoptAcoDeposit::MetaoptAcoDepositIterationBest,
            } as i32,
            selection: match d.selection {
                Selection::Roulette => MetaoptAcoSelection::MetaoptAcoSelectionRoulette,
                Selection::Gumbel => MetaoptAcoSelection::MetaoptAcoSelectionGumbel,
            } as i32,
            max_steps: d.max_steps.unwrap_or(0),
            seed: d.seed,
            group_size: d.group_size.unwrap_or(0) as u32,
            backend: MetaoptBackend::MetaoptBackendDevice as i32,
            local_search: d.local_search as u8,
            restart: d.restart.unwrap_or(0),
            device: -1,
            time_limit_s: 0.0,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// The library's options and backend from the C struct; the fields it lacks keep
/// `AcoOptions::default()`. Errors name the field (the library's checks, `AcoOptions::validate`,
/// run in `Aco::new`).
///
/// # Safety
/// `o.stop_token` must be NULL or a token of `metaopt_stop_token_create` (checked);
/// `o.checkpoint_path` NULL or a NUL-terminated string.
// the struct update is deliberate: fields added to `AcoOptions` later take their defaults here
#[allow(clippy::needless_update)]
pub(crate) unsafe fn aco_options(o: &MetaoptAcoOptions) -> Result<(AcoOptions, Backend)> {
    let nonzero_f = |v: f64| (v != 0.0).then_some(v);
    let nonzero_u = |v: u32| (v != 0).then_some(v);
    let deposit = match o.deposit {
        0 => Deposit::All,
        1 => Deposit::IterationBest,
        d => {
            return Err(Error::arg(
                "deposit",
                format!("{d}; expected 0 (all) or 1 (iteration-best)"),
            ))
        }
    };
    let selection = match o.selection {
        0 => Selection::Roulette,
        1 => Selection::Gumbel,
        s => {
            return Err(Error::arg(
                "selection",
                format!("{s}; expected 0 (roulette) or 1 (gumbel)"),
            ))
        }
    };
    let backend = super::device::backend_on(o.backend, o.device, "backend", "device")?;
    let local_search = match o.local_search {
        0 => false,
        1 => true,
        l => return Err(Error::arg("local_search", format!("{l}; expected 0 or 1"))),
    };
    let mut opts = AcoOptions {
        ants: o.ants as usize,
        alpha: o.alpha,
        beta: o.beta,
        damping: o.damping,
        evaporation: o.evaporation,
        deposit_exponent: o.deposit_exponent,
        initial_pheromone: nonzero_f(o.initial_pheromone),
        stop: Stop {
            // 0: the thesis's rule, set below
            budget: nonzero_u(o.iterations).map(u64::from),
            time_limit: crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?,
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { token_arg(o.stop_token, "stop_token")? },
            // SAFETY: the caller's contract: NULL or a string.
            checkpoint: unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s)? },
            ..Stop::default()
        },
        max_no_improve: nonzero_u(o.max_no_improve),
        max_min: nonzero_f(o.max_min),
        deposit,
        selection,
        max_steps: nonzero_u(o.max_steps),
        seed: o.seed,
        group_size: nonzero_u(o.group_size).map(|g| g as usize),
        local_search,
        restart: nonzero_u(o.restart),
        ..AcoOptions::default()
    };
    if o.iterations == 0 {
        opts.stop.budget = Some(opts.thesis_iterations()?);
    }
    Ok((opts, backend))
}

/// A path for the C result: a C copy of its vertices (none: NULL), its count, length, exact
/// integer length and gap (none: 0, infinities, `UINT64_MAX`).
struct CPath {
    vertices: Option<CArray<u32>>,
    count: u32,
    length: f64,
    length_int: u64,
    gap: f64,
}

fn c_path(p: Option<&AcoPath>) -> Result<CPath> {
    Ok(match p {
        Some(p) => CPath {
            vertices: Some(CArray::from_slice(&p.vertices)?),
            count: p.vertices.len() as u32,
            length: p.length,
            length_int: p.length_int.unwrap_or(u64::MAX),
            gap: p.gap,
        },
        None => CPath {
            vertices: None,
            count: 0,
            length: f64::INFINITY,
            length_int: u64::MAX,
            gap: f64::INFINITY,
        },
    })
}

fn run_result(r: &AcoRunResult) -> Result<MetaoptAcoRunResult> {
    let best = c_path(r.best.as_ref())?;
    let ph = c_path(r.pheromone.as_ref())?;
    let raw = |a: Option<CArray<u32>>| a.map_or(ptr::null_mut(), CArray::into_raw);
    let (error_code, error_message) =
        stop_status(r.stop == StopReason::Interrupted, "metaopt_aco_run");
    Ok(MetaoptAcoRunResult {
        source: r.source,
        target: r.target,
        found: r.best.is_some() as u8,
        path: raw(best.vertices),
        path_length: best.count,
        length: best.length,
        length_int: best.length_int,
        gap: best.gap,
        pheromone_found: r.pheromone.is_some() as u8,
        pheromone_path: raw(ph.vertices),
        pheromone_path_length: ph.count,
        pheromone_length: ph.length,
        pheromone_gap: ph.gap,
        exact_length: r.exact_length.unwrap_or(f64::INFINITY),
        iterations: r.iterations,
        found_at_iteration: r.found_at_iteration.unwrap_or(0),
        successful_ants: r.successful_ants,
        elapsed_s: r.elapsed.as_secs_f64(),
        backend: c_string(&r.backend_description),
        error_code,
        error_message,
        stop_reason: r.stop.code(),
    })
}

/// Runs the ant colony on `graph` from `source` to `target` (vertex numbers `< n`). `options` is
/// borrowed for the call (NULL: `metaopt_aco_default_options()`). An unreachable target is no
/// error: the run makes no iteration and `found` is 0. Errors name `source`, `target` or the
/// option. A run stopped by `stop_token` or `metaopt_interrupt` returns its best path so far with
/// `METAOPT_INTERRUPTED`; one stopped by `time_limit_s` returns it with `METAOPT_OK` (both say
/// why in `stop_reason`). Free the result with `metaopt_aco_free_run_result`.
///
/// After a `metaopt_aco_load_state` on the graph, the run continues the saved run instead of
/// starting afresh (its options, source and target must be the saved run's, else it is an error
/// naming `state`; `iterations`, `max_no_improve` and `time_limit_s` may differ), and uses the
/// loaded state up, whether it runs or fails. The state of a run
/// that made an iteration stays with the graph for `metaopt_aco_save_state` until the next run.
///
/// # Safety
/// `graph` must be NULL or a handle pointer, which the library checks; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_aco_run(
    graph: *mut MetaoptGraph,
    source: u32,
    target: u32,
    options: *const MetaoptAcoOptions,
) -> MetaoptAcoRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut g = unsafe { graph::get(graph, "graph")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = match unsafe { options.as_ref() } {
            Some(o) => *o,
            None => metaopt_aco_default_options(),
        };
        let start = std::time::Instant::now();
        // SAFETY: the caller's contract: `stop_token` NULL or a token, `checkpoint_path` NULL
        // or a string.
        let (opts, backend) = unsafe { aco_options(&o)? };
        g.aco_last = None;
        // a loaded state is used up by this call, also when it refuses it
        let resume = g.aco_resume.take();
        let mut aco = Aco::new(&g, opts, backend)?;
        if let Some(bytes) = &resume {
            aco.load_state(bytes)?;
        }
        let r = aco.run_since(source, target, start)?;
        // this run's state is kept (none when it made no iteration)
        g.aco_last = aco.save_state().ok();
        run_result(&r)?
    })
}

/// Frees the paths, the backend text and the message of a `MetaoptAcoRunResult` and sets them to
/// NULL and the lengths to 0 (so a second call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_aco_run` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_aco_free_run_result(r: *mut MetaoptAcoRunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The whole state of the last `metaopt_aco_run` on `graph` (pheromone, best path, counters,
/// time taken) as checkpoint bytes, the caller's to free with `metaopt_bytes_free_result`. An
/// error if no run on the graph has made an iteration since it was made (or since a run that
/// made none: an unreachable target, or the source itself).
///
/// # Safety
/// `graph` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_aco_save_state(graph: *mut MetaoptGraph) -> MetaoptBytesResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let g = unsafe { graph::get(graph, "graph")? };
        match &g.aco_last {
            Some(bytes) => MetaoptBytesResult::ok(bytes)?,
            None => {
                return Err(Error::arg(
                    "graph",
                    "no ant colony run on this graph has made an iteration: nothing to save",
                ))
            }
        }
    })
}

/// The next `metaopt_aco_run` on `graph` continues the run whose state `data` holds (`length`
/// bytes of `metaopt_aco_save_state` or of a checkpoint file) instead of starting afresh, as if
/// it had never stopped: its options, source and target must be the saved run's (its
/// `iterations`, `max_no_improve` and `time_limit_s` may differ; they count the work already
/// done). Checked now: the bytes' frame and checksum, the library version, the solver and the
/// graph; the options, source and target when the run starts. `result` is 0 on success.
///
/// # Safety
/// `graph` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_aco_load_state(
    graph: *mut MetaoptGraph,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut g = unsafe { graph::get(graph, "graph")? };
        // SAFETY: the caller's contract.
        let bytes = unsafe { state_arg(data, length, "data")? };
        crate::aco::check_state(&g, &bytes)?;
        g.aco_resume = Some(bytes);
        MetaoptInt32Result::ok(0)
    })
}
