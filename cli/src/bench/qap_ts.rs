//! `metaopt bench qap-ts` and `metaopt bench qap-quality`: the robust tabu search
//! (`metaopt::qap_ts`, docs/specs/QAP_TS.md).
//!
//! `qap-ts`: tabu iterations per second, per chain and in total, on the device, the CPU backend
//! (rayon, every thread) and one CPU thread (a rayon pool of one thread), side by side. Method:
//! per instance and backend one short warm-up solve (program build, buffers), then one solve of
//! `--chains` chains and `--iterations` iterations per chain (no target), timed by the solver.
//!
//! `qap-quality`: best, mean and worst gap to the best-known value over `--runs` runs of
//! `--time-limit` seconds per instance (each run stops at the best-known value), and the mean time
//! to the best, beside Taillard's RoTS on one core (10 s per run) as published, and with `--rots`
//! beside RoTS run here: K processes side by side (seeds 1..K, K the host's cores by default) for
//! the same seconds on the same file, its best of K and the instances where this solver's mean
//! gap is worse.

use crate::args::{BackendArgs, BenchIoArgs, CsvArg, DevicesArg};
use crate::out::{self, csv_error, CliResult, Failure};
use clap::{Args, ValueEnum};
use metaopt::device::Backend;
use metaopt::problem::qap::gap_percent;
use metaopt::problem::qap::{find_bks, QapInstance, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions, QapTsSolveResult};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The throughput instances: n = 30, 100, 150.
const THROUGHPUT_INSTANCES: [&str; 3] = ["nug30", "sko100a", "tho150"];

/// Taillard's RoTS, one core, 10 s per run: (instance, mean gap %, best-known hits of 5 runs).
pub const ROTS_10S: [(&str, f64, Option<u32>); 14] = [
    ("chr20a", 0.0, Some(5)),
    ("had20", 0.0, Some(5)),
    ("kra30a", 0.0, Some(5)),
    ("nug30", 0.0, Some(5)),
    ("sko42", 0.0, Some(5)),
    ("ste36a", 0.0, Some(5)),
    ("tai25a", 0.0, Some(5)),
    ("tho30", 0.0, Some(5)),
    ("esc32a", 0.0, Some(5)),
    ("tai50a", 0.79, None),
    ("sko100a", 0.12, None),
    ("tai100a", 1.09, None),
    ("wil100", 0.09, None),
    ("tho150", 0.38, None),
];

/// RoTS's mean gap over the 14 instances of [`ROTS_10S`].
pub const ROTS_10S_MEAN: f64 = 0.176;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Which {
    /// The OpenCL device engine
    Device,
    /// The CPU engine on every rayon thread
    Cpu,
    /// The CPU engine in a rayon pool of one thread
    Cpu1,
}

impl Which {
    fn name(self) -> &'static str {
        match self {
            Which::Device => "device",
            Which::Cpu => "cpu",
            Which::Cpu1 => "cpu-1-thread",
        }
    }
}

/// The instance files: `given`, else `names` in data/qaplib (as `default_dir` finds it).
fn instance_files(given: &[PathBuf], names: &[&str]) -> CliResult<Vec<PathBuf>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let dir = out::default_dir(&None, "data/qaplib");
    names
        .iter()
        .map(|n| {
            let p = dir.join(format!("{n}.dat"));
            if p.is_file() {
                Ok(p)
            } else {
                Err(Failure(format!(
                    "the default instance {} is not there; give the files",
                    p.display()
                )))
            }
        })
        .collect()
}

fn ts_error(e: metaopt::Error) -> Failure {
    out::renamed_or_cpu(
        e,
        &[
            ("chains", "--chains"),
            ("max_iterations", "--iterations"),
            ("target", "--time-limit"),
        ],
    )
}

#[derive(Args)]
pub struct BenchQapTsArgs {
    /// QAPLIB instances (.dat) [default: nug30, sko100a, tho150 from data/qaplib]
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Chains of every solve
    #[arg(long, default_value_t = 32, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    chains: usize,
    /// Tabu iterations per chain of the timed solve
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Backends to time, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "device,cpu,cpu1")]
    backends: Vec<Which>,
    /// Seed of the starts
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// Work-items per chain on the device, a power of two up to 1024 [default: the device kind's
    /// tuning]
    #[arg(long, value_name = "N")]
    group_size: Option<usize>,
    #[command(flatten)]
    io: BenchIoArgs,
}

/// One solve of `opts` on `which` (the one-thread CPU in its own rayon pool).
fn solve_on(
    problem: &Arc<QapProblem>,
    which: Which,
    opts: &QapTsOptions,
) -> CliResult<QapTsSolveResult> {
    let backend = if which == Which::Device {
        Backend::Device(None)
    } else {
        Backend::Cpu
    };
    let mut solver = QapTs::new(problem.clone(), backend).map_err(ts_error)?;
    if which == Which::Cpu1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| Failure(format!("a rayon pool of one thread: {e}")))?;
        pool.install(|| solver.solve(opts)).map_err(ts_error)
    } else {
        solver.solve(opts).map_err(ts_error)
    }
}

pub fn throughput(a: &BenchQapTsArgs) -> CliResult {
    a.io.device.select()?;
    let files = instance_files(&a.files, &THROUGHPUT_INSTANCES)?;
    let mut which: Vec<Which> = Vec::new();
    for &w in &a.backends {
        if !which.contains(&w) {
            which.push(w);
        }
    }
    if which.is_empty() {
        return Err("--backends: none given".into());
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "n",
        "backend",
        "device",
        "chains",
        "iterations",
        "seconds",
        "iterations_per_second_per_chain",
        "iterations_per_second",
        "speedup_vs_one_thread",
        "best_cost",
    ])
    .map_err(csv_error)?;
    for path in &files {
        let inst = QapInstance::from_dat(path)?;
        let problem = Arc::new(QapProblem::from_instance(&inst));
        let opts = QapTsOptions {
            chains: a.chains,
            stop: metaopt::run::Stop {
                token: Some(crate::stop_token()),
                ..metaopt::run::Stop::budget(a.iterations)
            },
            seed: a.seed,
            group_size: a.group_size,
            ..QapTsOptions::default()
        };
        opts.check(inst.n).map_err(ts_error)?;
        eprintln!(
            "bench qap-ts: {} (n = {}), {} chains, {} iterations per chain, seed {}",
            inst.name, inst.n, a.chains, a.iterations, a.seed
        );
        let mut rows: Vec<(Which, QapTsSolveResult)> = Vec::new();
        for &b in &which {
            // warm-up: the program build and the buffers stay out of the timed solve
            let warm = QapTsOptions {
                chains: a.chains,
                stop: metaopt::run::Stop {
                    budget: Some(1),
                    ..opts.stop.clone()
                },
                launch_iterations: 1,
                ..opts.clone()
            };
            solve_on(&problem, b, &warm)?;
            let r = solve_on(&problem, b, &opts)?;
            eprintln!(
                "  {:<13} {:>10} iterations/s per chain, {:>10} in total ({:.3} s; best {})",
                b.name(),
                out::rate(r.iterations as f64 / r.seconds),
                out::rate((r.iterations * r.chains as u64) as f64 / r.seconds),
                r.seconds,
                r.cost
            );
            rows.push((b, r));
        }
        let per_chain = |r: &QapTsSolveResult| r.iterations as f64 / r.seconds;
        let one = rows
            .iter()
            .find(|(b, _)| *b == Which::Cpu1)
            .map(|(_, r)| per_chain(r));
        for (b, r) in &rows {
            let pc = per_chain(r);
            w.write_record([
                inst.name.clone(),
                inst.n.to_string(),
                b.name().to_string(),
                r.backend.clone(),
                r.chains.to_string(),
                r.iterations.to_string(),
                format!("{:.6}", r.seconds),
                format!("{pc:.1}"),
                format!("{:.1}", pc * r.chains as f64),
                one.map(|o| format!("{:.3}", pc / o)).unwrap_or_default(),
                r.cost.to_string(),
            ])
            .map_err(csv_error)?;
        }
    }
    out::finish_csv(w, a.io.csv.path())
}

#[derive(Args)]
pub struct BenchQapQualityArgs {
    /// QAPLIB instances (.dat), each with a BKS.csv row beside it or a .sln of the same name
    /// (`n value` on its first line, as `qap generate` writes for the lipa kinds) [default: the 14
    /// of Taillard's RoTS table from data/qaplib]
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Seconds per run (each run also stops at the best-known value)
    #[arg(long, default_value_t = 10.0, value_name = "S", value_parser = crate::args::parse_seconds)]
    time_limit: f64,
    /// Runs per instance (seeds --seed, --seed + 1, ...)
    #[arg(long, default_value_t = 5, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Chains of every run (with --devices: chains per device, so N devices run N times as many)
    /// [default: qap solve's: 4 per compute unit on a GPU, one per compute unit on another
    /// device, one per thread on the CPU backend]
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    chains: Option<usize>,
    #[command(flatten)]
    ts: crate::args::TsTuningArgs,
    /// Seed of the first run
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    devices: DevicesArg,
    /// Taillard's RoTS beside each instance, as a shell command with {file}, {seed} and {time}
    /// in it (for instance `/scratch/tabou_qap2 {file} {seed} {time}`), run in --rots-seeds
    /// processes side by side (seeds 1..K) for --time-limit seconds; it must print a line
    /// `New best cost: VALUE ... (time: SECONDS s)` at every improvement. The table gains RoTS's
    /// best of K and whether this solver's mean is worse
    #[arg(long, value_name = "COMMAND")]
    rots: Option<String>,
    /// RoTS processes side by side, seeds 1..K [default: the host's cores]
    #[arg(long, value_name = "K")]
    rots_seeds: Option<usize>,
    #[command(flatten)]
    csv: CsvArg,
}

/// The value on the first line of the `.sln` file beside `path` (`n value`, as QAPLIB's and
/// `qap generate`'s), for an instance that no BKS.csv lists; None without such a file.
fn sln_value(path: &std::path::Path, n: usize) -> CliResult<Option<i64>> {
    let sln = path.with_extension("sln");
    let Ok(text) = std::fs::read_to_string(&sln) else {
        return Ok(None);
    };
    let mut head = text.split_whitespace();
    match (
        head.next().and_then(|t| t.parse::<usize>().ok()),
        head.next().and_then(|t| t.parse::<i64>().ok()),
    ) {
        (Some(m), Some(v)) if m == n => Ok(Some(v)),
        _ => Err(Failure(format!(
            "{}: expected `{n} VALUE` on its first line",
            sln.display()
        ))),
    }
}

pub fn quality(a: &BenchQapQualityArgs) -> CliResult {
    let backend = a.backend.backend()?;
    let devices = a.devices.list_for(a.backend.cpu)?;
    // several devices: the chains of one device on each (weak scaling: quality at a fixed time)
    let per_device = match a.chains {
        Some(c) => c,
        None => metaopt::qap_ts::default_chains(&[match devices.first() {
            Some(&d) => metaopt::device::Backend::Device(Some(d)),
            None => backend,
        }])
        .map_err(|e| out::renamed_or_cpu(e, &[]))?,
    };
    let chains = per_device * devices.len().max(1);
    let names: Vec<&str> = ROTS_10S.iter().map(|r| r.0).collect();
    let files = instance_files(&a.files, &names)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "n",
        "bks",
        "runs",
        "time_limit",
        "best_gap_percent",
        "mean_gap_percent",
        "worst_gap_percent",
        "bks_hits",
        "mean_seconds_to_best",
        "rots_mean_gap_percent",
        "rots_bks_hits",
        "chains",
        "devices",
        "rots_seeds",
        "rots_best_gap_percent",
        "worse_than_rots",
    ])
    .map_err(csv_error)?;
    let rots_seeds = a.rots_seeds.unwrap_or_else(super::qap_scale::host_cores);
    let mut worse: Vec<String> = Vec::new();
    let mut side_by_side: Vec<(f64, f64)> = Vec::new();
    let mut means: Vec<(f64, Option<f64>)> = Vec::new();
    eprintln!(
        "bench qap-quality: {} instances, {} runs of {} s, {} chains{}, seeds from {}",
        files.len(),
        a.runs,
        a.time_limit,
        chains,
        if devices.is_empty() {
            String::new()
        } else {
            format!(" on devices {devices:?}")
        },
        a.seed
    );
    for path in &files {
        let inst = QapInstance::from_dat(path)?;
        let bks = match find_bks(path)? {
            Some(b) => b.bks as f64,
            None => sln_value(path, inst.n)?.ok_or_else(|| {
                Failure(format!(
                    "{}: no best-known value (no BKS.csv row beside it, no .sln of the same \
                     name)",
                    path.display()
                ))
            })? as f64,
        };
        let problem = Arc::new(QapProblem::from_instance(&inst));
        let mut solver = if devices.is_empty() {
            QapTs::new(problem, backend)
        } else {
            QapTs::on_devices(problem, &devices)
        }
        .map_err(ts_error)?;
        let mut gaps = Vec::new();
        let mut to_best = Vec::new();
        for run in 0..a.runs {
            let opts = a.ts.apply(QapTsOptions {
                chains,
                stop: metaopt::run::Stop {
                    time_limit: Some(Duration::from_secs_f64(a.time_limit)),
                    target: Some(bks),
                    ..metaopt::run::Stop::default()
                },
                seed: a.seed + run as u64,
                ..QapTsOptions::default()
            });
            let r = solver.solve(&opts).map_err(ts_error)?;
            gaps.push(gap_percent(r.cost.as_f64(), bks));
            to_best.push(r.seconds_to_best);
        }
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let best = gaps.iter().cloned().fold(f64::INFINITY, f64::min);
        let worst = gaps.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let hits = gaps.iter().filter(|g| **g <= 0.0).count();
        let mean_t = to_best.iter().sum::<f64>() / to_best.len() as f64;
        let rots = ROTS_10S.iter().find(|r| r.0 == inst.name);
        eprintln!(
            "  {:<8} gap best {best:.3} %, mean {mean:.3} %, worst {worst:.3} %, {hits} of {} at the BKS, {mean_t:.3} s to the best{}",
            inst.name,
            a.runs,
            rots.map(|r| format!("; RoTS 10 s: {:.2} %", r.1)).unwrap_or_default()
        );
        means.push((mean, rots.map(|r| r.1)));
        // RoTS run here, beside this solver, on the same file for the same time
        let here = match &a.rots {
            Some(cmd) => {
                let course = super::qap_scale::rots(cmd, path, rots_seeds, a.time_limit)?;
                let best = course.last().map(|p| p.1).ok_or_else(|| {
                    Failure(format!(
                        "--rots printed no `New best cost:` line on {}",
                        path.display()
                    ))
                })?;
                let g = gap_percent(best, bks);
                // worse: a mean gap above RoTS's best of K by more than rounding
                let w = mean > g + 1e-9;
                eprintln!(
                    "  {:<8} RoTS best of {rots_seeds}: {g:.3} %{}",
                    inst.name,
                    if w {
                        "  (this solver's mean is worse)"
                    } else {
                        ""
                    }
                );
                if w {
                    worse.push(inst.name.clone());
                }
                side_by_side.push((mean, g));
                Some((g, w))
            }
            None => None,
        };
        w.write_record([
            inst.name.clone(),
            inst.n.to_string(),
            (bks as i64).to_string(),
            a.runs.to_string(),
            a.time_limit.to_string(),
            format!("{best:.4}"),
            format!("{mean:.4}"),
            format!("{worst:.4}"),
            hits.to_string(),
            format!("{mean_t:.4}"),
            rots.map(|r| format!("{:.2}", r.1)).unwrap_or_default(),
            rots.and_then(|r| r.2)
                .map(|h| format!("{h} of 5"))
                .unwrap_or_default(),
            chains.to_string(),
            devices
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            here.map(|_| rots_seeds.to_string()).unwrap_or_default(),
            here.map(|h| format!("{:.4}", h.0)).unwrap_or_default(),
            here.map(|h| h.1.to_string()).unwrap_or_default(),
        ])
        .map_err(csv_error)?;
    }
    if !side_by_side.is_empty() {
        let k = side_by_side.len() as f64;
        eprintln!(
            "side by side on {} instances: mean gap {:.3} % (RoTS best of {rots_seeds}: {:.3} %); worse than RoTS on {}{}",
            side_by_side.len(),
            side_by_side.iter().map(|x| x.0).sum::<f64>() / k,
            side_by_side.iter().map(|x| x.1).sum::<f64>() / k,
            worse.len(),
            if worse.is_empty() { String::new() } else { format!(": {}", worse.join(", ")) }
        );
    }
    let ours = means.iter().map(|m| m.0).sum::<f64>() / means.len() as f64;
    let rots: Vec<f64> = means.iter().filter_map(|m| m.1).collect();
    if rots.len() == means.len() && means.len() == ROTS_10S.len() {
        eprintln!("mean gap over the {} instances: {ours:.3} % (RoTS one core, 10 s: {ROTS_10S_MEAN:.3} %)", means.len());
    } else {
        eprintln!("mean gap over the {} instances: {ours:.3} %", means.len());
    }
    out::finish_csv(w, a.csv.path())
}
