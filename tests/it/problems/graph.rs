//! problem::graph: builders, readers (DIMACS, MatrixMarket, OpenStreetMap), generators, the
//! reverse CSR and the host Dijkstra reference.

use crate::common;
use metaopt::problem::graph::*;
use metaopt::rng::Philox;
use metaopt::Error;
use std::path::Path;

fn parse_line(e: Error) -> (String, usize, String) {
    match e {
        Error::Parse { path, line, msg } => (path.display().to_string(), line, msg),
        e => panic!("expected a parse error, got {e:?}"),
    }
}

fn arg_of(e: Error) -> (&'static str, String) {
    match e {
        Error::InvalidArgument { arg, msg } => (arg, msg),
        e => panic!("expected an invalid argument, got {e:?}"),
    }
}

/// All arcs as (u, v, w as f64), in CSR order.
fn arcs(g: &Graph) -> Vec<(u32, u32, f64)> {
    (0..g.n())
        .flat_map(|u| {
            g.arcs_of(u)
                .map(move |e| (u as u32, g.targets()[e], g.weights().get_f64(e)))
        })
        .collect()
}

#[test]
fn dense_matrix_zero_is_no_arc_and_diagonal_is_dropped() {
    #[rustfmt::skip]
    let m: [u32; 9] = [
        5, 2, 0,
        0, 0, 3,
        7, 0, 0,
    ];
    let g = Graph::from_dense(3, &m).unwrap();
    assert_eq!((g.n(), g.m()), (3, 3));
    assert_eq!(g.offsets(), &[0, 1, 2, 3]);
    assert_eq!(arcs(&g), vec![(0, 1, 2.0), (1, 2, 3.0), (2, 0, 7.0)]);
    assert_eq!(g.weight_kind(), WeightKind::U32);
    let (arg, _) = arg_of(Graph::from_dense(3, &m[..8]).unwrap_err());
    assert_eq!(arg, "matrix");
    let (arg, msg) = arg_of(Graph::from_dense(2, &[0.0f64, -1.0, 0.0, 0.0]).unwrap_err());
    assert_eq!(arg, "matrix");
    assert!(
        msg.contains("negative") && msg.contains("row 0, column 1"),
        "{msg}"
    );
    let (_, msg) = arg_of(Graph::from_dense(2, &[0.0f32, f32::NAN, 0.0, 0.0]).unwrap_err());
    assert!(msg.contains("NaN"), "{msg}");
}

#[test]
fn edge_list_duplicates_keep_smallest_self_loops_dropped() {
    let e: Vec<(u32, u32, f64)> = vec![
        (2, 0, 1.5),
        (0, 1, 4.0),
        (0, 1, 2.5),
        (1, 1, 9.0),
        (0, 1, 3.0),
        (0, 2, 0.0),
    ];
    let g = Graph::from_edges(3, &e).unwrap();
    assert_eq!(arcs(&g), vec![(0, 1, 2.5), (0, 2, 0.0), (2, 0, 1.5)]);
    assert_eq!(g.weight_kind(), WeightKind::F64);
    assert_eq!(g.find_arc(0, 2), Some(1));
    assert_eq!(g.find_arc(1, 0), None);
    let (arg, msg) = arg_of(Graph::from_edges(3, &[(0u32, 3u32, 1u64)]).unwrap_err());
    assert_eq!(arg, "edges");
    assert!(
        msg.contains("entry 0") && msg.contains("out of range"),
        "{msg}"
    );
    let (arg, msg) = arg_of(Graph::from_edges(3, &[(0, 1, 1.0f32), (1, 2, -0.5)]).unwrap_err());
    assert_eq!(arg, "edges");
    assert!(msg.contains("entry 1") && msg.contains("negative"), "{msg}");
    let (_, msg) = arg_of(Graph::from_edges(3, &[(0, 1, f64::NAN)]).unwrap_err());
    assert!(msg.contains("NaN"), "{msg}");
    let (_, msg) = arg_of(Graph::from_edges(3, &[(0, 1, f64::INFINITY)]).unwrap_err());
    assert!(msg.contains("infinite"), "{msg}");
    // an empty graph and a single vertex are graphs
    assert_eq!(Graph::from_edges::<u32>(1, &[]).unwrap().m(), 0);
    assert_eq!(Graph::from_edges::<u32>(0, &[]).unwrap().offsets(), &[0]);
}

#[test]
fn csr_round_trip_normalises() {
    let g = thesis_random(4, 5, 7).unwrap();
    let w = g.weights().as_u32().unwrap();
    assert_eq!(Graph::from_csr(g.offsets(), g.targets(), w).unwrap(), g);
    // unsorted row with a duplicate and a self-loop
    let h = Graph::from_csr(&[0, 4, 4], &[1, 0, 1, 1], &[5u64, 1, 3, 4]).unwrap();
    assert_eq!(arcs(&h), vec![(0, 1, 3.0)]);
    assert_eq!(h.weight_kind(), WeightKind::U64);
    assert_eq!(
        arg_of(Graph::from_csr(&[0, 2], &[1], &[1u32]).unwrap_err()).0,
        "offsets"
    );
    assert_eq!(
        arg_of(Graph::from_csr(&[0, 1], &[0], &[1u32, 2]).unwrap_err()).0,
        "weights"
    );
    // a bad weight is named as the weights' own
    let (arg, msg) = arg_of(Graph::from_csr(&[0, 1, 1], &[1], &[-2.0f64]).unwrap_err());
    assert_eq!(arg, "weights", "{msg}");
}

#[test]
fn reverse_is_the_transposition() {
    for (seed, g) in [
        (1, thesis_random(5, 8, 1).unwrap()),
        (2, grid(7, 5, 9, 0.2, 2).unwrap().graph),
    ] {
        let r = g.reverse();
        assert_eq!((r.n(), r.m()), (g.n(), g.m()), "seed {seed}");
        let mut fwd: Vec<_> = arcs(&g)
            .into_iter()
            .map(|(u, v, w)| (v, u, w.to_bits()))
            .collect();
        fwd.sort_unstable();
        let rev: Vec<_> = arcs(r)
            .into_iter()
            .map(|(u, v, w)| (u, v, w.to_bits()))
            .collect();
        assert_eq!(
            rev, fwd,
            "seed {seed}: reverse arcs sorted by (target, source)"
        );
        assert_eq!(r.reverse(), &g);
        assert_eq!(r.weight_kind(), g.weight_kind());
    }
}

const GR: &str = "c a small graph\nc\np sp 4 5\na 1 2 7\na 1 3 2\na 3 2 3\na 2 4 1\n\na 1 2 9\n";

#[test]
fn dimacs_reads_and_keeps_smallest_duplicate() {
    let g = Graph::parse_dimacs(GR, Path::new("t.gr")).unwrap();
    assert_eq!((g.n(), g.m()), (4, 4));
    assert_eq!(
        arcs(&g),
        vec![(0, 1, 7.0), (0, 2, 2.0), (1, 3, 1.0), (2, 1, 3.0)]
    );
    assert_eq!(g.weight_kind(), WeightKind::U32);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.gr");
    std::fs::write(&p, GR).unwrap();
    assert_eq!(Graph::from_dimacs(&p).unwrap(), g);
    let big = Graph::parse_dimacs("p sp 2 1\na 1 2 5000000000\n", Path::new("b.gr")).unwrap();
    assert_eq!(big.weights().as_u64().unwrap(), &[5_000_000_000]);
    let real = Graph::parse_dimacs("p sp 2 1\na 1 2 2.5\n", Path::new("r.gr")).unwrap();
    assert_eq!(real.weights().as_f64().unwrap(), &[2.5]);
    match Graph::from_dimacs(&dir.path().join("missing.gr")).unwrap_err() {
        Error::Io { path, .. } => assert!(path.ends_with("missing.gr")),
        e => panic!("{e:?}"),
    }
}

#[test]
fn dimacs_errors_name_file_and_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("c x\na 1 2 3\np sp 2 1\n", 2, "before the `p sp`"),
        ("p sp 2 1\nc\na 1 3 3\n", 3, "out of range"),
        ("p sp 2 1\na 0 2 3\n", 2, "out of range"),
        ("p sp 2 1\na 1 2 -3\n", 2, "negative"),
        ("p sp 2 1\na 1 2 nan\n", 2, "NaN"),
        ("p sp 2 1\na 1 2 x\n", 2, "not a number"),
        ("p sp 2 1\na 1 2\n", 2, "expected `a"),
        ("p sp 2 2\na 1 2 1\n", 1, "declares 2 arcs"),
        ("p sp 2 1\na 1 2 1\na 2 1 1\n", 3, "more arcs"),
        ("p sp 2 1\np sp 2 1\n", 2, "second `p`"),
        ("p max 2 1\n", 1, "expected `p sp"),
        ("p sp 2 1\nx 1 2 1\n", 2, "unknown line type"),
        ("c only comments\n", 1, "no `p sp"),
        ("p sp 2 99999999\n", 1, "more than the file"),
        // more vertices than the arcs back: an error at the `p` line, not 32 GiB filled
        (
            "p sp 4294967294 1\na 1 2 3\n",
            1,
            "vertices declared for 1 arcs",
        ),
        (
            "p sp 1048579 1\na 1 2 3\n",
            1,
            "at most twice its arcs plus 1048576",
        ),
        // a line of control characters and megabytes is quoted short and escaped
        ("p sp 2 1\na 1 2 \u{1b}[31m\n", 2, "\\u{1b}[31m"),
    ];
    for &(text, line, what) in cases {
        let (path, l, msg) =
            parse_line(Graph::parse_dimacs(text, Path::new("bad.gr")).unwrap_err());
        assert_eq!(path, "bad.gr");
        assert_eq!(l, line, "{text:?}: {msg}");
        assert!(msg.contains(what), "{text:?}: {msg}");
    }
}

#[test]
fn matrix_market_fields_and_symmetry() {
    let general = "%%MatrixMarket matrix coordinate real general\n% comment\n3 3 4\n1 2 0.5\n2 3 1.5\n3 1 2\n1 2 0.25\n";
    let g = Graph::parse_matrix_market(general, Path::new("g.mtx")).unwrap();
    assert_eq!(arcs(&g), vec![(0, 1, 0.25), (1, 2, 1.5), (2, 0, 2.0)]);
    assert_eq!(g.weight_kind(), WeightKind::F64);
    let sym = "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 2 5\n3 3 1\n";
    let s = Graph::parse_matrix_market(sym, Path::new("s.mtx")).unwrap();
    assert_eq!(
        arcs(&s),
        vec![(0, 1, 4.0), (1, 0, 4.0), (1, 2, 5.0), (2, 1, 5.0)]
    );
    assert_eq!(s.weight_kind(), WeightKind::U32);
    let pat = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
    assert_eq!(
        arcs(&Graph::parse_matrix_market(pat, Path::new("p.mtx")).unwrap()),
        vec![(0, 1, 1.0)]
    );
    let zero = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0\n";
    assert_eq!(
        arcs(&Graph::parse_matrix_market(zero, Path::new("z.mtx")).unwrap()),
        vec![(0, 1, 0.0)]
    );
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.mtx");
    std::fs::write(&p, general).unwrap();
    assert_eq!(Graph::from_matrix_market(&p).unwrap(), g);
}

#[test]
fn matrix_market_errors_name_file_and_line() {
    let h = "%%MatrixMarket matrix coordinate real general\n";
    let cases: Vec<(String, usize, &str)> = vec![
        ("".into(), 1, "empty file"),
        (
            "%%MatrixMarket matrix array real general\n2 2\n".into(),
            1,
            "`array` not supported",
        ),
        (
            "%%MatrixMarket matrix coordinate complex general\n".into(),
            1,
            "complex",
        ),
        (
            "%%MatrixMarket matrix coordinate real skew-symmetric\n".into(),
            1,
            "skew-symmetric",
        ),
        (
            "%%MatrixMarket vector coordinate real general\n".into(),
            1,
            "expected `%%MatrixMarket",
        ),
        (format!("{h}2 3 1\n1 2 1\n"), 2, "square"),
        (format!("{h}2 2\n"), 2, "size line"),
        (format!("{h}2 2 1\n1 3 1\n"), 3, "out of range"),
        (format!("{h}%\n2 2 2\n1 2 1\n2 1 -1\n"), 5, "negative"),
        (format!("{h}2 2 1\n1 2 nan\n"), 3, "NaN"),
        (format!("{h}2 2 1\n1 2\n"), 3, "expected 3 values"),
        (format!("{h}2 2 1\n1 2 1\n2 1 1\n"), 4, "more entries"),
        (format!("{h}2 2 2\n1 2 1\n"), 2, "declares 2 entries"),
        (
            "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n".into(),
            3,
            "not a non-negative integer",
        ),
        (format!("{h}% no size\n"), 2, "no size line"),
    ];
    for (text, line, what) in cases {
        let (path, l, msg) =
            parse_line(Graph::parse_matrix_market(&text, Path::new("bad.mtx")).unwrap_err());
        assert_eq!(path, "bad.mtx");
        assert_eq!(l, line, "{text:?}: {msg}");
        assert!(msg.contains(what), "{text:?}: {msg}");
    }
}

#[test]
fn thesis_generator_properties() {
    for (i, j) in [(4u32, 1u32), (6, 4), (7, 16)] {
        let g = thesis_random(i, j, 42).unwrap();
        let n = 1usize << i;
        assert_eq!(g.n(), n);
        let w = g.weights().as_u32().unwrap();
        assert!(w.iter().all(|&x| x >= 1 && x < (1 << j)), "i {i} j {j}");
        assert!(arcs(&g).iter().all(|a| a.0 != a.1));
        // an arc with probability (1 - 2^-j) / 2 per ordered pair
        let pairs = (n * (n - 1)) as f64;
        let p = (1.0 - 0.5f64.powi(j as i32)) / 2.0;
        let sd = (pairs * p * (1.0 - p)).sqrt();
        assert!(
            ((g.m() as f64) - pairs * p).abs() < 5.0 * sd,
            "i {i} j {j}: {} arcs, expected {}",
            g.m(),
            pairs * p
        );
        assert_eq!(thesis_random(i, j, 42).unwrap(), g);
        assert_ne!(thesis_random(i, j, 43).unwrap(), g);
    }
    assert_eq!(arg_of(thesis_random(15, 4, 1).unwrap_err()).0, "i");
    assert_eq!(arg_of(thesis_random(4, 0, 1).unwrap_err()).0, "j");
    assert_eq!(thesis_random(0, 3, 1).unwrap().n(), 1);
}

#[test]
fn grid_generator_properties() {
    let (w, h) = (9usize, 6usize);
    let g = grid(w, h, 20, 0.0, 5).unwrap();
    assert_eq!(g.graph.n(), w * h);
    assert_eq!(g.graph.m(), 2 * (2 * w * h - w - h));
    assert!(g
        .graph
        .weights()
        .as_u32()
        .unwrap()
        .iter()
        .all(|&x| (1..=20).contains(&x)));
    for (u, v, _) in arcs(&g.graph) {
        let (ux, uy, vx, vy) = (
            u as usize % w,
            u as usize / w,
            v as usize % w,
            v as usize / w,
        );
        assert_eq!(
            ux.abs_diff(vx) + uy.abs_diff(vy),
            1,
            "arc {u} -> {v} joins 4-neighbours"
        );
    }
    assert_eq!(grid(w, h, 20, 0.0, 5).unwrap(), g);
    assert_ne!(grid(w, h, 20, 0.0, 6).unwrap(), g);
    let unit = grid(w, h, 1, 0.0, 5).unwrap();
    assert!(unit
        .graph
        .weights()
        .as_u32()
        .unwrap()
        .iter()
        .all(|&x| x == 1));

    let o = grid(40, 30, 1, 0.3, 11).unwrap();
    let blocked = o.blocked.iter().filter(|&&b| b).count();
    assert!(
        (250..=470).contains(&blocked),
        "{blocked} obstacles of 1200 at 0.3"
    );
    for (u, v, _) in arcs(&o.graph) {
        assert!(!o.blocked[u as usize] && !o.blocked[v as usize]);
    }
    // every pair of open 4-neighbours is joined both ways
    let mut open_pairs = 0;
    for c in 0..o.blocked.len() {
        let (x, y) = (c % 40, c / 40);
        for (dx, dy) in [(1usize, 0usize), (0, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 40 && ny < 30 && !o.blocked[c] && !o.blocked[ny * 40 + nx] {
                open_pairs += 1;
                assert!(o.graph.find_arc(c, (ny * 40 + nx) as u32).is_some());
                assert!(o.graph.find_arc(ny * 40 + nx, c as u32).is_some());
            }
        }
    }
    assert_eq!(o.graph.m(), 2 * open_pairs);
    assert_eq!(arg_of(grid(0, 3, 1, 0.0, 1).unwrap_err()).0, "width");
    assert_eq!(arg_of(grid(3, 3, 0, 0.0, 1).unwrap_err()).0, "max_weight");
    assert_eq!(arg_of(grid(3, 3, 1, 1.0, 1).unwrap_err()).0, "obstacles");
}

/// Bellman-Ford over the arc list, in f64 (exact for the small integer sums here).
fn bellman_ford(g: &Graph, s: usize) -> Vec<f64> {
    let mut d = vec![f64::INFINITY; g.n()];
    d[s] = 0.0;
    let a = arcs(g);
    for _ in 0..g.n() {
        let mut changed = false;
        for &(u, v, w) in &a {
            if d[u as usize] + w < d[v as usize] {
                d[v as usize] = d[u as usize] + w;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    d
}

/// The predecessors form a tree of shortest paths: each step's weight adds up to the distance.
fn check_tree(g: &Graph, sp: &ShortestPaths) {
    for v in 0..g.n() {
        let p = sp.pred[v];
        if v == sp.source as usize || !sp.dist.reachable(v) {
            assert_eq!(p, NO_PRED, "vertex {v}");
            continue;
        }
        let e = g
            .find_arc(p as usize, v as u32)
            .expect("the predecessor has an arc");
        let sum = sp.dist.get_f64(p as usize) + g.weights().get_f64(e);
        assert!(
            (sum - sp.dist.get_f64(v)).abs() <= 1e-9 * sum.max(1.0),
            "vertex {v}"
        );
    }
}

#[test]
fn dijkstra_by_hand() {
    // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5), 2 -> 3 (8); 4 unreachable
    let g = Graph::from_edges(
        5,
        &[
            (0, 1, 4u32),
            (0, 2, 1),
            (2, 1, 2),
            (1, 3, 5),
            (2, 3, 8),
            (4, 0, 1),
        ],
    )
    .unwrap();
    let sp = dijkstra(&g, 0).unwrap();
    assert_eq!(sp.dist, Distances::U64(vec![0, 3, 1, 8, u64::MAX]));
    assert_eq!(sp.pred, vec![NO_PRED, 2, 0, 1, NO_PRED]);
    assert_eq!(NO_PRED as i32, -1);
    let f = Graph::from_edges(3, &[(0, 1, 0.5f32), (1, 2, 0.25), (0, 2, 1.0)]).unwrap();
    let sp = dijkstra(&f, 0).unwrap();
    assert_eq!(sp.dist, Distances::F64(vec![0.0, 0.5, 0.75]));
    assert_eq!(sp.pred, vec![NO_PRED, 0, 1]);
    // zero-weight cycle through the source; V = 1; s = t
    let z = Graph::from_edges(2, &[(0, 1, 0u32), (1, 0, 0)]).unwrap();
    let sp = dijkstra(&z, 0).unwrap();
    assert_eq!(
        (sp.dist, sp.pred),
        (Distances::U64(vec![0, 0]), vec![NO_PRED, 0])
    );
    let one = dijkstra(&Graph::from_edges::<u32>(1, &[]).unwrap(), 0).unwrap();
    assert_eq!(one.dist, Distances::U64(vec![0]));
    assert_eq!(arg_of(dijkstra(&g, 5).unwrap_err()).0, "source");
}

#[test]
fn dijkstra_equals_bellman_ford_on_random_graphs() {
    for seed in 0..6u64 {
        let g = thesis_random(5, 1 + seed as u32 * 3, seed).unwrap();
        let sp = dijkstra(&g, seed as u32).unwrap();
        let bf = bellman_ford(&g, seed as usize);
        assert!(
            (0..g.n()).all(|v| sp.dist.get_f64(v) == bf[v]),
            "seed {seed}"
        );
        check_tree(&g, &sp);
        // sparse float graphs with unreachable vertices and duplicates
        let mut r = Philox::new(seed, 99);
        let n = 40;
        let e: Vec<(u32, u32, f64)> = (0..70)
            .map(|_| (r.below(n), r.below(n), r.below(1000) as f64 / 8.0))
            .collect();
        let g = Graph::from_edges(n as usize, &e).unwrap();
        for s in [0u32, 7, 39] {
            let sp = dijkstra(&g, s).unwrap();
            let bf = bellman_ford(&g, s as usize);
            assert!(
                (0..g.n()).all(|v| sp.dist.get_f64(v) == bf[v]),
                "seed {seed} source {s}"
            );
            assert!(
                (0..g.n()).any(|v| !sp.dist.reachable(v)),
                "seed {seed}: some vertex unreachable"
            );
            check_tree(&g, &sp);
        }
    }
    let gr = grid(12, 9, 50, 0.15, 3).unwrap();
    let s = gr.blocked.iter().position(|b| !b).unwrap();
    let sp = dijkstra(&gr.graph, s as u32).unwrap();
    let bf = bellman_ford(&gr.graph, s);
    assert!((0..gr.graph.n()).all(|v| sp.dist.get_f64(v) == bf[v]));
    check_tree(&gr.graph, &sp);
}

#[test]
fn helsinki_counts() {
    let p = common::data_dir().join("graphs/helsinki.osm.pbf");
    let g = Graph::from_osm_pbf(
        &p,
        OsmOptions {
            weights: OsmWeights::RoundedMetres,
            ..Default::default()
        },
    )
    .unwrap();
    // data/SOURCES.md: 6,906 vertices, 15,314 arcs
    assert_eq!((g.n(), g.m()), (6906, 15314));
    assert!(g
        .weights()
        .as_u32()
        .unwrap()
        .iter()
        .all(|&w| (1..5000).contains(&w)));
    let coords = g.coords().unwrap();
    assert!(coords
        .iter()
        .all(|&(lat, lon)| (60.0..60.3).contains(&lat) && (24.8..25.1).contains(&lon)));
    let ids = g.osm_ids().unwrap();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    // one-way streets: some arcs have no reverse arc
    let one_way = arcs(&g)
        .iter()
        .filter(|a| g.find_arc(a.1 as usize, a.0).is_none())
        .count();
    assert!(one_way > 100, "{one_way} one-way arcs");
    let m = Graph::from_osm_pbf(&p, OsmOptions::default()).unwrap();
    assert_eq!(
        (m.n(), m.m(), m.weight_kind()),
        (6906, 15314, WeightKind::F64)
    );
    for (e, &w) in m.weights().as_f64().unwrap().iter().enumerate() {
        assert_eq!((w.round() as u32).max(1), g.weights().as_u32().unwrap()[e]);
    }
    let roads = Graph::from_osm_pbf(
        &p,
        OsmOptions {
            highways: OsmHighways::Roads,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(roads.n() < g.n() && roads.m() < g.m() && roads.n() > 1000);
    let sp = dijkstra(&g, 0).unwrap();
    check_tree(&g, &sp);
}

#[test]
fn haversine_and_bad_pbf() {
    // one degree of latitude: 111.2 km on the mean sphere
    let d = haversine_m((60.0, 25.0), (61.0, 25.0));
    assert!((d - 111_195.08).abs() < 1.0, "{d}");
    assert_eq!(haversine_m((1.0, 2.0), (1.0, 2.0)), 0.0);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.osm.pbf");
    std::fs::write(&p, b"\x00\x00\x00\x0dnot a pbf file at all").unwrap();
    let (path, line, _) = parse_line(Graph::from_osm_pbf(&p, OsmOptions::default()).unwrap_err());
    assert!(path.ends_with("bad.osm.pbf"));
    assert_eq!(line, 0);
    // an empty file has no blocks: an error, not a graph of no vertex
    let empty = dir.path().join("empty.osm.pbf");
    std::fs::write(&empty, b"").unwrap();
    let (path, _, msg) =
        parse_line(Graph::from_osm_pbf(&empty, OsmOptions::default()).unwrap_err());
    assert!(
        path.ends_with("empty.osm.pbf") && msg.contains("highway"),
        "{msg}"
    );
    match Graph::from_osm_pbf(&dir.path().join("none.osm.pbf"), OsmOptions::default()).unwrap_err()
    {
        Error::Io { path, .. } => assert!(path.ends_with("none.osm.pbf")),
        e => panic!("{e:?}"),
    }
}
