//! Exact shortest paths over the C ABI (`crate::sp`, docs/specs/SP.md): single- and multi-source
//! distances and predecessors on a `MetaoptGraph` (`graph.rs`), on the device in use or the CPU
//! backend.

use super::graph::{self, MetaoptGraph};
use super::interrupt::{token_arg, MetaoptStopToken};
use super::qap::MetaoptBackend;
use super::{c_string, copy_in, ffi_boundary, free_result, owned_result, plain_result, CArray};
use crate::error::{Error, Result};
use crate::problem::graph::{Distances, NO_PRED};
use crate::run::Stop;
use crate::sp::{SpMethod, SpOptions, SpSsspMultiResult, Sssp};
use std::ffi::c_char;
use std::ptr;

/// The device algorithm (`MetaoptSpOptions.method`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptSpMethod {
    /// Bellman-Ford pulling over the reverse graph (no atomics).
    MetaoptSpBellmanFord = 0,
    /// A work queue of improved vertices pushing with an atomic minimum (the default).
    MetaoptSpFrontier = 1,
    /// Near-far: the frontier below a threshold that grows by `delta`.
    MetaoptSpNearFar = 2,
}

/// Options of `metaopt_sp_sssp` and `metaopt_sp_sssp_multi`; start from
/// `metaopt_sp_default_options()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptSpOptions {
    /// A `MetaoptSpMethod`.
    pub method: i32,
    /// Near-far's step (finite, > 0); 0 = the library's choice (the mean arc weight times
    /// max(1, 32 / mean out-degree)). Ignored by the other methods.
    pub delta: f64,
    /// A `MetaoptBackend`: the device in use (`metaopt_device_set_number`) or the CPU backend
    /// (Dijkstra per source).
    pub backend: i32,
    /// Rounds launched between two reads of the convergence state, >= 1.
    pub rounds_per_check: u32,
    /// Most rounds before the call fails; 0 = n + 1 (Bellman-Ford, frontier) or unbounded
    /// (near-far).
    pub max_rounds: u64,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. Ignored by the CPU backend; below -1 or not in the device list is an error naming
    /// `device`.
    pub device: i32,
    /// Time limit in seconds (0..=1e9), counted from the start of the call (program build and
    /// upload included); 0 = none. A call not finished by then is `METAOPT_ERR_TIME_LIMIT` with
    /// an empty result (partial distances are no result). NaN, infinite, negative or larger
    /// values are `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it, as
    /// `metaopt_interrupt` does, ends the call with `METAOPT_INTERRUPTED` and an empty result.
    pub stop_token: *const MetaoptStopToken,
}

/// The result of `metaopt_sp_sssp` (`k` = 1) and `metaopt_sp_sssp_multi`: `k` rows of `n`
/// entries, row-major, row i for the i-th source. The arrays, `backend` and `error_message` are
/// the caller's: free them with `metaopt_sp_free_result` (or each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptSpResult {
    /// Sources (rows).
    pub k: u32,
    /// Vertices (columns).
    pub n: u32,
    /// The sources, `k` entries.
    pub sources: *mut u32,
    /// Distances as doubles, `k * n` entries; unreachable: +infinity. Integer distances are exact
    /// below 2^53 (above they round; `dist_int` holds them exactly).
    pub dist: *mut f64,
    /// Exact distances of a graph with integer weights (`METAOPT_WEIGHT_U32`, `_U64`), `k * n`
    /// entries, unreachable `UINT64_MAX`; NULL for real weights.
    pub dist_int: *mut u64,
    /// Predecessor of each vertex on a shortest path, `k * n` entries; -1 for the source and for
    /// unreachable vertices. The smallest such predecessor (the same on every backend for integer
    /// weights).
    pub pred: *mut i32,
    /// Vertices reached from each source (itself included), `k` entries.
    pub reached: *mut u64,
    /// Traversed edges per source (the arcs whose tail is reached), `k` entries.
    pub edges: *mut u64,
    /// Rounds the device ran (0 on the CPU backend).
    pub rounds: u64,
    /// Wall time of the solve in seconds (program build and upload excluded).
    pub elapsed_s: f64,
    /// What computed, in words.
    pub backend: *mut c_char,
    /// `METAOPT_OK` or a `MetaoptErrorCode` (`METAOPT_INTERRUPTED` and `METAOPT_ERR_TIME_LIMIT`
    /// included: then the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptSpResult: frees sources, dist, dist_int, pred, reached, edges, backend; zeroes k, n);
plain_result!(MetaoptSpOptions);

/// The near-far method (the library's delta) on the device in use, 16 rounds per check, the
/// default round limit.
#[no_mangle]
pub extern "C" fn metaopt_sp_default_options() -> MetaoptSpOptions {
    ffi_boundary!({
        let d = SpOptions::default();
        MetaoptSpOptions {
            method: MetaoptSpMethod::MetaoptSpNearFar as i32,
            delta: 0.0,
            backend: MetaoptBackend::MetaoptBackendDevice as i32,
            rounds_per_check: d.rounds_per_check,
            max_rounds: 0,
            device: -1,
            time_limit_s: 0.0,
            stop_token: ptr::null(),
        }
    })
}

/// The library's options from the C struct; errors name the field.
///
/// # Safety
/// `o.stop_token` must be NULL or a token of `metaopt_stop_token_create` (checked).
pub(crate) unsafe fn sp_options(o: &MetaoptSpOptions) -> Result<SpOptions> {
    let method = match o.method {
        0 => SpMethod::BellmanFordPull,
        1 => SpMethod::Frontier,
        2 => SpMethod::NearFar {
            delta: if o.delta == 0.0 {
                None
            } else if o.delta.is_finite() && o.delta > 0.0 {
                Some(o.delta)
            } else {
                return Err(Error::arg(
                    "delta",
                    format!("{}; expected finite and > 0, or 0 for the default", o.delta),
                ));
            },
        },
        m => {
            return Err(Error::arg(
                "method",
                format!("{m}; expected 0 (bellman-ford), 1 (frontier) or 2 (near-far)"),
            ))
        }
    };
    let backend = super::device::backend_on(o.backend, o.device, "backend", "device")?;
    Ok(SpOptions {
        method,
        backend,
        rounds_per_check: o.rounds_per_check,
        max_rounds: (o.max_rounds != 0).then_some(o.max_rounds),
        stop: Stop {
            time_limit: crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?,
            // SAFETY: the caller's contract: NULL or a stop token.
            token: unsafe { token_arg(o.stop_token, "stop_token")? },
            ..Stop::default()
        },
        ..SpOptions::default()
    })
}

fn sp_result(r: &SpSsspMultiResult, elapsed_s: f64, backend: &str) -> Result<MetaoptSpResult> {
    let total = r.pred.len();
    // written straight into the caller's arrays (no intermediate copies of the k x n tables)
    let (dist, dist_int) = match &r.dist {
        Distances::U64(d) => (
            CArray::from_map(d, |x| {
                if x == u64::MAX {
                    f64::INFINITY
                } else {
                    x as f64
                }
            })?,
            Some(CArray::from_map(d, |x| x)?),
        ),
        Distances::F64(d) => (CArray::from_map(d, |x| x)?, None),
    };
    let pred = CArray::from_map(&r.pred, |p| if p == NO_PRED { -1 } else { p as i32 })?;
    let sources = CArray::from_slice(&r.sources)?;
    let reached: Vec<u64> = r.reached.iter().map(|&x| x as u64).collect();
    let reached = CArray::from_slice(&reached)?;
    let edges = CArray::from_slice(&r.edges)?;
    debug_assert_eq!(total, r.sources.len() * r.n);
    Ok(MetaoptSpResult {
        k: r.sources.len() as u32,
        n: r.n as u32,
        sources: sources.into_raw(),
        dist: dist.into_raw(),
        dist_int: dist_int.map_or(ptr::null_mut(), CArray::into_raw),
        pred: pred.into_raw(),
        reached: reached.into_raw(),
        edges: edges.into_raw(),
        rounds: r.rounds,
        elapsed_s,
        backend: c_string(backend),
        error_code: 0,
        error_message: ptr::null_mut(),
    })
}

/// Shortest paths from each of `sources` (`k` >= 1 vertex numbers, repeats allowed) on `graph`
/// in one call. `options` is borrowed for the call (NULL: `metaopt_sp_default_options()`). The
/// device program is built and the graph uploaded at each call. Errors name `sources` (empty, a
/// vertex out of range), `graph` (no vertices), `weights` (u64 weights whose total reaches
/// 2^64 - 1) or the option. A call cut short by `time_limit_s` (`METAOPT_ERR_TIME_LIMIT`), by
/// `stop_token` or `metaopt_interrupt` (`METAOPT_INTERRUPTED`) returns no distances. Free the
/// result with `metaopt_sp_free_result`.
///
/// # Safety
/// `graph` must be NULL or a handle pointer, which the library checks; `sources` NULL or holding
/// `k` values; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sp_sssp_multi(
    graph: *mut MetaoptGraph,
    sources: *const u32,
    k: u32,
    options: *const MetaoptSpOptions,
) -> MetaoptSpResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let g = unsafe { graph::get(graph, "graph")? };
        // SAFETY: the caller's contract for `k` values.
        let s: Vec<u32> = unsafe { copy_in(sources.cast(), k as usize, "sources")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = match unsafe { options.as_ref() } {
            Some(o) => *o,
            None => metaopt_sp_default_options(),
        };
        let start = std::time::Instant::now();
        // SAFETY: the caller's contract: `stop_token` NULL or a token.
        let mut sp = Sssp::new(&g, unsafe { sp_options(&o)? })?;
        let t = std::time::Instant::now();
        let r = sp.sssp_multi_since(&s, start)?;
        let elapsed = t.elapsed().as_secs_f64();
        sp_result(&r, elapsed, &sp.describe())?
    })
}

/// Shortest paths from `source` on `graph`: `metaopt_sp_sssp_multi` with one source (a result
/// of one row). Free the result with `metaopt_sp_free_result`.
///
/// # Safety
/// `graph` must be NULL or a handle pointer, which the library checks; `options` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sp_sssp(
    graph: *mut MetaoptGraph,
    source: u32,
    options: *const MetaoptSpOptions,
) -> MetaoptSpResult {
    // SAFETY: the caller's contract; one readable value.
    unsafe { metaopt_sp_sssp_multi(graph, &source, 1, options) }
}

/// Frees the arrays, the backend text and the message of a `MetaoptSpResult` and sets them to
/// NULL and the counts to 0 (so a second call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_sp_sssp*` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_sp_free_result(r: *mut MetaoptSpResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}
