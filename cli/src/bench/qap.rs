//! `metaopt bench qap`: rows of the qapswap2 neighbourhood evaluated per second by the device's
//! full and delta kernels and the CPU backend, side by side in one run (thesis 6.2: tho150 with
//! 15 swaps, 28,921 rows). The CPU backend runs twice: on rayon's global pool (every core) and
//! in a rayon pool of one thread, the single-thread baseline of the thesis's `Normal` variant;
//! the CSV gives every evaluator's speedup over both.
//!
//! Method: one state (a seeded random permutation, zero string); per evaluator one warm-up call
//! of `best_row` (buffers, first launch), then `best_row` again and again for a fixed number of
//! iterations or seconds, timed by the wall clock. Every call must return the same best row and
//! cost: the data are integers, so the evaluators agree exactly or one of them is wrong.

use crate::args::{CsvArg, DeviceArg, TimedCallsArgs};
use crate::out::timed;
use crate::out::{self, csv_error, CliResult, Failure};
use clap::{Args, ValueEnum};
use metaopt::hc12::qap::{Backend, CostForm, IterState, QapHc12};
use metaopt::problem::qap::QapInstance;
use metaopt::problem::qap::{Cost, QapProblem};
use metaopt::rng::Philox;
use std::path::PathBuf;
use std::sync::Arc;

/// The instance of the thesis's benchmark, relative to the working directory.
const DEFAULT_INSTANCE: &str = "data/qaplib/tho150.dat";

/// The evaluators `--evaluators` times by default: every one.
const EVALUATORS: &str = "device-full,device-delta,cpu-delta,cpu-full,cpu1-delta,cpu1-full";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Which {
    /// The device kernel that sums the whole O(n^2) cost per row (the thesis's)
    DeviceFull,
    /// The device kernel that updates the cost in O(n) per changed position
    DeviceDelta,
    /// The rayon CPU backend, delta form (the solver's CPU default)
    CpuDelta,
    /// The rayon CPU backend, full form
    CpuFull,
    /// The CPU backend in a rayon pool of one thread, delta form
    Cpu1Delta,
    /// The CPU backend in a rayon pool of one thread, full form (the thesis's `Normal`)
    Cpu1Full,
}

impl Which {
    fn name(self) -> &'static str {
        match self {
            Which::DeviceFull => "device-full",
            Which::DeviceDelta => "device-delta",
            Which::CpuDelta => "cpu-delta",
            Which::CpuFull => "cpu-full",
            Which::Cpu1Delta => "cpu1-delta",
            Which::Cpu1Full => "cpu1-full",
        }
    }

    /// Threads of a CPU evaluator (0: the global pool's); `None` on the device.
    fn threads(self) -> Option<usize> {
        match self {
            Which::DeviceFull | Which::DeviceDelta => None,
            Which::CpuDelta | Which::CpuFull => Some(0),
            Which::Cpu1Delta | Which::Cpu1Full => Some(1),
        }
    }
}

/// Seconds of timed calls per evaluator when neither --iterations nor --seconds is given.
const DEFAULT_SECONDS: f64 = 3.0;

#[derive(Args)]
#[command(
    mut_arg("iterations", |a| a.help(TimedCallsArgs::iterations_help("per evaluator", "the warm-up call"))),
    mut_arg("seconds", |a| a.help(TimedCallsArgs::seconds_help("per evaluator", DEFAULT_SECONDS))),
)]
pub struct BenchQapArgs {
    /// QAPLIB instance [default: data/qaplib/tho150.dat]
    #[arg(long, value_name = "PATH")]
    instance: Option<PathBuf>,
    /// Swaps per string (15 on tho150 gives the thesis's 28,921 rows)
    #[arg(long, default_value_t = 15, value_name = "N")]
    swaps: u32,
    /// Mask order of HC12 (1 to 3)
    #[arg(long, default_value_t = 2, value_name = "ORDER")]
    mask_order: u32,
    #[command(flatten)]
    timed: TimedCallsArgs,
    #[command(flatten)]
    device: DeviceArg,
    /// Evaluators to time, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = EVALUATORS)]
    evaluators: Vec<Which>,
    /// Seed of the random permutation the neighbourhood is taken around
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[command(flatten)]
    csv: CsvArg,
}

/// One evaluator's measurement.
struct Measure {
    which: Which,
    device: String,
    /// Threads of a CPU evaluator; `None` on the device.
    threads: Option<usize>,
    iterations: u64,
    seconds: f64,
    best: (Cost, u64),
    /// False when some call returned another best than the warm-up call.
    consistent: bool,
}

/// Warm-up call, then timed calls until `iterations` or `seconds` is reached: (calls, seconds,
/// the warm-up call's best row, whether every timed call returned it).
fn time_evaluator(
    ev: &mut QapHc12,
    st: &IterState,
    iterations: Option<u64>,
    seconds: Option<f64>,
) -> CliResult<(u64, f64, (Cost, u64), bool)> {
    let mut first = None;
    let mut consistent = true;
    let (done, secs) = timed(iterations, seconds, |i| {
        let r = ev.best_row(st)?;
        if i == 0 {
            first = Some(r);
        } else {
            consistent &= Some(r) == first;
        }
        Ok(())
    })?;
    Ok((done, secs, first.expect("the warm-up call ran"), consistent))
}

pub fn run(a: &BenchQapArgs) -> CliResult {
    let path = out::default_file(&a.instance, DEFAULT_INSTANCE, "instance", "--instance PATH")?;
    let inst = QapInstance::from_dat(&path)?;
    a.device.select()?;
    let (iterations, seconds) = a.timed.limits(DEFAULT_SECONDS);
    let mut which: Vec<Which> = Vec::new();
    for &w in &a.evaluators {
        if !which.contains(&w) {
            which.push(w);
        }
    }
    if which.is_empty() {
        return Err("--evaluators: none given".into());
    }
    let problem = Arc::new(QapProblem::from_instance(&inst));
    let make = |backend: Backend, form: CostForm| {
        QapHc12::new(problem.clone(), a.swaps, a.mask_order, 0, 0, backend, form)
            .map_err(|e| out::renamed(e, &[("swaps", "--swaps"), ("maskOrder", "--mask-order")]))
    };
    // a CPU solver first: it checks the arguments and builds the state, without a device
    let reference = make(Backend::Cpu, CostForm::Delta)?;
    let base = Philox::new(a.seed, 0).permutation(inst.n);
    let st = reference.state(&base, &reference.zero_string())?;
    let rows = reference.rows();
    drop(reference);
    let how = match (iterations, seconds) {
        (Some(n), Some(s)) => format!("{n} calls or {s} s"),
        (Some(n), None) => format!("{n} calls"),
        (None, Some(s)) => format!("{s} s"),
        (None, None) => unreachable!("a default is set above"),
    };
    eprintln!(
        "bench qap: {} (n = {}), {} swaps, mask order {}, {} rows, seed {}; per evaluator one warm-up call, then {how} of best_row",
        inst.name,
        inst.n,
        a.swaps,
        a.mask_order,
        out::thousands(rows),
        a.seed
    );

    let mut results: Vec<Measure> = Vec::new();
    for &w in &which {
        let (backend, form) = match w {
            Which::DeviceFull => (Backend::Device(None), CostForm::Full),
            Which::DeviceDelta => (Backend::Device(None), CostForm::Delta),
            Which::CpuDelta => (Backend::Cpu, CostForm::Delta),
            Which::CpuFull | Which::Cpu1Full => (Backend::Cpu, CostForm::Full),
            Which::Cpu1Delta => (Backend::Cpu, CostForm::Delta),
        };
        let mut ev = make(backend, form)?;
        let (iterations, secs, best, consistent, threads) = match w.threads() {
            Some(1) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .map_err(|e| Failure(format!("a rayon pool of one thread: {e}")))?;
                let (i, s, b, c) =
                    pool.install(|| time_evaluator(&mut ev, &st, iterations, seconds))?;
                (i, s, b, c, Some(1))
            }
            Some(_) => {
                let (i, s, b, c) = time_evaluator(&mut ev, &st, iterations, seconds)?;
                (i, s, b, c, Some(rayon::current_num_threads()))
            }
            None => {
                let (i, s, b, c) = time_evaluator(&mut ev, &st, iterations, seconds)?;
                (i, s, b, c, None)
            }
        };
        let m = Measure {
            which: w,
            device: ev.describe(),
            threads,
            iterations,
            seconds: secs,
            best,
            consistent,
        };
        eprintln!(
            "  {:<13} {:>10} rows/s  ({} calls in {:.3} s; best row {}, cost {})",
            w.name(),
            out::rate(rows as f64 * m.iterations as f64 / m.seconds),
            m.iterations,
            m.seconds,
            m.best.1,
            m.best.0
        );
        results.push(m);
    }

    let rps = |m: &Measure| rows as f64 * m.iterations as f64 / m.seconds;
    let cpu_rps = results.iter().find(|m| m.which == Which::CpuDelta).map(rps);
    let one_rps = results
        .iter()
        .find(|m| m.which == Which::Cpu1Delta)
        .map(rps);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "n",
        "swaps",
        "rows",
        "evaluator",
        "device",
        "threads",
        "iterations",
        "seconds",
        "rows_per_second",
        "speedup_vs_cpu",
        "speedup_vs_one_thread",
        "best_row",
        "best_cost",
    ])
    .map_err(csv_error)?;
    for m in &results {
        let r = rps(m);
        w.write_record([
            inst.name.clone(),
            inst.n.to_string(),
            a.swaps.to_string(),
            rows.to_string(),
            m.which.name().to_string(),
            m.device.clone(),
            m.threads.map(|t| t.to_string()).unwrap_or_default(),
            m.iterations.to_string(),
            format!("{:.6}", m.seconds),
            format!("{r:.0}"),
            cpu_rps.map(|c| format!("{:.3}", r / c)).unwrap_or_default(),
            one_rps.map(|c| format!("{:.3}", r / c)).unwrap_or_default(),
            m.best.1.to_string(),
            m.best.0.to_string(),
        ])
        .map_err(csv_error)?;
    }
    out::finish_csv(w, a.csv.path())?;

    let first = results[0].best;
    let inconsistent: Vec<&str> = results
        .iter()
        .filter(|m| !m.consistent)
        .map(|m| m.which.name())
        .collect();
    if !inconsistent.is_empty() {
        return Err(Failure(format!(
            "{} returned different best rows on repeated calls of the same state",
            inconsistent.join(", ")
        )));
    }
    if results.iter().all(|m| m.best == first) {
        eprintln!(
            "check: all {} evaluators returned the same best row {} with cost {} (integer data: exact agreement)",
            results.len(),
            first.1,
            first.0
        );
        Ok(())
    } else {
        let all: Vec<String> = results
            .iter()
            .map(|m| format!("{} row {} cost {}", m.which.name(), m.best.1, m.best.0))
            .collect();
        Err(Failure(format!(
            "the evaluators disagree on the best row: {}",
            all.join("; ")
        )))
    }
}
