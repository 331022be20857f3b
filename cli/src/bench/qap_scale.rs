//! `metaopt bench qap-scale`: the robust tabu search (`metaopt::qap_ts`) from small QAPLIB
//! instances to generated ones of n = 2048.
//!
//! Throughput: per instance and backend one warm-up solve of one chain (the program build), then
//! one solve of `--iterations` iterations per chain in two launches: the first computes every
//! chain's deltas afresh (O(n^3), reported as `first_launch_seconds`), the second runs from the
//! kept deltas and gives the iterations per second per chain and in total; with the chains run
//! (fitted to the memory where the default would not fit) and where the engine keeps a chain's
//! matrices (local or global memory, 32- or 64-bit deltas).
//!
//! Time to quality (`--time-limit` > 0): per instance of `--quality`, one solve of the default
//! solver (the default chains of `qap solve`) for `--time-limit` seconds, its best after every
//! launch, and, with `--rots`, Taillard's RoTS in `--rots-cores` processes (seeds 1..k) for the
//! same time, each improvement it prints; for each the first time within 1 % and 0.1 % of the
//! best value any of them found.
//!
//! Generated instances are Taillard's "real-life-like" tai*b kind
//! (`metaopt::problem::qap::generate::taillard_b`), named `taib{n}` (seed `--seed`).

use crate::args::{CsvArg, DeviceArg};
use crate::out::{self, csv_error, CliResult, Failure};
use crate::plot::{self, Panel, Series};
use clap::{Args, ValueEnum};
use metaopt::device::Backend;
use metaopt::problem::qap::{QapInstance, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions, QapTsSolveResult};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    /// The OpenCL device engine
    Device,
    /// The CPU engine on every rayon thread
    Cpu,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Device => "device",
            Side::Cpu => "cpu",
        }
    }

    fn backend(self) -> Backend {
        match self {
            Side::Device => Backend::Device(None),
            Side::Cpu => Backend::Cpu,
        }
    }
}

#[derive(Args)]
pub struct BenchQapScaleArgs {
    /// QAPLIB instances (.dat) of the throughput table [default: nug12, nug30, sko100a, tho150,
    /// tai256c from data/qaplib, those that are there]
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Sizes of the generated instances (Taillard's tai*b kind) of the throughput table
    #[arg(long, value_delimiter = ',', default_value = "500,1000,2048", value_name = "N,...")]
    sizes: Vec<usize>,
    /// Backends to time, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "device,cpu")]
    backends: Vec<Side>,
    /// Tabu iterations per chain of each timed solve
    #[arg(long, default_value_t = 200, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Chains of the throughput solves [default: qap solve's: 4 per compute unit on a GPU, one
    /// per compute unit on another device, one per thread on the CPU backend; lowered to what
    /// fits the memory]
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    chains: Option<usize>,
    /// Seconds of each time-to-quality run; 0: none
    #[arg(long, default_value_t = 10.0, value_name = "S", value_parser = parse_time)]
    time_limit: f64,
    /// Instances of the time-to-quality runs: QAPLIB names (data/qaplib), .dat paths, or gen:N
    /// (a generated tai*b instance of size N)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tai256c,gen:500,gen:1000,gen:2000",
        value_name = "NAMES"
    )]
    quality: Vec<String>,
    /// Taillard's RoTS for the time-to-quality runs, as a shell command with {file}, {seed} and
    /// {time} in it (for instance `/scratch/tabou_qap2 {file} {seed} {time}`); it must print a
    /// line `New best cost: VALUE ... (time: SECONDS s)` at every improvement
    #[arg(long, value_name = "COMMAND")]
    rots: Option<String>,
    /// RoTS processes, seeds 1..K [default: the host's cores]
    #[arg(long, value_name = "K")]
    rots_cores: Option<usize>,
    /// Seed of the generated instances and of the solves
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The time-to-quality table as CSV (the throughput table goes to --csv)
    #[arg(long, value_name = "FILE")]
    quality_csv: Option<PathBuf>,
    /// A PNG of iterations per second per chain and in total against n, per backend
    #[arg(long, value_name = "FILE.png")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    device: DeviceArg,
    #[command(flatten)]
    csv: CsvArg,
}

/// `--time-limit`: 0 (no time-to-quality runs) or a number of seconds.
fn parse_time(s: &str) -> Result<f64, String> {
    match s.trim() {
        "0" => Ok(0.0),
        t => crate::args::parse_seconds(t),
    }
}

/// Taillard's tai*b kind of size `n`, seed `seed`.
fn generated(n: usize, seed: u64) -> CliResult<QapInstance> {
    let mut inst = metaopt::problem::qap::generate::taillard_b(n, seed)
        .map_err(|e| out::flag_error("--sizes", e))?;
    inst.name = format!("taib{n}");
    Ok(inst)
}

/// An instance of `--quality`: a QAPLIB name, a path, or gen:N.
fn quality_instance(spec: &str, seed: u64) -> CliResult<QapInstance> {
    if let Some(n) = spec.strip_prefix("gen:") {
        let n: usize = n
            .parse()
            .map_err(|_| Failure(format!("--quality: `{spec}`: gen:N takes a size")))?;
        return generated(n, seed);
    }
    let path = if spec.ends_with(".dat") || spec.contains('/') {
        PathBuf::from(spec)
    } else {
        out::default_dir(&None, "data/qaplib").join(format!("{spec}.dat"))
    };
    Ok(QapInstance::from_dat(&path)?)
}

fn ts_error(e: metaopt::Error) -> Failure {
    out::renamed_or_cpu(
        e,
        &[("chains", "--chains"), ("max_iterations", "--iterations")],
    )
}

/// The chains of a solve on `side`: `--chains`, else `qap solve`'s default.
fn chains_for(a: &BenchQapScaleArgs, side: Side) -> Result<usize, Failure> {
    match a.chains {
        Some(c) => Ok(c),
        None => metaopt::qap_ts::default_chains(&[side.backend()]).map_err(ts_error),
    }
}

/// Where the engine keeps a chain's delta and tabu matrices, from its description.
fn placement(r: &QapTsSolveResult) -> (String, String, String) {
    let d = &r.backend;
    if d.contains("CPU backend") || !d.contains("work-items per chain") {
        return ("host".into(), "host".into(), "64".into());
    }
    let deltas = if d.contains("deltas in local") {
        "local"
    } else {
        "global"
    };
    let tabu = if d.contains("tabu matrix in local") {
        "local"
    } else {
        "global"
    };
    let bits = if d.contains("32-bit integer deltas") {
        "32"
    } else {
        "64"
    };
    (deltas.into(), tabu.into(), bits.into())
}

/// One throughput row.
struct Row {
    name: String,
    n: usize,
    side: Side,
    r: QapTsSolveResult,
    /// Iterations per second per chain of the second launch (kept deltas).
    steady: f64,
    /// Seconds of the solve's set-up and first launch (every chain's deltas computed afresh).
    first: f64,
}

pub fn run(a: &BenchQapScaleArgs) -> CliResult {
    a.device.select()?;
    if a.backends.is_empty() {
        return Err("--backends: none given".into());
    }
    if let Some(p) = &a.plot {
        plot::check_png_path("--plot", p)?;
    }
    let mut instances: Vec<QapInstance> = Vec::new();
    if a.files.is_empty() {
        let dir = out::default_dir(&None, "data/qaplib");
        for name in ["nug12", "nug30", "sko100a", "tho150", "tai256c"] {
            let p = dir.join(format!("{name}.dat"));
            if p.is_file() {
                instances.push(QapInstance::from_dat(&p)?);
            }
        }
    } else {
        for p in &a.files {
            instances.push(QapInstance::from_dat(p)?);
        }
    }
    for &n in &a.sizes {
        instances.push(generated(n, a.seed)?);
    }
    let mut rows: Vec<Row> = Vec::new();
    for inst in &instances {
        let problem = Arc::new(QapProblem::from_instance(inst));
        for &side in &a.backends {
            let chains = chains_for(a, side)?;
            let opts = QapTsOptions {
                chains,
                fit_chains: a.chains.is_none(),
                stop: metaopt::run::Stop {
                    token: Some(crate::stop_token()),
                    ..metaopt::run::Stop::budget(a.iterations)
                },
                // one round of short launches: the first (a few iterations) computes every
                // chain's deltas afresh (O(n^3)), the next run from the kept deltas: from the
                // end of the first to the end of the last, the steady rate
                launch_iterations: a.iterations.min(u32::MAX as u64) as u32,
                seed: a.seed,
                ..QapTsOptions::default()
            };
            let mut solver = QapTs::new(problem.clone(), side.backend()).map_err(ts_error)?;
            // warm-up: the program build stays out of the timed solve (one chain: its start is
            // O(n^3))
            let warm = QapTsOptions {
                chains: 1,
                stop: metaopt::run::Stop {
                    budget: Some(1),
                    ..opts.stop.clone()
                },
                launch_iterations: 1,
                ..opts.clone()
            };
            solver.solve(&warm).map_err(ts_error)?;
            let mut marks: Vec<(u64, f64)> = Vec::new();
            let r = solver
                .solve_with_progress(&opts, |p| {
                    marks.push((p.iterations, p.seconds));
                    true
                })
                .map_err(ts_error)?;
            let first = marks.first().map_or(r.seconds, |m| m.1);
            let steady = match marks.as_slice() {
                [x, .., y] if y.1 > x.1 => (y.0 - x.0) as f64 / (y.1 - x.1),
                _ => r.iterations as f64 / r.seconds,
            };
            let (d, t, bits) = placement(&r);
            eprintln!(
                "  {:<9} n = {:>4} {:<7} {:>5} chains{}: {:>10} it/s per chain, {:>12} in total; deltas {bits}-bit in {d}, tabu in {t} (first launch {first:.2} s, all {:.2} s)",
                inst.name,
                inst.n,
                side.name(),
                r.chains,
                if r.chains < r.chains_requested {
                    format!(" (of {})", r.chains_requested)
                } else {
                    String::new()
                },
                out::rate(steady),
                out::rate(steady * r.chains as f64),
                r.seconds
            );
            rows.push(Row {
                name: inst.name.clone(),
                n: inst.n,
                side,
                r,
                steady,
                first,
            });
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "n",
        "backend",
        "device",
        "chains",
        "chains_requested",
        "iterations",
        "seconds",
        "iterations_per_second_per_chain",
        "iterations_per_second",
        "first_launch_seconds",
        "delta_memory",
        "tabu_memory",
        "delta_bits",
    ])
    .map_err(csv_error)?;
    for row in &rows {
        let r = &row.r;
        let pc = row.steady;
        let (d, t, bits) = placement(r);
        w.write_record([
            row.name.clone(),
            row.n.to_string(),
            row.side.name().to_string(),
            r.backend.clone(),
            r.chains.to_string(),
            r.chains_requested.to_string(),
            r.iterations.to_string(),
            format!("{:.6}", r.seconds),
            format!("{pc:.1}"),
            format!("{:.1}", pc * r.chains as f64),
            format!("{:.4}", row.first),
            d,
            t,
            bits,
        ])
        .map_err(csv_error)?;
    }
    if let Some(path) = &a.plot {
        draw(path, &rows)?;
    }
    if a.time_limit > 0.0 {
        quality(a)?;
    }
    out::finish_csv(w, a.csv.path())
}

fn draw(path: &Path, rows: &[Row]) -> CliResult {
    let mut per_chain = Panel::new(
        "iterations per second per chain",
        "n",
        "iterations / s per chain",
    );
    let mut total = Panel::new("iterations per second in total", "n", "iterations / s");
    per_chain.log_x = true;
    total.log_x = true;
    for (i, side) in [Side::Device, Side::Cpu].into_iter().enumerate() {
        let mut pts: Vec<(f64, f64, f64)> = rows
            .iter()
            .filter(|r| r.side == side)
            .map(|r| (r.n as f64, r.steady, r.steady * r.r.chains as f64))
            .collect();
        if pts.is_empty() {
            continue;
        }
        pts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let c = plot::color(i);
        per_chain.series.push(Series::line(
            side.name(),
            pts.iter().map(|p| (p.0, p.1)).collect(),
            c,
        ));
        total.series.push(Series::line(
            side.name(),
            pts.iter().map(|p| (p.0, p.2)).collect(),
            c,
        ));
    }
    plot::write_png(
        path,
        "QAP robust tabu search: throughput against n",
        &[per_chain, total],
        2,
        (560, 420),
    )
}

/// One solver's course: (seconds, best) at every improvement or report, in time order.
pub(crate) type Course = Vec<(f64, f64)>;

/// The first time of `course` at or below `level`.
fn time_to(course: &Course, level: f64) -> Option<f64> {
    course.iter().find(|p| p.1 <= level).map(|p| p.0)
}

/// The host's cores: the default count of reference processes run side by side.
pub(crate) fn host_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// The improvements one RoTS process printed: `New best cost: V ... (time: T s)`.
fn rots_course(text: &str) -> Course {
    let mut c = Course::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("New best cost:") else {
            continue;
        };
        let value = rest.split_whitespace().next().and_then(|v| v.parse().ok());
        let time = rest
            .split("time:")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse().ok());
        if let (Some(v), Some(t)) = (value, time) {
            c.push((t, v));
        }
    }
    c
}

/// RoTS on `file` in `k` processes (seeds 1..k) side by side for `secs` seconds: their merged
/// course (the best of all at each improvement) and the best value.
pub(crate) fn rots(command: &str, file: &Path, k: usize, secs: f64) -> CliResult<Course> {
    let children: Vec<std::process::Child> = (1..=k)
        .map(|seed| {
            let cmd = command
                .replace("{file}", &file.display().to_string())
                .replace("{seed}", &seed.to_string())
                .replace("{time}", &format!("{secs}"));
            std::process::Command::new("sh")
                .arg("-c")
                .arg(&cmd)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .map_err(|e| Failure(format!("--rots: cannot run `{cmd}`: {e}")))
        })
        .collect::<CliResult<_>>()?;
    let mut all: Course = Vec::new();
    for ch in children {
        let o = ch
            .wait_with_output()
            .map_err(|e| Failure(format!("--rots: {e}")))?;
        all.extend(rots_course(&String::from_utf8_lossy(&o.stdout)));
    }
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = f64::INFINITY;
    let mut merged = Course::new();
    for (t, v) in all {
        if v < best {
            best = v;
            merged.push((t, v));
        }
    }
    Ok(merged)
}

fn quality(a: &BenchQapScaleArgs) -> CliResult {
    let side = if a.backends.contains(&Side::Device) {
        Side::Device
    } else {
        Side::Cpu
    };
    let cores = a.rots_cores.unwrap_or_else(host_cores);
    let dir = tempfile::tempdir().map_err(|e| Failure(format!("a scratch folder: {e}")))?;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "n",
        "solver",
        "time_limit",
        "best",
        "reference_best",
        "seconds_to_1_percent",
        "seconds_to_0_1_percent",
        "chains_or_processes",
    ])
    .map_err(csv_error)?;
    for spec in &a.quality {
        let inst = quality_instance(spec, a.seed)?;
        let problem = Arc::new(QapProblem::from_instance(&inst));
        let mut solver = QapTs::new(problem, side.backend()).map_err(ts_error)?;
        let chains = chains_for(a, side)?;
        let opts = QapTsOptions {
            chains,
            fit_chains: a.chains.is_none(),
            stop: metaopt::run::Stop {
                time_limit: Some(Duration::from_secs_f64(a.time_limit)),
                token: Some(crate::stop_token()),
                ..metaopt::run::Stop::default()
            },
            seed: a.seed,
            elite_size: metaopt::qap_ts::elite_size_for(chains),
            ..QapTsOptions::default()
        };
        let mut ours: Course = Vec::new();
        let r = solver
            .solve_with_progress(&opts, |p| {
                ours.push((p.seconds, p.best.as_f64()));
                true
            })
            .map_err(ts_error)?;
        let mut courses: Vec<(String, Course, usize)> =
            vec![(format!("metaopt {}", side.name()), ours, r.chains)];
        if let Some(cmd) = &a.rots {
            let file = dir.path().join(format!("{}.dat", inst.name));
            std::fs::write(&file, inst.to_dat())
                .map_err(|e| Failure(format!("{}: {e}", file.display())))?;
            courses.push(("RoTS".into(), rots(cmd, &file, cores, a.time_limit)?, cores));
        }
        let reference = courses
            .iter()
            .filter_map(|c| c.1.last().map(|p| p.1))
            .fold(f64::INFINITY, f64::min);
        for (who, course, k) in &courses {
            let best = course.last().map_or(f64::NAN, |p| p.1);
            let t1 = time_to(course, reference + reference.abs() * 0.01);
            let t01 = time_to(course, reference + reference.abs() * 0.001);
            let show = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.3}"));
            eprintln!(
                "  {:<9} {who:<16} best {best} (best of all {reference}); to 1 %: {} s, to 0.1 %: {} s",
                inst.name,
                show(t1),
                show(t01)
            );
            w.write_record([
                inst.name.clone(),
                inst.n.to_string(),
                who.clone(),
                a.time_limit.to_string(),
                best.to_string(),
                reference.to_string(),
                t1.map(|t| format!("{t:.4}")).unwrap_or_default(),
                t01.map(|t| format!("{t:.4}")).unwrap_or_default(),
                k.to_string(),
            ])
            .map_err(csv_error)?;
        }
    }
    match &a.quality_csv {
        Some(p) => out::write_file(p, "", out::csv_bytes(w)?),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rots_lines_are_read_and_merged_in_time_order() {
        let text =
            "Using random seed: 3\nNew best cost: 120.000000 at iteration 4 (time: 0.010000 s)\n\
                    New best cost: 100.5 at iteration 9 (time: 0.5 s)\nTrial 1/1 Cost: 100.5\n";
        assert_eq!(rots_course(text), vec![(0.01, 120.0), (0.5, 100.5)]);
        let c = vec![(0.1, 120.0), (0.4, 101.0), (0.9, 100.0)];
        assert_eq!(time_to(&c, 101.0), Some(0.4));
        assert_eq!(time_to(&c, 99.0), None);
    }
}
