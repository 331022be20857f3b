//! The SHADE family on the device (docs/specs/DE.md "Adaptive DE, on the device"):
//! `ade_gen` of `cl/de_batch.cl` against its host twin `de::ade` (device == CPU in double, with
//! archive wrap-around and population reductions), each rule against a host reference on a small
//! population, and each variant solving sphere, Rosenbrock and Rastrigin in the batched DE.

use crate::common::arg_error;

use metaopt::de::adapt;
use metaopt::de::ade::{self, Shape, State};
use metaopt::de::jde::Bounds;
use metaopt::de::{
    Algorithm, Backend, BatchDe, BatchOptions, BatchProblem, BatchResult, BoundsCorrection,
    Placement, Selection,
};
use metaopt::run::Stop;
use metaopt::{Precision, StopReason};

const VARIANTS: [Algorithm; 4] = [
    Algorithm::Jade,
    Algorithm::Shade,
    Algorithm::LShade,
    Algorithm::Jso,
];

fn problem(
    alg: Algorithm,
    f: &str,
    nn: u32,
    w: f64,
    nm: u32,
    gens: u64,
    seed: u64,
) -> BatchProblem {
    let mut p = BatchProblem::new(f, nn, -w, w);
    p.algorithm = alg;
    p.members = nm;
    p.bounds = BoundsCorrection::Halfway;
    p.max_generations = gens;
    p.seed = seed;
    p
}

fn run(
    probs: Vec<BatchProblem>,
    backend: Backend,
    k: u32,
    placement: Placement,
) -> Vec<BatchResult> {
    let o = BatchOptions {
        precision: Precision::Double,
        generations_per_launch: k,
        placement,
    };
    BatchDe::new(probs, backend, o)
        .unwrap()
        .run(&Stop::default())
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// Every variant on the device equals the CPU twin in double, in global and local memory, over
/// enough generations for the archive to fill and wrap and for L-SHADE and jSO to shrink; a
/// fixed-DE problem beside them is unchanged.
#[test]
fn device_equals_cpu_for_every_variant() {
    let mut probs: Vec<BatchProblem> = Vec::new();
    for (i, &alg) in VARIANTS.iter().enumerate() {
        for (j, (f, nn, w)) in [("F6", 5u32, 5.12), ("F5", 3, 2.048)]
            .into_iter()
            .enumerate()
        {
            let mut p = problem(
                alg,
                f,
                nn,
                w,
                12 + 5 * j as u32,
                60,
                7 + i as u64 * 10 + j as u64,
            );
            p.bounds = BoundsCorrection::ALL[(i + 2 * j) % 6];
            probs.push(p);
        }
    }
    probs.push(BatchProblem {
        seed: 3,
        max_generations: 50,
        ..BatchProblem::new("F1", 4, -1.0, 1.0)
    });
    batch_device_equals_cpu(&probs);
}

/// The batch `probs` on the device, its populations in global and in local memory, against the
/// CPU twin: the same generations and stop, the best value and vector to `close`.
fn batch_device_equals_cpu(probs: &[BatchProblem]) {
    let cpu = run(probs.to_vec(), Backend::Cpu, 1000, Placement::Auto);
    for placement in [Placement::Global, Placement::Local] {
        let dev = run(probs.to_vec(), Backend::DEVICE, 7, placement);
        for (i, (c, d)) in cpu.iter().zip(&dev).enumerate() {
            assert_eq!(
                (c.generations, c.stop),
                (d.generations, d.stop),
                "{i} {placement:?}"
            );
            assert!(
                close(c.best_value, d.best_value),
                "{i} {placement:?}: {} {}",
                c.best_value,
                d.best_value
            );
            for (a, b) in c.best.iter().zip(&d.best) {
                assert!(close(*a, *b), "{i} {placement:?}: {a} {b}");
            }
        }
    }
}

/// A small island for the rule tests: `nm` members in 2 dimensions on [-1, 1]^2, values
/// `fx[m] = 10 + m`.
fn island(alg: Algorithm, nm: u32, budget: u64) -> (Shape, State, Vec<f64>, Vec<f64>) {
    let s = Shape::new(alg, nm, 2, 1, 11, 12, budget, Selection::Ties);
    let st = State::new(&s);
    let x: Vec<f64> = (0..2 * nm as usize)
        .map(|i| ((i * 37 % 19) as f64 / 9.5) - 1.0)
        .collect();
    let fx: Vec<f64> = (0..nm).map(|m| 10.0 + m as f64).collect();
    (s, st, x, fx)
}

const LIM: [f64; 2] = [-1.0, 1.0];

/// One generation of `ade::generation` whose trial of member m evaluates to `value(m, fx[m])`;
/// returns the draws made (from the state before) and the trials.
fn scripted(
    s: &Shape,
    st: &mut State,
    x: &mut [f64],
    fx: &mut [f64],
    g: u64,
    value: impl Fn(usize, f64) -> f64,
) -> (Vec<ade::Draw>, Vec<f64>) {
    let order = adapt::ranked(fx, st.na);
    let draws: Vec<ade::Draw> = (0..st.na)
        .map(|m| ade::draw(s, st, g, 0, m, &order))
        .collect();
    let before = fx.to_vec();
    let kinds = vec![BoundsCorrection::Halfway; 2];
    let bounds = Bounds {
        lo: &[LIM[0]; 2],
        hi: &[LIM[1]; 2],
        kinds: &kinds,
        integral: &[],
    };
    let mut trials = Vec::new();
    let mut eval = |rows: &[f64]| -> metaopt::Result<Vec<f64>> {
        trials = rows.to_vec();
        Ok((0..rows.len() / 2).map(|m| value(m, before[m])).collect())
    };
    let mut isl = [ade::IslandMut { x, fx, st }];
    ade::generation(s, g, &mut isl, &bounds, &mut eval).unwrap();
    (draws, trials)
}

/// Each variant's memory update against its paper's formula, from the draws and improvements
/// of a scripted generation: JADE's means move by c = 0.1 toward the arithmetic mean of S_CR and
/// the Lehmer mean of S_F; SHADE writes the weighted arithmetic mean of S_CR and the weighted
/// Lehmer mean of S_F into entry k; L-SHADE the weighted Lehmer means; jSO their averages with
/// the old entry, its last entry (0.9, 0.9) never written and k cycling over the first four.
/// No success moves nothing.
#[test]
fn memory_updates_follow_the_papers() {
    for alg in VARIANTS {
        let (s, mut st, mut x, mut fx) = island(alg, 8, 10_000);
        // members 1, 4, 6 improve by 1, 3, 0.5
        let gain = [0.0, 1.0, 0.0, 0.0, 3.0, 0.0, 0.5, 0.0];
        let old = st.clone();
        let (d, _) = scripted(&s, &mut st, &mut x, &mut fx, 1, |m, f| {
            if gain[m] > 0.0 {
                f - gain[m]
            } else {
                f + 1.0
            }
        });
        let succ: Vec<usize> = (0..8).filter(|&m| gain[m] > 0.0).collect();
        let sf: Vec<f64> = succ.iter().map(|&m| d[m].f).collect();
        let scr: Vec<f64> = succ.iter().map(|&m| d[m].cr).collect();
        let total: f64 = succ.iter().map(|&m| gain[m]).sum();
        let w: Vec<f64> = succ.iter().map(|&m| gain[m] / total).collect();
        let ones = vec![1.0; succ.len()];
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + b.abs());
        let (mf, mcr) = (st.m_f[0], st.m_cr[0]);
        match alg {
            Algorithm::Jade => {
                assert!(
                    near(mf, 0.9 * 0.5 + 0.1 * adapt::lehmer(&sf, &ones)),
                    "{alg}"
                );
                assert!(
                    near(mcr, 0.9 * 0.5 + 0.1 * scr.iter().sum::<f64>() / 3.0),
                    "{alg}"
                );
                assert_eq!(st.k, 0);
            }
            Algorithm::Shade => {
                assert!(near(mf, adapt::lehmer(&sf, &w)), "{alg}");
                assert!(
                    near(mcr, scr.iter().zip(&w).map(|(c, w)| c * w).sum()),
                    "{alg}"
                );
                assert_eq!((st.k, st.m_f.len()), (1, 8));
            }
            Algorithm::LShade => {
                assert!(near(mf, adapt::lehmer(&sf, &w)), "{alg}");
                assert!(near(mcr, adapt::lehmer(&scr, &w)), "{alg}");
                assert_eq!((st.k, st.m_f.len()), (1, 6));
            }
            _ => {
                assert!(near(mf, (adapt::lehmer(&sf, &w) + 0.3) / 2.0), "{alg}");
                assert!(near(mcr, (adapt::lehmer(&scr, &w) + 0.8) / 2.0), "{alg}");
                assert_eq!((st.k, st.m_f[4], st.m_cr[4]), (1, 0.9, 0.9));
            }
        }
        // the other entries are unchanged
        assert_eq!(st.m_f[1..], old.m_f[1..], "{alg}");
        // no success: nothing moves, the evaluations are counted
        let before = st.clone();
        scripted(&s, &mut st, &mut x, &mut fx, 2, |_, f| f + 1.0);
        assert_eq!(
            (&st.m_f, st.k, st.alen),
            (&before.m_f, before.k, before.alen),
            "{alg}"
        );
        assert_eq!(st.nfe, before.nfe + 8);
    }
    // jSO's k cycles over the first four entries only
    let (s, mut st, mut x, mut fx) = island(Algorithm::Jso, 8, 10_000);
    for g in 1..=6 {
        scripted(&s, &mut st, &mut x, &mut fx, g, |_, f| f - 1.0);
    }
    assert_eq!(st.k, 2);
    assert_eq!((st.m_f[4], st.m_cr[4]), (0.9, 0.9));
    // L-SHADE's terminal value: every success with CR = 0 makes M_CR,k ⊥ (NaN), and an entry
    // at ⊥ draws CR = 0
    let (s, mut st, mut x, mut fx) = island(Algorithm::LShade, 8, 10_000);
    st.m_cr = vec![f64::NAN; 6];
    let (d, _) = scripted(&s, &mut st, &mut x, &mut fx, 1, |_, f| f - 1.0);
    assert!(d.iter().all(|d| d.cr == 0.0));
    assert!(st.m_cr[0].is_nan());
}

/// The parents of successes go to the archive in member order: the free rows first, then
/// (full) a random row each (stream 3 at the member's key), a later success into the same row
/// winning; against a sequential host reference, with the archive wrapping.
#[test]
fn archive_insertion_wraps_and_replaces_at_random() {
    let (s, mut st, mut x, mut fx) = island(Algorithm::Jade, 8, 10_000);
    assert_eq!(s.acap, 8);
    // five rows already there
    st.alen = 5;
    for (i, v) in st.arc.iter_mut().enumerate() {
        *v = -(i as f64);
    }
    let mut want = st.arc.clone();
    let parents = x.clone();
    let gain = [1.0, 0.0, 2.0, 1.0, 1.0, 0.0, 1.0, 1.0];
    scripted(&s, &mut st, &mut x, &mut fx, 3, |m, f| f - gain[m]);
    let mut len = 5u32;
    for m in 0..8u32 {
        if gain[m as usize] == 0.0 {
            continue;
        }
        let slot = if len < 8 {
            len += 1;
            len - 1
        } else {
            let w = metaopt::rng::rng4(s.seed_mut, 3, ade::key(3, 0, 1, 8, m))[0];
            ((w as u64 * 8) >> 32) as u32
        };
        want[slot as usize * 2..slot as usize * 2 + 2]
            .copy_from_slice(&parents[m as usize * 2..m as usize * 2 + 2]);
    }
    assert_eq!(st.alen, 8);
    assert_eq!(st.arc, want);
}

/// L-SHADE's and jSO's linear population size reduction: after every generation the active
/// members are round((4 - Nm) / MAX_NFE NFE + Nm), the best of them kept in member order, the
/// rest +inf; the archive shrinks with them to round(2.6 N) (L-SHADE) or N (jSO), keeping rows
/// it held.
#[test]
fn population_reduction_follows_the_schedule() {
    for alg in [Algorithm::LShade, Algorithm::Jso] {
        let (s, mut st, mut x, mut fx) = island(alg, 20, 400);
        let mut g = 0;
        while st.na > 4 {
            g += 1;
            let rows_before: Vec<Vec<f64>> = st
                .arc
                .chunks(2)
                .take(st.alen as usize)
                .map(|r| r.to_vec())
                .collect();
            let xb = x.clone();
            scripted(&s, &mut st, &mut x, &mut fx, g, |m, f| {
                if (m + g as usize).is_multiple_of(3) {
                    f - 0.5
                } else {
                    f + 0.5
                }
            });
            let want = adapt::lpsr_size(20, st.nfe, 400);
            assert_eq!(st.na, want, "{alg} generation {g}");
            assert!(fx[st.na as usize..].iter().all(|v| *v == f64::INFINITY));
            assert!(fx[..st.na as usize].iter().all(|v| v.is_finite()));
            assert!(
                st.alen <= s.cap(st.na),
                "{alg} {g}: {} > {}",
                st.alen,
                s.cap(st.na)
            );
            // every archive row is a parent or a row it held
            for r in st.arc.chunks(2).take(st.alen as usize) {
                let known = rows_before.iter().any(|b| b == r) || xb.chunks(2).any(|p| p == r);
                assert!(known, "{alg} {g}: {r:?}");
            }
        }
    }
}

/// Each variant solves sphere (F1), Rosenbrock (F5) and Rastrigin (F6) in 10 dimensions to
/// 1e-8 in the batched DE on the device (one batch of the twelve problems), and in 30
/// dimensions on the CPU twin.
#[test]
fn every_variant_solves_sphere_rosenbrock_rastrigin_in_the_batched_de() {
    for (backend, nn, nm, gens) in [
        (Backend::DEVICE, 10u32, 50u32, 3000u64),
        (Backend::Cpu, 30, 100, 20000),
    ] {
        let mut probs = Vec::new();
        for alg in VARIANTS {
            for (f, w) in [("F1", 5.12), ("F5", 2.048), ("F6", 5.12)] {
                let mut p = problem(alg, f, nn, w, nm, gens, 5);
                p.target = Some(1e-8);
                probs.push(p);
            }
        }
        let o = BatchOptions {
            precision: Precision::Auto,
            generations_per_launch: 1000,
            placement: Placement::Auto,
        };
        let r = BatchDe::new(probs.clone(), backend, o)
            .unwrap()
            .run(&Stop::default())
            .unwrap();
        for (p, r) in probs.iter().zip(&r) {
            eprintln!(
                "{backend:?} {} {:?} D={nn}: {} after {} generations",
                p.algorithm, p.function, r.best_value, r.generations
            );
        }
        for (p, r) in probs.iter().zip(&r) {
            assert_eq!(
                r.stop,
                Some(StopReason::Target),
                "{backend:?} {} {:?}: {}",
                p.algorithm,
                p.function,
                r.best_value
            );
        }
    }
}

/// Bad settings name their argument; every algorithm is accepted by the batched DE.
#[test]
fn the_batched_de_takes_every_variant() {
    for alg in VARIANTS {
        let p = problem(alg, "F1", 3, 1.0, 4, 5, 1);
        let r = run(vec![p], Backend::Cpu, 10, Placement::Auto);
        assert_eq!(r[0].generations, 5);
    }
    let bad = BatchProblem {
        members: 3,
        ..problem(Algorithm::Jade, "F1", 3, 1.0, 4, 5, 1)
    };
    arg_error(
        BatchDe::new(vec![bad], Backend::Cpu, BatchOptions::default()),
        "members",
    );
}

/// A step objective, sum floor(|x_i|): integer values, so many members tie (ranked by index)
/// and the device and the CPU compute each value exactly.
const STEP: &str =
    "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n\
{ FP s = 0; for (uint i = 0; i < dims; ++i) s += floor(fabs(x[i * stride])); return s; }";

/// `ade_gen`'s sort, scans and last-writer table at sizes that take each branch, device against
/// the CPU twin in double. On PoCL a group has 16 work-items, so most islands here are larger
/// than the group (each work-item takes several members, pairs and blocks): the values and
/// indices of 40 members are sorted in the sums' local scratch, 150 members' indices alone
/// there, 300 members' in global memory, 12 members leave work-items idle; the archive fills
/// and then takes random rows, several successes into one row over the generations, and
/// L-SHADE's 390 rows (150 members) and JADE's 300 do not fit the table's room in local memory
/// (224 rows), which then lies over the scratch AF; the step objective makes ties everywhere;
/// L-SHADE and jSO shrink through all those sizes down to 4. Batched (global and local
/// placement, the best of every problem) and as islands (every value and every member).
#[test]
fn device_equals_cpu_past_the_group_with_ties_and_collisions() {
    let step = |alg: Algorithm, nm: u32, seed: u64| {
        let mut p = problem(alg, "F1", 4, 5.0, nm, 50, seed);
        p.function = metaopt::de::BatchFunction::source(STEP, Vec::new());
        p
    };
    let mut probs = vec![
        step(Algorithm::Jade, 150, 1),
        step(Algorithm::Jade, 300, 2),
        step(Algorithm::Jade, 12, 3),
        step(Algorithm::Shade, 40, 4),
        step(Algorithm::LShade, 150, 5),
        step(Algorithm::Jso, 120, 6),
        problem(Algorithm::LShade, "F6", 5, 5.12, 100, 50, 7),
        problem(Algorithm::Jade, "F5", 3, 2.048, 90, 50, 8),
    ];
    probs[2].bounds = BoundsCorrection::Mirror;
    batch_device_equals_cpu(&probs);
    // islands (ade_fused): two of 150 members, every value and every member
    for alg in [Algorithm::Jade, Algorithm::LShade] {
        let mut out = Vec::new();
        for backend in [Backend::Cpu, Backend::DEVICE] {
            let mut p = metaopt::de::DeParams::new(2, 150, 4, -5.0, 5.0, BoundsCorrection::Halfway);
            p.options.algorithm = alg;
            p.options.lshade_budget = 150 * 30;
            p.options.precision = Precision::Double;
            let mut de = metaopt::de::DeMultiPop::new(&p, backend).unwrap();
            let obj = metaopt::objective::Objective::source(STEP, Vec::new());
            de.init(
                &obj,
                metaopt::de::Mutation::Rand1,
                metaopt::de::Migration::NONE,
            )
            .unwrap();
            de.run(&metaopt::run::Stop::budget(25)).unwrap();
            let rows: Vec<Vec<f64>> = (0..2)
                .flat_map(|p| (0..150).map(move |m| (p, m)))
                .map(|(p, m)| de.x(p, m).unwrap())
                .collect();
            out.push((de.fitness().unwrap(), rows));
        }
        let ((fc, xc), (fd, xd)) = (&out[0], &out[1]);
        assert_eq!(fc, fd, "{alg}: values");
        for (a, b) in xc.iter().zip(xd) {
            assert!(
                a.iter().zip(b).all(|(u, v)| close(*u, *v)),
                "{alg}: members {a:?} {b:?}"
            );
        }
        assert!(
            fc.iter().filter(|v| v.is_finite()).count() < 2 * 151 || alg == Algorithm::Jade,
            "{alg}: shrank"
        );
    }
}
