//! ACO for the single-pair shortest path (src/aco/, cl/aco.cl; docs/specs/ACO.md): valid simple
//! paths whose lengths are recomputed and never below Dijkstra's, the device against the CPU
//! backend bit for bit on integer weights, a regression test per bug of the thesis's pseudocode,
//! the edge cases and the named errors, and the exact-path share on the thesis's random graphs.

mod common;

use common::arg_error;
use metaopt::aco::{path_length, Aco, AcoOptions, AcoRunResult, Deposit, Iterations, Selection};
use metaopt::device::Backend;
use metaopt::problem::graph::{dijkstra, grid, thesis_random, Graph};

fn opts(iterations: u32, ants: usize, seed: u64) -> AcoOptions {
    AcoOptions { iterations: Iterations::Fixed(iterations), ants, seed, ..Default::default() }
}

/// A path of the graph from s to t, simple, with its recomputed length and gap, at least the exact.
fn assert_valid(g: &Graph, r: &AcoRunResult) {
    let exact = dijkstra(g, r.source).unwrap().dist.get_f64(r.target as usize);
    assert_eq!(r.exact_length, Some(exact));
    for p in [&r.best, &r.pheromone].into_iter().flatten() {
        let v = &p.vertices;
        assert_eq!(v[0], r.source);
        assert_eq!(*v.last().unwrap(), r.target);
        let mut seen = std::collections::HashSet::new();
        assert!(v.iter().all(|x| seen.insert(*x)), "repeated vertex in {v:?}");
        let (len, li) = path_length(g, v).expect("every consecutive pair is an arc");
        assert_eq!(p.length, len);
        assert_eq!(p.length_int, li);
        assert!(p.length >= exact, "{} below the exact {exact}", p.length);
        let gap = if exact == 0.0 { 0.0 } else { (len - exact) / exact };
        assert_eq!(p.gap, gap);
    }
}

#[test]
fn paths_are_simple_valid_and_never_below_dijkstra() {
    let g = thesis_random(6, 16, 3).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut aco = Aco::new(&g, opts(20, 16, 1), backend).unwrap();
        for (s, t) in [(0, 63), (5, 17), (40, 2)] {
            let r = aco.run(s, t).unwrap();
            assert!(r.best.is_some());
            assert_valid(&g, &r);
        }
    }
    // grids (hard cases: long paths) and float weights
    let gr = grid(12, 12, 9, 0.1, 4).unwrap();
    let mut aco = Aco::new(&gr.graph, opts(30, 32, 2), Backend::Cpu).unwrap();
    let r = aco.run(0, 143).unwrap();
    if r.exact_length.is_some() {
        assert_valid(&gr.graph, &r);
    }
}

fn assert_same(a: &AcoRunResult, b: &AcoRunResult) {
    assert_eq!(a.best, b.best);
    assert_eq!(a.pheromone, b.pheromone);
    assert_eq!(a.found_at_iteration, b.found_at_iteration);
    assert_eq!(a.successful_ants, b.successful_ants);
    assert_eq!(a.iterations, b.iterations);
}

#[test]
fn device_equals_cpu_bit_for_bit_on_integer_weights() {
    let graphs = [thesis_random(7, 16, 11).unwrap(), grid(10, 10, 20, 0.0, 3).unwrap().graph];
    for (i, g) in graphs.iter().enumerate() {
        for (deposit, max_min) in [(Deposit::IterationBest, Some(0.01)), (Deposit::All, None)] {
            let o = AcoOptions { deposit, max_min, alpha: 1.0 + i as f64, ..opts(15, 24, 77) };
            let mut d = Aco::new(g, o.clone(), Backend::DEVICE).unwrap();
            let mut c = Aco::new(g, o, Backend::Cpu).unwrap();
            let t = g.n() as u32 - 1;
            let (rd, rc) = (d.run(0, t).unwrap(), c.run(0, t).unwrap());
            assert_same(&rd, &rc);
            assert_eq!(d.pheromone().unwrap(), c.pheromone().unwrap(), "pheromone differs");
            assert_valid(g, &rd);
        }
    }
}

#[test]
fn gumbel_gives_valid_paths_on_both_backends() {
    let g = thesis_random(6, 16, 5).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let o = AcoOptions { selection: Selection::Gumbel, ..opts(20, 16, 3) };
        let r = Aco::new(&g, o, backend).unwrap().run(1, 60).unwrap();
        assert!(r.best.is_some());
        assert_valid(&g, &r);
    }
}
