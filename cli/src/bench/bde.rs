//! `metaopt bench bde`: generations and evaluations per second of the batched DE
//! (`metaopt::de::BatchDe`: B independent problems in one batch) and, with `--compare island`,
//! of the island DE doing the same work: B islands of the same members and no migration, once
//! with the fused kernel (`DeOptions.fused = true`) and once with the per-phase launches
//! (`fused = false`). One run per size, function, precision and backend, side by side.
//!
//! Method: per row a new solver; the program build and the initial population are outside the
//! timed part (the batch: a warm-up batch of the same sizes runs one generation first, so the
//! device's program cache holds the kernel; the island DE: `init` and one warm-up generation),
//! then G generations timed, closed by reading the results back so that the device has
//! finished. Evaluations per second count the G generations' trials (B x members x G), not the
//! initial population.

use crate::args::{parse_bounds, parse_mutation, BenchIoArgs};
use crate::cmd::de::de_error;
use crate::out::{self, csv_error, flag_error, CliResult, Failure};
use clap::Args;
use metaopt::de::{
    Backend, BatchDe, BatchOptions, BatchProblem, BoundsCorrection, DeMultiPop, DeParams, FMode,
    Migration, MigrationKind, Mutation,
};
use metaopt::objective::Objective;
use metaopt::problem::functions;
use metaopt::run::Stop;
use serde::Serialize;
use std::time::Instant;

/// `BxNMxD`, e.g. `1024x32x10`.
fn parse_size(s: &str) -> Result<(u32, u32, u32), String> {
    crate::args::parse_size3(s, "problems x members x dims", "1024x32x10")
}

#[derive(Args)]
pub struct BenchBdeArgs {
    /// Sizes problems x members x dims, comma-separated
    #[arg(long, value_delimiter = ',', value_parser = parse_size, default_value = "1024x32x10,16384x64x10", value_name = "BxNMxD,...")]
    sizes: Vec<(u32, u32, u32)>,
    /// Objectives (catalogue), comma-separated
    #[arg(long, value_delimiter = ',', default_value = "F6,CEC07t", value_name = "NAMES")]
    functions: Vec<String>,
    /// Precisions, comma-separated: float, double (double is skipped on a device without fp64)
    #[arg(long, value_delimiter = ',', default_value = "float,double", value_name = "NAMES")]
    precisions: Vec<String>,
    /// Timed generations per row
    #[arg(long, default_value_t = 100, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    generations: u64,
    /// Generations per launch of the batched kernel
    #[arg(long, default_value_t = 1000, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    generations_per_launch: u32,
    /// Mutation strategy
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Bound correction
    #[arg(long, default_value = "sat", value_name = "NAME")]
    bounds: String,
    /// Also time the island DE on the same work: `island` (fused and per-phase)
    #[arg(long, value_name = "WHAT")]
    compare: Option<String>,
    /// Also time the CPU backend (rayon)
    #[arg(long)]
    cpu: bool,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct Row {
    function: String,
    problems: u32,
    members: u32,
    dims: u32,
    precision: &'static str,
    backend: &'static str,
    solver: &'static str,
    generations: u64,
    seconds: f64,
    generations_per_s: f64,
    evaluations_per_s: f64,
    /// Generations per second relative to the island DE's per-phase path on the same row
    /// (empty without `--compare island`).
    speedup_vs_unfused: Option<f64>,
    best: f64,
}

/// Times the batched DE: (seconds, best over the problems).
fn time_batch(
    problem: &BatchProblem,
    count: u32,
    backend: Backend,
    opts: &BatchOptions,
    generations: u64,
) -> CliResult<(f64, f64)> {
    let err = |e: metaopt::Error| Failure(format!("batched DE: {e}"));
    // the warm-up batch: the same sizes, so the program is built and cached
    let mut warm = problem.clone();
    warm.max_generations = 1;
    BatchDe::new(vec![warm; count as usize], backend, opts.clone())
        .map_err(err)?
        .run(&Stop::default())
        .map_err(err)?;
    // problem i with seed S + i: independent runs, as a user's batch would be
    let batch = (0..count as u64)
        .map(|i| BatchProblem {
            max_generations: generations,
            seed: problem.seed + i,
            ..problem.clone()
        })
        .collect();
    let mut de = BatchDe::new(batch, backend, opts.clone()).map_err(err)?;
    let t = Instant::now();
    let r = de.run(&Stop::default()).map_err(err)?;
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    if let Some(bad) = r.iter().position(|r| r.generations != generations) {
        return Err(Failure(format!(
            "batched DE: problem {bad} ran {} generations, not {generations}",
            r[bad].generations
        )));
    }
    Ok((
        secs,
        r.iter().map(|r| r.best_value).fold(f64::INFINITY, f64::min),
    ))
}

/// Times the island DE with B islands and no migration: (seconds, best over the islands).
#[allow(clippy::too_many_arguments)]
fn time_island(
    name: &str,
    (b, nm, nn): (u32, u32, u32),
    domain: (f64, f64),
    (mutation, bounds): (Mutation, BoundsCorrection),
    double: bool,
    fused: bool,
    backend: Backend,
    generations: u64,
) -> CliResult<(f64, f64)> {
    let mut p = DeParams::new(b, nm, nn, domain.0, domain.1, bounds);
    p.options.f_mode = FMode::Const;
    p.options.f_min = 0.5;
    p.options.cr = vec![0.9];
    p.options.double = double;
    p.options.precision = if double {
        metaopt::Precision::Double
    } else {
        metaopt::Precision::Single
    };
    p.options.fused = fused;
    let mut de = DeMultiPop::new(&p, backend).map_err(de_error)?;
    de.init(
        &Objective::catalogue(name)?,
        mutation,
        Migration::new(MigrationKind::None, 10),
    )
    .map_err(de_error)?;
    de.run(&Stop::budget(1)).map_err(de_error)?;
    de.bests_fitness().map_err(de_error)?;
    let t = Instant::now();
    de.run(&Stop::budget(generations)).map_err(de_error)?;
    let bests = de.bests_fitness().map_err(de_error)?;
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    Ok((secs, bests.iter().copied().fold(f64::INFINITY, f64::min)))
}

pub fn run(a: &BenchBdeArgs) -> CliResult {
    let mutation = parse_mutation(&a.mutation)?;
    let bounds = parse_bounds(&a.bounds)?;
    if bounds.len() != 1 {
        return Err("--bounds: one bound correction for all dimensions".into());
    }
    let compare = match a.compare.as_deref() {
        None => false,
        Some("island") => true,
        Some(w) => return Err(Failure(format!("--compare: `{w}`; expected island"))),
    };
    let mut precisions = Vec::new();
    for p in &a.precisions {
        match p.trim().to_ascii_lowercase().as_str() {
            "float" | "single" => precisions.push(false),
            "double" => precisions.push(true),
            _ => {
                return Err(Failure(format!(
                    "--precisions: `{p}`; expected float or double"
                )))
            }
        }
    }
    let mut infos = Vec::new();
    for f in &a.functions {
        infos.push(functions::lookup(f).map_err(|e| flag_error("--functions", e))?);
    }
    a.io.device.select()?;
    let fp64 = Backend::DEVICE
        .context("bench bde")
        .map_err(de_error)?
        .info
        .fp64;
    let mut backends = vec![("device", Backend::DEVICE)];
    if a.cpu {
        backends.push(("cpu", Backend::Cpu));
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    eprintln!(
        "{:<16} {:<8} {:<6} {:<7} {:<15} {:>9} {:>13} {:>14} {:>8}",
        "size",
        "function",
        "prec",
        "backend",
        "solver",
        "seconds",
        "generations/s",
        "evaluations/s",
        "speedup"
    );
    for &(b, nm, nn) in &a.sizes {
        for info in &infos {
            info.check_dims(nn as usize)
                .map_err(|e| flag_error("--sizes", e))?;
            for &double in &precisions {
                for &(bname, backend) in &backends {
                    if double && backend != Backend::Cpu && !fp64 {
                        eprintln!("note: the device has no double precision (cl_khr_fp64); skipping double");
                        continue;
                    }
                    if !double && backend == Backend::Cpu {
                        // the CPU backend computes in double only
                        continue;
                    }
                    let mut problem =
                        BatchProblem::new(info.name, nn, info.domain.0, info.domain.1);
                    problem.members = nm;
                    problem.mutation = mutation;
                    problem.bounds = bounds[0];
                    let opts = BatchOptions {
                        precision: if double {
                            metaopt::Precision::Double
                        } else {
                            metaopt::Precision::Single
                        },
                        generations_per_launch: a.generations_per_launch,
                        ..Default::default()
                    };
                    let mut runs: Vec<(&'static str, f64, f64)> = vec![];
                    let (s, best) = time_batch(&problem, b, backend, &opts, a.generations)?;
                    runs.push(("batch", s, best));
                    if compare {
                        let shape = (b, nm, nn);
                        let strategies = (mutation, bounds[0]);
                        let island = |fused: bool| {
                            time_island(
                                info.name,
                                shape,
                                info.domain,
                                strategies,
                                double,
                                fused,
                                backend,
                                a.generations,
                            )
                        };
                        // the CPU backend has one island path; a device the fused and the
                        // per-phase one
                        let (s, best) = island(true)?;
                        if backend == Backend::Cpu {
                            runs.push(("island", s, best));
                        } else {
                            runs.push(("island-fused", s, best));
                            let (s, best) = island(false)?;
                            runs.push(("island-unfused", s, best));
                        }
                    }
                    let base = runs
                        .iter()
                        .find(|r| r.0 == "island-unfused" || r.0 == "island")
                        .map(|r| r.1);
                    for (solver, secs, best) in runs {
                        let gps = a.generations as f64 / secs;
                        let row = Row {
                            function: info.name.to_string(),
                            problems: b,
                            members: nm,
                            dims: nn,
                            precision: if double { "double" } else { "float" },
                            backend: bname,
                            solver,
                            generations: a.generations,
                            seconds: secs,
                            generations_per_s: gps,
                            evaluations_per_s: gps * b as f64 * nm as f64,
                            speedup_vs_unfused: base.map(|t| t / secs),
                            best,
                        };
                        eprintln!(
                            "{:<16} {:<8} {:<6} {:<7} {:<15} {:>9.3} {:>13} {:>14} {:>8}",
                            format!("{b}x{nm}x{nn}"),
                            row.function,
                            row.precision,
                            bname,
                            solver,
                            secs,
                            out::rate(row.generations_per_s),
                            out::rate(row.evaluations_per_s),
                            row.speedup_vs_unfused
                                .map_or(String::new(), |s| format!("{s:.2}x")),
                        );
                        w.serialize(row).map_err(csv_error)?;
                    }
                }
            }
        }
    }
    out::finish_csv(w, a.io.csv.path())
}
