//! The `metaopt` binary end to end: device listing, `qap eval`, `qap solve`, `bench qap`, and
//! its error contract (one `error: ...` line on stderr, exit status 2, never a panic).

use crate::common;
use crate::run::{metaopt, metaopt_env};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A bundled QAPLIB file (data/qaplib/; a .sln under its sln/ folder).
fn data(name: &str) -> String {
    let dir = if name.ends_with(".sln") {
        common::qaplib().join("sln")
    } else {
        common::qaplib()
    };
    dir.join(name).to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status 0, or a failure that shows what the command said.
fn ok(args: &[&str]) -> Output {
    let o = metaopt(args);
    assert!(
        o.status.success(),
        "metaopt {args:?} failed ({:?}):\n{}{}",
        o.status.code(),
        stdout(&o),
        stderr(&o)
    );
    o
}

/// Exactly one JSON object and nothing else on stdout.
fn one_json_object(o: &Output) -> serde_json::Map<String, Value> {
    let text = stdout(o);
    let mut docs = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    let first = docs
        .next()
        .expect("a JSON document on stdout")
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{text}"));
    assert!(
        docs.next().is_none(),
        "more than one JSON document on stdout:\n{text}"
    );
    match first {
        Value::Object(m) => m,
        other => panic!("stdout is not a JSON object: {other}"),
    }
}

/// The error contract: status 2, one `error: ` message naming what is wrong, no panic.
fn fails_with(args: &[&str], env: &[(&str, &str)], needles: &[&str]) -> String {
    let o = metaopt_env(args, env);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "metaopt {args:?}: expected exit 2\nstdout: {}\nstderr: {err}",
        stdout(&o)
    );
    assert!(
        err.starts_with("error: ") || err.contains("\nerror: "),
        "metaopt {args:?}: no `error: ` line:\n{err}"
    );
    assert!(
        !err.contains("panicked")
            && !err.contains("internal error")
            && !err.contains("stack backtrace"),
        "metaopt {args:?} panicked:\n{err}"
    );
    for n in needles {
        assert!(
            err.contains(n),
            "metaopt {args:?}: stderr lacks `{n}`:\n{err}"
        );
    }
    assert!(
        stdout(&o).is_empty(),
        "metaopt {args:?}: an error printed to stdout too:\n{}",
        stdout(&o)
    );
    err
}

#[test]
fn devices_lists_at_least_one_device() {
    let o = ok(&["devices"]);
    let text = stdout(&o);
    assert!(
        text.lines().any(|l| l.starts_with("* 0 ")),
        "device 0 is not marked as in use:\n{text}"
    );
    let m = one_json_object(&ok(&["devices", "--json"]));
    let devs = m["devices"].as_array().expect("a devices array");
    assert!(!devs.is_empty());
    assert_eq!(m["in_use"], 0);
    assert_eq!(devs[0]["index"], 0);
    assert_eq!(devs[0]["in_use"], true);
    for d in devs {
        for key in [
            "platform",
            "name",
            "type",
            "global_mem_bytes",
            "compute_units",
            "fp64",
        ] {
            assert!(d.get(key).is_some(), "device entry lacks {key}: {d}");
        }
    }
}

#[test]
fn devices_marks_the_device_chosen_by_the_environment() {
    let o = metaopt_env(&["devices"], &[("METAOPT_DEVICE", "0")]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("METAOPT_DEVICE=0"), "{}", stdout(&o));
}

#[test]
fn eval_of_a_published_solution() {
    let o = ok(&["qap", "eval", &data("had12.dat"), &data("had12.sln")]);
    let text = stdout(&o);
    assert!(
        text.lines()
            .any(|l| l.starts_with("cost") && l.trim_end().ends_with(" 1652")),
        "{text}"
    );
    assert!(
        text.contains("sln value    1652 (equal to the cost)"),
        "{text}"
    );
    let m = one_json_object(&ok(&[
        "qap",
        "eval",
        &data("nug12.dat"),
        &data("nug12.sln"),
        "--json",
    ]));
    assert_eq!(m["cost"], 578);
    assert_eq!(m["sln_value"], 578);
    assert_eq!(m["matches_sln_value"], true);
    assert_eq!(m["gap_percent"], 0.0);
}

/// `--output FILE` (global, before or after the command): what stdout would get goes to the
/// file instead, byte for byte; "-" is stdout; a command that fails leaves no file; an
/// unwritable path is an error naming `--output`.
#[test]
fn output_flag_writes_stdout_to_a_file() {
    let dir = std::env::temp_dir().join(format!("metaopt-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = [
        "qap",
        "eval",
        &data("nug12.dat"),
        &data("nug12.sln"),
        "--json",
    ];
    let expected = stdout(&ok(&args));
    for (i, before) in [true, false].into_iter().enumerate() {
        let f = dir.join(format!("eval{i}.json"));
        let fs = f.to_str().unwrap();
        let mut a: Vec<&str> = args.to_vec();
        if before {
            a.splice(0..0, ["--output", fs]);
        } else {
            a.extend(["-o", fs]);
        }
        let o = ok(&a);
        assert!(
            stdout(&o).is_empty(),
            "{a:?} printed to stdout: {}",
            stdout(&o)
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), expected, "{a:?}");
    }
    // "-" is stdout
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--output", "-"]);
    assert_eq!(stdout(&ok(&a)), expected);
    // a failing command creates no file
    let none = dir.join("none.json");
    fails_with(
        &[
            "qap",
            "eval",
            "no-such-file.dat",
            &data("nug12.sln"),
            "--output",
            none.to_str().unwrap(),
        ],
        &[],
        &["no-such-file.dat"],
    );
    assert!(!none.exists(), "a failed command left {}", none.display());
    // an unwritable path is an error naming --output
    let bad = dir.join("no-such-dir").join("x.json");
    fails_with(
        &[
            "qap",
            "eval",
            &data("nug12.dat"),
            &data("nug12.sln"),
            "--output",
            bad.to_str().unwrap(),
        ],
        &[],
        &["--output", "cannot write"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_of_an_explicit_permutation() {
    let had12 = data("had12.dat");
    // the optimum of had12, 1-based, as one argument, as several, and 0-based
    let m = one_json_object(&ok(&[
        "qap",
        "eval",
        &had12,
        "3,10,11,2,12,5,6,7,8,1,4,9",
        "--json",
    ]));
    assert_eq!(m["cost"], 1652);
    assert_eq!(m["sln_value"], Value::Null);
    let args = [
        "qap", "eval", &had12, "3", "10", "11", "2", "12", "5", "6", "7", "8", "1", "4", "9",
    ];
    assert!(stdout(&ok(&args)).contains("cost         1652"));
    let m = one_json_object(&ok(&[
        "qap",
        "eval",
        &had12,
        "--zero-based",
        "2 9 10 1 11 4 5 6 7 0 3 8",
        "--json",
    ]));
    assert_eq!(m["cost"], 1652);
    // the identity is not optimal
    let m = one_json_object(&ok(&[
        "qap",
        "eval",
        &had12,
        "1,2,3,4,5,6,7,8,9,10,11,12",
        "--json",
    ]));
    assert!(m["cost"].as_i64().unwrap() > 1652);
}

#[test]
fn solve_reaches_the_optimum_of_had12() {
    let o = ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("had12.dat"),
        "--target",
        "1652",
        "--time-limit",
        "60",
        "--json",
    ]);
    let m = one_json_object(&o);
    assert_eq!(m["cost"], 1652, "{m:?}");
    assert_eq!(m["target_reached"], true);
    assert_eq!(m["gap_percent"], 0.0);
    assert_eq!(m["bks"], 1652);
    assert_eq!(m["backend"], "device");
    // the reported permutation (1-based) has the reported cost
    let perm: Vec<String> = m["permutation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    let e = one_json_object(&ok(&[
        "qap",
        "eval",
        &data("had12.dat"),
        &perm.join(","),
        "--json",
    ]));
    assert_eq!(e["cost"], 1652);
}

#[test]
fn solve_prints_a_readable_summary() {
    let o = ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("nug12.dat"),
        "--target",
        "bks",
        "--time-limit",
        "60",
    ]);
    let text = stdout(&o);
    for line in [
        "best cost    578",
        "best known   578 (proven optimal), gap 0.000 %",
        "permutation  ",
        "runs ",
        "iterations ",
        "evaluations ",
        "time ",
        "device       device 0",
    ] {
        assert!(text.contains(line), "summary lacks `{line}`:\n{text}");
    }
    // not a terminal: no progress bar
    assert!(stderr(&o).is_empty(), "unexpected stderr:\n{}", stderr(&o));
}

#[test]
fn cpu_backend_gives_the_device_result() {
    // integer data and the same seed: the same runs on the CPU and on the device, to the bit
    let common = [
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("chr12a.dat"),
        "--restarts",
        "4",
        "--seed",
        "7",
        "--json",
    ];
    let dev = one_json_object(&ok(&common));
    let cpu = one_json_object(&ok(&[&common[..], &["--cpu"]].concat()));
    assert_eq!(cpu["backend"], "cpu");
    assert_eq!(cpu["device_index"], Value::Null);
    assert_eq!(cpu["runs"], 5);
    for key in ["cost", "permutation", "runs", "iterations", "evaluations"] {
        assert_eq!(
            dev[key], cpu[key],
            "{key} differs: device {dev:?}, cpu {cpu:?}"
        );
    }
    // and the full-cost kernel takes the same path as the delta one
    let full = one_json_object(&ok(&[&common[..], &["--full-cost"]].concat()));
    assert_eq!(full["cost_form"], "full");
    for key in ["cost", "permutation", "iterations"] {
        assert_eq!(
            dev[key], full[key],
            "{key} differs between the delta and the full cost"
        );
    }
}

#[test]
fn solve_options_are_passed_through() {
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("had12.dat"),
        "--swaps",
        "3",
        "--mask-order",
        "1",
        "--restarts",
        "2",
        "--seed",
        "5",
        "--start",
        "identity",
        "--restart-mode",
        "random",
        "--bks",
        "1700",
        "--json",
    ]));
    assert_eq!(m["swaps"], 3);
    assert_eq!(m["mask_order"], 1);
    assert_eq!(m["rows"], 1 + 2 * 3 * 4); // 1 + string bits (6 parameters of 4 bits)
    assert_eq!(m["runs"], 3);
    assert_eq!(m["start"], "identity");
    assert_eq!(m["restart_mode"], "random");
    assert_eq!(m["bks"], 1700);
    assert_eq!(m["target"], Value::Null);
    let gap = m["gap_percent"].as_f64().unwrap();
    let cost = m["cost"].as_f64().unwrap();
    assert!((gap - 100.0 * (cost - 1700.0) / 1700.0).abs() < 1e-9);

    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("had12.dat"),
        "--start-permutation",
        "3,10,11,2,12,5,6,7,8,1,4,9",
        "--restarts",
        "0",
        "--json",
    ]));
    // a run from the optimum cannot leave it
    assert_eq!(m["cost"], 1652);
    assert_eq!(m["start"], "given");
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("nug12.dat"),
        "--start",
        "glb",
        "--restarts",
        "0",
        "--json",
    ]));
    assert_eq!(m["start"], "glb");
    assert_eq!(m["runs"], 1);
}

#[test]
fn device_flag_selects_a_device() {
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("nug12.dat"),
        "--device",
        "0",
        "--restarts",
        "0",
        "--json",
    ]));
    assert_eq!(m["device_index"], 0);
    assert!(m["device"].as_str().unwrap().starts_with("device 0: "));
}

#[test]
fn malformed_input_is_a_clear_error() {
    let had12 = data("had12.dat");
    fails_with(
        &["qap", "eval", "no/such/file.dat", "1"],
        &[],
        &["cannot read", "no/such/file.dat"],
    );
    fails_with(
        &["qap", "solve", "no/such/file.dat"],
        &[],
        &["cannot read", "no/such/file.dat"],
    );
    fails_with(
        &["qap", "eval", &had12, &data("no_such.sln")],
        &[],
        &["cannot read", "no_such.sln"],
    );
    fails_with(
        &["qap", "eval", &had12, "1,2,3"],
        &[],
        &["permutation", "expected 12"],
    );
    fails_with(
        &["qap", "eval", &had12, "1,1,2,3,4,5,6,7,8,9,10,11"],
        &[],
        &["permutation"],
    );
    fails_with(
        &["qap", "eval", &had12, "0,1,2,3,4,5,6,7,8,9,10,11"],
        &[],
        &["permutation", "--zero-based"],
    );
    fails_with(
        &["qap", "eval", &had12, "1,2,x"],
        &[],
        &["permutation", "`x`"],
    );
    fails_with(
        &["qap", "eval", &had12, &data("chr12a.sln"), "extra"],
        &[],
        &["permutation"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &had12,
            "--start-permutation",
            "1,2",
        ],
        &[],
        &["--start-permutation"],
    );
    fails_with(
        &["qap", "solve", &had12, "--device", "99"],
        &[],
        &["--device", "99", "does not exist"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &had12,
            "--restarts",
            "0",
        ],
        &[("METAOPT_DEVICE", "99")],
        &["METAOPT_DEVICE", "99"],
    );
    fails_with(
        &["qap", "solve", "--method", "hc12", &had12, "--swaps", "0"],
        &[],
        &["--swaps"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &had12,
            "--mask-order",
            "4",
        ],
        &[],
        &["--mask-order"],
    );
    fails_with(
        &["qap", "solve", &had12, "--time-limit=-1"],
        &[],
        &["--time-limit"],
    );
    fails_with(
        &["qap", "solve", &had12, "--target", "best"],
        &[],
        &["--target"],
    );
    fails_with(
        &["qap", "solve", &had12, "--cpu", "--device", "0"],
        &[],
        &["--device"],
    );
    fails_with(
        &["qap", "solve", &had12, "--no-such-flag"],
        &[],
        &["--no-such-flag"],
    );
    fails_with(
        &["bench", "qap", "--instance", &had12, "--swaps", "99"],
        &[],
        &["--swaps"],
    );

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.dat");
    // n = 3, then 9 entries of A, and B stops short with a word in it
    std::fs::write(&bad, "3\n\n1 2 3\n4 5 6\n7 8 9\n\n1 2 3\n4 five 6\n").unwrap();
    fails_with(
        &["qap", "solve", bad.to_str().unwrap()],
        &[],
        &["bad.dat:8", "five"],
    );
    fails_with(
        &["qap", "eval", bad.to_str().unwrap(), "1,2,3"],
        &[],
        &["bad.dat:8"],
    );
    let short = dir.path().join("short.dat");
    std::fs::write(&short, "4\n1 2 3 4\n").unwrap();
    fails_with(
        &["qap", "solve", short.to_str().unwrap()],
        &[],
        &["short.dat"],
    );
}

#[test]
fn target_bks_needs_a_best_known_value() {
    // an instance without BKS.csv beside it
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("had12.dat");
    std::fs::copy(data("had12.dat"), &copy).unwrap();
    let c = copy.to_str().unwrap();
    fails_with(
        &["qap", "solve", c, "--target", "bks"],
        &[],
        &["--target bks", "--bks"],
    );
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        c,
        "--restarts",
        "0",
        "--json",
    ]));
    assert_eq!(m["bks"], Value::Null);
    assert_eq!(m["gap_percent"], Value::Null);
    // --bks supplies it
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        c,
        "--bks",
        "1652",
        "--target",
        "bks",
        "--restarts",
        "0",
        "--json",
    ]));
    assert_eq!(m["target"], 1652);
}

#[test]
fn bench_reports_every_evaluator_and_their_agreement() {
    let csv = tempfile::NamedTempFile::new().unwrap();
    let o = ok(&[
        "bench",
        "qap",
        "--instance",
        &data("nug12.dat"),
        "--swaps",
        "4",
        "--iterations",
        "2",
        "--csv",
        csv.path().to_str().unwrap(),
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "instance,n,swaps,rows,evaluator,device,threads,iterations,seconds,rows_per_second,speedup_vs_cpu,speedup_vs_one_thread,best_row,best_cost"
    );
    assert_eq!(lines.len(), 7, "{text}");
    for (line, ev) in lines[1..].iter().zip([
        "device-full",
        "device-delta",
        "cpu-delta",
        "cpu-full",
        "cpu1-delta",
        "cpu1-full",
    ]) {
        assert!(line.starts_with(&format!("nug12,12,4,529,{ev},")), "{line}");
        // the columns after the device's (a quoted field with commas), counted from the end
        let f: Vec<&str> = line.rsplit(',').take(8).collect();
        let threads = f[7];
        match ev {
            "cpu1-delta" | "cpu1-full" => assert_eq!(threads, "1", "{line}"),
            "cpu-delta" | "cpu-full" => assert!(threads.parse::<usize>().unwrap() >= 1, "{line}"),
            _ => assert_eq!(threads, "", "{line}"),
        }
        // both speedup columns are filled and positive; each baseline is 1 against itself
        let (vs_cpu, vs_one): (f64, f64) = (f[3].parse().unwrap(), f[2].parse().unwrap());
        assert!(vs_cpu > 0.0 && vs_one > 0.0, "{line}");
        if ev == "cpu-delta" {
            assert_eq!(f[3], "1.000", "{line}");
        }
        if ev == "cpu1-delta" {
            assert_eq!(f[2], "1.000", "{line}");
        }
    }
    assert_eq!(std::fs::read_to_string(csv.path()).unwrap(), text);
    assert!(
        stderr(&o).contains("check: all 6 evaluators returned the same best row"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn without_an_opencl_driver_the_cpu_backend_still_works() {
    // the ICD loader (ocl-icd) then finds no vendor driver, as on a machine without OpenCL
    let dir = tempfile::tempdir().unwrap();
    let env = [("OCL_ICD_VENDORS", dir.path().to_str().unwrap())];
    fails_with(&["devices"], &env, &["no OpenCL device"]);
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &data("nug12.dat"),
            "--restarts",
            "0",
        ],
        &env,
        &["no OpenCL device", "--cpu"],
    );
    let o = metaopt_env(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &data("nug12.dat"),
            "--restarts",
            "0",
            "--cpu",
            "--json",
        ],
        &env,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(one_json_object(&o)["backend"], "cpu");
}

#[test]
fn help_and_version() {
    let o = ok(&["--help"]);
    for cmd in ["devices", "qap", "bench"] {
        assert!(stdout(&o).contains(cmd));
    }
    let o = ok(&["qap", "solve", "--help"]);
    for flag in [
        "--swaps",
        "--mask-order",
        "--restarts",
        "--time-limit",
        "--seed",
        "--device",
        "--start",
        "--target",
        "--bks",
        "--cpu",
        "--json",
    ] {
        assert!(stdout(&o).contains(flag), "solve --help lacks {flag}");
    }
    assert!(stdout(&ok(&["--version"])).starts_with("metaopt "));
    // no subcommand: usage on stderr, status 2
    assert_eq!(metaopt(&[]).status.code(), Some(2));
}

#[test]
fn solve_with_a_tabu_list() {
    let o = ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &data("nug12.dat"),
        "--swaps",
        "4",
        "--restarts",
        "1",
        "--tabu",
        "20",
        "--no-improve",
        "15",
        "--json",
    ]);
    let j = one_json_object(&o);
    assert_eq!(j["tabu"]["max_length"], 20);
    assert_eq!(j["tabu"]["max_no_improve"], 15);
    assert!(
        j["iterations"].as_u64().unwrap() >= 16,
        "a tabu run goes on past its first local optimum"
    );
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &data("nug12.dat"),
            "--tabu",
            "0",
        ],
        &[],
        &["--tabu"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            "--method",
            "hc12",
            &data("nug12.dat"),
            "--no-improve",
            "5",
        ],
        &[],
        &["--tabu"],
    );
}

#[test]
fn bench_tabu_writes_the_table_as_csv() {
    let qaplib = root().join("data/qaplib");
    let o = ok(&[
        "bench",
        "tabu",
        "--qaplib",
        qaplib.to_str().unwrap(),
        "--instances",
        "esc16a",
        "--runs",
        "3",
        "--swaps",
        "6",
        "--cpu",
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(
            "instance,n,swaps,mode,runs,successes,success_ratio_percent,wilson95_low_percent,wilson95_high_percent,time_to_optimum_s"
        ),
        "{text}"
    );
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with("esc16a,16,6,plain,3,")
            && lines[2].starts_with("esc16a,16,6,tabu100,3,"),
        "{text}"
    );
    fails_with(
        &[
            "bench",
            "tabu",
            "--qaplib",
            qaplib.to_str().unwrap(),
            "--instances",
            "nug12",
        ],
        &[],
        &["--swaps"],
    );
}

// ---- qap solve --method ts (the default) ---------------------------------------------------

#[test]
fn ts_reaches_the_bks_of_had12_and_nug12_on_the_cpu() {
    for (name, bks) in [("had12.dat", 1652), ("nug12.dat", 578)] {
        let m = one_json_object(&ok(&[
            "qap",
            "solve",
            &data(name),
            "--cpu",
            "--chains",
            "4",
            "--target",
            "bks",
            "--time-limit",
            "30",
            "--json",
        ]));
        assert_eq!(m["method"], "ts");
        assert_eq!(m["cost"], bks, "{m:?}");
        assert_eq!(m["bks"], bks);
        assert_eq!(m["gap_percent"], 0.0);
        assert_eq!(m["target"], bks);
        assert_eq!(m["target_reached"], true);
        assert_eq!(m["chains"], 4);
        assert_eq!(m["backend"], "cpu");
        assert_eq!(m["device_index"], Value::Null);
        for key in [
            "n",
            "permutation",
            "iterations",
            "restarts",
            "seconds",
            "seconds_to_best",
            "device",
            "launches",
            "seed",
        ] {
            assert!(m.contains_key(key), "no {key} in {m:?}");
        }
        assert!(m["seconds"].as_f64().unwrap() < 30.0);
        // the permutation (1-based) has the reported cost
        let perm: Vec<String> = m["permutation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        let e = one_json_object(&ok(&[
            "qap",
            "eval",
            &data(name),
            &perm.join(","),
            "--json",
        ]));
        assert_eq!(e["cost"], bks);
    }
}

#[test]
fn ts_reaches_the_bks_on_the_device_and_agrees_with_the_cpu() {
    for (name, bks) in [("had12.dat", 1652), ("nug12.dat", 578)] {
        let m = one_json_object(&ok(&[
            "qap",
            "solve",
            &data(name),
            "--chains",
            "4",
            "--target",
            "bks",
            "--time-limit",
            "30",
            "--json",
        ]));
        assert_eq!(m["cost"], bks, "{m:?}");
        assert_eq!(m["backend"], "device");
        assert_eq!(m["target_reached"], true);
    }
    // integer data, the same seed, chains and iterations: the device and the CPU agree
    let common = [
        "qap",
        "solve",
        &data("chr12a.dat"),
        "--chains",
        "3",
        "--iterations",
        "500",
        "--seed",
        "7",
        "--json",
    ];
    let dev = one_json_object(&ok(&common));
    let cpu = one_json_object(&ok(&[&common[..], &["--cpu"]].concat()));
    for key in ["cost", "permutation", "iterations", "restarts"] {
        assert_eq!(dev[key], cpu[key], "{key}: device {dev:?}, cpu {cpu:?}");
    }
}

#[test]
fn ts_prints_a_readable_summary_and_stops_by_iterations() {
    let o = ok(&[
        "qap",
        "solve",
        &data("nug12.dat"),
        "--cpu",
        "--chains",
        "2",
        "--iterations",
        "300",
        "--seed",
        "3",
    ]);
    let text = stdout(&o);
    for line in [
        "instance     nug12 (n = 12)",
        "solver       robust tabu search, 2 chains, seed 3",
        "best cost    ",
        "best known   578 (proven optimal), gap ",
        "permutation  ",
        "iterations   300 per chain, 600 in total",
        "restarts     ",
        "time         ",
    ] {
        assert!(text.contains(line), "summary lacks `{line}`:\n{text}");
    }
    assert!(stderr(&o).is_empty(), "unexpected stderr:\n{}", stderr(&o));
    // the same seed gives the same result
    let a = one_json_object(&ok(&[
        "qap",
        "solve",
        &data("chr12a.dat"),
        "--cpu",
        "--chains",
        "3",
        "--iterations",
        "400",
        "--seed",
        "9",
        "--json",
    ]));
    let b = one_json_object(&ok(&[
        "qap",
        "solve",
        &data("chr12a.dat"),
        "--cpu",
        "--chains",
        "3",
        "--iterations",
        "400",
        "--seed",
        "9",
        "--json",
    ]));
    assert_eq!(a["iterations"], 400);
    for key in ["cost", "permutation", "restarts"] {
        assert_eq!(a[key], b[key]);
    }
}

#[test]
fn the_tabu_search_warm_starts_from_given_permutations() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let nug12 = data("nug12.dat");
    // nug12's optimum (cost 578), 1-based, and its reverse
    let opt = "12 7 9 3 4 8 11 1 5 6 10 2";
    let file = dir.join("starts.txt");
    std::fs::write(
        &file,
        format!("# two starts\n{opt}\n\n2,10,6,5,1,11,8,4,3,9,7,12\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let args = [
            &["qap", "solve", nug12.as_str(), "--cpu", "--chains", "4"][..],
            &["--iterations", "1", "--seed", "5", "--json"][..],
            extra,
        ]
        .concat();
        one_json_object(&ok(&args))
    };
    let cold = run(&[]);
    assert!(cold["cost"].as_i64().unwrap() > 578, "{cold:?}");
    for extra in [
        &["--start", f][..],
        &["--start-permutation", "12,7,9,3,4,8,11,1,5,6,10,2"][..],
    ] {
        let m = run(extra);
        assert_eq!(m["cost"], 578, "{extra:?}: {m:?}");
    }
    // hc12 takes the file's first permutation for its first run
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        "--method",
        "hc12",
        &nug12,
        "--cpu",
        "--start",
        f,
        "--restarts",
        "0",
        "--json",
    ]));
    assert_eq!(
        (m["cost"].as_i64(), m["start"].as_str()),
        (Some(578), Some("given"))
    );
    // bad files name the flag, the file and the line
    for (text, needle) in [
        ("1 2 3\n", "line 1"),
        ("# nothing\n", "no permutation"),
        (&format!("{opt}\n{opt} 13\n")[..], "line 2"),
    ] {
        std::fs::write(&file, text).unwrap();
        fails_with(
            &["qap", "solve", &nug12, "--cpu", "--start", f],
            &[],
            &["--start", "starts.txt", needle],
        );
    }
    std::fs::write(&file, format!("{opt}\n").repeat(5)).unwrap();
    fails_with(
        &[
            "qap", "solve", &nug12, "--cpu", "--chains", "4", "--start", f,
        ],
        &[],
        &["start", "4"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            &nug12,
            "--cpu",
            "--start",
            "/nonexistent/starts.txt",
        ],
        &[],
        &["--start", "/nonexistent/starts.txt"],
    );
}

#[test]
fn qap_solve_writes_its_convergence_log_and_plot() {
    let tmp = tempfile::tempdir().unwrap();
    let nug12 = data("nug12.dat");
    for (method, work) in [("ts", "iterations"), ("hc12", "runs")] {
        let csv = tmp.path().join(format!("{method}.csv"));
        let png = tmp.path().join(format!("{method}.png"));
        let m = one_json_object(&ok(&[
            "qap",
            "solve",
            &nug12,
            "--cpu",
            "--method",
            method,
            "--csv",
            csv.to_str().unwrap(),
            "--plot",
            png.to_str().unwrap(),
            "--json",
        ]));
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(format!("seconds,{work},best").as_str()));
        let rows: Vec<(f64, u64, f64)> = lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                )
            })
            .collect();
        assert!(!rows.is_empty(), "{method}");
        // time and work go forward, the best never gets worse, and the last is the result
        assert!(rows
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1 && w[1].2 <= w[0].2));
        assert_eq!(
            rows.last().unwrap().2,
            m["cost"].as_f64().unwrap(),
            "{method}"
        );
        let png = std::fs::read(&png).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
    fails_with(
        &["qap", "solve", &nug12, "--cpu", "--plot", "x.svg"],
        &[],
        &["--plot", ".png"],
    );
}

#[test]
fn flags_of_the_other_method_are_refused() {
    let nug12 = data("nug12.dat");
    for (flag, args) in [
        ("--swaps", vec!["--swaps", "4"]),
        ("--mask-order", vec!["--mask-order", "1"]),
        ("--restarts", vec!["--restarts", "0"]),
        ("--start", vec!["--start", "identity"]),
        ("--restart-mode", vec!["--restart-mode", "random"]),
        ("--full-cost", vec!["--full-cost"]),
        ("--tabu", vec!["--tabu", "10"]),
        ("--max-runs", vec!["--max-runs", "3"]),
    ] {
        let all = [&["qap", "solve", nug12.as_str(), "--cpu"][..], &args[..]].concat();
        fails_with(&all, &[], &[flag, "--method hc12"]);
        let all = [
            &["qap", "solve", nug12.as_str(), "--cpu", "--method", "ts"][..],
            &args[..],
        ]
        .concat();
        fails_with(&all, &[], &[flag, "--method hc12"]);
    }
    for (flag, args) in [
        ("--chains", ["--chains", "4"]),
        ("--max-iterations", ["--iterations", "10"]),
    ] {
        let all = [
            &["qap", "solve", nug12.as_str(), "--cpu", "--method", "hc12"][..],
            &args[..],
        ]
        .concat();
        fails_with(&all, &[], &[flag, "--method ts"]);
    }
    fails_with(
        &["qap", "solve", &nug12, "--cpu", "--chains", "0"],
        &[],
        &["--chains"],
    );
    fails_with(
        &["qap", "solve", &nug12, "--cpu", "--iterations", "0"],
        &[],
        &["--max-iterations"],
    );
    fails_with(
        &["qap", "solve", &nug12, "--method", "aco"],
        &[],
        &["--method"],
    );
    let o = ok(&["qap", "solve", "--help"]);
    for flag in ["--method", "--chains", "--max-iterations"] {
        assert!(stdout(&o).contains(flag), "solve --help lacks {flag}");
    }
}

#[test]
fn bench_qap_ts_writes_iterations_per_second() {
    let o = ok(&[
        "bench",
        "qap-ts",
        "--backends",
        "cpu,cpu1",
        "--chains",
        "2",
        "--iterations",
        "50",
        &data("nug12.dat"),
        &data("had12.dat"),
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "instance,n,backend,device,chains,iterations,seconds,iterations_per_second_per_chain,iterations_per_second,speedup_vs_one_thread,best_cost");
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[1].starts_with("nug12,12,cpu,"), "{text}");
    assert!(lines[2].starts_with("nug12,12,cpu-1-thread,"), "{text}");
    assert!(lines[2].contains(",2,50,"), "{text}");
    assert!(lines[4].starts_with("had12,12,cpu-1-thread,"), "{text}");
    fails_with(
        &[
            "bench",
            "qap-ts",
            "--backends",
            "cpu",
            "--chains",
            "0",
            &data("nug12.dat"),
        ],
        &[],
        &["--chains"],
    );
}

#[test]
fn bench_qap_quality_writes_gaps_beside_rots() {
    let o = ok(&[
        "bench",
        "qap-quality",
        "--cpu",
        "--time-limit",
        "2",
        "--runs",
        "2",
        "--chains",
        "2",
        &data("had12.dat"),
        &data("chr20a.dat"),
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "instance,n,bks,runs,time_limit,best_gap_percent,mean_gap_percent,worst_gap_percent,bks_hits,mean_seconds_to_best,rots_mean_gap_percent,rots_bks_hits,chains,devices,rots_seeds,rots_best_gap_percent,worse_than_rots");
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with("had12,12,1652,2,2,0.0000,0.0000,0.0000,2,"),
        "{text}"
    );
    assert!(
        lines[1].ends_with(",,,2,,,,"),
        "had12 is not in RoTS's table; 2 chains on the CPU backend: {text}"
    );
    assert!(lines[2].starts_with("chr20a,20,2192,2,2,"), "{text}");
    assert!(lines[2].ends_with(",0.00,5 of 5,2,,,,"), "{text}");
    assert!(
        stderr(&o).contains("mean gap over the 2 instances"),
        "{}",
        stderr(&o)
    );
}

/// `--rots` runs a reference command per instance side by side and reads its improvement
/// lines; here a stand-in that prints what RoTS prints (RoTS itself is not redistributable).
#[test]
fn bench_qap_quality_runs_a_reference_command_side_by_side() {
    // a reference that reaches 1700 on had12 (best known 1652): the solver is not worse
    let fake = "printf 'Using seed {seed} on {file}\\nNew best cost: 1800.000000 at iteration 1 (time: 0.001 s)\\nNew best cost: 1700.000000 at iteration 9 (time: 0.002 s)\\n'";
    let o = ok(&[
        "bench",
        "qap-quality",
        "--cpu",
        "--time-limit",
        "2",
        "--runs",
        "1",
        "--chains",
        "2",
        "--rots",
        fake,
        "--rots-seeds",
        "3",
        &data("had12.dat"),
    ]);
    let text = stdout(&o);
    let row = text.lines().nth(1).unwrap();
    let gap = format!("{:.4}", 100.0 * (1700.0 - 1652.0) / 1652.0);
    assert!(row.ends_with(&format!(",3,{gap},false")), "{text}");
    assert!(
        stderr(&o).contains("worse than RoTS on 0"),
        "{}",
        stderr(&o)
    );
    // a reference that prints nothing is an error naming --rots
    fails_with(
        &[
            "bench",
            "qap-quality",
            "--cpu",
            "--time-limit",
            "1",
            "--runs",
            "1",
            "--chains",
            "1",
            "--rots",
            "true",
            &data("had12.dat"),
        ],
        &[],
        &["--rots"],
    );
}

/// `qap generate` writes instances the solvers read: a lipa kind with its optimum (which the
/// tabu search reaches on a small size), and Taillard's kind above 256, which `qap solve` takes.
#[test]
fn qap_generate_writes_instances_the_solver_reads() {
    let dir = tempfile::tempdir().unwrap();
    let dat = dir.path().join("la16.dat");
    ok(&[
        "qap",
        "generate",
        "--kind",
        "lipa-a",
        "--n",
        "16",
        "--seed",
        "4",
        "--output",
        dat.to_str().unwrap(),
    ]);
    let sln = std::fs::read_to_string(dir.path().join("la16.sln")).unwrap();
    let optimum: i64 = sln.split_whitespace().nth(1).unwrap().parse().unwrap();
    // the published optimum evaluates to itself
    let perm: Vec<&str> = sln.split_whitespace().skip(2).collect();
    let mut args = vec!["qap", "eval", dat.to_str().unwrap()];
    args.extend(perm.iter().copied());
    assert!(stdout(&ok(&args)).contains(&optimum.to_string()));
    let o = ok(&[
        "qap",
        "solve",
        dat.to_str().unwrap(),
        "--cpu",
        "--chains",
        "4",
        "--time-limit",
        "60",
        "--target",
        &optimum.to_string(),
        "--json",
    ]);
    let m = one_json_object(&o);
    assert_eq!(m["cost"].as_i64(), Some(optimum), "{m:?}");
    // bench qap-quality takes the optimum from the .sln beside it (no BKS.csv there)
    let o = ok(&[
        "bench",
        "qap-quality",
        "--cpu",
        "--time-limit",
        "30",
        "--runs",
        "1",
        "--chains",
        "4",
        dat.to_str().unwrap(),
    ]);
    let row = stdout(&o).lines().nth(1).unwrap().to_string();
    assert!(
        row.starts_with(&format!("la16,16,{optimum},1,30,0.0000,")),
        "{row}"
    );
    // n = 300: the tabu search, with 16-bit permutations; the same seed, the same file
    let big = dir.path().join("tb300.dat");
    for _ in 0..2 {
        ok(&[
            "qap",
            "generate",
            "--kind",
            "taillard-b",
            "--n",
            "300",
            "--output",
            big.to_str().unwrap(),
        ]);
    }
    let o = ok(&[
        "qap",
        "solve",
        big.to_str().unwrap(),
        "--cpu",
        "--chains",
        "2",
        "--max-iterations",
        "20",
        "--json",
    ]);
    let m = one_json_object(&o);
    assert_eq!(m["n"].as_u64(), Some(300), "{m:?}");
    assert_eq!(m["permutation"].as_array().unwrap().len(), 300);
    assert_eq!(
        (m["chains"].as_u64(), m["chains_requested"].as_u64()),
        (Some(2), Some(2))
    );
    // HC12 names its own limit
    fails_with(
        &[
            "qap",
            "solve",
            big.to_str().unwrap(),
            "--cpu",
            "--method",
            "hc12",
            "--runs",
            "1",
        ],
        &[],
        &["256"],
    );
    fails_with(
        &[
            "qap",
            "generate",
            "--kind",
            "lipa-b",
            "--n",
            "5000",
            "--output",
            big.to_str().unwrap(),
        ],
        &[],
        &["--n"],
    );
}

#[test]
fn bench_qap_scale_writes_throughput_and_time_to_quality() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.csv");
    let png = dir.path().join("s.png");
    let fake = "printf 'New best cost: 1e30 at iteration 1 (time: 0.5 s)\\n'";
    let o = ok(&[
        "bench",
        "qap-scale",
        &data("nug12.dat"),
        "--sizes",
        "300",
        "--backends",
        "cpu",
        "--chains",
        "2",
        "--iterations",
        "10",
        "--time-limit",
        "1",
        "--quality",
        "gen:40",
        "--rots",
        fake,
        "--rots-cores",
        "2",
        "--quality-csv",
        q.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("instance,n,backend,device,chains,chains_requested,iterations"),
        "{text}"
    );
    assert!(lines[1].starts_with("nug12,12,cpu,"), "{text}");
    assert!(lines[2].starts_with("taib300,300,cpu,"), "{text}");
    assert!(lines[2].contains(",2,2,10,"), "{text}");
    assert!(
        lines[0].contains(",iterations_per_second,first_launch_seconds,delta_memory,"),
        "{text}"
    );
    let q = std::fs::read_to_string(&q).unwrap();
    let rows: Vec<&str> = q.lines().collect();
    assert_eq!(rows.len(), 3, "{q}");
    // the solver is the best of all (the stand-in's value is huge): it reaches 0.1 % of it
    assert!(rows[1].starts_with("taib40,40,metaopt cpu,1,"), "{q}");
    assert!(!rows[1].ends_with(",,,2"), "{q}");
    assert!(
        rows[2].starts_with("taib40,40,RoTS,1,1000000000000000000000000000000,"),
        "{q}"
    );
    assert!(rows[2].ends_with(",,,2"), "{q}");
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
}

#[test]
fn ts_tuning_flags_reach_the_solver_and_are_checked() {
    // a short stagnation horizon and a small pool make restarts happen on had12 within 3 launches
    let m = one_json_object(&ok(&[
        "qap",
        "solve",
        &data("had12.dat"),
        "--cpu",
        "--chains",
        "2",
        "--iterations",
        "300",
        "--launch-iterations",
        "100",
        "--stagnation",
        "1",
        "--elite",
        "2",
        "--perturbation",
        "2,3",
        "--tenure",
        "uniform",
        "--horizon",
        "50",
        "--seed",
        "3",
        "--json",
    ]));
    assert!(m["launches"].as_u64().unwrap() >= 3, "{m:?}");
    assert_eq!(m["iterations"], 300, "{m:?}");
    assert!(m["restarts"].as_u64().unwrap() > 0, "{m:?}");
    fails_with(
        &[
            "qap",
            "solve",
            &data("had12.dat"),
            "--perturbation",
            "3,2",
            "--cpu",
        ],
        &[],
        &["--perturbation"],
    );
    fails_with(
        &["qap", "solve", &data("had12.dat"), "--perturbation", "3"],
        &[],
        &["--perturbation", "MIN,MAX"],
    );
    fails_with(
        &["qap", "solve", &data("had12.dat"), "--tenure", "long"],
        &[],
        &["--tenure", "cubic or uniform"],
    );
    fails_with(
        &[
            "qap",
            "solve",
            &data("had12.dat"),
            "--method",
            "hc12",
            "--stagnation",
            "5",
        ],
        &[],
        &["--stagnation", "only for --method ts"],
    );
}

/// Ctrl-C (SIGINT) stops a solve at its next check: the binary prints the best so far, says it
/// was interrupted and exits with 130; the JSON output names the stop.
#[test]
fn ctrl_c_prints_the_best_so_far_and_exits_130() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    for (json, backend) in [(false, "--cpu"), (true, "--device=0")] {
        let mut args = vec![
            "qap",
            "solve",
            "data/qaplib/tai50a.dat",
            "--time-limit",
            "60",
            "--launch-iterations",
            "200",
            backend,
        ];
        if json {
            args.push("--json");
        }
        let child = Command::new(env!("CARGO_BIN_EXE_metaopt"))
            .args(&args)
            .current_dir(root())
            .env_remove("METAOPT_DEVICE")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(2500));
        let sent = Instant::now();
        assert!(Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success());
        let o = child.wait_with_output().unwrap();
        let waited = sent.elapsed();
        let (out, err) = (stdout(&o), String::from_utf8_lossy(&o.stderr).into_owned());
        assert_eq!(o.status.code(), Some(130), "{out}\n{err}");
        assert!(waited < Duration::from_secs(10), "{waited:?}");
        assert!(err.contains("interrupted"), "{err}");
        if json {
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["stopped_by"], "interrupted", "{out}");
            assert!(v["cost"].as_i64().unwrap() > 4_938_796 - 1, "{out}");
            assert_eq!(v["permutation"].as_array().unwrap().len(), 50);
        } else {
            assert!(out.contains("stopped by   interrupted"), "{out}");
            assert!(out.contains("best cost"), "{out}");
        }
    }
}
