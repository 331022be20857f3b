//! The QAP robust tabu search: chains, tabu matrices, elite pool, host draws and counters.

use crate::common::*;
use metaopt::problem::qap::QapProblem;
use metaopt::qap_ts::*;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use std::sync::Arc;
use std::time::Duration;

fn options(max_iterations: u64) -> QapTsOptions {
    QapTsOptions {
        chains: 3,
        stop: Stop::budget(max_iterations),
        launch_iterations: 250,
        // restarts from the elite pool happen within the run, so the pool and the host draws
        // matter to the resumed course
        stagnation: Some(300),
        seed: 5,
        ..Default::default()
    }
}

fn problem() -> Arc<QapProblem> {
    Arc::new(QapProblem::from_instance(&instance("chr15a")))
}

/// `split` iterations, a saved state, and the rest in a new solver: the uninterrupted result.
fn resumed_equals_uninterrupted(backend: Backend, split: u64) {
    let p = problem();
    let whole = QapTs::new(p.clone(), backend)
        .unwrap()
        .solve(&options(3000))
        .unwrap();
    assert!(whole.restarts > 0);
    let mut first = QapTs::new(p.clone(), backend).unwrap();
    let part = first.solve(&options(split)).unwrap();
    assert_eq!(part.iterations, split);
    let state = first.save_state().unwrap();
    let mut second = QapTs::new(p.clone(), backend).unwrap();
    second.load_state(state).unwrap();
    let rest = second.solve(&options(3000)).unwrap();
    // (the launches are sized by the machine's speed; the course is the seed's)
    assert_eq!(
        (rest.cost, &rest.permutation, rest.iterations, rest.restarts),
        (
            whole.cost,
            &whole.permutation,
            whole.iterations,
            whole.restarts
        ),
        "split at {split}"
    );
    assert!(rest.launches >= part.launches);
    // the state was used up: a third solve starts afresh
    let again = second.solve(&options(3000)).unwrap();
    assert_eq!(again.permutation, whole.permutation);
}

/// A solve that leaves `chains` at 0 continues a state with the state's chains (the backend's
/// own count may differ from the one that wrote it).
#[test]
fn chains_left_at_zero_resume_with_the_states_chains() {
    let p = problem();
    let whole = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve(&options(3000))
        .unwrap();
    let mut first = QapTs::new(p.clone(), Backend::Cpu).unwrap();
    first.solve(&options(1000)).unwrap();
    let state = first.save_state().unwrap();
    let mut second = QapTs::new(p.clone(), Backend::Cpu).unwrap();
    second.load_state(state).unwrap();
    let rest = second
        .solve(&QapTsOptions {
            chains: 0,
            ..options(3000)
        })
        .unwrap();
    assert_eq!(rest.chains, 3);
    assert_eq!(
        (rest.cost, &rest.permutation, rest.restarts),
        (whole.cost, &whole.permutation, whole.restarts)
    );
}

#[test]
fn a_resumed_cpu_solve_ends_as_the_uninterrupted_one() {
    for split in [250, 1250, 2750] {
        resumed_equals_uninterrupted(Backend::Cpu, split);
    }
}

#[test]
fn a_resumed_device_solve_ends_as_the_uninterrupted_one() {
    resumed_equals_uninterrupted(Backend::Device(None), 1250);
}

#[test]
fn a_device_checkpoint_resumes_on_the_cpu() {
    // integer data: device and CPU chains draw and move alike, tabu matrices included
    let p = problem();
    let whole = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve(&options(2000))
        .unwrap();
    let mut dev = QapTs::new(p.clone(), Backend::Device(None)).unwrap();
    dev.solve(&options(1000)).unwrap();
    let mut cpu = QapTs::new(p, Backend::Cpu).unwrap();
    cpu.load_state(dev.save_state().unwrap()).unwrap();
    let rest = cpu.solve(&options(2000)).unwrap();
    assert_eq!(
        (rest.cost, &rest.permutation, rest.restarts),
        (whole.cost, &whole.permutation, whole.restarts)
    );
}

#[test]
fn checkpoint_files_are_written_and_resume() {
    let dir = work_dir!();
    let path = dir.join("ts.state");
    let p = problem();
    let whole = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve(&options(3000))
        .unwrap();
    let token = metaopt::interrupt::StopToken::new();
    let stop_at = token.clone();
    let opts = QapTsOptions {
        stop: Stop {
            checkpoint: Some(Checkpointing::new(
                path.clone(),
                Some(Duration::from_nanos(1)),
            )),
            token: Some(token),
            ..Stop::budget(3000)
        },
        ..options(3000)
    };
    // stopped by its token after the fourth launch: the checkpoint holds 1000 iterations
    let r = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve_with_progress(&opts, |pr| {
            if pr.iterations == 1000 {
                stop_at.request();
            }
            true
        })
        .unwrap();
    assert_eq!(r.stop, metaopt::StopReason::Interrupted);
    assert_eq!(r.iterations, 1000);
    let bytes = std::fs::read(&path).unwrap();
    let mut s = QapTs::new(p, Backend::Cpu).unwrap();
    s.load_state(bytes).unwrap();
    let rest = s.solve(&options(3000)).unwrap();
    assert_eq!(
        (rest.cost, &rest.permutation, rest.restarts),
        (whole.cost, &whole.permutation, whole.restarts)
    );
}

#[test]
fn mismatched_and_damaged_states_are_refused() {
    let p = problem();
    let mut s = QapTs::new(p.clone(), Backend::Cpu).unwrap();
    assert!(arg_error(s.save_state(), "state").contains("no solve"));
    s.solve(&options(500)).unwrap();
    let state = s.save_state().unwrap();
    // another option that shapes the course: refused when the solve starts, naming it
    let mut t = QapTs::new(p.clone(), Backend::Cpu).unwrap();
    t.load_state(state.clone()).unwrap();
    let other = QapTsOptions {
        seed: 6,
        ..options(1000)
    };
    assert!(arg_error(t.solve(&other), "state").contains("option seed was 5; this run has 6"));
    // a larger budget and a time limit are not part of it
    let more = QapTsOptions {
        stop: Stop {
            time_limit: Some(Duration::from_secs(60)),
            ..Stop::budget(1000)
        },
        ..options(1000)
    };
    assert_eq!(t.solve(&more).unwrap().iterations, 1000);
    // another problem: refused at load
    let q = Arc::new(QapProblem::from_instance(&instance("chr15b")));
    let mut u = QapTs::new(q, Backend::Cpu).unwrap();
    assert!(arg_error(u.load_state(state.clone()), "state").contains("another problem"));
    // damaged files
    let mut v = QapTs::new(p, Backend::Cpu).unwrap();
    assert!(
        arg_error(v.load_state(state[..state.len() / 2].to_vec()), "state").contains("truncated")
    );
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(arg_error(v.load_state(flipped), "state").contains("checksum"));
    assert!(arg_error(v.load_state(b"not a state".to_vec()), "state").contains("not a metaopt"));
}
