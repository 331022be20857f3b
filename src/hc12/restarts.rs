//! The one restart driver of HC12 and the stop conditions every HC12 solver takes ([`Stop`]):
//! climbs (`climb.rs`) from the starts a landscape's policy gives until the run cap, the time
//! limit or the target ends it; the result is the best run (the first of equal ones).

use super::climb::{climb, Climb, ClimbEnd, ClimbLimits};
use super::tabu::TabuConfig;
use super::Landscape;
use crate::error::{Error, Result};
use crate::interrupt::{StopReason, StopToken, Watch};
use std::time::{Duration, Instant};

/// The largest run cap of an HC12 search without a time limit or a stop token (2^24): a larger
/// one would not end in any useful time (and each run's figures are kept in the result).
pub const MAX_RUNS: u32 = 1 << 24;

/// When an HC12 search (runs of climbs) stops. One run ends by itself at a local optimum, by
/// the plain iteration cap ([`ClimbLimits`]), or with a tabu list by the list's `max_iterations`
/// and `max_no_improve` ([`TabuConfig`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// Most runs; 0 = no cap (then a time limit or a target must end the search).
    pub max_runs: u32,
    /// Checked before every climb step and after each run (at most 1e9 s).
    pub time_limit: Option<Duration>,
    /// The search ends as soon as the best value is at or below this value.
    pub target: Option<f64>,
    /// A per-call stop request ([`StopToken::request`]), checked before every iteration like
    /// `metaopt::interrupt`; the search then returns its best so far, stopped as interrupted.
    pub token: Option<StopToken>,
}

impl Default for Stop {
    fn default() -> Self {
        Stop {
            max_runs: 1,
            time_limit: None,
            target: None,
            token: None,
        }
    }
}

impl Stop {
    /// Refuses a search nothing would end and a NaN target; `runs_arg` names the run cap and
    /// `ends` what may end an unlimited one.
    ///
    /// A search without a run cap must have something that surely ends it: a time limit, or a
    /// stop token (the caller then stops it); a target alone may never be reached. The run cap
    /// is at most [`MAX_RUNS`] unless a time limit or a stop token can end the search earlier.
    pub fn check(&self, runs_arg: &'static str, ends: &str) -> Result<()> {
        if self.max_runs == 0 && self.time_limit.is_none() && self.target.is_none() {
            return Err(Error::arg(runs_arg, format!("0 (unlimited) needs {ends}")));
        }
        if self.max_runs == 0 && self.time_limit.is_none() && self.token.is_none() {
            return Err(Error::arg(
                runs_arg,
                "0 (unlimited) with a target alone may never end (the target may be unreachable): give a time limit or a stop token",
            ));
        }
        if self.max_runs > MAX_RUNS && self.time_limit.is_none() && self.token.is_none() {
            return Err(Error::arg(
                runs_arg,
                format!("{} runs and no time limit or stop token: at most {MAX_RUNS} (a search that long must be stoppable)", self.max_runs),
            ));
        }
        crate::interrupt::check_time_limit(self.time_limit, "time_limit")?;
        if self.target.is_some_and(f64::is_nan) {
            return Err(Error::arg("target", "NaN"));
        }
        Ok(())
    }
}

/// What the driver reports after each run (for progress bars).
#[derive(Clone, Debug)]
pub struct RunReport<V> {
    /// Runs made so far.
    pub runs: u32,
    /// This run's best value and iterations.
    pub value: V,
    pub iterations: u32,
    /// The best value over all runs so far.
    pub best: V,
    pub elapsed: Duration,
}

/// The best run over a search, with the search's figures.
#[derive(Clone, Debug)]
pub struct Search<B, V> {
    pub best: B,
    pub value: V,
    pub runs: u32,
    /// Iterations over all runs.
    pub iterations: u64,
    /// Iterations of the best run.
    pub best_run_iterations: u32,
    /// Rows evaluated over all runs.
    pub evaluations: u64,
    pub seconds: f64,
    /// Seconds until the best was first found.
    pub seconds_to_best: f64,
    pub target_reached: bool,
    /// Why the search ended.
    pub stop: StopReason,
    /// Every run's best value and iterations, in order.
    pub per_run: Vec<(V, u32)>,
}

/// Runs climbs until `stop` ends the search; `max_iterations` caps each plain run. `next_start` gives each run's start from the run
/// number and the previous run (None before the first), which is where a landscape's restart
/// policy lives (random starts, rebasing); `on_run` sees each run's report.
pub fn restarts<L: Landscape + ?Sized>(
    l: &mut L,
    stop: &Stop,
    max_iterations: u32,
    tabu: Option<&TabuConfig>,
    mut next_start: impl FnMut(&mut L, u32, Option<&Climb<L::Best, L::Value>>) -> Result<L::Start>,
    mut on_run: impl FnMut(&RunReport<L::Value>),
) -> Result<Search<L::Best, L::Value>> {
    let t0 = Instant::now();
    let watch = Watch::new(stop.token.as_ref());
    // the deadline is checked before every climb step of every landscape (a run of
    // many steps must not outlast the limit), so a search ends within the limit plus one step
    let deadline = stop.time_limit.map(|d| t0 + d);
    let limits = ClimbLimits {
        max_iterations,
        deadline,
        watch: Some(&watch),
    };
    let mut best: Option<(L::Best, L::Value)> = None;
    let (mut runs, mut iterations, mut evaluations) = (0u32, 0u64, 0u64);
    let (mut best_run_iterations, mut seconds_to_best) = (0u32, 0.0);
    let mut per_run = Vec::new();
    let mut target_reached = false;
    let mut last: Option<Climb<L::Best, L::Value>> = None;
    let reason = loop {
        let start = next_start(l, runs, last.as_ref())?;
        let out = climb(l, start, tabu, limits)?;
        runs += 1;
        iterations += out.iterations as u64;
        evaluations += out.evaluations;
        per_run.push((out.value, out.iterations));
        if best.as_ref().is_none_or(|(_, v)| l.better(out.value, *v)) {
            best = Some((out.best.clone(), out.value));
            best_run_iterations = out.iterations;
            seconds_to_best = t0.elapsed().as_secs_f64();
        }
        let best_value = best.as_ref().expect("set after the first run").1;
        on_run(&RunReport {
            runs,
            value: out.value,
            iterations: out.iterations,
            best: best_value,
            elapsed: t0.elapsed(),
        });
        if out.end == ClimbEnd::Target || stop.target.is_some_and(|t| l.as_f64(best_value) <= t) {
            target_reached = true;
            break StopReason::Target;
        }
        if out.end == ClimbEnd::Interrupted || watch.stopped() {
            break StopReason::Interrupted;
        }
        if out.end == ClimbEnd::TimeLimit || stop.time_limit.is_some_and(|d| t0.elapsed() >= d) {
            break StopReason::TimeLimit;
        }
        if stop.max_runs > 0 && runs >= stop.max_runs {
            break StopReason::Budget;
        }
        last = Some(out);
    };
    let (best, value) = best.expect("at least one run");
    Ok(Search {
        best,
        value,
        runs,
        iterations,
        best_run_iterations,
        evaluations,
        seconds: t0.elapsed().as_secs_f64(),
        seconds_to_best,
        target_reached,
        stop: reason,
        per_run,
    })
}
