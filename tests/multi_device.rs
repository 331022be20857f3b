//! Several devices of one machine (src/multi.rs, docs/SCALE.md): PoCL posing as three devices
//! (`POCL_DEVICES="pthread pthread pthread"`, one compute unit each), set before the first
//! OpenCL call of this test binary. Split invariance: for a seed, the result on 1, 2 and 3
//! devices is identical (QAP tabu chains with the elite pool and restarts, batched DE, SSSP
//! sources, QIGA populations), and equal to the CPU backend or host Dijkstra where those are
//! exact; bad device lists are refused naming `devices`.

use metaopt::de::{BatchDe, BatchOptions, BatchProblem, BatchStop};
use metaopt::device::{list_devices, Backend};
use metaopt::multi::{check_devices, parse_devices};
use metaopt::problem::graph::{dijkstra, thesis_random};
use metaopt::problem::knapsack::{GenerateOptions, Knapsack, KnapsackKind};
use metaopt::problem::qap::{QapInstance, QapProblem};
use metaopt::qap::ts::{QapTs, QapTsOptions};
use metaopt::qiga::{Qiga, QigaOptions, RotationTable};
use metaopt::sp::{SpOptions, Sssp};
use metaopt::Error;
use std::path::Path;
use std::sync::{Arc, Once};

static SETUP: Once = Once::new();

/// Three PoCL devices unless the environment already says otherwise; false (with the reason
/// printed) when fewer than two devices appear.
fn setup() -> bool {
    SETUP.call_once(|| {
        if std::env::var_os("POCL_DEVICES").is_none() {
            // SAFETY: set once, before this binary's first OpenCL call (every test calls setup
            // first, inside this Once), while no other thread reads the environment.
            unsafe {
                std::env::set_var("POCL_DEVICES", "pthread pthread pthread");
                if std::env::var_os("POCL_MAX_PTHREAD_COUNT").is_none() {
                    std::env::set_var("POCL_MAX_PTHREAD_COUNT", "1");
                }
            }
        }
    });
    let n = list_devices().map(|d| d.len()).unwrap_or(0);
    if n < 2 {
        eprintln!("skipped: {n} OpenCL devices (POCL_DEVICES gives several on PoCL)");
        return false;
    }
    true
}

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
    if !setup() {
        return;
    }
    let inst = QapInstance::from_dat(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib/nug12.dat")).unwrap();
    let problem = Arc::new(QapProblem::from_instance(&inst));
    // short stagnation: chains restart from the elite pool, so the pool's order matters
    let opts = QapTsOptions { chains: 7, max_iterations: 1500, launch_iterations: 150, seed: 9, elite_size: 4, stagnation: Some(60), ..Default::default() };
    let cpu = QapTs::new(problem.clone(), Backend::Cpu).unwrap().solve(&opts).unwrap();
    assert!(cpu.restarts > 0, "the test needs restarts from the pool");
    let perm: Vec<usize> = cpu.permutation.clone();
    assert_eq!(problem.cost(&perm).unwrap(), cpu.cost, "the reported cost is the permutation's");
    for devs in splits() {
        let r = QapTs::on_devices(problem.clone(), &devs).unwrap().solve(&opts).unwrap();
        assert_eq!((r.cost, &r.permutation, r.restarts, r.iterations, r.launches), (cpu.cost, &cpu.permutation, cpu.restarts, cpu.iterations, cpu.launches), "devices {devs:?}");
        assert_eq!(r.backend.matches(" + ").count(), devs.len() - 1, "{}", r.backend);
    }
    // more devices than chains is refused naming devices
    let few = QapTsOptions { chains: 1, ..opts.clone() };
    let e = QapTs::on_devices(problem.clone(), &[0, 1]).unwrap().solve(&few).unwrap_err();
    assert_eq!(arg_name(e), "devices");
}

#[test]
fn batched_de_split_invariant() {
    if !setup() {
        return;
    }
    let problems: Vec<BatchProblem> = (0..7)
        .map(|i| {
            let mut p = BatchProblem::new(["F1", "F5", "F8"][i % 3], 4 + i as u32 % 3, -5.0, 5.0);
            p.seed = 100 + i as u64;
            p.max_generations = 120 + 10 * i as u64;
            p
        })
        .collect();
    let one = BatchDe::new(problems.clone(), Backend::Device(Some(0)), BatchOptions::default()).unwrap().run(&BatchStop::default()).unwrap();
    assert_eq!(one.len(), 7);
    for (i, r) in one.iter().enumerate() {
        assert_eq!(r.generations, 120 + 10 * i as u64, "problem {i} ran its budget");
        assert!(r.best_value.is_finite() && r.best.len() == 4 + i % 3);
    }
    for devs in splits() {
        let mut de = BatchDe::on_devices(problems.clone(), &devs, BatchOptions::default()).unwrap();
        let r = de.run(&BatchStop::default()).unwrap();
        assert_eq!(r, one, "devices {devs:?}");
        assert_eq!(de.results().unwrap(), one, "results() after the run, devices {devs:?}");
    }
    assert_eq!(arg_name(BatchDe::on_devices(problems.clone(), &[0, 9], BatchOptions::default()).err().unwrap()), "devices");
    assert_eq!(arg_name(BatchDe::on_devices(problems[..1].to_vec(), &[0, 1], BatchOptions::default()).err().unwrap()), "devices");
}

#[test]
fn sssp_sources_split_invariant() {
    if !setup() {
        return;
    }
    let g = thesis_random(7, 3, 5).unwrap();
    let sources: Vec<u32> = (0..g.n() as u32).step_by(11).collect();
    assert!(sources.len() >= 3);
    let mut one = Sssp::new(&g, SpOptions { backend: Backend::Device(Some(0)), ..Default::default() }).unwrap();
    let base = one.sssp_multi(&sources).unwrap();
    for (i, &s) in sources.iter().enumerate() {
        let d = dijkstra(&g, s).unwrap();
        let row = base.row(i);
        assert_eq!(row.dist, d.dist, "source {s} against host Dijkstra");
    }
    for devs in splits() {
        let mut sp = Sssp::new(&g, SpOptions { devices: devs.clone(), ..Default::default() }).unwrap();
        let r = sp.sssp_multi(&sources).unwrap();
        assert_eq!((&r.sources, &r.dist, &r.pred, &r.reached, &r.edges), (&base.sources, &base.dist, &base.pred, &base.reached, &base.edges), "devices {devs:?}");
        // fewer sources than devices: the empty blocks are skipped
        let r1 = sp.sssp_multi(&sources[..1]).unwrap();
        assert_eq!(r1.row(0).dist, base.row(0).dist);
    }
    assert_eq!(arg_name(Sssp::new(&g, SpOptions { devices: vec![1, 1], ..Default::default() }).err().unwrap()), "devices");
}

#[test]
fn qiga_populations_split_invariant() {
    if !setup() {
        return;
    }
    let k = Knapsack::generate(&GenerateOptions { kind: KnapsackKind::WeaklyCorrelated, items: 60, range: 100, seed: 8, ..Default::default() }).unwrap();
    let o = |devices: Vec<usize>| QigaOptions {
        populations: 5,
        individuals: 8,
        generations: 40,
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
        assert_eq!(k.value_and_weight(base.bits(i)).0, v, "population {i}'s string is worth its value");
    }
    assert_eq!(arg_name(Qiga::new(&k, o(vec![0, 0])).err().unwrap()), "devices");
}

#[test]
fn bad_device_lists_name_devices() {
    if !setup() {
        return;
    }
    let n = list_devices().unwrap().len();
    assert_eq!(parse_devices("all").unwrap(), (0..n).collect::<Vec<_>>());
    assert_eq!(parse_devices(" 1, 0 ").unwrap(), vec![1, 0]);
    for bad in ["0,0", "9", "", "0,x", "-1"] {
        assert_eq!(arg_name(parse_devices(bad).unwrap_err()), "devices", "{bad:?}");
    }
    assert_eq!(arg_name(check_devices(&[]).unwrap_err()), "devices");
    let inst = QapInstance::from_dat(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib/nug12.dat")).unwrap();
    let problem = Arc::new(QapProblem::from_instance(&inst));
    assert_eq!(arg_name(QapTs::on_devices(problem.clone(), &[0, 0]).err().unwrap()), "devices");
    assert_eq!(arg_name(QapTs::on_devices(problem, &[9]).err().unwrap()), "devices");
}
