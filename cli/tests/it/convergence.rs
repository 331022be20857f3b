//! `--csv` and `--plot` convergence logs of the iterative solvers (`cli/src/convergence.rs`): a
//! header, rows of non-decreasing seconds and work, a best that never gets worse and ends at the
//! command's reported best, and a PNG.

use crate::common;
use crate::run::{metaopt, ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The rows of the log at `path` (numbers), after checking its header against `header`, that it
/// has a row, that seconds and work never go back, and that the best never gets worse (`max`:
/// maximised).
fn rows(path: &Path, header: &str, max: bool) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(header), "{text}");
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert!(!rows.is_empty(), "no row: {text}");
    for w in rows.windows(2) {
        assert!(w[0][0] <= w[1][0] && w[0][1] <= w[1][1], "{text}");
        let better_or_same = if max {
            w[1][2] >= w[0][2]
        } else {
            w[1][2] <= w[0][2]
        };
        assert!(better_or_same, "{text}");
    }
    rows
}

fn png(path: &Path) {
    assert_eq!(&std::fs::read(path).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
}

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap()
}

fn files(dir: &tempfile::TempDir) -> (PathBuf, PathBuf) {
    (dir.path().join("c.csv"), dir.path().join("c.png"))
}

fn uf50() -> String {
    common::satlib("uf50-218/uf50-01.cnf")
        .to_string_lossy()
        .into_owned()
}

/// probSAT walks on the device and their CPU twin: one row per launch (8 flips per walk each),
/// the fewest unsatisfied clauses of any walk, the same on both, the last the result's.
#[test]
fn sat_solve_walks_log_the_fewest_unsatisfied_clauses_per_launch() {
    let cnf = uf50();
    let mut logs = Vec::new();
    for cpu in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (csv, plot) = files(&dir);
        let mut args = vec![
            "sat",
            "solve",
            &cnf,
            "--max-flips",
            "40",
            "--flips-per-launch",
            "8",
            "--walks",
            "2",
            "--csv",
            csv.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
            "--json",
        ];
        if cpu {
            args.push("--cpu");
        }
        let o = metaopt(&args);
        // 40 flips of 2 walks find no model of uf50-01 (seed 1): exit 0, `unknown`
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let j = json(&o.stdout);
        let r = rows(&csv, "seconds,flips_per_walk,best", false);
        let work: Vec<f64> = r.iter().map(|r| r[1]).collect();
        assert_eq!(work, [8.0, 16.0, 24.0, 32.0, 40.0]);
        assert_eq!(
            r.last().unwrap()[2],
            j["best_unsatisfied"].as_f64().unwrap(),
            "{j}"
        );
        png(&plot);
        logs.push(r.iter().map(|r| r[2]).collect::<Vec<f64>>());
    }
    assert_eq!(logs[0], logs[1]);
}

/// A walk that finds a model logs it: the last row's best is 0.
#[test]
fn sat_solve_walks_end_their_log_at_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, _) = files(&dir);
    let o = metaopt(&[
        "sat",
        "solve",
        &uf50(),
        "--cpu",
        "--seed",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = rows(&csv, "seconds,flips_per_walk,best", false);
    assert_eq!(r.last().unwrap()[2], 0.0);
}

/// HC12 on a formula: a row per run with the iterations of every run so far.
#[test]
fn sat_solve_hc12_logs_a_row_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, plot) = files(&dir);
    let o = metaopt(&[
        "sat",
        "solve",
        &uf50(),
        "--method",
        "hc12",
        "--max-runs",
        "3",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
        "--json",
    ]);
    // a model exits with 10, none with 0
    assert!(
        matches!(o.status.code(), Some(0 | 10)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j = json(&o.stdout);
    let r = rows(&csv, "seconds,runs,best,iterations", false);
    let runs: Vec<f64> = r.iter().map(|r| r[1]).collect();
    assert_eq!(runs, (1..=r.len()).map(|k| k as f64).collect::<Vec<_>>());
    assert_eq!(r.len() as u64, j["runs"].as_u64().unwrap(), "{j}");
    let last = r.last().unwrap();
    assert_eq!(last[2], j["best_unsatisfied"].as_f64().unwrap(), "{j}");
    assert_eq!(last[3], j["iterations"].as_f64().unwrap(), "{j}");
    png(&plot);
}

/// QIGA on the CPU and on the device: the generations summed over the populations, the best
/// profit (maximised) and the populations done; the last row is the whole run's. The final
/// values and their histogram moved to --values and --histogram.
#[test]
fn qiga_logs_generations_and_the_best_profit() {
    let k = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/knapsack/knapsack-100.txt"
    );
    for cpu in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let (csv, plot) = files(&dir);
        let (values, hist) = (dir.path().join("v.csv"), dir.path().join("h.png"));
        let mut args = vec![
            "qiga",
            "--knapsack",
            k,
            "--populations",
            "16",
            "--generations",
            "60",
            "--csv",
            csv.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
            "--values",
            values.to_str().unwrap(),
            "--histogram",
            hist.to_str().unwrap(),
            "--json",
        ];
        if cpu {
            args.push("--cpu");
        }
        let j: Value = serde_json::from_str(&ok(&args)).unwrap();
        let r = rows(&csv, "seconds,generations,best,populations", true);
        let last = r.last().unwrap();
        assert_eq!(last[1], 16.0 * 60.0, "{r:?}");
        assert_eq!(last[2], j["best_value"].as_f64().unwrap(), "{j}");
        assert_eq!(last[3], 16.0);
        assert!(r.windows(2).all(|w| w[0][3] <= w[1][3]), "{r:?}");
        png(&plot);
        png(&hist);
        let v = std::fs::read_to_string(&values).unwrap();
        assert!(v.starts_with("population,best,best_generation\n"), "{v}");
        assert_eq!(v.lines().count(), 17);
    }
}

/// ACO on a grid: a row per iteration from the first path on, the shortest length so far, the
/// last the result's.
#[test]
fn sp_aco_logs_the_shortest_length_per_iteration() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, plot) = files(&dir);
    let j: Value = serde_json::from_str(&ok(&[
        "sp",
        "aco",
        "--grid",
        "10x10",
        "--source",
        "0",
        "--target",
        "99",
        "--iterations",
        "30",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    let r = rows(&csv, "seconds,iterations,best", false);
    let last = r.last().unwrap();
    assert_eq!(last[1], j["iterations"].as_f64().unwrap(), "{j}");
    assert_eq!(last[1], 30.0);
    assert_eq!(last[2], j["best_length"].as_f64().unwrap(), "{j}");
    png(&plot);
}

/// The batched DE: a row per launch with the generations summed over the problems, the least
/// best value of any problem and the problems finished; the last row is the batch's end. The
/// per-problem table moved to --results. On two PoCL devices the figures add up both blocks.
#[test]
fn batched_de_logs_the_least_best_value_per_launch() {
    let base = [
        "de",
        "--problems",
        "4",
        "--function",
        "F1",
        "--dims",
        "4",
        "--max-generations",
        "60",
        "--generations-per-launch",
        "20",
        "--json",
    ];
    for (extra, env) in [
        (&["--cpu"][..], &[][..]),
        (
            &["--devices", "0,1"][..],
            &[("POCL_DEVICES", "pthread pthread")][..],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (csv, plot) = files(&dir);
        let results = dir.path().join("r.csv");
        let mut args = base.to_vec();
        args.extend(extra);
        args.extend([
            "--csv",
            csv.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ]);
        let j: Value = serde_json::from_str(&crate::run::ok_env(&args, env)).unwrap();
        let r = rows(&csv, "seconds,generations,best,finished", false);
        let res = j["results"].as_array().unwrap();
        let least = res
            .iter()
            .map(|p| p["best_value"].as_f64().unwrap())
            .fold(f64::INFINITY, f64::min);
        let last = r.last().unwrap();
        assert_eq!(last[1], 4.0 * 60.0, "{extra:?}: {r:?}");
        // the JSON rounds single-precision values to their shortest form
        assert!(
            (last[2] - least).abs() <= 1e-6 * least.abs().max(1e-30),
            "{extra:?}: {j}"
        );
        assert_eq!(last[3], 4.0);
        png(&plot);
        let text = std::fs::read_to_string(&results).unwrap();
        assert!(text.starts_with("problem,function,"), "{text}");
        assert_eq!(text.lines().count(), 5);
    }
}
