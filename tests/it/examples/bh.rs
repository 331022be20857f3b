//! Builds `c_examples/bh.c` (basin hopping on Rastrigin, a saved state loaded into a second
//! instance that ends where the first did, the value checked against the function) against the
//! header and the library that `cargo test` built, runs it on the device and the CPU backend (in
//! double they take the same steps where the objective's values agree), checks its exit statuses and runs it under valgrind's
//! memcheck.

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use std::path::Path;

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/bh.c", CURRENT_NAMES)
}

/// The line that starts with `label:`, split into words.
fn line(stdout: &str, label: &str) -> Vec<String> {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{label}:")))
        .unwrap_or_else(|| panic!("no `{label}:` line in\n{stdout}"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn bh_reaches_rastrigins_minimum_resumes_exactly_and_the_cpu_agrees() {
    let run = |backend: &str| {
        let out = command(example())
            .args(["F6", "5", "12000", backend])
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status
        );
        assert!(stdout.contains("checked: ok"), "{stdout}");
        stdout
    };
    let dev = run("device");
    let cpu = run("cpu");
    assert!(cpu.contains("backend: CPU backend"), "{cpu}");
    for out in [&dev, &cpu] {
        let (whole, resumed) = (line(out, "whole"), line(out, "resumed"));
        assert_eq!(
            whole[1..],
            resumed[1..],
            "the resumed solve ends as the whole one"
        );
        let best: f64 = whole[2].parse().unwrap();
        assert!(best < 1e-9, "Rastrigin's minimum 0: {best}");
        assert_eq!(whole[4], "12000");
        // every chain's steps and the starting point
        assert_eq!(whole[6], (12000u64 * 256 + 1).to_string());
        assert_eq!(whole[8], "budget");
    }
    if dev.contains("precision: double") {
        // the same steps and point; the value to the objective's rounding (the device's cos)
        let (d, c) = (line(&dev, "whole"), line(&cpu, "whole"));
        assert_eq!(d[3..], c[3..]);
        let (a, b): (f64, f64) = (d[2].parse().unwrap(), c[2].parse().unwrap());
        assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{a} vs {b}");
    }
}

#[test]
fn bh_reports_errors_in_its_exit_status() {
    for args in [
        &["F6", "0"][..],
        &["F6", "5", "1"],
        &["F6", "5", "10", "gpu"],
        &["F6", "5", "10", "cpu", "x"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
    // an unknown function is the library's error, named
    let out = command(example())
        .args(["F99", "5", "10", "cpu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("metaopt_bh_create failed"),
        "{}",
        text(&out).1
    );
}

#[test]
fn bh_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let args = [
        exe,
        "F6".as_ref(),
        "3".as_ref(),
        "40".as_ref(),
        "cpu".as_ref(),
    ];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "bh", &args, &cache);
    assert_clean(code, &log);
}
