//! jDE100 (`src/de/jde.rs`, `jde_fused` of `cl/de_batch.cl`, docs/specs/DE.md "jDE100"):
//! the rules against a host reference on a small population (`jde::cycle` driven with scripted
//! values), the device against the CPU twin, and sphere, Rosenbrock and Rastrigin solved to 1e-8.

use crate::common::arg_error;

use metaopt::de::jde::{self, Bounds, IslandMut, JdeState, Shape};
use metaopt::de::{
    Algorithm, Backend, BoundsCorrection, DeMultiPop, DeParams, Migration, MigrationKind, Mutation,
    Selection,
};
use metaopt::objective::Objective;
use metaopt::rng::rng4;
use metaopt::run::Stop;
use metaopt::StopReason;

fn params(np: u32, nm: u32, ns: u32, nn: u32, a: f64, b: f64) -> DeParams {
    let mut p = DeParams::new(np, nm, nn, a, b, BoundsCorrection::Halfway);
    p.options.algorithm = Algorithm::Jde100;
    p.options.jde_small = ns;
    p.options.precision = metaopt::Precision::Double;
    p
}

fn solver(p: &DeParams, backend: Backend, obj: &Objective) -> DeMultiPop {
    let mut de = DeMultiPop::new(p, backend).unwrap();
    de.init(obj, Mutation::Rand1, Migration::NONE).unwrap();
    de
}

#[test]
fn f_and_cr_draws_follow_tau_and_the_ranges() {
    let (mut new_f, mut new_cr) = (0, 0);
    let n = 20_000u64;
    for (r, lo_f, lo_cr, span) in [(jde::BIG, 0.1, 0.0, 1.0), (jde::SMALL, 0.17, 0.1, 0.7)] {
        for t in 0..n {
            let (f, cr) = jde::draw_f_cr(345, t, -1.0, -2.0, r);
            // the reference: words 0-3 of stream 2 at counter t, u = (w + 0.5) / 2^32
            let w = rng4(345, 2, t);
            let u = |k: usize| (w[k] as f64 + 0.5) / 4_294_967_296.0;
            if u(0) < 0.1 {
                new_f += 1;
                assert_eq!(f, lo_f + u(1) * 1.1);
                assert!((lo_f..lo_f + 1.1).contains(&f));
            } else {
                assert_eq!(f, -1.0);
            }
            if u(2) < 0.1 {
                new_cr += 1;
                assert_eq!(cr, lo_cr + u(3) * span);
                assert!((lo_cr..lo_cr + span).contains(&cr));
            } else {
                assert_eq!(cr, -2.0);
            }
        }
    }
    // tau1 = tau2 = 0.1: about 4,000 of 40,000 (3 standard deviations: 180)
    for c in [new_f, new_cr] {
        assert!((3820..=4180).contains(&c), "{c}");
    }
}

#[test]
fn parents_are_distinct_and_inside_the_population() {
    for n in [4u32, 5, 25] {
        let mut seen = vec![0u32; n as usize];
        for t in 0..4000u64 {
            let i = (t % n as u64) as u32;
            let (r, jrand) = jde::indices(7, t, i, n, 10);
            assert!(r.iter().all(|&v| v < n && v != i), "{r:?} {i}");
            assert!(r[0] != r[1] && r[1] != r[2] && r[0] != r[2]);
            assert!(jrand < 10);
            for v in r {
                seen[v as usize] += 1;
            }
        }
        // every member is drawn, about 3 x 4000 / n times each
        let mean = 12000.0 / n as f64;
        assert!(
            seen.iter().all(|&c| (c as f64 - mean).abs() < 0.15 * mean),
            "{seen:?}"
        );
    }
}

#[test]
fn restart_test_counts_more_than_a_quarter_and_more_than_two() {
    let eps = 1e-16;
    // 8 members: 2 within eps is 25 %, not more; 3 is
    assert!(!jde::restart_due(
        &[0.0, 0.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        0.0,
        eps
    ));
    assert!(jde::restart_due(
        &[0.0, 0.0, 0.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        0.0,
        eps
    ));
    // 12 members: 3 is 25 %, 4 restarts
    let mut v = vec![1.0; 12];
    v[..3].fill(0.0);
    assert!(!jde::restart_due(&v, 0.0, eps));
    v[3] = 0.0;
    assert!(jde::restart_due(&v, 0.0, eps));
    // 4 members: 2 are 50 % but not more than 2
    assert!(!jde::restart_due(&[0.0, 0.0, 1.0, 1.0], 0.0, eps));
    assert!(jde::restart_due(&[0.0, 0.0, 0.0, 1.0], 0.0, eps));
    // an absolute difference: 1e-17 apart is within, 1e-15 is not
    assert!(jde::restart_due(&[1e-17, 0.0, 1e-17, 1.0], 0.0, eps));
    assert!(!jde::restart_due(&[1e-15, 0.0, 1e-15, 1.0], 0.0, eps));
}

/// One island of 8 big and 4 small members in 2 dimensions with the given values, driven by
/// `jde::cycle`; `values` answers each evaluation call (its index and rows).
struct Scripted {
    x: Vec<f64>,
    fx: Vec<f64>,
    f: Vec<f64>,
    cr: Vec<f64>,
    st: JdeState,
    calls: Vec<Vec<f64>>,
}

const NB: usize = 8;
const NS: usize = 4;
const NM: usize = NB + NS;

impl Scripted {
    fn new(fx: &[f64]) -> Scripted {
        assert_eq!(fx.len(), NM);
        let x: Vec<f64> = (0..(NM + 1) * 2).map(|i| (i as f64 * 0.37).sin()).collect();
        let mut fx = fx.to_vec();
        let (b, v) = jde::best_of(&fx);
        fx.push(v);
        let mut s = Scripted {
            x,
            fx,
            f: vec![0.5; NM],
            cr: vec![0.9; NM],
            st: JdeState::default(),
            calls: Vec::new(),
        };
        s.x.copy_within(b * 2..b * 2 + 2, NM * 2);
        s
    }

    fn shape(age: u64) -> Shape {
        Shape {
            nb: NB as u32,
            ns: NS as u32,
            nn: 2,
            np: 1,
            seed_init: 1,
            seed_mut: 2,
            seed_cross: 3,
            eps: 1e-16,
            age_limit: age,
            selection: Selection::Ties,
        }
    }

    /// A cycle in which every trial is +inf (never selected) and every restarted member `restart`
    /// (`big`: the first evaluation is the big population's restart; the small one's is the only
    /// call of NS - 1 rows).
    fn cycle(&mut self, age: u64, restart: f64, big: bool) {
        let shape = Scripted::shape(age);
        let lo = [-1.0, -1.0];
        let hi = [1.0, 1.0];
        let kinds = [BoundsCorrection::Halfway; 2];
        let bounds = Bounds {
            lo: &lo,
            hi: &hi,
            kinds: &kinds,
            integral: &[],
        };
        let calls = &mut self.calls;
        let mut island = [IslandMut {
            x: &mut self.x,
            fx: &mut self.fx,
            f: &mut self.f,
            cr: &mut self.cr,
            st: &mut self.st,
        }];
        // generations evaluate NB or NS trials; a restart NB or NS - 1 members
        let mut eval = |rows: &[f64]| -> metaopt::Result<Vec<f64>> {
            calls.push(rows.to_vec());
            let n = rows.len() / 2;
            let restarted = n == NS - 1 || (big && calls.len() == 1);
            Ok(vec![if restarted { restart } else { f64::INFINITY }; n])
        };
        jde::cycle(&shape, 1, &mut island, &bounds, &mut eval).unwrap();
    }
}

#[test]
fn big_restart_fires_exactly_past_a_quarter_and_keeps_the_best_ever() {
    let small = [20.0, 21.0, 22.0, 23.0];
    // 2 of 8 big members at the best: no restart
    let mut s =
        Scripted::new(&[[0.0, 0.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0].as_slice(), &small].concat());
    s.cycle(0, 50.0, false);
    assert_eq!((s.st.big_restarts, s.st.restart_evaluations), (0, 0));
    assert_eq!(s.calls[0].len(), NB * 2);
    // 3 of 8: the big population restarts (8 evaluations, F and CR reset); the best ever stays
    let mut s =
        Scripted::new(&[[0.0, 0.0, 0.0, 6.0, 7.0, 8.0, 9.0, 10.0].as_slice(), &small].concat());
    let best_row = s.x[NM * 2..].to_vec();
    s.f[3] = 0.3;
    s.cycle(0, 50.0, true);
    assert_eq!(
        (
            s.st.big_restarts,
            s.st.small_restarts,
            s.st.restart_evaluations
        ),
        (1, 0, NB as u64)
    );
    assert!(s.fx[..NB].iter().all(|&v| v == 50.0), "{:?}", s.fx);
    assert_eq!(s.f[..NB], [jde::F_INIT; NB]);
    assert_eq!(s.cr[..NB], [jde::CR_INIT; NB]);
    // the new members are the restart values of sub-generation g (k + 1), uniform in the bounds
    let g0 = jde::small_generations(NB as u32, NS as u32) + 1;
    for m in 0..NB {
        for n in 0..2 {
            assert_eq!(
                s.x[m * 2 + n],
                jde::restart_value(1, g0, 0, 1, NM as u32, m as u32, 2, n as u32, -1.0, 1.0)
            );
        }
    }
    assert_eq!((s.fx[NM], s.x[NM * 2..].to_vec()), (0.0, best_row));
    // the age limit: distinct values, age past the limit
    let mut s =
        Scripted::new(&[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0].as_slice(), &small].concat());
    s.st.age = 101;
    s.cycle(100, 50.0, true);
    assert_eq!(s.st.big_restarts, 1);
    let mut s =
        Scripted::new(&[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0].as_slice(), &small].concat());
    s.st.age = 100;
    s.cycle(100, 50.0, false);
    assert_eq!(s.st.big_restarts, 0);
    // the age counts the big population's evaluations since the best ever improved
    assert_eq!(s.st.age, 100 + NB as u64);
}

#[test]
fn small_restart_keeps_the_best_and_the_best_is_copied_from_big_to_small() {
    let big = [5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0];
    // the best (member 9) in the small population with 2 more of it within eps (3 of 4)
    let mut s = Scripted::new(&[big.as_slice(), &[1.0, -1.0, -1.0, -1.0]].concat());
    let kept = s.x[9 * 2..9 * 2 + 2].to_vec();
    s.cycle(0, 50.0, false);
    assert_eq!(
        (
            s.st.big_restarts,
            s.st.small_restarts,
            s.st.restart_evaluations
        ),
        (0, 1, NS as u64 - 1)
    );
    assert_eq!(s.x[9 * 2..9 * 2 + 2], kept[..]);
    assert_eq!(s.fx[NB..NM], [50.0, -1.0, 50.0, 50.0]);
    assert_eq!(s.fx[NM], -1.0);
    // 2 of 4 within eps: no restart; the best stays where it is
    let mut s = Scripted::new(&[big.as_slice(), &[1.0, -1.0, -1.0, 3.0]].concat());
    s.cycle(0, 50.0, false);
    assert_eq!(s.st.small_restarts, 0);
    assert_eq!(s.fx[NB..NM], [1.0, -1.0, -1.0, 3.0]);
    // the best in the big population: its row and value over the small population's first
    let mut s = Scripted::new(
        &[
            [5.0, 6.0, 0.5, 8.0, 9.0, 10.0, 11.0, 12.0].as_slice(),
            &[1.0, 2.0, 3.0, 4.0],
        ]
        .concat(),
    );
    s.cycle(0, 50.0, false);
    assert_eq!(s.fx[NB], 0.5);
    assert_eq!(s.x[NB * 2..NB * 2 + 2], s.x[2 * 2..2 * 2 + 2].to_vec()[..]);
    assert_eq!(
        s.st,
        JdeState {
            age: NB as u64,
            ..JdeState::default()
        }
    );
}

#[test]
fn restarts_are_counted_as_evaluations() {
    // a constant objective: every big member ties the best, so the big population restarts
    // every cycle (the best, member 0, is in it: copied to the small one, which never restarts)
    let obj = Objective::callback(|_x, n, _d, out| {
        out[..n].fill(1.0);
        Ok(())
    });
    let p = params(1, 20, 4, 3, -1.0, 1.0);
    let mut de = solver(&p, Backend::Cpu, &obj);
    let r = de.run(&Stop::budget(5)).unwrap();
    let st = de.jde_state().unwrap();
    assert_eq!(
        (
            st[0].big_restarts,
            st[0].small_restarts,
            st[0].restart_evaluations
        ),
        (5, 0, 5 * 16)
    );
    // 20 initial, then per cycle 16 + 4 x 4 trials and 16 restarted members
    assert_eq!(r.evaluations, 20 + 5 * (32 + 16));
    assert_eq!(r.value, 1.0);
}

#[test]
fn device_equals_cpu() {
    // 2 islands of 30 big + 6 small members in 6 dimensions; on the sphere with eps 1e-3 both
    // populations restart within the run
    let mut restarts = (0, 0);
    for (f, eps) in [("F6", 1e-16), ("F1", 1e-3)] {
        let mut p = params(2, 36, 6, 6, -5.0, 5.0);
        p.options.jde_eps = eps;
        let obj = Objective::catalogue(f).unwrap();
        let mut d = solver(&p, Backend::DEVICE, &obj);
        let mut c = solver(&p, Backend::Cpu, &obj);
        let stop = Stop::budget(60);
        let rd = d.run(&stop).unwrap();
        let rc = c.run(&stop).unwrap();
        assert_eq!(rd.evaluations, rc.evaluations, "{f}");
        let st = c.jde_state().unwrap();
        assert_eq!(d.jde_state().unwrap(), st, "{f}");
        let (fd, fc) = (d.fitness().unwrap(), c.fitness().unwrap());
        for (a, b) in fd.iter().zip(&fc) {
            assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{f}: {a} {b}");
        }
        for isl in 0..2 {
            for m in 0..=36 {
                let (xd, xc) = if m < 36 {
                    (d.x(isl, m).unwrap(), c.x(isl, m).unwrap())
                } else {
                    (d.best(isl).unwrap(), c.best(isl).unwrap())
                };
                for (a, b) in xd.iter().zip(&xc) {
                    assert!(
                        (a - b).abs() <= 1e-9,
                        "{f} island {isl} member {m}: {a} {b}"
                    );
                }
            }
        }
        assert!((rd.value - rc.value).abs() <= 1e-9 * (1.0 + rc.value.abs()));
        restarts.0 += st.iter().map(|s| s.big_restarts).sum::<u64>();
        restarts.1 += st.iter().map(|s| s.small_restarts).sum::<u64>();
    }
    assert!(restarts.0 > 0 && restarts.1 > 0, "{restarts:?}");
}

/// Cycles of one island of `nm` members (`ns` small) to a value of 1e-8.
fn solve(
    backend: Backend,
    f: &str,
    nn: u32,
    nm: u32,
    ns: u32,
    cycles: u64,
) -> metaopt::de::DeRunResult {
    let info = metaopt::problem::functions::lookup(f).unwrap();
    let (a, b) = info.domain;
    let p = params(1, nm, ns, nn, a, b);
    let mut de = solver(&p, backend, &Objective::catalogue(f).unwrap());
    de.run(&Stop {
        budget: Some(cycles),
        target: Some(1e-8),
        ..Stop::default()
    })
    .unwrap()
}

#[test]
fn solves_sphere_rosenbrock_rastrigin_in_10_dims_on_the_device() {
    for (f, cycles) in [("F1", 2000), ("F5", 6000), ("F6", 6000)] {
        let r = solve(Backend::DEVICE, f, 10, 60, 10, cycles);
        eprintln!(
            "{f} D=10 device: {} after {} evaluations ({} cycles)",
            r.value, r.evaluations, r.generations
        );
        assert!(r.value <= 1e-8, "{f}: {}", r.value);
    }
}

#[test]
fn solves_sphere_rosenbrock_rastrigin_in_30_dims_on_the_cpu() {
    for (f, cycles) in [("F1", 4000), ("F5", 20000), ("F6", 20000)] {
        let r = solve(Backend::Cpu, f, 30, 110, 10, cycles);
        eprintln!(
            "{f} D=30 CPU: {} after {} evaluations ({} cycles)",
            r.value, r.evaluations, r.generations
        );
        assert!(r.value <= 1e-8, "{f}: {}", r.value);
    }
}

#[test]
fn bad_settings_are_errors_naming_them() {
    let obj = Objective::catalogue("F1").unwrap();
    arg_error(
        DeMultiPop::new(&params(1, 10, 3, 2, -1.0, 1.0), Backend::Cpu),
        "jde_small",
    );
    arg_error(
        DeMultiPop::new(&params(1, 10, 7, 2, -1.0, 1.0), Backend::Cpu),
        "jde_small",
    );
    let mut p = params(1, 10, 4, 2, -1.0, 1.0);
    p.options.jde_eps = f64::NAN;
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "jde_eps");
    // migration between jDE100 islands is refused
    let mut de = DeMultiPop::new(&params(2, 12, 4, 2, -1.0, 1.0), Backend::Cpu).unwrap();
    arg_error(
        de.init(&obj, Mutation::Rand1, Migration::new(MigrationKind::N2N, 5)),
        "migration",
    );
    // on a device: only in the fused kernel, with a compiled objective
    let cb = Objective::callback(|_x, n, _d, out| {
        out[..n].fill(0.0);
        Ok(())
    });
    let mut de = DeMultiPop::new(&params(1, 12, 4, 2, -1.0, 1.0), Backend::DEVICE).unwrap();
    arg_error(de.init(&cb, Mutation::Rand1, Migration::NONE), "objective");
    let mut p = params(1, 12, 4, 2, -1.0, 1.0);
    p.options.fused = false;
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    arg_error(de.init(&obj, Mutation::Rand1, Migration::NONE), "fused");
    // the name parses, the code 5 maps to it
    assert_eq!("jDE100".parse::<Algorithm>().unwrap(), Algorithm::Jde100);
    assert_eq!("jde-100".parse::<Algorithm>().unwrap(), Algorithm::Jde100);
    assert_eq!(
        Algorithm::from_code(5, "algorithm").unwrap(),
        Algorithm::Jde100
    );
}

/// The batched DE's jde100 problem is the island run with one island (the problem's seeds as the
/// island's init, mutation and crossover seeds), on the device and the CPU backend, in global and
/// local memory; a problem beside it keeps the fixed DE, and a target stops it.
#[test]
fn batched_jde100_problem_equals_the_island_run_with_one_island() {
    use metaopt::de::{BatchDe, BatchOptions, BatchProblem, Placement};
    let (nm, ns, nn, cycles) = (30u32, 6u32, 5u32, 40u64);
    let mut prob = BatchProblem::new("F6", nn, -5.12, 5.12);
    prob.members = nm;
    prob.algorithm = Algorithm::Jde100;
    prob.jde_small = ns;
    prob.bounds = BoundsCorrection::Halfway;
    prob.seed = 9;
    prob.max_generations = cycles;
    let fixed = BatchProblem {
        seed: 3,
        ..BatchProblem::new("F1", 4, -1.0, 1.0)
    };
    let mut p = params(1, nm, ns, nn, -5.12, 5.12);
    let [si, sm, sc] = prob.seeds();
    (
        p.options.init_seed,
        p.options.mutation_seed,
        p.options.crossover_seed,
    ) = (si, sm, sc);
    let obj = Objective::catalogue("F6").unwrap();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut island = solver(&p, backend, &obj);
        let ri = island.run(&Stop::budget(cycles)).unwrap();
        let placements: &[Placement] = if backend == Backend::Cpu {
            &[Placement::Auto]
        } else {
            &[Placement::Global, Placement::Local]
        };
        for &placement in placements {
            let options = BatchOptions {
                precision: metaopt::Precision::Double,
                generations_per_launch: 7,
                placement,
            };
            let mut batch =
                BatchDe::new(vec![fixed.clone(), prob.clone()], backend, options).unwrap();
            let r = batch.run(&Stop::default()).unwrap();
            assert_eq!(
                (r[1].generations, r[1].stop),
                (cycles, Some(StopReason::Budget))
            );
            assert!(
                (r[1].best_value - ri.value).abs() <= 1e-9 * (1.0 + ri.value.abs()),
                "{backend:?} {placement:?}: {} {}",
                r[1].best_value,
                ri.value
            );
            for (a, b) in r[1].best.iter().zip(&ri.x) {
                assert!((a - b).abs() <= 1e-9, "{backend:?} {placement:?}: {a} {b}");
            }
            assert_eq!(r[0].generations, 1000);
        }
    }
    // a target stops the problem at the cycle that reached it, as the island run
    let mut t = prob.clone();
    t.target = Some(1e-3);
    t.max_generations = 5000;
    let mut batch = BatchDe::new(vec![t], Backend::Cpu, BatchOptions::default()).unwrap();
    let r = batch.run(&Stop::default()).unwrap();
    let mut island = solver(&p, Backend::Cpu, &obj);
    let ri = island
        .run(&Stop {
            budget: Some(5000),
            target: Some(1e-3),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(
        (r[0].stop, r[0].generations),
        (Some(StopReason::Target), ri.generations)
    );
    assert!(r[0].best_value <= 1e-3);
    // a small population of at least 4 and a big one of at least 4 (every algorithm runs in
    // the batched DE since JADE, SHADE, L-SHADE and jSO do: solvers::de::ade_fused)
    let bad = BatchProblem {
        jde_small: 27,
        ..prob.clone()
    };
    arg_error(
        BatchDe::new(vec![bad], Backend::Cpu, BatchOptions::default()),
        "jde_small",
    );
}
