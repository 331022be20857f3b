//! `qap solve` (the robust tabu search).

use super::*;

const ARGS: [&str; 13] = [
    "qap",
    "solve",
    "data/qaplib/tai50a.dat",
    "--cpu",
    "--chains",
    "2",
    "--max-iterations",
    "60000",
    "--launch-iterations",
    "500",
    "--stagnation",
    "3000",
    "--seed=5",
];

#[test]
fn a_killed_tabu_search_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = super::killed_and_resumed(
        dir.path(),
        &ARGS,
        (Duration::from_millis(300), Duration::from_millis(1500)),
        // (not the launches: short ones, sized by the machine's speed)
        &["cost", "permutation", "iterations", "restarts"],
    );
    assert!(whole["restarts"].as_u64().unwrap() > 0);
}

#[test]
fn damaged_and_mismatched_tabu_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [&ARGS[..6], &["--max-iterations", "1000", "--seed=5"]].concat();
    let other_seed = [&ARGS[..6], &["--max-iterations", "2000", "--seed=6"]].concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seed was 5; this run has 6",
    );
    let other_instance = [
        &["qap", "solve", "data/qaplib/chr15a.dat"][..],
        &ARGS[3..6],
        &["--max-iterations", "1000", "--seed=5"],
    ]
    .concat();
    let s = dir.path().join("done.state");
    fails(
        &[&other_instance[..], &["--resume", s.to_str().unwrap()]].concat(),
        "another problem",
    );
    // a tabu-search state is not an HC12 one
    fails(
        &[
            &ARGS[..4],
            &["--method", "hc12", "--resume", s.to_str().unwrap()],
        ]
        .concat(),
        "--resume: cannot resume from this checkpoint: a state of the qap_ts solver, not of qap_hc12",
    );
}
