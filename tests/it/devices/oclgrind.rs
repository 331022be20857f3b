//! Tiny cases of the kernels that no `metaopt` command launches (the Philox check, the tabu
//! list's batched look-up, basin hopping, host callbacks of DE and HC12, the catalogue's
//! evaluation kernels, MCSX, the QIGA repair of given strings), for `scripts/oclgrind-check.py`,
//! which runs each alone under Oclgrind. Ignored in the ordinary run: the solvers' own tests
//! cover the same paths on larger cases; `cargo test --release --test it devices::oclgrind --
//! --ignored` runs them on the default device.

use crate::common::{assert_rng_fill_equals_host, sphere_callback};
use metaopt::bh::{BasinHopping, BhParams};
use metaopt::de::{BoundsCorrection, DeMultiPop, DeParams, Migration, Mutation};
use metaopt::device::{Backend, DeviceContext};
use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
use metaopt::hc12::tabu::{CpuTabu, DeviceTabu};
use metaopt::objective::{evaluate_catalogue, evaluate_points, Objective};
use metaopt::problem::knapsack::Knapsack;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::qiga::{repair_strings, Items, Repair, RepairCall};
use metaopt::run::Stop;
use metaopt::sat::eval::DeviceSat;

/// `rng_fill` (common.cl): the device's Philox words are the host's.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn rng_fill() {
    assert_rng_fill_equals_host(8, 0x0123_4567_89ab_cdef, 3);
}

/// `tabu_prepare`, `tabu_update` and `tabu_find_many` (tabu.cl): a list of 3 two-word strings
/// after 5 inserts (two evicted, one duplicate) answers as the host's ordered set.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn tabu_find_many() {
    let ctx = DeviceContext::current().unwrap();
    let q = ctx.queue().unwrap();
    let mut dev = DeviceTabu::standalone(&ctx, &q, 3, 2).unwrap();
    let mut host = CpuTabu::new(3);
    let strings = [[5u32, 1], [2, 9], [5, 0], [2, 9], [7, 7], [1, 1]];
    for s in &strings {
        let b = q.buffer_from(s, "v").unwrap();
        dev.insert(&q, &b, 0).unwrap();
        host.insert(s);
    }
    assert_eq!(dev.len(&q).unwrap(), host.len());
    let queries: Vec<u32> = strings.iter().flatten().copied().chain([0, 0]).collect();
    let (found, pos) = dev.find_many(&q, &queries).unwrap();
    for (i, s) in queries.chunks(2).enumerate() {
        assert_eq!((found[i], pos[i]), host.find(s), "{s:?}");
    }
}

/// `bh_steps` (bh.cl): in double on F1 the device's chains take the CPU twin's steps.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn bh_steps() {
    let obj = Objective::catalogue("F1").unwrap();
    let (lo, hi) = (vec![-5.12; 2], vec![5.12; 2]);
    let p = BhParams {
        chains: 2,
        seed: 5,
        ..BhParams::default()
    };
    let anchors = |backend| {
        let mut bh = BasinHopping::new(&obj, &lo, &hi, &p, backend).unwrap();
        bh.start(&[3.0, -2.0], None).unwrap();
        bh.run(3).unwrap();
        assert_eq!(bh.evaluations(), 1 + 3 * 2);
        bh.anchors().unwrap()
    };
    assert_eq!(anchors(Backend::DEVICE), anchors(Backend::Cpu));
}

/// `functions_constraints` (functions.cl) on a source's constraints, `functions_repair` (the
/// gradient-based repair, which solves linear constraints in one step), and `bh_steps` (bh.cl)
/// with them (constraints.cl's comparisons and violation).
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn constraints_eval_and_bh() {
    let src = Objective::source(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)\n\
         { return x[0] * x[0] + x[stride] * x[stride]; }\n\
         void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)\n\
         { c[0] = (FP)1 - x[0] - x[stride]; c[1] = x[0] - x[stride]; }\n",
        Vec::new(),
    );
    let c = metaopt::objective::constraint_values(&src, &[0.25, 0.5, 1.0, 1.0], 2, 2, true, None)
        .unwrap();
    assert_eq!(c, vec![0.25, -0.25, -1.0, 0.0]);
    let cons = metaopt::de::Constraints::compiled(1, 1);
    let p = BhParams {
        chains: 2,
        seed: 5,
        ..BhParams::default()
    };
    let mut bh = BasinHopping::with_constraints(
        &src,
        Some(&cons),
        &[-2.0; 2],
        &[2.0; 2],
        &p,
        Backend::DEVICE,
    )
    .unwrap();
    bh.start(&[-1.0, 1.5], None).unwrap();
    bh.run(3).unwrap();
    assert_eq!(bh.evaluations(), 1 + 3 * 2);
    // g = 1 - x0 - x1 <= 0 violated and h = x0 - x1 = 0: one Newton step to (0.5, 0.5); the
    // feasible second point stays. (Last: run before the basin hopping, the plugin gives the
    // buffers that follow the repair's released ones their shadow, as `put_func_data` says.)
    let task = metaopt::objective::RepairTask {
        lo: &[-2.0; 2],
        hi: &[2.0; 2],
        integral: &[false; 2],
        inequalities: 1,
        equalities: 1,
        eq_tol: 1e-9,
        rounds: 2,
    };
    let r = metaopt::objective::repair_points(&src, &[0.25, 0.5, 1.0, 1.0], &task, true).unwrap();
    assert!(
        (r[0] - 0.5).abs() < 1e-6 && (r[1] - 0.5).abs() < 1e-6 && r[2..] == [1.0, 1.0],
        "{r:?}"
    );
}

/// `de_select` (de.cl): island DE whose values come from a host callback; and `de_moments`.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn de_host_callback() {
    let mut p = DeParams::new(2, 8, 2, -5.0, 5.0, BoundsCorrection::Saturation);
    p.options.double = true;
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(&sphere_callback(), Mutation::Rand1, Migration::NONE)
        .unwrap();
    let r = de.run(&Stop::budget(2)).unwrap();
    assert_eq!(r.generations, 2);
    assert!(r.value.is_finite() && r.value >= 0.0, "{}", r.value);
    let at_best: f64 = r.x.iter().map(|v| v * v).sum();
    assert_eq!(r.value, at_best);
    // `de_moments` (de.cl): the spread the device reduces is the host's over the same values
    let fx = de.fitness().unwrap();
    let host = metaopt::de::ops::spread(&metaopt::de::ops::moments(&fx, 8), 8);
    assert_eq!(de.spread().unwrap(), host);
}

/// `hc12g_decode` (hc12_eval.cl): HC12 on a host callback runs as on the catalogue's F1.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn hc12_host_callback() {
    let mut p = Hc12Params::real(2, 4, -5.12, 5.12);
    p.double = true;
    let opts = RunOptions {
        stop: Stop::budget(1),
        seed: 3,
        ..Default::default()
    };
    let run = |obj| {
        Hc12::new(p.clone(), obj, Backend::DEVICE)
            .unwrap()
            .run(&opts)
            .unwrap()
    };
    let want = run(Objective::catalogue("F1").unwrap());
    let got = run(sphere_callback());
    assert_eq!(
        (got.value, &got.string, got.iterations),
        (want.value, &want.string, want.iterations)
    );
}

/// `functions_eval` and `functions_eval_id` (functions.cl): F1 and Rastrigin at integer points,
/// where both are the sum of squares.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn functions_eval() {
    let points = [1.0, -2.0, 0.0, 3.0, 2.0, 2.0];
    let want = [5.0, 9.0, 8.0];
    let f1 = evaluate_points(&Objective::catalogue("F1").unwrap(), &points, 2, true, None).unwrap();
    assert_eq!(f1, want);
    let f6 = evaluate_catalogue("F6", &points, 2, true, None).unwrap();
    for (got, want) in f6.iter().zip(want) {
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
}

/// `sat_mcsx_count` and `sat_mcsx_reduce` (sat.cl): the satisfied clauses of one assignment.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn sat_mcsx() {
    let clauses: [&[i32]; 5] = [&[1, -2], &[2, 3], &[-1, -3], &[-2], &[1, 2, 3]];
    let cnf = Cnf::from_clauses("tiny", 3, clauses).unwrap();
    let mut ds = DeviceSat::new(&cnf).unwrap();
    for bits in [
        [true, false, true],
        [false, true, false],
        [true, true, true],
    ] {
        let a = Assignment::from_bools(&bits);
        let r = ds.mcsx(&a, true).unwrap();
        let want = cnf.satisfied_count(&a);
        assert_eq!(r.satisfied, want, "{bits:?}");
        assert_eq!(r.all, want as usize == clauses.len());
        let counts = r.counts.unwrap();
        assert_eq!(counts.len(), clauses.len());
    }
}

/// `qiga_repair_strings` (qiga.cl): the device repairs given strings as the CPU twin does.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn qiga_repair_strings() {
    let k = Knapsack::from_integers("tiny", &[3, 1, 4, 1, 5], &[9, 2, 6, 5, 3], 6).unwrap();
    let items = Items::of(&k);
    let input: Vec<u8> = [
        [1, 1, 1, 1, 1],
        [1, 0, 1, 0, 0],
        [0, 1, 0, 1, 1],
        [0, 0, 0, 0, 0],
    ]
    .concat();
    for repair in [Repair::Index, Repair::Random, Repair::Greedy] {
        let call = RepairCall {
            individuals: 2,
            repair,
            seed: 7,
            pop_offset: 1,
            generation: 2,
        };
        let mut dev = input.clone();
        let mut cpu = input.clone();
        let dv = repair_strings(&items, call, &mut dev, Backend::DEVICE).unwrap();
        let cv = repair_strings(&items, call, &mut cpu, Backend::Cpu).unwrap();
        assert_eq!((dev, dv), (cpu, cv), "{repair:?}");
    }
}

/// `cec06_eval` (cec2006.cl) on problems `names` at their best-known points, as the host twin
/// gives them.
fn cec06_at_best(names: &[&str]) {
    use metaopt::problem::cec2006;
    for &name in names {
        let info = cec2006::info(name).unwrap();
        let x = info.best_x.expect("a best-known point").to_vec();
        let (f, v) = cec2006::evaluate_device(Backend::DEVICE, name, &x, 1).unwrap();
        let (hf, c) = cec2006::eval(name, &x).unwrap();
        let hv = cec2006::violation(&info, &c);
        assert!(
            (f[0] - hf).abs() <= 1e-9 * hf.abs().max(1.0),
            "{name}: {} vs {hf}",
            f[0]
        );
        assert!((v[0] - hv).abs() <= 1e-12, "{name}: {} vs {hv}", v[0]);
    }
}

/// `cec06_eval` on a linear, a trigonometric-equality and a piecewise problem.
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn cec06_eval() {
    cec06_at_best(&["G01", "G05", "G17"]);
}

/// `cec06_eval` on the problems whose data are program-scope tables (G14, G16, G19, G20).
#[test]
#[ignore = "tiny cases for scripts/oclgrind-check.py"]
fn cec06_eval_tables() {
    cec06_at_best(&["G14", "G16", "G19"]);
}
