//! Builds `c_examples/sat_solve.c` (parse a DIMACS file, solve, print and verify the model)
//! against the header and the library that `cargo test` built, runs it on SATLIB files, checks
//! the printed model against the clauses as the Rust reader sees them, and runs it under
//! valgrind's memcheck.

use crate::common;
use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use metaopt::problem::sat::Cnf;
use std::path::{Path, PathBuf};

fn satlib(rel: &str) -> PathBuf {
    common::satlib(rel)
}

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/sat_solve.c", CURRENT_NAMES)
}

/// The literals of the `v` lines, without the final 0.
fn model(stdout: &str) -> Vec<i32> {
    let lits: Vec<i32> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace().map(|v| v.parse::<i32>().unwrap()))
        .collect();
    assert_eq!(lits.last(), Some(&0), "the v lines end with 0:\n{stdout}");
    lits[..lits.len() - 1].to_vec()
}

#[test]
fn sat_solve_prints_a_model_that_satisfies_every_clause() {
    for rel in [
        "uf20-91/uf20-01.cnf",
        "uf50-218/uf50-01.cnf",
        "uf75-325/uf75-02.cnf",
    ] {
        let path = satlib(rel);
        let out = command(example())
            .arg(&path)
            .args(["30", "7"])
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "{rel}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status
        );
        let cnf = Cnf::from_file(&path).unwrap();
        assert!(
            stdout.contains(&format!(
                "c formula: {} variables, {} clauses",
                cnf.num_vars,
                cnf.num_clauses()
            )),
            "{stdout}"
        );
        assert!(stdout.contains("s SATISFIABLE"), "{stdout}");
        let n = cnf.num_clauses();
        assert!(
            stdout.contains(&format!("c evaluator: {n} of {n} clauses satisfied")),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("c verified: {n} of {n} clauses satisfied")),
            "{stdout}"
        );
        // every v line holds at most 10 literals
        assert!(
            stdout
                .lines()
                .filter_map(|l| l.strip_prefix("v "))
                .all(|l| l.split_whitespace().filter(|&v| v != "0").count() <= 10),
            "{stdout}"
        );
        let m = model(&stdout);
        assert_eq!(m.len(), cnf.num_vars, "{rel}");
        for (i, &l) in m.iter().enumerate() {
            assert_eq!(
                l.unsigned_abs() as usize,
                i + 1,
                "{rel}: literal {i} names its variable"
            );
        }
        for (k, clause) in cnf.clauses().enumerate() {
            assert!(
                clause
                    .iter()
                    .any(|l| m[l.unsigned_abs() as usize - 1] == *l),
                "{rel}: clause {k} unsatisfied"
            );
        }
    }
}

#[test]
fn sat_solve_reports_unknown_and_errors_in_its_exit_status() {
    let out = command(example())
        .arg(satlib("uuf50-218/uuf50-01.cnf"))
        .arg("0.3")
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("s UNKNOWN") && stdout.contains("c best: "),
        "{stdout}"
    );
    assert!(!stdout.lines().any(|l| l.starts_with("v ")), "{stdout}");

    for args in [
        &[][..],
        &["a.cnf", "0"],
        &["a.cnf", "x"],
        &["a.cnf", "1", "-1"],
        &["a.cnf", "1", "2", "3"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
    let out = command(example())
        .arg(work_dir!().join("missing.cnf"))
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("metaopt_sat_parse failed: error 10") && stderr.contains("missing.cnf"),
        "{stderr}"
    );
    let bad = work_dir!().join("bad.cnf");
    std::fs::write(&bad, "p cnf 3 2\n1 -2 0\n2 7 0\n").unwrap();
    let out = command(example()).arg(&bad).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error 11") && stderr.contains("bad.cnf:3"),
        "{stderr}"
    );
}

#[test]
fn sat_solve_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let cnf = satlib("uf20-91/uf20-01.cnf");
    let args = [exe, cnf.as_os_str(), "60".as_ref()];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "sat_solve", &args, &cache);
    assert_clean(code, &log);
}
