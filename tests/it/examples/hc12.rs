//! Builds `c_examples/hc12_user.c` (general HC12 with a user OpenCL objective, Rastrigin in 10
//! dimensions, its constant through func-data) against the header and the library that
//! `cargo test` built, runs it, checks the printed best against the host's Rastrigin, and runs it
//! under valgrind's memcheck on a small problem.

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use metaopt::problem::functions;
use std::path::Path;

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/hc12_user.c", CURRENT_NAMES)
}

/// The text after `prefix` on the line that starts with it.
fn after<'a>(out: &'a str, prefix: &str) -> &'a str {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    &line[prefix.len()..]
}

/// Runs the example with `args` and checks its output; returns (best value, best point).
fn run_example(args: &[&str], double: bool) -> (f64, Vec<f64>) {
    let out = command(example()).args(args).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    // the info block
    assert!(stdout.contains("parameters: 10"), "{stdout}");
    assert!(
        stdout.contains("user OpenCL source `Rastrigin (OpenCL C)`"),
        "{stdout}"
    );
    assert!(stdout.contains("func-data: 4 bytes"), "{stdout}");
    // without --double the example asks for the default, auto: double where the device has fp64
    let fp64 = metaopt::device::list_devices().unwrap()
        [metaopt::device::get_device_number().unwrap()]
    .fp64;
    assert!(
        stdout.contains(if double || fp64 {
            "precision: double"
        } else {
            "precision: float"
        }),
        "{stdout}"
    );
    let value: f64 = after(&stdout, "best value: ").trim().parse().unwrap();
    let point: Vec<f64> = after(&stdout, "best point:")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(point.len(), 10, "{stdout}");
    assert!(point.iter().all(|x| x.abs() <= 5.12 + 1e-9), "{point:?}");
    // the profile lists the evaluation kernel with launches
    let eval = after(&stdout, "hc12g_eval launches=");
    let launches: u64 = eval.split_whitespace().next().unwrap().parse().unwrap();
    assert!(launches > 0, "{stdout}");
    // the printed value is Rastrigin (F6) at the printed point (printed to 6 decimals)
    let host = functions::eval("F6", &point).unwrap();
    let tol = if double { 1e-3 } else { 1e-2 };
    assert!(
        (host - value).abs() <= tol,
        "value {value}, host Rastrigin at the printed point {host}\n{stdout}"
    );
    (value, point)
}

#[test]
fn hc12_user_minimises_rastrigin_in_ten_dimensions() {
    let (value, _) = run_example(&[], false);
    // HC12 with 10 restarts on a 16-bit grid lands in or near the global basin
    assert!(value < 5.0, "best value {value}");
    let (value, _) = run_example(&["4", "12", "1"], true);
    assert!(value.is_finite());
}

#[test]
fn hc12_user_reports_usage_errors() {
    for args in [
        &["0"][..],
        &["1", "33"],
        &["1", "8", "2"],
        &["x"],
        &["1", "8", "0", "extra"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
}

#[test]
fn hc12_user_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    // one run on a 6-bit grid: a small neighbourhood, so that memcheck takes seconds
    let args = [exe, "1".as_ref(), "6".as_ref()];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "hc12_user", &args, &cache);
    assert_clean(code, &log);
}
