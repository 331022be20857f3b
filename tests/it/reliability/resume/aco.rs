//! Ant colony shortest paths: the pheromone, the best path and the counters (stagnation and
//! restart counts included).

use crate::common::*;
use metaopt::aco::*;
use metaopt::problem::graph::{grid, Graph};
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::StopReason;
use std::time::Duration;

const FROM: u32 = 0;
const TO: u32 = 255;

/// A 16 x 16 grid of integer weights, and the same with real weights.
fn graphs() -> (Graph, Graph) {
    let g = grid(16, 16, 9, 0.0, 4).unwrap().graph;
    let w: Vec<f64> = (0..g.m())
        .map(|e| g.weights().get_f64(e) * 0.37 + 0.011)
        .collect();
    let real = Graph::from_csr(g.offsets(), g.targets(), &w).unwrap();
    (g, real)
}

fn options(iterations: u32) -> AcoOptions {
    AcoOptions {
        ants: 12,
        stop: Stop::budget(u64::from(iterations)),
        // restarts and the MAX-MIN start happen within the run, so their counts matter
        restart: Some(4),
        seed: 3,
        ..Default::default()
    }
}

/// The result's fields that a resumed run must reproduce, and the final pheromone's bits.
type Outcome = (
    Option<AcoPath>,
    Option<AcoPath>,
    Option<u32>,
    u64,
    u32,
    StopReason,
    Vec<u64>,
);

fn outcome(aco: &mut Aco, r: &AcoRunResult) -> Outcome {
    let tau: Vec<u64> = aco
        .pheromone()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    (
        r.best.clone(),
        r.pheromone.clone(),
        r.found_at_iteration,
        r.successful_ants,
        r.iterations,
        r.stop,
        tau,
    )
}

fn whole(g: &Graph, backend: Backend, o: AcoOptions) -> (AcoRunResult, Outcome) {
    let mut aco = Aco::new(g, o, backend).unwrap();
    let r = aco.run(FROM, TO).unwrap();
    let out = outcome(&mut aco, &r);
    (r, out)
}

/// `split` iterations, a saved state, and the rest in a new solver: the uninterrupted run.
fn resumed_equals_uninterrupted(g: &Graph, backend: Backend, o: &AcoOptions, split: u32) {
    let (w, expect) = whole(g, backend, o.clone());
    let mut first = Aco::new(
        g,
        AcoOptions {
            stop: Stop::budget(u64::from(split)),
            ..o.clone()
        },
        backend,
    )
    .unwrap();
    let part = first.run(FROM, TO).unwrap();
    assert_eq!(part.iterations, split);
    let state = first.save_state().unwrap();
    let mut second = Aco::new(g, o.clone(), backend).unwrap();
    second.load_state(&state).unwrap();
    let rest = second.run(FROM, TO).unwrap();
    assert_eq!(outcome(&mut second, &rest), expect, "split at {split}");
    assert!(rest.elapsed >= part.elapsed);
    // the state was used up: the next run starts afresh
    let again = second.run(FROM, TO).unwrap();
    assert_eq!(again.best, w.best);
}

#[test]
fn a_resumed_cpu_run_ends_as_the_uninterrupted_one() {
    let (g, real) = graphs();
    let o = options(30);
    for split in [1, 7, 18, 29] {
        resumed_equals_uninterrupted(&g, Backend::Cpu, &o, split);
    }
    resumed_equals_uninterrupted(&real, Backend::Cpu, &o, 11);
    // a run stopped by a target (the uninterrupted run's best length, reached at the iteration
    // that found it) continues as the uninterrupted one
    let (w, expect) = whole(&g, Backend::Cpu, o.clone());
    let mut first = Aco::new(
        &g,
        AcoOptions {
            stop: Stop {
                target: w.best_length(),
                ..o.stop.clone()
            },
            ..o.clone()
        },
        Backend::Cpu,
    )
    .unwrap();
    let part = first.run(FROM, TO).unwrap();
    assert_eq!(part.stop, StopReason::Target);
    assert_eq!(Some(part.iterations), w.found_at_iteration);
    let mut second = Aco::new(&g, o.clone(), Backend::Cpu).unwrap();
    second.load_state(&first.save_state().unwrap()).unwrap();
    let rest = second.run(FROM, TO).unwrap();
    assert_eq!(outcome(&mut second, &rest), expect);
    // the MAX-MIN start after the first success, iteration-best deposits, no bounds
    let other = AcoOptions {
        deposit: Deposit::IterationBest,
        max_min: None,
        restart: None,
        initial_pheromone: Some(3.0),
        ..options(30)
    };
    resumed_equals_uninterrupted(&g, Backend::Cpu, &other, 13);
}

#[test]
fn a_resumed_device_run_ends_as_the_uninterrupted_one() {
    let (g, real) = graphs();
    resumed_equals_uninterrupted(&g, Backend::DEVICE, &options(30), 12);
    // real weights: bit for bit on the same device
    resumed_equals_uninterrupted(&real, Backend::DEVICE, &options(30), 17);
}

#[test]
fn a_device_state_resumes_on_the_cpu() {
    // integer weights and the roulette: device and CPU take the same steps
    let (g, _) = graphs();
    let (_, expect) = whole(&g, Backend::Cpu, options(24));
    let mut dev = Aco::new(&g, options(10), Backend::DEVICE).unwrap();
    dev.run(FROM, TO).unwrap();
    let mut cpu = Aco::new(&g, options(24), Backend::Cpu).unwrap();
    cpu.load_state(&dev.save_state().unwrap()).unwrap();
    let r = cpu.run(FROM, TO).unwrap();
    assert_eq!(outcome(&mut cpu, &r), expect);
}

#[test]
fn stagnation_counts_across_a_resume() {
    let (g, _) = graphs();
    let o = AcoOptions {
        max_no_improve: Some(6),
        restart: None,
        ..options(400)
    };
    let (w, expect) = whole(&g, Backend::Cpu, o.clone());
    assert_eq!(w.stop, StopReason::Stagnation);
    let found = w.found_at_iteration.unwrap();
    // split inside the stagnant stretch and before it
    for split in [found + 2, found.saturating_sub(1).max(1)] {
        let mut a = Aco::new(
            &g,
            AcoOptions {
                stop: Stop::budget(u64::from(split)),
                ..o.clone()
            },
            Backend::Cpu,
        )
        .unwrap();
        a.run(FROM, TO).unwrap();
        let mut b = Aco::new(&g, o.clone(), Backend::Cpu).unwrap();
        b.load_state(&a.save_state().unwrap()).unwrap();
        let r = b.run(FROM, TO).unwrap();
        assert_eq!(outcome(&mut b, &r), expect, "split at {split}");
    }
}

#[test]
fn checkpoint_files_are_written_and_resume() {
    let dir = work_dir!();
    let path = dir.join("aco.state");
    let (g, _) = graphs();
    let (_, expect) = whole(&g, Backend::Cpu, options(120));
    let token = metaopt::interrupt::StopToken::new();
    // stopped by its token during the run (a few ms an iteration): the file holds its last
    // iteration
    let o = AcoOptions {
        stop: Stop {
            checkpoint: Some(Checkpointing::new(
                path.clone(),
                Some(Duration::from_nanos(1)),
            )),
            token: Some(token.clone()),
            ..Stop::budget(120)
        },
        ..options(120)
    };
    let mut a = Aco::new(&g, o, Backend::Cpu).unwrap();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        token.request();
    });
    let r = a.run(FROM, TO).unwrap();
    t.join().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes, a.save_state().unwrap());
    let mut b = Aco::new(&g, options(120), Backend::Cpu).unwrap();
    b.load_state(&bytes).unwrap();
    let rest = b.run(FROM, TO).unwrap();
    assert_eq!(r.stop, StopReason::Interrupted);
    assert_eq!(
        outcome(&mut b, &rest),
        expect,
        "stopped after {}",
        r.iterations
    );
}

#[test]
fn mismatched_and_damaged_states_are_refused() {
    let (g, real) = graphs();
    let mut a = Aco::new(&g, options(5), Backend::Cpu).unwrap();
    assert!(arg_error(a.save_state(), "state").contains("no run"));
    // a run that needs no iteration has no state either
    a.run(FROM, FROM).unwrap();
    assert!(arg_error(a.save_state(), "state").contains("no run"));
    a.run(FROM, TO).unwrap();
    let state = a.save_state().unwrap();
    // an option that shapes the course: refused, naming it
    let mut b = Aco::new(
        &g,
        AcoOptions {
            seed: 4,
            ..options(10)
        },
        Backend::Cpu,
    )
    .unwrap();
    assert!(arg_error(b.load_state(&state), "state").contains("option seed was 3; this run has 4"));
    // a larger budget, a stagnation stop, a time limit and a target are not part of it
    let mut c = Aco::new(
        &g,
        AcoOptions {
            max_no_improve: Some(50),
            stop: Stop {
                time_limit: Some(Duration::from_secs(60)),
                target: Some(1.0),
                ..Stop::budget(10)
            },
            ..options(10)
        },
        Backend::Cpu,
    )
    .unwrap();
    c.load_state(&state).unwrap();
    // another pair of vertices: refused when the run starts, and the state stays loaded
    assert!(arg_error(c.run(FROM, 17), "state").contains("a run from 0 to 255"));
    assert_eq!(c.run(FROM, TO).unwrap().iterations, 10);
    // another graph
    let mut d = Aco::new(&real, options(10), Backend::Cpu).unwrap();
    assert!(arg_error(d.load_state(&state), "state").contains("another problem"));
    // damaged bytes
    assert!(arg_error(c.load_state(&state[..state.len() / 2]), "state").contains("truncated"));
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(arg_error(c.load_state(&flipped), "state").contains("checksum"));
    assert!(arg_error(c.load_state(b"not a state"), "state").contains("not a metaopt"));
}
