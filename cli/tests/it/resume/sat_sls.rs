//! `sat solve` with probSAT or WalkSAT walks: checkpoints, resuming, warm starts.

use super::*;
use crate::run::metaopt;

const ARGS: [&str; 16] = [
    "sat",
    "solve",
    "data/satlib/uuf250-1065/uuf250-01.cnf",
    "--cpu",
    "--walks",
    "2",
    "--max-flips",
    "5000000",
    "--flips-per-launch",
    "20000",
    "--restart-flips",
    "1000000",
    "--seed",
    "3",
    "--method",
    "probsat",
];

#[test]
fn killed_walks_resume_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, _) = super::killed_and_resumed(
        dir.path(),
        &ARGS,
        (Duration::from_millis(300), Duration::from_millis(2000)),
        &[
            "best_unsatisfied",
            "flips",
            "launches",
            "restarts",
            "stopped_by",
        ],
    );
    assert!(whole["restarts"].as_u64().unwrap() > 0);
}

#[test]
fn damaged_and_mismatched_walk_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let short = [&ARGS[..7], &["20000", "--seed", "3"]].concat();
    let other_seed = [&ARGS[..7], &["30000", "--seed", "4"]].concat();
    super::damaged_and_mismatched_refused(
        dir.path(),
        &short,
        &other_seed,
        "--resume: cannot resume from this checkpoint: option seed was 3; this run has 4",
    );
    let s = dir.path().join("done.state");
    let other_formula = [
        &["sat", "solve", "data/satlib/uuf250-1065/uuf250-02.cnf"][..],
        &ARGS[3..7],
        &["30000", "--seed", "3", "--resume", s.to_str().unwrap()],
    ]
    .concat();
    fails(&other_formula, "another problem");
    // a walks' state is not an HC12 one
    fails(
        &[
            &ARGS[..3],
            &["--method", "hc12", "--resume", s.to_str().unwrap()],
        ]
        .concat(),
        "--resume: cannot resume from this checkpoint: a state of the sat_sls solver, not of sat_hc12",
    );
}

#[test]
fn walks_start_from_a_model_file() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = "data/satlib/uf20-91/uf20-01.cnf";
    let o = metaopt(&[
        "sat",
        "solve",
        cnf,
        "--cpu",
        "--walks",
        "2",
        "--max-flips",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(10));
    let text = String::from_utf8(o.stdout).unwrap();
    let model: Vec<i64> = text
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .filter(|&l| l != 0)
        .collect();
    assert_eq!(model.len(), 20);
    // the solver's own output, one literal per line, and one line of literals
    let forms = [
        text.clone(),
        model.iter().map(|l| format!("{l}\n")).collect::<String>() + "0\n",
        model
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    ];
    for (i, form) in forms.iter().enumerate() {
        let path = dir.path().join(format!("start{i}.txt"));
        std::fs::write(&path, form).unwrap();
        let o = metaopt(&[
            "sat",
            "solve",
            cnf,
            "--cpu",
            "--walks",
            "2",
            "--max-flips",
            "100000",
            "--start",
            path.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(10), "form {i}");
        let j = json(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(j["stopped_by"], "target");
        assert_eq!(
            (j["launches"].as_u64(), j["flips"].as_u64()),
            (Some(0), Some(0))
        );
        let got: Vec<i64> = j["model"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(got, model, "form {i}");
    }
    // more assignments than walks, a variable past the formula's, a file that is not there
    let base = [
        "sat",
        "solve",
        cnf,
        "--cpu",
        "--walks",
        "2",
        "--max-flips",
        "10",
    ];
    let many = dir.path().join("many.txt");
    std::fs::write(&many, format!("{}\n{}\n{}\n", forms[2], forms[2], forms[2])).unwrap();
    fails(
        &[&base[..], &["--start", many.to_str().unwrap()]].concat(),
        "--start: 3 assignments for 2 walks",
    );
    let long = dir.path().join("long.txt");
    std::fs::write(&long, "1 -2 3 21 0\n").unwrap();
    fails(
        &[&base[..], &["--start", long.to_str().unwrap()]].concat(),
        "--start",
    );
    fails(
        &[
            &base[..],
            &["--start", dir.path().join("none").to_str().unwrap()],
        ]
        .concat(),
        "--start: cannot read",
    );
}
