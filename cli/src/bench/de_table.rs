//! `metaopt bench de-table`: a CEC-style results table of the island DE's algorithms (the fixed
//! DE and the self-adapting variants) on the 100-Digit Challenge functions: for each function
//! and algorithm, R independent runs with the same evaluation budget each, and the mean, standard
//! deviation, median, best and worst of the final error, with the correct digits of the optimum
//! as the challenge counts them.
//!
//! Method: the R runs are R islands of one solver with no migration. Every island draws its own
//! random numbers (the draws are keyed by the island), and an adaptive variant keeps its memories,
//! archive and population size per island, so the islands are independent runs of the algorithm
//! executed side by side; the fixed DE gets one F and one CR for every island (`--F`, `--CR`) so
//! that all runs are the same algorithm. Each run has `--evaluations` evaluations, its initial
//! population included (the CEC rules' MaxFES); L-SHADE and jSO shrink their populations over
//! exactly that budget. No target stops a run early; errors below 1e-8 count as 0, as the CEC
//! rules say.

use crate::args::{parse_bounds, parse_mutation, parse_seconds, BackendArgs, CsvArg};
use crate::cmd::de::de_error;
use crate::experiment::de_stats::correct_digits;
use crate::out::{self, csv_error, flag_error, CliResult, Failure};
use clap::Args;
use metaopt::de::{Algorithm, DeMultiPop, DeParams, FMode, Migration, MigrationKind, Selection};
use metaopt::objective::Objective;
use metaopt::run::Stop;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Errors below this count as 0 (CEC's rule).
const ZERO_ERROR: f64 = 1e-8;

/// The algorithms `--algorithms` names by default: every one.
const ALGORITHMS: &str = "de,jade,shade,lshade,jso,jde100";

#[derive(Args)]
pub struct BenchDeTableArgs {
    #[command(flatten)]
    functions: crate::args::KnownMinimaArg,
    /// Algorithms, comma-separated: de (fixed --F and --CR), jade, shade, lshade, jso, jde100
    /// (its big population --members less the small one of 25)
    #[arg(long, value_delimiter = ',', default_value = ALGORITHMS, value_name = "NAMES")]
    algorithms: Vec<String>,
    /// Dimensions
    #[arg(long, default_value_t = 10, value_name = "D")]
    dims: u32,
    /// Independent runs per function and algorithm (run side by side as islands)
    #[arg(long, default_value_t = 25, value_name = "R", value_parser = clap::value_parser!(u32).range(2..))]
    runs: u32,
    /// Members of every run's population (its initial size for L-SHADE and jSO)
    #[arg(long, default_value_t = 100, value_name = "NM")]
    members: u32,
    /// Evaluations per run, the initial population included [default: 10000 x D, CEC's MaxFES]
    #[arg(long, value_name = "N")]
    evaluations: Option<u64>,
    /// Stop a function's runs after this many seconds even when the budget is not spent (the
    /// table then says `time_limit` in `stopped_by`)
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_limit: Option<f64>,
    /// F of the fixed DE (every run)
    #[arg(long = "F", visible_alias = "f", default_value_t = 0.5, value_name = "F")]
    f: f64,
    /// CR of the fixed DE (every run)
    #[arg(long = "CR", visible_alias = "cr", default_value_t = 0.9, value_name = "CR")]
    cr: f64,
    /// Mutation strategy of the fixed DE
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Bound correction (the papers of the adaptive variants use HVB, the midpoint of the target
    /// and the violated bound)
    #[arg(long, default_value = "HVB", value_name = "NAME")]
    bounds: String,
    /// Seeds S..S+3 of the runs (initialisation, mutation, crossover, migration)
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Single precision on the device (the errors need double; for comparison only)
    #[arg(long)]
    float: bool,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    csv: CsvArg,
}

/// The statistics of one function and algorithm over its runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    pub function: String,
    pub algorithm: String,
    pub dims: u32,
    pub runs: u32,
    pub members: u32,
    pub evaluations_per_run: u64,
    pub mean_error: f64,
    pub std_error: f64,
    pub median_error: f64,
    pub best_error: f64,
    pub worst_error: f64,
    /// Correct digits of the optimum, the mean over all runs and over the better half (the
    /// challenge scores the best 25 of 50 runs).
    pub mean_digits: f64,
    pub best_half_digits: f64,
    /// Runs whose error is 0 (below 1e-8).
    pub solved: u32,
    pub seconds: f64,
    pub stopped_by: String,
}

/// Mean, sample standard deviation, median, best and worst of `errors`, the mean correct digits
/// over all of them and over the better half (`digits` per run, as the challenge counts them),
/// and how many are 0. Errors below 1e-8 count as 0.
pub fn error_stats(errors: &[f64], digits: &[u32]) -> (f64, f64, f64, f64, f64, f64, f64, u32) {
    let mut e: Vec<f64> = errors
        .iter()
        .map(|&v| if v < ZERO_ERROR { 0.0 } else { v })
        .collect();
    e.sort_by(f64::total_cmp);
    let n = e.len() as f64;
    let mean = e.iter().sum::<f64>() / n;
    let std = if e.len() > 1 {
        (e.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let median = if e.len() % 2 == 1 {
        e[e.len() / 2]
    } else {
        0.5 * (e[e.len() / 2 - 1] + e[e.len() / 2])
    };
    let mut d: Vec<u32> = digits.to_vec();
    d.sort_unstable_by(|a, b| b.cmp(a));
    let half = d.len().div_ceil(2).max(1);
    let mean_digits = d.iter().sum::<u32>() as f64 / d.len().max(1) as f64;
    let best_half = d[..half.min(d.len())].iter().sum::<u32>() as f64 / half as f64;
    let solved = e.iter().filter(|&&v| v == 0.0).count() as u32;
    (
        mean,
        std,
        median,
        e[0],
        e[e.len() - 1],
        mean_digits,
        best_half,
        solved,
    )
}

pub fn table(a: &BenchDeTableArgs) -> CliResult {
    let mutation = parse_mutation(&a.mutation)?;
    let bounds = parse_bounds(&a.bounds)?;
    if bounds.len() != 1 {
        return Err("--bounds: give one bound correction".into());
    }
    if !(a.f > 0.0 && a.f <= 2.0) {
        return Err(Failure(format!("--F: {}; expected 0 < F <= 2", a.f)));
    }
    if !(0.0..=1.0).contains(&a.cr) {
        return Err(Failure(format!("--CR: {}; expected 0 <= CR <= 1", a.cr)));
    }
    if a.members < 6 {
        return Err(Failure(format!(
            "--members: {}; the variants need at least 6",
            a.members
        )));
    }
    let mut algorithms = Vec::new();
    for s in &a.algorithms {
        let alg: Algorithm = s.parse().map_err(|e| flag_error("--algorithms", e))?;
        algorithms.push(alg);
    }
    let budget = a.evaluations.unwrap_or(10_000 * a.dims as u64);
    if budget <= a.members as u64 {
        return Err(Failure(format!(
            "--evaluations: {budget} is not more than the initial population of {} members",
            a.members
        )));
    }
    let functions = a.functions.resolve(a.dims)?;
    let backend = a.backend.backend()?;
    let mut w = csv::Writer::from_writer(Vec::new());
    eprintln!(
        "{:<8} {:<7} {:>12} {:>12} {:>12} {:>7} {:>9} {:>7} {:>8}",
        "function",
        "alg",
        "mean error",
        "std",
        "median",
        "digits",
        "best half",
        "solved",
        "seconds"
    );
    for &alg in &algorithms {
        for (info, optimum) in &functions {
            let (lo, hi) = info.domain;
            let mut p = DeParams::new(a.runs, a.members, a.dims, lo, hi, bounds[0]);
            let o = &mut p.options;
            o.f_mode = FMode::Const;
            o.f_min = a.f;
            o.f_max = a.f;
            o.cr = vec![a.cr];
            o.init_seed = a.seed;
            o.mutation_seed = a.seed + 1;
            o.crossover_seed = a.seed + 2;
            o.migration_seed = a.seed + 3;
            o.double = !a.float;
            o.precision = if a.float {
                metaopt::Precision::Single
            } else {
                metaopt::Precision::Double
            };
            o.selection = Selection::Ties;
            o.algorithm = alg;
            o.lshade_budget = if alg.reduces() { budget } else { 0 };
            let objective = Objective::catalogue(info.name)?;
            let mut de = DeMultiPop::new(&p, backend).map_err(de_error)?;
            de.init(&objective, mutation, Migration::new(MigrationKind::None, 1))
                .map_err(de_error)?;
            let t = Instant::now();
            // the budget after the initial populations, of all runs together: the runs take the
            // same generations (the shrinking ones shrink alike), so each spends its share
            let stop = Stop {
                evaluations: Some((budget - a.members as u64) * a.runs as u64),
                time_limit: a.time_limit.map(Duration::from_secs_f64),
                token: Some(crate::stop_token()),
                ..Stop::default()
            };
            let r = de.run(&stop).map_err(de_error)?;
            let seconds = t.elapsed().as_secs_f64();
            let bests = de.bests_fitness().map_err(de_error)?;
            let errors: Vec<f64> = bests.iter().map(|v| v - optimum).collect();
            let digits: Vec<u32> = bests.iter().map(|&v| correct_digits(v, *optimum)).collect();
            let (mean, std, median, best, worst, mean_digits, best_half, solved) =
                error_stats(&errors, &digits);
            let row = TableRow {
                function: info.name.to_string(),
                algorithm: alg.to_string(),
                dims: a.dims,
                runs: a.runs,
                members: a.members,
                evaluations_per_run: r.evaluations / a.runs as u64,
                mean_error: mean,
                std_error: std,
                median_error: median,
                best_error: best,
                worst_error: worst,
                mean_digits,
                best_half_digits: best_half,
                solved,
                seconds,
                stopped_by: r.stopped_by.word().to_string(),
            };
            eprintln!(
                "{:<8} {:<7} {:>12.4e} {:>12.4e} {:>12.4e} {:>7.2} {:>9.2} {:>7} {:>8.2}",
                row.function,
                row.algorithm,
                mean,
                std,
                median,
                mean_digits,
                best_half,
                solved,
                seconds
            );
            w.serialize(row).map_err(csv_error)?;
        }
    }
    out::finish_csv(w, a.csv.path())
}

#[cfg(test)]
mod tests {
    use super::error_stats;

    #[test]
    fn stats_follow_the_cec_rules() {
        // 1e-9 counts as 0; sample standard deviation; median of an even count
        let (mean, std, median, best, worst, md, half, solved) =
            error_stats(&[1e-9, 2.0, 4.0, 6.0], &[10, 1, 0, 0]);
        assert_eq!((best, worst, median, solved), (0.0, 6.0, 3.0, 1));
        assert!((mean - 3.0).abs() < 1e-15);
        assert!((std - (20.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!((md - 2.75).abs() < 1e-15);
        assert!((half - 5.5).abs() < 1e-15);
    }
}
