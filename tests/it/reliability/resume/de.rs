//! Island DE: populations, values, the adaptive variants' memories, archives, per-member F and
//! CR and counters, a generation cut midway, the run's progress; warm starts from given points.

use crate::common::*;
use metaopt::de::{
    Algorithm, Backend, BoundsCorrection, DeMultiPop, DeParams, DeRunResult, Migration,
    MigrationKind, Mutation,
};
use metaopt::objective::Objective;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use std::time::Duration;

/// 4 islands of 24 members in 6 dimensions of Rastrigin (F8), double.
fn params(alg: Algorithm, fused: bool) -> DeParams {
    let mut p = DeParams::new(4, 24, 6, -5.12, 5.12, BoundsCorrection::Cotn);
    p.options.algorithm = alg;
    p.options.precision = metaopt::Precision::Double;
    p.options.fused = fused;
    p.options.lshade_budget = 24 * 60;
    p.options.jde_small = 8;
    p
}

fn migration(alg: Algorithm) -> Migration {
    if alg == Algorithm::De {
        Migration::new(MigrationKind::One2N, 7)
    } else {
        Migration::new(MigrationKind::None, 10)
    }
}

fn started(p: &DeParams, backend: Backend) -> DeMultiPop {
    let mut de = DeMultiPop::new(p, backend).unwrap();
    de.init(
        &Objective::catalogue("F8").unwrap(),
        Mutation::Rand1,
        migration(p.options.algorithm),
    )
    .unwrap();
    de
}

fn stop(g: u64) -> Stop {
    Stop {
        budget: Some(g),
        record_every: 5,
        ..Stop::default()
    }
}

/// The parts of a result that a resumed run must reproduce.
type Outcome = (f64, Vec<f64>, u32, u64, u64, Vec<(u64, u64, Vec<f64>)>);

fn outcome(r: &DeRunResult) -> Outcome {
    (
        r.value,
        r.x.clone(),
        r.island,
        r.generations,
        r.evaluations,
        r.history
            .iter()
            .map(|h| (h.generation, h.evaluations, h.bests.clone()))
            .collect(),
    )
}

/// `split` generations, a saved state, and the rest in a new solver: the uninterrupted run.
fn resumed_equals_uninterrupted(p: &DeParams, backend: Backend, split: u64, total: u64) {
    let mut whole = started(p, backend);
    let w = whole.run(&stop(total)).unwrap();
    let mut first = started(p, backend);
    let part = first.run(&stop(split)).unwrap();
    assert_eq!(part.generations, split);
    let state = first.save_state().unwrap();
    let mut second = started(p, backend);
    second.load_state(&state).unwrap();
    assert_eq!(second.generation(), split);
    let rest = second.run(&stop(total)).unwrap();
    let what = format!("{} on {backend:?}, split at {split}", p.options.algorithm);
    assert_eq!(outcome(&rest), outcome(&w), "{what}");
    assert_eq!(
        second.population().unwrap(),
        whole.population().unwrap(),
        "{what}"
    );
    assert_eq!(
        second.fitness().unwrap(),
        whole.fitness().unwrap(),
        "{what}"
    );
    assert_eq!(
        second.jde_state().unwrap(),
        whole.jde_state().unwrap(),
        "{what}"
    );
}

#[test]
fn a_resumed_cpu_run_ends_as_the_uninterrupted_one() {
    for alg in [
        Algorithm::De,
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
        Algorithm::Jde100,
    ] {
        for split in [3, 22] {
            resumed_equals_uninterrupted(&params(alg, true), Backend::Cpu, split, 40);
        }
    }
}

#[test]
fn a_resumed_device_run_ends_as_the_uninterrupted_one() {
    // the fused kernel (the fixed DE with migration, L-SHADE, jDE100), the launch-per-phase
    // path and the adaptive variants planned on the host
    for (alg, fused) in [
        (Algorithm::De, true),
        (Algorithm::LShade, true),
        (Algorithm::Jde100, true),
        (Algorithm::De, false),
        (Algorithm::Shade, false),
    ] {
        resumed_equals_uninterrupted(&params(alg, fused), Backend::Device(None), 13, 30);
    }
}

#[test]
fn a_run_that_loaded_a_finished_state_goes_on_to_a_larger_budget() {
    let p = params(Algorithm::Jade, true);
    let w = started(&p, Backend::Cpu).run(&stop(40)).unwrap();
    let mut first = started(&p, Backend::Cpu);
    first.run(&stop(20)).unwrap();
    let mut second = started(&p, Backend::Cpu);
    second.load_state(&first.save_state().unwrap()).unwrap();
    // the saved run's budget is spent: a run of it ends at once
    let again = second.run(&stop(20)).unwrap();
    assert_eq!(
        (again.generations, again.stopped_by),
        (20, metaopt::StopReason::Budget)
    );
    second.load_state(&first.save_state().unwrap()).unwrap();
    assert_eq!(outcome(&second.run(&stop(40)).unwrap()), outcome(&w));
}

#[test]
fn a_generation_cut_by_the_time_limit_is_completed_on_resume() {
    // the CPU engine evaluates a generation in pieces under a time limit: a limit that passes
    // inside one leaves some trials selected, the others still to evaluate
    let mut p = DeParams::new(6, 200, 40, -5.12, 5.12, BoundsCorrection::Cotn);
    p.options.precision = metaopt::Precision::Double;
    let per_gen = 6 * 200;
    let whole = started(&p, Backend::Cpu).run(&stop(150)).unwrap();
    let mut cut_seen = false;
    // the clock decides where a limit falls: more limits are tried until one cuts a
    // generation midway (a loaded machine may put the first ones between generations)
    for (i, ms) in [20, 45, 70, 100, 130, 170, 220, 280]
        .into_iter()
        .enumerate()
    {
        if i >= 4 && cut_seen {
            break;
        }
        let mut first = started(&p, Backend::Cpu);
        let part = first
            .run(&Stop {
                time_limit: Some(Duration::from_millis(ms)),
                record_every: 5,
                ..Stop::default()
            })
            .unwrap();
        assert!(
            part.generations < 150,
            "give the whole run more generations"
        );
        cut_seen |= !part.evaluations.is_multiple_of(per_gen);
        let mut second = started(&p, Backend::Cpu);
        second.load_state(&first.save_state().unwrap()).unwrap();
        let rest = second.run(&stop(150)).unwrap();
        assert_eq!(
            (rest.value, &rest.x, rest.generations, rest.evaluations),
            (whole.value, &whole.x, whole.generations, whole.evaluations),
            "cut after {ms} ms at generation {} with {} evaluations",
            part.generations,
            part.evaluations
        );
        // the same object goes on alike (a new run counts its own generations): the cut
        // generation is completed, not made afresh
        let on = first.run(&stop(150 - part.generations)).unwrap();
        assert_eq!(
            (on.value, &on.x, on.generations),
            (whole.value, &whole.x, 150)
        );
    }
    assert!(cut_seen, "no time limit cut a generation midway");
}

#[test]
fn checkpoint_files_are_written_and_resume() {
    let dir = work_dir!();
    let path = dir.join("de.state");
    let p = params(Algorithm::Shade, true);
    let whole = started(&p, Backend::Cpu).run(&stop(40)).unwrap();
    let token = metaopt::interrupt::StopToken::new();
    let at = token.clone();
    // every step writes (every 1 ns); the token stops the run after the record of generation 15
    let r = started(&p, Backend::Cpu)
        .run_observed(
            &Stop {
                token: Some(token),
                checkpoint: Some(Checkpointing::new(
                    path.clone(),
                    Some(Duration::from_nanos(1)),
                )),
                ..stop(40)
            },
            |rec| {
                if rec.generation == 15 {
                    at.request();
                }
            },
        )
        .unwrap();
    assert_eq!(
        (r.stopped_by, r.generations),
        (metaopt::StopReason::Interrupted, 15)
    );
    let bytes = std::fs::read(&path).unwrap();
    let mut s = started(&p, Backend::Cpu);
    s.load_state(&bytes).unwrap();
    assert_eq!(outcome(&s.run(&stop(40)).unwrap()), outcome(&whole));
}

#[test]
fn mismatched_and_damaged_states_are_refused() {
    let p = params(Algorithm::De, true);
    let mut de = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    assert!(arg_error(de.save_state(), "init").contains("no objective"));
    let mut de = started(&p, Backend::Cpu);
    de.run(&stop(5)).unwrap();
    let state = de.save_state().unwrap();
    // before init: nothing to load into
    let mut bare = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    assert!(arg_error(bare.load_state(&state), "state").contains("call init"));
    // another seed, size, objective, mutation, backend
    let mut q = p.clone();
    q.options.init_seed = 9;
    assert!(
        arg_error(started(&q, Backend::Cpu).load_state(&state), "state")
            .contains("option seeds was 123,345,457,581; this run has 9,345,457,581")
    );
    let mut q = p.clone();
    q.members = 25;
    assert!(
        arg_error(started(&q, Backend::Cpu).load_state(&state), "state")
            .contains("option members was 24")
    );
    let mut other = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    other
        .init(
            &Objective::catalogue("F1").unwrap(),
            Mutation::Rand1,
            migration(Algorithm::De),
        )
        .unwrap();
    assert!(arg_error(other.load_state(&state), "state").contains("another problem"));
    let mut other = DeMultiPop::new(&p, Backend::Cpu).unwrap();
    other
        .init(
            &Objective::catalogue("F8").unwrap(),
            Mutation::Best1,
            migration(Algorithm::De),
        )
        .unwrap();
    assert!(arg_error(other.load_state(&state), "state").contains("option mutation was"));
    assert!(arg_error(
        started(&p, Backend::Device(None)).load_state(&state),
        "state"
    )
    .contains("option backend was cpu; this run has device"));
    // damaged bytes
    let mut s = started(&p, Backend::Cpu);
    assert!(arg_error(s.load_state(&state[..state.len() / 2]), "state").contains("truncated"));
    let mut flipped = state.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 4;
    assert!(arg_error(s.load_state(&flipped), "state").contains("checksum"));
    assert!(arg_error(s.load_state(b"not a state"), "state").contains("not a metaopt"));
    // a refused state changed nothing
    assert_eq!(s.generation(), 0);
    s.load_state(&state).unwrap();
    assert_eq!(s.generation(), 5);
}

// ---- warm starts ------------------------------------------------------------------------

#[test]
fn a_population_set_reads_back_and_is_evaluated() {
    for backend in [Backend::Cpu, Backend::Device(None)] {
        let p = params(Algorithm::De, true);
        let mut de = started(&p, backend);
        let n = 4 * 24 * 6;
        let x: Vec<f64> = (0..n)
            .map(|i| ((i * 37) % 101) as f64 / 10.0 - 5.0)
            .collect();
        let e0 = de.evaluations();
        de.set_population(None, &x, false).unwrap();
        assert_eq!(de.population().unwrap(), x, "{backend:?}");
        assert_eq!(de.evaluations(), e0 + 4 * 24);
        // the values are the objective's at the points set
        let f8 = metaopt::problem::functions::lookup("F8").unwrap();
        let want = f8.eval_rows(&x, 6).unwrap();
        let fx = de.fitness().unwrap();
        for p in 0..4 {
            for m in 0..24 {
                let (a, b) = (fx[p * 25 + m], want[p * 24 + m]);
                assert!(
                    (a - b).abs() <= 1e-9 * b.abs().max(1.0),
                    "{backend:?}: {a} {b}"
                );
            }
        }
        // one island's first members
        let rows = vec![1.5; 2 * 6];
        de.set_population(Some(2), &rows, false).unwrap();
        let pop = de.population().unwrap();
        assert_eq!(&pop[2 * 24 * 6..2 * 24 * 6 + 12], &rows[..]);
        assert_eq!(&pop[..2 * 24 * 6], &x[..2 * 24 * 6]);
    }
}

#[test]
fn x0_at_the_optimum_is_the_result_at_once() {
    let p = params(Algorithm::Jade, true);
    let mut de = started(&p, Backend::Cpu);
    de.set_population(None, &[0.0; 6], false).unwrap();
    assert_eq!(&de.population().unwrap()[..6], &[0.0; 6]);
    let r = de.run(&stop(1)).unwrap();
    assert_eq!(r.value, 0.0);
    assert_eq!(r.x, vec![0.0; 6]);
}

#[test]
fn bad_points_are_refused_naming_the_population() {
    let p = params(Algorithm::De, true);
    let mut de = started(&p, Backend::Cpu);
    let before = de.population().unwrap();
    assert!(
        arg_error(de.set_population(None, &[0.0; 5], false), "population").contains("rows of 6")
    );
    assert!(arg_error(de.set_population(None, &[], false), "population").contains("0 values"));
    assert!(arg_error(
        de.set_population(Some(0), &vec![0.0; 25 * 6], false),
        "population"
    )
    .contains("1 to 24 rows"));
    assert!(arg_error(de.set_population(Some(4), &[0.0; 6], false), "island").contains("4"));
    let mut nan = vec![0.0; 12];
    nan[7] = f64::NAN;
    assert!(
        arg_error(de.set_population(None, &nan, false), "population")
            .contains("row 1, dimension 1 is NaN")
    );
    let out = [0.0, 0.0, 6.0, 0.0, 0.0, 0.0];
    assert!(
        arg_error(de.set_population(None, &out, false), "population")
            .contains("outside its limits")
    );
    assert_eq!(de.population().unwrap(), before, "refused: nothing changed");
    de.set_population(None, &out, true).unwrap();
    assert_eq!(
        &de.population().unwrap()[..6],
        &[0.0, 0.0, 5.12, 0.0, 0.0, 0.0]
    );
}
