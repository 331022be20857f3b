//! The run contract every solver keeps (`docs/specs/RUN.md`): one stop vocabulary
//! ([`StopReason`]), one decision of when to stop ([`Driver`]), launches sized to the time left
//! ([`Pacer`]), and outputs written so that a kill never leaves a truncated file ([`output`]).
//!
//! Cancellation itself (the process-wide interrupt, stop tokens, clocks) is [`cancel`], also
//! reachable as `metaopt::interrupt`.
//!
//! | module | what |
//! |---|---|
//! | [`cancel`] | the process-wide interrupt, stop tokens, clocks and time-limit checks |
//! | `stop` | [`StopReason`] and the one table of its numbers in the C ABI |
//! | `driver` | [`Driver`]: when a run stops, the size of its next launch, progress |
//! | [`output`] | outputs checked before a run and written atomically |

pub mod cancel;
mod driver;
pub mod output;
mod stop;

pub use driver::{Driver, Pacer, Progress, STEP_SECONDS};
pub use stop::{StopReason, STOP_CODES};
