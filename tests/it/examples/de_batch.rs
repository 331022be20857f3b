//! Builds `c_examples/batch_de.c` (a batch of sphere, Rastrigin and Griewank problems, each best
//! vector copied out and checked) against the header and the library that `cargo test` built,
//! runs it on the device and the CPU backend (in double they print the same results), checks its
//! exit statuses and runs it under valgrind's memcheck.

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use std::path::Path;

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/batch_de.c", CURRENT_NAMES)
}

/// The problem lines: `problem i: F dims d best v generations g stop s x ...`.
fn problems(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter(|l| l.starts_with("problem "))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

fn close(a: &str, b: &str) -> bool {
    let (a, b): (f64, f64) = (a.parse().unwrap(), b.parse().unwrap());
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || (a.abs() < 1e-12 && b.abs() < 1e-12)
}

#[test]
fn batch_de_solves_its_problems_and_the_cpu_agrees() {
    let run = |backend: &str| {
        let out = command(example())
            .args(["6", "150", backend])
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
    assert!(cpu.contains("backend: CPU, double precision"), "{cpu}");
    let (d, c) = (problems(&dev), problems(&cpu));
    assert_eq!(d.len(), 6);
    for (i, p) in c.iter().enumerate() {
        assert_eq!(p[1], format!("{i}:"));
        let dims: usize = p[4].parse().unwrap();
        assert_eq!(dims, 4 + i % 5);
        let best: f64 = p[6].parse().unwrap();
        let gens: u64 = p[8].parse().unwrap();
        match i % 3 {
            // spheres reach 1e-8 before the budget
            0 => assert!(best <= 1e-8 && gens < 150 && p[10] == "target", "{p:?}"),
            _ => assert!(best >= 0.0 && gens == 150 && p[10] == "budget", "{p:?}"),
        }
        assert_eq!(p.len(), 12 + dims, "{p:?}");
    }
    if dev.contains("double precision") {
        for (a, b) in d.iter().zip(&c) {
            assert_eq!(a[..6], b[..6]);
            assert!(close(&a[6], &b[6]), "{a:?} vs {b:?}");
            assert_eq!(a[7..11], b[7..11]);
        }
    }
}

#[test]
fn batch_de_reports_usage_errors_in_its_exit_status() {
    for args in [
        &["0"][..],
        &["x"],
        &["2", "-1"],
        &["2", "3", "gpu"],
        &["1", "2", "cpu", "5"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
}

#[test]
fn batch_de_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let args = [exe, "4".as_ref(), "20".as_ref(), "cpu".as_ref()];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "batch_de", &args, &cache);
    assert_clean(code, &log);
}
