//! `metaopt bench de`: generations and objective evaluations per second of island DE on the
//! device and on the rayon CPU backend, side by side; `metaopt bench de-digits`: the 100-Digit
//! Challenge figure (correct digits of the optimum 1 of CEC04t..CEC10t in D = 10 within a time
//! budget).
//!
//! Method of `bench de`: per size and backend a new solver, `init` (building the program and
//! the initial population, untimed), one warm-up generation, then the timed generations, closed
//! by reading the island bests back so that the device has finished them.

use crate::args::{
    parse_bounds, parse_migration, parse_mutation, parse_seconds, BackendArgs, BenchIoArgs, CrArg,
    CsvArg, DeAlgorithmArgs,
};
use crate::cmd::de::de_error;
use crate::experiment::de_stats::{digits_run, DigitsSetup};
use crate::out::{self, csv_error, flag_error, CliResult, Failure};
use clap::Args;
use metaopt::de::{Backend, DeMultiPop, DeParams, Migration};
use metaopt::objective::Objective;
use metaopt::problem::functions;
use metaopt::run::Stop;
use serde::Serialize;
use std::time::{Duration, Instant};

/// `NPxNMxNN`, e.g. `256x32x10`.
fn parse_size(s: &str) -> Result<(u32, u32, u32), String> {
    crate::args::parse_size3(s, "islands x members x dims", "256x32x10")
}

#[derive(Args)]
pub struct BenchDeArgs {
    /// Sizes islands x members x dims, comma-separated
    #[arg(long, value_delimiter = ',', value_parser = parse_size, default_value = "64x32x10,256x32x10,1024x32x10,1024x64x10", value_name = "NPxNMxNN,...")]
    sizes: Vec<(u32, u32, u32)>,
    /// Objective (catalogue)
    #[arg(long, default_value = "CEC07t", value_name = "NAME")]
    function: String,
    /// Timed generations per size and backend
    #[arg(long, default_value_t = 200, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    generations: u64,
    /// Mutation strategy
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Bound correction
    #[arg(long, default_value = "COTN", value_name = "NAME")]
    bounds: String,
    /// Migration strategy (every --period generations)
    #[arg(long, default_value = "None", value_name = "NAME")]
    migration: String,
    /// Migration period in generations
    #[arg(long, default_value_t = 10, value_name = "K")]
    period: u32,
    /// Double precision on the device (the CPU backend always computes in double)
    #[arg(long)]
    double: bool,
    /// On the device, one set of launches per generation rather than the fused kernel between
    /// migrations (the island DE's earlier path, for comparisons)
    #[arg(long)]
    unfused: bool,
    #[command(flatten)]
    wide: crate::args::WideArg,
    /// Algorithms to time, comma-separated: de (the thesis's fixed F and CR), jade, shade,
    /// lshade, jso (L-SHADE and jSO with a budget so large that the population keeps its size),
    /// jde100 (a generation is a cycle: one of the big population and ceil(big / 25) of the small)
    #[arg(long, value_delimiter = ',', default_value = "de", value_name = "NAMES")]
    algorithms: Vec<String>,
    /// Backends to time, comma-separated: device, cpu
    #[arg(long, value_delimiter = ',', default_value = "device,cpu", value_name = "NAMES")]
    backends: Vec<String>,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct ThroughputRow {
    function: String,
    algorithm: String,
    islands: u32,
    members: u32,
    dims: u32,
    precision: &'static str,
    backend: &'static str,
    device: String,
    generations: u64,
    seconds: f64,
    generations_per_s: f64,
    evaluations_per_s: f64,
    best: f64,
}

pub fn throughput(a: &BenchDeArgs) -> CliResult {
    let mutation = parse_mutation(&a.mutation)?;
    let bounds = parse_bounds(&a.bounds)?;
    let migration = Migration::new(parse_migration(&a.migration)?, a.period);
    let info = functions::lookup(&a.function).map_err(|e| flag_error("--function", e))?;
    let mut backends = Vec::new();
    for b in &a.backends {
        match b.trim().to_ascii_lowercase().as_str() {
            "device" => {
                a.io.device.select()?;
                backends.push(("device", Backend::DEVICE))
            }
            "cpu" => backends.push(("cpu", Backend::Cpu)),
            _ => {
                return Err(Failure(format!(
                    "--backends: `{b}`; expected device or cpu"
                )))
            }
        }
    }
    let mut algorithms = Vec::new();
    for s in &a.algorithms {
        algorithms.push(
            s.parse::<metaopt::de::Algorithm>()
                .map_err(|e| flag_error("--algorithms", e))?,
        );
    }
    let objective = Objective::catalogue(info.name)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    eprintln!(
        "{:<14} {:<7} {:<7} {:>10} {:>12} {:>14}  device",
        "size", "alg", "backend", "seconds", "generations/s", "evaluations/s"
    );
    for &(np, nm, nn) in &a.sizes {
        for &algorithm in &algorithms {
            info.check_dims(nn as usize)
                .map_err(|e| flag_error("--sizes", e))?;
            for &(bname, backend) in &backends {
                let (a0, b0) = info.domain;
                let mut p = DeParams::new(np, nm, nn, a0, b0, bounds[0]);
                p.bounds = bounds.clone();
                p.options.double = a.double;
                p.options.precision = if a.double {
                    metaopt::Precision::Double
                } else {
                    metaopt::Precision::Single
                };
                p.options.fused = !a.unfused;
                p.options.wide = a.wide.option();
                p.options.algorithm = algorithm;
                // L-SHADE and jSO: a budget far past the timed generations keeps the population whole
                p.options.lshade_budget = if algorithm.reduces() { u64::MAX / 4 } else { 0 };
                let mut de = DeMultiPop::new(&p, backend).map_err(de_error)?;
                de.init(&objective, mutation, migration).map_err(de_error)?;
                de.run(&Stop::budget(1)).map_err(de_error)?;
                de.bests_fitness().map_err(de_error)?;
                let t = Instant::now();
                // `run`: the fused launches between migrations where the device has them
                de.run(&Stop::budget(a.generations)).map_err(de_error)?;
                let bests = de.bests_fitness().map_err(de_error)?;
                let secs = t.elapsed().as_secs_f64().max(1e-9);
                let gps = a.generations as f64 / secs;
                let row = ThroughputRow {
                    function: info.name.to_string(),
                    algorithm: algorithm.to_string(),
                    islands: np,
                    members: nm,
                    dims: nn,
                    precision: if a.double || backend == Backend::Cpu {
                        "double"
                    } else {
                        "float"
                    },
                    backend: bname,
                    device: de.describe(),
                    generations: a.generations,
                    seconds: secs,
                    generations_per_s: gps,
                    evaluations_per_s: gps * np as f64 * nm as f64,
                    best: bests.iter().copied().fold(f64::INFINITY, f64::min),
                };
                eprintln!(
                    "{:<14} {:<7} {:<7} {:>10.3} {:>12} {:>14}  {}",
                    format!("{np}x{nm}x{nn}"),
                    row.algorithm,
                    bname,
                    secs,
                    out::rate(row.generations_per_s),
                    out::rate(row.evaluations_per_s),
                    row.device
                );
                w.serialize(row).map_err(csv_error)?;
            }
        }
    }
    out::finish_csv(w, a.io.csv.path())
}

#[derive(Args)]
#[command(
    mut_arg("algorithm", |a| a.help(
        "The DE algorithm: de (the default, fixed F and CR per island) or an adaptive variant with \
         its paper's defaults: jade, shade, lshade, jso, jde100 (lshade, jso and jde100 run without \
         migration; jde100's islands are --members = big + --jde-small, the paper's 1025)"
    )),
    mut_arg("lshade_budget", |a| a.help(
        "L-SHADE's and jSO's evaluations per island and run [default: 10000 x D, CEC's budget]"
    )),
    mut_arg("jde_small", |a| a.help("jDE100's small population per island (the paper's 25)")),
    mut_arg("cr", |a| a
        .default_value("0.9,0.5,0.1,0.97")
        .help("CR values repeated over the islands")),
)]
pub struct BenchDigitsArgs {
    /// Time budget per function in seconds
    #[arg(long, default_value_t = 60.0, value_name = "S", value_parser = parse_seconds)]
    seconds: f64,
    #[command(flatten)]
    functions: crate::args::KnownMinimaArg,
    /// Dimensions
    #[arg(long, default_value_t = 10, value_name = "D")]
    dims: u32,
    /// Populations
    #[arg(long, default_value_t = 128, value_name = "NP")]
    islands: u32,
    /// Members of every population
    #[arg(long, default_value_t = 100, value_name = "NM")]
    members: u32,
    /// Mutation strategy
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Migration strategy (every --period generations)
    #[arg(long, default_value = "PermuteN", value_name = "NAME")]
    migration: String,
    /// Migration period in generations
    #[arg(long, default_value_t = 200, value_name = "K")]
    period: u32,
    /// Bound correction
    #[arg(long, default_value = "COTN", value_name = "NAME")]
    bounds: String,
    /// F spread over the islands from --F-min to --F-max
    #[arg(long = "F-min", visible_alias = "f-min", default_value_t = 0.3, value_name = "F")]
    f_min: f64,
    /// Largest F of the linspace over the islands
    #[arg(long = "F-max", visible_alias = "f-max", default_value_t = 0.9, value_name = "F")]
    f_max: f64,
    #[command(flatten)]
    cr: CrArg,
    /// A run restarts with new seeds after this many generations without improvement
    #[arg(long, default_value_t = 3000, value_name = "G")]
    stall: u64,
    /// Seed of the first run (restart r uses S + 4r ..)
    #[arg(long, default_value_t = 123, value_name = "S")]
    seed: u64,
    /// Single precision on the device (the challenge needs double; for comparison only)
    #[arg(long)]
    float: bool,
    #[command(flatten)]
    algorithm: DeAlgorithmArgs,
    /// Once the first DE run stalls (or after --bh-after), basin hopping from its best point for
    /// the rest of the time (chains of a (1+1)-ES local search from hops of 1e-6 to 1.5e-2 of
    /// the domain, sharing the lowest anchor) instead of DE restarts
    #[arg(long)]
    basin_hopping: bool,
    /// Basin hopping's chains side by side
    #[arg(long, default_value_t = 4096, value_name = "N", requires = "basin_hopping")]
    bh_chains: usize,
    /// Basin hopping's smallest hop, a fraction of the domain's width (one of 16 scales spaced
    /// evenly in log up to --bh-hop-max is drawn per hop)
    #[arg(long, default_value_t = 1e-6, value_name = "H", requires = "basin_hopping")]
    bh_hop_min: f64,
    /// Basin hopping's largest hop, a fraction of the domain's width
    #[arg(long, default_value_t = 0.015, value_name = "H", requires = "basin_hopping")]
    bh_hop_max: f64,
    /// Basin hopping's local search ends when its step is below this fraction of the width
    #[arg(long, default_value_t = 5e-17, value_name = "S", requires = "basin_hopping")]
    bh_step_stop: f64,
    /// Basin hopping starts once the first DE run stalls or after this many seconds of it
    /// [default: a tenth of --seconds]
    #[arg(long, value_name = "S", requires = "basin_hopping")]
    bh_after: Option<f64>,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    csv: CsvArg,
}

#[derive(Serialize)]
struct DigitsRow {
    function: String,
    digits: u32,
    value: String,
    error: f64,
    seconds_to_best: f64,
    seconds: f64,
    reached: bool,
    restarts: u32,
    generations: u64,
    evaluations: u64,
    bh_evaluations: u64,
}

pub fn digits(a: &BenchDigitsArgs) -> CliResult {
    let mutation = parse_mutation(&a.mutation)?;
    let bounds = parse_bounds(&a.bounds)?;
    if bounds.len() != 1 {
        return Err("--bounds: give one bound correction".into());
    }
    let algorithm = a.algorithm.algorithm()?;
    // L-SHADE and jSO shrink their islands, which migration would refill
    let independent = algorithm.reduces() || algorithm == metaopt::de::Algorithm::Jde100;
    let kind = if independent {
        metaopt::de::MigrationKind::None
    } else {
        parse_migration(&a.migration)?
    };
    let lshade_budget = if algorithm.reduces() {
        a.algorithm.lshade_budget.unwrap_or(10_000 * a.dims as u64)
    } else {
        0
    };
    let cr = a.cr.values()?;
    let backend = a.backend.backend()?;
    // basin hopping's settings, checked now (they are used only once a DE run stalls) by the
    // library's own rules, each error naming its flag (`chains` -> `--bh-chains`, ...)
    let bh = a.basin_hopping.then(|| metaopt::bh::BhParams {
        chains: a.bh_chains,
        hop_min: a.bh_hop_min,
        hop_max: a.bh_hop_max,
        step_stop: a.bh_step_stop,
        ..Default::default()
    });
    if let Some(p) = &bh {
        p.check().map_err(|e| match e {
            metaopt::Error::InvalidArgument { arg, msg } => {
                Failure(format!("--bh-{}: {msg}", arg.replace('_', "-")))
            }
            other => Failure(other.to_string()),
        })?;
        if let Some(t) = a.bh_after {
            if !(t >= 0.0 && t <= a.seconds) {
                return Err(Failure(format!(
                    "--bh-after: {t}; 0 to --seconds ({})",
                    a.seconds
                )));
            }
        }
    }
    let names: Vec<&str> = a
        .functions
        .resolve(a.dims)?
        .iter()
        .map(|f| f.0.name)
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut score = 0;
    eprintln!(
        "{:<8} {:>6} {:>22} {:>10} {:>10} {:>9}",
        "function", "digits", "value", "to best", "time", "restarts"
    );
    for name in names {
        let s = DigitsSetup {
            dims: a.dims,
            islands: a.islands,
            members: a.members,
            mutation,
            migration: Migration::new(kind, a.period),
            bounds: bounds[0],
            f_min: a.f_min,
            f_max: a.f_max,
            cr: cr.clone(),
            double: !a.float,
            backend,
            stall_generations: a.stall,
            seed: a.seed,
            algorithm,
            lshade_budget,
            jde_small: a.algorithm.jde_small,
            basin_hopping: bh.clone(),
            bh_after: Duration::from_secs_f64(a.bh_after.unwrap_or(a.seconds / 10.0)),
            ..DigitsSetup::new(name, Duration::from_secs_f64(a.seconds))
        };
        let r = digits_run(&s).map_err(de_error)?;
        score += r.digits;
        eprintln!(
            "{:<8} {:>6} {:>22} {:>9.2}s {:>9.2}s {:>9}",
            r.function,
            r.digits,
            format!("{:.12}", r.value),
            r.seconds_to_best,
            r.seconds,
            r.restarts
        );
        w.serialize(DigitsRow {
            function: r.function.clone(),
            digits: r.digits,
            value: format!("{:.15}", r.value),
            error: r.value - r.optimum,
            seconds_to_best: r.seconds_to_best,
            seconds: r.seconds,
            reached: r.reached,
            restarts: r.restarts,
            generations: r.generations,
            evaluations: r.evaluations,
            bh_evaluations: r.bh_evaluations,
        })
        .map_err(csv_error)?;
    }
    eprintln!(
        "score {score} digits over {} functions",
        a.functions.functions.len()
    );
    out::finish_csv(w, a.csv.path())
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::parse_size("256x32x10"), Ok((256, 32, 10)));
        assert!(super::parse_size("256x32").is_err());
        assert!(super::parse_size("0x32x10").is_err());
    }
}
