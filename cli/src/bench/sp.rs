//! `metaopt bench sp`: shortest paths.
//!
//! - `--sssp`: single-source SSSP on generated grids (`--grid`, default 4900x4900, about 24 M
//!   vertices) and graph files (`--file`): per method a warm-up call, then `--repeat` timed calls
//!   on the device; the CPU backend (host Dijkstra, `--threads` rayon threads) on the same source
//!   beside it; seconds, traversed edges (Gunrock's definition: the arcs whose tail is reached),
//!   TEPS and the ratio CPU seconds / device seconds. The device's distances are compared with
//!   the CPU backend's (an error when they differ).
//! - `--all-sources FILE`: every vertex a source in one call: `--repeat` timed calls on the CPU
//!   backend and, per method, on the device after one untimed call of the same size; the mean
//!   and best seconds, the ratio of the means, the distances compared.
//! - `--aco`: ACO on the thesis's random graphs (`--vs`, `--j`, `--runs`; the graph of run k has
//!   seed k, the pair drawn from Philox(k, 99), the ACO seed k, as tests/it/solvers/aco.rs): the share of runs
//!   that find the exact path beside the thesis's 98.4 %, the mean gap and time; with
//!   `--aco-grid` / `--aco-file`, `--pairs` random reachable pairs per graph and their gap.
//!
//! The rows go to stdout as CSV (and `--csv FILE`), a readable line per row to stderr.

use crate::args::{BenchIoArgs, SeedArg};
use crate::cmd::sp::{self, AcoArgs, GridSpec, OsmArgs, SP_RENAMES};
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::device::Backend;
use metaopt::problem::graph::{self, dijkstra, Distances, Graph, Grid};
use metaopt::rng::Philox;
use metaopt::sp::{lee_wave, SpOptions, SpSsspMultiResult, SpSsspResult, Sssp};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// The thesis's exact-path share (thesis 003, chapter 6).
const THESIS_SHARE: f64 = 0.984;

/// `16`, `1..16`, `1-16` or a comma list of these.
fn parse_js(s: &str) -> Result<Vec<u32>, String> {
    let mut v = Vec::new();
    for t in s.split(',').map(str::trim) {
        let bad = || format!("`{t}` is not a number or a range like 1..16");
        if let Some((a, b)) = t.split_once("..").or_else(|| t.split_once('-')) {
            let (a, b): (u32, u32) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim()
                    .trim_start_matches('=')
                    .parse()
                    .map_err(|_| bad())?,
            );
            if a > b {
                return Err(bad());
            }
            v.extend(a..=b);
        } else {
            v.push(t.parse().map_err(|_| bad())?);
        }
    }
    Ok(v)
}

/// The device methods `--methods` times by default.
const METHODS: &str = "auto,frontier,near-far";

#[derive(Args)]
pub struct BenchSpArgs {
    /// Single-source SSSP: device methods beside the CPU backend on --grid and --file graphs
    #[arg(long)]
    sssp: bool,
    /// A generated grid for --sssp (repeatable) [default with --sssp and no --file: 4900x4900]
    #[arg(long, value_name = "WxH[,MAXW,OBSTACLES,SEED]", value_parser = sp::parse_grid)]
    grid: Vec<GridSpec>,
    /// A graph file for --sssp (.gr, .mtx, .osm.pbf; repeatable)
    #[arg(long, value_name = "FILE")]
    file: Vec<PathBuf>,
    /// Device methods, comma-separated: auto (the local-memory path where it fits), pull, frontier, near-far, lee (grids only)
    #[arg(long, value_delimiter = ',', default_value = METHODS, value_name = "NAMES")]
    methods: Vec<String>,
    /// Near-far's bucket width [default: the library's rule]
    #[arg(long, value_name = "D")]
    delta: Option<f64>,
    /// The source of --sssp: a vertex, or `center` (the middle cell of a grid, vertex n / 2 of a file)
    #[arg(long, default_value = "0", value_name = "S|center")]
    source: String,
    /// Timed calls per method (the device's after a warm-up; the mean and the best are reported)
    #[arg(long, default_value_t = 3, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Rounds between two reads of the convergence state
    #[arg(long, default_value_t = 16, value_name = "N")]
    rounds_per_check: u32,
    /// Every vertex of FILE a source, in one call on the device and one on the CPU backend
    #[arg(long, value_name = "FILE")]
    all_sources: Option<PathBuf>,
    /// Skip the CPU backend's runs (--sssp, --all-sources)
    #[arg(long)]
    no_cpu: bool,
    /// Threads of the CPU backend [default: rayon's, one per core]
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// ACO on the thesis's random graphs (--vs, --j, --runs) and on --aco-grid / --aco-file
    #[arg(long)]
    aco: bool,
    /// Vertex counts of the thesis's graphs (powers of two)
    #[arg(long, value_delimiter = ',', default_value = "256,1024", value_name = "V,...")]
    vs: Vec<u32>,
    /// Weight bits j of the thesis's graphs (weights below 2^j): a list or a range, e.g. 16 or 1..16
    #[arg(long, default_value = "16", value_name = "J|A..B", value_parser = parse_js)]
    j: Vec<Vec<u32>>,
    /// Runs (graphs and pairs) per thesis graph size
    #[arg(long, default_value_t = 20, value_name = "R", value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// A grid for ACO pairs (repeatable)
    #[arg(long, value_name = "WxH[,MAXW,OBSTACLES,SEED]", value_parser = sp::parse_grid)]
    aco_grid: Vec<GridSpec>,
    /// A graph file for ACO pairs (repeatable)
    #[arg(long, value_name = "FILE")]
    aco_file: Vec<PathBuf>,
    /// Random reachable pairs per --aco-grid / --aco-file graph
    #[arg(long, default_value_t = 10, value_name = "P", value_parser = clap::value_parser!(u32).range(1..))]
    pairs: u32,
    /// Run ACO on the CPU backend instead of the device
    #[arg(long)]
    aco_cpu: bool,
    #[command(flatten)]
    aco_opts: AcoArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    osm: OsmArgs,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize, Default)]
struct Row {
    part: &'static str,
    graph: String,
    vertices: usize,
    arcs: usize,
    method: String,
    backend: &'static str,
    /// The CPU backend's rayon threads (empty for the device).
    threads: Option<usize>,
    sources: Option<usize>,
    runs: Option<u64>,
    /// Mean seconds per call (SSSP) or per run (ACO).
    seconds: f64,
    best_seconds: Option<f64>,
    /// Traversed edges per call (summed over the sources).
    edges: Option<u64>,
    teps: Option<f64>,
    /// CPU backend seconds / device seconds (device rows).
    ratio_vs_cpu: Option<f64>,
    rounds: Option<u64>,
    exact_share: Option<f64>,
    thesis_share: Option<f64>,
    mean_gap: Option<f64>,
    /// Runs in which an ant reached the target.
    found: Option<u64>,
    device: String,
}

fn same(a: &Distances, b: &Distances) -> bool {
    match (a, b) {
        (Distances::U64(x), Distances::U64(y)) => x == y,
        (Distances::F64(x), Distances::F64(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(&p, &q)| p == q || (p - q).abs() <= 1e-9 * q.abs().max(1.0))
        }
        _ => false,
    }
}

struct Ctx<'a> {
    a: &'a BenchSpArgs,
    pool: rayon::ThreadPool,
    w: csv::Writer<Vec<u8>>,
}

impl Ctx<'_> {
    fn emit(&mut self, r: Row) -> CliResult {
        let mut line = format!(
            "{:<10} {:<28} {:<9} {:<6}",
            r.part, r.graph, r.method, r.backend
        );
        if let Some(t) = r.threads {
            line += &format!(" ({t} threads)");
        }
        line += &format!(" {:.4} s", r.seconds);
        if let Some(b) = r.best_seconds {
            line += &format!(" (best {b:.4})");
        }
        if let (Some(e), Some(t)) = (r.edges, r.teps) {
            line += &format!(", {} edges, {} TEPS", out::thousands(e), out::rate(t));
        }
        if let Some(x) = r.ratio_vs_cpu {
            line += &format!(", {x:.2}x the CPU backend");
        }
        if let (Some(s), Some(n)) = (r.exact_share, r.runs) {
            line += &format!(", exact {:.1} % of {n} runs", 100.0 * s);
            if let Some(t) = r.thesis_share {
                line += &format!(" (thesis {:.1} %)", 100.0 * t);
            }
        }
        if let Some(g) = r.mean_gap {
            line += &format!(", mean gap {:.4} %", 100.0 * g);
        }
        eprintln!("{line}");
        self.w.serialize(r).map_err(csv_error)
    }

    fn cpu_threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The fields of a row of the CPU backend's Dijkstra on graph `g` (`name`).
    fn dijkstra_row(&self, part: &'static str, name: &str, g: &Graph) -> Row {
        Row {
            part,
            graph: name.into(),
            vertices: g.n(),
            arcs: g.m(),
            method: "dijkstra".into(),
            backend: "cpu",
            threads: Some(self.cpu_threads()),
            ..Default::default()
        }
    }
}

/// An SSSP solver of method `m` (a `--methods` name) on the device.
fn device_sssp<'g>(g: &'g Graph, m: &str, a: &BenchSpArgs) -> CliResult<Sssp<'g>> {
    let (method, local_memory) = sp::parse_method(m, a.delta)?;
    let opts = SpOptions {
        method,
        backend: Backend::DEVICE,
        rounds_per_check: a.rounds_per_check,
        max_rounds: None,
        local_memory,
        devices: Vec::new(),
        ..SpOptions::default()
    };
    Sssp::new(g, opts).map_err(|e| out::renamed_or_cpu(e, SP_RENAMES))
}

/// An SSSP solver on the CPU backend (the reference of the device's distances and times).
fn cpu_sssp(g: &Graph) -> CliResult<Sssp<'_>> {
    Ok(Sssp::new(
        g,
        SpOptions {
            backend: Backend::Cpu,
            ..Default::default()
        },
    )?)
}

/// The source of `--source` on a graph of `n` vertices (a grid's middle cell for `center`).
fn source_of(s: &str, n: usize, grid: Option<&Grid>) -> CliResult<u32> {
    let v = if s.trim().eq_ignore_ascii_case("center") {
        match grid {
            Some(g) => (g.height / 2) * g.width + g.width / 2,
            None => n / 2,
        }
    } else {
        s.trim()
            .parse::<usize>()
            .map_err(|_| Failure(format!("--source: `{s}` is not a vertex or `center`")))?
    };
    if v >= n {
        return Err(Failure(format!(
            "--source: {v}; the graph has {n} vertices"
        )));
    }
    Ok(v as u32)
}

fn sssp_graph(c: &mut Ctx, name: &str, g: &Graph, grid: Option<&Grid>) -> CliResult {
    let a = c.a;
    let source = source_of(&a.source, g.n(), grid)?;
    eprintln!(
        "{name}: {} vertices, {} arcs, {} weights, source {source}",
        out::thousands(g.n() as u64),
        out::thousands(g.m() as u64),
        sp::kind_name(g.weight_kind())
    );
    // the CPU backend first: its distances check every method's, its time is the ratio's base
    let cpu = if a.no_cpu {
        None
    } else {
        let mut s = cpu_sssp(g)?;
        let t = Instant::now();
        let r = c.pool.install(|| s.sssp(source))?;
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        c.emit(Row {
            sources: Some(1),
            seconds: secs,
            edges: Some(r.edges),
            teps: Some(r.edges as f64 / secs),
            device: format!(
                "CPU backend (host Dijkstra, one source on one of {} threads)",
                c.cpu_threads()
            ),
            ..c.dijkstra_row("sssp", name, g)
        })?;
        Some((r, secs))
    };
    for m in &a.methods {
        let lee = m.trim().eq_ignore_ascii_case("lee");
        let (desc, mut call): (String, Box<dyn FnMut() -> CliResult<SpSsspResult>>) = if lee {
            let Some(grid) = grid else {
                eprintln!("note: {name}: the Lee wave runs on grids only; skipped");
                continue;
            };
            let rpc = a.rounds_per_check;
            (
                "device (Lee wave, unit steps)".into(),
                Box::new(move || {
                    lee_wave(grid, source, Backend::DEVICE, rpc)
                        .map_err(|e| out::renamed(e, SP_RENAMES))
                }),
            )
        } else {
            let mut s = device_sssp(g, m, a)?;
            (
                s.describe(),
                Box::new(move || s.sssp(source).map_err(|e| out::renamed(e, SP_RENAMES))),
            )
        };
        call()?; // warm-up: kernels built, buffers touched
        let (r, mean, best) = timed(a.repeat, &mut call)?;
        if let Some((cr, _)) = &cpu {
            // the Lee wave counts unit steps: compared with the CPU backend only on unit grids
            let unit = grid.is_some_and(|gr| {
                gr.graph
                    .weights()
                    .as_u32()
                    .is_some_and(|w| w.iter().all(|&x| x == 1))
            });
            if (!lee || unit) && !same(&r.dist, &cr.dist) {
                return Err(Failure(format!(
                    "{name}: method {m}: the device's distances differ from the CPU backend's"
                )));
            }
        }
        c.emit(Row {
            part: "sssp",
            graph: name.into(),
            vertices: g.n(),
            arcs: g.m(),
            method: m.trim().to_ascii_lowercase(),
            backend: "device",
            sources: Some(1),
            runs: Some(a.repeat as u64),
            seconds: mean,
            best_seconds: Some(best),
            edges: Some(r.edges),
            teps: Some(r.edges as f64 / mean),
            ratio_vs_cpu: cpu.as_ref().map(|(_, cs)| cs / mean),
            rounds: Some(r.rounds),
            device: desc,
            ..Default::default()
        })?;
    }
    Ok(())
}

/// `repeat` timed calls of `call`: the last result, the mean and the best seconds.
fn timed<R>(
    repeat: u32,
    call: &mut dyn FnMut() -> Result<R, Failure>,
) -> Result<(R, f64, f64), Failure> {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..repeat {
        let t = Instant::now();
        last = Some(call()?);
        times.push(t.elapsed().as_secs_f64().max(1e-9));
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    Ok((
        last.expect("repeat >= 1"),
        mean,
        times.iter().copied().fold(f64::INFINITY, f64::min),
    ))
}

fn all_sources(c: &mut Ctx, name: &str, g: &Graph) -> CliResult {
    let a = c.a;
    let n = g.n();
    let sources: Vec<u32> = (0..n as u32).collect();
    eprintln!(
        "{name}: {} vertices, {} arcs, all {} sources in one call",
        out::thousands(n as u64),
        out::thousands(g.m() as u64),
        out::thousands(n as u64)
    );
    let total = |r: &SpSsspMultiResult| r.edges.iter().sum::<u64>();
    // the device's timed calls follow one untimed call of the same size (kernels built, buffers
    // and the pinned staging made)
    let cpu = if a.no_cpu {
        None
    } else {
        let mut s = cpu_sssp(g)?;
        let pool = &c.pool;
        let (r, secs, best) = timed(a.repeat, &mut || {
            Ok(pool.install(|| s.sssp_multi(&sources))?)
        })?;
        let e = total(&r);
        c.emit(Row {
            sources: Some(n),
            runs: Some(a.repeat as u64),
            seconds: secs,
            best_seconds: Some(best),
            edges: Some(e),
            teps: Some(e as f64 / secs),
            device: s.describe(),
            ..c.dijkstra_row("all-sources", name, g)
        })?;
        Some((r, secs))
    };
    for m in &a.methods {
        if m.trim().eq_ignore_ascii_case("lee") {
            continue;
        }
        let mut s = device_sssp(g, m, a)?;
        s.sssp_multi(&sources)
            .map_err(|e| out::renamed(e, SP_RENAMES))?; // warm-up
        let (r, secs, best) = timed(a.repeat, &mut || {
            s.sssp_multi(&sources)
                .map_err(|e| out::renamed(e, SP_RENAMES))
        })?;
        if let Some((cr, _)) = &cpu {
            if !same(&r.dist, &cr.dist) {
                return Err(Failure(format!("{name}: method {m}: the device's all-sources distances differ from the CPU backend's")));
            }
        }
        let e = total(&r);
        c.emit(Row {
            part: "all-sources",
            graph: name.into(),
            vertices: n,
            arcs: g.m(),
            method: m.trim().to_ascii_lowercase(),
            backend: "device",
            sources: Some(n),
            runs: Some(a.repeat as u64),
            seconds: secs,
            best_seconds: Some(best),
            edges: Some(e),
            teps: Some(e as f64 / secs),
            ratio_vs_cpu: cpu.as_ref().map(|(_, cs)| cs / secs),
            rounds: Some(r.rounds),
            device: s.describe(),
            ..Default::default()
        })?;
    }
    Ok(())
}

/// Runs of ACO on `(graph, s, t, seed)`: (runs with an exact length, exact, found, sum of gaps,
/// sum of seconds, device).
struct AcoTally {
    runs: u64,
    exact: u64,
    found: u64,
    gap_sum: f64,
    secs: f64,
    device: String,
}

fn aco_tally(
    c: &Ctx,
    cases: impl Iterator<Item = CliResult<(Graph, u32, u32, u64)>>,
) -> CliResult<AcoTally> {
    let backend = if c.a.aco_cpu {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };
    let mut t = AcoTally {
        runs: 0,
        exact: 0,
        found: 0,
        gap_sum: 0.0,
        secs: 0.0,
        device: String::new(),
    };
    for case in cases {
        let (g, s, tg, seed) = case?;
        let o = c.a.aco_opts.options(seed)?;
        let r = if c.a.aco_cpu {
            c.pool.install(|| sp::aco_run(&g, o, backend, s, tg))?
        } else {
            sp::aco_run(&g, o, backend, s, tg)?
        };
        if r.exact_length.is_none() {
            continue;
        }
        t.runs += 1;
        t.exact += r.exact() as u64;
        if let Some(gap) = r.gap() {
            t.found += 1;
            t.gap_sum += gap;
        }
        t.secs += r.elapsed.as_secs_f64();
        t.device = r.backend_description;
    }
    Ok(t)
}

fn aco_row(
    c: &mut Ctx,
    part: &'static str,
    name: String,
    n: usize,
    m: usize,
    t: AcoTally,
    thesis: Option<f64>,
) -> CliResult {
    let runs = t.runs.max(1) as f64;
    c.emit(Row {
        part,
        graph: name,
        vertices: n,
        arcs: m,
        method: "aco".into(),
        backend: if c.a.aco_cpu { "cpu" } else { "device" },
        threads: c.a.aco_cpu.then(|| c.cpu_threads()),
        runs: Some(t.runs),
        seconds: t.secs / runs,
        exact_share: Some(t.exact as f64 / runs),
        thesis_share: thesis,
        mean_gap: (t.found > 0).then(|| t.gap_sum / t.found as f64),
        found: Some(t.found),
        device: t.device,
        ..Default::default()
    })
}

fn aco_thesis(c: &mut Ctx) -> CliResult {
    let a = c.a;
    let js: Vec<u32> = a.j.iter().flatten().copied().collect();
    for &v in &a.vs {
        if !v.is_power_of_two() || v < 2 {
            return Err(Failure(format!(
                "--vs: {v} is not a power of two >= 2 (the thesis's graphs have 2^i vertices)"
            )));
        }
        let i = v.trailing_zeros();
        for &j in &js {
            let mut m_sum = 0usize;
            let cases = (0..a.runs).map(|seed| {
                let g = graph::thesis_random(i, j, seed).map_err(|e| out::flag_error("--j", e))?;
                let n = g.n() as u32;
                let mut r = Philox::new(seed, 99);
                let s = r.below(n);
                let t = (s + 1 + r.below(n - 1)) % n;
                Ok((g, s, t, seed))
            });
            let cases: Vec<_> = cases.collect();
            for (g, ..) in cases.iter().flatten() {
                m_sum += g.m();
            }
            let t = aco_tally(c, cases.into_iter())?;
            let thesis = (j == 16).then_some(THESIS_SHARE);
            aco_row(
                c,
                "aco-thesis",
                format!("thesis V={v} j={j}"),
                v as usize,
                m_sum / a.runs as usize,
                t,
                thesis,
            )?;
        }
    }
    Ok(())
}

/// `pairs` random pairs (s, t) with t reachable from s, t != s, from Philox(seed, 77).
fn pairs(g: &Graph, count: u32, seed: u64) -> CliResult<Vec<(u32, u32)>> {
    let n = g.n() as u32;
    let mut rng = Philox::new(seed, 77);
    let mut v = Vec::new();
    let mut tries = 0;
    while v.len() < count as usize {
        tries += 1;
        if tries > 100 * count as usize + 100 {
            return Err("--pairs: too few vertices reach another vertex".into());
        }
        let s = rng.below(n);
        let d = dijkstra(g, s)?;
        let reach: Vec<u32> = (0..n)
            .filter(|&x| x != s && d.dist.reachable(x as usize))
            .collect();
        if reach.is_empty() {
            continue;
        }
        v.push((s, reach[rng.below(reach.len() as u32) as usize]));
    }
    Ok(v)
}

fn aco_graph(c: &mut Ctx, name: String, g: &Graph) -> CliResult {
    let ps = pairs(g, c.a.pairs, c.a.seed.seed)?;
    let seed = c.a.seed.seed;
    let cases = ps
        .into_iter()
        .enumerate()
        .map(|(k, (s, t))| Ok((g.clone(), s, t, seed + k as u64)));
    let t = aco_tally(c, cases)?;
    aco_row(c, "aco-graph", name, g.n(), g.m(), t, None)
}

pub fn run(a: &BenchSpArgs) -> CliResult {
    if !a.sssp && a.all_sources.is_none() && !a.aco {
        return Err("give --sssp, --all-sources FILE and/or --aco".into());
    }
    a.io.device.select()?;
    let mut pb = rayon::ThreadPoolBuilder::new();
    if let Some(t) = a.threads {
        if t == 0 {
            return Err("--threads: 0; at least 1".into());
        }
        pb = pb.num_threads(t);
    }
    let pool = pb
        .build()
        .map_err(|e| Failure(format!("cannot make a thread pool: {e}")))?;
    let mut c = Ctx {
        a,
        pool,
        w: csv::Writer::from_writer(Vec::new()),
    };
    if a.sssp {
        let mut grids = a.grid.clone();
        if grids.is_empty() && a.file.is_empty() {
            grids.push(sp::parse_grid("4900x4900")?);
        }
        for spec in &grids {
            let t = Instant::now();
            let grid = spec.make("--grid")?;
            eprintln!(
                "generated {} in {:.1} s",
                spec.name(),
                t.elapsed().as_secs_f64()
            );
            let name = format!("grid {}x{}", spec.width, spec.height);
            sssp_graph(&mut c, &name, &grid.graph, Some(&grid))?;
        }
        for f in &a.file {
            let g = sp::read_graph(f, &a.osm)?;
            sssp_graph(&mut c, &file_name(f), &g, None)?;
        }
    }
    if let Some(f) = &a.all_sources {
        let g = sp::read_graph(f, &a.osm)?;
        all_sources(&mut c, &file_name(f), &g)?;
    }
    if a.aco {
        aco_thesis(&mut c)?;
        for spec in &a.aco_grid {
            let grid = spec.make("--aco-grid")?;
            aco_graph(
                &mut c,
                format!("grid {}x{}", spec.width, spec.height),
                &grid.graph,
            )?;
        }
        for f in &a.aco_file {
            let g = sp::read_graph(f, &a.osm)?;
            aco_graph(&mut c, file_name(f), &g)?;
        }
    }
    let Ctx { w, .. } = c;
    out::finish_csv(w, a.io.csv.path())
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}
