//! Batched DE with constraints and integer variables: CEC 2006 problems (G06, G08, G11) and a
//! linearly constrained source beside an unconstrained sphere reach their optima feasibly on the
//! device (both placements) and the CPU backend; in double the device makes the CPU backend's
//! run value for value; integer variables give integral optima; a constrained batch resumes as
//! the uninterrupted run; bad input is an error naming the argument.

use crate::common::arg_error;

use metaopt::de::{
    Algorithm, Backend, BatchConstraints, BatchDe, BatchFunction, BatchOptions, BatchProblem,
    BatchResult, BoundsCorrection, ConstraintHandling, Mutation, Placement,
};
use metaopt::run::Stop;
use metaopt::{Precision, StopReason};

/// min x0^2 + x1^2 + x2^2 subject to x0 + x1 + x2 >= 3 and x0 - x1 = 0.5 (tolerance 1e-6):
/// x = (1.25, 0.75, 1), f = 3.125.
const LINEAR: &str = "
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP a = x[0], b = x[stride], c = x[2 * stride];
    return a * a + b * b + c * c;
}
void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *g)
{
    g[0] = (FP)3 - x[0] - x[stride] - x[2 * stride];
    g[1] = x[0] - x[stride] - (FP)0.5;
}
";

/// sum (x_j - 2.4)^2: over the integers its minimum is at x_j = 2, dims * 0.16.
const SHIFTED: &str = "
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = (FP)0;
    for (uint j = 0; j < dims; ++j) {
        FP d = x[j * stride] - (FP)2.4;
        s += d * d;
    }
    return s;
}
";

fn opts(k: u32, placement: Placement) -> BatchOptions {
    BatchOptions {
        precision: Precision::Double,
        generations_per_launch: k,
        placement,
    }
}

fn linear() -> BatchProblem {
    let mut p = BatchProblem::new(BatchFunction::source(LINEAR, Vec::new()), 3, -5.0, 5.0);
    let mut c = BatchConstraints::new(1, 1);
    c.eq_tol = 1e-6;
    p.constraints = Some(c);
    p
}

/// An unconstrained sphere, G06, G08, G11 and the linear problem, each with its known optimum
/// and the tolerance (relative) it is reached within.
fn mixed() -> Vec<(BatchProblem, f64, f64)> {
    let mut sphere = BatchProblem::new("F1", 4, -5.12, 5.12);
    sphere.max_generations = 600;
    sphere.seed = 5;
    let mut v = vec![(sphere, 0.0, 1e-8)];
    for (name, best, gens, members, seed) in [
        ("G06", -6961.81387558015, 2000, 40, 11),
        ("G08", -0.0958250414180359, 400, 40, 12),
        ("G11", 0.7499, 3000, 60, 13),
    ] {
        let mut p = BatchProblem::cec2006(name).unwrap();
        p.max_generations = gens;
        p.members = members;
        p.seed = seed;
        p.f = 0.7;
        p.cr = 0.9;
        // G11's equality band passes through the corner (-1, 1), where saturation puts many
        // trials: Deb's rules then hold the population there (f = 1); reflection does not
        if name == "G11" {
            p.bounds = BoundsCorrection::Mirror;
        }
        v.push((p, best, 1e-4));
    }
    let mut l = linear();
    l.max_generations = 2000;
    l.members = 40;
    l.seed = 14;
    v.push((l, 3.125, 1e-4));
    v
}

/// The results agree: generations, stops exactly, values, points and violations within 1e-9
/// (relative; the CPU backend evaluates a source in a program of its own, where the compiler
/// may contract its arithmetic otherwise, so the runs may differ in the last bits).
fn assert_close(a: &[BatchResult], b: &[BatchResult], what: &str) {
    let close = |u: f64, v: f64| u == v || (u - v).abs() <= 1e-9 * u.abs().max(1.0);
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let same = x.generations == y.generations
            && x.stop == y.stop
            && close(x.best_value, y.best_value)
            && close(x.violation, y.violation)
            && x.best.len() == y.best.len()
            && x.best.iter().zip(&y.best).all(|(u, v)| close(*u, *v));
        assert!(same, "{what} problem {i}: {x:?} vs {y:?}");
    }
}

fn run(problems: Vec<BatchProblem>, backend: Backend, o: BatchOptions) -> Vec<BatchResult> {
    BatchDe::new(problems, backend, o)
        .unwrap()
        .run(&Stop::default())
        .unwrap()
}

#[test]
fn batched_constrained_problems_reach_their_optima() {
    let probs = mixed();
    let given: Vec<BatchProblem> = probs.iter().map(|p| p.0.clone()).collect();
    let cpu = run(given.clone(), Backend::Cpu, opts(50, Placement::Auto));
    for (backend, placement, results) in [
        (Backend::Cpu, Placement::Auto, cpu.clone()),
        (
            Backend::DEVICE,
            Placement::Local,
            run(given.clone(), Backend::DEVICE, opts(50, Placement::Local)),
        ),
        (
            Backend::DEVICE,
            Placement::Global,
            run(given.clone(), Backend::DEVICE, opts(50, Placement::Global)),
        ),
    ] {
        for (i, ((p, best, tol), r)) in probs.iter().zip(&results).enumerate() {
            assert_eq!(r.stop, Some(StopReason::Budget), "problem {i}");
            assert_eq!(
                r.violation, 0.0,
                "problem {i} {backend:?} {placement:?}: {r:?}"
            );
            assert!(
                (r.best_value - best).abs() <= tol * best.abs().max(1.0),
                "problem {i} {backend:?} {placement:?}: {} for {best} at {:?}",
                r.best_value,
                r.best
            );
            if let BatchFunction::Source { code, .. } = &p.function {
                if code.contains("CEC06_ID") {
                    // the host's CEC 2006 twin finds the point feasible with that value
                    let name = ["G06", "G08", "G11"][i - 1];
                    let info = metaopt::problem::cec2006::info(name).unwrap();
                    let (f, c) = metaopt::problem::cec2006::eval(name, &r.best).unwrap();
                    assert_eq!(metaopt::problem::cec2006::violation(&info, &c), 0.0);
                    assert!((f - r.best_value).abs() <= 1e-9 * f.abs().max(1.0));
                }
            }
        }
        let l = &results[4].best;
        assert!((l[0] - l[1] - 0.5).abs() <= 1e-6 && l.iter().sum::<f64>() >= 3.0 - 1e-12);
    }
}

/// In double the device (both placements) makes the CPU backend's run of OpenCL sources (both
/// evaluate the sources and their constraints on the OpenCL device), to the last bits.
#[test]
fn batched_constrained_device_equals_cpu() {
    let mut given: Vec<BatchProblem> = mixed().into_iter().skip(1).map(|p| p.0).collect();
    for (i, p) in given.iter_mut().enumerate() {
        p.max_generations = 150 + 7 * i as u64;
        p.mutation = Mutation::ALL[i % 6];
        // a target some reach: the feasible value only counts
        if i == 1 {
            p.target = Some(-0.09);
        }
    }
    let cpu = run(given.clone(), Backend::Cpu, opts(9, Placement::Auto));
    for placement in [Placement::Local, Placement::Global] {
        let de = BatchDe::new(given.clone(), Backend::DEVICE, opts(9, placement)).unwrap();
        assert_eq!(de.uses_local_memory(), Some(placement == Placement::Local));
        assert_eq!(de.trials_in_local_memory(), Some(false));
        let mut de = de;
        let dev = de.run(&Stop::default()).unwrap();
        assert_close(&dev, &cpu, &format!("{placement:?}"));
    }
    assert_eq!(cpu[1].stop, Some(StopReason::Target));
    assert!(cpu[1].best_value <= -0.09 && cpu[1].violation == 0.0);
}

/// Early generations, where members are infeasible: the device's best and violation are the CPU
/// backend's (Deb's rules pick the least violation while none is feasible).
#[test]
fn batched_infeasible_best_is_the_least_violation() {
    let mut p = BatchProblem::cec2006("G11").unwrap();
    p.members = 8;
    p.max_generations = 0;
    let mut l = linear();
    l.members = 5;
    l.max_generations = 1;
    l.lower = vec![-100.0];
    l.upper = vec![-90.0];
    let given = vec![p, l];
    let cpu = run(given.clone(), Backend::Cpu, opts(1, Placement::Auto));
    // no point of [-100, -90]^3 meets x0 + x1 + x2 >= 3
    assert!(cpu[1].violation > 250.0, "{:?}", cpu[1]);
    for placement in [Placement::Local, Placement::Global] {
        let dev = run(given.clone(), Backend::DEVICE, opts(1, placement));
        assert_close(&dev, &cpu, &format!("{placement:?}"));
    }
}

#[test]
fn integer_batch_problems_return_integral_optima() {
    let mut given = Vec::new();
    for (i, alg) in [Algorithm::De, Algorithm::Jade, Algorithm::Jde100]
        .into_iter()
        .enumerate()
    {
        let mut p = BatchProblem::new(BatchFunction::source(SHIFTED, Vec::new()), 5, -5.3, 5.7);
        p.integrality = vec![true; 5];
        p.algorithm = alg;
        p.members = 30;
        p.jde_small = 8;
        p.max_generations = 150;
        p.seed = 40 + i as u64;
        given.push(p);
    }
    // one integer dimension among continuous ones, with a catalogue function
    let mut mixed_dims = BatchProblem::new("F1", 3, -2.6, 2.6);
    mixed_dims.integrality = vec![false, true, false];
    mixed_dims.max_generations = 300;
    given.push(mixed_dims);
    // and constrained: min sum (x - 2.4)^2 with x0 + x1 + x2 >= 3 stays at (2, 2, 2)
    let mut cons = linear();
    cons.integrality = vec![true; 3];
    cons.constraints = Some(BatchConstraints::new(1, 0));
    cons.max_generations = 200;
    given.push(cons);
    let cpu = run(given.clone(), Backend::Cpu, opts(20, Placement::Auto));
    for (backend, results) in [
        (Backend::Cpu, cpu.clone()),
        (
            Backend::DEVICE,
            run(given.clone(), Backend::DEVICE, opts(20, Placement::Local)),
        ),
        (
            Backend::DEVICE,
            run(given.clone(), Backend::DEVICE, opts(20, Placement::Global)),
        ),
    ] {
        for r in &results[..3] {
            assert_eq!(r.best, vec![2.0; 5], "{backend:?}: {r:?}");
            assert!(
                (r.best_value - 5.0 * 0.16).abs() < 1e-12,
                "{backend:?}: {r:?}"
            );
        }
        let m = &results[3];
        assert_eq!(m.best[1], 0.0, "{backend:?}: {m:?}");
        assert!(m.best_value < 1e-8, "{backend:?}: {m:?}");
        // (the linear source's objective: the nearest feasible integer points)
        let c = &results[4];
        assert_eq!(c.violation, 0.0);
        assert!(c.best.iter().all(|v| v.fract() == 0.0), "{c:?}");
        assert_eq!(c.best_value, 3.0, "{backend:?}: {c:?}");
    }
    // sources: the device makes the CPU backend's run
    let dev = run(given.clone(), Backend::DEVICE, opts(20, Placement::Global));
    assert_close(&dev[..3], &cpu[..3], "integer");
    assert_close(&dev[4..], &cpu[4..], "integer, constrained");
}

/// A run stopped after two launches, saved and loaded into a new batch, ends as the
/// uninterrupted run (the violations are in the state), on both backends and placements.
#[test]
fn constrained_batch_resumes_as_the_uninterrupted_run() {
    let mut given: Vec<BatchProblem> = mixed().into_iter().map(|p| p.0).collect();
    for p in &mut given {
        p.max_generations = 60;
    }
    given[3].integrality = vec![false, true];
    given[3].lower = vec![-1.0, -1.2];
    for (backend, placement) in [
        (Backend::Cpu, Placement::Auto),
        (Backend::DEVICE, Placement::Local),
        (Backend::DEVICE, Placement::Global),
    ] {
        let whole = run(given.clone(), backend, opts(7, placement));
        let mut first = BatchDe::new(given.clone(), backend, opts(7, placement)).unwrap();
        let mut calls = 0;
        let part = first
            .run_observed(&Stop::default(), |_| {
                calls += 1;
                calls <= 2
            })
            .unwrap();
        assert!(part.iter().all(|r| r.generations < 60), "{part:?}");
        let mut second = BatchDe::new(given.clone(), backend, opts(7, placement)).unwrap();
        second.load_state(&first.save_state().unwrap()).unwrap();
        let rest = second.run(&Stop::default()).unwrap();
        assert_eq!(rest, whole, "{backend:?} {placement:?}");
    }
}

#[test]
fn bad_constraints_and_integrality_are_named_errors() {
    let new = |p: BatchProblem| BatchDe::new(vec![p], Backend::Cpu, BatchOptions::default());
    let ok = || linear();
    // integrality: one flag per dimension or none
    let msg = arg_error(
        new(BatchProblem {
            integrality: vec![true; 2],
            ..ok()
        }),
        "integrality",
    );
    assert!(msg.contains("2 flags"), "{msg}");
    // an integer dimension whose limits hold no integer
    let msg = arg_error(
        new(BatchProblem {
            integrality: vec![false, true, false],
            lower: vec![-5.0, 0.2, -5.0],
            upper: vec![5.0, 0.8, 5.0],
            ..ok()
        }),
        "integrality",
    );
    assert!(msg.contains("dimension 1"), "{msg}");
    // counts: at least one, at most MAX_CONSTRAINTS
    for (g, h) in [(0, 0), (200, 57), (u32::MAX, 1)] {
        let msg = arg_error(
            new(BatchProblem {
                constraints: Some(BatchConstraints::new(g, h)),
                ..ok()
            }),
            "constraints",
        );
        assert!(msg.contains("problem 0"), "{msg}");
    }
    // a catalogue function has none
    let mut cat = BatchProblem::new("F1", 3, -1.0, 1.0);
    cat.constraints = Some(BatchConstraints::new(1, 0));
    let msg = arg_error(new(cat), "constraints");
    assert!(msg.contains("F1"), "{msg}");
    // the tolerance
    for tol in [f64::NAN, -1e-3, f64::INFINITY] {
        let mut c = BatchConstraints::new(1, 1);
        c.eq_tol = tol;
        arg_error(
            new(BatchProblem {
                constraints: Some(c),
                ..ok()
            }),
            "eq_tol",
        );
    }
    // the epsilon level and the other algorithms are refused
    let mut c = BatchConstraints::new(1, 1);
    c.handling = ConstraintHandling::EPSILON_DEFAULT;
    let msg = arg_error(
        new(BatchProblem {
            constraints: Some(c),
            ..ok()
        }),
        "constraints",
    );
    assert!(msg.contains("epsilon"), "{msg}");
    for alg in [Algorithm::Jade, Algorithm::Jde100] {
        let msg = arg_error(
            new(BatchProblem {
                algorithm: alg,
                members: 40,
                jde_small: 10,
                ..ok()
            }),
            "constraints",
        );
        assert!(msg.contains(&alg.to_string()), "{msg}");
    }
    // a source whose `constraints` is missing does not build: an error, not a panic
    let mut none = BatchProblem::new(BatchFunction::source(SHIFTED, Vec::new()), 3, -1.0, 1.0);
    none.constraints = Some(BatchConstraints::new(1, 0));
    assert!(new(none.clone()).is_err());
    assert!(BatchDe::new(vec![none], Backend::DEVICE, BatchOptions::default()).is_err());
}
