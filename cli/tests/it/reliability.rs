//! Reliability end to end: sizes from files are checked before they are allocated,
//! every time limit goes through the one validator, and a time limit holds from the command's
//! start (reading, building kernels and set-up count).

use crate::run;
use run::metaopt;
use std::time::{Duration, Instant};

/// A clean failure: an exit status (no signal, so no abort), an `error:` line naming `needle`,
/// and no panic.
fn fails_cleanly(args: &[&str], needle: &str) {
    let o = metaopt(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code().is_some_and(|c| c != 0),
        "metaopt {args:?}: {:?} {err}",
        o.status
    );
    assert!(
        err.contains("error") && err.contains(needle),
        "metaopt {args:?}: expected `{needle}` in: {err}"
    );
    assert!(
        !err.contains("panic") && !err.contains("memory allocation"),
        "metaopt {args:?}: {err}"
    );
}

#[test]
fn f2_a_fixture_whose_sizes_do_not_fit_its_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.txt");
    // count x dims = 1e11 values: used to abort on Vec::with_capacity(count * dims)
    std::fs::write(&path, "dims 100000\ncount 1000000\npoints\n").unwrap();
    fails_cleanly(
        &["bench", "functions", "--fixture", path.to_str().unwrap()],
        "count 1000000 x dims 100000",
    );
    // a product that wraps usize
    std::fs::write(&path, "dims 18446744073709551615\ncount 3\npoints\n").unwrap();
    fails_cleanly(
        &["bench", "functions", "--fixture", path.to_str().unwrap()],
        "count 3",
    );
}

#[test]
fn f3_absurd_time_limits_are_flag_errors_not_panics() {
    fails_cleanly(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "2",
            "--time-limit",
            "1e20",
        ],
        "--time-limit",
    );
    fails_cleanly(
        &[
            "sat",
            "solve",
            "--time-limit",
            "1e300",
            "data/satlib/flat30-60/flat30-1.cnf",
        ],
        "--time-limit",
    );
    fails_cleanly(
        &[
            "qap",
            "solve",
            "data/qaplib/had12.dat",
            "--time-limit",
            "inf",
        ],
        "--time-limit",
    );
}

#[test]
fn f4_qap_hc12_mask_order_3_on_tai256c_ends_near_its_limit() {
    // 178,957,825 rows a step: the run used to go on for minutes past a 3 s limit
    let t = Instant::now();
    let o = metaopt(&[
        "qap",
        "solve",
        "data/qaplib/tai256c.dat",
        "--method",
        "hc12",
        "--swaps",
        "64",
        "--mask-order",
        "3",
        "--time-limit",
        "2",
        "--quiet",
    ]);
    let took = t.elapsed();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(took <= Duration::from_secs(2 + 5), "took {took:?}");
}

#[test]
fn f5_a_kernel_build_longer_than_the_time_limit_does_not_hold_the_command() {
    use std::io::BufRead;
    // with PoCL's kernel cache off every build is cold: island DE's programs take seconds to
    // compile here, far past the limit; the command must answer by its limit, then finish the
    // build it stopped waiting for (so that the driver would cache it) before it exits
    let cold = [("POCL_KERNEL_CACHE", "0")];
    let full = {
        let t = Instant::now();
        let o = run::metaopt_env(
            &[
                "de",
                "--function",
                "F6",
                "--dims",
                "30",
                "--max-generations",
                "1",
                "--quiet",
            ],
            &cold,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        t.elapsed()
    };
    let t = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args([
            "de",
            "--function",
            "F6",
            "--dims",
            "30",
            "--time-limit",
            "0.3",
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE")
        .env("POCL_KERNEL_CACHE", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let answered = t.elapsed();
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    let err = format!("{first}\n{}", rest.join("\n"));
    if full < Duration::from_secs_f64(1.5) {
        // a device that builds this fast leaves nothing to cut: the run just ends in time
        assert!(answered <= Duration::from_secs(3), "{answered:?}: {err}");
        return;
    }
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        first.starts_with("error:")
            && first.contains("building the device program")
            && first.contains("time limit"),
        "{err}"
    );
    assert!(
        answered < full / 2 && answered <= Duration::from_secs_f64(0.3 + 1.0),
        "answered after {answered:?} (a whole run with its builds: {full:?})"
    );
    assert!(err.contains("finishing the kernel build"), "{err}");
}
