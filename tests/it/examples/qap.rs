//! Builds `c_examples/qap_solve.c` with the system C compiler against `include/metaopt.h` and the
//! `libmetaopt.so` that `cargo test` built (the crate is also a cdylib), runs it on had12, and runs
//! it under valgrind's memcheck: no invalid access and no definite leak, with suppressions that
//! name only the OpenCL driver's libraries (`tests/valgrind-pocl.supp`).

use crate::common::cbuild::*;
use crate::common::need::{needs, Need};
use crate::common::*;
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::problem::qap::QapProblem;
use std::path::{Path, PathBuf};

/// The example, built once per test process.
fn example() -> &'static Path {
    program("c_examples/qap_solve.c", CURRENT_NAMES)
}

fn had12() -> PathBuf {
    qaplib().join("had12.dat")
}

/// The number after `key` on the line starting with `prefix`.
fn number_after(out: &str, prefix: &str, key: &str) -> i64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    let rest = &line[line
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in `{line}`"))
        + key.len()..];
    rest.split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn qap_solve_runs_on_had12() {
    let out = command(example())
        .arg(had12())
        .args(["3", "4", "5"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(stdout.starts_with("device "), "{stdout}");
    assert!(
        stdout.contains(
            "error path: metaopt_qap_params(DF = NULL) -> error 3: null pointer passed as `DF`"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("instance: n = 12, 3 swaps"), "{stdout}");
    assert!(stdout.contains("run from identity: cost "), "{stdout}");
    assert!(stdout.contains("solve: 4 runs"), "{stdout}");
    assert!(stdout.contains(", BKS 1652, gap "), "{stdout}");
    assert!(stdout.contains("time: "), "{stdout}");

    // the printed permutation (1-based) has the printed cost, which is at least the BKS
    let best = number_after(&stdout, "solve:", "best cost ");
    let perm_line = stdout
        .lines()
        .find(|l| l.starts_with("permutation (1-based):"))
        .unwrap();
    let perm: Vec<usize> = perm_line["permutation (1-based):".len()..]
        .split_whitespace()
        .map(|v| v.parse::<usize>().unwrap() - 1)
        .collect();
    assert_eq!(instance("had12").cost(&perm), best);
    assert!(best >= 1652);

    // the same run from the identity as the Rust API
    let ident = number_after(&stdout, "run from identity:", "cost ");
    let p = std::sync::Arc::new(QapProblem::from_instance(&instance("had12")));
    let mut s = QapHc12::new(p, 3, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    assert_eq!(s.run(None, None).unwrap().cost.as_f64() as i64, ident);
}

#[test]
fn qap_solve_reports_errors_in_its_exit_status() {
    let out = command(example()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "usage error");
    assert!(text(&out).1.contains("usage:"));
    let out = command(example()).arg(had12()).arg("0").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "swaps 0");
    let out = command(example())
        .arg(work_dir!().join("missing.dat"))
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("metaopt_qap_params_from_file failed: error 10"),
        "{stderr}"
    );
}

#[test]
fn qap_solve_is_clean_under_valgrind() {
    needs!(Need::Valgrind);
    let cache = work_dir!().join("pocl-cache");
    let exe = example().as_os_str();
    let had12 = had12();
    let args = [
        exe,
        had12.as_os_str(),
        "2".as_ref(),
        "2".as_ref(),
        "1".as_ref(),
    ];

    warm_kernel_cache(&args, &cache);
    let (code, log) = memcheck(&work_dir!(), "qap_solve", &args, &cache);
    assert_clean(code, &log);
}

/// The check above can fail: a program that leaks a library-allocated error message is caught
/// (exit 99, a definite leak through metaopt's frames), despite the suppressions.
#[test]
fn valgrind_check_catches_a_leaked_message() {
    needs!(Need::Valgrind);
    let src = work_dir!().join("leak.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include \"metaopt.h\"\n\
         int main(void) {\n\
         \x20   MetaoptQapParamsResult r = metaopt_qap_params(2, 12, 1, NULL, \"int64\", 2, 0, 0);\n\
         \x20   r.error_message = NULL; /* the message is lost, never freed */\n\
         \x20   return r.error_code == METAOPT_ERR_NULL_POINTER ? 0 : 1;\n}\n",
    )
    .unwrap();
    let exe = work_dir!().join("leak");
    compile(&src, &exe);
    let (code, log) = memcheck(
        &work_dir!(),
        "leak",
        &[exe.as_os_str()],
        &work_dir!().join("pocl-cache"),
    );
    assert_eq!(code, Some(99), "the leak must fail the check:\n{log}");
    assert!(
        log.contains("definitely lost") && log.contains("metaopt_qap_params"),
        "{log}"
    );
}

/// `c_examples/qap_ts.c` (the robust tabu search), built once per test process.
fn ts_example() -> &'static Path {
    program("c_examples/qap_ts.c", CURRENT_NAMES)
}

#[test]
fn qap_ts_reaches_the_optimum_of_had12_on_the_cpu() {
    let out = command(ts_example())
        .arg(had12())
        .args(["4", "60", "cpu"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains(
            "error path: launch_iterations = 0 -> error 2: invalid argument `launch_iterations`"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("tabu search: 4 chains"), "{stdout}");
    assert!(
        stdout.contains("best cost 1652, BKS 1652, gap 0.000% (reached)"),
        "{stdout}"
    );
    let perm_line = stdout
        .lines()
        .find(|l| l.starts_with("permutation (1-based):"))
        .unwrap();
    let perm: Vec<usize> = perm_line["permutation (1-based):".len()..]
        .split_whitespace()
        .map(|v| v.parse::<usize>().unwrap() - 1)
        .collect();
    assert_eq!(instance("had12").cost(&perm), 1652);
    let out = command(ts_example())
        .arg(had12())
        .arg("0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "chains 0 is a usage error");
}
