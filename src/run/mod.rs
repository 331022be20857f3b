//! The run contract every solver keeps (`docs/specs/RUN.md`): one stop vocabulary
//! ([`StopReason`]), one set of limits ([`Stop`]), one decision of when to stop ([`Driver`]), launches sized to the time left
//! ([`Pacer`]), outputs written so that a kill never leaves a truncated file ([`output`]), and checkpoints
//! from which a run continues as if it had never stopped ([`checkpoint`]).
//!
//! Cancellation itself (the process-wide interrupt, stop tokens, clocks) is [`cancel`], also
//! reachable as `metaopt::interrupt`.
//!
//! | module | what |
//! |---|---|
//! | [`cancel`] | the process-wide interrupt, stop tokens, clocks and time-limit checks |
//! | `stop` | [`StopReason`] and the one table of its numbers in the C ABI |
//! | `limits` | [`Stop`]: the budget, evaluations, target, time limit, token and checkpoint plan of a run |
//! | `driver` | [`Driver`]: when a run stops, the size of its next launch, progress |
//! | [`output`] | outputs checked before a run and written atomically |
//! | [`checkpoint`] | a run's state in a versioned, checksummed file, and when to write it |
//! | `checks` | checks several solvers make of their [`Stop`] and of the checkpoints they are given |

pub mod cancel;
pub mod checkpoint;
pub(crate) mod checks;
mod driver;
mod limits;
pub mod output;
mod stop;

pub use driver::{Driver, Pacer, Progress, STEP_SECONDS};
pub use limits::Stop;
pub use stop::{StopReason, STOP_CODES};
