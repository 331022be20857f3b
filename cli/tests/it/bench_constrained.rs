//! `metaopt bench constrained` end to end: the island DE on CEC 2006 problems under the
//! competition's rules, a row per problem, on sizes small enough for PoCL on two cores.

use crate::run;
use run::{fails, ok};
use std::collections::HashMap;

const COLUMNS: &str = "problem,dims,ng,nh,best_known,best_known_feasible,runs,evaluations,\
feasible_runs,successful_runs,best_value,median_value,worst_value,\
median_evaluations_to_success,median_seconds_to_success,mean_seconds,mean_evaluations,\
handling,algorithm,islands,members,backend";

/// The rows of a CSV table, each a map from column to value.
fn rows(csv: &str) -> Vec<HashMap<String, String>> {
    let mut r = ::csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header.join(","), COLUMNS);
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn num(row: &HashMap<String, String>, col: &str) -> f64 {
    row[col]
        .parse()
        .unwrap_or_else(|e| panic!("{col} = `{}`: {e}", row[col]))
}

/// G08 (two variables, a maximisation minimised negated) is solved in both runs, each stopping
/// at the target well before its budget; G06 (two active inequalities) is feasible; the CSV
/// names the problem's sizes, the best known value and the solver; the file of --csv holds what
/// stdout does.
#[test]
fn g08_is_solved_in_every_run_and_the_columns_hold() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("constrained.csv");
    let out = ok(&[
        "bench",
        "constrained",
        "--problems",
        "G08,g6",
        "--runs",
        "2",
        "--evaluations",
        "20000",
        "--cpu",
        "--csv",
        file.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), out);
    let t = rows(&out);
    assert_eq!(t.len(), 2);
    let (g08, g06) = (&t[0], &t[1]);
    assert_eq!(g08["problem"], "G08");
    assert_eq!(
        (&g08["dims"][..], &g08["ng"][..], &g08["nh"][..]),
        ("2", "2", "0")
    );
    assert_eq!(num(g08, "best_known"), -0.0958250415);
    assert_eq!(g08["best_known_feasible"], "true");
    assert_eq!((num(g08, "runs"), num(g08, "evaluations")), (2.0, 20000.0));
    assert_eq!(num(g08, "feasible_runs"), 2.0);
    assert_eq!(num(g08, "successful_runs"), 2.0);
    for col in ["best_value", "median_value", "worst_value"] {
        let v = num(g08, col);
        assert!(
            v - -0.0958250415 <= 1e-4 && v >= -0.0958250415 - 1e-9,
            "{col} {v}"
        );
    }
    assert!(num(g08, "best_value") <= num(g08, "median_value"));
    assert!(num(g08, "median_value") <= num(g08, "worst_value"));
    // stopped at the target: fewer evaluations than the budget, and more than the initial
    // population of 4 x 40
    let e = num(g08, "median_evaluations_to_success");
    assert!(e > 160.0 && e < 20000.0, "{e}");
    assert!(num(g08, "mean_evaluations") < 20000.0);
    assert!(num(g08, "median_seconds_to_success") > 0.0 && num(g08, "mean_seconds") > 0.0);
    assert_eq!(g08["handling"], "deb");
    assert_eq!((num(g08, "islands"), num(g08, "members")), (4.0, 40.0));
    assert!(
        g08["backend"].starts_with("CPU backend"),
        "{}",
        g08["backend"]
    );
    assert_eq!(g06["problem"], "G06");
    assert_eq!(num(g06, "feasible_runs"), 2.0);
    assert!(num(g06, "best_value") >= -6961.8138755802 - 1e-6);
    assert!(num(g06, "mean_evaluations") <= 20000.0);
    // a statistic of no successful run is empty
    if num(g06, "successful_runs") == 0.0 {
        assert_eq!(g06["median_evaluations_to_success"], "");
    }
}

/// The epsilon level (with its settings in the handling column) on the device solves G11's
/// equality; G20, whose best known point is infeasible, is reported as such.
#[test]
fn the_epsilon_level_solves_g11_and_g20_is_marked() {
    let out = ok(&[
        "bench",
        "constrained",
        "--problems",
        "G11,G20",
        "--runs",
        "1",
        "--evaluations",
        "60000",
        "--handling",
        "epsilon",
        "--epsilon-tc",
        "200",
        "--islands",
        "2",
        "--members",
        "30",
    ]);
    let t = rows(&out);
    assert_eq!(t.len(), 2);
    assert_eq!(t[0]["problem"], "G11");
    assert_eq!(num(&t[0], "successful_runs"), 1.0, "{:?}", t[0]);
    assert_eq!(t[0]["handling"], "epsilon(theta=0.2;tc=200;cp=5)");
    assert_eq!((num(&t[0], "islands"), num(&t[0], "members")), (2.0, 30.0));
    assert!(t[0]["backend"].starts_with("device"), "{}", t[0]["backend"]);
    assert_eq!(t[1]["problem"], "G20");
    assert_eq!(t[1]["best_known_feasible"], "false");
    assert_eq!(num(&t[1], "runs"), 1.0);
}

#[test]
fn bad_arguments_name_their_flag() {
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["bench", "constrained", "--runs", "1", "--cpu"][..], extra].concat()
    }
    fails(&with(&["--problems", "G25"]), "--problems");
    fails(&with(&["--problems", "G06,H1"]), "--problems");
    fails(&with(&["--evaluations", "100"]), "--evaluations");
    fails(&with(&["--handling", "penalty"]), "--handling");
    fails(
        &with(&["--handling", "epsilon", "--epsilon-theta", "0"]),
        "--epsilon-theta",
    );
    fails(
        &with(&["--handling", "epsilon", "--epsilon-tc", "0"]),
        "--epsilon-tc",
    );
    fails(&with(&["--members", "2", "--problems", "G06"]), "--members");
    fails(&with(&["--mutation", "DE/nope/1"]), "--mutation");
    fails(&with(&["--time-limit=-1"]), "--time-limit");
    fails(&with(&["--problems", "G06", "--CR", "1.5"]), "--CR");
    fails(&with(&["--problems", "G06", "--F-min=-1"]), "--F-min");
    fails(
        &with(&["--problems", "G06", "--csv", "/nonexistent-dir/x.csv"]),
        "--csv",
    );
}

/// `--algorithm lshade`: one island shrinking over its budget solves G06 and G08 in both runs;
/// the column names the algorithm; an unknown one names the flag.
#[test]
fn an_adaptive_variant_solves_g06_and_g08() {
    let out = ok(&[
        "bench",
        "constrained",
        "--problems",
        "G06,G08",
        "--runs",
        "2",
        "--evaluations",
        "60000",
        "--algorithm",
        "lshade",
        "--islands",
        "1",
        "--members",
        "60",
        "--cpu",
    ]);
    for row in rows(&out) {
        assert_eq!(row["algorithm"], "lshade");
        assert_eq!(num(&row, "successful_runs"), 2.0, "{row:?}");
    }
    fails(
        &[
            "bench",
            "constrained",
            "--problems",
            "G08",
            "--runs",
            "1",
            "--algorithm",
            "cmaes",
            "--cpu",
        ],
        "--algorithm",
    );
}
