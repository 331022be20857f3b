//! `metaopt bench qiga`: whole QIGA runs per second in the paper's setting on the device, the CPU
//! backend and one CPU thread, side by side; the mean gap to the exact optimum per rotation table
//! and repair; the paper's Table 1 (30,000 runs) on the device and the CPU backend.

use crate::args::{CsvArg, SeedArg};
use crate::cmd::qiga::{QigaArgs, RENAMES};
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::device::Backend;
use metaopt::problem::knapsack::Knapsack;
use metaopt::qiga::{Qiga, QigaOptions, QigaRunResult, Repair, RotationTable};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args)]
pub struct BenchQigaArgs {
    /// The knapsack instance [default: data/knapsack/knapsack-250.txt]
    #[arg(long, value_name = "FILE")]
    knapsack: Option<PathBuf>,
    /// Populations of the device's throughput run
    #[arg(long, default_value_t = 100_000, value_name = "P")]
    device_populations: usize,
    /// Populations of the CPU backend's throughput run (all threads)
    #[arg(long, default_value_t = 2_000, value_name = "P")]
    cpu_populations: usize,
    /// Populations of the one-thread run (0: skip it)
    #[arg(long, default_value_t = 100, value_name = "P")]
    thread_populations: usize,
    /// Populations of each table x repair quality run (on the device)
    #[arg(long, default_value_t = 30_000, value_name = "P")]
    quality_populations: usize,
    /// Populations of the Table 1 runs, device and CPU backend (0: skip; the paper: 30,000)
    #[arg(long, default_value_t = 0, value_name = "P")]
    table1_populations: usize,
    /// Skip the CPU backend's runs
    #[arg(long)]
    no_cpu: bool,
    #[command(flatten)]
    qiga: QigaArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    csv: CsvArg,
}

#[derive(Serialize)]
struct Row {
    part: &'static str,
    backend: String,
    table: String,
    repair: String,
    populations: usize,
    seconds: f64,
    runs_per_second: f64,
    mean: f64,
    variance: f64,
    median: f64,
    max: f64,
    mean_gap_percent: f64,
    optimum: f64,
    device: String,
}

pub fn run(a: &BenchQigaArgs) -> CliResult {
    let path = out::default_file(
        &a.knapsack,
        "data/knapsack/knapsack-250.txt",
        "knapsack",
        "--knapsack FILE",
    )?;
    let k = Knapsack::from_file(&path)?;
    let opt = k.optimum()?.value;
    let mut w = csv::Writer::from_writer(Vec::new());
    let row = |w: &mut csv::Writer<Vec<u8>>,
               part: &'static str,
               backend: &str,
               o: &QigaOptions,
               r: &QigaRunResult|
     -> CliResult {
        let table = if o.tables[0] == RotationTable::gqa2000() {
            "gqa2000".to_string()
        } else if o.tables[0] == RotationTable::qea2002() {
            "qea2002".to_string()
        } else {
            a.qiga.table.join(",")
        };
        let s = r.stats;
        w.serialize(Row {
            part,
            backend: backend.to_string(),
            table,
            repair: format!("{:?}", o.repair).to_lowercase(),
            populations: r.population.len(),
            seconds: r.elapsed_s,
            runs_per_second: r.runs_per_second,
            mean: s.mean,
            variance: s.variance,
            median: s.median,
            max: s.max,
            mean_gap_percent: 100.0 * (opt - s.mean) / opt,
            optimum: opt,
            device: r.backend.clone(),
        })
        .map_err(csv_error)?;
        w.flush().map_err(csv_error)?;
        if a.csv.csv.is_none() {
            eprintln!(
                "{part} {backend}: {} runs in {:.3} s = {} runs/s, mean {:.4} (gap {:.3} %)",
                r.population.len(),
                r.elapsed_s,
                out::rate(r.runs_per_second),
                s.mean,
                100.0 * (opt - s.mean) / opt
            );
        }
        Ok(())
    };
    let go = |o: QigaOptions| -> CliResult<QigaRunResult> {
        Qiga::new(&k, o)
            .map_err(|e| out::renamed(e, RENAMES))?
            .run()
            .map_err(|e| out::renamed(e, RENAMES))
    };
    let device_backend = !a.qiga.cpu;
    // throughput: device, CPU backend, one thread
    if device_backend {
        let o = a.qiga.options(a.device_populations, a.seed.seed)?;
        // a warm-up run compiles the kernel and wakes the device
        go(QigaOptions {
            populations: 64.min(a.device_populations),
            ..o.clone()
        })?;
        let r = go(o.clone())?;
        row(&mut w, "throughput", "device", &o, &r)?;
    }
    if !a.no_cpu {
        let o = QigaOptions {
            backend: Backend::Cpu,
            devices: Vec::new(),
            ..a.qiga.options(a.cpu_populations, a.seed.seed)?
        };
        let r = go(o.clone())?;
        row(&mut w, "throughput", "cpu", &o, &r)?;
        if a.thread_populations > 0 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .map_err(|e| Failure(format!("cannot make a thread pool: {e}")))?;
            let o = QigaOptions {
                populations: a.thread_populations,
                ..o
            };
            let r = pool.install(|| go(o.clone()))?;
            row(&mut w, "throughput", "one_thread", &o, &r)?;
        }
    }
    // quality: every table x repair on the device (or the CPU backend with --cpu)
    if a.quality_populations > 0 {
        for table in ["gqa2000", "qea2002"] {
            for repair in [Repair::Index, Repair::Random, Repair::Greedy] {
                let mut o = a.qiga.options(a.quality_populations, a.seed.seed)?;
                o.tables = vec![RotationTable::preset(table).map_err(|e| Failure(e.to_string()))?];
                o.repair = repair;
                let r = go(o.clone())?;
                row(
                    &mut w,
                    "quality",
                    if device_backend { "device" } else { "cpu" },
                    &o,
                    &r,
                )?;
            }
        }
    }
    // Table 1: the same runs on the device and the CPU backend (identical by construction)
    if a.table1_populations > 0 {
        let o = QigaOptions {
            tables: vec![RotationTable::gqa2000()],
            repair: Repair::Index,
            ..a.qiga.options(a.table1_populations, a.seed.seed)?
        };
        let d = go(o.clone())?;
        row(&mut w, "table1", "device", &o, &d)?;
        if !a.no_cpu {
            let oc = QigaOptions {
                backend: Backend::Cpu,
                devices: Vec::new(),
                ..o.clone()
            };
            let c = go(oc.clone())?;
            row(&mut w, "table1", "cpu", &oc, &c)?;
            if c.best_value_int != d.best_value_int {
                return Err(Failure(
                    "Table 1: the device's runs differ from the CPU backend's".into(),
                ));
            }
        }
    }
    out::finish_csv(w, a.csv.path())
}
