//! Builds `c_examples/qiga.c` (read a knapsack file, its exact optimum, a QIGA run, the best item
//! set verified twice) against the header and the library that `cargo test` built, runs it on
//! the shared instances (device and CPU give the same printed results), checks its exit statuses
//! and runs it under valgrind's memcheck.

use crate::common;
use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use metaopt::problem::knapsack::Knapsack;
use std::path::{Path, PathBuf};

fn knapsack(n: usize) -> PathBuf {
    common::data_dir().join(format!("knapsack/knapsack-{n}.txt"))
}

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/qiga.c", CURRENT_NAMES)
}

/// The printed lines that do not depend on the backend or the clock.
fn results(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| {
            [
                "instance:",
                "optimum:",
                "best values:",
                "best:",
                "gap:",
                "items:",
                "verified:",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
        .collect()
}

#[test]
fn qiga_solves_knapsack_250_and_the_cpu_prints_the_same() {
    let path = knapsack(250);
    let run = |backend: &str| {
        let out = command(example())
            .arg(&path)
            .args(["30", "40", backend])
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status
        );
        stdout
    };
    let dev = run("device");
    assert!(
        dev.contains("instance: knapsack-250, 250 items, capacity 673.867780"),
        "{dev}"
    );
    assert!(dev.contains("optimum: 1533.821142 (172 items"), "{dev}");
    assert!(dev.contains("populations: 30 in "), "{dev}");
    assert!(dev.contains("verified: ") && dev.contains(": ok"), "{dev}");
    let cpu = run("cpu");
    assert!(cpu.contains("backend: CPU"), "{cpu}");
    assert_eq!(results(&dev), results(&cpu));
    // the printed items are worth the printed best value
    let k = Knapsack::from_file(&path).unwrap();
    let items: Vec<usize> = dev
        .lines()
        .find_map(|l| l.strip_prefix("items:"))
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    let mut bits = vec![0u8; 250];
    for i in items {
        bits[i] = 1;
    }
    let (p, w) = k.value_and_weight(&bits);
    assert!(w <= k.int_capacity());
    let best = dev
        .lines()
        .find_map(|l| l.strip_prefix("best: "))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(format!("{:.6}", k.to_real(p)), best);
}

#[test]
fn qiga_reports_the_gap_to_knapsack_100s_optimum_and_errors_in_its_exit_status() {
    let out = command(example())
        .arg(knapsack(100))
        .args(["8", "10", "cpu"])
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(out.status.success(), "{stdout}");
    // knapsack-100's optimum comes from the cardinality bound (data/SOURCES.md)
    assert!(
        stdout.contains("optimum: 609.495600 (67 items") && stdout.contains("gap: "),
        "{stdout}"
    );
    for args in [
        &[][..],
        &["a.txt", "0"],
        &["a.txt", "x"],
        &["a.txt", "1", "-1"],
        &["a.txt", "1", "2", "gpu"],
        &["a", "1", "2", "cpu", "5"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
    let out = command(example())
        .arg(work_dir!().join("missing.txt"))
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("metaopt_knapsack_from_file failed: error 10")
            && stderr.contains("missing.txt"),
        "{stderr}"
    );
}

#[test]
fn qiga_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let path = knapsack(250);
    let args = [
        exe,
        path.as_os_str(),
        "4".as_ref(),
        "5".as_ref(),
        "cpu".as_ref(),
    ];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "qiga", &args, &cache);
    assert_clean(code, &log);
}
