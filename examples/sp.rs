//! Exact shortest paths (docs/specs/SP.md, "Exact solvers") on the Helsinki road graph: one
//! source by each device method, all sources in one call, and the CPU backend, with traversed
//! edges per second (Gunrock's definition: arcs whose tail is reached).
//!
//! ```text
//! cargo run --release --example sp -- [graph.osm.pbf] [sources] [cpu]
//! ```
//! Defaults: data/graphs/helsinki.osm.pbf (rounded-metre u32 weights), 64 sources, the default
//! device. Prints `farthest <metres>` from vertex 0 and `checked <k>` after comparing the
//! multi-source rows with host Dijkstra.

use metaopt::device::Backend;
use metaopt::problem::graph::{dijkstra, Graph, OsmOptions, OsmWeights};
use metaopt::sp::{SpMethod, SpOptions, Sssp};
use std::path::PathBuf;
use std::time::Instant;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map(PathBuf::from).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/graphs/helsinki.osm.pbf").into()
    });
    let k: usize = args
        .get(1)
        .map_or(64, |s| s.parse().expect("sources is a count"));
    let backend = if args.get(2).map(String::as_str) == Some("cpu") {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };
    let g = Graph::from_osm_pbf(
        &path,
        OsmOptions {
            weights: OsmWeights::RoundedMetres,
            ..Default::default()
        },
    )?;
    println!("{}: {} vertices, {} arcs", path.display(), g.n(), g.m());

    for method in [
        SpMethod::BellmanFordPull,
        SpMethod::Frontier,
        SpMethod::NearFar { delta: None },
    ] {
        let mut sp = Sssp::new(
            &g,
            SpOptions {
                method,
                backend,
                ..Default::default()
            },
        )?;
        let t = Instant::now();
        let r = sp.sssp(0)?;
        let s = t.elapsed().as_secs_f64();
        let far = r.dist.get_f64(
            (0..g.n())
                .filter(|&v| r.dist.reachable(v))
                .max_by(|&a, &b| r.dist.get_f64(a).total_cmp(&r.dist.get_f64(b)))
                .unwrap_or(0),
        );
        println!(
            "{method:?}: reached {}, {} rounds, {:.3} s, {:.1} MTEPS; farthest {far}",
            r.reached,
            r.rounds,
            s,
            r.edges as f64 / s / 1e6
        );
    }

    let sources: Vec<u32> = (0..k.min(g.n()))
        .map(|i| (i * g.n() / k.max(1)) as u32)
        .collect();
    let mut sp = Sssp::new(
        &g,
        SpOptions {
            backend,
            ..Default::default()
        },
    )?;
    println!("{}", sp.describe());
    let t = Instant::now();
    let m = sp.sssp_multi(&sources)?;
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} sources in one call: {:.3} s, {:.1} MTEPS",
        sources.len(),
        s,
        m.edges.iter().sum::<u64>() as f64 / s / 1e6
    );
    for (i, &src) in sources.iter().enumerate().take(8) {
        assert_eq!(m.row(i).dist, dijkstra(&g, src)?.dist, "source {src}");
    }
    println!("checked {}", sources.len().min(8));
    Ok(())
}
