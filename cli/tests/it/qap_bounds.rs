//! `metaopt qap solve --start hrw|pe|ab` and `metaopt qap table5` (thesis Table 5) on a tiny
//! budget, on the CPU backend.

use crate::run::metaopt;
use serde_json::Value;

fn ok(args: &[&str]) -> String {
    let o = metaopt(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "metaopt {args:?} failed:\n{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn solve_starts_from_each_projected_bound() {
    for start in ["hrw", "pe", "ab"] {
        let out = ok(&[
            "qap",
            "solve",
            "--method",
            "hc12",
            "data/qaplib/had12.dat",
            "--start",
            start,
            "--restarts",
            "0",
            "--cpu",
            "--json",
        ]);
        let m: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(m["start"], start);
        assert_eq!(m["runs"], 1);
        assert!(m["cost"].as_i64().unwrap() >= 1652);
    }
}

#[test]
fn table5_prints_the_thesis_figures_beside_ours() {
    let out = ok(&[
        "qap",
        "table5",
        "--instances",
        "chr12a,had20",
        "--runs",
        "1",
        "--cpu",
        "--json",
    ]);
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.len(), 2);
    let chr = &rows[0];
    assert_eq!(chr["instance"], "chr12a");
    assert_eq!(chr["bks"], 9552);
    // the thesis's row: every start reached 9552
    assert_eq!(
        chr["thesis"],
        serde_json::json!([9552, 9552, 9552, 9552, 9552])
    );
    let ours = chr["ours"].as_array().unwrap();
    assert_eq!(ours.len(), 5);
    assert!(ours.iter().all(|v| v.as_i64().unwrap() >= 9552));
    let bounds = chr["bounds"].as_array().unwrap();
    let names: Vec<&str> = bounds.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["GLB", "EVB", "QPB", "PB"]);
    for b in bounds {
        assert!(b["bound"].as_i64().unwrap() <= 9552 && b["start_cost"].as_i64().unwrap() >= 9552);
    }
    assert_eq!(rows[1]["thesis"][2], 6922);
    assert_eq!(rows[1]["thesis_gap_percent"], 0.0);

    // text: the thesis's line, ours, the bounds and the starts' costs per instance
    let text = ok(&[
        "qap",
        "table5",
        "--instances",
        "chr12a",
        "--runs",
        "1",
        "--cpu",
    ]);
    for word in ["thesis", "ours", "bound", "start", "mean gap"] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
    // --runs 0 needs a time limit
    let o = metaopt(&[
        "qap",
        "table5",
        "--instances",
        "chr12a",
        "--runs",
        "0",
        "--cpu",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--time-limit"));
}
