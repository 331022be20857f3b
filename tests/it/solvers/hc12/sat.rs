//! SAT local search with HC12 on the device: incremental row values against the host, verified
//! models for the shared satisfiable families, no model for the unsatisfiable ones.

use crate::common;
use metaopt::device::Backend;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::hc12::Neighbourhood;
use metaopt::problem::sat::{verify, Assignment, ClauseCounts, Cnf};
use metaopt::rng::Philox;
use metaopt::run::Stop;
use std::path::PathBuf;
use std::time::Duration;

fn satlib() -> PathBuf {
    common::satlib("")
}

fn family(name: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(satlib().join(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// The best row by flipping on the host: lowest unsatisfied count, ties to the lowest row.
fn host_best(cnf: &Cnf, a: &Assignment, order: u32) -> (i64, u64) {
    let nb = Neighbourhood::new(cnf.num_vars as u32, 1, order, 0, 0).unwrap();
    let occ = cnf.occurrences();
    let base = ClauseCounts::new(cnf, a.clone());
    let mut best = (i64::MAX, 0);
    for row in 0..nb.rows {
        let mut cc = base.clone();
        let (bits, h) = nb.row_bits(row);
        for &b in &bits[..h] {
            cc.flip(&occ, b as usize + 1);
        }
        assert_eq!(cc.unsatisfied, cnf.unsatisfied_count(&cc.assignment));
        if (cc.unsatisfied as i64) < best.0 {
            best = (cc.unsatisfied as i64, row);
        }
    }
    best
}

#[test]
fn incremental_device_values_equal_the_host() {
    // repeated literals and a tautology on top of a real instance
    let odd = Cnf::from_clauses(
        "odd",
        4,
        &[
            vec![1, 1, -2],
            vec![2, -2, 3],
            vec![-1, -3, -4],
            vec![4, 4, 4],
            vec![-4, 1, 2, 3],
        ],
    )
    .unwrap();
    let mut cases = vec![odd];
    for f in [
        "uf20-91/uf20-01.cnf",
        "uf50-218/uf50-01.cnf",
        "uuf75-325/uuf75-01.cnf",
    ] {
        cases.push(Cnf::from_file(&satlib().join(f)).unwrap());
    }
    for cnf in cases {
        for order in [1, 2] {
            let mut s = SatSolver::new(cnf.clone(), order, 0, Backend::DEVICE).unwrap();
            let mut rng = Philox::new(3, order);
            for _ in 0..5 {
                let a = Assignment::random(cnf.num_vars, &mut rng);
                assert_eq!(
                    s.best_move(&a).unwrap(),
                    host_best(&cnf, &a, order),
                    "{} order {order}",
                    cnf.name
                );
            }
        }
    }
}

#[test]
fn finds_verified_models_for_every_shared_uf20_uf50_uf75() {
    let mut worst = 0.0f64;
    for fam in ["uf20-91", "uf50-218", "uf75-325"] {
        for path in family(fam) {
            let cnf = Cnf::from_file(&path).unwrap();
            let opts = SatOptions {
                seed: 7,
                stop: Stop {
                    time_limit: Some(Duration::from_secs(30)),
                    target: None,
                    token: None,
                    ..Stop::default()
                },
                ..Default::default()
            };
            let mut s = SatSolver::new(
                cnf.clone(),
                opts.mask_order,
                opts.tabu.as_ref().unwrap().max_length,
                Backend::DEVICE,
            )
            .unwrap();
            let r = s.solve(&opts).unwrap();
            assert!(
                r.satisfiable,
                "{}: best {} unsatisfied after {:.1} s",
                path.display(),
                r.best_unsatisfied,
                r.seconds
            );
            verify(&cnf, r.model.as_ref().unwrap().assignment()).unwrap();
            worst = worst.max(r.seconds);
        }
    }
    eprintln!("slowest model: {worst:.2} s");
}

#[test]
fn unsatisfiable_formulas_report_no_model_and_their_best_count() {
    for path in family("uuf50-218").into_iter().take(3) {
        let cnf = Cnf::from_file(&path).unwrap();
        let opts = SatOptions {
            stop: Stop {
                time_limit: Some(Duration::from_millis(1500)),
                target: None,
                token: None,
                ..Stop::default()
            },
            ..Default::default()
        };
        let mut s = SatSolver::new(cnf.clone(), 1, 500, Backend::DEVICE).unwrap();
        let r = s.solve(&opts).unwrap();
        assert!(!r.satisfiable && r.model.is_none());
        assert!(r.best_unsatisfied >= 1);
        assert_eq!(cnf.unsatisfied_count(&r.best), r.best_unsatisfied);
    }
}

#[test]
fn bad_settings_are_errors() {
    let cnf = Cnf::from_file(&satlib().join("uf20-91/uf20-01.cnf")).unwrap();
    assert!(SatSolver::new(cnf.clone(), 3, 0, Backend::DEVICE)
        .err()
        .unwrap()
        .to_string()
        .contains("maskOrder"));
    let mut s = SatSolver::new(cnf, 1, 10, Backend::DEVICE).unwrap();
    let e = s.solve(&SatOptions::default()).unwrap_err().to_string();
    assert!(e.contains("tabu"), "{e}");
    let e = s
        .solve(&SatOptions {
            stop: Stop {
                time_limit: None,
                target: None,
                token: None,
                ..Stop::default()
            },
            tabu: None,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("runs"), "{e}");
}
