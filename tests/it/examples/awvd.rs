//! Builds `c_examples/awvd.c` (the balls of a PDB file, the diagram, every sphere checked against
//! its four balls, the vertices in Voronota's format) against the header and the library that
//! `cargo test` built, runs it on 1UBQ (CPU backend and device: Voronota's 3,793 vertices, the
//! same text) and checks its exit statuses.

use crate::common;
use crate::common::cbuild::*;
use crate::common::work_dir;
use std::path::Path;

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/awvd.c", CURRENT_NAMES)
}

fn quadruples(text: &str) -> Vec<[u32; 4]> {
    let mut q: Vec<[u32; 4]> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u32> = l
                .split_whitespace()
                .take(4)
                .map(|t| t.parse().unwrap())
                .collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect();
    q.sort_unstable();
    q
}

#[test]
fn awvd_of_1ubq_equals_voronota_on_the_cpu_and_the_device() {
    let pdb = common::data_dir().join("pdb/1ubq.pdb");
    let want = quadruples(
        &std::fs::read_to_string(common::data_dir().join("pdb/1ubq.vertices.txt")).unwrap(),
    );
    assert_eq!(want.len(), 3793);
    let mut texts = Vec::new();
    for backend in ["cpu", "device"] {
        let v = work_dir!().join(format!("vertices-{backend}.txt"));
        let out = command(example())
            .arg(&pdb)
            .arg(backend)
            .arg(&v)
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "{backend}: exit {:?}\n{stdout}\n{stderr}",
            out.status
        );
        assert!(
            stdout.contains("balls: 602\n") && stdout.contains("vertices: 3793\n"),
            "{stdout}"
        );
        assert!(
            stdout.contains("tangency: worst error") && stdout.contains("(ok)"),
            "{stdout}"
        );
        let t = std::fs::read_to_string(&v).unwrap();
        assert_eq!(quadruples(&t), want);
        texts.push(t);
    }
    assert_eq!(texts[0], texts[1], "the device prints the CPU's vertices");
}

#[test]
fn bad_arguments_and_files_are_exit_statuses() {
    for args in [&[][..], &["a.pdb", "gpu"], &["a.pdb", "cpu", "v.txt", "x"]] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = command(example())
        .arg("/nonexistent/x.balls")
        .arg("cpu")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("metaopt_awvd_read_balls failed") && text(&out).1.contains("x.balls"),
        "{}",
        text(&out).1
    );
}
