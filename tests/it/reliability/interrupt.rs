//! Cancellation: every solver stopped by `metaopt::interrupt` and by its stop token
//! returns within about one launch with its best so far and an interrupted stop reason; a call
//! started after an interrupt runs normally; the C ABI reports `METAOPT_INTERRUPTED` with a filled
//! result, also when `metaopt_interrupt` is called from a signal handler. And the precision
//! default: Auto is double on PoCL (cl_khr_fp64), single stays single.
//!
//! The global interrupt stops every call of the process, so the tests that use it run in a process
//! of their own, and the tests of this file one at a time (`LOCK`).

use crate::common::child::own_process;
use crate::common::*;
use metaopt::de::{
    BoundsCorrection, DeMultiPop, DeParams, Migration, Mutation, StopReason as DeStopReason,
};
use metaopt::device::Backend;
use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
use metaopt::hc12::qap::solve::{solve, QapSolveOptions};
use metaopt::hc12::qap::{CostForm, QapHc12};
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::objective::Objective;
use metaopt::problem::qap::QapProblem;
use metaopt::problem::sat::Cnf;
use metaopt::qap_ts::{QapTs, QapTsOptions};
use metaopt::run::Stop;
use metaopt::{interrupt, Precision, StopReason, StopToken};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

static LOCK: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// How a running call is stopped.
#[derive(Clone, Copy, Debug)]
enum How {
    Global,
    Token,
}

/// Runs `call` in a thread, stops it after 0.3 s (globally, or by `token`), and checks that it
/// returns within 2 s of that; returns its result. Solvers are made before: a call snapshots the
/// interrupt epoch when it starts, so an interrupt during a solver's creation (kernel builds) would
/// not stop the run that follows.
fn stop_after<T: Send + 'static>(
    how: How,
    token: &StopToken,
    call: impl FnOnce() -> T + Send + 'static,
) -> T {
    let t = thread::spawn(call);
    thread::sleep(Duration::from_millis(300));
    assert!(
        !t.is_finished(),
        "the call ended by itself before the interrupt"
    );
    let t0 = Instant::now();
    match how {
        How::Global => interrupt(),
        How::Token => token.request(),
    }
    let r = t.join().unwrap();
    let took = t0.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "{how:?}: returned {took:?} after the stop"
    );
    r
}

fn de_solver(backend: Backend) -> DeMultiPop {
    let p = DeParams::new(8, 32, 10, -100.0, 100.0, BoundsCorrection::Saturation);
    let mut de = DeMultiPop::new(&p, backend).unwrap();
    de.init(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
    )
    .unwrap();
    de
}

#[test]
fn de_stops_on_both_backends_and_keeps_its_best() {
    own_process!();
    let _g = serial();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        for how in [How::Global, How::Token] {
            let token = StopToken::new();
            let stop = Stop {
                budget: Some(u64::MAX / 2),
                token: Some(token.clone()),
                ..Stop::default()
            };
            let mut de = de_solver(backend);
            let (mut de, r) = stop_after(how, &token, move || {
                let r = de.run(&stop).unwrap();
                (de, r)
            });
            assert_eq!(
                r.stopped_by,
                DeStopReason::Interrupted,
                "{backend:?} {how:?}"
            );
            assert!(
                r.value.is_finite()
                    && r.x.len() == 10
                    && r.x.iter().all(|v| (-100.0..=100.0).contains(v))
            );
            // the handle keeps its state: the getters give the best so far
            let (island, value) = de.best_island().unwrap();
            assert_eq!((island, value), (r.island, r.value));
            assert_eq!(de.best(island).unwrap(), r.x);
            let host: f64 = r.x.iter().map(|v| v * v).sum();
            assert!(
                (host - r.value).abs() <= 1e-6 * host.max(1.0),
                "F1 of the best {host} vs {}",
                r.value
            );
            // the same solver (and a later call) runs normally afterwards
            let again = de.run(&Stop::budget(3)).unwrap();
            assert_eq!(again.stopped_by, DeStopReason::Budget);
        }
    }
}

#[test]
fn hc12_general_stops() {
    own_process!();
    let _g = serial();
    for how in [How::Global, How::Token] {
        let token = StopToken::new();
        let opts = RunOptions {
            stop: Stop {
                budget: Some(u64::from(u32::MAX)),
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..RunOptions::default()
        };
        let mut h = Hc12::new(
            Hc12Params::real(8, 16, -5.0, 5.0),
            Objective::catalogue("F1").unwrap(),
            Backend::DEVICE,
        )
        .unwrap();
        h.run(&RunOptions::default()).unwrap(); // builds the kernels before the timed call
        let r = stop_after(how, &token, move || h.run(&opts).unwrap());
        assert_eq!(r.stop, StopReason::Interrupted, "{how:?}");
        assert!(r.value.is_finite() && r.reals.len() == 8);
        let host: f64 = r.reals.iter().map(|v| v * v).sum();
        assert!(
            (host - r.value).abs() <= 1e-3 * host.max(1.0),
            "{host} vs {}",
            r.value
        );
    }
}

fn bur26a() -> Arc<QapProblem> {
    Arc::new(QapProblem::from_instance(&instance("bur26a")))
}

#[test]
fn qap_hc12_solve_stops() {
    own_process!();
    let _g = serial();
    for (backend, how) in [(Backend::DEVICE, How::Global), (Backend::Cpu, How::Token)] {
        let token = StopToken::new();
        let p = bur26a();
        let opts = QapSolveOptions {
            stop: Stop {
                budget: Some(u64::from(u32::MAX)),
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..QapSolveOptions::default()
        };
        let q = p.clone();
        let mut s = QapHc12::new(q, 8, 2, 0, 0, backend, CostForm::Delta).unwrap();
        let r = stop_after(how, &token, move || {
            solve(&mut s, &opts, None, |_| {}).unwrap()
        });
        assert_eq!(r.stop, StopReason::Interrupted, "{backend:?} {how:?}");
        assert_eq!(p.cost(&r.permutation).unwrap(), r.cost);
    }
}

#[test]
fn qap_tabu_search_stops() {
    own_process!();
    let _g = serial();
    for (backend, how) in [(Backend::DEVICE, How::Token), (Backend::Cpu, How::Global)] {
        let token = StopToken::new();
        let p = bur26a();
        let opts = QapTsOptions {
            stop: metaopt::run::Stop {
                budget: Some(u64::MAX / 2),
                token: Some(token.clone()),
                ..metaopt::run::Stop::default()
            },
            launch_iterations: 200,
            ..QapTsOptions::default()
        };
        let q = p.clone();
        let mut ts = QapTs::new(q, backend).unwrap();
        let r = stop_after(how, &token, move || ts.solve(&opts).unwrap());
        assert_eq!(r.stop, StopReason::Interrupted, "{backend:?} {how:?}");
        assert_eq!(p.cost(&r.permutation).unwrap(), r.cost);
    }
}

/// Every clause over three variables: unsatisfiable, so only a stop ends the search.
fn unsat_cnf() -> Cnf {
    let mut text = String::from("p cnf 3 8\n");
    for m in 0..8 {
        for v in 1..=3 {
            text += &format!("{} ", if m >> (v - 1) & 1 == 1 { -v } else { v });
        }
        text += "0\n";
    }
    Cnf::parse(&text, Path::new("unsat3.cnf")).unwrap()
}

#[test]
fn sat_solve_stops() {
    own_process!();
    let _g = serial();
    for how in [How::Global, How::Token] {
        let token = StopToken::new();
        let cnf = unsat_cnf();
        let opts = SatOptions {
            stop: Stop {
                budget: Some(u64::from(u32::MAX)),
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..SatOptions::default()
        };
        let c = cnf.clone();
        let mut s = SatSolver::new(
            c,
            opts.mask_order,
            opts.tabu.as_ref().map_or(0, |t| t.max_length),
            Backend::DEVICE,
        )
        .unwrap();
        let r = stop_after(how, &token, move || s.solve(&opts).unwrap());
        assert_eq!(r.stop, StopReason::Interrupted, "{how:?}");
        assert!(
            !r.satisfiable
                && r.best_unsatisfied == cnf.unsatisfied_count(&r.best)
                && r.best_unsatisfied >= 1
        );
    }
}

#[test]
fn calls_started_after_an_interrupt_run_normally() {
    own_process!();
    let _g = serial();
    interrupt();
    let mut de = de_solver(Backend::Cpu);
    assert_eq!(
        de.run(&Stop::budget(20)).unwrap().stopped_by,
        DeStopReason::Budget
    );
    let p = bur26a();
    let opts = QapSolveOptions {
        stop: Stop {
            budget: Some(3),
            ..Stop::default()
        },
        ..QapSolveOptions::default()
    };
    let mut s = QapHc12::new(p.clone(), 8, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    let r = solve(&mut s, &opts, None, |_| {}).unwrap();
    assert_eq!((r.stop, r.runs), (StopReason::Budget, 3));
    let r = QapTs::new(p, Backend::Cpu)
        .unwrap()
        .solve(&QapTsOptions {
            stop: metaopt::run::Stop::budget(1000),
            ..QapTsOptions::default()
        })
        .unwrap();
    assert_eq!(r.stop, StopReason::Budget);
    // a requested token stops a call at once, and serves again once reset
    let token = StopToken::new();
    token.request();
    let r = de
        .run(&Stop {
            budget: Some(1000),
            token: Some(token.clone()),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(
        (r.stopped_by, r.generations),
        (DeStopReason::Interrupted, 20)
    );
    token.reset();
    let r = de
        .run(&Stop {
            budget: Some(5),
            token: Some(token),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(r.stopped_by, DeStopReason::Budget);
}

#[test]
fn precision_auto_is_double_on_pocl_and_single_stays_single() {
    let _g = serial();
    let fp64 = metaopt::device::list_devices().unwrap()
        [metaopt::device::get_device_number().unwrap()]
    .fp64;
    let mut p = DeParams::new(2, 8, 3, -5.0, 5.0, BoundsCorrection::Saturation);
    let de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    assert_eq!(
        de.config().options.precision,
        if fp64 {
            Precision::Double
        } else {
            Precision::Single
        }
    );
    assert_eq!(de.config().options.double, fp64);
    assert_eq!(
        DeMultiPop::new(&p, Backend::Cpu)
            .unwrap()
            .config()
            .options
            .precision,
        Precision::Double
    );
    p.options.precision = Precision::Single;
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    assert_eq!(de.config().options.precision, Precision::Single);
    de.init(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
    )
    .unwrap();
    assert_eq!(
        de.run(&Stop::budget(2)).unwrap().precision,
        Precision::Single
    );
    p.options.precision = Precision::Auto;
    p.options.double = true;
    assert_eq!(
        DeMultiPop::new(&p, Backend::DEVICE)
            .map(|d| d.config().options.precision)
            .ok(),
        fp64.then_some(Precision::Double)
    );

    let f1 = || Objective::catalogue("F1").unwrap();
    let h = Hc12::new(Hc12Params::real(4, 12, -5.0, 5.0), f1(), Backend::DEVICE).unwrap();
    assert_eq!(
        (h.params().precision, h.params().double),
        (
            if fp64 {
                Precision::Double
            } else {
                Precision::Single
            },
            fp64
        )
    );
    let mut h = Hc12::new(
        Hc12Params {
            precision: Precision::Single,
            ..Hc12Params::real(4, 12, -5.0, 5.0)
        },
        f1(),
        Backend::DEVICE,
    )
    .unwrap();
    assert_eq!(
        (h.params().precision, h.params().double),
        (Precision::Single, false)
    );
    assert_eq!(
        h.run(&RunOptions::default()).unwrap().precision,
        Precision::Single
    );
}
