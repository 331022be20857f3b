//! `metaopt sp sssp`, `metaopt sp aco` and `metaopt bench sp` end to end on small graphs (PoCL).

use crate::run;
use run::{fails, ok};

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// A small DIMACS graph: 5 vertices, vertex 5 (4 when 0-based) unreachable from the others.
fn dimacs(dir: &std::path::Path) -> String {
    let p = dir.join("small.gr");
    std::fs::write(
        &p,
        "c test\np sp 5 6\na 1 2 4\na 1 3 1\na 3 2 2\na 2 4 5\na 3 4 8\na 5 1 1\n",
    )
    .unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn sssp_equals_host_dijkstra_on_every_method_and_backend() {
    for method in ["pull", "frontier", "near-far"] {
        let out = ok(&[
            "sp",
            "sssp",
            "--grid",
            "12x9,50,0.1,3",
            "--source",
            "5",
            "--method",
            method,
            "--check",
        ]);
        assert!(out.contains("check: equal to host Dijkstra"), "{out}");
    }
    let out = ok(&[
        "sp",
        "sssp",
        "--thesis",
        "5,16,2",
        "--sources",
        "all",
        "--check",
        "--cpu",
    ]);
    assert!(out.contains("32 sources in one call"), "{out}");
    let out = ok(&[
        "sp",
        "sssp",
        "--grid",
        "10x10,1,0.2,4",
        "--method",
        "lee",
        "--check",
    ]);
    assert!(out.contains("check: equal"), "{out}");
}

#[test]
fn sssp_json_fields_and_csv_output() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dimacs(dir.path());
    let csv = dir.path().join("d.csv");
    let j = json(&[
        "sp",
        "sssp",
        &gr,
        "--sources",
        "0,2",
        "--json",
        "--check",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(j["vertices"], 5);
    assert_eq!(j["arcs"], 6);
    assert_eq!(j["weights"], "u32");
    assert_eq!(j["sources"], 2);
    assert_eq!(j["per_source"][0]["reached"], 4);
    assert_eq!(j["per_source"][0]["max_dist"].as_f64(), Some(8.0));
    assert_eq!(j["per_source"][1]["max_dist"].as_f64(), Some(7.0));
    assert_eq!(j["checked"], true);
    for k in ["rounds", "edges", "seconds", "teps", "device", "method"] {
        assert!(!j[k].is_null(), "{k} missing: {j}");
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "source,vertex,dist,pred");
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[2], "0,1,3,2");
    assert_eq!(lines[5], "0,4,inf,-1");
}

#[test]
fn sssp_errors_are_named_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dimacs(dir.path());
    fails(
        &["sp", "sssp", &gr, "--source", "5"],
        "--source: 5; the graph has 5 vertices",
    );
    fails(
        &["sp", "sssp", &gr, "--sources", "0,9"],
        "--sources: sources[1] = 9",
    );
    fails(&["sp", "sssp", &gr, "--sources", "x"], "--sources: `x`");
    fails(
        &["sp", "sssp", &gr, "--method", "dfs"],
        "--method: unknown method `dfs`",
    );
    fails(
        &["sp", "sssp", &gr, "--method", "near-far", "--delta", "-1"],
        "--delta",
    );
    fails(&["sp", "sssp", &gr, "--method", "lee"], "--grid only");
    fails(&["sp", "sssp", "/nonexistent/g.gr"], "/nonexistent/g.gr");
    let bad = dir.path().join("bad.gr");
    std::fs::write(&bad, "p sp 2 1\na 1 x 3\n").unwrap();
    fails(&["sp", "sssp", bad.to_str().unwrap()], "bad.gr");
    let txt = dir.path().join("g.txt");
    std::fs::write(&txt, "1 2 3\n").unwrap();
    fails(
        &["sp", "sssp", txt.to_str().unwrap()],
        "unknown graph format",
    );
    fails(&["sp", "sssp", "--grid", "0x3"], "--grid");
    fails(&["sp", "sssp", "--grid", "3by3"], "WxH");
    fails(&["sp", "sssp"], "required");
}

#[test]
fn aco_reports_lengths_gap_and_path() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dimacs(dir.path());
    let out = ok(&[
        "sp",
        "aco",
        &gr,
        "--source",
        "0",
        "--target",
        "3",
        "--ants",
        "8",
        "--iterations",
        "5",
        "--path",
    ]);
    assert!(out.contains("exact length 8 (host Dijkstra)"), "{out}");
    assert!(
        out.contains("best length 8 (3 arcs), gap 0.000000 % (exact)"),
        "{out}"
    );
    assert!(out.contains("best path: 0 2 1 3"), "{out}");
    assert!(out.contains("strongest-pheromone path length"), "{out}");
    let j = json(&[
        "sp",
        "aco",
        "--thesis",
        "5,16,1",
        "--source",
        "1",
        "--target",
        "20",
        "--ants",
        "16",
        "--iterations",
        "10",
        "--max-min",
        "off",
        "--json",
        "--cpu",
    ]);
    assert!(j["exact_length"].as_f64().unwrap() > 0.0);
    assert!(j["best_length"].as_f64().unwrap() >= j["exact_length"].as_f64().unwrap());
    assert_eq!(j["iterations"], 10);
    assert_eq!(j["options"]["ants"], 16);
    assert!(j["options"]["max_min"].is_null());
    // the budget and the time limit as the options' `iterations` and `time_limit`
    assert_eq!(j["options"]["iterations"], 10);
    assert!(j["options"]["time_limit"].is_null());
    assert!(j["options"].get("target").is_none());
    // the thesis's rule: ceil(ln 100 / -ln 0.5) = 7 iterations
    let j = json(&[
        "sp",
        "aco",
        &gr,
        "--source",
        "0",
        "--target",
        "3",
        "--iterations",
        "thesis",
        "--initial-pheromone",
        "100",
        "--evaporation",
        "0.5",
        "--json",
        "--cpu",
    ]);
    assert_eq!(
        (&j["iterations"], &j["stopped_by"]),
        (&7.into(), &"budget".into())
    );
    assert_eq!(j["options"]["iterations"], 7);
    let u = ok(&["sp", "aco", &gr, "--source", "0", "--target", "4", "--cpu"]);
    assert!(u.contains("unreachable"), "{u}");
    fails(
        &["sp", "aco", &gr, "--source", "0", "--target", "7"],
        "--target: 7",
    );
    fails(
        &[
            "sp", "aco", &gr, "--source", "0", "--target", "3", "--ants", "0",
        ],
        "--ants",
    );
    fails(
        &[
            "sp",
            "aco",
            &gr,
            "--source",
            "0",
            "--target",
            "3",
            "--evaporation",
            "2",
        ],
        "--evaporation",
    );
    fails(
        &[
            "sp",
            "aco",
            &gr,
            "--source",
            "0",
            "--target",
            "3",
            "--iterations",
            "many",
        ],
        "--iterations",
    );
    for bad in ["0", "thesis"] {
        fails(
            &[
                "sp",
                "aco",
                &gr,
                "--source",
                "0",
                "--target",
                "3",
                "--iterations",
                bad,
            ],
            "--iterations",
        );
    }
}

#[test]
fn bench_sp_runs_every_mode_and_writes_csv() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dimacs(dir.path());
    let csv = dir.path().join("b.csv");
    let out = ok(&[
        "bench",
        "sp",
        "--sssp",
        "--grid",
        "20x15",
        "--grid",
        "8x8,1",
        "--file",
        &gr,
        "--methods",
        "frontier,near-far,lee",
        "--repeat",
        "1",
        "--threads",
        "2",
        "--all-sources",
        &gr,
        "--aco",
        "--vs",
        "16",
        "--j",
        "3..4",
        "--runs",
        "2",
        "--aco-grid",
        "6x6",
        "--pairs",
        "2",
        "--ants",
        "8",
        "--iterations",
        "5",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(out, text);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let h = r.headers().unwrap().clone();
    for k in [
        "part",
        "graph",
        "method",
        "backend",
        "threads",
        "seconds",
        "edges",
        "teps",
        "ratio_vs_cpu",
        "exact_share",
        "thesis_share",
        "mean_gap",
    ] {
        assert!(h.iter().any(|x| x == k), "{k} missing: {h:?}");
    }
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let count = |part: &str, backend: &str| {
        rows.iter()
            .filter(|x| &x[col("part")] == part && &x[col("backend")] == backend)
            .count()
    };
    // grids: cpu + frontier + near-far + lee; the file: cpu + frontier + near-far
    assert_eq!(count("sssp", "cpu"), 3);
    assert_eq!(count("sssp", "device"), 8);
    assert_eq!(count("all-sources", "cpu"), 1);
    assert_eq!(count("all-sources", "device"), 2);
    assert_eq!(count("aco-thesis", "device"), 2);
    assert_eq!(count("aco-graph", "device"), 1);
    for x in rows.iter().filter(|x| {
        &x[col("backend")] == "device"
            && &x[col("part")] != "aco-thesis"
            && &x[col("part")] != "aco-graph"
    }) {
        assert!(x[col("ratio_vs_cpu")].parse::<f64>().unwrap() > 0.0);
        assert!(x[col("teps")].parse::<f64>().unwrap() > 0.0);
    }
    assert_eq!(
        rows.iter()
            .find(|x| &x[col("part")] == "all-sources")
            .unwrap()[col("threads")]
        .to_string(),
        "2"
    );
    fails(&["bench", "sp"], "give --sssp");
    fails(
        &["bench", "sp", "--aco", "--vs", "100", "--runs", "1"],
        "--vs: 100",
    );
}

/// Runs `metaopt args`, sends it SIGINT (Ctrl-C) `delay` after it started, and returns its
/// output and how long it took to exit after the signal.
pub fn sigint_after(
    args: &[&str],
    delay: std::time::Duration,
) -> (std::process::Output, std::time::Duration) {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let sent = std::time::Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    (o, sent.elapsed())
}

/// Ctrl-C stops `sp aco` between iterations: its best path so far is printed, `stopped by
/// interrupted` (JSON `stopped_by`), exit status 130.
#[test]
fn aco_under_ctrl_c_prints_its_best_so_far() {
    use std::time::Duration;
    for json in [false, true] {
        let mut args = vec![
            "sp",
            "aco",
            "--grid",
            "20x20",
            "--source",
            "0",
            "--target",
            "399",
            "--iterations",
            "1000000",
        ];
        if json {
            args.push("--json");
        }
        let (o, took) = sigint_after(&args, Duration::from_millis(1500));
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        );
        assert_eq!(o.status.code(), Some(130), "{out}\n{err}");
        assert!(took < Duration::from_secs(2), "{took:?}");
        assert!(err.contains("interrupted"), "{err}");
        if json {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["stopped_by"], "interrupted", "{out}");
            let path = v["best"]["vertices"].as_array().unwrap();
            assert_eq!((&path[0], path.last().unwrap()), (&0.into(), &399.into()));
            let it = v["iterations"].as_u64().unwrap();
            assert!(it > 0 && it < 1_000_000, "{it}");
            assert!(v["best_length"].as_f64().unwrap() >= v["exact_length"].as_f64().unwrap());
        } else {
            assert!(out.contains("best length "), "{out}");
            assert!(out.contains("stopped by interrupted"), "{out}");
        }
    }
}

/// `sp aco --time-limit`: its best path so far, `stopped_by` time_limit, exit status 0; without a
/// limit, `budget`.
#[test]
fn aco_time_limit_keeps_its_best_so_far() {
    let t0 = std::time::Instant::now();
    let v = json(&[
        "sp",
        "aco",
        "--grid",
        "20x20",
        "--source",
        "0",
        "--target",
        "399",
        "--iterations",
        "1000000",
        "--time-limit",
        "0.5",
        "--json",
    ]);
    assert!(t0.elapsed().as_secs_f64() < 2.0, "{:?}", t0.elapsed());
    assert_eq!(v["stopped_by"], "time_limit");
    assert!(v["best"]["vertices"].as_array().unwrap().len() >= 39);
    assert_eq!(v["options"]["time_limit"].as_f64(), Some(0.5));
    let v = json(&[
        "sp",
        "aco",
        "--grid",
        "8x8",
        "--source",
        "0",
        "--target",
        "63",
        "--iterations",
        "3",
        "--json",
    ]);
    assert_eq!(
        (v["stopped_by"].as_str(), v["iterations"].as_u64()),
        (Some("budget"), Some(3))
    );
    let out = ok(&[
        "sp",
        "aco",
        "--grid",
        "8x8",
        "--source",
        "0",
        "--target",
        "63",
        "--iterations",
        "3",
    ]);
    assert!(out.contains("stopped by budget"), "{out}");
}

/// Ctrl-C stops `sp sssp --sources all` (the local-memory path, between its launches): no result
/// is printed, `error: interrupted`, exit status 130.
#[test]
fn sssp_under_ctrl_c_fails_with_no_result() {
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    let csv_s = csv.to_str().unwrap();
    let (o, took) = sigint_after(
        &[
            "sp",
            "sssp",
            "--grid",
            "80x80",
            "--sources",
            "all",
            "--out",
            csv_s,
        ],
        Duration::from_millis(1500),
    );
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert_eq!(o.status.code(), Some(130), "{out}\n{err}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(out.is_empty(), "a result was printed: {out}");
    assert!(err.contains("error: interrupted"), "{err}");
    assert!(!csv.exists(), "--out was written");
}

/// `sp sssp --time-limit`: past it, `error: time limit` and status 2, no result and no file.
#[test]
fn sssp_time_limit_fails_with_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    let t0 = std::time::Instant::now();
    fails(
        &[
            "sp",
            "sssp",
            "--grid",
            "1000x1000,1",
            "--sources",
            "0,999,999000,999999",
            "--method",
            "pull",
            "--time-limit",
            "0.5",
            "--out",
            csv.to_str().unwrap(),
        ],
        "time limit",
    );
    assert!(t0.elapsed().as_secs_f64() < 2.5, "{:?}", t0.elapsed());
    assert!(!csv.exists());
    // finished within its limit: the result
    let out = ok(&[
        "sp",
        "sssp",
        "--grid",
        "12x9",
        "--source",
        "3",
        "--time-limit",
        "60",
        "--check",
    ]);
    assert!(out.contains("check: equal to host Dijkstra"), "{out}");
}

/// `metaopt ARGS` under a `ulimit -v` address-space limit (KB), through bash.
fn limited(kb: u64, args: &str) -> std::process::Output {
    std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kb} && exec {} {args}",
            env!("CARGO_BIN_EXE_metaopt")
        ))
        .output()
        .expect("bash runs")
}

/// The command failed with an exit status (no abort, no panic) and a message holding `needles`.
fn failed_with(o: &std::process::Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code().is_some_and(|c| c != 0), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
    for n in needles {
        assert!(err.contains(n), "no `{n}` in:\n{err}");
    }
}

#[test]
fn a_header_of_600_million_vertices_under_a_memory_limit_is_a_clean_error() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dir.path().join("big.gr");
    std::fs::write(&gr, "p sp 600000000 1\na 1 2 3\n").unwrap();
    for backend in ["--cpu", ""] {
        let t = std::time::Instant::now();
        let o = limited(8_000_000, &format!("sp sssp {} {backend}", gr.display()));
        failed_with(&o, &["big.gr:1", "600000000 vertices declared for 1 arcs"]);
        assert!(t.elapsed().as_secs_f64() < 10.0, "{:?}", t.elapsed());
    }
}

#[test]
fn all_sources_of_a_grid_under_a_memory_limit_is_a_clean_error() {
    // 40,000 x 40,000 distances and predecessors: 19.2 GB in an 8 GB address space
    let o = limited(8_000_000, "sp sssp --grid 200x200 --sources all --cpu");
    failed_with(
        &o,
        &[
            "out of host memory",
            "sources",
            "40000 sources x 40000 vertices",
        ],
    );
}

#[test]
fn distances_that_overflow_f64_are_an_error_not_unreachable() {
    let dir = tempfile::tempdir().unwrap();
    let gr = dir.path().join("overflow.gr");
    std::fs::write(&gr, "p sp 3 2\na 1 2 1e308\na 2 3 1e308\n").unwrap();
    let gr = gr.to_str().unwrap();
    fails(
        &["sp", "sssp", gr, "--cpu", "--check"],
        "overflows to infinity",
    );
    fails(&["sp", "sssp", gr, "--check"], "overflows to infinity");
    fails(
        &["sp", "sssp", gr, "--method", "pull", "--check"],
        "overflows to infinity",
    );
}

#[test]
fn gzip_graphs_are_read_and_a_gzip_pbf_is_refused() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("small.gr.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b"p sp 3 2\na 1 2 4\na 2 3 1\n").unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let out = ok(&["sp", "sssp", gz.to_str().unwrap(), "--cpu", "--check"]);
    assert!(out.contains("3 vertices, 2 arcs, u32 weights"), "{out}");
    let pbf = dir.path().join("x.osm.pbf.gz");
    std::fs::write(&pbf, b"\x1f\x8b").unwrap();
    fails(
        &["sp", "sssp", pbf.to_str().unwrap()],
        "gzip is not supported",
    );
    // a weight of a megabyte is quoted short
    let long = dir.path().join("long.gr");
    std::fs::write(&long, format!("p sp 2 1\na 1 2 {}x\n", "9".repeat(1 << 20))).unwrap();
    let o = limited(8_000_000, &format!("sp sssp {} --cpu", long.display()));
    failed_with(&o, &["long.gr:2", "..."]);
    assert!(
        o.stderr.len() < 400,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
