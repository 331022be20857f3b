//! `metaopt qap table5`: the thesis's Table 5 (section 6.3) measured again. On every instance of
//! the table found in the QAPLIB folder, HC12 qapswap2 runs from a random start and from the
//! starts projected from the four lower bounds (GLB, HRW, AB, PE; `problem::qap::eigen`), and the
//! best cost of each is printed beside the thesis's (data/thesis_table5.csv, embedded), with the
//! bounds' values.

use super::DEFAULT_SWAPS;
use crate::args::{BackendArgs, JsonArg, SeedArg, TimeLimitArg};
use crate::out::{self, CliResult, Failure};
use clap::Args;
use metaopt::hc12::qap::solve::{solve as hc12_solve, QapSolveOptions, RestartMode, Start};
use metaopt::hc12::qap::{CostForm, QapHc12};
use metaopt::problem::qap::{
    find_bks, gap_percent, lower_bound, LowerBound, QapInstance, QapProblem,
};
use metaopt::run::Stop;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

/// The thesis's Table 5 (data/thesis_table5.csv): instance, best known, best cost from random,
/// GLB, HRW, AB and PE starts (None where the thesis has none), gap of the best to the best known.
const THESIS_CSV: &str = include_str!("../../../../data/thesis_table5.csv");

/// The starts of the table, in its column order.
const STARTS: [(&str, Option<LowerBound>); 5] = [
    ("random", None),
    ("glb", Some(LowerBound::Glb)),
    ("hrw", Some(LowerBound::Hrw)),
    ("ab", Some(LowerBound::Ab)),
    ("pe", Some(LowerBound::Pe)),
];

#[derive(Clone, Debug, Serialize)]
pub struct ThesisRow {
    pub instance: String,
    pub bks: i64,
    /// random, glb, hrw, ab, pe
    pub best: [Option<i64>; 5],
    pub gap_percent: f64,
}

/// The rows of data/thesis_table5.csv (lines starting with `#` are comments).
pub fn thesis_table5() -> Vec<ThesisRow> {
    let mut rows = Vec::new();
    for line in THESIS_CSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
    {
        let f: Vec<&str> = line.split(',').collect();
        let num = |s: &str| s.trim().parse::<i64>().ok();
        rows.push(ThesisRow {
            instance: f[0].to_string(),
            bks: num(f[1]).expect("thesis_table5.csv: bks"),
            best: [num(f[2]), num(f[3]), num(f[4]), num(f[5]), num(f[6])],
            gap_percent: f[7].trim().parse().expect("thesis_table5.csv: gap"),
        });
    }
    rows
}

#[derive(Args)]
pub struct Table5Args {
    /// QAPLIB folder (.dat files and BKS.csv)
    #[arg(long, value_name = "DIR", default_value = "data/qaplib")]
    dir: PathBuf,
    /// Instances (comma-separated) [default: every Table 5 instance found in the folder]
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    instances: Vec<String>,
    /// HC12 runs per start and instance (the first from the start, then rebases or random
    /// restarts, the same random sequence for every start); 0 = until --time-limit. The thesis
    /// does not state its budget
    #[arg(long, default_value_t = 100, value_name = "N")]
    runs: u32,
    #[command(flatten)]
    time_limit: TimeLimitArg,
    /// Swaps per string
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SWAPS)]
    swaps: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct Bound {
    name: &'static str,
    value: f64,
    bound: i64,
    start_cost: i64,
}

#[derive(Serialize)]
struct Row {
    instance: String,
    n: usize,
    bks: i64,
    /// Ours: best cost from the random, GLB, HRW, AB and PE starts.
    ours: [i64; 5],
    ours_gap_percent: f64,
    thesis: [Option<i64>; 5],
    thesis_gap_percent: f64,
    bounds: Vec<Bound>,
    seconds: f64,
}

pub fn run(a: &Table5Args) -> CliResult {
    let thesis = thesis_table5();
    let names: Vec<String> = if a.instances.is_empty() {
        thesis
            .iter()
            .map(|t| t.instance.clone())
            .filter(|n| a.dir.join(format!("{n}.dat")).is_file())
            .collect()
    } else {
        a.instances.clone()
    };
    if names.is_empty() {
        return Err(Failure(format!(
            "no instance of the thesis's Table 5 in {}",
            a.dir.display()
        )));
    }
    let time_limit = a.time_limit.time_limit;
    if a.runs == 0 && time_limit.is_none() {
        return Err(Failure("--runs 0 needs --time-limit".into()));
    }
    let backend = a.backend.backend()?;
    let mut rows = Vec::new();
    let mut text = String::new();
    if !a.json.json {
        text += &format!(
            "Thesis Table 5 (6.3): best cost of HC12 qapswap2 ({} swaps, {} runs{} per start, seed {}) from random and projected starts\n",
            a.swaps,
            a.runs,
            time_limit.map(|t| format!(", at most {:.1} s", t.as_secs_f64())).unwrap_or_default(),
            a.seed.seed
        );
        text += &format!(
            "{:<9} {:>4} {:>10} {:<6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}\n",
            "instance", "n", "BKS", "", "random", "GLB", "HRW", "AB", "PE", "gap %"
        );
    }
    for name in &names {
        let path = a.dir.join(format!("{name}.dat"));
        let inst = QapInstance::from_dat(&path)?;
        let t_row = thesis.iter().find(|t| &t.instance == name);
        let bks = match find_bks(&path)? {
            Some(b) => b.bks,
            None => t_row
                .map(|t| t.bks)
                .ok_or_else(|| Failure(format!("{name}: no best-known value")))?,
        };
        let t0 = std::time::Instant::now();
        let problem = Arc::new(QapProblem::from_instance(&inst));
        let mut solver = QapHc12::new(problem, a.swaps, 2, 0, 0, backend, CostForm::Delta)
            .map_err(|e| out::renamed_or_cpu(e, &[("swaps", "--swaps")]))?;
        let mut bounds = Vec::new();
        let mut ours = [0i64; 5];
        for (col, (_, kind)) in STARTS.iter().enumerate() {
            let start = match kind {
                None => Start::Random,
                Some(k) => {
                    let r = lower_bound(&inst, *k);
                    bounds.push(Bound {
                        name: k.bound_name(),
                        value: r.value,
                        bound: r.bound,
                        start_cost: inst.cost(&r.permutation),
                    });
                    Start::Given(r.permutation)
                }
            };
            let opts = QapSolveOptions {
                stop: Stop {
                    budget: (a.runs != 0).then_some(u64::from(a.runs)),
                    time_limit,
                    target: Some(bks as f64),
                    token: Some(crate::stop_token()),
                    ..Stop::default()
                },
                seed: a.seed.seed,
                start,
                restart: RestartMode::Rebase,
            };
            let r = hc12_solve(&mut solver, &opts, Some(&inst), |_| {})
                .map_err(|e| out::renamed_or_cpu(e, &[]))?;
            ours[col] = r.cost.as_f64() as i64;
        }
        let best = *ours.iter().min().unwrap_or(&0);
        let row = Row {
            instance: name.clone(),
            n: inst.n,
            bks,
            ours,
            ours_gap_percent: gap_percent(best as f64, bks as f64),
            thesis: t_row.map_or([None; 5], |t| t.best),
            thesis_gap_percent: t_row.map_or(f64::NAN, |t| t.gap_percent),
            bounds,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if !a.json.json {
            let cell = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
            text += &format!(
                "{:<9} {:>4} {:>10} {:<6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}\n",
                name,
                inst.n,
                bks,
                "thesis",
                cell(row.thesis[0]),
                cell(row.thesis[1]),
                cell(row.thesis[2]),
                cell(row.thesis[3]),
                cell(row.thesis[4]),
                if row.thesis_gap_percent.is_nan() {
                    "-".into()
                } else {
                    format!("{:.2}", row.thesis_gap_percent)
                }
            );
            text += &format!(
                "{:<9} {:>4} {:>10} {:<6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7.2}\n",
                "",
                "",
                "",
                "ours",
                ours[0],
                ours[1],
                ours[2],
                ours[3],
                ours[4],
                row.ours_gap_percent
            );
            let b = |i: usize| &row.bounds[i];
            text += &format!(
                "{:<9} {:>4} {:>10} {:<6} {:>10} {:>10} {:>10} {:>10} {:>10}   (lower bound; the start's cost below)\n",
                "", "", "", "bound", "", b(0).bound, b(1).bound, b(2).bound, b(3).bound
            );
            text += &format!(
                "{:<9} {:>4} {:>10} {:<6} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                "",
                "",
                "",
                "start",
                "",
                b(0).start_cost,
                b(1).start_cost,
                b(2).start_cost,
                b(3).start_cost
            );
        }
        rows.push(row);
    }
    if a.json.json {
        return out::print_json(&rows);
    }
    let mean = |f: &dyn Fn(&Row) -> f64| {
        rows.iter().map(f).filter(|v| v.is_finite()).sum::<f64>() / rows.len() as f64
    };
    text += &format!(
        "mean gap of the best start: ours {:.2} %, thesis {:.2} % over {} instances (the thesis: RTX 2080, its own budget)\n",
        mean(&|r| r.ours_gap_percent),
        mean(&|r| r.thesis_gap_percent),
        rows.len()
    );
    out::print(&text)
}
