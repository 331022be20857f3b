//! Basin hopping: every chain's anchor, search, step and search length, the step counter and the
//! solve's shared anchor and best.

use crate::common::*;
use metaopt::bh::{BasinHopping, BhParams, BhRun};
use metaopt::device::Backend;
use metaopt::objective::Objective;
use metaopt::problem::functions;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::StopReason;
use std::time::Duration;

const DIMS: usize = 4;

fn box_of(name: &str) -> (Objective, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (a, b) = functions::lookup(name).unwrap().domain;
    let x0 = (0..DIMS)
        .map(|j| a + (b - a) * (0.3 + 0.1 * j as f64))
        .collect();
    (
        Objective::catalogue(name).unwrap(),
        vec![a; DIMS],
        vec![b; DIMS],
        x0,
    )
}

fn params(double: bool) -> BhParams {
    BhParams {
        chains: 24,
        hop_min: 0.01,
        hop_max: 0.2,
        max_search: 300,
        // searches that end at different steps, so hops (and shares) come at any step
        step_stop: 1e-4,
        seed: 7,
        double,
        ..BhParams::default()
    }
}

fn run(steps: u64, share: bool) -> BhRun {
    BhRun {
        launch_steps: 100,
        share,
        stop: Stop::budget(steps),
    }
}

/// The result's value and point (bits), counters and every anchor's value (not the launches,
/// which the clock sizes).
type Outcome = (u64, Vec<u64>, u64, u64, StopReason, Vec<u64>);

fn outcome(bh: &BasinHopping, r: &metaopt::bh::BhResult) -> Outcome {
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    (
        r.value.to_bits(),
        bits(&r.x),
        r.steps,
        r.evaluations,
        r.stop,
        bits(&bh.anchors().unwrap()),
    )
}

fn fresh(name: &str, p: &BhParams, backend: Backend) -> BasinHopping {
    let (obj, lo, hi, x0) = box_of(name);
    let mut bh = BasinHopping::new(&obj, &lo, &hi, p, backend).unwrap();
    bh.start(&x0, None).unwrap();
    bh
}

/// `split` steps, a saved state, and the rest in a new solver: the uninterrupted solve.
fn resumed_equals_uninterrupted(
    name: &str,
    p: &BhParams,
    backend: Backend,
    share: bool,
    split: u64,
) {
    let total = 1500;
    let mut whole = fresh(name, p, backend);
    let w = whole.solve(&run(total, share)).unwrap();
    let expect = outcome(&whole, &w);
    let mut first = fresh(name, p, backend);
    let part = first.solve(&run(split, share)).unwrap();
    assert_eq!(part.steps, split);
    let state = first.save_state(&run(total, share)).unwrap();
    let (obj, lo, hi, _) = box_of(name);
    let mut second = BasinHopping::new(&obj, &lo, &hi, p, backend).unwrap();
    second.load_state(&state, &run(total, share)).unwrap();
    let rest = second.solve(&run(total, share)).unwrap();
    assert_eq!(outcome(&second, &rest), expect, "{name} split at {split}");
    assert!(rest.seconds >= part.seconds);
    // a solve that already ran its steps goes on with a larger budget, as one longer solve
    let more = first.solve(&run(total, share)).unwrap();
    assert_eq!(
        outcome(&first, &more),
        expect,
        "{name} continued from {split}"
    );
}

#[test]
fn a_resumed_cpu_solve_ends_as_the_uninterrupted_one() {
    // Schwefel's function: many basins, so where the chains share their anchor shapes the course
    for split in [100, 550, 1400] {
        resumed_equals_uninterrupted("F7", &params(true), Backend::Cpu, true, split);
    }
    resumed_equals_uninterrupted("F5", &params(true), Backend::Cpu, true, 450);
    resumed_equals_uninterrupted("F1", &params(true), Backend::Cpu, false, 700);
}

#[test]
fn a_resumed_device_solve_ends_as_the_uninterrupted_one() {
    // double and float: bit for bit on the same device
    resumed_equals_uninterrupted("F5", &params(true), Backend::DEVICE, true, 650);
    resumed_equals_uninterrupted("F5", &params(false), Backend::DEVICE, true, 350);
}

#[test]
fn a_device_state_resumes_on_the_cpu() {
    // F1 in double: the device and the twin compute the same values
    let p = params(true);
    let mut whole = fresh("F1", &p, Backend::Cpu);
    let w = whole.solve(&run(1200, true)).unwrap();
    let mut dev = fresh("F1", &p, Backend::DEVICE);
    dev.solve(&run(500, true)).unwrap();
    let (obj, lo, hi, _) = box_of("F1");
    let mut cpu = BasinHopping::new(&obj, &lo, &hi, &p, Backend::Cpu).unwrap();
    cpu.load_state(&dev.save_state(&run(1200, true)).unwrap(), &run(1200, true))
        .unwrap();
    let r = cpu.solve(&run(1200, true)).unwrap();
    assert_eq!(outcome(&cpu, &r), outcome(&whole, &w));
}

#[test]
fn checkpoint_files_are_written_and_resume() {
    let dir = work_dir!();
    let path = dir.join("bh.state");
    let p = params(true);
    let total = 200_000;
    let token = metaopt::interrupt::StopToken::new();
    let mut o = run(total, true);
    o.stop.checkpoint = Some(Checkpointing::new(
        path.clone(),
        Some(Duration::from_nanos(1)),
    ));
    o.stop.token = Some(token.clone());
    let mut a = fresh("F5", &p, Backend::Cpu);
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(40));
        token.request();
    });
    let r = a.solve(&o).unwrap();
    t.join().unwrap();
    assert_eq!(r.stop, StopReason::Interrupted);
    // (the clock sizes the launches: the token may land between two shares)
    assert!(r.steps > 0 && r.steps < total);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes, a.save_state(&o).unwrap());
    // the whole solve to the same step count, and the interrupted one continued to it
    let upto = run(r.steps + 300, true);
    let mut whole = fresh("F5", &p, Backend::Cpu);
    let w = whole.solve(&upto).unwrap();
    let (obj, lo, hi, _) = box_of("F5");
    let mut b = BasinHopping::new(&obj, &lo, &hi, &p, Backend::Cpu).unwrap();
    b.load_state(&bytes, &upto).unwrap();
    let rest = b.solve(&upto).unwrap();
    assert_eq!(outcome(&b, &rest), outcome(&whole, &w));
}

#[test]
fn a_solve_stops_at_its_limits() {
    let p = params(true);
    let mut a = fresh("F5", &p, Backend::Cpu);
    let r = a
        .solve(&BhRun {
            stop: Stop::time_limit(Duration::from_millis(200)),
            ..run(0, true)
        })
        .unwrap();
    assert_eq!(r.stop, StopReason::TimeLimit);
    assert!(r.seconds >= 0.2 && r.seconds < 2.0, "{}", r.seconds);
    let mut b = fresh("F1", &p, Backend::Cpu);
    let start = b.solve(&run(0, true)).unwrap();
    assert_eq!((start.stop, start.steps), (StopReason::Budget, 0));
    // a target alone may never be reached: refused, naming the budget
    let alone = BhRun {
        stop: Stop {
            target: Some(start.value * 0.5),
            ..Stop::default()
        },
        ..run(0, true)
    };
    assert!(arg_error(b.solve(&alone), "steps").contains("target"));
    let r = b
        .solve(&BhRun {
            stop: Stop {
                time_limit: Some(Duration::from_secs(60)),
                ..alone.stop.clone()
            },
            ..run(0, true)
        })
        .unwrap();
    assert_eq!(r.stop, StopReason::Target);
    assert!(r.value <= start.value * 0.5);
    let before = r;
    let token = metaopt::interrupt::StopToken::new();
    token.request();
    let r = b
        .solve(&BhRun {
            stop: Stop {
                token: Some(token),
                ..Stop::default()
            },
            ..run(0, true)
        })
        .unwrap();
    // a token requested before the solve: no launch, the best so far
    assert_eq!(
        (r.stop, r.steps, r.launches, r.value),
        (
            StopReason::Interrupted,
            before.steps,
            before.launches,
            before.value
        )
    );
}

#[test]
fn mismatched_and_damaged_states_are_refused() {
    let p = params(true);
    let (obj, lo, hi, _) = box_of("F5");
    let mut a = BasinHopping::new(&obj, &lo, &hi, &p, Backend::Cpu).unwrap();
    assert!(arg_error(a.save_state(&run(10, true)), "state").contains("no start"));
    assert!(arg_error(a.solve(&run(10, true)), "start").contains("call start"));
    let mut a = fresh("F5", &p, Backend::Cpu);
    a.solve(&run(200, true)).unwrap();
    let state = a.save_state(&run(200, true)).unwrap();
    let mut b = BasinHopping::new(&obj, &lo, &hi, &p, Backend::Cpu).unwrap();
    // the launch size shapes the course (the anchors are shared after every launch)
    let other = BhRun {
        launch_steps: 50,
        ..run(400, true)
    };
    assert!(arg_error(b.load_state(&state, &other), "state")
        .contains("option launch_steps was 100; this run has 50"));
    assert!(arg_error(b.load_state(&state, &run(400, false)), "state").contains("option share"));
    let seed = BhParams {
        seed: 8,
        ..p.clone()
    };
    let mut c = BasinHopping::new(&obj, &lo, &hi, &seed, Backend::Cpu).unwrap();
    assert!(arg_error(c.load_state(&state, &run(400, true)), "state").contains("option seed"));
    // another objective, another box
    let (f1, ..) = box_of("F1");
    let mut d = BasinHopping::new(&f1, &lo, &hi, &p, Backend::Cpu).unwrap();
    assert!(arg_error(d.load_state(&state, &run(400, true)), "state").contains("another problem"));
    let hi2: Vec<f64> = hi.iter().map(|h| h * 0.5).collect();
    let mut e = BasinHopping::new(&obj, &lo, &hi2, &p, Backend::Cpu).unwrap();
    assert!(arg_error(e.load_state(&state, &run(400, true)), "state").contains("another problem"));
    // damaged bytes
    assert!(arg_error(
        b.load_state(&state[..state.len() / 2], &run(400, true)),
        "state"
    )
    .contains("truncated"));
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(arg_error(b.load_state(&flipped, &run(400, true)), "state").contains("checksum"));
    // a stop that differs is no mismatch
    b.load_state(&state, &run(400, true)).unwrap();
    assert_eq!(b.solve(&run(400, true)).unwrap().steps, 400);
}
