//! The one place a run decides to stop ([`Driver`]) and sizes its next launch ([`Pacer`]).
//!
//! A solver's loop is: `while driver.check(&progress).is_none() { size = driver.next_size(..);
//! step(size); driver.stepped(size, seconds) }`. The driver owns the clock (started before the
//! set-up, which counts against the limit), the interrupt and the stop token, the limits, the
//! stagnation count and the progress callback; the solver owns its step.

use super::cancel::{Clock, Cut, StopToken, Watch};
use super::StopReason;
use std::time::{Duration, Instant};

/// The time one launch aims at under a time limit or a stop token, so that a run stops within
/// about one launch of either.
pub const STEP_SECONDS: f64 = 0.05;

/// A run's figures between two steps, as the driver and a progress callback see them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Seconds since the run started (set-up included).
    pub elapsed: f64,
    /// The solver's own count of work done: generations, iterations, runs, flips, rounds.
    pub work: u64,
    /// Objective evaluations so far (0 where the solver does not count them).
    pub evaluations: u64,
    /// The best value so far (minimised; `f64::INFINITY` before the first).
    pub best: f64,
}

/// Sizes launches from a measured rate so each takes about [`STEP_SECONDS`] and never more than
/// the time left: the first launch is the solver's small `first`, each next at most 16 times the
/// last (a rate measured on a tiny launch is noisy).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pacer {
    /// Units per second, measured on the last launch.
    rate: Option<f64>,
    last: u64,
}

impl Pacer {
    /// The units of the next launch: at least 1, at most `max`.
    pub fn size(&self, first: u64, max: u64, left: Option<Duration>) -> u64 {
        let max = max.max(1);
        let aim = left.map_or(STEP_SECONDS, |l| l.as_secs_f64().min(STEP_SECONDS));
        let n = match self.rate {
            None => first,
            Some(r) => {
                let n = (r * aim).floor().min(u64::MAX as f64) as u64;
                if self.last > 0 {
                    n.min(self.last.saturating_mul(16))
                } else {
                    n
                }
            }
        };
        n.clamp(1, max)
    }

    /// Records a launch of `units` that took `seconds`.
    pub fn record(&mut self, units: u64, seconds: f64) {
        if units > 0 {
            self.rate = Some(units as f64 / seconds.max(1e-6));
            self.last = units;
        }
    }
}

/// Where a run decides to stop. Built before the set-up from the run's limits; asked between
/// steps with the run's [`Progress`]; the first reason it returns is the run's `stopped_by`.
pub struct Driver<'a> {
    /// The clock and the watch.
    cut: Cut,
    budget: Option<u64>,
    evaluations: Option<u64>,
    target: Option<f64>,
    stagnation: Option<u64>,
    /// The best value seen and the work count at which it last improved.
    best: f64,
    improved_at: u64,
    pacer: Pacer,
    progress: Option<ProgressFn<'a>>,
}

/// The progress callback of a [`Driver`]: false stops the run (`StopReason::Budget`).
type ProgressFn<'a> = Box<dyn FnMut(&Progress) -> bool + 'a>;

impl<'a> Driver<'a> {
    /// A driver whose clock started at `start` (take it before the set-up: set-up counts).
    pub fn new(start: Instant, time_limit: Option<Duration>, token: Option<&StopToken>) -> Self {
        Driver {
            cut: Cut {
                clock: Clock::since(start, time_limit),
                watch: Watch::new(token),
            },
            budget: None,
            evaluations: None,
            target: None,
            stagnation: None,
            best: f64::INFINITY,
            improved_at: 0,
            pacer: Pacer::default(),
            progress: None,
        }
    }

    /// Stops once the solver's own count of work reaches `n`.
    pub fn budget(mut self, n: Option<u64>) -> Self {
        self.budget = n;
        self
    }

    /// Stops once the evaluations reach `n`.
    pub fn evaluations(mut self, n: Option<u64>) -> Self {
        self.evaluations = n;
        self
    }

    /// Stops once the best value is at most `t`.
    pub fn target(mut self, t: Option<f64>) -> Self {
        self.target = t;
        self
    }

    /// Stops after `n` units of work without an improvement of the best.
    pub fn stagnation(mut self, n: Option<u64>) -> Self {
        self.stagnation = n;
        self
    }

    /// A resumed run's stagnation count: its best value so far `best`, last improved at work
    /// count `at` (what the checks of the run before its checkpoint had recorded).
    pub fn improved(mut self, best: f64, at: u64) -> Self {
        self.best = best;
        self.improved_at = at;
        self
    }

    /// Calls `f` at every check, the one that stops the run included; `false` from it stops the
    /// run ([`StopReason::Budget`]).
    pub fn on_progress(mut self, f: impl FnMut(&Progress) -> bool + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    pub fn clock(&self) -> &Clock {
        &self.cut.clock
    }

    /// The run's clock and watch, as the cut of work inside a step or of the run's set-up
    /// ([`Cut::setup_scope`]).
    pub fn cut(&self) -> &Cut {
        &self.cut
    }

    pub fn watch(&self) -> &Watch {
        &self.cut.watch
    }

    /// Seconds since the run started.
    pub fn elapsed(&self) -> f64 {
        self.cut.clock.elapsed().as_secs_f64()
    }

    /// Whether the run must end now at the caller's word: interrupted, its token requested, or
    /// its time limit passed (for work inside a step that can stop early and be finished later).
    pub fn due(&self) -> Option<StopReason> {
        self.cut.reason()
    }

    /// Why the run stops now, if it does: the target first, then the solver's budget, the
    /// evaluations, stagnation, the progress callback, the interrupt or token, the time limit.
    /// `work`, `evaluations` and `best` are the totals so far. The progress callback sees every
    /// check, the one that stops the run too (so its last report is the run's end).
    pub fn check(&mut self, work: u64, evaluations: u64, best: f64) -> Option<StopReason> {
        if best < self.best {
            self.best = best;
            self.improved_at = work;
        }
        let reason = if self.target.is_some_and(|t| best <= t) {
            Some(StopReason::Target)
        } else if self.budget.is_some_and(|b| work >= b) {
            Some(StopReason::Budget)
        } else if self.evaluations.is_some_and(|e| evaluations >= e) {
            Some(StopReason::Evaluations)
        } else if self
            .stagnation
            .is_some_and(|s| work.saturating_sub(self.improved_at) >= s)
        {
            Some(StopReason::Stagnation)
        } else {
            None
        };
        if let Some(f) = self.progress.as_mut() {
            let p = Progress {
                elapsed: self.cut.clock.elapsed().as_secs_f64(),
                work,
                evaluations,
                best: self.best,
            };
            if !f(&p) && reason.is_none() {
                return Some(StopReason::Budget);
            }
        }
        reason.or_else(|| self.due())
    }

    /// The units of the next step: the solver's `first` at the start, then sized from the
    /// measured rate to end before the time left (at most `max`, and at most what the budget
    /// leaves after `work`). Without a time limit, a stop token or a progress callback, `max`.
    pub fn next_size(&self, first: u64, max: u64, work: u64) -> u64 {
        let max = match self.budget {
            Some(b) => max.min(b.saturating_sub(work)).max(1),
            None => max.max(1),
        };
        if self.cut.clock.limit.is_none() && !self.cut.watch.has_token() && self.progress.is_none()
        {
            // an interrupt alone: steps of the pacer's size keep Ctrl-C prompt
            return self.pacer.size(first, max, None);
        }
        self.pacer.size(first, max, self.cut.clock.left())
    }

    /// Records a step of `units` that took `seconds`, for the next [`next_size`](Self::next_size).
    pub fn stepped(&mut self, units: u64, seconds: f64) {
        self.pacer.record(units, seconds);
    }

    /// Runs `step(units)` timed and records it.
    pub fn step<R>(&mut self, units: u64, step: impl FnOnce(u64) -> R) -> R {
        let t = Instant::now();
        let r = step(units);
        self.stepped(units, t.elapsed().as_secs_f64());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reasons_come_in_order() {
        let mut d = Driver::new(Instant::now(), None, None)
            .budget(Some(10))
            .target(Some(0.0))
            .evaluations(Some(100))
            .stagnation(Some(4));
        assert_eq!(d.check(0, 0, 5.0), None);
        assert_eq!(d.check(3, 10, 4.0), None);
        // 4 units without improvement
        assert_eq!(d.check(7, 20, 4.0), Some(StopReason::Stagnation));
        assert_eq!(d.check(8, 100, 3.0), Some(StopReason::Evaluations));
        assert_eq!(d.check(10, 100, 3.0), Some(StopReason::Budget));
        assert_eq!(d.check(10, 100, 0.0), Some(StopReason::Target));
    }

    #[test]
    fn a_token_and_a_limit_stop_it() {
        let t = StopToken::new();
        let mut d = Driver::new(Instant::now(), None, Some(&t));
        assert_eq!(d.check(1, 0, 1.0), None);
        t.request();
        assert_eq!(d.check(1, 0, 1.0), Some(StopReason::Interrupted));
        let start = Instant::now() - Duration::from_secs(2);
        let mut d = Driver::new(start, Some(Duration::from_secs(1)), None);
        assert_eq!(d.check(1, 0, 1.0), Some(StopReason::TimeLimit));
    }

    #[test]
    fn a_progress_callback_may_stop_it() {
        let mut seen = Vec::new();
        {
            let mut d = Driver::new(Instant::now(), None, None).on_progress(|p| {
                seen.push(p.work);
                p.work < 2
            });
            assert_eq!(d.check(1, 0, 1.0), None);
            assert_eq!(d.check(2, 0, 1.0), Some(StopReason::Budget));
        }
        assert_eq!(seen, [1, 2]);
    }

    #[test]
    fn the_check_that_stops_the_run_is_reported_too() {
        let mut seen = Vec::new();
        {
            let mut d = Driver::new(Instant::now(), None, None)
                .budget(Some(2))
                .on_progress(|p| {
                    seen.push((p.work, p.best));
                    true
                });
            assert_eq!(d.check(1, 0, 3.0), None);
            assert_eq!(d.check(2, 0, 1.0), Some(StopReason::Budget));
        }
        assert_eq!(seen, [(1, 3.0), (2, 1.0)]);
    }

    #[test]
    fn steps_are_sized_to_the_time_left_and_the_budget() {
        let mut d =
            Driver::new(Instant::now(), Some(Duration::from_secs(100)), None).budget(Some(50));
        assert_eq!(d.next_size(4, 1000, 0), 4);
        // 4 units in 1 ms: 4000 units/s, 0.1 s -> 400, but at most 16 x 4 = 64 and the budget's 46
        d.stepped(4, 0.001);
        assert_eq!(d.next_size(4, 1000, 4), 46);
        let mut p = Pacer::default();
        p.record(100, 1.0);
        // 100 units/s and 0.05 s left: 5 units
        assert_eq!(p.size(1, 1000, Some(Duration::from_millis(50))), 5);
        assert_eq!(p.size(1, 1000, Some(Duration::ZERO)), 1);
    }
}
