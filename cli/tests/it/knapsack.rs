//! `metaopt knapsack opt` and `metaopt knapsack generate` end to end.

use crate::common;

use crate::run;
use run::{fails, ok};

#[test]
fn opt_of_knapsack_250_text_and_json() {
    let f = common::data_dir().join("knapsack/knapsack-250.txt");
    let f = f.to_str().unwrap();
    let text = ok(&["knapsack", "opt", f]);
    assert!(
        text.contains("optimum 1533.821142")
            && text.contains("172 items")
            && text.contains("scale 1000000")
            && text.ends_with("\nstopped by done\n"),
        "{text}"
    );
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["knapsack", "opt", f, "--json"])).unwrap();
    assert_eq!(j["int_optimum"], 1_533_821_142u64);
    assert_eq!(j["optimum"], 1533.821142);
    assert_eq!(j["item_count"], 172);
    assert_eq!(j["scale"], 1_000_000);
    assert_eq!(j["int_capacity"], 673_867_780u64);
    assert_eq!(j["selected"].as_array().unwrap().len(), 172);
    assert!(j["seconds"].as_f64().unwrap() >= 0.0);
    // an exact algorithm that finished
    assert_eq!(j["stopped_by"], "done");
}

#[test]
fn generate_is_seeded_and_opt_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.txt");
    let fs = f.to_str().unwrap();
    let a = ok(&[
        "knapsack", "generate", "--kind", "strong", "--items", "30", "--range", "100", "--seed",
        "4",
    ]);
    assert_eq!(
        a,
        ok(&[
            "knapsack", "generate", "--kind", "strong", "--items", "30", "--range", "100",
            "--seed", "4"
        ])
    );
    assert_ne!(
        a,
        ok(&[
            "knapsack", "generate", "--kind", "strong", "--items", "30", "--range", "100",
            "--seed", "5"
        ])
    );
    assert!(
        a.starts_with("# capacity\n") && a.lines().count() == 34,
        "{a}"
    );
    ok(&[
        "knapsack", "generate", "--kind", "strong", "--items", "30", "--range", "100", "--seed",
        "4", "-o", fs,
    ]);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), a);
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["knapsack", "opt", fs, "--json"])).unwrap();
    assert_eq!(j["scale"], 1);
    assert!(j["int_weight"].as_u64().unwrap() <= j["int_capacity"].as_u64().unwrap());
    for kind in ["hankim", "uncorrelated", "weak", "subset-sum"] {
        let t = ok(&[
            "knapsack", "generate", "--kind", kind, "--items", "12", "--seed", "1", "--series",
            "2/5",
        ]);
        assert_eq!(t.lines().count(), 16, "{t}");
    }
    let h = ok(&["knapsack", "generate", "--kind", "hankim", "--items", "3"]);
    assert!(
        h.lines()
            .nth(4)
            .unwrap()
            .split(' ')
            .all(|v| v.split('.').nth(1).unwrap().len() == 6),
        "{h}"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.txt");
    std::fs::write(&f, "# capacity\n10\n# weight price\n1 2\n0 3\n").unwrap();
    fails(
        &["knapsack", "opt", f.to_str().unwrap()],
        "bad.txt:5: weight: 0 must be finite and > 0",
    );
    fails(&["knapsack", "opt", "/nonexistent/k.txt"], "cannot read");
    fails(
        &["knapsack", "generate", "--kind", "nope", "--items", "3"],
        "hankim",
    );
    fails(
        &["knapsack", "generate", "--kind", "weak", "--items", "0"],
        "--items",
    );
    fails(
        &[
            "knapsack", "generate", "--kind", "weak", "--items", "3", "--range", "0",
        ],
        "--range",
    );
    fails(
        &[
            "knapsack", "generate", "--kind", "weak", "--items", "3", "--series", "5/2",
        ],
        "--series",
    );
    let g = dir.path().join("g.txt");
    ok(&[
        "knapsack",
        "generate",
        "--kind",
        "uncorrelated",
        "--items",
        "300",
        "--range",
        "1000000",
        "-o",
        g.to_str().unwrap(),
    ]);
    fails(
        &["knapsack", "opt", g.to_str().unwrap(), "--max-states", "2"],
        "--max-states",
    );
}
