//! Builds `c_examples/de_islands.c` (island DE on a catalogue function and on a C callback)
//! against the header and the library that `cargo test` built, runs it, checks the printed bests
//! against the host's function at the printed points, and runs it under valgrind's memcheck.

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use metaopt::problem::functions;
use std::path::Path;

fn example() -> &'static Path {
    program("c_examples/de_islands.c", CURRENT_NAMES)
}

fn after<'a>(out: &'a str, prefix: &str) -> &'a str {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    &line[prefix.len()..]
}

fn numbers(s: &str) -> Vec<f64> {
    s.split_whitespace().map(|v| v.parse().unwrap()).collect()
}

#[test]
fn de_islands_solves_the_catalogue_and_the_callback() {
    let out = command(example())
        .args(["CEC04t", "300", "1"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("16 populations x 40 members x 10 dimensions, double"),
        "{stdout}"
    );
    assert!(
        stdout.contains("migration PermuteN every 20 generations"),
        "{stdout}"
    );
    // the catalogue run: the printed value is CEC04t at the printed point, and DE got well below
    // its random start (values in the thousands)
    let value: f64 = after(&stdout, "catalogue best value: ")
        .trim()
        .parse()
        .unwrap();
    let point = numbers(after(&stdout, "catalogue best point:"));
    assert_eq!(point.len(), 10);
    let host = functions::eval("CEC04t", &point).unwrap();
    assert!(
        (host - value).abs() <= 1e-6 * host.abs().max(1.0),
        "printed {value}, host {host}"
    );
    assert!((1.0..200.0).contains(&value), "{value}");
    let bests = numbers(after(&stdout, "catalogue population bests:"));
    assert_eq!(bests.len(), 16);
    assert!(
        bests.iter().all(|&b| b >= value * (1.0 - 1e-6)),
        "{bests:?}"
    );
    // the callback run: the sphere to ~0, one call per generation plus the initial one
    let value: f64 = after(&stdout, "callback best value: ")
        .trim()
        .parse()
        .unwrap();
    assert!(value < 1e-6, "{value}");
    assert_eq!(after(&stdout, "callback calls: ").trim(), "201");
}

#[test]
fn de_islands_reports_usage_and_library_errors() {
    for args in [
        &["F1", "0"][..],
        &["F1", "x"],
        &["F1", "10", "3"],
        &["F1", "10", "1", "extra"],
    ] {
        let out = command(example()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out).1.contains("usage:"), "{args:?}");
    }
    let out = command(example())
        .args(["NoSuchFunction", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("NoSuchFunction"), "{}", text(&out).1);
}

#[test]
fn de_islands_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let args = [exe, "F1".as_ref(), "3".as_ref(), "0".as_ref()];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "de_islands", &args, &cache);
    assert_clean(code, &log);
}
