//! `metaopt sat eval`, `metaopt sat solve` and `metaopt bench sat-solve` end to end.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::process::{Command, Output};

fn satlib(f: &str) -> String {
    common::satlib(f).to_string_lossy().into_owned()
}

fn metaopt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_metaopt")).args(args).env_remove("METAOPT_DEVICE").output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let o = metaopt(args);
    assert!(o.status.success(), "metaopt {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn solve_prints_a_verified_model_in_competition_format_and_eval_agrees() {
    let cnf = satlib("uf50-218/uf50-01.cnf");
    let out = ok(&["sat", "solve", &cnf, "--seed", "2"]);
    assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
    let model: Vec<&str> = out.lines().filter(|l| l.starts_with("v ")).flat_map(|l| l[2..].split_whitespace()).collect();
    assert_eq!(model.len(), 51, "50 literals and the final 0");
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.txt");
    std::fs::write(&f, format!("{}\n{}\n", model.join(" "), "0".repeat(50))).unwrap();
    for backend in [&[][..], &["--cpu"][..]] {
        let mut args = vec!["sat", "eval", &cnf, f.to_str().unwrap(), "--json"];
        args.extend_from_slice(backend);
        let j: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
        assert_eq!(j["models"][0], true);
        assert_eq!(j["satisfied"][0], 218);
        assert_eq!(j["models"][1], false);
    }
}

#[test]
fn unsatisfiable_input_gives_unknown_with_the_best_count() {
    let out = ok(&["sat", "solve", &satlib("uuf50-218/uuf50-01.cnf"), "--time-limit", "0.5", "--json"]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["satisfiable"], false);
    assert!(j["best_unsatisfied"].as_u64().unwrap() >= 1);
    assert!(j["model"].is_null());
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.cnf");
    std::fs::write(&bad, "p cnf 3 2\n1 -2 0\n4 0\n").unwrap();
    let o = metaopt(&["sat", "solve", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("bad.cnf:3"), "{err}");
    let f = dir.path().join("a.txt");
    std::fs::write(&f, "1 2 x 0\n").unwrap();
    let o = metaopt(&["sat", "eval", &satlib("uf20-91/uf20-01.cnf"), f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));
}

#[test]
fn bench_sat_solve_reports_each_family() {
    let out = ok(&["bench", "sat-solve", "--families", "uf20-91,uf50-218", "--instances", "2", "--time-limit", "5"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("family,instances,solved,solved_percent,median_seconds"));
    assert!(lines[1].starts_with("uf20-91,2,2,100"), "{out}");
    assert!(lines[2].starts_with("uf50-218,2,2,100"), "{out}");
}
