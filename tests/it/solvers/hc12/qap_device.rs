//! The qapswap2 solver on an OpenCL device (PoCL in CI) against the host and CPU references.

use crate::common::*;
use metaopt::hc12::qap::*;
use metaopt::problem::qap::{Cost, ElemType, QapMatrices, QapProblem};
use metaopt::rng::Philox;
use std::sync::Arc;

fn solver(p: &Arc<QapProblem>, swaps: u32, backend: Backend, form: CostForm) -> QapHc12 {
    QapHc12::new(p.clone(), swaps, 2, 0, 0, backend, form).unwrap()
}

fn dev() -> Backend {
    Backend::Device(None)
}

#[test]
fn device_rng_equals_host_rng() {
    assert_rng_fill_equals_host(1000, 0x1234_5678_9abc_def0, 7);
}

#[test]
fn device_full_cost_equals_host_cost_on_every_instance() {
    for name in all_instances() {
        let inst = instance(&name);
        let p = Arc::new(QapProblem::from_instance(&inst));
        let mut s = solver(&p, 1, dev(), CostForm::Full);
        let mut rng = Philox::new(42, 0);
        for _ in 0..3 {
            let perm = rng.permutation(inst.n);
            let st = s.state(&perm, &s.zero_string()).unwrap();
            let costs = s.all_costs(&st).unwrap();
            assert_eq!(costs[0], Cost::I64(inst.cost(&perm)), "{name}");
        }
    }
}

/// A random string of the solver's shape.
fn random_string(s: &QapHc12, rng: &mut Philox) -> Vec<u32> {
    let nb = s.neighbourhood();
    (0..nb.n_param)
        .map(|_| rng.next_u32() & ((1u64 << nb.nbit) - 1) as u32)
        .collect()
}

#[test]
fn delta_equals_full_on_every_row() {
    // symmetric, asymmetric (bur26a, tai12b), non-zero diagonal (tai64c), sizes not powers of two
    for (name, swaps, order) in [
        ("had12", 4, 2),
        ("bur26a", 3, 2),
        ("tai12b", 2, 3),
        ("chr15a", 6, 2),
        ("tai64c", 2, 2),
        ("esc16a", 3, 2),
    ] {
        let inst = instance(name);
        let p = Arc::new(QapProblem::from_instance(&inst));
        let mut full = QapHc12::new(p.clone(), swaps, order, 0, 0, dev(), CostForm::Full).unwrap();
        let mut delta =
            QapHc12::new(p.clone(), swaps, order, 0, 0, dev(), CostForm::Delta).unwrap();
        let mut rng = Philox::new(5, 1);
        for _ in 0..3 {
            let base = rng.permutation(inst.n);
            let k = random_string(&full, &mut rng);
            let st = full.state(&base, &k).unwrap();
            let f = full.all_costs(&st).unwrap();
            let d = delta.all_costs(&st).unwrap();
            assert_eq!(f.len() as u64, full.rows());
            for r in 0..f.len() {
                assert_eq!(f[r], d[r], "{name} row {r}");
                // and both equal the host cost of the row's permutation
                if r % 7 == 0 {
                    let perm = full.row_permutation(&st, r as u64);
                    assert_eq!(Cost::I64(inst.cost(&perm)), f[r], "{name} row {r} host");
                }
            }
        }
    }
}

#[test]
fn delta_equals_full_for_float_and_unsigned_types_and_slices() {
    let inst = instance("nug12");
    for ty in [
        ElemType::I32,
        ElemType::U32,
        ElemType::U64,
        ElemType::F32,
        ElemType::F64,
    ] {
        let p = Arc::new(QapProblem::from_instance_as(&inst, ty).unwrap());
        let mut full = QapHc12::new(p.clone(), 3, 2, 0, 0, dev(), CostForm::Full).unwrap();
        let mut delta = QapHc12::new(p.clone(), 3, 2, 0, 0, dev(), CostForm::Delta).unwrap();
        let mut rng = Philox::new(9, 2);
        let base = rng.permutation(inst.n);
        let k = random_string(&full, &mut rng);
        let st = full.state(&base, &k).unwrap();
        let (f, d) = (full.all_costs(&st).unwrap(), delta.all_costs(&st).unwrap());
        for r in 0..f.len() {
            let exact = Cost::I64(inst.cost(&full.row_permutation(&st, r as u64))).as_f64();
            // nug12 costs are small integers: every type holds them exactly
            assert_eq!(f[r].as_f64(), exact, "{ty:?} full row {r}");
            assert_eq!(d[r].as_f64(), exact, "{ty:?} delta row {r}");
        }
    }
    // two slices: the stochastic variant sums the slices
    let (a, b) = (inst.a.clone(), inst.b.clone());
    let two = QapMatrices::I64(
        [a.clone(), b.clone()].concat(),
        [b.clone(), a.clone()].concat(),
    );
    let p = Arc::new(QapProblem::new("nug12x2", 12, 2, two).unwrap());
    let mut full = QapHc12::new(p.clone(), 2, 2, 0, 0, dev(), CostForm::Full).unwrap();
    let mut delta = QapHc12::new(p.clone(), 2, 2, 0, 0, dev(), CostForm::Delta).unwrap();
    let swapped = metaopt::problem::qap::QapInstance::new("swapped", 12, b, a).unwrap();
    let st = full
        .state(&(0..12).rev().collect::<Vec<_>>(), &full.zero_string())
        .unwrap();
    let (f, d) = (full.all_costs(&st).unwrap(), delta.all_costs(&st).unwrap());
    for r in 0..f.len() {
        let perm = full.row_permutation(&st, r as u64);
        let want = Cost::I64(inst.cost(&perm) + swapped.cost(&perm));
        assert_eq!((f[r], d[r]), (want, want), "slices row {r}");
    }
}

#[test]
fn device_equals_cpu_backend_bit_for_bit() {
    for (name, ty) in [
        ("had12", ElemType::I64),
        ("tai12b", ElemType::I64),
        ("chr12a", ElemType::I32),
        ("nug15", ElemType::U32),
        ("lipa20a", ElemType::U64),
    ] {
        let inst = instance(name);
        let p = Arc::new(QapProblem::from_instance_as(&inst, ty).unwrap());
        for form in [CostForm::Delta, CostForm::Full] {
            let mut d = QapHc12::new(p.clone(), 4, 2, 0, 0, dev(), form).unwrap();
            let mut c = QapHc12::new(p.clone(), 4, 2, 0, 0, Backend::Cpu, form).unwrap();
            let mut rng = Philox::new(11, 0);
            for _ in 0..3 {
                let base = rng.permutation(inst.n);
                let k = random_string(&d, &mut rng);
                let st = d.state(&base, &k).unwrap();
                assert_eq!(
                    d.all_costs(&st).unwrap(),
                    c.all_costs(&st).unwrap(),
                    "{name} all rows"
                );
                let rd = d.run(Some(&base), Some(&k)).unwrap();
                let rc = c.run(Some(&base), Some(&k)).unwrap();
                assert_eq!(
                    (rd.cost, &rd.order, &rd.k_gc, rd.iterations),
                    (rc.cost, &rc.order, &rc.k_gc, rc.iterations),
                    "{name} {ty:?} {form:?}"
                );
                assert!(rd.local_optimum);
            }
        }
    }
}

#[test]
fn run_moves_to_the_best_row_each_iteration_and_ends_at_a_local_optimum() {
    let inst = instance("nug12");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = solver(&p, 3, dev(), CostForm::Delta);
    let base: Vec<usize> = (0..12).collect();
    // replay the run by hand from the full cost table of each iteration
    let mut k = s.zero_string();
    let mut iterations = 0;
    loop {
        let st = s.state(&base, &k).unwrap();
        let all = s.all_costs(&st).unwrap();
        let best = (0..all.len()).fold(0, |b, r| if all[r].less(&all[b]) { r } else { b });
        iterations += 1;
        if best == 0 {
            break;
        }
        s.neighbourhood().clone().apply_row(&mut k, best as u64);
    }
    let out = s.run(Some(&base), None).unwrap();
    assert_eq!(out.k_gc, k);
    assert_eq!(out.iterations, iterations);
    assert_eq!(out.cost, Cost::I64(inst.cost(&out.order)));
    assert_eq!(out.evaluations, iterations as u64 * s.rows());
}
