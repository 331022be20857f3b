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
use serde::Serialize;
use std::time::Instant;

/// Why a climb ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug)]
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
    use crate::hc12::restarts::{restarts, Stop};
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

    #[test]
    fn restarts_keep_the_first_best_run_and_stop_at_the_target() {
        let stop = Stop {
            max_runs: 3,
            ..Stop::default()
        };
        // runs from 0, 7 and 4 on the line
        let from_starts = |stop: &Stop| {
            let starts = [0, 7, 4];
            restarts(
                &mut line(),
                stop,
                100,
                None,
                |_, run, _| Ok(starts[run as usize]),
                |_| {},
            )
            .unwrap()
        };
        let s = from_starts(&stop);
        assert_eq!((s.runs, s.best, s.value), (3, 6, 0));
        assert_eq!(s.per_run, vec![(3, 3), (0, 2), (0, 3)]);
        assert_eq!(s.best_run_iterations, 2);
        let stop = Stop {
            max_runs: 0,
            target: Some(0.0),
            ..Stop::default()
        };
        let s = from_starts(&stop);
        assert_eq!((s.runs, s.target_reached), (2, true));
        // a target alone may never be reached: it needs a time limit or a stop token besides
        assert!(stop.check("runs", "a target").is_err());
        assert!(Stop {
            token: Some(crate::StopToken::new()),
            ..stop.clone()
        }
        .check("runs", "a target")
        .is_ok());
        assert!(Stop {
            max_runs: u32::MAX >> 1,
            ..stop.clone()
        }
        .check("runs", "a target")
        .is_err());
        assert!(Stop {
            max_runs: u32::MAX >> 1,
            token: Some(crate::StopToken::new()),
            ..stop.clone()
        }
        .check("runs", "a target")
        .is_ok());
        assert!(Stop {
            target: None,
            ..stop.clone()
        }
        .check("runs", "a time limit")
        .is_err());
    }
}
