//! Island DE: the device against the host operators and the CPU backend, the bound corrections
//! on constructed cases, mutation against a host computation, migrations, the X/Y tile
//! transposition (the thesis's appendix D check), convergence on F1/F6 and CEC04t..CEC10t, and
//! errors for invalid settings.

mod adaptive;
mod ade_fused;
mod batch;
mod batch_constrained;
mod constrained;
mod jde100;

use crate::common::arg_error;

use metaopt::de::ops::{self, Move};
use metaopt::de::{
    Backend, BoundsCorrection, DeMultiPop, DeOptions, DeParams, FMode, Migration, MigrationKind,
    Mutation, Selection,
};
use metaopt::objective::Objective;
use metaopt::run::Stop;
use metaopt::{Error, Precision};

fn params(
    np: u32,
    nm: u32,
    nn: u32,
    a: f64,
    b: f64,
    bounds: BoundsCorrection,
    double: bool,
) -> DeParams {
    let mut p = DeParams::new(np, nm, nn, a, b, bounds);
    p.options.double = double;
    p
}

fn solver(
    p: &DeParams,
    backend: Backend,
    obj: &str,
    mutation: Mutation,
    migration: Migration,
) -> DeMultiPop {
    let mut de = DeMultiPop::new(p, backend).unwrap();
    de.init(&Objective::catalogue(obj).unwrap(), mutation, migration)
        .unwrap();
    de
}

// ---- bound corrections --------------------------------------------------------------------

#[test]
fn bound_corrections_match_their_formulas() {
    use BoundsCorrection::*;
    let (a, b) = (-1.2, 2.4);
    let x = 0.5;
    // inside: unchanged
    for k in BoundsCorrection::ALL {
        assert_eq!(ops::correct(k, 1.0, x, a, b, 7, 9), 1.0);
        assert_eq!(ops::correct(k, a, x, a, b, 7, 9), a);
        assert_eq!(ops::correct(k, b, x, a, b, 7, 9), b);
    }
    assert_eq!(ops::correct(Saturation, -3.0, x, a, b, 0, 0), a);
    assert_eq!(ops::correct(Saturation, 9.0, x, a, b, 0, 0), b);
    // mirror: reflect within one width, clamp beyond
    assert!((ops::correct(Mirror, -2.0, x, a, b, 0, 0) - (2.0 * a + 2.0)).abs() < 1e-15);
    assert!((ops::correct(Mirror, 3.0, x, a, b, 0, 0) - (2.0 * b - 3.0)).abs() < 1e-15);
    assert_eq!(ops::correct(Mirror, -5.0, x, a, b, 0, 0), a);
    assert_eq!(ops::correct(Mirror, 6.1, x, a, b, 0, 0), b);
    // toroidal: non-negative modulo, also below a (where fmod alone would leave [a, b])
    assert!((ops::correct(Toroidal, -2.0, x, a, b, 0, 0) - (b - 0.8)).abs() < 1e-12);
    assert!((ops::correct(Toroidal, 3.0, x, a, b, 0, 0) - (a + 0.6)).abs() < 1e-12);
    assert!((ops::correct(Toroidal, -9.0, x, a, b, 0, 0) - (a + 3.6 - (7.8 % 3.6))).abs() < 1e-12);
    // halfway to the violated bound from the target
    assert!((ops::correct(Halfway, -7.0, x, a, b, 0, 0) - (x + a) / 2.0).abs() < 1e-15);
    assert!((ops::correct(Halfway, 7.0, x, a, b, 0, 0) - (x + b) / 2.0).abs() < 1e-15);
    // uniform: a + u (b - a) with u from the first word
    assert!((ops::correct(Uniform, 7.0, x, a, b, 0x8000_0000, 0) - (a + 0.5 * 3.6)).abs() < 1e-9);
    // COTN: next to the violated bound, on the inside
    for w in 0..2000u32 {
        let (w1, w2) = (
            w.wrapping_mul(2_654_435_761),
            w.wrapping_mul(40_503).wrapping_add(12_345),
        );
        let r = ops::cotn_unit(w1, w2);
        assert!((0.0..=1.0).contains(&r), "{r}");
        assert!((ops::correct(Cotn, -9.0, x, a, b, w1, w2) - (a + r * 3.6)).abs() < 1e-12);
        assert!((ops::correct(Cotn, 9.0, x, a, b, w1, w2) - (b - r * 3.6)).abs() < 1e-12);
    }
    // every strategy lands in [a, b] for values far outside too
    for k in BoundsCorrection::ALL {
        for i in 0..1000 {
            let v = -50.0 + i as f64 * 0.1;
            let c = ops::correct(k, v, x, a, b, i * 7919, i * 104_729);
            assert!((a..=b).contains(&c), "{k} {v} -> {c}");
        }
    }
}

#[test]
fn cotn_concentrates_next_to_the_bound() {
    // the thesis's Fig. 3: density decreasing from 0; half normal with sigma 0.32 has median 0.216
    let mut rs: Vec<f64> = (0..20_000u32)
        .map(|i| {
            ops::cotn_unit(
                metaopt::rng::rng4(5, 0, i as u64)[0],
                metaopt::rng::rng4(5, 0, i as u64)[1],
            )
        })
        .collect();
    rs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = rs[rs.len() / 2];
    assert!((0.19..0.24).contains(&median), "median {median}");
    let below_half = rs.iter().filter(|&&r| r < 0.5).count() as f64 / rs.len() as f64;
    assert!(below_half > 0.8, "{below_half}");
}

// ---- the device against the host operators --------------------------------------------------

/// One generation on the device from its own initial population, recomputed on the host.
fn check_generation(mutation: Mutation, bounds: BoundsCorrection, f: f64, cr: f64, shared: bool) {
    let (np, nm, nn) = (5u32, 7u32, 3u32);
    let mut p = params(np, nm, nn, -1.0, 2.0, bounds, true);
    p.options.f_mode = FMode::Const;
    p.options.f_min = f;
    p.options.cr = vec![cr];
    p.options.shared_random = shared;
    let mut de = solver(&p, Backend::DEVICE, "F1", mutation, Migration::NONE);
    let x0: Vec<Vec<Vec<f64>>> = (0..np)
        .map(|pp| {
            (0..=nm)
                .map(|m| {
                    if m == nm {
                        de.best(pp).unwrap()
                    } else {
                        de.x(pp, m).unwrap()
                    }
                })
                .collect()
        })
        .collect();
    de.iteration().unwrap();
    let (y, fy) = de.trials().unwrap();
    let o = &p.options;
    let mut outside = 0;
    for pp in 0..np {
        for m in 0..nm {
            let (r, jrand) = ops::indices(o.mutation_seed, 1, pp, m, np, nm, nn, mutation, shared);
            for n in 0..nn {
                let w = ops::crossover_words(o.crossover_seed, 1, pp, m, n, np, nm, nn, shared);
                let xi = x0[pp as usize][m as usize][n as usize];
                let want = if n == jrand || (w[0] as u64) < ops::cr_threshold(cr) {
                    let v = ops::mutant(mutation, f, &r, m, nm, |k| {
                        x0[pp as usize][k as usize][n as usize]
                    });
                    if !(-1.0..=2.0).contains(&v) {
                        outside += 1;
                    }
                    ops::correct(bounds, v, xi, -1.0, 2.0, w[1], w[2])
                } else {
                    xi
                };
                let got = y[((pp * nm + m) * nn + n) as usize];
                assert!(
                    (-1.0..=2.0).contains(&got),
                    "{mutation} {bounds}: {got} outside"
                );
                assert!(
                    (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "{mutation} {bounds} p{pp} m{m} n{n}: device {got}, host {want}"
                );
            }
            let row = &y[((pp * nm + m) * nn) as usize..((pp * nm + m + 1) * nn) as usize];
            let f1: f64 = row.iter().map(|v| v * v).sum();
            assert!((fy[(pp * nm + m) as usize] - f1).abs() < 1e-12);
        }
    }
    if f > 2.0 {
        assert!(
            outside > 10,
            "{bounds}: the case should exercise the correction ({outside} outside)"
        );
    }
}

#[test]
fn each_mutation_matches_the_host() {
    for m in Mutation::ALL {
        check_generation(m, BoundsCorrection::Saturation, 0.7, 0.9, false);
    }
    check_generation(
        Mutation::Rand1,
        BoundsCorrection::Saturation,
        0.7,
        0.5,
        true,
    );
}

#[test]
fn each_bound_correction_matches_the_host_on_the_device() {
    for b in BoundsCorrection::ALL {
        check_generation(Mutation::Rand1, b, 25.0, 1.0, false);
    }
}

#[test]
fn mutation_formulas_by_hand() {
    // a population whose members are their own index, so each strategy's value is arithmetic
    let r = [1u32, 2, 3, 4, 5];
    let x = |k: u32| k as f64 * 10.0;
    let (i, best) = (0u32, 6u32);
    assert_eq!(
        ops::mutant(Mutation::Rand1, 0.5, &r, i, best, x),
        10.0 + 0.5 * (20.0 - 30.0)
    );
    assert_eq!(
        ops::mutant(Mutation::Rand2, 0.5, &r, i, best, x),
        10.0 - 5.0 + 0.5 * (40.0 - 50.0)
    );
    assert_eq!(
        ops::mutant(Mutation::Best1, 0.5, &r, i, best, x),
        60.0 + 0.5 * (10.0 - 20.0)
    );
    assert_eq!(
        ops::mutant(Mutation::Best2, 0.5, &r, i, best, x),
        60.0 - 5.0 + 0.5 * (30.0 - 40.0)
    );
    assert_eq!(
        ops::mutant(Mutation::CurrentToRand1, 0.5, &r, i, best, x),
        0.0 + 0.5 * 10.0 + 0.5 * (20.0 - 30.0)
    );
    assert_eq!(
        ops::mutant(Mutation::CurrentToBest1, 0.5, &r, i, best, x),
        0.0 + 0.5 * 60.0 + 0.5 * (10.0 - 20.0)
    );
}

#[test]
fn random_members_are_uniform_and_distinct() {
    // each other member equally likely as r1 (chi-square over 30,000 draws)
    let nm = 7u32;
    let mut counts = [0u32; 7];
    for g in 0..30_000 {
        let (r, _) = ops::indices(345, g, 2, 3, 4, nm, 5, Mutation::Rand2, false);
        counts[r[0] as usize] += 1;
        let mut all = r.to_vec();
        all.push(3);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 6);
    }
    assert_eq!(counts[3], 0);
    let e = 30_000.0 / 6.0;
    let chi: f64 = counts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, &c)| (c as f64 - e).powi(2) / e)
        .sum();
    assert!(chi < 25.0, "chi-square {chi}: {counts:?}");
}

// ---- the device against the CPU backend -----------------------------------------------------

#[test]
fn cpu_backend_follows_the_device_run() {
    for (mutation, migration, bounds) in [
        (
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 5),
            BoundsCorrection::Cotn,
        ),
        (
            Mutation::CurrentToBest1,
            Migration::new(MigrationKind::One2N, 3),
            BoundsCorrection::Mirror,
        ),
        (
            Mutation::Best2,
            Migration::new(MigrationKind::RandTarget, 4),
            BoundsCorrection::Halfway,
        ),
    ] {
        let p = params(6, 12, 5, -5.12, 5.12, bounds, true);
        let mut dev = solver(&p, Backend::DEVICE, "F1", mutation, migration);
        let mut cpu = solver(&p, Backend::Cpu, "F1", mutation, migration);
        for g in 0..30 {
            let (a, b) = (dev.fitness().unwrap(), cpu.fitness().unwrap());
            for (i, (u, v)) in a.iter().zip(&b).enumerate() {
                assert!(
                    (u - v).abs() <= 1e-9 * u.abs().max(1e-3),
                    "{mutation} gen {g} value {i}: device {u}, cpu {v}"
                );
            }
            dev.iteration().unwrap();
            cpu.iteration().unwrap();
        }
        let (a, b) = (dev.best(2).unwrap(), cpu.best(2).unwrap());
        for (u, v) in a.iter().zip(&b) {
            assert!((u - v).abs() < 1e-9, "{a:?} {b:?}");
        }
    }
}

/// The spread (scipy's convergence test) is over every member, the islands' best slots left
/// out: on the device its moments computed there equal the host's two passes over the values
/// it holds (in double exactly; in float to float's precision), and the result is numpy's
/// mean and std of the members.
#[test]
fn spread_is_every_members_on_the_device_and_the_cpu() {
    let nm = 13;
    for double in [true, false] {
        let p = params(5, nm, 4, -5.12, 5.12, BoundsCorrection::Cotn, double);
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let migration = Migration::new(MigrationKind::PermuteN, 3);
            let mut de = solver(&p, backend, "F6", Mutation::Rand1, migration);
            for _ in 0..7 {
                de.iteration().unwrap();
            }
            let fx = de.fitness().unwrap();
            let got = de.spread().unwrap();
            let host = ops::spread(&ops::moments(&fx, nm as usize), nm as usize);
            if double || backend == Backend::Cpu {
                assert_eq!(got, host, "{backend:?} double {double}");
            } else {
                assert!(
                    (got.mean - host.mean).abs() <= 1e-5 * host.mean.abs(),
                    "{got:?} {host:?}"
                );
                assert!(
                    (got.std - host.std).abs() <= 1e-4 * host.std,
                    "{got:?} {host:?}"
                );
            }
            let members: Vec<f64> = fx
                .chunks_exact(nm as usize + 1)
                .flat_map(|c| c[..nm as usize].to_vec())
                .collect();
            let n = members.len() as f64;
            let mean = members.iter().sum::<f64>() / n;
            let std = (members.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
            assert!(
                (host.mean - mean).abs() <= 1e-12 * mean.abs(),
                "{host:?} {mean}"
            );
            assert!((host.std - std).abs() <= 1e-9 * std, "{host:?} {std}");
            // the members still differ: the islands' bests alone would say otherwise
            assert!(!got.converged(1e-6, 0.0) && std > 0.0);
        }
    }
}

/// What a comparison of two runs reads: every call's (best, vector, generations, evaluations,
/// every value, every island's best), the last trials and their values, the last member.
type Recorded = (
    Vec<(f64, Vec<f64>, u64, u64, Vec<f64>, Vec<f64>)>,
    Vec<f64>,
    Vec<f64>,
    Vec<f64>,
);

/// Three runs of `gens` generations of `q` on the device, recorded; `check` sees the backend's
/// description once the kernels are built.
fn record_runs(
    q: &DeParams,
    obj: &Objective,
    mutation: Mutation,
    migration: Migration,
    gens: u64,
    check: impl Fn(&str),
) -> Recorded {
    let mut de = DeMultiPop::new(q, Backend::DEVICE).unwrap();
    de.init(obj, mutation, migration).unwrap();
    check(&de.describe());
    let mut values = Vec::new();
    for _ in 0..3 {
        let r = de.run(&Stop::budget(gens)).unwrap();
        values.push((
            r.value,
            r.x,
            r.generations,
            r.evaluations,
            de.fitness().unwrap(),
            de.bests_fitness().unwrap(),
        ));
    }
    let (y, fy) = de.trials().unwrap();
    (values, y, fy, de.x(q.islands - 1, q.members - 1).unwrap())
}

/// Two recorded runs agree: equal generations and evaluations, every value to `tol` (relative).
fn assert_runs_agree(a: &Recorded, b: &Recorded, tol: f64, what: &str) {
    let close = |a: f64, b: f64| a == b || (a - b).abs() <= tol * a.abs().max(1e-300);
    let all =
        |u: &[f64], v: &[f64]| u.len() == v.len() && u.iter().zip(v).all(|(x, y)| close(*x, *y));
    for (i, (u, v)) in a.0.iter().zip(&b.0).enumerate() {
        assert_eq!(
            (u.2, u.3),
            (v.2, v.3),
            "{what} call {i}: generations and evaluations"
        );
        assert!(
            close(u.0, v.0),
            "{what} call {i}: best {} against {}",
            u.0,
            v.0
        );
        assert!(all(&u.1, &v.1), "{what} call {i}: best vectors differ");
        for (j, (x, y)) in u.4.iter().zip(&v.4).enumerate() {
            assert!(close(*x, *y), "{what} call {i}: value {j}: {x} against {y}");
        }
        assert!(all(&u.5, &v.5), "{what} call {i}: island bests differ");
    }
    assert!(all(&a.1, &b.1), "{what}: the last trials differ");
    assert!(all(&a.2, &b.2), "{what}: the last trial values differ");
    assert!(all(&a.3, &b.3), "{what}: a member differs");
}

/// The run of `p` fused and per-phase (`DeOptions::fused`) agree to `tol`.
fn fused_equals_unfused(
    p: &DeParams,
    obj: &Objective,
    mutation: Mutation,
    migration: Migration,
    gens: u64,
    tol: f64,
) {
    let runs: Vec<Recorded> = [true, false]
        .into_iter()
        .map(|fused| {
            let mut q = p.clone();
            q.options.fused = fused;
            record_runs(&q, obj, mutation, migration, gens, |d| {
                assert_eq!(d.contains("fused generations"), fused, "{d}");
                // a catalogue function reads the fused kernel's trials in local memory, a
                // user's source reads them in global memory
                let catalogue = matches!(obj, Objective::Catalogue { .. });
                assert_eq!(d.contains("trials local"), fused && catalogue, "{d}");
            })
        })
        .collect();
    assert_runs_agree(
        &runs[0],
        &runs[1],
        tol,
        &format!("{mutation} {migration:?} fused against per-phase"),
    );
}

#[test]
fn fused_generations_equal_the_per_phase_launches() {
    // in double every operation is the host's: the runs are equal value for value, whatever the
    // mutation, bound correction, random sharing, migration, and members not a power of two
    let cases = [
        (
            Mutation::Rand1,
            BoundsCorrection::Cotn,
            Migration::NONE,
            false,
        ),
        (
            Mutation::Rand2,
            BoundsCorrection::Mirror,
            Migration::new(MigrationKind::PermuteN, 7),
            false,
        ),
        (
            Mutation::Best1,
            BoundsCorrection::Toroidal,
            Migration::new(MigrationKind::One2N, 4),
            true,
        ),
        (
            Mutation::Best2,
            BoundsCorrection::Halfway,
            Migration::NONE,
            false,
        ),
        (
            Mutation::CurrentToRand1,
            BoundsCorrection::Uniform,
            Migration::new(MigrationKind::RandTarget, 5),
            false,
        ),
        (
            Mutation::CurrentToBest1,
            BoundsCorrection::Saturation,
            Migration::new(MigrationKind::N2N, 3),
            true,
        ),
    ];
    for (mutation, bounds, migration, shared) in cases {
        let mut p = params(6, 13, 7, -5.12, 5.12, bounds, true);
        p.options.shared_random = shared;
        p.options.f_max = 2.5;
        fused_equals_unfused(
            &p,
            &Objective::catalogue("F6").unwrap(),
            mutation,
            migration,
            25,
            0.0,
        );
    }
    // a transformed CEC function with its data, and a user source with a data buffer
    let p = params(4, 32, 10, -100.0, 100.0, BoundsCorrection::Cotn, true);
    fused_equals_unfused(
        &p,
        &Objective::catalogue("CEC07t").unwrap(),
        Mutation::Rand1,
        Migration::new(MigrationKind::One2One, 10),
        40,
        0.0,
    );
    let src = "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n{\n    __global const FP *c = (__global const FP *)data;\n    FP s = 0;\n    for (uint n = 0; n < dims; ++n) { FP d = x[n * stride] - c[n]; s += d * d; }\n    return s;\n}\n";
    let centre: Vec<u8> = (0..10)
        .flat_map(|n| (n as f64 * 0.25 - 1.0).to_le_bytes())
        .collect();
    fused_equals_unfused(
        &p,
        &Objective::source(src, centre),
        Mutation::Best1,
        Migration::NONE,
        30,
        0.0,
    );
}

/// The run of `p` with the wide generation on and off (`DeOptions::wide`) agree to `tol`.
fn wide_equals_fused(
    p: &DeParams,
    obj: &Objective,
    mutation: Mutation,
    migration: Migration,
    gens: u64,
    tol: f64,
) {
    let runs: Vec<Recorded> = [true, false]
        .into_iter()
        .map(|wide| {
            let mut q = p.clone();
            q.options.wide = Some(wide);
            record_runs(&q, obj, mutation, migration, gens, |d| {
                assert_eq!(d.contains("wide generations"), wide, "{d}")
            })
        })
        .collect();
    assert_runs_agree(
        &runs[0],
        &runs[1],
        tol,
        &format!("{mutation} {migration:?} wide against fused"),
    );
}

#[test]
fn wide_generations_equal_the_fused_kernel() {
    // the wide generation (a launch a generation over groups of members, X and Fx alternating
    // with a second copy) computes what the fused kernel computes: in double value for value,
    // whatever the mutation (those that read the best find it before every generation), bound
    // correction, random sharing and migration, with more members than PoCL's fused group (16)
    // and not a power of two
    let cases = [
        (
            Mutation::Rand1,
            BoundsCorrection::Cotn,
            Migration::NONE,
            false,
        ),
        (
            Mutation::Rand2,
            BoundsCorrection::Mirror,
            Migration::new(MigrationKind::PermuteN, 7),
            false,
        ),
        (
            Mutation::Best1,
            BoundsCorrection::Toroidal,
            Migration::new(MigrationKind::One2N, 4),
            true,
        ),
        (
            Mutation::Best2,
            BoundsCorrection::Halfway,
            Migration::NONE,
            false,
        ),
        (
            Mutation::CurrentToRand1,
            BoundsCorrection::Uniform,
            Migration::new(MigrationKind::RandTarget, 5),
            false,
        ),
        (
            Mutation::CurrentToBest1,
            BoundsCorrection::Saturation,
            Migration::new(MigrationKind::One2One, 3),
            true,
        ),
    ];
    for (mutation, bounds, migration, shared) in cases {
        let mut p = params(3, 37, 7, -5.12, 5.12, bounds, true);
        p.options.shared_random = shared;
        p.options.f_max = 2.5;
        wide_equals_fused(
            &p,
            &Objective::catalogue("F6").unwrap(),
            mutation,
            migration,
            12,
            0.0,
        );
    }
    // one island (the case the wide generation is for), a transformed CEC function with its
    // data, and a user source with a data buffer
    let p = params(1, 70, 10, -100.0, 100.0, BoundsCorrection::Cotn, true);
    wide_equals_fused(
        &p,
        &Objective::catalogue("CEC07t").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        20,
        0.0,
    );
    let src = "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n{\n    __global const FP *c = (__global const FP *)data;\n    FP s = 0;\n    for (uint n = 0; n < dims; ++n) { FP d = x[n * stride] - c[n]; s += d * d; }\n    return s;\n}\n";
    let centre: Vec<u8> = (0..10)
        .flat_map(|n| (n as f64 * 0.25 - 1.0).to_le_bytes())
        .collect();
    let p = params(2, 40, 10, -100.0, 100.0, BoundsCorrection::Cotn, true);
    wide_equals_fused(
        &p,
        &Objective::source(src, centre),
        Mutation::Best1,
        Migration::new(MigrationKind::One2One, 5),
        15,
        0.0,
    );
    // in float the fused kernel reads the trials from local memory, a program of its own: the
    // first generation agrees to rounding
    let p = params(2, 40, 10, -5.12, 5.12, BoundsCorrection::Cotn, false);
    wide_equals_fused(
        &p,
        &Objective::catalogue("F6").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        1,
        1e-5,
    );
}

#[test]
fn adaptive_wide_generations_equal_the_fused_kernel() {
    // JADE, SHADE, L-SHADE and jSO in the wide kernels (ade_wide_trials over the grid, then
    // ade_wide_adapt per island) run what ade_fused runs, value for value in double: the
    // memories, the archive (filled and then replaced at random), the shrinking populations,
    // migration between islands
    use metaopt::de::Algorithm;
    for (alg, migration) in [
        (Algorithm::Jade, Migration::new(MigrationKind::One2One, 4)),
        (Algorithm::Shade, Migration::new(MigrationKind::PermuteN, 3)),
        (Algorithm::LShade, Migration::NONE),
        (Algorithm::Jso, Migration::NONE),
    ] {
        let mut p = params(3, 37, 6, -5.12, 5.12, BoundsCorrection::Cotn, true);
        p.options.algorithm = alg;
        p.options.lshade_budget = 37 * 60;
        wide_equals_fused(
            &p,
            &Objective::catalogue("F6").unwrap(),
            Mutation::Rand1,
            migration,
            15,
            0.0,
        );
    }
    // 100 members in PoCL's groups of 16: the fused kernel's ranking sorts the indices in its
    // scratch and reads the values from global memory; the wide kernels' larger scratch holds
    // the values too
    let mut p = params(1, 100, 10, -100.0, 100.0, BoundsCorrection::Cotn, true);
    p.options.algorithm = Algorithm::Jade;
    wide_equals_fused(
        &p,
        &Objective::catalogue("CEC07t").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        20,
        0.0,
    );
}

#[test]
fn the_wide_generation_is_taken_where_asked_and_refused_nowhere() {
    // auto keeps the fused kernel for an island that fits local memory (PoCL's), jDE100 ignores
    // the option, and unfused runs keep their per-phase launches
    let obj = Objective::catalogue("F6").unwrap();
    let mut p = params(1, 40, 5, -5.12, 5.12, BoundsCorrection::Cotn, true);
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(&obj, Mutation::Rand1, Migration::NONE).unwrap();
    assert!(
        de.describe().contains("fused generations"),
        "{}",
        de.describe()
    );
    p.options.wide = Some(true);
    p.options.fused = false;
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(&obj, Mutation::Rand1, Migration::NONE).unwrap();
    assert!(
        !de.describe().contains("wide") && !de.describe().contains("fused"),
        "{}",
        de.describe()
    );
    p.options.fused = true;
    p.options.algorithm = metaopt::de::Algorithm::Jde100;
    p.options.jde_small = 10;
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(&obj, Mutation::Rand1, Migration::NONE).unwrap();
    assert!(!de.describe().contains("wide"), "{}", de.describe());
    de.run(&Stop::budget(5)).unwrap();
    // an island beyond the device's group limit: auto takes the wide generation (not the
    // per-phase launches), the same run in double
    let max_wg = Backend::DEVICE
        .context("test")
        .unwrap()
        .info
        .max_work_group_size as u32;
    let p = params(1, max_wg + 3, 4, -5.12, 5.12, BoundsCorrection::Cotn, true);
    let mut runs = Vec::new();
    for wide in [None, Some(false)] {
        let mut q = p.clone();
        q.options.wide = wide;
        let mut de = DeMultiPop::new(&q, Backend::DEVICE).unwrap();
        de.init(&obj, Mutation::Best1, Migration::NONE).unwrap();
        assert_eq!(
            de.describe().contains("wide generations"),
            wide.is_none(),
            "{}",
            de.describe()
        );
        let r = de.run(&Stop::budget(3)).unwrap();
        runs.push((r.value, r.x, de.fitness().unwrap()));
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn fused_generations_in_float_follow_the_per_phase_launches() {
    // in float the compiler may evaluate the objective differently in the two kernels: the runs
    // agree to rounding for the first generations (they may part later, as chaotic runs do)
    let p = params(8, 32, 10, -5.12, 5.12, BoundsCorrection::Cotn, false);
    fused_equals_unfused(
        &p,
        &Objective::catalogue("F6").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        1,
        1e-5,
    );
}

#[test]
fn islands_too_large_for_a_group_take_the_per_phase_path() {
    // (without the wide generation: by default they take it, `the_wide_generation_is_taken_where_asked_and_refused_nowhere`)
    let mut p = params(2, 5000, 3, -5.0, 5.0, BoundsCorrection::Saturation, true);
    p.options.wide = Some(false);
    let mut de = solver(&p, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    assert!(!de.describe().contains("fused"), "{}", de.describe());
    let r = de.run(&Stop::budget(3)).unwrap();
    assert_eq!(r.generations, 3);
    // a host callback fills Fy on the host: never fused
    let p = params(4, 16, 3, -5.0, 5.0, BoundsCorrection::Saturation, true);
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    let cb = Objective::callback(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    });
    de.init(&cb, Mutation::Rand1, Migration::NONE).unwrap();
    assert!(!de.describe().contains("fused"), "{}", de.describe());
}

// ---- migrations -------------------------------------------------------------------------------

fn fx_of(bests: &[f64], nm: u32) -> Vec<f64> {
    // population p: members valued p*100 + m, best copy = the given best
    let mut fx = Vec::new();
    for (p, &b) in bests.iter().enumerate() {
        for m in 0..nm {
            fx.push(p as f64 * 100.0 + m as f64 + 1.0);
        }
        fx.push(b);
    }
    fx
}

#[test]
fn migrations_do_what_de_md_says() {
    let nm = 5u32;
    let np = 8u32;
    let bests: Vec<f64> = (0..np).map(|p| p as f64 * 100.0 + 1.0).collect();
    let fx = fx_of(&bests, nm);
    let worst = nm - 1;
    for gen in 1..50u64 {
        // One2One: two populations swap bests into each other's worst
        let mv = ops::plan_migration(MigrationKind::One2One, 581, gen, np, nm, &fx);
        assert_eq!(mv.len(), 2);
        assert_eq!((mv[0].src, mv[0].dst), (mv[1].dst, mv[1].src));
        assert!(mv.iter().all(|m| m.member == worst && m.src != m.dst));
        // One2N: one source to every other population's worst
        let mv = ops::plan_migration(MigrationKind::One2N, 581, gen, np, nm, &fx);
        assert_eq!(mv.len(), np as usize - 1);
        assert!(mv
            .iter()
            .all(|m| m.src == mv[0].src && m.member == worst && m.dst != m.src));
        // N2One: the others' bests replace the target's worst members, better senders first
        let mv = ops::plan_migration(MigrationKind::N2One, 581, gen, np, nm, &fx);
        assert_eq!(mv.len(), nm as usize - 1);
        let t = mv[0].dst;
        assert!(mv.iter().all(|m| m.dst == t && m.src != t));
        let members: Vec<u32> = mv.iter().map(|m| m.member).collect();
        assert_eq!(members, vec![4, 3, 2, 1]);
        let srcs: Vec<u32> = mv.iter().map(|m| m.src).collect();
        assert!(srcs
            .windows(2)
            .all(|w| bests[w[0] as usize] <= bests[w[1] as usize]));
        // PermuteN: a derangement — every population sends once and receives once, never itself
        let mv = ops::plan_migration(MigrationKind::PermuteN, 581, gen, np, nm, &fx);
        assert_eq!(mv.len(), np as usize);
        let mut dsts: Vec<u32> = mv.iter().map(|m| m.dst).collect();
        let mut srcs: Vec<u32> = mv.iter().map(|m| m.src).collect();
        dsts.sort();
        srcs.sort();
        assert_eq!(dsts, (0..np).collect::<Vec<_>>());
        assert_eq!(srcs, (0..np).collect::<Vec<_>>());
        assert!(mv.iter().all(|m| m.src != m.dst && m.member == worst));
        // RandTarget: at most one sender per target, the best of those that chose it
        let mv = ops::plan_migration(MigrationKind::RandTarget, 581, gen, np, nm, &fx);
        let mut d: Vec<u32> = mv.iter().map(|m| m.dst).collect();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), mv.len());
        assert!(mv.iter().all(|m| m.src != m.dst && m.member == worst));
    }
    // N2N: every population receives the best Nm - 1 of the others' bests
    let mv = ops::plan_migration(MigrationKind::N2N, 581, 1, np, nm, &fx);
    assert_eq!(mv.len(), (np * (nm - 1)) as usize);
    for d in 0..np {
        let srcs: Vec<u32> = mv.iter().filter(|m| m.dst == d).map(|m| m.src).collect();
        let want: Vec<u32> = (0..np).filter(|&s| s != d).take(nm as usize - 1).collect();
        assert_eq!(srcs, want);
    }
    assert!(ops::plan_migration(MigrationKind::None, 581, 1, np, nm, &fx).is_empty());
    // PermuteN targets vary from one migration to the next
    let a = ops::plan_migration(MigrationKind::PermuteN, 581, 1, np, nm, &fx);
    let b = ops::plan_migration(MigrationKind::PermuteN, 581, 2, np, nm, &fx);
    assert_ne!(a, b);
}

#[test]
fn migration_on_the_device_copies_best_over_worst() {
    let (np, nm, nn) = (4u32, 6u32, 3u32);
    let p = params(np, nm, nn, -5.0, 5.0, BoundsCorrection::Saturation, true);
    let mut de = solver(
        &p,
        Backend::DEVICE,
        "F1",
        Mutation::Rand1,
        Migration::new(MigrationKind::One2N, 1),
    );
    let fx = de.fitness().unwrap();
    let before: Vec<Vec<f64>> = (0..np).map(|q| de.best(q).unwrap()).collect();
    de.iteration().unwrap();
    // generation 1 evolves first; recompute the plan from the values migration saw
    let mut cpu = solver(&p, Backend::Cpu, "F1", Mutation::Rand1, Migration::NONE);
    cpu.iteration().unwrap();
    let seen = cpu.fitness().unwrap();
    let plan = ops::plan_migration(MigrationKind::One2N, 581, 1, np, nm, &seen);
    assert_eq!(plan.len(), np as usize - 1);
    let s = plan[0].src;
    let src_best = cpu.best(s).unwrap();
    for Move { dst, member, .. } in plan {
        assert_eq!(
            de.x(dst, member).unwrap(),
            src_best,
            "population {dst} member {member}"
        );
        let f = de.fitness().unwrap();
        assert_eq!(
            f[(dst * (nm + 1) + member) as usize],
            seen[(s * (nm + 1) + nm) as usize]
        );
    }
    assert_eq!(fx.len(), (np * (nm + 1)) as usize);
    assert_eq!(before.len(), np as usize);
}

// ---- layouts: the thesis's appendix D ----------------------------------------------------------

/// Appendix D simulated thread by thread: each work-item of a DE_TILE x DE_TILE group reads
/// x[p, m, n] (population fastest) into the tile at [lx][ly]; after the barrier work-item
/// (lx, ly) writes tile[ly][lx] to Y at member m_blk + lx, population p_blk + ly.
// Indexed loops on purpose: each (lx, ly) pair is one work-item, as in the kernel.
#[allow(clippy::needless_range_loop)]
fn simulate_copy(
    np: usize,
    nm: usize,
    nn: usize,
    tile: usize,
) -> Vec<Option<(usize, usize, usize)>> {
    let mut y = vec![None; np * nm * nn];
    for n in 0..nn {
        for gx in 0..np.div_ceil(tile) {
            for gy in 0..nm.div_ceil(tile) {
                let mut buf = vec![vec![None; tile + 1]; tile];
                for ly in 0..tile {
                    for lx in 0..tile {
                        let (p, m) = (gx * tile + lx, gy * tile + ly);
                        if p < np && m < nm {
                            buf[lx][ly] = Some((p, m, n));
                        }
                    }
                }
                for ly in 0..tile {
                    for lx in 0..tile {
                        let (ym, yp) = (gy * tile + lx, gx * tile + ly);
                        if ym < nm && yp < np {
                            assert!(y[(n * np + yp) * nm + ym].is_none(), "written twice");
                            y[(n * np + yp) * nm + ym] = buf[ly][lx];
                        }
                    }
                }
            }
        }
    }
    y
}

#[test]
fn tile_transposition_as_appendix_d() {
    // the appendix's sizes (tile 8, 20 x 100 x 10) and others not divisible by the tile
    for (np, nm, nn, tile) in [
        (20, 100, 10, 8),
        (20, 100, 10, 16),
        (37, 5, 3, 16),
        (1, 3, 2, 8),
        (17, 33, 1, 16),
    ] {
        let y = simulate_copy(np, nm, nn, tile);
        for n in 0..nn {
            for p in 0..np {
                for m in 0..nm {
                    assert_eq!(
                        y[(n * np + p) * nm + m],
                        Some((p, m, n)),
                        "{np}x{nm}x{nn} tile {tile}"
                    );
                }
            }
        }
    }
}

#[test]
fn device_tile_transposition_puts_every_component_in_place() {
    // on the device: after init, Y (member fastest) must be X (population fastest) transposed
    for (np, nm, nn) in [(20u32, 100u32, 10u32), (37, 5, 3), (17, 33, 1)] {
        let p = params(np, nm, nn, -3.0, 3.0, BoundsCorrection::Saturation, true);
        let mut dev =
            metaopt::de::device::DeviceDe::new(metaopt::de::Config::new(&p).unwrap(), None)
                .unwrap();
        use metaopt::de::engine::{Engine, Start};
        dev.start(&Start {
            objective: &Objective::catalogue("F1").unwrap(),
            mutation: Mutation::Rand1,
            cut: None,
            constraints: None,
        })
        .unwrap();
        let (x, y) = dev.raw_matrices().unwrap();
        let (np, nm, nn) = (np as usize, nm as usize, nn as usize);
        for n in 0..nn {
            for q in 0..np {
                for m in 0..nm {
                    assert_eq!(
                        y[(n * np + q) * nm + m],
                        x[(n * (nm + 1) + m) * np + q],
                        "{np}x{nm}x{nn} p{q} m{m} n{n}"
                    );
                }
            }
        }
        // and X holds the host's initial population
        for q in 0..np {
            for m in 0..nm {
                for n in 0..nn {
                    let want = ops::initial(
                        123, q as u32, m as u32, n as u32, nm as u32, nn as u32, -3.0, 3.0,
                    );
                    assert!((x[(n * (nm + 1) + m) * np + q] - want).abs() < 1e-15);
                }
            }
        }
    }
}

// ---- convergence --------------------------------------------------------------------------

#[test]
fn f1_and_f6_reach_their_minimum() {
    // Rastrigin (F6) is separable: a low CR keeps DE from stalling in one of its local minima
    for (name, a, b, gens, cr) in [
        ("F1", -5.12, 5.12, 600u64, 0.9),
        ("F6", -5.12, 5.12, 3000, 0.1),
    ] {
        let mut p = params(8, 40, 10, a, b, BoundsCorrection::Saturation, true);
        p.options.f_min = 0.5;
        p.options.f_max = 0.9;
        p.options.cr = vec![cr];
        let mut de = solver(
            &p,
            Backend::DEVICE,
            name,
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 20),
        );
        let r = de
            .run(&Stop {
                budget: Some(gens),
                target: Some(1e-8),
                ..Stop::default()
            })
            .unwrap();
        assert!(
            r.value <= 1e-8,
            "{name}: {} after {} generations",
            r.value,
            r.generations
        );
        assert_eq!(r.x.len(), 10);
        let host = metaopt::problem::functions::eval(name, &r.x).unwrap();
        assert!(
            (host - r.value).abs() < 1e-9,
            "{name}: host value {host} at the returned point, reported {}",
            r.value
        );
    }
}

#[test]
fn transformed_cec_functions_improve_steadily() {
    for k in 4..=10 {
        let name = format!("CEC{k:02}t");
        let mut p = params(16, 30, 10, -100.0, 100.0, BoundsCorrection::Cotn, false);
        p.options.f_min = 0.3;
        p.options.f_max = 0.9;
        p.options.cr = vec![0.9];
        let mut de = solver(
            &p,
            Backend::DEVICE,
            &name,
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 10),
        );
        let r = de
            .run(&Stop {
                budget: Some(200),
                record_every: 50,
                ..Stop::default()
            })
            .unwrap();
        let best: Vec<f64> = r
            .history
            .iter()
            .map(|h| h.bests.iter().cloned().fold(f64::INFINITY, f64::min))
            .collect();
        assert_eq!(best.len(), 5, "{name}");
        assert!(
            best.windows(2).all(|w| w[1] <= w[0]),
            "{name}: the best never gets worse: {best:?}"
        );
        // the median population best improves strictly over the run
        let median = |v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        };
        let (m0, m1) = (median(&r.history[0].bests), median(&r.history[4].bests));
        assert!(m1 < m0, "{name}: median best {m0} -> {m1}");
        assert!(
            best[4] >= 1.0 - 1e-3,
            "{name}: below the minimum 1: {}",
            best[4]
        );
        assert!(best[4] < best[0], "{name}: {best:?}");
    }
}

#[test]
fn user_source_and_callback_follow_the_catalogue() {
    let p = params(4, 10, 6, -5.12, 5.12, BoundsCorrection::Mirror, true);
    let mut cat = solver(&p, Backend::DEVICE, "F1", Mutation::Best1, Migration::NONE);
    let src = Objective::source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
         FP s = 0; for (uint j = 0; j < dims; ++j) { FP v = x[j * stride]; s += v * v; } return s; }",
        vec![],
    );
    let cb = Objective::callback(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    });
    let mut user = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    user.init(&src, Mutation::Best1, Migration::NONE).unwrap();
    let mut host = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    host.init(&cb, Mutation::Best1, Migration::NONE).unwrap();
    let mut cpu_cb = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    cpu_cb.init(&cb, Mutation::Best1, Migration::NONE).unwrap();
    for _ in 0..20 {
        for de in [&mut cat, &mut user, &mut host, &mut cpu_cb] {
            de.iteration().unwrap();
        }
    }
    let want = cat.bests_fitness().unwrap();
    for de in [&mut user, &mut host, &mut cpu_cb] {
        let got = de.bests_fitness().unwrap();
        for (a, b) in want.iter().zip(&got) {
            assert!((a - b).abs() <= 1e-9 * a.max(1e-6), "{want:?} vs {got:?}");
        }
    }
    // a failing callback is reported with its status
    let bad = Objective::callback(|_, _, _, _| Err(7));
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    assert!(matches!(
        de.init(&bad, Mutation::Rand1, Migration::NONE),
        Err(Error::Callback(7))
    ));
}

#[test]
fn func_data_evaluates_the_population_again() {
    // sum (x_j - c)^2 with c the first value of the data buffer
    let src = Objective::source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
         FP c = ((__global const FP *)data)[0]; FP s = 0;\n\
         for (uint j = 0; j < dims; ++j) { FP v = x[j * stride] - c; s += v * v; } return s; }",
        vec![],
    );
    let (np, nm) = (3u32, 7u32);
    let p = params(np, nm, 4, -3.0, 3.0, BoundsCorrection::Saturation, true);
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = DeMultiPop::new(&p, backend).unwrap();
        de.init(&src, Mutation::Rand1, Migration::NONE).unwrap();
        for _ in 0..5 {
            de.iteration().unwrap();
        }
        let evaluations = de.evaluations();
        de.set_func_data(&1.5f64.to_le_bytes()).unwrap();
        assert_eq!(de.evaluations(), evaluations + (np * nm) as u64);
        let f = de.fitness().unwrap();
        for q in 0..np {
            for m in 0..nm {
                let want: f64 = de
                    .x(q, m)
                    .unwrap()
                    .iter()
                    .map(|v| (v - 1.5) * (v - 1.5))
                    .sum();
                let got = f[(q * (nm + 1) + m) as usize];
                assert!(
                    (got - want).abs() <= 1e-12 * want.max(1.0),
                    "{backend:?} {q} {m}: {got} vs {want}"
                );
            }
            let best = de.bests_fitness().unwrap()[q as usize];
            let min = (0..nm)
                .map(|m| f[(q * (nm + 1) + m) as usize])
                .fold(f64::INFINITY, f64::min);
            assert_eq!(
                best, min,
                "{backend:?}: island {q}'s best under the new data"
            );
        }
    }
}

#[test]
fn stop_conditions() {
    let p = params(4, 10, 4, -5.0, 5.0, BoundsCorrection::Saturation, false);
    let mut de = solver(&p, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    let r = de.run(&Stop::budget(7)).unwrap();
    assert_eq!((r.generations, r.evaluations), (7, 40 + 7 * 40));
    let r = de
        .run(&Stop {
            evaluations: Some(100),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(r.generations, 9);
    // a target alone may never be reached: it needs another stop condition (or a stop token)
    arg_error(
        de.run(&Stop {
            target: Some(1e30),
            ..Stop::default()
        }),
        "stop",
    );
    let r = de
        .run(&Stop {
            target: Some(1e30),
            token: Some(metaopt::StopToken::new()),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(
        (r.generations, format!("{:?}", r.stopped_by)),
        (9, "Target".into())
    );
    let r = de
        .run(&Stop {
            time_limit: Some(std::time::Duration::from_millis(50)),
            ..Stop::default()
        })
        .unwrap();
    assert_eq!(format!("{:?}", r.stopped_by), "TimeLimit");
    arg_error(de.run(&Stop::default()), "stop");
}

// ---- errors ---------------------------------------------------------------------------------

#[test]
fn invalid_settings_name_the_argument() {
    let ok = params(4, 5, 3, -1.0, 1.0, BoundsCorrection::Saturation, false);
    let f1 = Objective::catalogue("F1").unwrap();
    // a population too small for the strategy
    let mut de = DeMultiPop::new(&ok, Backend::Cpu).unwrap();
    let msg = arg_error(de.init(&f1, Mutation::Rand2, Migration::NONE), "members");
    assert!(
        msg.contains("DE/rand/2") && msg.contains("at least 6"),
        "{msg}"
    );
    de.init(&f1, Mutation::Best2, Migration::NONE).unwrap();
    // limits with a >= b or not finite
    for (a, b) in [
        (1.0, 1.0),
        (2.0, 1.0),
        (f64::NAN, 1.0),
        (0.0, f64::INFINITY),
    ] {
        arg_error(
            DeMultiPop::new(
                &params(4, 6, 3, a, b, BoundsCorrection::Saturation, false),
                Backend::Cpu,
            ),
            "limits",
        );
    }
    let mut p = ok.clone();
    p.limits = vec![(0.0, 1.0); 2];
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "limits");
    let mut p = ok.clone();
    p.bounds = vec![BoundsCorrection::Cotn; 4];
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "bounds");
    // unknown names
    arg_error("DE/rand/3".parse::<Mutation>(), "mutation");
    arg_error("mirror".parse::<BoundsCorrection>(), "bounds");
    arg_error("Ring".parse::<MigrationKind>(), "migration");
    arg_error(BoundsCorrection::parse_list("sat,COTN,xyz"), "bounds");
    assert_eq!(
        "de/current-to-best/1".parse::<Mutation>().unwrap(),
        Mutation::CurrentToBest1
    );
    assert_eq!(
        BoundsCorrection::parse_list("sat,hvb,COTN").unwrap().len(),
        3
    );
    // sizes, F, CR
    arg_error(
        DeMultiPop::new(
            &params(0, 6, 3, -1.0, 1.0, BoundsCorrection::Saturation, false),
            Backend::Cpu,
        ),
        "islands",
    );
    arg_error(
        DeMultiPop::new(
            &params(4, 2, 3, -1.0, 1.0, BoundsCorrection::Saturation, false),
            Backend::Cpu,
        ),
        "members",
    );
    arg_error(
        DeMultiPop::new(
            &params(4, 6, 0, -1.0, 1.0, BoundsCorrection::Saturation, false),
            Backend::Cpu,
        ),
        "dims",
    );
    let mut p = ok.clone();
    p.options.cr = vec![0.5, 0.5];
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "cr");
    p.options.cr = vec![1.5];
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "cr");
    let mut p = ok.clone();
    p.options.f_min = f64::NAN;
    arg_error(DeMultiPop::new(&p, Backend::Cpu), "f_min");
    // migration needs two populations and a period
    let one = params(1, 6, 3, -1.0, 1.0, BoundsCorrection::Saturation, false);
    let mut de1 = DeMultiPop::new(&one, Backend::Cpu).unwrap();
    arg_error(
        de1.init(
            &f1,
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 5),
        ),
        "migration",
    );
    arg_error(
        de.init(
            &f1,
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 0),
        ),
        "period",
    );
    // objective dimensions, use before init, indices
    let mut de2 = DeMultiPop::new(
        &params(4, 6, 3, -1.0, 1.0, BoundsCorrection::Saturation, false),
        Backend::Cpu,
    )
    .unwrap();
    arg_error(de2.iteration(), "init");
    arg_error(
        de2.init(
            &Objective::catalogue("CEC04t").unwrap(),
            Mutation::Rand1,
            Migration::NONE,
        ),
        "dims",
    );
    de2.init(&f1, Mutation::Rand1, Migration::NONE).unwrap();
    arg_error(de2.best(4), "island");
    arg_error(de2.x(0, 6), "member");
    // only a user OpenCL source takes a data buffer
    arg_error(de2.set_func_data(&[0u8; 8]), "func-data");
    // a source that does not compile is a build error with the log
    let mut de3 = DeMultiPop::new(&ok, Backend::DEVICE).unwrap();
    let bad = Objective::source("FP objective(__global const FP *x, uint d, uint s, __global const void *data) { return nope; }", vec![]);
    match de3.init(&bad, Mutation::Rand1, Migration::NONE) {
        Err(Error::KernelBuild { log, .. }) => assert!(log.contains("nope"), "{log}"),
        other => panic!("expected a build error, got {:?}", other.err()),
    }
    // and the option defaults are the thesis's Table 3
    let d = DeOptions::default();
    assert_eq!(
        (
            d.init_seed,
            d.mutation_seed,
            d.crossover_seed,
            d.migration_seed
        ),
        (123, 345, 457, 581)
    );
    assert_eq!(
        (d.f_min, d.f_max, d.cr.clone(), d.f_mode),
        (0.1, 1.5, vec![0.5], FMode::Linspace)
    );
}

#[test]
fn with_a_target_the_fused_run_stops_at_the_same_generation() {
    // the target is asked after every generation on every path: same stop, same values
    let p = params(6, 30, 8, -5.12, 5.12, BoundsCorrection::Cotn, true);
    let stop = Stop {
        budget: Some(2000),
        target: Some(1e-6),
        ..Stop::default()
    };
    let mut runs = Vec::new();
    for (fused, backend) in [
        (true, Backend::DEVICE),
        (false, Backend::DEVICE),
        (true, Backend::Cpu),
    ] {
        let mut q = p.clone();
        q.options.fused = fused;
        let mut de = DeMultiPop::new(&q, backend).unwrap();
        de.init(
            &Objective::catalogue("F1").unwrap(),
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 5),
        )
        .unwrap();
        let r = de.run(&stop).unwrap();
        assert_eq!(r.stopped_by, metaopt::de::StopReason::Target);
        runs.push((r.generations, r.value));
    }
    assert_eq!(runs[0].0, runs[1].0, "fused and per-phase: {runs:?}");
    assert_eq!(runs[0].0, runs[2].0, "device and CPU: {runs:?}");
    assert_eq!(runs[0].1, runs[1].1);
    assert!((runs[0].1 - runs[2].1).abs() <= 1e-12, "{runs:?}");
}

/// Selection on a plateau: a step function, sum of floor(|x_j|), where many trials tie
/// their targets. Under `ties` (f(y) <= f(x)) a trial that ties replaces its target; under
/// `strict` (f(y) < f(x), the thesis's DEMULTIPOP_FITNESS_COPY_BETTER_Y2X) it does not. Each
/// generation is checked member by member against the rule on the device (fused and per-phase)
/// and on the CPU backend, and the two rules give different runs.
#[test]
fn strict_and_ties_selection_differ_on_a_plateau() {
    let step = Objective::source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
         FP s = 0; for (uint j = 0; j < dims; ++j) s += floor(fabs(x[j * stride])); return s; }",
        vec![],
    );
    let (np, nm, nn) = (3u32, 12u32, 3u32);
    let mut finals = Vec::new();
    for selection in Selection::ALL {
        for (backend, fused) in [
            (Backend::DEVICE, true),
            (Backend::DEVICE, false),
            (Backend::Cpu, false),
        ] {
            let mut p = params(np, nm, nn, -4.0, 4.0, BoundsCorrection::Saturation, true);
            p.options.selection = selection;
            p.options.fused = fused;
            p.options.f_min = 0.3;
            p.options.f_max = 0.9;
            p.options.cr = vec![0.9];
            let mut de = DeMultiPop::new(&p, backend).unwrap();
            de.init(&step, Mutation::Rand1, Migration::NONE).unwrap();
            assert!(
                de.info().contains(&format!("selection: {selection}")),
                "{}",
                de.info()
            );
            let (mut ties_taken, mut ties_seen) = (0, 0);
            for g in 0..15 {
                let fx = de.fitness().unwrap();
                let xs: Vec<Vec<f64>> = (0..np)
                    .flat_map(|q| (0..nm).map(move |m| (q, m)))
                    .map(|(q, m)| de.x(q, m).unwrap())
                    .collect();
                de.iteration().unwrap();
                let (y, fy) = de.trials().unwrap();
                let fx2 = de.fitness().unwrap();
                for q in 0..np as usize {
                    for m in 0..nm as usize {
                        let (i, row) = (q * (nm as usize + 1) + m, q * nm as usize + m);
                        let trial = &y[row * nn as usize..(row + 1) * nn as usize];
                        let after = de.x(q as u32, m as u32).unwrap();
                        let (f, f0) = (fy[row], fx[i]);
                        let take = match selection {
                            Selection::Ties => f <= f0,
                            Selection::Strict => f < f0,
                        };
                        if f == f0 {
                            ties_seen += 1;
                            ties_taken += (after == trial) as u32;
                        }
                        let want: &[f64] = if take { trial } else { &xs[row] };
                        assert_eq!(after, want, "{selection} {backend:?} fused {fused} gen {g} member ({q}, {m}): f(y) {f}, f(x) {f0}");
                        assert_eq!(
                            fx2[i],
                            if take { f } else { f0 },
                            "{selection} gen {g} member ({q}, {m})"
                        );
                    }
                }
            }
            assert!(
                ties_seen > 20,
                "{selection}: the step function gives ties ({ties_seen})"
            );
            match selection {
                // a tied trial equal to its target is possible only when it did not move
                Selection::Ties => assert!(
                    ties_taken > 20,
                    "ties: tied trials replace their targets ({ties_taken})"
                ),
                Selection::Strict => assert!(
                    ties_taken < ties_seen / 4,
                    "strict: tied trials stay out ({ties_taken} of {ties_seen})"
                ),
            }
            finals.push((selection, de.fitness().unwrap(), de.x(0, 0).unwrap()));
        }
    }
    // the same seeds, different rules: the populations differ
    assert_ne!(
        finals[0].2, finals[3].2,
        "ties and strict end with the same member"
    );
    // both rules are monotone: no member's value ever rises (checked above) and both still reach
    // the plateau of value 0 or close to it
    for (s, fx, _) in &finals {
        let best = fx.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!(best <= 1.0, "{s}: best {best}");
    }
}

// ---- storage and fitness precisions (the thesis's DEMultiPop<FP, FPf>) ---------------------

/// `params` with the storage precision `double` and the fitness precision `fitness`.
fn precisions(
    np: u32,
    nm: u32,
    nn: u32,
    bounds: BoundsCorrection,
    double: bool,
    fitness: Precision,
) -> DeParams {
    let mut p = params(np, nm, nn, -5.12, 5.12, bounds, double);
    p.options.precision = if double {
        Precision::Double
    } else {
        Precision::Single
    };
    p.options.fitness_precision = fitness;
    p
}

fn is_f32(v: f64) -> bool {
    v as f32 as f64 == v || v.is_nan()
}

#[test]
fn double_storage_with_single_fitness_equals_on_device_and_cpu() {
    for (mutation, migration, bounds, selection) in [
        (
            Mutation::Rand1,
            Migration::new(MigrationKind::PermuteN, 5),
            BoundsCorrection::Cotn,
            Selection::Strict,
        ),
        (
            Mutation::CurrentToBest1,
            Migration::new(MigrationKind::One2N, 3),
            BoundsCorrection::Mirror,
            Selection::Ties,
        ),
    ] {
        let mut p = precisions(6, 12, 5, bounds, true, Precision::Single);
        p.options.selection = selection;
        p.options.shared_random = selection == Selection::Strict;
        let mut fused = solver(&p, Backend::DEVICE, "F1", mutation, migration);
        let mut q = p.clone();
        q.options.fused = false;
        let mut phases = solver(&q, Backend::DEVICE, "F1", mutation, migration);
        let mut cpu = solver(&p, Backend::Cpu, "F1", mutation, migration);
        assert_eq!(fused.config().options.precision, Precision::Double);
        assert_eq!(fused.config().options.fitness_precision, Precision::Single);
        assert!(
            fused.info().contains("double (fitness float)"),
            "{}",
            fused.info()
        );
        for g in 0..5 {
            let a = fused.fitness().unwrap();
            assert!(
                a.iter().all(|&v| is_f32(v)),
                "gen {g}: a fitness value is not a float: {a:?}"
            );
            assert_eq!(
                a,
                phases.fitness().unwrap(),
                "{mutation} gen {g}: fused and per-phase"
            );
            assert_eq!(
                a,
                cpu.fitness().unwrap(),
                "{mutation} gen {g}: device and CPU"
            );
            for de in [&mut fused, &mut phases, &mut cpu] {
                de.run(&Stop::budget(6)).unwrap();
            }
        }
        let r = fused.run(&Stop::budget(1)).unwrap();
        assert_eq!(
            (r.precision, r.fitness_precision),
            (Precision::Double, Precision::Single)
        );
        for de in [&mut phases, &mut cpu] {
            de.run(&Stop::budget(1)).unwrap();
        }
        let best = fused.best(2).unwrap();
        assert_eq!(best, phases.best(2).unwrap());
        // the CPU's points follow to the last bits (COTN's log and cospi are the host's), as in
        // `cpu_backend_follows_the_device_run`
        let host = cpu.best(2).unwrap();
        assert!(
            best.iter().zip(&host).all(|(u, v)| (u - v).abs() < 1e-9),
            "{best:?} {host:?}"
        );
        // the points stay doubles
        assert!(best.iter().any(|&v| !is_f32(v)), "{best:?}");
    }
    // in double fitness the same run keeps values that are not floats
    let p = precisions(6, 12, 5, BoundsCorrection::Cotn, true, Precision::Auto);
    let mut de = solver(&p, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    de.run(&Stop::budget(3)).unwrap();
    assert!(de
        .fitness()
        .unwrap()
        .iter()
        .any(|&v| v.is_finite() && !is_f32(v)));
}

#[test]
fn float_storage_with_double_fitness_on_device_and_cpu() {
    let p = precisions(
        8,
        16,
        6,
        BoundsCorrection::Halfway,
        false,
        Precision::Double,
    );
    let mut dev = solver(&p, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    let mut q = p.clone();
    q.options.fused = false;
    let mut phases = solver(&q, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    let mut cpu = solver(&p, Backend::Cpu, "F1", Mutation::Rand1, Migration::NONE);
    assert_eq!(dev.config().options.fitness_precision, Precision::Double);
    assert!(
        dev.info().contains("float (fitness double)"),
        "{}",
        dev.info()
    );
    // the CPU backend computes the points in f64 (as in single today): it follows the device to
    // float rounding for the first generations
    for g in 0..3 {
        let (a, b, c) = (
            dev.fitness().unwrap(),
            phases.fitness().unwrap(),
            cpu.fitness().unwrap(),
        );
        for (i, ((u, v), w)) in a.iter().zip(&b).zip(&c).enumerate() {
            assert!(
                (u - v).abs() <= 1e-5 * u.abs().max(1e-3),
                "gen {g} value {i}: fused {u}, per-phase {v}"
            );
            assert!(
                (u - w).abs() <= 1e-4 * u.abs().max(1e-3),
                "gen {g} value {i}: device {u}, cpu {w}"
            );
        }
        for de in [&mut dev, &mut phases, &mut cpu] {
            de.iteration().unwrap();
        }
    }
    // a compiled objective computes in float: widened to double, its values order the members as
    // in float, so the run equals the float/float run value for value
    let mut ff = solver(
        &precisions(8, 16, 6, BoundsCorrection::Halfway, false, Precision::Auto),
        Backend::DEVICE,
        "F1",
        Mutation::Rand1,
        Migration::NONE,
    );
    let mut fd = solver(&p, Backend::DEVICE, "F1", Mutation::Rand1, Migration::NONE);
    ff.run(&Stop::budget(20)).unwrap();
    let r = fd.run(&Stop::budget(20)).unwrap();
    assert_eq!(
        (r.precision, r.fitness_precision),
        (Precision::Single, Precision::Double)
    );
    assert_eq!(ff.fitness().unwrap(), fd.fitness().unwrap());
    // a host callback's double values are stored as doubles (in float fitness they are rounded)
    let cb = Objective::callback(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = x[r * dims..(r + 1) * dims]
                .iter()
                .map(|v| v * v)
                .sum::<f64>()
                + 1e-9;
        }
        Ok(())
    });
    for backend in [Backend::DEVICE, Backend::Cpu] {
        for (fitness, floats) in [(Precision::Double, false), (Precision::Single, true)] {
            let mut de = DeMultiPop::new(
                &precisions(4, 8, 3, BoundsCorrection::Saturation, false, fitness),
                backend,
            )
            .unwrap();
            de.init(&cb, Mutation::Rand1, Migration::NONE).unwrap();
            de.run(&Stop::budget(2)).unwrap();
            let f = de.fitness().unwrap();
            assert_eq!(
                f.iter().all(|&v| is_f32(v)),
                floats,
                "{fitness:?} {backend:?}: {f:?}"
            );
        }
    }
}

#[test]
fn fitness_precision_is_fixed_at_creation() {
    let p = precisions(
        4,
        6,
        3,
        BoundsCorrection::Saturation,
        true,
        Precision::Single,
    );
    let f1 = Objective::catalogue("F1").unwrap();
    let mut de = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    let mut o = p.options.clone();
    o.fitness_precision = Precision::Double;
    let msg = arg_error(
        de.init_with(&f1, Mutation::Rand1, Migration::NONE, Some(&o)),
        "fitness_precision",
    );
    assert!(msg.contains("fixed when the solver is created"), "{msg}");
    // Auto, or the precision in use, is accepted
    o.fitness_precision = Precision::Auto;
    de.init_with(&f1, Mutation::Rand1, Migration::NONE, Some(&o))
        .unwrap();
    o.fitness_precision = Precision::Single;
    de.init_with(&f1, Mutation::Rand1, Migration::NONE, Some(&o))
        .unwrap();
    assert_eq!(de.config().options.fitness_precision, Precision::Single);
    // by default the fitness precision is the storage precision
    let mut d = params(4, 6, 3, -1.0, 1.0, BoundsCorrection::Saturation, false);
    d.options.precision = Precision::Single;
    assert_eq!(
        DeMultiPop::new(&d, Backend::Cpu)
            .unwrap()
            .config()
            .options
            .fitness_precision,
        Precision::Single
    );
}

/// scipy's dithering (`FMode::Dither`): each generation, each island draws its F in
/// [f_min, f_max) from the mutation seed; the device's fused, per-phase and wide paths and the
/// CPU backend draw the same F, so the runs agree as without dithering, and the draws differ
/// from a fixed F.
#[test]
fn dithered_f_is_drawn_alike_on_every_path() {
    use metaopt::de::ops::dithered_f;
    // the draws: inside the interval, one per island and generation, shared when asked
    let draws: Vec<f64> = (0..200u64)
        .flat_map(|g| (0..4).map(move |p| dithered_f(0.5, 0.5, 345, g, p, 4, false)))
        .collect();
    assert!(draws.iter().all(|f| (0.5..1.0).contains(f)), "{draws:?}");
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    assert!((mean - 0.75).abs() < 0.03, "{mean}");
    assert_eq!(dithered_f(0.7, 0.0, 345, 9, 2, 4, false), 0.7);
    assert_eq!(
        dithered_f(0.5, 0.5, 345, 9, 0, 4, true),
        dithered_f(0.5, 0.5, 345, 9, 3, 4, true)
    );
    assert_ne!(
        dithered_f(0.5, 0.5, 345, 9, 0, 4, false),
        dithered_f(0.5, 0.5, 345, 9, 3, 4, false)
    );
    let mut p = params(4, 16, 6, -2.048, 2.048, BoundsCorrection::Cotn, true);
    p.options.f_mode = FMode::Dither;
    p.options.f_min = 0.5;
    p.options.f_max = 1.0;
    p.options.cr = vec![0.9];
    let obj = Objective::catalogue("F5").unwrap();
    let migration = Migration::new(MigrationKind::PermuteN, 5);
    fused_equals_unfused(&p, &obj, Mutation::Rand1, migration, 20, 0.0);
    wide_equals_fused(&p, &obj, Mutation::CurrentToBest1, migration, 20, 0.0);
    // the CPU backend follows the device as without dithering (the objective's own rounding
    // aside, as `cpu_backend_follows_the_device_run`)
    let mut dev = solver(&p, Backend::DEVICE, "F5", Mutation::Rand1, migration);
    let mut cpu = solver(&p, Backend::Cpu, "F5", Mutation::Rand1, migration);
    let (a, b) = (
        dev.run(&Stop::budget(40)).unwrap(),
        cpu.run(&Stop::budget(40)).unwrap(),
    );
    let close = |u: f64, v: f64| (u - v).abs() <= 1e-9 * u.abs().max(1e-3);
    assert!(close(a.value, b.value), "{} {}", a.value, b.value);
    assert!(a.x.iter().zip(&b.x).all(|(u, v)| close(*u, *v)));
    let (fa, fb) = (dev.fitness().unwrap(), cpu.fitness().unwrap());
    assert!(fa.iter().zip(&fb).all(|(u, v)| close(*u, *v)));
    // a fixed F of the interval's lower end gives another run
    let mut q = p.clone();
    q.options.f_mode = FMode::Const;
    let mut fixed = solver(&q, Backend::Cpu, "F5", Mutation::Rand1, migration);
    assert_ne!(
        fixed.run(&Stop::budget(40)).unwrap().x,
        a.x,
        "dithering changed nothing"
    );
    // refused: an adaptive algorithm, which adapts its own F, and an empty interval
    let mut q = p.clone();
    q.options.algorithm = metaopt::de::Algorithm::Jade;
    let e = DeMultiPop::new(&q, Backend::Cpu).err().unwrap().to_string();
    assert!(
        e.contains("f_mode") && e.contains("adapts its own F"),
        "{e}"
    );
    let mut q = p.clone();
    q.options.f_max = 0.4;
    let e = DeMultiPop::new(&q, Backend::Cpu).err().unwrap().to_string();
    assert!(e.contains("f_max"), "{e}");
}

/// Integer variables (`DeOptions::integrality`, scipy's `integrality`): every member and the
/// best are integral on every island DE path (fused, per-phase, wide, JADE, jDE100, the CPU
/// backend), the limits become the integers inside them, and the paths agree as without.
#[test]
fn integer_dimensions_are_rounded_on_every_path() {
    use metaopt::de::Algorithm;
    // sum of (x_j - 0.3)^2: the continuous optimum 0.3, the integer one 0 (0.09 a dimension)
    let src = "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {
        FP s = 0; for (uint j = 0; j < dims; ++j) { FP d = x[j * stride] - (FP)0.3; s += d * d; } return s; }";
    let obj = Objective::Source {
        code: src.into(),
        data: Vec::new(),
    };
    let base = |algorithm: Algorithm| {
        let mut p = params(4, 16, 4, -3.7, 4.2, BoundsCorrection::Mirror, true);
        p.options.integrality = vec![true, false, true, false];
        p.options.algorithm = algorithm;
        p.options.cr = vec![0.9];
        p.options.f_mode = FMode::Const;
        p.options.f_min = 0.6;
        if algorithm == Algorithm::Jde100 {
            p.options.jde_small = 6;
        }
        p
    };
    let integral = |de: &mut DeMultiPop, what: &str| {
        for p in 0..4 {
            for m in 0..16 {
                let x = de.x(p, m).unwrap();
                for j in [0, 2] {
                    assert_eq!(x[j], x[j].round(), "{what}: member {m} of {p}: {x:?}");
                    assert!((-3.0..=4.0).contains(&x[j]), "{what}: {x:?}");
                }
            }
        }
    };
    for algorithm in [Algorithm::De, Algorithm::Jade, Algorithm::Jde100] {
        let p = base(algorithm);
        let mut runs = Vec::new();
        for backend in [Backend::DEVICE, Backend::Cpu] {
            let mut de = DeMultiPop::new(&p, backend).unwrap();
            let migration = match algorithm {
                Algorithm::Jde100 => Migration::NONE,
                _ => Migration::new(MigrationKind::PermuteN, 5),
            };
            de.init(&obj, Mutation::Rand1, migration).unwrap();
            let r = de.run(&Stop::budget(150)).unwrap();
            integral(&mut de, &format!("{algorithm} {backend:?}"));
            assert_eq!((r.x[0], r.x[2]), (0.0, 0.0), "{algorithm}: {:?}", r.x);
            assert!(
                (r.x[1] - 0.3).abs() < 1e-2 && (r.x[3] - 0.3).abs() < 1e-2,
                "{:?}",
                r.x
            );
            runs.push(r);
        }
        let (a, b) = (&runs[0], &runs[1]);
        assert!(
            (a.value - b.value).abs() <= 1e-9 * a.value.abs().max(1e-3),
            "{algorithm}"
        );
        assert!((a.value - 0.18).abs() < 1e-3, "{algorithm}: {}", a.value);
    }
    // the fused kernel, the per-phase launches and the wide generation make the same run
    let p = base(Algorithm::De);
    fused_equals_unfused(&p, &obj, Mutation::CurrentToBest1, Migration::NONE, 20, 0.0);
    wide_equals_fused(&p, &obj, Mutation::Rand1, Migration::NONE, 20, 0.0);
    // refused: limits that hold no integer, a flag list of the wrong length
    let mut q = base(Algorithm::De);
    q.limits = vec![(0.2, 0.8)];
    let e = DeMultiPop::new(&q, Backend::Cpu).err().unwrap().to_string();
    assert!(e.contains("integrality") && e.contains("hold none"), "{e}");
    let mut q = base(Algorithm::De);
    q.options.integrality = vec![true, false];
    let e = DeMultiPop::new(&q, Backend::Cpu).err().unwrap().to_string();
    assert!(e.contains("integrality"), "{e}");
}
