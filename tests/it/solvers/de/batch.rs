//! Batched DE: device and CPU agree in double on a heterogeneous batch (local and
//! global placement), a problem's result does not depend on the batch around it or its position,
//! parent indices are distinct, differ from the target and are uniform, sphere converges, a
//! stopped problem is frozen, and bad specs give named errors.

use crate::common::arg_error;

use metaopt::de::ops;
use metaopt::de::{
    Backend, BatchDe, BatchFunction, BatchOptions, BatchProblem, BatchProgress, BatchResult,
    BoundsCorrection, Mutation, Placement,
};
use metaopt::run::Stop;
use metaopt::{Error, Precision, StopReason, StopToken};
use std::time::{Duration, Instant};

fn opts(precision: Precision, k: u32, placement: Placement) -> BatchOptions {
    BatchOptions {
        precision,
        generations_per_launch: k,
        placement,
    }
}

fn run(problems: Vec<BatchProblem>, backend: Backend, o: BatchOptions) -> Vec<BatchResult> {
    BatchDe::new(problems, backend, o)
        .unwrap()
        .run(&Stop::default())
        .unwrap()
}

/// A heterogeneous batch: functions, dims, members, every mutation and bound correction.
fn mixed(count: usize, gens: u64) -> Vec<BatchProblem> {
    let funcs: [(&str, u32, f64); 7] = [
        ("F1", 3, 5.12),
        ("F5", 2, 2.048),
        ("F6", 7, 5.12),
        ("F8", 4, 600.0),
        ("CEC04t", 10, 100.0),
        ("F2", 1, 5.12),
        ("F10", 12, 32.768),
    ];
    (0..count)
        .map(|i| {
            let (name, dims, w) = funcs[i % funcs.len()];
            let mut p = BatchProblem::new(name, dims, -w, w);
            p.members = 6 + (i as u32 * 7) % 40;
            p.mutation = Mutation::ALL[i % 6];
            p.bounds = BoundsCorrection::ALL[(i / 6) % 6];
            p.f = 0.3 + 0.1 * (i % 7) as f64;
            p.cr = 0.1 * (i % 10) as f64;
            p.seed = 1000 + i as u64 * 31;
            p.max_generations = gens + (i as u64 % 5);
            if i % 4 == 0 {
                // per-dimension bounds
                p.lower = (0..dims).map(|n| -w + n as f64 * 0.01).collect();
                p.upper = (0..dims).map(|n| w - n as f64 * 0.02).collect();
            }
            p
        })
        .collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn device_and_cpu_agree_in_double_on_a_heterogeneous_batch() {
    let t = Instant::now();
    let probs = mixed(48, 40);
    let cpu = run(
        probs.clone(),
        Backend::Cpu,
        opts(Precision::Double, 7, Placement::Auto),
    );
    for placement in [Placement::Local, Placement::Global] {
        let de = BatchDe::new(
            probs.clone(),
            Backend::DEVICE,
            opts(Precision::Double, 7, placement),
        )
        .unwrap();
        assert_eq!(de.uses_local_memory(), Some(placement == Placement::Local));
        // catalogue functions only: with local placement the trials are local too
        assert_eq!(
            de.trials_in_local_memory(),
            Some(placement == Placement::Local)
        );
        let mut de = de;
        let dev = de.run(&Stop::default()).unwrap();
        for (i, (c, d)) in cpu.iter().zip(&dev).enumerate() {
            assert_eq!(
                (c.generations, c.stop),
                (d.generations, d.stop),
                "problem {i} {placement:?}"
            );
            // 1e-12 relative, or both within 1e-12 of 0: near a zero minimum an ulp of the
            // objective can flip one selection and the runs part at that scale
            let near_zero = c.best_value.abs() < 1e-12 && d.best_value.abs() < 1e-12;
            assert!(
                close(c.best_value, d.best_value, 1e-12) || near_zero,
                "problem {i} {placement:?}: {} vs {}",
                c.best_value,
                d.best_value
            );
            if near_zero {
                continue;
            }
            for (a, b) in c.best.iter().zip(&d.best) {
                assert!(
                    close(*a, *b, 1e-12),
                    "problem {i} {placement:?}: {:?} vs {:?}",
                    c.best,
                    d.best
                );
            }
        }
    }
    // single precision runs and stays inside the bounds
    let single = run(
        probs.clone(),
        Backend::DEVICE,
        opts(Precision::Single, 10, Placement::Auto),
    );
    for (p, r) in probs.iter().zip(&single) {
        assert_eq!(r.stop, Some(StopReason::Budget));
        for (n, v) in r.best.iter().enumerate() {
            let (a, b) = (
                p.lower[n.min(p.lower.len() - 1)],
                p.upper[n.min(p.upper.len() - 1)],
            );
            assert!(
                *v >= (a as f32) as f64 && *v <= (b as f32) as f64,
                "{v} outside [{a}, {b}]"
            );
        }
    }
    eprintln!("agree: {:?}", t.elapsed());
}

#[test]
fn a_result_is_the_same_alone_in_a_batch_of_1000_and_shuffled() {
    let t = Instant::now();
    let probs: Vec<BatchProblem> = mixed(1000, 8)
        .into_iter()
        .enumerate()
        .map(|(i, mut p)| {
            // small dims and populations keep the batch quick on PoCL
            if p.dims == 10 {
                p.function = "CEC04t".into();
                p.dims = 2;
            } else {
                p.dims = p.dims.min(4);
            }
            p.lower.truncate(1);
            p.upper.truncate(1);
            p.members = 5 + (i as u32 % 12);
            p.mutation = if p.mutation == Mutation::Rand2 {
                Mutation::Best2
            } else {
                p.mutation
            };
            p
        })
        .collect();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let o = opts(Precision::Double, 4, Placement::Auto);
        let all = run(probs.clone(), backend, o.clone());
        // shuffled by a fixed permutation
        let perm = metaopt::rng::Philox::new(7, 0).permutation(probs.len());
        let shuffled = run(
            perm.iter().map(|&i| probs[i].clone()).collect(),
            backend,
            o.clone(),
        );
        for (k, &i) in perm.iter().enumerate() {
            assert_eq!(shuffled[k], all[i], "problem {i} at {k} ({backend:?})");
        }
        for i in [0usize, 1, 17, 499, 998] {
            let alone = run(vec![probs[i].clone()], backend, o.clone());
            assert_eq!(alone[0], all[i], "problem {i} alone ({backend:?})");
        }
    }
    eprintln!("batch position: {:?}", t.elapsed());
}

#[test]
fn parents_are_distinct_differ_from_the_target_and_are_uniform() {
    // the draws both backends make for a batched problem: one population, the problem's seed
    let p = BatchProblem::new("F1", 3, -1.0, 1.0);
    let seed = p.seeds()[1];
    let np = 10u32;
    let mut counts = [[0u64; 10]; 5];
    let mut draws = 0u64;
    let mut g = 1u64;
    while draws < 1_000_000 {
        for m in 0..np {
            let (r, j) = ops::indices(seed, g, 0, m, 1, np, 3, Mutation::Rand2, false);
            assert!(j < 3);
            let mut all = r.to_vec();
            all.push(m);
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 6, "{r:?} target {m}");
            for (t, &v) in r.iter().enumerate() {
                counts[t][((v + np - m) % np) as usize] += 1;
            }
            draws += 5;
        }
        g += 1;
    }
    for (t, c) in counts.iter().enumerate() {
        assert_eq!(c[0], 0);
        let n: u64 = c.iter().sum();
        let e = n as f64 / (np - 1) as f64;
        let chi2: f64 = c[1..].iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        // 8 degrees of freedom: P(chi2 > 26.12) = 0.001
        assert!(chi2 < 26.12, "position {t}: chi2 {chi2} {c:?}");
    }
}

fn spheres(count: usize, gens: u64) -> Vec<BatchProblem> {
    (0..count)
        .map(|i| {
            let mut p = BatchProblem::new("F1", 10, -5.12, 5.12);
            p.members = 50;
            p.seed = 77 + i as u64;
            p.max_generations = gens;
            p
        })
        .collect()
}

#[test]
fn sphere_d10_np50_1000_generations_every_problem_below_1e_10() {
    let t = Instant::now();
    let cpu = run(spheres(256, 1000), Backend::Cpu, BatchOptions::default());
    assert!(
        cpu.iter()
            .all(|r| r.best_value < 1e-10 && r.generations == 1000),
        "{:?}",
        cpu.iter().map(|r| r.best_value).fold(0.0, f64::max)
    );
    let tc = t.elapsed();
    let t = Instant::now();
    let dev = run(
        spheres(32, 1000),
        Backend::DEVICE,
        opts(Precision::Double, 250, Placement::Auto),
    );
    for (i, (d, c)) in dev.iter().zip(&cpu).enumerate() {
        assert!(d.best_value < 1e-10, "problem {i}: {}", d.best_value);
        assert!(
            close(d.best_value, c.best_value, 1e-9) || d.best_value < 1e-250,
            "problem {i}: {} vs {}",
            d.best_value,
            c.best_value
        );
    }
    eprintln!(
        "sphere: cpu 256 problems {tc:?}, device 32 problems {:?}",
        t.elapsed()
    );
}

#[test]
fn a_stopped_problem_does_not_move() {
    let mut probs = spheres(4, 400);
    probs[0].max_generations = 5;
    probs[1].target = Some(1e-3);
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = BatchDe::new(
            probs.clone(),
            backend,
            opts(Precision::Double, 7, Placement::Auto),
        )
        .unwrap();
        let r = de.run(&Stop::default()).unwrap();
        assert_eq!((r[0].generations, r[0].stop), (5, Some(StopReason::Budget)));
        assert_eq!(r[1].stop, Some(StopReason::Target));
        assert!(r[1].best_value <= 1e-3);
        let g = r[1].generations;
        // one generation fewer had not reached the target: it stopped at the first that did
        let mut before = probs[1].clone();
        before.target = None;
        before.max_generations = g - 1;
        let b = run(vec![before], backend, BatchOptions::default());
        assert!(b[0].best_value > 1e-3);
        // frozen: the same as alone with that budget, and again after another run
        let alone = run(vec![probs[0].clone()], backend, BatchOptions::default());
        assert_eq!(alone[0], r[0]);
        let again = de.run(&Stop::default()).unwrap();
        assert_eq!(again, r);
        assert_eq!(de.results().unwrap(), r);
    }
}

/// `run_observed` reports before every launch and at the end: the generations summed over the
/// problems, the problems finished and the least best value, never going back; the last report
/// is the results'. The results equal an unobserved run's; false from the callback cuts the
/// problems still running (stopped by the budget).
#[test]
fn run_observed_reports_the_batch_and_may_stop_it() {
    let probs = mixed(10, 30);
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let o = opts(Precision::Double, 6, Placement::Auto);
        let mut seen: Vec<BatchProgress> = Vec::new();
        let r = BatchDe::new(probs.clone(), backend, o.clone())
            .unwrap()
            .run_observed(&Stop::default(), |p| {
                seen.push(*p);
                true
            })
            .unwrap();
        assert_eq!(r, run(probs.clone(), backend, o.clone()), "{backend:?}");
        assert!(seen.len() > 3, "{backend:?}: {seen:?}");
        assert!(seen[0].best.is_infinite() && seen[0].generations == 0);
        assert!(
            seen.windows(2).all(|w| w[0].generations <= w[1].generations
                && w[0].finished <= w[1].finished
                && w[1].best <= w[0].best),
            "{backend:?}: {seen:?}"
        );
        let last = seen.last().unwrap();
        assert_eq!(last.problems, 10);
        assert_eq!(last.finished, 10);
        assert_eq!(
            last.generations,
            r.iter().map(|p| p.generations).sum::<u64>()
        );
        assert_eq!(
            last.best,
            r.iter().map(|p| p.best_value).fold(f64::INFINITY, f64::min)
        );
        // stopped at the second report: one launch ran, every problem cut
        let mut n = 0;
        let r = BatchDe::new(probs.clone(), backend, o)
            .unwrap()
            .run_observed(&Stop::default(), |_| {
                n += 1;
                n < 2
            })
            .unwrap();
        assert!(
            r.iter()
                .all(|p| p.stop == Some(StopReason::Budget) && p.generations < 30),
            "{backend:?}: {r:?}"
        );
    }
}

/// A batch whose one generation is long on a slow backend: a limit that passes inside a
/// generation ends the run after a block of problems (not after the whole generation), and the
/// run continued from there ends as the uninterrupted one.
#[test]
fn a_long_generation_is_cut_between_blocks_of_problems() {
    let problems = || {
        (0..256)
            .map(|i| {
                let mut p = BatchProblem::new("F8", 100, -600.0, 600.0);
                p.members = 256;
                p.seed = 5 + i as u64;
                p.max_generations = 2;
                p
            })
            .collect::<Vec<_>>()
    };
    let key = |r: &[BatchResult]| {
        r.iter()
            .map(|r| (r.best_value.to_bits(), r.generations, r.stop))
            .collect::<Vec<_>>()
    };
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let o = opts(Precision::Double, 1, Placement::Auto);
        // the initial population and two generations, timed twice (the shorter: a run slowed by
        // other tests would give a limit that the run below outlasts)
        let mut whole = Vec::new();
        let mut generation = Duration::MAX;
        for _ in 0..2 {
            let mut de = BatchDe::new(problems(), backend, o.clone()).unwrap();
            let t = Instant::now();
            whole = de.run(&Stop::default()).unwrap();
            generation = generation.min(t.elapsed() / 3);
        }
        let mut de = BatchDe::new(problems(), backend, o.clone()).unwrap();
        let limit = generation / 4;
        let t = Instant::now();
        let part = de.run(&Stop::time_limit(limit)).unwrap();
        let late = t.elapsed().saturating_sub(limit);
        assert!(part.iter().all(|r| r.stop == Some(StopReason::TimeLimit)));
        // where a generation is long enough to tell (not on a fast GPU), the run ends well
        // before the generation would
        if generation > Duration::from_secs(1) {
            assert!(
                late < generation / 2,
                "{backend:?}: {late:?} late; a generation takes {generation:?}"
            );
        }
        let rest = de.run(&Stop::default()).unwrap();
        assert_eq!(key(&rest), key(&whole), "{backend:?}");
    }
}

#[test]
fn time_limit_and_stop_token() {
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut de = BatchDe::new(
            spheres(4, u64::MAX / 4),
            backend,
            opts(Precision::Double, 50, Placement::Auto),
        )
        .unwrap();
        let t = Instant::now();
        let r = de
            .run(&Stop {
                time_limit: Some(Duration::from_millis(300)),
                token: None,
                checkpoint: None,
                ..Stop::default()
            })
            .unwrap();
        // (generous: the tests of this file run at once and share the CPU backend's threads)
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!(r
            .iter()
            .all(|r| r.stop == Some(StopReason::TimeLimit) && r.generations > 0));
        let token = StopToken::new();
        token.request();
        let r2 = de
            .run(&Stop {
                time_limit: None,
                token: Some(token),
                checkpoint: None,
                ..Stop::default()
            })
            .unwrap();
        assert!(r2.iter().all(|r| r.stop == Some(StopReason::Interrupted)));
        assert_eq!(
            r2.iter().map(|r| r.generations).collect::<Vec<_>>(),
            r.iter().map(|r| r.generations).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_stop_with_a_budget_or_target_of_the_batch_is_refused_naming_it() {
    let mut de = BatchDe::new(
        spheres(2, 30),
        Backend::Cpu,
        opts(Precision::Double, 10, Placement::Auto),
    )
    .unwrap();
    let per_problem = |r: metaopt::Result<Vec<BatchResult>>, name: &str| {
        let msg = arg_error(r, name);
        assert!(msg.contains("per problem"), "{name}: {msg}");
    };
    per_problem(de.run(&Stop::budget(5)), "budget");
    per_problem(
        de.run(&Stop {
            evaluations: Some(100),
            ..Stop::default()
        }),
        "evaluations",
    );
    per_problem(
        de.run_observed(
            &Stop {
                target: Some(0.0),
                ..Stop::default()
            },
            |_| true,
        ),
        "target",
    );
    per_problem(
        de.run(&Stop {
            record_every: 10,
            ..Stop::default()
        }),
        "record_every",
    );
    // a refused stop ran nothing: the problems have not begun
    assert!(de.results().unwrap().iter().all(|r| r.generations == 0));
    // the batch's own stops run it to the problems' budgets
    let r = de.run(&Stop::default()).unwrap();
    assert!(r
        .iter()
        .all(|r| r.generations == 30 && r.stop == Some(StopReason::Budget)));
}

#[test]
fn bad_specs_give_named_errors() {
    let ok = || BatchProblem::new("F1", 3, -1.0, 1.0);
    let new = |p: BatchProblem| BatchDe::new(vec![ok(), p], Backend::Cpu, BatchOptions::default());
    let msg = arg_error(new(BatchProblem { members: 3, ..ok() }), "members");
    assert!(msg.contains("problem 1"), "{msg}");
    arg_error(
        new(BatchProblem {
            members: 5,
            mutation: Mutation::Rand2,
            ..ok()
        }),
        "members",
    );
    arg_error(new(BatchProblem::new("F99", 3, -1.0, 1.0)), "function");
    arg_error(new(BatchProblem::new(99u32, 3, -1.0, 1.0)), "function");
    arg_error(new(BatchProblem::new("CEC04t", 3, -1.0, 1.0)), "dims");
    arg_error(new(BatchProblem::new("F1", 3, f64::NAN, 1.0)), "bounds");
    arg_error(
        new(BatchProblem {
            upper: vec![1.0, f64::NAN, 2.0],
            ..ok()
        }),
        "bounds",
    );
    arg_error(
        new(BatchProblem {
            upper: vec![1.0, 2.0],
            ..ok()
        }),
        "upper",
    );
    arg_error(new(BatchProblem { cr: 1.5, ..ok() }), "cr");
    arg_error(
        new(BatchProblem {
            f: f64::NAN,
            ..ok()
        }),
        "f",
    );
    arg_error(
        new(BatchProblem {
            target: Some(f64::NAN),
            ..ok()
        }),
        "target",
    );
    arg_error(
        BatchDe::new(vec![], Backend::Cpu, BatchOptions::default()),
        "problems",
    );
    arg_error(
        BatchDe::new(
            vec![ok()],
            Backend::Cpu,
            BatchOptions {
                generations_per_launch: 0,
                ..Default::default()
            },
        ),
        "generations_per_launch",
    );
    // too large for the device: in local memory, and at all
    let big = BatchProblem {
        members: 4096,
        dims: 4096,
        ..ok()
    };
    arg_error(
        BatchDe::new(
            vec![big],
            Backend::DEVICE,
            opts(Precision::Double, 1, Placement::Local),
        ),
        "placement",
    );
    let huge: Vec<BatchProblem> = (0..64)
        .map(|_| BatchProblem {
            members: 1 << 16,
            dims: 1 << 15,
            ..ok()
        })
        .collect();
    // the whole batch's footprint is refused before any buffer is made, naming `problems`
    match BatchDe::new(huge, Backend::DEVICE, BatchOptions::default()) {
        Err(Error::OutOfDeviceMemory(m)) => assert!(m.contains("`problems`"), "{m}"),
        Err(e) => panic!("expected OutOfDeviceMemory, got {e}"),
        Ok(_) => panic!("expected OutOfDeviceMemory"),
    }
}

/// A shifted sphere whose centre is the problem's data (one FP per dimension).
const SHIFTED: &str =
    "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    __global const FP *c = (__global const FP *)data;
    FP s = 0;
    for (uint n = 0; n < dims; ++n) { FP d = x[(size_t)n * stride] - c[n]; s += d * d; }
    return s;
}
";

/// A weighted sum of absolute values, weights as uint in the data: another source in the batch.
const WEIGHTED: &str =
    "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    __global const uint *w = (__global const uint *)data;
    FP s = 0;
    for (uint n = 0; n < dims; ++n) s += (FP)w[n] * fabs(x[(size_t)n * stride]);
    return s;
}
";

#[test]
fn user_sources_with_their_own_data_slices() {
    // catalogue functions and two sources, each problem with its own data, in one batch
    let mut probs = Vec::new();
    for i in 0..12usize {
        let dims = 2 + (i as u32 % 5);
        let mut p = match i % 3 {
            0 => BatchProblem::new("F1", dims, -5.0, 5.0),
            1 => {
                let centre: Vec<f64> = (0..dims)
                    .map(|n| (i as f64) * 0.1 - n as f64 * 0.3)
                    .collect();
                let data = centre.iter().flat_map(|c| c.to_le_bytes()).collect();
                BatchProblem::new(BatchFunction::source(SHIFTED, data), dims, -5.0, 5.0)
            }
            _ => {
                let data = (0..dims)
                    .flat_map(|n| (1 + n + i as u32).to_le_bytes())
                    .collect();
                BatchProblem::new(BatchFunction::source(WEIGHTED, data), dims, -5.0, 5.0)
            }
        };
        p.members = 16 + i as u32;
        p.seed = 77 + i as u64;
        p.max_generations = 400;
        probs.push(p);
    }
    let de = BatchDe::new(
        probs.clone(),
        Backend::DEVICE,
        opts(Precision::Double, 50, Placement::Auto),
    )
    .unwrap();
    // a user source reads its point from global memory
    assert_eq!(de.trials_in_local_memory(), Some(false));
    let dev = {
        let mut de = de;
        de.run(&Stop::default()).unwrap()
    };
    let cpu = run(
        probs.clone(),
        Backend::Cpu,
        opts(Precision::Double, 50, Placement::Auto),
    );
    for (i, (d, c)) in dev.iter().zip(&cpu).enumerate() {
        assert_eq!(d.generations, c.generations, "problem {i}");
        assert!(
            close(d.best_value, c.best_value, 1e-12),
            "problem {i}: device {} cpu {}",
            d.best_value,
            c.best_value
        );
        assert!(
            d.best
                .iter()
                .zip(&c.best)
                .all(|(a, b)| close(*a, *b, 1e-12)),
            "problem {i}"
        );
        assert!(d.best_value < 1e-8, "problem {i}: {}", d.best_value);
        if i % 3 == 1 {
            // the minimum is the problem's own centre, not another's
            for (n, x) in d.best.iter().enumerate() {
                let want = (i as f64) * 0.1 - n as f64 * 0.3;
                assert!(
                    (x - want).abs() < 1e-3,
                    "problem {i} dim {n}: {x} vs centre {want}"
                );
            }
        }
    }
    // a source that does not compile is refused when the batch is made, on both backends
    let bad = BatchProblem::new(BatchFunction::source("FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return y; }", vec![]), 2, -1.0, 1.0);
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let e = BatchDe::new(
            vec![probs[0].clone(), bad.clone()],
            backend,
            BatchOptions::default(),
        )
        .err()
        .expect("refused");
        assert!(e.to_string().contains('y'), "{e}");
    }
    arg_error(
        BatchDe::new(
            vec![BatchProblem::new(
                BatchFunction::source(" ", vec![]),
                2,
                -1.0,
                1.0,
            )],
            Backend::Cpu,
            BatchOptions::default(),
        ),
        "function",
    );
}

#[test]
fn identical_problems_equal_the_island_de_with_one_population() {
    use metaopt::de::{DeMultiPop, DeParams, FMode, Migration};
    use metaopt::objective::Objective;
    let mut p = BatchProblem::new("F6", 10, -5.12, 5.12);
    p.members = 32;
    p.f = 0.7;
    p.cr = 0.9;
    p.bounds = BoundsCorrection::Mirror;
    p.mutation = Mutation::CurrentToRand1;
    p.seed = 2024;
    p.max_generations = 150;
    for backend in [Backend::DEVICE, Backend::Cpu] {
        // B identical problems: B identical results
        let r = run(
            vec![p.clone(); 16],
            backend,
            opts(Precision::Double, 40, Placement::Auto),
        );
        assert!(r.iter().all(|x| *x == r[0]), "identical problems differ");
        // the island DE with one population and the problem's seeds, F and CR: the same run
        let mut params = DeParams::new(1, p.members, p.dims, -5.12, 5.12, p.bounds);
        let [s_init, s_mut, s_cross] = p.seeds();
        params.options.f_mode = FMode::Const;
        params.options.f_min = p.f;
        params.options.cr = vec![p.cr];
        (
            params.options.init_seed,
            params.options.mutation_seed,
            params.options.crossover_seed,
        ) = (s_init, s_mut, s_cross);
        params.options.double = true;
        let mut de = DeMultiPop::new(&params, backend).unwrap();
        de.init(
            &Objective::catalogue("F6").unwrap(),
            p.mutation,
            Migration::NONE,
        )
        .unwrap();
        let island = de.run(&Stop::budget(p.max_generations)).unwrap();
        assert!(
            close(island.value, r[0].best_value, 1e-12),
            "{backend:?}: island {} batch {}",
            island.value,
            r[0].best_value
        );
        assert!(
            island
                .x
                .iter()
                .zip(&r[0].best)
                .all(|(a, b)| close(*a, *b, 1e-12)),
            "{backend:?}: best vectors differ"
        );
        assert_eq!(island.generations, r[0].generations);
    }
}
