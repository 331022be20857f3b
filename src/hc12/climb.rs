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
use serde::Serialize;
use std::time::Instant;

/// Why a climb ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
pub struct ClimbLimits {
    /// Iterations of a plain climb (without a tabu list).
    pub max_iterations: u32,
    /// Checked before every iteration (None: only between runs, by `restarts.rs`).
    pub deadline: Option<Instant>,
}

/// Climbs from `start`; `tabu` turns the list on (it is emptied first).
pub fn climb<L: Landscape + ?Sized>(
    l: &mut L,
    start: L::Start,
    tabu: Option<&TabuConfig>,
    limits: ClimbLimits,
) -> Result<Climb<L::Best, L::Value>> {
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
        let mut query = TabuQuery { insert: false, check: false, aspiration: false, best: best_value, iteration: iterations };
        if let Some(cfg) = tabu {
            query.insert = true;
            query.check = cfg.activation_limit.is_none_or(|limit| l.better_than_limit(l.current(), limit));
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
    Ok(Climb { best, value: best_value, iterations, evaluations, end })
}
