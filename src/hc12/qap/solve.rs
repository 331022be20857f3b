//! The iterated use of the qapswap2 solver: runs from a start, then rebasing (base := best
//! permutation, string := zeros) while that improves, and restarts from a random permutation and
//! a random string when it does not, until the engine's stop conditions ([`Stop`]) end it. The
//! loop is the engine's (`src/hc12/restarts.rs`); this file holds the QAP's start policy.

use super::QapHc12;
use crate::error::{Error, Result};
use crate::hc12::restarts::{restarts, RunReport, Stop};
use crate::interrupt::StopReason;
use crate::problem::qap::{check_perm, gilmore_lawler, lower_bound, Cost, LowerBound, QapInstance};
use crate::rng::Philox;
use serde::Serialize;

/// Where the first run starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Start {
    #[default]
    Random,
    Identity,
    /// The optimal assignment of the Gilmore-Lawler bound's linear assignment problem.
    Glb,
    /// Projected from the eigenvalue bound (thesis Table 5's "HRW"; `problem::qap::eigen`).
    Hrw,
    /// Projected from the projected eigenvalue bound of Hadley, Rendl and Wolkowicz (Table 5's
    /// "PE", which the thesis calls a semidefinite bound).
    Pe,
    /// Projected from the convex quadratic programming bound of Anstreicher and Brixius (Table
    /// 5's "AB").
    Ab,
    Given(Vec<usize>),
}

impl Start {
    /// The named starts: every one but a given permutation.
    pub const NAMED: [Start; 6] = [
        Start::Random,
        Start::Identity,
        Start::Glb,
        Start::Hrw,
        Start::Pe,
        Start::Ab,
    ];

    /// The start's name in the outputs and on the command line ("given" for a permutation).
    pub fn name(&self) -> &'static str {
        match self {
            Start::Random => "random",
            Start::Identity => "identity",
            Start::Glb => "glb",
            Start::Hrw => "hrw",
            Start::Pe => "pe",
            Start::Ab => "ab",
            Start::Given(_) => "given",
        }
    }

    /// The named start of `name` (any case), if there is one.
    pub fn from_name(name: &str) -> Option<Start> {
        Start::NAMED
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// The lower bound a start is projected from (GLB, HRW, PE, AB), if any.
    pub fn bound(&self) -> Option<LowerBound> {
        match self {
            Start::Glb => Some(LowerBound::Glb),
            Start::Hrw => Some(LowerBound::Hrw),
            Start::Pe => Some(LowerBound::Pe),
            Start::Ab => Some(LowerBound::Ab),
            _ => None,
        }
    }

    /// The start projected from `kind`.
    pub fn from_bound(kind: LowerBound) -> Start {
        match kind {
            LowerBound::Glb => Start::Glb,
            LowerBound::Hrw => Start::Hrw,
            LowerBound::Pe => Start::Pe,
            LowerBound::Ab => Start::Ab,
        }
    }
}

/// What follows a run that has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RestartMode {
    /// Rebase on the best permutation while rebasing improves it, else a random restart.
    #[default]
    Rebase,
    /// Always a new random permutation.
    Random,
}

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct QapSolveOptions {
    /// Runs (each run is one HC12 climb; `max_runs` 0 = no cap), time limit, target cost.
    pub stop: Stop,
    pub seed: u64,
    pub start: Start,
    pub restart: RestartMode,
}

impl Default for QapSolveOptions {
    fn default() -> Self {
        QapSolveOptions {
            stop: Stop {
                max_runs: 100,
                ..Stop::default()
            },
            seed: 1,
            start: Start::Random,
            restart: RestartMode::Rebase,
        }
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug, Serialize)]
pub struct QapSolveResult {
    pub cost: Cost,
    /// Best permutation, 0-based.
    pub permutation: Vec<usize>,
    pub runs: u32,
    /// Iterations over all runs.
    pub iterations: u64,
    /// Iterations of the run that found the best.
    pub best_run_iterations: u32,
    /// Rows evaluated over all runs.
    pub evaluations: u64,
    pub seconds: f64,
    /// Seconds until the best was first found.
    pub seconds_to_best: f64,
    pub target_reached: bool,
    /// Why the search ended.
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
}

/// Defined with the QAP instances; named here for one more release.
pub use crate::problem::qap::gap_percent;

/// Runs the iterated HC12 on `solver`. `instance` is needed only for the starts projected from a
/// lower bound (GLB, HRW, PE, AB).
pub fn solve(
    solver: &mut QapHc12,
    opts: &QapSolveOptions,
    instance: Option<&QapInstance>,
    progress: impl FnMut(&RunReport<Cost>),
) -> Result<QapSolveResult> {
    let n = solver.problem().n;
    opts.stop.check("runs", "a time limit or a target to end")?;
    // stream 0 of the seed gives the random starts, in order
    let mut rng = Philox::new(opts.seed, 0);
    let zero = solver.zero_string();
    let (n_param, nbit) = (
        solver.neighbourhood().n_param as usize,
        solver.neighbourhood().nbit,
    );
    // A random start is a random base and a random string: from the zero string only swaps
    // with an end at a position whose Gray code has one or two bits set are one move away, so
    // climbs from it end within a few iterations; a random swap list makes every position
    // reachable (the thesis's runs, whose success grows with the number of swaps).
    let random_string = move |rng: &mut Philox| -> Vec<u32> {
        (0..n_param)
            .map(|_| {
                if nbit == 32 {
                    rng.next_u32()
                } else {
                    rng.next_u32() & ((1u32 << nbit) - 1)
                }
            })
            .collect()
    };
    let tabu = solver.tabu_config().cloned();
    let max_iterations = solver.max_iterations;
    let out = restarts(
        solver,
        &opts.stop,
        max_iterations,
        tabu.as_ref(),
        |_, _, last| {
            Ok(match last {
                None => {
                    let base = match &opts.start {
                        Start::Random => rng.permutation(n),
                        Start::Identity => (0..n).collect(),
                        Start::Given(p) => {
                            check_perm(p, n, "start permutation")?;
                            p.clone()
                        }
                        Start::Glb => {
                            let inst = instance.ok_or_else(|| {
                                Error::arg("start", "the GLB start needs the instance's matrices (a QAPLIB instance)")
                            })?;
                            gilmore_lawler(inst).1
                        }
                        Start::Hrw | Start::Pe | Start::Ab => {
                            let kind = opts.start.bound().unwrap_or(LowerBound::Glb);
                            let inst = instance.ok_or_else(|| {
                                Error::arg(
                                    "start",
                                    format!("the {} start needs the instance's matrices (a QAPLIB instance)", kind.name().to_uppercase()),
                                )
                            })?;
                            lower_bound(inst, kind).permutation
                        }
                    };
                    let k = if opts.start == Start::Random {
                        random_string(&mut rng)
                    } else {
                        zero.clone()
                    };
                    (base, k)
                }
                // a run that moved found a better permutation than its base: its neighbourhood
                // seen from the new base is a fresh one, worth climbing; a run that did not move
                // is stuck there
                Some(last) if opts.restart == RestartMode::Rebase && last.iterations > 1 => (
                    last.best.cur.iter().map(|&v| v as usize).collect(),
                    zero.clone(),
                ),
                Some(_) => (rng.permutation(n), random_string(&mut rng)),
            })
        },
        progress,
    )?;
    Ok(QapSolveResult {
        cost: out.value,
        permutation: out.best.cur.iter().map(|&v| v as usize).collect(),
        runs: out.runs,
        iterations: out.iterations,
        best_run_iterations: out.best_run_iterations,
        evaluations: out.evaluations,
        seconds: out.seconds,
        seconds_to_best: out.seconds_to_best,
        target_reached: out.target_reached,
        stop: out.stop,
    })
}
