//! The iterated qapswap2 solver reaches known optima on small QAPLIB instances.

mod common;
use common::*;
use metaopt::hc12::qap::solve::*;
use metaopt::hc12::restarts::Stop;
use metaopt::hc12::qap::*;
use metaopt::problem::qap::{Cost, QapProblem};
use std::sync::Arc;
use std::time::Duration;

fn reach(name: &str, optimum: i64, swaps: u32, backend: Backend) -> QapSolveResult {
    let inst = instance(name);
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = QapHc12::new(p, swaps, 2, 0, 0, backend, CostForm::Delta).unwrap();
    let opts = QapSolveOptions {
        // "within seconds": 60 s is only the bound that turns a regression into a failure, not a hang
        stop: Stop { max_runs: 0, time_limit: Some(Duration::from_secs(60)), target: Some(optimum as f64), token: None },
        seed: 2024,
        ..Default::default()
    };
    let r = solve(&mut s, &opts, Some(&inst), |_| {}).unwrap();
    eprintln!("{name}: {} after {} runs, {:.2} s ({backend:?})", r.cost, r.runs, r.seconds);
    assert!(r.target_reached, "{name}: best {} after {} runs", r.cost, r.runs);
    assert_eq!(r.cost, Cost::I64(optimum));
    assert_eq!(inst.cost(&r.permutation), optimum);
    r
}

#[test]
fn reaches_known_optima_on_the_device() {
    for (name, opt) in [("had12", 1652), ("chr12a", 9552), ("esc16a", 68), ("nug12", 578), ("tai12b", 39464925)] {
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
    let opts = QapSolveOptions { stop: Stop { max_runs: 6, ..QapSolveOptions::default().stop }, seed: 77, ..Default::default() };
    let mut d = QapHc12::new(p.clone(), 8, 2, 0, 0, Backend::Device(None), CostForm::Delta).unwrap();
    let mut c = QapHc12::new(p, 8, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    let rd = solve(&mut d, &opts, Some(&inst), |_| {}).unwrap();
    let rc = solve(&mut c, &opts, Some(&inst), |_| {}).unwrap();
    assert_eq!((rd.cost, &rd.permutation, rd.runs, rd.iterations), (rc.cost, &rc.permutation, rc.runs, rc.iterations));
}

#[test]
fn starts_and_limits() {
    let inst = instance("nug12");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = QapHc12::new(p, 4, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    // identity start with one run: the first run is the plain climb from the identity
    let one = QapSolveOptions { stop: Stop { max_runs: 1, ..Stop::default() }, start: Start::Identity, ..Default::default() };
    let r = solve(&mut s, &one, Some(&inst), |_| {}).unwrap();
    let direct = s.run(None, None).unwrap();
    assert_eq!((r.cost, r.runs), (direct.cost, 1));
    // a given start permutation is checked
    let bad = QapSolveOptions { start: Start::Given(vec![0; 12]), ..Default::default() };
    assert!(solve(&mut s, &bad, Some(&inst), |_| {}).unwrap_err().to_string().contains("start permutation"));
    // GLB start: the first run starts at the GLB assignment, so it is no worse than it
    let (_, glb) = metaopt::problem::qap::gilmore_lawler(&inst);
    let g = QapSolveOptions { stop: Stop { max_runs: 1, ..Stop::default() }, start: Start::Glb, ..Default::default() };
    let r = solve(&mut s, &g, Some(&inst), |_| {}).unwrap();
    assert!(r.cost.as_f64() <= inst.cost(&glb) as f64);
    // a time limit ends an unlimited run count
    let t = QapSolveOptions { stop: Stop { max_runs: 0, time_limit: Some(Duration::from_millis(300)), target: None, token: None }, ..Default::default() };
    let r = solve(&mut s, &t, Some(&inst), |_| {}).unwrap();
    assert!(r.seconds < 5.0 && r.runs >= 1);
    // unlimited runs with nothing to end them is refused
    let never = QapSolveOptions { stop: Stop { max_runs: 0, ..Stop::default() }, ..Default::default() };
    assert!(solve(&mut s, &never, Some(&inst), |_| {}).is_err());
}
