//! `metaopt bench constrained`: the island DE on the CEC 2006 constrained set
//! (`metaopt::problem::cec2006`, G01..G24) under the competition's rules: R independent runs
//! per problem (25), each with a budget of objective evaluations (500,000, the initial
//! population included), a run succeeding when it holds a feasible point whose value is within
//! 1e-4 of the best known (f(x) - f(x*) <= 1e-4, absolute, as the report's criterion). A run
//! stops at its budget or as soon as such a point exists (`Stop::target` with constraints asks
//! for a feasible value). Per problem one CSV row: the feasible and successful runs, the best,
//! median and worst value of the feasible runs, and the median evaluations and seconds to
//! success.
//!
//! The solver: the fixed DE (`Algorithm::De`, the only one that takes constraints), DE/rand/1
//! with binomial crossover CR 0.9 and F spread over the islands from 0.5 to 0.9 (`--CR`,
//! `--F-min`, `--F-max`), saturation at
//! the bounds, `--islands` x `--members` (4 x 40 by default; one run is one such archipelago),
//! PermuteN migration every 20 generations, in double; constraints compared by Deb's
//! feasibility rules (`--handling deb`) or the epsilon level (`--handling epsilon`, with
//! `--epsilon-theta`, `--epsilon-tc`, `--epsilon-cp`, by default epsilon-DE's published
//! settings, `Handling::EPSILON_DEFAULT`). Run r draws from seeds S + 4r .. S + 4r + 3.
//!
//! The final point of each run is evaluated again by the host reference
//! (`cec2006::eval`, f64): it is feasible when the report's mean violation is 0 (equalities
//! within 1e-4), and its value is that value. G20 has no known feasible point (its best known
//! point is infeasible): its row says so in `best_known_feasible`, and its runs are reported,
//! not counted against the solver. A run's seconds are the wall time of its set-up (the initial
//! population; a problem's first run also builds its program) and its generations.

use crate::args::{parse_mutation, parse_seconds, BackendArgs, CsvArg};
use crate::cmd::de::de_error;
use crate::out::{self, csv_error, CliResult, Failure};
use clap::{Args, ValueEnum};
use metaopt::de::constraints::{self, Handling};
use metaopt::de::{
    Algorithm, BoundsCorrection, DeMultiPop, DeParams, FMode, Migration, MigrationKind,
};
use metaopt::problem::cec2006;
use metaopt::run::{Stop, StopReason};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The report's success criterion: f(x) - f(x*) at most this, at a feasible x.
pub const SUCCESS_ERROR: f64 = 1e-4;

/// F of the islands, spread linearly from the first to the last island (the defaults of
/// `--F-min` and `--F-max`).
const F_MIN: f64 = 0.5;
const F_MAX: f64 = 0.9;
/// CR of every island (the default of `--CR`).
const CR: f64 = 0.9;
/// Generations between two migrations.
const MIGRATION_PERIOD: u32 = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HandlingArg {
    /// Deb's feasibility rules: feasible beats infeasible, then value, then violation
    Deb,
    /// The epsilon level of epsilon-DE (Takahama and Sakai), falling to 0 by generation tc
    Epsilon,
}

/// epsilon-DE's published settings (theta, tc, cp): the defaults of the `--epsilon-*` flags.
fn epsilon_default() -> (f64, u64, f64) {
    match Handling::EPSILON_DEFAULT {
        Handling::Epsilon { theta, tc, cp } => (theta, tc, cp),
        Handling::Deb => unreachable!("EPSILON_DEFAULT is an epsilon level"),
    }
}

#[derive(Args)]
pub struct BenchConstrainedArgs {
    /// Problems, comma-separated (G01..G24; "g6" and "6" name G06) [default: all 24]
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    problems: Vec<String>,
    /// Independent runs per problem (the competition's 25)
    #[arg(long, default_value_t = 25, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Objective evaluations per run, the initial population included (the competition's
    /// 500,000)
    #[arg(long, default_value_t = 500_000, value_name = "N")]
    evaluations: u64,
    /// Constraint handling
    #[arg(long, value_enum, default_value = "deb", value_name = "RULE")]
    handling: HandlingArg,
    /// --handling epsilon: the initial level is the violation of the initial population's
    /// member at this quantile, in (0, 1]
    #[arg(long, default_value_t = epsilon_default().0, value_name = "Q")]
    epsilon_theta: f64,
    /// --handling epsilon: the generation at which the level reaches 0
    #[arg(long, default_value_t = epsilon_default().1, value_name = "G")]
    epsilon_tc: u64,
    /// --handling epsilon: the exponent of the level's fall, (1 - t / tc)^cp
    #[arg(long, default_value_t = epsilon_default().2, value_name = "CP")]
    epsilon_cp: f64,
    #[command(flatten)]
    repair: crate::args::RepairArgs,
    /// Islands of one run
    #[arg(long, default_value_t = 4, value_name = "NP")]
    islands: u32,
    /// Members of each island
    #[arg(long, default_value_t = 40, value_name = "NM")]
    members: u32,
    /// Mutation strategy (the fixed DE's)
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// F of the first island (the fixed DE's F is spread linearly from it to --f-max over the
    /// islands; one island takes this one)
    #[arg(long = "F-min", default_value_t = F_MIN, value_name = "F")]
    f_min: f64,
    /// F of the last island
    #[arg(long = "F-max", default_value_t = F_MAX, value_name = "F")]
    f_max: f64,
    /// CR of every island
    #[arg(long = "CR", default_value_t = CR, value_name = "CR")]
    cr: f64,
    /// The DE algorithm: de (F spread over the islands, CR fixed), or an adaptive variant,
    /// jade, shade, lshade, jso (L-SHADE and jSO shrink each island over its share of the
    /// evaluations, without migration)
    #[arg(long, default_value = "de", value_name = "NAME")]
    algorithm: String,
    /// Seeds: run r draws from S + 4r .. S + 4r + 3 (initialisation, mutation, crossover,
    /// migration)
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Stop a run after this many seconds even when its budget is not spent (its row then
    /// counts it as it stands)
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_limit: Option<f64>,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    csv: CsvArg,
}

/// One run's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// The host's value and mean violation of the run's final point.
    pub value: f64,
    pub violation: f64,
    /// Evaluations and seconds of the run (to success when it succeeded: the run stops there).
    pub evaluations: u64,
    pub seconds: f64,
    pub stopped_by: StopReason,
}

impl RunOutcome {
    pub fn feasible(&self) -> bool {
        self.violation == 0.0
    }

    /// Feasible, and within [`SUCCESS_ERROR`] of `best`.
    pub fn success(&self, best: f64) -> bool {
        self.feasible() && self.value - best <= SUCCESS_ERROR
    }
}

/// One problem's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProblemRow {
    pub problem: String,
    pub dims: usize,
    pub ng: usize,
    pub nh: usize,
    pub best_known: f64,
    /// False for G20: no feasible point is known.
    pub best_known_feasible: bool,
    pub runs: u32,
    /// Evaluations per run (the budget).
    pub evaluations: u64,
    pub feasible_runs: u32,
    pub successful_runs: u32,
    /// Best, median and worst final value of the feasible runs (empty when none was feasible).
    pub best_value: Option<f64>,
    pub median_value: Option<f64>,
    pub worst_value: Option<f64>,
    /// Medians over the successful runs (empty when none succeeded).
    pub median_evaluations_to_success: Option<f64>,
    pub median_seconds_to_success: Option<f64>,
    /// Mean wall time and evaluations of a run.
    pub mean_seconds: f64,
    pub mean_evaluations: f64,
    pub handling: String,
    /// de, jade, shade, lshade or jso.
    pub algorithm: String,
    pub islands: u32,
    pub members: u32,
    pub backend: String,
}

/// The median of `v` (None for none).
fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(out::quantile(&v, 0.5))
}

/// The row of problem `p` from its runs.
pub fn problem_row(
    p: &cec2006::Cec06Info,
    runs: &[RunOutcome],
    evaluations: u64,
    solver: (&str, u32, u32, &str),
) -> ProblemRow {
    let (handling, islands, members, backend) = solver;
    let feasible: Vec<f64> = runs
        .iter()
        .filter(|r| r.feasible())
        .map(|r| r.value)
        .collect();
    let won: Vec<&RunOutcome> = runs.iter().filter(|r| r.success(p.best)).collect();
    let (best, worst) = (
        feasible.iter().copied().min_by(f64::total_cmp),
        feasible.iter().copied().max_by(f64::total_cmp),
    );
    ProblemRow {
        problem: p.name.to_string(),
        dims: p.dims,
        ng: p.ng,
        nh: p.nh,
        best_known: p.best,
        best_known_feasible: p.best_feasible,
        runs: runs.len() as u32,
        evaluations,
        feasible_runs: feasible.len() as u32,
        successful_runs: won.len() as u32,
        best_value: best,
        median_value: median(feasible.clone()),
        worst_value: worst,
        median_evaluations_to_success: median(won.iter().map(|r| r.evaluations as f64).collect()),
        median_seconds_to_success: median(won.iter().map(|r| r.seconds).collect()),
        mean_seconds: runs.iter().map(|r| r.seconds).sum::<f64>() / runs.len().max(1) as f64,
        mean_evaluations: runs.iter().map(|r| r.evaluations as f64).sum::<f64>()
            / runs.len().max(1) as f64,
        handling: handling.to_string(),
        algorithm: String::new(),
        islands,
        members,
        backend: backend.to_string(),
    }
}

pub fn run(a: &BenchConstrainedArgs) -> CliResult {
    let mutation = parse_mutation(&a.mutation)?;
    let handling = match a.handling {
        HandlingArg::Deb => Handling::Deb,
        HandlingArg::Epsilon => Handling::Epsilon {
            theta: a.epsilon_theta,
            tc: a.epsilon_tc,
            cp: a.epsilon_cp,
        },
    };
    handling
        .check()
        .map_err(|e| out::flag_error("--epsilon-theta/--epsilon-tc/--epsilon-cp", e))?;
    let problems: Vec<cec2006::Cec06Info> = if a.problems.is_empty() {
        cec2006::all()
    } else {
        a.problems
            .iter()
            .map(|s| cec2006::info(s.as_str()).map_err(|e| out::flag_error("--problems", e)))
            .collect::<CliResult<_>>()?
    };
    let initial = a.islands as u64 * a.members as u64;
    if a.evaluations <= initial {
        return Err(Failure(format!(
            "--evaluations: {} is not more than the initial population of {} x {} members",
            a.evaluations, a.islands, a.members
        )));
    }
    let backend = a.backend.backend()?;
    let backend_name = backend.describe();
    let handling_name = match handling {
        Handling::Deb => "deb".to_string(),
        Handling::Epsilon { theta, tc, cp } => format!("epsilon(theta={theta};tc={tc};cp={cp})"),
    };
    eprintln!(
        "{} runs of {} evaluations per problem, {} x {} members, {}, {handling_name}, {backend_name}",
        a.runs, a.evaluations, a.islands, a.members, a.algorithm
    );
    eprintln!(
        "{:<4} {:>8} {:>7} {:>16} {:>16} {:>12} {:>9}",
        "", "feasible", "success", "best", "median", "evals (med)", "s (med)"
    );
    let bar = out::count_bar(
        problems.len() as u64 * a.runs as u64,
        "{pos}/{len} runs  {elapsed}  {msg}",
    );
    let mut w = csv::Writer::from_writer(Vec::new());
    for p in &problems {
        let mut runs = Vec::with_capacity(a.runs as usize);
        for r in 0..a.runs {
            bar.set_message(format!("{} run {}", p.name, r + 1));
            let outcome = one_run(a, p, handling, mutation, r, backend)?;
            if outcome.stopped_by == StopReason::Interrupted {
                bar.finish_and_clear();
                return Err(Failure(format!(
                    "interrupted during {} run {}",
                    p.name,
                    r + 1
                )));
            }
            runs.push(outcome);
            bar.inc(1);
        }
        let row = ProblemRow {
            algorithm: a.algorithm.to_ascii_lowercase(),
            ..problem_row(
                p,
                &runs,
                a.evaluations,
                (&handling_name, a.islands, a.members, &backend_name),
            )
        };
        let shown = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.10}"));
        let line = format!(
            "{:<4} {:>5}/{:<2} {:>4}/{:<2} {:>16} {:>16} {:>12} {:>9}",
            row.problem,
            row.feasible_runs,
            row.runs,
            row.successful_runs,
            row.runs,
            shown(row.best_value),
            shown(row.median_value),
            row.median_evaluations_to_success
                .map_or("-".to_string(), |v| format!("{v:.0}")),
            row.median_seconds_to_success
                .map_or("-".to_string(), |v| format!("{v:.2}")),
        );
        // a hidden bar (stderr not a terminal) prints nothing
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
        w.serialize(row).map_err(csv_error)?;
    }
    bar.finish_and_clear();
    out::finish_csv(w, a.csv.path())
}

/// Run `r` of problem `p`: a fresh solver, its initial population, generations to the budget or
/// the target; the final point evaluated by the host reference.
fn one_run(
    a: &BenchConstrainedArgs,
    p: &cec2006::Cec06Info,
    handling: Handling,
    mutation: metaopt::de::Mutation,
    r: u32,
    backend: metaopt::de::Backend,
) -> CliResult<RunOutcome> {
    let t = Instant::now();
    let (objective, bounds, mut c) = constraints::cec2006(p.name)?;
    c.handling = handling;
    c.repair = a.repair.repair();
    let mut params = DeParams::new(
        a.islands,
        a.members,
        p.dims as u32,
        0.0,
        1.0,
        BoundsCorrection::Saturation,
    );
    params.limits = bounds;
    let algorithm: Algorithm = a
        .algorithm
        .parse()
        .map_err(|e| Failure(format!("--algorithm: {e}")))?;
    let o = &mut params.options;
    o.algorithm = algorithm;
    if algorithm.reduces() {
        // each island's share of the budget
        o.lshade_budget = a.evaluations / a.islands.max(1) as u64;
    }
    o.double = true;
    o.precision = metaopt::Precision::Double;
    o.f_mode = FMode::Linspace;
    o.f_min = a.f_min;
    o.f_max = a.f_max;
    o.cr = vec![a.cr];
    let seed = a.seed.wrapping_add(4 * r as u64);
    o.init_seed = seed;
    o.mutation_seed = seed.wrapping_add(1);
    o.crossover_seed = seed.wrapping_add(2);
    o.migration_seed = seed.wrapping_add(3);
    let migration = if a.islands > 1 && !algorithm.reduces() {
        Migration::new(MigrationKind::PermuteN, MIGRATION_PERIOD)
    } else {
        Migration::new(MigrationKind::None, 1)
    };
    let mut de = DeMultiPop::new(&params, backend).map_err(de_error)?;
    de.set_constraints(Some(c)).map_err(de_error)?;
    de.init(&objective, mutation, migration).map_err(de_error)?;
    let spent = de.evaluations();
    let time_limit = a.time_limit.map(|s| {
        Duration::from_secs_f64(s)
            .saturating_sub(t.elapsed())
            .max(Duration::from_nanos(1))
    });
    let stop = Stop {
        evaluations: Some(a.evaluations.saturating_sub(spent)),
        target: Some(p.best + SUCCESS_ERROR),
        time_limit,
        token: Some(crate::stop_token()),
        ..Stop::default()
    };
    let res = de.run(&stop).map_err(de_error)?;
    let seconds = t.elapsed().as_secs_f64();
    let (value, c) = cec2006::eval(p.id, &res.x)?;
    Ok(RunOutcome {
        value,
        violation: cec2006::violation(p, &c),
        evaluations: res.evaluations,
        seconds,
        stopped_by: res.stopped_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(value: f64, violation: f64, evaluations: u64) -> RunOutcome {
        RunOutcome {
            value,
            violation,
            evaluations,
            seconds: evaluations as f64 / 1000.0,
            stopped_by: StopReason::Evaluations,
        }
    }

    #[test]
    fn rows_count_feasible_and_successful_runs() {
        let p = cec2006::info("G06").unwrap();
        let best = p.best;
        let runs = [
            outcome(best + 5e-5, 0.0, 1000),
            outcome(best - 1.0, 1e-3, 2000),
            outcome(best + 2e-4, 0.0, 3000),
            outcome(best, 0.0, 5000),
        ];
        let row = problem_row(&p, &runs, 9000, ("deb", 4, 40, "cpu"));
        assert_eq!((row.feasible_runs, row.successful_runs), (3, 2));
        assert_eq!(row.best_value, Some(best));
        assert_eq!(row.worst_value, Some(best + 2e-4));
        assert_eq!(row.median_value, Some(best + 5e-5));
        assert_eq!(row.median_evaluations_to_success, Some(3000.0));
        assert_eq!(row.median_seconds_to_success, Some(3.0));
        assert!((row.mean_seconds - 2.75).abs() < 1e-12);
        assert_eq!(row.mean_evaluations, 2750.0);
        // no feasible run: empty statistics
        let row = problem_row(&p, &runs[1..2], 9000, ("deb", 4, 40, "cpu"));
        assert_eq!((row.feasible_runs, row.successful_runs), (0, 0));
        assert_eq!(
            (row.best_value, row.median_evaluations_to_success),
            (None, None)
        );
    }
}
