//! `metaopt qiga` and `metaopt bench qiga` end to end, with several PoCL devices for the spread.

use crate::run;
use run::{metaopt_env, ok_env};
use std::path::PathBuf;

fn knapsack250() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/knapsack/knapsack-250.txt")
        .to_string_lossy()
        .into_owned()
}

fn json(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    serde_json::from_str(&ok_env(args, env)).unwrap()
}

/// Two PoCL devices (POCL_DEVICES="pthread pthread") share the populations launch by launch; the
/// values equal the CPU backend's, population by population.
#[test]
fn populations_spread_over_two_devices_equal_the_cpu_backend() {
    let k = knapsack250();
    let two = [("POCL_DEVICES", "pthread pthread")];
    let base = [
        "qiga",
        "--knapsack",
        &k,
        "--populations",
        "40",
        "--generations",
        "40",
        "--repair",
        "greedy",
        "--seed",
        "9",
        "--json",
    ];
    let mut spread = base.to_vec();
    spread.extend(["--devices", "0,1"]);
    let d = json(&spread, &two);
    assert!(
        d["device"].as_str().unwrap().contains(" + "),
        "{}",
        d["device"]
    );
    let mut cpu = base.to_vec();
    cpu.push("--cpu");
    let c = json(&cpu, &[]);
    assert_eq!(d["values"], c["values"]);
    assert_eq!(d["values"].as_array().unwrap().len(), 40);
    assert_eq!(d["stats"], c["stats"]);
}

#[test]
fn qiga_reports_the_gap_to_the_exact_optimum_and_writes_histogram_and_values() {
    let k = knapsack250();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("h.png");
    let csv = dir.path().join("v.csv");
    let out = ok_env(
        &[
            "qiga",
            "--knapsack",
            &k,
            "--populations",
            "24",
            "--generations",
            "50",
            "--cpu",
            "--gap",
            "--histogram",
            png.to_str().unwrap(),
            "--values",
            csv.to_str().unwrap(),
            "--repair",
            "greedy",
        ],
        &[],
    );
    assert!(out.contains("optimum 1533.821142 (exact DP)"), "{out}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 25);
    assert!(text.starts_with("population,best,best_generation"));
    let j = json(
        &[
            "qiga",
            "--knapsack",
            &k,
            "--populations",
            "8",
            "--generations",
            "50",
            "--cpu",
            "--gap",
            "--json",
            "--target",
            "1400",
        ],
        &[],
    );
    let opt = j["optimum"].as_f64().unwrap();
    for v in j["values"].as_array().unwrap() {
        assert!(v.as_f64().unwrap() <= opt);
    }
    assert!(j["best_items"].as_array().unwrap().len() > 100);
}

#[test]
fn a_table_file_and_two_tables_make_a_tuning_run() {
    let k = knapsack250();
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.txt");
    std::fs::write(
        &t,
        "# rotate only toward a better best\n0 1 0 4 +1 -1 0 +1\n1 0 0 4 -1 +1 +1 0\n",
    )
    .unwrap();
    let j = json(
        &[
            "qiga",
            "--knapsack",
            &k,
            "--populations",
            "10",
            "--generations",
            "30",
            "--cpu",
            "--table",
            &format!("gqa2000,{}", t.display()),
            "--json",
        ],
        &[],
    );
    assert_eq!(j["table_stats"].as_array().unwrap().len(), 2);
    assert_eq!(j["table_stats"][0]["count"], 5);
}

#[test]
fn bad_arguments_are_named() {
    let k = knapsack250();
    let err = |args: &[&str]| {
        let o = metaopt_env(args, &[]);
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(
        err(&["qiga", "--knapsack", &k, "--populations", "0", "--cpu"]).contains("--populations")
    );
    assert!(err(&["qiga", "--knapsack", &k, "--table", "nope", "--cpu"]).contains("--table"));
    assert!(
        err(&["qiga", "--knapsack", &k, "--individuals", "0", "--cpu"]).contains("--individuals")
    );
    assert!(err(&["qiga", "--knapsack", "/nonexistent.txt", "--cpu"]).contains("nonexistent"));
    assert!(err(&["qiga", "--knapsack", &k, "--devices", "0,0"]).contains("--devices"));
}

#[test]
fn bench_qiga_prints_the_table() {
    let k = knapsack250();
    let out = ok_env(
        &[
            "bench",
            "qiga",
            "--knapsack",
            &k,
            "--generations",
            "20",
            "--device-populations",
            "16",
            "--cpu-populations",
            "16",
            "--thread-populations",
            "4",
            "--quality-populations",
            "8",
            "--table1-populations",
            "8",
        ],
        &[],
    );
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    // device, cpu, one thread; 2 tables x 3 repairs; Table 1 device and cpu
    assert_eq!(rows.len(), 3 + 6 + 2, "{out}");
    assert!(rows.iter().all(|r| r[13].len() > 3));
}

#[test]
fn populations_the_host_cannot_hold_are_an_error_not_an_abort() {
    run::out_of_memory_in_4gb(
        &[
            "qiga",
            "--knapsack",
            "data/knapsack/knapsack-100.txt",
            "--populations",
            "300000000",
            "--cpu",
        ],
        "populations",
    );
}
