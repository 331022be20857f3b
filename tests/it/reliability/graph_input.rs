//! Hostile graph files and shortest-path calls: vertex counts the file does not back, memory a
//! call cannot have, distances that overflow, gzip and zlib bombs, long and control-character
//! input in messages. Each reproducer ends in an error naming the file or the argument, never an
//! abort, a silent wrong answer or gigabytes allocated.

use crate::common::child::own_process;
use metaopt::device::Backend;
use metaopt::problem::graph::*;
use metaopt::sp::{SpOptions, Sssp};
use metaopt::Error;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

fn cpu() -> SpOptions {
    SpOptions {
        backend: Backend::Cpu,
        ..Default::default()
    }
}

fn device() -> SpOptions {
    SpOptions {
        backend: Backend::DEVICE,
        ..Default::default()
    }
}

fn write(dir: &Path, name: &str, data: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_vertex_count_the_file_does_not_back_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for n in [600_000_000u64, 300_000_000, 4_294_967_295] {
        let gr = write(
            dir.path(),
            "big.gr",
            format!("p sp {n} 1\na 1 2 3\n").as_bytes(),
        );
        let t = Instant::now();
        match Graph::from_dimacs(&gr).unwrap_err() {
            Error::Parse { path, line, msg } => {
                assert!(path.ends_with("big.gr"));
                assert_eq!(line, 1, "{msg}");
                assert!(
                    msg.contains(&format!("{n} vertices declared for 1 arcs")),
                    "{msg}"
                );
            }
            e => panic!("{e:?}"),
        }
        assert!(t.elapsed().as_secs_f64() < 1.0, "{:?}", t.elapsed());
        let mtx = write(
            dir.path(),
            "big.mtx",
            format!("%%MatrixMarket matrix coordinate real general\n{n} {n} 1\n1 2 3\n").as_bytes(),
        );
        match Graph::from_matrix_market(&mtx).unwrap_err() {
            Error::Parse { line, msg, .. } => {
                assert_eq!(line, 2, "{msg}");
                assert!(msg.contains("vertices declared for 1 entries"), "{msg}");
            }
            e => panic!("{e:?}"),
        }
    }
    // the bound itself is accepted: twice the arcs plus the isolated vertices
    let most = 2 + MAX_ISOLATED_VERTICES;
    let g = Graph::parse_dimacs(&format!("p sp {most} 1\na 1 2 3\n"), Path::new("ok.gr")).unwrap();
    assert_eq!(g.n(), most);
    let sym =
        format!("%%MatrixMarket matrix coordinate integer symmetric\n{most} {most} 1\n2 1 4\n");
    assert_eq!(
        Graph::parse_matrix_market(&sym, Path::new("ok.mtx"))
            .unwrap()
            .n(),
        most
    );
}

#[test]
fn shortest_paths_on_a_graph_the_host_cannot_reverse_are_an_error_not_an_abort() {
    own_process!();
    // a 1.5 GB address space: the graph's 1.2 GB of offsets fit, its reverse does not
    let limit = libc::rlimit {
        rlim_cur: 1_500_000_000,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: setrlimit reads the struct it is given; this process is the test's own.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    let g = match Graph::from_edges(150_000_000, &[(0u32, 1u32, 3u32)]) {
        Ok(g) => g,
        Err(Error::OutOfHostMemory(msg)) => return eprintln!("the graph itself: {msg}"),
        Err(e) => panic!("{e:?}"),
    };
    for o in [cpu(), device()] {
        match Sssp::new(&g, o) {
            Err(Error::OutOfHostMemory(msg)) => {
                assert!(msg.contains("`graph`"), "{msg}")
            }
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("the reverse graph fit a 1.5 GB address space"),
        }
    }
    assert!(matches!(
        g.try_reverse(),
        Err(Error::OutOfHostMemory(m)) if m.contains("`graph`")
    ));
    // host Dijkstra's per-vertex rows: allocated fallibly
    match dijkstra(&g, 0) {
        Ok(p) => assert_eq!(p.dist.get_f64(1), 3.0),
        Err(Error::OutOfHostMemory(msg)) => assert!(msg.contains("`graph`"), "{msg}"),
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn aco_local_search_where_the_host_cannot_hold_its_working_set_is_an_error_not_an_abort() {
    own_process!();
    // a 1.5 GB address space: the graph's 1.2 GB of offsets fit, the search's reverse graph
    // (another 1.2 GB) and its 7.2 GB of budgets do not
    let limit = libc::rlimit {
        rlim_cur: 1_500_000_000,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: setrlimit reads the struct it is given; this process is the test's own.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    let g = match Graph::from_edges(150_000_000, &[(0u32, 1u32, 3u32)]) {
        Ok(g) => g,
        Err(Error::OutOfHostMemory(msg)) => return eprintln!("the graph itself: {msg}"),
        Err(e) => panic!("{e:?}"),
    };
    match metaopt::aco::local_search(&g, &[0, 1]) {
        Err(Error::OutOfHostMemory(msg)) => assert!(msg.contains("`graph`"), "{msg}"),
        r => panic!("the local search's working set fit a 1.5 GB address space: {r:?}"),
    }
}

#[test]
fn aco_local_search_refuses_a_path_that_is_not_a_simple_path_of_the_graph() {
    use metaopt::aco::local_search;
    let g = Graph::from_edges(4, &[(0u32, 1u32, 3u32), (1, 2, 3), (2, 3, 3), (0, 3, 5)]).unwrap();
    for (path, needle) in [
        (&[][..], "empty"),
        (&[0, 1, 9][..], "vertex 9 at position 2"),
        (&[0, u32::MAX][..], "the graph has 4 vertices"),
        (&[0, 2][..], "no arc 0 -> 2"),
        (&[0, 1, 2, 3, 3][..], "no arc 3 -> 3"),
    ] {
        match local_search(&g, path) {
            Err(Error::InvalidArgument { arg: "path", msg }) => {
                assert!(msg.contains(needle), "{path:?}: {msg}")
            }
            r => panic!("{path:?}: {r:?}"),
        }
    }
    // a repeated vertex joined by arcs both ways
    let g = Graph::from_edges(3, &[(0u32, 1u32, 1u32), (1, 0, 1), (1, 2, 1)]).unwrap();
    match local_search(&g, &[0, 1, 0, 1, 2]) {
        Err(Error::InvalidArgument { arg: "path", msg }) => {
            assert!(msg.contains("more than once"), "{msg}")
        }
        r => panic!("{r:?}"),
    }
    // a single vertex is a path of no arc, and stays one
    assert_eq!(local_search(&g, &[2]).unwrap(), vec![2]);
    assert_eq!(local_search(&g, &[0, 1, 2]).unwrap(), vec![0, 1, 2]);
}

#[test]
fn a_distance_table_the_host_cannot_hold_is_refused_before_the_search() {
    // 40,000 sources x 40,000 vertices: 19.2 GB of distances and predecessors
    let grid = grid(200, 200, 100, 0.0, 1).unwrap();
    let all: Vec<u32> = (0..40_000).collect();
    let avail = metaopt::device::host_memory_available().unwrap_or(u64::MAX);
    if avail > 19_200_000_000 {
        return eprintln!("skipped: the host has {avail} bytes available");
    }
    let mut sp = Sssp::new(&grid.graph, cpu()).unwrap();
    let t = Instant::now();
    match sp.sssp_multi(&all) {
        Err(Error::OutOfHostMemory(msg)) => {
            assert!(
                msg.contains("`sources`") && msg.contains("40000 sources"),
                "{msg}"
            )
        }
        r => panic!("{:?}", r.map(|r| r.n)),
    }
    assert!(t.elapsed().as_secs_f64() < 1.0);
}

#[test]
fn f64_distances_that_overflow_are_an_error_on_every_backend() {
    let text = "p sp 3 2\na 1 2 1e308\na 2 3 1e308\n";
    let g = Graph::parse_dimacs(text, Path::new("overflow.gr")).unwrap();
    let weights = |e: Error| match e {
        Error::InvalidArgument {
            arg: "weights",
            msg,
        } => {
            assert!(
                msg.contains("vertex 2") && msg.contains("infinity"),
                "{msg}"
            )
        }
        e => panic!("{e:?}"),
    };
    weights(dijkstra(&g, 0).unwrap_err());
    weights(Sssp::new(&g, cpu()).unwrap().sssp(0).unwrap_err());
    for local_memory in [true, false] {
        let o = SpOptions {
            local_memory,
            ..device()
        };
        weights(Sssp::new(&g, o).unwrap().sssp(0).unwrap_err());
    }
    // large weights whose paths do not overflow are no error
    let fine = "p sp 3 2\na 1 2 1e308\na 1 3 1e308\n";
    let g = Graph::parse_dimacs(fine, Path::new("fine.gr")).unwrap();
    for o in [cpu(), device()] {
        let r = Sssp::new(&g, o).unwrap().sssp(0).unwrap();
        assert_eq!(r.dist.get_f64(2), 1e308);
        assert_eq!(r.reached, 3);
    }
}

#[test]
fn f32_sums_that_overflow_on_the_device_are_an_error() {
    let g = Graph::from_edges(3, &[(0u32, 1u32, 3e38f32), (1, 2, 3e38)]).unwrap();
    for local_memory in [true, false] {
        let o = SpOptions {
            local_memory,
            ..device()
        };
        match Sssp::new(&g, o).unwrap().sssp(0).unwrap_err() {
            Error::InvalidArgument {
                arg: "weights",
                msg,
            } => {
                assert!(msg.contains("vertex 2"), "{msg}")
            }
            e => panic!("{e:?}"),
        }
    }
    // the CPU backend sums f32 weights in f64: finite
    let r = Sssp::new(&g, cpu()).unwrap().sssp(0).unwrap();
    assert_eq!(r.dist.get_f64(2), 3e38f32 as f64 + 3e38f32 as f64);
}

#[test]
fn non_finite_and_negative_weights_are_refused_naming_the_line() {
    for (w, what) in [
        ("nan", "NaN"),
        ("inf", "infinite"),
        ("-inf", "negative"),
        ("1e400", "infinite"),
        ("-2", "negative"),
        ("-0.5", "negative"),
    ] {
        let gr = format!("p sp 2 2\na 2 1 1\na 1 2 {w}\n");
        match Graph::parse_dimacs(&gr, Path::new("w.gr")).unwrap_err() {
            Error::Parse { line, msg, .. } => {
                assert_eq!(line, 3, "{w}: {msg}");
                assert!(msg.contains(what), "{w}: {msg}");
            }
            e => panic!("{e:?}"),
        }
        let mtx = format!("%%MatrixMarket matrix coordinate real general\n2 2 2\n2 1 1\n1 2 {w}\n");
        match Graph::parse_matrix_market(&mtx, Path::new("w.mtx")).unwrap_err() {
            Error::Parse { line, msg, .. } => {
                assert_eq!(line, 4, "{w}: {msg}");
                assert!(msg.contains(what), "{w}: {msg}");
            }
            e => panic!("{e:?}"),
        }
    }
}

#[test]
fn messages_quote_at_most_80_characters_with_control_characters_escaped() {
    let long = "7".repeat(1 << 20) + "x";
    let gr = format!("p sp 2 1\na 1 2 {long}\n");
    let msg = Graph::parse_dimacs(&gr, Path::new("long.gr"))
        .unwrap_err()
        .to_string();
    assert!(
        msg.len() < 200 && msg.contains("...") && msg.contains("long.gr:2"),
        "{msg}"
    );
    let ctl = "p sp 2 1\na 1 2 \u{1b}]0;title\u{7}\n";
    let msg = Graph::parse_dimacs(ctl, Path::new("ctl.gr"))
        .unwrap_err()
        .to_string();
    assert!(!msg.contains('\u{1b}') && !msg.contains('\u{7}'), "{msg:?}");
    assert!(msg.contains("\\u{1b}"), "{msg}");
    let head = format!("%%MatrixMarket matrix coordinate {long} general\n1 1 0\n");
    let msg = Graph::parse_matrix_market(&head, Path::new("long.mtx"))
        .unwrap_err()
        .to_string();
    assert!(msg.len() < 200, "{msg}");
}

#[test]
fn gzip_graph_files_are_read_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let text = "c small\np sp 3 3\na 1 2 4\na 2 3 1\na 1 3 9\n";
    let plain = Graph::parse_dimacs(text, Path::new("g.gr")).unwrap();
    let gz = write(dir.path(), "g.gr.gz", &gzip(text.as_bytes()));
    assert_eq!(Graph::from_dimacs(&gz).unwrap(), plain);
    let upper = write(dir.path(), "G.GR.GZ", &gzip(text.as_bytes()));
    assert_eq!(
        Graph::from_file(
            &upper,
            GraphFormat::of(&upper).unwrap(),
            OsmOptions::default()
        )
        .unwrap(),
        plain
    );
    let mtx = "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 1\n";
    let mgz = write(dir.path(), "g.mtx.gz", &gzip(mtx.as_bytes()));
    assert_eq!(GraphFormat::of(&mgz).unwrap(), GraphFormat::MatrixMarket);
    assert_eq!(
        Graph::from_matrix_market(&mgz).unwrap(),
        Graph::parse_matrix_market(mtx, Path::new("g.mtx")).unwrap()
    );
    // a gzip bomb: 100 MiB of blank lines in about 100 KB, past 64 MiB plus 100 times its size
    let mut bomb = String::from("p sp 2 1\na 1 2 1\n");
    bomb.push_str(&"\n".repeat(100 << 20));
    let b = write(dir.path(), "bomb.gr.gz", &gzip(bomb.as_bytes()));
    drop(bomb);
    match Graph::from_dimacs(&b).unwrap_err() {
        Error::Parse { path, line, msg } => {
            assert!(path.ends_with("bomb.gr.gz"));
            assert_eq!(line, 0);
            assert!(msg.contains("decompresses to more than"), "{msg}");
        }
        e => panic!("{e:?}"),
    }
    // a corrupt stream names the file
    let bad = write(dir.path(), "bad.gr.gz", b"\x1f\x8b\x08\x00garbage");
    match Graph::from_dimacs(&bad).unwrap_err() {
        Error::Io { path, .. } => assert!(path.ends_with("bad.gr.gz")),
        e => panic!("{e:?}"),
    }
    // gzip of a .osm.pbf is refused with the reason
    let msg = GraphFormat::of(Path::new("x.osm.pbf.gz"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("gzip is not supported"), "{msg}");
}

/// A protocol-buffers field: `num` with a varint (wire 0) or bytes (wire 2).
fn pb(num: u64, wire: u8, payload: &[u8], value: u64) -> Vec<u8> {
    fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let mut out = Vec::new();
    varint(num << 3 | wire as u64, &mut out);
    if wire == 0 {
        varint(value, &mut out);
    } else {
        varint(payload.len() as u64, &mut out);
        out.extend_from_slice(payload);
    }
    out
}

/// One PBF blob of `kind` holding `raw` zlib-compressed.
fn pbf_blob(kind: &str, raw: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(raw).unwrap();
    let z = z.finish().unwrap();
    let mut body = pb(2, 0, &[], raw.len() as u64);
    body.extend(pb(3, 2, &z, 0));
    let mut head = pb(1, 2, kind.as_bytes(), 0);
    head.extend(pb(3, 0, &[], body.len() as u64));
    let mut out = (head.len() as u32).to_be_bytes().to_vec();
    out.extend(head);
    out.extend(body);
    out
}

/// Protocol-buffers varints, back to back (a packed repeated field).
fn varints(vals: &[u64]) -> Vec<u8> {
    vals.iter()
        .flat_map(|&v| {
            // a field's own encoding, less its key
            let f = pb(1, 0, &[], v);
            f[1..].to_vec()
        })
        .collect()
}

/// Zigzag `sint64`s, packed.
fn sints(vals: &[i64]) -> Vec<u8> {
    varints(
        &vals
            .iter()
            .map(|&v| ((v << 1) ^ (v >> 63)) as u64)
            .collect::<Vec<_>>(),
    )
}

/// An OpenStreetMap PBF file of one `OSMData` block: two dense nodes (delta-coded ids `ids`,
/// latitudes `lats`, longitudes `lons`), one residential way through `refs` (delta-coded),
/// optional plain nodes `(id, lat, lon)`, and the block's `extra` fields (granularity, offsets).
fn osm_file(
    ids: &[i64],
    lats: &[i64],
    lons: &[i64],
    refs: &[i64],
    nodes: &[(i64, i64, i64)],
    extra: &[u8],
) -> Vec<u8> {
    let mut strings = pb(1, 2, b"", 0);
    strings.extend(pb(1, 2, b"highway", 0));
    strings.extend(pb(1, 2, b"residential", 0));
    let mut dense = pb(1, 2, &sints(ids), 0);
    dense.extend(pb(8, 2, &sints(lats), 0));
    dense.extend(pb(9, 2, &sints(lons), 0));
    let mut way = pb(1, 0, &[], 1);
    way.extend(pb(2, 2, &varints(&[1]), 0));
    way.extend(pb(3, 2, &varints(&[2]), 0));
    way.extend(pb(8, 2, &sints(refs), 0));
    let mut group = pb(2, 2, &dense, 0);
    for &(id, lat, lon) in nodes {
        let zz = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
        let mut n = pb(1, 0, &[], zz(id));
        n.extend(pb(8, 0, &[], zz(lat)));
        n.extend(pb(9, 0, &[], zz(lon)));
        group.extend(pb(1, 2, &n, 0));
    }
    let mut block = pb(1, 2, &strings, 0);
    block.extend(pb(2, 2, &group, 0));
    block.extend(pb(2, 2, &pb(3, 2, &way, 0), 0));
    block.extend_from_slice(extra);
    pbf_blob("OSMData", &block)
}

#[test]
fn an_osm_pbf_whose_numbers_overflow_is_refused_before_it_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    // 60.17 and 24.94 degrees in units of the default granularity (100 nanodegrees)
    let (lat, lon) = (601_700_000i64, 249_400_000i64);
    let good = osm_file(&[1, 1], &[lat, 1000], &[lon, 1000], &[1, 1], &[], &[]);
    let p = write(dir.path(), "good.osm.pbf", &good);
    let g = Graph::from_osm_pbf(&p, OsmOptions::default()).unwrap();
    assert_eq!((g.n(), g.m()), (2, 2));
    let c = g.coords().unwrap()[0];
    assert!(
        (c.0 - 60.17).abs() < 1e-9 && (c.1 - 24.94).abs() < 1e-9,
        "{c:?}"
    );
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "sum",
            osm_file(&[1, 1], &[lat, i64::MAX], &[lon, 0], &[1, 1], &[], &[]),
            "latitudes that overflow",
        ),
        (
            "granularity",
            osm_file(
                &[1, 1],
                &[lat, 0],
                &[lon, 0],
                &[1, 1],
                &[],
                &pb(17, 0, &[], 0),
            ),
            "granularity of 0",
        ),
        (
            "negative-granularity",
            osm_file(
                &[1, 1],
                &[lat, 0],
                &[lon, 0],
                &[1, 1],
                &[],
                &pb(17, 0, &[], u64::MAX),
            ),
            "granularity of -1",
        ),
        (
            "offset",
            osm_file(
                &[1, 1],
                &[lat, 0],
                &[lon, 0],
                &[1, 1],
                &[],
                &pb(19, 0, &[], i64::MAX as u64),
            ),
            "latitude of 9223372036854775807 + 100",
        ),
        (
            "lon-offset",
            osm_file(
                &[1, 1],
                &[lat, 0],
                &[lon, 0],
                &[1, 1],
                &[],
                &pb(20, 0, &[], (i64::MIN + 5) as u64),
            ),
            "longitude",
        ),
        (
            "ids",
            osm_file(&[i64::MAX, 1], &[lat, 0], &[lon, 0], &[1, 1], &[], &[]),
            "node ids that overflow",
        ),
        (
            "refs",
            osm_file(&[1, 1], &[lat, 0], &[lon, 0], &[i64::MIN, -1], &[], &[]),
            "way refs that overflow",
        ),
        (
            "node",
            osm_file(
                &[1, 1],
                &[lat, 0],
                &[lon, 0],
                &[1, 1],
                &[(7, i64::MAX / 50, 0)],
                &[],
            ),
            "latitude",
        ),
        (
            "range",
            osm_file(&[1, 1], &[lat, 400_000_000], &[lon, 0], &[1, 1], &[], &[]),
            "outside -90..90 degrees",
        ),
    ];
    for (name, file, needle) in cases {
        let p = write(dir.path(), &format!("{name}.osm.pbf"), &file);
        match Graph::from_osm_pbf(&p, OsmOptions::default()) {
            Err(Error::Parse { path, line, msg }) => {
                assert!(path.ends_with(format!("{name}.osm.pbf")), "{path:?}");
                assert_eq!(line, 0);
                assert!(
                    msg.contains("malformed data") && msg.contains(needle),
                    "{name}: {msg}"
                );
            }
            r => panic!("{name}: {r:?}"),
        }
    }
    // a last group whose length runs past the end of its block, holding way refs that
    // overflow: the decoder takes the end of the block as the end of the group and decodes the
    // refs, so a cut message is refused rather than left unchecked
    let mut way = pb(1, 0, &[], 1);
    way.extend(pb(2, 2, &varints(&[1]), 0));
    way.extend(pb(3, 2, &varints(&[2]), 0));
    way.extend(pb(8, 2, &sints(&[i64::MIN, -1]), 0));
    let group = pb(3, 2, &way, 0);
    let mut strings = pb(1, 2, b"", 0);
    strings.extend(pb(1, 2, b"highway", 0));
    strings.extend(pb(1, 2, b"residential", 0));
    let mut block = pb(1, 2, &strings, 0);
    block.push(0x12); // field 2, length-delimited
    block.extend(varints(&[group.len() as u64 + 40]));
    block.extend(&group);
    let p = write(dir.path(), "cut.osm.pbf", &pbf_blob("OSMData", &block));
    match Graph::from_osm_pbf(&p, OsmOptions::default()) {
        Err(Error::Parse { msg, .. }) => assert!(
            msg.contains("malformed data") && msg.contains("a block cut or malformed"),
            "{msg}"
        ),
        r => panic!("{r:?}"),
    }
    // a pipe or a device is refused, never read
    match Graph::from_osm_pbf(Path::new("/dev/zero"), OsmOptions::default()) {
        Err(Error::Parse { msg, .. }) => assert!(msg.contains("not a regular file"), "{msg}"),
        r => panic!("{r:?}"),
    }
}

#[test]
fn an_osm_pbf_zlib_bomb_is_refused_before_it_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    // eight blobs of 16 MiB of zeros: 128 MiB from about 130 KB
    let zeros = vec![0u8; 16 << 20];
    let one = pbf_blob("OSMData", &zeros);
    let file: Vec<u8> = (0..8).flat_map(|_| one.iter().copied()).collect();
    assert!(file.len() < 200_000, "{}", file.len());
    let p = write(dir.path(), "bomb.osm.pbf", &file);
    let t = Instant::now();
    match Graph::from_osm_pbf(&p, OsmOptions::default()).unwrap_err() {
        Error::Parse { path, line, msg } => {
            assert!(path.ends_with("bomb.osm.pbf"));
            assert_eq!(line, 0);
            assert!(msg.contains("decompress to more than"), "{msg}");
        }
        e => panic!("{e:?}"),
    }
    assert!(t.elapsed().as_secs_f64() < 5.0);
    assert_eq!(max_osm_decompressed(0), 8 << 20);
    assert_eq!(max_osm_decompressed(u64::MAX), 8 << 30);
    // a blob header or a blob past the format's limits
    let mut huge = 70_000u32.to_be_bytes().to_vec();
    huge.extend(vec![0u8; 16]);
    let p = write(dir.path(), "header.osm.pbf", &huge);
    let msg = Graph::from_osm_pbf(&p, OsmOptions::default())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("blob header of 70000 bytes"), "{msg}");
    let mut head = pb(1, 2, b"OSMData", 0);
    head.extend(pb(3, 0, &[], 1 << 30));
    let mut big = (head.len() as u32).to_be_bytes().to_vec();
    big.extend(head);
    let p = write(dir.path(), "blob.osm.pbf", &big);
    let msg = Graph::from_osm_pbf(&p, OsmOptions::default())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("a blob of 1073741824 bytes"), "{msg}");
    // a stream whose checksum fails: the decoder would take its data unchecked
    let mut bad = pbf_blob("OSMData", b"\x0a\x00");
    *bad.last_mut().unwrap() ^= 0xff;
    let p = write(dir.path(), "checksum.osm.pbf", &bad);
    let msg = Graph::from_osm_pbf(&p, OsmOptions::default())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("corrupt zlib stream"), "{msg}");
    assert!(msg.contains("checksum.osm.pbf"), "{msg}");
    // a blob or a blob header cut by the end of the file: the decoder would decode what the
    // cut part holds
    let whole = pbf_blob("OSMData", b"\x0a\x00");
    for (name, keep) in [("cut-blob", whole.len() - 3), ("cut-header", 7)] {
        let p = write(dir.path(), &format!("{name}.osm.pbf"), &whole[..keep]);
        let msg = Graph::from_osm_pbf(&p, OsmOptions::default())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("cut by the end of the file"), "{name}: {msg}");
    }
}
