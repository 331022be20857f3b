//! The run contract at the command line (docs/specs/RUN.md): one `stopped_by` word in every
//! solver's JSON and a `stopped by` line in its text, `sat solve`'s exit status, every output
//! path checked before the work starts and written whole, and SIGTERM handled as SIGINT.

use crate::run::{metaopt, ok};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The words of `metaopt::StopReason`.
const WORDS: [&str; 8] = [
    "budget",
    "evaluations",
    "time_limit",
    "target",
    "stagnation",
    "interrupted",
    "converged",
    "done",
];

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The word of the text's `stopped by` line (`c stopped by` in SAT's output).
fn text_stop(text: &str) -> &str {
    let line = text
        .lines()
        .find(|l| l.trim_start_matches("c ").starts_with("stopped by"))
        .unwrap_or_else(|| panic!("no `stopped by` line: {text}"));
    line.trim_start_matches("c ")["stopped by".len()..].trim()
}

/// The file names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// No temporary file of an atomic write is left in `dir`.
fn no_part_files(dir: &Path) {
    let left: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| n.starts_with(".metaopt-"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// Every solver command names its stop `stopped_by` in JSON (no other key) with the library's
/// word, and has a `stopped by` line with the same word in its text.
#[test]
fn every_solver_names_its_stop_with_one_key_and_one_vocabulary() {
    let sat = root().join("data/satlib/uf20-91/uf20-01.cnf");
    let knapsack = root().join("data/knapsack/knapsack-100.txt");
    let (sat, knapsack) = (sat.to_str().unwrap(), knapsack.to_str().unwrap());
    let runs: [(&[&str], &str); 10] = [
        (
            &[
                "bh",
                "--function",
                "F1",
                "--dims",
                "3",
                "--cpu",
                "--chains",
                "8",
                "--max-steps",
                "5",
            ],
            "budget",
        ),
        (
            &[
                "qap",
                "solve",
                "data/qaplib/had12.dat",
                "--cpu",
                "--max-iterations",
                "50",
            ],
            "budget",
        ),
        (
            &[
                "qap",
                "solve",
                "data/qaplib/had12.dat",
                "--cpu",
                "--method",
                "hc12",
                "--max-runs",
                "2",
            ],
            "budget",
        ),
        (
            &[
                "qap",
                "solve",
                "data/qaplib/had12.dat",
                "--cpu",
                "--target",
                "1e9",
            ],
            "target",
        ),
        (
            &["hc12", "--function", "F1", "--dims", "3", "--max-runs", "1"],
            "budget",
        ),
        (&["sat", "solve", sat, "--cpu", "--walks", "2"], "target"),
        (
            &["sat", "solve", sat, "--method", "hc12", "--target", "50"],
            "target",
        ),
        (
            &[
                "qiga",
                "--knapsack",
                knapsack,
                "--cpu",
                "--populations",
                "4",
                "--generations",
                "5",
            ],
            "budget",
        ),
        (
            &[
                "de",
                "--function",
                "F1",
                "--dims",
                "3",
                "--cpu",
                "--max-generations",
                "5",
            ],
            "budget",
        ),
        (
            &[
                "de",
                "--problems",
                "2",
                "--function",
                "F1",
                "--dims",
                "3",
                "--cpu",
                "--max-generations",
                "5",
            ],
            "budget",
        ),
    ];
    for (args, word) in runs {
        let o = metaopt(&[args, &["--json"]].concat());
        assert!(
            matches!(o.status.code(), Some(0) | Some(10)),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let j = json(&String::from_utf8_lossy(&o.stdout));
        assert_eq!(j["stopped_by"], word, "{args:?}: {j}");
        for old in ["stop", "stop_reason"] {
            assert!(j.get(old).is_none(), "{args:?} still has `{old}`: {j}");
        }
        if let Some(rows) = j["results"].as_array() {
            for r in rows {
                assert!(WORDS.contains(&r["stopped_by"].as_str().unwrap()), "{r}");
            }
        }
        let o = metaopt(args);
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(text_stop(&text), word, "{args:?}: {text}");
    }
}

/// `sat solve` exits with 10 when it found a model and 0 when it did not, as SAT solvers do;
/// an error keeps 2; its help says so.
#[test]
fn sat_solve_exits_10_with_a_model_and_0_without() {
    let dir = tempfile::tempdir().unwrap();
    let unsat = dir.path().join("unsat.cnf");
    std::fs::write(&unsat, "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n").unwrap();
    let sat = root().join("data/satlib/uf20-91/uf20-01.cnf");
    for method in [&["--cpu"][..], &["--method", "hc12"][..]] {
        let o = metaopt(&[&["sat", "solve", sat.to_str().unwrap()][..], method].concat());
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(10), "{method:?}: {out}");
        assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
        let o = metaopt(
            &[
                &["sat", "solve", unsat.to_str().unwrap(), "--time-limit", "2"][..],
                method,
            ]
            .concat(),
        );
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{method:?}: {out}\n{err}");
        assert!(out.lines().any(|l| l == "s UNKNOWN"), "{out}");
        assert_eq!(text_stop(&out), "time_limit", "{out}");
    }
    let o = metaopt(&["sat", "solve", "no-such.cnf"]);
    assert_eq!(o.status.code(), Some(2));
    let help = ok(&["sat", "solve", "--help"]);
    assert!(help.contains("exits with 10"), "{help}");
}

/// Every file a command will write is checked before its work starts: a missing folder or a
/// folder given as a file is an error naming the flag, at once, and nothing is written.
#[test]
fn unwritable_outputs_fail_before_the_work_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let missing = dir.path().join("no/such");
    let m = |f: &str| missing.join(f).to_string_lossy().into_owned();
    let knapsack = "data/knapsack/knapsack-100.txt";
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "qap".into(),
                "solve".into(),
                "data/qaplib/tai50a.dat".into(),
                "--time-limit".into(),
                "5".into(),
                "--output".into(),
                m("x.txt"),
            ],
            "--output",
        ),
        (
            vec![
                "qiga".into(),
                "--knapsack".into(),
                knapsack.into(),
                "--time-limit".into(),
                "5".into(),
                "--csv".into(),
                m("q.csv"),
            ],
            "--csv",
        ),
        (
            vec![
                "qiga".into(),
                "--knapsack".into(),
                knapsack.into(),
                "--time-limit".into(),
                "5".into(),
                "--plot".into(),
                d.into(),
            ],
            "--plot",
        ),
        (
            vec![
                "de".into(),
                "--function".into(),
                "F1".into(),
                "--dims".into(),
                "5".into(),
                "--time-limit".into(),
                "5".into(),
                "--plot".into(),
                m("p.png"),
            ],
            "--plot",
        ),
        (
            vec![
                "sat".into(),
                "solve".into(),
                "data/satlib/uuf50-218/uuf50-01.cnf".into(),
                "--time-limit".into(),
                "5".into(),
                "-o".into(),
                m("s.txt"),
            ],
            "--output",
        ),
        (
            vec![
                "sp".into(),
                "sssp".into(),
                "--grid".into(),
                "64x64".into(),
                "--out".into(),
                m("d.csv"),
            ],
            "--out",
        ),
        (
            vec![
                "awvd".into(),
                "data/pdb/1o1z.balls.txt".into(),
                "--contacts".into(),
                m("c.txt"),
            ],
            "--contacts",
        ),
        (
            vec!["bench".into(), "qiga".into(), "--csv".into(), m("b.csv")],
            "--csv",
        ),
        (
            vec![
                "bh".into(),
                "--function".into(),
                "F1".into(),
                "--dims".into(),
                "50".into(),
                "--time-limit".into(),
                "5".into(),
                "--checkpoint".into(),
                m("bh.state"),
            ],
            "--checkpoint",
        ),
    ];
    for (args, flag) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let t = Instant::now();
        let o = metaopt(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {flag}: "))
                && (err.contains("cannot write") || err.contains("is a folder")),
            "{a:?}: {err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{a:?}: {:?}",
            t.elapsed()
        );
        assert!(o.stdout.is_empty(), "{a:?}");
    }
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

/// Outputs are written under a temporary name and renamed: after a run every file is whole, an
/// old file is replaced, a failing command leaves the old file as it was, new files get an
/// ordinary file's mode, and no temporary file is left.
#[test]
fn outputs_are_written_whole_and_replace_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = |f: &str| dir.path().join(f).to_string_lossy().into_owned();
    std::fs::write(p("r.json"), "old").unwrap();
    std::fs::write(p("plain.txt"), "").unwrap();
    let text = ok(&[
        "de",
        "--function",
        "F1",
        "--dims",
        "3",
        "--cpu",
        "--max-generations",
        "40",
        "--json",
        "--csv",
        &p("h.csv"),
        "--plot",
        &p("h.png"),
        "--output",
        &p("r.json"),
    ]);
    assert!(text.is_empty(), "{text}");
    let j = json(&std::fs::read_to_string(p("r.json")).unwrap());
    assert_eq!(
        (j["generations"].as_u64(), j["stopped_by"].as_str()),
        (Some(40), Some("budget"))
    );
    let csv = std::fs::read_to_string(p("h.csv")).unwrap();
    assert!(
        csv.starts_with("generation,evaluations,") && csv.lines().count() > 2,
        "{csv}"
    );
    let png = std::fs::read(p("h.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |f: &str| std::fs::metadata(p(f)).unwrap().permissions().mode() & 0o777;
        for f in ["r.json", "h.csv", "h.png"] {
            assert_eq!(mode(f), mode("plain.txt"), "{f}");
        }
    }
    // a command that fails after the check leaves the old file as it was
    std::fs::write(p("r.json"), "old").unwrap();
    let o = metaopt(&["qap", "solve", "no-such.dat", "--output", &p("r.json")]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(p("r.json")).unwrap(), "old");
    no_part_files(dir.path());
    assert_eq!(
        names(dir.path()),
        ["h.csv", "h.png", "plain.txt", "r.json"],
        "only the outputs"
    );
}

/// Starts `metaopt args` from the repository root with its outputs piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(args)
        .current_dir(root())
        .env_remove("METAOPT_DEVICE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn kill(child: &Child, signal: &str) {
    assert!(Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success());
}

/// Sends `signal` to `metaopt args` after `after`, and waits for it (at most 20 s after the
/// signal).
fn signalled(args: &[&str], signal: &str, after: Duration) -> Output {
    let child = spawn(args);
    std::thread::sleep(after);
    let sent = Instant::now();
    kill(&child, signal);
    let o = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(20),
        "{args:?}: {:?} after the signal",
        sent.elapsed()
    );
    o
}

/// SIGTERM is handled as SIGINT: the solve stops with its best so far, which is printed (text)
/// or written (`--output`, whole, no temporary file left) with `stopped_by` `interrupted`; the
/// exit status is 143 for SIGTERM, 130 for SIGINT.
#[test]
fn sigterm_and_sigint_stop_a_solve_with_its_best_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let unsat = dir.path().join("hard.cnf");
    // far above the threshold: unsatisfiable, so the walks go on until stopped
    ok(&[
        "sat",
        "generate",
        "--vars",
        "300",
        "--ratio",
        "9",
        "--output",
        unsat.to_str().unwrap(),
    ]);
    let unsat = unsat.to_string_lossy().into_owned();
    let knapsack = root().join("data/knapsack/knapsack-250.txt");
    let knapsack = knapsack.to_str().unwrap();
    let runs: [(&str, Vec<&str>, &str); 5] = [
        (
            "bh",
            vec!["bh", "--function", "F1", "--dims", "50", "--cpu"],
            "value",
        ),
        (
            "qap",
            vec!["qap", "solve", "data/qaplib/tai50a.dat", "--cpu"],
            "cost",
        ),
        (
            "de",
            vec!["de", "--function", "F1", "--dims", "10", "--cpu"],
            "value",
        ),
        (
            "sat",
            vec!["sat", "solve", &unsat, "--cpu"],
            "best_unsatisfied",
        ),
        (
            "qiga",
            vec!["qiga", "--knapsack", knapsack, "--cpu"],
            "best_value",
        ),
    ];
    for (name, args, value) in &runs {
        let long = [&args[..], &["--time-limit", "120"]].concat();
        // SIGTERM, JSON to --output
        let out = dir.path().join(format!("{name}.json"));
        let o = signalled(
            &[&long[..], &["--json", "--output", out.to_str().unwrap()]].concat(),
            "TERM",
            Duration::from_millis(1500),
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(143), "{name}: {err}");
        assert!(err.contains("SIGTERM"), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}");
        let j = json(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(j["stopped_by"], "interrupted", "{name}: {j}");
        assert!(j[value].is_number(), "{name}: {j}");
        no_part_files(dir.path());
        // SIGINT, text on stdout
        let o = signalled(&long, "INT", Duration::from_millis(1500));
        let (text, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(130), "{name}: {text}\n{err}");
        assert_eq!(text_stop(&text), "interrupted", "{name}: {text}");
    }
    // the first signal is where the best so far is asked for; the second one quits at once
    // (with its own status) and leaves no temporary file
    let out = dir.path().join("twice.json");
    // a long QAP solve writing JSON to `out`, sent `first` then `second` a second after its start
    let twice = |first: &str, second: &str| {
        let child = spawn(&[
            "qap",
            "solve",
            "data/qaplib/tai50a.dat",
            "--cpu",
            "--time-limit",
            "120",
            "--launch-iterations",
            "100000",
            "--json",
            "--output",
            out.to_str().unwrap(),
        ]);
        std::thread::sleep(Duration::from_millis(1000));
        kill(&child, first);
        kill(&child, second);
        child.wait_with_output().unwrap()
    };
    let o = twice("INT", "TERM");
    assert_eq!(
        o.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists(), "a second signal writes nothing");
    no_part_files(dir.path());
    // the same signal twice at once (coreutils' `timeout` sends it to the process and to its
    // group) is one request: the best so far is still written
    let o = twice("INT", "INT");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let j = json(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(j["stopped_by"], "interrupted", "{j}");
    no_part_files(dir.path());
}
