//! Shortest paths, ACO and the Voronoi diagram under a time limit, a stop token and
//! `metaopt::interrupt`: each call on an instance far too large for its limit returns within a
//! second of it (PoCL's two cores included). ACO returns its best path so far with the stop reason;
//! the exact computations return `Error::TimeLimit` or `Error::Interrupted` and nothing else.
//!
//! The global interrupt stops every call of the process, so the tests that use it run in a process
//! of their own (`own_process!`).

use crate::common::child::own_process;
use metaopt::aco::{path_length, Aco, AcoOptions, AcoRunResult};
use metaopt::awvd::{self, AwvdOptions, Ball};
use metaopt::device::Backend;
use metaopt::problem::graph::{dijkstra, grid, Graph};
use metaopt::run::Stop;
use metaopt::sp::{SpMethod, SpOptions, SpSsspMultiResult, Sssp};
use metaopt::{Error, Result, StopReason, StopToken};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// The limit of every test: far below what the instances need.
const LIMIT: Duration = Duration::from_millis(300);
/// How late a call may return after its limit or its stop (one launch, on PoCL's two cores).
const SLACK: Duration = Duration::from_secs(1);

/// A 1000 x 1000 unit grid: a million vertices, Bellman-Ford needs about 2,000 rounds over all of
/// them per source.
fn big_grid() -> &'static Graph {
    static G: OnceLock<Graph> = OnceLock::new();
    G.get_or_init(|| grid(1000, 1000, 1, 0.0, 1).unwrap().graph)
}

/// The four corners of [`big_grid`].
const CORNERS: [u32; 4] = [0, 999, 999_000, 999_999];

/// A 20 x 20 grid for ACO from corner to corner, [`FROM`] to [`TO`] (a million iterations take
/// minutes; ants reach the target in the first iterations).
fn aco_grid() -> Graph {
    grid(20, 20, 100, 0.0, 1).unwrap().graph
}

const FROM: u32 = 0;
const TO: u32 = 399;

/// 100,000 random balls in a cube of side 140 Å (about as dense as atoms).
fn many_balls() -> &'static [Ball] {
    static B: OnceLock<Vec<Ball>> = OnceLock::new();
    B.get_or_init(|| {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..100_000)
            .map(|_| Ball {
                c: [140.0 * next(), 140.0 * next(), 140.0 * next()],
                r: 1.0 + next(),
            })
            .collect()
    })
}

fn sssp(
    backend: Backend,
    method: SpMethod,
    sources: &[u32],
    o: SpOptions,
) -> Result<SpSsspMultiResult> {
    let start = Instant::now();
    let o = SpOptions {
        method,
        backend,
        local_memory: false,
        ..o
    };
    Sssp::new(big_grid(), o)?.sssp_multi_since(sources, start)
}

/// Runs `call` in a thread, stops it after 0.3 s (the global interrupt, or `token`), and returns
/// its result once it checked that the call returned within [`SLACK`] of the stop.
fn stop_after<T: Send + 'static>(
    token: Option<&StopToken>,
    call: impl FnOnce() -> T + Send + 'static,
) -> T {
    let t = thread::spawn(call);
    thread::sleep(LIMIT);
    assert!(!t.is_finished(), "the call ended by itself before the stop");
    let t0 = Instant::now();
    match token {
        Some(t) => t.request(),
        None => metaopt::interrupt(),
    }
    let r = t.join().unwrap();
    let took = t0.elapsed();
    assert!(took < SLACK, "returned {took:?} after the stop");
    r
}

/// The call's error is the cut-short error `want` (its number in the C table too).
fn assert_cut_short<T: std::fmt::Debug>(r: Result<T>, interrupted: bool) {
    match r {
        Err(Error::Interrupted(m)) if interrupted => assert!(m.contains("no result"), "{m}"),
        Err(Error::TimeLimit(m)) if !interrupted => {
            assert!(m.contains("time limit"), "{m}");
            assert_eq!(Error::TimeLimit(m).code(), 19);
        }
        other => panic!(
            "expected the {} error, got {other:?}",
            if interrupted {
                "interrupted"
            } else {
                "time-limit"
            }
        ),
    }
}

#[test]
fn sssp_past_its_time_limit_is_an_error_with_no_result() {
    for (backend, method, sources) in [
        (Backend::DEVICE, SpMethod::BellmanFordPull, &CORNERS[..]),
        (
            Backend::DEVICE,
            SpMethod::NearFar { delta: None },
            &CORNERS[..],
        ),
        // Dijkstra takes about a second per source on a core
        (
            Backend::Cpu,
            SpMethod::default(),
            &[0, 999, 999_000, 999_999, 500_500, 1, 2, 3][..],
        ),
    ] {
        let t0 = Instant::now();
        let r = sssp(
            backend,
            method,
            sources,
            SpOptions {
                stop: Stop::time_limit(LIMIT),
                ..SpOptions::default()
            },
        );
        let took = t0.elapsed();
        assert_cut_short(r, false);
        assert!(took < LIMIT + SLACK, "{backend:?} {method:?}: {took:?}");
    }
}

#[test]
fn sssp_stops_at_its_token() {
    for (backend, method) in [
        (Backend::DEVICE, SpMethod::BellmanFordPull),
        (Backend::Cpu, SpMethod::default()),
    ] {
        let token = StopToken::new();
        let o = SpOptions {
            stop: Stop {
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..SpOptions::default()
        };
        let sources: Vec<u32> = (0..8).map(|i| i * 124_999).collect();
        let r = stop_after(Some(&token), move || sssp(backend, method, &sources, o));
        assert_cut_short(r, true);
        // a requested token stops the next call at once; reset, it serves again
        let small = grid(20, 20, 5, 0.0, 1).unwrap().graph;
        let o = SpOptions {
            backend,
            stop: Stop {
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..SpOptions::default()
        };
        assert_cut_short(Sssp::new(&small, o.clone()).unwrap().sssp(0), true);
        token.reset();
        let r = Sssp::new(&small, o).unwrap().sssp(0).unwrap();
        assert_eq!(r.dist, dijkstra(&small, 0).unwrap().dist);
    }
}

/// The local-memory path (one work-group per source) launches its sources in pieces: a token
/// stops all sources of a 60 x 60 grid between two of them.
#[test]
fn sssp_local_path_stops_between_its_pieces() {
    let g: &'static Graph = Box::leak(Box::new(grid(60, 60, 100, 0.0, 1).unwrap().graph));
    let token = StopToken::new();
    let o = SpOptions {
        backend: Backend::DEVICE,
        stop: Stop {
            token: Some(token.clone()),
            ..Stop::default()
        },
        ..SpOptions::default()
    };
    let mut sp = Sssp::new(g, o).unwrap();
    assert!(
        sp.describe().contains("local-memory path ("),
        "{}",
        sp.describe()
    );
    let all: Vec<u32> = (0..g.n() as u32).collect();
    let r = stop_after(Some(&token), move || sp.sssp_multi(&all).map(|r| r.rounds));
    assert_cut_short(r, true);
}

/// A million iterations, the best path so far valid.
fn check_best(g: &Graph, r: &AcoRunResult) {
    assert!(
        r.iterations > 0 && r.iterations < 1_000_000,
        "{}",
        r.iterations
    );
    let b = r
        .best
        .as_ref()
        .expect("ants reach the target in the first iterations");
    assert_eq!((b.vertices[0], *b.vertices.last().unwrap()), (FROM, TO));
    assert_eq!(path_length(g, &b.vertices).unwrap().0, b.length);
    assert!(b.length >= r.exact_length.unwrap());
}

fn aco_options(token: Option<StopToken>, limit: Option<Duration>) -> AcoOptions {
    AcoOptions {
        seed: 3,
        // no budget where the time limit or the token ends the run (the global interrupt alone
        // is no stop the options can check: a million iterations take minutes)
        stop: Stop {
            budget: (limit.is_none() && token.is_none()).then_some(1_000_000),
            time_limit: limit,
            token,
            ..Stop::default()
        },
        ..AcoOptions::default()
    }
}

#[test]
fn aco_returns_its_best_path_at_its_time_limit() {
    let g = aco_grid();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let mut aco = Aco::new(&g, aco_options(None, Some(LIMIT)), backend).unwrap();
        let t0 = Instant::now();
        let r = aco.run(FROM, TO).unwrap();
        let took = t0.elapsed();
        assert_eq!(r.stop, StopReason::TimeLimit, "{backend:?}");
        assert!(
            took >= LIMIT && took < LIMIT + SLACK,
            "{backend:?}: {took:?}"
        );
        check_best(&g, &r);
    }
    // its own stops: the iterations, max_no_improve, and no iteration when none is needed
    let o = AcoOptions {
        stop: Stop::budget(4),
        ..AcoOptions::default()
    };
    let r = Aco::new(&g, o.clone(), Backend::Cpu)
        .unwrap()
        .run(FROM, TO)
        .unwrap();
    assert_eq!((r.stop, r.iterations), (StopReason::Budget, 4));
    let r = Aco::new(&g, o.clone(), Backend::Cpu)
        .unwrap()
        .run(FROM, FROM)
        .unwrap();
    assert_eq!((r.stop, r.iterations), (StopReason::Done, 0));
    let o = AcoOptions {
        stop: Stop::budget(100_000),
        max_no_improve: Some(3),
        ..o
    };
    let r = Aco::new(&g, o, Backend::Cpu)
        .unwrap()
        .run(FROM, TO)
        .unwrap();
    assert_eq!(r.stop, StopReason::Stagnation);
    assert!(
        r.iterations >= 3 && r.iterations < 100_000,
        "{}",
        r.iterations
    );
}

#[test]
fn aco_stops_at_its_token_with_its_best_path() {
    let g = aco_grid();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let token = StopToken::new();
        let mut aco = Aco::new(&g, aco_options(Some(token.clone()), None), backend).unwrap();
        let r = stop_after(Some(&token), move || aco.run(FROM, TO).unwrap());
        assert_eq!(r.stop, StopReason::Interrupted, "{backend:?}");
        check_best(&g, &r);
    }
}

#[test]
fn awvd_past_its_time_limit_is_an_error_with_no_result() {
    let balls = many_balls();
    let limited = AwvdOptions {
        stop: Stop::time_limit(LIMIT),
        ..AwvdOptions::default()
    };
    let t0 = Instant::now();
    let r = awvd::awvd_cpu(balls, &limited);
    let took = t0.elapsed();
    assert_cut_short(r, false);
    assert!(took < LIMIT + SLACK, "CPU: {took:?}");
    // on a CPU device the first launches of a piece size compile the kernel: a first call with
    // a longer limit makes them before the one that is timed
    let warm = AwvdOptions {
        stop: Stop::time_limit(Duration::from_secs(3)),
        ..AwvdOptions::default()
    };
    assert_cut_short(
        awvd::device::awvd_device(balls, &warm, Backend::DEVICE, false),
        false,
    );
    let t0 = Instant::now();
    let r = awvd::device::awvd_device(balls, &limited, Backend::DEVICE, false);
    let took = t0.elapsed();
    assert_cut_short(r, false);
    assert!(took < LIMIT + SLACK, "device: {took:?}");
}

#[test]
fn awvd_stops_at_its_token() {
    for cpu in [true, false] {
        let token = StopToken::new();
        let o = AwvdOptions {
            stop: Stop {
                token: Some(token.clone()),
                ..Stop::default()
            },
            ..AwvdOptions::default()
        };
        // the device's program built before, so that the stop comes while it traces
        let dev =
            (!cpu).then(|| awvd::device::AwvdDevice::new(Backend::DEVICE, false, 1e-3).unwrap());
        let r = stop_after(Some(&token), move || {
            let balls = many_balls();
            match dev {
                None => awvd::awvd_cpu(balls, &o),
                Some(d) => d.diagram(balls, &o),
            }
            .map(|d| d.vertices.len())
        });
        assert_cut_short(r, true);
    }
}

/// `metaopt::interrupt` (what Ctrl-C calls in the CLI and in Python) stops all three, on the device
/// and on the CPU.
#[test]
fn the_global_interrupt_stops_sp_aco_and_awvd() {
    own_process!();
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let method = match backend {
            Backend::Cpu => SpMethod::default(),
            _ => SpMethod::BellmanFordPull,
        };
        // made before: a call snapshots the interrupt count when it starts, and the program build
        // of Sssp::new could outlast the 0.3 s before the interrupt
        let o = SpOptions {
            method,
            backend,
            local_memory: false,
            ..SpOptions::default()
        };
        let mut sp = Sssp::new(big_grid(), o).unwrap();
        let sources: Vec<u32> = (0..8).map(|i| i * 124_999).collect();
        let r = stop_after(None, move || sp.sssp_multi(&sources));
        assert_cut_short(r, true);
        let g = aco_grid();
        let mut aco = Aco::new(&g, aco_options(None, None), backend).unwrap();
        let r = stop_after(None, move || aco.run(FROM, TO).unwrap());
        assert_eq!(r.stop, StopReason::Interrupted, "{backend:?}");
        check_best(&g, &r);
        let dev = (backend != Backend::Cpu)
            .then(|| awvd::device::AwvdDevice::new(backend, false, 1e-3).unwrap());
        let r = stop_after(None, move || {
            let o = AwvdOptions::default();
            match dev {
                None => awvd::awvd_cpu(many_balls(), &o),
                Some(d) => d.diagram(many_balls(), &o),
            }
            .map(|d| d.vertices.len())
        });
        assert_cut_short(r, true);
    }
}
