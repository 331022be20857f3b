//! Constrained island DE (`metaopt::de::constraints`): CEC 2006 problems with known optima
//! (G06, G08, G11) and a linearly constrained source, on the device and the CPU backend; the
//! CPU backend follows the device run in double; a host callback's violations; Deb's rules and
//! the epsilon level; refusals.

use metaopt::de::constraints::{self, Constraints, Handling, Repair};
use metaopt::de::{
    Backend, BoundsCorrection, DeMultiPop, DeParams, Migration, MigrationKind, Mutation,
};
use metaopt::objective::Objective;
use metaopt::run::Stop;

/// A solver of `np` islands of `nm` members over `bounds`, in double, fixed DE with the given
/// seeds, CR 0.9 and F in [0.5, 0.9].
fn constrained_solver(
    bounds: &[(f64, f64)],
    np: u32,
    nm: u32,
    backend: Backend,
    seed: u64,
) -> DeMultiPop {
    let nn = bounds.len() as u32;
    let mut p = DeParams::new(np, nm, nn, 0.0, 1.0, BoundsCorrection::Saturation);
    p.limits = bounds.to_vec();
    p.options.double = true;
    p.options.cr = vec![0.9];
    p.options.f_min = 0.5;
    p.options.f_max = 0.9;
    p.options.init_seed = seed;
    p.options.mutation_seed = seed + 1;
    p.options.crossover_seed = seed + 2;
    p.options.migration_seed = seed + 3;
    DeMultiPop::new(&p, backend).unwrap()
}

fn run_cec(
    name: &str,
    backend: Backend,
    generations: u64,
    handling: Handling,
) -> (f64, f64, Vec<f64>) {
    let (obj, bounds, mut c) = constraints::cec2006(name).unwrap();
    c.handling = handling;
    let mut de = constrained_solver(&bounds, 4, 40, backend, 11);
    de.set_constraints(Some(c)).unwrap();
    de.init(
        &obj,
        Mutation::Rand1,
        Migration::new(MigrationKind::PermuteN, 20),
    )
    .unwrap();
    let r = de.run(&Stop::budget(generations)).unwrap();
    (r.value, r.violation, r.x)
}

/// `gens` generations of the device run `runs[0]` and the CPU run `runs[1]`: every value and
/// violation agree within 1e-9 (relative) before each one.
fn follow(runs: &mut [DeMultiPop], gens: u32, what: &str) {
    let close = |u: f64, v: f64, s: f64| u == v || (u - v).abs() <= 1e-9 * u.abs().max(s);
    for g in 0..gens {
        let (a, b) = (runs[0].fitness().unwrap(), runs[1].fitness().unwrap());
        let (va, vb) = (
            runs[0].violations().unwrap().unwrap(),
            runs[1].violations().unwrap().unwrap(),
        );
        for i in 0..a.len() {
            assert!(
                close(a[i], b[i], 1.0) && close(va[i], vb[i], 1e-9),
                "{what} gen {g} value {i}: device ({}, {}), cpu ({}, {})",
                a[i],
                va[i],
                b[i],
                vb[i]
            );
        }
        runs[0].iteration().unwrap();
        runs[1].iteration().unwrap();
    }
}

/// G06 (two variables, two nonlinear inequalities, optimum -6961.81387558015 on the boundary of
/// both), G08 (maximisation, negated: -0.0958250414180359) and G11 (one equality: 0.7499) reach
/// their best-known values feasibly on the device and the CPU backend: G06 under Deb's rules,
/// G11 under the epsilon level, G08 under both.
#[test]
fn cec2006_problems_reach_their_optima() {
    for backend in [Backend::DEVICE, Backend::Cpu] {
        for (name, best, gens, tol) in [
            ("G06", -6961.81387558015, 1500, 1e-4),
            ("G08", -0.0958250414180359, 300, 1e-9),
            ("G11", 0.7499, 1500, 1e-4),
        ] {
            // The epsilon level without epsilon-DE's gradient-based repair lets G06's population
            // gather at the unconstrained optimum, a corner far from the small feasible region,
            // before the level reaches 0; Deb's rules keep G11's population where it first
            // met the thin band of its equality (at (-1, 1), f = 1). Each takes the rule that
            // solves it; G08 both.
            let eps = Handling::Epsilon {
                theta: 0.2,
                tc: 200,
                cp: 5.0,
            };
            let handlings = match name {
                "G06" => vec![Handling::Deb],
                "G11" => vec![eps],
                _ => vec![Handling::Deb, eps],
            };
            for handling in handlings {
                let (f, v, x) = run_cec(name, backend, gens, handling);
                let info = metaopt::problem::cec2006::info(name).unwrap();
                let (f_host, c) = metaopt::problem::cec2006::eval(name, &x).unwrap();
                let v_host = metaopt::problem::cec2006::violation(&info, &c);
                assert_eq!(
                    v, 0.0,
                    "{name} {backend:?} {handling:?}: violation {v} at {x:?}"
                );
                assert!(v_host == 0.0, "{name}: the host finds {v_host} at {x:?}");
                assert!(
                    (f - f_host).abs() <= 1e-9 * f.abs().max(1.0),
                    "{name}: {f} vs {f_host}"
                );
                assert!(
                    (f - best).abs() <= tol * best.abs().max(1.0),
                    "{name} {backend:?} {handling:?}: {f}, best known {best}"
                );
            }
        }
    }
}

/// min x0^2 + x1^2 + x2^2 subject to x0 + x1 + x2 >= 3 (as g = 3 - x0 - x1 - x2 <= 0) and
/// x0 - x1 = 0.5 (an equality, tolerance 1e-6): the optimum is (1.5, 1, 0.5)... projected:
/// minimise with x0 = x1 + 0.5 and x0 + x1 + x2 = 3 gives x1 = 0.75, x0 = 1.25, x2 = 1, f = 3.125.
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

#[test]
fn a_linearly_constrained_source_reaches_its_optimum() {
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = constrained_solver(&[(-5.0, 5.0); 3], 4, 30, backend, 3);
        let mut c = Constraints::compiled(1, 1);
        c.eq_tol = 1e-6;
        de.set_constraints(Some(c)).unwrap();
        de.init(
            &Objective::source(LINEAR, Vec::new()),
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 20),
        )
        .unwrap();
        let r = de.run(&Stop::budget(2000)).unwrap();
        assert_eq!(r.violation, 0.0, "{backend:?}: {r:?}");
        assert!(
            (r.value - 3.125).abs() < 1e-5,
            "{backend:?}: {} at {:?}",
            r.value,
            r.x
        );
        assert!((r.x[0] - r.x[1] - 0.5).abs() <= 1e-6 && r.x.iter().sum::<f64>() >= 3.0 - 1e-12);
    }
}

/// In double the CPU backend makes the device's run: every value and violation of 60
/// generations of G06 (migration included), under Deb's rules and the epsilon level.
#[test]
fn cpu_backend_follows_the_constrained_device_run() {
    for handling in [
        Handling::Deb,
        Handling::Epsilon {
            theta: 0.5,
            tc: 40,
            cp: 2.0,
        },
    ] {
        let (obj, bounds, mut c) = constraints::cec2006("G06").unwrap();
        c.handling = handling;
        let mut runs = Vec::new();
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let mut de = constrained_solver(&bounds, 3, 12, backend, 5);
            de.set_constraints(Some(c.clone())).unwrap();
            de.init(
                &obj,
                Mutation::Best1,
                Migration::new(MigrationKind::RandTarget, 7),
            )
            .unwrap();
            runs.push(de);
        }
        follow(&mut runs, 60, &format!("{handling:?}"));
    }
}

/// A host callback objective with a violation callback: min (x0 - 2)^2 + (x1 - 2)^2 subject to
/// x0 + x1 <= 2 gives (1, 1), f = 2, on both backends; every member stays compared by Deb's
/// rules (an infeasible point never beats a feasible one).
#[test]
fn host_callbacks_give_values_and_violations() {
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = constrained_solver(&[(-4.0, 4.0); 2], 2, 20, backend, 9);
        let v = metaopt::objective::HostCallback::new(|x, rows, dims, out| {
            for r in 0..rows {
                let s = x[r * dims] + x[r * dims + 1] - 2.0;
                out[r] = s.max(0.0);
            }
            Ok(())
        });
        de.set_constraints(Some(Constraints::callback(v))).unwrap();
        let f = Objective::callback(|x, rows, dims, out| {
            for r in 0..rows {
                let (a, b) = (x[r * dims] - 2.0, x[r * dims + 1] - 2.0);
                out[r] = a * a + b * b;
            }
            Ok(())
        });
        de.init(&f, Mutation::Rand1, Migration::NONE).unwrap();
        let r = de.run(&Stop::budget(400)).unwrap();
        assert_eq!(r.violation, 0.0);
        assert!((r.value - 2.0).abs() < 1e-6, "{backend:?}: {r:?}");
    }
}

/// What constraints refuse, each naming its argument.
#[test]
fn constraints_refusals_name_their_argument() {
    let mut de = constrained_solver(&[(-1.0, 1.0); 2], 2, 8, Backend::Cpu, 1);
    // no counts and no callback
    let e = de
        .set_constraints(Some(Constraints::compiled(0, 0)))
        .unwrap_err();
    assert!(e.to_string().contains("constraints"), "{e}");
    let mut c = Constraints::compiled(1, 0);
    c.eq_tol = f64::NAN;
    assert!(de
        .set_constraints(Some(c))
        .unwrap_err()
        .to_string()
        .contains("eq_tol"));
    let c = Constraints {
        handling: Handling::Epsilon {
            theta: 0.0,
            tc: 10,
            cp: 1.0,
        },
        ..Constraints::compiled(1, 0)
    };
    assert!(de
        .set_constraints(Some(c))
        .unwrap_err()
        .to_string()
        .contains("theta"));
    // a catalogue function has no constraints
    de.set_constraints(Some(Constraints::compiled(1, 0)))
        .unwrap();
    let e = de
        .init(
            &Objective::catalogue("F1").unwrap(),
            Mutation::Rand1,
            Migration::NONE,
        )
        .unwrap_err();
    assert!(
        e.to_string().contains("constraints") && e.to_string().contains("F1"),
        "{e}"
    );
    // jDE100
    let mut p = DeParams::new(2, 30, 2, -1.0, 1.0, BoundsCorrection::Saturation);
    p.options.algorithm = metaopt::de::Algorithm::Jde100;
    p.options.jde_small = 4;
    let mut de = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    de.set_constraints(Some(Constraints::compiled(1, 0)))
        .unwrap();
    let e = de
        .init(
            &Objective::source(LINEAR, Vec::new()),
            Mutation::Rand1,
            Migration::NONE,
        )
        .unwrap_err();
    assert!(e.to_string().contains("constraints"), "{e}");
}

/// The SHADE family with constraints (the host-planned path on both backends): the CPU backend
/// makes the device's run in double (values and violations, 40 generations of G06, with and
/// without migration), and L-SHADE solves G06 and JADE G08 feasibly.
#[test]
fn adaptive_variants_take_constraints() {
    use metaopt::de::Algorithm;
    let (obj, bounds, c) = constraints::cec2006("G06").unwrap();
    for (alg, migration) in [
        (Algorithm::Jade, Migration::new(MigrationKind::PermuteN, 5)),
        (Algorithm::Shade, Migration::NONE),
        (Algorithm::LShade, Migration::NONE),
        (Algorithm::Jso, Migration::NONE),
    ] {
        let mut runs = Vec::new();
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let nn = bounds.len() as u32;
            let mut p = DeParams::new(3, 16, nn, 0.0, 1.0, BoundsCorrection::Halfway);
            p.limits = bounds.clone();
            p.options.double = true;
            p.options.algorithm = alg;
            p.options.lshade_budget = 16 * 40;
            let mut de = DeMultiPop::new(&p, backend).unwrap();
            de.set_constraints(Some(c.clone())).unwrap();
            de.init(&obj, Mutation::Rand1, migration).unwrap();
            runs.push(de);
        }
        follow(&mut runs, 40, &alg.to_string());
    }
    for (name, alg, best, tol) in [
        ("G06", Algorithm::LShade, -6961.81387558015, 1e-4),
        ("G08", Algorithm::Jade, -0.0958250414180359, 1e-9),
    ] {
        let (obj, bounds, c) = constraints::cec2006(name).unwrap();
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let nn = bounds.len() as u32;
            let mut p = DeParams::new(1, 60, nn, 0.0, 1.0, BoundsCorrection::Halfway);
            p.limits = bounds.clone();
            p.options.double = true;
            p.options.algorithm = alg;
            p.options.lshade_budget = 60_000;
            let mut de = DeMultiPop::new(&p, backend).unwrap();
            de.set_constraints(Some(c.clone())).unwrap();
            de.init(&obj, Mutation::Rand1, Migration::NONE).unwrap();
            let r = de.run(&Stop::budget(1000)).unwrap();
            assert_eq!(r.violation, 0.0, "{name} {alg} {backend:?}: {r:?}");
            assert!(
                (r.value - best).abs() <= tol * best.abs().max(1.0),
                "{name} {alg} {backend:?}: {}, best known {best}",
                r.value
            );
        }
    }
}

/// A constrained run saved after 20 generations and loaded into a solver made alike continues
/// as the run that never stopped (values, violations and the epsilon level), on the device and
/// the CPU backend; an unconstrained solver refuses the state.
#[test]
fn a_constrained_state_resumes_as_the_uninterrupted_run() {
    let (obj, bounds, mut c) = constraints::cec2006("G06").unwrap();
    c.handling = Handling::Epsilon {
        theta: 0.2,
        tc: 30,
        cp: 2.0,
    };
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let make = |with: bool| {
            let mut de = constrained_solver(&bounds, 2, 12, backend, 7);
            if with {
                de.set_constraints(Some(c.clone())).unwrap();
            }
            de.init(
                &obj,
                Mutation::Rand1,
                Migration::new(MigrationKind::One2One, 3),
            )
            .unwrap();
            de
        };
        let mut whole = make(true);
        for _ in 0..40 {
            whole.iteration().unwrap();
        }
        let mut first = make(true);
        for _ in 0..20 {
            first.iteration().unwrap();
        }
        let bytes = first.save_state().unwrap();
        let mut second = make(true);
        second.load_state(&bytes).unwrap();
        for _ in 0..20 {
            second.iteration().unwrap();
        }
        assert_eq!(
            whole.fitness().unwrap(),
            second.fitness().unwrap(),
            "{backend:?}"
        );
        assert_eq!(
            whole.violations().unwrap(),
            second.violations().unwrap(),
            "{backend:?}"
        );
        assert!(make(false).load_state(&bytes).is_err(), "{backend:?}");
    }
}

/// The gradient-based repair of epsilon-DE: a G17 run (six variables, four nonlinear
/// equalities) under the epsilon level with one island of 40, the repair at epsilon-DE's
/// settings, reaches the best-known value feasibly on the device and the CPU backend; the CPU
/// backend follows the device's repaired run value for value; each generation counts its
/// trials and, per picked trial, the repair's most evaluations, as the host draws the picks.
#[test]
fn the_gradient_repair_solves_g17_and_counts_its_evaluations() {
    let (obj, bounds, mut c) = constraints::cec2006("G17").unwrap();
    c.handling = Handling::EPSILON_DEFAULT;
    c.repair = Some(Repair::EPSILON_DE);
    let mut runs = Vec::new();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = constrained_solver(&bounds, 1, 40, backend, 1);
        de.set_constraints(Some(c.clone())).unwrap();
        de.init(
            &obj,
            Mutation::Rand1,
            Migration::new(MigrationKind::None, 1),
        )
        .unwrap();
        runs.push(de);
    }
    follow(&mut runs, 40, "G17 repaired");
    // the count: 40 trials a generation and 1 + 3 (6 + 1) = 22 per pick; the picks of
    // generations 1..=40 are the mutation seed's (2)
    let r = Repair::EPSILON_DE;
    let picks: usize = (1..=40).map(|g| r.picks(2, g, 40).len()).sum();
    assert!(picks > 0, "40 generations of 40 trials at 0.01 picked none");
    for de in &runs {
        assert_eq!(de.evaluations(), 40 + 40 * 40 + picks as u64 * 22);
    }
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = constrained_solver(&bounds, 1, 40, backend, 1);
        de.set_constraints(Some(c.clone())).unwrap();
        de.init(
            &obj,
            Mutation::Rand1,
            Migration::new(MigrationKind::None, 1),
        )
        .unwrap();
        let best = 8853.5396748064;
        let res = de
            .run(&Stop {
                evaluations: Some(150_000),
                target: Some(best + 1e-4),
                ..Stop::default()
            })
            .unwrap();
        assert_eq!(res.violation, 0.0, "{backend:?}: {res:?}");
        assert!(
            res.value - best <= 1e-4,
            "{backend:?}: {} (best known {best}) after {} evaluations",
            res.value,
            res.evaluations
        );
        assert!(res.evaluations <= 150_000);
    }
}

/// Without the repair the same G17 run finds no feasible point in as many evaluations: the
/// repair is what solves it (so the test above cannot pass without it).
#[test]
fn g17_without_the_repair_stays_infeasible() {
    let (obj, bounds, mut c) = constraints::cec2006("G17").unwrap();
    c.handling = Handling::EPSILON_DEFAULT;
    let mut de = constrained_solver(&bounds, 1, 40, Backend::DEVICE, 1);
    de.set_constraints(Some(c)).unwrap();
    de.init(
        &obj,
        Mutation::Rand1,
        Migration::new(MigrationKind::None, 1),
    )
    .unwrap();
    let res = de
        .run(&Stop {
            evaluations: Some(150_000),
            target: Some(8853.5396748064 + 1e-4),
            ..Stop::default()
        })
        .unwrap();
    assert!(
        res.violation > 0.0 || res.value > 8853.5396748064 + 1e-4,
        "{res:?}"
    );
}

/// The repair's refusals name `repair`: a probability outside (0, 1], rounds outside 1..=1000,
/// a violation callback (no constraint values), an adaptive algorithm.
#[test]
fn repair_refusals_name_their_argument() {
    let (obj, bounds, c) = constraints::cec2006("G11").unwrap();
    for (p, rounds) in [(0.0, 3), (1.5, 3), (f64::NAN, 3), (0.5, 0), (0.5, 1001)] {
        let mut c = c.clone();
        c.repair = Some(Repair {
            probability: p,
            rounds,
        });
        let mut de = constrained_solver(&bounds, 1, 8, Backend::Cpu, 1);
        let e = de.set_constraints(Some(c)).unwrap_err().to_string();
        assert!(e.contains("repair"), "{p} {rounds}: {e}");
    }
    let cb = metaopt::objective::HostCallback::new(|_x, _r, _d, out| {
        out.fill(0.0);
        Ok(())
    });
    let mut cc = Constraints::callback(cb);
    cc.repair = Some(Repair::EPSILON_DE);
    let mut de = constrained_solver(&bounds, 1, 8, Backend::Cpu, 1);
    let e = de.set_constraints(Some(cc)).unwrap_err().to_string();
    assert!(e.contains("repair") && e.contains("callback"), "{e}");
    let mut p = DeParams::new(1, 8, 2, 0.0, 1.0, BoundsCorrection::Saturation);
    p.limits = bounds.clone();
    p.options.double = true;
    p.options.algorithm = metaopt::de::Algorithm::Jade;
    let mut de = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    let mut c = c.clone();
    c.repair = Some(Repair::EPSILON_DE);
    let r = de.set_constraints(Some(c)).and_then(|_| {
        de.init(
            &obj,
            Mutation::Rand1,
            Migration::new(MigrationKind::None, 1),
        )
    });
    let e = r.unwrap_err().to_string();
    assert!(e.contains("repair") && e.contains("jade"), "{e}");
}

#[test]
fn the_polish_finishes_a_short_g06_run_on_the_device_and_stays_feasible() {
    // 60 generations leave G06's best short of its vertex; the polish (basin hopping's
    // (1+1)-ES by Deb's rules from that point, the run's epsilon level not used) walks along the
    // active constraints towards it
    let (obj, bounds, mut c) = constraints::cec2006("G06").unwrap();
    c.handling = Handling::EPSILON_DEFAULT;
    let best = metaopt::problem::cec2006::info("G06").unwrap().best;
    let mut de = constrained_solver(&bounds, 2, 20, Backend::DEVICE, 3);
    de.set_constraints(Some(c.clone())).unwrap();
    de.init(
        &obj,
        Mutation::Rand1,
        Migration::new(MigrationKind::None, 1),
    )
    .unwrap();
    let r = de.run(&Stop::budget(60)).unwrap();
    let (lo, hi): (Vec<f64>, Vec<f64>) = bounds.iter().copied().unzip();
    let p = metaopt::bh::Polish::for_dims(2);
    let pol = metaopt::bh::polish(
        &obj,
        Some(&c),
        (&lo, &hi),
        &r.x,
        &p,
        Backend::DEVICE,
        &Stop::default(),
    )
    .unwrap();
    assert!(pol.improved, "{pol:?}");
    assert_eq!(pol.violation, 0.0, "{pol:?}");
    assert!(
        pol.value < r.value || r.violation > 0.0,
        "{pol:?} from {r:?}"
    );
    assert!(pol.value - best < 0.1, "{} vs {best}", pol.value);
    // the host reference agrees that the point is feasible and has that value
    let (value, cv) = metaopt::problem::cec2006::eval(6, &pol.x).unwrap();
    let info = metaopt::problem::cec2006::info("G06").unwrap();
    assert_eq!(metaopt::problem::cec2006::violation(&info, &cv), 0.0);
    assert!(
        (value - pol.value).abs() <= 1e-9 * value.abs(),
        "{value} vs {}",
        pol.value
    );
}
