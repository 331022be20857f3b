//! Directed graphs with non-negative arc weights in CSR form, for the shortest-path and ant-colony
//! solvers (thesis 003, docs/specs/ACO.md, docs/specs/SP.md). No device code.
//!
//! # Representation
//!
//! [`Graph`] holds `n` vertices `0..n` and `m` arcs in compressed sparse rows: `offsets` (`n + 1`
//! values, `u64`, so `m` may exceed 2^32), `targets` (`m` values, `u32`, so `n < 2^32`) and one
//! weight per arc in [`Weights`], an enum over the four weight types the device code will take
//! (`u32`, `u64`, `f32`, `f64`). An enum rather than a generic `Graph<W>`: the front ends (C ABI,
//! Python, CLI) pick the type at run time from a file or an array, and one `Graph` type keeps
//! them free of generics; code that wants the typed slice matches once ([`Weights::as_u32`] ...).
//! The arcs of vertex `u` are `offsets[u]..offsets[u+1]`, sorted by target; there is at most one
//! arc per (u, v) pair.
//!
//! # What every builder guarantees
//!
//! - Weights are non-negative and finite: a negative, NaN or infinite weight is refused, an
//!   [`Error::InvalidArgument`] naming the argument (arrays) or an [`Error::Parse`] naming the file
//!   and the 1-based line (files).
//! - Duplicate arcs (same `u`, same `v`) keep the smallest weight.
//! - Self-loops (`u == v`) are **dropped**: with non-negative weights they are never part of a
//!   shortest path, and an ant never takes one (it has visited `u`). Zero-weight arcs other than
//!   self-loops are kept (except in the dense-matrix builder, where 0 means "no arc").
//! - Vertex numbers out of range are refused with the same naming rules.
//!
//! The reverse (transposed) graph, used by the pull Bellman-Ford, is built on the first call of
//! [`Graph::reverse`] and cached; in it the in-arcs of `v` are sorted by source.
//!
//! # Sources
//!
//! [`Graph::from_dense`] (row-major `n x n`, 0 = no arc, as the thesis), [`Graph::from_edges`],
//! [`Graph::from_csr`], [`Graph::from_dimacs`] (`.gr`), [`Graph::from_matrix_market`] (`.mtx`),
//! [`Graph::from_osm_pbf`] (OpenStreetMap road ways), and the generators [`thesis_random`] and
//! [`grid`]. [`dijkstra`] is the host reference (the `pathfinding` crate's Dijkstra).

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use super::quote;
use crate::error::{try_filled, try_vec, Error, Result};
use crate::rng::Philox;

/// Largest vertex count: targets are `u32` and `u32::MAX` is the "no predecessor" sentinel.
pub const MAX_VERTICES: usize = u32::MAX as usize;

/// The most vertices a graph file may declare beyond twice its arcs (each arc touches two
/// vertices; any others have no arc at all). A header's vertex count must be backed by the file:
/// every per-vertex array of the graph and of a search costs memory that a file of a few bytes
/// must not claim (`p sp 600000000 1` with one arc would ask for gigabytes), while a real graph
/// with many isolated vertices is still read up to this many of them.
pub const MAX_ISOLATED_VERTICES: usize = 1 << 20;

/// Predecessor of the source and of unreachable vertices in [`ShortestPaths::pred`] (-1 as `i32`).
pub const NO_PRED: u32 = u32::MAX;

/// The arc weights of a [`Graph`], one per arc in CSR order.
#[derive(Clone, Debug, PartialEq)]
pub enum Weights {
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// The type of a graph's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightKind {
    U32,
    U64,
    F32,
    F64,
}

impl Weights {
    pub fn kind(&self) -> WeightKind {
        match self {
            Weights::U32(_) => WeightKind::U32,
            Weights::U64(_) => WeightKind::U64,
            Weights::F32(_) => WeightKind::F32,
            Weights::F64(_) => WeightKind::F64,
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Weights::U32(w) => w.len(),
            Weights::U64(w) => w.len(),
            Weights::F32(w) => w.len(),
            Weights::F64(w) => w.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Weight of arc `e` as `f64` (exact for `u32`, `f32`, `f64`; `u64` above 2^53 rounds).
    pub fn get_f64(&self, e: usize) -> f64 {
        match self {
            Weights::U32(w) => w[e] as f64,
            Weights::U64(w) => w[e] as f64,
            Weights::F32(w) => w[e] as f64,
            Weights::F64(w) => w[e],
        }
    }
    pub fn as_u32(&self) -> Option<&[u32]> {
        if let Weights::U32(w) = self {
            Some(w)
        } else {
            None
        }
    }
    pub fn as_u64(&self) -> Option<&[u64]> {
        if let Weights::U64(w) = self {
            Some(w)
        } else {
            None
        }
    }
    pub fn as_f32(&self) -> Option<&[f32]> {
        if let Weights::F32(w) = self {
            Some(w)
        } else {
            None
        }
    }
    pub fn as_f64(&self) -> Option<&[f64]> {
        if let Weights::F64(w) = self {
            Some(w)
        } else {
            None
        }
    }
    /// The weights in `order` (fallible: a failed allocation names `graph`).
    fn permuted(&self, order: &[usize]) -> Result<Weights> {
        fn pick<T: Copy>(w: &[T], order: &[usize]) -> Result<Vec<T>> {
            let mut out = try_vec(order.len(), "graph")?;
            out.extend(order.iter().map(|&e| w[e]));
            Ok(out)
        }
        Ok(match self {
            Weights::U32(w) => Weights::U32(pick(w, order)?),
            Weights::U64(w) => Weights::U64(pick(w, order)?),
            Weights::F32(w) => Weights::F32(pick(w, order)?),
            Weights::F64(w) => Weights::F64(pick(w, order)?),
        })
    }
}

/// A weight type a graph can hold: `u32`, `u64`, `f32`, `f64` (sealed).
pub trait Weight: Copy + PartialOrd + Default + std::fmt::Debug + sealed::Sealed + 'static {
    /// Why the value is not a valid weight (negative, NaN, infinite), or `None`.
    fn invalid(self) -> Option<&'static str>;
    fn wrap(v: Vec<Self>) -> Weights;
    fn is_zero(self) -> bool {
        self == Self::default()
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Weight for u32 {
    fn invalid(self) -> Option<&'static str> {
        None
    }
    fn wrap(v: Vec<Self>) -> Weights {
        Weights::U32(v)
    }
}
impl Weight for u64 {
    fn invalid(self) -> Option<&'static str> {
        None
    }
    fn wrap(v: Vec<Self>) -> Weights {
        Weights::U64(v)
    }
}
fn float_invalid(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN weight")
    } else if x < 0.0 {
        Some("negative weight (shortest paths here need weights >= 0)")
    } else if x.is_infinite() {
        Some("infinite weight")
    } else {
        None
    }
}
impl Weight for f32 {
    fn invalid(self) -> Option<&'static str> {
        float_invalid(self as f64)
    }
    fn wrap(v: Vec<Self>) -> Weights {
        Weights::F32(v)
    }
}
impl Weight for f64 {
    fn invalid(self) -> Option<&'static str> {
        float_invalid(self)
    }
    fn wrap(v: Vec<Self>) -> Weights {
        Weights::F64(v)
    }
}

/// A directed graph in CSR form (see the module documentation for its guarantees).
#[derive(Clone, Debug)]
pub struct Graph {
    n: usize,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    weights: Weights,
    /// Latitude and longitude in degrees per vertex (OpenStreetMap graphs only).
    coords: Option<Vec<(f64, f64)>>,
    /// OpenStreetMap node id per vertex (OpenStreetMap graphs only).
    osm_ids: Option<Vec<i64>>,
    reverse: OnceLock<Box<Graph>>,
}

impl PartialEq for Graph {
    /// Same vertices, arcs and weights (and coordinates); the reverse cache is not compared.
    fn eq(&self, o: &Graph) -> bool {
        self.n == o.n
            && self.offsets == o.offsets
            && self.targets == o.targets
            && self.weights == o.weights
            && self.coords == o.coords
            && self.osm_ids == o.osm_ids
    }
}

/// Where an arc came from, for error messages: an array argument or a file line.
#[derive(Clone, Copy)]
enum Origin<'a> {
    Arg(&'static str),
    File(&'a Path),
}

impl Origin<'_> {
    /// The error for item `idx` (array index, or 1-based line for files).
    fn err(&self, idx: usize, msg: impl Into<String>) -> Error {
        match self {
            Origin::Arg(a) => Error::arg(a, format!("entry {idx}: {}", msg.into())),
            Origin::File(p) => Error::parse(*p, idx, msg),
        }
    }
}

/// Builds the CSR from arcs `(u, v, w)` (each with the index/line used in errors): checks range and
/// weights, drops self-loops, keeps the smallest weight of duplicates.
/// The machine's physical memory in bytes (`sysconf`), if known.
fn physical_memory() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| pages as u64 * size as u64)
}

fn build<W: Weight>(
    n: usize,
    mut arcs: Vec<(u32, u32, W)>,
    lines: Option<&[usize]>,
    origin: Origin,
) -> Result<Graph> {
    if n > MAX_VERTICES {
        return Err(match origin {
            Origin::Arg(a) => Error::arg(a, format!("{n} vertices; at most {MAX_VERTICES}")),
            Origin::File(p) => Error::parse(
                p,
                lines.and_then(|l| l.first().copied()).unwrap_or(0),
                format!("{n} vertices; at most {MAX_VERTICES}"),
            ),
        });
    }
    // the offsets alone take 8 (n + 1) bytes: refuse what cannot fit in half the machine's
    // memory (a DIMACS header with n = 2^32 - 1 and one arc used to fill 32 GiB)
    let need = (n as u64 + 1) * 8;
    if let Some(phys) = physical_memory() {
        if need > phys / 2 {
            let why = format!(
                "{n} vertices need {need} bytes of offsets; the machine has {phys} bytes of memory"
            );
            return Err(match origin {
                Origin::Arg(a) => Error::arg(a, why),
                Origin::File(p) => {
                    Error::parse(p, lines.and_then(|l| l.first().copied()).unwrap_or(0), why)
                }
            });
        }
    }
    for (i, &(u, v, w)) in arcs.iter().enumerate() {
        let at = lines.map_or(i, |l| l[i]);
        if u as usize >= n || v as usize >= n {
            return Err(origin.err(
                at,
                format!("arc ({u}, {v}) has a vertex out of range (0..{n})"),
            ));
        }
        if let Some(why) = w.invalid() {
            return Err(origin.err(at, format!("arc ({u}, {v}): {why} ({w:?})")));
        }
    }
    arcs.retain(|&(u, v, _)| u != v);
    // no NaN left, so partial_cmp is total here
    arcs.sort_unstable_by(|a, b| {
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then(a.2.partial_cmp(&b.2).unwrap())
    });
    arcs.dedup_by(|later, first| later.0 == first.0 && later.1 == first.1);
    let m = arcs.len();
    let mut offsets = try_vec::<u64>(n + 1, "offsets")?;
    offsets.resize(n + 1, 0);
    let mut targets = try_vec::<u32>(m, "targets")?;
    let mut weights = try_vec::<W>(m, "weights")?;
    for &(u, v, w) in &arcs {
        offsets[u as usize + 1] += 1;
        targets.push(v);
        weights.push(w);
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    Ok(Graph {
        n,
        offsets,
        targets,
        weights: W::wrap(weights),
        coords: None,
        osm_ids: None,
        reverse: OnceLock::new(),
    })
}

impl Graph {
    /// From a row-major `n x n` matrix (`matrix.len() == n * n`): entry `(u, v)` is the arc
    /// `u -> v`, 0 = no arc (the thesis's convention); the diagonal is ignored (self-loops).
    pub fn from_dense<W: Weight>(n: usize, matrix: &[W]) -> Result<Graph> {
        let nn = n
            .checked_mul(n)
            .ok_or_else(|| Error::arg("n", format!("{n} x {n} overflows")))?;
        if matrix.len() != nn {
            return Err(Error::arg(
                "matrix",
                format!("{} values; expected n x n = {nn}", matrix.len()),
            ));
        }
        if n > MAX_VERTICES {
            return Err(Error::arg(
                "n",
                format!("{n} vertices; at most {MAX_VERTICES}"),
            ));
        }
        let mut arcs = Vec::new();
        for (i, &w) in matrix.iter().enumerate() {
            if let Some(why) = w.invalid() {
                return Err(Error::arg(
                    "matrix",
                    format!("entry {i} (row {}, column {}): {why} ({w:?})", i / n, i % n),
                ));
            }
            if !w.is_zero() {
                arcs.push(((i / n) as u32, (i % n) as u32, w));
            }
        }
        build(n, arcs, None, Origin::Arg("matrix"))
    }

    /// From arcs `(u, v, w)` on vertices `0..n`, in any order. Errors name `edges` and the index.
    pub fn from_edges<W: Weight>(n: usize, edges: &[(u32, u32, W)]) -> Result<Graph> {
        build(n, edges.to_vec(), None, Origin::Arg("edges"))
    }

    /// From CSR arrays as [`Graph::offsets`], [`Graph::targets`] and the weights give them back
    /// (offsets non-decreasing from 0 to `targets.len()`); duplicates, self-loops and unsorted rows
    /// are normalised as in every builder.
    pub fn from_csr<W: Weight>(offsets: &[u64], targets: &[u32], weights: &[W]) -> Result<Graph> {
        if offsets.is_empty() {
            return Err(Error::arg("offsets", "empty; expected n + 1 values"));
        }
        let n = offsets.len() - 1;
        if offsets[0] != 0 || offsets[n] != targets.len() as u64 {
            return Err(Error::arg(
                "offsets",
                format!(
                    "must start at 0 and end at targets' length {}",
                    targets.len()
                ),
            ));
        }
        if weights.len() != targets.len() {
            return Err(Error::arg(
                "weights",
                format!(
                    "{} values; expected one per target ({})",
                    weights.len(),
                    targets.len()
                ),
            ));
        }
        // a weight's own error names `weights` (the shared builder would name the arcs' array)
        if let Some((e, why)) = weights
            .iter()
            .enumerate()
            .find_map(|(e, w)| w.invalid().map(|why| (e, why)))
        {
            return Err(Error::arg("weights", format!("weights[{e}]: {why}")));
        }
        let mut arcs = try_vec(targets.len(), "targets")?;
        for u in 0..n {
            if offsets[u + 1] < offsets[u] {
                return Err(Error::arg("offsets", format!("decreases at vertex {u}")));
            }
            for e in offsets[u]..offsets[u + 1] {
                arcs.push((u as u32, targets[e as usize], weights[e as usize]));
            }
        }
        build(n, arcs, None, Origin::Arg("targets"))
    }

    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of arcs.
    pub fn m(&self) -> usize {
        self.targets.len()
    }
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
    pub fn weight_kind(&self) -> WeightKind {
        self.weights.kind()
    }
    /// The arc indices of vertex `u`'s out-arcs.
    pub fn arcs_of(&self, u: usize) -> std::ops::Range<usize> {
        self.offsets[u] as usize..self.offsets[u + 1] as usize
    }
    /// Latitude and longitude (degrees) per vertex, for OpenStreetMap graphs.
    pub fn coords(&self) -> Option<&[(f64, f64)]> {
        self.coords.as_deref()
    }
    /// OpenStreetMap node id per vertex, for OpenStreetMap graphs.
    pub fn osm_ids(&self) -> Option<&[i64]> {
        self.osm_ids.as_deref()
    }
    /// The arc `u -> v`, if any (binary search in the sorted row).
    pub fn find_arc(&self, u: usize, v: u32) -> Option<usize> {
        let r = self.arcs_of(u);
        self.targets[r.clone()]
            .binary_search(&v)
            .ok()
            .map(|i| r.start + i)
    }

    /// The transposed graph (arc `v -> u` of weight w for every arc `u -> v`), built on first use
    /// and cached. Its rows (the in-arcs of each vertex) are sorted by source.
    ///
    /// # Panics
    /// When the host cannot allocate the transposed arrays (about the graph's own size);
    /// [`Graph::try_reverse`] returns that as an error instead.
    pub fn reverse(&self) -> &Graph {
        match self.try_reverse() {
            Ok(r) => r,
            Err(e) => panic!("the reverse graph: {e}"),
        }
    }

    /// [`Graph::reverse`], with a failed allocation an [`Error::OutOfHostMemory`] naming `graph`.
    pub fn try_reverse(&self) -> Result<&Graph> {
        if let Some(r) = self.reverse.get() {
            return Ok(r);
        }
        let r = Box::new(self.transpose()?);
        // another thread may have set it meanwhile: either copy is the same graph
        let _ = self.reverse.set(r);
        Ok(self.reverse.get().expect("set above"))
    }

    /// Whether the reverse graph is built (cached) already.
    pub fn reverse_built(&self) -> bool {
        self.reverse.get().is_some()
    }

    /// Host bytes of the reverse graph ([`Graph::try_reverse`]) and of the scratch it needs
    /// while it is built, for the memory estimates made before anything is allocated.
    pub fn reverse_bytes(&self) -> u64 {
        let (n, m) = (self.n as u64, self.m() as u64);
        let w = self.weight_bytes() as u64;
        let own = 8 * (n + 1) + (4 + w) * m;
        let extra = self.coords.as_ref().map_or(0, |c| 16 * c.len() as u64)
            + self.osm_ids.as_ref().map_or(0, |c| 8 * c.len() as u64);
        // the build's scratch: the next free slot per vertex and the arcs' order
        own + extra + 8 * n + 8 * m
    }

    /// Bytes per weight (4 or 8).
    pub fn weight_bytes(&self) -> usize {
        match self.weights.kind() {
            WeightKind::U32 | WeightKind::F32 => 4,
            WeightKind::U64 | WeightKind::F64 => 8,
        }
    }

    fn transpose(&self) -> Result<Graph> {
        let (n, m) = (self.n, self.m());
        let mut offsets = try_filled(n + 1, 0u64, "graph")?;
        for &v in &self.targets {
            offsets[v as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut next = try_vec::<u64>(n, "graph")?;
        next.extend_from_slice(&offsets[..n]);
        let mut targets = try_filled(m, 0u32, "graph")?;
        let mut order = try_filled(m, 0usize, "graph")?;
        // sources in increasing order, so each reversed row comes out sorted
        for u in 0..n {
            for e in self.arcs_of(u) {
                let v = self.targets[e] as usize;
                let p = next[v] as usize;
                next[v] += 1;
                targets[p] = u as u32;
                order[p] = e;
            }
        }
        drop(next);
        let weights = self.weights.permuted(&order)?;
        drop(order);
        fn copy<T: Copy>(v: &Option<Vec<T>>) -> Result<Option<Vec<T>>> {
            v.as_ref()
                .map(|c| {
                    let mut out = try_vec(c.len(), "graph")?;
                    out.extend_from_slice(c);
                    Ok(out)
                })
                .transpose()
        }
        Ok(Graph {
            n,
            offsets,
            targets,
            weights,
            coords: copy(&self.coords)?,
            osm_ids: copy(&self.osm_ids)?,
            reverse: OnceLock::new(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Text files
// ---------------------------------------------------------------------------------------------

/// A weight as read from a file: integer while every weight of the file is one.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(u64),
    Real(f64),
}

fn parse_weight(tok: &str, path: &Path, line: usize, integer_only: bool) -> Result<Num> {
    if let Ok(i) = tok.parse::<u64>() {
        return Ok(Num::Int(i));
    }
    if tok
        .strip_prefix('-')
        .is_some_and(|t| t.parse::<u64>().is_ok())
    {
        return Err(Error::parse(
            path,
            line,
            format!(
                "negative weight {} (shortest paths here need weights >= 0)",
                quote(tok)
            ),
        ));
    }
    if integer_only {
        return Err(Error::parse(
            path,
            line,
            format!("weight `{}` is not a non-negative integer", quote(tok)),
        ));
    }
    let x: f64 = tok.parse().map_err(|_| {
        Error::parse(
            path,
            line,
            format!("weight `{}` is not a number", quote(tok)),
        )
    })?;
    if let Some(why) = float_invalid(x) {
        return Err(Error::parse(path, line, format!("{why} ({})", quote(tok))));
    }
    Ok(Num::Real(x))
}

/// The graph of arcs with weights read from a file: `u32` if every weight is an integer that fits,
/// else `u64` if every weight is an integer, else `f64`.
fn build_nums(n: usize, arcs: Vec<(u32, u32, Num)>, lines: &[usize], path: &Path) -> Result<Graph> {
    let all_int = arcs.iter().all(|a| matches!(a.2, Num::Int(_)));
    let origin = Origin::File(path);
    if all_int {
        let ints = arcs
            .iter()
            .map(|&(u, v, w)| (u, v, if let Num::Int(i) = w { i } else { 0 }));
        if arcs
            .iter()
            .all(|a| matches!(a.2, Num::Int(i) if i <= u32::MAX as u64))
        {
            build(
                n,
                ints.map(|(u, v, w)| (u, v, w as u32)).collect(),
                Some(lines),
                origin,
            )
        } else {
            build(n, ints.collect(), Some(lines), origin)
        }
    } else {
        let reals = arcs
            .iter()
            .map(|&(u, v, w)| {
                (
                    u,
                    v,
                    match w {
                        Num::Int(i) => i as f64,
                        Num::Real(x) => x,
                    },
                )
            })
            .collect();
        build(n, reals, Some(lines), origin)
    }
}

/// A 1-based vertex number of a file, as a 0-based vertex.
fn parse_vertex(tok: &str, n: usize, path: &Path, line: usize) -> Result<u32> {
    let v: u64 = tok.parse().map_err(|_| {
        Error::parse(
            path,
            line,
            format!("vertex `{}` is not a positive integer", quote(tok)),
        )
    })?;
    if v == 0 || v > n as u64 {
        return Err(Error::parse(
            path,
            line,
            format!("vertex {v} out of range 1..={n}"),
        ));
    }
    Ok((v - 1) as u32)
}

/// Bound on the vertex count a file header declares: at most twice the arcs it declares (each
/// arc touches two vertices) plus [`MAX_ISOLATED_VERTICES`], so that the per-vertex arrays are
/// backed by the file (the arc count itself is bounded by the file's size, `check_declared`).
fn check_vertices(n: u64, arcs: usize, what: &str, path: &Path, line: usize) -> Result<()> {
    let most = (arcs as u64)
        .saturating_mul(2)
        .saturating_add(MAX_ISOLATED_VERTICES as u64);
    if n > most {
        return Err(Error::parse(
            path,
            line,
            format!(
                "{n} vertices declared for {arcs} {what}: a file may declare at most twice its \
                 {what} plus {MAX_ISOLATED_VERTICES} vertices (vertices without any arc), {most} \
                 here"
            ),
        ));
    }
    Ok(())
}

/// Bound on counts declared in a file header: no more arcs than the file could hold (each needs a
/// few bytes), so a corrupt header cannot make the reader allocate without bound.
fn check_declared(
    count: u64,
    text_len: usize,
    what: &str,
    path: &Path,
    line: usize,
) -> Result<usize> {
    if count > text_len as u64 + 1 {
        return Err(Error::parse(
            path,
            line,
            format!("{count} {what} declared, more than the file ({text_len} bytes) can hold"),
        ));
    }
    Ok(count as usize)
}

/// The text of a graph file (gzip-decompressed and bounded when its name ends in `.gz`), bytes
/// that are not UTF-8 replaced (they then fail as tokens, naming their line).
fn read_text_maybe_gz(path: &Path) -> Result<String> {
    let bytes = super::read_bytes_maybe_gz(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// The format of a graph file, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// `.gr` or `.gr.gz`: [`Graph::from_dimacs`].
    Dimacs,
    /// `.mtx` or `.mtx.gz`: [`Graph::from_matrix_market`].
    MatrixMarket,
    /// `.osm.pbf` or `.pbf`: [`Graph::from_osm_pbf`].
    OsmPbf,
}

impl GraphFormat {
    /// The format of `path` by its extension (any case; `.gz` after `.gr` or `.mtx`), or an
    /// error naming `path` that lists the formats (and says that a gzip `.pbf` is not read: its
    /// blocks are compressed already).
    pub fn of(path: &Path) -> Result<GraphFormat> {
        let name = path.to_string_lossy().to_lowercase();
        let plain = name.strip_suffix(".gz").unwrap_or(&name);
        if plain.ends_with(".gr") {
            Ok(GraphFormat::Dimacs)
        } else if plain.ends_with(".mtx") {
            Ok(GraphFormat::MatrixMarket)
        } else if name.ends_with(".pbf") {
            Ok(GraphFormat::OsmPbf)
        } else if plain.ends_with(".pbf") {
            Err(Error::arg(
                "path",
                format!(
                    "{}: gzip is not supported for OpenStreetMap .osm.pbf files (their blocks are \
                     compressed already); give the .osm.pbf itself",
                    path.display()
                ),
            ))
        } else {
            Err(Error::arg(
                "path",
                format!(
                    "{}: unknown graph format (by the extension); expected a DIMACS .gr, a \
                     MatrixMarket .mtx (either optionally .gz) or an OpenStreetMap .osm.pbf",
                    path.display()
                ),
            ))
        }
    }
}

impl Graph {
    /// Reads a graph file in `format` (OpenStreetMap files with `osm`).
    pub fn from_file(path: &Path, format: GraphFormat, osm: OsmOptions) -> Result<Graph> {
        match format {
            GraphFormat::Dimacs => Graph::from_dimacs(path),
            GraphFormat::MatrixMarket => Graph::from_matrix_market(path),
            GraphFormat::OsmPbf => Graph::from_osm_pbf(path, osm),
        }
    }

    /// Reads a DIMACS shortest-path file (9th DIMACS Implementation Challenge `.gr`): `c` comment
    /// lines, one `p sp n m` line before the arcs, then `m` lines `a u v w` (vertices 1-based).
    /// Blank lines are skipped. Weights: non-negative integers (`u32` when all fit, else `u64`);
    /// a file with a real weight (`2.5`) gives `f64` weights; a negative, NaN or infinite weight
    /// (`1e400` included) is refused naming its line. The vertex count must be backed by the
    /// arcs: at most twice the declared arcs plus [`MAX_ISOLATED_VERTICES`]. A name ending in
    /// `.gz` is decompressed first, bounded by [`max_decompressed`](super::max_decompressed).
    /// Errors name the file and line, quoting at most [`QUOTE_CHARS`](super::QUOTE_CHARS)
    /// characters of it.
    pub fn from_dimacs(path: &Path) -> Result<Graph> {
        let text = read_text_maybe_gz(path)?;
        Self::parse_dimacs(&text, path)
    }

    /// [`Graph::from_dimacs`] on text already read; `path` names it in errors.
    pub fn parse_dimacs(text: &str, path: &Path) -> Result<Graph> {
        let mut header: Option<(usize, usize, usize)> = None; // n, m, line
        let mut arcs = Vec::new();
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let ln = i + 1;
            let toks: Vec<&str> = raw.split_whitespace().collect();
            match toks.first().copied() {
                None | Some("c") => {}
                Some("p") => {
                    if header.is_some() {
                        return Err(Error::parse(path, ln, "second `p` line"));
                    }
                    if toks.len() != 4 || toks[1] != "sp" {
                        return Err(Error::parse(
                            path,
                            ln,
                            format!(
                                "expected `p sp <vertices> <arcs>`, found `{}`",
                                quote(raw.trim())
                            ),
                        ));
                    }
                    let n: u64 = toks[2].parse().map_err(|_| {
                        Error::parse(
                            path,
                            ln,
                            format!(
                                "vertex count `{}` is not a non-negative integer",
                                quote(toks[2])
                            ),
                        )
                    })?;
                    let m: u64 = toks[3].parse().map_err(|_| {
                        Error::parse(
                            path,
                            ln,
                            format!(
                                "arc count `{}` is not a non-negative integer",
                                quote(toks[3])
                            ),
                        )
                    })?;
                    if n > MAX_VERTICES as u64 {
                        return Err(Error::parse(
                            path,
                            ln,
                            format!("{n} vertices; at most {MAX_VERTICES}"),
                        ));
                    }
                    let m = check_declared(m, text.len(), "arcs", path, ln)?;
                    check_vertices(n, m, "arcs", path, ln)?;
                    arcs = try_vec(m, "arcs")?;
                    lines = try_vec(m, "arcs")?;
                    header = Some((n as usize, m, ln));
                }
                Some("a") => {
                    let Some((n, m, _)) = header else {
                        return Err(Error::parse(path, ln, "arc line before the `p sp` line"));
                    };
                    if toks.len() != 4 {
                        return Err(Error::parse(
                            path,
                            ln,
                            format!(
                                "expected `a <from> <to> <weight>`, found `{}`",
                                quote(raw.trim())
                            ),
                        ));
                    }
                    if arcs.len() == m {
                        return Err(Error::parse(
                            path,
                            ln,
                            format!("more arcs than the {m} the `p` line declares"),
                        ));
                    }
                    let u = parse_vertex(toks[1], n, path, ln)?;
                    let v = parse_vertex(toks[2], n, path, ln)?;
                    let w = parse_weight(toks[3], path, ln, false)?;
                    arcs.push((u, v, w));
                    lines.push(ln);
                }
                Some(t) => {
                    return Err(Error::parse(
                        path,
                        ln,
                        format!("unknown line type `{}` (expected c, p or a)", quote(t)),
                    ))
                }
            }
        }
        let Some((n, m, pline)) = header else {
            return Err(Error::parse(
                path,
                text.lines().count().max(1),
                "no `p sp <vertices> <arcs>` line",
            ));
        };
        if arcs.len() != m {
            return Err(Error::parse(
                path,
                pline,
                format!(
                    "the `p` line declares {m} arcs, the file has {}",
                    arcs.len()
                ),
            ));
        }
        build_nums(n, arcs, &lines, path)
    }

    /// Reads a MatrixMarket file (`%%MatrixMarket matrix coordinate <field> <symmetry>`): field
    /// `real`, `double`, `integer` or `pattern` (every arc weight 1), symmetry `general` or
    /// `symmetric` (each entry off the diagonal gives both arcs); `%` comment lines; a size line
    /// `rows cols entries` (square: rows = cols = vertices), then one `i j [value]` line per
    /// entry, 1-based. Entry (i, j) is the arc i -> j. An explicit 0 is an arc of weight 0 (the
    /// format stores its non-zeros; unlike the dense builder). Integer fields give `u32` weights
    /// (`u64` when one does not fit), `real` gives `f64`. `array` (dense), `complex`, `hermitian`
    /// and `skew-symmetric` are refused. A negative, NaN or infinite value is refused naming its
    /// line; the vertex count must be at most twice the declared entries plus
    /// [`MAX_ISOLATED_VERTICES`]. A name ending in `.gz` is decompressed first, bounded as in
    /// [`Graph::from_dimacs`]. Errors name the file and line.
    pub fn from_matrix_market(path: &Path) -> Result<Graph> {
        let text = read_text_maybe_gz(path)?;
        Self::parse_matrix_market(&text, path)
    }

    /// [`Graph::from_matrix_market`] on text already read; `path` names it in errors.
    pub fn parse_matrix_market(text: &str, path: &Path) -> Result<Graph> {
        let mut it = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (hl, head) = it.next().ok_or_else(|| {
            Error::parse(path, 1, "empty file; expected a `%%MatrixMarket` header")
        })?;
        let h: Vec<String> = head
            .split_whitespace()
            .map(|t| t.to_ascii_lowercase())
            .collect();
        if h.len() != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" {
            return Err(Error::parse(
                path,
                hl,
                format!(
                    "expected `%%MatrixMarket matrix coordinate <field> <symmetry>`, found `{}`",
                    quote(head.trim())
                ),
            ));
        }
        if h[2] != "coordinate" {
            return Err(Error::parse(
                path,
                hl,
                format!(
                    "format `{}` not supported (only `coordinate`)",
                    quote(&h[2])
                ),
            ));
        }
        let (pattern, integer) = match h[3].as_str() {
            "real" | "double" => (false, false),
            "integer" => (false, true),
            "pattern" => (true, true),
            f => {
                return Err(Error::parse(
                    path,
                    hl,
                    format!(
                        "field `{}` not supported (real, integer or pattern)",
                        quote(f)
                    ),
                ))
            }
        };
        let symmetric = match h[4].as_str() {
            "general" => false,
            "symmetric" => true,
            s => {
                return Err(Error::parse(
                    path,
                    hl,
                    format!(
                        "symmetry `{}` not supported (general or symmetric)",
                        quote(s)
                    ),
                ))
            }
        };
        let mut size: Option<(usize, usize, usize)> = None; // n, entries, line
        let mut arcs = Vec::new();
        let mut lines = Vec::new();
        let mut entries = 0usize;
        for (ln, raw) in it {
            let t = raw.trim();
            if t.is_empty() || t.starts_with('%') {
                continue;
            }
            let toks: Vec<&str> = t.split_whitespace().collect();
            let Some((n, nnz, _)) = size else {
                if toks.len() != 3 {
                    return Err(Error::parse(
                        path,
                        ln,
                        format!(
                            "expected the size line `rows cols entries`, found `{}`",
                            quote(t)
                        ),
                    ));
                }
                let mut v = [0u64; 3];
                for (k, tok) in toks.iter().enumerate() {
                    v[k] = tok.parse().map_err(|_| {
                        Error::parse(
                            path,
                            ln,
                            format!("size `{}` is not a non-negative integer", quote(tok)),
                        )
                    })?;
                }
                if v[0] != v[1] {
                    return Err(Error::parse(
                        path,
                        ln,
                        format!(
                            "matrix is {} x {}; a graph needs a square matrix",
                            v[0], v[1]
                        ),
                    ));
                }
                if v[0] > MAX_VERTICES as u64 {
                    return Err(Error::parse(
                        path,
                        ln,
                        format!("{} vertices; at most {MAX_VERTICES}", v[0]),
                    ));
                }
                let nnz = check_declared(v[2], text.len(), "entries", path, ln)?;
                let cap = if symmetric {
                    nnz.saturating_mul(2)
                } else {
                    nnz
                };
                check_vertices(v[0], nnz, "entries", path, ln)?;
                arcs = try_vec(cap, "entries")?;
                lines = try_vec(cap, "entries")?;
                size = Some((v[0] as usize, nnz, ln));
                continue;
            };
            let want = if pattern { 2 } else { 3 };
            if toks.len() != want {
                return Err(Error::parse(
                    path,
                    ln,
                    format!("expected {want} values per entry, found `{}`", quote(t)),
                ));
            }
            if entries == nnz {
                return Err(Error::parse(
                    path,
                    ln,
                    format!("more entries than the {nnz} the size line declares"),
                ));
            }
            entries += 1;
            let u = parse_vertex(toks[0], n, path, ln)?;
            let v = parse_vertex(toks[1], n, path, ln)?;
            let w = if pattern {
                Num::Int(1)
            } else {
                parse_weight(toks[2], path, ln, integer)?
            };
            arcs.push((u, v, w));
            lines.push(ln);
            if symmetric && u != v {
                arcs.push((v, u, w));
                lines.push(ln);
            }
        }
        let Some((n, nnz, sl)) = size else {
            return Err(Error::parse(
                path,
                text.lines().count().max(1),
                "no size line `rows cols entries`",
            ));
        };
        if entries != nnz {
            return Err(Error::parse(
                path,
                sl,
                format!("the size line declares {nnz} entries, the file has {entries}"),
            ));
        }
        if !integer {
            let reals = arcs
                .into_iter()
                .map(|(u, v, w)| {
                    (
                        u,
                        v,
                        match w {
                            Num::Int(i) => Num::Real(i as f64),
                            r => r,
                        },
                    )
                })
                .collect();
            return build_nums(n, reals, &lines, path).map(|g| g.force_f64());
        }
        build_nums(n, arcs, &lines, path)
    }

    /// The same graph with `f64` weights (a `real` MatrixMarket file whose values are all integers
    /// still gives `f64`).
    fn force_f64(self) -> Graph {
        let w = match &self.weights {
            Weights::F64(_) => return self,
            Weights::U32(w) => w.iter().map(|&x| x as f64).collect(),
            Weights::U64(w) => w.iter().map(|&x| x as f64).collect(),
            Weights::F32(w) => w.iter().map(|&x| x as f64).collect(),
        };
        Graph {
            weights: Weights::F64(w),
            reverse: OnceLock::new(),
            ..self
        }
    }
}

// ---------------------------------------------------------------------------------------------
// OpenStreetMap
// ---------------------------------------------------------------------------------------------

/// The `highway` values [`OsmHighways::Roads`] keeps: the roads a car can use (motorway down to
/// residential, their `_link` ramps, `living_street`, `service`, `road`). Footways, cycleways,
/// paths, steps, tracks, trails, platforms, corridors, pedestrian areas and roads under
/// construction or proposed are left out.
pub const OSM_ROAD_KINDS: &[&str] = &[
    "motorway",
    "motorway_link",
    "trunk",
    "trunk_link",
    "primary",
    "primary_link",
    "secondary",
    "secondary_link",
    "tertiary",
    "tertiary_link",
    "unclassified",
    "residential",
    "living_street",
    "service",
    "road",
];

/// Which OpenStreetMap ways [`Graph::from_osm_pbf`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OsmHighways {
    /// Every way with a `highway` tag, whatever its value (footways, cycleways, steps and
    /// platforms included): the network of the shared data's description
    /// (data/SOURCES.md: Helsinki gives 6,906 vertices and 15,314 arcs).
    #[default]
    All,
    /// Ways whose `highway` value is one of [`OSM_ROAD_KINDS`] (the car network).
    Roads,
}

/// Options of [`Graph::from_osm_pbf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct OsmOptions {
    pub weights: OsmWeights,
    pub highways: OsmHighways,
}

/// Mean Earth radius in metres (IUGG R1), for the haversine lengths of OpenStreetMap arcs.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// Great-circle distance in metres between two (latitude, longitude) points in degrees.
pub fn haversine_m(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (la1, lo1, la2, lo2) = (
        a.0.to_radians(),
        a.1.to_radians(),
        b.0.to_radians(),
        b.1.to_radians(),
    );
    let s = ((la2 - la1) / 2.0).sin().powi(2)
        + la1.cos() * la2.cos() * ((lo2 - lo1) / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * s.sqrt().min(1.0).asin()
}

/// The weights of an OpenStreetMap graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OsmWeights {
    /// The haversine length in metres, `f64`.
    #[default]
    Metres,
    /// The length in metres rounded to the nearest integer, at least 1, `u32` (integer weights
    /// for the exact device/host comparisons).
    RoundedMetres,
}

/// The most bytes the blocks of an OpenStreetMap PBF file may decompress to, in all: 8 MiB plus
/// 20 times the file's size, and 8 GiB at most. PBF blocks hold delta-coded varints and compress
/// about 2 to 4 times; the bound keeps a small file of highly compressible blocks (a zlib bomb)
/// from making the reader decode and hold gigabytes.
pub fn max_osm_decompressed(file_bytes: u64) -> u64 {
    (8u64 << 20)
        .saturating_add(file_bytes.saturating_mul(20))
        .min(8u64 << 30)
}

/// The largest blob header and blob of a PBF file (the format's own limits, which `osmpbf`
/// keeps too: a blob decodes to at most 32 MiB).
const PBF_MAX_HEADER: u64 = 64 << 10;
const PBF_MAX_BLOB: u64 = 32 << 20;

/// A protocol-buffers varint taken from the front of `b`, or None where it is cut or too long.
fn pb_varint(b: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&x, rest) = b.split_first()?;
        *b = rest;
        v |= ((x & 0x7f) as u64) << shift;
        if x & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// The fields of a protocol-buffers message ([`pb_fields`]).
struct PbFields<'a>(&'a [u8]);

impl<'a> Iterator for PbFields<'a> {
    type Item = (u64, u8, u64, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        // on a copy, kept only when the field is whole: a malformed field stays in `self.0`
        let mut rest = self.0;
        let b = &mut rest;
        let key = pb_varint(b)?;
        let (field, wire) = (key >> 3, (key & 7) as u8);
        if field == 0 {
            return None;
        }
        let item = match wire {
            0 => (field, wire, pb_varint(b)?, &[][..]),
            1 | 5 => {
                let k = if wire == 1 { 8 } else { 4 };
                if b.len() < k {
                    return None;
                }
                *b = &b[k..];
                (field, wire, 0, &[][..])
            }
            2 => match pb_varint(b) {
                Some(l) if l <= b.len() as u64 => {
                    let (x, rest) = b.split_at(l as usize);
                    *b = rest;
                    (field, wire, l, x)
                }
                _ => return None,
            },
            _ => return None,
        };
        self.0 = rest;
        Some(item)
    }
}

/// Checks that the message `m` is whole, as [`osm_check_block`] needs before it reads it: every
/// field complete (no varint, fixed value or length-delimited field cut by the end of its
/// message, no group or unknown wire type) and every varint of the packed fields `packed`
/// complete. The decoder takes the end of its input as the end of a message cut there, so a cut
/// field would otherwise hide what follows it from the check and not from the decoder.
fn pb_whole(m: &[u8], packed: &[u64], what: &str) -> std::result::Result<(), String> {
    let mut fields = pb_fields(m);
    for (f, w, _, mut bytes) in fields.by_ref() {
        if w == 2 && packed.contains(&f) {
            while !bytes.is_empty() {
                pb_varint(&mut bytes)
                    .ok_or_else(|| format!("a cut or overlong varint in field {f} of {what}"))?;
            }
        }
    }
    if fields.0.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what} cut or malformed {} bytes before its end",
            fields.0.len()
        ))
    }
}

/// The fields of a protocol-buffers message: (field number, wire type, varint value or length,
/// bytes of a length-delimited field). Stops at the first malformed field (the decoder that
/// reads the file afterwards reports it). Nothing is copied or collected.
fn pb_fields(b: &[u8]) -> PbFields<'_> {
    PbFields(b)
}

/// The values of the repeated integer field `num` of the messages `msgs` (several occurrences
/// of a message merge, as the decoder merges them), packed or not, in order.
fn pb_repeated<'a>(msgs: &'a [&'a [u8]], num: u64) -> impl Iterator<Item = u64> + 'a {
    msgs.iter()
        .flat_map(move |m| pb_fields(m).filter(move |f| f.0 == num))
        .flat_map(|(_, wire, v, bytes)| {
            let single = (wire == 0).then_some(v);
            let mut packed = if wire == 2 { bytes } else { &[][..] };
            single
                .into_iter()
                .chain(std::iter::from_fn(move || pb_varint(&mut packed)))
        })
}

/// A zigzag-coded `sint64`.
fn pb_sint64(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// A zigzag-coded `sint32` (the varint cut to 32 bits, as decoders do).
fn pb_sint32(v: u64) -> i32 {
    let v = v as u32;
    (v >> 1) as i32 ^ -((v & 1) as i32)
}

/// Checks the numbers of an OpenStreetMap `PrimitiveBlock` that the decoder computes without
/// overflow checks, before it decodes them: the block's granularity (at least 1), every
/// delta-coded sum (node ids, way refs, relation members, dense nodes' latitudes, longitudes,
/// timestamps, changesets, users) in range of its type, and every coordinate, `offset +
/// granularity x value` nanodegrees, in range of `i64` and within -90..90 degrees of latitude
/// and -180..180 of longitude; and, first, that each message it reads is whole
/// ([`pb_whole`]). The reason of the first failure, or Ok.
fn osm_check_block(block: &[u8]) -> std::result::Result<(), String> {
    pb_whole(block, &[], "a block")?;
    let (mut gran, mut lat_off, mut lon_off) = (100i64, 0i64, 0i64);
    for (f, w, v, _) in pb_fields(block) {
        match (f, w) {
            (17, 0) => gran = i64::from(v as i32),
            (19, 0) => lat_off = v as i64,
            (20, 0) => lon_off = v as i64,
            _ => {}
        }
    }
    if gran < 1 {
        return Err(format!("a block's granularity of {gran} (at least 1)"));
    }
    // nanodegrees of a coordinate value
    let coord = |c: i64, lat: bool| -> std::result::Result<(), String> {
        let (off, deg, what) = if lat {
            (lat_off, 90i64, "latitude")
        } else {
            (lon_off, 180, "longitude")
        };
        let lim = deg * 1_000_000_000;
        match c.checked_mul(gran).and_then(|n| n.checked_add(off)) {
            Some(n) if (-lim..=lim).contains(&n) => Ok(()),
            _ => Err(format!(
                "a {what} of {off} + {gran} x {c} nanodegrees, outside -{deg}..{deg} degrees"
            )),
        }
    };
    // the running sums of a delta-coded field, each given to `each`
    fn sums(
        vals: impl Iterator<Item = i64>,
        what: &str,
        mut each: impl FnMut(i64) -> std::result::Result<(), String>,
    ) -> std::result::Result<(), String> {
        let mut sum = 0i64;
        for d in vals {
            sum = sum
                .checked_add(d)
                .ok_or_else(|| format!("delta-coded {what} that overflow 64 bits"))?;
            each(sum)?;
        }
        Ok(())
    }
    let ok = |_| Ok(());
    for (_, _, _, group) in pb_fields(block).filter(|f| f.0 == 2 && f.1 == 2) {
        pb_whole(group, &[], "a primitive group")?;
        let mut dense = Vec::new();
        for (f, w, _, m) in pb_fields(group) {
            // the packed fields of each message: keys, values, then as below
            match (f, w) {
                (1, 2) => pb_whole(m, &[2, 3], "a node")?,
                (2, 2) => pb_whole(m, &[1, 8, 9, 10], "dense nodes")?,
                (3, 2) => pb_whole(m, &[2, 3, 8, 9, 10], "a way")?,
                (4, 2) => pb_whole(m, &[2, 3, 8, 9, 10], "a relation")?,
                _ => {}
            }
            match (f, w) {
                (1, 2) => {
                    let one = [m];
                    for v in pb_repeated(&one, 8) {
                        coord(pb_sint64(v), true)?;
                    }
                    for v in pb_repeated(&one, 9) {
                        coord(pb_sint64(v), false)?;
                    }
                }
                (2, 2) => dense.push(m),
                (3, 2) => {
                    let one = [m];
                    sums(pb_repeated(&one, 8).map(pb_sint64), "way refs", ok)?;
                    sums(pb_repeated(&one, 9).map(pb_sint64), "way latitudes", |c| {
                        coord(c, true)
                    })?;
                    sums(
                        pb_repeated(&one, 10).map(pb_sint64),
                        "way longitudes",
                        |c| coord(c, false),
                    )?;
                }
                (4, 2) => sums(pb_repeated(&[m], 9).map(pb_sint64), "relation members", ok)?,
                _ => {}
            }
        }
        sums(pb_repeated(&dense, 1).map(pb_sint64), "node ids", ok)?;
        sums(pb_repeated(&dense, 8).map(pb_sint64), "latitudes", |c| {
            coord(c, true)
        })?;
        sums(pb_repeated(&dense, 9).map(pb_sint64), "longitudes", |c| {
            coord(c, false)
        })?;
        let info: Vec<&[u8]> = dense
            .iter()
            .flat_map(|d| pb_fields(d).filter(|f| f.0 == 5 && f.1 == 2).map(|f| f.3))
            .collect();
        for i in &info {
            pb_whole(i, &[1, 2, 3, 4, 5, 6], "dense nodes' information")?;
        }
        sums(pb_repeated(&info, 2).map(pb_sint64), "timestamps", ok)?;
        sums(pb_repeated(&info, 3).map(pb_sint64), "changesets", ok)?;
        for (num, what) in [(4, "user ids"), (5, "user names")] {
            let mut sum = 0i32;
            for d in pb_repeated(&info, num).map(pb_sint32) {
                sum = sum
                    .checked_add(d)
                    .ok_or_else(|| format!("delta-coded {what} that overflow 32 bits"))?;
            }
        }
    }
    Ok(())
}

/// Checks that the blobs of a PBF file (a regular file) decompress to at most
/// [`max_osm_decompressed`] bytes in all, reading the framing itself (a 4-byte length, a
/// `BlobHeader` whose field 1 is the blob's type and field 3 its size, the `Blob` whose field 1
/// is raw data and field 3 zlib data) and counting what each zlib stream gives, one blob held at
/// a time; that no header or blob is cut by the end of the file; and that each `OSMData`
/// block's numbers decode without overflow ([`osm_check_block`]). Other framing errors are left
/// to the reader that follows.
fn osm_check_sizes(path: &Path) -> Result<()> {
    use std::io::Read;
    let io = |source: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    // a regular file of any size: what it decompresses to is bounded below
    let (file, len) = super::open_regular(path, u64::MAX).map_err(|e| e.into_error(path))?;
    let limit = max_osm_decompressed(len);
    let mut r = std::io::BufReader::new(file);
    let mut total = 0u64;
    let mut buf = Vec::new();
    // the decoder takes the end of the file as the end of a blob or header cut there and
    // decodes what it holds: refused here, where it would escape the checks below
    let cut = |what: &str, want: u64, got: usize| {
        Error::parse(
            path,
            0,
            format!("OpenStreetMap PBF: a {what} of {want} bytes cut by the end of the file after {got}"),
        )
    };
    // exactly `len` bytes into `buf`, or false at the end of the file
    let read = |r: &mut std::io::BufReader<std::fs::File>, buf: &mut Vec<u8>, len: u64| {
        buf.clear();
        let got = r.by_ref().take(len).read_to_end(buf).map_err(io)?;
        Ok::<bool, Error>(got as u64 == len)
    };
    loop {
        if !read(&mut r, &mut buf, 4)? {
            return Ok(());
        }
        let hlen = u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as u64;
        if hlen >= PBF_MAX_HEADER {
            return Err(Error::parse(
                path,
                0,
                format!("OpenStreetMap PBF: a blob header of {hlen} bytes (at most 64 KiB)"),
            ));
        }
        if !read(&mut r, &mut buf, hlen)? {
            return Err(cut("blob header", hlen, buf.len()));
        }
        let (mut size, mut data) = (0, false);
        for f in pb_fields(&buf) {
            match (f.0, f.1) {
                (1, 2) => data = f.3 == b"OSMData",
                (3, 0) => size = f.2,
                _ => {}
            }
        }
        if size > PBF_MAX_BLOB {
            return Err(Error::parse(
                path,
                0,
                format!("OpenStreetMap PBF: a blob of {size} bytes (at most 32 MiB)"),
            ));
        }
        if !read(&mut r, &mut buf, size)? {
            return Err(cut("blob", size, buf.len()));
        }
        for (field, wire, _, bytes) in pb_fields(&buf) {
            let zlib;
            let block = match (field, wire) {
                (1, 2) => bytes,
                (3, 2) => {
                    // at most one byte past the blob limit: the decoder stops there too
                    let mut out = Vec::new();
                    let read = flate2::read::ZlibDecoder::new(bytes)
                        .take(PBF_MAX_BLOB + 1)
                        .read_to_end(&mut out);
                    // a corrupt stream is refused here: the decoder reads a stream's data
                    // without its checksum, so it would decode what this check had not seen
                    if let Err(e) = read {
                        return Err(Error::parse(
                            path,
                            0,
                            format!("OpenStreetMap PBF: a corrupt zlib stream ({e})"),
                        ));
                    }
                    total += out.len() as u64;
                    zlib = out;
                    &zlib[..]
                }
                _ => continue,
            };
            if field == 1 {
                total += block.len() as u64;
            }
            if total > limit {
                return Err(Error::parse(
                    path,
                    0,
                    format!(
                        "OpenStreetMap PBF: its blocks decompress to more than {limit} bytes \
                         (the limit: 8 MiB plus 20 times the file's size, at most 8 GiB)"
                    ),
                ));
            }
            if data && block.len() as u64 <= PBF_MAX_BLOB {
                osm_check_block(block).map_err(|why| {
                    Error::parse(path, 0, format!("OpenStreetMap PBF: malformed data: {why}"))
                })?;
            }
        }
    }
}

impl Graph {
    /// Reads the road network of an OpenStreetMap `.osm.pbf` file (through the `osmpbf` crate).
    ///
    /// - Ways: those with a `highway` tag ([`OsmHighways::All`], the default) or with a road
    ///   value of it ([`OsmHighways::Roads`], [`OSM_ROAD_KINDS`]).
    /// - Arcs join nodes that are consecutive in a way, with the great-circle length in metres
    ///   ([`haversine_m`]; `f64`, or rounded `u32` of at least 1 with
    ///   [`OsmWeights::RoundedMetres`]). Direction: `oneway=yes|true|1` forward only,
    ///   `oneway=-1|reverse` backward only, any other `oneway` value (`no`) both ways; without a
    ///   `oneway` tag, `junction=roundabout|circular` is forward only and every other way is
    ///   both ways. A pair with a node absent from the file (a way cut by the extract's border)
    ///   gives no arc: the way is cut there, never joined across the gap.
    /// - Vertices: the nodes with at least one arc, numbered densely in increasing OSM node id,
    ///   with their latitude and longitude ([`Graph::coords`]) and id ([`Graph::osm_ids`]).
    /// - Duplicate arcs keep the shortest; a node repeated in a row (self-loop) is dropped.
    ///
    /// A malformed file is an [`Error::Parse`] naming the file at line 0 (a binary file has no
    /// lines); an unreadable one, or one that is not a regular file, names the file too. Before
    /// anything is decoded, the blobs' decompressed sizes are counted: more than
    /// [`max_osm_decompressed`] of the file's size in all is refused, naming the file; and every
    /// block's granularity, offsets, delta-coded sums and coordinates are checked (a granularity
    /// of at least 1, no overflow, latitudes within -90..90 and longitudes -180..180 degrees), so
    /// that the decoder's unchecked arithmetic never overflows.
    pub fn from_osm_pbf(path: &Path, options: OsmOptions) -> Result<Graph> {
        use osmpbf::{Element, ElementReader};
        osm_check_sizes(path)?;
        let pbf_err = |e: osmpbf::Error| Error::parse(path, 0, format!("OpenStreetMap PBF: {e}"));
        // one pass of the decoder: its error, or a panic of its own on malformed data (an
        // arithmetic overflow where overflow checks are on), as the file's parse error
        let decode = |pass: &mut dyn FnMut() -> Result<std::result::Result<(), osmpbf::Error>>| {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(pass)) {
                Ok(r) => r?.map_err(pbf_err),
                Err(p) => {
                    let why = p
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(Error::parse(
                        path,
                        0,
                        format!(
                            "OpenStreetMap PBF: the decoder failed on malformed data ({})",
                            super::quote(&why)
                        ),
                    ))
                }
            }
        };
        let open = || -> Result<ElementReader<std::io::BufReader<std::fs::File>>> {
            let f = std::fs::File::open(path).map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })?;
            Ok(ElementReader::new(std::io::BufReader::new(f)))
        };
        // pass 1: the ways and their direction (+1 forward, -1 backward, 0 both)
        let mut ways: Vec<(Vec<i64>, i8)> = Vec::new();
        decode(&mut || {
            Ok(open()?.for_each(|el| {
                if let Element::Way(w) = el {
                    let (mut highway, mut oneway, mut roundabout) = (None, None, false);
                    for (k, v) in w.tags() {
                        match k {
                            "highway" => highway = Some(v),
                            "oneway" => oneway = Some(v),
                            "junction" => roundabout = v == "roundabout" || v == "circular",
                            _ => {}
                        }
                    }
                    let keep = match (highway, options.highways) {
                        (None, _) => false,
                        (Some(_), OsmHighways::All) => true,
                        (Some(h), OsmHighways::Roads) => OSM_ROAD_KINDS.contains(&h),
                    };
                    if keep {
                        let dir = match oneway {
                            Some("yes" | "true" | "1") => 1,
                            Some("-1" | "reverse") => -1,
                            Some(_) => 0,
                            None if roundabout => 1,
                            None => 0,
                        };
                        ways.push((w.refs().collect(), dir));
                    }
                }
            }))
        })?;
        if ways.is_empty() {
            // an empty file reads as no blocks at all: a graph of no vertex is never what was meant
            return Err(Error::parse(path, 0, "OpenStreetMap PBF: no way with a `highway` tag of the selected kinds (an empty or non-OSM file?)"));
        }
        let mut coord: HashMap<i64, (f64, f64)> = ways
            .iter()
            .flat_map(|w| w.0.iter().map(|&id| (id, (f64::NAN, f64::NAN))))
            .collect();
        // pass 2: the coordinates of the nodes those ways use
        decode(&mut || {
            Ok(open()?.for_each(|el| {
                let (id, lat, lon) = match el {
                    Element::Node(n) => (n.id(), n.lat(), n.lon()),
                    Element::DenseNode(n) => (n.id(), n.lat(), n.lon()),
                    _ => return,
                };
                if let Some(c) = coord.get_mut(&id) {
                    *c = (lat, lon);
                }
            }))
        })?;
        coord.retain(|_, c| !c.0.is_nan());
        let mut id_arcs: Vec<(i64, i64, f64)> = Vec::new();
        for (refs, dir) in &ways {
            for p in refs.windows(2) {
                let (Some(&ca), Some(&cb)) = (coord.get(&p[0]), coord.get(&p[1])) else {
                    continue;
                };
                if p[0] == p[1] {
                    continue;
                }
                let len = haversine_m(ca, cb);
                if *dir >= 0 {
                    id_arcs.push((p[0], p[1], len));
                }
                if *dir <= 0 {
                    id_arcs.push((p[1], p[0], len));
                }
            }
        }
        let mut ids: Vec<i64> = id_arcs.iter().flat_map(|a| [a.0, a.1]).collect();
        ids.sort_unstable();
        ids.dedup();
        let index: HashMap<i64, u32> = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| (id, i as u32))
            .collect();
        let coords: Vec<(f64, f64)> = ids.iter().map(|id| coord[id]).collect();
        let arcs = id_arcs
            .into_iter()
            .map(|(a, b, l)| (index[&a], index[&b], l));
        let mut g = match options.weights {
            OsmWeights::Metres => build(ids.len(), arcs.collect(), None, Origin::File(path))?,
            OsmWeights::RoundedMetres => build(
                ids.len(),
                arcs.map(|(a, b, l)| (a, b, (l.round() as u32).max(1)))
                    .collect(),
                None,
                Origin::File(path),
            )?,
        };
        g.coords = Some(coords);
        g.osm_ids = Some(ids);
        Ok(g)
    }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Philox stream of [`thesis_random`] (a stream per generator, so they never share numbers).
const STREAM_THESIS: u32 = 0x5350_0001;
/// Philox stream of [`grid`].
const STREAM_GRID: u32 = 0x5350_0002;

/// The thesis's random graph (ACO.md "Problem and data"): `V = 2^i` vertices; every entry
/// (u, v), u != v, of the dense matrix, row by row, draws `w = rand() % 2^j` and then a coin
/// `rand() % 2` that zeroes half of the entries; 0 means no arc (the thesis's convention), so an
/// arc exists with probability `(1 - 2^-j) / 2` and its weight is in `1..2^j`. `rand()` is Philox
/// (seed, a stream of its own): the same seed gives the same graph. The diagonal draws nothing
/// (a self-loop would be dropped anyway). `i <= 14` (the graph has about `V^2 / 2` arcs),
/// `1 <= j <= 31`; `u32` weights.
pub fn thesis_random(i: u32, j: u32, seed: u64) -> Result<Graph> {
    if i > 14 {
        return Err(Error::arg(
            "i",
            format!("V = 2^{i}; at most 2^14 (the graph is dense)"),
        ));
    }
    if !(1..=31).contains(&j) {
        return Err(Error::arg(
            "j",
            format!("{j}; weights are rand() % 2^j with 1 <= j <= 31"),
        ));
    }
    let n = 1usize << i;
    let mask = (1u32 << j) - 1;
    let mut rng = Philox::new(seed, STREAM_THESIS);
    let mut arcs = try_vec(n * n / 2 + 16, "i")?;
    for u in 0..n as u32 {
        for v in 0..n as u32 {
            if u == v {
                continue;
            }
            let w = rng.next_u32() & mask;
            let keep = rng.next_u32() & 1 == 1;
            if keep && w != 0 {
                arcs.push((u, v, w));
            }
        }
    }
    build(n, arcs, None, Origin::Arg("i"))
}

/// A generated grid ([`grid`]): cell (x, y) is vertex `y * width + x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    /// Per cell, row-major: true for an obstacle (a vertex with no arcs, unreachable).
    pub blocked: Vec<bool>,
    pub graph: Graph,
}

/// A `width x height` grid, 4-neighbour: every pair of open horizontally or vertically adjacent
/// cells is joined by two arcs, each with its own weight uniform in `1..=max_weight`
/// (`max_weight = 1`: unit weights, the Lee wave's case). Each cell is an obstacle with
/// probability `obstacles` (0 <= obstacles < 1); obstacles stay vertices (so vertex numbers are
/// cell numbers, as the Lee wave needs) but have no arcs. Seeded (Philox, a stream of its own);
/// `u32` weights. Cells are drawn first (obstacles), then the arcs' weights in CSR order.
pub fn grid(
    width: usize,
    height: usize,
    max_weight: u32,
    obstacles: f64,
    seed: u64,
) -> Result<Grid> {
    if width == 0 || height == 0 {
        return Err(Error::arg(
            "width",
            format!("grid {width} x {height}; both must be >= 1"),
        ));
    }
    let n = crate::error::size_product("width", &[width, height])?;
    if n > MAX_VERTICES {
        return Err(Error::arg(
            "width",
            format!("grid {width} x {height} has more than {MAX_VERTICES} cells"),
        ));
    }
    if max_weight == 0 {
        return Err(Error::arg("max_weight", "must be >= 1"));
    }
    if !(0.0..1.0).contains(&obstacles) {
        return Err(Error::arg(
            "obstacles",
            format!("{obstacles}; a probability in [0, 1)"),
        ));
    }
    let mut rng = Philox::new(seed, STREAM_GRID);
    let threshold = (obstacles * 4_294_967_296.0) as u64;
    let mut blocked = try_vec(n, "width")?;
    for _ in 0..n {
        blocked.push((rng.next_u32() as u64) < threshold);
    }
    let mut offsets = try_vec::<u64>(n + 1, "width")?;
    let mut targets = try_vec::<u32>(n.saturating_mul(4), "width")?;
    let mut weights = try_vec::<u32>(n.saturating_mul(4), "width")?;
    offsets.push(0);
    for c in 0..n {
        let (x, y) = (c % width, c / width);
        if !blocked[c] {
            // neighbours in increasing cell order: up, left, right, down
            let mut push = |t: usize| {
                if !blocked[t] {
                    targets.push(t as u32);
                    weights.push(if max_weight == 1 {
                        1
                    } else {
                        1 + rng.below(max_weight)
                    });
                }
            };
            if y > 0 {
                push(c - width);
            }
            if x > 0 {
                push(c - 1);
            }
            if x + 1 < width {
                push(c + 1);
            }
            if y + 1 < height {
                push(c + width);
            }
        }
        offsets.push(targets.len() as u64);
    }
    let graph = Graph {
        n,
        offsets,
        targets,
        weights: Weights::U32(weights),
        coords: None,
        osm_ids: None,
        reverse: OnceLock::new(),
    };
    Ok(Grid {
        width,
        height,
        blocked,
        graph,
    })
}

// ---------------------------------------------------------------------------------------------
// Host reference
// ---------------------------------------------------------------------------------------------

/// Distances from a source: `u64` for integer weights (unreachable: `u64::MAX`), `f64` for real
/// weights (unreachable: `f64::INFINITY`).
#[derive(Clone, Debug, PartialEq)]
pub enum Distances {
    U64(Vec<u64>),
    F64(Vec<f64>),
}

impl Distances {
    /// Distance of `v` as `f64` (unreachable: infinity).
    pub fn get_f64(&self, v: usize) -> f64 {
        match self {
            Distances::U64(d) if d[v] == u64::MAX => f64::INFINITY,
            Distances::U64(d) => d[v] as f64,
            Distances::F64(d) => d[v],
        }
    }
    pub fn reachable(&self, v: usize) -> bool {
        match self {
            Distances::U64(d) => d[v] != u64::MAX,
            Distances::F64(d) => d[v].is_finite(),
        }
    }
}

/// Single-source shortest paths: distances and a shortest-path tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ShortestPaths {
    pub source: u32,
    pub dist: Distances,
    /// Predecessor of each vertex on a shortest path from the source; [`NO_PRED`] (`u32::MAX`,
    /// -1 as a signed 32-bit value) for the source and for unreachable vertices.
    pub pred: Vec<u32>,
}

/// `f64` with a total order, for the Dijkstra of `pathfinding` (weights here are never NaN).
#[derive(Clone, Copy, Debug)]
struct OrdF64(f64);
impl PartialEq for OrdF64 {
    fn eq(&self, o: &Self) -> bool {
        self.0.total_cmp(&o.0).is_eq()
    }
}
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}
impl std::ops::Add for OrdF64 {
    type Output = OrdF64;
    fn add(self, o: OrdF64) -> OrdF64 {
        OrdF64(self.0 + o.0)
    }
}
impl pathfinding::num_traits::Zero for OrdF64 {
    fn zero() -> Self {
        OrdF64(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

/// Host Dijkstra from `source` (the `pathfinding` crate's `dijkstra_all`): the reference of the
/// device solvers. Integer weights are summed in `u64` (an overflowing path is an error naming
/// `weights`; a `u32` graph cannot overflow below 2^32 arcs per path); `f32` weights are summed
/// in `f64`, and a real distance that overflows to infinity is an error naming `weights` too
/// (it would read as unreachable). Ties between shortest paths are broken by the heap's order: the predecessors form a
/// shortest-path tree, not a canonical one.
pub fn dijkstra(g: &Graph, source: u32) -> Result<ShortestPaths> {
    dijkstra_until(g, source, || false).map(|p| p.expect("a search that is never stopped ends"))
}

/// [`dijkstra`], asking `stop` every few thousand settled vertices: `None` once it says true
/// (the distances would be partial), so that a caller under a time limit or a stop token gives
/// up within a fraction of a second of it.
pub fn dijkstra_until(
    g: &Graph,
    source: u32,
    mut stop: impl FnMut() -> bool,
) -> Result<Option<ShortestPaths>> {
    use pathfinding::prelude::dijkstra_partial;
    let n = g.n();
    if source as usize >= n {
        return Err(Error::arg(
            "source",
            format!("{source}; the graph has {n} vertices"),
        ));
    }
    // `stop` is asked once per 4096 settled vertices (a clock read costs more than a pop)
    let mut settled = 0u32;
    fn every(settled: &mut u32, stop: &mut impl FnMut() -> bool) -> bool {
        *settled = settled.wrapping_add(1);
        settled.is_multiple_of(4096) && stop()
    }
    let mut pred = try_filled(n, NO_PRED, "graph")?;
    let dist = match g.weights() {
        Weights::U32(_) | Weights::U64(_) => {
            let w = |e: usize| -> u128 {
                match g.weights() {
                    Weights::U32(w) => w[e] as u128,
                    Weights::U64(w) => w[e] as u128,
                    _ => 0,
                }
            };
            // u128 sums cannot overflow; a distance above u64::MAX - 1 is refused afterwards
            let (parents, cut) = dijkstra_partial(
                &source,
                |&u| {
                    g.arcs_of(u as usize)
                        .map(|e| (g.targets[e], w(e)))
                        .collect::<Vec<_>>()
                },
                |_| every(&mut settled, &mut stop),
            );
            if cut.is_some() {
                return Ok(None);
            }
            let mut d = try_filled(n, u64::MAX, "graph")?;
            d[source as usize] = 0;
            for (v, (p, c)) in parents {
                if c >= u64::MAX as u128 {
                    return Err(Error::arg(
                        "weights",
                        format!("the distance to vertex {v} overflows 64 bits"),
                    ));
                }
                d[v as usize] = c as u64;
                pred[v as usize] = p;
            }
            Distances::U64(d)
        }
        Weights::F32(_) | Weights::F64(_) => {
            let (parents, cut) = dijkstra_partial(
                &source,
                |&u| {
                    g.arcs_of(u as usize)
                        .map(|e| (g.targets[e], OrdF64(g.weights.get_f64(e))))
                        .collect::<Vec<_>>()
                },
                |_| every(&mut settled, &mut stop),
            );
            if cut.is_some() {
                return Ok(None);
            }
            let mut d = try_filled(n, f64::INFINITY, "graph")?;
            d[source as usize] = 0.0;
            for (v, (p, c)) in parents {
                if !c.0.is_finite() {
                    return Err(Error::arg(
                        "weights",
                        format!("the distance to vertex {v} overflows to infinity (f64)"),
                    ));
                }
                d[v as usize] = c.0;
                pred[v as usize] = p;
            }
            Distances::F64(d)
        }
    };
    // the source has no predecessor and distance 0 even when a zero-weight cycle returns to it
    pred[source as usize] = NO_PRED;
    let mut dist = dist;
    match &mut dist {
        Distances::U64(d) => d[source as usize] = 0,
        Distances::F64(d) => d[source as usize] = 0.0,
    }
    Ok(Some(ShortestPaths { source, dist, pred }))
}
