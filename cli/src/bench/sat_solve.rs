//! `metaopt bench sat-solve`: SAT local search on SATLIB families, the share of instances
//! solved within the time limit and the median time per family.

use crate::args::{CsvArg, DeviceArg, SeedArg};
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::problem::sat::Cnf;
use metaopt::hc12::restarts::Stop;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct BenchSatSolveArgs {
    /// Folder of the SATLIB families [default: data/satlib]
    #[arg(long, value_name = "DIR")]
    satlib: Option<PathBuf>,
    /// Families (comma-separated)
    #[arg(long, value_delimiter = ',', default_value = "uf100-430,uf125-538,uf150-645,uf200-860,uf250-1065")]
    families: Vec<String>,
    /// Instances per family (the first N by name)
    #[arg(long, default_value_t = 20, value_name = "N")]
    instances: usize,
    /// Time limit per instance, in seconds
    #[arg(long, default_value_t = 10.0, value_name = "S", value_parser = crate::args::parse_seconds)]
    time_limit: f64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    device: DeviceArg,
    #[command(flatten)]
    csv: CsvArg,
}

#[derive(Serialize)]
struct FamilyRow {
    family: String,
    instances: usize,
    solved: usize,
    solved_percent: f64,
    median_seconds: f64,
    mean_iterations: f64,
    time_limit_s: f64,
    device: String,
}

/// `metaopt bench sat-solve`: per family, the share of instances solved within the time limit and
/// the median time (unsolved instances count as the limit).
pub fn run(a: &BenchSatSolveArgs) -> CliResult {
    let dir = super::default_dir(&a.satlib, "data/satlib");
    a.device.select()?;
    let mut w = csv::Writer::from_writer(Vec::new());
    for fam in &a.families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(fam))
            .map_err(|e| Failure(format!("cannot read {}: {e}", dir.join(fam).display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cnf"))
            .collect();
        files.sort();
        files.truncate(a.instances);
        let (mut solved, mut times, mut iters, mut device) = (0, Vec::new(), 0u64, String::new());
        for f in &files {
            let cnf = Cnf::from_file(f)?;
            let opts = SatOptions { seed: a.seed.seed, stop: Stop { token: Some(crate::stop_token()), max_runs: 0, time_limit: Some(Duration::from_secs_f64(a.time_limit)), target: None }, ..Default::default() };
            let mut s = SatSolver::new(cnf, 1, opts.tabu.as_ref().map_or(0, |t| t.max_length), metaopt::device::Backend::DEVICE)?;
            let r = s.solve(&opts)?;
            device = s.backend_description();
            solved += r.satisfiable as usize;
            times.push(if r.satisfiable { r.seconds } else { a.time_limit });
            iters += r.iterations;
        }
        times.sort_by(f64::total_cmp);
        let median = if times.is_empty() { f64::NAN } else { times[times.len() / 2] };
        let row = FamilyRow {
            family: fam.clone(),
            instances: files.len(),
            solved,
            solved_percent: 100.0 * solved as f64 / files.len().max(1) as f64,
            median_seconds: median,
            mean_iterations: iters as f64 / files.len().max(1) as f64,
            time_limit_s: a.time_limit,
            device,
        };
        eprintln!("  {:<12} {:>3}/{:<3} solved, median {:.3} s", row.family, row.solved, row.instances, row.median_seconds);
        w.serialize(&row).map_err(csv_error)?;
    }
    out::finish_csv(w, a.csv.path())
}
