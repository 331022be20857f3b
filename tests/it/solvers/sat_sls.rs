//! probSAT and WalkSAT walks (src/sat_sls/): the incremental state against a recount, the random
//! k-SAT generator, models of the shared satisfiable families on the CPU backend (all) and on
//! the device (a subset per family), UNKNOWN on unsatisfiable formulas, device walks identical
//! to the CPU's, and errors naming the argument.

use crate::common;
use metaopt::device::Backend;
use metaopt::interrupt::StopReason;
use metaopt::problem::sat::{verify, Assignment, ClauseCounts, Cnf};
use metaopt::rng::Philox;
use metaopt::run::Stop;
use metaopt::sat_sls::{BreakFunction, SatSls, SlsMethod, SlsOptions, SlsTracker};
use std::path::PathBuf;
use std::time::Duration;

fn family(name: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(common::satlib(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

const UF: [&str; 8] = [
    "uf20-91",
    "uf50-218",
    "uf75-325",
    "uf100-430",
    "uf125-538",
    "uf150-645",
    "uf200-860",
    "uf250-1065",
];

/// Flips random variables and compares the tracker with recounts after each flip.
fn check_tracker(cnf: &Cnf, flips: usize, seed: u64) {
    let mut rng = Philox::new(seed, 9);
    let a = Assignment::random(cnf.num_vars, &mut rng);
    let mut t = SlsTracker::new(cnf, &a);
    let occ = cnf.occurrences();
    for step in 0..=flips {
        if step > 0 {
            t.flip(rng.below(cnf.num_vars as u32) as usize + 1);
        }
        let a = t.assignment();
        let cc = ClauseCounts::new(cnf, a.clone());
        assert_eq!(t.unsatisfied(), cnf.unsatisfied_count(&a), "step {step}");
        let unsat: Vec<usize> = (0..cnf.num_clauses())
            .filter(|&i| cc.counts[i] == 0)
            .collect();
        assert_eq!(t.unsatisfied_clauses(), unsat, "step {step}");
        assert!(t.positions_consistent(), "step {step}");
        for (i, c) in cnf.clauses().enumerate() {
            let taut = c.iter().any(|&l| c.contains(&-l));
            let mut distinct: Vec<i32> = c.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            let want = distinct.iter().filter(|&&l| a.lit_is_true(l)).count() as u32;
            assert_eq!(
                t.true_count(i),
                (!taut).then_some(want),
                "step {step}, clause {i}"
            );
        }
        for v in 1..=cnf.num_vars {
            assert_eq!(
                t.break_value(v),
                cc.break_count(&occ, v),
                "step {step}, variable {v}"
            );
        }
    }
}

#[test]
fn incremental_state_equals_a_recount() {
    check_tracker(&Cnf::random_ksat(60, 4.26, 3, 1).unwrap(), 400, 1);
    check_tracker(&Cnf::random_ksat(40, 20.0, 7, 2).unwrap(), 300, 2);
    // repeated literals, tautologies, unit clauses, a long clause
    let odd = vec![
        vec![1, 1, 2],
        vec![3, -3, 4],
        vec![-2, -2, -2],
        vec![5],
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1],
        vec![-6, 7, -8, 9, -10, 1, 2, -3],
        vec![4, 4, -5, -5, 6],
        vec![-7],
        vec![8, -9, 8],
    ];
    check_tracker(&Cnf::from_clauses("odd", 10, &odd).unwrap(), 300, 3);
    check_tracker(
        &Cnf::from_file(&common::satlib("flat30-60/flat30-1.cnf")).unwrap(),
        200,
        4,
    );
}

#[test]
fn random_ksat_generator() {
    let a = Cnf::random_ksat(100, 4.26, 3, 7).unwrap();
    assert_eq!(a.num_vars, 100);
    assert_eq!(a.num_clauses(), 426);
    for c in a.clauses() {
        assert_eq!(c.len(), 3);
        assert!(
            c[0].abs() != c[1].abs() && c[0].abs() != c[2].abs() && c[1].abs() != c[2].abs(),
            "{c:?}"
        );
    }
    let neg = a.literals.iter().filter(|&&l| l < 0).count();
    assert!((500..780).contains(&neg), "{neg} negative literals of 1278");
    let vars: std::collections::HashSet<i32> = a.literals.iter().map(|l| l.abs()).collect();
    assert!(vars.len() > 95, "{} variables used", vars.len());
    assert_eq!(a, Cnf::random_ksat(100, 4.26, 3, 7).unwrap());
    assert_ne!(
        a.literals,
        Cnf::random_ksat(100, 4.26, 3, 8).unwrap().literals
    );
    let b = Cnf::random_ksat(10, 2.0, 10, 1).unwrap();
    assert!(b.clauses().all(|c| c.len() == 10));
    let err = |r: metaopt::Result<Cnf>| r.expect_err("an error").to_string();
    assert!(err(Cnf::random_ksat(0, 4.0, 3, 1)).contains("num_vars"));
    assert!(err(Cnf::random_ksat(5, 4.0, 6, 1)).contains("k"));
    assert!(err(Cnf::random_ksat(5, 4.0, 0, 1)).contains("k"));
    assert!(err(Cnf::random_ksat(5, -1.0, 3, 1)).contains("ratio"));
    assert!(err(Cnf::random_ksat(5, f64::NAN, 3, 1)).contains("ratio"));
}

fn solve(
    cnf: &Cnf,
    backend: Backend,
    walks: Option<u32>,
    opts: &SlsOptions,
) -> metaopt::sat_sls::SatSlsSolveResult {
    let mut s = SatSls::new(cnf.clone(), walks, backend).unwrap();
    s.solve(opts).unwrap()
}

fn assert_model(cnf: &Cnf, r: &metaopt::sat_sls::SatSlsSolveResult, what: &str) {
    assert!(
        r.satisfiable,
        "{what}: no model, best {} after {} flips",
        r.best_unsatisfied, r.flips
    );
    assert_eq!(r.stop, StopReason::Target, "{what}");
    assert_eq!(r.best_unsatisfied, 0, "{what}");
    verify(cnf, r.model.as_ref().unwrap().assignment()).unwrap();
    verify(cnf, &r.best).unwrap();
}

fn limit(secs: u64) -> SlsOptions {
    SlsOptions {
        stop: Stop {
            time_limit: Some(Duration::from_secs(secs)),
            ..Stop::default()
        },
        ..SlsOptions::default()
    }
}

#[test]
fn cpu_solves_every_uniform_instance() {
    let mut flips = 0;
    let t = std::time::Instant::now();
    for fam in UF {
        for p in family(fam) {
            let cnf = Cnf::from_file(&p).unwrap();
            let r = solve(&cnf, Backend::Cpu, None, &limit(60));
            assert_model(&cnf, &r, &p.display().to_string());
            flips += r.flips;
        }
    }
    eprintln!(
        "160 uf instances on the CPU backend: {flips} flips in {:.2} s",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn cpu_solves_structured_instances_both_rules() {
    for fam in ["flat30-60", "blocksworld", "logistics"] {
        for p in family(fam) {
            let cnf = Cnf::from_file(&p).unwrap();
            let r = solve(&cnf, Backend::Cpu, None, &limit(120));
            assert_model(&cnf, &r, &p.display().to_string());
        }
    }
    // WalkSAT on a few
    for p in [
        family("uf100-430")[0].clone(),
        family("flat30-60")[0].clone(),
        family("logistics")[0].clone(),
    ] {
        let cnf = Cnf::from_file(&p).unwrap();
        let opts = SlsOptions {
            method: SlsMethod::WalkSat,
            noise: 0.5,
            ..limit(120)
        };
        let r = solve(&cnf, Backend::Cpu, None, &opts);
        assert_model(&cnf, &r, &format!("walksat {}", p.display()));
    }
}

#[test]
fn device_solves_a_subset_of_each_family() {
    for fam in UF.iter().chain(&["flat30-60", "blocksworld", "logistics"]) {
        for p in family(fam).iter().take(2) {
            let cnf = Cnf::from_file(p).unwrap();
            let r = solve(&cnf, Backend::DEVICE, Some(8), &limit(120));
            assert_model(&cnf, &r, &p.display().to_string());
        }
    }
    let cnf = Cnf::from_file(&family("uf75-325")[3]).unwrap();
    let opts = SlsOptions {
        method: SlsMethod::WalkSat,
        ..limit(60)
    };
    assert_model(
        &cnf,
        &solve(&cnf, Backend::DEVICE, Some(8), &opts),
        "walksat uf75 on the device",
    );
}

#[test]
fn unsatisfiable_ends_unknown_at_the_time_limit() {
    for (p, backend) in [
        (family("uuf50-218")[0].clone(), Backend::Cpu),
        (family("uuf100-430")[1].clone(), Backend::Cpu),
        (family("uuf75-325")[2].clone(), Backend::DEVICE),
    ] {
        let cnf = Cnf::from_file(&p).unwrap();
        let opts = SlsOptions {
            stop: Stop {
                time_limit: Some(Duration::from_millis(400)),
                ..Stop::default()
            },
            ..SlsOptions::default()
        };
        // PoCL compiles a kernel at its first launch (seconds on a loaded machine with a cold
        // cache): one flip first, so that the time measured is the walks' and the limit's
        solve(
            &cnf,
            backend,
            Some(4),
            &SlsOptions {
                stop: Stop {
                    budget: Some(1),
                    time_limit: None,
                    ..Stop::default()
                },
                ..SlsOptions::default()
            },
        );
        let t = std::time::Instant::now();
        let r = solve(&cnf, backend, Some(4), &opts);
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!(!r.satisfiable && r.model.is_none(), "{}", p.display());
        assert_eq!(r.stop, StopReason::TimeLimit);
        assert!(r.best_unsatisfied > 0);
        assert_eq!(
            cnf.unsatisfied_count(&r.best),
            r.best_unsatisfied,
            "{}",
            p.display()
        );
        assert!(r.flips > 1000, "{} flips", r.flips);
    }
}

#[test]
fn launches_are_sized_to_the_time_left() {
    // a launch of a billion flips per walk would take minutes: under a time limit the driver
    // cuts launches to the time left, and the progress callback sees each one
    let cnf = Cnf::from_file(&family("uuf100-430")[0]).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        // the program is built (and cached) before the clock starts, as above
        solve(
            &cnf,
            backend,
            Some(64),
            &SlsOptions {
                stop: Stop {
                    budget: Some(1),
                    time_limit: None,
                    ..Stop::default()
                },
                ..SlsOptions::default()
            },
        );
        let opts = SlsOptions {
            flips_per_launch: 1_000_000_000,
            stop: Stop {
                time_limit: Some(Duration::from_millis(500)),
                ..Stop::default()
            },
            ..SlsOptions::default()
        };
        let mut s = SatSls::new(cnf.clone(), Some(64), backend).unwrap();
        let mut seen = Vec::new();
        let t = std::time::Instant::now();
        let r = s
            .solve_observed(&opts, |p| {
                seen.push(p.work);
                true
            })
            .unwrap();
        let took = t.elapsed().as_secs_f64();
        assert!(took < 0.5 + 1.0, "{backend:?}: {took} s");
        assert_eq!(r.stop, StopReason::TimeLimit, "{backend:?}");
        // before every launch and once at the end
        assert!(
            r.launches >= 2 && seen.len() as u64 == r.launches + 1,
            "{backend:?}"
        );
        assert_eq!(seen[0], 0);
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        assert!(r.flips / 64 < 1_000_000_000);
    }
}

#[test]
fn a_progress_callback_stops_the_walks() {
    let cnf = Cnf::from_file(&family("uuf50-218")[0]).unwrap();
    let mut s = SatSls::new(cnf, Some(8), Backend::Cpu).unwrap();
    let opts = SlsOptions {
        flips_per_launch: 1000,
        stop: Stop {
            time_limit: None,
            budget: Some(1_000_000),
            ..Stop::default()
        },
        ..SlsOptions::default()
    };
    let r = s.solve_observed(&opts, |p| p.work < 3000).unwrap();
    assert_eq!((r.stop, r.launches), (StopReason::Budget, 3));
}

/// The progress reports carry the fewest unsatisfied clauses of any walk so far: none before
/// the first launch, never more after, the last the result's; the device's equal the CPU's.
#[test]
fn progress_reports_the_fewest_unsatisfied_clauses() {
    let cnf = Cnf::from_file(&family("uuf50-218")[0]).unwrap();
    let opts = SlsOptions {
        flips_per_launch: 50,
        stop: Stop {
            budget: Some(500),
            time_limit: None,
            ..Stop::default()
        },
        ..SlsOptions::default()
    };
    let mut logs = Vec::new();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut s = SatSls::new(cnf.clone(), Some(4), backend).unwrap();
        let mut seen = Vec::new();
        let r = s
            .solve_observed(&opts, |p| {
                seen.push(p.best);
                true
            })
            .unwrap();
        // before every launch and at the end (the flip budget)
        assert_eq!(seen.len() as u64, r.launches + 1, "{backend:?}");
        assert!(seen[0].is_infinite());
        assert!(seen.windows(2).all(|w| w[1] <= w[0]), "{seen:?}");
        assert_eq!(*seen.last().unwrap(), f64::from(r.best_unsatisfied));
        logs.push(seen);
    }
    assert_eq!(logs[0], logs[1]);
}

/// The report after the launch that found a model says 0.
#[test]
fn the_last_progress_report_is_the_model() {
    let cnf = Cnf::from_file(&common::satlib("uf50-218/uf50-01.cnf")).unwrap();
    let mut s = SatSls::new(cnf, Some(4), Backend::Cpu).unwrap();
    let mut last = f64::NAN;
    let opts = SlsOptions {
        stop: Stop {
            time_limit: None,
            budget: Some(10_000_000),
            ..Stop::default()
        },
        ..SlsOptions::default()
    };
    let r = s
        .solve_observed(&opts, |p| {
            last = p.best;
            true
        })
        .unwrap();
    assert!(r.satisfiable);
    assert_eq!(last, 0.0);
}

#[test]
fn flip_budget_stops_with_limit() {
    let cnf = Cnf::from_file(&family("uuf50-218")[3]).unwrap();
    let opts = SlsOptions {
        stop: Stop {
            budget: Some(10_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 3000,
        ..SlsOptions::default()
    };
    let r = solve(&cnf, Backend::Cpu, Some(3), &opts);
    assert_eq!(r.stop, StopReason::Budget);
    assert_eq!(r.launches, 4);
    assert_eq!(r.flips, 30_000);
    assert!(r.walk_reports.iter().all(|w| w.flips == 10_000));
}

/// The device walks through the same assignments as the CPU backend.
fn compare(cnf: &Cnf, opts: &SlsOptions, walks: u32, local: Option<bool>) {
    let cpu = solve(cnf, Backend::Cpu, Some(walks), opts);
    let mut s = SatSls::new(cnf.clone(), Some(walks), Backend::DEVICE).unwrap();
    s.set_local_memory(local);
    let dev = s.solve(opts).unwrap();
    assert_eq!(cpu.walk_reports.len(), dev.walk_reports.len());
    assert_eq!(cpu.stop, StopReason::Budget, "{}", cnf.name);
    assert_eq!(dev.stop, StopReason::Budget);
    for (i, (c, d)) in cpu.walk_reports.iter().zip(&dev.walk_reports).enumerate() {
        assert_eq!(c.flips, opts.stop.budget.unwrap(), "walk {i}");
        assert_eq!(
            (c.flips, c.restarts, c.unsatisfied, c.best_unsatisfied),
            (d.flips, d.restarts, d.unsatisfied, d.best_unsatisfied),
            "walk {i}, {local:?}"
        );
        assert_eq!(c.assignment, d.assignment, "walk {i}, {local:?}");
        assert_eq!(
            cnf.unsatisfied_count(&c.assignment),
            c.unsatisfied,
            "walk {i}"
        );
    }
    assert_eq!(cpu.best_unsatisfied, dev.best_unsatisfied);
    assert_eq!(cpu.best, dev.best);
    for (i, (c, d)) in cpu.walk_reports.iter().zip(&dev.walk_reports).enumerate() {
        assert_eq!(c.best, d.best, "walk {i}, {local:?}");
    }
    assert_bests_recount(cnf, &cpu, "cpu");
    assert_bests_recount(cnf, &dev, "device");
}

#[test]
fn device_and_cpu_walk_identically() {
    let uuf = Cnf::from_file(&family("uuf100-430")[0]).unwrap();
    let base = SlsOptions {
        stop: Stop {
            budget: Some(5_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 1_500,
        restart_flips: 1_700,
        seed: 11,
        ..SlsOptions::default()
    };
    compare(&uuf, &base, 6, Some(false));
    compare(&uuf, &base, 5, Some(true));
    let ws = SlsOptions {
        method: SlsMethod::WalkSat,
        noise: 0.3,
        ..base.clone()
    };
    compare(&uuf, &ws, 6, None);
    // long clauses (exponential table), a non-multiple-of-32 variable count
    let k7 = Cnf::random_ksat(90, 110.0, 7, 5).unwrap();
    compare(
        &k7,
        &SlsOptions {
            seed: 3,
            ..base.clone()
        },
        4,
        None,
    );
    // repeated literals and tautologies dropped the same way on both
    let flat = Cnf::from_file(&family("uuf50-218")[1]).unwrap();
    let mut clauses: Vec<Vec<i32>> = flat.clauses().map(|c| c.to_vec()).collect();
    let first = clauses[0][0];
    clauses[0].push(first);
    clauses.push(vec![1, -1, 2]);
    let odd = Cnf::from_clauses("odd", flat.num_vars, &clauses).unwrap();
    compare(
        &odd,
        &SlsOptions {
            stop: Stop {
                budget: Some(3000),
                ..base.stop.clone()
            },
            flips_per_launch: 640,
            ..base
        },
        4,
        None,
    );
}

#[test]
fn bad_options_name_the_argument() {
    let cnf = Cnf::random_ksat(20, 4.0, 3, 1).unwrap();
    let msg = |r: metaopt::Result<metaopt::sat_sls::SatSlsSolveResult>| {
        r.expect_err("an error").to_string()
    };
    assert!(SatSls::new(cnf.clone(), Some(0), Backend::Cpu)
        .err()
        .unwrap()
        .to_string()
        .contains("walks"));
    assert!(SatSls::new(cnf.clone(), Some(0), Backend::DEVICE)
        .err()
        .unwrap()
        .to_string()
        .contains("walks"));
    let mut s = SatSls::new(cnf.clone(), Some(2), Backend::Cpu).unwrap();
    let d = SlsOptions::default();
    for (bf, arg) in [
        (BreakFunction::Polynomial { cb: 0.0, eps: 0.9 }, "cb"),
        (
            BreakFunction::Polynomial {
                cb: f64::NAN,
                eps: 0.9,
            },
            "cb",
        ),
        (BreakFunction::Polynomial { cb: 2.0, eps: 0.0 }, "eps"),
        (
            BreakFunction::Polynomial {
                cb: 2.0,
                eps: f64::INFINITY,
            },
            "eps",
        ),
        (BreakFunction::Exponential { cb: 1.0 }, "cb"),
    ] {
        let m = msg(s.solve(&SlsOptions {
            break_function: bf,
            ..d.clone()
        }));
        assert!(m.contains(arg), "{bf:?}: {m}");
    }
    assert!(msg(s.solve(&SlsOptions {
        noise: 1.5,
        ..d.clone()
    }))
    .contains("noise"));
    assert!(msg(s.solve(&SlsOptions {
        noise: -0.1,
        ..d.clone()
    }))
    .contains("noise"));
    assert!(msg(s.solve(&SlsOptions {
        restart_flips: 0,
        ..d.clone()
    }))
    .contains("restart_flips"));
    assert!(msg(s.solve(&SlsOptions {
        flips_per_launch: 0,
        ..d.clone()
    }))
    .contains("flips_per_launch"));
    assert!(msg(s.solve(&SlsOptions {
        stop: Stop {
            time_limit: Some(Duration::from_secs_f64(2e9)),
            ..d.stop.clone()
        },
        ..d.clone()
    }))
    .contains("time_limit"));
    let empty = Cnf::from_clauses("e", 0, Vec::<Vec<i32>>::new()).unwrap();
    assert!(SatSls::new(empty, None, Backend::Cpu)
        .err()
        .unwrap()
        .to_string()
        .contains("cnf"));
}

#[test]
fn break_tables() {
    let t = BreakFunction::Auto.table(3);
    assert_eq!(t[0], 1 << 24);
    // (0.9 + 1)^-2.06 / 0.9^-2.06 = (0.9 / 1.9)^2.06
    assert_eq!(
        t[1],
        ((0.9f64 / 1.9).powf(2.06) * 16_777_216.0).round() as u32
    );
    assert!(t.windows(2).all(|w| w[0] >= w[1] && w[1] >= 1));
    let e = BreakFunction::Auto.table(5);
    assert_eq!(e[2], (16_777_216.0 / (3.7f64 * 3.7)).round() as u32);
    assert_eq!(*e.last().unwrap(), 1);
    assert_eq!(
        BreakFunction::for_clause_length(9),
        BreakFunction::Exponential { cb: 5.4 }
    );
}

#[test]
fn a_time_limit_and_a_token_end_a_large_persisting_run_promptly() {
    // walks whose state persists across launches (1 MB each) and launches of up to a billion
    // flips: a time limit and a token requested mid-run both end the run within one short
    // launch, the set-up (no upload of the states) and the reading of the walks included
    let cnf = Cnf::random_ksat(20_000, 4.26, 3, 7).unwrap();
    let walks = 64;
    for backend in [Backend::Cpu, Backend::DEVICE] {
        // the program is built (and cached) before the clock starts
        solve(
            &cnf,
            backend,
            Some(walks),
            &SlsOptions {
                stop: Stop {
                    budget: Some(1),
                    time_limit: None,
                    ..Stop::default()
                },
                ..SlsOptions::default()
            },
        );
        let limit = Duration::from_millis(500);
        let mut s = SatSls::new(cnf.clone(), Some(walks), backend).unwrap();
        assert!(s.state_persists());
        let t = std::time::Instant::now();
        let r = s
            .solve(&SlsOptions {
                flips_per_launch: 1_000_000_000,
                stop: Stop {
                    time_limit: Some(limit),
                    ..Stop::default()
                },
                ..SlsOptions::default()
            })
            .unwrap();
        let took = t.elapsed();
        assert!(took < limit + MARGIN, "{backend:?}: time limit, {took:?}");
        assert_eq!(r.stop, StopReason::TimeLimit, "{backend:?}");
        assert!(
            r.launches >= 2 && r.flips > 0,
            "{backend:?}: {} launches, {} flips",
            r.launches,
            r.flips
        );

        let token = metaopt::interrupt::StopToken::new();
        let at = Duration::from_millis(400);
        let t = std::time::Instant::now();
        let r = std::thread::scope(|sc| {
            let tk = token.clone();
            sc.spawn(move || {
                std::thread::sleep(at);
                tk.request();
            });
            s.solve(&SlsOptions {
                flips_per_launch: 1_000_000_000,
                stop: Stop {
                    token: Some(token.clone()),
                    time_limit: None,
                    ..Stop::default()
                },
                ..SlsOptions::default()
            })
            .unwrap()
        });
        let took = t.elapsed();
        assert!(took < at + MARGIN, "{backend:?}: token, {took:?}");
        assert_eq!(r.stop, StopReason::Interrupted, "{backend:?}");
        assert!(
            r.launches >= 2 && r.flips > 0,
            "{backend:?}: {} launches, {} flips",
            r.launches,
            r.flips
        );
        assert_eq!(r.best_unsatisfied, cnf.unsatisfied_count(&r.best));
    }
}

/// The time a stopped run may take beyond its stop on PoCL: one short launch, the reading of
/// the walks and the slack of a CPU device shared with other tests.
const MARGIN: Duration = Duration::from_secs(2);

#[test]
fn a_requested_stop_token_ends_with_interrupted() {
    let cnf = Cnf::from_file(&family("uuf75-325")[0]).unwrap();
    let token = metaopt::interrupt::StopToken::new();
    token.request();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let opts = SlsOptions {
            stop: Stop {
                token: Some(token.clone()),
                time_limit: None,
                ..Stop::default()
            },
            ..SlsOptions::default()
        };
        let r = solve(&cnf, backend, Some(2), &opts);
        assert_eq!(r.stop, StopReason::Interrupted);
        assert_eq!((r.launches, r.flips), (0, 0));
        assert!(r.model.is_none());
        assert_eq!(r.best_unsatisfied, cnf.unsatisfied_count(&r.best));
    }
}

/// `cnf` with a contradiction ((x1) and (not x1)), so no walk reaches a model.
fn never_satisfied(cnf: &Cnf, name: &str) -> Cnf {
    let mut clauses: Vec<Vec<i32>> = cnf.clauses().map(|c| c.to_vec()).collect();
    clauses.push(vec![1]);
    clauses.push(vec![-1]);
    Cnf::from_clauses(name, cnf.num_vars, &clauses).unwrap()
}

#[test]
fn device_and_cpu_walk_identically_long_clauses_and_lists() {
    let base = SlsOptions {
        stop: Stop {
            budget: Some(2_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 700,
        restart_flips: 900,
        seed: 5,
        ..SlsOptions::default()
    };
    // clauses of 40 and of 300 literals (true counts above 255), occurrence lists longer than
    // the lanes of a group
    let mut clauses: Vec<Vec<i32>> = Cnf::random_ksat(400, 2.0, 3, 8)
        .unwrap()
        .clauses()
        .map(|c| c.to_vec())
        .collect();
    clauses.extend(
        Cnf::random_ksat(400, 0.2, 40, 9)
            .unwrap()
            .clauses()
            .map(|c| c.to_vec()),
    );
    clauses.extend(
        Cnf::random_ksat(400, 0.05, 300, 10)
            .unwrap()
            .clauses()
            .map(|c| c.to_vec()),
    );
    let long = never_satisfied(&Cnf::from_clauses("long", 400, &clauses).unwrap(), "long");
    compare(&long, &base, 3, None);
    compare(&long, &base, 2, Some(true));
    compare(
        &long,
        &SlsOptions {
            method: SlsMethod::WalkSat,
            noise: 0.4,
            ..base.clone()
        },
        3,
        Some(false),
    );
}

#[test]
fn device_and_cpu_walk_identically_many_variables() {
    // more variables than lanes, more than 48 KB of state per walk (global memory on a GPU)
    let big = never_satisfied(&Cnf::random_ksat(2000, 4.2, 3, 12).unwrap(), "n2000");
    let base = SlsOptions {
        stop: Stop {
            budget: Some(3_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 1_000,
        restart_flips: 2_500,
        seed: 2,
        ..SlsOptions::default()
    };
    compare(&big, &base, 3, None);
    compare(&big, &base, 2, Some(false));
    // more than 65,536 clauses: 32-bit clause indices and positions
    let huge = never_satisfied(&Cnf::random_ksat(16_001, 4.2, 3, 13).unwrap(), "n16001");
    compare(
        &huge,
        &SlsOptions {
            stop: Stop {
                budget: Some(1_500),
                ..base.stop.clone()
            },
            flips_per_launch: 1_000,
            ..base
        },
        2,
        Some(false),
    );
}

/// Every walk's best assignment has its reported count (a recount on the input formula).
fn assert_bests_recount(cnf: &Cnf, r: &metaopt::sat_sls::SatSlsSolveResult, what: &str) {
    for (i, w) in r.walk_reports.iter().enumerate() {
        assert_eq!(
            cnf.unsatisfied_count(&w.best),
            w.best_unsatisfied,
            "{what}: walk {i}"
        );
    }
}

/// Walks with the flip log of `cap` entries (0: a copy of the assignment at every new best,
/// the brute-force record).
fn walks_with_log(
    cnf: &Cnf,
    backend: Backend,
    walks: u32,
    opts: &SlsOptions,
    cap: Option<usize>,
) -> metaopt::sat_sls::SatSlsSolveResult {
    let mut s = SatSls::new(cnf.clone(), Some(walks), backend).unwrap();
    s.set_log_capacity(cap);
    s.solve(opts).unwrap()
}

#[test]
fn snapshot_log_gives_the_best_assignment_of_a_full_copy() {
    // small (rebuilt at each launch) and large (persisting) states, with and without restarts;
    // capacity 3 overflows often, the default (words, at least 64) now and then
    let small = never_satisfied(&Cnf::random_ksat(300, 4.2, 3, 21).unwrap(), "n300");
    let large = never_satisfied(&Cnf::random_ksat(3000, 4.2, 3, 22).unwrap(), "n3000");
    let base = SlsOptions {
        stop: Stop {
            budget: Some(6_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 1_000,
        seed: 9,
        ..SlsOptions::default()
    };
    for (cnf, opts) in [
        (&small, base.clone()),
        (
            &small,
            SlsOptions {
                restart_flips: 1_300,
                ..base.clone()
            },
        ),
        (&large, base.clone()),
        (
            &large,
            SlsOptions {
                restart_flips: 2_200,
                method: SlsMethod::WalkSat,
                ..base.clone()
            },
        ),
    ] {
        let what = format!("{} restarts {}", cnf.name, opts.restart_flips);
        let full = walks_with_log(cnf, Backend::Cpu, 3, &opts, Some(0));
        assert_bests_recount(cnf, &full, &what);
        for (backend, cap) in [
            (Backend::Cpu, Some(3)),
            (Backend::Cpu, None),
            (Backend::DEVICE, Some(0)),
            (Backend::DEVICE, Some(3)),
            (Backend::DEVICE, None),
        ] {
            let r = walks_with_log(cnf, backend, 3, &opts, cap);
            assert_bests_recount(cnf, &r, &what);
            for (i, (a, b)) in full.walk_reports.iter().zip(&r.walk_reports).enumerate() {
                assert_eq!(
                    (a.flips, a.restarts, a.best_unsatisfied),
                    (b.flips, b.restarts, b.best_unsatisfied),
                    "{what}: walk {i}, {cap:?}"
                );
                assert_eq!(a.best, b.best, "{what}: walk {i}, {cap:?}");
                assert_eq!(a.assignment, b.assignment, "{what}: walk {i}, {cap:?}");
            }
            assert_eq!(full.best, r.best, "{what}: {cap:?}");
        }
    }
}

#[test]
fn persisting_state_walks_equal_the_cpu_backend_over_many_launches() {
    let small = SatSls::new(
        Cnf::random_ksat(300, 4.2, 3, 21).unwrap(),
        Some(1),
        Backend::Cpu,
    )
    .unwrap();
    assert!(
        !small.state_persists(),
        "a 300-variable state is rebuilt at every launch"
    );
    let big = never_satisfied(&Cnf::random_ksat(2500, 4.2, 3, 23).unwrap(), "n2500");
    assert!(SatSls::new(big.clone(), Some(1), Backend::Cpu)
        .unwrap()
        .state_persists());
    // 40 launches of 150 flips: the unsatisfied list keeps its order across launches on both
    let opts = SlsOptions {
        stop: Stop {
            budget: Some(6_000),
            time_limit: None,
            ..Stop::default()
        },
        flips_per_launch: 150,
        seed: 4,
        ..SlsOptions::default()
    };
    compare(&big, &opts, 3, None);
    compare(
        &big,
        &SlsOptions {
            restart_flips: 1_000,
            ..opts.clone()
        },
        2,
        Some(false),
    );
    // a persisting state is never in local memory
    let mut s = SatSls::new(big.clone(), Some(1), Backend::DEVICE).unwrap();
    s.set_local_memory(Some(true));
    let e = s.solve(&opts).expect_err("an error").to_string();
    assert!(e.contains("local_memory"), "{e}");
    // a persisting walk goes on where it stopped: the launch split does not change it (40
    // launches of 150 flips or one of 6,000), while a rebuilt one lists the unsatisfied clauses
    // in clause order at every launch and walks on differently
    for (cnf, persists) in [(&big, true), (small.cnf(), false)] {
        let one = SlsOptions {
            flips_per_launch: 6_000,
            ..opts.clone()
        };
        for backend in [Backend::Cpu, Backend::DEVICE] {
            let split = solve(cnf, backend, Some(2), &opts);
            let whole = solve(cnf, backend, Some(2), &one);
            let same = split
                .walk_reports
                .iter()
                .zip(&whole.walk_reports)
                .all(|(a, b)| a.assignment == b.assignment && a.best == b.best);
            assert_eq!(same, persists, "{} on {backend:?}", cnf.name);
        }
    }
}
