//! `metaopt bh` (basin hopping) end to end: results on the device and the CPU backend, a user
//! source, the time limit, the convergence log and bad arguments.

use crate::run::{fails, ok};
use serde_json::Value;
use std::time::{Duration, Instant};

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(&[args, &["--json"]].concat())).unwrap()
}

#[test]
fn bh_reaches_the_sphere_minimum_alike_on_the_device_and_the_cpu() {
    let args = [
        "bh",
        "--function",
        "F1",
        "--dims",
        "5",
        "--chains",
        "64",
        "--max-steps",
        "2000",
    ];
    let cpu = json(&[&args[..], &["--cpu"]].concat());
    let dev = json(&[&args[..], &["--double"]].concat());
    assert!(cpu["value"].as_f64().unwrap() < 1e-20, "{cpu}");
    assert_eq!(cpu["stopped_by"], "budget");
    assert_eq!(
        (cpu["steps"].as_u64(), cpu["dims"].as_u64()),
        (Some(2000), Some(5))
    );
    // 64 chains a step and the starting point
    assert_eq!(cpu["evaluations"].as_u64(), Some(64 * 2000 + 1));
    // the device takes the CPU twin's steps: the same course in double
    for k in ["value", "x", "steps", "evaluations", "stopped_by"] {
        assert_eq!(cpu[k], dev[k], "{k}\n{cpu}\n{dev}");
    }
    assert_eq!(
        (cpu["backend"].as_str(), dev["backend"].as_str()),
        (Some("cpu"), Some("device"))
    );
    // the text names the result and the stop
    let text = ok(&[&args[..], &["--cpu"]].concat());
    assert!(
        text.contains("best ") && text.contains("stopped by budget"),
        "{text}"
    );
}

#[test]
fn bh_runs_a_user_source_from_a_given_point() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("shifted.cl");
    std::fs::write(
        &src,
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
         FP s = 0; for (uint j = 0; j < dims; ++j) { FP d = x[j * stride] - (FP)0.25; s += d * d; }\n\
         return s; }\n",
    )
    .unwrap();
    let j = json(&[
        "bh",
        "--source",
        src.to_str().unwrap(),
        "--lower",
        "-1",
        "--upper",
        "1",
        "--dims",
        "3",
        "--x0",
        "-0.5,0.5,0.9",
        "--chains",
        "32",
        "--max-steps",
        "3000",
        "--hop-max",
        "0.05",
    ]);
    assert!(j["value"].as_f64().unwrap() < 1e-20, "{j}");
    for v in j["x"].as_array().unwrap() {
        assert!((v.as_f64().unwrap() - 0.25).abs() < 1e-9, "{j}");
    }
}

#[test]
fn bh_stops_at_its_time_limit_with_its_best_so_far() {
    // 4096 chains in 50 dimensions: a step of every chain is long on the CPU backend, so the
    // launches must be sized by the clock for the limit to hold
    let t = Instant::now();
    let j = json(&[
        "bh",
        "--function",
        "F1",
        "--dims",
        "50",
        "--cpu",
        "--time-limit",
        "1",
    ]);
    let took = t.elapsed();
    assert_eq!(j["stopped_by"], "time_limit", "{j}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert!(j["seconds"].as_f64().unwrap() < 2.0, "{j}");
    assert!(j["value"].as_f64().unwrap().is_finite());
    // a target ends it too, and no default step budget applies then
    let j = json(&[
        "bh",
        "--function",
        "F1",
        "--dims",
        "4",
        "--chains",
        "32",
        "--cpu",
        "--target",
        "1e-12",
    ]);
    assert_eq!(j["stopped_by"], "target", "{j}");
    assert!(j["value"].as_f64().unwrap() <= 1e-12);
}

#[test]
fn bh_writes_its_convergence_log() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bh.csv");
    let png = dir.path().join("bh.png");
    let j = json(&[
        "bh",
        "--function",
        "F1",
        "--dims",
        "4",
        "--chains",
        "32",
        "--cpu",
        "--max-steps",
        "1000",
        "--launch-steps",
        "100",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.contains("steps") && header.contains("evaluations"),
        "{header}"
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() >= 10, "{text}");
    // the steps grow, the best never rises, and the last row is the run's end
    assert!(
        rows.windows(2)
            .all(|w| w[0][1] <= w[1][1] && w[1][2] <= w[0][2]),
        "{text}"
    );
    let last = rows.last().unwrap();
    assert_eq!(last[1], 1000.0);
    assert_eq!(last[2], j["value"].as_f64().unwrap());
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
}

#[test]
fn bh_bad_arguments_name_the_flag() {
    let base = ["bh", "--function", "F1", "--dims", "3", "--cpu"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    fails(&with(&["--x0", "1,2"]), "--x0: 2 values for 3 dimensions");
    fails(&with(&["--x0", "9"]), "--x0: dimension 0: 9 is outside");
    fails(&with(&["--chains", "0"]), "--chains");
    fails(
        &with(&["--hop-min", "0.5", "--hop-max", "0.1"]),
        "--hop-min/--hop-max",
    );
    fails(
        &with(&["--step0", "1e-9", "--step-stop", "1e-3"]),
        "--step0/--step-stop",
    );
    fails(&with(&["--max-search", "0"]), "--max-search");
    fails(&with(&["--launch-steps", "0"]), "--launch-steps");
    fails(
        &with(&["--single"]),
        "--single: the CPU backend computes in double",
    );
    fails(&with(&["--lower", "1", "--upper", "-1"]), "--lower/--upper");
    fails(&with(&["--source", "x.cl"]), "cannot be used with");
    fails(&["bh", "--function", "NoSuch", "--dims", "3"], "--function");
    fails(&["bh", "--function", "F1", "--dims", "0"], "--dims");
}

/// `bh --constraints NG,NH` with a --source: min |x|^2 subject to x0 + x1 >= 1 from an
/// infeasible start reaches (0.5, 0.5) feasibly (Deb's rules); the violation in the text and
/// JSON; the flags' errors.
#[test]
fn bh_takes_a_sources_constraints() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("c.cl");
    std::fs::write(
        &src,
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n\
         { return x[0] * x[0] + x[stride] * x[stride]; }\n\
         void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)\n\
         { c[0] = (FP)1 - x[0] - x[stride]; }\n",
    )
    .unwrap();
    let s = src.to_str().unwrap();
    let base = [
        "bh",
        "--source",
        s,
        "--dims",
        "2",
        "--lower",
        "-2",
        "--upper",
        "2",
        "--chains",
        "16",
        "--max-steps",
        "2000",
        "--max-search",
        "100",
        "--step-stop",
        "1e-9",
        "--step0",
        "0.05",
        "--hop-max",
        "0.2",
        "--hop-min",
        "1e-3",
        "--x0",
        "-1.5",
    ];
    let j: serde_json::Value =
        serde_json::from_str(&ok(
            &[&base[..], &["--constraints", "1,0", "--json"]].concat()
        ))
        .unwrap();
    assert_eq!(j["violation"], 0.0, "{j}");
    assert!((j["value"].as_f64().unwrap() - 0.5).abs() < 1e-5, "{j}");
    let t = ok(&[&base[..], &["--constraints", "1,0"]].concat());
    assert!(t.contains("Deb's rules: violation 0 (feasible)"), "{t}");
    fails(
        &[&base[..], &["--constraints", "1"]].concat(),
        "--constraints",
    );
    fails(
        &[
            "bh",
            "--function",
            "F1",
            "--dims",
            "2",
            "--constraints",
            "1,0",
        ],
        "--source",
    );
}
