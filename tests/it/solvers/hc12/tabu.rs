//! The device tabu list against a host ordered set, and tabu runs of the qapswap2 solver.

use crate::common::*;
use metaopt::device::DeviceContext;
use metaopt::hc12::qap::*;
use metaopt::hc12::tabu::*;
use metaopt::problem::qap::{Cost, QapProblem};
use metaopt::rng::Philox;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// Strings whose leading words come from a tiny alphabet, so many share long prefixes and the
/// search must go column after column.
fn random_string(rng: &mut Philox, words: usize) -> Vec<u32> {
    (0..words)
        .map(|j| {
            if j + 1 < words {
                rng.below(3)
            } else {
                rng.next_u32() % 5
            }
        })
        .collect()
}

#[test]
fn device_list_agrees_with_an_ordered_set() {
    let ctx = DeviceContext::current().unwrap();
    let q = ctx.queue().unwrap();
    let (mut inserts, mut finds) = (0, 0);
    for (words, capacity, rounds) in [
        (1usize, 4usize, 2000usize),
        (3, 50, 12000),
        (64, 37, 4000),
        (5, 20000, 6000),
    ] {
        let mut dev = DeviceTabu::standalone(&ctx, &q, capacity, words).unwrap();
        let mut host = CpuTabu::new(capacity);
        let mut rng = Philox::new(words as u64, 9);
        let mut recent: Vec<Vec<u32>> = Vec::new();
        for round in 0..rounds {
            // insert: a fresh string, or one inserted recently (a duplicate, or one already evicted)
            let v = if round % 4 == 3 && !recent.is_empty() {
                recent[rng.below(recent.len() as u32) as usize].clone()
            } else {
                random_string(&mut rng, words)
            };
            let vb = q.buffer_from(&v, "v").unwrap();
            dev.insert(&q, &vb, 0).unwrap();
            host.insert(&v);
            recent.push(v);
            if recent.len() > 3 * capacity.min(1000) {
                recent.remove(0);
            }
            inserts += 1;
            if round % 100 == 99 || round + 1 == rounds {
                assert_eq!(
                    dev.len(&q).unwrap(),
                    host.len(),
                    "entries after {round} inserts"
                );
                // queries: listed strings, recent (maybe evicted) ones and random ones
                let mut queries = Vec::new();
                let listed = host.sorted_strings();
                for i in 0..500 {
                    let s = match i % 3 {
                        0 if !listed.is_empty() => {
                            listed[rng.below(listed.len() as u32) as usize].clone()
                        }
                        1 => recent[rng.below(recent.len() as u32) as usize].clone(),
                        _ => random_string(&mut rng, words),
                    };
                    queries.push(s);
                }
                let flat: Vec<u32> = queries.concat();
                let (f, p) = dev.find_many(&q, &flat).unwrap();
                for (i, s) in queries.iter().enumerate() {
                    assert_eq!(
                        (f[i], p[i]),
                        host.find(s),
                        "words {words} round {round} query {s:?}"
                    );
                }
                finds += queries.len();
            }
        }
        assert_eq!(
            dev.sorted_strings(&q).unwrap(),
            host.sorted_strings(),
            "words {words}"
        );
    }
    assert!(
        inserts + finds >= 100_000,
        "{inserts} inserts, {finds} finds"
    );
}

fn tabu_solver(name: &str, swaps: u32, backend: Backend, cfg: TabuConfig) -> (QapHc12, usize) {
    let inst = instance(name);
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut s = QapHc12::new(p, swaps, 2, 0, 0, backend, CostForm::Delta).unwrap();
    s.init_tabu_list(cfg).unwrap();
    (s, inst.n)
}

fn start(n: usize, s: &QapHc12, seed: u64) -> (Vec<usize>, Vec<u32>) {
    let mut rng = Philox::new(seed, 0);
    let nb = *s.neighbourhood();
    let k = (0..nb.n_param)
        .map(|_| rng.next_u32() & ((1 << nb.nbit) - 1))
        .collect();
    (rng.permutation(n), k)
}

/// Replays a trace with the list's policy: the list before step t holds the `from` strings of
/// steps up to t (the last `capacity` distinct ones); the string moved to must not be on it.
fn check_trace(trace: &[TraceStep], capacity: usize) -> VecDeque<Vec<u32>> {
    let mut fifo: VecDeque<Vec<u32>> = VecDeque::new();
    let mut set: BTreeSet<Vec<u32>> = BTreeSet::new();
    for (t, step) in trace.iter().enumerate() {
        if !set.contains(&step.from) {
            if fifo.len() == capacity {
                set.remove(&fifo.pop_front().unwrap());
            }
            set.insert(step.from.clone());
            fifo.push_back(step.from.clone());
        }
        assert!(
            !set.contains(&step.to),
            "step {t} selected a listed string (row {})",
            step.row
        );
        if t + 1 < trace.len() {
            assert_eq!(trace[t + 1].from, step.to);
        }
    }
    fifo
}

#[test]
fn tabu_runs_never_select_a_listed_string_and_return_the_best_ever() {
    for (backend, capacity) in [
        (Backend::Device(None), 30usize),
        (Backend::Cpu, 30),
        (Backend::Device(None), 500),
    ] {
        let mut cfg = TabuConfig::new(capacity).unwrap();
        cfg.max_iterations = 150;
        cfg.max_no_improve = 1000;
        let (mut s, n) = tabu_solver("nug12", 3, backend, cfg);
        let (base, k) = start(n, &s, 3);
        s.trace = Some(Vec::new());
        let out = s.run(Some(&base), Some(&k)).unwrap();
        let trace = s.trace.take().unwrap();
        assert_eq!(
            out.iterations as usize,
            trace.len() + out.local_optimum as usize
        );
        assert!(
            trace.len() > 60,
            "the walk goes past the first local optimum: {} steps",
            trace.len()
        );
        let fifo = check_trace(&trace, capacity);
        // the device list holds exactly what the replay says (the last string is inserted at the
        // start of the next iteration, which did not happen)
        let mut want: Vec<Vec<u32>> = fifo.into_iter().collect();
        want.sort();
        assert_eq!(s.tabu_strings().unwrap(), want, "{backend:?}");
        // the best ever, not the last
        let best = trace
            .iter()
            .map(|t| t.cost)
            .fold(out.cost, |b, c| if c.less(&b) { c } else { b });
        assert_eq!(out.cost, best);
        assert!(
            trace.iter().any(|t| out.cost.less(&t.cost)),
            "the walk also went uphill"
        );
        let at = trace.iter().position(|t| t.cost == out.cost).unwrap();
        assert_eq!(out.k_gc, trace[at].to);
        assert_eq!(out.cost, Cost::I64(instance("nug12").cost(&out.order)));
    }
}

#[test]
fn with_an_empty_list_the_first_moves_are_plain_hc12s() {
    let inst = instance("chr15a");
    let p = Arc::new(QapProblem::from_instance(&inst));
    let mut plain = QapHc12::new(
        p.clone(),
        6,
        2,
        0,
        0,
        Backend::Device(None),
        CostForm::Delta,
    )
    .unwrap();
    let (base, k) = start(inst.n, &plain, 8);
    plain.trace = Some(Vec::new());
    let po = plain.run(Some(&base), Some(&k)).unwrap();
    let pt = plain.trace.take().unwrap();
    let (mut tabu, _) = tabu_solver(
        "chr15a",
        6,
        Backend::Device(None),
        TabuConfig::new(100).unwrap(),
    );
    tabu.trace = Some(Vec::new());
    tabu.run(Some(&base), Some(&k)).unwrap();
    let tt = tabu.trace.take().unwrap();
    assert!(pt.len() >= 2 && po.local_optimum);
    let rows = |t: &[TraceStep]| t.iter().map(|s| s.row).collect::<Vec<_>>();
    assert_eq!(
        rows(&tt[..pt.len()]),
        rows(&pt),
        "the climb to the first local optimum is the same"
    );
    assert!(tt.len() > pt.len(), "and then the tabu walk goes on");
}

#[test]
fn device_and_cpu_tabu_runs_are_identical() {
    for capacity in [5usize, 60] {
        let mut cfg = TabuConfig::new(capacity).unwrap();
        cfg.max_iterations = 80;
        cfg.max_no_improve = 25;
        let (mut d, n) = tabu_solver("tai12b", 3, Backend::Device(None), cfg.clone());
        let (mut c, _) = tabu_solver("tai12b", 3, Backend::Cpu, cfg);
        for seed in 0..3 {
            let (base, k) = start(n, &d, seed);
            let (rd, rc) = (
                d.run(Some(&base), Some(&k)).unwrap(),
                c.run(Some(&base), Some(&k)).unwrap(),
            );
            assert_eq!(
                (rd.cost, &rd.order, &rd.k_gc, rd.iterations),
                (rc.cost, &rc.order, &rc.k_gc, rc.iterations)
            );
            assert_eq!(d.tabu_strings().unwrap(), c.tabu_strings().unwrap());
        }
    }
}

#[test]
fn limits_activation_and_aspiration() {
    // no improvement limit ends the run
    let mut cfg = TabuConfig::new(50).unwrap();
    cfg.max_no_improve = 7;
    cfg.max_iterations = 10_000;
    let (mut s, n) = tabu_solver("had12", 2, Backend::Cpu, cfg.clone());
    let (base, k) = start(n, &s, 1);
    s.trace = Some(Vec::new());
    let out = s.run(Some(&base), Some(&k)).unwrap();
    let trace = s.trace.take().unwrap();
    let last_best = trace
        .iter()
        .position(|t| t.cost == out.cost)
        .map_or(0, |i| i + 1);
    assert!(
        out.local_optimum || trace.len() - last_best == 7,
        "{} steps, best at {last_best}",
        trace.len()
    );
    // an activation limit below every cost turns the list off: plain HC12
    cfg.activation_limit = Some(-1.0);
    let (mut s2, _) = tabu_solver("had12", 2, Backend::Cpu, cfg.clone());
    let mut plain = QapHc12::new(
        s2.problem().clone(),
        2,
        2,
        0,
        0,
        Backend::Cpu,
        CostForm::Delta,
    )
    .unwrap();
    let (a, b) = (
        s2.run(Some(&base), Some(&k)).unwrap(),
        plain.run(Some(&base), Some(&k)).unwrap(),
    );
    assert_eq!((a.cost, a.iterations), (b.cost, b.iterations));
    // aspiration runs and still returns a consistent best
    cfg.activation_limit = None;
    cfg.aspiration = true;
    let (mut s3, _) = tabu_solver("had12", 2, Backend::Device(None), cfg.clone());
    let (mut s4, _) = tabu_solver("had12", 2, Backend::Cpu, cfg);
    let (x, y) = (
        s3.run(Some(&base), Some(&k)).unwrap(),
        s4.run(Some(&base), Some(&k)).unwrap(),
    );
    assert_eq!((x.cost, x.iterations), (y.cost, y.iterations));
    // bad settings
    assert!(TabuConfig::new(0)
        .unwrap_err()
        .to_string()
        .contains("maxLength"));
    let mut bad = TabuConfig::new(3).unwrap();
    bad.max_no_improve = 0;
    assert!(s
        .init_tabu_list(bad)
        .unwrap_err()
        .to_string()
        .contains("maxNoImprove"));
}
