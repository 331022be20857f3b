//! Builds `c_examples/sssp.c` (read a graph file, shortest paths from a source, the tree verified
//! against the arcs, the path to a target, an ant colony run) against the header and the library
//! that `cargo test` built, runs it on the Helsinki road network and on a small DIMACS file
//! (device and CPU print the same distances, which equal the host Dijkstra's), checks its exit
//! statuses and runs it under valgrind's memcheck.

use crate::common;
use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use metaopt::problem::graph::{dijkstra, Graph, OsmOptions};
use std::path::{Path, PathBuf};

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/sssp.c", CURRENT_NAMES)
}

/// A small DIMACS graph: 1 -> 2 -> 3 -> 4 cheaper than 1 -> 4; vertex 5 unreachable.
fn small_gr() -> PathBuf {
    let p = work_dir!().join("small.gr");
    std::fs::write(
        &p,
        "c small\np sp 5 5\na 1 2 3\na 2 3 4\na 3 4 5\na 1 4 20\na 5 1 1\n",
    )
    .unwrap();
    p
}

fn lines_with<'a>(stdout: &'a str, prefixes: &[&str]) -> Vec<&'a str> {
    stdout
        .lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

#[test]
fn sssp_on_helsinki_equals_dijkstra_and_the_cpu_prints_the_same() {
    let pbf = common::data_dir().join("graphs/helsinki.osm.pbf");
    let run = |args: &[&str]| {
        let out = command(example()).arg(&pbf).args(args).output().unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status
        );
        stdout
    };
    let dev = run(&["100", "-", "frontier", "device"]);
    assert!(
        dev.contains("graph: 6906 vertices, 15314 arcs, double weights"),
        "{dev}"
    );
    assert!(dev.contains("verified: ok (0 bad predecessors)"), "{dev}");
    let want = ["graph:", "reached:", "verified:", "distance", "path:"];
    for method in ["bellman-ford", "near-far"] {
        let cpu = run(&["100", "-", method, "cpu"]);
        assert!(cpu.contains("backend: CPU"), "{cpu}");
        // reached lines differ only in the rounds
        let strip = |s: &str| {
            lines_with(s, &want)
                .into_iter()
                .map(|l| l.split(" arcs traversed").next().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&dev), strip(&cpu));
    }
    // the printed distance is Dijkstra's
    let g = Graph::from_osm_pbf(&pbf, OsmOptions::default()).unwrap();
    let d = dijkstra(&g, 100).unwrap();
    let line = dev
        .lines()
        .find(|l| l.starts_with("distance 100 -> "))
        .unwrap();
    let (t, v) = line["distance 100 -> ".len()..].split_once(": ").unwrap();
    assert_eq!(v, format!("{:.6}", d.dist.get_f64(t.parse().unwrap())));
    assert!(dev.contains("aco: "), "{dev}");
}

#[test]
fn sssp_on_a_small_file_finds_the_path_and_errors_in_its_exit_status() {
    let gr = small_gr();
    let out = command(example())
        .arg(&gr)
        .args(["0", "3", "frontier", "cpu"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("graph: 5 vertices, 5 arcs, uint32 weights"),
        "{stdout}"
    );
    assert!(
        stdout.contains("distance 0 -> 3: 12.000000") && stdout.contains("exact: 12"),
        "{stdout}"
    );
    assert!(stdout.contains("path: 4 vertices: 0 1 2 3"), "{stdout}");
    assert!(
        stdout.contains("aco: length 12.000000, gap 0.0000 %"),
        "{stdout}"
    );
    let out = command(example())
        .arg(&gr)
        .args(["0", "4"])
        .output()
        .unwrap();
    assert!(
        text(&out).0.contains("distance 0 -> 4: unreachable"),
        "{}",
        text(&out).0
    );
    for args in [
        &[][..],
        &["a.gr", "-1"],
        &["a.gr", "x"],
        &["a.gr", "0", "1", "dijkstra"],
        &["a.gr", "0", "1", "frontier", "gpu"],
        &["a", "0", "1", "frontier", "cpu", "5"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
    let out = command(example())
        .arg(work_dir!().join("missing.gr"))
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("metaopt_graph_from_file failed: error 10")
            && stderr.contains("missing.gr"),
        "{stderr}"
    );
    let out = command(example()).arg(&gr).args(["7"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("metaopt_sp_sssp failed") && text(&out).1.contains("source"),
        "{}",
        text(&out).1
    );
}

#[test]
fn sssp_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let gr = small_gr();
    let args = [
        exe,
        gr.as_os_str(),
        "0".as_ref(),
        "3".as_ref(),
        "near-far".as_ref(),
        "cpu".as_ref(),
    ];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "sssp", &args, &cache);
    assert_clean(code, &log);
}
