//! `metaopt de`: the island differential evolution solver (docs/specs/DE.md) on a catalogue function
//! or a user OpenCL objective, with a progress bar, a convergence CSV and a PNG plot.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`batch`] | `de --batch` and `de --problems`: the batched DE |

use crate::args::{
    parse_bounds, parse_migration, parse_mutation, seeds, BackendArgs, CrArg, DeAlgorithmArgs,
    DePrecisionArgs, DevicesArg, JsonArg, MaxGenerationsArg, ObjectiveArgs, Precision, StopArgs,
};
use crate::out::{self, flag_error, CliResult, Failure};
use crate::out::{stats, Stats};
use crate::plot::{self, Panel, Series};
use clap::Args;
use indicatif::ProgressBar;
use metaopt::de::constraints::{self, ConstrainedRun, Constraints, Handling, Repair};
use metaopt::de::{
    Algorithm, BoundsCorrection, DeMultiPop, DeOptions, DeParams, DeRunResult, FMode, Migration,
    MigrationKind, Record, Selection,
};
use metaopt::objective::Objective;
use metaopt::run::{Stop, StopReason};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod batch;

/// Generations when no stop condition is given.
const DEFAULT_GENERATIONS: u64 = 1000;

/// The library's parameter names, as the CLI spells them.
pub fn de_error(e: metaopt::Error) -> Failure {
    let table = [
        ("islands", "--islands"),
        ("members", "--members"),
        ("dims", "--dims"),
        ("limits", "--lower/--upper"),
        ("bounds", "--bounds"),
        ("f_min", "--F-min"),
        ("f_max", "--F-max"),
        ("f_mode", "--F-mode"),
        ("selection", "--selection"),
        ("algorithm", "--algorithm"),
        ("lshade_budget", "--lshade-budget"),
        ("jde_small", "--jde-small"),
        ("jde_eps", "--jde-eps"),
        ("jde_age", "--jde-age"),
        ("fitness_precision", "--fitness-precision"),
        ("cr", "--CR"),
        ("mutation", "--mutation"),
        ("migration", "--migration"),
        ("period", "--period"),
        ("devices", "--devices"),
        ("processes", "--mpi"),
        ("fused", "--unfused"),
        ("target", "--target"),
        ("function", "--function"),
        ("deviceNumber", "--device"),
        ("device", "--device"),
        ("population", "--init"),
        ("state", "--resume"),
        ("checkpoint", "--checkpoint"),
    ];
    out::renamed_or_cpu(e, &table)
}

#[derive(Args)]
#[command(mut_arg("max_generations", |a| a.help(format!(
    "Stop after G generations [default: {DEFAULT_GENERATIONS} unless --time-limit, --target or \
     --evaluations; with --problems {DEFAULT_GENERATIONS} in any case]"
))))]
pub struct DeArgs {
    #[command(flatten)]
    objective: ObjectiveArgs,
    /// Dimensions Nn
    #[arg(long, value_name = "D", required_unless_present = "batch")]
    dims: Option<u32>,
    /// Batched DE: the problems of a JSON file, an array of objects with the keys function (or
    /// source and data: file paths relative to the JSON file), dims, lower, upper (a number or
    /// one per dimension), members, f, cr, mutation, bounds, seed, generations, target,
    /// algorithm (de, jade, shade, lshade, jso, jde100), jde_small, lshade_budget; all but
    /// function and dims optional. Runs them in one batch and prints one row per problem
    #[arg(long, value_name = "FILE.json", conflicts_with_all = PROBLEMS_CONFLICTS, conflicts_with_all = BATCH_ONLY_CONFLICTS)]
    batch: Option<PathBuf>,
    /// Batched DE: B independent problems made from these flags (--function, --dims, --lower,
    /// --upper, --members, --mutation, --bounds, --F-min/--F-max/--F-mode as over islands, --CR,
    /// --max-generations, --target, --algorithm, --lshade-budget, --jde-small), problem i with
    /// seed S + i (--seed, default 1)
    #[arg(long, value_name = "B", conflicts_with_all = PROBLEMS_CONFLICTS, value_parser = clap::value_parser!(u32).range(1..))]
    problems: Option<u32>,
    /// Batched DE: generations per kernel launch
    #[arg(long, value_name = "K", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    generations_per_launch: u32,
    /// Batched DE: where the device keeps the populations (auto, local, global)
    #[arg(long, value_name = "WHERE", default_value = "auto")]
    placement: String,
    /// Populations (islands) Np
    #[arg(long, default_value_t = 32, value_name = "NP")]
    islands: u32,
    /// Members of every population Nm
    #[arg(long, default_value_t = 32, value_name = "NM")]
    members: u32,
    #[command(flatten)]
    max_generations: MaxGenerationsArg,
    /// DE/rand/1, DE/rand/2, DE/best/1, DE/best/2, DE/current-to-rand/1, DE/current-to-best/1
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Bound correction: sat, mir, tor, HVB, uni, COTN; one for all dimensions or a comma list
    /// with one per dimension
    #[arg(long, default_value = "COTN", value_name = "NAME[,NAME...]")]
    bounds: String,
    /// Migration: None, One2One, One2N, N2One, N2N, PermuteN, RandTarget
    #[arg(long, default_value = "None", value_name = "NAME")]
    migration: String,
    /// Migration period in generations
    #[arg(long, default_value_t = 10, value_name = "K")]
    period: u32,
    /// Smallest F (all populations with --F-mode const)
    #[arg(
        long = "F-min",
        visible_alias = "f-min",
        default_value_t = 0.1,
        value_name = "F",
        allow_negative_numbers = true
    )]
    f_min: f64,
    /// Largest F (--F-mode linspace or dither)
    #[arg(
        long = "F-max",
        visible_alias = "f-max",
        default_value_t = 1.5,
        value_name = "F",
        allow_negative_numbers = true
    )]
    f_max: f64,
    /// linspace: F evenly from --F-min to --F-max over the populations; const: --F-min for all;
    /// dither: each generation, each population draws its F in [--F-min, --F-max) (scipy's
    /// dithering; not with --problems or an adaptive --algorithm)
    #[arg(
        long = "F-mode",
        visible_alias = "f-mode",
        default_value = "linspace",
        value_name = "MODE"
    )]
    f_mode: String,
    #[command(flatten)]
    cr: CrArg,
    /// Seeds S, S+1, S+2, S+3 for initialisation, mutation, crossover and migration
    /// [default: the thesis's 123, 345, 457, 581; with --problems 1]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Populations share the random numbers of equal member indices (the thesis's device choice)
    #[arg(long)]
    shared_random: bool,
    /// One set of launches per generation instead of the fused kernel between migrations (the
    /// same run in double without migration; for comparisons)
    #[arg(long)]
    unfused: bool,
    #[command(flatten)]
    wide: crate::args::WideArg,
    /// Greedy selection: ties (a trial replaces its target when f(trial) <= f(target), so
    /// populations move across plateaus) or strict (only when f(trial) < f(target), the thesis's
    /// DEMULTIPOP_FITNESS_COPY_BETTER_Y2X)
    #[arg(long, default_value = "ties", value_name = "RULE")]
    selection: String,
    #[command(flatten)]
    algorithm: DeAlgorithmArgs,
    /// jDE100: a population restarts when more than 25 % (and more than 2) of its members are
    /// within this absolute difference of the best value
    #[arg(long, default_value_t = 1e-16, value_name = "EPS")]
    jde_eps: f64,
    /// jDE100: the big population also restarts when its evaluations since the island's best
    /// last improved exceed N (0: no age limit)
    #[arg(long, default_value_t = 0, value_name = "N")]
    jde_age: u64,
    #[command(flatten)]
    stop: StopArgs,
    /// Stop before exceeding this many objective evaluations (after the initial population)
    #[arg(long, value_name = "N")]
    evaluations: Option<u64>,
    /// Record the best of every population every K generations for --csv and --plot
    /// [default: generations / 500, at least 1; 10 without --generations]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    record_every: Option<u64>,
    #[command(flatten)]
    precision: DePrecisionArgs,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    devices: DevicesArg,
    #[command(flatten)]
    mpi: crate::mpi::MpiArg,
    #[command(flatten)]
    json: JsonArg,
    /// Convergence plot: best over all islands, median and quartiles of the island bests (with
    /// --batch or --problems: the least best value of any problem against time)
    #[arg(long, value_name = "FILE.png")]
    plot: Option<PathBuf>,
    /// Convergence history as CSV: generation, evaluations, seconds, best, q25, median, q75, worst
    /// (with --batch or --problems: seconds, generations summed over the problems, the least best
    /// value of any problem, the problems finished; a row per launch)
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// With --batch or --problems: write the results to FILE (CSV, one row per problem)
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Checkpoints of the populations, their values, the adaptive variants' memories, archives
    /// and per-member F and CR, and the counters; resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    /// Start from the points of FILE, one per line (numbers separated by commas or white space;
    /// lines starting with # are comments): they replace the first members, in the order island
    /// by island (one line: member 0 of island 0, as scipy's x0; islands x members lines: the
    /// whole population); each within --lower/--upper; a regular file of at most 1 GiB
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Constraints of the --source objective: its OpenCL
    /// `void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)`
    /// writes NG inequality values g (satisfied when g <= 0), then NH equality values h
    /// (satisfied when |h| <= --eq-tol). The CEC 2006 problems (--function G01 .. G24) have their
    /// own. The fixed DE or jade, shade, lshade, jso, on one device or --cpu; the result is the best feasible point, else the
    /// least violation
    #[arg(long, value_name = "NG,NH", conflicts_with_all = ["batch", "problems"])]
    constraints: Option<String>,
    /// The equalities' tolerance [default: 1e-4]
    #[arg(long, value_name = "TOL", allow_negative_numbers = true)]
    eq_tol: Option<f64>,
    /// How constrained points compare: deb (Deb's feasibility rules) or epsilon (the epsilon
    /// level of epsilon-DE: from the initial population's 0.2-quantile violation to 0 at
    /// generation 1000 as (1 - t/1000)^5), or epsilon:THETA,TC,CP
    #[arg(long, value_name = "RULE", default_value = "deb")]
    constraint_handling: String,
    #[command(flatten)]
    repair: crate::args::RepairArgs,
    /// After the generations, polish the best point: basin hopping's (1+1)-ES from it within
    /// the box (8 chains sharing the lowest point, 1000 + 200 x dims steps each), kept when it
    /// is better by Deb's rules; not after an interrupt, not with --mpi; the time limit and
    /// Ctrl-C bound it too
    #[arg(long, conflicts_with_all = ["batch", "problems", "mpi"])]
    polish: bool,
    /// --polish: steps of every chain
    #[arg(long, value_name = "N", requires = "polish", value_parser = clap::value_parser!(u32).range(1..))]
    polish_steps: Option<u32>,
}

/// The constrained run `a` asks for: the CEC 2006 problem named by `--function` (its objective,
/// per-dimension limits and constraints), or `--constraints NG,NH` of a `--source`; `None`
/// without constraints.
fn constrained(a: &DeArgs) -> CliResult<Option<ConstrainedRun>> {
    let handling = parse_handling(&a.constraint_handling)?;
    let cec = a
        .objective
        .function
        .as_deref()
        .filter(|f| metaopt::problem::cec2006::info(*f).is_ok());
    let mut c = match (cec, &a.constraints) {
        (Some(f), None) => {
            if a.objective.lower.is_some() || a.objective.upper.is_some() {
                return Err(format!("--lower/--upper: {f} has its own box").into());
            }
            let (obj, bounds, c) =
                constraints::cec2006(f).map_err(|e| flag_error("--function", e))?;
            Some((obj, bounds, c))
        }
        (Some(f), Some(_)) => {
            return Err(format!("--constraints: {f} has its own constraints").into())
        }
        (None, Some(spec)) => {
            if a.objective.source.is_none() {
                return Err("--constraints: for a --source objective (a catalogue function has none; the CEC 2006 problems G01 .. G24 have their own)".into());
            }
            let (ng, nh) = crate::args::constraint_counts(spec)?;
            let (code, data) = a.objective.read_source()?;
            let (lo, hi) = a.objective.interval(None);
            let dims = a.dims.unwrap_or(1) as usize;
            Some((
                Objective::source(code, data),
                vec![(lo, hi); dims],
                Constraints::compiled(ng, nh),
            ))
        }
        (None, None) => {
            if a.eq_tol.is_some() || a.constraint_handling != "deb" || a.repair.repair.is_some() {
                return Err("--eq-tol, --constraint-handling and --repair: for a constrained run (--constraints, or a CEC 2006 problem as --function)".into());
            }
            None
        }
    };
    if let Some((_, _, c)) = c.as_mut() {
        c.handling = handling;
        c.repair = a.repair.repair();
        if let Some(t) = a.eq_tol {
            c.eq_tol = t;
        }
        c.check().map_err(|e| Failure(e.to_string()))?;
    }
    Ok(c)
}

/// `--constraint-handling`: `deb`, `epsilon` or `epsilon:THETA,TC,CP`.
fn parse_handling(s: &str) -> CliResult<Handling> {
    let bad = || {
        Failure(format!(
            "--constraint-handling: `{s}`; expected deb, epsilon or epsilon:THETA,TC,CP"
        ))
    };
    match s.trim().to_ascii_lowercase().as_str() {
        "deb" => Ok(Handling::Deb),
        "epsilon" => Ok(Handling::EPSILON_DEFAULT),
        w => {
            let rest = w.strip_prefix("epsilon:").ok_or_else(bad)?;
            let p: Vec<&str> = rest.split(',').map(str::trim).collect();
            let [t, tc, cp] = p[..] else {
                return Err(bad());
            };
            Ok(Handling::Epsilon {
                theta: t.parse().map_err(|_| bad())?,
                tc: tc.parse().map_err(|_| bad())?,
                cp: cp.parse().map_err(|_| bad())?,
            })
        }
    }
}

/// The points of `--init FILE`: rows of `dims` numbers (commas or white space between them),
/// blank lines and lines starting with `#` skipped.
fn read_points(path: &Path, dims: usize) -> CliResult<Vec<f64>> {
    let text = crate::args::read_flag_text("--init", path, crate::args::MAX_FLAG_FILE_BYTES)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row: Vec<f64> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.parse::<f64>().map_err(|_| {
                    format!(
                        "--init: {} line {}: {w:?} is not a number",
                        path.display(),
                        i + 1
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        if row.len() != dims {
            return Err(format!(
                "--init: {} line {}: {} numbers; expected {dims} (--dims)",
                path.display(),
                i + 1,
                row.len()
            )
            .into());
        }
        out.extend(row);
    }
    if out.is_empty() {
        return Err(format!("--init: {} holds no point", path.display()).into());
    }
    Ok(out)
}

#[derive(Serialize)]
struct DeJson<'a> {
    objective: String,
    dims: u32,
    islands: u32,
    members: u32,
    lower: Vec<f64>,
    upper: Vec<f64>,
    mutation: &'static str,
    bounds: Vec<&'static str>,
    migration: &'static str,
    period: u32,
    f_mode: FMode,
    f_min: f64,
    f_max: f64,
    cr: Vec<f64>,
    /// `ties` (f(trial) <= f(target)) or `strict` (<)
    selection: Selection,
    /// `de` or an adaptive variant (`jade`, `shade`, `lshade`, `jso`, `jde100`)
    algorithm: Algorithm,
    /// L-SHADE's and jSO's evaluations per island (0 for the others)
    lshade_budget: u64,
    seeds: [u64; 4],
    precision: Precision,
    /// the precision of the fitness values (the storage precision unless --fitness-precision)
    fitness_precision: Precision,
    backend: &'static str,
    device: String,
    value: f64,
    x: &'a [f64],
    island: u32,
    island_f: f64,
    island_cr: f64,
    /// the best value of every island
    island_bests: Vec<f64>,
    generations: u64,
    evaluations: u64,
    seconds: f64,
    stopped_by: &'static str,
    minimum: Option<f64>,
    error: Option<f64>,
    /// with --polish: the point it started from and what it took (`value` and `x` are the
    /// polished point's when it improved)
    #[serde(skip_serializing_if = "Option::is_none")]
    polish: Option<PolishJson>,
    /// with constraints: their counts and handling, and the best point's violation (0 feasible)
    #[serde(skip_serializing_if = "Option::is_none")]
    constraints: Option<ConstraintsJson>,
}

#[derive(Serialize)]
struct PolishJson {
    start_value: f64,
    start_violation: f64,
    improved: bool,
    evaluations: u64,
    seconds: f64,
    stopped_by: &'static str,
}

#[derive(Serialize)]
struct ConstraintsJson {
    inequalities: u32,
    equalities: u32,
    eq_tol: f64,
    handling: Handling,
    /// the gradient-based repair's probability and rounds, when asked for
    #[serde(skip_serializing_if = "Option::is_none")]
    repair: Option<Repair>,
    violation: f64,
    feasible: bool,
}

pub fn write_history_csv(path: &Path, history: &[Record]) -> CliResult {
    let header = [
        "generation",
        "evaluations",
        "seconds",
        "best",
        "q25",
        "median",
        "q75",
        "worst",
    ];
    let rows = history.iter().map(|r| {
        // best, quartiles and worst of the island bests
        let s = stats(&r.bests);
        [
            r.generation.to_string(),
            r.evaluations.to_string(),
            format!("{:.6}", r.seconds),
            s.min.to_string(),
            s.q25.to_string(),
            s.q50.to_string(),
            s.q75.to_string(),
            s.max.to_string(),
        ]
    });
    out::write_csv_file(path, "--csv: ", &header, rows)
}

pub fn write_history_plot(path: &Path, title: &str, history: &[Record]) -> CliResult {
    let rows: Vec<(f64, Stats)> = history
        .iter()
        .map(|r| (r.generation as f64, stats(&r.bests)))
        .collect();
    let mut p = Panel::new(title, "generation", "objective value");
    p.series.push(
        Series::line(
            "median island best (25-75 % band)",
            rows.iter().map(|(g, s)| (*g, s.q50)).collect(),
            plot::color(0),
        )
        .with_band(rows.iter().map(|(g, s)| (*g, s.q25, s.q75)).collect()),
    );
    p.series.push(Series::line(
        "best over all islands",
        rows.iter().map(|(g, s)| (*g, s.min)).collect(),
        plot::color(3),
    ));
    plot::write_png(path, "", &[p], 1, (900, 560))
}

fn progress_bar(
    generations: Option<u64>,
    time: Option<Duration>,
    evaluations: Option<u64>,
) -> ProgressBar {
    match (generations, time, evaluations) {
        (Some(g), _, _) => {
            out::count_bar(g, "generation {pos}/{len}  {elapsed} (eta {eta})  {msg}")
        }
        (None, Some(t), _) => out::time_bar(t),
        (None, None, Some(e)) => {
            out::count_bar(e, "{pos}/{len} evaluations  {elapsed} (eta {eta})  {msg}")
        }
        (None, None, None) => out::spinner(),
    }
}

/// The island flags that the batched modes do not take (`--problems` takes --algorithm,
/// --lshade-budget and --jde-small, for every problem; `--batch` neither: `BATCH_ONLY_CONFLICTS`,
/// its file has its own keys).
const BATCH_ONLY_CONFLICTS: [&str; 3] = ["algorithm", "lshade_budget", "jde_small"];
const PROBLEMS_CONFLICTS: [&str; 12] = [
    "islands",
    "jde_eps",
    "jde_age",
    "migration",
    "period",
    "shared_random",
    "unfused",
    "wide",
    "selection",
    "fitness_precision",
    "evaluations",
    "record_every",
];

pub fn run(a: &DeArgs) -> CliResult {
    if a.batch.is_some() || a.problems.is_some() {
        return batch::run(a);
    }
    if a.results.is_some() {
        return Err("--results: applies to the batched DE (--batch or --problems)".into());
    }
    let dims = a.dims.ok_or("--dims is required")?;
    let mutation = parse_mutation(&a.mutation)?;
    let bounds = parse_bounds(&a.bounds)?;
    let kind = parse_migration(&a.migration)?;
    let f_mode: FMode = a.f_mode.parse().map_err(|e| flag_error("--F-mode", e))?;
    let cr = a.cr.values()?;
    let selection: Selection = a
        .selection
        .parse()
        .map_err(|e| flag_error("--selection", e))?;
    let algorithm = a.algorithm.algorithm()?;
    let lshade_budget = match a.algorithm.lshade_budget {
        Some(b) => b,
        None if algorithm.reduces() => match (a.evaluations, a.max_generations.max_generations) {
            (Some(e), _) => e / a.islands.max(1) as u64 + a.members as u64,
            (None, Some(g)) => g * a.members as u64,
            (None, None) => DEFAULT_GENERATIONS * a.members as u64,
        },
        None => 0,
    };
    if let Some(p) = &a.plot {
        plot::check_png_path("--plot", p)?;
    }
    let backend = a.backend.backend()?;
    let precision = a.precision.resolve(backend, a.json.quiet || a.json.json)?;
    let single = !precision.is_double();
    let cons = constrained(a)?;
    let (objective, name, info, limits, cons) = match cons {
        Some((objective, limits, c)) => {
            if limits.len() != dims as usize {
                return Err(format!(
                    "--dims: {dims}; {} has {} variables",
                    a.objective.function.as_deref().unwrap_or("the problem"),
                    limits.len()
                )
                .into());
            }
            let name = match (&a.objective.function, &a.objective.source) {
                (Some(f), _) => f.to_ascii_uppercase(),
                (None, Some(p)) => p.display().to_string(),
                (None, None) => String::new(),
            };
            (objective, name, None, Some(limits), Some(c))
        }
        None => {
            let obj = a.objective.resolve()?;
            if let Some(info) = obj.info {
                info.check_dims(dims as usize)
                    .map_err(|e| flag_error("--dims", e))?;
            }
            (obj.objective, obj.name, obj.info, None, None)
        }
    };
    if a.polish && backend == metaopt::de::Backend::Cpu {
        if let Objective::Source { .. } = objective {
            return Err(
                "--polish: on the CPU backend basin hopping evaluates catalogue functions only; a --source or CEC 2006 problem is polished on a device (leave out --cpu)"
                    .into(),
            );
        }
    }
    let (lo, hi) = a.objective.interval(info);
    let seeds = seeds(a.seed);
    let mut options = DeOptions {
        f_mode,
        f_min: a.f_min,
        f_max: a.f_max,
        cr,
        init_seed: seeds[0],
        mutation_seed: seeds[1],
        crossover_seed: seeds[2],
        migration_seed: seeds[3],
        shared_random: a.shared_random,
        fused: !a.unfused,
        wide: a.wide.option(),
        selection,
        algorithm,
        lshade_budget,
        jde_small: a.algorithm.jde_small,
        jde_eps: a.jde_eps,
        jde_age: a.jde_age,
        ..DeOptions::default()
    };
    a.precision.set_options(precision, &mut options);
    let params = DeParams {
        limits: limits.clone().unwrap_or_else(|| vec![(lo, hi)]),
        bounds,
        options,
        ..DeParams::new(a.islands, a.members, dims, lo, hi, BoundsCorrection::Cotn)
    };
    let migration = Migration::new(kind, a.period);
    let devices = a.devices.list_for(a.backend.cpu)?;
    // with --mpi, this rank's block of the islands on its devices (--devices, --device, else its
    // local rank's device), the migrants and the stop decisions traded with the other ranks
    let ranks = a.mpi.ranks()?;
    if ranks.is_some() && a.backend.cpu {
        return Err("--mpi: island DE across ranks runs on OpenCL devices (--devices, --device or each rank's own), not with --cpu".into());
    }
    // a rank's failure aborts the job (the others would wait for it in the next exchange)
    let on_rank = |r: CliResult<DeMultiPop>| -> CliResult<DeMultiPop> {
        match &ranks {
            Some(rk) => Ok(rk.or_abort(r)),
            None => r,
        }
    };
    // several devices: a block of islands each, the one-device result for a seed
    let mut de = on_rank((|| {
        if let Some(rk) = &ranks {
            rk.pick_device(
                false,
                !devices.is_empty() || a.backend.device.device.is_some(),
            );
            crate::mpi::test_failure(rk)?;
            let mine = if devices.is_empty() {
                vec![metaopt::device::get_device_number().map_err(de_error)?]
            } else {
                devices.clone()
            };
            return DeMultiPop::across(&params, &mine, Box::new(rk.island_exchange()))
                .map_err(de_error);
        }
        if devices.is_empty() {
            DeMultiPop::new(&params, backend)
        } else {
            DeMultiPop::on_devices(&params, &devices)
        }
        .map_err(de_error)
    })())?;
    de.set_constraints(cons.clone()).map_err(de_error)?;
    let time_limit = a.stop.time_limit();
    // the limit and Ctrl-C bound the set-up too: the initial population comes in short launches
    let init = de
        .init_within(
            &objective,
            mutation,
            migration,
            None,
            crate::time_left(time_limit),
            Some(&crate::stop_token()),
        )
        .map_err(de_error);
    if let Some(rk) = &ranks {
        rk.or_abort(init);
    } else {
        init?;
    }
    let rank = ranks.as_ref().map(|rk| (rk.rank(), rk.size()));
    let checkpoint = a.checkpoint.plan(rank)?;
    // a resumed run: the populations, values, adaptive state and counters of the file, and the
    // run's progress (its generations, evaluations, time and records count from its start)
    // (the ranks resume from the newest generation they all have)
    let resumed = a.checkpoint.resume_together(ranks.as_ref(), |bytes| {
        de.load_state(&bytes).map_err(de_error)?;
        Ok(de.generation())
    })?;
    if let (false, Some(path)) = (resumed, &a.init) {
        let points = read_points(path, dims as usize)?;
        let set = de.set_population(None, &points, false).map_err(de_error);
        match &ranks {
            Some(rk) => rk.or_abort(set),
            None => set?,
        }
    }
    let device = match &ranks {
        // rank 0's devices, as the other commands print them
        Some(rk) => format!(
            "{}; MPI, {} rank{}",
            de.describe(),
            rk.size(),
            if rk.size() == 1 { "" } else { "s" }
        ),
        None => de.describe(),
    };
    // the values are the fitness precision's (the points the storage precision's)
    let fsingle = !de.config().fitness_double();

    let target = a.stop.target;
    let generations = match (
        a.max_generations.max_generations,
        target,
        time_limit,
        a.evaluations,
    ) {
        (None, None, None, None) => Some(DEFAULT_GENERATIONS),
        (g, ..) => g,
    };
    let record_every = a
        .record_every
        .unwrap_or_else(|| generations.map_or(10, |g| g.div_ceil(500).max(1)));
    // the limit counts from the command's start: creating and initialising the populations are in it
    let stop = Stop {
        budget: generations,
        evaluations: a.evaluations,
        target,
        time_limit: crate::time_left(time_limit),
        record_every,
        token: Some(crate::stop_token()),
        checkpoint,
    };
    let root = ranks.as_ref().is_none_or(|rk| rk.is_root());
    let bar =
        (a.json.progress() && root).then(|| progress_bar(generations, time_limit, a.evaluations));
    let (g0, e0) = (de.generation(), de.evaluations());
    let result = de.run_observed(&stop, |r| {
        if let Some(bar) = &bar {
            match (generations, time_limit, a.evaluations) {
                (Some(_), _, _) => bar.set_position(r.generation - g0),
                (None, None, Some(_)) => bar.set_position(r.evaluations - e0),
                _ => {}
            }
            let best = r.bests.iter().copied().fold(f64::INFINITY, f64::min);
            bar.set_message(format!(
                "generation {}, best {}",
                r.generation - g0,
                out::value(best, fsingle)
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    // every island's best (across ranks a gather that every rank joins)
    let result = result
        .and_then(|r| Ok((r, de.bests_fitness()?)))
        .map_err(de_error);
    let (mut r, island_bests): (DeRunResult, Vec<f64>) = match &ranks {
        Some(rk) => rk.or_abort(result),
        None => result?,
    };
    if !root {
        // rank 0 prints
        return Ok(());
    }
    let polished = if a.polish && r.stopped_by != StopReason::Interrupted {
        let cfg = de.config();
        let (lo, hi): (Vec<f64>, Vec<f64>) = (cfg.lo.clone(), cfg.hi.clone());
        let p = metaopt::bh::Polish {
            steps: a
                .polish_steps
                .unwrap_or(metaopt::bh::Polish::for_dims(dims as usize).steps),
            double: cfg.options.double,
            ..metaopt::bh::Polish::for_dims(dims as usize)
        };
        let stop = Stop {
            time_limit: crate::time_left(time_limit),
            token: Some(crate::stop_token()),
            ..Stop::default()
        };
        let pb = metaopt::bh::polish(
            &objective,
            cons.as_ref(),
            (&lo, &hi),
            &r.x,
            &p,
            backend,
            &stop,
        )
        .map_err(|e| flag_error("--polish", e))?;
        if pb.improved {
            (r.value, r.violation) = (pb.value, pb.violation);
            r.x.clone_from(&pb.x);
        }
        r.evaluations += pb.evaluations;
        Some(pb)
    } else {
        None
    };
    r.value = out::rounded(r.value, fsingle);
    if single {
        // the points are the device's floats too
        for x in &mut r.x {
            *x = out::rounded(*x, true);
        }
    }

    let cfg = de.config();
    let fitness_precision = if cfg.fitness_double() {
        Precision::Double
    } else {
        Precision::Single
    };
    let (island_f, island_cr) = (cfg.f[r.island as usize], cfg.cr[r.island as usize]);
    if let Some(path) = &a.csv {
        write_history_csv(path, &r.history)?;
    }
    if let Some(path) = &a.plot {
        let title = format!(
            "{name}, D = {}: {} islands x {} members, {}, {}",
            dims, a.islands, a.members, mutation, a.bounds
        );
        write_history_plot(path, &title, &r.history)?;
    }
    let minimum = info.and_then(|i| i.minimum(dims as usize)).map(|m| m.value);
    if a.json.json {
        return out::print_json(&DeJson {
            objective: name,
            dims,
            islands: a.islands,
            members: a.members,
            lower: cfg.lo.clone(),
            upper: cfg.hi.clone(),
            mutation: mutation.name(),
            bounds: cfg.kinds.iter().map(|k| k.name()).collect(),
            migration: kind.name(),
            period: a.period,
            f_mode,
            f_min: a.f_min,
            f_max: a.f_max,
            cr: cfg.cr.clone(),
            selection: cfg.options.selection,
            algorithm: cfg.options.algorithm,
            lshade_budget: cfg.options.lshade_budget,
            seeds,
            precision,
            fitness_precision,
            backend: a.backend.name(),
            device,
            value: r.value,
            x: &r.x,
            island: r.island,
            island_f,
            island_cr,
            island_bests: island_bests
                .iter()
                .map(|&v| out::rounded(v, fsingle))
                .collect(),
            generations: r.generations,
            evaluations: r.evaluations,
            seconds: r.seconds,
            stopped_by: r.stopped_by.word(),
            minimum,
            error: minimum.map(|m| r.value - m),
            polish: polished.as_ref().map(|p| PolishJson {
                start_value: p.start_value,
                start_violation: p.start_violation,
                improved: p.improved,
                evaluations: p.evaluations,
                seconds: p.seconds,
                stopped_by: p.stopped_by.word(),
            }),
            constraints: cons.as_ref().map(|c| ConstraintsJson {
                inequalities: c.inequalities,
                equalities: c.equalities,
                eq_tol: c.eq_tol,
                handling: c.handling,
                repair: c.repair,
                violation: r.violation,
                feasible: r.violation == 0.0,
            }),
        });
    }
    let mut t = match &limits {
        Some(_) => format!("objective    {name} ({dims} dimensions, a box per variable)\n"),
        None => format!(
            "objective    {name} ({} dimensions, [{}, {}])\n",
            dims,
            out::float(lo),
            out::float(hi)
        ),
    };
    if let Some(c) = &cons {
        t += &format!(
            "constraints  {} inequalities, {} equalities (tolerance {:e}), {}\n",
            c.inequalities,
            c.equalities,
            c.eq_tol,
            match c.handling {
                Handling::Deb => "Deb's feasibility rules".to_string(),
                Handling::Epsilon { theta, tc, cp } =>
                    format!("epsilon level (theta {theta}, tc {tc}, cp {cp})"),
            }
        );
        if let Some(r) = c.repair {
            t += &format!(
                "repair       gradient-based, probability {}, at most {} steps\n",
                r.probability, r.rounds
            );
        }
    }
    t += &format!("device       {device}\n");
    if fitness_precision == precision {
        t += &format!("precision    {precision}\n");
    } else {
        t += &format!("precision    {precision} (fitness {fitness_precision})\n");
    }
    t += &format!(
        "solver       island DE, {} islands x {} members, {}, bounds {}, migration {}{}\n",
        a.islands,
        a.members,
        mutation,
        a.bounds,
        kind,
        if kind == MigrationKind::None {
            String::new()
        } else {
            format!(" every {} generations", a.period)
        }
    );
    if cfg.options.algorithm == Algorithm::Jde100 {
        let o = &cfg.options;
        t += &format!(
            "algorithm    jde100 (big population {} + small {} per island, self-adaptive F and CR per member, DE/rand/1/bin, restarts at eps {:e}{})\n",
            cfg.nm - o.jde_small,
            o.jde_small,
            o.jde_eps,
            if o.jde_age > 0 { format!(" or age {}", o.jde_age) } else { String::new() }
        );
    } else if cfg.options.algorithm.adaptive() {
        t += &format!(
            "algorithm    {}{} (adaptive F and CR, current-to-pbest/1 with an archive)\n",
            cfg.options.algorithm,
            if cfg.options.algorithm.reduces() {
                format!(
                    ", budget {} evaluations per island",
                    cfg.options.lshade_budget
                )
            } else {
                String::new()
            }
        );
    }
    t += &format!(
        "parameters   F {} {}{}, CR {}, seeds {}, selection {}\n",
        f_mode.name(),
        out::float(a.f_min),
        if f_mode != FMode::Const {
            format!("..{}", out::float(a.f_max))
        } else {
            String::new()
        },
        a.cr.cr,
        seeds.map(|s| s.to_string()).join(","),
        a.selection
            .parse::<Selection>()
            .map_or("ties", |s| s.name()),
    );
    t += &format!("best value   {}\n", out::value(r.value, fsingle));
    if cons.is_some() {
        t += &format!(
            "violation    {}{}\n",
            r.violation,
            if r.violation == 0.0 {
                " (feasible)"
            } else {
                " (no feasible point found: the least violation)"
            }
        );
    }
    if let Some(m) = minimum {
        t += &format!(
            "minimum      {} (error {})\n",
            out::float(m),
            out::value(r.value - m, fsingle)
        );
    }
    let show = |v: &[f64]| {
        v.iter()
            .map(|&x| out::value(x, single))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if let Some(p) = &polished {
        t += &format!(
            "polish       {} from {} ({} evaluations, {:.3} s, stopped by {})\n",
            if p.improved {
                "improved"
            } else {
                "kept the point"
            },
            out::value(out::rounded(p.start_value, fsingle), fsingle),
            out::thousands(p.evaluations),
            p.seconds,
            p.stopped_by.word()
        );
    }
    t += &format!("at           {}\n", show(&r.x));
    t += &format!(
        "island       {} (F {}, CR {})\n",
        r.island,
        out::float(island_f),
        out::float(island_cr)
    );
    t += &format!(
        "generations  {}\nevaluations  {}\ntime         {:.3} s\nstopped by   {}\n",
        r.generations,
        out::thousands(r.evaluations),
        r.seconds,
        r.stopped_by.word()
    );
    if let Some(p) = &a.csv {
        t += &format!(
            "history      {} ({} records)\n",
            p.display(),
            r.history.len()
        );
    }
    if let Some(p) = &a.plot {
        t += &format!("plot         {}\n", p.display());
    }
    out::print(&t)
}
