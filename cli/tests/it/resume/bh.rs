//! `bh` (basin hopping).

use super::*;

const ARGS: [&str; 20] = [
    "bh",
    "--function",
    "F5",
    "--dims",
    "6",
    "--chains",
    "256",
    "--cpu",
    "--max-steps",
    "12000",
    "--launch-steps",
    "50",
    "--hop-max",
    "0.05",
    "--max-search",
    "400",
    "--step-stop",
    "1e-12",
    "--seed",
    "3",
];

/// About 2 s on the CPU backend of a 2-core machine: the kill comes well inside the run.
#[test]
fn a_killed_basin_hopping_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = super::killed_and_resumed(
        dir.path(),
        &ARGS,
        (Duration::from_millis(200), Duration::from_millis(900)),
        &["value", "x", "steps", "evaluations", "stopped_by"],
    );
    // the best improved after the start, so the resumed part had work to do
    assert!(whole["seconds_to_best"].as_f64().unwrap() > 0.0, "{whole}");
}

#[test]
fn damaged_and_mismatched_basin_hopping_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [&ARGS[..8], &["--max-steps", "20", "--seed", "3"]].concat();
    let other_seed = [&ARGS[..8], &["--max-steps", "20", "--seed", "4"]].concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seed was 3; this run has 4",
    );
    // another function or box is another problem
    let s = dir.path().join("done.state");
    let other_box = [&short[..], &["--upper", "5"]].concat();
    fails(
        &[&other_box[..], &["--resume", s.to_str().unwrap()]].concat(),
        "--resume",
    );
}
