//! `qiga`: checkpoints of the populations, resuming, warm starts.

use super::*;

const ARGS: [&str; 10] = [
    "qiga",
    "--knapsack",
    "data/knapsack/knapsack-250.txt",
    "--populations",
    "300",
    "--generations",
    "500",
    "--cpu",
    "--seed",
    "3",
];

#[test]
fn a_killed_qiga_run_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = super::killed_and_resumed(
        dir.path(),
        &ARGS,
        (Duration::from_millis(300), Duration::from_millis(1800)),
        &[
            "values",
            "best_value",
            "best_items",
            "stats",
            "populations",
            "stopped_by",
        ],
    );
    assert_eq!(whole["populations"], 300);
}

#[test]
fn damaged_and_mismatched_qiga_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [
        &ARGS[..4],
        &["20", "--generations", "50", "--cpu", "--seed", "3"],
    ]
    .concat();
    let other_seed = [
        &ARGS[..4],
        &["20", "--generations", "50", "--cpu", "--seed", "4"],
    ]
    .concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seed was 3; this run has 4",
    );
    let s = dir.path().join("done.state");
    fails(
        &[
            &["qiga", "--knapsack", "data/knapsack/knapsack-100.txt"][..],
            &short[3..],
            &["--resume", s.to_str().unwrap()],
        ]
        .concat(),
        "another problem",
    );
}

#[test]
fn populations_start_from_a_string_file() {
    let dir = tempfile::tempdir().unwrap();
    let k = ["--knapsack", "data/knapsack/knapsack-100.txt"];
    let opt = json(&ok(&["knapsack", "opt", k[1], "--json"]));
    let items: Vec<usize> = opt["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let n = opt["items"].as_u64().unwrap() as usize;
    let mut s = vec![b'0'; n];
    for &i in &items {
        s[i] = b'1';
    }
    let path = dir.path().join("start.txt");
    std::fs::write(
        &path,
        format!("# the optimum\n{}\n", String::from_utf8(s).unwrap()),
    )
    .unwrap();
    let value = opt["optimum"].as_f64().unwrap().to_string();
    let r = json(&ok(&[
        &["qiga"][..],
        &k,
        &[
            "--populations",
            "8",
            "--generations",
            "50",
            "--cpu",
            "--target",
            &value,
            "--start",
            path.to_str().unwrap(),
            "--json",
        ],
    ]
    .concat()));
    assert_eq!(r["stopped_by"], "target");
    assert_eq!(r["best_value"].as_f64(), opt["optimum"].as_f64());
    let mut got: Vec<usize> = r["best_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    got.sort_unstable();
    assert_eq!(got, items);
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "0101\n").unwrap();
    fails(
        &[
            &["qiga"][..],
            &k,
            &[
                "--populations",
                "2",
                "--cpu",
                "--start",
                bad.to_str().unwrap(),
            ],
        ]
        .concat(),
        "--start: ",
    );
    std::fs::write(&bad, "1".repeat(n)).unwrap();
    fails(
        &[
            &["qiga"][..],
            &k,
            &[
                "--populations",
                "2",
                "--cpu",
                "--start",
                bad.to_str().unwrap(),
            ],
        ]
        .concat(),
        "--start: string 0 weighs",
    );
}
