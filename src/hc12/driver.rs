//! The iterated use of the qapswap2 solver (docs/QAP.md "Iterated use"): runs from a start, then
//! rebasing (base := best permutation, string := zeros) while that improves, and restarts from a
//! random permutation and a random string when it does not, until the run count, the time limit or the target ends
//! it. The best over all runs is the result.

use crate::error::{Error, Result};
use crate::hc12::qap::QapHc12;
use crate::problem::qap::{check_perm, Cost};
use crate::problem::qap::gilmore_lawler;
use crate::problem::qap::QapInstance;
use crate::rng::Philox;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Where the first run starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Start {
    #[default]
    Random,
    Identity,
    /// The optimal assignment of the Gilmore-Lawler bound's linear assignment problem.
    Glb,
    Given(Vec<usize>),
}

/// What follows a run that has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum RestartMode {
    /// Rebase on the best permutation while rebasing improves it, else a random restart.
    #[default]
    Rebase,
    /// Always a new random permutation.
    Random,
}

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Most runs (each run is one HC12 climb); 0 = no limit (then a time limit or target ends it).
    pub runs: u32,
    pub time_limit: Option<Duration>,
    pub seed: u64,
    pub start: Start,
    pub restart: RestartMode,
    /// Stop as soon as the best cost is at or below this value.
    pub target: Option<f64>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { runs: 100, time_limit: None, seed: 1, start: Start::Random, restart: RestartMode::Rebase, target: None }
    }
}

/// What [`solve`] reports after each run (for progress bars).
#[derive(Clone, Debug)]
pub struct Progress {
    pub runs: u32,
    pub best: Cost,
    pub elapsed: Duration,
}

/// The result of [`solve`].
#[derive(Clone, Debug, Serialize)]
pub struct SolveResult {
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
}

/// Relative gap of `cost` to the best-known value, in percent.
pub fn gap_percent(cost: f64, bks: f64) -> f64 {
    if bks == 0.0 {
        if cost == 0.0 { 0.0 } else { f64::INFINITY }
    } else {
        100.0 * (cost - bks) / bks.abs()
    }
}

/// Runs the iterated HC12 on `solver`. `instance` is needed only for the GLB start.
pub fn solve(
    solver: &mut QapHc12,
    opts: &SolveOptions,
    instance: Option<&QapInstance>,
    mut progress: impl FnMut(&Progress),
) -> Result<SolveResult> {
    let n = solver.problem().n;
    if opts.runs == 0 && opts.time_limit.is_none() && opts.target.is_none() {
        return Err(Error::arg("runs", "0 (unlimited) needs a time limit or a target to end"));
    }
    if let Some(t) = opts.target {
        if t.is_nan() {
            return Err(Error::arg("target", "NaN"));
        }
    }
    let t0 = Instant::now();
    // stream 0 of the seed gives the random starts, in order
    let mut rng = Philox::new(opts.seed, 0);
    let mut base = match &opts.start {
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
    };
    let zero = solver.zero_string();
    let (n_param, nbit) = (solver.neighbourhood().n_param as usize, solver.neighbourhood().nbit);
    // A random start is a random base and a random string: from the zero string only swaps
    // with an end at a position whose Gray code has one or two bits set are one move away, so
    // climbs from it end within a few iterations; a random swap list makes every position
    // reachable (the thesis's runs, whose success grows with the number of swaps).
    let random_string = |rng: &mut Philox| -> Vec<u32> {
        (0..n_param).map(|_| if nbit == 32 { rng.next_u32() } else { rng.next_u32() & ((1u32 << nbit) - 1) }).collect()
    };
    let mut k = if opts.start == Start::Random { random_string(&mut rng) } else { zero.clone() };
    let mut best: Option<(Cost, Vec<usize>)> = None;
    let (mut runs, mut iterations, mut evaluations) = (0u32, 0u64, 0u64);
    let (mut best_run_iterations, mut seconds_to_best) = (0u32, 0.0);
    let mut target_reached = false;
    loop {
        let out = solver.run(Some(&base), Some(&k))?;
        runs += 1;
        iterations += out.iterations as u64;
        evaluations += out.evaluations;
        let improved = best.as_ref().is_none_or(|(c, _)| out.cost.less(c));
        if improved {
            best = Some((out.cost, out.order.clone()));
            best_run_iterations = out.iterations;
            seconds_to_best = t0.elapsed().as_secs_f64();
        }
        let best_cost = best.as_ref().expect("set after the first run").0;
        progress(&Progress { runs, best: best_cost, elapsed: t0.elapsed() });
        if let Some(t) = opts.target {
            if best_cost.as_f64() <= t {
                target_reached = true;
                break;
            }
        }
        if (opts.runs > 0 && runs >= opts.runs) || opts.time_limit.is_some_and(|l| t0.elapsed() >= l) {
            break;
        }
        // a run that moved found a better permutation than its base: its neighbourhood seen from
        // the new base is a fresh one, worth climbing; a run that did not move is stuck there
        if opts.restart == RestartMode::Rebase && out.iterations > 1 {
            base = out.order;
            k = zero.clone();
        } else {
            base = rng.permutation(n);
            k = random_string(&mut rng);
        }
    }
    let (cost, permutation) = best.expect("at least one run");
    Ok(SolveResult {
        cost,
        permutation,
        runs,
        iterations,
        best_run_iterations,
        evaluations,
        seconds: t0.elapsed().as_secs_f64(),
        seconds_to_best,
        target_reached,
    })
}
