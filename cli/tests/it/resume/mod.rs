//! Checkpoint and resume at the command line (docs/specs/RUN.md): a run killed with SIGKILL at a
//! random moment and resumed from its last checkpoint ends with the uninterrupted run's result;
//! damaged and mismatched checkpoints are refused with what differs.

use crate::run::{fails, ok};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod aco;
mod bh;
mod de;
mod hc12;
mod qap_ts;
mod qiga;
mod sat_sls;

pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A moment in `lo..hi` that differs from run to run (the test covers any moment: the state
/// written last before the kill is whole, whenever it comes).
pub fn random_moment(lo: Duration, hi: Duration) -> Duration {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64);
    lo + Duration::from_nanos(nanos % (hi - lo).as_nanos().max(1) as u64)
}

/// Runs `args --json` whole; runs it again with `--checkpoint FILE --checkpoint-every 0.05`,
/// killed with SIGKILL at a random moment in `window`, then resumed with `--resume FILE`; the
/// resumed run's JSON must equal the whole run's in `keys`. Returns both JSONs.
pub fn killed_and_resumed(
    dir: &Path,
    args: &[&str],
    window: (Duration, Duration),
    keys: &[&str],
) -> (Value, Value) {
    let whole = json(&ok(&[args, &["--json"]].concat()));
    let state = dir.join("run.state");
    let state_s = state.to_str().unwrap();
    let with_checkpoints = [
        args,
        &[
            "--json",
            "--checkpoint",
            state_s,
            "--checkpoint-every",
            "0.05",
        ],
    ]
    .concat();
    let mut child = Command::new(env!("CARGO_BIN_EXE_metaopt"))
        .args(&with_checkpoints)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let at = random_moment(window.0, window.1);
    let t = Instant::now();
    // a first checkpoint must exist before the kill
    while t.elapsed() < at || !state.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{args:?}: no checkpoint in 60 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "{args:?}: the run ended before the kill at {at:?}; give it more work"
    );
    let resumed = json(&ok(&[
        args,
        &["--json", "--resume", state_s, "--checkpoint", state_s],
    ]
    .concat()));
    for k in keys {
        assert_eq!(
            resumed[k], whole[k],
            "{args:?} killed after {at:?}: {k} differs\nresumed {resumed}\nwhole {whole}"
        );
    }
    (whole, resumed)
}

/// A checkpoint `state` of `args` (written by a finished run) refused: truncated, corrupt, not
/// a checkpoint, and under `other` (another option or instance) with `other_needle`.
pub fn damaged_and_mismatched_refused(
    dir: &Path,
    args: &[&str],
    other: &[&str],
    other_needle: &str,
) {
    let state = dir.join("done.state");
    let s = state.to_str().unwrap();
    ok(&[args, &["--json", "--checkpoint", s]].concat());
    let bytes = std::fs::read(&state).unwrap();
    let bad = dir.join("bad.state");
    let b = bad.to_str().unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();
    fails(
        &[args, &["--resume", b]].concat(),
        "--resume: a truncated checkpoint",
    );
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    std::fs::write(&bad, &flipped).unwrap();
    fails(&[args, &["--resume", b]].concat(), "checksum");
    std::fs::write(&bad, b"p cnf 1 1\n1 0\n").unwrap();
    fails(
        &[args, &["--resume", b]].concat(),
        "not a metaopt checkpoint",
    );
    fails(&[other, &["--resume", s]].concat(), other_needle);
    fails(
        &[
            args,
            &["--resume", dir.join("none.state").to_str().unwrap()],
        ]
        .concat(),
        "--resume: cannot read",
    );
}
