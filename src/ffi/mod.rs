//! The C ABI of `libmetaopt.so` (docs/specs/API.md); cbindgen turns this module, and only this module,
//! into `include/metaopt.h`.
//!
//! Layout: `boundary.rs` (the one panic boundary and the checks of the caller's pointers),
//! `error.rs` (the C error codes and the one `Error` -> code table), `handle.rs` (the one handle
//! mechanism), `result.rs` (the one pattern of result structs and their frees), then one file per
//! solver (`qap.rs`, `qap_ts.rs`, `hc12.rs`, `de.rs`, `de_batch.rs`, `bh.rs`, `sat.rs`,
//! `knapsack.rs` with `qiga.rs`, `graph.rs` with `sp.rs` and `aco.rs`, `awvd.rs`), `functions.rs` (catalogue functions evaluated by name), `cec2006.rs` (the CEC 2006 constrained problems), `device.rs` and
//! `version.rs`.
//!
//! Names: functions are `metaopt_<noun>_<verb>` (`metaopt_qap_run`, `metaopt_device_count`),
//! types `Metaopt<Noun><What>` (`MetaoptQapInstance`, `MetaoptQapRunResult`). The names of
//! earlier releases and of the thesis stay available as aliases in the header (`cbindgen.toml`,
//! `trailer`): they are preprocessor definitions and typedefs only, the library exports the new
//! symbols.
//!
//! Conventions, shared by every function:
//! - Nothing unwinds out of an `extern "C"` function: each body runs under `ffi_boundary!`,
//!   which catches panics and maps every [`crate::Error`] to its stable code
//!   (`MetaoptErrorCode`) and a message.
//! - Every pointer argument is checked; null is `METAOPT_ERR_NULL_POINTER` naming the argument.
//! - Everything the library returns (strings, arrays) is allocated with the C allocator, so
//!   `metaopt_pointer_free` (= `free`) releases any of it; the `metaopt_*_free_*_result`
//!   functions free whole result structs. The caller never frees library memory with its own
//!   allocator functions other than through these.
//! - Handles are opaque, carry a magic number and are tracked in a registry of live handles, so a
//!   freed, forged or wrong-kind handle is an error rather than a crash (best effort: a freed
//!   address reused by a new handle is indistinguishable from it).
//! - A handle serves one call at a time: a call on a handle whose previous call is still running
//!   (re-entered from its own objective callback, or from a second thread) is
//!   `METAOPT_ERR_BUSY`, and a free meanwhile takes effect when the running call returns.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `boundary` | the one panic boundary and the checks of the caller's pointers |
//! | `error` | the C error codes; the one `Error` -> code table is [`crate::Error::code`] |
//! | `handle` | the one handle mechanism: magic number, registry, busy flag, free |
//! | `result` | the one pattern of result structs and their frees |
//! | `interrupt` | `metaopt_interrupt` and stop tokens |
//! | `state` | run states (checkpoints): the bytes of `*_save_state`, `metaopt_state_describe` |
//! | `device` | device selection and listing, and the backend of every create call |
//! | `version` | the library's version |
//! | `functions` | catalogue functions evaluated by name |
//! | `cec2006` | the CEC 2006 constrained problems: sizes, boxes, best points, evaluation |
//! | `qap` | QAP instances and the HC12 QAP solver |
//! | `qap_ts` | the QAP robust tabu search |
//! | `hc12` | the general HC12 solver |
//! | `de` | island DE |
//! | `bh` | basin hopping |
//! | `de_batch` | batched DE |
//! | `sat` | SAT formulas, evaluation and search |
//! | `knapsack` | knapsack instances |
//! | `qiga` | the quantum-inspired GA over a knapsack |
//! | `graph` | directed graphs |
//! | `sp` | exact shortest paths over a graph |
//! | `aco` | the ant colony over a graph |
//! | `awvd` | the Voronoi diagram of balls |

mod aco;
mod awvd;
mod bh;
pub(crate) mod boundary;
mod cec2006;
mod de;
mod de_batch;
mod device;
mod error;
mod functions;
mod graph;
pub(crate) mod handle;
mod hc12;
mod interrupt;
mod knapsack;
mod qap;
mod qap_ts;
mod qiga;
pub(crate) mod result;
mod sat;
mod sp;
mod state;
mod version;

pub use aco::*;
pub use awvd::*;
pub use bh::*;
pub use cec2006::*;
pub use de::*;
pub use de_batch::*;
pub use device::*;
pub use error::*;
pub use functions::*;
pub use graph::*;
pub use hc12::*;
pub use interrupt::*;
pub use knapsack::*;
pub use qap::*;
pub use qap_ts::*;
pub use qiga::*;
pub use result::{
    metaopt_double_array_free_result, metaopt_pointer_free, MetaoptDoubleArrayResult,
    MetaoptInt32Result, MetaoptStringResult,
};
pub use sat::*;
pub use sp::*;
pub use state::*;
pub use version::*;

pub(crate) use boundary::{copy_in, ffi_boundary, func_data_arg, str_arg};
pub(crate) use result::{c_string, free_result, owned_result, plain_result, CArray};
