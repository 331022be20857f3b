//! Calls that must end cleanly: the hostile-call harness, the fuzz corpora and regressions,
//! sizes and time limits, and cancellation.

mod fuzz_corpus;
mod fuzz_regressions;
mod graph_input;
mod hostile;
mod interrupt;
mod limits;
mod memory;
mod resume;
mod sp_aco_awvd_stops;
