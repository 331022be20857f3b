//! `metaopt qiga`: the quantum-inspired genetic algorithm on a 0-1 knapsack, many independent
//! populations at once; the distribution of their final values, a histogram plot.

use crate::args::{DevicesArg, JsonArg, SeedArg, StopArgs};
use crate::convergence::{ConvergenceArgs, Sense};
use crate::out::{self, flag_error, CliResult, Failure};
use crate::plot::{self, Panel, Series};
use clap::Args;
use metaopt::device::Backend;
use metaopt::problem::knapsack::Knapsack;
use metaopt::qiga::{Qiga, QigaOptions, QigaParts, QigaRunResult, Repair, RotationTable};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The QIGA options every QIGA command shares (`qiga`, `bench qiga`).
#[derive(Args, Clone, Debug)]
pub struct QigaArgs {
    /// Quantum individuals per population
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub individuals: usize,
    /// Generations after the initial one
    #[arg(long, default_value_t = 500, value_name = "G", visible_alias = "max-generations")]
    pub generations: u32,
    /// Rotation table: gqa2000 (Han & Kim 2000, the paper's), qea2002, or a table file (lines `x b
    /// better steps s1 s2 s3 s4`, a regular file of at most 1 MiB); several (comma-separated)
    /// make a tuning run, one table per group of populations
    #[arg(long, value_delimiter = ',', default_value = "gqa2000", value_name = "TABLE")]
    pub table: Vec<String>,
    /// The sign of the sources' ±1 cells at the poles: fixed (+1, the authors' code) or random
    #[arg(long, default_value = "fixed", value_parser = ["fixed", "random"])]
    pub pole_signs: String,
    /// Repair order: index (Han & Kim, corrected), random (a random order per repair), greedy
    /// (by profit/weight)
    #[arg(long, default_value = "index", value_parser = ["index", "random", "greedy"])]
    pub repair: String,
    /// OpenCL devices to spread the populations over (comma-separated numbers from `metaopt
    /// devices`, or all)
    #[arg(long, value_name = "N,..|all", conflicts_with = "cpu")]
    pub devices: Option<String>,
    /// Run on the CPU backend (rayon) instead of an OpenCL device
    #[arg(long)]
    pub cpu: bool,
    /// Work-items per population on the device (default: the device kind's tuning)
    #[arg(long, value_name = "N")]
    pub group_size: Option<usize>,
}

/// The most bytes of a `--table` file (a table is a few lines).
const MAX_TABLE_BYTES: u64 = 1 << 20;

impl QigaArgs {
    pub fn tables(&self) -> CliResult<Vec<RotationTable>> {
        let mut v = Vec::new();
        for t in &self.table {
            // a path that exists is a table file (one that is not a regular file is refused)
            let table = if Path::new(t).exists() {
                let text = crate::args::read_flag_text("--table", Path::new(t), MAX_TABLE_BYTES)?;
                RotationTable::parse(&text).map_err(|e| flag_error("--table", e))?
            } else {
                RotationTable::preset(t).map_err(|e| flag_error("--table", e))?
            };
            v.push(if self.pole_signs == "random" {
                table.with_random_pole_signs()
            } else {
                table
            });
        }
        Ok(v)
    }

    /// The options for `populations` populations with `seed`.
    pub fn options(&self, populations: usize, seed: u64) -> CliResult<QigaOptions> {
        Ok(QigaOptions {
            populations,
            individuals: self.individuals,
            stop: metaopt::run::Stop {
                budget: Some(u64::from(self.generations)),
                token: Some(crate::stop_token()),
                ..metaopt::run::Stop::default()
            },
            tables: self.tables()?,
            repair: Repair::parse(&self.repair).map_err(|e| flag_error("--repair", e))?,
            seed,
            backend: if self.cpu {
                Backend::Cpu
            } else {
                Backend::DEVICE
            },
            devices: DevicesArg {
                devices: self.devices.clone(),
            }
            .list()?,
            group_size: self.group_size,
            ..Default::default()
        })
    }
}

/// The names of the command's flags for the library's argument names.
pub const RENAMES: &[(&str, &str)] = &[
    ("populations", "--populations"),
    ("individuals", "--individuals"),
    ("generations", "--generations"),
    ("tables", "--table"),
    ("target", "--target"),
    ("devices", "--devices"),
    ("time_limit", "--time-limit"),
    ("start", "--start"),
    ("state", "--resume"),
    ("checkpoint", "--checkpoint"),
];

#[derive(Args)]
#[command(mut_arg("target", |a| a.help(
    "Stop a population once its best profit is at least V (the knapsack is maximised)"
)))]
#[command(mut_arg("csv", |a| a.help(
    "Write the convergence log to FILE (CSV: seconds, generations summed over the populations, \
     best: the best profit of any population, populations done; a row per launch)"
)))]
pub struct QigaCmdArgs {
    /// The knapsack instance: the QIGA authors' format (`# capacity`, `# weight price`) or `n C`
    /// then `w p` lines
    #[arg(long, value_name = "FILE")]
    knapsack: PathBuf,
    /// Independent populations (whole runs)
    #[arg(long, default_value_t = 1000, value_name = "P")]
    populations: usize,
    #[command(flatten)]
    qiga: QigaArgs,
    #[command(flatten)]
    stop: StopArgs,
    #[command(flatten)]
    seed: SeedArg,
    /// Also compute the exact optimum (dynamic programming) and report the gaps to it
    #[arg(long)]
    gap: bool,
    /// Write a histogram of the final values to FILE (.png)
    #[arg(long, value_name = "FILE")]
    histogram: Option<PathBuf>,
    /// Write each population's final value to FILE (CSV: population, best, best_generation)
    #[arg(long, value_name = "FILE")]
    values: Option<PathBuf>,
    #[command(flatten)]
    convergence: ConvergenceArgs,
    /// Start every population from a best string in FILE: one line of 0/1 per string, one
    /// character per item (spaces ignored; `#` starts a comment); population q starts from
    /// string q mod the strings, its Q-bits leaning toward the string's bits; a regular file of
    /// at most 1 GiB
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// checkpoints of every population (finished outcomes, the angles and bests of those begun)
    /// and resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    mpi: crate::mpi::MpiArg,
}

/// The strings of `--start FILE` for a knapsack of `items` items.
fn read_start(path: &Path, items: usize) -> CliResult<Vec<Vec<u8>>> {
    let text = crate::args::read_flag_text("--start", path, crate::args::MAX_FLAG_FILE_BYTES)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let s: Vec<u8> = line.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        if s.is_empty() {
            continue;
        }
        if let Some(c) = s.iter().find(|&&c| c != b'0' && c != b'1') {
            return Err(Failure(format!(
                "--start: {} line {}: `{}` is not 0 or 1",
                path.display(),
                i + 1,
                *c as char
            )));
        }
        if s.len() != items {
            return Err(Failure(format!(
                "--start: {} line {}: {} items; the knapsack has {items}",
                path.display(),
                i + 1,
                s.len()
            )));
        }
        out.push(s.iter().map(|c| c - b'0').collect());
    }
    if out.is_empty() {
        return Err(Failure(format!("--start: no string in {}", path.display())));
    }
    Ok(out)
}

#[derive(Serialize)]
struct QigaJson<'a> {
    instance: String,
    items: usize,
    capacity: f64,
    scale: u64,
    populations: usize,
    individuals: usize,
    generations: u32,
    tables: &'a [String],
    repair: &'a str,
    seed: u64,
    optimum: Option<f64>,
    mean_gap_percent: Option<f64>,
    stats: metaopt::qiga::QigaStats,
    table_stats: &'a [metaopt::qiga::QigaStats],
    best_value: f64,
    best_items: Vec<usize>,
    values: &'a [f64],
    stopped_by: metaopt::StopReason,
    elapsed_s: f64,
    runs_per_second: f64,
    device: &'a str,
}

/// A histogram of `values` as a step line, `bins` bins.
pub fn histogram_panel(title: &str, values: &[f64], bins: usize, optimum: Option<f64>) -> Panel {
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let width = if hi > lo {
        (hi - lo) / bins as f64
    } else {
        1.0
    };
    let mut counts = vec![0usize; bins];
    for &v in values {
        counts[(((v - lo) / width) as usize).min(bins - 1)] += 1;
    }
    let mut pts = vec![(lo, 0.0)];
    for (i, &c) in counts.iter().enumerate() {
        let (x0, x1) = (lo + i as f64 * width, lo + (i + 1) as f64 * width);
        pts.push((x0, c as f64));
        pts.push((x1, c as f64));
    }
    pts.push((lo + bins as f64 * width, 0.0));
    let mut p = Panel::new(title, "best value of a run", "runs");
    p.log_y = false;
    p.series.push(Series::line(
        format!("{} runs", values.len()),
        pts,
        plot::color(0),
    ));
    if let Some(o) = optimum {
        let top = *counts.iter().max().unwrap_or(&1) as f64;
        p.series.push(Series::line(
            format!("optimum {o}"),
            vec![(o, 0.0), (o, top)],
            plot::color(1),
        ));
    }
    p
}

pub fn run(a: &QigaCmdArgs) -> CliResult {
    let k = Knapsack::from_file(&a.knapsack)?;
    if let Some(p) = &a.histogram {
        plot::check_png_path("--histogram", p)?;
    }
    a.convergence.check()?;
    let mut o = a.qiga.options(a.populations, a.seed.seed)?;
    o.stop.target = a.stop.target;
    o.stop.time_limit = crate::time_left(a.stop.time_limit());
    let optimum = if a.gap {
        Some(k.optimum()?.value)
    } else {
        None
    };
    // with --mpi, this rank's block of the populations (each draws as in the whole run)
    let ranks = a.mpi.ranks()?;
    if let Some(rk) = &ranks {
        rk.pick_device(a.qiga.cpu, a.qiga.devices.is_some());
        rk.or_abort(crate::mpi::test_failure(rk));
        o.only = Some(rk.block(a.populations));
    }
    if let Some(p) = &a.start {
        o.start = read_start(p, k.n())?;
    }
    // under MPI each rank writes and reads its own file (FILE.rankR)
    let rank = ranks.as_ref().map(|rk| (rk.rank(), rk.size()));
    o.stop.checkpoint = a.checkpoint.plan(rank)?;
    let resume = a.checkpoint.resume(rank)?;
    let make = |o: QigaOptions| -> CliResult<Qiga> {
        let mut q = Qiga::new(&k, o).map_err(|e| out::renamed(e, RENAMES))?;
        if let Some(bytes) = resume.clone() {
            q.load_state(bytes).map_err(|e| out::renamed(e, RENAMES))?;
        }
        Ok(q)
    };
    let mut q = match &ranks {
        None => make(o)?,
        Some(rk) => rk.or_abort(make(o)),
    };
    let bar = a.json.progress().then(|| {
        out::count_bar(
            a.populations as u64,
            "population {pos}/{len}  {elapsed} (eta {eta})  {msg}",
        )
    });
    // generations summed over the populations; with --mpi, this rank's populations
    let log = a.convergence.log("generations").map(|l| {
        l.columns(&["populations"])
            .sense(Sense::Max)
            .label("best profit so far")
    });
    let r = q.run_observed(|p| {
        if let Some(log) = &log {
            log.record_with(p.generations, p.best_value, &[p.populations_done as f64]);
        }
        if let Some(b) = &bar {
            b.set_position(p.populations_done as u64);
            b.set_message(format!("best {}", out::float(p.best_value)));
        }
        true
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let r = match &ranks {
        None => r.map_err(|e| out::renamed(e, RENAMES))?,
        Some(rk) => {
            let r = rk.or_abort(r.map_err(|e| out::renamed(e, RENAMES)));
            match gather_runs(rk, &q, r) {
                Some(r) => r,
                None => return Ok(()),
            }
        }
    };
    a.convergence
        .write(log.as_ref(), &format!("QIGA on {}: best profit", k.name()))?;
    report(a, &k, &r, optimum)
}

/// Every rank's populations, in rank order (so by global index), as one run's result on rank
/// 0 (the slowest rank's time; a time limit or interrupt on any rank is the job's stop reason);
/// `None` on the other ranks.
fn gather_runs(rk: &crate::mpi::Ranks, q: &Qiga, r: QigaRunResult) -> Option<QigaRunResult> {
    use metaopt::StopReason;
    const STOPS: [StopReason; 4] = [
        StopReason::Target,
        StopReason::Budget,
        StopReason::TimeLimit,
        StopReason::Interrupted,
    ];
    let elapsed = rk.max_f64(r.elapsed_s);
    let stop = rk.gather(&[STOPS.iter().position(|&s| s == r.stop_reason).unwrap_or(1) as u32]);
    // every rank takes part in every gather before rank 0 alone goes on
    let (population, best_value_int, best_bits) = (
        rk.gather(&r.population),
        rk.gather(&r.best_value_int),
        rk.gather(&r.best_bits),
    );
    let (best_generation, generations_run) =
        (rk.gather(&r.best_generation), rk.gather(&r.generations_run));
    let parts = QigaParts {
        population: population?,
        best_value_int: best_value_int?,
        best_bits: best_bits?,
        best_generation: best_generation?,
        generations_run: generations_run?,
    };
    let stop = stop?
        .into_iter()
        .max()
        .map_or(StopReason::Budget, |s| STOPS[s as usize]);
    let mut all = q.result(parts, stop, elapsed);
    all.backend = format!(
        "{}; MPI, {} rank{}",
        all.backend,
        rk.size(),
        if rk.size() == 1 { "" } else { "s" }
    );
    Some(all)
}

fn report(a: &QigaCmdArgs, k: &Knapsack, r: &QigaRunResult, optimum: Option<f64>) -> CliResult {
    if r.population.is_empty() {
        return Err(Failure(format!(
            "no population finished ({})",
            r.stop_reason.word()
        )));
    }
    let gap = optimum.map(|o| 100.0 * (o - r.stats.mean) / o);
    if let Some(path) = &a.values {
        let rows = (0..r.population.len()).map(|i| {
            [
                r.population[i].to_string(),
                out::float(r.best_value[i]),
                r.best_generation[i].to_string(),
            ]
        });
        out::write_csv_file(
            path,
            "--values: ",
            &["population", "best", "best_generation"],
            rows,
        )?;
    }
    if let Some(path) = &a.histogram {
        let title = format!("QIGA on {} ({} runs)", k.name(), r.population.len());
        plot::write_png(
            path,
            &title,
            &[histogram_panel("final values", &r.best_value, 40, optimum)],
            1,
            (900, 560),
        )?;
    }
    let best_items: Vec<usize> = r
        .bits(r.best_index)
        .iter()
        .enumerate()
        .filter(|(_, &b)| b != 0)
        .map(|(i, _)| i)
        .collect();
    if a.json.json {
        return out::print_json(&QigaJson {
            instance: k.name().to_string(),
            items: k.n(),
            capacity: k.capacity(),
            scale: k.scale(),
            populations: r.population.len(),
            individuals: a.qiga.individuals,
            generations: a.qiga.generations,
            tables: &a.qiga.table,
            repair: &a.qiga.repair,
            seed: a.seed.seed,
            optimum,
            mean_gap_percent: gap,
            stats: r.stats,
            table_stats: &r.table_stats,
            best_value: r.best_value[r.best_index],
            best_items,
            values: &r.best_value,
            stopped_by: r.stop_reason,
            elapsed_s: r.elapsed_s,
            runs_per_second: r.runs_per_second,
            device: &r.backend,
        });
    }
    let s = &r.stats;
    let mut t = format!(
        "{} ({} items, capacity {}) on {}\n",
        k.name(),
        k.n(),
        out::float(k.capacity()),
        r.backend
    );
    t += &format!(
        "{} runs of {} individuals x {} generations, table {}, repair {}: {:.3} s, {} runs/s\n",
        r.population.len(),
        a.qiga.individuals,
        a.qiga.generations,
        a.qiga.table.join(","),
        a.qiga.repair,
        r.elapsed_s,
        out::rate(r.runs_per_second),
    );
    t += &format!("stopped by {}\n", r.stop_reason.word());
    t += &format!(
        "mean {:.6}  variance {:.6}  median {:.6}  min {:.6}  max {:.6}\n",
        s.mean, s.variance, s.median, s.min, s.max
    );
    if r.table_stats.len() > 1 {
        for (name, ts) in a.qiga.table.iter().zip(&r.table_stats) {
            t += &format!(
                "  table {name}: {} runs, mean {:.6}, variance {:.6}, max {:.6}\n",
                ts.count, ts.mean, ts.variance, ts.max
            );
        }
    }
    if let (Some(o), Some(g)) = (optimum, gap) {
        t += &format!(
            "optimum {} (exact DP): mean gap {g:.4} %, best gap {:.4} %\n",
            out::float(o),
            100.0 * (o - s.max) / o
        );
    }
    t += &format!(
        "best {} with {} items: {:?}\n",
        out::float(r.best_value[r.best_index]),
        best_items.len(),
        best_items
    );
    out::print(&t)
}
