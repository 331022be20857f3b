//! `metaopt de`, `metaopt experiment de-sdis` / `de-migration` and `metaopt bench de` /
//! `de-digits` end to end, on sizes small enough for PoCL on two cores.

use crate::run;
use run::{fails, ok};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// A PNG file of plausible size: the signature, and the IHDR's width (the panels' `width` and a
/// legend column of 120 to 420 pixels beside them) and height.
fn check_png(path: &Path, width: u32, height: u32) {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    assert_eq!(&b[12..16], b"IHDR");
    let w = u32::from_be_bytes(b[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(b[20..24].try_into().unwrap());
    assert!(
        (width + 120..=width + 420).contains(&w) && h == height,
        "{}: {w} x {h}",
        path.display()
    );
    assert!(
        b.len() > 10_000,
        "{}: only {} bytes",
        path.display(),
        b.len()
    );
}

fn csv_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The shared stop options, the precision and the float output of `de`.
#[test]
fn de_stop_options_and_precision() {
    let base = [
        "de",
        "--function",
        "F1",
        "--dims",
        "3",
        "--islands",
        "4",
        "--members",
        "8",
    ];
    let j = json(&[&base[..], &["--max-generations", "20", "--json"]].concat());
    assert_eq!(j["generations"], 20);
    assert_eq!(j["precision"], "double");
    assert_eq!(j["f_mode"], "linspace");
    let j = json(
        &[
            &base[..],
            &[
                "--max-generations",
                "20",
                "--single",
                "--F-mode",
                "const",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(j["precision"], "single");
    assert_eq!(j["f_mode"], "const");
    assert_eq!(j["selection"], "ties");
    // the thesis's strict selection and F mode name
    let js = json(
        &[
            &base[..],
            &[
                "--max-generations",
                "20",
                "--selection",
                "strict",
                "--F-mode",
                "const_min",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        (
            js["selection"].as_str(),
            js["f_mode"].as_str(),
            js["generations"].as_u64()
        ),
        (Some("strict"), Some("const"), Some(20))
    );
    let v = j["value"].as_f64().unwrap();
    assert_eq!(
        format!("{}", v as f32).parse::<f64>().unwrap(),
        v,
        "the shortest f32"
    );
    // the fitness precision (the thesis's FPf): the storage precision unless named
    assert_eq!(
        (
            j["fitness_precision"].as_str(),
            js["fitness_precision"].as_str()
        ),
        (Some("single"), Some("double"))
    );
    let jf = json(
        &[
            &base[..],
            &[
                "--max-generations",
                "20",
                "--fitness-precision",
                "single",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        (jf["precision"].as_str(), jf["fitness_precision"].as_str()),
        (Some("double"), Some("single"))
    );
    let v = jf["value"].as_f64().unwrap();
    assert_eq!(
        format!("{}", v as f32).parse::<f64>().unwrap(),
        v,
        "a single fitness value, as the shortest f32"
    );
    let t = ok(&[
        &base[..],
        &[
            "--generations",
            "5",
            "--single",
            "--fitness-precision",
            "double",
        ],
    ]
    .concat());
    assert!(t.contains("precision    single (fitness double)"), "{t}");
    // --double is still taken (the default)
    let t = ok(&[&base[..], &["--generations", "5", "--double"]].concat());
    assert!(
        t.contains("precision    double") && t.contains("stopped by   budget"),
        "{t}"
    );
    let t = ok(&[&base[..], &["--time-limit", "1"]].concat());
    assert!(t.contains("stopped by   time_limit"), "{t}");
    fails(
        &[&base[..], &["--time-limit", "1e20"]].concat(),
        "--time-limit",
    );
    fails(
        &[&base[..], &["--time-limit", "inf"]].concat(),
        "--time-limit",
    );
    fails(&[&base[..], &["--single", "--double"]].concat(), "--single");
    fails(
        &[&base[..], &["--max-generations", "0"]].concat(),
        "--max-generations",
    );
}

#[test]
fn de_reaches_the_sphere_minimum() {
    let args = [
        "de",
        "--function",
        "F1",
        "--dims",
        "5",
        "--islands",
        "8",
        "--members",
        "16",
        "--generations",
        "300",
        "--double",
    ];
    let j = json(&[&args[..], &["--json"]].concat());
    assert!(j["value"].as_f64().unwrap() < 1e-8, "{j}");
    assert!(
        j["error"].as_f64().unwrap() < 1e-8 && j["minimum"].as_f64() == Some(0.0),
        "{j}"
    );
    assert_eq!(j["x"].as_array().unwrap().len(), 5);
    assert!(j["island"].as_u64().unwrap() < 8);
    assert_eq!(j["generations"], 300);
    assert_eq!(j["evaluations"], 8 * 16 * 301);
    assert_eq!(j["stopped_by"], "budget");
    assert_eq!(j["seeds"], serde_json::json!([123, 345, 457, 581]));
    assert_eq!(j["mutation"], "DE/rand/1");
    assert_eq!(
        j["bounds"],
        serde_json::json!(["COTN", "COTN", "COTN", "COTN", "COTN"])
    );
    assert_eq!(j["backend"], "device");
    // the CPU backend (same random numbers; rounding differences grow over 300 generations)
    let c = json(&[&args[..], &["--json", "--cpu"]].concat());
    assert_eq!(c["backend"], "cpu");
    assert!(c["device"].as_str().unwrap().contains("CPU"), "{c}");
    assert!(c["value"].as_f64().unwrap() < 1e-8, "{c}");
    assert_eq!(c["evaluations"], j["evaluations"]);
    // seeds, per-island CR, migration, a target and the text output
    let t = json(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "4",
        "--islands",
        "6",
        "--members",
        "10",
        "--target",
        "1e-3",
        "--seed",
        "7",
        "--CR",
        "0.9,0.9,0.5,0.5,0.1,0.1",
        "--migration",
        "PermuteN",
        "--period",
        "5",
        "--mutation",
        "DE/best/1",
        "--json",
    ]);
    assert_eq!(t["stopped_by"], "target");
    assert!(t["value"].as_f64().unwrap() <= 1e-3, "{t}");
    assert_eq!(t["seeds"], serde_json::json!([7, 8, 9, 10]));
    assert_eq!(t["cr"], serde_json::json!([0.9, 0.9, 0.5, 0.5, 0.1, 0.1]));
    assert_eq!(
        (t["migration"].as_str(), t["period"].as_u64()),
        (Some("PermuteN"), Some(5))
    );
    let text = ok(&[
        "de",
        "--function",
        "F6",
        "--dims",
        "3",
        "--islands",
        "4",
        "--members",
        "8",
        "--evaluations",
        "2000",
        "--bounds",
        "sat,mir,tor",
    ]);
    for needle in [
        "best value",
        "island",
        "generations",
        "evaluations  2,016",
        "stopped by   evaluations",
        "bounds sat,mir,tor",
    ] {
        assert!(text.contains(needle), "`{needle}` in:\n{text}");
    }
}

#[test]
fn a_population_the_host_cannot_allocate_is_an_error_not_an_abort() {
    // 2^31 values of the CPU backend under a 4 GB address-space limit
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4000000 && exec {} de --cpu --function F1 --islands 1 --members 2097151 --dims 1024 --generations 1",
            env!("CARGO_BIN_EXE_metaopt")
        ))
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&o.stderr);
    // a failed host allocation is its own error (out of host memory, code 17), with an
    // exit status, never an abort
    assert!(o.status.code().is_some_and(|c| c != 0), "{err}");
    assert!(
        err.contains("out of host memory")
            && err.contains("islands")
            && err.contains("cannot be allocated"),
        "{err}"
    );
}

#[test]
fn de_writes_the_plot_and_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("conv.png");
    let csv = dir.path().join("conv.csv");
    let text = ok(&[
        "de",
        "--function",
        "CEC05t",
        "--dims",
        "10",
        "--islands",
        "8",
        "--members",
        "12",
        "--generations",
        "50",
        "--plot",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        text.contains("plot") && text.contains("(51 records)"),
        "{text}"
    );
    check_png(&png, 900, 560);
    let lines = csv_lines(&csv);
    assert_eq!(
        lines[0],
        "generation,evaluations,seconds,best,q25,median,q75,worst"
    );
    assert_eq!(lines.len(), 1 + 51);
    for (g, l) in lines[1..].iter().enumerate() {
        let v: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v[0] as usize, g);
        assert_eq!(v[1] as usize, 8 * 12 * (g + 1));
        assert!(
            v[3] <= v[4] && v[4] <= v[5] && v[5] <= v[6] && v[6] <= v[7],
            "{l}"
        );
        assert!(v[3] >= 1.0 - 1e-3, "{l}");
    }
    // a user OpenCL objective on given limits
    let src = dir.path().join("shifted.cl");
    std::fs::write(&src, "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n{ FP s = 0; for (uint j = 0; j < dims; ++j) { FP d = x[j * stride] - (FP)0.5; s += d * d; } return s; }\n").unwrap();
    let user = [
        "de",
        "--source",
        src.to_str().unwrap(),
        "--dims",
        "3",
        "--lower",
        "-2",
        "--upper",
        "2",
        "--islands",
        "4",
        "--members",
        "10",
    ];
    let j = json(&[&user[..], &["--generations", "200", "--json"]].concat());
    assert_eq!(
        (j["lower"][0].as_f64(), j["upper"][0].as_f64()),
        (Some(-2.0), Some(2.0))
    );
    assert!(j["value"].as_f64().unwrap() < 1e-4, "{j}");
    assert!(
        j["x"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| (v.as_f64().unwrap() - 0.5).abs() < 0.01),
        "{j}"
    );
    assert!(j["minimum"].is_null());
    // stopped by the clock (the time also holds PoCL's first compilation of the kernels for
    // their launch sizes, so no convergence is asked for), with a record interval; the
    // programs of a run under a time limit are built first by one that ends by its budget (a
    // build the short limit overtakes would end the run with no result)
    json(
        &[
            &user[..],
            &["--time-limit", "600", "--generations", "2", "--json"],
        ]
        .concat(),
    );
    let j = json(
        &[
            &user[..],
            &[
                "--time-limit",
                "0.3",
                "--record-every",
                "5",
                "--csv",
                csv.to_str().unwrap(),
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(j["stopped_by"], "time_limit");
    assert!(
        j["generations"].as_u64().unwrap() >= 1 && j["value"].as_f64().unwrap() < 1.0,
        "{j}"
    );
    let lines = csv_lines(&csv);
    assert!(
        lines.len() >= 3 && lines[1].starts_with("0,40,"),
        "{lines:?}"
    );
    let last_gen: u64 = lines
        .last()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(last_gen, j["generations"].as_u64().unwrap());
}

#[test]
fn de_errors_name_the_flag() {
    let base = [
        "de",
        "--function",
        "F1",
        "--dims",
        "3",
        "--islands",
        "4",
        "--members",
        "8",
        "--generations",
        "5",
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [base, extra].concat()
    }
    let with = |extra: &[&'static str]| with(&base, extra);
    // a dithered F: over islands, not over a batch's problems nor an adaptive algorithm's
    let dithered = ok(&with(&[
        "--F-mode", "dither", "--F-min", "0.5", "--F-max", "1",
    ]));
    assert!(dithered.contains("F dither 0.5..1"), "{dithered}");
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "3",
            "--problems",
            "2",
            "--F-mode",
            "dither",
        ],
        "--F-mode: dither is for island DE",
    );
    fails(
        &with(&["--F-mode", "dither", "--algorithm", "jade"]),
        "adapts its own F",
    );
    fails(&with(&["--mutation", "DE/foo/1"]), "--mutation");
    fails(&with(&["--bounds", "sat,mir"]), "--bounds");
    fails(&with(&["--bounds", "wall"]), "--bounds");
    fails(&with(&["--lower", "2", "--upper", "1"]), "--lower/--upper");
    fails(&with(&["--lower", "1", "--upper", "1"]), "--lower/--upper");
    fails(&with(&["--CR", "0.5,0.6"]), "--CR");
    fails(&with(&["--CR", "1.5"]), "--CR");
    fails(&with(&["--migration", "Everywhere"]), "--migration");
    fails(
        &with(&["--migration", "PermuteN", "--period", "0"]),
        "--period",
    );
    fails(&with(&["--F-mode", "random"]), "--F-mode");
    fails(&with(&["--selection", "loose"]), "--selection");
    fails(
        &with(&["--fitness-precision", "half"]),
        "--fitness-precision",
    );
    fails(&with(&["--F-min", "-1"]), "--F-min");
    fails(&with(&["--plot", "conv.txt"]), "--plot");
    fails(&with(&["--cpu", "--device", "0"]), "--device");
    fails(
        &["de", "--function", "F1", "--dims", "3", "--members", "2"],
        "--members",
    );
    fails(&["de", "--function", "F99", "--dims", "3"], "--function");
    fails(&["de", "--function", "CEC05t", "--dims", "3"], "--dims");
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "3",
            "--members",
            "4",
            "--mutation",
            "DE/rand/2",
        ],
        "--members",
    );
}

#[test]
fn experiment_de_sdis_writes_groups_summary_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sdis");
    let text = ok(&[
        "experiment",
        "de-sdis",
        "--out",
        out.to_str().unwrap(),
        "--islands",
        "20",
        "--members",
        "8",
        "--generations",
        "20",
        "--functions",
        "CEC05t,F7",
        "--bounds",
        "sat,COTN",
    ]);
    assert!(
        text.contains("4 runs of 20 generations") && text.contains("thesis finding"),
        "{text}"
    );
    // the thesis's selection by default
    assert!(
        text.contains("strict selection") && !text.contains("shared random"),
        "{text}"
    );
    let lines = csv_lines(&out.join("de_sdis.csv"));
    assert_eq!(
        lines[0],
        "function,bounds,generation,group,F_lo,F_hi,mean,q25,q50,q75"
    );
    // 2 functions x 2 strategies x 21 records (every generation) x 10 groups of 2 islands
    assert_eq!(lines.len(), 1 + 2 * 2 * 21 * 10);
    assert!(
        lines[1].starts_with("CEC05t,sat,0,0,0.001,"),
        "{}",
        lines[1]
    );
    assert!(
        lines.last().unwrap().starts_with("F7,COTN,20,9,"),
        "{}",
        lines.last().unwrap()
    );
    for l in &lines[1..] {
        let v: Vec<f64> = l.split(',').skip(4).map(|x| x.parse().unwrap()).collect();
        assert!(v[0] <= v[1] && v[3] <= v[4] && v[4] <= v[5], "{l}");
    }
    let summary = csv_lines(&out.join("de_sdis_summary.csv"));
    assert!(
        summary[0]
            .starts_with("function,bounds,generation,worst_group,worst_F_lo,worst_F_hi,worst_mean"),
        "{}",
        summary[0]
    );
    assert!(summary[0].ends_with("thesis_holds"));
    assert_eq!(summary.len(), 1 + 4);
    assert!(summary[1].starts_with("CEC05t,sat,20,") && summary[4].starts_with("F7,COTN,20,"));
    assert!(summary[1..]
        .iter()
        .all(|l| l.ends_with(",true") || l.ends_with(",false")));
    check_png(&out.join("de_sdis_CEC05t.png"), 2 * 620, 440 + 40);
    check_png(&out.join("de_sdis_F7.png"), 2 * 620, 440 + 40);
    // errors name the flag
    fails(
        &[
            "experiment",
            "de-sdis",
            "--out",
            out.to_str().unwrap(),
            "--functions",
            "F99",
        ],
        "--functions",
    );
    fails(
        &[
            "experiment",
            "de-sdis",
            "--out",
            out.to_str().unwrap(),
            "--fitness-precision",
            "auto",
        ],
        "--fitness-precision",
    );
    let t = ok(&[
        "experiment",
        "de-sdis",
        "--out",
        out.to_str().unwrap(),
        "--islands",
        "10",
        "--members",
        "8",
        "--generations",
        "5",
        "--functions",
        "F7",
        "--bounds",
        "sat",
        "--single",
        "--fitness-precision",
        "double",
        "--shared-random",
    ]);
    assert!(
        t.contains("(single storage, double fitness, strict selection, shared random numbers)"),
        "{t}"
    );
    fails(
        &[
            "experiment",
            "de-sdis",
            "--out",
            out.to_str().unwrap(),
            "--bounds",
            "sat,wall",
        ],
        "--bounds",
    );
}

#[test]
fn experiment_de_migration_writes_stats_and_a_plot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mig");
    let text = ok(&[
        "experiment",
        "de-migration",
        "--out",
        out.to_str().unwrap(),
        "--islands",
        "20",
        "--members",
        "8",
        "--generations",
        "20",
        "--strategies",
        "PermuteN,RandTarget",
        "--periods",
        "1,5",
        "--runs",
        "2",
    ]);
    assert!(
        text.contains("10 runs of 20 generations") && text.contains("strict selection"),
        "{text}"
    );
    let out2 = dir.path().join("mig2");
    let t2 = ok(&[
        "experiment",
        "de-migration",
        "--out",
        out2.to_str().unwrap(),
        "--islands",
        "8",
        "--members",
        "8",
        "--generations",
        "5",
        "--strategies",
        "PermuteN",
        "--periods",
        "2",
        "--selection",
        "ties",
        "--shared-random",
    ]);
    assert!(t2.contains("ties selection, shared random numbers"), "{t2}");
    fails(
        &[
            "experiment",
            "de-migration",
            "--out",
            out2.to_str().unwrap(),
            "--selection",
            "loose",
        ],
        "--selection",
    );
    let lines = csv_lines(&out.join("de_migration.csv"));
    assert_eq!(
        lines[0],
        "strategy,period,runs,mean,q25,q50,q75,min,max,best,best_run,best_island,best_F,run_best_median,run_best_max"
    );
    let keys: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(
        keys,
        [
            "None,0",
            "PermuteN,1",
            "PermuteN,5",
            "RandTarget,1",
            "RandTarget,5"
        ]
    );
    let runs = csv_lines(&out.join("de_migration_runs.csv"));
    assert_eq!(
        runs[0],
        "strategy,period,run,init_seed,best,best_island,best_F,island_best_mean"
    );
    assert_eq!(runs.len(), 1 + 10);
    for l in &lines[1..] {
        let key: String = l.split(',').take(2).collect::<Vec<_>>().join(",");
        let v: Vec<f64> = l.split(',').skip(2).map(|x| x.parse().unwrap()).collect();
        let (count, mean, q25, q50, q75, min, max, best) =
            (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        assert_eq!(count, 2.0, "{l}");
        assert!(
            min <= q25 && q25 <= q50 && q50 <= q75 && q75 <= max && min <= mean && mean <= max,
            "{l}"
        );
        assert_eq!(best, min, "{l}");
        assert!(v[10] < 20.0, "{l}");
        // the runs of this row: seeds 123 and 127, the best of them is the row's best
        let mine: Vec<Vec<String>> = runs[1..]
            .iter()
            .filter(|r| r.starts_with(&format!("{key},")))
            .map(|r| r.split(',').map(String::from).collect())
            .collect();
        assert_eq!(
            mine.iter().map(|r| r[3].as_str()).collect::<Vec<_>>(),
            ["123", "127"],
            "{key}"
        );
        let bests: Vec<f64> = mine.iter().map(|r| r[4].parse().unwrap()).collect();
        assert_eq!(
            bests.iter().copied().fold(f64::INFINITY, f64::min),
            best,
            "{key}"
        );
        assert_eq!(
            bests.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            v[12],
            "{key}"
        );
        assert_eq!(
            mine[v[8] as usize][4].parse::<f64>().unwrap(),
            best,
            "{key}: best_run"
        );
    }
    check_png(&out.join("de_migration.png"), 2 * 620, 440 + 40);
    fails(
        &[
            "experiment",
            "de-migration",
            "--out",
            out.to_str().unwrap(),
            "--strategies",
            "Teleport",
        ],
        "--strategies",
    );
    fails(
        &[
            "experiment",
            "de-migration",
            "--out",
            out.to_str().unwrap(),
            "--periods",
            "0",
        ],
        "--periods",
    );
    fails(
        &[
            "experiment",
            "de-migration",
            "--out",
            out.to_str().unwrap(),
            "--runs",
            "0",
        ],
        "--runs",
    );
}

#[test]
fn bench_de_and_de_digits() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("b.csv");
    let text = ok(&[
        "bench",
        "de",
        "--sizes",
        "8x8x10,16x8x2",
        "--generations",
        "5",
        "--function",
        "CEC05t",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "function,algorithm,islands,members,dims,precision,backend,device,generations,seconds,generations_per_s,evaluations_per_s,best");
    assert_eq!(lines.len(), 1 + 4, "{text}");
    assert!(
        lines[1].starts_with("CEC05t,de,8,8,10,float,device,")
            && lines[2].starts_with("CEC05t,de,8,8,10,double,cpu,"),
        "{text}"
    );
    assert!(
        lines[4].starts_with("CEC05t,de,16,8,2,double,cpu,"),
        "{text}"
    );
    assert_eq!(csv_lines(&csv).len(), 5);
    fails(&["bench", "de", "--sizes", "8x8"], "--sizes");

    let text = ok(&[
        "bench",
        "de-digits",
        "--seconds",
        "1",
        "--functions",
        "CEC05t,CEC10t",
        "--islands",
        "8",
        "--members",
        "20",
        "--period",
        "20",
        "--stall",
        "200",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "function,digits,value,error,seconds_to_best,seconds,reached,restarts,generations,evaluations,bh_evaluations");
    assert_eq!(lines.len(), 3, "{text}");
    for (l, name) in lines[1..].iter().zip(["CEC05t", "CEC10t"]) {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f[0], name);
        let digits: u32 = f[1].parse().unwrap();
        let value: f64 = f[2].parse().unwrap();
        assert!(digits <= 10 && value >= 1.0 - 1e-9, "{l}");
        // the digits are those of the value
        assert!(
            digits == 0 || (value - 1.0).abs() < 10f64.powi(1 - digits as i32),
            "{l}"
        );
        let seconds: f64 = f[5].parse().unwrap();
        // a 1 s budget: the last generation and a loaded 2-core machine may add some
        assert!(seconds < 3.0, "{l}");
        assert!(f[8].parse::<u64>().unwrap() > 0, "{l}");
    }
    fails(
        &["bench", "de-digits", "--functions", "F11", "--dims", "3"],
        "F11",
    );

    // basin hopping once the first DE run stalls: its evaluations are counted apart
    let args = [
        "bench",
        "de-digits",
        "--seconds",
        "2",
        "--functions",
        "CEC08t",
        "--islands",
        "4",
        "--members",
        "20",
        "--stall",
        "30",
    ];
    let plain = ok(&args);
    let hop = ok(&[&args[..], &["--basin-hopping", "--bh-chains", "128"]].concat());
    let row = |t: &str| {
        t.lines()
            .nth(1)
            .unwrap()
            .split(',')
            .map(str::to_string)
            .collect::<Vec<String>>()
    };
    let (p, h) = (row(&plain), row(&hop));
    assert_eq!(p[10], "0", "{plain}");
    let (bh, all): (u64, u64) = (h[10].parse().unwrap(), h[9].parse().unwrap());
    assert!(bh > 0 && bh < all, "{hop}");
    // the same first DE run (seed and sizes) ends both, and restarts never ran in the second
    assert_eq!(h[7], "0", "{hop}");
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC08t",
            "--bh-chains",
            "8",
        ],
        "--basin-hopping",
    );
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC08t",
            "--basin-hopping",
            "--bh-chains",
            "0",
        ],
        "--bh-chains",
    );
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC08t",
            "--seconds",
            "5",
            "--basin-hopping",
            "--bh-after",
            "6",
        ],
        "--bh-after",
    );
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC08t",
            "--basin-hopping",
            "--bh-hop-min",
            "0.1",
            "--bh-hop-max",
            "0.01",
        ],
        "--bh-hop-min",
    );
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC08t",
            "--basin-hopping",
            "--bh-step-stop",
            "0.5",
        ],
        "--bh-step-stop",
    );
}

/// `de --algorithm`: the adaptive variants by name, the same run on the device and the
/// CPU backend, L-SHADE's budget from the stop options, errors naming the flag, and `bench
/// de-digits --algorithm`.
#[test]
fn de_adaptive_algorithms_by_name() {
    let base = [
        "de",
        "--function",
        "F1",
        "--dims",
        "5",
        "--islands",
        "1",
        "--members",
        "20",
        "--bounds",
        "HVB",
        "--json",
    ];
    for name in ["jade", "shade", "lshade", "jso"] {
        let mut runs = Vec::new();
        for cpu in [false, true] {
            let mut args = [
                &base[..],
                &[
                    "--algorithm",
                    name,
                    "--max-generations",
                    "300",
                    "--target",
                    "1e-10",
                ],
            ]
            .concat();
            if cpu {
                args.push("--cpu");
            }
            let j = json(&args);
            assert_eq!(j["algorithm"], name);
            assert!(j["value"].as_f64().unwrap() <= 1e-10, "{name}: {j}");
            // L-SHADE's and jSO's budget: --max-generations x --members when not given
            let budget = if name == "lshade" || name == "jso" {
                300 * 20
            } else {
                0
            };
            assert_eq!(j["lshade_budget"], budget);
            runs.push((j["generations"].clone(), j["evaluations"].clone()));
        }
        assert_eq!(
            runs[0], runs[1],
            "{name}: the device and the CPU backend follow the same run"
        );
    }
    let j = json(
        &[
            &base[..],
            &[
                "--algorithm",
                "L-SHADE",
                "--lshade-budget",
                "999",
                "--max-generations",
                "3",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        (j["algorithm"].as_str(), j["lshade_budget"].as_u64()),
        (Some("lshade"), Some(999))
    );
    let text = ok(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "3",
        "--members",
        "8",
        "--generations",
        "3",
        "--algorithm",
        "jso",
    ]);
    assert!(
        text.contains("algorithm    jso, budget 24 evaluations per island"),
        "{text}"
    );
    fails(
        &[&base[..], &["--algorithm", "jde", "--generations", "3"]].concat(),
        "--algorithm",
    );
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "3",
            "--islands",
            "2",
            "--algorithm",
            "jso",
            "--migration",
            "PermuteN",
            "--generations",
            "3",
        ],
        "--migration",
    );
    fails(
        &[
            &base[..],
            &[
                "--algorithm",
                "jade",
                "--members",
                "3",
                "--generations",
                "3",
            ],
        ]
        .concat(),
        "--members",
    );

    let text = ok(&[
        "bench",
        "de-digits",
        "--seconds",
        "1",
        "--functions",
        "CEC05t",
        "--islands",
        "2",
        "--members",
        "30",
        "--stall",
        "200",
        "--algorithm",
        "jso",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let f: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(f[0], "CEC05t");
    let (digits, value): (u32, f64) = (f[1].parse().unwrap(), f[2].parse().unwrap());
    assert!(
        value >= 1.0 - 1e-9 && (digits == 0 || (value - 1.0).abs() < 10f64.powi(1 - digits as i32)),
        "{text}"
    );
    fails(
        &[
            "bench",
            "de-digits",
            "--functions",
            "CEC05t",
            "--algorithm",
            "best",
        ],
        "--algorithm",
    );
}

/// `bench de-table`: R runs as R islands without migration; the best run of the table
/// is the best island of the same `de` run (same seeds, F, CR, bounds and budget), the statistics
/// are ordered, the budget is spent, and bad flags are named.
#[test]
fn de_table_runs_are_islands() {
    let dir = tempfile::tempdir().unwrap();
    for alg in ["de", "jso"] {
        let csv = dir.path().join(format!("t_{alg}.csv"));
        let text = ok(&[
            "bench",
            "de-table",
            "--functions",
            "CEC05t",
            "--algorithms",
            alg,
            "--runs",
            "3",
            "--members",
            "12",
            "--evaluations",
            "1212",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "function,algorithm,dims,runs,members,evaluations_per_run,mean_error,std_error,median_error,best_error,worst_error,mean_digits,best_half_digits,solved,seconds,stopped_by"
        );
        assert_eq!(lines.len(), 2, "{text}");
        let f: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(
            (f[0], f[1], f[3], f[4]),
            ("CEC05t", alg, "3", "12"),
            "{text}"
        );
        // the budget is spent up to the last whole generation (jSO's shrink: a smaller one)
        let per_run: u64 = f[5].parse().unwrap();
        assert!(per_run <= 1212 && per_run > 1212 - 12, "{text}");
        let v: Vec<f64> = f[6..11].iter().map(|t| t.parse().unwrap()).collect();
        let (mean, std, median, best, worst) = (v[0], v[1], v[2], v[3], v[4]);
        assert!(
            best <= median && median <= worst && best <= mean && mean <= worst && std >= 0.0,
            "{text}"
        );
        assert_eq!(f[15], "evaluations");
        // the same runs through `de`: 3 islands, F 0.5 and CR 0.9 everywhere, seeds 1.., HVB,
        // the budget after the initial populations
        let mut args = vec![
            "de",
            "--function",
            "CEC05t",
            "--dims",
            "10",
            "--islands",
            "3",
            "--members",
            "12",
            "--F-mode",
            "const",
            "--F-min",
            "0.5",
            "--CR",
            "0.9",
            "--seed",
            "1",
            "--bounds",
            "HVB",
            "--evaluations",
            "3600",
            "--algorithm",
            alg,
            "--json",
        ];
        if alg == "jso" {
            args.extend(["--lshade-budget", "1212"]);
        }
        let j = json(&args);
        let value = j["value"].as_f64().unwrap();
        assert!(
            (value - 1.0 - best).abs() <= 1e-12 * value.max(1.0)
                || (best == 0.0 && value - 1.0 < 1e-8),
            "table best {best}, de {value}"
        );
        assert_eq!(j["evaluations"].as_u64(), Some(3 * per_run));
    }
    fails(
        &["bench", "de-table", "--algorithms", "jde"],
        "--algorithms",
    );
    fails(&["bench", "de-table", "--runs", "1"], "--runs");
    fails(
        &[
            "bench",
            "de-table",
            "--members",
            "12",
            "--evaluations",
            "12",
        ],
        "--evaluations",
    );
    fails(
        &["bench", "de-table", "--functions", "F11", "--dims", "3"],
        "F11",
    );
}

/// `de --algorithm jde100`: by name, the same run on the device and the CPU backend,
/// its flags, errors naming them, and `bench de-digits --algorithm jde100`.
#[test]
fn de_jde100_by_name() {
    let base = [
        "de",
        "--function",
        "F6",
        "--dims",
        "5",
        "--islands",
        "1",
        "--members",
        "40",
        "--jde-small",
        "8",
        "--bounds",
        "HVB",
        "--json",
    ];
    let mut runs = Vec::new();
    for cpu in [false, true] {
        let mut args = [
            &base[..],
            &[
                "--algorithm",
                "jde100",
                "--max-generations",
                "2000",
                "--target",
                "1e-10",
            ],
        ]
        .concat();
        if cpu {
            args.push("--cpu");
        }
        let j = json(&args);
        assert_eq!(j["algorithm"], "jde100");
        assert!(j["value"].as_f64().unwrap() <= 1e-10, "{j}");
        runs.push((j["generations"].clone(), j["evaluations"].clone()));
    }
    assert_eq!(
        runs[0], runs[1],
        "the device and the CPU backend follow the same run"
    );
    let text = ok(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "3",
        "--members",
        "30",
        "--generations",
        "3",
        "--algorithm",
        "jDE100",
        "--jde-small",
        "6",
        "--jde-age",
        "500",
    ]);
    assert!(
        text.contains("algorithm    jde100 (big population 24 + small 6 per island"),
        "{text}"
    );
    assert!(text.contains("restarts at eps 1e-16 or age 500"), "{text}");
    fails(
        &[
            &base[..],
            &[
                "--algorithm",
                "jde100",
                "--jde-small",
                "3",
                "--generations",
                "3",
            ],
        ]
        .concat(),
        "--jde-small",
    );
    fails(
        &[
            &base[..],
            &[
                "--algorithm",
                "jde100",
                "--jde-eps=-1",
                "--generations",
                "3",
            ],
        ]
        .concat(),
        "--jde-eps",
    );
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "3",
            "--islands",
            "2",
            "--members",
            "30",
            "--algorithm",
            "jde100",
            "--migration",
            "PermuteN",
            "--generations",
            "3",
        ],
        "--migration",
    );

    let text = ok(&[
        "bench",
        "de-digits",
        "--seconds",
        "1",
        "--functions",
        "CEC05t",
        "--islands",
        "2",
        "--members",
        "60",
        "--jde-small",
        "10",
        "--algorithm",
        "jde100",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let f: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(f[0], "CEC05t");
    let (digits, value): (u32, f64) = (f[1].parse().unwrap(), f[2].parse().unwrap());
    assert!(
        value >= 1.0 - 1e-9 && (digits == 0 || (value - 1.0).abs() < 10f64.powi(1 - digits as i32)),
        "{text}"
    );
}

/// Constrained runs: a CEC 2006 problem by name (G06 under Deb's rules, G11 under the epsilon
/// level) reaches its best-known value feasibly on the device and the CPU backend; a --source
/// with --constraints NG,NH; the text and JSON report the violation; the flags' errors.
#[test]
fn de_constrained_problems_and_sources() {
    let base = |f: &'static str| {
        vec![
            "de",
            "--function",
            f,
            "--dims",
            "2",
            "--islands",
            "4",
            "--members",
            "40",
            "--migration",
            "PermuteN",
            "--max-generations",
            "1500",
        ]
    };
    for cpu in [false, true] {
        let mut a = base("G06");
        if cpu {
            a.push("--cpu");
        }
        let j = json(&[a.as_slice(), &["--json"]].concat());
        let v = j["value"].as_f64().unwrap();
        assert!((v + 6961.81387558015).abs() < 1e-3, "{j}");
        assert_eq!(j["constraints"]["violation"], 0.0, "{j}");
        assert_eq!(j["constraints"]["inequalities"], 2);
        assert_eq!(j["constraints"]["handling"], "deb");
        let mut a = base("G11");
        a.extend(["--constraint-handling", "epsilon:0.2,200,5"]);
        if cpu {
            a.push("--cpu");
        }
        let t = ok(&a);
        assert!(t.contains("violation    0 (feasible)"), "{t}");
        assert!(t.contains("best value   0.7499"), "{t}");
        assert!(
            t.contains("1 equalities (tolerance 1e-4), epsilon level"),
            "{t}"
        );
    }
    // a source with its own constraints: min |x|^2 subject to x0 + x1 >= 1
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
    let j = json(&[
        "de",
        "--source",
        s,
        "--dims",
        "2",
        "--lower",
        "-2",
        "--upper",
        "2",
        "--constraints",
        "1,0",
        "--islands",
        "4",
        "--members",
        "20",
        "--max-generations",
        "600",
        "--double",
        "--json",
    ]);
    assert!((j["value"].as_f64().unwrap() - 0.5).abs() < 1e-6, "{j}");
    assert_eq!(j["constraints"]["violation"], 0.0);
    // errors name the flag
    for (args, why) in [
        (vec!["de", "--function", "G06", "--dims", "3"], "--dims"),
        (
            vec!["de", "--function", "G06", "--dims", "2", "--lower", "0"],
            "--lower",
        ),
        (
            vec![
                "de",
                "--function",
                "G06",
                "--dims",
                "2",
                "--constraints",
                "1,0",
            ],
            "--constraints",
        ),
        (
            vec![
                "de",
                "--function",
                "F1",
                "--dims",
                "2",
                "--constraints",
                "1,0",
            ],
            "--constraints",
        ),
        (
            vec!["de", "--source", s, "--dims", "2", "--constraints", "1"],
            "--constraints",
        ),
        (
            vec![
                "de",
                "--source",
                s,
                "--dims",
                "2",
                "--constraints",
                "1,0",
                "--constraint-handling",
                "greedy",
            ],
            "--constraint-handling",
        ),
        (
            vec!["de", "--function", "F1", "--dims", "2", "--eq-tol", "0.1"],
            "--eq-tol",
        ),
        (
            vec![
                "de",
                "--source",
                s,
                "--dims",
                "2",
                "--constraints",
                "1,0",
                "--eq-tol",
                "-1",
            ],
            "eq_tol",
        ),
        (
            vec![
                "de",
                "--function",
                "G06",
                "--dims",
                "2",
                "--algorithm",
                "jde100",
            ],
            "constraints",
        ),
    ] {
        fails(&args, why);
    }
}

#[test]
fn de_polish_finishes_the_best_point_and_names_its_refusals() {
    let base = [
        "de",
        "--function",
        "F1",
        "--dims",
        "5",
        "--islands",
        "2",
        "--members",
        "10",
        "--max-generations",
        "40",
        "--json",
    ];
    let plain = json(&base);
    let j = json(&[&base[..], &["--polish", "--polish-steps", "1500"]].concat());
    let p = &j["polish"];
    // the same run, then the polish from its best point: far lower, its evaluations counted
    assert_eq!(p["start_value"], plain["value"]);
    assert_eq!(p["improved"], true);
    assert_eq!(p["stopped_by"], "budget");
    let (v0, v) = (
        plain["value"].as_f64().unwrap(),
        j["value"].as_f64().unwrap(),
    );
    assert!(v < 1e-3 * v0 && v < 1e-12, "{v0} -> {v}");
    let pe = p["evaluations"].as_u64().unwrap();
    assert_eq!(pe, 1 + 8 * (1500 + 2));
    assert_eq!(
        j["evaluations"].as_u64().unwrap(),
        plain["evaluations"].as_u64().unwrap() + pe
    );
    // the text names it
    let t = ok(&[&base[..base.len() - 1], &["--polish", "--cpu"]].concat());
    assert!(t.contains("polish       improved from"), "{t}");
    // a constrained problem on a device: feasible, closer to G06's best than the run
    let g = json(&[
        "de",
        "--function",
        "G06",
        "--dims",
        "2",
        "--islands",
        "2",
        "--members",
        "20",
        "--max-generations",
        "60",
        "--polish",
        "--json",
    ]);
    assert_eq!(g["constraints"]["feasible"], true);
    assert!(g["value"].as_f64().unwrap() < -6961.0, "{g}");
    // refusals, before the run
    fails(
        &[
            "de",
            "--function",
            "G06",
            "--dims",
            "2",
            "--polish",
            "--cpu",
        ],
        "--polish",
    );
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "2",
            "--polish-steps",
            "5",
        ],
        "--polish",
    );
    fails(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "2",
            "--polish",
            "--problems",
            "4",
        ],
        "--polish",
    );
}
