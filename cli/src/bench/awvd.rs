//! `metaopt bench awvd`: wall time of the additively weighted Voronoi diagram of PDB / mmCIF /
//! balls files, split into parsing, the diagram (grid, tracing and, on a device, the end-vertex
//! launches: the library gives them as one call) and output (the Voronota text), the best of
//! `--repeat` runs each, with the vertex count; beside `voronota get-balls-from-atoms-file |
//! voronota calculate-vertices` when `voronota` is on the PATH. One CSV row per file.

use crate::args::BenchIoArgs;
use crate::cmd::awvd::{self, DiagramArgs, SelectionArgs};
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::device::Backend;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

#[derive(Args)]
pub struct BenchAwvdArgs {
    /// Input files [default: data/pdb/1ubq.pdb]
    files: Vec<PathBuf>,
    /// Timed runs per file (the best is reported)
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// The CPU backend instead of the device
    #[arg(long, conflicts_with = "device")]
    cpu: bool,
    /// Threads of the CPU backend's rayon pool (and of the host side of the device runs)
    /// [default: rayon's, one per core]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Do not run voronota even when it is on the PATH
    #[arg(long)]
    no_voronota: bool,
    #[command(flatten)]
    selection: SelectionArgs,
    #[command(flatten)]
    diagram: DiagramArgs,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct Row {
    file: String,
    balls: usize,
    backend: &'static str,
    threads: usize,
    repeat: u32,
    /// Best seconds of each part (each minimised on its own) and of a whole run.
    parse_s: f64,
    diagram_s: f64,
    /// The parts of the best diagram run: grid (and device upload), tracing, the rest
    /// (vertex-free contacts, sorting).
    grid_s: f64,
    trace_s: f64,
    search_s: f64,
    finish_s: f64,
    output_s: f64,
    total_s: f64,
    levels: u64,
    host_searches: u64,
    vertices: usize,
    contacts: usize,
    /// `voronota`'s best wall time (reading the atoms and the vertices), empty without it.
    voronota_s: Option<f64>,
    voronota_vertices: Option<usize>,
    /// voronota_s / total_s.
    speedup: Option<f64>,
}

/// `voronota` on the PATH, if any.
pub fn voronota() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("voronota"))
        .find(|p| p.is_file())
}

fn is_structure(file: &Path) -> bool {
    let lower = file.to_string_lossy().to_lowercase();
    let lower = lower.strip_suffix(".gz").unwrap_or(&lower);
    [".pdb", ".ent", ".cif", ".mmcif"]
        .iter()
        .any(|e| lower.ends_with(e))
}

/// One timed voronota run: (seconds, vertex lines).
fn run_voronota(exe: &Path, file: &Path, sel: &SelectionArgs) -> CliResult<(f64, usize)> {
    let open = || {
        std::fs::File::open(file)
            .map_err(|e| Failure(format!("cannot read {}: {e}", file.display())))
    };
    let fail = |e: std::io::Error| Failure(format!("cannot run {}: {e}", exe.display()));
    let t = Instant::now();
    let out = if is_structure(file) && !file.to_string_lossy().ends_with(".gz") {
        let mut get = Command::new(exe);
        get.arg("get-balls-from-atoms-file");
        if file.to_string_lossy().to_lowercase().contains(".cif") {
            get.arg("--mmcif");
        }
        if sel.hetatm {
            get.arg("--include-heteroatoms");
        }
        if sel.hydrogens {
            get.arg("--include-hydrogens");
        }
        if sel.all_models {
            get.arg("--multimodel-chains");
        }
        let mut balls = get
            .stdin(open()?)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(fail)?;
        let stdin = balls.stdout.take().expect("piped");
        let out = Command::new(exe)
            .arg("calculate-vertices")
            .stdin(stdin)
            .stderr(Stdio::null())
            .output()
            .map_err(fail)?;
        balls.wait().map_err(fail)?;
        out
    } else {
        Command::new(exe)
            .arg("calculate-vertices")
            .stdin(open()?)
            .stderr(Stdio::null())
            .output()
            .map_err(fail)?
    };
    let s = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(Failure(format!(
            "voronota failed on {} ({})",
            file.display(),
            out.status
        )));
    }
    let lines = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    Ok((s, lines))
}

fn bench_file(a: &BenchAwvdArgs, file: &Path, backend: Backend, threads: usize) -> CliResult<Row> {
    let sel = a.selection.selection();
    let opts = a.diagram.options()?;
    let mut best = [f64::INFINITY; 4];
    let mut parts = (0.0, 0.0, 0.0, 0, 0, 0.0);
    let mut counts = (0, 0, 0);
    for _ in 0..a.repeat {
        let t0 = Instant::now();
        let balls = awvd::read(file, &sel)?;
        let parse = t0.elapsed().as_secs_f64();
        let t = Instant::now();
        let d = awvd::diagram(&balls, &opts, backend, a.diagram.double)?;
        let diagram = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let text = d.vertices_text();
        let contacts = d.contacts_text();
        std::hint::black_box((&text, &contacts));
        let output = t.elapsed().as_secs_f64();
        let total = t0.elapsed().as_secs_f64();
        if diagram < best[1] {
            parts = (
                d.grid_s,
                d.trace_s,
                d.finish_s,
                d.levels,
                d.host_searches,
                d.search_s,
            );
        }
        for (b, v) in best.iter_mut().zip([parse, diagram, output, total]) {
            *b = b.min(v);
        }
        counts = (balls.len(), d.vertices.len(), d.contacts.len());
    }
    let (voronota_s, voronota_vertices) = match (a.no_voronota, voronota()) {
        (false, Some(exe)) => {
            let mut s = f64::INFINITY;
            let mut n = 0;
            for _ in 0..a.repeat {
                let (t, v) = run_voronota(&exe, file, &a.selection)?;
                s = s.min(t);
                n = v;
            }
            (Some(s), Some(n))
        }
        _ => (None, None),
    };
    Ok(Row {
        file: file.display().to_string(),
        balls: counts.0,
        backend: if backend == Backend::Cpu {
            "cpu"
        } else {
            "device"
        },
        threads,
        repeat: a.repeat,
        parse_s: best[0],
        diagram_s: best[1],
        grid_s: parts.0,
        trace_s: parts.1,
        search_s: parts.5,
        finish_s: parts.2,
        output_s: best[2],
        total_s: best[3],
        vertices: counts.1,
        contacts: counts.2,
        levels: parts.3,
        host_searches: parts.4,
        voronota_s,
        voronota_vertices,
        speedup: voronota_s.map(|v| v / best[3]),
    })
}

pub fn run(a: &BenchAwvdArgs) -> CliResult {
    a.io.device.select()?;
    let backend = if a.cpu { Backend::Cpu } else { Backend::DEVICE };
    let files = if a.files.is_empty() {
        vec![out::default_file(
            &None,
            "data/pdb/1ubq.pdb",
            "structure",
            "FILES",
        )?]
    } else {
        a.files.clone()
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = a.threads {
        builder = builder.num_threads(n as usize);
    }
    let pool = builder
        .build()
        .map_err(|e| Failure(format!("--threads: cannot make a thread pool: {e}")))?;
    let threads = pool.current_num_threads();
    let mut w = csv::Writer::from_writer(Vec::new());
    for f in &files {
        let row = pool.install(|| bench_file(a, f, backend, threads))?;
        w.serialize(&row).map_err(csv_error)?;
    }
    out::finish_csv(w, a.io.csv.path())
}
