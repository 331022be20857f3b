//! ACO for the single-pair shortest path (src/aco/, cl/aco.cl; docs/specs/ACO.md): valid simple
//! paths whose lengths are recomputed and never below Dijkstra's, the device against the CPU
//! backend bit for bit on integer weights, a regression test per bug of the thesis's pseudocode,
//! the edge cases and the named errors, and the exact-path share on the thesis's random graphs.

use crate::common;
use crate::common::arg_error;
use metaopt::aco::{path_length, Aco, AcoOptions, AcoRunResult, Deposit, Selection};
use metaopt::device::Backend;
use metaopt::problem::graph::{dijkstra, grid, thesis_random, Graph};
use metaopt::run::{Stop, StopReason};

fn opts(iterations: u32, ants: usize, seed: u64) -> AcoOptions {
    AcoOptions {
        stop: Stop::budget(u64::from(iterations)),
        ants,
        seed,
        ..Default::default()
    }
}

/// A path of the graph from s to t, simple, with its recomputed length and gap, at least the exact.
fn assert_valid(g: &Graph, r: &AcoRunResult) {
    let exact = dijkstra(g, r.source)
        .unwrap()
        .dist
        .get_f64(r.target as usize);
    assert_eq!(r.exact_length, Some(exact));
    for p in [&r.best, &r.pheromone].into_iter().flatten() {
        let v = &p.vertices;
        assert_eq!(v[0], r.source);
        assert_eq!(*v.last().unwrap(), r.target);
        let mut seen = std::collections::HashSet::new();
        assert!(
            v.iter().all(|x| seen.insert(*x)),
            "repeated vertex in {v:?}"
        );
        let (len, li) = path_length(g, v).expect("every consecutive pair is an arc");
        assert_eq!(p.length, len);
        assert_eq!(p.length_int, li);
        assert!(p.length >= exact, "{} below the exact {exact}", p.length);
        let gap = if exact == 0.0 {
            0.0
        } else {
            (len - exact) / exact
        };
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

/// `run_observed` reports before every iteration and at the end: the iterations done and the
/// shortest length so far (infinite before the first path), the last the result's; false from
/// it ends the run with its best path so far.
#[test]
fn run_observed_reports_iterations_and_the_shortest_length() {
    let g = thesis_random(6, 16, 3).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut aco = Aco::new(&g, opts(12, 16, 1), backend).unwrap();
        let mut seen = Vec::new();
        let start = std::time::Instant::now();
        let r = aco
            .run_observed(0, 63, start, |p| {
                seen.push((p.work, p.best));
                true
            })
            .unwrap();
        let work: Vec<u64> = seen.iter().map(|s| s.0).collect();
        assert_eq!(work, (0..=12).collect::<Vec<u64>>(), "{backend:?}");
        assert!(seen[0].1.is_infinite());
        assert!(seen.windows(2).all(|w| w[1].1 <= w[0].1), "{seen:?}");
        assert_eq!(Some(seen.last().unwrap().1), r.best_length());
        let r = aco.run_observed(0, 63, start, |p| p.work < 3).unwrap();
        assert_eq!((r.iterations, r.stop), (3, metaopt::StopReason::Budget));
        assert_valid(&g, &r);
    }
}

/// A target length stops the run at the first iteration whose best path is at most that long,
/// `stopped_by` target, on both backends; an unreachable one lets the run go to its budget.
#[test]
fn a_target_length_stops_the_run() {
    let g = thesis_random(6, 16, 3).unwrap();
    let exact = dijkstra(&g, 0).unwrap().dist.get_f64(63);
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let with_target = |target: f64| AcoOptions {
            stop: Stop {
                target: Some(target),
                ..Stop::budget(2_000)
            },
            ..opts(0, 16, 1)
        };
        let r = Aco::new(&g, with_target(exact), backend)
            .unwrap()
            .run(0, 63)
            .unwrap();
        assert_valid(&g, &r);
        assert_eq!(r.stop, StopReason::Target, "{backend:?}");
        assert!(r.exact(), "{backend:?}");
        // it stops right after the iteration that found the path
        assert_eq!(r.found_at_iteration, Some(r.iterations), "{backend:?}");
        assert!(r.iterations < 2_000);
        // a target above the exact length stops no later than one at it
        let loose = Aco::new(&g, with_target(exact * 1.5), backend)
            .unwrap()
            .run(0, 63)
            .unwrap();
        assert_eq!(loose.stop, StopReason::Target);
        assert!(loose.best_length().unwrap() <= exact * 1.5);
        assert!(loose.iterations <= r.iterations);
        // below the exact length: never reached, the budget ends the run
        let o = AcoOptions {
            stop: Stop {
                target: Some(exact - 1.0),
                ..Stop::budget(5)
            },
            ..opts(0, 16, 1)
        };
        let r = Aco::new(&g, o, backend).unwrap().run(0, 63).unwrap();
        assert_eq!(
            (r.stop, r.iterations),
            (StopReason::Budget, 5),
            "{backend:?}"
        );
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
    let graphs = [
        thesis_random(7, 16, 11).unwrap(),
        grid(10, 10, 20, 0.0, 3).unwrap().graph,
    ];
    for (i, g) in graphs.iter().enumerate() {
        for (deposit, max_min, local_search) in [
            (Deposit::IterationBest, Some(0.01), true),
            (Deposit::All, None, true),
            (Deposit::IterationBest, Some(0.01), false),
        ] {
            let o = AcoOptions {
                deposit,
                max_min,
                local_search,
                restart: Some(3),
                alpha: 1.0 + i as f64,
                ..opts(15, 24, 77)
            };
            let mut d = Aco::new(g, o.clone(), Backend::DEVICE).unwrap();
            let mut c = Aco::new(g, o, Backend::Cpu).unwrap();
            let t = g.n() as u32 - 1;
            let (rd, rc) = (d.run(0, t).unwrap(), c.run(0, t).unwrap());
            assert_same(&rd, &rc);
            assert_eq!(
                d.pheromone().unwrap(),
                c.pheromone().unwrap(),
                "pheromone differs"
            );
            assert_valid(g, &rd);
        }
    }
}

#[test]
fn real_weights_on_the_device_equal_the_cpu() {
    // f64 and f32 weights: lengths summed in f64 in path order on both sides
    let base = thesis_random(6, 10, 8).unwrap();
    let mut edges = Vec::new();
    for u in 0..base.n() {
        for e in base.arcs_of(u) {
            edges.push((
                u as u32,
                base.targets()[e],
                base.weights().get_f64(e) * 0.37 + 0.1,
            ));
        }
    }
    let f64g = Graph::from_edges(base.n(), &edges).unwrap();
    let e32: Vec<(u32, u32, f32)> = edges.iter().map(|&(u, v, w)| (u, v, w as f32)).collect();
    let f32g = Graph::from_edges(base.n(), &e32).unwrap();
    for g in [f64g, f32g] {
        let (rd, rc) = (
            Aco::new(&g, opts(10, 16, 4), Backend::DEVICE)
                .unwrap()
                .run(3, 50)
                .unwrap(),
            Aco::new(&g, opts(10, 16, 4), Backend::Cpu)
                .unwrap()
                .run(3, 50)
                .unwrap(),
        );
        assert_same(&rd, &rc);
        assert_valid(&g, &rd);
    }
}

#[test]
fn gumbel_gives_valid_paths_on_both_backends() {
    let g = thesis_random(6, 16, 5).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let o = AcoOptions {
            selection: Selection::Gumbel,
            ..opts(20, 16, 3)
        };
        let r = Aco::new(&g, o, backend).unwrap().run(1, 60).unwrap();
        assert!(r.best.is_some());
        assert_valid(&g, &r);
    }
}

/// The exact-path share on the thesis's random graphs: `runs` graphs `thesis_random(i, j, seed)`
/// for seeds 0..runs (ACO_FIRST..ACO_FIRST + runs when set; `j = 0`: the thesis's set, j = 1..16 in turn, `seed % 16 + 1`), a random
/// pair each, ACO seed = graph seed, with `o` on `backend`. Returns (exact runs, runs, seconds,
/// mean gap).
fn share(i: u32, j: u32, runs: u64, o: &AcoOptions, backend: Backend) -> (usize, usize, f64, f64) {
    let t0 = std::time::Instant::now();
    let (mut hits, mut gaps) = (0, 0.0);
    let first: u64 = std::env::var("ACO_FIRST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    // ACO_SEEDS=5,14,...: only these seeds (e.g. the failures of a previous measurement)
    let seeds: Vec<u64> = match std::env::var("ACO_SEEDS") {
        Ok(v) => v.split(',').filter_map(|x| x.trim().parse().ok()).collect(),
        Err(_) => (first..first + runs).collect(),
    };
    let runs = seeds.len() as u64;
    for seed in seeds {
        let jj = if j == 0 { (seed % 16) as u32 + 1 } else { j };
        let g = thesis_random(i, jj, seed).unwrap();
        let n = g.n() as u64;
        let mut r = metaopt::rng::Philox::new(seed, 99);
        let s = r.below(n as u32);
        let t = (s + 1 + r.below(n as u32 - 1)) % n as u32;
        let res = Aco::new(&g, AcoOptions { seed, ..o.clone() }, backend)
            .unwrap()
            .run(s, t)
            .unwrap();
        assert_valid(&g, &res);
        hits += res.exact() as usize;
        gaps += res.gap().unwrap_or(f64::INFINITY);
        if std::env::var_os("ACO_DIAG").is_some() && !res.exact() {
            let sp = dijkstra(&g, s).unwrap();
            let mut h = 0;
            let mut v = t;
            while sp.pred[v as usize] != u32::MAX {
                v = sp.pred[v as usize];
                h += 1;
            }
            let b = res.best.as_ref().unwrap();
            println!("seed {seed} (j = {jj}): exact {:?} ({h} hops), best {} ({} hops) at it {:?}, gap {:.3}, ok ants {}", res.exact_length, b.length, b.vertices.len() - 1, res.found_at_iteration, b.gap, res.successful_ants);
        }
    }
    (
        hits,
        runs as usize,
        t0.elapsed().as_secs_f64(),
        gaps / runs as f64,
    )
}

/// Tuning aid and the share measurement (not run by default): `ACO_V=10 ACO_J=16 ACO_RUNS=64
/// ACO_DEV=1 cargo test --release --test it solvers::aco::tune -- --ignored --nocapture` (V = 2^ACO_V;
/// ACO_J = 0: j = 1..16 in turn, the thesis's set; ACO_DEV=1: the first device, else the CPU
/// backend; options: ACO_ANTS, ACO_ALPHA, ACO_BETA, ACO_C, ACO_RHO, ACO_IT, ACO_MM, ACO_STEPS,
/// ACO_ALL (0: `Deposit::IterationBest`), ACO_LS (0: no local search), ACO_RESTART; ACO_FIRST: the first seed;
/// ACO_SEEDS: a comma-separated list of seeds instead; unset: the defaults).
#[test]
#[ignore]
fn tune() {
    let env = |k: &str, d: f64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let d = AcoOptions::default();
    let o = AcoOptions {
        ants: env("ACO_ANTS", d.ants as f64) as usize,
        alpha: env("ACO_ALPHA", d.alpha),
        beta: env("ACO_BETA", d.beta),
        damping: env("ACO_C", d.damping),
        evaporation: env("ACO_RHO", d.evaporation),
        stop: Stop::budget(env("ACO_IT", d.stop.budget.unwrap() as f64) as u64),
        max_min: Some(env("ACO_MM", d.max_min.unwrap_or(0.0))).filter(|&x| x > 0.0),
        max_steps: Some(env("ACO_STEPS", 0.0) as u32).filter(|&x| x > 0),
        deposit: if env("ACO_ALL", (d.deposit == Deposit::All) as u8 as f64) > 0.0 {
            Deposit::All
        } else {
            Deposit::IterationBest
        },
        local_search: env("ACO_LS", 1.0) > 0.0,
        restart: Some(env("ACO_RESTART", 0.0) as u32).filter(|&x| x > 0),
        ..d
    };
    let backend = if env("ACO_DEV", 0.0) > 0.0 {
        Backend::DEVICE
    } else {
        Backend::Cpu
    };
    let (v, j) = (env("ACO_V", 8.0) as u32, env("ACO_J", 16.0) as u32);
    let (h, r, s, gap) = share(v, j, env("ACO_RUNS", 20.0) as u64, &o, backend);
    let dev = Aco::new(&thesis_random(2, 1, 0).unwrap(), o.clone(), backend)
        .unwrap()
        .describe();
    println!("V = {}, j = {}: exact {h}/{r} ({:.1} %), mean gap {gap:.4}, {s:.1} s ({:.2} s per run) on {dev}: {o:?}", 1u32 << v, if j == 0 { "1..16".to_string() } else { j.to_string() }, 100.0 * h as f64 / r as f64, s / r as f64);
}

#[test]
fn bug1_ants_take_only_unvisited_neighbours_and_never_non_arcs() {
    // 0 <-> 1 -> 2: at 1 the only unvisited neighbour is 2 (the thesis's `used` factor kept only
    // visited ones); the dense matrix's zeros are non-arcs, never divided by
    let g = Graph::from_dense(3, &[0u32, 5, 0, 5, 0, 7, 0, 0, 0]).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let r = Aco::new(&g, opts(5, 8, 1), backend)
            .unwrap()
            .run(0, 2)
            .unwrap();
        assert_eq!(r.successful_ants, 40, "every ant reaches 2");
        assert_eq!(r.best_path(), Some(&[0u32, 1, 2][..]));
    }
    // a zero-weight arc with damping 0 would divide by zero: refused, and fine with damping > 0
    let z = Graph::from_edges(3, &[(0u32, 1u32, 0u32), (1, 2, 3)]).unwrap();
    arg_error(Aco::new(&z, opts(5, 8, 1), Backend::Cpu), "damping");
    let r = Aco::new(
        &z,
        AcoOptions {
            damping: 1.0,
            ..opts(5, 8, 1)
        },
        Backend::Cpu,
    )
    .unwrap()
    .run(0, 2)
    .unwrap();
    assert_eq!(r.best.unwrap().length, 3.0);
}

#[test]
fn bug2_roulette_bounds_on_the_exclusive_scan() {
    use metaopt::aco::cpu::roulette_pick;
    // r = 0 takes the first non-zero weight (the thesis's x[d-1] < r <= x[d] took nothing)
    assert_eq!(roulette_pick([0, 3, 2], 0), Some(1));
    // r = x[d] takes d, not d - 1
    assert_eq!(roulette_pick([3, 2], 3), Some(1));
    assert_eq!(roulette_pick([3, 2], 2), Some(0));
    // zero weights are never taken; r at the total takes nothing
    assert_eq!(roulette_pick([1, 0, 1], 1), Some(2));
    assert_eq!(roulette_pick([1, 0, 1], 2), None);
    // a chain: the single eligible neighbour is always taken, every ant succeeds on both backends
    let g = Graph::from_edges(5, &[(0u32, 1u32, 1u32), (1, 2, 1), (2, 3, 1), (3, 4, 1)]).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let r = Aco::new(&g, opts(3, 5, 9), backend)
            .unwrap()
            .run(0, 4)
            .unwrap();
        assert_eq!(r.successful_ants, 15);
    }
}

/// 0 -> 1 (dead end), 0 -> 2 -> 3 (target), 2 -> 0 (an arc into the start).
fn dead_end_graph() -> Graph {
    Graph::from_edges(4, &[(0u32, 1u32, 1u32), (0, 2, 1), (2, 3, 1), (2, 0, 1)]).unwrap()
}

#[test]
fn bug3_and_5_dead_ends_fail_and_failed_ants_deposit_nothing() {
    let g = dead_end_graph();
    let (it, rho) = (10u32, 0.25);
    let o = AcoOptions {
        initial_pheromone: Some(1.0),
        max_min: None,
        deposit: Deposit::All,
        evaporation: rho,
        ..opts(it, 16, 4)
    };
    let mut taus = Vec::new();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut aco = Aco::new(&g, o.clone(), backend).unwrap();
        let r = aco.run(0, 3).unwrap();
        assert!(
            r.successful_ants > 0 && r.successful_ants < 160,
            "some ants die in the dead end"
        );
        assert_eq!(r.best_path(), Some(&[0u32, 2, 3][..]));
        let tau = aco.pheromone().unwrap();
        // only evaporation on the dead-end arc 0 -> 1 (arc 0): (1 - rho)^it
        let mut want = 1.0f64;
        for _ in 0..it {
            want *= 1.0 - rho;
        }
        assert_eq!(tau[g.find_arc(0, 1).unwrap()], want);
        taus.push(tau);
    }
    assert_eq!(taus[0], taus[1]);
}

#[test]
fn bug4_successors_are_reset_so_nothing_lands_on_arcs_into_the_start() {
    // the thesis filled the successors with `start` once: lengths added Adj[v, start] and
    // deposits landed on v -> start. Here 2 -> 0 is never walked, so it only evaporates.
    let g = dead_end_graph();
    let o = AcoOptions {
        initial_pheromone: Some(2.0),
        max_min: None,
        deposit: Deposit::All,
        evaporation: 0.5,
        ..opts(6, 8, 5)
    };
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut aco = Aco::new(&g, o.clone(), backend).unwrap();
        let r = aco.run(0, 3).unwrap();
        assert_eq!(r.best.as_ref().unwrap().length, 2.0);
        let tau = aco.pheromone().unwrap();
        assert_eq!(tau[g.find_arc(2, 0).unwrap()], 2.0 * 0.5f64.powi(6));
    }
}

#[test]
fn bug6_the_pheromone_walk_advances_stops_at_the_target_and_at_cycles() {
    use metaopt::aco::strongest_path;
    let g = Graph::from_edges(4, &[(0u32, 1u32, 1u32), (0, 2, 1), (1, 0, 1), (2, 3, 1)]).unwrap();
    // arcs in CSR order: 0->1, 0->2, 1->0, 2->3
    assert_eq!(
        strongest_path(&g, &[1.0, 2.0, 5.0, 1.0], 0, 3),
        Some(vec![0, 2, 3])
    );
    // the strongest arc leads to 1, whose only way on is back to 0: a dead end, not a loop
    assert_eq!(strongest_path(&g, &[2.0, 1.0, 5.0, 1.0], 0, 3), None);
}

#[test]
fn source_equals_target_and_unreachable_target() {
    let g = dead_end_graph();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut aco = Aco::new(&g, opts(5, 4, 1), backend).unwrap();
        let r = aco.run(2, 2).unwrap();
        assert_eq!(r.best_path(), Some(&[2u32][..]));
        assert_eq!(
            (r.best_length(), r.gap(), r.exact_length, r.iterations),
            (Some(0.0), Some(0.0), Some(0.0), 0)
        );
        assert_eq!(r.pheromone.as_ref().unwrap().vertices, vec![2]);
        // 3 has no out-arcs: 0 is unreachable from it
        let r = aco.run(3, 0).unwrap();
        assert_eq!(
            (
                r.exact_length,
                r.best.is_none(),
                r.pheromone.is_none(),
                r.iterations
            ),
            (None, true, true, 0)
        );
    }
}

#[test]
fn bad_options_give_named_errors() {
    let g = dead_end_graph();
    let bad = |o: AcoOptions, name: &str| {
        arg_error(Aco::new(&g, o, Backend::Cpu), name);
    };
    bad(
        AcoOptions {
            alpha: f64::NAN,
            ..Default::default()
        },
        "alpha",
    );
    bad(
        AcoOptions {
            beta: -1.0,
            ..Default::default()
        },
        "beta",
    );
    bad(
        AcoOptions {
            evaporation: 0.0,
            ..Default::default()
        },
        "evaporation",
    );
    bad(
        AcoOptions {
            evaporation: 1.5,
            ..Default::default()
        },
        "evaporation",
    );
    bad(
        AcoOptions {
            evaporation: f64::NAN,
            ..Default::default()
        },
        "evaporation",
    );
    bad(
        AcoOptions {
            ants: 0,
            ..Default::default()
        },
        "ants",
    );
    bad(
        AcoOptions {
            initial_pheromone: Some(0.0),
            ..Default::default()
        },
        "initial_pheromone",
    );
    bad(
        AcoOptions {
            max_min: Some(2.0),
            ..Default::default()
        },
        "max_min",
    );
    bad(
        AcoOptions {
            stop: Stop::budget(0),
            ..Default::default()
        },
        "iterations",
    );
    bad(
        AcoOptions {
            stop: Stop::budget(u64::from(u32::MAX) + 1),
            ..Default::default()
        },
        "iterations",
    );
    // a run nothing ends (a target alone may never be reached)
    bad(
        AcoOptions {
            stop: Stop {
                target: Some(1.0),
                ..Stop::default()
            },
            ..Default::default()
        },
        "iterations",
    );
    for (stop, name) in [
        (
            Stop {
                target: Some(f64::NAN),
                ..Stop::budget(5)
            },
            "target",
        ),
        (
            Stop {
                target: Some(f64::INFINITY),
                ..Stop::budget(5)
            },
            "target",
        ),
        (
            Stop {
                evaluations: Some(10),
                ..Stop::budget(5)
            },
            "evaluations",
        ),
        (
            Stop {
                record_every: 1,
                ..Stop::budget(5)
            },
            "record_every",
        ),
        (
            Stop {
                time_limit: Some(std::time::Duration::from_secs_f64(1e12)),
                ..Stop::budget(5)
            },
            "time_limit",
        ),
    ] {
        bad(
            AcoOptions {
                stop,
                ..Default::default()
            },
            name,
        );
    }
    // the thesis's rule needs initial_pheromone > 1 and evaporation < 1; an option out of its
    // range is named
    arg_error(AcoOptions::default().thesis_iterations(), "iterations");
    arg_error(
        AcoOptions {
            initial_pheromone: Some(100.0),
            evaporation: 1.0,
            ..Default::default()
        }
        .thesis_iterations(),
        "iterations",
    );
    arg_error(
        AcoOptions {
            initial_pheromone: Some(100.0),
            evaporation: 1.5,
            ..Default::default()
        }
        .thesis_iterations(),
        "evaporation",
    );
    arg_error(
        AcoOptions {
            initial_pheromone: Some(f64::INFINITY),
            ..Default::default()
        }
        .thesis_iterations(),
        "initial_pheromone",
    );
    bad(
        AcoOptions {
            restart: Some(0),
            ..Default::default()
        },
        "restart",
    );
    // evaporation = 1 is allowed (everything evaporates); the thesis's rule with def > 1
    let o = AcoOptions {
        initial_pheromone: Some(100.0),
        evaporation: 0.5,
        ..Default::default()
    };
    assert_eq!(o.thesis_iterations().unwrap(), 7);
    Aco::new(
        &g,
        AcoOptions {
            evaporation: 1.0,
            ..Default::default()
        },
        Backend::Cpu,
    )
    .unwrap();
    let mut aco = Aco::new(&g, Default::default(), Backend::Cpu).unwrap();
    arg_error(aco.run(4, 0), "source");
    arg_error(aco.run(0, 9), "target");
}

/// Regression: the thesis's random graphs at V = 256, j = 16, 20 seeds, the default options
/// (local search on, `Deposit::All`): 19/20 exact when measured (docs/specs/ACO.md; 20/20 with
/// `IterationBest`, 12/20 without the local search); at least 17 asked. About 6 s here.
#[test]
fn thesis_graphs_v256_exact_share_with_local_search() {
    let (hits, runs, secs, gap) = share(8, 16, 20, &AcoOptions::default(), Backend::Cpu);
    println!("V = 256: exact in {hits}/{runs} runs, mean gap {gap:.4}, {secs:.1} s");
    assert!(hits >= 17, "exact in {hits}/{runs}");
}

/// Regression of the two- and three-vertex detours (docs/specs/ACO.md): at V = 1024, j = 16, the
/// default options, the one-vertex local search missed seeds 21 and 28 (gaps 14 % and 75 %), the
/// two-vertex search without the three-vertex level seed 57 (26 %); all three are exact now. A
/// value check (about 15 s here).
#[test]
fn thesis_graphs_v1024_seeds_the_one_vertex_search_missed() {
    for seed in [21u64, 28, 57] {
        let g = thesis_random(10, 16, seed).unwrap();
        let n = g.n() as u32;
        let mut r = metaopt::rng::Philox::new(seed, 99);
        let s = r.below(n);
        let t = (s + 1 + r.below(n - 1)) % n;
        let res = Aco::new(
            &g,
            AcoOptions {
                seed,
                ..Default::default()
            },
            Backend::Cpu,
        )
        .unwrap()
        .run(s, t)
        .unwrap();
        assert!(res.exact(), "seed {seed}: gap {:?}", res.gap());
    }
}

/// A random simple walk from `s` (uniform among unvisited neighbours) of at most `len` arcs.
fn random_walk(g: &Graph, s: u32, len: usize, seed: u64) -> Vec<u32> {
    let mut r = metaopt::rng::Philox::new(seed, 7);
    let mut p = vec![s];
    let mut seen = vec![false; g.n()];
    seen[s as usize] = true;
    while p.len() <= len {
        let u = *p.last().unwrap() as usize;
        let free: Vec<u32> = g
            .arcs_of(u)
            .map(|e| g.targets()[e])
            .filter(|&d| !seen[d as usize])
            .collect();
        if free.is_empty() {
            break;
        }
        let d = free[r.below(free.len() as u32) as usize];
        seen[d as usize] = true;
        p.push(d);
    }
    p
}

#[test]
fn local_search_keeps_paths_simple_valid_and_never_longer() {
    use metaopt::aco::local_search;
    let mut improved = 0;
    for seed in 0..40u64 {
        let g = thesis_random(6, 1 + (seed % 16) as u32, seed).unwrap();
        let p = random_walk(&g, (seed % 64) as u32, 5 + (seed as usize * 7) % 60, seed);
        let q = local_search(&g, &p).unwrap();
        assert_eq!((q[0], q.last()), (p[0], p.last()), "same end points");
        let mut seen = std::collections::HashSet::new();
        assert!(
            q.iter().all(|x| seen.insert(*x)),
            "repeated vertex in {q:?}"
        );
        let (lp, _) = path_length(&g, &p).unwrap();
        let (lq, _) = path_length(&g, &q).expect("every hop an arc");
        assert!(lq <= lp, "{lq} above {lp}");
        improved += (lq < lp) as usize;
        // a local optimum: searching again changes nothing
        assert_eq!(local_search(&g, &q).unwrap(), q);
    }
    assert!(improved > 30, "improved {improved}/40 random walks");
    // real weights: never longer either
    let base = thesis_random(6, 10, 8).unwrap();
    let mut edges = Vec::new();
    for u in 0..base.n() {
        for e in base.arcs_of(u) {
            edges.push((
                u as u32,
                base.targets()[e],
                base.weights().get_f64(e) * 0.37 + 0.1,
            ));
        }
    }
    let g = Graph::from_edges(base.n(), &edges).unwrap();
    let p = random_walk(&g, 3, 40, 1);
    let q = local_search(&g, &p).unwrap();
    assert!(path_length(&g, &q).unwrap().0 <= path_length(&g, &p).unwrap().0);
}

#[test]
fn local_search_moves() {
    use metaopt::aco::local_search;
    // shortcut: 0 -> 1 -> 2 -> 3 (3 + 3 + 3) with 0 -> 3 of 5
    let g = Graph::from_edges(4, &[(0u32, 1u32, 3u32), (1, 2, 3), (2, 3, 3), (0, 3, 5)]).unwrap();
    assert_eq!(local_search(&g, &[0, 1, 2, 3]).unwrap(), vec![0, 3]);
    // insertion: 0 -> 1 (10) becomes 0 -> 2 -> 1 (3 + 3)
    let g = Graph::from_edges(3, &[(0u32, 1u32, 10u32), (0, 2, 3), (2, 1, 3)]).unwrap();
    assert_eq!(local_search(&g, &[0, 1]).unwrap(), vec![0, 2, 1]);
    // replacement: 0 -> 1 -> 3 (5 + 5) becomes 0 -> 2 -> 3 (2 + 2); equal lengths are kept
    let g = Graph::from_edges(4, &[(0u32, 1u32, 5u32), (1, 3, 5), (0, 2, 2), (2, 3, 2)]).unwrap();
    assert_eq!(local_search(&g, &[0, 1, 3]).unwrap(), vec![0, 2, 3]);
    let g = Graph::from_edges(4, &[(0u32, 1u32, 5u32), (1, 3, 5), (0, 2, 5), (2, 3, 5)]).unwrap();
    assert_eq!(local_search(&g, &[0, 1, 3]).unwrap(), vec![0, 1, 3]);
    // two-vertex detour (no shortcut or one-vertex move helps): 0 -> 1 -> 4 (10 + 10) becomes
    // 0 -> 2 -> 3 -> 4 (1 + 1 + 1); 2 and 3 each reach the path only through each other
    let g = Graph::from_edges(
        5,
        &[
            (0u32, 1u32, 10u32),
            (1, 4, 10),
            (0, 2, 1),
            (2, 3, 1),
            (3, 4, 1),
        ],
    )
    .unwrap();
    assert_eq!(local_search(&g, &[0, 1, 4]).unwrap(), vec![0, 2, 3, 4]);
    // two-vertex insertion on one arc: 0 -> 1 (10) becomes 0 -> 2 -> 3 -> 1 (1 + 1 + 1)
    let g = Graph::from_edges(4, &[(0u32, 1u32, 10u32), (0, 2, 1), (2, 3, 1), (3, 1, 1)]).unwrap();
    assert_eq!(local_search(&g, &[0, 1]).unwrap(), vec![0, 2, 3, 1]);
    // three-vertex detour: 0 -> 1 -> 5 (10 + 10) becomes 0 -> 2 -> 3 -> 4 -> 5 (1 + 1 + 1 + 1)
    let g = Graph::from_edges(
        6,
        &[
            (0u32, 1u32, 10u32),
            (1, 5, 10),
            (0, 2, 1),
            (2, 3, 1),
            (3, 4, 1),
            (4, 5, 1),
        ],
    )
    .unwrap();
    assert_eq!(local_search(&g, &[0, 1, 5]).unwrap(), vec![0, 2, 3, 4, 5]);
    // a heavier two-vertex detour is not taken
    let g = Graph::from_edges(
        5,
        &[
            (0u32, 1u32, 1u32),
            (1, 4, 1),
            (0, 2, 1),
            (2, 3, 1),
            (3, 4, 1),
        ],
    )
    .unwrap();
    assert_eq!(local_search(&g, &[0, 1, 4]).unwrap(), vec![0, 1, 4]);
}

/// The Helsinki road graph (6,906 vertices, f64 metres): valid paths, and the gap stated.
#[test]
fn helsinki_road_graph() {
    use metaopt::problem::graph::{OsmOptions, NO_PRED};
    let g = Graph::from_osm_pbf(
        &common::data_dir().join("graphs/helsinki.osm.pbf"),
        OsmOptions::default(),
    )
    .unwrap();
    assert_eq!(g.n(), 6906);
    let sp = dijkstra(&g, 0).unwrap();
    // a target 12 hops away on Dijkstra's tree
    let hops = |mut v: u32| {
        let mut h = 0;
        while sp.pred[v as usize] != NO_PRED {
            v = sp.pred[v as usize];
            h += 1;
        }
        h
    };
    let t = (1..g.n() as u32).find(|&v| hops(v) == 12).unwrap();
    let o = AcoOptions {
        max_steps: Some(200),
        ..opts(30, 64, 1)
    };
    let r = Aco::new(&g, o, Backend::Cpu).unwrap().run(0, t).unwrap();
    assert_valid(&g, &r);
    println!(
        "Helsinki 0 -> {t} (12 hops): exact {:?}, best {:?}, gap {:?}, {} successful ants, {:.1} s",
        r.exact_length,
        r.best_length(),
        r.gap(),
        r.successful_ants,
        r.elapsed.as_secs_f64()
    );
}
