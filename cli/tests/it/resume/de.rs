//! `de` (island DE): the fixed DE with migration and an adaptive variant, killed and resumed;
//! damaged and mismatched checkpoints refused; `--init` warm starts.

use super::*;

const ARGS: [&str; 16] = [
    "de",
    "--cpu",
    "--function",
    "F8",
    "--dims",
    "30",
    "--islands",
    "8",
    "--members",
    "64",
    "--max-generations",
    "6000",
    "--seed",
    "5",
    "--record-every",
    "50",
];

const KEYS: [&str; 6] = [
    "value",
    "x",
    "island",
    "island_bests",
    "generations",
    "evaluations",
];

#[test]
fn a_killed_island_de_with_migration_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&ARGS[..], &["--migration", "One2N", "--period", "10"]].concat();
    super::killed_and_resumed(
        dir.path(),
        &args,
        (Duration::from_millis(400), Duration::from_millis(1800)),
        &KEYS,
    );
}

#[test]
fn a_killed_adaptive_island_de_resumes_to_the_uninterrupted_result() {
    // SHADE: its memories of F and CR and its archive live between generations
    let dir = tempfile::tempdir().unwrap();
    let args = [&ARGS[..], &["--algorithm", "shade"]].concat();
    let csv = dir.path().join("h.csv");
    let csv_s = csv.to_str().unwrap();
    super::killed_and_resumed(
        dir.path(),
        &[&args[..], &["--csv", csv_s]].concat(),
        (Duration::from_millis(400), Duration::from_millis(1800)),
        &KEYS,
    );
    // the resumed run's records are the uninterrupted run's (the last run wrote the file)
    let resumed = records(&csv);
    ok(&[&args[..], &["--csv", csv_s]].concat());
    let whole = records(&csv);
    assert_eq!(resumed, whole, "the records but their seconds");
}

#[test]
fn damaged_and_mismatched_island_de_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [&ARGS[..10], &["--max-generations", "20", "--seed", "5"]].concat();
    let other_seed = [&ARGS[..10], &["--max-generations", "20", "--seed", "6"]].concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seeds was 5,6,7,8; this run has 6,7,8,9",
    );
    let s = dir.path().join("done.state");
    let s = s.to_str().unwrap();
    let other_function = [&short[..2], &["--function", "F1"], &short[4..]].concat();
    fails(
        &[&other_function[..], &["--resume", s]].concat(),
        "another problem",
    );
    let other_algorithm = [&short[..], &["--algorithm", "jade"]].concat();
    fails(
        &[&other_algorithm[..], &["--resume", s]].concat(),
        "option algorithm was de; this run has jade",
    );
}

#[test]
fn init_points_start_the_population() {
    let dir = tempfile::tempdir().unwrap();
    let points = dir.path().join("x0.txt");
    // F8 (Griewank) is 0 at the origin: x0 there is the best at once
    std::fs::write(&points, format!("# x0\n{}\n", vec!["0"; 30].join(" "))).unwrap();
    let p = points.to_str().unwrap();
    let args = [
        &ARGS[..10],
        &["--max-generations", "1", "--json", "--init", p],
    ]
    .concat();
    let r = json(&ok(&args));
    assert_eq!(r["value"].as_f64(), Some(0.0));
    assert!(r["x"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v.as_f64() == Some(0.0)));
    std::fs::write(&points, "1, 2\n").unwrap();
    fails(&args, "--init: ");
    std::fs::write(&points, format!("{}\n", vec!["700"; 30].join(","))).unwrap();
    fails(
        &args,
        "--init: row 0, dimension 0 is 700, outside its limits",
    );
    std::fs::write(&points, format!("{} nan\n", vec!["0"; 29].join(" "))).unwrap();
    fails(&args, "--init: row 0, dimension 29 is NaN");
}

/// The rows of a `--csv` history without their seconds (column 3).
fn records(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| *i != 2)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn a_killed_batched_de_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "de",
        "--cpu",
        "--problems",
        "16",
        "--function",
        "F8",
        "--dims",
        "20",
        "--members",
        "40",
        "--max-generations",
        "8000",
        "--algorithm",
        "jade",
        "--seed",
        "3",
    ];
    super::killed_and_resumed(
        dir.path(),
        &args,
        (Duration::from_millis(400), Duration::from_millis(1500)),
        &["results", "stopped_by"],
    );
}

#[test]
fn mismatched_batched_de_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("b.state");
    let s = s.to_str().unwrap();
    let args = [
        "de",
        "--cpu",
        "--problems",
        "3",
        "--function",
        "F1",
        "--dims",
        "4",
    ];
    ok(&[
        &args[..],
        &["--max-generations", "20", "--json", "--checkpoint", s],
    ]
    .concat());
    fails(
        &[&args[..], &["--max-generations", "30", "--resume", s]].concat(),
        "--resume: cannot resume from this checkpoint: for another problem",
    );
    // an island DE state is not a batch's
    let island = dir.path().join("i.state");
    let i = island.to_str().unwrap();
    ok(&[
        &ARGS[..10],
        &["--max-generations", "5", "--json", "--checkpoint", i],
    ]
    .concat());
    fails(
        &[&args[..], &["--max-generations", "20", "--resume", i]].concat(),
        "a state of the de solver, not of batch_de",
    );
}
