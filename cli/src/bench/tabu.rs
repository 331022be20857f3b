//! `metaopt bench tabu`: the thesis's Table 4 (6.3) measured again, plain HC12 at the thesis's
//! swap counts beside HC12 with the tabu list: over N independent runs per instance (each from a
//! random permutation and a random swap list, the same starts for both), the share of runs that
//! end at the optimum with its Wilson 95 % interval, and the time until the first one did, as CSV.
//! The thesis's rarest rates are 0.1 % (esc32a, rou20): a few thousand runs resolve them
//! (`--runs 5000 --modes plain`: 5 expected successes, interval about 0.04 to 0.23 %).

use crate::args::{BackendArgs, CsvArg, SeedArg};
use crate::experiment::table4::{success_series, THESIS_TABLE4};
use crate::out::{self, csv_error, flag_error, CliResult, Failure};
use clap::{Args, ValueEnum};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::qap::{find_bks, QapInstance};
use std::path::PathBuf;

/// The modes `--modes` times by default: both.
const MODES: &str = "plain,tabu";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Plain HC12 (the thesis's Table 4)
    Plain,
    /// HC12 with the tabu list (--tabu, --tabu-iterations, --no-improve)
    Tabu,
}

#[derive(Args)]
pub struct BenchTabuArgs {
    /// Folder of the QAPLIB instances and their BKS.csv [default: data/qaplib]
    #[arg(long, value_name = "DIR")]
    qaplib: Option<PathBuf>,
    /// Instances (comma-separated) [default: the thesis's Table 4 instances present in the folder]
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    instances: Vec<String>,
    /// Runs per instance and mode (the CSV gives each ratio's Wilson 95 % interval; 0.1 %
    /// needs thousands of runs to be told from 0)
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Modes to run, comma-separated: plain HC12, HC12 with the tabu list
    #[arg(long, value_enum, value_delimiter = ',', default_value = MODES, value_name = "MODES")]
    modes: Vec<Mode>,
    /// Length of the tabu list
    #[arg(long, default_value_t = 100, value_name = "N")]
    tabu: usize,
    /// Iterations of one tabu run
    #[arg(long, default_value_t = 1000, value_name = "N")]
    tabu_iterations: u32,
    /// A tabu run ends after N iterations without a new best
    #[arg(long, default_value_t = 100, value_name = "N")]
    no_improve: u32,
    /// Swaps for every instance instead of the thesis's
    #[arg(long, value_name = "N")]
    swaps: Option<u32>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    csv: CsvArg,
}

pub fn run(a: &BenchTabuArgs) -> CliResult {
    let dir = out::default_dir(&a.qaplib, "data/qaplib");
    let backend = a.backend.backend()?;
    let tabu = TabuConfig {
        max_length: a.tabu,
        activation_limit: None,
        aspiration: false,
        max_iterations: a.tabu_iterations,
        max_no_improve: a.no_improve,
    };
    tabu.check().map_err(|e| flag_error("--tabu", e))?;
    let names: Vec<String> = if a.instances.is_empty() {
        THESIS_TABLE4
            .iter()
            .filter(|t| dir.join(format!("{}.dat", t.0)).is_file())
            .map(|t| t.0.to_string())
            .collect()
    } else {
        a.instances.clone()
    };
    for t in THESIS_TABLE4
        .iter()
        .filter(|t| a.instances.is_empty() && !names.iter().any(|n| n == t.0))
    {
        eprintln!("bench tabu: {} is not in {}; left out", t.0, dir.display());
    }
    let mut modes: Vec<Mode> = Vec::new();
    for &m in &a.modes {
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    for name in &names {
        let path = dir.join(format!("{name}.dat"));
        let inst = QapInstance::from_dat(&path)?;
        let optimum = find_bks(&path)?
            .ok_or_else(|| {
                Failure(format!(
                    "no best-known value for {name} in BKS.csv beside {}",
                    path.display()
                ))
            })?
            .bks;
        let swaps = a
            .swaps
            .or_else(|| THESIS_TABLE4.iter().find(|t| t.0 == name).map(|t| t.1))
            .ok_or_else(|| {
                Failure(format!(
                    "--swaps: {name} is not in the thesis's table; give the swap count"
                ))
            })?;
        for mode in modes
            .iter()
            .map(|m| (*m == Mode::Tabu).then(|| tabu.clone()))
        {
            let row = success_series(&inst, optimum, swaps, a.runs, a.seed.seed, mode, backend)?;
            eprintln!(
                "  {:<8} {:>2} swaps {:<8} {:>5.1} % ({}/{}, 95 % {:.3} to {:.3} %), first optimum after {}, {:.4} s per run (thesis {:.1} %, {} s)",
                row.instance,
                row.swaps,
                row.mode,
                row.success_ratio_percent,
                row.successes,
                row.runs,
                row.wilson95_low_percent,
                row.wilson95_high_percent,
                row.time_to_optimum_s.map_or("-".into(), |t| format!("{t:.4} s")),
                row.mean_run_s,
                row.thesis_success_percent,
                row.thesis_time_s
            );
            w.serialize(&row).map_err(csv_error)?;
        }
    }
    out::finish_csv(w, a.csv.path())
}
