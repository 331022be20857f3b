//! `metaopt sp sssp` (exact shortest paths from one, several or all sources on the device or the
//! CPU backend, `metaopt::sp`) and `metaopt sp aco` (ant colony optimisation for one pair,
//! `metaopt::aco`), on a graph file (DIMACS `.gr`, Matrix Market `.mtx`, OpenStreetMap
//! `.osm.pbf`) or a generated graph (`--thesis`, `--grid`). The graph options and the ACO options
//! are shared with `bench sp`.

use crate::args::{BackendArgs, DevicesArg, JsonArg, SeedArg, TimeLimitArg};
use crate::mpi::{MpiArg, Ranks};
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::aco::{Aco, AcoOptions, AcoRunResult, Deposit, Selection};
use metaopt::device::Backend;
use metaopt::problem::graph::{
    self, dijkstra, Distances, Graph, GraphFormat, Grid, OsmHighways, OsmOptions, OsmWeights,
    WeightKind, NO_PRED,
};
use metaopt::sp::{lee_wave_within, SpMethod, SpOptions, SpSsspMultiResult, Sssp};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand)]
pub enum SpCommand {
    /// Exact shortest paths (distances, predecessors) from one, several or all sources
    Sssp(Box<SsspArgs>),
    /// Ant colony optimisation for the shortest path from --source to --target, with its gap to
    /// the exact length
    Aco(Box<AcoCmdArgs>),
}

// ---- the graph --------------------------------------------------------------------------------

/// `I,J[,SEED]` of `--thesis`.
fn parse_thesis(s: &str) -> Result<(u32, u32, u64), String> {
    let v: Vec<&str> = s.split(',').map(str::trim).collect();
    let bad =
        || format!("`{s}` is not I,J[,SEED] (V = 2^I vertices, weights below 2^J), e.g. 8,16,0");
    if !(2..=3).contains(&v.len()) {
        return Err(bad());
    }
    let i = v[0].parse().map_err(|_| bad())?;
    let j = v[1].parse().map_err(|_| bad())?;
    let seed = if v.len() == 3 {
        v[2].parse().map_err(|_| bad())?
    } else {
        0
    };
    Ok((i, j, seed))
}

/// `--grid WxH[,MAXW,OBSTACLES,SEED]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    pub width: usize,
    pub height: usize,
    pub max_weight: u32,
    pub obstacles: f64,
    pub seed: u64,
}

pub fn parse_grid(s: &str) -> Result<GridSpec, String> {
    let bad = || format!("`{s}` is not WxH[,MAXW[,OBSTACLES[,SEED]]], e.g. 4900x4900,100,0,1");
    let v: Vec<&str> = s.split(',').map(str::trim).collect();
    if v.is_empty() || v.len() > 4 {
        return Err(bad());
    }
    let (w, h) = v[0].split_once(['x', 'X']).ok_or_else(bad)?;
    let width = w.trim().parse().map_err(|_| bad())?;
    let height = h.trim().parse().map_err(|_| bad())?;
    // field i when given, else its default
    fn field<T: std::str::FromStr>(v: &[&str], i: usize, default: T) -> Result<T, ()> {
        v.get(i).map_or(Ok(default), |x| x.parse().map_err(|_| ()))
    }
    let max_weight = field(&v, 1, 100).map_err(|_| bad())?;
    let obstacles = field(&v, 2, 0.0).map_err(|_| bad())?;
    let seed = field(&v, 3, 1).map_err(|_| bad())?;
    Ok(GridSpec {
        width,
        height,
        max_weight,
        obstacles,
        seed,
    })
}

impl GridSpec {
    pub fn name(&self) -> String {
        format!(
            "grid {}x{} (weights 1..={}, obstacles {}, seed {})",
            self.width, self.height, self.max_weight, self.obstacles, self.seed
        )
    }
    pub fn make(&self, flag: &str) -> CliResult<Grid> {
        graph::grid(
            self.width,
            self.height,
            self.max_weight,
            self.obstacles,
            self.seed,
        )
        .map_err(|e| flag_error(flag, e))
    }
}

/// How OpenStreetMap files are read (`--osm-roads`, `--rounded-metres`).
#[derive(Args, Clone, Copy, Debug)]
pub struct OsmArgs {
    /// OpenStreetMap: only the car network (the road kinds of `highway`), not every highway way
    #[arg(long)]
    pub osm_roads: bool,
    /// OpenStreetMap: weights in whole metres (u32, at least 1) instead of f64 metres
    #[arg(long)]
    pub rounded_metres: bool,
}

impl OsmArgs {
    pub fn options(&self) -> OsmOptions {
        OsmOptions {
            weights: if self.rounded_metres {
                OsmWeights::RoundedMetres
            } else {
                OsmWeights::Metres
            },
            highways: if self.osm_roads {
                OsmHighways::Roads
            } else {
                OsmHighways::All
            },
        }
    }
}

/// A graph file by its extension: `.gr` (DIMACS), `.mtx` (Matrix Market), either optionally
/// `.gz`, `.osm.pbf` / `.pbf`.
pub fn read_graph(path: &Path, osm: &OsmArgs) -> CliResult<Graph> {
    let format = GraphFormat::of(path).map_err(|e| match e {
        metaopt::Error::InvalidArgument { msg, .. } => Failure(msg),
        e => e.into(),
    })?;
    Ok(Graph::from_file(path, format, osm.options())?)
}

/// The graph of `sp sssp` and `sp aco`: a file, or a generator.
#[derive(Args, Clone, Debug)]
pub struct GraphArgs {
    /// The graph: a DIMACS .gr, Matrix Market .mtx or OpenStreetMap .osm.pbf file (or --thesis,
    /// --grid)
    #[arg(value_name = "FILE", required_unless_present_any = ["thesis", "grid"], conflicts_with_all = ["thesis", "grid"])]
    pub file: Option<PathBuf>,
    /// The thesis's random graph: V = 2^I vertices, weights rand() % 2^J, seeded (default seed 0)
    #[arg(long, value_name = "I,J[,SEED]", value_parser = parse_thesis, conflicts_with = "grid")]
    pub thesis: Option<(u32, u32, u64)>,
    /// A generated 4-neighbour grid: W x H cells, weights 1..=MAXW (default 100; 1: unit), each
    /// cell an obstacle with probability OBSTACLES (default 0), seeded (default 1)
    #[arg(long, value_name = "WxH[,MAXW,OBSTACLES,SEED]", value_parser = parse_grid)]
    pub grid: Option<GridSpec>,
    #[command(flatten)]
    pub osm: OsmArgs,
}

/// A graph with its name (and the grid when generated as one, for the Lee wave).
pub struct NamedGraph {
    pub name: String,
    pub graph: Graph,
    pub grid: Option<Grid>,
}

impl NamedGraph {
    /// The first line of a text report: name, size and weight type.
    fn summary(&self) -> String {
        let g = &self.graph;
        format!(
            "{}: {} vertices, {} arcs, {} weights\n",
            self.name,
            out::thousands(g.n() as u64),
            out::thousands(g.m() as u64),
            kind_name(g.weight_kind())
        )
    }
}

impl GraphArgs {
    pub fn load(&self) -> CliResult<NamedGraph> {
        if let Some((i, j, seed)) = self.thesis {
            let g = graph::thesis_random(i, j, seed).map_err(|e| flag_error("--thesis", e))?;
            return Ok(NamedGraph {
                name: format!("thesis random graph i = {i}, j = {j}, seed {seed}"),
                graph: g,
                grid: None,
            });
        }
        if let Some(spec) = self.grid {
            let grid = spec.make("--grid")?;
            return Ok(NamedGraph {
                name: spec.name(),
                graph: grid.graph.clone(),
                grid: Some(grid),
            });
        }
        let path = self
            .file
            .as_ref()
            .ok_or("give a graph FILE, --thesis I,J[,SEED] or --grid WxH")?;
        Ok(NamedGraph {
            name: path.display().to_string(),
            graph: read_graph(path, &self.osm)?,
            grid: None,
        })
    }
}

pub fn kind_name(k: WeightKind) -> &'static str {
    match k {
        WeightKind::U32 => "u32",
        WeightKind::U64 => "u64",
        WeightKind::F32 => "f32",
        WeightKind::F64 => "f64",
    }
}

// ---- sssp -------------------------------------------------------------------------------------

/// The method and whether the local-memory path may run: `auto` (the local path where the
/// distances fit a work-group's local memory, else near-far), `local` (the same), `pull`,
/// `frontier`, `near-far` (with `--delta`; these three as named, never the local path).
pub fn parse_method(s: &str, delta: Option<f64>) -> CliResult<(SpMethod, bool)> {
    match s.trim().to_ascii_lowercase().as_str() {
        "auto" | "local" => Ok((SpMethod::NearFar { delta }, true)),
        "pull" | "bellman-ford" | "bellman-ford-pull" => Ok((SpMethod::BellmanFordPull, false)),
        "frontier" => Ok((SpMethod::Frontier, false)),
        "near-far" | "nearfar" => Ok((SpMethod::NearFar { delta }, false)),
        other => Err(Failure(format!("--method: unknown method `{other}`; expected auto, local, pull, frontier, near-far or lee (grids)"))),
    }
}

/// The names of the flags for the library's argument names.
pub const SP_RENAMES: &[(&str, &str)] = &[
    ("source", "--source"),
    ("sources", "--sources"),
    ("delta", "--delta"),
    ("rounds_per_check", "--rounds-per-check"),
    ("max_rounds", "--max-rounds"),
    ("devices", "--devices"),
];

#[derive(Args)]
pub struct SsspArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    /// The source vertex (0-based) [default: 0]
    #[arg(long, value_name = "S", conflicts_with = "sources")]
    source: Option<u32>,
    /// Several sources in one call: comma-separated vertices, or `all`
    #[arg(long, value_name = "LIST|all")]
    sources: Option<String>,
    /// The device algorithm: auto (one work-group per source in local memory where the distances
    /// fit, else near-far), pull (Bellman-Ford over the reverse graph), frontier, near-far, or
    /// lee (the Lee wave, unit steps; --grid only)
    #[arg(long, default_value = "auto", value_name = "NAME")]
    method: String,
    /// Near-far's bucket width [default: the library's rule from the mean weight and degree]
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    delta: Option<f64>,
    /// Rounds launched between two reads of the convergence state
    #[arg(long, default_value_t = 16, value_name = "N")]
    rounds_per_check: u32,
    /// Most rounds before the call fails [default: n + 1; unbounded for near-far]
    #[arg(long, value_name = "N")]
    max_rounds: Option<u64>,
    /// Compare the distances (and check the predecessors) against host Dijkstra per source
    #[arg(long)]
    check: bool,
    /// Write the distances and predecessors to FILE (CSV: source, vertex, dist, pred; `inf` and -1
    /// for unreachable vertices)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    // an exact computation: past the limit, or after Ctrl-C, the command fails with no result
    #[command(flatten)]
    time_limit: TimeLimitArg,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    devices: DevicesArg,
    #[command(flatten)]
    mpi: MpiArg,
    #[command(flatten)]
    json: JsonArg,
}

/// The sources of `--source` / `--sources` for a graph of `n` vertices.
fn sources_of(source: Option<u32>, sources: &Option<String>, n: usize) -> CliResult<Vec<u32>> {
    let Some(list) = sources else {
        return Ok(vec![source.unwrap_or(0)]);
    };
    if list.trim().eq_ignore_ascii_case("all") {
        let mut all = metaopt::error::try_vec(n, "sources")?;
        all.extend(0..n as u32);
        return Ok(all);
    }
    let mut v = Vec::new();
    for t in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        v.push(t.parse::<u32>().map_err(|_| {
            Failure(format!(
                "--sources: `{t}` is not a vertex number (or give `all`)"
            ))
        })?);
    }
    if v.is_empty() {
        return Err("--sources: empty; give vertex numbers or `all`".into());
    }
    Ok(v)
}

/// The largest finite distance of row `i`.
fn max_dist(d: &Distances, n: usize, i: usize) -> Option<f64> {
    (i * n..(i + 1) * n)
        .filter(|&v| d.reachable(v))
        .map(|v| d.get_f64(v))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
}

fn dist_text(d: &Distances, v: usize) -> String {
    match d {
        Distances::U64(x) if x[v] == u64::MAX => "inf".into(),
        Distances::U64(x) => x[v].to_string(),
        Distances::F64(x) if !x[v].is_finite() => "inf".into(),
        Distances::F64(x) => out::float(x[v]),
    }
}

/// Whether two distances agree: exactly for integers, to 1e-9 relative for reals (sums of the
/// same arcs in another order).
fn same(a: f64, b: f64, real: bool) -> bool {
    if !real || a.is_infinite() || b.is_infinite() {
        a == b
    } else {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }
}

/// Compares row `i` of `r` with host Dijkstra from its source and checks that each predecessor
/// closes a shortest arc: an error names the first vertex that differs.
pub fn check_row(
    g: &Graph,
    dist: &Distances,
    pred: &[u32],
    n: usize,
    i: usize,
    source: u32,
) -> CliResult {
    let h = dijkstra(g, source)?;
    let real = matches!(dist, Distances::F64(_));
    let w = g.weights();
    for v in 0..n {
        let (a, b) = (dist.get_f64(i * n + v), h.dist.get_f64(v));
        if dist.reachable(i * n + v) != h.dist.reachable(v) || !same(a, b, real) {
            return Err(Failure(format!("check failed: source {source}, vertex {v}: distance {a} against host Dijkstra's {b}")));
        }
        let p = pred[i * n + v];
        if v as u32 == source || !h.dist.reachable(v) {
            if p != NO_PRED {
                return Err(Failure(format!(
                    "check failed: source {source}, vertex {v}: predecessor {p}, expected none"
                )));
            }
            continue;
        }
        if p == NO_PRED || p as usize >= n {
            return Err(Failure(format!(
                "check failed: source {source}, vertex {v}: no predecessor"
            )));
        }
        let arc = g
            .arcs_of(p as usize)
            .filter(|&e| g.targets()[e] == v as u32)
            .map(|e| w.get_f64(e))
            .fold(f64::INFINITY, f64::min);
        if !same(dist.get_f64(i * n + p as usize) + arc, a, real) {
            return Err(Failure(format!("check failed: source {source}, vertex {v}: predecessor {p} is not on a shortest path")));
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct SourceJson {
    source: u32,
    reached: usize,
    max_dist: Option<f64>,
    edges: u64,
}

#[derive(Serialize)]
struct SsspJson<'a> {
    graph: &'a str,
    vertices: usize,
    arcs: usize,
    weights: &'static str,
    method: &'a str,
    backend: &'static str,
    device: &'a str,
    sources: usize,
    /// Kernel rounds (0 on the CPU backend).
    rounds: u64,
    /// Traversed edges over every source (Gunrock's definition).
    edges: u64,
    reached: usize,
    max_dist: Option<f64>,
    seconds: f64,
    setup_seconds: f64,
    teps: f64,
    checked: bool,
    per_source: Vec<SourceJson>,
}

pub fn sssp(a: &SsspArgs) -> CliResult {
    let backend = a.backend.backend()?;
    let ng = a.graph.load()?;
    let g = &ng.graph;
    let n = g.n();
    let sources = sources_of(a.source, &a.sources, n)?;
    if let Some((i, &s)) = sources.iter().enumerate().find(|(_, &s)| s as usize >= n) {
        let flag = if a.sources.is_some() {
            format!("--sources: sources[{i}] = {s}")
        } else {
            format!("--source: {s}")
        };
        return Err(Failure(format!(
            "{flag}; the graph has {n} vertices (0..{})",
            n.saturating_sub(1)
        )));
    }
    let ranks = a.mpi.ranks()?;
    let t_setup = Instant::now();
    let lee = a.method.trim().eq_ignore_ascii_case("lee");
    if ranks.is_some() && lee {
        return Err("--mpi: the Lee wave runs on one device (one source)".into());
    }
    // with --mpi, this rank's block of the sources on its devices (its local rank's device
    // unless --devices or --device names some)
    let mine: Vec<u32> = match &ranks {
        Some(rk) => {
            rk.pick_device(
                a.backend.cpu,
                a.devices.devices.is_some() || a.backend.device.device.is_some(),
            );
            rk.or_abort(crate::mpi::test_failure(rk));
            sources[rk.block(sources.len())].to_vec()
        }
        None => sources.clone(),
    };
    let compute = || -> CliResult<(SpSsspMultiResult, String, f64, f64)> {
        if lee {
            let grid = ng
                .grid
                .as_ref()
                .ok_or("--method lee: the Lee wave runs on a generated --grid only")?;
            if sources.len() != 1 {
                return Err("--method lee: one --source".into());
            }
            if a.devices.devices.is_some() {
                return Err("--devices: the Lee wave runs on one device (one source)".into());
            }
            let t = Instant::now();
            let r = lee_wave_within(
                grid,
                sources[0],
                backend,
                a.rounds_per_check,
                &metaopt::run::Stop {
                    time_limit: crate::time_left(a.time_limit.time_limit),
                    token: Some(crate::stop_token()),
                    ..Default::default()
                },
            )
            .map_err(|e| out::renamed_or_cpu(e, SP_RENAMES))?;
            let secs = t.elapsed().as_secs_f64();
            let desc = if a.backend.cpu {
                format!("{}, breadth-first search", backend.describe())
            } else {
                format!("{}, Lee wave", backend.describe())
            };
            let m = SpSsspMultiResult {
                sources: sources.clone(),
                n,
                dist: r.dist,
                pred: r.pred,
                rounds: r.rounds,
                reached: vec![r.reached],
                edges: vec![r.edges],
            };
            Ok((m, desc, 0.0, secs))
        } else {
            let (method, local_memory) = parse_method(&a.method, a.delta)?;
            let opts = SpOptions {
                method,
                backend,
                rounds_per_check: a.rounds_per_check,
                max_rounds: a.max_rounds,
                local_memory,
                devices: a.devices.list_for(a.backend.cpu)?,
                // counted from the command's start (sssp_multi_since): reading the graph, the
                // program build and the upload are inside the limit
                stop: metaopt::run::Stop {
                    time_limit: a.time_limit.time_limit,
                    token: Some(crate::stop_token()),
                    ..Default::default()
                },
            };
            let mut sp = Sssp::new(g, opts).map_err(|e| out::renamed_or_cpu(e, SP_RENAMES))?;
            let setup_s = t_setup.elapsed().as_secs_f64();
            let t = Instant::now();
            if mine.is_empty() {
                // a rank with no sources (more ranks than sources)
                let dist = if matches!(g.weight_kind(), WeightKind::F32 | WeightKind::F64) {
                    Distances::F64(Vec::new())
                } else {
                    Distances::U64(Vec::new())
                };
                return Ok((
                    SpSsspMultiResult {
                        sources: Vec::new(),
                        n,
                        dist,
                        pred: Vec::new(),
                        rounds: 0,
                        reached: Vec::new(),
                        edges: Vec::new(),
                    },
                    sp.describe(),
                    setup_s,
                    0.0,
                ));
            }
            let r = sp
                .sssp_multi_since(&mine, crate::started())
                .map_err(|e| out::renamed_or_cpu(e, SP_RENAMES))?;
            Ok((r, sp.describe(), setup_s, t.elapsed().as_secs_f64()))
        }
    };
    let (r, desc, setup_s, secs) = match &ranks {
        None => compute()?,
        Some(rk) => {
            let (r, desc, setup_s, secs) = rk.or_abort(compute());
            let secs = rk.max_f64(secs);
            match gather_sssp(rk, r, sources.clone()) {
                Some(r) => (
                    r,
                    format!(
                        "{desc}; MPI, {} rank{}",
                        rk.size(),
                        if rk.size() == 1 { "" } else { "s" }
                    ),
                    setup_s,
                    secs,
                ),
                None => return Ok(()),
            }
        }
    };
    if a.check {
        for (i, &s) in sources.iter().enumerate() {
            if lee {
                // the Lee wave's unit steps: Dijkstra on the unit-weight grid of the same cells
                let grid = ng.grid.as_ref().expect("lee has a grid");
                let unit = graph::grid(grid.width, grid.height, 1, 0.0, 0)?;
                let g1 = blocked_copy(&unit.graph, &grid.blocked)?;
                check_row(&g1, &r.dist, &r.pred, n, i, s)?;
            } else {
                check_row(g, &r.dist, &r.pred, n, i, s)?;
            }
        }
    }
    if let Some(path) = &a.out {
        let rows = sources.iter().enumerate().flat_map(|(i, &s)| {
            let r = &r;
            (0..n).map(move |v| {
                let p = r.pred[i * n + v];
                [
                    s.to_string(),
                    v.to_string(),
                    dist_text(&r.dist, i * n + v),
                    if p == NO_PRED {
                        "-1".into()
                    } else {
                        p.to_string()
                    },
                ]
            })
        });
        out::write_csv_file(path, "--out: ", &["source", "vertex", "dist", "pred"], rows)?;
    }
    let edges: u64 = r.edges.iter().sum();
    let reached: usize = r.reached.iter().sum();
    let maxd = (0..sources.len())
        .filter_map(|i| max_dist(&r.dist, n, i))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    let teps = edges as f64 / secs.max(1e-9);
    let method = if lee {
        "lee".to_string()
    } else {
        a.method.trim().to_ascii_lowercase()
    };
    if a.json.json {
        return out::print_json(&SsspJson {
            graph: &ng.name,
            vertices: n,
            arcs: g.m(),
            weights: kind_name(g.weight_kind()),
            method: &method,
            backend: a.backend.name(),
            device: &desc,
            sources: sources.len(),
            rounds: r.rounds,
            edges,
            reached,
            max_dist: maxd,
            seconds: secs,
            setup_seconds: setup_s,
            teps,
            checked: a.check,
            per_source: (0..sources.len())
                .map(|i| SourceJson {
                    source: sources[i],
                    reached: r.reached[i],
                    max_dist: max_dist(&r.dist, n, i),
                    edges: r.edges[i],
                })
                .collect(),
        });
    }
    let mut t = ng.summary();
    t += &format!("{desc}, method {method}\n");
    let md = maxd.map_or("none".to_string(), out::float);
    if sources.len() == 1 {
        t += &format!(
            "source {}: reached {} of {}, max distance {md}\n",
            sources[0],
            out::thousands(reached as u64),
            out::thousands(n as u64)
        );
    } else {
        t += &format!(
            "{} sources in one call: reached {} of {} (source, vertex) pairs, max distance {md}\n",
            sources.len(),
            out::thousands(reached as u64),
            out::thousands((n * sources.len()) as u64)
        );
    }
    t += &format!(
        "rounds {}, traversed edges {}, {:.6} s (set-up {:.3} s), {} TEPS\n",
        r.rounds,
        out::thousands(edges),
        secs,
        setup_s,
        out::rate(teps)
    );
    if a.check {
        t += &format!(
            "check: equal to host Dijkstra from every source ({})\n",
            sources.len()
        );
    }
    if let Some(p) = &a.out {
        t += &format!("distances and predecessors written to {}\n", p.display());
    }
    out::print(&t)
}

/// Every rank's rows of an SSSP run, in rank order (so by global source index), on rank 0;
/// `None` on the other ranks.
fn gather_sssp(rk: &Ranks, r: SpSsspMultiResult, sources: Vec<u32>) -> Option<SpSsspMultiResult> {
    let (du, df) = match &r.dist {
        Distances::U64(d) => (d.clone(), Vec::new()),
        Distances::F64(d) => (Vec::new(), d.clone()),
    };
    let du = rk.gather(&du);
    let df = rk.gather(&df);
    let pred = rk.gather(&r.pred);
    let reached = rk.gather(&r.reached.iter().map(|&x| x as u64).collect::<Vec<_>>());
    let edges = rk.gather(&r.edges);
    let rounds = rk.gather(&[r.rounds]);
    let dist = match r.dist {
        Distances::U64(_) => Distances::U64(du?),
        Distances::F64(_) => Distances::F64(df?),
    };
    Some(SpSsspMultiResult {
        sources,
        n: r.n,
        dist,
        pred: pred?,
        rounds: rounds?.into_iter().max().unwrap_or(0),
        reached: reached?.into_iter().map(|x| x as usize).collect(),
        edges: edges?,
    })
}

/// `g` (a unit grid without obstacles) with the arcs touching a blocked cell removed.
fn blocked_copy(g: &Graph, blocked: &[bool]) -> CliResult<Graph> {
    let mut edges = Vec::new();
    for u in 0..g.n() {
        if blocked[u] {
            continue;
        }
        for e in g.arcs_of(u) {
            let v = g.targets()[e];
            if !blocked[v as usize] {
                edges.push((u as u32, v, 1u32));
            }
        }
    }
    Ok(Graph::from_edges(g.n(), &edges)?)
}

// ---- aco --------------------------------------------------------------------------------------

/// `--iterations`: a count, or the thesis's rule ([`AcoOptions::thesis_iterations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterationsArg {
    Count(u32),
    Thesis,
}

/// `N` or `thesis`.
fn parse_iterations(s: &str) -> Result<IterationsArg, String> {
    if s.trim().eq_ignore_ascii_case("thesis") {
        return Ok(IterationsArg::Thesis);
    }
    s.trim()
        .parse::<u32>()
        .map(IterationsArg::Count)
        .map_err(|_| format!("`{s}` is not a count or `thesis`"))
}

/// `--max-min`: a ratio or `off` (`None`).
#[derive(Clone, Copy, Debug)]
pub struct MaxMin(Option<f64>);

fn parse_off(s: &str) -> Result<MaxMin, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(MaxMin(None));
    }
    s.trim()
        .parse::<f64>()
        .map(|x| MaxMin(Some(x)))
        .map_err(|_| format!("`{s}` is not a number or `off`"))
}

/// The ACO options (`sp aco`, `bench sp --aco`); defaults are the library's (docs/specs/ACO.md).
#[derive(Args, Clone, Debug)]
pub struct AcoArgs {
    /// Ants per iteration [default: 64]
    #[arg(long, value_name = "N")]
    pub ants: Option<usize>,
    /// Exponent of the pheromone [default: 1]
    #[arg(long, value_name = "A")]
    pub alpha: Option<f64>,
    /// Exponent of the arc weight in 1 / (w + c)^beta [default: 2]
    #[arg(long, value_name = "B")]
    pub beta: Option<f64>,
    /// The damping constant c added to the arc weight [default: 0]
    #[arg(long, value_name = "C")]
    pub damping: Option<f64>,
    /// Fraction of pheromone evaporated per iteration, in (0, 1] [default: 0.1]
    #[arg(long, value_name = "RHO")]
    pub evaporation: Option<f64>,
    /// Exponent gamma of the deposit 1 / L^gamma [default: 1]
    #[arg(long, value_name = "G")]
    pub deposit_exponent: Option<f64>,
    /// Initial pheromone [default: MAX-MIN's tau_max after the first success]
    #[arg(long, value_name = "TAU")]
    pub initial_pheromone: Option<f64>,
    /// Iterations: a count, or `thesis` (evaporation brings --initial-pheromone down to 1)
    /// [default: 100]
    #[arg(long, value_name = "N|thesis", value_parser = parse_iterations)]
    pub iterations: Option<IterationsArg>,
    /// Stop after this many iterations without a shorter path [default: never]
    #[arg(long, value_name = "N")]
    pub max_no_improve: Option<u32>,
    /// MAX-MIN bounds: the ratio tmin / tmax in (0, 1], or `off` [default: 0.01]
    #[arg(long, value_name = "R|off", value_parser = parse_off)]
    pub max_min: Option<MaxMin>,
    /// Which ants deposit: all (the thesis) or iteration-best [default: all]
    #[arg(long, value_name = "WHO", value_parser = ["all", "iteration-best"])]
    pub deposit: Option<String>,
    /// How the next vertex is drawn: roulette or gumbel [default: roulette]
    #[arg(long, value_name = "HOW", value_parser = ["roulette", "gumbel"])]
    pub selection: Option<String>,
    /// The most arcs an ant walks before it fails [default: V - 1]
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u32>,
    /// Work-items per ant on a device [default: the device kind's tuning]
    #[arg(long, value_name = "N")]
    pub group_size: Option<usize>,
    /// No local search of the ants' paths (shortcuts and one- to three-vertex detours before the deposit:
    /// the library's addition, on by default; off is the thesis's method)
    #[arg(long)]
    pub no_local_search: bool,
    /// Reset the pheromone to its upper bound after this many iterations without a shorter path
    /// (MAX-MIN's restart) [default: never]
    #[arg(long, value_name = "N")]
    pub restart: Option<u32>,
}

impl AcoArgs {
    /// The library's options of these flags with `seed`, the budget their iterations (`thesis`:
    /// the thesis's rule, whose conditions failing is an error naming `--iterations`).
    // `..d`: fields the library may add later keep their defaults
    #[allow(clippy::needless_update)]
    pub fn options(&self, seed: u64) -> CliResult<AcoOptions> {
        let d = AcoOptions::default();
        let mut o = AcoOptions {
            ants: self.ants.unwrap_or(d.ants),
            alpha: self.alpha.unwrap_or(d.alpha),
            beta: self.beta.unwrap_or(d.beta),
            damping: self.damping.unwrap_or(d.damping),
            evaporation: self.evaporation.unwrap_or(d.evaporation),
            deposit_exponent: self.deposit_exponent.unwrap_or(d.deposit_exponent),
            initial_pheromone: self.initial_pheromone.or(d.initial_pheromone),
            max_no_improve: self.max_no_improve.or(d.max_no_improve),
            max_min: self.max_min.map_or(d.max_min, |m| m.0),
            deposit: match self.deposit.as_deref() {
                Some("all") => Deposit::All,
                Some(_) => Deposit::IterationBest,
                None => d.deposit,
            },
            selection: match self.selection.as_deref() {
                Some("gumbel") => Selection::Gumbel,
                Some(_) => Selection::Roulette,
                None => d.selection,
            },
            max_steps: self.max_steps.or(d.max_steps),
            group_size: self.group_size.or(d.group_size),
            local_search: d.local_search && !self.no_local_search,
            restart: self.restart.or(d.restart),
            seed,
            ..d
        };
        match self.iterations {
            Some(IterationsArg::Count(k)) => o.stop.budget = Some(u64::from(k)),
            Some(IterationsArg::Thesis) => {
                o.stop.budget = Some(
                    o.thesis_iterations()
                        .map_err(|e| out::renamed(e, ACO_RENAMES))?,
                )
            }
            None => {}
        }
        Ok(o)
    }
}

pub const ACO_RENAMES: &[(&str, &str)] = &[
    ("ants", "--ants"),
    ("alpha", "--alpha"),
    ("beta", "--beta"),
    ("damping", "--damping"),
    ("evaporation", "--evaporation"),
    ("deposit_exponent", "--deposit-exponent"),
    ("initial_pheromone", "--initial-pheromone"),
    ("restart", "--restart"),
    ("iterations", "--iterations"),
    ("max_min", "--max-min"),
    ("max_steps", "--max-steps"),
    ("group_size", "--group-size"),
    ("source", "--source"),
    ("target", "--target"),
];

#[derive(Args)]
#[command(mut_arg("csv", |a| a.help(
    "Write the convergence log to FILE (CSV: seconds, iterations, best: the shortest length an \
     ant found, a row per iteration from the first path on)"
)))]
pub struct AcoCmdArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    /// The start vertex (0-based)
    #[arg(long, value_name = "S")]
    source: u32,
    /// The end vertex (0-based)
    #[arg(long, value_name = "T")]
    target: u32,
    #[command(flatten)]
    aco: AcoArgs,
    #[command(flatten)]
    seed: SeedArg,
    /// Print the vertices of the best path and of the strongest-pheromone path
    #[arg(long)]
    path: bool,
    // checked between iterations: the best path so far is printed, as after Ctrl-C
    #[command(flatten)]
    time_limit: TimeLimitArg,
    /// checkpoints of the pheromone, the best path and the counters, and resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    convergence: crate::convergence::ConvergenceArgs,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct AcoJson<'a> {
    graph: &'a str,
    vertices: usize,
    arcs: usize,
    weights: &'static str,
    backend: &'static str,
    options: &'a AcoOptions,
    seconds: f64,
    exact: bool,
    best_length: Option<f64>,
    gap: Option<f64>,
    pheromone_length: Option<f64>,
    #[serde(flatten)]
    result: &'a AcoRunResult,
}

/// The run of `o` from s to t on `g`, errors naming the flags; its time limit counts from this
/// call (the program build and upload included).
pub fn aco_run(
    g: &Graph,
    o: AcoOptions,
    backend: Backend,
    s: u32,
    t: u32,
) -> CliResult<AcoRunResult> {
    aco_run_observed(g, o, backend, s, t, None, |_| true)
}

/// [`aco_run`] continuing the run whose checkpoint is `resume` (`--resume`), with `progress`
/// before every iteration and at the end (`Aco::run_observed`).
pub fn aco_run_observed(
    g: &Graph,
    o: AcoOptions,
    backend: Backend,
    s: u32,
    t: u32,
    resume: Option<Vec<u8>>,
    progress: impl FnMut(&metaopt::run::Progress) -> bool,
) -> CliResult<AcoRunResult> {
    let start = Instant::now();
    let renames = [ACO_RENAMES, &crate::checkpoint::RENAMES[..]].concat();
    let mut aco = Aco::new(g, o, backend).map_err(|e| out::renamed_or_cpu(e, &renames))?;
    if let Some(bytes) = resume {
        aco.load_state(&bytes)
            .map_err(|e| out::renamed(e, &renames))?;
    }
    aco.run_observed(s, t, start, progress)
        .map_err(|e| out::renamed(e, &renames))
}

pub fn aco(a: &AcoCmdArgs) -> CliResult {
    a.convergence.check()?;
    let backend = a.backend.backend()?;
    let ng = a.graph.load()?;
    let g = &ng.graph;
    let n = g.n();
    for (flag, v) in [("--source", a.source), ("--target", a.target)] {
        if v as usize >= n {
            return Err(Failure(format!(
                "{flag}: {v}; the graph has {n} vertices (0..{})",
                n.saturating_sub(1)
            )));
        }
    }
    let mut o = a.aco.options(a.seed.seed)?;
    o.stop.time_limit = crate::time_left(a.time_limit.time_limit);
    o.stop.token = Some(crate::stop_token());
    o.stop.checkpoint = a.checkpoint.plan(None)?;
    let bar = a
        .json
        .progress()
        .then(|| out::stop_bar(o.stop.budget, "iteration", o.stop.time_limit));
    let log = a
        .convergence
        .log("iterations")
        .map(|l| l.label("shortest length found"));
    let resume = a.checkpoint.resume(None)?;
    let r = aco_run_observed(g, o.clone(), backend, a.source, a.target, resume, |p| {
        if let Some(log) = &log {
            log.record(p.work, p.best);
        }
        if let Some(bar) = &bar {
            if o.stop.time_limit.is_none() {
                bar.set_position(p.work);
            }
            if p.best.is_finite() {
                bar.set_message(format!("best length {}", out::float(p.best)));
            }
        }
        true
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = r?;
    a.convergence.write(
        log.as_ref(),
        &format!(
            "{}: ACO from {} to {}, best length",
            ng.name, a.source, a.target
        ),
    )?;
    let secs = r.elapsed.as_secs_f64();
    if a.json.json {
        return out::print_json(&AcoJson {
            graph: &ng.name,
            vertices: n,
            arcs: g.m(),
            weights: kind_name(g.weight_kind()),
            backend: a.backend.name(),
            // the limit as given (the run had what was left of it after reading the graph)
            options: &AcoOptions {
                stop: metaopt::run::Stop {
                    time_limit: a.time_limit.time_limit,
                    ..o.stop.clone()
                },
                ..o.clone()
            },
            seconds: secs,
            exact: r.exact(),
            best_length: r.best_length(),
            gap: r.gap(),
            pheromone_length: r.pheromone.as_ref().map(|p| p.length),
            result: &r,
        });
    }
    let mut t = ng.summary();
    t += &format!("{}\n", r.backend_description);
    t += &format!(
        "{} ants x {} iterations (seed {}), from {} to {}\n",
        o.ants, r.iterations, o.seed, a.source, a.target
    );
    let Some(exact) = r.exact_length else {
        t += &format!("target {} is unreachable from {}\n", a.target, a.source);
        return out::print(&t);
    };
    t += &format!("exact length {} (host Dijkstra)\n", out::float(exact));
    match &r.best {
        Some(b) => {
            t += &format!(
                "best length {} ({} arcs), gap {:.6} %{}, found at iteration {}\n",
                out::float(b.length),
                b.vertices.len() - 1,
                100.0 * b.gap,
                if r.exact() { " (exact)" } else { "" },
                r.found_at_iteration.map_or("-".into(), |i| i.to_string())
            );
            if a.path {
                t += &format!("best path: {}\n", join(&b.vertices));
            }
        }
        None => t += "no ant reached the target\n",
    }
    match &r.pheromone {
        Some(p) => {
            t += &format!(
                "strongest-pheromone path length {} ({} arcs), gap {:.6} %\n",
                out::float(p.length),
                p.vertices.len() - 1,
                100.0 * p.gap
            );
            if a.path {
                t += &format!("pheromone path: {}\n", join(&p.vertices));
            }
        }
        None => t += "the strongest-pheromone walk dead-ends before the target\n",
    }
    t += &format!(
        "successful ants {}, {:.3} s\n",
        out::thousands(r.successful_ants),
        secs
    );
    t += &format!("stopped by {}\n", r.stop.word());
    out::print(&t)
}

fn join(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
