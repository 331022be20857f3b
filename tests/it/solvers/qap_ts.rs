//! Robust tabu search for the QAP (docs/specs/QAP_TS.md): the maintained delta matrix, the tabu
//! rules replayed on the host, best-known values, and device-CPU identity.

use crate::common::*;
use metaopt::problem::qap::{full_cost, read_bks_csv, Cost, ElemType, QapInstance, QapProblem};
use metaopt::qap_ts::cpu::{pair_index, tenure, tie_key, TsChain, TsElem, TsParams};
use metaopt::qap_ts::*;
use metaopt::rng::{rng4, Philox};
use metaopt::run::Stop;
use metaopt::with_matrices;
use std::sync::Arc;
use std::time::Duration;

const TYPES: [ElemType; 6] = [
    ElemType::I32,
    ElemType::I64,
    ElemType::U32,
    ElemType::U64,
    ElemType::F32,
    ElemType::F64,
];

/// A random instance with entries in 0..20: symmetric with zero diagonals, asymmetric with zero
/// diagonals, or asymmetric with non-zero diagonals.
fn random_instance(n: usize, kind: u32, seed: u64) -> QapInstance {
    let mut r = Philox::new(seed, kind);
    let mut m = || {
        let mut v = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                if i == j && kind < 2 {
                    continue;
                }
                if kind == 0 && j < i {
                    v[i * n + j] = v[j * n + i];
                } else {
                    v[i * n + j] = r.below(20) as i64;
                }
            }
        }
        v
    };
    let (a, b) = (m(), m());
    QapInstance {
        name: format!("random{n}-{kind}"),
        n,
        a,
        b,
    }
}

fn close<T: TsElem>(x: T::D, y: T::D) -> bool {
    if T::TYPE.is_integer() {
        return x == y;
    }
    let (x, y) = (as_f64::<T>(x), as_f64::<T>(y));
    (x - y).abs() <= 1e-6 * (1.0 + x.abs().max(y.abs()))
}

fn as_f64<T: TsElem>(v: T::D) -> f64 {
    Cost::from_bits(T::TYPE.ft_kind(), T::to_bits(v)).as_f64()
}

fn check_deltas<T: TsElem>(n: usize, slices: usize, a: &[T], b: &[T], seed: u64, sym: bool) {
    let (a, b) = (Arc::new(a.to_vec()), Arc::new(b.to_vec()));
    let mut r = Philox::new(seed, 99);
    let start: Vec<u16> = r.permutation(n).into_iter().map(|v| v as u16).collect();
    let mut c = TsChain::new(n, slices, a.clone(), b.clone(), &start);
    assert_eq!(
        c.symmetric(),
        sym,
        "the symmetric shortcut is taken exactly on symmetric data"
    );
    for step in 0..60 {
        let i = r.below(n as u32) as usize;
        let j = (i + 1 + r.below(n as u32 - 1) as usize) % n;
        let (u, v) = (i.min(j), i.max(j));
        let before = full_cost(n, slices, &a, &b, &c.perm);
        let predicted = c.delta[pair_index(n, u, v)];
        c.apply_swap(u, v);
        let after = full_cost(n, slices, &a, &b, &c.perm);
        let mut fresh = c.clone();
        fresh.recompute();
        for (k, (x, y)) in c.delta.iter().zip(&fresh.delta).enumerate() {
            assert!(
                close::<T>(*x, *y),
                "{:?} step {step}: delta {k} maintained {x:?}, recomputed {y:?}",
                T::TYPE
            );
        }
        assert!(
            close::<T>(c.cost, T::from_bits(after.bits())),
            "{:?} step {step}: cost {:?} vs {after}",
            T::TYPE,
            c.cost
        );
        let diff = T::dsub(T::from_bits(after.bits()), T::from_bits(before.bits()));
        assert!(
            close::<T>(predicted, diff),
            "{:?} step {step}: delta {predicted:?} vs cost change {diff:?}",
            T::TYPE
        );
    }
}

/// Two instances as the two slices (scenarios) of one stochastic problem.
fn two_slices(x: &QapInstance, y: &QapInstance) -> QapProblem {
    let cat = |u: &[i64], v: &[i64]| u.iter().chain(v).copied().collect::<Vec<i64>>();
    let data = metaopt::problem::qap::QapMatrices::I64(cat(&x.a, &y.a), cat(&x.b, &y.b));
    QapProblem::new("two slices", x.n, 2, data).unwrap()
}

#[test]
fn maintained_deltas_equal_recomputed_ones_with_slices() {
    for kind in [0, 2] {
        let p = two_slices(&random_instance(8, kind, 1), &random_instance(8, kind, 2));
        with_matrices!(&p.data, |a, b| check_deltas(8, 2, a, b, 5, kind == 0));
    }
}

#[test]
fn maintained_deltas_equal_recomputed_ones() {
    for kind in 0..3 {
        for (k, n) in [5usize, 9, 14].into_iter().enumerate() {
            let inst = random_instance(n, kind, 10 + k as u64);
            for ty in TYPES {
                let p = QapProblem::from_instance_as(&inst, ty).unwrap();
                with_matrices!(&p.data, |a, b| check_deltas(
                    n,
                    1,
                    a,
                    b,
                    7 + kind as u64,
                    kind == 0
                ));
            }
        }
    }
}

/// Replays a chain's iterations with an independent tabu matrix, permutation and best cost: every
/// move is allowed or aspired, and the best under the key (aspired, delta, tie key).
fn replay<T: TsElem>(
    n: usize,
    a: &[T],
    b: &[T],
    params: &TsParams,
) -> (usize, usize, usize, usize) {
    let (a, b) = (Arc::new(a.to_vec()), Arc::new(b.to_vec()));
    let start: Vec<u16> = Philox::new(3, 3)
        .permutation(n)
        .into_iter()
        .map(|v| v as u16)
        .collect();
    let mut c = TsChain::new(n, 1, a.clone(), b.clone(), &start);
    let mut tabu: Vec<i64> = (0..n * n).map(|k| -(k as i64) - 1).collect();
    let mut perm = start.clone();
    let cost_of = |p: &[u16]| T::from_bits(full_cost(n, 1, &a, &b, p).bits());
    let mut best = cost_of(&perm);
    let h = params.horizon as i64;
    let (mut by_best, mut by_horizon, mut tabu_taken, mut barred) = (0, 0, 0, 0);
    for t in 0..3000i64 {
        let w = rng4(params.seed, 5, t as u64);
        let cur = cost_of(&perm);
        // the expected choice, from scratch
        let mut want: Option<(bool, T::D, u32, usize, usize)> = None;
        for r in 0..n {
            for s in r + 1..n {
                let mut q = perm.clone();
                q.swap(r, s);
                let d = T::dsub(cost_of(&q), cur);
                let (tr, ts) = (
                    tabu[r * n + perm[s] as usize],
                    tabu[s * n + perm[r] as usize],
                );
                let best_asp = T::cost_lt(T::dadd(cur, d), best);
                let aspired = best_asp || tr < t - h || ts < t - h;
                if !(aspired || tr < t || ts < t) {
                    barred += 1;
                    continue;
                }
                let key = tie_key(pair_index(n, r, s) as u32, w[0]);
                let better = match &want {
                    None => true,
                    Some((wa, wd, wk, ..)) => {
                        if aspired != *wa {
                            aspired
                        } else if d != *wd {
                            T::delta_lt(d, *wd)
                        } else {
                            key < *wk
                        }
                    }
                };
                if better {
                    want = Some((aspired, d, key, r, s));
                }
            }
        }
        let got = c.step(params, 5);
        assert_eq!(got, want.map(|(.., r, s)| (r, s)), "iteration {t}");
        if let Some((aspired, d, _, r, s)) = want {
            let (tr, ts) = (
                tabu[r * n + perm[s] as usize],
                tabu[s * n + perm[r] as usize],
            );
            if !(tr < t || ts < t) {
                tabu_taken += 1;
                assert!(
                    aspired,
                    "iteration {t}: tabu move ({r}, {s}) taken without aspiration"
                );
            }
            if T::cost_lt(T::dadd(cur, d), best) {
                by_best += 1;
            } else if aspired {
                by_horizon += 1;
            }
            tabu[r * n + perm[r] as usize] = t + tenure(params.tenure, n, w[1]) as i64;
            tabu[s * n + perm[s] as usize] = t + tenure(params.tenure, n, w[2]) as i64;
            perm.swap(r, s);
            let now = cost_of(&perm);
            if T::cost_lt(now, best) {
                best = now;
            }
        }
        assert_eq!(c.perm, perm);
    }
    (by_best, by_horizon, tabu_taken, barred)
}

#[test]
fn replayed_runs_take_no_tabu_move_without_aspiration() {
    for (kind, ty, rule) in [
        (0, ElemType::I64, TenureRule::Cubic),
        (2, ElemType::I32, TenureRule::Uniform),
        (1, ElemType::U32, TenureRule::Cubic),
    ] {
        let n = 9;
        let inst = random_instance(n, kind, 40);
        let p = QapProblem::from_instance_as(&inst, ty).unwrap();
        // a short horizon so that long-term aspirations happen within the run
        let params = TsParams {
            seed: 11,
            tenure: rule,
            horizon: (n * n) as u32,
            first_chain: 0,
        };
        let (b, h, t, x) = with_matrices!(&p.data, |a, bm| replay(n, a, bm, &params));
        eprintln!("kind {kind} {ty:?} {rule:?}: aspired by best {b}, by horizon {h}; tabu moves taken {t}; barred candidates skipped {x}");
        assert!(b > 0 && h > 0, "the run exercised both aspiration rules");
        assert!(x > 0, "the run met barred moves");
    }
}

#[test]
fn tenures_follow_their_rules() {
    let n = 20;
    let mut r = Philox::new(1, 1);
    let (mut sum, mut max) = (0i64, 0);
    for _ in 0..100_000 {
        let t = tenure(TenureRule::Cubic, n, r.next_u32());
        assert!((0..=8 * n as i32).contains(&t));
        sum += t as i64;
        max = max.max(t);
        let u = tenure(TenureRule::Uniform, n, r.next_u32());
        assert!((18..=22).contains(&u), "{u}");
    }
    let mean = sum as f64 / 100_000.0;
    assert!((mean - 2.0 * n as f64).abs() < 1.0, "mean {mean}");
    assert!(max >= 8 * n as i32 - 2);
    assert_eq!(tenure(TenureRule::Cubic, n, u32::MAX), 8 * n as i32);
}

fn bks(name: &str) -> i64 {
    read_bks_csv(&qaplib().join("BKS.csv")).unwrap()[name].bks
}

fn reach(name: &str, backend: Backend, chains: usize) -> QapTsSolveResult {
    let inst = instance(name);
    let target = bks(name);
    let mut s = QapTs::new(Arc::new(QapProblem::from_instance(&inst)), backend).unwrap();
    let opts = QapTsOptions {
        chains,
        // only the bound that turns a regression into a failure, not a hang
        stop: Stop {
            time_limit: Some(Duration::from_secs(60)),
            target: Some(target as f64),
            ..Stop::default()
        },
        seed: 2024,
        ..Default::default()
    };
    let r = s.solve(&opts).unwrap();
    eprintln!(
        "{name}: {} after {} iterations per chain, {:.2} s, {} restarts ({})",
        r.cost, r.iterations, r.seconds, r.restarts, r.backend
    );
    assert!(r.target_reached, "{name}: best {} (bks {target})", r.cost);
    assert_eq!(r.cost, Cost::I64(target));
    assert_eq!(inst.cost(&r.permutation), target);
    r
}

#[test]
fn cpu_reaches_best_known_values() {
    for name in ["had12", "chr12a", "esc16a", "nug12", "tai12b", "bur26a"] {
        reach(name, Backend::Cpu, 4);
    }
}

#[test]
fn options_are_checked_by_name() {
    let p = Arc::new(QapProblem::from_instance(&instance("nug12")));
    let mut s = QapTs::new(p, Backend::Cpu).unwrap();
    let mut arg = |o: QapTsOptions| match s.solve(&o) {
        Err(metaopt::Error::InvalidArgument { arg, .. }) => arg,
        other => panic!("{other:?}"),
    };
    let d = QapTsOptions::default;
    assert_eq!(
        arg(QapTsOptions {
            chains: MAX_CHAINS + 1,
            ..d()
        }),
        "chains"
    );
    assert_eq!(
        arg(QapTsOptions {
            launch_iterations: 0,
            ..d()
        }),
        "launch_iterations"
    );
    assert_eq!(
        arg(QapTsOptions {
            stop: Stop::default(),
            ..d()
        }),
        "max_iterations"
    );
    assert_eq!(
        arg(QapTsOptions {
            aspiration_horizon: Some(0),
            ..d()
        }),
        "aspiration_horizon"
    );
    assert_eq!(
        arg(QapTsOptions {
            perturbation: Some((3, 2)),
            ..d()
        }),
        "perturbation"
    );
    assert_eq!(
        arg(QapTsOptions {
            stop: Stop {
                target: Some(f64::NAN),
                ..d().stop
            },
            ..d()
        }),
        "target"
    );
    assert_eq!(
        arg(QapTsOptions {
            starts: vec![vec![0; 12]],
            ..d()
        }),
        "starts"
    );
}

#[test]
fn cpu_results_are_reproducible_and_restarts_happen() {
    let p = Arc::new(QapProblem::from_instance(&instance("chr15a")));
    let opts = QapTsOptions {
        chains: 3,
        stop: Stop::budget(3000),
        launch_iterations: 500,
        stagnation: Some(600),
        seed: 9,
        ..Default::default()
    };
    let r1 = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve(&opts)
        .unwrap();
    let r2 = QapTs::new(p.clone(), Backend::Cpu)
        .unwrap()
        .solve(&opts)
        .unwrap();
    assert_eq!(
        (r1.cost, &r1.permutation, r1.restarts),
        (r2.cost, &r2.permutation, r2.restarts)
    );
    assert_eq!(r1.iterations, 3000);
    // launches of a short step each, ending at every round of 500 iterations
    assert!(r1.launches >= 6, "{}", r1.launches);
    assert!(r1.restarts > 0);
    assert_eq!(p.cost(&r1.permutation).unwrap(), r1.cost);
}

/// Device and CPU chains of one seed: identical states after every launch on integer data (the
/// chains' best, current cost and permutation, restarts included).
fn same_on_device_and_cpu(inst: &QapInstance, ty: ElemType, opts: &QapTsOptions) {
    let p = Arc::new(QapProblem::from_instance_as(inst, ty).unwrap());
    // the launches are sized by each backend's speed, and every round of launch_iterations
    // ends one: the course at the rounds' ends is the seed's
    let round = opts.launch_iterations as u64;
    let trail = |backend: Backend| {
        let mut seen = Vec::new();
        let r = QapTs::new(p.clone(), backend)
            .unwrap()
            .solve_with_progress(opts, |pr| {
                if pr.iterations % round == 0 {
                    seen.push((pr.iterations, pr.best, pr.restarts));
                }
                true
            });
        (r.unwrap(), seen)
    };
    let (d, dt) = trail(Backend::Device(None));
    let (c, ct) = trail(Backend::Cpu);
    eprintln!(
        "{} {ty:?}: {} / {} in {:.2} s / {:.2} s ({})",
        inst.name, d.cost, c.cost, d.seconds, c.seconds, d.backend
    );
    assert_eq!(dt, ct, "{} {ty:?}: progress differs", inst.name);
    if ty.is_integer() {
        assert_eq!(
            (d.cost, &d.permutation),
            (c.cost, &c.permutation),
            "{} {ty:?}",
            inst.name
        );
    } else {
        assert_eq!(p.cost(&d.permutation).unwrap(), d.cost);
    }
    assert_eq!((d.iterations, d.restarts), (c.iterations, c.restarts));
    assert!(dt.len() as u64 == d.iterations.div_ceil(round));
}

#[test]
fn device_and_cpu_give_identical_chains() {
    let base = QapTsOptions {
        chains: 3,
        stop: Stop::budget(1500),
        launch_iterations: 500,
        stagnation: Some(400),
        seed: 31,
        ..Default::default()
    };
    // asymmetric with non-zero diagonals, every integer type
    let rnd = random_instance(11, 2, 5);
    for ty in [ElemType::I32, ElemType::I64, ElemType::U32, ElemType::U64] {
        same_on_device_and_cpu(&rnd, ty, &base);
    }
    // symmetric QAPLIB instances, the 1991 tenure rule, a short horizon
    let opts = QapTsOptions {
        tenure: TenureRule::Uniform,
        aspiration_horizon: Some(200),
        ..base.clone()
    };
    same_on_device_and_cpu(&instance("nug12"), ElemType::I32, &opts);
    same_on_device_and_cpu(&instance("tai12b"), ElemType::I64, &base);
    // every restart from a child of two pool members
    let cross = QapTsOptions {
        crossover: 1.0,
        stagnation: Some(150),
        elite_size: 4,
        ..base.clone()
    };
    same_on_device_and_cpu(&instance("chr15a"), ElemType::I32, &cross);
}

#[test]
fn crossover_children_keep_what_both_parents_share() {
    let mut rng = Philox::new(3, 0);
    for n in [2usize, 5, 40, 300] {
        for round in 0..20 {
            let a: Vec<u16> = rng.permutation(n).into_iter().map(|v| v as u16).collect();
            // b: a with a few swaps (most placements shared) or an unrelated permutation
            let mut b = a.clone();
            if round % 2 == 0 {
                for _ in 0..3 {
                    let (i, j) = (rng.below(n as u32) as usize, rng.below(n as u32) as usize);
                    b.swap(i, j);
                }
            } else {
                b = rng.permutation(n).into_iter().map(|v| v as u16).collect();
            }
            let child = crossover(&a, &b, &mut rng);
            let mut seen = vec![false; n];
            for (i, &l) in child.iter().enumerate() {
                assert!(!seen[l as usize], "n = {n}: location {l} twice");
                seen[l as usize] = true;
                if a[i] == b[i] {
                    assert_eq!(l, a[i], "n = {n}: a shared placement lost");
                }
            }
            // where the parents differ, a child placement comes from a parent unless both
            // parents' locations were taken
            let from_parents = (0..n)
                .filter(|&i| child[i] == a[i] || child[i] == b[i])
                .count();
            assert!(
                from_parents * 2 >= n,
                "n = {n}: {from_parents} from the parents"
            );
        }
    }
    let a: Vec<u16> = (0..50).collect();
    assert_eq!(crossover(&a, &a, &mut rng), a);
}

#[test]
fn crossover_restarts_are_reproducible_and_checked() {
    // a random asymmetric instance the budget does not solve, so the courses differ in the end
    let p = Arc::new(QapProblem::from_instance(&random_instance(30, 1, 4)));
    let opts = QapTsOptions {
        chains: 3,
        stop: Stop::budget(1500),
        launch_iterations: 100,
        stagnation: Some(100),
        crossover: 0.5,
        seed: 9,
        ..Default::default()
    };
    let solve = |o: &QapTsOptions| QapTs::new(p.clone(), Backend::Cpu).unwrap().solve(o);
    let (r1, r2) = (solve(&opts).unwrap(), solve(&opts).unwrap());
    assert_eq!(
        (r1.cost, &r1.permutation, r1.restarts),
        (r2.cost, &r2.permutation, r2.restarts)
    );
    assert!(r1.restarts > 0);
    assert_eq!(p.cost(&r1.permutation).unwrap(), r1.cost);
    // no crossover: the course of the plain restarts, whatever the share's draws would be
    let plain = solve(&QapTsOptions {
        crossover: 0.0,
        ..opts.clone()
    })
    .unwrap();
    assert_ne!(
        (plain.cost, &plain.permutation),
        (r1.cost, &r1.permutation),
        "the crossover changed nothing"
    );
    for bad in [-0.1, 1.5, f64::NAN] {
        let e = solve(&QapTsOptions {
            crossover: bad,
            ..opts.clone()
        })
        .unwrap_err();
        assert!(e.to_string().contains("crossover"), "{e}");
    }
}

#[test]
fn chains_left_at_zero_are_the_backend_count() {
    let p = Arc::new(QapProblem::from_instance(&instance("nug12")));
    let opts = QapTsOptions {
        stop: Stop::budget(200),
        ..Default::default()
    };
    assert_eq!(opts.chains, 0);
    let mut cpu = QapTs::new(p.clone(), Backend::Cpu).unwrap();
    let r = cpu.solve(&opts).unwrap();
    assert_eq!(r.chains, rayon::current_num_threads());
    assert_eq!(
        (r.chains_requested, cpu.default_chains().unwrap()),
        (r.chains, r.chains)
    );
    // a device: four per compute unit on a GPU, one per unit otherwise
    let dev = QapTs::new(p, Backend::Device(None)).unwrap();
    let info = &Backend::Device(None).context("test").unwrap().info;
    let per_unit = if info.kind == metaopt::device::DeviceKind::Gpu {
        4
    } else {
        1
    };
    assert_eq!(
        dev.default_chains().unwrap(),
        per_unit * info.compute_units.max(1) as usize
    );
    assert_eq!(
        default_chains(&[Backend::Cpu, Backend::Cpu]).unwrap(),
        2 * rayon::current_num_threads()
    );
}

#[test]
fn device_reaches_best_known_values() {
    for name in ["had12", "chr12a", "esc16a", "nug12", "tai12b", "bur26a"] {
        reach(name, Backend::Device(None), 4);
    }
}

#[test]
fn device_float_runs_give_consistent_costs() {
    let inst = instance("chr12a");
    for ty in [ElemType::F32, ElemType::F64] {
        let p = Arc::new(QapProblem::from_instance_as(&inst, ty).unwrap());
        let opts = QapTsOptions {
            chains: 2,
            stop: Stop::budget(1000),
            launch_iterations: 500,
            seed: 3,
            ..Default::default()
        };
        let r = QapTs::new(p.clone(), Backend::Device(None))
            .unwrap()
            .solve(&opts)
            .unwrap();
        assert_eq!(p.cost(&r.permutation).unwrap(), r.cost, "{ty:?}");
        assert!(r.cost.as_f64() <= 9552.0 * 1.2, "{ty:?}: {}", r.cost);
    }
}

/// The engines themselves, launch by launch: the device with its matrices in local memory, in
/// global memory, with only the deltas local (and a group smaller than the 2n - 3 pairs a move
/// touches), and the CPU hold identical chain states on integer data, a fresh start included;
/// with 32-bit deltas on the device where the entries allow them and 64-bit ones otherwise.
#[test]
fn device_engines_match_the_cpu_engine_launch_by_launch() {
    use metaopt::qap_ts::device::{DeviceEngine, LayoutRequest, Placement};
    // general (asymmetric, non-zero diagonals) and symmetric data: both formula variants; small
    // entries (32-bit deltas on the device) and large ones (64-bit deltas)
    for (kind, ty, rule, scale) in [
        (2, ElemType::I64, TenureRule::Cubic, 1),
        (2, ElemType::U32, TenureRule::Uniform, 1),
        (0, ElemType::I32, TenureRule::Cubic, 1),
        (2, ElemType::I64, TenureRule::Cubic, 1_000_000),
        (0, ElemType::U32, TenureRule::Uniform, 100_000),
    ] {
        let name = format!("kind {kind} x{scale}");
        let mut inst = random_instance(10, kind, 8);
        inst.a
            .iter_mut()
            .chain(inst.b.iter_mut())
            .for_each(|x| *x *= scale);
        let p = if kind == 2 && ty == ElemType::I64 && scale == 1 {
            // and two slices
            two_slices(&inst, &random_instance(10, kind, 9))
        } else {
            QapProblem::from_instance_as(&inst, ty).unwrap()
        };
        let params = TsParams {
            seed: 77,
            tenure: rule,
            horizon: 150,
            first_chain: 0,
        };
        let layout = DeviceEngine::new(
            &p,
            Backend::Device(None),
            params,
            3,
            LayoutRequest::default(),
        )
        .unwrap()
        .layout()
        .1;
        assert_eq!(layout.delta_i32, scale == 1, "{name}: {layout:?}");
        // the matrices read along each work-item's rows and across rows (the transposes of
        // asymmetric data beside them)
        let device = |placement, group_size, across| {
            let request = LayoutRequest {
                placement,
                group_size,
                across: Some(across),
            };
            let e = DeviceEngine::new(&p, Backend::Device(None), params, 3, request).unwrap();
            assert_eq!(e.layout().1.across, across);
            Box::new(e) as Box<dyn Engine>
        };
        let mut engines: Vec<Box<dyn Engine>> = vec![
            device(Placement::Auto, None, false),
            device(Placement::Global, None, true),
            device(Placement::LocalDelta, Some(4), true),
            device(Placement::Auto, None, true),
            metaopt::qap_ts::cpu::engine(&p, params),
        ];
        let mut rng = Philox::new(1, 2);
        let starts: Vec<ChainState> = (0..3)
            .map(|_| {
                ChainState::start(
                    &p,
                    rng.permutation(10).into_iter().map(|v| v as u16).collect(),
                    0,
                )
            })
            .collect();
        let mut states = vec![starts.clone(); 5];
        for launch in 0..4 {
            if launch == 2 {
                let fresh = ChainState::start(&p, (0..10u16).rev().collect(), states[0][1].g);
                for s in &mut states {
                    s[1] = fresh.clone();
                }
            }
            for (e, s) in engines.iter_mut().zip(&mut states) {
                e.advance(s, 250).unwrap();
            }
            for (e, what) in [
                "local",
                "global, across rows",
                "local deltas, 4 work-items, across rows",
                "local, across rows",
            ]
            .iter()
            .enumerate()
            {
                assert_eq!(
                    states[e], states[4],
                    "{name} {ty:?} launch {launch}: device ({what}) vs CPU"
                );
            }
        }
        assert!(states[4].iter().all(|s| s.g == 1000 && s.t > 0));
    }
}

/// Iterations per second per chain, CPU engine and device (a rough indication; run with
/// `cargo test --release --test it solvers::qap_ts::throughput -- --ignored --nocapture`).
#[test]
#[ignore]
fn throughput() {
    // METAOPT_TS_CHAINS: chains on the device (a GPU wants thousands); the CPU runs 4
    let dev_chains: usize = std::env::var("METAOPT_TS_CHAINS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    for (name, cpu_iters, dev_iters) in [
        ("bur26a", 40_000u64, 4_000u64),
        ("tai50a", 10_000, 1_000),
        ("tai100a", 2_000, 200),
    ] {
        let p = Arc::new(QapProblem::from_instance(&instance(name)));
        for (backend, iters, chains) in [
            (Backend::Cpu, cpu_iters, 4),
            (Backend::Device(None), dev_iters, dev_chains),
        ] {
            let opts = QapTsOptions {
                chains,
                stop: Stop::budget(iters),
                launch_iterations: iters as u32,
                stagnation: Some(0),
                ..Default::default()
            };
            let mut s = QapTs::new(p.clone(), backend).unwrap();
            // the first solve builds the program
            s.solve(&QapTsOptions {
                stop: Stop {
                    budget: Some(10),
                    ..opts.stop.clone()
                },
                launch_iterations: 10,
                ..opts.clone()
            })
            .unwrap();
            let r = s.solve(&opts).unwrap();
            eprintln!(
                "{name} (n = {}), {chains} chains, {:?}: {:.0} iterations/s per chain ({:.0} in all), best {} [{}]",
                p.n,
                backend,
                iters as f64 / r.seconds,
                (iters * chains as u64) as f64 / r.seconds,
                r.cost,
                r.backend
            );
        }
    }
}

#[test]
fn time_limit_and_progress_stop_a_solve() {
    let p = Arc::new(QapProblem::from_instance(&instance("tai25a")));
    let mut s = QapTs::new(p, Backend::Cpu).unwrap();
    let opts = QapTsOptions {
        chains: 2,
        stop: Stop {
            time_limit: Some(Duration::from_millis(300)),
            ..Stop::default()
        },
        launch_iterations: 200,
        ..Default::default()
    };
    let r = s.solve(&opts).unwrap();
    assert!(r.seconds >= 0.3 && r.seconds < 5.0, "{}", r.seconds);
    assert!(!r.target_reached && r.iterations > 0 && r.seconds_to_best <= r.seconds);
    // without a time limit too the launches take a short step each (the first 8 iterations),
    // none longer than a round of launch_iterations; the progress after each, and its false
    // ends the solve there
    let (mut calls, mut last) = (0, 0);
    let r = s
        .solve_with_progress(
            &QapTsOptions {
                stop: Stop {
                    budget: Some(100_000),
                    time_limit: None,
                    ..opts.stop.clone()
                },
                ..opts
            },
            |pr| {
                calls += 1;
                assert!(pr.iterations > last && pr.iterations - last <= 200);
                if calls == 1 {
                    assert_eq!(pr.iterations, 8);
                }
                last = pr.iterations;
                calls < 3
            },
        )
        .unwrap();
    assert_eq!((calls, r.iterations, r.launches), (3, last, 3));
}

/// `random_instance` with every entry multiplied by `scale`.
fn scaled(inst: QapInstance, scale: i64) -> QapInstance {
    QapInstance {
        a: inst.a.iter().map(|&x| x * scale).collect(),
        b: inst.b.iter().map(|&x| x * scale).collect(),
        ..inst
    }
}

/// Sizes above 256 (16-bit permutation entries): the device engine, with its matrices where they
/// fit and forced into global memory, equals the CPU engine state for state, launch by launch,
/// through a restart; 32-bit and 64-bit deltas.
#[test]
fn sizes_above_256_match_the_cpu_engine_launch_by_launch() {
    use metaopt::qap_ts::device::{DeviceEngine, LayoutRequest, Placement};
    // (n, kind, scale, chains, launches, iterations per launch)
    for (n, kind, scale, chains, launches, iters) in [
        (300usize, 2u32, 10_000i64, 3usize, 3usize, 60u32),
        (1000, 0, 1, 2, 1, 12),
        (2048, 0, 1, 1, 1, 6),
    ] {
        let inst = scaled(random_instance(n, kind, n as u64), scale);
        let p = QapProblem::from_instance(&inst);
        let params = TsParams {
            seed: 5,
            tenure: TenureRule::Cubic,
            horizon: (5 * n * n) as u32,
            first_chain: 0,
        };
        let device = |placement, across| {
            let request = LayoutRequest {
                placement,
                group_size: None,
                across,
            };
            DeviceEngine::new(&p, Backend::Device(None), params, chains, request).unwrap()
        };
        let auto = device(Placement::Auto, None);
        assert_eq!(auto.layout().1.delta_i32, scale == 1, "n = {n}");
        let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(auto)];
        if n == 300 {
            engines.push(Box::new(device(Placement::Global, Some(true))));
        }
        engines.push(metaopt::qap_ts::cpu::engine(&p, params));
        let mut rng = Philox::new(n as u64, 7);
        let starts: Vec<ChainState> = (0..chains)
            .map(|_| {
                let perm = rng.permutation(n).into_iter().map(|v| v as u16).collect();
                ChainState::start(&p, perm, 0)
            })
            .collect();
        let mut states = vec![starts; engines.len()];
        let cpu = engines.len() - 1;
        for launch in 0..launches {
            if launch == 1 {
                // a restart from the reversed permutation, whose entries reach n - 1
                let fresh = ChainState::start(&p, (0..n as u16).rev().collect(), states[0][1].g);
                for s in &mut states {
                    s[1] = fresh.clone();
                }
            }
            for (e, s) in engines.iter_mut().zip(&mut states) {
                e.advance(s, iters).unwrap();
            }
            for e in 0..cpu {
                assert_eq!(
                    states[e], states[cpu],
                    "n = {n}, launch {launch}: device engine {e} vs CPU"
                );
            }
        }
        for s in &states[cpu] {
            assert!(
                s.t > 0 && s.perm.iter().any(|&v| v as usize >= 256),
                "n = {n}"
            );
            // the maintained cost is the permutation's cost
            assert_eq!(s.cost, p.cost_order(&s.perm).bits(), "n = {n}");
        }
    }
}

/// A solve of n = 2048 on each backend: the best cost is the cost of the best permutation, and
/// below the start.
#[test]
fn a_solve_of_n_2048_runs_on_both_backends() {
    let n = 2048;
    let inst = random_instance(n, 0, 11);
    let p = Arc::new(QapProblem::from_instance(&inst));
    let opts = QapTsOptions {
        chains: 1,
        stop: Stop::budget(8),
        launch_iterations: 8,
        ..Default::default()
    };
    let mut results = Vec::new();
    for backend in [Backend::Cpu, Backend::Device(None)] {
        let r = QapTs::new(p.clone(), backend)
            .unwrap()
            .solve(&opts)
            .unwrap();
        assert_eq!((r.chains, r.chains_requested, r.iterations), (1, 1, 8));
        assert_eq!(p.cost(&r.permutation).unwrap(), r.cost);
        results.push(r);
    }
    assert_eq!(
        (results[0].cost, &results[0].permutation),
        (results[1].cost, &results[1].permutation)
    );
    // eight descending moves from a random start
    let start = Philox::new(1, 0x8000_0000).permutation(n);
    assert!(results[0].cost.less(&p.cost(&start).unwrap()));
}

/// The chains are fitted to the memory: a count that cannot fit is lowered (by default) or
/// refused naming `chains`; a count that fits is kept; sizes above the library's bound are
/// refused by the readers and the problem.
#[test]
fn chains_are_fitted_to_the_memory() {
    let n = 2048;
    let p = Arc::new(QapProblem::from_instance(&random_instance(n, 0, 3)));
    for backend in [Backend::Cpu, Backend::Device(None)] {
        let ts = QapTs::new(p.clone(), backend).unwrap();
        let mut opts = QapTsOptions {
            chains: MAX_CHAINS,
            ..Default::default()
        };
        // a million chains of n = 2048 hold about 30 TB
        let fit = ts.chains_that_fit(&opts).unwrap();
        assert!((1..MAX_CHAINS / 100).contains(&fit), "{backend:?}: {fit}");
        opts.fit_chains = false;
        let e = ts.chains_that_fit(&opts).unwrap_err().to_string();
        assert!(
            e.contains("`chains`") && e.contains(&format!("at most {fit}")),
            "{e}"
        );
        opts.chains = 1;
        assert_eq!(ts.chains_that_fit(&opts).unwrap(), 1);
    }
    let e = QapInstance::new("x", 2049, vec![0; 2049 * 2049], vec![0; 2049 * 2049])
        .unwrap_err()
        .to_string();
    assert!(e.contains("2048"), "{e}");
    let e = QapInstance::parse_dat("2049\n", std::path::Path::new("x.dat"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("1..=2048"), "{e}");
}
