//! The shortest-path C ABI called directly from Rust: graphs from CSR, arcs, a dense matrix, files
//! and generators equal to the Rust builders; `metaopt_sp_sssp` and `_multi` against the host
//! Dijkstra (every method, the device and the CPU backend, u32 and f64 weights);
//! `metaopt_aco_run` against `Aco::run` of the same options; NULL pointers, wrong-kind and freed
//! handles and the errors naming the argument or field.

use crate::common;
use crate::common::cabi::*;
use crate::common::work_dir;
use metaopt::aco::{Aco, AcoOptions, Deposit};
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::problem::graph::{dijkstra, thesis_random, Distances, Graph, OsmOptions};
use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::thread;
use std::time::{Duration, Instant};

const IO: i32 = MetaoptErrorCode::MetaoptErrIo as i32;

fn ok_graph(r: MetaoptGraphResult) -> *mut MetaoptGraph {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null() && !r.graph.is_null());
    r.graph
}

/// The CSR of a C graph copied out.
fn c_csr(g: *mut MetaoptGraph) -> (Vec<u64>, Vec<u32>, Vec<f64>, i32) {
    let mut d = unsafe { metaopt_graph_data(g) };
    assert_eq!(d.error_code, OK);
    let n = d.n as usize;
    let m = d.m as usize;
    let out = unsafe {
        (
            std::slice::from_raw_parts(d.offsets, n + 1).to_vec(),
            std::slice::from_raw_parts(d.targets, m).to_vec(),
            std::slice::from_raw_parts(d.weights, m).to_vec(),
            d.weight_type,
        )
    };
    unsafe {
        metaopt_graph_free_data(&mut d);
        metaopt_graph_free_data(&mut d); // harmless twice
    }
    assert!(d.offsets.is_null() && d.n == 0 && d.m == 0);
    out
}

fn same_csr(g: *mut MetaoptGraph, r: &Graph) {
    let (off, tg, w, _) = c_csr(g);
    assert_eq!(off, r.offsets());
    assert_eq!(tg, r.targets());
    let want: Vec<f64> = (0..r.m()).map(|e| r.weights().get_f64(e)).collect();
    assert_eq!(w, want);
}

/// One C SSSP result copied out: (dist, dist_int, pred) rows and the counts.
struct Sp {
    k: usize,
    n: usize,
    dist: Vec<f64>,
    dist_int: Option<Vec<u64>>,
    pred: Vec<i32>,
    reached: Vec<u64>,
    backend: String,
}

fn c_sssp(
    g: *mut MetaoptGraph,
    sources: &[u32],
    o: &MetaoptSpOptions,
) -> Result<Sp, (i32, String)> {
    let mut r = unsafe { metaopt_sp_sssp_multi(g, sources.as_ptr(), sources.len() as u32, o) };
    if r.error_code != OK {
        assert!(r.dist.is_null() && r.pred.is_null() && r.k == 0);
        return Err((r.error_code, take_message(r.error_message)));
    }
    let (k, n) = (r.k as usize, r.n as usize);
    let out = unsafe {
        assert_eq!(std::slice::from_raw_parts(r.sources, k), sources);
        Sp {
            k,
            n,
            dist: std::slice::from_raw_parts(r.dist, k * n).to_vec(),
            dist_int: (!r.dist_int.is_null())
                .then(|| std::slice::from_raw_parts(r.dist_int, k * n).to_vec()),
            pred: std::slice::from_raw_parts(r.pred, k * n).to_vec(),
            reached: std::slice::from_raw_parts(r.reached, k).to_vec(),
            backend: CStr::from_ptr(r.backend).to_str().unwrap().to_string(),
        }
    };
    unsafe {
        metaopt_sp_free_result(&mut r);
        metaopt_sp_free_result(&mut r);
    }
    assert!(r.dist.is_null() && r.backend.is_null() && r.k == 0 && r.n == 0);
    Ok(out)
}

/// Checks `sp` against the host Dijkstra of `graph` row by row: equal distances, and
/// predecessors that form a shortest-path tree (-1 exactly at the source and unreachable).
fn check_against_dijkstra(graph: &Graph, sources: &[u32], sp: &Sp) {
    assert_eq!((sp.k, sp.n), (sources.len(), graph.n()));
    for (i, &s) in sources.iter().enumerate() {
        let d = dijkstra(graph, s).unwrap();
        let row = i * sp.n..(i + 1) * sp.n;
        let got = &sp.dist[row.clone()];
        let pred = &sp.pred[row.clone()];
        let mut reached = 0;
        for v in 0..sp.n {
            assert_eq!(got[v], d.dist.get_f64(v), "source {s}, vertex {v}");
            if let (Distances::U64(want), Some(di)) = (&d.dist, &sp.dist_int) {
                assert_eq!(di[row.start + v], want[v]);
            }
            reached += d.dist.reachable(v) as u64;
            if v as u32 == s || !d.dist.reachable(v) {
                assert_eq!(pred[v], -1);
            } else {
                let p = pred[v] as usize;
                let e = graph.find_arc(p, v as u32).expect("pred is an arc");
                assert_eq!(got[p] + graph.weights().get_f64(e), got[v]);
            }
        }
        assert_eq!(sp.reached[i], reached);
        if matches!(d.dist, Distances::F64(_)) {
            assert!(sp.dist_int.is_none());
        }
    }
}

fn opts(method: i32, backend: i32) -> MetaoptSpOptions {
    let mut o = metaopt_sp_default_options();
    o.method = method;
    o.backend = backend;
    o
}

#[test]
fn graphs_from_every_source_equal_the_rust_builders() {
    let _g = shared();
    let r = thesis_random(6, 10, 7).unwrap();
    // CSR with u32 weights
    let w = r.weights().as_u32().unwrap();
    let c = unsafe {
        metaopt_graph_from_csr(
            r.n() as u32,
            r.offsets().as_ptr(),
            r.m() as u64,
            r.targets().as_ptr(),
            w.as_ptr().cast(),
            0,
        )
    };
    assert_eq!((c.n, c.m, c.weight_type), (64, r.m() as u64, 0));
    let g = ok_graph(c);
    same_csr(g, &r);
    let info = unsafe { metaopt_graph_info(g) };
    assert_eq!(
        (info.error_code, info.n, info.m, info.graph),
        (OK, 64, r.m() as u64, ptr::null_mut())
    );
    unsafe { metaopt_graph_free(g) };
    // the generator itself
    let g = ok_graph(metaopt_graph_thesis_random(6, 10, 7));
    same_csr(g, &r);
    unsafe { metaopt_graph_free(g) };
    // arcs (f64, unsorted, with a duplicate and a self-loop) and the same as dense f32
    let (s, t, wf) = (
        [2u32, 0, 0, 1, 1, 2],
        [0u32, 1, 1, 2, 1, 1],
        [0.5f64, 3.0, 2.0, 1.25, 9.0, 4.0],
    );
    let g = ok_graph(unsafe {
        metaopt_graph_from_edges(3, 6, s.as_ptr(), t.as_ptr(), wf.as_ptr().cast(), 3)
    });
    let (off, tg, w, ty) = c_csr(g);
    assert_eq!(
        (off, tg, w, ty),
        (
            vec![0, 1, 2, 4],
            vec![1, 2, 0, 1],
            vec![2.0, 1.25, 0.5, 4.0],
            3
        )
    );
    unsafe { metaopt_graph_free(g) };
    let dense: [f32; 9] = [0.0, 2.0, 0.0, 0.0, 7.0, 1.25, 0.5, 4.0, 0.0];
    let g = ok_graph(unsafe { metaopt_graph_from_dense(3, dense.as_ptr().cast(), 2) });
    let (off, tg, w, ty) = c_csr(g);
    assert_eq!(
        (off, tg, w, ty),
        (
            vec![0, 1, 2, 4],
            vec![1, 2, 0, 1],
            vec![2.0, 1.25, 0.5, 4.0],
            2
        )
    );
    unsafe { metaopt_graph_free(g) };
    // u64 dense
    let d64: [u64; 4] = [0, 5, 6, 0];
    let g = ok_graph(unsafe { metaopt_graph_from_dense(2, d64.as_ptr().cast(), 1) });
    assert_eq!(c_csr(g).3, 1);
    unsafe { metaopt_graph_free(g) };
    // a grid
    let g = ok_graph(metaopt_graph_grid(4, 3, 5, 0.0, 1));
    same_csr(
        g,
        &metaopt::problem::graph::grid(4, 3, 5, 0.0, 1)
            .unwrap()
            .graph,
    );
    unsafe { metaopt_graph_free(g) };
}

#[test]
fn files_by_extension_and_by_format() {
    let _g = shared();
    let pbf = common::data_dir().join("graphs/helsinki.osm.pbf");
    let c = CString::new(pbf.to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_graph_from_file(c.as_ptr(), 0) };
    assert_eq!((r.n, r.m, r.weight_type), (6906, 15314, 3));
    let g = ok_graph(r);
    same_csr(
        g,
        &Graph::from_osm_pbf(&pbf, OsmOptions::default()).unwrap(),
    );
    unsafe { metaopt_graph_free(g) };
    let r = unsafe { metaopt_graph_from_file(c.as_ptr(), 4) };
    assert_eq!(r.weight_type, 0);
    unsafe { metaopt_graph_free(ok_graph(r)) };
    // DIMACS and MatrixMarket written here
    let dir = work_dir!();
    let gr = dir.join("t.gr");
    std::fs::write(&gr, "c test\np sp 3 3\na 1 2 4\na 2 3 5\na 1 3 11\n").unwrap();
    let mtx = dir.join("t.mtx");
    std::fs::write(
        &mtx,
        "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 4\n2 3 5\n1 3 11\n",
    )
    .unwrap();
    for (p, f) in [(&gr, 0), (&gr, 1), (&mtx, 0), (&mtx, 2)] {
        let c = CString::new(p.to_str().unwrap()).unwrap();
        let g = ok_graph(unsafe { metaopt_graph_from_file(c.as_ptr(), f) });
        let (off, tg, w, _) = c_csr(g);
        assert_eq!(
            (off, tg, w),
            (vec![0, 2, 3, 3], vec![1, 2, 2], vec![4.0, 11.0, 5.0]),
            "{p:?} {f}"
        );
        let mut r = unsafe { metaopt_sp_sssp(g, 0, &opts(1, 1)) };
        assert_eq!(r.error_code, OK);
        assert_eq!(
            unsafe { std::slice::from_raw_parts(r.dist, 3) },
            [0.0, 4.0, 9.0]
        );
        assert_eq!(unsafe { std::slice::from_raw_parts(r.pred, 3) }, [-1, 0, 1]);
        unsafe { metaopt_sp_free_result(&mut r) };
        unsafe { metaopt_graph_free(g) };
    }
    // errors: a missing file, an unknown extension, a bad format, a malformed file
    let missing = CString::new(dir.join("missing.gr").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_graph_from_file(missing.as_ptr(), 0) };
    assert!(r.graph.is_null());
    expect_error(r.error_code, r.error_message, IO, "missing.gr");
    let txt = CString::new(dir.join("t.txt").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_graph_from_file(txt.as_ptr(), 0) };
    expect_error(r.error_code, r.error_message, INVALID, "format");
    let r = unsafe { metaopt_graph_from_file(missing.as_ptr(), 9) };
    expect_error(r.error_code, r.error_message, INVALID, "format");
    let bad = dir.join("bad.gr");
    std::fs::write(&bad, "p sp 2 1\na 1 5 3\n").unwrap();
    let c = CString::new(bad.to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_graph_from_file(c.as_ptr(), 0) };
    assert!(r.error_code != OK && r.graph.is_null());
    let m = take_message(r.error_message);
    assert!(m.contains("bad.gr") && m.contains('2'), "{m}");
    let r = unsafe { metaopt_graph_from_file(ptr::null(), 0) };
    expect_error(r.error_code, r.error_message, NULL, "path");
}

#[test]
fn sssp_equals_dijkstra_for_every_method_and_backend() {
    let _g = shared();
    let u = thesis_random(7, 12, 3).unwrap();
    // a sparse real-weight graph with unreachable vertices
    let mut arcs = Vec::new();
    let mut rng = metaopt::rng::Philox::new(5, 9);
    for _ in 0..300 {
        let (a, b) = (rng.below(150), rng.below(150));
        arcs.push((a, b, 0.25 + rng.below(1000) as f64 / 64.0));
    }
    let f = Graph::from_edges(150, &arcs).unwrap();
    let fw = f.weights().as_f64().unwrap();
    let uw = u.weights().as_u32().unwrap();
    let gu = ok_graph(unsafe {
        metaopt_graph_from_csr(
            128,
            u.offsets().as_ptr(),
            u.m() as u64,
            u.targets().as_ptr(),
            uw.as_ptr().cast(),
            0,
        )
    });
    let gf = ok_graph(unsafe {
        metaopt_graph_from_csr(
            150,
            f.offsets().as_ptr(),
            f.m() as u64,
            f.targets().as_ptr(),
            fw.as_ptr().cast(),
            3,
        )
    });
    for (g, graph, sources) in [
        (gu, &u, vec![0u32, 5, 5, 127]),
        (gf, &f, vec![3u32, 0, 149]),
    ] {
        for method in 0..3 {
            for backend in 0..2 {
                let sp = c_sssp(g, &sources, &opts(method, backend)).unwrap();
                check_against_dijkstra(graph, &sources, &sp);
                assert_eq!(sp.dist_int.is_some(), ptr::eq(graph, &u));
                if backend == 1 {
                    assert!(sp.backend.contains("CPU"), "{}", sp.backend);
                }
            }
        }
        // single source = the first row of multi; NULL options = the defaults
        let mut r = unsafe { metaopt_sp_sssp(g, sources[0], ptr::null()) };
        assert_eq!((r.error_code, r.k), (OK, 1));
        let multi = c_sssp(g, &sources, &metaopt_sp_default_options()).unwrap();
        assert_eq!(
            unsafe { std::slice::from_raw_parts(r.dist, multi.n) },
            &multi.dist[..multi.n]
        );
        assert_eq!(
            unsafe { std::slice::from_raw_parts(r.pred, multi.n) },
            &multi.pred[..multi.n]
        );
        unsafe { metaopt_sp_free_result(&mut r) };
    }
    // near-far with an explicit delta
    let mut o = opts(2, 0);
    o.delta = 100.0;
    check_against_dijkstra(&u, &[9], &c_sssp(gu, &[9], &o).unwrap());
    unsafe {
        metaopt_graph_free(gu);
        metaopt_graph_free(gf);
    }
}

#[test]
fn aco_run_equals_the_rust_run() {
    let _g = shared();
    let graph = thesis_random(6, 8, 11).unwrap();
    let w = graph.weights().as_u32().unwrap();
    let g = ok_graph(unsafe {
        metaopt_graph_from_csr(
            64,
            graph.offsets().as_ptr(),
            graph.m() as u64,
            graph.targets().as_ptr(),
            w.as_ptr().cast(),
            0,
        )
    });
    let mut o = metaopt_aco_default_options();
    let d = AcoOptions::default();
    assert_eq!(
        (o.ants as usize, o.alpha, o.beta, o.evaporation, o.seed),
        (d.ants, d.alpha, d.beta, d.evaporation, d.seed)
    );
    // the library's default deposit (all ants, since the local search) as its C number
    let deposit = match d.deposit {
        Deposit::All => MetaoptAcoDeposit::MetaoptAcoDepositAll,
        Deposit::IterationBest => MetaoptAcoDeposit::MetaoptAcoDepositIterationBest,
    } as i32;
    assert_eq!(
        (o.iterations, o.max_min, o.deposit, o.selection, o.backend),
        (100, 0.01, deposit, 0, 0)
    );
    assert_eq!((o.local_search, o.restart), (d.local_search as u8, 0));
    o.ants = 32;
    o.iterations = 20;
    o.seed = 4;
    let want = Aco::new(
        &graph,
        AcoOptions {
            ants: 32,
            stop: metaopt::run::Stop::budget(20),
            seed: 4,
            ..AcoOptions::default()
        },
        Backend::Device(None),
    )
    .unwrap()
    .run(0, 63)
    .unwrap();
    for backend in [0, 1] {
        o.backend = backend;
        let mut r = unsafe { metaopt_aco_run(g, 0, 63, &o) };
        assert_eq!(r.error_code, OK);
        let best = want.best.as_ref().unwrap();
        assert_eq!(r.found, 1);
        assert_eq!(
            unsafe { std::slice::from_raw_parts(r.path, r.path_length as usize) },
            best.vertices.as_slice()
        );
        assert_eq!(
            (r.length, r.length_int, r.gap),
            (best.length, best.length_int.unwrap(), best.gap)
        );
        assert_eq!(r.exact_length, want.exact_length.unwrap());
        assert_eq!(
            (r.iterations, r.found_at_iteration, r.successful_ants),
            (20, want.found_at_iteration.unwrap(), want.successful_ants)
        );
        match &want.pheromone {
            Some(p) => {
                assert_eq!(r.pheromone_found, 1);
                assert_eq!(
                    unsafe {
                        std::slice::from_raw_parts(
                            r.pheromone_path,
                            r.pheromone_path_length as usize,
                        )
                    },
                    p.vertices.as_slice()
                );
                assert_eq!((r.pheromone_length, r.pheromone_gap), (p.length, p.gap));
            }
            None => assert!(
                r.pheromone_found == 0
                    && r.pheromone_path.is_null()
                    && r.pheromone_length.is_infinite()
            ),
        }
        assert!(!r.backend.is_null());
        unsafe {
            metaopt_aco_free_run_result(&mut r);
            metaopt_aco_free_run_result(&mut r);
        }
        assert!(r.path.is_null() && r.pheromone_path.is_null() && r.path_length == 0);
    }
    // iterations 0: the thesis's rule, ceil(ln 100 / -ln 0.5) = 7 iterations
    o.iterations = 0;
    o.initial_pheromone = 100.0;
    o.evaporation = 0.5;
    o.backend = CPU;
    let mut r = unsafe { metaopt_aco_run(g, 0, 63, &o) };
    assert_eq!(
        (r.error_code, r.stop_reason, r.iterations),
        (OK, MetaoptStopReason::MetaoptStopLimit as i32, 7)
    );
    unsafe { metaopt_aco_free_run_result(&mut r) };
    // an unreachable target: no error, no path
    let e = [1.0f64];
    let (s, t) = ([0u32], [1u32]);
    let g2 = ok_graph(unsafe {
        metaopt_graph_from_edges(3, 1, s.as_ptr(), t.as_ptr(), e.as_ptr().cast(), 3)
    });
    let mut r = unsafe { metaopt_aco_run(g2, 0, 2, ptr::null()) };
    assert_eq!((r.error_code, r.found, r.iterations), (OK, 0, 0));
    assert!(
        r.path.is_null()
            && r.exact_length.is_infinite()
            && r.length.is_infinite()
            && r.length_int == u64::MAX
    );
    unsafe { metaopt_aco_free_run_result(&mut r) };
    unsafe {
        metaopt_graph_free(g);
        metaopt_graph_free(g2);
    }
}

#[test]
fn errors_name_the_argument() {
    let lock = shared();
    let w = [1u32, 2];
    let off = [0u64, 1, 2];
    let tg = [1u32, 0];
    let check = |r: MetaoptGraphResult, code: i32, needle: &str| {
        assert!(r.graph.is_null() && r.n == 0);
        expect_error(r.error_code, r.error_message, code, needle);
    };
    unsafe {
        check(
            metaopt_graph_from_csr(2, ptr::null(), 2, tg.as_ptr(), w.as_ptr().cast(), 0),
            NULL,
            "offsets",
        );
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 2, ptr::null(), w.as_ptr().cast(), 0),
            NULL,
            "targets",
        );
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 2, tg.as_ptr(), ptr::null(), 0),
            NULL,
            "weights",
        );
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 2, tg.as_ptr(), w.as_ptr().cast(), 7),
            INVALID,
            "weight_type",
        );
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 1, tg.as_ptr(), w.as_ptr().cast(), 0),
            INVALID,
            "offsets",
        );
        let bad_t = [1u32, 5];
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 2, bad_t.as_ptr(), w.as_ptr().cast(), 0),
            INVALID,
            "targets",
        );
        let neg = [1.0f64, -2.0];
        check(
            metaopt_graph_from_csr(2, off.as_ptr(), 2, tg.as_ptr(), neg.as_ptr().cast(), 3),
            INVALID,
            "weights",
        );
        let nan = [f64::NAN, 0.0, 0.0, 0.0];
        check(
            metaopt_graph_from_dense(2, nan.as_ptr().cast::<c_void>(), 3),
            INVALID,
            "matrix",
        );
        check(metaopt_graph_from_dense(2, ptr::null(), 3), NULL, "matrix");
        check(
            metaopt_graph_from_edges(2, 1, ptr::null(), tg.as_ptr(), w.as_ptr().cast(), 0),
            NULL,
            "sources",
        );
        check(
            metaopt_graph_from_edges(1, 1, tg.as_ptr(), tg.as_ptr(), w.as_ptr().cast(), 0),
            INVALID,
            "edges",
        );
        check(metaopt_graph_thesis_random(15, 8, 0), INVALID, "i");
        check(metaopt_graph_thesis_random(4, 0, 0), INVALID, "j");
        check(metaopt_graph_grid(0, 3, 1, 0.0, 0), INVALID, "width");
        check(
            metaopt_graph_grid(3, 3, 1, f64::NAN, 0),
            INVALID,
            "obstacles",
        );
        check(metaopt_graph_info(ptr::null()), NULL, "graph");
    }
    let g = ok_graph(unsafe {
        metaopt_graph_from_csr(2, off.as_ptr(), 2, tg.as_ptr(), w.as_ptr().cast(), 0)
    });
    let sp_err = |sources: &[u32], o: MetaoptSpOptions, code: i32, needle: &str| {
        let r = unsafe { metaopt_sp_sssp_multi(g, sources.as_ptr(), sources.len() as u32, &o) };
        assert!(r.dist.is_null() && r.k == 0);
        expect_error(r.error_code, r.error_message, code, needle);
    };
    let d = metaopt_sp_default_options();
    assert_eq!(
        (
            d.method,
            d.delta,
            d.backend,
            d.rounds_per_check,
            d.max_rounds
        ),
        (2, 0.0, 0, 16, 0),
        "near-far by default"
    );
    sp_err(&[0, 2], d, INVALID, "sources");
    sp_err(&[], d, INVALID, "sources");
    sp_err(&[0], MetaoptSpOptions { method: 3, ..d }, INVALID, "method");
    sp_err(
        &[0],
        MetaoptSpOptions {
            method: 2,
            delta: -1.0,
            ..d
        },
        INVALID,
        "delta",
    );
    sp_err(
        &[0],
        MetaoptSpOptions {
            method: 2,
            delta: f64::INFINITY,
            ..d
        },
        INVALID,
        "delta",
    );
    sp_err(
        &[0],
        MetaoptSpOptions { backend: 2, ..d },
        INVALID,
        "backend",
    );
    sp_err(
        &[0],
        MetaoptSpOptions {
            rounds_per_check: 0,
            ..d
        },
        INVALID,
        "rounds_per_check",
    );
    let r = unsafe { metaopt_sp_sssp_multi(g, ptr::null(), 1, &d) };
    expect_error(r.error_code, r.error_message, NULL, "sources");
    let r = unsafe { metaopt_sp_sssp(ptr::null_mut(), 0, &d) };
    expect_error(r.error_code, r.error_message, NULL, "graph");
    let aco_err = |s: u32, t: u32, o: MetaoptAcoOptions, code: i32, needle: &str| {
        let r = unsafe { metaopt_aco_run(g, s, t, &o) };
        assert!(r.path.is_null());
        expect_error(r.error_code, r.error_message, code, needle);
    };
    let a = MetaoptAcoOptions {
        backend: 1,
        ..metaopt_aco_default_options()
    };
    aco_err(0, 2, a, INVALID, "target");
    aco_err(5, 1, a, INVALID, "source");
    aco_err(
        0,
        1,
        MetaoptAcoOptions {
            evaporation: 1.5,
            ..a
        },
        INVALID,
        "evaporation",
    );
    aco_err(
        0,
        1,
        MetaoptAcoOptions {
            alpha: f64::NAN,
            ..a
        },
        INVALID,
        "alpha",
    );
    aco_err(0, 1, MetaoptAcoOptions { ants: 0, ..a }, INVALID, "ants");
    // the thesis's rule (iterations 0) needs initial_pheromone > 1
    aco_err(
        0,
        1,
        MetaoptAcoOptions { iterations: 0, ..a },
        INVALID,
        "iterations",
    );
    aco_err(
        0,
        1,
        MetaoptAcoOptions { deposit: 2, ..a },
        INVALID,
        "deposit",
    );
    aco_err(
        0,
        1,
        MetaoptAcoOptions { selection: -1, ..a },
        INVALID,
        "selection",
    );
    aco_err(
        0,
        1,
        MetaoptAcoOptions { backend: 5, ..a },
        INVALID,
        "backend",
    );
    let r = unsafe { metaopt_aco_run(ptr::null_mut(), 0, 1, &a) };
    expect_error(r.error_code, r.error_message, NULL, "graph");
    // a handle of another kind, then a freed graph
    let k = metaopt_knapsack_generate(0, 5, 10, 1);
    assert_eq!(k.error_code, OK);
    let r = unsafe { metaopt_sp_sssp(k.knapsack.cast(), 0, &d) };
    expect_error(r.error_code, r.error_message, INVALID, "MetaoptKnapsack");
    unsafe { metaopt_graph_free(k.knapsack.cast()) }; // ignored: not a graph
    unsafe { metaopt_knapsack_free(k.knapsack) };
    drop(lock);
    let _x = exclusive();
    freed_graph_is_refused(g);
}

/// Frees `g` and checks that it is refused (the caller holds the exclusive lock, so that no
/// other test's handle takes its address meanwhile).
fn freed_graph_is_refused(g: *mut MetaoptGraph) {
    unsafe {
        metaopt_graph_free(g);
        metaopt_graph_free(g); // ignored
    }
    let r = unsafe { metaopt_graph_info(g) };
    assert_eq!(r.error_code, INVALID);
    assert!(take_message(r.error_message).contains("not a live MetaoptGraph"));
    unsafe {
        metaopt_graph_free_data(ptr::null_mut());
        metaopt_sp_free_result(ptr::null_mut());
        metaopt_aco_free_run_result(ptr::null_mut());
    }
}

/// A C result moved to the thread that joins the call (its pointers are the library's).
struct Sent<T>(T);
// SAFETY: the result's pointers are owned by the result, which moves whole to the joining thread.
unsafe impl<T> Send for Sent<T> {}

const TIME_LIMIT: i32 = MetaoptErrorCode::MetaoptErrTimeLimit as i32;
const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;
const DEVICE: i32 = MetaoptBackend::MetaoptBackendDevice as i32;
const CPU: i32 = MetaoptBackend::MetaoptBackendCpu as i32;

/// `time_limit_s` and `stop_token`: an exact SSSP cut short has no result (`METAOPT_ERR_TIME_LIMIT`,
/// `METAOPT_INTERRUPTED`, every array NULL); the field is validated.
#[test]
fn sssp_cut_short_has_no_result() {
    let _g = shared();
    let g = ok_graph(metaopt_graph_grid(1000, 1000, 1, 0.0, 1));
    let corners = [0u32, 999, 999_000, 999_999];
    let mut o = opts(MetaoptSpMethod::MetaoptSpBellmanFord as i32, DEVICE);
    o.time_limit_s = 0.3;
    let t0 = Instant::now();
    let (code, msg) = c_sssp(g, &corners, &o).err().expect("a time-limit error");
    assert!(
        t0.elapsed() < Duration::from_millis(1300),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(code, TIME_LIMIT, "{msg}");
    assert!(
        msg.contains("time limit") && msg.contains("no result"),
        "{msg}"
    );
    // a token requested from another thread
    let token = metaopt_stop_token_create() as usize;
    let (gu, mut o) = (g as usize, o);
    o.time_limit_s = 0.0;
    o.stop_token = token as *const MetaoptStopToken;
    let o = Sent(o);
    let run = thread::spawn(move || {
        let o = o;
        Sent(unsafe { metaopt_sp_sssp_multi(gu as *mut MetaoptGraph, corners.as_ptr(), 4, &o.0) })
    });
    thread::sleep(Duration::from_millis(300));
    assert!(!run.is_finished());
    let t0 = Instant::now();
    assert_eq!(
        unsafe { metaopt_stop_token_request(token as *mut _) }.error_code,
        OK
    );
    let mut r = run.join().unwrap().0;
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(r.error_code, INTERRUPTED);
    assert!(r.dist.is_null() && r.pred.is_null() && r.sources.is_null() && r.k == 0);
    assert!(take_message(r.error_message).contains("no result"));
    r.error_message = ptr::null_mut();
    unsafe { metaopt_sp_free_result(&mut r) };
    unsafe { metaopt_stop_token_free(token as *mut _) };
    for bad in [-1.0, f64::NAN, f64::INFINITY, 1e10] {
        let mut o = opts(MetaoptSpMethod::MetaoptSpNearFar as i32, CPU);
        o.time_limit_s = bad;
        let (code, msg) = c_sssp(g, &[0], &o).err().expect("an invalid time limit");
        assert_eq!(code, INVALID, "{bad}: {msg}");
        assert!(msg.contains("time_limit_s"), "{msg}");
    }
    unsafe { metaopt_graph_free(g) };
}

/// ACO under `time_limit_s` keeps its best path (`METAOPT_OK`, `stop_reason` time limit); stopped
/// by its token, the same with `METAOPT_INTERRUPTED`; run to its iterations, `stop_reason` limit.
#[test]
fn aco_cut_short_keeps_its_best_path() {
    let _g = shared();
    let graph = metaopt::problem::graph::grid(20, 20, 100, 0.0, 1)
        .unwrap()
        .graph;
    let g = ok_graph(metaopt_graph_grid(20, 20, 100, 0.0, 1));
    let exact = dijkstra(&graph, 0).unwrap().dist.get_f64(399);
    let check_path = |r: &MetaoptAcoRunResult| {
        assert_eq!(r.found, 1);
        let p = unsafe { std::slice::from_raw_parts(r.path, r.path_length as usize) };
        assert_eq!((p[0], p[p.len() - 1]), (0, 399));
        let (len, _) = metaopt::aco::path_length(&graph, p).unwrap();
        assert_eq!((len, r.exact_length), (r.length, exact));
        assert!(r.iterations > 0 && r.iterations < 1_000_000);
    };
    let mut o = metaopt_aco_default_options();
    o.iterations = 1_000_000;
    o.time_limit_s = 0.3;
    let t0 = Instant::now();
    let mut r = unsafe { metaopt_aco_run(g, 0, 399, &o) };
    assert!(
        t0.elapsed() < Duration::from_millis(1300),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(
        (r.error_code, r.stop_reason),
        (OK, MetaoptStopReason::MetaoptStopTimeLimit as i32),
        "{}",
        take_message(r.error_message)
    );
    check_path(&r);
    unsafe { metaopt_aco_free_run_result(&mut r) };
    let token = metaopt_stop_token_create() as usize;
    o.time_limit_s = 0.0;
    o.stop_token = token as *const MetaoptStopToken;
    o.backend = CPU;
    let (gu, o) = (g as usize, Sent(o));
    let run = thread::spawn(move || {
        let o = o;
        Sent(unsafe { metaopt_aco_run(gu as *mut MetaoptGraph, 0, 399, &o.0) })
    });
    thread::sleep(Duration::from_millis(300));
    assert!(!run.is_finished());
    let t0 = Instant::now();
    assert_eq!(
        unsafe { metaopt_stop_token_request(token as *mut _) }.error_code,
        OK
    );
    let mut r = run.join().unwrap().0;
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(
        (r.error_code, r.stop_reason),
        (
            INTERRUPTED,
            MetaoptStopReason::MetaoptStopInterrupted as i32
        )
    );
    check_path(&r);
    assert!(take_message(r.error_message).contains("best so far"));
    r.error_message = ptr::null_mut();
    unsafe { metaopt_aco_free_run_result(&mut r) };
    unsafe { metaopt_stop_token_free(token as *mut _) };
    let mut o = metaopt_aco_default_options();
    o.iterations = 3;
    let mut r = unsafe { metaopt_aco_run(g, 0, 399, &o) };
    assert_eq!(
        (r.error_code, r.stop_reason, r.iterations),
        (OK, MetaoptStopReason::MetaoptStopLimit as i32, 3)
    );
    unsafe { metaopt_aco_free_run_result(&mut r) };
    unsafe { metaopt_graph_free(g) };
}
