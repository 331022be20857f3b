//! The HC12 climb: the only loop that moves a string through its neighbourhood, for every
//! landscape (general, QAP, SAT), with the tabu-list policy of the library (`tabu.rs`):
//! - plain HC12 ends at the first local optimum (the best row is row 0, the string itself) or
//!   after the plain iteration cap;
//! - with a tabu list, the current string is listed before each search (only strings moved to
//!   are ever listed), the list is consulted only while the current value is better than the
//!   activation limit, a listed row better than the run's best may still win with aspiration,
//!   and the run ends after the list's `max_iterations` or `max_no_improve` iterations without
//!   a new best, or when every row is listed;
//! - the result is the best string of the run, not the last one.

use super::tabu::TabuConfig;
use super::{Landscape, TabuQuery};
use crate::error::Result;
use crate::interrupt::Watch;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Why a climb ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClimbEnd {
    /// The best row was the current string itself.
    LocalOptimum,
    /// Every row was excluded (listed, or held by a landscape's own rule).
    AllExcluded,
    /// The iteration cap (plain or the tabu list's).
    MaxIterations,
    /// The tabu list's `max_no_improve` iterations without a new best.
    NoImprove,
    /// The landscape reached its target (a SAT model).
    Target,
    /// The deadline passed (checked before each iteration when one is given).
    TimeLimit,
    /// `metaopt::interrupt` or the call's stop token (checked before each iteration).
    Interrupted,
}

impl ClimbEnd {
    /// Ended at a local optimum (plain HC12) or with every neighbour excluded, not by a limit.
    pub fn at_local_optimum(self) -> bool {
        matches!(self, ClimbEnd::LocalOptimum | ClimbEnd::AllExcluded)
    }
}

/// What one climb returns: the landscape's best of the run and the run's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Climb<B, V> {
    pub best: B,
    pub value: V,
    /// Row searches made.
    pub iterations: u32,
    /// Rows evaluated, with those the landscape spent on the start.
    pub evaluations: u64,
    pub end: ClimbEnd,
}

/// Limits of one climb besides the tabu list's.
#[derive(Clone, Copy, Debug)]
pub struct ClimbLimits<'a> {
    /// Iterations of a plain climb (without a tabu list).
    pub max_iterations: u32,
    /// Checked before every iteration (None: only between runs, by `restarts.rs`).
    pub deadline: Option<Instant>,
    /// The call's interrupt watch, checked before every iteration.
    pub watch: Option<&'a Watch>,
}

/// Climbs from `start`; `tabu` turns the list on (it is emptied first).
pub fn climb<L: Landscape + ?Sized>(
    l: &mut L,
    start: L::Start,
    tabu: Option<&TabuConfig>,
    limits: ClimbLimits<'_>,
) -> Result<Climb<L::Best, L::Value>> {
    // the deadline binds the row searches of this climb only (not later calls such as every
    // row's values), whatever way the climb ends
    l.set_deadline(None);
    let out = climb_inner(l, start, tabu, limits);
    l.set_deadline(None);
    out
}

fn climb_inner<L: Landscape + ?Sized>(
    l: &mut L,
    start: L::Start,
    tabu: Option<&TabuConfig>,
    limits: ClimbLimits<'_>,
) -> Result<Climb<L::Best, L::Value>> {
    // set before the start: a start valued on the device (the general HC12 reads row 0 of a
    // search) is cut as a step is
    l.set_deadline(limits.deadline);
    let mut evaluations = l.start_run(start)?;
    if let Some(cfg) = tabu {
        l.reset_tabu(cfg)?;
    }
    let max_iterations = tabu.map_or(limits.max_iterations, |c| c.max_iterations);
    let (mut best, mut best_value) = (l.best_so_far(), l.current());
    let (mut iterations, mut no_improve) = (0u32, 0u32);
    let end = loop {
        if l.reached_target() {
            break ClimbEnd::Target;
        }
        if iterations >= max_iterations {
            break ClimbEnd::MaxIterations;
        }
        if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            break ClimbEnd::TimeLimit;
        }
        if limits.watch.is_some_and(Watch::stopped) {
            break ClimbEnd::Interrupted;
        }
        let mut query = TabuQuery::plain(best_value, iterations);
        if let Some(cfg) = tabu {
            query.insert = true;
            query.check = cfg
                .activation_limit
                .is_none_or(|limit| l.better_than_limit(l.current(), limit));
            query.aspiration = cfg.aspiration;
        }
        let (value, row) = l.best_row(&query)?;
        iterations += 1;
        evaluations += l.rows();
        // row 0 is the current string: a local optimum, or (with the list) every row listed
        if row == 0 {
            break ClimbEnd::LocalOptimum;
        }
        if l.excluded(value, query.check) {
            break ClimbEnd::AllExcluded;
        }
        l.apply_row(row, value, iterations)?;
        let cur = l.current();
        if l.better(cur, best_value) {
            best = l.best_so_far();
            best_value = cur;
            no_improve = 0;
        } else {
            no_improve += 1;
            if tabu.is_some_and(|c| no_improve >= c.max_no_improve) {
                break ClimbEnd::NoImprove;
            }
        }
    };
    Ok(Climb {
        best,
        value: best_value,
        iterations,
        evaluations,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hc12::restarts::{check, restarts, Course, Search};
    use crate::run::{Stop, StopReason};
    use std::collections::VecDeque;

    /// A walk on a line: the string is a position, row 1 steps left, row 2 right; listed
    /// positions are excluded as the device list excludes strings.
    struct Line {
        f: Vec<i64>,
        pos: usize,
        list: VecDeque<usize>,
        cap: usize,
    }

    impl Landscape for Line {
        type Value = i64;
        type Start = usize;
        type Best = usize;

        fn start_run(&mut self, start: usize) -> Result<u64> {
            self.pos = start;
            Ok(0)
        }
        fn reset_tabu(&mut self, cfg: &TabuConfig) -> Result<()> {
            self.list.clear();
            self.cap = cfg.max_length;
            Ok(())
        }
        fn rows(&self) -> u64 {
            3
        }
        fn best_row(&mut self, q: &TabuQuery<i64>) -> Result<(i64, u64)> {
            if q.insert && !self.list.contains(&self.pos) {
                if self.list.len() == self.cap {
                    self.list.pop_front();
                }
                self.list.push_back(self.pos);
            }
            let at = |r: u64| match r {
                0 => Some(self.pos),
                1 => self.pos.checked_sub(1),
                _ => Some(self.pos + 1).filter(|&p| p < self.f.len()),
            };
            let mut best = (i64::MAX, 0);
            for r in 0..3 {
                let Some(p) = at(r) else { continue };
                let mut v = self.f[p];
                if q.check && self.list.contains(&p) && !(q.aspiration && v < q.best) {
                    v = i64::MAX;
                }
                if v < best.0 || (r == 0 && v == best.0) {
                    best = (v, r);
                }
            }
            Ok(best)
        }
        fn excluded(&self, value: i64, tabu_checked: bool) -> bool {
            tabu_checked && value == i64::MAX
        }
        fn apply_row(&mut self, row: u64, _value: i64, _iteration: u32) -> Result<()> {
            self.pos = if row == 1 { self.pos - 1 } else { self.pos + 1 };
            Ok(())
        }
        fn current(&self) -> i64 {
            self.f[self.pos]
        }
        fn best_so_far(&self) -> usize {
            self.pos
        }
        minimised_count!();
    }

    fn line() -> Line {
        // a local minimum at 2 (value 3) behind a hill at 3, the global one at 6 (value 0)
        Line {
            f: vec![9, 5, 3, 4, 2, 1, 0, 7],
            pos: 0,
            list: VecDeque::new(),
            cap: 0,
        }
    }

    const PLAIN: ClimbLimits<'static> = ClimbLimits {
        max_iterations: 100,
        deadline: None,
        watch: None,
    };

    #[test]
    fn plain_climb_ends_at_the_first_local_optimum() {
        let c = climb(&mut line(), 0, None, PLAIN).unwrap();
        assert_eq!(
            (c.best, c.value, c.iterations, c.end),
            (2, 3, 3, ClimbEnd::LocalOptimum)
        );
        assert_eq!(c.evaluations, 9);
        let capped = climb(
            &mut line(),
            0,
            None,
            ClimbLimits {
                max_iterations: 1,
                ..PLAIN
            },
        )
        .unwrap();
        assert_eq!((capped.best, capped.end), (1, ClimbEnd::MaxIterations));
    }

    #[test]
    fn the_tabu_list_leaves_a_local_optimum_and_keeps_the_best() {
        let mut cfg = TabuConfig::new(3).unwrap();
        cfg.max_no_improve = 4;
        let c = climb(&mut line(), 0, Some(&cfg), PLAIN).unwrap();
        assert_eq!((c.best, c.value), (6, 0));
        // from 7 both neighbours and 7 itself are listed: the search returns row 0
        assert_eq!((c.iterations, c.end), (8, ClimbEnd::LocalOptimum));
        cfg.max_no_improve = 1;
        let c = climb(&mut line(), 0, Some(&cfg), PLAIN).unwrap();
        assert_eq!((c.best, c.end), (2, ClimbEnd::NoImprove));
        // a list consulted only below an unreachable limit is plain HC12
        cfg.activation_limit = Some(-1.0);
        let c = climb(&mut line(), 0, Some(&cfg), PLAIN).unwrap();
        assert_eq!((c.best, c.end), (2, ClimbEnd::LocalOptimum));
    }

    fn from_starts(stop: &Stop, course: &mut Course<usize, i64>) -> Search<usize, i64> {
        let starts = [0, 7, 4, 1, 5];
        restarts(
            &mut line(),
            stop,
            100,
            None,
            course,
            None,
            |_, run, _, _| Ok(starts[run as usize % 5]),
            |_| {},
        )
        .unwrap()
    }

    #[test]
    fn restarts_keep_the_first_best_run_and_stop_at_the_target() {
        let fresh = || Course::new(crate::rng::Philox::new(1, 0));
        // runs from 0, 7 and 4 on the line
        let s = from_starts(&Stop::budget(3), &mut fresh());
        assert_eq!((s.course.runs, s.best, s.value), (3, 6, 0));
        assert_eq!(s.course.per_run, vec![(3, 3), (0, 2), (0, 3)]);
        assert_eq!(s.course.best_run_iterations, 2);
        assert_eq!(s.stop, StopReason::Budget);
        let stop = Stop {
            target: Some(0.0),
            ..Stop::default()
        };
        let s = from_starts(&stop, &mut fresh());
        assert_eq!((s.course.runs, s.target_reached()), (2, true));
        assert_eq!(s.stop, StopReason::Target);
        // a target alone may never be reached: it needs a time limit or a stop token besides
        let e = check(&stop, "runs").unwrap_err().to_string();
        assert!(
            e.contains("runs") && e.contains("time limit or a stop token"),
            "{e}"
        );
        let token = Some(crate::StopToken::new());
        assert!(check(
            &Stop {
                token: token.clone(),
                ..stop.clone()
            },
            "runs"
        )
        .is_ok());
        let e = check(
            &Stop {
                budget: Some(u32::MAX as u64 >> 1),
                ..stop.clone()
            },
            "max_runs",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("max_runs") && e.contains("at most 16777216"),
            "{e}"
        );
        assert!(check(
            &Stop {
                budget: Some(u32::MAX as u64 >> 1),
                token,
                ..stop.clone()
            },
            "runs"
        )
        .is_ok());
        let e = check(&Stop::default(), "nRuns").unwrap_err().to_string();
        assert!(e.contains("nRuns") && e.contains("0 (unlimited)"), "{e}");
        assert!(check(&Stop::budget(0), "runs").is_err());
        let nan = Stop {
            target: Some(f64::NAN),
            ..Stop::budget(2)
        };
        assert!(check(&nan, "runs")
            .unwrap_err()
            .to_string()
            .contains("target"));
    }

    #[test]
    fn a_continued_search_ends_as_the_one_that_never_stopped() {
        let fresh = || Course::new(crate::rng::Philox::new(1, 0));
        let whole = from_starts(&Stop::budget(5), &mut fresh());
        let mut c = fresh();
        let first = from_starts(&Stop::budget(2), &mut c);
        assert_eq!((first.course.runs, c.runs), (2, 2));
        // through the checkpoint's bytes
        let h = crate::run::checkpoint::Header::new("line", "a line".into());
        let bytes = crate::hc12::restarts::encode_course(&h, &c).unwrap();
        let mut back: Course<usize, i64> =
            crate::hc12::restarts::decode_course(&bytes, &h, |_| true).unwrap();
        let rest = from_starts(&Stop::budget(5), &mut back);
        assert_eq!(
            (
                rest.course.runs,
                rest.best,
                rest.value,
                rest.course.iterations,
                rest.course.evaluations
            ),
            (
                whole.course.runs,
                whole.best,
                whole.value,
                whole.course.iterations,
                whole.course.evaluations
            )
        );
        assert_eq!(rest.course.per_run, whole.course.per_run);
        assert_eq!(
            rest.course.best_run_iterations,
            whole.course.best_run_iterations
        );
        // a course its stop already ends makes no run
        let again = from_starts(&Stop::budget(5), &mut back);
        assert_eq!((again.course.runs, again.stop), (5, StopReason::Budget));
        // a value of another type is refused
        let e = crate::hc12::restarts::decode_course::<usize, f64>(&bytes, &h, |_| true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("state") && e.contains("value type"), "{e}");
        let e = crate::hc12::restarts::decode_course::<usize, i64>(&bytes, &h, |&b| b < 3)
            .unwrap_err()
            .to_string();
        assert!(e.contains("best"), "{e}");
    }
}
