//! `metaopt sat eval`, `metaopt sat solve` and `metaopt bench sat-solve` end to end.

use crate::common;

use std::process::{Command, Output};

fn satlib(f: &str) -> String {
    common::satlib(f).to_string_lossy().into_owned()
}

fn metaopt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(args)
        .env_remove("METAOPT_DEVICE")
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let o = metaopt(args);
    assert!(
        o.status.success(),
        "metaopt {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Standard output of a `sat solve` that must find a model: it exits with 10, as SAT solvers do.
fn solved(args: &[&str]) -> String {
    let o = metaopt(args);
    assert_eq!(
        o.status.code(),
        Some(10),
        "metaopt {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn solve_prints_a_verified_model_in_competition_format_and_eval_agrees() {
    let cnf = satlib("uf50-218/uf50-01.cnf");
    let out = solved(&["sat", "solve", &cnf, "--seed", "2"]);
    assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
    let model: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace())
        .collect();
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

/// The whole output of `sat solve` (comments, `s SATISFIABLE` and several `v` lines) is ONE
/// assignment to `sat eval`, from a file and from standard input.
#[test]
fn eval_reads_the_output_of_solve_as_one_assignment() {
    let cnf = satlib("uf50-218/uf50-01.cnf");
    let out = solved(&["sat", "solve", &cnf, "--seed", "2"]);
    assert!(
        out.lines().filter(|l| l.starts_with("v ")).count() > 1,
        "the model spans several v lines: {out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("solve.out");
    std::fs::write(&f, &out).unwrap();
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "sat",
        "eval",
        &cnf,
        f.to_str().unwrap(),
        "--json",
        "--cpu",
    ]))
    .unwrap();
    assert_eq!(j["models"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["models"][0], true);
    assert_eq!(j["satisfied"][0], 218);
    // standard input, text output
    let mut child = Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(["sat", "eval", &cnf, "-", "--cpu"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(out.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        o.status.success()
            && text.contains("1 218 satisfied, 0 unsatisfied  (model)")
            && !text.contains("\n2 "),
        "{text}"
    );
    // an answer cut short is an error that names the line, not a wrong count
    let cut: String = out
        .lines()
        .filter(|l| !l.ends_with(" 0"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&f, cut).unwrap();
    let o = metaopt(&["sat", "eval", &cnf, f.to_str().unwrap(), "--cpu"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("solve.out:") && err.contains("without the final 0"),
        "{err}"
    );
}

#[test]
fn solve_takes_the_shared_stop_options() {
    let cnf = satlib("uuf50-218/uuf50-01.cnf");
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "sat",
        "solve",
        &cnf,
        "--method",
        "hc12",
        "--max-runs",
        "2",
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["runs"], 2, "{j}");
    assert_eq!(j["method"], "hc12");
    assert_eq!(j["status"], "unknown");
    // a target of many unsatisfied clauses is reached at once
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "sat", "solve", &cnf, "--method", "hc12", "--target", "100", "--json",
    ]))
    .unwrap();
    assert_eq!(j["runs"], 1, "{j}");
    for method in ["hc12", "probsat"] {
        let o = metaopt(&[
            "sat",
            "solve",
            &cnf,
            "--method",
            method,
            "--time-limit",
            "1e20",
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("--time-limit"));
    }
}

/// The literals of the `v` lines of `out`, up to the final 0 (checked).
fn v_literals(out: &str) -> Vec<i32> {
    let mut lits: Vec<i32> = out
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(lits.pop(), Some(0), "the v lines end with 0: {out}");
    lits
}

/// Every clause of the DIMACS file `path` has a literal of `model` (signed literals, variable
/// order).
fn assert_model(path: &str, model: &[i32]) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut clause = Vec::new();
    let mut clauses = 0;
    for t in text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.starts_with('%'))
        .flat_map(str::split_whitespace)
    {
        let l: i32 = match t.parse() {
            Ok(l) => l,
            Err(_) => break,
        };
        if l == 0 {
            assert!(
                clause
                    .iter()
                    .any(|&l: &i32| model[l.unsigned_abs() as usize - 1] == l),
                "clause {clause:?} unsatisfied"
            );
            clause.clear();
            clauses += 1;
        } else {
            clause.push(l);
        }
    }
    assert!(clauses > 0);
}

/// The default search is probSAT: a model of a uf instance, on the device and on the CPU, with
/// the walk counters in the JSON.
#[test]
fn solve_defaults_to_probsat_walks_with_a_verified_model() {
    let cnf = satlib("uf100-430/uf100-01.cnf");
    for backend in [&[][..], &["--cpu"][..]] {
        let mut args = vec!["sat", "solve", &cnf, "--walks", "4"];
        args.extend_from_slice(backend);
        let out = solved(&args);
        assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
        assert!(out.contains("4 walks of probsat"), "{out}");
        assert!(out.lines().any(|l| l == "c stopped by target"), "{out}");
        let model = v_literals(&out);
        assert_eq!(model.len(), 100);
        for (i, &l) in model.iter().enumerate() {
            assert_eq!(l.unsigned_abs() as usize, i + 1, "variable order");
        }
        assert_model(&cnf, &model);
        args.push("--json");
        let j: serde_json::Value = serde_json::from_str(&solved(&args)).unwrap();
        assert_eq!(j["method"], "probsat");
        assert_eq!(j["walks"], 4);
        assert_eq!(j["status"], "satisfiable");
        assert_eq!(j["stopped_by"], "target");
        assert!(j.get("stop").is_none(), "one key: {j}");
        assert_eq!(j["best_unsatisfied"], 0);
        assert!(
            j["flips"].as_u64().unwrap() > 0 && j["flips_per_second"].as_f64().unwrap() > 0.0,
            "{j}"
        );
        assert!(
            j["restarts"].is_u64() && j["flips_per_second_per_walk"].as_f64().unwrap() > 0.0,
            "{j}"
        );
        let m: Vec<i32> = j["model"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i32)
            .collect();
        assert_model(&cnf, &m);
    }
    // WalkSAT with its noise finds one too
    let out = solved(&[
        "sat", "solve", &cnf, "--method", "walksat", "--noise", "0.5", "--cpu", "--walks", "2",
    ]);
    assert!(
        out.contains("2 walks of walksat") && out.lines().any(|l| l == "s SATISFIABLE"),
        "{out}"
    );
    assert_model(&cnf, &v_literals(&out));
}

/// Unsatisfiable input: UNKNOWN at the time limit with the best count; a flip budget ends the
/// walks with exactly that many flips per walk, and restarts are counted.
#[test]
fn probsat_on_uuf_ends_unknown_at_the_limit() {
    let cnf = satlib("uuf50-218/uuf50-01.cnf");
    let out = ok(&[
        "sat",
        "solve",
        &cnf,
        "--time-limit",
        "0.5",
        "--cpu",
        "--walks",
        "2",
    ]);
    assert!(
        out.lines().any(|l| l == "s UNKNOWN") && !out.contains("\nv "),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "c stopped by time_limit"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "sat",
        "solve",
        &cnf,
        "--time-limit",
        "0.5",
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["status"], "unknown");
    assert_eq!(j["stopped_by"], "time_limit");
    assert!(
        j["model"].is_null() && j["best_unsatisfied"].as_u64().unwrap() >= 1,
        "{j}"
    );
    let args = [
        "sat",
        "solve",
        &cnf,
        "--cpu",
        "--walks",
        "3",
        "--max-flips",
        "10000",
        "--restart-flips",
        "1000",
        "--flips-per-launch",
        "512",
        "--cb",
        "2.5",
        "--eps",
        "1",
        "--json",
    ];
    let j: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(j["stopped_by"], "budget");
    assert_eq!(j["flips"], 30000, "{j}");
    assert_eq!(j["restarts"], 27, "9 restarts in 10000 flips per walk: {j}");
    assert_eq!(j["launches"], 20, "{j}");
    // the same seed gives the same walks
    let k: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(j["best_unsatisfied"], k["best_unsatisfied"]);
}

#[test]
fn bad_walk_options_are_named() {
    let cnf = satlib("uf20-91/uf20-01.cnf");
    for (args, flag) in [
        (&["--cb", "0"][..], "--cb"),
        (&["--eps", "-1"][..], "--eps"),
        (&["--method", "walksat", "--noise", "1.5"][..], "--noise"),
        (&["--restart-flips", "0"][..], "--restart-flips"),
        (&["--flips-per-launch", "0"][..], "--flips-per-launch"),
        (&["--walks", "0"][..], "--walks"),
        (&["--method", "walksat", "--cb", "2"][..], "--cb"),
        (&["--noise", "0.5"][..], "--noise"),
        (&["--tabu", "10"][..], "--tabu"),
        (&["--max-runs", "2"][..], "--max-runs"),
        (&["--method", "hc12", "--walks", "2"][..], "--walks"),
        (&["--method", "hc12", "--cpu"][..], "--cpu"),
        (&["--method", "gsat"][..], "--method"),
    ] {
        let mut a = vec!["sat", "solve", &cnf];
        a.extend_from_slice(args);
        let o = metaopt(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
}

#[test]
fn unsatisfiable_input_gives_unknown_with_the_best_count() {
    let out = ok(&[
        "sat",
        "solve",
        &satlib("uuf50-218/uuf50-01.cnf"),
        "--method",
        "hc12",
        "--time-limit",
        "0.5",
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["method"], "hc12");
    assert!(j["runs"].as_u64().unwrap() >= 1, "{j}");
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
    let o = metaopt(&[
        "sat",
        "eval",
        &satlib("uf20-91/uf20-01.cnf"),
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a.txt:1:") && err.contains("`x` is not a literal"),
        "{err}"
    );
}

#[test]
fn bench_sat_solve_reports_each_family() {
    let out = ok(&[
        "bench",
        "sat-solve",
        "--families",
        "uf20-91,uf50-218",
        "--instances",
        "2",
        "--runs",
        "2",
        "--time-limit",
        "5",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "family,backend,method,instances,runs,solved,solved_percent,median_seconds,max_seconds,walks,flips_per_second,flips_per_second_per_walk,time_limit_s,device"
    );
    assert_eq!(lines.len(), 7, "a row per family and backend: {out}");
    for (row, (fam, backend)) in lines[1..].iter().zip([
        ("uf20-91", "device"),
        ("uf20-91", "cpu"),
        ("uf20-91", "cpu1"),
        ("uf50-218", "device"),
        ("uf50-218", "cpu"),
        ("uf50-218", "cpu1"),
    ]) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(
            &f[..7],
            &[fam, backend, "probsat", "2", "4", "4", "100.0"],
            "{out}"
        );
        let median: f64 = f[7].parse().unwrap();
        let max: f64 = f[8].parse().unwrap();
        assert!(median > 0.0 && median <= max && max < 5.0, "{row}");
        let walks: f64 = f[9].parse().unwrap();
        let (total, per_walk): (f64, f64) = (f[10].parse().unwrap(), f[11].parse().unwrap());
        assert!(
            total > 0.0 && (per_walk * walks - total).abs() <= 1e-6 * total,
            "{row}"
        );
        if backend == "cpu1" {
            assert_eq!(walks, 1.0, "{row}");
        }
    }
    // HC12 runs on the device only
    let out = ok(&[
        "bench",
        "sat-solve",
        "--families",
        "uf20-91",
        "--instances",
        "1",
        "--method",
        "hc12",
        "--time-limit",
        "5",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[1].starts_with("uf20-91,device,hc12,1,1,1,100.0,"),
        "{out}"
    );
}

/// `bench sat-large`: a row per size and backend; easy formulas (ratio 3.0) are solved, the
/// 3000-variable state persists, the 500-variable one does not; hc12 and bad sizes are refused.
#[test]
fn bench_sat_large_reports_each_size_and_backend() {
    let out = ok(&[
        "bench",
        "sat-large",
        "--vars",
        "500,3000",
        "--ratio",
        "3.0",
        "--backends",
        "device,cpu,cpu1",
        "--time-limit",
        "20",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "vars,clauses,ratio,k,formula_seed,backend,method,solved,seconds,best_unsatisfied,walks,launches,flips,flips_per_second,flips_per_second_per_walk,restarts,persists,time_limit_s,device"
    );
    assert_eq!(lines.len(), 7, "a row per size and backend: {out}");
    for (row, (n, m, backend, persists)) in lines[1..].iter().zip([
        ("500", "1500", "device", "false"),
        ("500", "1500", "cpu", "false"),
        ("500", "1500", "cpu1", "false"),
        ("3000", "9000", "device", "true"),
        ("3000", "9000", "cpu", "true"),
        ("3000", "9000", "cpu1", "true"),
    ]) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(
            &f[..10],
            &[n, m, "3.0", "3", "1", backend, "probsat", "true", f[8], "0"],
            "{out}"
        );
        let secs: f64 = f[8].parse().unwrap();
        assert!(secs > 0.0 && secs < 20.0, "{row}");
        let (walks, flips, total, per_walk): (f64, f64, f64, f64) = (
            f[10].parse().unwrap(),
            f[12].parse().unwrap(),
            f[13].parse().unwrap(),
            f[14].parse().unwrap(),
        );
        assert!(
            flips > 0.0 && (total * secs - flips).abs() <= 1e-6 * flips,
            "{row}"
        );
        assert!((per_walk * walks - total).abs() <= 1e-6 * total, "{row}");
        assert_eq!(f[15], "0", "no restarts by default: {row}");
        assert_eq!(f[16], persists, "{row}");
        if backend == "cpu1" {
            assert_eq!(walks, 1.0, "{row}");
        }
    }
    let o = metaopt(&["bench", "sat-large", "--vars", "100", "--method", "hc12"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("hc12"));
    let o = metaopt(&["bench", "sat-large", "--vars", "4", "--k", "5"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--k"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `sat generate`: random 3-SAT in DIMACS, the same formula for the same seed, another for
/// another seed; an under-constrained one is solved and its model verified; bad sizes named.
#[test]
fn generate_writes_random_ksat_that_solve_reads() {
    let dir = std::env::temp_dir().join(format!("metaopt-cli-sat-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("r.cnf");
    let fs = f.to_string_lossy().into_owned();
    let text = ok(&[
        "sat", "generate", "--vars", "200", "--ratio", "3.5", "--seed", "9",
    ]);
    ok(&[
        "sat", "generate", "--vars", "200", "--ratio", "3.5", "--seed", "9", "-o", &fs,
    ]);
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        text,
        "the same seed gives the same formula"
    );
    assert_ne!(
        ok(&["sat", "generate", "--vars", "200", "--ratio", "3.5", "--seed", "10"]),
        text
    );
    assert!(
        text.lines().any(|l| l == "p cnf 200 700"),
        "{}",
        &text[..200]
    );
    let clauses: Vec<Vec<i32>> = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    assert_eq!(clauses.len(), 700);
    for c in &clauses {
        assert_eq!((c.len(), c[3]), (4, 0), "three literals and the 0: {c:?}");
        let mut v: Vec<u32> = c[..3].iter().map(|l| l.unsigned_abs()).collect();
        v.sort_unstable();
        v.dedup();
        assert!(
            v.len() == 3 && v[0] >= 1 && v[2] <= 200,
            "distinct variables in range: {c:?}"
        );
    }
    let out = solved(&["sat", "solve", &fs, "--cpu", "--walks", "2"]);
    assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
    assert_model(&fs, &v_literals(&out));
    for (args, flag) in [
        (&["--vars", "0", "--ratio", "4"][..], "--vars"),
        (&["--vars", "10", "--ratio=-1"][..], "--ratio"),
    ] {
        let o = metaopt(&[&["sat", "generate"][..], args].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(flag), "{args:?}: {err}");
    }
    let o = metaopt(&["sat", "generate", "--vars", "5", "--k", "6"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--k"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn walks_the_host_cannot_hold_are_an_error_not_an_abort() {
    for backend in [&["--cpu"][..], &[][..]] {
        let mut args = vec![
            "sat",
            "solve",
            "data/satlib/uf50-218/uf50-01.cnf",
            "--walks",
            "100000000",
            "--max-flips",
            "10",
        ];
        args.extend_from_slice(backend);
        crate::run::out_of_memory_in_4gb(&args, "walks");
    }
}
