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

/// `metaopt args` that must end within `secs` seconds (killed and failed past them, so a read
/// that hangs fails the test instead of holding it): the status and standard error.
fn metaopt_within(args: &[&str], secs: u64) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the metaopt binary runs");
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("metaopt {args:?} still ran after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

/// A clean, quick refusal: an exit status other than 0 (no signal), an `error:` line naming
/// `flag` and containing `needle`, no panic.
fn refused_quickly(args: &[&str], flag: &str, needle: &str) {
    let (status, err) = metaopt_within(args, 60);
    assert!(
        status.code().is_some_and(|c| c != 0),
        "metaopt {args:?}: {status:?} {err}"
    );
    assert!(
        err.contains("error") && err.contains(flag) && err.contains(needle),
        "metaopt {args:?}: expected `{flag}` and `{needle}` in: {err}"
    );
    assert!(!err.contains("panic"), "metaopt {args:?}: {err}");
}

#[test]
fn f6_files_named_by_flags_are_bounded_reads_of_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let src = path("ok.cl");
    std::fs::write(
        &src,
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n\
         { return x[0]; }\n",
    )
    .unwrap();
    // FIFOs with no writer: opening one would block for ever
    let mkfifo = |name: &str| {
        let p = path(name);
        let c = std::ffi::CString::new(p.as_str()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        p
    };
    let fifo = mkfifo("fifo");
    let fifo_gr = mkfifo("fifo.gr");
    let fifo_pbf = mkfifo("fifo.osm.pbf");
    // sparse files just past the bounds: nothing is read of them
    let sparse = |name: &str, len: u64| {
        let p = path(name);
        std::fs::File::create(&p).unwrap().set_len(len).unwrap();
        p
    };
    let big_src = sparse("big.cl", (16 << 20) + 1);
    let big_data = sparse("big.bin", (1 << 30) + 1);
    let big_text = sparse("big.txt", (1 << 30) + 1);
    let t = Instant::now();
    let folder = dir.path().to_str().unwrap();
    let regular = "not a regular file";
    let cases: [(&[&str], &str, &str); 7] = [
        (&["--source", "/dev/zero"], "--source", regular),
        (&["--source", &fifo], "--source", regular),
        (&["--source", folder], "--source", regular),
        (
            &["--source", &big_src],
            "--source",
            "holds more than 16777216 bytes",
        ),
        (
            &["--source", &src, "--data", "/dev/zero"],
            "--data",
            regular,
        ),
        (&["--source", &src, "--data", &fifo], "--data", regular),
        (
            &["--source", &src, "--data", &big_data],
            "--data",
            "holds more than 1073741824 bytes",
        ),
    ];
    // hc12 runs on the device: the files are refused before it is opened
    for base in [
        &["de", "--dims", "2", "--cpu"][..],
        &["hc12", "--dims", "2"],
    ] {
        for (extra, flag, needle) in &cases {
            let mut a = base.to_vec();
            a.extend_from_slice(extra);
            refused_quickly(&a, flag, needle);
        }
    }
    // the batched DE (--problems) reads them the same way
    refused_quickly(
        &[
            "de",
            "--problems",
            "2",
            "--dims",
            "2",
            "--cpu",
            "--source",
            &fifo,
        ],
        "--source",
        "not a regular file",
    );
    // the other files flags name
    let cnf = "data/satlib/uf20-91/uf20-01.cnf";
    let knapsack = "data/knapsack/knapsack-100.txt";
    for (args, flag) in [
        (
            vec!["de", "--function", "F1", "--dims", "2", "--cpu", "--init"],
            "--init",
        ),
        (vec!["sat", "solve", cnf, "--cpu", "--start"], "--start"),
        (
            vec!["qiga", "--knapsack", knapsack, "--cpu", "--start"],
            "--start",
        ),
        (
            vec!["qiga", "--knapsack", knapsack, "--cpu", "--table"],
            "--table",
        ),
        (
            vec!["qap", "solve", "data/qaplib/nug12.dat", "--cpu", "--start"],
            "--start",
        ),
        (vec!["sat", "eval", cnf], "ASSIGNMENTS"),
    ] {
        for file in ["/dev/zero", fifo.as_str()] {
            let mut a = args.clone();
            a.push(file);
            refused_quickly(&a, flag, "not a regular file");
        }
    }
    refused_quickly(
        &[
            "de",
            "--function",
            "F1",
            "--dims",
            "2",
            "--cpu",
            "--init",
            &big_text,
        ],
        "--init",
        "holds more than 1073741824 bytes",
    );
    // input files of the readers: the error names the file
    for (args, file) in [
        (vec!["sat", "solve", "/dev/zero", "--cpu"], "/dev/zero"),
        (vec!["sat", "solve", &fifo, "--cpu"], &fifo),
        (vec!["qiga", "--knapsack", &fifo, "--cpu"], &fifo),
        (vec!["qap", "solve", &fifo, "--cpu"], &fifo),
        (vec!["sp", "sssp", &fifo_gr, "--cpu"], &fifo_gr),
        (vec!["sp", "sssp", &fifo_pbf, "--cpu"], &fifo_pbf),
    ] {
        refused_quickly(&args, file, "not a regular file");
    }
    assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
}
