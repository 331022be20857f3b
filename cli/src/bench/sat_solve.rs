//! `metaopt bench sat-solve`: SAT local search on SATLIB families: per family and backend, the
//! share of runs solved within the time limit, the median and maximum time to a model and the
//! flip rate (per walk and in total) of the probSAT or WalkSAT walks on the device, the CPU
//! backend over all threads and the CPU backend with one thread (or HC12 on the device).

use crate::args::{BenchIoArgs, SeedArg};
use crate::cmd::sat::Method;
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::device::Backend;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::problem::sat::Cnf;
use metaopt::run::Stop;
use metaopt::sat_sls::{SatSls, SlsOptions};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// The SATLIB families `--families` takes by default: uniform random 3-SAT, 100 to 250 variables.
const FAMILIES: &str = "uf100-430,uf125-538,uf150-645,uf200-860,uf250-1065";

/// Where `bench sat-solve` runs the walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Where {
    /// The OpenCL device
    Device,
    /// The CPU backend over all rayon threads
    Cpu,
    /// The CPU backend with one thread
    Cpu1,
}

impl Where {
    /// The CSV's name of the backend.
    fn name(self) -> &'static str {
        match self {
            Where::Device => "device",
            Where::Cpu => "cpu",
            Where::Cpu1 => "cpu1",
        }
    }

    /// The walks' backend, and the walks asked for (the CPU runs one walk per thread).
    fn sls_backend(self, walks: Option<u32>) -> (Backend, Option<u32>) {
        match self {
            Where::Device => (Backend::DEVICE, walks),
            Where::Cpu | Where::Cpu1 => (Backend::Cpu, None),
        }
    }
}

/// The rayon pool of one thread that the `cpu1` rows run in.
fn one_thread_pool() -> CliResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Failure(format!("cannot make a one-thread pool: {e}")))
}

#[derive(Args)]
pub struct BenchSatSolveArgs {
    /// Folder of the SATLIB families [default: data/satlib]
    #[arg(long, value_name = "DIR")]
    satlib: Option<PathBuf>,
    /// Families (comma-separated)
    #[arg(long, value_delimiter = ',', default_value = FAMILIES)]
    families: Vec<String>,
    /// Instances per family (the first N by name)
    #[arg(long, default_value_t = 20, value_name = "N")]
    instances: usize,
    /// Runs per instance, with seeds --seed, --seed + 1, ...
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Time limit per run, in seconds
    #[arg(long, default_value_t = 10.0, value_name = "S", value_parser = crate::args::parse_seconds)]
    time_limit: f64,
    /// The search
    #[arg(long, value_enum, default_value_t = Method::Probsat)]
    method: Method,
    /// Walks per run on the device [default: its compute units times its walks per unit]; the
    /// CPU backend runs one walk per thread
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    walks: Option<u32>,
    /// Backends of the walks (comma-separated; HC12 runs on the device only)
    #[arg(long, value_enum, value_delimiter = ',', default_value = "device,cpu,cpu1")]
    backends: Vec<Where>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct FamilyRow {
    family: String,
    backend: &'static str,
    method: &'static str,
    instances: usize,
    runs: usize,
    solved: usize,
    solved_percent: f64,
    /// Median seconds to a model over the runs, unsolved runs counted as the limit.
    median_seconds: f64,
    /// The longest time to a model of a solved run (empty when none was solved).
    max_seconds: Option<f64>,
    walks: u32,
    /// Flips per second of all walks together (HC12: iterations per second).
    flips_per_second: f64,
    flips_per_second_per_walk: f64,
    time_limit_s: f64,
    device: String,
}

/// One run: (solved, seconds, flips or iterations, walks, backend description).
fn run_one(
    a: &BenchSatSolveArgs,
    cnf: &Cnf,
    on: Where,
    seed: u64,
) -> CliResult<(bool, f64, u64, u32, String)> {
    let limit = Some(Duration::from_secs_f64(a.time_limit));
    match a.method.sls() {
        None => {
            let opts = SatOptions {
                seed,
                stop: Stop {
                    token: Some(crate::stop_token()),
                    time_limit: limit,
                    ..Stop::default()
                },
                ..Default::default()
            };
            let mut s = SatSolver::new(
                cnf.clone(),
                1,
                opts.tabu.as_ref().map_or(0, |t| t.max_length),
                Backend::DEVICE,
            )?;
            let r = s.solve(&opts)?;
            Ok((r.satisfiable, r.seconds, r.iterations, 1, s.describe()))
        }
        Some(method) => {
            let opts = SlsOptions {
                method,
                seed,
                stop: metaopt::run::Stop {
                    time_limit: limit,
                    token: Some(crate::stop_token()),
                    ..metaopt::run::Stop::default()
                },
                ..Default::default()
            };
            let (backend, walks) = on.sls_backend(a.walks);
            let mut s = SatSls::new(cnf.clone(), walks, backend)?;
            let r = s.solve(&opts)?;
            Ok((r.satisfiable, r.seconds, r.flips, r.walks, s.describe()))
        }
    }
}

/// `metaopt bench sat-solve`: per family and backend, the share of runs solved within the time
/// limit, the median time (unsolved runs count as the limit), the longest time to a model and
/// the flip rates.
pub fn run(a: &BenchSatSolveArgs) -> CliResult {
    let dir = out::default_dir(&a.satlib, "data/satlib");
    a.io.device.select()?;
    let one = one_thread_pool()?;
    let backends: Vec<Where> = if a.method == Method::Hc12 {
        vec![Where::Device]
    } else {
        a.backends.clone()
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    for fam in &a.families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(fam))
            .map_err(|e| Failure(format!("cannot read {}: {e}", dir.join(fam).display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cnf"))
            .collect();
        files.sort();
        files.truncate(a.instances);
        let cnfs = files
            .iter()
            .map(|f| Cnf::from_file(f))
            .collect::<metaopt::Result<Vec<_>>>()?;
        for &on in &backends {
            let (mut solved, mut times, mut max_solved, mut flips, mut busy, mut walks, mut device) =
                (0, Vec::new(), None::<f64>, 0u64, 0.0, 0, String::new());
            for cnf in &cnfs {
                for k in 0..a.runs {
                    let seed = a.seed.seed.wrapping_add(k as u64);
                    let (ok, secs, f, nw, d) = if on == Where::Cpu1 {
                        one.install(|| run_one(a, cnf, on, seed))?
                    } else {
                        run_one(a, cnf, on, seed)?
                    };
                    solved += ok as usize;
                    times.push(if ok { secs } else { a.time_limit });
                    if ok {
                        max_solved = Some(max_solved.map_or(secs, |m| m.max(secs)));
                    }
                    flips += f;
                    busy += secs;
                    walks = nw;
                    device = d;
                }
            }
            times.sort_by(f64::total_cmp);
            let n = times.len();
            let rate = if busy > 0.0 { flips as f64 / busy } else { 0.0 };
            let row = FamilyRow {
                family: fam.clone(),
                backend: on.name(),
                method: a.method.as_str(),
                instances: cnfs.len(),
                runs: n,
                solved,
                solved_percent: 100.0 * solved as f64 / n.max(1) as f64,
                median_seconds: if n == 0 { f64::NAN } else { times[n / 2] },
                max_seconds: max_solved,
                walks,
                flips_per_second: rate,
                flips_per_second_per_walk: rate / walks.max(1) as f64,
                time_limit_s: a.time_limit,
                device,
            };
            eprintln!(
                "  {:<12} {:<6} {:>3}/{:<3} solved, median {:.3} s, {:.2} M flips/s ({:.2} M per walk)",
                row.family,
                row.backend,
                row.solved,
                row.runs,
                row.median_seconds,
                row.flips_per_second / 1e6,
                row.flips_per_second_per_walk / 1e6
            );
            w.serialize(&row).map_err(csv_error)?;
        }
    }
    out::finish_csv(w, a.io.csv.path())
}

#[derive(Args)]
pub struct BenchSatLargeArgs {
    /// Variable counts of the random formulas (comma-separated)
    #[arg(long, value_delimiter = ',', default_value = "10000,100000,1000000", value_parser = clap::value_parser!(u32).range(1..))]
    vars: Vec<u32>,
    /// Clauses per variable
    #[arg(long, default_value_t = 4.2, value_name = "R")]
    ratio: f64,
    /// Literals per clause
    #[arg(long, default_value_t = 3, value_name = "K")]
    k: usize,
    /// Seed of the formulas (`metaopt sat generate --seed`)
    #[arg(long, default_value_t = 1, value_name = "N")]
    formula_seed: u64,
    /// Time limit per run, in seconds
    #[arg(long, default_value_t = 60.0, value_name = "S", value_parser = crate::args::parse_seconds)]
    time_limit: f64,
    /// The walks' rule
    #[arg(long, value_enum, default_value_t = Method::Probsat)]
    method: Method,
    /// Walks on the device [default: its compute units times its walks per unit, fewer where the
    /// states would not fit its memory]; the CPU backend runs one walk per thread
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    walks: Option<u32>,
    /// A walk restarts after N flips [default: never]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    restart_flips: Option<u64>,
    /// Flips of every walk per launch [default: 4096]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    flips_per_launch: Option<u32>,
    /// Backends of the walks (comma-separated)
    #[arg(long, value_enum, value_delimiter = ',', default_value = "device,cpu")]
    backends: Vec<Where>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct LargeRow {
    vars: u32,
    clauses: usize,
    ratio: f64,
    k: usize,
    formula_seed: u64,
    backend: &'static str,
    method: &'static str,
    solved: bool,
    /// Seconds to the model, or of the whole run when unsolved.
    seconds: f64,
    best_unsatisfied: u32,
    walks: u32,
    launches: u64,
    flips: u64,
    flips_per_second: f64,
    flips_per_second_per_walk: f64,
    restarts: u64,
    /// The walks' state persists across launches (more than 48 KB).
    persists: bool,
    time_limit_s: f64,
    device: String,
}

/// `metaopt bench sat-large`: uniform random k-SAT formulas of the given sizes (as `metaopt sat
/// generate`), one run per size and backend: time to a model or the best count at the limit,
/// and the flip rates, as CSV.
pub fn run_large(a: &BenchSatLargeArgs) -> CliResult {
    let method = a
        .method
        .sls()
        .ok_or_else(|| Failure("bench sat-large runs probsat or walksat walks, not hc12".into()))?;
    a.io.device.select()?;
    let one = one_thread_pool()?;
    let mut w = csv::Writer::from_writer(Vec::new());
    for &n in &a.vars {
        let cnf = Cnf::random_ksat(n as usize, a.ratio, a.k, a.formula_seed).map_err(|e| {
            out::renamed(
                e,
                &[("num_vars", "--vars"), ("ratio", "--ratio"), ("k", "--k")],
            )
        })?;
        for &on in &a.backends {
            let d = SlsOptions::default();
            let opts = SlsOptions {
                method,
                seed: a.seed.seed,
                stop: metaopt::run::Stop {
                    time_limit: Some(Duration::from_secs_f64(a.time_limit)),
                    token: Some(crate::stop_token()),
                    ..d.stop.clone()
                },
                restart_flips: a.restart_flips.unwrap_or(d.restart_flips),
                flips_per_launch: a.flips_per_launch.unwrap_or(d.flips_per_launch),
                ..d
            };
            let (backend, walks) = on.sls_backend(a.walks);
            let go = || -> CliResult<_> {
                let mut s = SatSls::new(cnf.clone(), walks, backend)?;
                let r = s.solve(&opts)?;
                Ok((r, s.describe(), s.state_persists()))
            };
            let (r, device, persists) = if on == Where::Cpu1 {
                one.install(go)?
            } else {
                go()?
            };
            let row = LargeRow {
                vars: n,
                clauses: cnf.num_clauses(),
                ratio: a.ratio,
                k: a.k,
                formula_seed: a.formula_seed,
                backend: on.name(),
                method: a.method.as_str(),
                solved: r.satisfiable,
                seconds: r.seconds,
                best_unsatisfied: r.best_unsatisfied,
                walks: r.walks,
                launches: r.launches,
                flips: r.flips,
                flips_per_second: r.flips_per_second,
                flips_per_second_per_walk: r.flips_per_second / r.walks.max(1) as f64,
                restarts: r.restarts(),
                persists,
                time_limit_s: a.time_limit,
                device,
            };
            eprintln!(
                "  n={:<8} {:<6} {} in {:.2} s, best {} unsatisfied, {:.2} M flips/s ({} walks)",
                n,
                row.backend,
                if row.solved { "model" } else { "UNKNOWN" },
                row.seconds,
                row.best_unsatisfied,
                row.flips_per_second / 1e6,
                row.walks
            );
            w.serialize(&row).map_err(csv_error)?;
        }
    }
    out::finish_csv(w, a.io.csv.path())
}
