//! `sp aco` (ant colony shortest paths).

use super::*;

const ARGS: [&str; 19] = [
    "sp",
    "aco",
    "--thesis",
    "8,16,1",
    "--source",
    "1",
    "--target",
    "200",
    "--cpu",
    "--iterations",
    "350",
    "--ants",
    "32",
    "--restart",
    "8",
    "--no-local-search",
    "--seed",
    "3",
    "--path",
];

/// About 3 s on the CPU backend of a 2-core machine: the kill comes well inside the run.
#[test]
fn a_killed_ant_colony_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = super::killed_and_resumed(
        dir.path(),
        &ARGS,
        (Duration::from_millis(300), Duration::from_millis(1500)),
        &[
            "best",
            "pheromone",
            "found_at_iteration",
            "successful_ants",
            "iterations",
            "stopped_by",
        ],
    );
    // the best path improved during the run, so the resumed part had work to do
    assert!(whole["found_at_iteration"].as_u64().unwrap() > 1);
}

#[test]
fn damaged_and_mismatched_ant_colony_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [&ARGS[..9], &["--iterations", "5", "--seed", "3"]].concat();
    let other_seed = [&ARGS[..9], &["--iterations", "5", "--seed", "4"]].concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seed was 3; this run has 4",
    );
    let s = dir.path().join("done.state");
    let s = s.to_str().unwrap();
    // another graph, another pair of vertices
    let other_graph = [
        &["sp", "aco", "--thesis", "8,16,2"][..],
        &ARGS[4..9],
        &["--iterations", "5", "--seed", "3", "--resume", s],
    ]
    .concat();
    fails(&other_graph, "another problem");
    let other_target = [
        &ARGS[..6],
        &[
            "--target",
            "201",
            "--cpu",
            "--iterations",
            "5",
            "--seed",
            "3",
        ],
        &["--resume", s],
    ]
    .concat();
    fails(
        &other_target,
        "--resume: cannot resume from this checkpoint: a run from 1 to 200; this run goes from 1 to 201",
    );
    // a larger budget continues the finished run
    let more = super::json(&ok(&[
        &short[..9],
        &["--iterations", "8", "--seed", "3", "--json", "--resume", s],
    ]
    .concat()));
    assert_eq!(more["iterations"], 8);
}
