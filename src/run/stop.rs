//! Why a run ended: the one [`StopReason`] of every solver, and the one table of its numbers in
//! the C ABI.

use serde::{Deserialize, Serialize};
use std::ffi::CStr;
use std::fmt;

/// Why a run ended. Every output names it `stopped_by` with these words (serde's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The solver's own count was spent: generations, iterations, runs, flips, rounds (or a
    /// progress callback said stop).
    Budget,
    /// The objective-evaluation budget was spent.
    Evaluations,
    /// The time limit passed.
    TimeLimit,
    /// The best value reached the target (a SAT model, a known optimum).
    Target,
    /// No improvement for the allowed number of steps.
    Stagnation,
    /// `metaopt::interrupt` (Ctrl-C, SIGTERM in the CLI) or the call's stop token.
    Interrupted,
    /// The solver's convergence test held.
    Converged,
    /// An exact algorithm finished.
    Done,
}

/// One row per reason: the reason, its word, its `MetaoptStopReason` number, and the numbers of
/// the two older C enums it keeps for one release (`MetaoptDeStopReason`,
/// `MetaoptBatchDeStopReason`; 0 where that enum has no such value).
pub const STOP_CODES: [(StopReason, &CStr, i32, i32, i32); 8] = [
    (StopReason::Target, c"target", 1, 3, 1),
    (StopReason::TimeLimit, c"time_limit", 2, 4, 3),
    (StopReason::Budget, c"budget", 3, 1, 2),
    (StopReason::Interrupted, c"interrupted", 4, 5, 4),
    (StopReason::Evaluations, c"evaluations", 5, 2, 2),
    (StopReason::Stagnation, c"stagnation", 6, 1, 2),
    (StopReason::Converged, c"converged", 7, 1, 2),
    (StopReason::Done, c"done", 8, 1, 2),
];

#[allow(non_upper_case_globals)]
impl StopReason {
    /// The former name of [`StopReason::Budget`] in the HC12 and tabu-search results.
    #[deprecated(note = "renamed `StopReason::Budget`")]
    pub const Limit: StopReason = StopReason::Budget;
    /// The former name of [`StopReason::Budget`] in DE's results.
    #[deprecated(note = "renamed `StopReason::Budget`")]
    pub const Generations: StopReason = StopReason::Budget;

    fn row(self) -> &'static (StopReason, &'static CStr, i32, i32, i32) {
        STOP_CODES
            .iter()
            .find(|r| r.0 == self)
            .expect("every reason has a row")
    }

    /// The word every output uses (`stopped_by`).
    pub fn word(self) -> &'static str {
        self.row().1.to_str().expect("the words are ASCII")
    }

    /// [`word`](Self::word) as a C string (static: the C ABI hands it out).
    pub fn c_word(self) -> &'static CStr {
        self.row().1
    }

    /// The C ABI's `MetaoptStopReason` number.
    pub fn code(self) -> i32 {
        self.row().2
    }

    /// The reason of a `MetaoptStopReason` number.
    pub fn from_code(code: i32) -> Option<StopReason> {
        STOP_CODES.iter().find(|r| r.2 == code).map(|r| r.0)
    }

    /// The number of the older `MetaoptDeStopReason` (DE's `stopped_by` field).
    pub fn de_code(self) -> i32 {
        self.row().3
    }

    /// The number of the older `MetaoptBatchDeStopReason` (batched DE's `stop_reason` array,
    /// where 0 is a problem still running).
    pub fn batch_code(self) -> i32 {
        self.row().4
    }

    /// Whether the run ended early at the caller's word (time limit or interrupt) rather than by
    /// its own rules.
    pub fn cut_short(self) -> bool {
        matches!(self, StopReason::TimeLimit | StopReason::Interrupted)
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_one_to_one_on_words_and_codes() {
        for (i, a) in STOP_CODES.iter().enumerate() {
            for b in &STOP_CODES[i + 1..] {
                assert_ne!(a.0, b.0);
                assert_ne!(a.1, b.1);
                assert_ne!(a.2, b.2);
            }
            assert_eq!(StopReason::from_code(a.2), Some(a.0));
            // the word is serde's name
            assert_eq!(
                serde_json::to_string(&a.0).unwrap(),
                format!("\"{}\"", a.0.word())
            );
            assert_eq!(a.0.to_string(), a.1.to_str().unwrap());
        }
        assert_eq!(StopReason::from_code(0), None);
    }

    #[test]
    fn the_older_numbers_are_kept() {
        // MetaoptStopReason as it was: target 1, time limit 2, limit 3, interrupted 4
        assert_eq!(
            [
                StopReason::Target,
                StopReason::TimeLimit,
                StopReason::Budget,
                StopReason::Interrupted
            ]
            .map(StopReason::code),
            [1, 2, 3, 4]
        );
        // MetaoptDeStopReason: generations 1, evaluations 2, target 3, time limit 4, interrupted 5
        assert_eq!(
            [
                StopReason::Budget,
                StopReason::Evaluations,
                StopReason::Target,
                StopReason::TimeLimit,
                StopReason::Interrupted
            ]
            .map(StopReason::de_code),
            [1, 2, 3, 4, 5]
        );
        // MetaoptBatchDeStopReason: target 1, budget 2, time limit 3, interrupted 4
        assert_eq!(
            [
                StopReason::Target,
                StopReason::Budget,
                StopReason::TimeLimit,
                StopReason::Interrupted
            ]
            .map(StopReason::batch_code),
            [1, 2, 3, 4]
        );
    }
}
