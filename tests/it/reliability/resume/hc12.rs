//! HC12 (general, QAP, SAT): a search stopped after any run and continued from its checkpoint
//! ends as the one that never stopped (the runs, counters, best, every run's figures, the QAP's
//! random restarts); a checkpoint of another problem or option set, or a damaged one, is
//! refused with what differs.

use crate::common::*;
use metaopt::device::Backend;
use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
use metaopt::hc12::qap::solve::{solve, QapSolveOptions, RestartMode};
use metaopt::hc12::qap::{CostForm, QapHc12};
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::objective::Objective;
use metaopt::problem::qap::QapProblem;
use metaopt::problem::sat::Cnf;
use metaopt::run::checkpoint::Checkpointing;
use metaopt::run::Stop;
use metaopt::StopReason;
use std::sync::Arc;
use std::time::Duration;

fn general() -> Hc12 {
    // Rastrigin's function: many local optima, so every run ends somewhere else
    Hc12::new(
        Hc12Params::real(4, 10, -5.12, 5.12),
        Objective::catalogue("F6").unwrap(),
        Backend::DEVICE,
    )
    .unwrap()
}

fn general_opts(runs: u64) -> RunOptions {
    RunOptions {
        stop: Stop::budget(runs),
        seed: 11,
        ..RunOptions::default()
    }
}

type GeneralOutcome = (u64, Vec<u32>, u32, u64, Vec<(u64, u32)>, StopReason);

fn general_outcome(r: &metaopt::hc12::general::Hc12RunResult) -> GeneralOutcome {
    (
        r.value.to_bits(),
        r.string.clone(),
        r.iterations,
        r.evaluations,
        r.runs
            .iter()
            .map(|f| (f.value.to_bits(), f.iterations))
            .collect(),
        r.stop,
    )
}

#[test]
fn a_resumed_general_search_ends_as_the_uninterrupted_one() {
    let total = 9;
    let w = general().run(&general_opts(total)).unwrap();
    assert_eq!((w.runs.len(), w.stop), (9, StopReason::Budget));
    for split in [1, 4, 8] {
        let mut first = general();
        let part = first.run(&general_opts(split)).unwrap();
        assert_eq!(part.runs.len() as u64, split);
        let state = first.save_state().unwrap();
        let mut second = general();
        second.load_state(&state, &general_opts(total)).unwrap();
        let rest = second.run(&general_opts(total)).unwrap();
        assert_eq!(
            general_outcome(&rest),
            general_outcome(&w),
            "split at {split}"
        );
        assert!(rest.seconds >= part.seconds);
    }
    // a state of another seed, coding or objective is refused, naming what differs
    let mut s = general();
    s.run(&general_opts(2)).unwrap();
    let state = s.save_state().unwrap();
    let other_seed = RunOptions {
        seed: 12,
        ..general_opts(5)
    };
    let e = general()
        .load_state(&state, &other_seed)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("state") && e.contains("option seed was 11; this run has 12"),
        "{e}"
    );
    let mut f1 = Hc12::new(
        Hc12Params::real(4, 10, -5.12, 5.12),
        Objective::catalogue("F1").unwrap(),
        Backend::DEVICE,
    )
    .unwrap();
    let e = f1
        .load_state(&state, &general_opts(5))
        .unwrap_err()
        .to_string();
    assert!(e.contains("another problem"), "{e}");
    let mut tabu = general();
    tabu.init_tabu_list(TabuConfig::new(8).unwrap()).unwrap();
    let e = tabu
        .load_state(&state, &general_opts(5))
        .unwrap_err()
        .to_string();
    assert!(e.contains("option tabu"), "{e}");
    // damaged: truncated, a flipped byte
    let e = general()
        .load_state(&state[..state.len() - 3], &general_opts(5))
        .unwrap_err()
        .to_string();
    assert!(e.contains("truncated"), "{e}");
    let mut bad = state.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 1;
    let e = general()
        .load_state(&bad, &general_opts(5))
        .unwrap_err()
        .to_string();
    assert!(e.contains("checksum"), "{e}");
    // nothing to save before a run
    assert!(general()
        .save_state()
        .unwrap_err()
        .to_string()
        .contains("state"));
}

fn qap(backend: Backend) -> QapHc12 {
    let p = Arc::new(QapProblem::from_instance(&instance("nug12")));
    QapHc12::new(p, 4, 2, 0, 0, backend, CostForm::Delta).unwrap()
}

fn qap_opts(runs: u64, restart: RestartMode) -> QapSolveOptions {
    QapSolveOptions {
        stop: Stop::budget(runs),
        seed: 5,
        restart,
        ..QapSolveOptions::default()
    }
}

type QapOutcome = (String, Vec<usize>, u32, u64, u32, u64, StopReason);

fn qap_outcome(r: &metaopt::hc12::qap::solve::QapSolveResult) -> QapOutcome {
    (
        format!("{:?}", r.cost),
        r.permutation.clone(),
        r.runs,
        r.iterations,
        r.best_run_iterations,
        r.evaluations,
        r.stop,
    )
}

#[test]
fn a_resumed_qap_search_ends_as_the_uninterrupted_one() {
    let inst = instance("nug12");
    for (backend, restart) in [
        (Backend::DEVICE, RestartMode::Rebase),
        (Backend::Cpu, RestartMode::Random),
    ] {
        let total = 30;
        let w = solve(
            &mut qap(backend),
            &qap_opts(total, restart),
            Some(&inst),
            |_| {},
        )
        .unwrap();
        assert_eq!(w.runs, 30);
        for split in [1, 13, 29] {
            let mut first = qap(backend);
            let part = solve(&mut first, &qap_opts(split, restart), Some(&inst), |_| {}).unwrap();
            assert_eq!(part.runs as u64, split);
            let state = first.save_state().unwrap();
            let mut second = qap(backend);
            second
                .load_state(&state, &qap_opts(total, restart))
                .unwrap();
            let rest = solve(&mut second, &qap_opts(total, restart), Some(&inst), |_| {}).unwrap();
            assert_eq!(
                qap_outcome(&rest),
                qap_outcome(&w),
                "{backend:?} split at {split}"
            );
            // the solver that ran the first part continues it too
            first.load_state(&state, &qap_opts(total, restart)).unwrap();
            let more = solve(&mut first, &qap_opts(total, restart), Some(&inst), |_| {}).unwrap();
            assert_eq!(qap_outcome(&more), qap_outcome(&w));
        }
    }
    // another restart mode or instance is refused
    let mut s = qap(Backend::Cpu);
    solve(
        &mut s,
        &qap_opts(2, RestartMode::Rebase),
        Some(&inst),
        |_| {},
    )
    .unwrap();
    let state = s.save_state().unwrap();
    let e = qap(Backend::Cpu)
        .load_state(&state, &qap_opts(5, RestartMode::Random))
        .unwrap_err()
        .to_string();
    assert!(e.contains("option restart was Rebase"), "{e}");
    let p = Arc::new(QapProblem::from_instance(&instance("had12")));
    let mut had = QapHc12::new(p, 4, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    let e = had
        .load_state(&state, &qap_opts(5, RestartMode::Rebase))
        .unwrap_err()
        .to_string();
    assert!(e.contains("another problem"), "{e}");
}

fn sat_opts(runs: u64) -> SatOptions {
    // plain HC12 (no list): each run ends at its first local optimum, so many runs are made
    SatOptions {
        tabu: None,
        tenure: 0,
        seed: 3,
        stop: Stop::budget(runs),
        ..SatOptions::default()
    }
}

fn sat() -> SatSolver {
    let cnf = Cnf::from_file(&satlib("uf75-325/uf75-01.cnf")).unwrap();
    SatSolver::new(cnf, 1, 1, Backend::DEVICE).unwrap()
}

#[test]
fn a_resumed_sat_search_ends_as_the_uninterrupted_one() {
    let total = 12;
    let w = sat().solve(&sat_opts(total)).unwrap();
    for split in [1, 7] {
        let mut first = sat();
        let part = first.solve(&sat_opts(split)).unwrap();
        let state = first.save_state().unwrap();
        let mut second = sat();
        second.load_state(&state, &sat_opts(total)).unwrap();
        let rest = second.solve(&sat_opts(total)).unwrap();
        assert_eq!(
            (
                rest.best_unsatisfied,
                rest.best.clone(),
                rest.runs,
                rest.iterations,
                rest.evaluations,
                rest.stop
            ),
            (
                w.best_unsatisfied,
                w.best.clone(),
                w.runs,
                w.iterations,
                w.evaluations,
                w.stop
            ),
            "split at {split} ({} runs)",
            part.runs
        );
    }
    let mut s = sat();
    s.solve(&sat_opts(2)).unwrap();
    let state = s.save_state().unwrap();
    let e = sat()
        .load_state(
            &state,
            &SatOptions {
                tenure: 4,
                ..sat_opts(5)
            },
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("option tenure was 0; this run has 4"), "{e}");
    let other = Cnf::from_file(&satlib("uf75-325/uf75-02.cnf")).unwrap();
    let e = SatSolver::new(other, 1, 1, Backend::DEVICE)
        .unwrap()
        .load_state(&state, &sat_opts(5))
        .unwrap_err()
        .to_string();
    assert!(e.contains("another problem"), "{e}");
}

#[test]
fn checkpoint_files_are_written_between_runs_and_resume() {
    let dir = work_dir!();
    let path = dir.join("qap_hc12.state");
    let inst = instance("nug12");
    let token = metaopt::interrupt::StopToken::new();
    let mut o = qap_opts(1_000_000, RestartMode::Rebase);
    o.stop.checkpoint = Some(Checkpointing::new(
        path.clone(),
        Some(Duration::from_nanos(1)),
    ));
    o.stop.token = Some(token.clone());
    let mut a = qap(Backend::Cpu);
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        token.request();
    });
    let r = solve(&mut a, &o, Some(&inst), |_| {}).unwrap();
    t.join().unwrap();
    assert_eq!(r.stop, StopReason::Interrupted);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes, a.save_state().unwrap());
    // the checkpoint holds the whole runs: continued to a few runs more, the search equals the
    // one that never stopped
    let upto = qap_opts(u64::from(r.runs) + 5, RestartMode::Rebase);
    let w = solve(&mut qap(Backend::Cpu), &upto, Some(&inst), |_| {}).unwrap();
    let mut b = qap(Backend::Cpu);
    b.load_state(&bytes, &upto).unwrap();
    let rest = solve(&mut b, &upto, Some(&inst), |_| {}).unwrap();
    assert_eq!(qap_outcome(&rest), qap_outcome(&w));
}
