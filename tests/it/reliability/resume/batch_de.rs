//! Batched DE: every problem's population, values, adaptive state, generations and status.

use crate::common::*;
use metaopt::de::{Algorithm, Backend, BatchDe, BatchOptions, BatchProblem, BatchResult, Mutation};
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::{Precision, StopReason};
use std::time::Duration;

/// Fixed DE problems of several functions and mutations, and the adaptive variants.
fn problems() -> Vec<BatchProblem> {
    let mut v = Vec::new();
    for (i, (name, dims, w)) in [("F1", 6, 5.12), ("F8", 10, 600.0), ("F6", 8, 5.12)]
        .into_iter()
        .enumerate()
    {
        let mut p = BatchProblem::new(name, dims, -w, w);
        p.members = 30 + 4 * i as u32;
        p.mutation = Mutation::ALL[i];
        p.seed = 7 + i as u64;
        p.max_generations = 300 + 40 * i as u64;
        v.push(p);
    }
    for (i, alg) in [Algorithm::Jade, Algorithm::LShade, Algorithm::Jde100]
        .into_iter()
        .enumerate()
    {
        let mut p = BatchProblem::new("F8", 8, -600.0, 600.0);
        p.algorithm = alg;
        p.members = 40;
        p.jde_small = 10;
        p.seed = 20 + i as u64;
        p.max_generations = 250;
        v.push(p);
    }
    v
}

fn batch(backend: Backend) -> BatchDe {
    let o = BatchOptions {
        precision: Precision::Double,
        generations_per_launch: 7,
        ..BatchOptions::default()
    };
    BatchDe::new(problems(), backend, o).unwrap()
}

fn key(r: &[BatchResult]) -> Vec<(f64, Vec<f64>, u64, Option<StopReason>)> {
    r.iter()
        .map(|r| (r.best_value, r.best.clone(), r.generations, r.stop))
        .collect()
}

/// A run cut by time limits at several fractions of an uninterrupted run's time, saved, loaded
/// into a new batch and run on: the uninterrupted results. The limits follow the machine's
/// speed, so that some of them cut the batch on a fast machine as on a slow one.
fn resumed_equals_uninterrupted(backend: Backend, fractions: &[f64]) {
    // The first run builds the device program; the second one is timed.
    let whole = batch(backend).run(&Stop::default()).unwrap();
    assert!(whole.iter().all(|r| r.stop.is_some()));
    let started = std::time::Instant::now();
    assert_eq!(
        key(&batch(backend).run(&Stop::default()).unwrap()),
        key(&whole)
    );
    let took = started.elapsed();
    let mut cut_seen = false;
    for &f in fractions {
        let limit = took.mul_f64(f).max(Duration::from_micros(200));
        let mut first = batch(backend);
        let part = first
            .run(&Stop {
                time_limit: Some(limit),
                ..Stop::default()
            })
            .unwrap();
        cut_seen |= part.iter().any(|r| r.stop == Some(StopReason::TimeLimit));
        let mut second = batch(backend);
        second.load_state(&first.save_state().unwrap()).unwrap();
        let rest = second.run(&Stop::default()).unwrap();
        assert_eq!(key(&rest), key(&whole), "{backend:?} cut after {limit:?}");
    }
    assert!(cut_seen, "no time limit cut the batch");
}

#[test]
fn a_resumed_cpu_batch_ends_as_the_uninterrupted_one() {
    resumed_equals_uninterrupted(Backend::Cpu, &[0.05, 0.3, 0.7]);
}

#[test]
fn a_resumed_device_batch_ends_as_the_uninterrupted_one() {
    resumed_equals_uninterrupted(Backend::Device(None), &[0.1, 0.5]);
}

#[test]
fn batch_checkpoint_files_are_written_and_resume() {
    let dir = work_dir!();
    let path = dir.join("batch.state");
    let whole = batch(Backend::Cpu).run(&Stop::default()).unwrap();
    let token = metaopt::StopToken::new();
    let t = token.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        t.request();
    });
    let mut first = batch(Backend::Cpu);
    let part = first
        .run(&Stop {
            token: Some(token),
            checkpoint: Some(Checkpointing::new(
                path.clone(),
                Some(Duration::from_nanos(1)),
            )),
            ..Stop::default()
        })
        .unwrap();
    stopper.join().unwrap();
    assert!(part.iter().any(|r| r.stop == Some(StopReason::Interrupted)));
    let mut second = batch(Backend::Cpu);
    second.load_state(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(key(&second.run(&Stop::default()).unwrap()), key(&whole));
}

#[test]
fn mismatched_and_damaged_batch_states_are_refused() {
    let mut b = batch(Backend::Cpu);
    b.run(&Stop {
        time_limit: Some(Duration::from_millis(5)),
        ..Stop::default()
    })
    .unwrap();
    let state = b.save_state().unwrap();
    let mut other = problems();
    other[1].seed += 1;
    let mut o = BatchDe::new(
        other,
        Backend::Cpu,
        BatchOptions {
            precision: Precision::Double,
            generations_per_launch: 7,
            ..BatchOptions::default()
        },
    )
    .unwrap();
    assert!(arg_error(o.load_state(&state), "state").contains("another problem"));
    let mut single = BatchDe::new(
        problems(),
        Backend::Cpu,
        BatchOptions {
            precision: Precision::Single,
            ..BatchOptions::default()
        },
    )
    .unwrap();
    assert!(arg_error(single.load_state(&state), "state")
        .contains("option precision was double; this run has single"));
    assert!(
        arg_error(batch(Backend::Device(None)).load_state(&state), "state")
            .contains("option backend was cpu")
    );
    let mut c = batch(Backend::Cpu);
    assert!(arg_error(c.load_state(&state[..40]), "state").contains("truncated"));
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 2;
    assert!(arg_error(c.load_state(&flipped), "state").contains("checksum"));
    // a refused state changed nothing: the batch runs from the start
    assert_eq!(
        key(&c.run(&Stop::default()).unwrap()),
        key(&batch(Backend::Cpu).run(&Stop::default()).unwrap())
    );
}
