//! Cancellation of running calls: a process-wide interrupt and per-call stop tokens.
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
//! [`StopReason::Interrupted`](super::StopReason::Interrupted). The decision itself is
//! [`Driver`](super::Driver)'s.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
/// (`run::Stop::token`) and call
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
        Watch {
            epoch: epoch(),
            token: token.cloned(),
        }
    }

    /// Whether [`interrupt`] came since the call started, or its token was requested.
    pub fn stopped(&self) -> bool {
        EPOCH.load(Ordering::Relaxed) != self.epoch
            || self.token.as_ref().is_some_and(StopToken::is_requested)
    }

    /// Whether the call carries a stop token (someone may stop it at any moment).
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }
}

/// The largest time limit any solver takes, in seconds (about 31.7 years): a larger value is
/// certainly a mistake, and the deadlines it would make overflow `Instant`.
pub const MAX_TIME_LIMIT_S: f64 = 1e9;

/// The one time-limit validator (CLI flags, every C ABI `time_limit`/`time_limit_s` field, the
/// Rust options): `secs` must be finite, `>= 0` and at most [`MAX_TIME_LIMIT_S`]; 0 means no
/// limit (`None`). `arg` names the argument in the error.
pub fn time_limit_from_secs(secs: f64, arg: &'static str) -> crate::Result<Option<Duration>> {
    if !secs.is_finite() || secs < 0.0 {
        return Err(crate::Error::arg(
            arg,
            format!("{secs} s; expected a finite number of seconds >= 0 (0: no limit)"),
        ));
    }
    if secs > MAX_TIME_LIMIT_S {
        return Err(crate::Error::arg(
            arg,
            format!("{secs:e} s is more than the largest time limit, {MAX_TIME_LIMIT_S:e} s"),
        ));
    }
    Ok((secs > 0.0).then(|| Duration::from_secs_f64(secs)))
}

/// Checks a time limit given as a `Duration` (the Rust options) against [`MAX_TIME_LIMIT_S`].
pub fn check_time_limit(limit: Option<Duration>, arg: &'static str) -> crate::Result<()> {
    match limit {
        Some(d) if d.as_secs_f64() > MAX_TIME_LIMIT_S => Err(crate::Error::arg(
            arg,
            format!(
                "{:e} s is more than the largest time limit, {MAX_TIME_LIMIT_S:e} s",
                d.as_secs_f64()
            ),
        )),
        _ => Ok(()),
    }
}

/// A call's clock: its start and optional deadline, asked inside long work (between launches,
/// climb steps, generations) so that a call returns within its limit plus about one launch.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub start: Instant,
    pub limit: Option<Duration>,
}

impl Clock {
    pub fn new(limit: Option<Duration>) -> Self {
        Clock {
            start: Instant::now(),
            limit,
        }
    }

    /// Started at `start` (a call counts its set-up time).
    pub fn since(start: Instant, limit: Option<Duration>) -> Self {
        Clock { start, limit }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the limit has passed.
    pub fn expired(&self) -> bool {
        self.limit.is_some_and(|l| self.start.elapsed() >= l)
    }

    /// The time left (`None`: no limit).
    pub fn left(&self) -> Option<Duration> {
        self.limit.map(|l| l.saturating_sub(self.start.elapsed()))
    }
}

/// What may cut long work short (DE's launches in pieces, `src/de/pace.rs`; the SAT set-up):
/// the call's clock, started when the call started so that set-up counts, and its watch.
#[derive(Clone, Debug)]
pub struct Cut {
    pub clock: Clock,
    pub watch: Watch,
}

impl Cut {
    /// The cut of work whose pieces a caller sees (a DE host callback receives a whole
    /// generation per call unless a time limit forces pieces): `cut` when it has a time limit,
    /// else none (a stop token or an interrupt then acts between such calls).
    pub fn with_limit(cut: Option<&Cut>) -> Option<&Cut> {
        cut.filter(|c| c.clock.limit.is_some())
    }

    /// Whether the call must end now (interrupted, its token requested, or its limit passed).
    pub fn due(&self) -> bool {
        self.reason().is_some()
    }

    /// Why the call must end now, if it must: the interrupt or its token before the time limit.
    pub fn reason(&self) -> Option<super::StopReason> {
        if self.watch.stopped() {
            Some(super::StopReason::Interrupted)
        } else if self.clock.expired() {
            Some(super::StopReason::TimeLimit)
        } else {
            None
        }
    }
}

thread_local! {
    /// The cut of the set-up running on this thread ([`Cut::during_setup`]).
    static SETUP: std::cell::RefCell<Option<Cut>> = const { std::cell::RefCell::new(None) };
}

/// The cut of the set-up running on this thread, if any: what a device program build asks
/// while it waits for the compiler.
pub(crate) fn setup_cut() -> Option<Cut> {
    SETUP.with(|s| s.borrow().clone())
}

impl Cut {
    /// Runs `f`, a solver's set-up, under this cut: a device program build inside it that is
    /// not done when the cut comes due stops waiting (the compiler, which cannot be cancelled,
    /// finishes in the background into the program cache) and fails with the cut's error, so
    /// that a run's time limit and interrupt hold during its set-up too. Scopes nest; the inner
    /// one holds inside it.
    pub fn during_setup<T>(&self, f: impl FnOnce() -> T) -> T {
        let _scope = self.setup_scope();
        f()
    }

    /// [`during_setup`](Self::during_setup) until the returned guard is dropped (on this
    /// thread; the outer scope, if any, then holds again).
    pub fn setup_scope(&self) -> SetupScope {
        SetupScope {
            outer: SETUP.with(|s| s.borrow_mut().replace(self.clone())),
            _thread: std::marker::PhantomData,
        }
    }
}

/// A set-up scope of [`Cut::setup_scope`]: dropping it restores the outer one.
pub struct SetupScope {
    outer: Option<Cut>,
    /// The scope belongs to the thread whose set-up it cuts.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Drop for SetupScope {
    fn drop(&mut self) {
        let outer = self.outer.take();
        SETUP.with(|s| *s.borrow_mut() = outer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_are_validated() {
        assert_eq!(time_limit_from_secs(0.0, "t").unwrap(), None);
        assert_eq!(
            time_limit_from_secs(1.5, "t").unwrap(),
            Some(Duration::from_millis(1500))
        );
        assert!(time_limit_from_secs(1e9, "t").unwrap().is_some());
        for bad in [f64::NAN, f64::INFINITY, -1.0, 1e9 + 1.0, 1e19, 1e20, 1e300] {
            let e = time_limit_from_secs(bad, "t").unwrap_err();
            assert_eq!(e.code(), 2, "{bad}: {e}");
        }
        assert!(check_time_limit(Some(Duration::from_secs(u64::MAX)), "t").is_err());
    }

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
        // the global interrupt is tested in tests/it/reliability/interrupt.rs: here it would stop the calls of
        // other unit tests running beside this one
    }
}
