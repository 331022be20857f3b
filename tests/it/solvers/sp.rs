//! Exact shortest paths (src/sp/, cl/sp.cl): every device method against host Dijkstra
//! (problem::graph::dijkstra) exactly on integer weights and within a tolerance on real weights,
//! on the thesis's random graphs, grids (with the Lee wave), the Helsinki road graph, graphs
//! with unreachable vertices, V = 1; predecessors that sum to the distances; the CPU backend
//! against the device; multi-source against single-source runs; named errors.

use metaopt::device::Backend;
use metaopt::problem::graph::{
    dijkstra, grid, thesis_random, Distances, Graph, OsmOptions, OsmWeights, NO_PRED,
};
use metaopt::sp::{lee_wave, SpMethod, SpOptions, SpSsspResult, Sssp};
use metaopt::Error;
use std::path::Path;
use std::sync::OnceLock;

const METHODS: [SpMethod; 4] = [
    SpMethod::BellmanFordPull,
    SpMethod::Frontier,
    SpMethod::NearFar { delta: None },
    SpMethod::NearFar { delta: Some(3.0) },
];

/// The method itself (the local-memory path off).
fn opts(method: SpMethod, backend: Backend) -> SpOptions {
    SpOptions {
        method,
        backend,
        rounds_per_check: 4,
        local_memory: false,
        ..Default::default()
    }
}

/// The local-memory path where it fits (the default options on the device).
fn local_opts() -> SpOptions {
    SpOptions {
        backend: Backend::DEVICE,
        ..Default::default()
    }
}

fn weight(g: &Graph, u: u32, v: u32) -> f64 {
    g.weights()
        .get_f64(g.find_arc(u as usize, v).expect("a predecessor arc exists"))
}

/// Walks every predecessor chain to the source, summing arc weights: the sum equals the
/// distance (exactly for integers, within `tol` relative for reals).
fn check_preds(g: &Graph, r: &SpSsspResult, tol: f64) {
    let n = g.n();
    assert_eq!(r.pred[r.source as usize], NO_PRED);
    for v in 0..n {
        if !r.dist.reachable(v) {
            assert_eq!(r.pred[v], NO_PRED, "unreachable {v} has a predecessor");
            continue;
        }
        let (mut x, mut sum, mut hops) = (v as u32, 0.0f64, 0);
        while x != r.source {
            let p = r.pred[x as usize];
            assert_ne!(p, NO_PRED, "chain of {v} stops at {x}");
            sum += weight(g, p, x);
            x = p;
            hops += 1;
            assert!(hops <= n, "cycle in the predecessors of {v}");
        }
        let d = r.dist.get_f64(v);
        assert!(
            (sum - d).abs() <= tol * d.max(1.0),
            "vertex {v}: path {sum} vs distance {d}"
        );
    }
}

fn assert_dist_eq(a: &Distances, b: &Distances, tol: f64, what: &str) {
    match (a, b) {
        (Distances::U64(x), Distances::U64(y)) => {
            assert!(x == y, "{what}: integer distances differ")
        }
        (Distances::F64(x), Distances::F64(y)) => {
            assert_eq!(x.len(), y.len());
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                assert!(
                    p == q || (p - q).abs() <= tol * p.abs().max(1.0),
                    "{what}: vertex {i}: {p} vs {q}"
                );
            }
        }
        _ => panic!("{what}: distance types differ"),
    }
}

/// Every method on the device, and the CPU backend, against Dijkstra from `source`.
fn check_all(g: &Graph, source: u32, tol: f64, what: &str) {
    let reference = dijkstra(g, source).unwrap();
    let cpu = Sssp::new(g, opts(SpMethod::Frontier, Backend::Cpu))
        .unwrap()
        .sssp(source)
        .unwrap();
    assert_dist_eq(&cpu.dist, &reference.dist, tol, &format!("{what} cpu"));
    check_preds(g, &cpu, tol);
    // a device result against Dijkstra and the CPU backend
    let same = |r: &SpSsspResult, w: &str| {
        assert_dist_eq(&r.dist, &reference.dist, tol, w);
        check_preds(g, r, tol);
        if tol == 0.0 {
            assert_eq!(
                r.pred, cpu.pred,
                "{w}: canonical predecessors differ from the CPU backend"
            );
        }
        assert_eq!(r.reached, cpu.reached, "{w}");
        assert_eq!(r.edges, cpu.edges, "{w}");
    };
    for m in METHODS {
        let r = Sssp::new(g, opts(m, Backend::DEVICE))
            .unwrap()
            .sssp(source)
            .unwrap();
        same(&r, &format!("{what} {m:?}"));
    }
    let mut sp = Sssp::new(g, local_opts()).unwrap();
    assert!(
        sp.describe().contains("local-memory path ("),
        "{what}: the local path fits: {}",
        sp.describe()
    );
    same(&sp.sssp(source).unwrap(), &format!("{what} local"));
}

#[test]
fn thesis_graphs_equal_dijkstra() {
    for (i, j) in [
        (4, 1),
        (4, 16),
        (5, 3),
        (6, 8),
        (6, 1),
        (7, 2),
        (8, 16),
        (9, 5),
        (10, 12),
        (11, 1),
        (12, 16),
        (12, 4),
    ] {
        let g = thesis_random(i, j, 1000 + i as u64 * 31 + j as u64).unwrap();
        let source = (g.n() as u32 / 3) % g.n() as u32;
        check_all(&g, source, 0.0, &format!("V = 2^{i}, j = {j}"));
    }
}

#[test]
fn grids_equal_dijkstra_and_lee_wave() {
    for (w, h, maxw, obs, seed) in [
        (1, 1, 1, 0.0, 1),
        (17, 9, 1, 0.2, 2),
        (32, 32, 9, 0.1, 3),
        (64, 40, 100, 0.3, 4),
    ] {
        let gr = grid(w, h, maxw, obs, seed).unwrap();
        let source = (0..w * h).find(|&c| !gr.blocked[c]).unwrap() as u32;
        check_all(&gr.graph, source, 0.0, &format!("grid {w} x {h}"));
        // the Lee wave: unit steps, so Dijkstra on the unit-weight grid of the same obstacles
        let unit = grid(w, h, 1, obs, seed).unwrap();
        let reference = dijkstra(&unit.graph, source).unwrap();
        for backend in [Backend::Cpu, Backend::DEVICE] {
            let r = lee_wave(&gr, source, backend, 3).unwrap();
            assert_dist_eq(
                &r.dist,
                &reference.dist,
                0.0,
                &format!("Lee {w} x {h} {backend:?}"),
            );
            check_preds(&unit.graph, &r, 0.0);
        }
    }
}

fn helsinki(weights: OsmWeights) -> Graph {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/graphs/helsinki.osm.pbf");
    Graph::from_osm_pbf(
        &path,
        OsmOptions {
            weights,
            ..Default::default()
        },
    )
    .unwrap()
}

fn helsinki_u32() -> &'static Graph {
    static G: OnceLock<Graph> = OnceLock::new();
    G.get_or_init(|| helsinki(OsmWeights::RoundedMetres))
}

#[test]
fn helsinki_rounded_metres_exact() {
    let g = helsinki_u32();
    for s in [0, 1234, 6905] {
        check_all(g, s, 0.0, &format!("Helsinki u32 from {s}"));
    }
}

#[test]
fn helsinki_f64_and_f32_within_tolerance() {
    let g = helsinki(OsmWeights::default());
    check_all(&g, 0, 1e-12, "Helsinki f64");
    // the same graph with f32 weights (summed in f32 on the device)
    let w: Vec<f32> = (0..g.m()).map(|e| g.weights().get_f64(e) as f32).collect();
    let g32 = Graph::from_csr(g.offsets(), g.targets(), &w).unwrap();
    check_all(&g32, 17, 1e-5, "Helsinki f32");
}

#[test]
fn multi_source_equals_single_runs() {
    let g = helsinki_u32();
    let sources = [0u32, 5, 5, 6905, 3000, 42, 1];
    for m in METHODS {
        let mut sp = Sssp::new(g, opts(m, Backend::DEVICE)).unwrap();
        let multi = sp.sssp_multi(&sources).unwrap();
        assert_eq!(multi.pred.len(), sources.len() * g.n());
        for (i, &s) in sources.iter().enumerate() {
            let single = sp.sssp(s).unwrap();
            let row = multi.row(i);
            assert_eq!(row.dist, single.dist, "{m:?} source {s}");
            assert_eq!(row.pred, single.pred, "{m:?} source {s}");
            assert_eq!(row.edges, single.edges);
        }
    }
    let cpu = Sssp::new(g, opts(SpMethod::Frontier, Backend::Cpu))
        .unwrap()
        .sssp_multi(&sources)
        .unwrap();
    let dev = Sssp::new(g, opts(SpMethod::Frontier, Backend::DEVICE))
        .unwrap()
        .sssp_multi(&sources)
        .unwrap();
    assert_eq!(cpu.dist, dev.dist);
    assert_eq!(cpu.pred, dev.pred);
    assert_eq!(cpu.reached, dev.reached);
}

#[test]
fn unreachable_vertices_single_vertex_and_u64_weights() {
    // 0 -> 1 -> 2, 3 isolated, 4 -> 0 (4 unreachable from 0), u64 weights beyond 2^32
    let big = 5_000_000_000u64;
    let g = Graph::from_edges(
        5,
        &[(0, 1, big), (1, 2, 7u64), (4, 0, 1u64), (0, 2, 2 * big)],
    )
    .unwrap();
    check_all(&g, 0, 0.0, "unreachable");
    let r = Sssp::new(&g, opts(SpMethod::Frontier, Backend::DEVICE))
        .unwrap()
        .sssp(0)
        .unwrap();
    assert_eq!(
        r.dist,
        Distances::U64(vec![0, big, big + 7, u64::MAX, u64::MAX])
    );
    assert_eq!(r.pred, vec![NO_PRED, 0, 1, NO_PRED, NO_PRED]);
    assert_eq!(r.reached, 3);
    assert_eq!(r.edges, 3);
    // V = 1 (s = t)
    let one = Graph::from_edges::<u32>(1, &[]).unwrap();
    check_all(&one, 0, 0.0, "V = 1");
    let r = Sssp::new(&one, opts(SpMethod::BellmanFordPull, Backend::DEVICE))
        .unwrap()
        .sssp(0)
        .unwrap();
    assert_eq!(r.dist, Distances::U64(vec![0]));
    assert_eq!(r.pred, vec![NO_PRED]);
}

fn arg_of(e: Error) -> &'static str {
    match e {
        Error::InvalidArgument { arg, .. } => arg,
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
}

#[test]
fn bad_input_names_the_argument() {
    let g = thesis_random(4, 3, 7).unwrap();
    for backend in [Backend::Cpu, Backend::DEVICE] {
        let mut sp = Sssp::new(&g, opts(SpMethod::Frontier, backend)).unwrap();
        assert_eq!(arg_of(sp.sssp(16).unwrap_err()), "source");
        assert_eq!(arg_of(sp.sssp_multi(&[]).unwrap_err()), "sources");
        assert_eq!(arg_of(sp.sssp_multi(&[0, 99]).unwrap_err()), "sources");
    }
    for r in [0, metaopt::sp::MAX_ROUNDS_PER_CHECK + 1, u32::MAX] {
        let bad = SpOptions {
            rounds_per_check: r,
            ..opts(SpMethod::NearFar { delta: None }, Backend::DEVICE)
        };
        assert_eq!(
            arg_of(Sssp::new(&g, bad).err().unwrap()),
            "rounds_per_check"
        );
    }
    for d in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let bad = opts(SpMethod::NearFar { delta: Some(d) }, Backend::DEVICE);
        assert_eq!(arg_of(Sssp::new(&g, bad).err().unwrap()), "delta");
    }
    let g64 = Graph::from_edges(2, &[(0, 1, u64::MAX - 1), (1, 0, 5u64)]).unwrap();
    assert_eq!(
        arg_of(
            Sssp::new(&g64, opts(SpMethod::Frontier, Backend::Cpu))
                .err()
                .unwrap()
        ),
        "weights"
    );
    let gr = grid(4, 4, 1, 0.0, 1).unwrap();
    assert_eq!(
        arg_of(lee_wave(&gr, 16, Backend::DEVICE, 4).unwrap_err()),
        "source"
    );
    assert_eq!(
        arg_of(lee_wave(&gr, 0, Backend::DEVICE, 0).unwrap_err()),
        "rounds_per_check"
    );
}

#[test]
fn check_interval_and_round_limit() {
    let g = helsinki_u32();
    let reference = dijkstra(g, 77).unwrap();
    for m in METHODS {
        for every in [1, 64] {
            let o = SpOptions {
                rounds_per_check: every,
                ..opts(m, Backend::DEVICE)
            };
            let r = Sssp::new(g, o).unwrap().sssp(77).unwrap();
            assert_eq!(r.dist, reference.dist, "{m:?} every {every}");
            assert_eq!(
                r.rounds % every as u64,
                0,
                "rounds are counted in whole batches"
            );
        }
        // too few rounds: a named error, not a wrong answer
        let o = SpOptions {
            rounds_per_check: 1,
            max_rounds: Some(3),
            ..opts(m, Backend::DEVICE)
        };
        assert_eq!(
            arg_of(Sssp::new(g, o).unwrap().sssp(77).unwrap_err()),
            "max_rounds",
            "{m:?}"
        );
    }
}

#[test]
fn local_path_multi_source_equals_cpu() {
    let g = helsinki_u32();
    let sources: Vec<u32> = (0..48u32)
        .map(|i| i * 143 % g.n() as u32)
        .chain([5, 5])
        .collect();
    let mut sp = Sssp::new(g, local_opts()).unwrap();
    assert!(
        sp.describe().contains("local-memory path (4 B"),
        "{}",
        sp.describe()
    );
    let dev = sp.sssp_multi(&sources).unwrap();
    let cpu = Sssp::new(g, opts(SpMethod::Frontier, Backend::Cpu))
        .unwrap()
        .sssp_multi(&sources)
        .unwrap();
    assert_eq!(dev.dist, cpu.dist);
    assert_eq!(dev.pred, cpu.pred);
    assert_eq!(dev.reached, cpu.reached);
    assert_eq!(dev.edges, cpu.edges);
    assert!(dev.rounds > 0 && dev.rounds <= g.n() as u64 + 1);
    // every method's own path agrees with it
    let row = Sssp::new(g, opts(SpMethod::NearFar { delta: None }, Backend::DEVICE))
        .unwrap()
        .sssp(sources[7])
        .unwrap();
    assert_eq!(dev.row(7).dist, row.dist);
    assert_eq!(dev.row(7).pred, row.pred);
    // too few rounds: the named error
    let o = SpOptions {
        max_rounds: Some(3),
        ..local_opts()
    };
    assert_eq!(
        arg_of(Sssp::new(g, o).unwrap().sssp(77).unwrap_err()),
        "max_rounds"
    );
}

#[test]
fn local_path_u32_overflow_guard_and_fallback() {
    // u32 weights whose max_weight * n reaches 2^32: 64-bit local distances, exact above 2^32
    let big = 3_000_000_000u32;
    let g = Graph::from_edges(
        4,
        &[(0, 1, big), (1, 2, big), (2, 3, 1u32), (0, 3, u32::MAX)],
    )
    .unwrap();
    let mut sp = Sssp::new(&g, local_opts()).unwrap();
    let d = sp.describe();
    if !d.contains("no local-memory path") {
        assert!(d.contains("local-memory path (8 B"), "{d}");
    }
    let r = sp.sssp(0).unwrap();
    assert_eq!(
        r.dist,
        Distances::U64(vec![0, big as u64, 2 * big as u64, u32::MAX as u64])
    );
    assert_eq!(r.pred, vec![NO_PRED, 0, 1, 0]);
    // just below the guard: 32-bit local distances
    let g = Graph::from_edges(
        4,
        &[
            (0, 1, 1_000_000_000u32),
            (1, 2, 1_000_000_000),
            (2, 3, 1_000_000_000),
        ],
    )
    .unwrap();
    let mut sp = Sssp::new(&g, local_opts()).unwrap();
    assert!(
        sp.describe().contains("local-memory path (4 B"),
        "{}",
        sp.describe()
    );
    assert_eq!(
        sp.sssp(0).unwrap().dist,
        Distances::U64(vec![0, 1_000_000_000, 2_000_000_000, 3_000_000_000])
    );
    // a star whose 4-byte distances alone exceed the device's local memory (300,000 vertices,
    // 1.2 MB, at least; PoCL's local memory follows the CPU's cache, 2 MB on some machines): the
    // method's own path (the fallback)
    let local = metaopt::device::get_device_number()
        .ok()
        .and_then(|i| {
            metaopt::device::list_devices()
                .ok()?
                .get(i)
                .map(|d| d.local_mem_bytes)
        })
        .unwrap_or(0);
    let n = (300_000u64.max(local / 4 + 100_000)).min(u32::MAX as u64) as u32;
    let arcs: Vec<(u32, u32, u32)> = (1..n)
        .map(|v| (0, v, 1 + v % 7))
        .chain((1..n - 1).map(|v| (v, v + 1, 1)))
        .collect();
    let g = Graph::from_edges(n as usize, &arcs).unwrap();
    let mut sp = Sssp::new(&g, local_opts()).unwrap();
    assert!(sp.describe().contains("does not fit"), "{}", sp.describe());
    let r = sp.sssp(0).unwrap();
    assert_eq!(r.dist, dijkstra(&g, 0).unwrap().dist);
}
