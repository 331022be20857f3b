//! Shortest-path timings (docs/specs/SP.md, "Exact solvers"); a fallback of
//! `metaopt bench sp`.
//!
//! ```text
//! cargo run --release --example sp_bench -- grid 4900 [deltas=200,800] [cpu] [noref] [check]  # single source at the centre, per method
//! cargo run --release --example sp_bench -- all            # every Helsinki source: device vs CPU
//! cargo run --release --example sp_bench -- helsinki       # one Helsinki source, per path
//! ```
//! Grids: `problem::graph::grid(side, side, 100, 0.0, 7)`. Helsinki: data/graphs/helsinki.osm.pbf,
//! rounded-metre u32 weights. Each timing is one call after `Sssp::new` (program built, graph
//! uploaded) and one untimed warm-up call (`all`: of 64 sources, then a first and a second call
//! of all); MTEPS = traversed edges (arcs whose tail is reached) / seconds. Results are checked against host Dijkstra (a few rows for `all`).

use metaopt::device::Backend;
use metaopt::problem::graph::{dijkstra, grid, Distances, Graph, OsmOptions, OsmWeights};
use metaopt::sp::{SpMethod, SpOptions, Sssp};
use std::time::Instant;

fn time_one(
    g: &Graph,
    name: &str,
    o: SpOptions,
    source: u32,
    warm: bool,
    reference: Option<&Distances>,
) -> metaopt::Result<()> {
    let mut sp = Sssp::new(g, o)?;
    if warm {
        sp.sssp(source)?;
    }
    let t = Instant::now();
    let r = sp.sssp(source)?;
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name:<28} {:>7} rounds {:>9.4} s {:>8.1} MTEPS  reached {}",
        r.rounds,
        s,
        r.edges as f64 / s / 1e6,
        r.reached
    );
    if let Some(d) = reference {
        assert_eq!(&r.dist, d, "{name}: distances differ from host Dijkstra");
    }
    Ok(())
}

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("all", String::as_str);
    let dev = Backend::DEVICE;
    let methods = [
        (
            "default options (local if fits)",
            SpOptions {
                backend: dev,
                ..Default::default()
            },
        ),
        (
            "pull",
            SpOptions {
                method: SpMethod::BellmanFordPull,
                backend: dev,
                local_memory: false,
                ..Default::default()
            },
        ),
        (
            "frontier",
            SpOptions {
                method: SpMethod::Frontier,
                backend: dev,
                local_memory: false,
                ..Default::default()
            },
        ),
        (
            "near-far (default delta)",
            SpOptions {
                method: SpMethod::NearFar { delta: None },
                backend: dev,
                local_memory: false,
                ..Default::default()
            },
        ),
        (
            "near-far delta 400",
            SpOptions {
                method: SpMethod::NearFar { delta: Some(400.0) },
                backend: dev,
                local_memory: false,
                ..Default::default()
            },
        ),
    ];
    match what {
        "grid" => {
            let side: usize = args
                .get(1)
                .map_or(4900, |s| s.parse().expect("side is a number"));
            let gr = grid(side, side, 100, 0.0, 7)?;
            let g = &gr.graph;
            let source = ((side / 2) * side + side / 2) as u32;
            println!(
                "grid {side} x {side}: {} vertices, {} arcs, source {source}",
                g.n(),
                g.m()
            );
            println!("{}", Sssp::new(g, methods[0].1.clone())?.describe());
            // `check`: every method's distances against host Dijkstra
            let reference = if args.iter().any(|a| a == "check") {
                Some(dijkstra(g, source)?.dist)
            } else {
                None
            };
            let reference = reference.as_ref();
            for (name, o) in &methods {
                if *name == "pull" && g.n() > 1_000_000 {
                    continue; // hop depth x n work: minutes on the large grid
                }
                time_one(g, name, o.clone(), source, true, reference)?;
            }
            // `deltas=200,800`: more near-far runs with these deltas
            if let Some(list) = args.iter().find_map(|a| a.strip_prefix("deltas=")) {
                for d in list.split(',') {
                    let d: f64 = d.parse().expect("deltas=D1,D2,... are numbers");
                    let o = SpOptions {
                        method: SpMethod::NearFar { delta: Some(d) },
                        backend: dev,
                        local_memory: false,
                        ..Default::default()
                    };
                    time_one(
                        g,
                        &format!("near-far delta {d}"),
                        o,
                        source,
                        true,
                        reference,
                    )?;
                }
            }
            if args.iter().any(|a| a == "cpu") {
                time_one(
                    g,
                    "CPU backend",
                    SpOptions {
                        backend: Backend::Cpu,
                        ..Default::default()
                    },
                    source,
                    false,
                    reference,
                )?;
            }
            if args.iter().any(|a| a == "noref") {
                return Ok(());
            }
            let t = Instant::now();
            dijkstra(g, source)?;
            println!(
                "host dijkstra (reference) {:.3} s",
                t.elapsed().as_secs_f64()
            );
        }
        "helsinki" | "all" => {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/graphs/helsinki.osm.pbf");
            let g = Graph::from_osm_pbf(
                path.as_ref(),
                OsmOptions {
                    weights: OsmWeights::RoundedMetres,
                    ..Default::default()
                },
            )?;
            println!("Helsinki: {} vertices, {} arcs", g.n(), g.m());
            println!("{}", Sssp::new(&g, methods[0].1.clone())?.describe());
            if what == "helsinki" {
                for (name, o) in &methods {
                    time_one(&g, name, o.clone(), 0, true, None)?;
                }
                time_one(
                    &g,
                    "CPU backend",
                    SpOptions {
                        backend: Backend::Cpu,
                        ..Default::default()
                    },
                    0,
                    false,
                    None,
                )?;
                return Ok(());
            }
            let sources: Vec<u32> = (0..g.n() as u32).collect();
            let mut cpu = Sssp::new(
                &g,
                SpOptions {
                    backend: Backend::Cpu,
                    ..Default::default()
                },
            )?;
            let t = Instant::now();
            let c = cpu.sssp_multi(&sources)?;
            let cpu_s = t.elapsed().as_secs_f64();
            println!(
                "{:<28} {:>9.4} s ({} rayon threads)",
                "CPU backend, all sources",
                cpu_s,
                rayon::current_num_threads()
            );
            for (name, o) in &methods {
                let mut sp = Sssp::new(&g, o.clone())?;
                sp.sssp_multi(&sources[..64])?;
                // the first full call also allocates the device buffers (and, first on this
                // device, the pinned staging); the second is what repeated calls cost
                for call in ["first call", "second call"] {
                    let t = Instant::now();
                    let m = sp.sssp_multi(&sources)?;
                    let s = t.elapsed().as_secs_f64();
                    println!(
                        "{name:<28} {call:<11} {:>9.4} s {:>7} rounds, {:>6.1}x the CPU backend, {:.0} MTEPS",
                        s,
                        m.rounds,
                        cpu_s / s,
                        m.edges.iter().sum::<u64>() as f64 / s / 1e6
                    );
                    assert_eq!(
                        m.dist, c.dist,
                        "{name}: distances differ from the CPU backend"
                    );
                    assert_eq!(
                        m.pred, c.pred,
                        "{name}: predecessors differ from the CPU backend"
                    );
                }
            }
        }
        other => panic!("unknown benchmark {other}; use grid [side] [cpu], helsinki or all"),
    }
    Ok(())
}
