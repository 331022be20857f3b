//! `metaopt bench scale`: scaling over the devices of one machine (docs/specs/SCALE.md, "What to
//! measure"). For k = 1 .. N of the listed devices (the first k), a fixed amount of work split
//! over them (strong scaling): QIGA runs/s, batched DE evaluations/s, QAP tabu iterations/s
//! (all chains), multi-source SSSP traversed edges/s; each with the throughput per device and
//! the parallel efficiency throughput_k / (k * throughput_1). Island DE (a block of islands per
//! device, `DeMultiPop::on_devices`): island-generations/s without migration and at periods 1,
//! 10 and 100, likewise, and for each k the cost of one migration from the period-1 and
//! no-migration times.
//!
//! PoCL posing as several devices (`POCL_DEVICES="pthread pthread"`) shares one pool of worker
//! threads between its devices, so there it checks the split, not the speed-up.

use crate::args::{CsvArg, DevicesArg};
use crate::out::{self, csv_error, flag_error, CliResult};
use clap::Args;
use metaopt::de::{
    BatchDe, BatchOptions, BatchProblem, BoundsCorrection, DeMultiPop, DeParams, Migration,
    MigrationKind, Mutation,
};
use metaopt::device::list_devices;
use metaopt::objective::Objective;
use metaopt::problem::graph::thesis_random;
use metaopt::problem::knapsack::{GenerateOptions, Knapsack, KnapsackKind};
use metaopt::problem::qap::{QapInstance, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions};
use metaopt::qiga::{Qiga, QigaOptions};
use metaopt::run::Stop;
use metaopt::sp::{SpOptions, Sssp};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct BenchScaleArgs {
    #[command(flatten)]
    devices: DevicesArg,
    /// QIGA populations (knapsack of 250 weakly correlated items, 100 generations)
    #[arg(long, default_value_t = 384, value_name = "P")]
    qiga_populations: usize,
    /// Batched DE problems (F1 in 10 dimensions, 50 members)
    #[arg(long, default_value_t = 384, value_name = "B")]
    bde_problems: usize,
    /// Batched DE generations per problem
    #[arg(long, default_value_t = 200, value_name = "G")]
    bde_generations: u64,
    /// QAP tabu chains (in total, split over the devices)
    #[arg(long, default_value_t = 96, value_name = "C")]
    qap_chains: usize,
    /// QAP tabu iterations per chain
    #[arg(long, default_value_t = 2000, value_name = "N")]
    qap_iterations: u64,
    /// The QAP instance [default: data/qaplib/tai50a.dat]
    #[arg(long, value_name = "FILE")]
    qap: Option<PathBuf>,
    /// SSSP: the thesis graph's I (2^I vertices, at most 14)
    #[arg(long, default_value_t = 12, value_name = "I")]
    sp_graph: u32,
    /// SSSP: the number of sources
    #[arg(long, default_value_t = 192, value_name = "S")]
    sp_sources: usize,
    /// Island DE (split over the devices): the catalogue function
    #[arg(long, default_value = "F1", value_name = "NAME")]
    de_function: String,
    /// Island DE: dimensions
    #[arg(long, default_value_t = 10, value_name = "D")]
    de_dims: u32,
    /// Island DE: islands
    #[arg(long, default_value_t = 32, value_name = "NP")]
    de_islands: u32,
    /// Island DE: members per island
    #[arg(long, default_value_t = 64, value_name = "NM")]
    de_members: u32,
    /// Island DE: generations
    #[arg(long, default_value_t = 300, value_name = "G")]
    de_generations: u64,
    /// Island DE's algorithm: de, or jade, shade, lshade, jso, jde100 with their papers'
    /// defaults (L-SHADE, jSO and jDE100 take no migration: only the rows without it)
    #[arg(long, default_value = "de", value_name = "NAME")]
    de_algorithm: String,
    /// The work to measure, comma-separated: qiga, batched_de, qap_ts, sssp, island_de
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "qiga,batched_de,qap_ts,sssp,island_de",
        value_name = "NAMES"
    )]
    solvers: Vec<String>,
    #[command(flatten)]
    csv: CsvArg,
}

/// The names `--solvers` takes.
const SOLVERS: [&str; 5] = ["qiga", "batched_de", "qap_ts", "sssp", "island_de"];

#[derive(Serialize)]
struct Row {
    solver: &'static str,
    devices: String,
    count: usize,
    work: String,
    seconds: f64,
    unit: &'static str,
    throughput: f64,
    per_device: f64,
    efficiency: f64,
}

impl Row {
    /// The row of a solver's `throughput` (`unit`) in `seconds` on the devices `d`, against its
    /// throughput `one` on the first device alone.
    fn scaled(
        solver: &'static str,
        d: &[usize],
        work: &str,
        seconds: f64,
        unit: &'static str,
        throughput: f64,
        one: f64,
    ) -> Row {
        let k = d.len();
        Row {
            solver,
            devices: device_list(d),
            count: k,
            work: work.to_string(),
            seconds,
            unit,
            throughput,
            per_device: throughput / k as f64,
            efficiency: throughput / (k as f64 * one),
        }
    }
}

/// Device numbers, comma-separated.
fn device_list(d: &[usize]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The solver's throughput (units per second) on the devices `devs`.
type Measure<'a> = Box<dyn Fn(&[usize]) -> CliResult<(f64, f64)> + 'a>;

pub fn run(a: &BenchScaleArgs) -> CliResult {
    let mut devices = a.devices.list()?;
    if devices.is_empty() {
        devices = (0..list_devices()?.len()).collect();
    }
    if devices.is_empty() {
        return Err("--devices: no OpenCL device".into());
    }
    if let Some(bad) = a.solvers.iter().find(|s| !SOLVERS.contains(&s.as_str())) {
        return Err(out::Failure(format!(
            "--solvers: unknown `{bad}`; expected some of {}",
            SOLVERS.join(", ")
        )));
    }
    let wanted = |name: &str| a.solvers.iter().any(|s| s == name);
    let knap = Knapsack::generate(&GenerateOptions {
        kind: KnapsackKind::WeaklyCorrelated,
        items: 250,
        range: 10,
        seed: 1,
        ..Default::default()
    })?;
    let qap_path = out::default_file(
        &a.qap,
        "data/qaplib/tai50a.dat",
        "QAP instance",
        "--qap FILE",
    )?;
    let qap = Arc::new(QapProblem::from_instance(&QapInstance::from_dat(
        &qap_path,
    )?));
    let graph = thesis_random(a.sp_graph, 3, 1).map_err(|e| flag_error("--sp-graph", e))?;
    let sources: Vec<u32> = (0..a.sp_sources)
        .map(|i| ((i * 7919) % graph.n()) as u32)
        .collect();
    let bde_problems: Vec<BatchProblem> = (0..a.bde_problems)
        .map(|i| {
            let mut p = BatchProblem::new("F1", 10, -100.0, 100.0);
            p.seed = i as u64 + 1;
            p.max_generations = a.bde_generations;
            p
        })
        .collect();
    let measures: Vec<(&'static str, &'static str, String, Measure)> = vec![
        (
            "qiga",
            "runs/s",
            format!("{} populations", a.qiga_populations),
            Box::new(|d: &[usize]| {
                let o = QigaOptions {
                    populations: a.qiga_populations,
                    stop: metaopt::run::Stop::budget(100),
                    devices: d.to_vec(),
                    ..Default::default()
                };
                let mut q = Qiga::new(&knap, o)?;
                let t = Instant::now();
                let r = q.run()?;
                let s = t.elapsed().as_secs_f64();
                Ok((s, r.population.len() as f64 / s))
            }),
        ),
        (
            "batched_de",
            "evaluations/s",
            format!(
                "{} problems x {} generations",
                a.bde_problems, a.bde_generations
            ),
            Box::new(|d: &[usize]| {
                let mut de = BatchDe::on_devices(bde_problems.clone(), d, BatchOptions::default())?;
                let t = Instant::now();
                let r = de.run(&Stop::default())?;
                let s = t.elapsed().as_secs_f64();
                let evals: u64 = r
                    .iter()
                    .zip(&bde_problems)
                    .map(|(r, p)| (r.generations + 1) * p.members as u64)
                    .sum();
                Ok((s, evals as f64 / s))
            }),
        ),
        (
            "qap_ts",
            "iterations/s",
            format!(
                "{} chains x {} iterations, {}",
                a.qap_chains,
                a.qap_iterations,
                qap_path.display()
            ),
            Box::new(|d: &[usize]| {
                let o = QapTsOptions {
                    chains: a.qap_chains,
                    stop: metaopt::run::Stop {
                        budget: (a.qap_iterations > 0).then_some(a.qap_iterations),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let mut ts = QapTs::on_devices(qap.clone(), d)?;
                let t = Instant::now();
                let r = ts.solve(&o)?;
                let s = t.elapsed().as_secs_f64();
                Ok((s, (r.iterations * a.qap_chains as u64) as f64 / s))
            }),
        ),
        (
            "sssp",
            "edges/s",
            format!("{} sources, thesis graph I = {}", a.sp_sources, a.sp_graph),
            Box::new(|d: &[usize]| {
                let mut sp = Sssp::new(
                    &graph,
                    SpOptions {
                        devices: d.to_vec(),
                        ..Default::default()
                    },
                )?;
                let t = Instant::now();
                let r = sp.sssp_multi(&sources)?;
                let s = t.elapsed().as_secs_f64();
                Ok((s, r.edges.iter().sum::<u64>() as f64 / s))
            }),
        ),
    ];
    let mut w = csv::Writer::from_writer(Vec::new());
    eprintln!(
        "{:<22} {:<9} {:>10} {:>14} {:>14} {:>10}",
        "solver", "devices", "seconds", "throughput", "per device", "efficiency"
    );
    let emit = |w: &mut csv::Writer<Vec<u8>>, row: Row| -> CliResult {
        eprintln!(
            "{:<22} {:<9} {:>10.3e} {:>14.4e} {:>14.4e} {:>10.3}  {}",
            row.solver,
            row.devices,
            row.seconds,
            row.throughput,
            row.per_device,
            row.efficiency,
            row.unit
        );
        w.serialize(row).map_err(csv_error)
    };
    for (solver, unit, work, measure) in measures.iter().filter(|m| wanted(m.0)) {
        // warm-up on every device: the programs are built and cached per device
        measure(&devices)?;
        let mut one = 0.0;
        for k in 1..=devices.len() {
            let d = &devices[..k];
            let (s, t) = measure(d)?;
            if k == 1 {
                one = t;
            }
            emit(&mut w, Row::scaled(solver, d, work, s, unit, t, one))?;
        }
    }
    if !wanted("island_de") {
        return out::finish_csv(w, a.csv.path());
    }
    // island DE on 1..N devices (a block of islands each): island-generations/s with no migration
    // and at migration periods 1, 10 and 100, and one migration's cost on each device count
    let de_objective =
        Objective::catalogue(&a.de_function).map_err(|e| flag_error("--de-function", e))?;
    let info = de_objective
        .info()
        .map_err(|e| flag_error("--de-function", e))?;
    if let Some(i) = info {
        i.check_dims(a.de_dims as usize)
            .map_err(|e| flag_error("--de-dims", e))?;
    }
    let (de_lo, de_hi) = info.map_or((-100.0, 100.0), |i| i.domain);
    let algorithm: metaopt::de::Algorithm = a
        .de_algorithm
        .parse()
        .map_err(|e| flag_error("--de-algorithm", e))?;
    // L-SHADE and jSO shrink their islands, jDE100's islands keep their best ever: no migration
    let migrates = !algorithm.reduces() && algorithm != metaopt::de::Algorithm::Jde100;
    let island = |d: &[usize], period: Option<u32>| -> CliResult<f64> {
        let mut p = DeParams::new(
            a.de_islands,
            a.de_members,
            a.de_dims,
            de_lo,
            de_hi,
            BoundsCorrection::Cotn,
        );
        p.options.algorithm = algorithm;
        if algorithm.reduces() {
            // a budget the run never spends: the islands keep their size while timed
            p.options.lshade_budget = u64::MAX / 4;
        }
        let mut de = DeMultiPop::on_devices(&p, d)?;
        let m = match period {
            Some(p) => Migration::new(MigrationKind::One2One, p),
            None => Migration::new(MigrationKind::None, 1),
        };
        de.init(&de_objective, Mutation::Rand1, m)?;
        de.run(&Stop::budget(1))?;
        de.bests_fitness()?;
        let t = Instant::now();
        de.run(&Stop::budget(a.de_generations))?;
        de.bests_fitness()?;
        Ok(t.elapsed().as_secs_f64())
    };
    let work = format!(
        "{} islands x {} members, {} {}-D, {}, {} generations",
        a.de_islands, a.de_members, a.de_function, a.de_dims, algorithm, a.de_generations
    );
    let g = a.de_generations as f64;
    let ig = g * a.de_islands as f64;
    let mut seconds = vec![[0.0f64; 4]; devices.len()];
    for (j, (solver, period)) in [
        ("island_de_no_migration", None),
        ("island_de_period_1", Some(1u32)),
        ("island_de_period_10", Some(10)),
        ("island_de_period_100", Some(100)),
    ]
    .into_iter()
    .enumerate()
    {
        if period.is_some() && !migrates {
            continue;
        }
        for k in 1..=devices.len() {
            let d = &devices[..k];
            let s = island(d, period)?;
            seconds[k - 1][j] = s;
            let (t, one) = (ig / s, ig / seconds[0][j]);
            let row = Row::scaled(solver, d, &work, s, "island-generations/s", t, one);
            emit(&mut w, row)?;
        }
    }
    // period 1 migrates after every generation: the extra time per generation is one migration
    // (the values and best rows read from every device, the migrants written back); efficiency
    // does not apply to a cost and is 1.0
    for k in (1..=devices.len()).filter(|_| migrates) {
        let cost = ((seconds[k - 1][1] - seconds[k - 1][0]) / g).max(0.0);
        emit(
            &mut w,
            Row {
                solver: "migration_cost",
                devices: device_list(&devices[..k]),
                count: k,
                work: work.clone(),
                seconds: cost,
                unit: "seconds/migration",
                throughput: 0.0,
                per_device: 0.0,
                efficiency: 1.0,
            },
        )?;
    }
    out::finish_csv(w, a.csv.path())
}
