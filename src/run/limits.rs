//! What ends a run: the one [`Stop`] every iterative solver takes, and the [`Driver`] built from
//! it.

use super::cancel::{check_time_limit, Clock, Cut, StopToken, Watch};
use super::checkpoint::Checkpointing;
use super::Driver;
use crate::error::{Error, Result};
use std::time::{Duration, Instant};

/// When a run stops, and where it writes its checkpoints. `None` means no limit of that kind;
/// a run needs at least one limit that surely ends it (see [`Stop::check`]).
///
/// The budget counts the solver's own unit of work, which its documentation names: runs of
/// climbs (HC12), generations (DE), iterations (the QAP tabu search, ACO), flips (the SAT
/// walks), steps (basin hopping). Several stops may be given; the first reached ends the run,
/// in [`Driver::check`]'s order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stop {
    /// Units of the solver's own work of this call.
    pub budget: Option<u64>,
    /// Objective evaluations of this call (solvers that count them).
    pub evaluations: Option<u64>,
    /// Stop once the best value is at most this.
    pub target: Option<f64>,
    /// Set-up counted; checked between launches (launches are sized to the time left).
    pub time_limit: Option<Duration>,
    /// A per-call stop request ([`StopToken::request`]), checked with `metaopt::interrupt`
    /// between launches: the run then returns its best so far, stopped as interrupted.
    pub token: Option<StopToken>,
    /// Record the best so far every this many units of work, for solvers that keep a history
    /// (0: never).
    pub record_every: u64,
    /// Where and how often the run writes its checkpoint (its whole state, from which the
    /// solver's `load_state` continues it): between launches when due, and when the run ends,
    /// whatever ended it. None: no file.
    pub checkpoint: Option<Checkpointing>,
}

impl Stop {
    /// A stop after `n` units of the solver's work.
    pub fn budget(n: u64) -> Self {
        Stop {
            budget: Some(n),
            ..Stop::default()
        }
    }

    /// A stop at the time limit `d`.
    pub fn time_limit(d: Duration) -> Self {
        Stop {
            time_limit: Some(d),
            ..Stop::default()
        }
    }

    /// Whether something surely ends the run: a budget, an evaluation budget, a time limit or
    /// a stop token (a target alone may never be reached).
    pub fn ends(&self) -> bool {
        self.budget.is_some()
            || self.evaluations.is_some()
            || self.time_limit.is_some()
            || self.token.is_some()
    }

    /// Refuses a run nothing would end, a NaN target, a time limit past the largest, and a
    /// checkpoint plan that cannot be kept. `budget_arg` names the budget in the caller's words
    /// (`max_runs`, `max_generations`, ...).
    pub fn check(&self, budget_arg: &'static str) -> Result<()> {
        if !self.ends() {
            return Err(Error::arg(
                budget_arg,
                if self.target.is_some() {
                    "none with a target alone may never end (the target may be unreachable): give a budget, a time limit or a stop token"
                } else {
                    "none: give a budget, a time limit or a stop token"
                },
            ));
        }
        if self.target.is_some_and(f64::is_nan) {
            return Err(Error::arg("target", "NaN"));
        }
        check_time_limit(self.time_limit, "time_limit")?;
        if let Some(c) = &self.checkpoint {
            c.check("checkpoint")?;
        }
        Ok(())
    }

    /// Refuses what an exact algorithm (shortest paths, the Voronoi diagram) cannot keep: it
    /// runs to its end or stops with no result, so only a time limit and a stop token apply;
    /// a budget, evaluations, a target, a record interval or a checkpoint plan is an error
    /// naming the field.
    pub fn check_exact(&self) -> Result<()> {
        let set = [
            ("budget", self.budget.is_some()),
            ("evaluations", self.evaluations.is_some()),
            ("target", self.target.is_some()),
            ("record_every", self.record_every > 0),
            ("checkpoint", self.checkpoint.is_some()),
        ];
        if let Some((name, _)) = set.iter().find(|(_, on)| *on) {
            return Err(Error::arg(
                name,
                "an exact algorithm runs to its end or stops with no result: only a time limit and a stop token apply",
            ));
        }
        check_time_limit(self.time_limit, "time_limit")
    }

    /// The clock (from `start`, with the time limit) and the watch (the interrupt and the
    /// token) of an exact call, which asks them inside its work.
    pub fn cut(&self, start: Instant) -> Cut {
        Cut {
            clock: Clock::since(start, self.time_limit),
            watch: Watch::new(self.token.as_ref()),
        }
    }

    /// The driver of a run whose clock started at `start` (before the set-up, which counts),
    /// with this stop's budget, evaluations, target, time limit and token.
    pub fn driver<'a>(&self, start: Instant) -> Driver<'a> {
        Driver::new(start, self.time_limit, self.token.as_ref())
            .budget(self.budget)
            .evaluations(self.evaluations)
            .target(self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::StopReason;

    #[test]
    fn a_run_nothing_ends_is_refused_by_its_budget_name() {
        let e = Stop::default().check("max_runs").unwrap_err().to_string();
        assert!(e.contains("max_runs"), "{e}");
        let s = Stop {
            target: Some(0.0),
            ..Stop::default()
        };
        let e = s.check("max_generations").unwrap_err().to_string();
        assert!(e.contains("max_generations") && e.contains("target"), "{e}");
        let s = Stop {
            target: Some(f64::NAN),
            ..Stop::budget(3)
        };
        assert!(s.check("b").unwrap_err().to_string().contains("target"));
        assert!(Stop::budget(1).check("b").is_ok());
        assert!(Stop::time_limit(Duration::from_secs(1)).check("b").is_ok());
        let s = Stop {
            token: Some(StopToken::new()),
            ..Stop::default()
        };
        assert!(s.check("b").is_ok());
        let e = Stop::time_limit(Duration::from_secs_f64(1e12))
            .check("b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("time_limit"), "{e}");
    }

    #[test]
    fn an_exact_call_takes_a_time_limit_and_a_token_only() {
        let s = Stop {
            time_limit: Some(Duration::from_secs(5)),
            token: Some(StopToken::new()),
            ..Stop::default()
        };
        assert!(s.check_exact().is_ok());
        assert!(Stop::default().check_exact().is_ok());
        let cut = s.cut(Instant::now());
        assert!(cut.reason().is_none());
        s.token.as_ref().unwrap().request();
        assert_eq!(cut.reason(), Some(StopReason::Interrupted));
        for (bad, name) in [
            (Stop::budget(3), "budget"),
            (
                Stop {
                    target: Some(1.0),
                    ..Stop::default()
                },
                "target",
            ),
            (
                Stop {
                    record_every: 2,
                    ..Stop::default()
                },
                "record_every",
            ),
        ] {
            let e = bad.check_exact().unwrap_err().to_string();
            assert!(e.contains(name) && e.contains("exact"), "{e}");
        }
    }

    #[test]
    fn its_driver_stops_at_its_limits() {
        let s = Stop {
            budget: Some(5),
            evaluations: Some(100),
            target: Some(1.0),
            ..Stop::default()
        };
        let mut d = s.driver(Instant::now());
        assert_eq!(d.check(1, 1, 2.0), None);
        assert_eq!(d.check(1, 100, 2.0), Some(StopReason::Evaluations));
        assert_eq!(d.check(5, 1, 2.0), Some(StopReason::Budget));
        assert_eq!(d.check(1, 1, 1.0), Some(StopReason::Target));
        let t = StopToken::new();
        let s = Stop {
            token: Some(t.clone()),
            time_limit: Some(Duration::from_secs(100)),
            ..Stop::default()
        };
        let mut d = s.driver(Instant::now());
        assert_eq!(d.check(1, 1, 2.0), None);
        t.request();
        assert_eq!(d.check(1, 1, 2.0), Some(StopReason::Interrupted));
        let s = Stop::time_limit(Duration::from_secs(1));
        let mut d = s.driver(Instant::now() - Duration::from_secs(2));
        assert_eq!(d.check(1, 1, 2.0), Some(StopReason::TimeLimit));
    }
}
