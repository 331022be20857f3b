//! The SAT walks (probSAT, WalkSAT): every walk's assignment, best assignment, flip log and
//! counters, the order of the unsatisfied lists of walks whose state persists across launches,
//! the found flag; and the warm start from given assignments.

use crate::common::*;
use metaopt::device::Backend;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::rng::Philox;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::sat_sls::*;
use metaopt::StopReason;
use std::time::Duration;

fn uuf50() -> Cnf {
    Cnf::from_file(&satlib("uuf50-218/uuf50-01.cnf")).unwrap()
}

/// A formula whose walks keep their state across launches (more than 48 KB of state).
fn large() -> Cnf {
    Cnf::random_ksat(4000, 4.3, 3, 11).unwrap()
}

fn options(method: SlsMethod, max_flips: u64) -> SlsOptions {
    SlsOptions {
        method,
        seed: 5,
        flips_per_launch: 1000,
        // restarts within the run, so the restart counters and draws matter to the course
        restart_flips: 2500,
        stop: Stop {
            budget: Some(max_flips),
            time_limit: None,
            ..Stop::default()
        },
        ..Default::default()
    }
}

/// What must agree between a resumed and an uninterrupted solve: the result and every walk.
fn outcome(r: &SatSlsSolveResult) -> impl PartialEq + std::fmt::Debug {
    (
        r.best_unsatisfied,
        r.best.words().to_vec(),
        r.flips,
        r.launches,
        r.restarts(),
        r.stop,
        r.walk_reports
            .iter()
            .map(|w| {
                (
                    w.flips,
                    w.restarts,
                    w.unsatisfied,
                    w.best_unsatisfied,
                    w.assignment.words().to_vec(),
                    w.best.words().to_vec(),
                )
            })
            .collect::<Vec<_>>(),
    )
}

/// `split` flips per walk, a saved state, and the rest in a new solver on `second`: the
/// uninterrupted result on `first`.
fn resumed_equals_uninterrupted(
    cnf: &Cnf,
    first: Backend,
    second: Backend,
    method: SlsMethod,
    total: u64,
    split: u64,
) {
    let whole = SatSls::new(cnf.clone(), Some(6), first)
        .unwrap()
        .solve(&options(method, total))
        .unwrap();
    assert!(!whole.satisfiable && whole.restarts() > 0);
    let mut a = SatSls::new(cnf.clone(), Some(6), first).unwrap();
    let part = a.solve(&options(method, split)).unwrap();
    assert_eq!(part.flips, 6 * split);
    let state = a.save_state().unwrap();
    let mut b = SatSls::new(cnf.clone(), Some(6), second).unwrap();
    b.load_state(state).unwrap();
    let rest = b.solve(&options(method, total)).unwrap();
    assert_eq!(
        outcome(&rest),
        outcome(&whole),
        "{method:?} {first:?} -> {second:?} split at {split}"
    );
    // the state was used up: a third solve starts afresh
    let again = b.solve(&options(method, total)).unwrap();
    assert_eq!(outcome(&again), outcome(&whole));
}

#[test]
fn resumed_cpu_walks_end_as_the_uninterrupted_ones() {
    let cnf = uuf50();
    for split in [1000, 3000, 6000] {
        resumed_equals_uninterrupted(
            &cnf,
            Backend::Cpu,
            Backend::Cpu,
            SlsMethod::ProbSat,
            7000,
            split,
        );
    }
    resumed_equals_uninterrupted(
        &cnf,
        Backend::Cpu,
        Backend::Cpu,
        SlsMethod::WalkSat,
        7000,
        4000,
    );
}

#[test]
fn resumed_persisting_walks_keep_their_unsatisfied_lists() {
    let cnf = large();
    assert!(SatSls::new(cnf.clone(), Some(2), Backend::Cpu)
        .unwrap()
        .state_persists());
    for split in [1000, 4000] {
        resumed_equals_uninterrupted(
            &cnf,
            Backend::Cpu,
            Backend::Cpu,
            SlsMethod::ProbSat,
            6000,
            split,
        );
    }
}

#[test]
fn resumed_device_walks_end_as_the_uninterrupted_ones() {
    let cnf = uuf50();
    resumed_equals_uninterrupted(
        &cnf,
        Backend::DEVICE,
        Backend::DEVICE,
        SlsMethod::ProbSat,
        5000,
        2000,
    );
    // the walks are the same on both backends: a state moves between them
    resumed_equals_uninterrupted(
        &cnf,
        Backend::DEVICE,
        Backend::Cpu,
        SlsMethod::WalkSat,
        5000,
        3000,
    );
    let large = large();
    resumed_equals_uninterrupted(
        &large,
        Backend::Cpu,
        Backend::DEVICE,
        SlsMethod::ProbSat,
        5000,
        3000,
    );
    resumed_equals_uninterrupted(
        &large,
        Backend::DEVICE,
        Backend::Cpu,
        SlsMethod::ProbSat,
        5000,
        2000,
    );
}

#[test]
fn a_checkpoint_file_of_a_stopped_solve_resumes() {
    let dir = work_dir!();
    let path = dir.join("sls.state");
    let cnf = uuf50();
    let whole = SatSls::new(cnf.clone(), Some(6), Backend::Cpu)
        .unwrap()
        .solve(&options(SlsMethod::ProbSat, 7000))
        .unwrap();
    let token = metaopt::interrupt::StopToken::new();
    let stop_at = token.clone();
    let opts = SlsOptions {
        stop: Stop {
            checkpoint: Some(Checkpointing::new(
                path.clone(),
                Some(Duration::from_nanos(1)),
            )),
            token: Some(token),
            ..options(SlsMethod::ProbSat, 7000).stop.clone()
        },
        ..options(SlsMethod::ProbSat, 7000)
    };
    // stopped by its token before the fifth launch: the checkpoint holds 4000 flips per walk
    let r = SatSls::new(cnf.clone(), Some(6), Backend::Cpu)
        .unwrap()
        .solve_observed(&opts, |p| {
            if p.work == 4000 {
                stop_at.request();
            }
            true
        })
        .unwrap();
    assert_eq!(r.stop, StopReason::Interrupted);
    assert_eq!(r.flips, 6 * 4000);
    let mut s = SatSls::new(cnf, Some(6), Backend::Cpu).unwrap();
    s.load_state(std::fs::read(&path).unwrap()).unwrap();
    let rest = s.solve(&options(SlsMethod::ProbSat, 7000)).unwrap();
    assert_eq!(outcome(&rest), outcome(&whole));
    // the time taken counts: the resumed solve's seconds include the first part's
    assert!(rest.seconds >= r.seconds);
}

#[test]
fn a_solve_that_found_a_model_resumes_to_it() {
    let cnf = Cnf::from_file(&satlib("uf20-91/uf20-01.cnf")).unwrap();
    let mut s = SatSls::new(cnf.clone(), Some(4), Backend::Cpu).unwrap();
    let r = s.solve(&options(SlsMethod::ProbSat, 100_000)).unwrap();
    assert_eq!(r.stop, StopReason::Target);
    let state = s.save_state().unwrap();
    let mut t = SatSls::new(cnf, Some(4), Backend::Cpu).unwrap();
    t.load_state(state).unwrap();
    let again = t.solve(&options(SlsMethod::ProbSat, 100_000)).unwrap();
    assert_eq!(again.stop, StopReason::Target);
    assert_eq!(again.best.words(), r.best.words());
    assert_eq!((again.flips, again.launches), (r.flips, r.launches));
}

#[test]
fn mismatched_and_damaged_walk_states_are_refused() {
    let cnf = uuf50();
    let mut s = SatSls::new(cnf.clone(), Some(4), Backend::Cpu).unwrap();
    assert!(arg_error(s.save_state(), "state").contains("no solve"));
    s.solve(&options(SlsMethod::ProbSat, 2000)).unwrap();
    let state = s.save_state().unwrap();
    let mut t = SatSls::new(cnf.clone(), Some(4), Backend::Cpu).unwrap();
    t.load_state(state.clone()).unwrap();
    let other = SlsOptions {
        seed: 6,
        ..options(SlsMethod::ProbSat, 3000)
    };
    assert!(arg_error(t.solve(&other), "state").contains("option seed was 5; this run has 6"));
    let walksat = options(SlsMethod::WalkSat, 3000);
    assert!(arg_error(t.solve(&walksat), "state").contains("option method was probsat"));
    // a larger budget and a time limit are not part of it
    let more = SlsOptions {
        stop: Stop {
            time_limit: Some(Duration::from_secs(60)),
            ..options(SlsMethod::ProbSat, 3000).stop.clone()
        },
        ..options(SlsMethod::ProbSat, 3000)
    };
    assert_eq!(t.solve(&more).unwrap().flips, 4 * 3000);
    // another walk count
    let mut u = SatSls::new(cnf.clone(), Some(5), Backend::Cpu).unwrap();
    u.load_state(state.clone()).unwrap();
    assert!(
        arg_error(u.solve(&options(SlsMethod::ProbSat, 3000)), "state")
            .contains("option walks was 4; this run has 5")
    );
    // another formula: refused at load
    let other = Cnf::from_file(&satlib("uuf50-218/uuf50-02.cnf")).unwrap();
    let mut v = SatSls::new(other, Some(4), Backend::Cpu).unwrap();
    assert!(arg_error(v.load_state(state.clone()), "state").contains("another problem"));
    // damaged files
    let mut w = SatSls::new(cnf, Some(4), Backend::Cpu).unwrap();
    assert!(
        arg_error(w.load_state(state[..state.len() / 2].to_vec()), "state").contains("truncated")
    );
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(arg_error(w.load_state(flipped), "state").contains("checksum"));
    assert!(arg_error(w.load_state(b"not a state".to_vec()), "state").contains("not a metaopt"));
}

#[test]
fn walks_start_from_given_assignments() {
    let cnf = Cnf::from_file(&satlib("uf20-91/uf20-01.cnf")).unwrap();
    let model = SatSls::new(cnf.clone(), Some(4), Backend::Cpu)
        .unwrap()
        .solve(&options(SlsMethod::ProbSat, 100_000))
        .unwrap()
        .model
        .unwrap()
        .assignment()
        .clone();
    // a start at a model is returned at once, before any launch
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut s = SatSls::new(cnf.clone(), Some(4), backend).unwrap();
        let r = s
            .solve(&SlsOptions {
                start: vec![model.clone()],
                ..options(SlsMethod::ProbSat, 100_000)
            })
            .unwrap();
        assert_eq!(r.stop, StopReason::Target, "{backend:?}");
        assert_eq!((r.launches, r.flips), (0, 0));
        assert_eq!(r.model.unwrap().assignment(), &model);
    }
    // the first walks from given assignments, the others at random; both backends alike
    let cnf = uuf50();
    let mut rng = Philox::new(3, 0);
    let starts: Vec<Assignment> = (0..2)
        .map(|_| Assignment::random(cnf.num_vars, &mut rng))
        .collect();
    // a few flips: walks that share their random words from two starts may meet (and walk on
    // together), and a restart's assignment does not depend on the start
    let no_restarts = SlsOptions {
        restart_flips: NO_RESTARTS,
        ..options(SlsMethod::ProbSat, 10)
    };
    let opts = SlsOptions {
        start: starts.clone(),
        ..no_restarts.clone()
    };
    let cpu = SatSls::new(cnf.clone(), Some(4), Backend::Cpu)
        .unwrap()
        .solve(&opts)
        .unwrap();
    let dev = SatSls::new(cnf.clone(), Some(4), Backend::DEVICE)
        .unwrap()
        .solve(&opts)
        .unwrap();
    assert_eq!(outcome(&cpu), outcome(&dev));
    let plain = SatSls::new(cnf.clone(), Some(4), Backend::Cpu)
        .unwrap()
        .solve(&no_restarts)
        .unwrap();
    // walks 2 and 3 started at random as without a start; 0 and 1 from the given ones
    assert_eq!(
        plain.walk_reports[2].assignment,
        cpu.walk_reports[2].assignment
    );
    assert_ne!(
        plain.walk_reports[0].assignment,
        cpu.walk_reports[0].assignment
    );
    for (w, a) in cpu.walk_reports.iter().zip(&starts) {
        assert!(w.best_unsatisfied <= cnf.unsatisfied_count(a));
    }
    // persisting walks from a start, on both backends
    let large = large();
    let a = Assignment::random(large.num_vars, &mut rng);
    let opts = SlsOptions {
        start: vec![a],
        ..options(SlsMethod::ProbSat, 2000)
    };
    let cpu = SatSls::new(large.clone(), Some(3), Backend::Cpu)
        .unwrap()
        .solve(&opts)
        .unwrap();
    let dev = SatSls::new(large.clone(), Some(3), Backend::DEVICE)
        .unwrap()
        .solve(&opts)
        .unwrap();
    assert_eq!(outcome(&cpu), outcome(&dev));
    // wrong lengths are refused naming the argument
    let mut s = SatSls::new(cnf.clone(), Some(4), Backend::Cpu).unwrap();
    let short = SlsOptions {
        start: vec![Assignment::all_false(49)],
        ..options(SlsMethod::ProbSat, 1000)
    };
    assert!(arg_error(s.solve(&short), "start").contains("49 variables; the formula has 50"));
    let many = SlsOptions {
        start: vec![Assignment::all_false(50); 5],
        ..options(SlsMethod::ProbSat, 1000)
    };
    assert!(arg_error(s.solve(&many), "start").contains("5 assignments for 4 walks"));
}
