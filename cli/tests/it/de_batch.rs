//! `metaopt de --batch FILE.json`, `metaopt de --problems B` and `metaopt bench bde` end to end:
//! values (sphere to its target, the CPU backend equal to the device in double, a problem's
//! result independent of the batch), the JSON, table and CSV outputs, and errors naming the key
//! or flag.

use crate::run;
use run::{fails, metaopt, ok};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const BATCH: &str = r#"[
  {"function": "F1", "dims": 6, "members": 24, "generations": 3000, "target": 1e-10, "seed": 5},
  {"function": "F6", "dims": 3, "lower": -5.12, "upper": [5.12, 5.0, 4.0], "mutation": "DE/best/1", "bounds": "mir",
   "generations": 40, "f": 0.6, "cr": 0.2, "members": 12},
  {"function": "CEC07t", "dims": 10, "members": 20, "generations": 15, "seed": 77}
]"#;

#[test]
fn a_batch_file_runs_every_problem_and_the_cpu_equals_the_device_in_double() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "b.json", BATCH);
    let cpu = json(&["de", "--batch", &file, "--cpu", "--json"]);
    let dev = json(&[
        "de",
        "--batch",
        &file,
        "--double",
        "--generations-per-launch",
        "7",
        "--json",
    ]);
    assert_eq!(cpu["problems"], 3);
    // the batch ends when its last problem does: two ran all their generations
    assert_eq!(cpu["stopped_by"], "budget");
    assert_eq!(cpu["precision"], "double");
    assert_eq!(cpu["backend"], "cpu");
    let (c, d) = (
        cpu["results"].as_array().unwrap(),
        dev["results"].as_array().unwrap(),
    );
    // the sphere reaches its target, the others run their generations
    assert_eq!(c[0]["stopped_by"], "target");
    assert!(c[0]["best_value"].as_f64().unwrap() <= 1e-10);
    assert!(c[0]["generations"].as_u64().unwrap() < 3000);
    let x: Vec<f64> = c[0]["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(x.len(), 6);
    assert!(
        (x.iter().map(|v| v * v).sum::<f64>() - c[0]["best_value"].as_f64().unwrap()).abs() < 1e-15
    );
    assert_eq!(
        (c[1]["generations"].as_u64(), c[1]["stopped_by"].as_str()),
        (Some(40), Some("budget"))
    );
    assert_eq!(
        (
            c[1]["mutation"].as_str(),
            c[1]["bounds"].as_str(),
            c[1]["seed"].as_u64()
        ),
        (Some("DE/best/1"), Some("mir"), Some(1))
    );
    let x1: Vec<f64> = c[1]["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(x1[1] <= 5.0 && x1[2] <= 4.0 && x1.iter().all(|v| *v >= -5.12));
    assert_eq!(c[2]["generations"], 15);
    assert!(c[2]["error"].as_f64().unwrap() >= 0.0);
    for i in 0..3 {
        let (a, b) = (
            c[i]["best_value"].as_f64().unwrap(),
            d[i]["best_value"].as_f64().unwrap(),
        );
        assert!(
            (a - b).abs() <= 1e-12 * a.abs().max(b.abs()) || (a.abs() < 1e-12 && b.abs() < 1e-12),
            "problem {i}: {a} vs {b}"
        );
        assert_eq!(c[i]["generations"], d[i]["generations"]);
    }
    // the table
    let t = ok(&["de", "--batch", &file, "--cpu"]);
    assert!(
        t.contains("batched DE   3 problems, cpu backend, double precision"),
        "{t}"
    );
    assert!(
        t.lines()
            .any(|l| l.trim_start().starts_with("1  F6") && l.ends_with("budget")),
        "{t}"
    );
}

#[test]
fn problems_from_flags_use_seed_s_plus_i_and_write_results() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let base = [
        "de",
        "--function",
        "F6",
        "--dims",
        "4",
        "--members",
        "16",
        "--max-generations",
        "30",
        "--cpu",
        "--F-mode",
        "const",
        "--F-min",
        "0.5",
        "--CR",
        "0.9",
    ];
    let mut args = base.to_vec();
    args.extend([
        "--problems",
        "3",
        "--seed",
        "40",
        "--json",
        "--results",
        csv.to_str().unwrap(),
    ]);
    let b = json(&args);
    let r = b["results"].as_array().unwrap();
    assert_eq!(r.len(), 3);
    for (i, p) in r.iter().enumerate() {
        assert_eq!(p["seed"], 40 + i as u64);
        assert_eq!(p["generations"], 30);
        assert_eq!(p["f"], 0.5);
    }
    // problem 2 alone (seed 42) gives the same result: it does not depend on the batch
    let mut one = base.to_vec();
    one.extend(["--problems", "1", "--seed", "42", "--json"]);
    let o = json(&one);
    assert_eq!(o["results"][0]["best_value"], r[2]["best_value"]);
    assert_eq!(o["results"][0]["best"], r[2]["best"]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("problem,function,dims,members,f,cr,mutation,bounds,seed,best_value,generations,stopped_by\n"), "{text}");
    assert_eq!(text.lines().count(), 4);
    // F linspace over the problems as over islands
    let mut lin = base[..10].to_vec();
    lin.extend([
        "--F-min",
        "0.2",
        "--F-max",
        "0.8",
        "--problems",
        "4",
        "--json",
    ]);
    let l = json(&lin);
    let fs: Vec<f64> = l["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["f"].as_f64().unwrap())
        .collect();
    assert!(
        (fs[0] - 0.2).abs() < 1e-12 && (fs[1] - 0.4).abs() < 1e-12 && (fs[3] - 0.8).abs() < 1e-12,
        "{fs:?}"
    );
}

#[test]
fn a_time_limit_stops_the_batch() {
    let b = json(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "5",
        "--problems",
        "2",
        "--max-generations",
        "1000000000",
        "--time-limit",
        "0.5",
        "--cpu",
        "--json",
    ]);
    for p in b["results"].as_array().unwrap() {
        assert_eq!(p["stopped_by"], "time_limit");
        assert!(p["generations"].as_u64().unwrap() > 0);
    }
}

#[test]
fn bad_batches_and_flags_name_the_key_or_flag() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (r#"{"function": "F1"}"#, "expected a JSON array"),
        (r#"[]"#, "no problems"),
        (r#"[{"function": "F1", "dims": 2, "colour": 3}]"#, "colour"),
        (r#"[{"function": "nope", "dims": 2}]"#, "problem 0"),
        (r#"[{"dims": 2}]"#, "function"),
        (
            r#"[{"function": "F1", "dims": 2}, {"function": "F1", "dims": 2, "cr": 1.5}]"#,
            "problem 1",
        ),
        (
            r#"[{"function": "F1", "dims": 2, "lower": [1, 2, 3]}]"#,
            "lower",
        ),
        (
            r#"[{"function": "F1", "dims": 2, "mutation": "DE/none"}]"#,
            "mutation",
        ),
        (
            r#"[{"function": "F1", "dims": 2, "source": "x.cl"}]"#,
            "not both",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let f = write(dir.path(), &format!("b{i}.json"), text);
        let o = metaopt(&["de", "--batch", &f, "--cpu"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{text}");
        assert!(
            err.contains("--batch") && err.contains(needle),
            "{text}: expected `{needle}` in {err}"
        );
    }
    let o = metaopt(&["de", "--batch", "/nonexistent/b.json"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    fails(&["de", "--batch", "x.json", "--islands", "4"], "--islands");
    fails(
        &["de", "--function", "F1", "--dims", "2", "--problems", "0"],
        "--problems",
    );
    let o = metaopt(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "2",
        "--problems",
        "2",
        "--CR",
        "0.1,0.2,0.3",
        "--cpu",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--CR"));
    let o = metaopt(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "2",
        "--problems",
        "2",
        "--placement",
        "far",
        "--cpu",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--placement"));
}

#[test]
fn bench_bde_compares_the_batch_with_the_island_de() {
    let out = ok(&[
        "bench",
        "bde",
        "--sizes",
        "6x8x4",
        "--functions",
        "F6",
        "--precisions",
        "double",
        "--generations",
        "10",
        "--compare",
        "island",
        "--cpu",
    ]);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let solvers: Vec<(&str, &str)> = rows
        .iter()
        .map(|x| (&x[col("backend")], &x[col("solver")]))
        .collect();
    assert_eq!(
        solvers,
        [
            ("device", "batch"),
            ("device", "island-fused"),
            ("device", "island-unfused"),
            ("cpu", "batch"),
            ("cpu", "island")
        ]
    );
    for x in &rows {
        assert_eq!(&x[col("problems")], "6");
        let gps: f64 = x[col("generations_per_s")].parse().unwrap();
        let eps: f64 = x[col("evaluations_per_s")].parse().unwrap();
        assert!(gps > 0.0 && (eps - gps * 48.0).abs() <= 1e-6 * eps, "{x:?}");
        let best: f64 = x[col("best")].parse().unwrap();
        assert!(best.is_finite() && best >= 0.0);
    }
    let unfused: f64 = rows[2][col("speedup_vs_unfused")].parse().unwrap();
    assert!((unfused - 1.0).abs() < 1e-12);
    let o = metaopt(&["bench", "bde", "--sizes", "2x8x4", "--compare", "nothing"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--compare"));
}

/// A batch file's `algorithm: "jde100"` and `jde_small`: the problem runs jDE100's
/// cycles to its target, the CPU equal to the device in double; a bad algorithm names the key's
/// problem.
#[test]
fn a_batch_problem_runs_jde100() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "j.json",
        r#"[{"function": "F6", "dims": 5, "members": 40, "algorithm": "jde100", "jde_small": 8, "bounds": "HVB",
             "generations": 3000, "target": 1e-10, "seed": 4},
            {"function": "F1", "dims": 3, "generations": 20}]"#,
    );
    let cpu = json(&["de", "--batch", &file, "--cpu", "--json"]);
    let dev = json(&["de", "--batch", &file, "--double", "--json"]);
    let (c, d) = (
        cpu["results"].as_array().unwrap(),
        dev["results"].as_array().unwrap(),
    );
    assert_eq!(c[0]["stopped_by"], "target");
    assert!(c[0]["best_value"].as_f64().unwrap() <= 1e-10);
    for i in 0..2 {
        let (a, b) = (
            c[i]["best_value"].as_f64().unwrap(),
            d[i]["best_value"].as_f64().unwrap(),
        );
        assert!(
            (a - b).abs() <= 1e-9 * (1.0 + a.abs()),
            "problem {i}: {a} vs {b}"
        );
        assert_eq!(c[i]["generations"], d[i]["generations"]);
    }
    let bad = write(
        dir.path(),
        "bad.json",
        r#"[{"function": "F1", "dims": 3, "algorithm": "jde101"}]"#,
    );
    let o = metaopt(&["de", "--batch", &bad, "--cpu"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !o.status.success() && err.contains("algorithm") && err.contains("problem 0"),
        "{err}"
    );
}

/// JADE, SHADE, L-SHADE and jSO in the batched DE: a batch file's `algorithm` keys
/// and `de --problems B --algorithm NAME` reach sphere's target, the CPU equal to the device in
/// double; `--batch` still refuses `--algorithm` (its file has the key), and `--problems`
/// names a bad one.
#[test]
fn batch_problems_run_the_adaptive_variants() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "a.json",
        r#"[{"function": "F1", "dims": 5, "members": 30, "algorithm": "jade", "generations": 2000, "target": 1e-8, "seed": 2},
            {"function": "F1", "dims": 5, "members": 30, "algorithm": "shade", "generations": 2000, "target": 1e-8},
            {"function": "F6", "dims": 4, "members": 30, "algorithm": "lshade", "generations": 60, "lshade_budget": 1200},
            {"function": "F6", "dims": 4, "members": 30, "algorithm": "jso", "generations": 60}]"#,
    );
    let cpu = json(&["de", "--batch", &file, "--cpu", "--json"]);
    let dev = json(&["de", "--batch", &file, "--double", "--json"]);
    let (c, d) = (
        cpu["results"].as_array().unwrap(),
        dev["results"].as_array().unwrap(),
    );
    for i in 0..4 {
        let (a, b) = (
            c[i]["best_value"].as_f64().unwrap(),
            d[i]["best_value"].as_f64().unwrap(),
        );
        assert!(
            (a - b).abs() <= 1e-9 * (1.0 + a.abs()),
            "problem {i}: {a} vs {b}"
        );
        assert_eq!(c[i]["generations"], d[i]["generations"]);
    }
    assert_eq!(
        (c[0]["stopped_by"].as_str(), c[1]["stopped_by"].as_str()),
        (Some("target"), Some("target"))
    );
    let base = [
        "de",
        "--function",
        "F1",
        "--dims",
        "5",
        "--members",
        "30",
        "--max-generations",
        "2000",
        "--target",
        "1e-8",
        "--cpu",
        "--json",
    ];
    for alg in ["jade", "shade", "lshade", "jso"] {
        let mut args = base.to_vec();
        args.extend(["--problems", "2", "--algorithm", alg]);
        let r = json(&args);
        for p in r["results"].as_array().unwrap() {
            assert_eq!(p["stopped_by"], "target", "{alg}: {p}");
        }
    }
    fails(
        &["de", "--batch", &file, "--cpu", "--algorithm", "jade"],
        "--algorithm",
    );
    let mut args = base.to_vec();
    args.extend(["--problems", "2", "--algorithm", "jdee"]);
    fails(&args, "--algorithm");
}

#[test]
fn a_batch_the_host_cannot_hold_is_an_error_before_its_problems_are_made() {
    for backend in [&["--cpu"][..], &[][..]] {
        let mut args = vec![
            "de",
            "--problems",
            "4000000000",
            "--function",
            "F1",
            "--dims",
            "2",
        ];
        args.extend_from_slice(backend);
        run::out_of_memory_in_4gb(&args, "--problems");
    }
}

#[test]
fn batch_file_paths_must_be_regular_files_of_bounded_size() {
    let dir = tempfile::tempdir().unwrap();
    // /dev/zero named relative to the batch file's folder: a device, never read
    let up = "../".repeat(dir.path().components().count() + 2);
    let cases = [
        (
            format!(r#"[{{"source": "{up}dev/zero", "dims": 2}}]"#),
            "not a regular file",
        ),
        (
            r#"[{"source": ".", "dims": 2}]"#.to_string(),
            "not a regular file",
        ),
        (
            format!(r#"[{{"source": "k.cl", "data": "{up}dev/zero", "dims": 2}}]"#),
            "not a regular file",
        ),
        (
            r#"[{"source": "none.cl", "dims": 2}]"#.to_string(),
            "cannot read",
        ),
        (
            r#"[{"source": "big.cl", "dims": 2}]"#.to_string(),
            "more than",
        ),
    ];
    write(dir.path(), "k.cl", "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) { return x[0] * x[0]; }");
    let big = std::fs::File::create(dir.path().join("big.cl")).unwrap();
    // a sparse file past the bound of a source
    big.set_len(17 << 20).unwrap();
    for (i, (text, needle)) in cases.iter().enumerate() {
        let f = write(dir.path(), &format!("b{i}.json"), text);
        let (code, err) = run::metaopt_in_4gb(&["de", "--batch", &f, "--cpu"]);
        assert_eq!(code, Some(2), "{text}: {err}");
        assert!(
            err.contains("--batch") && err.contains(needle),
            "{text}: expected `{needle}` in {err}"
        );
    }
    // the batch file itself must be a regular file
    let (code, err) = run::metaopt_in_4gb(&["de", "--batch", "/dev/zero", "--cpu"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
}
