//! Builds `c_examples/cpp_api.cpp` (the C++ API of `include/metaopt.hpp`: QAP HC12 through
//! Params, ParamsInstance and ParamsInstanceDF, general HC12, DEMultiPop with a host functor and
//! with an OpenCL source, and the errors each bad argument throws) with the system C++ compiler
//! against the header and the library that `cargo test` built, runs it, checks what it printed,
//! and runs it under valgrind's memcheck.

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::work_dir;
use std::path::Path;

fn example() -> &'static Path {
    program("c_examples/cpp_api.cpp", CURRENT_NAMES)
}

fn after<'a>(out: &'a str, prefix: &str) -> &'a str {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    &line[prefix.len()..]
}

fn first_number(s: &str) -> f64 {
    s.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn cpp_api_reaches_the_known_optima_and_throws_the_right_errors() {
    let out = command(example()).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(!stdout.contains("FAILED"), "{stdout}");
    assert!(stdout.contains("all checks passed"), "{stdout}");
    // the QAP optimum found by enumeration is what the three classes reached
    let optimum = first_number(after(&stdout, "qap optimum (enumerated): "));
    assert_eq!(first_number(after(&stdout, "qap Params best: ")), optimum);
    assert_eq!(
        first_number(after(&stdout, "qap ParamsInstance best: ")),
        optimum
    );
    assert!(
        first_number(after(&stdout, "hc12 F1 best: ")) < 1.3e-4,
        "{stdout}"
    );
    assert!(
        first_number(after(&stdout, "de host functor best: ")) < 1e-8,
        "{stdout}"
    );
    assert!(
        first_number(after(&stdout, "de device source best: ")) < 1e-4,
        "{stdout}"
    );
    // every error case ran and got its code
    for case in [
        "DEMultiPop with dimension 0: metaopt::Error 2",
        "HC12 with no parameters: metaopt::Error 2",
        "ParamsInstanceDF with a NULL DF: metaopt::Error 3",
        "DeviceFitness with a NULL source: metaopt::Error 3",
        "DeviceFitness that does not compile: metaopt::Error 7",
        "make_fitness_by_name of an unknown function: metaopt::Error 2",
        "a host functor's exception is rethrown as itself",
        "a moved-from DEMultiPop: metaopt::Error 3",
    ] {
        assert!(stdout.contains(&format!("ok: {case}")), "{case}\n{stdout}");
    }
    // the library's messages reach what()
    assert!(
        stdout.contains("metaopt_de_create: invalid argument (2): invalid argument `dims`"),
        "{stdout}"
    );
    assert!(
        stdout.contains("unknown function `NoSuchFunction`"),
        "{stdout}"
    );
}

#[test]
fn cpp_api_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let args = [exe];
    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "cpp_api", &args, &cache);
    assert_clean(code, &log);
}
