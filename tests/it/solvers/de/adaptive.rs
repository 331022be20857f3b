//! The adaptive DE variants (`src/de/adapt.rs`, docs/specs/DE.md "Adaptive DE"): the
//! adaptation rules against their papers' formulas on a small population (memory updates,
//! archive insertion and truncation, L-SHADE's size schedule, jSO's schedules), the device
//! (the fused path, `ade_fused`) against the CPU backend (its twin
//! `de::ade`), sphere, Rosenbrock and Rastrigin solved to 1e-8, and the host-planned path that a
//! host callback or `fused = false` still takes.

use crate::common::arg_error;

use metaopt::de::adapt::{self, Adaptive, Plan, IDX};
use metaopt::de::{
    Algorithm, Backend, BoundsCorrection, Config, DeMultiPop, DeParams, Migration, MigrationKind,
    Mutation,
};
use metaopt::objective::Objective;
use metaopt::run::Stop;

fn params(alg: Algorithm, np: u32, nm: u32, nn: u32, a: f64, b: f64, budget: u64) -> DeParams {
    let mut p = DeParams::new(np, nm, nn, a, b, BoundsCorrection::Halfway);
    p.options.algorithm = alg;
    p.options.lshade_budget = budget;
    p.options.precision = metaopt::Precision::Double;
    p
}

fn config(alg: Algorithm, np: u32, nm: u32, budget: u64) -> Config {
    Config::new(&params(alg, np, nm, 3, -1.0, 1.0, budget)).unwrap()
}

/// A plan with the given F and CR for members 0..n of one population.
fn plan_with(f: &[f64], cr: &[f64]) -> Plan {
    let n = f.len();
    Plan {
        f: f.to_vec(),
        fw: f.to_vec(),
        cr: cr.to_vec(),
        crt: vec![0; n],
        idx: vec![0; n * IDX],
    }
}

/// fx of one population of `fx.len()` members (the best row appended), as `Engine::fitness`.
fn with_best(fx: &[f64]) -> Vec<f64> {
    let mut v = fx.to_vec();
    v.push(fx.iter().copied().fold(f64::INFINITY, f64::min));
    v
}

#[test]
fn shade_memory_update_is_the_weighted_lehmer_and_arithmetic_mean() {
    let cfg = config(Algorithm::Shade, 1, 6, 0);
    let mut a = Adaptive::new(&cfg);
    assert_eq!(a.par.h, 6);
    assert!(
        a.islands[0].m_f.iter().all(|&v| v == 0.5) && a.islands[0].m_cr.iter().all(|&v| v == 0.5)
    );
    let f = [0.3, 0.9, 0.6, 0.2, 0.8, 0.4];
    let cr = [0.1, 0.7, 0.5, 0.9, 0.2, 0.3];
    let fx = [10.0, 10.0, 10.0, 10.0, 10.0, 10.0];
    // members 0, 2 and 5 improve by 1, 3 and 6; 1 ties (not a success); 3 and 4 get worse
    let fy = [9.0, 10.0, 7.0, 11.0, 12.0, 4.0];
    let moves = a.outcome(1, &plan_with(&f, &cr), &with_best(&fx), &fy);
    let w = [1.0 / 10.0, 3.0 / 10.0, 6.0 / 10.0];
    let (sf, scr) = ([0.3, 0.6, 0.4], [0.1, 0.5, 0.3]);
    let lehmer = w.iter().zip(&sf).map(|(w, s)| w * s * s).sum::<f64>()
        / w.iter().zip(&sf).map(|(w, s)| w * s).sum::<f64>();
    let mean_cr: f64 = w.iter().zip(&scr).map(|(w, s)| w * s).sum();
    let isl = &a.islands[0];
    assert!(
        (isl.m_f[0] - lehmer).abs() < 1e-15,
        "{} {lehmer}",
        isl.m_f[0]
    );
    assert!((isl.m_cr[0] - mean_cr).abs() < 1e-15);
    assert_eq!(isl.k, 1);
    assert!(isl.m_f[1..].iter().all(|&v| v == 0.5));
    // the parents of the three successes fill the first free slots in member order
    assert_eq!(
        moves.iter().map(|m| (m.m, m.slot)).collect::<Vec<_>>(),
        vec![(0, 0), (2, 1), (5, 2)]
    );
    assert_eq!(isl.archive, vec![0, 1, 2]);
    assert_eq!(isl.nfe, 12);
    // no success: the memory stays, k stays
    let before = a.islands[0].clone();
    a.outcome(2, &plan_with(&f, &cr), &with_best(&fy), &fy);
    assert_eq!(
        (a.islands[0].m_f.clone(), a.islands[0].k),
        (before.m_f, before.k)
    );
}

#[test]
fn jade_means_move_by_c_toward_the_successes() {
    let cfg = config(Algorithm::Jade, 1, 4, 0);
    let mut a = Adaptive::new(&cfg);
    let (f, cr) = ([0.2, 0.8, 0.5, 0.9], [0.4, 0.6, 0.1, 0.3]);
    let fx = [5.0; 4];
    let fy = [4.0, 1.0, 6.0, 5.0];
    a.outcome(1, &plan_with(&f, &cr), &with_best(&fx), &fy);
    // JADE: unweighted means; Lehmer for F, arithmetic for CR, c = 0.1
    let lf = (0.04 + 0.64) / (0.2 + 0.8);
    assert!((a.islands[0].m_f[0] - (0.9 * 0.5 + 0.1 * lf)).abs() < 1e-15);
    assert!((a.islands[0].m_cr[0] - (0.9 * 0.5 + 0.1 * 0.5)).abs() < 1e-15);
}

#[test]
fn lshade_crosses_the_terminal_value_and_jso_averages_and_keeps_its_last_entry() {
    let cfg = config(Algorithm::LShade, 1, 8, 1000);
    let mut a = Adaptive::new(&cfg);
    assert_eq!((a.par.h, a.par.arc_rate, a.par.p), (6, 2.6, 0.11));
    let fx = [3.0; 8];
    let fy = [2.0, 1.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0];
    let f = [0.5, 0.7, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1];
    // L-SHADE: CR by the weighted Lehmer mean
    a.outcome(
        1,
        &plan_with(&f, &[0.2, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        &with_best(&fx),
        &fy,
    );
    let (w1, w2) = (1.0 / 3.0, 2.0 / 3.0);
    let l = |a: f64, b: f64| (w1 * a * a + w2 * b * b) / (w1 * a + w2 * b);
    assert!((a.islands[0].m_cr[0] - l(0.2, 0.6)).abs() < 1e-15);
    assert!((a.islands[0].m_f[0] - l(0.5, 0.7)).abs() < 1e-15);
    // every successful CR 0: the entry becomes terminal, and a member drawing it gets CR 0
    a.outcome(2, &plan_with(&f, &[0.0; 8]), &with_best(&fx), &fy);
    assert!(a.islands[0].m_cr[1].is_nan());
    for r in 0..6 {
        a.islands[0].m_cr[r] = f64::NAN;
    }
    let plan = a.plan(3, &with_best(&fx));
    assert!(plan.cr.iter().all(|&c| c == 0.0));

    let cfg = config(Algorithm::Jso, 1, 8, 1000);
    let mut j = Adaptive::new(&cfg);
    assert_eq!(j.par.h, 5);
    assert_eq!((j.islands[0].m_f[4], j.islands[0].m_cr[4]), (0.9, 0.9));
    assert_eq!((j.islands[0].m_f[0], j.islands[0].m_cr[0]), (0.3, 0.8));
    let cr = [0.2, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    for g in 0..4 {
        j.outcome(g + 1, &plan_with(&f, &cr), &with_best(&fx), &fy);
    }
    // jSO: (mean + old) / 2; entries 0..3 written in turn, the last never, k back to 0
    assert!((j.islands[0].m_f[0] - (l(0.5, 0.7) + 0.3) / 2.0).abs() < 1e-15);
    assert!((j.islands[0].m_cr[3] - (l(0.2, 0.6) + 0.8) / 2.0).abs() < 1e-15);
    assert_eq!(
        (j.islands[0].m_f[4], j.islands[0].m_cr[4], j.islands[0].k),
        (0.9, 0.9, 0)
    );
}

#[test]
fn archive_replaces_at_random_when_full_and_shrinks_with_the_population() {
    let cfg = config(Algorithm::Jade, 1, 5, 0);
    let mut a = Adaptive::new(&cfg);
    assert_eq!(a.acap, 5);
    let f = [0.5; 5];
    let mut slots_seen = std::collections::HashSet::new();
    for g in 1..=6u64 {
        // every member improves every generation
        let fx = [10.0 - g as f64; 5];
        let fy = [9.0 - g as f64; 5];
        let moves = a.outcome(g, &plan_with(&f, &[0.5; 5]), &with_best(&fx), &fy);
        // at most one move per slot, every slot in range, the archive never past its size
        let mut s: Vec<u32> = moves.iter().map(|m| m.slot).collect();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), moves.len());
        assert!(moves.iter().all(|m| m.slot < 5));
        assert_eq!(a.islands[0].archive.len(), 5);
        slots_seen.extend(s);
    }
    assert_eq!(slots_seen.len(), 5);
    // the first generation filled slots 0..4 in member order; later ones replace
    // L-SHADE: the archive holds round(2.6 N) and loses random members as N falls
    let budget = 200;
    let cfg = config(Algorithm::LShade, 1, 20, budget);
    let mut l = Adaptive::new(&cfg);
    assert_eq!(l.acap, 52);
    let fx: Vec<f64> = (0..20).map(|m| 100.0 + m as f64).collect();
    let fy: Vec<f64> = (0..20).map(|m| m as f64).collect();
    let plan = plan_with(&[0.5; 20], &[0.5; 20]);
    let mut g = 1;
    while l.islands[0].archive.len() < 52 {
        l.outcome(g, &plan, &with_best(&fx), &fy);
        g += 1;
        l.islands[0].nfe = 20; // keep the size
    }
    let before = l.islands[0].archive.clone();
    l.islands[0].nfe = 100;
    // after 100 of 200 evaluations: N = round((4 - 20) / 200 * 100 + 20) = 12
    let keep = l.reduce(g, &with_best(&fy)).expect("a reduction");
    assert_eq!(l.islands[0].na, 12);
    assert_eq!(
        keep[0],
        (0..12).collect::<Vec<u32>>(),
        "the best 12 (lowest values) stay"
    );
    let after = &l.islands[0].archive;
    assert_eq!(after.len(), (2.6f64 * 12.0).round() as usize);
    assert!(after.iter().all(|s| before.contains(s)), "deletion only");
    assert!(after
        .windows(2)
        .all(|w| before.iter().position(|s| *s == w[0]) < before.iter().position(|s| *s == w[1])));
}

#[test]
fn lshade_size_schedule_and_jso_schedules_follow_the_papers() {
    // N_{g+1} = round((N_min - N_init) / MAX_NFE * NFE + N_init)
    for (n0, nfe, max, want) in [
        (100u32, 0u64, 1000u64, 100u32),
        (100, 500, 1000, 52),
        (100, 1000, 1000, 4),
        (100, 2000, 1000, 4),
        (18, 333, 1000, 13),
    ] {
        assert_eq!(adapt::lpsr_size(n0, nfe, max), want, "{n0} {nfe} {max}");
        let exact = ((4.0 - n0 as f64) / max as f64 * nfe as f64 + n0 as f64)
            .round()
            .max(4.0) as u32;
        assert_eq!(want, exact);
    }
    // jSO: Fw = 0.7 F, 0.8 F, 1.2 F at 20 % and 40 % of the budget
    assert_eq!(adapt::jso_fw(0.5, 199, 1000), 0.7 * 0.5);
    assert_eq!(adapt::jso_fw(0.5, 200, 1000), 0.8 * 0.5);
    assert_eq!(adapt::jso_fw(0.5, 400, 1000), 1.2 * 0.5);
    // CR at least 0.7 before 25 %, 0.6 before 50 %; F at most 0.7 before 60 %
    assert_eq!(adapt::jso_clamp(0.9, 0.1, 100, 1000), (0.7, 0.7));
    assert_eq!(adapt::jso_clamp(0.9, 0.1, 300, 1000), (0.7, 0.6));
    assert_eq!(adapt::jso_clamp(0.9, 0.1, 599, 1000), (0.7, 0.1));
    assert_eq!(adapt::jso_clamp(0.9, 0.1, 600, 1000), (0.9, 0.1));
    // p from 0.25 to 0.125
    assert_eq!(adapt::jso_p(0.25, 0, 1000), 0.25);
    assert!((adapt::jso_p(0.25, 500, 1000) - 0.1875).abs() < 1e-15);
    assert_eq!(adapt::jso_p(0.25, 1000, 1000), 0.125);
}

#[test]
fn plans_draw_valid_parameters_and_members() {
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        let nm = 30;
        let cfg = Config::new(&params(alg, 2, nm, 7, -1.0, 1.0, 3000)).unwrap();
        let mut a = Adaptive::new(&cfg);
        // some archive members, so r2 can come from it
        a.islands[0].archive = vec![3, 0, 7];
        a.islands[1].na = 11;
        let fx: Vec<f64> = (0..2 * (nm + 1)).map(|i| ((i * 37) % 61) as f64).collect();
        let plan = a.plan(5, &fx);
        assert_eq!(plan, a.plan(5, &fx), "a plan is a function of its key");
        assert_ne!(plan, a.plan(6, &fx));
        let mut from_archive = 0;
        for p in 0..2usize {
            let na = a.islands[p].na;
            let order = adapt::ranked(
                &fx[p * (nm as usize + 1)..p * (nm as usize + 1) + nm as usize],
                na,
            );
            for m in 0..na {
                let row = p * nm as usize + m as usize;
                let (f, cr) = (plan.f[row], plan.cr[row]);
                assert!(
                    f > 0.0 && f <= 1.0 && (0.0..=1.0).contains(&cr),
                    "{alg} F {f} CR {cr}"
                );
                assert_eq!(plan.crt[row], metaopt::de::ops::cr_threshold(cr));
                let id = &plan.idx[row * IDX..(row + 1) * IDX];
                assert_eq!((id[0], id[2]), (m, m), "current-to-pbest: a = c = i");
                // pbest among the top max(2, round(p N)) (SHADE's p_i at most 0.2)
                let top = ((0.25 * na as f64).round() as usize).max(2);
                assert!(
                    order[..top].contains(&id[1]),
                    "{alg} pbest {} not in the top {top}",
                    id[1]
                );
                assert!(id[3] < na && id[3] != m);
                assert!(id[4] != m && id[4] != id[3]);
                if id[4] >= nm {
                    assert!(a.islands[p].archive.contains(&(id[4] - nm)));
                    from_archive += 1;
                } else {
                    assert!(id[4] < na);
                }
                assert!(id[5] < 7);
                if alg == Algorithm::Jso {
                    // nfe = Nm of 3000: before 20 %: CR >= 0.7, F <= 0.7, Fw = 0.7 F
                    assert!(cr >= 0.7 && f <= 0.7 && plan.fw[row] == 0.7 * f);
                } else {
                    assert_eq!(plan.fw[row], f);
                }
            }
            for m in na..nm {
                assert_eq!(
                    plan.f[p * nm as usize + m as usize],
                    0.0,
                    "inactive members get no plan"
                );
            }
        }
        assert!(from_archive > 0, "{alg}: r2 never came from the archive");
    }
}

#[test]
fn bad_settings_are_errors_naming_them() {
    let p = params(Algorithm::LShade, 1, 20, 5, -1.0, 1.0, 0);
    assert!(arg_error(DeMultiPop::new(&p, Backend::Cpu), "lshade_budget").contains("budget"));
    let p = params(Algorithm::Jade, 1, 3, 5, -1.0, 1.0, 0);
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "members");
    let p = params(Algorithm::Jso, 2, 20, 5, -1.0, 1.0, 1000);
    let mut de = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    let obj = Objective::catalogue("F1").unwrap();
    arg_error(
        de.init(
            &obj,
            Mutation::Rand1,
            Migration::new(MigrationKind::One2One, 5),
        ),
        "migration",
    );
    assert!(
        "jSO".parse::<Algorithm>().unwrap() == Algorithm::Jso
            && "L-SHADE".parse::<Algorithm>().unwrap() == Algorithm::LShade
    );
    arg_error("jde".parse::<Algorithm>(), "algorithm");
    arg_error(
        Algorithm::from_code(9, "options.algorithm"),
        "options.algorithm",
    );
}

#[allow(clippy::too_many_arguments)]
fn run(
    alg: Algorithm,
    backend: Backend,
    f: &str,
    np: u32,
    nm: u32,
    nn: u32,
    budget: u64,
    stop: &Stop,
) -> (DeMultiPop, metaopt::de::DeRunResult) {
    let info = metaopt::problem::functions::lookup(f).unwrap();
    let (a, b) = info.domain;
    let mut de = DeMultiPop::new(&params(alg, np, nm, nn, a, b, budget), backend).unwrap();
    de.init(
        &Objective::catalogue(f).unwrap(),
        Mutation::Rand1,
        Migration::NONE,
    )
    .unwrap();
    let r = de.run(stop).unwrap();
    (de, r)
}

#[test]
fn device_equals_cpu_for_every_variant() {
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        let stop = Stop::budget(40);
        let (mut d, rd) = run(alg, Backend::DEVICE, "F6", 2, 24, 6, 600, &stop);
        let (mut c, rc) = run(alg, Backend::Cpu, "F6", 2, 24, 6, 600, &stop);
        assert_eq!(rd.evaluations, rc.evaluations, "{alg}");
        let (bd, bc) = (d.bests_fitness().unwrap(), c.bests_fitness().unwrap());
        for (x, y) in bd.iter().zip(&bc) {
            assert!(
                (x - y).abs() <= 1e-9 * (1.0 + y.abs()),
                "{alg}: device {bd:?} cpu {bc:?}"
            );
        }
        for (x, y) in rd.x.iter().zip(&rc.x) {
            assert!((x - y).abs() <= 1e-9, "{alg}: {:?} {:?}", rd.x, rc.x);
        }
        if alg.reduces() {
            assert!(rd.evaluations < 2 * 24 * 41, "{alg}: the population shrank");
            // an evaluation budget: the device's launches of several shrinking generations stop
            // where the CPU's generation-by-generation run stops
            let stop = Stop {
                evaluations: Some(700),
                ..Stop::default()
            };
            let (_, rd) = run(alg, Backend::DEVICE, "F6", 2, 24, 6, 600, &stop);
            let (_, rc) = run(alg, Backend::Cpu, "F6", 2, 24, 6, 600, &stop);
            assert_eq!(
                (rd.evaluations, rd.generations),
                (rc.evaluations, rc.generations),
                "{alg}"
            );
            // (the budget is the run's; the 2 x 24 initial members come before it)
            let run_evals = rd.evaluations - 2 * 24;
            assert!(run_evals <= 700 && run_evals > 650, "{alg}: {run_evals}");
            assert!(
                (rd.value - rc.value).abs() <= 1e-9 * (1.0 + rc.value.abs()),
                "{alg}: device {} cpu {}",
                rd.value,
                rc.value
            );
        }
    }
}

#[test]
fn every_variant_solves_sphere_rosenbrock_rastrigin_in_10_dims_on_the_device() {
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        for (f, gens) in [("F1", 400), ("F5", 2500), ("F6", 1500)] {
            let nm = 50;
            // the budget of L-SHADE's and jSO's schedules is the run's
            let stop = Stop {
                evaluations: Some(2 * gens * nm as u64),
                target: Some(1e-8),
                ..Stop::default()
            };
            let (_, r) = run(alg, Backend::DEVICE, f, 2, nm, 10, gens * nm as u64, &stop);
            assert!(
                r.value <= 1e-8,
                "{alg} {f}: {} after {} generations",
                r.value,
                r.generations
            );
        }
    }
}

#[test]
fn every_variant_solves_sphere_rosenbrock_rastrigin_in_30_dims_on_the_cpu() {
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        for (f, gens) in [("F1", 1500), ("F5", 8000), ("F6", 6000)] {
            let nm = 100;
            let stop = Stop {
                evaluations: Some(gens * nm as u64),
                target: Some(1e-8),
                ..Stop::default()
            };
            let (_, r) = run(alg, Backend::Cpu, f, 1, nm, 30, gens * nm as u64, &stop);
            assert!(
                r.value <= 1e-8,
                "{alg} {f}: {} after {} generations",
                r.value,
                r.generations
            );
        }
    }
}

#[test]
fn single_precision_device_runs_every_variant() {
    // the kernels in float (F, Fw and the archive as floats); the values rounded to float
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        let mut p = params(alg, 2, 20, 5, -5.12, 5.12, 20 * 200);
        p.options.precision = metaopt::Precision::Single;
        let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
        assert!(!de.config().options.double);
        de.init(
            &Objective::catalogue("F1").unwrap(),
            Mutation::Rand1,
            Migration::NONE,
        )
        .unwrap();
        let r = de
            .run(&Stop {
                budget: Some(200),
                target: Some(1e-6),
                ..Stop::default()
            })
            .unwrap();
        assert!(r.value <= 1e-6, "{alg}: {}", r.value);
        assert!(r.x.iter().all(|v| v.abs() < 1e-2));
    }
}

/// JADE and SHADE with migration (the device's host keeps the values of the last generation for
/// the next plan and must forget them when a migration moves members): the device follows the
/// CPU backend's run, over several `run` calls.
#[test]
fn device_equals_cpu_with_migration_between_generations() {
    for alg in [Algorithm::Jade, Algorithm::Shade] {
        let mut bests = Vec::new();
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let info = metaopt::problem::functions::lookup("F6").unwrap();
            let (a, b) = info.domain;
            let mut de = DeMultiPop::new(&params(alg, 3, 20, 5, a, b, 0), backend).unwrap();
            de.init(
                &Objective::catalogue("F6").unwrap(),
                Mutation::Rand1,
                Migration::new(MigrationKind::One2One, 4),
            )
            .unwrap();
            let mut last = None;
            for _ in 0..3 {
                last = Some(de.run(&Stop::budget(11)).unwrap());
            }
            let r = last.unwrap();
            bests.push((
                de.bests_fitness().unwrap(),
                de.fitness().unwrap(),
                r.x,
                r.evaluations,
            ));
        }
        let ((bd, fd, xd, ed), (bc, fc, xc, ec)) = (&bests[0], &bests[1]);
        assert_eq!(ed, ec, "{alg}");
        for (x, y) in bd.iter().zip(bc).chain(fd.iter().zip(fc)) {
            assert!(
                (x - y).abs() <= 1e-9 * (1.0 + y.abs()),
                "{alg}: device {fd:?} cpu {fc:?}"
            );
        }
        for (x, y) in xd.iter().zip(xc) {
            assert!((x - y).abs() <= 1e-9, "{alg}: {xd:?} {xc:?}");
        }
    }
}

/// Where each path runs (docs/specs/DE.md "Adaptive DE, on the device"): on a device with a
/// compiled objective the variants take the fused kernel (`ade_fused`); with a host callback or
/// `fused = false` they stay host-planned (`adapt.rs`), and still solve sphere.
#[test]
fn the_fused_path_and_the_host_planned_path_both_solve_sphere() {
    let sphere = Objective::callback(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    });
    let f1 = Objective::catalogue("F1").unwrap();
    for alg in [
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
    ] {
        for (obj, fused, want) in [
            (&f1, true, true),
            (&f1, false, false),
            (&sphere, true, false),
        ] {
            let mut p = params(alg, 2, 20, 4, -5.0, 5.0, 20 * 400);
            p.options.fused = fused;
            let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
            de.init(obj, Mutation::Rand1, Migration::NONE).unwrap();
            assert_eq!(
                de.describe().contains("fused"),
                want,
                "{alg} {fused}: {}",
                de.describe()
            );
            let r = de
                .run(&Stop {
                    budget: Some(400),
                    target: Some(1e-8),
                    ..Stop::default()
                })
                .unwrap();
            assert!(
                r.value <= 1e-8,
                "{alg} fused {fused}: {} after {} generations",
                r.value,
                r.generations
            );
        }
    }
}
