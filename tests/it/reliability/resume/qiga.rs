//! QIGA: every population's Q-bit angles, best string, value and generations, the finished
//! populations' outcomes; and the warm start from given best strings.

use crate::common::child::several_devices;
use crate::common::*;
use metaopt::device::Backend;
use metaopt::problem::knapsack::Knapsack;
use metaopt::qiga::*;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::StopReason;
use std::time::Duration;

fn knapsack() -> Knapsack {
    Knapsack::from_file(&data_dir().join("knapsack/knapsack-250.txt")).unwrap()
}

fn options(backend: Backend) -> QigaOptions {
    QigaOptions {
        populations: 96,
        stop: Stop::budget(300),
        seed: 7,
        backend,
        // several chunks, each run over several launches
        launch_populations: Some(16),
        ..Default::default()
    }
}

fn same(a: &QigaRunResult, b: &QigaRunResult, what: &str) {
    assert_eq!(a.population, b.population, "{what}");
    assert_eq!(a.best_value_int, b.best_value_int, "{what}");
    assert_eq!(a.best_generation, b.best_generation, "{what}");
    assert_eq!(a.generations_run, b.generations_run, "{what}");
    assert!(a.best_bits == b.best_bits, "{what}: best strings differ");
    assert_eq!(a.stop_reason, b.stop_reason, "{what}");
}

/// Cut by time limits `cuts` (seconds of the whole run) on `backends` in turn, each part saved
/// and loaded into a new solver, then finished on the last backend: the uninterrupted result.
/// Returns whether a part was cut inside a chunk (the case the test is for).
fn resumed_equals_uninterrupted(k: &Knapsack, cuts: &[f64], backends: &[Backend]) -> bool {
    let whole = Qiga::new(k, options(backends[0])).unwrap().run().unwrap();
    let mut state: Option<Vec<u8>> = None;
    let mut cut_somewhere = false;
    let mut mid_chunk = false;
    for (i, &b) in backends.iter().enumerate() {
        let last = i == backends.len() - 1;
        let o = QigaOptions {
            stop: Stop {
                time_limit: (!last).then(|| Duration::from_secs_f64(cuts[i])),
                ..options(b).stop.clone()
            },
            ..options(b)
        };
        let mut q = Qiga::new(k, o).unwrap();
        if let Some(s) = state.take() {
            q.load_state(s).unwrap();
        }
        let r = q.run().unwrap();
        if last {
            same(&r, &whole, &format!("{backends:?} cut at {cuts:?}"));
        } else if r.stop_reason == StopReason::TimeLimit {
            cut_somewhere = true;
            // populations cut between two launches of their chunk (their angles in the state)
            mid_chunk |= r.generations_run.iter().any(|&g| g < 300);
        }
        state = Some(q.save_state().unwrap());
    }
    cut_somewhere && mid_chunk
}

/// [`resumed_equals_uninterrupted`] with each of `cuts` in turn (each must resume to the
/// uninterrupted result) until one cuts a part inside a chunk: the clock decides where a cut
/// falls, and a loaded machine may put one between chunks.
fn resumed_inside_a_chunk(k: &Knapsack, cuts: &[f64], backends: &[Backend]) {
    assert!(
        cuts.iter().any(|&c| resumed_equals_uninterrupted(
            k,
            &vec![c; backends.len() - 1],
            backends
        )),
        "no part was cut inside a chunk at {cuts:?} s: give the run more work"
    );
}

#[test]
fn resumed_cpu_runs_end_as_the_uninterrupted_one() {
    let k = knapsack();
    resumed_inside_a_chunk(&k, &[0.15, 0.08, 0.3], &[Backend::Cpu, Backend::Cpu]);
    let three = [Backend::Cpu, Backend::Cpu, Backend::Cpu];
    assert!(
        resumed_equals_uninterrupted(&k, &[0.1, 0.3], &three)
            || resumed_equals_uninterrupted(&k, &[0.05, 0.2], &three),
        "no part of three was cut inside a chunk: give the run more work"
    );
}

#[test]
fn resumed_device_runs_end_as_the_uninterrupted_one() {
    let k = knapsack();
    // the kernel's build counts against the first part's limit: build it before
    Qiga::new(
        &k,
        QigaOptions {
            populations: 1,
            stop: Stop {
                budget: Some(1),
                ..options(Backend::DEVICE).stop.clone()
            },
            ..options(Backend::DEVICE)
        },
    )
    .unwrap()
    .run()
    .unwrap();
    resumed_inside_a_chunk(&k, &[0.4, 0.25, 0.6], &[Backend::DEVICE, Backend::DEVICE]);
    // device and CPU run the same populations: a state moves between them
    resumed_inside_a_chunk(&k, &[0.4, 0.25, 0.6], &[Backend::DEVICE, Backend::Cpu]);
    resumed_inside_a_chunk(&k, &[0.15, 0.08, 0.3], &[Backend::Cpu, Backend::DEVICE]);
}

#[test]
fn a_checkpoint_file_of_a_stopped_run_resumes() {
    let dir = work_dir!();
    let path = dir.join("qiga.state");
    let k = knapsack();
    let whole = Qiga::new(&k, options(Backend::Cpu)).unwrap().run().unwrap();
    let token = metaopt::interrupt::StopToken::new();
    let stop_at = token.clone();
    let o = QigaOptions {
        stop: Stop {
            checkpoint: Some(Checkpointing::new(
                path.clone(),
                Some(Duration::from_nanos(1)),
            )),
            token: Some(token),
            ..options(Backend::Cpu).stop.clone()
        },
        ..options(Backend::Cpu)
    };
    // stopped by its token after the third chunk
    let r = Qiga::new(&k, o)
        .unwrap()
        .run_with_progress(|done, _| {
            if done == 48 {
                stop_at.request();
            }
            true
        })
        .unwrap();
    assert_eq!(r.stop_reason, StopReason::Interrupted);
    assert!(r.population.len() >= 48 && r.population.len() < 96);
    let mut q = Qiga::new(&k, options(Backend::Cpu)).unwrap();
    q.load_state(std::fs::read(&path).unwrap()).unwrap();
    same(&q.run().unwrap(), &whole, "from the file");
    // a finished run's state gives its result again
    let mut again = Qiga::new(&k, options(Backend::Cpu)).unwrap();
    again.load_state(q.save_state().unwrap()).unwrap();
    same(&again.run().unwrap(), &whole, "from a finished run");
}

#[test]
fn mismatched_and_damaged_qiga_states_are_refused() {
    let k = knapsack();
    let mut q = Qiga::new(&k, options(Backend::Cpu)).unwrap();
    assert!(arg_error(q.save_state(), "state").contains("nothing to save"));
    q.run().unwrap();
    let state = q.save_state().unwrap();
    for (o, needle) in [
        (
            QigaOptions {
                seed: 8,
                ..options(Backend::Cpu)
            },
            "option seed was 7; this run has 8",
        ),
        (
            QigaOptions {
                stop: Stop {
                    budget: Some(301),
                    ..options(Backend::Cpu).stop.clone()
                },
                ..options(Backend::Cpu)
            },
            "option generations was 300; this run has 301",
        ),
        (
            QigaOptions {
                repair: Repair::Greedy,
                ..options(Backend::Cpu)
            },
            "option repair was Index",
        ),
    ] {
        let mut t = Qiga::new(&k, o).unwrap();
        assert!(arg_error(t.load_state(state.clone()), "state").contains(needle));
    }
    // the time limit and the launch sizes are not part of it
    let mut t = Qiga::new(
        &k,
        QigaOptions {
            stop: Stop {
                time_limit: Some(Duration::from_secs(100)),
                ..options(Backend::Cpu).stop.clone()
            },
            launch_populations: Some(5),
            ..options(Backend::Cpu)
        },
    )
    .unwrap();
    t.load_state(state.clone()).unwrap();
    let other = Knapsack::from_file(&data_dir().join("knapsack/knapsack-100.txt")).unwrap();
    let mut u = Qiga::new(&other, options(Backend::Cpu)).unwrap();
    assert!(arg_error(u.load_state(state.clone()), "state").contains("another problem"));
    assert!(
        arg_error(t.load_state(state[..state.len() / 2].to_vec()), "state").contains("truncated")
    );
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(arg_error(t.load_state(flipped), "state").contains("checksum"));
}

#[test]
fn populations_start_from_given_best_strings() {
    let k = knapsack();
    let opt = k.optimum().unwrap();
    let m = k.n();
    // the optimum as the start and the target: every population ends at generation 0 with it
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let r = Qiga::new(
            &k,
            QigaOptions {
                start: vec![opt.bits.clone()],
                stop: Stop {
                    target: Some(opt.value),
                    ..options(backend).stop.clone()
                },
                ..options(backend)
            },
        )
        .unwrap()
        .run()
        .unwrap();
        assert_eq!(r.stop_reason, StopReason::Target, "{backend:?}");
        assert!(r.generations_run.iter().all(|&g| g == 0));
        assert!(r.best_generation.iter().all(|&g| g == 0));
        for i in 0..r.population.len() {
            assert_eq!(r.bits(i), &opt.bits[..]);
        }
    }
    // a poor start (the first items that fit) and an empty one: each population's best is at
    // least its start's, and the device runs as the CPU
    let mut greedy = vec![0u8; m];
    let (mut w, cap) = (0u64, k.int_capacity());
    for (i, &wi) in k.int_weights().iter().enumerate() {
        if w + wi <= cap {
            greedy[i] = 1;
            w += wi;
        }
    }
    let floor = k.value_and_weight(&greedy).0;
    let starts = vec![greedy, vec![0u8; m]];
    let o = |b| QigaOptions {
        start: starts.clone(),
        stop: Stop {
            budget: Some(40),
            ..options(b).stop.clone()
        },
        ..options(b)
    };
    let cpu = Qiga::new(&k, o(Backend::Cpu)).unwrap().run().unwrap();
    let dev = Qiga::new(&k, o(Backend::DEVICE)).unwrap().run().unwrap();
    same(&cpu, &dev, "warm start, device and CPU");
    for i in (0..96).step_by(2) {
        assert!(cpu.best_value_int[i] >= floor, "population {i}");
    }
    let cold = Qiga::new(
        &k,
        QigaOptions {
            stop: Stop {
                budget: Some(40),
                ..options(Backend::Cpu).stop.clone()
            },
            ..options(Backend::Cpu)
        },
    )
    .unwrap()
    .run()
    .unwrap();
    assert_ne!(cold.best_value_int, cpu.best_value_int);
    // strings of another length, with other values, or over the capacity are refused
    for (bad, needle) in [
        (
            vec![vec![0u8; m - 1]],
            "string 0 has 249 items; the knapsack has 250",
        ),
        (
            vec![vec![0u8; m], vec![2u8; m]],
            "string 1 holds a value other than 0 or 1",
        ),
        (vec![vec![1u8; m]], "string 0 weighs"),
    ] {
        let e = Qiga::new(
            &k,
            QigaOptions {
                start: bad,
                ..options(Backend::Cpu)
            },
        );
        assert!(arg_error(e, "start").contains(needle), "{needle}");
    }
}

#[test]
fn a_run_over_several_devices_resumes_on_any_split() {
    several_devices!();
    let k = knapsack();
    let o = |backend, devices: Vec<usize>| QigaOptions {
        populations: 60,
        stop: Stop {
            budget: Some(200),
            ..options(backend).stop.clone()
        },
        launch_populations: Some(4),
        devices,
        ..options(backend)
    };
    let whole = Qiga::new(&k, o(Backend::Cpu, Vec::new()))
        .unwrap()
        .run()
        .unwrap();
    let n = metaopt::device::list_devices().unwrap().len().min(3);
    let token = metaopt::interrupt::StopToken::new();
    let stop_at = token.clone();
    // stopped once a few chunks are back: the other devices' chunks are cut between launches
    let mut q = Qiga::new(
        &k,
        QigaOptions {
            stop: Stop {
                token: Some(token),
                ..o(Backend::DEVICE, (0..n).collect()).stop.clone()
            },
            ..o(Backend::DEVICE, (0..n).collect())
        },
    )
    .unwrap();
    let part = q
        .run_with_progress(|done, _| {
            if done >= 8 {
                stop_at.request();
            }
            true
        })
        .unwrap();
    assert_eq!(part.stop_reason, StopReason::Interrupted);
    let state = q.save_state().unwrap();
    for (backend, devices) in [(Backend::DEVICE, Vec::new()), (Backend::Cpu, Vec::new())] {
        let mut r = Qiga::new(&k, o(backend, devices)).unwrap();
        r.load_state(state.clone()).unwrap();
        same(
            &r.run().unwrap(),
            &whole,
            &format!("{n} devices, then {backend:?}"),
        );
    }
}
