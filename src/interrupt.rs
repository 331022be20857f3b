//! Cancellation of running calls (issue 15): a process-wide interrupt and per-call stop tokens.
//!
//! - [`interrupt`] stops every call running at that moment. It only increments an atomic epoch
//!   counter (no lock, no allocation), so it is async-signal-safe: a SIGINT handler may call it
//!   (the C ABI's `metaopt_interrupt`). A call snapshots the epoch when it starts ([`Watch`]), so
//!   calls started after the interrupt run normally.
//! - [`StopToken`] is a per-call flag (clonable, shared): a caller passes it in a solver's stop
//!   options and sets it from another thread with [`StopToken::request`].
//!
//! Every solver loop asks its [`Watch`] between kernel launches, generations, climb steps and
//! restarts, so an interrupted call returns within about one launch, with its best so far and
//! [`StopReason::Interrupted`] (DE: `de::StopReason::Interrupted`).

use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The interrupt epoch: incremented by every [`interrupt`]. `AtomicUsize` is lock-free on every
/// target with atomics, which async-signal-safety needs.
static EPOCH: AtomicUsize = AtomicUsize::new(0);

/// Stops every call running now (they return their best so far, stopped as interrupted); calls
/// started afterwards are unaffected. Async-signal-safe: one atomic increment.
pub fn interrupt() {
    EPOCH.fetch_add(1, Ordering::SeqCst);
}

/// The current interrupt epoch (how many interrupts so far, wrapping).
pub fn epoch() -> usize {
    EPOCH.load(Ordering::SeqCst)
}

/// A per-call stop request: clones share one flag. Pass it in a solver's stop options
/// (`hc12::restarts::Stop::token`, `de::Stop::token`, `QapTsOptions::stop_token`) and call
/// [`StopToken::request`] from any thread to stop the calls that carry it.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every call carrying this token (running now or started later, until [`reset`]) to
    /// stop. Lock-free.
    ///
    /// [`reset`]: StopToken::reset
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Clears the request, so the token can serve another call.
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// Two tokens are equal when they share their flag.
impl PartialEq for StopToken {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a solver call watches: the interrupt epoch when it started and its optional token.
#[derive(Clone, Debug)]
pub struct Watch {
    epoch: usize,
    token: Option<StopToken>,
}

impl Watch {
    /// Made at the start of a call: interrupts before this moment do not stop it.
    pub fn new(token: Option<&StopToken>) -> Self {
        Watch { epoch: epoch(), token: token.cloned() }
    }

    /// Whether [`interrupt`] came since the call started, or its token was requested.
    pub fn stopped(&self) -> bool {
        EPOCH.load(Ordering::Relaxed) != self.epoch || self.token.as_ref().is_some_and(StopToken::is_requested)
    }
}

/// Why a search ended (HC12 solvers, the QAP robust tabu search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The best value reached the target (a SAT model).
    Target,
    /// The time limit passed.
    TimeLimit,
    /// The iteration, generation or run budget was spent (or a progress callback said stop).
    Limit,
    /// [`interrupt`] or the call's [`StopToken`].
    Interrupted,
}

impl StopReason {
    /// The C ABI's `MetaoptStopReason` number.
    pub fn code(self) -> i32 {
        match self {
            StopReason::Target => 1,
            StopReason::TimeLimit => 2,
            StopReason::Limit => 3,
            StopReason::Interrupted => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_sees_its_token_only() {
        let t = StopToken::new();
        let w = Watch::new(Some(&t));
        let other = Watch::new(None);
        assert!(!w.stopped());
        t.clone().request();
        assert!(w.stopped() && !other.stopped());
        t.reset();
        assert!(!w.stopped());
        // the global interrupt is tested in tests/interrupt.rs: here it would stop the calls of
        // other unit tests running beside this one
    }
}
