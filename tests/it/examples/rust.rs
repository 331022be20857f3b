//! The Rust examples (examples/*.rs) run with small budgets and print correct values: the robust
//! tabu search reaches nug12's optimum 578, DE and HC12 reach the sphere's minimum, the SAT
//! example prints a model that satisfies every clause of uf50-01 (checked here by reading the
//! DIMACS file independently), the shortest-path example agrees with host Dijkstra on Helsinki.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const EXAMPLES: [&str; 5] = ["qap_ts", "de", "hc12", "sat", "sp"];

/// When `path` was last written.
fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// `target/<profile>/examples`. `cargo test` builds the examples beside the library unless a
/// target is selected (`cargo test --test it`), so when an example is missing or older than
/// the newest build of the library (`deps/libmetaopt-*.rlib`) they are built here, once per test
/// process.
fn examples_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let deps = std::env::current_exe()
            .unwrap()
            .parent()
            .unwrap()
            .to_path_buf();
        let profile_dir = deps.parent().unwrap().to_path_buf();
        let dir = profile_dir.join("examples");
        let library = std::fs::read_dir(&deps)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("libmetaopt-")
                    && p.extension().is_some_and(|x| x == "rlib")
            })
            .filter_map(|p| modified(&p))
            .max();
        let fresh = EXAMPLES
            .iter()
            .all(|e| match (modified(&dir.join(e)), library) {
                (Some(t), Some(l)) => t >= l,
                _ => false,
            });
        if !fresh {
            let profile = match profile_dir.file_name().unwrap().to_str().unwrap() {
                "debug" => "dev".to_string(),
                p => p.to_string(),
            };
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let out = Command::new(cargo)
                .args([
                    "build",
                    "--examples",
                    "-p",
                    "metaopt",
                    "--profile",
                    &profile,
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "cargo build --examples: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        dir
    })
}

fn run(name: &str, args: &[&str]) -> String {
    let exe = examples_dir().join(name);
    let out = Command::new(&exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success(),
        "{name} {args:?}: {:?}\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// The number after `key` in the output.
fn number_after(out: &str, key: &str) -> f64 {
    let rest = &out[out
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in:\n{out}"))
        + key.len()..];
    rest.split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("`{key}` in {out}: {e}"))
}

/// The numbers of the `x = [...]` line.
fn point(out: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("x = ["))
        .unwrap_or_else(|| panic!("no x in:\n{out}"));
    line.trim_end_matches(']')
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn qap_ts_reaches_the_optimum_of_nug12() {
    let nug12 = qaplib().join("nug12.dat");
    // the time limit only bounds a regression; the target (578) ends the solve
    let out = run("qap_ts", &[nug12.to_str().unwrap(), "60"]);
    assert!(out.starts_with("nug12: n = 12, best known 578"), "{out}");
    assert_eq!(number_after(&out, "best cost "), 578.0, "{out}");
    assert!(out.contains("gap 0.000 %, target reached: true"), "{out}");
    let perm: Vec<usize> = out
        .lines()
        .find_map(|l| l.strip_prefix("permutation (1-based): "))
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse::<usize>().unwrap() - 1)
        .collect();
    assert_eq!(instance("nug12").cost(&perm), 578);
}

#[test]
fn de_minimises_the_sphere() {
    let out = run("de", &["F1", "1000"]);
    let value = number_after(&out, "best value ");
    assert!((0.0..=1e-6).contains(&value), "{out}");
    let x = point(&out);
    assert_eq!(x.len(), 10);
    assert!(x.iter().all(|v| v.abs() < 1e-2), "{out}");
}

#[test]
fn hc12_reaches_the_sphere_grid_minimum() {
    let out = run("hc12", &["F1", "1"]);
    // 16 bits over [-5.12, 5.12]: the grid points nearest 0 are about 7.8e-5 from it, so the
    // minimum on the grid is 10 * 7.8e-5^2 = 6.1e-8
    let value = number_after(&out, "best value ");
    assert!((0.0..=1e-7).contains(&value), "{out}");
    let x = point(&out);
    assert_eq!(x.len(), 10);
    assert!(x.iter().all(|v| v.abs() < 1e-4), "{out}");
}

#[test]
fn sat_prints_a_model_of_uf50_01() {
    let cnf = satlib("uf50-218/uf50-01.cnf");
    let out = run("sat", &[cnf.to_str().unwrap(), "30"]);
    assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{out}");
    let lits: Vec<i64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .collect();
    assert_eq!(lits.last(), Some(&0), "{out}");
    let vars = lits.len() - 1;
    assert_eq!(vars, 50);
    let mut value = vec![false; vars + 1];
    for &l in &lits[..vars] {
        value[l.unsigned_abs() as usize] = l > 0;
    }
    // every clause of the DIMACS file (literals up to a 0; `c`, `p` and `%` lines skipped) has a
    // true literal
    let text = std::fs::read_to_string(&cnf).unwrap();
    let nums: Vec<i64> = text
        .lines()
        .take_while(|l| !l.starts_with('%'))
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .collect();
    let clauses: Vec<&[i64]> = nums.split(|&v| v == 0).filter(|c| !c.is_empty()).collect();
    assert_eq!(clauses.len(), 218);
    for c in clauses {
        assert!(
            c.iter()
                .any(|&l| value[l.unsigned_abs() as usize] == (l > 0)),
            "clause {c:?} is false"
        );
    }
}

#[test]
fn sp_matches_dijkstra_on_helsinki() {
    let out = run("sp", &[]);
    assert!(out.contains("6906 vertices, 15314 arcs"), "{out}");
    assert!(out.contains("checked 8"), "{out}");
}
