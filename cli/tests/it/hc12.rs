//! `metaopt functions`, `metaopt hc12` and `metaopt bench functions` end to end.

use crate::run;
use run::{fails, metaopt, ok};
use serde_json::Value;

#[test]
fn functions_lists_the_catalogue() {
    let j: Value = serde_json::from_str(&ok(&["functions", "--json"])).unwrap();
    let names: Vec<&str> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 26);
    for n in ["F1", "F12", "CEC04", "CEC10", "CEC04t", "CEC10t"] {
        assert!(names.contains(&n), "{n}");
    }
    assert!(ok(&["functions"]).contains("Rastrigin"));
}

#[test]
fn hc12_on_a_catalogue_function_and_a_user_source() {
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F1",
        "--dims",
        "10",
        "--bits",
        "16",
        "--double",
        "--json",
    ]))
    .unwrap();
    assert!(j["value"].as_f64().unwrap() < 1e-6, "{j}");
    assert_eq!(j["reals"].as_array().unwrap().len(), 10);
    // maximising the negated sphere is minimising the sphere
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("neg.cl");
    std::fs::write(&src, "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n{ FP s = 0; for (uint j = 0; j < dims; ++j) s -= x[j * stride] * x[j * stride]; return s; }\n").unwrap();
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--source",
        src.to_str().unwrap(),
        "--dims",
        "4",
        "--bits",
        "12",
        "--lower",
        "-2",
        "--upper",
        "2",
        "--max",
        "--json",
    ]))
    .unwrap();
    assert!(j["value"].as_f64().unwrap() > -1e-5, "{j}");
    // tabu and profile options reach the solver
    let text = ok(&[
        "hc12",
        "--function",
        "F6",
        "--dims",
        "3",
        "--bits",
        "10",
        "--tabu",
        "30",
        "--no-improve",
        "10",
        "--profile",
    ]);
    assert!(
        text.contains("hc12g_eval") && text.contains("launches"),
        "{text}"
    );
}

#[test]
fn hc12_errors_name_the_flag() {
    fails(&["hc12", "--function", "F99", "--dims", "3"], "--function");
    fails(&["hc12", "--function", "CEC05t", "--dims", "3"], "dims");
    fails(
        &["hc12", "--function", "F1", "--dims", "3", "--bits", "40"],
        "--bits",
    );
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.cl");
    std::fs::write(&src, "FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return undefined_thing; }").unwrap();
    fails(
        &["hc12", "--source", src.to_str().unwrap(), "--dims", "2"],
        "undefined_thing",
    );
}

#[test]
fn bench_functions_writes_the_accuracy_table() {
    let text = ok(&["bench", "functions", "--functions", "F1,CEC05t"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "function,implementation,points,max_abs,mean_abs,std_abs"
    );
    assert_eq!(lines.len(), 1 + 2 * 4, "{text}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("CEC05t,device-double,10000,")));
}

/// The shared stop options, the progress of the runs and the precision in the output.
#[test]
fn stop_options_and_precision() {
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F1",
        "--dims",
        "3",
        "--max-runs",
        "3",
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["run_count"], 3, "{j}");
    assert_eq!(j["precision"], "double");
    assert_eq!(j["sense"], "min");
    // --runs is the old spelling of --max-runs
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F1",
        "--dims",
        "3",
        "--runs",
        "2",
        "--single",
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["run_count"], 2, "{j}");
    assert_eq!(j["precision"], "single");
    // the f32 result printed as the shortest f32
    let v = j["value"].as_f64().unwrap();
    assert_eq!(format!("{}", v as f32).parse::<f64>().unwrap(), v);
    // a target ends the runs; a time limit alone runs until it
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F1",
        "--dims",
        "3",
        "--target",
        "1",
        "--json",
    ]))
    .unwrap();
    assert_eq!(j["target_reached"], true, "{j}");
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F1",
        "--dims",
        "3",
        "--time-limit",
        "1.5",
        "--json",
    ]))
    .unwrap();
    // the limit counts from the command's start (the set-up, a kernel build on a cold cache of
    // a loaded machine included), so the search has less than 1.5 s: still many runs of F1
    assert!(
        j["run_count"].as_u64().unwrap() > 1
            && j["stopped_by"] == "time_limit"
            && j.get("stop").is_none()
            && j["seconds"].as_f64().unwrap() < 1.5 + 2.0,
        "{j}"
    );
    let text = ok(&["hc12", "--function", "F1", "--dims", "3"]);
    assert!(text.contains("precision    double"), "{text}");
    // one run by default: the run budget ends it
    assert!(text.contains("\nstopped by   budget\n"), "{text}");
    for bad in ["1e20", "-1", "nan", "inf", "0"] {
        let o = metaopt(&[
            "hc12",
            "--function",
            "F1",
            "--dims",
            "3",
            &format!("--time-limit={bad}"),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--time-limit") && !err.contains("panic"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn hc12_writes_its_convergence_log_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("h.csv"), dir.path().join("h.png"));
    let j: Value = serde_json::from_str(&ok(&[
        "hc12",
        "--function",
        "F6",
        "--dims",
        "4",
        "--bits",
        "12",
        "--max-runs",
        "6",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("seconds,runs,best"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    // one row per run, the best never worse, the last the result
    assert_eq!(rows.len(), 6);
    assert!(rows
        .windows(2)
        .all(|w| w[0][1] + 1.0 == w[1][1] && w[1][2] <= w[0][2]));
    let last = rows.last().unwrap()[2];
    assert!(
        (last - j["value"].as_f64().unwrap()).abs() <= 1e-9 * last.abs().max(1.0),
        "{j}"
    );
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
}
