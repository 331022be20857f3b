//! Directed graphs over the C ABI (`crate::problem::graph`, docs/specs/SP.md): a `MetaoptGraph`
//! from CSR arrays, arcs, a dense matrix, a file (DIMACS `.gr`, MatrixMarket `.mtx`,
//! OpenStreetMap `.osm.pbf`) or a generator (the thesis's random graph, a grid), its sizes and
//! a copy of its CSR. `metaopt_sp_sssp*` (`sp.rs`) and `metaopt_aco_run` (`aco.rs`) solve on it.

use super::handle::{self, opaque_handle};
use super::{copy_in, ffi_boundary, free_result, owned_result, str_arg, CArray};
use crate::error::{Error, Result};
use crate::problem::graph::{self, Graph, OsmOptions, Weight, WeightKind, Weights};
use std::ffi::{c_char, c_void};
use std::path::Path;
use std::ptr;

/// A directed graph with non-negative arc weights. Opaque: made by the `metaopt_graph_from_*`
/// functions, `metaopt_graph_thesis_random` or `metaopt_graph_grid`, released by
/// `metaopt_graph_free`. A handle may be used by one thread at a time.
pub struct MetaoptGraph {
    _opaque: [u8; 0],
}
opaque_handle!(
    MetaoptGraph => GraphHandle,
    b"metaGRF1",
    "metaopt_graph_from_csr, metaopt_graph_from_edges, metaopt_graph_from_dense, metaopt_graph_from_file, metaopt_graph_thesis_random or metaopt_graph_grid"
);

/// What a `MetaoptGraph` stands for: the graph, and the ant colony's states kept with it
/// (`metaopt_aco_save_state`, `metaopt_aco_load_state`). Reads as the graph.
pub(crate) struct GraphHandle {
    graph: Graph,
    /// The state of the last `metaopt_aco_run` on the graph that made an iteration.
    pub(crate) aco_last: Option<Vec<u8>>,
    /// A state the next `metaopt_aco_run` continues.
    pub(crate) aco_resume: Option<Vec<u8>>,
}

impl std::ops::Deref for GraphHandle {
    type Target = Graph;
    fn deref(&self) -> &Graph {
        &self.graph
    }
}

/// The type of the weights an array holds (`weights` of `metaopt_graph_from_csr`, ...) and of a
/// graph's weights (`MetaoptGraphResult.weight_type`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptWeightType {
    /// `uint32_t`: distances are exact `uint64_t`.
    MetaoptWeightU32 = 0,
    /// `uint64_t`: distances are exact `uint64_t` (their total must stay below 2^64 - 1).
    MetaoptWeightU64 = 1,
    /// `float`: distances are summed in `float` on a device, `double` on the CPU backend.
    MetaoptWeightF32 = 2,
    /// `double`.
    MetaoptWeightF64 = 3,
}

/// The format of `metaopt_graph_from_file`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptGraphFormat {
    /// By the file name: `.gr` DIMACS, `.mtx` MatrixMarket (either optionally `.gz`), `.osm.pbf`
    /// (or `.pbf`) OpenStreetMap.
    MetaoptGraphFormatAuto = 0,
    /// The 9th DIMACS challenge's `.gr` (`p sp n m`, `a u v w` lines, 1-based vertices).
    MetaoptGraphFormatDimacs = 1,
    /// MatrixMarket coordinate (`.mtx`): entry (i, j) is the arc i -> j.
    MetaoptGraphFormatMatrixMarket = 2,
    /// OpenStreetMap `.osm.pbf`: every `highway` way, arcs of haversine metres (`double`).
    MetaoptGraphFormatOsmPbf = 3,
    /// OpenStreetMap `.osm.pbf`: the road ways only (`OSM_ROAD_KINDS`), metres rounded to
    /// integers of at least 1 (`uint32_t`).
    MetaoptGraphFormatOsmPbfRoadsRounded = 4,
}

/// The result of the functions that make a graph. `graph` is NULL on error; on success it is a
/// new handle owned by the caller, who releases it with `metaopt_graph_free`. Also the answer of
/// `metaopt_graph_info` (then `graph` is NULL: the handle asked about stays the caller's).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptGraphResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new graph, or NULL (on error, and from `metaopt_graph_info`).
    pub graph: *mut MetaoptGraph,
    /// Vertices.
    pub n: u32,
    /// Arcs (after dropping self-loops and merging duplicates).
    pub m: u64,
    /// The `MetaoptWeightType` of the weights.
    pub weight_type: i32,
}

/// A copy of a graph's CSR arrays (`metaopt_graph_data`), owned by the caller: free it with
/// `metaopt_graph_free_data`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptGraphData {
    /// Vertices.
    pub n: u32,
    /// Arcs.
    pub m: u64,
    /// `n + 1` entries: the arcs of vertex u are `offsets[u] .. offsets[u + 1]`.
    pub offsets: *mut u64,
    /// `m` entries: the head of each arc (rows sorted by target).
    pub targets: *mut u32,
    /// `m` entries: the weight of each arc as a double (exact except `uint64_t` weights above
    /// 2^53, which round).
    pub weights: *mut f64,
    /// The `MetaoptWeightType` of the graph's weights.
    pub weight_type: i32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptGraphResult);
owned_result!(MetaoptGraphData: frees offsets, targets, weights; zeroes n, m);

fn weight_type(k: WeightKind) -> i32 {
    (match k {
        WeightKind::U32 => MetaoptWeightType::MetaoptWeightU32,
        WeightKind::U64 => MetaoptWeightType::MetaoptWeightU64,
        WeightKind::F32 => MetaoptWeightType::MetaoptWeightF32,
        WeightKind::F64 => MetaoptWeightType::MetaoptWeightF64,
    }) as i32
}

fn info(g: &Graph) -> Result<MetaoptGraphResult> {
    let n = u32::try_from(g.n()).map_err(|_| Error::arg("n", "more than 2^32 - 1 vertices"))?;
    Ok(MetaoptGraphResult {
        error_code: 0,
        error_message: ptr::null_mut(),
        graph: ptr::null_mut(),
        n,
        m: g.m() as u64,
        weight_type: weight_type(g.weight_kind()),
    })
}

/// A new handle for `g`.
fn new_handle(g: Graph) -> Result<MetaoptGraphResult> {
    let mut r = info(&g)?;
    r.graph = handle::insert(GraphHandle {
        graph: g,
        aco_last: None,
        aco_resume: None,
    });
    Ok(r)
}

/// Calls `f` with the caller's `len` weights of type `weight_type`, copied.
///
/// # Safety
/// `weights` must be NULL or hold `len` values of the type.
unsafe fn with_weights<R>(
    weights: *const c_void,
    len: usize,
    weight_type: i32,
    f: &mut dyn FnMut(TypedWeights) -> Result<R>,
) -> Result<R> {
    // SAFETY (all four): the caller's contract for `len` values of the type.
    match weight_type {
        0 => f(TypedWeights::U32(unsafe {
            copy_in(weights, len, "weights")?
        })),
        1 => f(TypedWeights::U64(unsafe {
            copy_in(weights, len, "weights")?
        })),
        2 => f(TypedWeights::F32(unsafe {
            copy_in(weights, len, "weights")?
        })),
        3 => f(TypedWeights::F64(unsafe {
            copy_in(weights, len, "weights")?
        })),
        t => Err(Error::arg(
            "weight_type",
            format!("{t}; expected 0 (u32), 1 (u64), 2 (f32) or 3 (f64)"),
        )),
    }
}

/// Copied weights of one of the four types.
enum TypedWeights {
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Runs a generic builder on the typed weights.
macro_rules! on_weights {
    ($w:expr, |$v:ident| $body:expr) => {
        match $w {
            TypedWeights::U32($v) => $body,
            TypedWeights::U64($v) => $body,
            TypedWeights::F32($v) => $body,
            TypedWeights::F64($v) => $body,
        }
    };
}

/// The C arc count `m` as a length, naming `m` where it overflows the address space.
fn arc_count(m: u64) -> Result<usize> {
    usize::try_from(m).map_err(|_| Error::arg("m", format!("{m} arcs overflow the address space")))
}

fn edges_of<W: Weight>(sources: &[u32], targets: &[u32], w: Vec<W>) -> Vec<(u32, u32, W)> {
    sources
        .iter()
        .zip(targets)
        .zip(w)
        .map(|((&u, &v), w)| (u, v, w))
        .collect()
}

/// A graph from CSR arrays: `offsets` (`n + 1` values, non-decreasing from 0 to `m`), `targets`
/// (`m` vertex numbers `< n`) and `weights` (`m` values of the `MetaoptWeightType` `weight_type`,
/// non-negative and finite). Rows need not be sorted; self-loops are dropped and duplicate arcs
/// keep the smallest weight. The arrays are copied. Errors name `offsets`, `targets`, `weights`
/// or `weight_type` and the entry. On success `graph` is a new handle the caller releases with
/// `metaopt_graph_free`.
///
/// # Safety
/// `offsets` must be NULL or hold `n + 1` values, `targets` NULL or `m` values, `weights` NULL or
/// `m` values of the type.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_from_csr(
    n: u32,
    offsets: *const u64,
    m: u64,
    targets: *const u32,
    weights: *const c_void,
    weight_type: i32,
) -> MetaoptGraphResult {
    ffi_boundary!({
        let m = arc_count(m)?;
        // SAFETY: the caller's contract for `n + 1` and `m` values.
        let off: Vec<u64> = unsafe { copy_in(offsets.cast(), n as usize + 1, "offsets")? };
        // SAFETY: as above.
        let tg: Vec<u32> = unsafe { copy_in(targets.cast(), m, "targets")? };
        // SAFETY: as above.
        let g = unsafe {
            with_weights(weights, m, weight_type, &mut |w| {
                on_weights!(w, |v| Graph::from_csr(&off, &tg, &v))
            })?
        };
        new_handle(g)?
    })
}

/// A graph on `n` vertices from `m` arcs `sources[i] -> targets[i]` of weight `weights[i]` (of the
/// `MetaoptWeightType` `weight_type`), in any order; the rules of `metaopt_graph_from_csr`.
/// Errors name `edges` and the arc's index. On success `graph` is a new handle the caller
/// releases with `metaopt_graph_free`.
///
/// # Safety
/// `sources`, `targets` and `weights` must be NULL or hold `m` values each.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_from_edges(
    n: u32,
    m: u64,
    sources: *const u32,
    targets: *const u32,
    weights: *const c_void,
    weight_type: i32,
) -> MetaoptGraphResult {
    ffi_boundary!({
        let m = arc_count(m)?;
        // SAFETY: the caller's contract for `m` values each.
        let s: Vec<u32> = unsafe { copy_in(sources.cast(), m, "sources")? };
        // SAFETY: as above.
        let t: Vec<u32> = unsafe { copy_in(targets.cast(), m, "targets")? };
        // SAFETY: as above.
        let g = unsafe {
            with_weights(weights, m, weight_type, &mut |w| {
                on_weights!(w, |v| Graph::from_edges(n as usize, &edges_of(&s, &t, v)))
            })?
        };
        new_handle(g)?
    })
}

/// A graph from a row-major `n x n` matrix of the `MetaoptWeightType` `weight_type`: entry
/// (u, v) is the arc u -> v, 0 means no arc (the thesis's convention) and the diagonal is
/// ignored. Errors name `matrix` with the row and column. On success `graph` is a new handle the
/// caller releases with `metaopt_graph_free`.
///
/// # Safety
/// `matrix` must be NULL or hold `n * n` values of the type.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_from_dense(
    n: u32,
    matrix: *const c_void,
    weight_type: i32,
) -> MetaoptGraphResult {
    ffi_boundary!({
        let nn = crate::error::size_product("n", &[n as usize, n as usize])?;
        let g = unsafe {
            // SAFETY: the caller's contract for `n * n` values.
            with_weights(matrix, nn, weight_type, &mut |w| {
                on_weights!(w, |v| Graph::from_dense(n as usize, &v))
            })
            .map_err(|e| match e {
                Error::NullPointer(_) => Error::NullPointer("matrix"),
                e => e,
            })?
        };
        new_handle(g)?
    })
}

/// Reads a graph file in the `MetaoptGraphFormat` `format` (`METAOPT_GRAPH_FORMAT_AUTO`: by the
/// extension; `.gr.gz` and `.mtx.gz` are decompressed, bounded to 64 MiB plus 100 times the
/// file's size). A file that cannot be read is `METAOPT_ERR_IO`; malformed content
/// `METAOPT_ERR_PARSE` naming the path and the 1-based line (0 for `.osm.pbf`), quoting at most
/// 80 characters of it: among them a negative, NaN or infinite weight, and a vertex count beyond
/// twice the arcs plus 2^20 (the arrays of a graph are backed by its file), and an `.osm.pbf`
/// whose blocks decompress to more than 8 MiB plus 20 times its size. On success `graph` is a
/// new handle the caller releases with `metaopt_graph_free`.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_from_file(
    path: *const c_char,
    format: i32,
) -> MetaoptGraphResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let path = Path::new(unsafe { str_arg(path, "path")? });
        let format = match format {
            0 => match graph::GraphFormat::of(path) {
                Ok(graph::GraphFormat::Dimacs) => 1,
                Ok(graph::GraphFormat::MatrixMarket) => 2,
                Ok(graph::GraphFormat::OsmPbf) => 3,
                Err(Error::InvalidArgument { msg, .. }) => {
                    return Err(Error::arg("format", format!("{msg}; or give the format")))
                }
                Err(e) => return Err(e),
            },
            f => f,
        };
        let g = match format {
            1 => Graph::from_dimacs(path)?,
            2 => Graph::from_matrix_market(path)?,
            3 => Graph::from_osm_pbf(path, OsmOptions::default())?,
            4 => Graph::from_osm_pbf(
                path,
                OsmOptions { weights: graph::OsmWeights::RoundedMetres, highways: graph::OsmHighways::Roads },
            )?,
            f => {
                return Err(Error::arg(
                    "format",
                    format!("{f}; expected 0 (auto), 1 (dimacs), 2 (matrix market), 3 (osm.pbf) or 4 (osm.pbf roads, rounded)"),
                ))
            }
        };
        new_handle(g)?
    })
}

/// The thesis's random graph: `2^i` vertices (`i <= 14`), each ordered pair an arc with
/// probability about 1/2 and weight in `1 .. 2^j` (`1 <= j <= 31`), `uint32_t` weights; the same
/// seed gives the same graph. On success `graph` is a new handle the caller releases with
/// `metaopt_graph_free`.
#[no_mangle]
pub extern "C" fn metaopt_graph_thesis_random(i: u32, j: u32, seed: u64) -> MetaoptGraphResult {
    ffi_boundary!({ new_handle(graph::thesis_random(i, j, seed)?)? })
}

/// A `width x height` 4-neighbour grid (cell (x, y) is vertex `y * width + x`): open neighbours
/// are joined both ways by arcs of weight uniform in `1..=max_weight`; each cell is an obstacle
/// (a vertex without arcs) with probability `obstacles` in [0, 1). Seeded, `uint32_t` weights.
/// On success `graph` is a new handle the caller releases with `metaopt_graph_free`.
#[no_mangle]
pub extern "C" fn metaopt_graph_grid(
    width: u32,
    height: u32,
    max_weight: u32,
    obstacles: f64,
    seed: u64,
) -> MetaoptGraphResult {
    ffi_boundary!({
        new_handle(
            graph::grid(width as usize, height as usize, max_weight, obstacles, seed)?.graph,
        )?
    })
}

/// The sizes and weight type of `graph` (`n`, `m`, `weight_type`; `graph` of the result is NULL).
/// The message of an error is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `graph` must be NULL or a handle pointer, which the library checks (freed, forged and
/// wrong-kind handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_info(graph: *const MetaoptGraph) -> MetaoptGraphResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let g = unsafe { handle::get(graph, "graph")? };
        info(&g)?
    })
}

/// A copy of the CSR arrays of `graph` (weights as doubles). Free the result with
/// `metaopt_graph_free_data`.
///
/// # Safety
/// `graph` must be NULL or a handle pointer, which the library checks.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_data(graph: *const MetaoptGraph) -> MetaoptGraphData {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let g = unsafe { handle::get(graph, "graph")? };
        let i = info(&g)?;
        let w: Vec<f64> = match g.weights() {
            Weights::F64(w) => w.clone(),
            ws => (0..ws.len()).map(|e| ws.get_f64(e)).collect(),
        };
        let offsets = CArray::from_slice(g.offsets())?;
        let targets = CArray::from_slice(g.targets())?;
        let weights = CArray::from_slice(&w)?;
        MetaoptGraphData {
            n: i.n,
            m: i.m,
            offsets: offsets.into_raw(),
            targets: targets.into_raw(),
            weights: weights.into_raw(),
            weight_type: i.weight_type,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// Frees the arrays and the message of a `MetaoptGraphData` and sets them to NULL and the counts
/// to 0 (so a second call is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_graph_data` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_free_data(r: *mut MetaoptGraphData) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Releases a graph. NULL, and a pointer that is not a live graph (e.g. one freed already), are
/// ignored.
///
/// # Safety
/// `graph` must not be in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn metaopt_graph_free(graph: *mut MetaoptGraph) {
    ffi_boundary!({
        // SAFETY: the caller's contract; unregistered pointers are ignored.
        unsafe { handle::free(graph) }
    })
}

/// The graph behind a handle, for the solvers (held for the call).
///
/// # Safety
/// As `handle::get`.
pub(super) unsafe fn get(
    g: *const MetaoptGraph,
    arg: &'static str,
) -> Result<handle::InUse<MetaoptGraph>> {
    // SAFETY: the caller's contract.
    unsafe { handle::get(g, arg) }
}
