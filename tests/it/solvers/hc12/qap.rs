//! The iterated qapswap2 solver reaches known optima on small QAPLIB instances.

use crate::common::*;
use metaopt::hc12::qap::solve::*;
use metaopt::hc12::qap::*;
use metaopt::problem::qap::{Cost, QapProblem};
use metaopt::run::Stop;
use std::sync::Arc;
use std::time::Duration;

fn reach(name: &str, optimum: i64, swaps: u32, backend: Backend) -> QapSolveResult {
    let inst = instance(name);
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = QapHc12::new(p, swaps, 2, 0, 0, backend, CostForm::Delta).unwrap();
    let opts = QapSolveOptions {
        // "within seconds": 60 s is only the bound that turns a regression into a failure, not a hang
        stop: Stop {
            time_limit: Some(Duration::from_secs(60)),
            target: Some(optimum as f64),
            token: None,
            ..Stop::default()
        },
        seed: 2024,
        ..Default::default()
    };
    let r = solve(&mut s, &opts, Some(&inst), |_| {}).unwrap();
    eprintln!(
        "{name}: {} after {} runs, {:.2} s ({backend:?})",
        r.cost, r.runs, r.seconds
    );
    assert!(
        r.target_reached,
        "{name}: best {} after {} runs",
        r.cost, r.runs
    );
    assert_eq!(r.cost, Cost::I64(optimum));
    assert_eq!(inst.cost(&r.permutation), optimum);
    r
}

#[test]
fn reaches_known_optima_on_the_device() {
    for (name, opt) in [
        ("had12", 1652),
        ("chr12a", 9552),
        ("esc16a", 68),
        ("nug12", 578),
        ("tai12b", 39464925),
    ] {
        reach(name, opt, 16, Backend::Device(None));
    }
}

#[test]
fn reaches_known_optima_on_the_cpu_backend() {
    for (name, opt) in [("had12", 1652), ("nug12", 578)] {
        reach(name, opt, 16, Backend::Cpu);
    }
}

#[test]
fn same_seed_same_result_on_device_and_cpu() {
    let inst = instance("chr15a");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let opts = QapSolveOptions {
        stop: Stop {
            budget: Some(6),
            ..QapSolveOptions::default().stop
        },
        seed: 77,
        ..Default::default()
    };
    let mut d = QapHc12::new(
        p.clone(),
        8,
        2,
        0,
        0,
        Backend::Device(None),
        CostForm::Delta,
    )
    .unwrap();
    let mut c = QapHc12::new(p, 8, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    let rd = solve(&mut d, &opts, Some(&inst), |_| {}).unwrap();
    let rc = solve(&mut c, &opts, Some(&inst), |_| {}).unwrap();
    assert_eq!(
        (rd.cost, &rd.permutation, rd.runs, rd.iterations),
        (rc.cost, &rc.permutation, rc.runs, rc.iterations)
    );
}

#[test]
fn starts_and_limits() {
    let inst = instance("nug12");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = QapHc12::new(p, 4, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    // identity start with one run: the first run is the plain climb from the identity
    let one = QapSolveOptions {
        stop: Stop {
            budget: Some(1),
            ..Stop::default()
        },
        start: Start::Identity,
        ..Default::default()
    };
    let r = solve(&mut s, &one, Some(&inst), |_| {}).unwrap();
    let direct = s.run(None, None).unwrap();
    assert_eq!((r.cost, r.runs), (direct.cost, 1));
    // a given start permutation is checked
    let bad = QapSolveOptions {
        start: Start::Given(vec![0; 12]),
        ..Default::default()
    };
    assert!(solve(&mut s, &bad, Some(&inst), |_| {})
        .unwrap_err()
        .to_string()
        .contains("start permutation"));
    // GLB start: the first run starts at the GLB assignment, so it is no worse than it
    let (_, glb) = metaopt::problem::qap::gilmore_lawler(&inst);
    let g = QapSolveOptions {
        stop: Stop {
            budget: Some(1),
            ..Stop::default()
        },
        start: Start::Glb,
        ..Default::default()
    };
    let r = solve(&mut s, &g, Some(&inst), |_| {}).unwrap();
    assert!(r.cost.as_f64() <= inst.cost(&glb) as f64);
    // a time limit ends an unlimited run count
    let t = QapSolveOptions {
        stop: Stop {
            time_limit: Some(Duration::from_millis(300)),
            target: None,
            token: None,
            ..Stop::default()
        },
        ..Default::default()
    };
    let r = solve(&mut s, &t, Some(&inst), |_| {}).unwrap();
    assert!(r.seconds < 5.0 && r.runs >= 1);
    // unlimited runs with nothing to end them is refused
    let never = QapSolveOptions {
        stop: Stop { ..Stop::default() },
        ..Default::default()
    };
    assert!(solve(&mut s, &never, Some(&inst), |_| {}).is_err());
}

/// The thesis's `nBitParam` (C++ `Params`, MEX `params`) may exceed ceil(log2 n): a
/// parameter then decodes to I below 2^nBitParam and names position I mod n, as the thesis's
/// kernel (`I % nElements`) and docs/specs/QAP.md. The string is longer (more rows), every row's
/// permutation follows that rule, the device equals the CPU, and fewer bits are refused naming
/// `nBitParam`.
#[test]
fn more_bits_per_parameter_than_ceil_log2_n() {
    let inst = instance("had12");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let n = p.n;
    assert_eq!(bits_for(n), 4);
    let with =
        |bits, backend| QapHc12::with_bits(p.clone(), 3, bits, 2, 0, 0, backend, CostForm::Delta);
    for bad in [1u32, 3, 33] {
        let e = with(bad, Backend::Cpu).err().expect("refused").to_string();
        assert!(e.contains("`nBitParam`"), "{e}");
    }
    let s4 = with(0, Backend::Cpu).unwrap();
    assert_eq!(
        (s4.neighbourhood().nbit, s4.rows()),
        (4, 1 + 24 + 24 * 23 / 2)
    );
    let mut c = with(6, Backend::Cpu).unwrap();
    assert_eq!(
        (c.neighbourhood().nbit, c.rows()),
        (6, 1 + 36 + 36 * 35 / 2)
    );
    // a string with values above n: the permutation swaps positions I mod n
    let k: Vec<u32> = [50u32, 13, 63, 7, 0, 31]
        .iter()
        .map(|&i| i ^ (i >> 1))
        .collect(); // Gray codes
    let st = c.state(&(0..n).collect::<Vec<_>>(), &k).unwrap();
    let mut want: Vec<usize> = (0..n).collect();
    for pair in [50usize, 13, 63, 7, 0, 31].chunks(2) {
        want.swap(pair[0] % n, pair[1] % n);
    }
    assert_eq!(st.cur.iter().map(|&v| v as usize).collect::<Vec<_>>(), want);
    assert!(
        c.state(&(0..n).collect::<Vec<_>>(), &[64, 0, 0, 0, 0, 0])
            .is_err(),
        "a word above 6 bits"
    );
    let opts = QapSolveOptions {
        stop: Stop {
            budget: Some(4),
            ..QapSolveOptions::default().stop
        },
        seed: 5,
        ..Default::default()
    };
    let mut d = with(6, Backend::Device(None)).unwrap();
    let rc = solve(&mut c, &opts, Some(&inst), |_| {}).unwrap();
    let rd = solve(&mut d, &opts, Some(&inst), |_| {}).unwrap();
    assert_eq!(
        (rd.cost, &rd.permutation, rd.iterations),
        (rc.cost, &rc.permutation, rc.iterations)
    );
    assert_eq!(
        rc.cost,
        p.cost_order(&rc.permutation.iter().map(|&v| v as u8).collect::<Vec<_>>())
    );
}
