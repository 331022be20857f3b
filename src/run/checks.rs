//! Checks that several solvers make of their [`run::Stop`](crate::run::Stop) and of the
//! checkpoints they are given, spelled once.

use crate::error::{Error, Result};
use crate::run::checkpoint::{self, Header};
use crate::run::Stop;

/// Checks `stop` ([`Stop::check`], its budget named `budget_arg`) for a solver whose budget
/// counts something other than evaluations: an evaluation budget is refused, naming
/// `evaluations` and saying `counts` (what the solver counts, "the walks count flips") and that
/// `budget_arg` is the budget to give.
pub(crate) fn check_counted_stop(
    stop: &Stop,
    budget_arg: &'static str,
    counts: &str,
) -> Result<()> {
    stop.check(budget_arg)?;
    if stop.evaluations.is_some() {
        return Err(Error::arg(
            "evaluations",
            format!("{counts}, not evaluations: give {budget_arg}"),
        ));
    }
    Ok(())
}

/// Checks checkpoint `bytes` before a solver takes it: its frame and version, and its solver
/// and problem against the solver's own header `mine` (the options, rank and ranks are checked
/// when the solve starts). Errors name `state` and say what differs.
pub(crate) fn check_resumable(bytes: &[u8], mine: Header) -> Result<()> {
    let h = checkpoint::header(bytes, "state")?;
    let mine = Header {
        options: h.options.clone(),
        rank: h.rank,
        ranks: h.ranks,
        ..mine
    };
    match mine.mismatch(&h) {
        Some(why) => Err(Error::arg(
            "state",
            format!("cannot resume from this checkpoint: {why}"),
        )),
        None => Ok(()),
    }
}
