//! `metaopt experiment qap-load` (thesis Fig. 19), `experiment qap-swaps` (Fig. 20) and the Wilson
//! intervals of `bench tabu` (Table 4), end to end on sizes small enough for PoCL on two cores.

use crate::common;
use crate::run;
use run::{fails, ok};
use std::path::Path;

fn data(name: &str) -> String {
    common::qaplib().join(name).to_string_lossy().into_owned()
}

/// The rows of a CSV file as records (the device column is quoted and holds commas).
fn records(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// A PNG of two 620 x 440 panels under a title, with a legend column beside them.
fn check_png(path: &Path) {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    let w = u32::from_be_bytes(b[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(b[20..24].try_into().unwrap());
    assert!(
        (2 * 620 + 120..=2 * 620 + 420).contains(&w) && h == 440 + 40,
        "{}: {w} x {h}",
        path.display()
    );
    assert!(
        b.len() > 10_000,
        "{}: only {} bytes",
        path.display(),
        b.len()
    );
}

#[test]
fn experiment_qap_load_measures_rows_per_second_and_the_kernel_share() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("load");
    let text = ok(&[
        "experiment",
        "qap-load",
        "--out",
        out.to_str().unwrap(),
        "--instance",
        &data("had12.dat"),
        "--swaps",
        "2,4,2",
        "--forms",
        "full,delta",
        "--iterations",
        "3",
    ]);
    assert!(
        text.contains("4 points") && text.contains("qap_load.csv"),
        "{text}"
    );
    let (h, rows) = records(&out.join("qap_load.csv"));
    assert_eq!(
        h.join(","),
        "instance,n,form,swaps,rows,calls,wall_s,kernel_s,kernel_share_percent,us_per_call,rows_per_s,kernel_rows_per_s,\
         best_row,best_cost,device"
    );
    let keys: Vec<String> = rows
        .iter()
        .map(|r| format!("{},{},{}", r[2], r[3], r[4]))
        .collect();
    // qapswap2 rows with mask order 2 and 4 bits per parameter: 1 + L + L(L-1)/2, L = 16 swaps
    assert_eq!(
        keys,
        ["full,2,137", "full,4,529", "delta,2,137", "delta,4,529"]
    );
    let f = |r: &Vec<String>, name: &str| -> f64 { r[col(&h, name)].parse().unwrap() };
    for r in &rows {
        assert_eq!(r[0], "had12");
        assert_eq!(f(r, "calls"), 3.0, "{r:?}");
        let (wall, kernel, share) = (
            f(r, "wall_s"),
            f(r, "kernel_s"),
            f(r, "kernel_share_percent"),
        );
        assert!(wall > 0.0 && kernel > 0.0 && kernel <= wall * 1.01, "{r:?}");
        assert!(
            share > 0.0
                && share <= 101.0
                && (share - 100.0 * kernel / wall).abs() < 0.01 * share + 0.01,
            "{r:?}"
        );
        let rps = f(r, "rows_per_s");
        assert!(
            (rps - f(r, "rows") * 3.0 / wall).abs() <= 1e-3 * rps + 1.0,
            "{r:?}"
        );
        assert!(f(r, "kernel_rows_per_s") >= rps * 0.99, "{r:?}");
        assert!(
            (f(r, "us_per_call") - 1e6 * wall / 3.0).abs() < 0.01 * f(r, "us_per_call") + 0.01,
            "{r:?}"
        );
        assert!(r[col(&h, "device")].starts_with("device "), "{r:?}");
    }
    // the two forms find the same best row with the same cost (integer data)
    for i in 0..2 {
        assert_eq!(rows[i][12..14], rows[i + 2][12..14], "{rows:?}");
    }
    check_png(&out.join("qap_load.png"));
    fails(
        &[
            "experiment",
            "qap-load",
            "--out",
            out.to_str().unwrap(),
            "--swaps",
            "99",
        ],
        "--swaps",
    );
    fails(
        &[
            "experiment",
            "qap-load",
            "--out",
            out.to_str().unwrap(),
            "--forms",
            "half",
        ],
        "--forms",
    );
}

#[test]
fn experiment_qap_swaps_writes_the_cost_and_success_per_swap_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("swaps");
    let text = ok(&[
        "experiment",
        "qap-swaps",
        "--out",
        out.to_str().unwrap(),
        "--instance",
        &data("had12.dat"),
        "--swaps",
        "1,6",
        "--runs",
        "5",
        "--seed",
        "3",
    ]);
    assert!(
        text.contains("10 runs") && text.contains("qap_swaps.png"),
        "{text}"
    );
    let (h, rows) = records(&out.join("qap_swaps.csv"));
    assert_eq!(
        h.join(","),
        "instance,n,swaps,rows,runs,mean,best,q25,median,q75,worst,mean_gap_percent,successes,success_percent,\
         wilson95_low_percent,wilson95_high_percent,mean_iterations,mean_run_s,time_to_optimum_s,optimum,device"
    );
    assert_eq!(rows.len(), 2);
    let (_, runs) = records(&out.join("qap_swaps_runs.csv"));
    assert_eq!(runs.len(), 10);
    let f = |r: &Vec<String>, name: &str| -> f64 { r[col(&h, name)].parse().unwrap() };
    for (r, swaps) in rows.iter().zip([1.0, 6.0]) {
        assert_eq!(
            (r[0].as_str(), f(r, "swaps"), f(r, "runs"), f(r, "optimum")),
            ("had12", swaps, 5.0, 1652.0),
            "{r:?}"
        );
        let (best, q25, median, q75, worst, mean) = (
            f(r, "best"),
            f(r, "q25"),
            f(r, "median"),
            f(r, "q75"),
            f(r, "worst"),
            f(r, "mean"),
        );
        assert!(
            1652.0 <= best && best <= q25 && q25 <= median && median <= q75 && q75 <= worst,
            "{r:?}"
        );
        assert!(best <= mean && mean <= worst, "{r:?}");
        assert!(
            (f(r, "mean_gap_percent") - 100.0 * (mean - 1652.0) / 1652.0).abs() < 1e-3,
            "{r:?}"
        );
        // the per-run file holds this row's five costs
        let mine: Vec<f64> = runs
            .iter()
            .filter(|x| x[0].parse::<f64>().unwrap() == swaps)
            .map(|x| x[2].parse().unwrap())
            .collect();
        assert_eq!(mine.len(), 5);
        assert_eq!(
            mine.iter().copied().fold(f64::INFINITY, f64::min),
            best,
            "{r:?}"
        );
        let successes = mine.iter().filter(|&&c| c <= 1652.0).count() as f64;
        assert_eq!(f(r, "successes"), successes, "{r:?}");
        let (p, lo, hi) = (
            f(r, "success_percent"),
            f(r, "wilson95_low_percent"),
            f(r, "wilson95_high_percent"),
        );
        assert!(
            (p - 20.0 * successes).abs() < 1e-3 && lo <= p && p <= hi && hi <= 100.0 && hi > 0.0,
            "{r:?}"
        );
        assert_eq!(
            r[col(&h, "time_to_optimum_s")].is_empty(),
            successes == 0.0,
            "{r:?}"
        );
        assert!(
            f(r, "mean_iterations") >= 1.0 && f(r, "mean_run_s") > 0.0,
            "{r:?}"
        );
    }
    // more swaps, a larger neighbourhood: had12 with 6 swaps has 1 + 48 + 48 * 47 / 2 rows
    assert_eq!(rows[0][3], "37");
    assert_eq!(rows[1][3], "1177");
    check_png(&out.join("qap_swaps.png"));
    fails(
        &[
            "experiment",
            "qap-swaps",
            "--out",
            out.to_str().unwrap(),
            "--runs",
            "0",
        ],
        "--runs",
    );
    fails(
        &[
            "experiment",
            "qap-swaps",
            "--out",
            out.to_str().unwrap(),
            "--swaps",
            "0",
            "--cpu",
        ],
        "--swaps",
    );
}

#[test]
fn bench_tabu_gives_wilson_intervals_and_modes() {
    let qaplib = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib");
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("t4.csv");
    let text = ok(&[
        "bench",
        "tabu",
        "--qaplib",
        qaplib,
        "--instances",
        "esc16a,rou20",
        "--runs",
        "4",
        "--swaps",
        "3",
        "--modes",
        "plain",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&csv_path).unwrap(), text);
    let (h, rows) = records(&csv_path);
    for c in [
        "success_ratio_percent",
        "wilson95_low_percent",
        "wilson95_high_percent",
        "mean_cost",
        "thesis_success_percent",
    ] {
        col(&h, c);
    }
    assert_eq!(rows.len(), 2, "{text}");
    let f = |r: &Vec<String>, name: &str| -> f64 { r[col(&h, name)].parse().unwrap() };
    for (r, name) in rows.iter().zip(["esc16a", "rou20"]) {
        assert_eq!(
            (r[0].as_str(), r[col(&h, "mode")].as_str(), f(r, "runs")),
            (name, "plain", 4.0),
            "{r:?}"
        );
        let (k, p, lo, hi) = (
            f(r, "successes"),
            f(r, "success_ratio_percent"),
            f(r, "wilson95_low_percent"),
            f(r, "wilson95_high_percent"),
        );
        assert!(lo <= p && p <= hi && hi <= 100.0 && lo >= 0.0, "{r:?}");
        if k == 0.0 {
            // Wilson, 0 of 4: 0 .. z^2 / (4 + z^2) = 48.99 %
            assert!(lo == 0.0 && (hi - 48.989).abs() < 0.01, "{r:?}");
        }
        assert!(f(r, "best") <= f(r, "mean_cost"), "{r:?}");
    }
    // rou20 is in the data folder and in the thesis's table
    assert_eq!(f(&rows[1], "thesis_success_percent"), 0.1);
    assert_eq!(f(&rows[1], "optimum"), 725522.0);
    fails(
        &["bench", "tabu", "--qaplib", qaplib, "--runs", "0"],
        "--runs",
    );
    fails(
        &["bench", "tabu", "--qaplib", qaplib, "--modes", "greedy"],
        "--modes",
    );
}
