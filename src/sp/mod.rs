//! Exact shortest paths on the device (docs/specs/SP.md, "Exact solvers";
//! kernels in `cl/sp.cl`): single- and multi-source distances and predecessors by
//! Bellman-Ford pulling over the reverse graph, a frontier with atomic minimum, or near-far
//! (delta-stepping with one near bucket and a far pile); the Lee wave on grids; and a rayon CPU
//! backend (host Dijkstra per source, `cpu.rs`), the reference of the tests.
//!
//! Distances: integer weights (u32, u64) give `u64` distances (unreachable `u64::MAX`), real
//! weights `f64` distances (unreachable `f64::INFINITY`; f32 graphs are summed in f32 on the
//! device and widened) — [`Distances`], the type of the host reference [`dijkstra`].
//! Predecessors: [`NO_PRED`] (`u32::MAX`, -1 as `i32`) for the source and unreachable vertices;
//! otherwise the smallest `u` with `dist[u] + w(u, v) == dist[v]` (canonical, the same on every
//! backend for integer weights).
//!
//! [`dijkstra`]: crate::problem::graph::dijkstra
//!
//! A call stops early only at the caller's word, its `stop`'s time limit and token, or
//! [`interrupt`](crate::interrupt()): the device asks between batches of rounds (a batch split
//! into launches sized to end within [`STEP_SECONDS`](crate::run::STEP_SECONDS)) and between
//! launches of sources on the local-memory path, the CPU backend inside each Dijkstra and between
//! rows. Distances that are not final are no result: the call returns
//! [`Error::TimeLimit`] or [`Error::Interrupted`] and nothing else.
//!
//! Memory: before anything is allocated, [`Sssp::new`] estimates the host bytes of the reverse
//! graph (and a device engine the bytes of the upload), and each call the bytes of its k x n
//! distances and predecessors on the host and of its buffers on the device; an estimate above
//! what the host has available ([`host_memory_available`]) is [`Error::OutOfHostMemory`], above
//! the device's global memory [`Error::OutOfDeviceMemory`], both naming the argument (`graph`,
//! `sources`). The large host vectors are allocated fallibly besides, so what the estimate
//! misses is the same error, never an abort.
//!
//! Overflow: a distance that does not fit its type is an error naming `weights`, never an
//! unreachable vertex: u64 weights whose total reaches 2^64 - 1 are refused by [`Sssp::new`];
//! real distances that overflow to infinity (f64 sums, or f32 sums on a device) are found after
//! the search (a vertex at infinity with an in-arc from a vertex at a finite distance) whenever
//! the weights' total could overflow at all.
//!
//! [`host_memory_available`]: crate::device::host_memory_available
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `device` | the engine of `cl/sp.cl`: rounds in batches between host reads, or one work-group per source in local memory |
//! | `cpu` | host Dijkstra per source on rayon, then the canonical predecessors |

mod cpu;
mod device;

use crate::device::{host_memory_available, Backend};
use crate::error::{Error, Result};
use crate::interrupt::Cut;
use crate::problem::graph::{Distances, Graph, Grid, Weights, NO_PRED};
use crate::run::Stop;
use rayon::prelude::*;
use std::time::Instant;

/// The device algorithm of [`Sssp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpMethod {
    /// Bellman-Ford pulling over the reverse graph: one work-item per (vertex, source) per round,
    /// Jacobi rounds (read one buffer, write the other), no atomics; at most n rounds.
    BellmanFordPull,
    /// Work queue of the (source, vertex) pairs whose distance fell; each pushes over its out-arcs
    /// with an atomic minimum (needs `cl_khr_int64_extended_atomics` unless the weights are f32).
    Frontier,
    /// Near-far: the frontier restricted to distances below a threshold, the rest deferred to a
    /// far pile; the threshold grows by `delta` when the near queue runs dry. `None`: the mean arc
    /// weight times max(1, 32 / mean out-degree) (the library's choice, Davidson et al.'s rule of
    /// about a warp's work per vertex).
    NearFar { delta: Option<f64> },
}

/// The default: near-far with the library's delta (it searched a large grid much faster than the
/// frontier and all Helsinki sources fastest of the three; see benchmarks/INDEX.md,
/// 2026-11-24-h100-sp_aco_one_launch).
impl Default for SpMethod {
    fn default() -> Self {
        SpMethod::NearFar { delta: None }
    }
}

/// The most rounds between two reads of the convergence state: a batch of rounds is enqueued
/// before the host looks, so a larger value would only delay the stop (2^32 - 1 rounds of empty
/// launches were a hang).
pub const MAX_ROUNDS_PER_CHECK: u32 = 4096;

/// Options of [`Sssp`].
#[derive(Clone, Debug, PartialEq)]
pub struct SpOptions {
    pub method: SpMethod,
    pub backend: Backend,
    /// Rounds launched between two host reads of the convergence state (1..=
    /// [`MAX_ROUNDS_PER_CHECK`]). Larger saves host round trips; a converged run then costs up to
    /// this many empty rounds.
    pub rounds_per_check: u32,
    /// Most rounds before the call fails (`None`: n + 1 for Bellman-Ford and the frontier, which
    /// cannot need more; unbounded for near-far).
    pub max_rounds: Option<u64>,
    /// Device backends: run every source's whole search in one work-group's local memory
    /// (`sp_local`, one launch for all sources) when the graph's distances fit there, whatever
    /// `method` says (docs/specs/SP.md, "Local"). Default true; false always runs `method`.
    pub local_memory: bool,
    /// Several OpenCL devices by number (`metaopt devices`; `backend` is then ignored): the
    /// sources of [`Sssp::sssp_multi`] are split into one contiguous block per device, each run
    /// from its own host thread, and the rows gathered in source order (the same rows as on one
    /// device). Empty: `backend` alone.
    pub devices: Vec<usize>,
    /// When a call stops short: its time limit, counted from its start (or from the instant
    /// given to [`Sssp::sssp_multi_since`]), and its stop token (requested as
    /// [`interrupt`](crate::interrupt()) does for every call). A call still running then ends
    /// with [`Error::TimeLimit`] or [`Error::Interrupted`] and no result. A budget, target,
    /// record interval or checkpoint plan is refused ([`Stop::check_exact`]; the rounds' cap is
    /// `max_rounds`).
    pub stop: Stop,
}

impl Default for SpOptions {
    fn default() -> Self {
        SpOptions {
            method: SpMethod::default(),
            backend: Backend::default(),
            rounds_per_check: 16,
            max_rounds: None,
            local_memory: true,
            devices: Vec::new(),
            stop: Stop::default(),
        }
    }
}

/// Single-source result of [`Sssp::sssp`] and [`lee_wave`].
#[derive(Clone, Debug, PartialEq)]
pub struct SpSsspResult {
    pub source: u32,
    /// Per vertex; unreachable `u64::MAX` / `f64::INFINITY`.
    pub dist: Distances,
    /// Per vertex; [`NO_PRED`] for the source and unreachable vertices.
    pub pred: Vec<u32>,
    /// Rounds run (device; kernel rounds including the empty ones before the last check), 0 on
    /// the CPU backend.
    pub rounds: u64,
    /// Vertices reached (the source included).
    pub reached: usize,
    /// Traversed edges, Gunrock's definition: the arcs whose tail is reached (so TEPS =
    /// `edges / seconds`, independent of the method's redundant relaxations).
    pub edges: u64,
}

/// Multi-source result of [`Sssp::sssp_multi`]: rows of `n` per source, in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct SpSsspMultiResult {
    pub sources: Vec<u32>,
    pub n: usize,
    /// `k x n`, row-major (row `i` for `sources[i]`).
    pub dist: Distances,
    /// `k x n`, row-major.
    pub pred: Vec<u32>,
    pub rounds: u64,
    /// Per source.
    pub reached: Vec<usize>,
    /// Per source: the arcs whose tail is reached ([`SpSsspResult::edges`]).
    pub edges: Vec<u64>,
}

impl SpSsspMultiResult {
    /// Row `i` as a single-source result.
    pub fn row(&self, i: usize) -> SpSsspResult {
        let r = i * self.n..(i + 1) * self.n;
        let dist = match &self.dist {
            Distances::U64(d) => Distances::U64(d[r.clone()].to_vec()),
            Distances::F64(d) => Distances::F64(d[r.clone()].to_vec()),
        };
        let pred = self.pred[r].to_vec();
        SpSsspResult {
            source: self.sources[i],
            dist,
            pred,
            rounds: self.rounds,
            reached: self.reached[i],
            edges: self.edges[i],
        }
    }
}

/// Arcs whose tail is reached in `dist` (one row of n): Gunrock's traversed edges.
pub fn traversed_edges(g: &Graph, dist: &Distances, row: usize) -> u64 {
    let n = g.n();
    (0..n)
        .filter(|&v| dist.reachable(row * n + v))
        .map(|v| g.arcs_of(v).len() as u64)
        .sum()
}

/// Exact shortest paths on one graph: the device data (or the CPU backend) made once, then any
/// number of calls.
pub struct Sssp<'g> {
    graph: &'g Graph,
    options: SpOptions,
    /// One engine, or one per device of `options.devices`.
    engines: Vec<Engine>,
    /// Whether a device's real sums could overflow to infinity (then each call looks for it).
    real_overflow: bool,
}

/// [`Error::OutOfHostMemory`] naming `arg` when `bytes` (an estimate made before allocating)
/// exceed what the host has available.
fn check_host(bytes: u64, arg: &'static str, what: &str) -> Result<()> {
    if let Some(avail) = host_memory_available() {
        if bytes > avail {
            return Err(Error::OutOfHostMemory(format!(
                "`{arg}`: {what} need about {bytes} bytes of host memory; {avail} are available \
                 (MemAvailable and the address-space limit RLIMIT_AS)"
            )));
        }
    }
    Ok(())
}

/// Whether every sum of real weights along a path is finite in a type of unit roundoff `unit`
/// and largest value `max`: the weights' total (in f64) grown by the rounding of at most
/// min(n - 1, m) additions, `(1 + unit)^L <= e^(L unit)`, stays below `max`.
fn real_sums_fit(g: &Graph, unit: f64, max: f64) -> bool {
    let total: f64 = (0..g.m()).map(|e| g.weights().get_f64(e)).sum();
    let adds = g.n().saturating_sub(1).min(g.m()) as f64;
    total.is_finite() && total * (adds * unit).exp() * (1.0 + 1e-9) < max
}

/// The error of a real distance that overflowed to infinity: a vertex at infinity with an in-arc
/// from a vertex at a finite distance (searched row by row of `dist`, `n` vertices a row).
fn check_real_overflow(rev: &Graph, dist: &Distances, sources: &[u32], n: usize) -> Result<()> {
    let Distances::F64(d) = dist else {
        return Ok(());
    };
    d.par_chunks(n.max(1))
        .zip(sources)
        .try_for_each(|(row, &s)| {
            for v in 0..n {
                if row[v].is_infinite()
                    && rev
                        .arcs_of(v)
                        .any(|e| row[rev.targets()[e] as usize].is_finite())
                {
                    return Err(Error::arg(
                        "weights",
                        format!("the distance from source {s} to vertex {v} overflows to infinity"),
                    ));
                }
            }
            Ok(())
        })
}

enum Engine {
    Device(Box<device::DeviceSp>),
    Cpu,
}

impl<'g> Sssp<'g> {
    /// Checks the options and the graph and, for a device backend, builds the program and
    /// uploads the graph (and its reverse).
    pub fn new(graph: &'g Graph, options: SpOptions) -> Result<Self> {
        if options.rounds_per_check == 0 || options.rounds_per_check > MAX_ROUNDS_PER_CHECK {
            return Err(Error::arg(
                "rounds_per_check",
                format!(
                    "{}; must be 1..={MAX_ROUNDS_PER_CHECK}",
                    options.rounds_per_check
                ),
            ));
        }
        if let SpMethod::NearFar { delta: Some(d) } = options.method {
            if !(d.is_finite() && d > 0.0) {
                return Err(Error::arg("delta", format!("{d}; must be finite and > 0")));
            }
        }
        options.stop.check_exact()?;
        if graph.n() == 0 {
            return Err(Error::arg("graph", "has no vertices"));
        }
        if let Weights::U64(w) = graph.weights() {
            // no path can overflow when every arc together does not
            let total: u128 = w.iter().map(|&x| x as u128).sum();
            if total >= u64::MAX as u128 {
                return Err(Error::arg(
                    "weights",
                    "the sum of the u64 weights reaches 2^64 - 1; a distance could overflow",
                ));
            }
        }
        // real sums: a device adds f32 weights in f32 and f64 in f64 (the CPU backend's host
        // Dijkstra checks its own f64 sums)
        let real_overflow = match graph.weights() {
            Weights::F32(_) => !real_sums_fit(graph, f32::EPSILON as f64 / 2.0, f32::MAX as f64),
            Weights::F64(_) => !real_sums_fit(graph, f64::EPSILON / 2.0, f64::MAX),
            _ => false,
        };
        // the reverse graph (every engine reads it) before it is built
        if !graph.reverse_built() {
            check_host(graph.reverse_bytes(), "graph", "the reverse graph")?;
            graph.try_reverse()?;
        }
        // a call's time limit counts from before this set-up; a kernel build that the limit
        // or the stop token overtakes stops waiting
        let setup = options.stop.cut(Instant::now());
        let _setup = setup.setup_scope();
        let engines = crate::multi::backends(&options.devices, options.backend)?
            .into_iter()
            .map(|b| match b {
                Backend::Cpu => Ok(Engine::Cpu),
                b => Ok(Engine::Device(Box::new(device::DeviceSp::new(
                    graph, &options, b,
                )?))),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Sssp {
            graph,
            options,
            engines,
            real_overflow,
        })
    }

    pub fn options(&self) -> &SpOptions {
        &self.options
    }

    describe_alias!();

    /// What computes: the device and method, or the CPU backend.
    pub fn describe(&self) -> String {
        let one = |e: &Engine| match e {
            Engine::Device(d) => d.describe(),
            Engine::Cpu => format!("{}, Dijkstra per source", Backend::Cpu.describe()),
        };
        self.engines.iter().map(one).collect::<Vec<_>>().join(" + ")
    }

    /// Shortest paths from `source`.
    pub fn sssp(&mut self, source: u32) -> Result<SpSsspResult> {
        if source as usize >= self.graph.n() {
            return Err(Error::arg(
                "source",
                format!("{source}; the graph has {} vertices", self.graph.n()),
            ));
        }
        // one row: its vectors are moved, not copied (hundreds of MB on a road-sized graph)
        let m = self.sssp_multi(&[source])?;
        Ok(SpSsspResult {
            source,
            dist: m.dist,
            pred: m.pred,
            rounds: m.rounds,
            reached: m.reached[0],
            edges: m.edges[0],
        })
    }

    /// Shortest paths from each of `sources` (k >= 1, repeats allowed) in one call.
    pub fn sssp_multi(&mut self, sources: &[u32]) -> Result<SpSsspMultiResult> {
        self.sssp_multi_since(sources, Instant::now())
    }

    /// [`sssp_multi`](Self::sssp_multi) with the time limit counted from `start`: a caller that
    /// made this `Sssp` for the call passes the instant before [`Sssp::new`], so that the set-up
    /// (program build, upload) counts against the limit.
    pub fn sssp_multi_since(
        &mut self,
        sources: &[u32],
        start: Instant,
    ) -> Result<SpSsspMultiResult> {
        let cut = self.options.stop.cut(start);
        let n = self.graph.n();
        if sources.is_empty() {
            return Err(Error::arg("sources", "is empty; give at least one source"));
        }
        if let Some((i, &s)) = sources.iter().enumerate().find(|(_, &s)| s as usize >= n) {
            return Err(Error::arg(
                "sources",
                format!("sources[{i}] = {s}; the graph has {n} vertices"),
            ));
        }
        let total = crate::error::size_product("sources", &[sources.len(), n])?;
        crate::error::size_product("sources", &[total, 12])?;
        // the k x n distances (8 bytes) and predecessors (4) the call returns, and on the CPU
        // backend each running Dijkstra's own (its map of settled vertices, its rows)
        let searches = if self.engines.iter().any(|e| matches!(e, Engine::Cpu)) {
            rayon::current_num_threads().min(sources.len()) as u64 * 112 * n as u64
        } else {
            0
        };
        check_host(
            total as u64 * 12 + searches,
            "sources",
            &format!(
                "{} sources x {n} vertices (distances and predecessors)",
                sources.len()
            ),
        )?;
        check(&cut)?;
        let (graph, options, cut) = (self.graph, &self.options, &cut);
        // a block of sources per engine (one engine: all of them), gathered in source order
        let ranges = crate::multi::blocks(sources.len(), self.engines.len());
        let mut src = sources.to_vec();
        let parts =
            crate::multi::run_blocks(&mut self.engines, &ranges, &mut src, |e, _, block| {
                if block.is_empty() {
                    return Ok(None);
                }
                run_engine(e, graph, block, options, cut).map(Some)
            })?;
        let mut parts = parts.into_iter().flatten();
        let (mut dist, mut pred, mut rounds, mut rows) = parts.next().expect("at least one source");
        let grow = |len: usize| {
            Error::OutOfHostMemory(format!(
                "`sources`: {len} more values cannot be allocated on the host"
            ))
        };
        for (d, p, r, w) in parts {
            match (&mut dist, d) {
                (Distances::U64(a), Distances::U64(b)) => {
                    a.try_reserve_exact(b.len()).map_err(|_| grow(b.len()))?;
                    a.extend_from_slice(&b)
                }
                (Distances::F64(a), Distances::F64(b)) => {
                    a.try_reserve_exact(b.len()).map_err(|_| grow(b.len()))?;
                    a.extend_from_slice(&b)
                }
                _ => unreachable!("one graph gives one distance type"),
            }
            pred.try_reserve_exact(p.len()).map_err(|_| grow(p.len()))?;
            pred.extend_from_slice(&p);
            rounds = rounds.max(r);
            rows.extend(w);
        }
        let (reached, edges) = rows.into_iter().unzip();
        if self.real_overflow {
            check_real_overflow(self.graph.try_reverse()?, &dist, sources, n)?;
        }
        Ok(SpSsspMultiResult {
            sources: sources.to_vec(),
            n,
            dist,
            pred,
            rounds,
            reached,
            edges,
        })
    }
}

/// Distances, predecessors, rounds and (reached, traversed edges) per row of a block of sources.
type Rows = (Distances, Vec<u32>, u64, Vec<(usize, u64)>);

/// The error of a call cut short (interrupted, or else its time limit passed): the distances so
/// far are not final, so there is no result.
fn stopped(cut: &Cut) -> Error {
    Error::cut_short(cut.watch.stopped(), "shortest paths")
}

/// [`stopped`] when the call must stop now.
fn check(cut: &Cut) -> Result<()> {
    if cut.due() {
        Err(stopped(cut))
    } else {
        Ok(())
    }
}

/// The [`Rows`] of `sources` on one engine.
fn run_engine(
    engine: &mut Engine,
    graph: &Graph,
    sources: &[u32],
    options: &SpOptions,
    cut: &Cut,
) -> Result<Rows> {
    let n = graph.n();
    Ok(match engine {
        // the device counts reached vertices and traversed edges per row itself
        Engine::Device(d) => d.run(graph, sources, options, cut)?,
        Engine::Cpu => {
            let (dist, pred, rounds) = cpu::run(graph, sources, cut)?;
            let off = graph.offsets();
            // per row on rayon threads
            let rows: Vec<(usize, u64)> = (0..sources.len())
                .into_par_iter()
                .map(|i| {
                    let mut reached = 0;
                    let mut edges = 0;
                    for v in 0..n {
                        if dist.reachable(i * n + v) {
                            reached += 1;
                            edges += off[v + 1] - off[v];
                        }
                    }
                    (reached, edges)
                })
                .collect();
            (dist, pred, rounds, rows)
        }
    })
}

/// The Lee wave on a grid from `source` (cell `y * width + x`): unit steps between open
/// 4-neighbours, obstacles never entered. Distances are `u64` steps (unreachable `u64::MAX`,
/// obstacles included); predecessors by the canonical rule (the smallest neighbour cell one step
/// nearer). The device runs checkerboard rounds (`sp_lee`); the CPU backend a breadth-first
/// search. The grid's own arc weights are ignored (every step costs 1).
pub fn lee_wave(
    grid: &Grid,
    source: u32,
    backend: Backend,
    rounds_per_check: u32,
) -> Result<SpSsspResult> {
    lee_wave_within(grid, source, backend, rounds_per_check, &Stop::default())
}

/// [`lee_wave`] under `stop`'s time limit counted from this call and its stop token (and
/// [`interrupt`](crate::interrupt())), asked between launches (the device) or every few thousand
/// cells (the CPU backend): a wave cut short is [`Error::TimeLimit`] or [`Error::Interrupted`],
/// with no result.
pub fn lee_wave_within(
    grid: &Grid,
    source: u32,
    backend: Backend,
    rounds_per_check: u32,
    stop: &Stop,
) -> Result<SpSsspResult> {
    stop.check_exact()?;
    let cut = stop.cut(Instant::now());
    let n = grid.width * grid.height;
    if source as usize >= n {
        return Err(Error::arg(
            "source",
            format!("{source}; the grid has {n} cells"),
        ));
    }
    if grid.blocked[source as usize] {
        return Err(Error::arg("source", format!("{source} is an obstacle")));
    }
    if rounds_per_check == 0 || rounds_per_check > MAX_ROUNDS_PER_CHECK {
        return Err(Error::arg(
            "rounds_per_check",
            format!("{rounds_per_check}; must be 1..={MAX_ROUNDS_PER_CHECK}"),
        ));
    }
    let (steps, rounds) = match backend {
        Backend::Cpu => (cpu::lee_bfs(grid, source, &cut)?, 0),
        b => device::lee_wave(grid, source, b, rounds_per_check, &cut)?,
    };
    let (w, h) = (grid.width, grid.height);
    let mut pred = crate::error::try_filled(n, NO_PRED, "grid")?;
    for c in 0..n {
        let d = steps[c];
        if d == u32::MAX || d == 0 {
            continue;
        }
        let (x, y) = (c % w, c / w);
        let mut nb = Vec::with_capacity(4);
        if y > 0 {
            nb.push(c - w);
        }
        if x > 0 {
            nb.push(c - 1);
        }
        if x + 1 < w {
            nb.push(c + 1);
        }
        if y + 1 < h {
            nb.push(c + w);
        }
        pred[c] = nb
            .into_iter()
            .find(|&t| !grid.blocked[t] && steps[t] == d - 1)
            .map_or(NO_PRED, |t| t as u32);
    }
    let mut dist = crate::error::try_vec::<u64>(n, "grid")?;
    dist.extend(
        steps
            .iter()
            .map(|&d| if d == u32::MAX { u64::MAX } else { d as u64 }),
    );
    let reached = dist.iter().filter(|&&d| d != u64::MAX).count();
    let dist = Distances::U64(dist);
    let edges = traversed_edges(&grid.graph, &dist, 0);
    Ok(SpSsspResult {
        source,
        dist,
        pred,
        rounds,
        reached,
        edges,
    })
}
