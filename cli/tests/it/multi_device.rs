//! `--devices` on the solver commands and `metaopt bench scale`, end to end, with PoCL posing as
//! three devices: the same seed gives the same output on one, two and three devices; bad lists
//! name `--devices`.

use crate::common;
use crate::run;
use run::{metaopt_env, ok_env};

const THREE: [(&str, &str); 2] = [
    ("POCL_DEVICES", "pthread pthread pthread"),
    ("POCL_MAX_PTHREAD_COUNT", "1"),
];

fn data(rel: &str) -> String {
    common::data_dir().join(rel).to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok_env(args, &THREE)).unwrap()
}

fn with(base: &[&str], extra: &[&str]) -> serde_json::Value {
    let mut v = base.to_vec();
    v.extend_from_slice(extra);
    json(&v)
}

#[test]
fn qap_de_and_sssp_give_the_one_device_result_on_several() {
    let nug12 = data("qaplib/nug12.dat");
    let qap = [
        "qap",
        "solve",
        &nug12,
        "--chains",
        "6",
        "--max-iterations",
        "1200",
        "--seed",
        "4",
        "--json",
    ];
    let one = with(&qap, &["--devices", "0"]);
    // three devices by number: `all` may be more than the six chains on a machine with GPUs
    // beside PoCL's three
    for d in ["0,1", "0,1,2"] {
        let r = with(&qap, &["--devices", d]);
        assert_eq!(
            (&r["cost"], &r["permutation"], &r["restarts"]),
            (&one["cost"], &one["permutation"], &one["restarts"]),
            "--devices {d}"
        );
    }
    let cpu = with(&qap, &["--cpu"]);
    assert_eq!(
        (&cpu["cost"], &cpu["permutation"]),
        (&one["cost"], &one["permutation"])
    );

    let de = [
        "de",
        "--problems",
        "5",
        "--function",
        "F1",
        "--dims",
        "4",
        "--max-generations",
        "80",
        "--json",
    ];
    let one = with(&de, &["--devices", "0"]);
    assert_eq!(one["results"].as_array().unwrap().len(), 5);
    assert_eq!(
        with(&de, &["--devices", "2,0,1"])["results"],
        one["results"]
    );

    let sp = [
        "sp",
        "sssp",
        "--grid",
        "30x30",
        "--sources",
        "all",
        "--json",
    ];
    let one = with(&sp, &[]);
    let three = with(&sp, &["--devices", "all"]);
    for k in ["sources", "reached", "edges", "max_dist"] {
        assert_eq!(three[k], one[k], "{k}");
    }
}

/// Island DE (`de` without --problems/--batch) on two and three devices, a block of islands
/// each: the one-device result for a seed (value, vector, island, counts), with migration every
/// generation and every 10.
#[test]
fn island_de_gives_the_one_device_result_on_several() {
    for period in ["1", "10"] {
        let de = [
            "de",
            "--function",
            "F6",
            "--dims",
            "4",
            "--islands",
            "5",
            "--members",
            "16",
            "--migration",
            "one2n",
            "--period",
            period,
            "--max-generations",
            "150",
            "--seed",
            "7",
            "--json",
        ];
        let one = with(&de, &["--devices", "0"]);
        assert!(one["value"].as_f64().unwrap().is_finite());
        for d in ["1,0", "0,1,2"] {
            let r = with(&de, &["--devices", d]);
            for k in [
                "value",
                "x",
                "island",
                "generations",
                "evaluations",
                "island_f",
                "island_cr",
            ] {
                assert_eq!(r[k], one[k], "--devices {d} --period {period}: {k}");
            }
            assert!(
                r["device"]
                    .as_str()
                    .unwrap()
                    .contains("devices: islands 0.."),
                "{}",
                r["device"]
            );
        }
    }
}

/// The adaptive variants split their islands too: `--algorithm jso` (its
/// populations shrinking over the budget) and `jde100` on two and three devices give the
/// one-device result for a seed (value, vector, island, every island's best, counts).
#[test]
fn island_de_adaptive_gives_the_one_device_result_on_several() {
    for (alg, function) in [("jso", "F6"), ("jde100", "F1")] {
        let de = [
            "de",
            "--function",
            function,
            "--dims",
            "5",
            "--islands",
            "6",
            "--members",
            "20",
            "--migration",
            "none",
            "--algorithm",
            alg,
            "--jde-small",
            "5",
            "--max-generations",
            "30",
            "--seed",
            "3",
            "--json",
        ];
        let one = with(&de, &["--devices", "0"]);
        assert!(one["value"].as_f64().unwrap().is_finite());
        for d in ["1,0", "0,1,2"] {
            let r = with(&de, &["--devices", d]);
            for k in [
                "value",
                "x",
                "island",
                "island_bests",
                "generations",
                "evaluations",
                "algorithm",
                "lshade_budget",
            ] {
                assert_eq!(r[k], one[k], "--algorithm {alg} --devices {d}: {k}");
            }
            assert!(
                r["device"]
                    .as_str()
                    .unwrap()
                    .contains("devices: islands 0.."),
                "{}",
                r["device"]
            );
        }
    }
}

#[test]
fn bad_device_lists_name_the_flag() {
    let nug12 = data("qaplib/nug12.dat");
    for (args, needle) in [
        (
            vec!["qap", "solve", &nug12, "--devices", "0,0"],
            "--devices: device 0 listed twice",
        ),
        (
            vec!["qap", "solve", &nug12, "--devices", "9"],
            "--devices: device 9 does not exist",
        ),
        (
            vec![
                "de",
                "--problems",
                "2",
                "--function",
                "F1",
                "--dims",
                "2",
                "--devices",
                "0,x",
            ],
            "--devices",
        ),
        (
            vec!["sp", "sssp", "--grid", "5x5", "--devices", "1,1"],
            "--devices",
        ),
        (
            vec!["sp", "sssp", "--grid", "5x5", "--devices", "0,1", "--cpu"],
            "--devices: not with --cpu",
        ),
        (
            vec![
                "de",
                "--function",
                "F1",
                "--dims",
                "2",
                "--algorithm",
                "jade",
                "--migration",
                "none",
                "--unfused",
                "--devices",
                "0,1",
            ],
            "--unfused: jade on several devices or processes runs only in the fused kernel",
        ),
        (
            vec![
                "de",
                "--function",
                "F1",
                "--dims",
                "2",
                "--islands",
                "2",
                "--devices",
                "0,1,2",
            ],
            "--devices: 3 devices for 2 islands",
        ),
        (
            vec![
                "de",
                "--function",
                "F1",
                "--dims",
                "2",
                "--cpu",
                "--devices",
                "0,1",
            ],
            "--devices: not with --cpu",
        ),
    ] {
        let o = metaopt_env(&args, &THREE);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains(needle),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn bench_scale_writes_rows_per_device_count() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("scale.csv");
    let nug12 = data("qaplib/nug12.dat");
    let out = ok_env(
        &[
            "bench",
            "scale",
            "--devices",
            "0,1",
            "--qiga-populations",
            "8",
            "--bde-problems",
            "6",
            "--bde-generations",
            "20",
            "--qap-chains",
            "4",
            "--qap-iterations",
            "100",
            "--qap",
            &nug12,
            "--sp-graph",
            "6",
            "--sp-sources",
            "8",
            "--de-islands",
            "4",
            "--de-members",
            "8",
            "--de-generations",
            "20",
            "--csv",
            csv.to_str().unwrap(),
        ],
        &THREE,
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), out);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let head = r.headers().unwrap().clone();
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    for solver in [
        "qiga",
        "batched_de",
        "qap_ts",
        "sssp",
        "island_de_no_migration",
        "island_de_period_1",
        "island_de_period_10",
        "island_de_period_100",
    ] {
        let mine: Vec<_> = rows
            .iter()
            .filter(|x| &x[col("solver")] == solver)
            .collect();
        assert_eq!(
            mine.len(),
            2,
            "{solver}: one row for 1 and one for 2 devices"
        );
        assert_eq!(&mine[0][col("efficiency")], "1.0");
        let (t1, t2): (f64, f64) = (
            mine[0][col("throughput")].parse().unwrap(),
            mine[1][col("throughput")].parse().unwrap(),
        );
        let e: f64 = mine[1][col("efficiency")].parse().unwrap();
        assert!(t1 > 0.0 && t2 > 0.0);
        assert!(
            (e - t2 / (2.0 * t1)).abs() < 1e-9 * e.max(1.0),
            "{solver}: efficiency {e}"
        );
    }
    let costs: Vec<_> = rows
        .iter()
        .filter(|x| &x[col("solver")] == "migration_cost")
        .collect();
    assert_eq!(
        costs.iter().map(|x| &x[col("devices")]).collect::<Vec<_>>(),
        ["0", "0,1"],
        "one migration cost per device count"
    );
    assert!(costs
        .iter()
        .all(|x| x[col("seconds")].parse::<f64>().unwrap() >= 0.0));
    // --solvers: only the work named
    let out = ok_env(
        &[
            "bench",
            "scale",
            "--devices",
            "0,1",
            "--solvers",
            "qap_ts,sssp",
            "--qap-chains",
            "4",
            "--qap-iterations",
            "100",
            "--qap",
            &nug12,
            "--sp-graph",
            "6",
            "--sp-sources",
            "8",
        ],
        &THREE,
    );
    let solvers: Vec<String> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    assert_eq!(solvers, ["qap_ts", "qap_ts", "sssp", "sssp"], "{out}");
    // --de-algorithm: jSO takes no migration, so only the rows without it
    let out = ok_env(
        &[
            "bench",
            "scale",
            "--devices",
            "0,1",
            "--solvers",
            "island_de",
            "--de-algorithm",
            "jso",
            "--de-islands",
            "4",
            "--de-members",
            "8",
            "--de-generations",
            "5",
        ],
        &THREE,
    );
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows.iter().all(|r| r.starts_with("island_de_no_migration,") && r.contains(", jso, 5 generations")), "{out}");
    let bad = metaopt_env(&["bench", "scale", "--de-algorithm", "nope"], &THREE);
    assert!(
        !bad.status.success()
            && String::from_utf8_lossy(&bad.stderr)
                .contains("--de-algorithm: unknown algorithm `nope`")
    );
    let bad = metaopt_env(&["bench", "scale", "--solvers", "qap_ts,nope"], &THREE);
    assert!(
        !bad.status.success()
            && String::from_utf8_lossy(&bad.stderr).contains("--solvers: unknown `nope`")
    );
}

#[test]
fn bench_qap_quality_runs_the_chains_of_each_device() {
    // --chains per device: two devices run twice the chains; had12 reaches its optimum
    let had12 = data("qaplib/had12.dat");
    let out = ok_env(
        &[
            "bench",
            "qap-quality",
            "--devices",
            "0,1",
            "--chains",
            "3",
            "--runs",
            "1",
            "--time-limit",
            "20",
            &had12,
        ],
        &THREE,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with(",chains,devices,rots_seeds,rots_best_gap_percent,worse_than_rots"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("had12,12,1652,1,20,0.0000,0.0000,0.0000,1,"),
        "{out}"
    );
    assert!(lines[1].ends_with(",6,0 1,,,"), "{out}");
    let cpu = metaopt_env(
        &["bench", "qap-quality", "--cpu", "--devices", "0", &had12],
        &THREE,
    );
    assert!(
        !cpu.status.success()
            && String::from_utf8_lossy(&cpu.stderr).contains("--devices: not with --cpu")
    );
}
