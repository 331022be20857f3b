//! Several devices of one machine (src/multi.rs, docs/specs/SCALE.md): PoCL posing as three devices
//! (`POCL_DEVICES="pthread pthread pthread"`, one compute unit each), each test in a process of
//! its own that has them from its start. Split invariance: for a seed, the result on 1, 2 and 3
//! devices is identical (QAP tabu chains with the elite pool and restarts, batched DE, SSSP
//! sources, QIGA populations), and equal to the CPU backend or host Dijkstra where those are
//! exact; bad device lists are refused naming `devices`.

use crate::common::child::several_devices;
use crate::common::need::{needs, Need};
use metaopt::de::{BatchDe, BatchOptions, BatchProblem};
use metaopt::device::{list_devices, Backend};
use metaopt::multi::{check_devices, parse_devices};
use metaopt::problem::graph::{dijkstra, thesis_random};
use metaopt::problem::knapsack::{GenerateOptions, Knapsack, KnapsackKind};
use metaopt::problem::qap::{QapInstance, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions};
use metaopt::qiga::{Qiga, QigaOptions, RotationTable};
use metaopt::run::Stop;
use metaopt::sp::{SpOptions, Sssp};
use metaopt::Error;
use std::path::Path;
use std::sync::Arc;

/// The device lists of the split tests: one device, two, three (when there are three).
fn splits() -> Vec<Vec<usize>> {
    let n = list_devices().unwrap().len().min(3);
    (1..=n).map(|k| (0..k).collect()).collect()
}

fn arg_name(e: Error) -> &'static str {
    match e {
        Error::InvalidArgument { arg, .. } => arg,
        e => panic!("expected an invalid argument, got {e}"),
    }
}

#[test]
fn qap_chains_split_invariant_with_elite_pool() {
    several_devices!();
    let inst =
        QapInstance::from_dat(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib/nug12.dat"))
            .unwrap();
    let problem = Arc::new(QapProblem::from_instance(&inst));
    // short stagnation: chains restart from the elite pool, so the pool's order matters
    let opts = QapTsOptions {
        chains: 7,
        stop: metaopt::run::Stop::budget(1500),
        launch_iterations: 150,
        seed: 9,
        elite_size: 4,
        stagnation: Some(60),
        ..Default::default()
    };
    let cpu = QapTs::new(problem.clone(), Backend::Cpu)
        .unwrap()
        .solve(&opts)
        .unwrap();
    assert!(cpu.restarts > 0, "the test needs restarts from the pool");
    let perm: Vec<usize> = cpu.permutation.clone();
    assert_eq!(
        problem.cost(&perm).unwrap(),
        cpu.cost,
        "the reported cost is the permutation's"
    );
    for devs in splits() {
        let r = QapTs::on_devices(problem.clone(), &devs)
            .unwrap()
            .solve(&opts)
            .unwrap();
        assert_eq!(
            (r.cost, &r.permutation, r.restarts, r.iterations, r.launches),
            (
                cpu.cost,
                &cpu.permutation,
                cpu.restarts,
                cpu.iterations,
                cpu.launches
            ),
            "devices {devs:?}"
        );
        assert_eq!(
            r.backend.matches(" + ").count(),
            devs.len() - 1,
            "{}",
            r.backend
        );
    }
    // more devices than chains is refused naming devices
    let few = QapTsOptions {
        chains: 1,
        ..opts.clone()
    };
    let e = QapTs::on_devices(problem.clone(), &[0, 1])
        .unwrap()
        .solve(&few)
        .unwrap_err();
    assert_eq!(arg_name(e), "devices");
}

#[test]
fn batched_de_split_invariant() {
    several_devices!();
    let problems: Vec<BatchProblem> = (0..7)
        .map(|i| {
            let mut p = BatchProblem::new(["F1", "F5", "F8"][i % 3], 4 + i as u32 % 3, -5.0, 5.0);
            p.seed = 100 + i as u64;
            p.max_generations = 120 + 10 * i as u64;
            p
        })
        .collect();
    let one = BatchDe::new(
        problems.clone(),
        Backend::Device(Some(0)),
        BatchOptions::default(),
    )
    .unwrap()
    .run(&Stop::default())
    .unwrap();
    assert_eq!(one.len(), 7);
    for (i, r) in one.iter().enumerate() {
        assert_eq!(
            r.generations,
            120 + 10 * i as u64,
            "problem {i} ran its budget"
        );
        assert!(r.best_value.is_finite() && r.best.len() == 4 + i % 3);
    }
    for devs in splits() {
        let mut de = BatchDe::on_devices(problems.clone(), &devs, BatchOptions::default()).unwrap();
        let r = de.run(&Stop::default()).unwrap();
        assert_eq!(r, one, "devices {devs:?}");
        assert_eq!(
            de.results().unwrap(),
            one,
            "results() after the run, devices {devs:?}"
        );
    }
    assert_eq!(
        arg_name(
            BatchDe::on_devices(problems.clone(), &[0, 9], BatchOptions::default())
                .err()
                .unwrap()
        ),
        "devices"
    );
    assert_eq!(
        arg_name(
            BatchDe::on_devices(problems[..1].to_vec(), &[0, 1], BatchOptions::default())
                .err()
                .unwrap()
        ),
        "devices"
    );
}

#[test]
fn sssp_sources_split_invariant() {
    several_devices!();
    let g = thesis_random(7, 3, 5).unwrap();
    let sources: Vec<u32> = (0..g.n() as u32).step_by(11).collect();
    assert!(sources.len() >= 3);
    let mut one = Sssp::new(
        &g,
        SpOptions {
            backend: Backend::Device(Some(0)),
            ..Default::default()
        },
    )
    .unwrap();
    let base = one.sssp_multi(&sources).unwrap();
    for (i, &s) in sources.iter().enumerate() {
        let d = dijkstra(&g, s).unwrap();
        let row = base.row(i);
        assert_eq!(row.dist, d.dist, "source {s} against host Dijkstra");
    }
    for devs in splits() {
        let mut sp = Sssp::new(
            &g,
            SpOptions {
                devices: devs.clone(),
                ..Default::default()
            },
        )
        .unwrap();
        let r = sp.sssp_multi(&sources).unwrap();
        assert_eq!(
            (&r.sources, &r.dist, &r.pred, &r.reached, &r.edges),
            (
                &base.sources,
                &base.dist,
                &base.pred,
                &base.reached,
                &base.edges
            ),
            "devices {devs:?}"
        );
        // fewer sources than devices: the empty blocks are skipped
        let r1 = sp.sssp_multi(&sources[..1]).unwrap();
        assert_eq!(r1.row(0).dist, base.row(0).dist);
    }
    assert_eq!(
        arg_name(
            Sssp::new(
                &g,
                SpOptions {
                    devices: vec![1, 1],
                    ..Default::default()
                }
            )
            .err()
            .unwrap()
        ),
        "devices"
    );
}

#[test]
fn qiga_populations_split_invariant() {
    several_devices!();
    let k = Knapsack::generate(&GenerateOptions {
        kind: KnapsackKind::WeaklyCorrelated,
        items: 60,
        range: 100,
        seed: 8,
        ..Default::default()
    })
    .unwrap();
    let o = |devices: Vec<usize>| QigaOptions {
        populations: 5,
        individuals: 8,
        stop: metaopt::run::Stop::budget(40),
        tables: vec![RotationTable::gqa2000()],
        seed: 77,
        backend: Backend::Device(Some(0)),
        devices,
        launch_populations: Some(1),
        ..Default::default()
    };
    let base = Qiga::new(&k, o(Vec::new())).unwrap().run().unwrap();
    for devs in splits() {
        let r = Qiga::new(&k, o(devs.clone())).unwrap().run().unwrap();
        assert_eq!(r.population, base.population, "devices {devs:?}");
        assert_eq!(r.best_value_int, base.best_value_int, "devices {devs:?}");
        assert_eq!(r.best_bits, base.best_bits, "devices {devs:?}");
        assert_eq!(r.best_generation, base.best_generation, "devices {devs:?}");
    }
    for (i, &v) in base.best_value_int.iter().enumerate() {
        assert_eq!(
            k.value_and_weight(base.bits(i)).0,
            v,
            "population {i}'s string is worth its value"
        );
    }
    assert_eq!(
        arg_name(Qiga::new(&k, o(vec![0, 0])).err().unwrap()),
        "devices"
    );
}

#[test]
fn bad_device_lists_name_devices() {
    several_devices!();
    let n = list_devices().unwrap().len();
    assert_eq!(parse_devices("all").unwrap(), (0..n).collect::<Vec<_>>());
    assert_eq!(parse_devices(" 1, 0 ").unwrap(), vec![1, 0]);
    for bad in ["0,0", "9", "", "0,x", "-1"] {
        assert_eq!(
            arg_name(parse_devices(bad).unwrap_err()),
            "devices",
            "{bad:?}"
        );
    }
    assert_eq!(arg_name(check_devices(&[]).unwrap_err()), "devices");
    let inst =
        QapInstance::from_dat(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib/nug12.dat"))
            .unwrap();
    let problem = Arc::new(QapProblem::from_instance(&inst));
    assert_eq!(
        arg_name(QapTs::on_devices(problem.clone(), &[0, 0]).err().unwrap()),
        "devices"
    );
    assert_eq!(
        arg_name(QapTs::on_devices(problem, &[9]).err().unwrap()),
        "devices"
    );
}

// ---- island DE (src/de/multi.rs) ----------------------------------------------------------

use metaopt::de::{
    Algorithm, BoundsCorrection, DeMultiPop, DeOptions, DeParams, Migration, MigrationKind,
    Mutation,
};
use metaopt::objective::Objective;

fn island_params(np: u32, nm: u32, nn: u32, double: bool, fused: bool) -> DeParams {
    let mut p = DeParams::new(np, nm, nn, -5.12, 5.12, BoundsCorrection::Saturation);
    p.options.double = double;
    p.options.fused = fused;
    p
}

/// Everything a run reports, and the solver's whole state after it.
type IslandRun = (
    f64,
    Vec<f64>,
    u32,
    u64,
    u64,
    Vec<(u64, u64, Vec<f64>)>,
    Vec<f64>,
    Vec<Vec<f64>>,
);

fn island_run(
    de: &mut DeMultiPop,
    obj: &str,
    mutation: Mutation,
    migration: Migration,
    gens: u64,
) -> IslandRun {
    de.init(&Objective::catalogue(obj).unwrap(), mutation, migration)
        .unwrap();
    let stop = Stop {
        budget: Some(gens),
        record_every: 50,
        ..Stop::default()
    };
    let r = de.run(&stop).unwrap();
    let np = de.config().np;
    let bests: Vec<Vec<f64>> = (0..np).map(|p| de.best(p).unwrap()).collect();
    let history = r
        .history
        .iter()
        .map(|h| (h.generation, h.evaluations, h.bests.clone()))
        .collect();
    (
        r.value,
        r.x,
        r.island,
        r.generations,
        r.evaluations,
        history,
        de.fitness().unwrap(),
        bests,
    )
}

/// For a seed, island DE on 2 and 3 devices (a block of islands each) equals the one-device
/// run with the same islands, value for value: the best value, vector and island, every
/// island's best value and vector, every member's value, the history. Migrations every
/// generation and every 10, and none; the fused kernel and the per-phase launches; single and
/// double precision.
#[test]
fn island_de_split_invariant() {
    several_devices!();
    let cases = [
        (
            Migration::new(MigrationKind::One2N, 1),
            Mutation::Rand1,
            true,
            true,
        ),
        (
            Migration::new(MigrationKind::RandTarget, 10),
            Mutation::Best1,
            true,
            false,
        ),
        (
            Migration::new(MigrationKind::PermuteN, 10),
            Mutation::CurrentToBest1,
            false,
            true,
        ),
        (
            Migration::new(MigrationKind::N2N, 1),
            Mutation::Rand2,
            false,
            false,
        ),
        (Migration::NONE, Mutation::Rand1, true, true),
    ];
    for (migration, mutation, double, fused) in cases {
        let p = island_params(5, 16, 4, double, fused);
        let one = island_run(
            &mut DeMultiPop::on_devices(&p, &[0]).unwrap(),
            "F6",
            mutation,
            migration,
            200,
        );
        assert!(one.0.is_finite());
        let mut reference = DeMultiPop::new(&p, Backend::Device(Some(0))).unwrap();
        assert_eq!(
            island_run(&mut reference, "F6", mutation, migration, 200),
            one,
            "on_devices([0]) is the one-device solver"
        );
        let again = reference.run(&Stop::budget(20)).unwrap();
        let again = (
            again.value,
            again.x,
            again.island,
            reference.trials().unwrap(),
        );
        for devs in splits().into_iter().filter(|d| d.len() > 1) {
            let mut de = DeMultiPop::on_devices(&p, &devs).unwrap();
            assert!(
                de.describe()
                    .starts_with(&format!("{} devices", devs.len())),
                "{}",
                de.describe()
            );
            let got = island_run(&mut de, "F6", mutation, migration, 200);
            assert_eq!(
                got, one,
                "{migration:?} {mutation} double {double} fused {fused} on devices {devs:?}"
            );
            // a second call goes on from the same state on both
            let more = de.run(&Stop::budget(20)).unwrap();
            assert_eq!(
                (more.value, more.x, more.island, de.trials().unwrap()),
                again,
                "{devs:?}: a second run and its last trials"
            );
        }
    }
}

/// The wide generation (`DeOptions::wide`) splits as the fused kernel does: each device's
/// blocks key their draws by the global island, so 1, 2 and 3 devices give the one-device run
/// of the fused kernel (double precision, members above PoCL's fused group), the fixed DE and
/// the adaptive variants.
#[test]
fn island_de_wide_split_invariant() {
    several_devices!();
    let cases = [
        (
            Migration::new(MigrationKind::One2One, 4),
            Mutation::Best1,
            Algorithm::De,
        ),
        (
            Migration::new(MigrationKind::PermuteN, 3),
            Mutation::Rand1,
            Algorithm::De,
        ),
        (
            Migration::new(MigrationKind::One2One, 5),
            Mutation::Rand1,
            Algorithm::Jade,
        ),
        (Migration::NONE, Mutation::Rand1, Algorithm::Jso),
    ];
    for (migration, mutation, alg) in cases {
        let mut p = island_params(5, 33, 4, true, true);
        p.options.algorithm = alg;
        p.options.lshade_budget = 33 * 50;
        let one = island_run(
            &mut DeMultiPop::on_devices(&p, &[0]).unwrap(),
            "F6",
            mutation,
            migration,
            40,
        );
        p.options.wide = Some(true);
        for devs in splits() {
            let mut de = DeMultiPop::on_devices(&p, &devs).unwrap();
            assert_eq!(
                island_run(&mut de, "F6", mutation, migration, 40),
                one,
                "{migration:?} {mutation} on devices {devs:?}"
            );
            assert!(
                de.describe().contains("wide generations"),
                "{}",
                de.describe()
            );
        }
    }
}

/// Island DE on two devices follows the CPU backend (double precision), generation by
/// generation, with migration every 3 generations.
#[test]
fn island_de_devices_equal_cpu() {
    several_devices!();
    let p = island_params(4, 12, 5, true, true);
    let obj = Objective::catalogue("F1").unwrap();
    let migration = Migration::new(MigrationKind::One2One, 3);
    let mut dev = DeMultiPop::on_devices(&p, &[1, 0]).unwrap();
    dev.init(&obj, Mutation::Rand1, migration).unwrap();
    let mut cpu = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    cpu.init(&obj, Mutation::Rand1, migration).unwrap();
    for g in 0..30 {
        let (a, b) = (dev.fitness().unwrap(), cpu.fitness().unwrap());
        for (i, (u, v)) in a.iter().zip(&b).enumerate() {
            assert!(
                (u - v).abs() <= 1e-9 * u.abs().max(1e-3),
                "gen {g} value {i}: devices {u}, cpu {v}"
            );
        }
        dev.iteration().unwrap();
        cpu.iteration().unwrap();
    }
    for q in 0..4 {
        let (a, b) = (dev.best(q).unwrap(), cpu.best(q).unwrap());
        assert!(
            a.iter().zip(&b).all(|(u, v)| (u - v).abs() < 1e-9),
            "island {q}: {a:?} {b:?}"
        );
    }
}

/// Bad device lists and more devices than islands are refused naming `devices`.
#[test]
fn island_de_bad_devices_name_devices() {
    several_devices!();
    let p = island_params(3, 8, 2, false, true);
    let n = list_devices().unwrap().len();
    for devs in [vec![], vec![0, 0], vec![0, n]] {
        let e = DeMultiPop::on_devices(&p, &devs).err().expect("refused");
        assert_eq!(arg_name(e), "devices", "{devs:?}");
    }
    let two = island_params(1, 8, 2, false, true);
    assert_eq!(
        arg_name(
            DeMultiPop::on_devices(&two, &[0, 1])
                .err()
                .expect("refused")
        ),
        "devices"
    );
}

/// A host callback objective on two devices (each device's thread calls it with its block's
/// trials) gives the one-device run; a time limit ends a run on several devices with the best
/// so far.
#[test]
fn island_de_callback_and_time_limit_on_several_devices() {
    several_devices!();
    use metaopt::de::StopReason;
    use metaopt::objective::HostCallback;
    use std::time::{Duration, Instant};
    let sphere = Objective::Callback(HostCallback::new(|x, rows, dims, out| {
        for (r, o) in out.iter_mut().enumerate().take(rows) {
            *o = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    }));
    let p = island_params(4, 12, 3, true, true);
    let migration = Migration::new(MigrationKind::N2One, 5);
    let mut runs = Vec::new();
    for devs in [vec![0], vec![0, 1]] {
        let mut de = DeMultiPop::on_devices(&p, &devs).unwrap();
        de.init(&sphere, Mutation::Best1, migration).unwrap();
        let r = de.run(&Stop::budget(60)).unwrap();
        runs.push((
            r.value,
            r.x,
            r.island,
            de.bests_fitness().unwrap(),
            de.fitness().unwrap(),
        ));
    }
    assert_eq!(runs[0], runs[1], "a host callback on two devices");
    // the spread of the islands of both devices is the one device's
    let spreads: Vec<_> = [vec![0], vec![0, 1]]
        .iter()
        .map(|devs| {
            let mut de = DeMultiPop::on_devices(&p, devs).unwrap();
            de.init(&sphere, Mutation::Best1, migration).unwrap();
            de.run(&Stop::budget(5)).unwrap();
            de.spread().unwrap()
        })
        .collect();
    assert_eq!(spreads[0], spreads[1]);
    assert!(runs[0].0 < 1e-3, "sphere: {}", runs[0].0);

    let big = island_params(4, 32, 8, false, true);
    let mut de = DeMultiPop::on_devices(&big, &[0, 1]).unwrap();
    de.init(
        &Objective::catalogue("F6").unwrap(),
        Mutation::Rand1,
        Migration::new(MigrationKind::One2One, 10),
    )
    .unwrap();
    let t = Instant::now();
    let stop = Stop {
        budget: Some(u64::MAX / 2),
        time_limit: Some(Duration::from_millis(300)),
        ..Stop::default()
    };
    let r = de.run(&stop).unwrap();
    assert_eq!(r.stopped_by, StopReason::TimeLimit);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(r.generations > 0 && r.value.is_finite());
    assert_eq!(
        r.value,
        de.bests_fitness()
            .unwrap()
            .into_iter()
            .fold(f64::INFINITY, f64::min)
    );
}

/// Island DE across processes without MPI: "processes" are threads, and the
/// exchange is channels between every pair (each all-gather sends this thread's values to every
/// other and takes theirs, in process order). A receive that waits over a minute fails.
struct ThreadExchange {
    process: usize,
    to: Vec<std::sync::mpsc::Sender<Vec<f64>>>,
    from: Vec<std::sync::mpsc::Receiver<Vec<f64>>>,
}

impl metaopt::de::IslandExchange for ThreadExchange {
    fn processes(&self) -> usize {
        self.to.len()
    }
    fn process(&self) -> usize {
        self.process
    }
    fn all_gather(&mut self, local: &[f64], counts: &[usize]) -> metaopt::Result<Vec<f64>> {
        assert_eq!(counts.len(), self.to.len(), "a count per process");
        assert_eq!(local.len(), counts[self.process], "this process's count");
        for (q, tx) in self.to.iter().enumerate() {
            if q != self.process {
                tx.send(local.to_vec())
                    .map_err(|_| Error::arg("exchange", format!("process {q} has left the run")))?;
            }
        }
        let mut all = Vec::new();
        for (q, rx) in self.from.iter().enumerate() {
            if q == self.process {
                all.extend_from_slice(local);
            } else {
                let got = rx
                    .recv_timeout(std::time::Duration::from_secs(60))
                    .map_err(|e| Error::arg("exchange", format!("process {q}: {e}")))?;
                assert_eq!(got.len(), counts[q], "process {q}'s count");
                all.extend(got);
            }
        }
        Ok(all)
    }
}

/// `n` connected exchanges, one per thread-process.
fn thread_exchanges(n: usize) -> Vec<ThreadExchange> {
    use std::sync::mpsc::channel;
    // chan[a][b]: from a to b
    let mut tx: Vec<Vec<Option<std::sync::mpsc::Sender<Vec<f64>>>>> =
        (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
    let mut rx: Vec<Vec<Option<std::sync::mpsc::Receiver<Vec<f64>>>>> =
        (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
    for a in 0..n {
        for b in 0..n {
            let (s, r) = channel();
            tx[a][b] = Some(s);
            rx[b][a] = Some(r);
        }
    }
    (0..n)
        .map(|p| ThreadExchange {
            process: p,
            to: tx[p].iter_mut().map(|s| s.take().unwrap()).collect(),
            from: rx[p].iter_mut().map(|r| r.take().unwrap()).collect(),
        })
        .collect()
}

/// Runs `f(process, exchange)` on one thread per process; the results in process order.
fn across<R: Send>(n: usize, f: impl Fn(usize, ThreadExchange) -> R + Sync) -> Vec<R> {
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = thread_exchanges(n)
            .into_iter()
            .enumerate()
            .map(|(p, x)| s.spawn(move || f(p, x)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Island DE across two and three thread-processes (the library's exchange with a fake
/// transport: channels), process 0 on device 0 and the others on the rest (process 1 of two on
/// devices 1 and 2: a process with several devices), equals the one-device run with the same
/// islands, on every process: the best value, vector and island, every island's best value and
/// vector, every member's value, the history, and a second run's last trials. Migration every
/// generation and every 10, fused and per-phase, double and float.
#[test]
fn island_de_across_processes_equals_one_device() {
    several_devices!();
    use metaopt::de::IslandExchange;
    needs!(Need::Devices(3));
    let cases = [
        (
            Migration::new(MigrationKind::One2N, 1),
            Mutation::Rand1,
            true,
            true,
        ),
        (
            Migration::new(MigrationKind::RandTarget, 10),
            Mutation::Best1,
            true,
            false,
        ),
        (
            Migration::new(MigrationKind::PermuteN, 10),
            Mutation::CurrentToBest1,
            false,
            true,
        ),
        (
            Migration::new(MigrationKind::N2N, 1),
            Mutation::Rand2,
            true,
            true,
        ),
    ];
    for (migration, mutation, double, fused) in cases {
        let p = island_params(7, 16, 4, double, fused);
        let mut reference = DeMultiPop::new(&p, Backend::Device(Some(0))).unwrap();
        let one = island_run(&mut reference, "F6", mutation, migration, 120);
        let more = reference.run(&Stop::budget(20)).unwrap();
        let again = (more.value, more.x, more.island, reference.trials().unwrap());
        for (procs, devices) in [
            (2, vec![vec![0], vec![1, 2]]),
            (3, vec![vec![0], vec![1], vec![2]]),
        ] {
            let runs = across(procs, |k, x| {
                let mut de =
                    DeMultiPop::across(&p, &devices[k], Box::new(x) as Box<dyn IslandExchange>)
                        .unwrap();
                assert!(
                    de.describe()
                        .starts_with(&format!("process {k} of {procs}")),
                    "{}",
                    de.describe()
                );
                let got = island_run(&mut de, "F6", mutation, migration, 120);
                let more = de.run(&Stop::budget(20)).unwrap();
                (got, (more.value, more.x, more.island, de.trials().unwrap()))
            });
            for (k, (got, more)) in runs.into_iter().enumerate() {
                assert_eq!(got, one, "{migration:?} {mutation} double {double} fused {fused}: process {k} of {procs}");
                assert_eq!(
                    more, again,
                    "{procs} processes, process {k}: a second run and its last trials"
                );
            }
        }
    }
}

/// Across thread-processes: a time limit (whose clocks differ) ends the run on every process at
/// the same generation with the same result; a stop token asked on one process stops all; a
/// process that leaves ends the others' runs with an error, not a hang; more processes than
/// islands are refused naming `processes`.
#[test]
fn island_de_across_processes_stops_together() {
    several_devices!();
    use metaopt::de::{IslandExchange, StopReason};
    use metaopt::interrupt::StopToken;
    use std::time::{Duration, Instant};
    let p = island_params(6, 32, 8, true, true);
    let f6 = Objective::catalogue("F6").unwrap();
    let migration = Migration::new(MigrationKind::One2One, 10);
    let t = Instant::now();
    let runs = across(2, |k, x| {
        let mut de = DeMultiPop::across(&p, &[k], Box::new(x) as Box<dyn IslandExchange>).unwrap();
        de.init(&f6, Mutation::Rand1, migration).unwrap();
        // process 1's limit is longer: process 0's ends the run of both
        let limit = Duration::from_millis(if k == 0 { 300 } else { 3000 });
        let r = de
            .run(&Stop {
                budget: Some(u64::MAX / 2),
                time_limit: Some(limit),
                ..Stop::default()
            })
            .unwrap();
        (
            r.stopped_by,
            r.generations,
            r.value,
            r.x,
            de.bests_fitness().unwrap(),
        )
    });
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "the shorter limit ends both: {:?}",
        t.elapsed()
    );
    assert_eq!(runs[0].0, StopReason::TimeLimit);
    assert!(runs[0].1 > 0 && runs[0].2.is_finite());
    assert_eq!(
        runs[0], runs[1],
        "both processes stop at the same generation with the same result"
    );

    let token = StopToken::new();
    let runs = across(2, |k, x| {
        let mut de = DeMultiPop::across(&p, &[k], Box::new(x) as Box<dyn IslandExchange>).unwrap();
        de.init(&f6, Mutation::Rand1, migration).unwrap();
        let stop = Stop {
            budget: Some(u64::MAX / 2),
            token: (k == 1).then(|| token.clone()),
            ..Stop::default()
        };
        if k == 1 {
            let token = token.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                token.request();
            });
        }
        let r = de.run(&stop).unwrap();
        (r.stopped_by, r.generations, r.value)
    });
    assert_eq!(runs[0].0, StopReason::Interrupted);
    assert_eq!(runs[0], runs[1]);

    // process 1 leaves after its set-up: process 0's run ends with an error naming the exchange
    let t = Instant::now();
    let runs = across(2, |k, x| {
        let mut de = DeMultiPop::across(&p, &[k], Box::new(x) as Box<dyn IslandExchange>).unwrap();
        de.init(&f6, Mutation::Rand1, migration).unwrap();
        if k == 1 {
            drop(de);
            return None;
        }
        Some(de.run(&Stop::budget(1000)).map(|r| r.value))
    });
    let e = runs
        .into_iter()
        .next()
        .flatten()
        .expect("process 0 ran")
        .expect_err("the peer left");
    assert_eq!(arg_name(e), "exchange");
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());

    // processes with different seeds are refused on every process, before any run
    let errs = across(2, |k, x| {
        let mut q = p.clone();
        q.options.crossover_seed += k as u64;
        DeMultiPop::across(&q, &[k], Box::new(x) as Box<dyn IslandExchange>)
            .err()
            .map(arg_name)
    });
    assert_eq!(errs, vec![Some("exchange"); 2]);

    let few = island_params(2, 8, 2, true, true);
    let errs = across(3, |k, x| {
        DeMultiPop::across(&few, &[k], Box::new(x) as Box<dyn IslandExchange>)
            .err()
            .map(arg_name)
    });
    assert_eq!(errs, vec![Some("processes"); 3]);
}

// ---- the adaptive variants on several devices ------------------------------

/// A second run: its value, vector, island, generations and evaluations.
type MoreRun = (f64, Vec<f64>, u32, u64, u64);

/// [`island_run`] with a second run of `more` generations after it and its last trials (which
/// for L-SHADE and jSO hold the survivors of a shrinking generation).
fn adaptive_run(
    de: &mut DeMultiPop,
    obj: &str,
    migration: Migration,
    gens: u64,
    more: u64,
) -> (IslandRun, MoreRun, (Vec<f64>, Vec<f64>)) {
    let first = island_run(de, obj, Mutation::Rand1, migration, gens);
    let r = de.run(&Stop::budget(more)).unwrap();
    (
        first,
        (r.value, r.x, r.island, r.generations, r.evaluations),
        de.trials().unwrap(),
    )
}

fn adaptive_params(alg: Algorithm) -> DeParams {
    let mut p = island_params(6, 20, 5, true, true);
    p.options.algorithm = alg;
    // L-SHADE and jSO shrink to a few members within the run (41 x 20 evaluations an island)
    p.options.lshade_budget = 700;
    p
}

/// For a seed, JADE, SHADE, L-SHADE and jSO on 2 and 3 devices (a block of islands each, in
/// `ade_fused`) equal the one-device run with the same islands: the best value, vector and
/// island, every island's best value and vector, every member's value (the shrunk populations'
/// +inf slots too), the history, the evaluations (L-SHADE's and jSO's shrinking sizes), a second
/// run and its last trials. JADE migrates One2N every 5 generations and SHADE N2N every 4 (the
/// view of every value); L-SHADE and jSO refuse migration on several devices as on one.
#[test]
fn island_de_adaptive_split_invariant() {
    several_devices!();
    let cases = [
        (Algorithm::Jade, Migration::new(MigrationKind::One2N, 5)),
        (Algorithm::Shade, Migration::new(MigrationKind::N2N, 4)),
        (Algorithm::LShade, Migration::NONE),
        (Algorithm::Jso, Migration::NONE),
    ];
    for (alg, migration) in cases {
        let p = adaptive_params(alg);
        let mut reference = DeMultiPop::new(&p, Backend::Device(Some(0))).unwrap();
        let one = adaptive_run(&mut reference, "F6", migration, 40, 6);
        assert!(one.0 .0.is_finite());
        if alg.reduces() {
            // the populations shrank: fewer evaluations than every member every generation
            assert!(one.0 .4 < 6 * 20 * 41, "{alg}: {} evaluations", one.0 .4);
            assert!(
                one.0 .6.iter().any(|v| v.is_infinite()),
                "{alg}: the shrunk slots hold +inf"
            );
        }
        for devs in splits().into_iter().filter(|d| d.len() > 1) {
            let mut de = DeMultiPop::on_devices(&p, &devs).unwrap();
            let got = adaptive_run(&mut de, "F6", migration, 40, 6);
            assert_eq!(got, one, "{alg} {migration:?} on devices {devs:?}");
        }
    }
    // L-SHADE and jSO refuse migration on several devices too (their islands shrink)
    let mut de = DeMultiPop::on_devices(&adaptive_params(Algorithm::Jso), &[0, 1]).unwrap();
    let e = de
        .init(
            &Objective::catalogue("F6").unwrap(),
            Mutation::Rand1,
            Migration::new(MigrationKind::One2One, 5),
        )
        .unwrap_err();
    assert_eq!(arg_name(e), "migration");
}

/// jDE100 on 2 and 3 devices (`jde_fused` per block) equals the one-device run, restarts and
/// their evaluations included, and `jde_state()` is every island's counters in global order.
#[test]
fn island_de_jde100_split_invariant() {
    several_devices!();
    let mut p = island_params(6, 20, 5, true, true);
    p.options.algorithm = Algorithm::Jde100;
    p.options.jde_small = 5;
    // a wide eps and an age limit: restarts of both populations within a few dozen cycles
    p.options.jde_eps = 1e-3;
    p.options.jde_age = 60;
    let run = |de: &mut DeMultiPop| {
        let got = adaptive_run(de, "F1", Migration::NONE, 40, 5);
        (got, de.jde_state().unwrap())
    };
    let one = run(&mut DeMultiPop::new(&p, Backend::Device(Some(0))).unwrap());
    let st = &one.1;
    assert_eq!(st.len(), 6);
    assert!(
        st.iter().any(|s| s.big_restarts > 0) && st.iter().any(|s| s.small_restarts > 0),
        "the test needs restarts of both populations: {st:?}"
    );
    let restarts: u64 = st.iter().map(|s| s.restart_evaluations).sum();
    // 45 cycles of 15 + 3 x 5 evaluations an island, the initial 20, and the restarts'
    assert_eq!(
        one.0 .1 .4,
        6 * (20 + 45 * 30) + restarts,
        "evaluations count the restarts"
    );
    for devs in splits().into_iter().filter(|d| d.len() > 1) {
        let got = run(&mut DeMultiPop::on_devices(&p, &devs).unwrap());
        assert_eq!(got, one, "jde100 on devices {devs:?}");
    }
}

/// What cannot split is refused: JADE, SHADE, L-SHADE and jSO with `fused = false` (naming
/// `fused`, also when `init`'s options update switches it off, the solver then unchanged) and
/// with a host callback objective (naming `objective`): both are planned on the host with keys
/// of each device's own islands.
#[test]
fn island_de_adaptive_refusals_name_the_argument() {
    several_devices!();
    use metaopt::objective::HostCallback;
    let mut unfused = adaptive_params(Algorithm::Shade);
    unfused.options.fused = false;
    let e = DeMultiPop::on_devices(&unfused, &[0, 1])
        .err()
        .expect("refused");
    assert!(e.to_string().contains("fused kernel"), "{e}");
    assert_eq!(arg_name(e), "fused");
    // one device takes the host-planned path as before, also as the one process of a run
    // across processes; two processes are refused on every process
    assert!(DeMultiPop::on_devices(&unfused, &[1]).is_ok());
    {
        use metaopt::de::IslandExchange;
        assert!(
            across(1, |_, x| DeMultiPop::across(
                &unfused,
                &[0],
                Box::new(x) as Box<dyn IslandExchange>
            )
            .is_ok())[0]
        );
        let errs = across(2, |k, x| {
            DeMultiPop::across(&unfused, &[k], Box::new(x) as Box<dyn IslandExchange>)
                .err()
                .map(arg_name)
        });
        assert_eq!(errs, vec![Some("fused"); 2]);
    }

    let p = island_params(3, 8, 2, false, true);
    let obj = Objective::catalogue("F1").unwrap();
    let mut de = DeMultiPop::on_devices(&p, &[0, 1]).unwrap();
    let o = DeOptions {
        algorithm: Algorithm::Jade,
        fused: false,
        ..p.options.clone()
    };
    let e = de
        .init_with(&obj, Mutation::Rand1, Migration::NONE, Some(&o))
        .unwrap_err();
    assert_eq!(arg_name(e), "fused");
    assert_eq!(
        de.config().options.algorithm,
        Algorithm::De,
        "the options stay as they were"
    );
    de.init(&obj, Mutation::Rand1, Migration::NONE).unwrap();
    assert!(de.run(&Stop::budget(5)).unwrap().value.is_finite());

    let sphere = Objective::Callback(HostCallback::new(|x, rows, dims, out| {
        for (r, o) in out.iter_mut().enumerate().take(rows) {
            *o = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
        }
        Ok(())
    }));
    let mut jade = p.clone();
    jade.options.algorithm = Algorithm::Jade;
    let mut de = DeMultiPop::on_devices(&jade, &[0, 1]).unwrap();
    let e = de
        .init(&sphere, Mutation::Rand1, Migration::NONE)
        .unwrap_err();
    assert!(e.to_string().contains("host callback"), "{e}");
    assert_eq!(arg_name(e), "objective");
}

/// JADE (migration One2One every 3) and jDE100 across two and three thread-processes equal the
/// one-device run on every process; jDE100's `jde_state()` gathers every island's counters.
#[test]
fn island_de_adaptive_across_processes_equals_one_device() {
    several_devices!();
    use metaopt::de::IslandExchange;
    needs!(Need::Devices(3));
    let mut jde = island_params(6, 20, 5, true, true);
    jde.options.algorithm = Algorithm::Jde100;
    jde.options.jde_small = 5;
    jde.options.jde_eps = 1e-3;
    jde.options.jde_age = 60;
    let cases = [
        (
            adaptive_params(Algorithm::Jade),
            "F6",
            Migration::new(MigrationKind::One2One, 3),
        ),
        (jde, "F1", Migration::NONE),
    ];
    for (p, obj, migration) in cases {
        let run = |de: &mut DeMultiPop| {
            let got = adaptive_run(de, obj, migration, 30, 4);
            (got, de.jde_state().unwrap())
        };
        let one = run(&mut DeMultiPop::new(&p, Backend::Device(Some(0))).unwrap());
        for (procs, devices) in [
            (2, vec![vec![0], vec![1, 2]]),
            (3, vec![vec![0], vec![1], vec![2]]),
        ] {
            let runs = across(procs, |k, x| {
                run(&mut DeMultiPop::across(
                    &p,
                    &devices[k],
                    Box::new(x) as Box<dyn IslandExchange>,
                )
                .unwrap())
            });
            for (k, got) in runs.into_iter().enumerate() {
                assert_eq!(got, one, "{}: process {k} of {procs}", p.options.algorithm);
            }
        }
    }
}
