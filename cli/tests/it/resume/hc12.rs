//! `hc12`, `qap solve --method hc12` and `sat solve --method hc12`: a search stopped after some
//! runs and resumed with a larger run count ends as the search that never stopped.

use super::*;

/// `args` with `--max-runs total` straight, and with `--max-runs split --checkpoint` then
/// `--max-runs total --resume`: the same `fields` of the JSON result.
fn split_equals_whole(args: &[&str], split: &str, total: &str, fields: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("hc12.state");
    let state = state.to_str().unwrap();
    let seed = ["--seed", "4"];
    let whole = json(&ok(
        &[args, &seed, &["--max-runs", total, "--json"]].concat()
    ));
    ok(&[args, &seed, &["--max-runs", split, "--checkpoint", state]].concat());
    let rest = json(&ok(&[
        args,
        &seed,
        &["--max-runs", total, "--resume", state, "--json"],
    ]
    .concat()));
    for f in fields {
        assert_eq!(rest[f], whole[f], "{args:?}: {f}");
    }
    assert_eq!(rest["stopped_by"], "budget");
    // another seed is refused, naming it
    fails(
        &[
            args,
            &["--max-runs", total, "--seed", "99", "--resume", state],
        ]
        .concat(),
        "--resume: cannot resume from this checkpoint: option seed was 4; this run has 99",
    );
}

#[test]
fn hc12_searches_resume_to_the_uninterrupted_result() {
    split_equals_whole(
        &[
            "qap",
            "solve",
            "data/qaplib/nug12.dat",
            "--method",
            "hc12",
            "--cpu",
        ],
        "3",
        "9",
        &["cost", "permutation", "runs", "iterations", "evaluations"],
    );
    split_equals_whole(
        &["hc12", "--function", "F6", "--dims", "3", "--bits", "10"],
        "2",
        "5",
        &["value", "string", "runs", "evaluations"],
    );
    split_equals_whole(
        &[
            "sat",
            "solve",
            "data/satlib/uf75-325/uf75-01.cnf",
            "--method",
            "hc12",
            "--tabu",
            "0",
        ],
        "2",
        "6",
        &["best_unsatisfied", "runs", "iterations", "evaluations"],
    );
}
