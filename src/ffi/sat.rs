//! SAT over the C ABI (docs/specs/SAT.md): a formula from a DIMACS CNF file or from clauses, the
//! evaluation of many bit-packed assignments at once (DXAC on the device, or the rayon evaluator
//! on the host), and the search for a model: many probSAT or WalkSAT walks on the device or the
//! CPU backend (docs/specs/SAT_SLS.md, the default) or HC12, with the error discipline of the QAP
//! functions (docs/specs/API.md).

use super::handle::{self, opaque_handle};
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::qap::MetaoptBackend;
use super::state::{checkpoint_plan, load_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, owned_result, plain_result, str_arg, CArray,
    MetaoptInt32Result,
};
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::hc12::sat::{SatOptions, SatSolver};
use crate::hc12::tabu::TabuConfig;
use crate::interrupt::StopReason;
use crate::problem::sat::{Assignment, Cnf};
use crate::run::Stop;
use crate::sat::eval::DeviceSat;
use crate::sat_sls::{max_clause_length, BreakFunction, SatSls, SlsMethod, SlsOptions};
use std::ffi::c_char;
use std::path::Path;
use std::ptr;

/// A CNF formula with its lazily made device evaluator and solver. Opaque: made by
/// `metaopt_sat_parse` or `metaopt_sat_from_clauses`, released by `metaopt_sat_free`. A handle
/// may be used by one thread at a time.
pub struct MetaoptSatInstance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptSatInstance => Handle, b"metaSAT1", "metaopt_sat_parse or metaopt_sat_from_clauses");

/// The result of `metaopt_sat_parse` and `metaopt_sat_from_clauses`. `instance` is NULL on error;
/// on success it is a new handle owned by the caller, who releases it with `metaopt_sat_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptSatParseResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptSatInstance,
    /// Variables of the formula (0 on error).
    pub num_vars: u32,
    /// Clauses of the formula (0 on error).
    pub num_clauses: u32,
}

/// The result of `metaopt_sat_evaluate`. The array and the message are the caller's: free both
/// with `metaopt_sat_free_eval_result` (or each with `metaopt_pointer_free`). On error the array
/// is NULL and the numbers 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptSatEvalResult {
    /// The number of satisfied clauses of each assignment, in the order given; `count` entries.
    pub satisfied: *mut u32,
    /// Entries of `satisfied` (the `count` argument).
    pub count: u32,
    /// Clauses of the formula: assignment `i` is a model exactly when `satisfied[i]` equals it.
    pub num_clauses: u32,
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

/// The search of `metaopt_sat_solve` (the `method` field).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptSatMethod {
    /// probSAT walks (the default).
    MetaoptSatProbsat = 0,
    /// WalkSAT/SKC walks.
    MetaoptSatWalksat = 1,
    /// HC12 local search on the device.
    MetaoptSatHc12 = 2,
}

/// Options of `metaopt_sat_solve`; start from `metaopt_sat_default_solve_options()` and change
/// fields. The walk fields apply to probSAT and WalkSAT, the HC12 fields (`mask_order`, the tabu
/// list, `tenure`, `runs`) to HC12 only.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptSatSolveOptions {
    /// A `MetaoptSatMethod`: probSAT (0, the default), WalkSAT (1) or HC12 (2).
    pub method: i32,
    /// Walks (probSAT, WalkSAT); 0 picks the count: the device's compute units times its walks
    /// per unit, or one per thread on the CPU backend.
    pub walks: u32,
    /// probSAT's cb; 0 with `eps` 0: probSAT's SC13 function for the longest clause. With a
    /// positive `eps` the polynomial f(b) = (eps + b)^-cb (cb 0: 2.06); else the SC13 family
    /// (polynomial, eps 0.9, for clauses of at most 3 literals, else exponential cb^-b) with
    /// this cb.
    pub cb: f64,
    /// probSAT's eps of the polynomial f(b) = (eps + b)^-cb; 0: see `cb`.
    pub eps: f64,
    /// WalkSAT's noise in [0, 1]: the probability of a random variable of the clause when none
    /// has break 0.
    pub noise: f64,
    /// A walk restarts from a random assignment after this many flips (at least 1).
    pub restart_flips: u64,
    /// Flips of every walk per launch (at least 1).
    pub flips_per_launch: u32,
    /// Most flips per walk (0: no budget; then the search needs a time limit).
    pub max_flips: u64,
    /// A `MetaoptBackend` of the walks: the device in use (0) or the CPU backend (1). HC12 runs
    /// on the device.
    pub backend: i32,
    /// 1: each move flips one variable (the GSAT neighbourhood); 2: also every pair.
    pub mask_order: u32,
    /// Strings the tabu list holds (1..=the library's maximum); 0 runs plain HC12, which ends each
    /// run at its first local optimum.
    pub tabu_length: u32,
    /// With a tabu list: a run ends after this many iterations (at least 1).
    pub tabu_max_iterations: u32,
    /// With a tabu list: ... or after this many iterations without a new best of the run (at
    /// least 1); then the next run restarts from a random assignment.
    pub tabu_max_no_improve: u32,
    /// Iterations a flipped variable stays put unless flipping it beats the run's best (0: off).
    pub tenure: u32,
    /// Seed of the random starting assignments: the same seed gives the same runs.
    pub seed: u64,
    /// Most runs (restarts); 0 = until a model or the time limit.
    pub runs: u32,
    /// Wall-time limit in seconds (0..=1e9); 0 = none, which needs `runs` > 0.
    pub time_limit_s: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. HC12 runs on it too. Ignored by the CPU backend walks; below -1 or not in the device list is an error naming
    /// `opts.device`.
    pub device: i32,
    /// A warm start of the walks: `start_count` bit-packed assignments (each
    /// `metaopt_sat_words_per_assignment` words, as `metaopt_sat_evaluate` takes them); one:
    /// every walk starts from it; several (at most the walks): walk w from the w-th, the others
    /// from random assignments. NULL when `start_count` is 0 (random starts). Not for HC12.
    pub start: *const u32,
    /// Assignments in `start`.
    pub start_count: u32,
    /// NULL, or a file the search (any method; HC12 between its runs) writes its whole state to
    /// (atomically) when it ends and every `checkpoint_every_s` seconds;
    /// `metaopt_sat_load_state` with its bytes continues it.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the search ends.
    pub checkpoint_every_s: f64,
}

/// The result of `metaopt_sat_solve`. Every array is owned by the caller: free them all with
/// `metaopt_sat_free_solve_result` (or each, and `error_message`, with `metaopt_pointer_free`).
/// On error the arrays are NULL and the numbers 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptSatSolveResult {
    /// 1 when a model was found (and verified against every clause on the host), else 0. 0 does
    /// not prove the formula unsatisfiable: the search is incomplete.
    pub satisfiable: u8,
    /// The fewest unsatisfied clauses seen (0 with a model).
    pub best_unsatisfied: u32,
    /// The best assignment seen, bit-packed (variable v is bit (v - 1) % 32 of word
    /// (v - 1) / 32); `words` entries.
    pub assignment: *mut u32,
    /// Entries of `assignment`.
    pub words: u32,
    /// The model as `num_vars` signed literals (`v` true, `-v` false, in variable order), only
    /// when `satisfiable`; NULL otherwise.
    pub model_literals: *mut i32,
    /// Variables of the formula: entries of `model_literals` when it is not NULL.
    pub num_vars: u32,
    /// Runs made.
    pub runs: u32,
    /// Iterations over all runs.
    pub iterations: u64,
    /// Neighbours evaluated over all runs.
    pub evaluations: u64,
    /// The `MetaoptSatMethod` of the search.
    pub method: i32,
    /// Walks (probSAT, WalkSAT; 0 for HC12).
    pub walks: u32,
    /// Flips of all walks (0 for HC12, which reports `iterations`).
    pub flips: u64,
    /// Restarts of all walks (0 for HC12, which reports `runs`).
    pub restarts: u64,
    /// Flips per second of all walks together (0 for HC12).
    pub flips_per_second: f64,
    /// Wall time of the search in seconds.
    pub seconds: f64,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// A `MetaoptStopReason`: why the search ended (`METAOPT_STOP_TARGET`: a model).
    pub stop_reason: i32,
}

owned_result!(MetaoptSatParseResult);
owned_result!(MetaoptSatEvalResult: frees satisfied; zeroes count);
owned_result!(MetaoptSatSolveResult: frees assignment, model_literals; zeroes words, num_vars);
plain_result!(MetaoptSatSolveOptions);

/// What a `MetaoptSatInstance *` points to (behind the registry's magic number).
pub(crate) struct Handle {
    cnf: Cnf,
    /// The DXAC evaluator, made by the first device evaluation.
    /// The device evaluator with its device number.
    device: Option<(usize, DeviceSat)>,
    /// The solver of the last solve with its (mask order, tabu length, backend), reused while
    /// they match.
    solver: Option<(u32, usize, Backend, SatSolver)>,
    /// The walks of the last walk search with the walk count asked for and the backend, kept for
    /// `metaopt_sat_save_state`.
    sls: Option<(Option<u32>, Backend, SatSls)>,
    /// A state of `metaopt_sat_load_state` that the next walk search continues.
    sls_resume: Option<Vec<u8>>,
    /// An HC12 state of `metaopt_sat_load_state` that the next HC12 search continues.
    hc12_resume: Option<Vec<u8>>,
    /// Whether the last search on the handle was HC12 (`metaopt_sat_save_state` saves it).
    last_hc12: bool,
}

impl Handle {
    /// The walks of `walks` (None: the default count) on `backend`: the last search's while
    /// they match, else new ones, given a state loaded and not used yet.
    fn sls(&mut self, walks: Option<u32>, backend: Backend) -> Result<&mut SatSls> {
        let fits = self
            .sls
            .as_ref()
            .is_some_and(|(w, b, _)| *w == walks && *b == backend);
        if !fits {
            let pending = self
                .sls
                .as_mut()
                .and_then(|(_, _, s)| s.take_loaded_state());
            self.sls = None; // free the old device buffers first
            let s = SatSls::new(self.cnf.clone(), walks, backend).map_err(|e| match e {
                Error::InvalidArgument { arg: "cnf", msg } => Error::arg("h", msg),
                e => e,
            })?;
            self.sls = Some((walks, backend, s));
            if let Some(b) = pending {
                self.sls_resume = Some(b);
            }
        }
        let s = &mut self.sls.as_mut().expect("made above").2;
        if let Some(b) = self.sls_resume.take() {
            s.load_state(b)
                .map_err(|e| renamed_opt(e, &[("state", "data")]))?;
        }
        Ok(s)
    }
}

/// A new handle for `cnf`.
fn instance(cnf: Cnf) -> Result<MetaoptSatParseResult> {
    let num_vars =
        u32::try_from(cnf.num_vars).map_err(|_| Error::arg("num_vars", "exceeds 2^32 - 1"))?;
    let num_clauses = u32::try_from(cnf.num_clauses())
        .map_err(|_| Error::arg("clauses", "more than 2^32 - 1 clauses"))?;
    let instance = handle::insert(Handle {
        cnf,
        device: None,
        solver: None,
        sls: None,
        sls_resume: None,
        hc12_resume: None,
        last_hc12: false,
    });
    Ok(MetaoptSatParseResult {
        error_code: 0,
        error_message: ptr::null_mut(),
        instance,
        num_vars,
        num_clauses,
    })
}

/// Reads a DIMACS CNF file (comments, a `%` end marker, clauses spanning lines and a missing
/// final 0 are accepted). A file that cannot be read is `METAOPT_ERR_IO`; malformed content
/// (bad header, literal out of range, clause count mismatch) is `METAOPT_ERR_PARSE` with the path
/// and line in the message. On success `instance` is a new handle the caller releases with
/// `metaopt_sat_free`; an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `cnf_path` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_parse(cnf_path: *const c_char) -> MetaoptSatParseResult {
    ffi_boundary!({
        // SAFETY: the caller's contract.
        let path = unsafe { str_arg(cnf_path, "cnf_path")? };
        instance(Cnf::from_file(Path::new(path))?)?
    })
}

/// A formula of `num_vars` variables from `literals_length` DIMACS literals: each clause is its
/// literals (±1..±num_vars) followed by 0, so the array ends with 0 and an empty clause (two 0 in
/// a row) is an error. `literals` is copied; it may be NULL only when `literals_length` is 0 (no
/// clauses). On success `instance` is a new handle the caller releases with `metaopt_sat_free`;
/// an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `literals` must be NULL or hold `literals_length` values.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_from_clauses(
    num_vars: u32,
    literals: *const i32,
    literals_length: u64,
) -> MetaoptSatParseResult {
    ffi_boundary!({
        let len = usize::try_from(literals_length).map_err(|_| {
            Error::arg(
                "literals_length",
                format!("{literals_length} exceeds the address space"),
            )
        })?;
        let lits: Vec<i32> = if len == 0 {
            Vec::new()
        } else {
            // SAFETY: the caller's contract for `len` values.
            unsafe { copy_in(literals.cast(), len, "literals")? }
        };
        if lits.last().is_some_and(|&l| l != 0) {
            return Err(Error::arg(
                "literals",
                "the last clause does not end with 0",
            ));
        }
        let clauses: Vec<&[i32]> = if lits.is_empty() {
            Vec::new()
        } else {
            lits[..lits.len() - 1].split(|&l| l == 0).collect()
        };
        let cnf =
            Cnf::from_clauses("clauses", num_vars as usize, clauses).map_err(|e| match e {
                Error::InvalidArgument {
                    arg: "clauses",
                    msg,
                } => Error::arg("literals", msg),
                e => e,
            })?;
        instance(cnf)?
    })
}

/// The number of 32-bit words of one bit-packed assignment of the formula of `h`:
/// ceil(num_vars / 32). An error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_words_per_assignment(
    h: *const MetaoptSatInstance,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        let words = Assignment::words_for(h.cnf.num_vars);
        MetaoptInt32Result::ok(i32::try_from(words).map_err(|_| Error::arg("h", "too many words"))?)
    })
}

/// Counts the satisfied clauses of each of `count` (at least 1) assignments. `assignments` holds
/// `count` rows of `metaopt_sat_words_per_assignment(h)` words, row after row; variable v of a
/// row is bit (v - 1) % 32 of its word (v - 1) / 32, and the bits past the last variable must be
/// 0 (else `METAOPT_ERR_INVALID_ARGUMENT` naming the row). `use_cpu` 0 evaluates on the device in
/// use with the DXAC kernel (one work-item per assignment), nonzero on the host over all cores;
/// both give the same counts. `assignments` is copied. The array and message of the result are
/// the caller's: free them with `metaopt_sat_free_eval_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `assignments` NULL or holding `count * words_per_assignment` values.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_evaluate(
    h: *mut MetaoptSatInstance,
    assignments: *const u32,
    count: u32,
    use_cpu: u8,
) -> MetaoptSatEvalResult {
    // SAFETY: the caller's contract, passed on.
    unsafe { metaopt_sat_evaluate_on_device(h, assignments, count, use_cpu, -1) }
}

/// `metaopt_sat_evaluate` on device `device` (a number of the device list, or -1 for the device
/// in use, `metaopt_device_set_number`; ignored when `use_cpu` is nonzero). Instances on different
/// devices may be used from different threads. A number below -1 or not in the list is
/// `METAOPT_ERR_INVALID_ARGUMENT` naming `device`.
///
/// # Safety
/// As `metaopt_sat_evaluate`.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_evaluate_on_device(
    h: *mut MetaoptSatInstance,
    assignments: *const u32,
    count: u32,
    use_cpu: u8,
    device: i32,
) -> MetaoptSatEvalResult {
    ffi_boundary!({
        let backend = super::device::backend_on(
            if use_cpu != 0 { 1 } else { 0 },
            device,
            "use_cpu",
            "device",
        )?;
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        if assignments.is_null() {
            return Err(Error::NullPointer("assignments"));
        }
        if count == 0 {
            return Err(Error::arg("count", "0; expected at least 1 assignment"));
        }
        let n = h.cnf.num_vars;
        let words = Assignment::words_for(n);
        let total = (count as usize).checked_mul(words).ok_or_else(|| {
            Error::arg(
                "count",
                format!("{count} rows of {words} words overflow the address space"),
            )
        })?;
        // SAFETY: the caller's contract for count * words values.
        let flat: Vec<u32> = unsafe { copy_in(assignments.cast(), total, "assignments")? };
        // the padding of the last word must be clear: bits set there are garbage, not values
        let pad_mask = if n % 32 == 0 {
            0
        } else {
            !((1u32 << (n % 32)) - 1)
        };
        let mut batch = crate::error::try_vec(count as usize, "count")?;
        for (i, row) in flat
            .chunks_exact(words.max(1))
            .take(count as usize)
            .enumerate()
        {
            let row = &row[..words];
            if let Some(&last) = row.last() {
                if last & pad_mask != 0 {
                    return Err(Error::arg(
                        "assignments",
                        format!(
                            "row {i} sets bits past variable {n} (word {} = {last:#010x}, padding mask {pad_mask:#010x})",
                            words - 1
                        ),
                    ));
                }
            }
            batch.push(Assignment::from_words(n, row.to_vec())?);
        }
        if words == 0 {
            batch = vec![Assignment::all_false(0); count as usize];
        }
        let r = if use_cpu != 0 {
            crate::sat::cpu::evaluate_many(&h.cnf, &batch, false)?
        } else {
            let d = match backend {
                Backend::Device(Some(d)) => d,
                _ => crate::device::get_device_number()?,
            };
            if h.device.as_ref().is_none_or(|(i, _)| *i != d) {
                h.device = None; // free the old device buffers first
                h.device = Some((
                    d,
                    DeviceSat::on(&crate::device::DeviceContext::get(d)?, &h.cnf)?,
                ));
            }
            h.device
                .as_mut()
                .expect("made above")
                .1
                .dxac(&batch, false)?
        };
        let satisfied = CArray::from_slice(&r.satisfied)?;
        MetaoptSatEvalResult {
            satisfied: satisfied.into_raw(),
            count,
            num_clauses: h.cnf.num_clauses() as u32,
            error_code: 0,
            error_message: ptr::null_mut(),
        }
    })
}

/// Frees the array and the message of a `MetaoptSatEvalResult` and sets them to NULL and `count`
/// to 0 (so a second call is harmless); the struct itself belongs to the caller. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_sat_evaluate` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_free_eval_result(r: *mut MetaoptSatEvalResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The defaults of `metaopt_sat_solve`: probSAT walks on the device in use (walk count of the
/// device, probSAT's SC13 break function, WalkSAT noise 0.567, no restarts (`restart_flips`
/// UINT64_MAX), 4096 flips per launch, no flip budget); for HC12 one-flip moves, a tabu list of 500 with runs of at
/// most 100,000 iterations restarted after 300 without improvement, tenure 10, runs until a
/// model; seed 1 and a 10 s time limit.
#[no_mangle]
pub extern "C" fn metaopt_sat_default_solve_options() -> MetaoptSatSolveOptions {
    ffi_boundary!({ default_solve_options() })
}

fn default_solve_options() -> MetaoptSatSolveOptions {
    let d = SatOptions::default();
    let w = SlsOptions::default();
    let t = d.tabu.as_ref();
    MetaoptSatSolveOptions {
        method: MetaoptSatMethod::MetaoptSatProbsat as i32,
        walks: 0,
        cb: 0.0,
        eps: 0.0,
        noise: w.noise,
        restart_flips: w.restart_flips,
        flips_per_launch: w.flips_per_launch,
        max_flips: 0,
        backend: MetaoptBackend::MetaoptBackendDevice as i32,
        mask_order: d.mask_order,
        tabu_length: t.map_or(0, |t| t.max_length as u32),
        tabu_max_iterations: t.map_or(0, |t| t.max_iterations),
        tabu_max_no_improve: t.map_or(0, |t| t.max_no_improve),
        tenure: d.tenure,
        seed: d.seed,
        runs: d.stop.budget.map_or(0, |n| n as u32),
        time_limit_s: d.stop.time_limit.map_or(0.0, |l| l.as_secs_f64()),
        stop_token: ptr::null(),
        device: -1,
        start: ptr::null(),
        start_count: 0,
        checkpoint_path: ptr::null(),
        checkpoint_every_s: 0.0,
    }
}

/// The Rust options of C ones.
///
/// # Safety
/// `o.stop_token` must be NULL or a stop token (unregistered pointers are errors);
/// `o.checkpoint_path` NULL or a NUL-terminated string.
unsafe fn solve_options(o: &MetaoptSatSolveOptions) -> Result<SatOptions> {
    let tabu = if o.tabu_length == 0 {
        None
    } else {
        let mut t = TabuConfig::new(o.tabu_length as usize).map_err(|e| match e {
            Error::InvalidArgument { msg, .. } => Error::arg("opts.tabu_length", msg),
            e => e,
        })?;
        if o.tabu_max_iterations == 0 {
            return Err(Error::arg(
                "opts.tabu_max_iterations",
                "0; expected at least 1",
            ));
        }
        if o.tabu_max_no_improve == 0 {
            return Err(Error::arg(
                "opts.tabu_max_no_improve",
                "0; expected at least 1",
            ));
        }
        t.max_iterations = o.tabu_max_iterations;
        t.max_no_improve = o.tabu_max_no_improve;
        Some(t)
    };
    let time_limit = crate::interrupt::time_limit_from_secs(o.time_limit_s, "opts.time_limit_s")?;
    if o.runs == 0 && time_limit.is_none() {
        return Err(Error::arg(
            "opts.runs",
            "0 (until a model) needs a time limit (opts.time_limit_s > 0)",
        ));
    }
    if !(1..=2).contains(&o.mask_order) {
        return Err(Error::arg(
            "opts.mask_order",
            format!("{}; expected 1 or 2", o.mask_order),
        ));
    }
    Ok(SatOptions {
        mask_order: o.mask_order,
        tabu,
        tenure: o.tenure,
        seed: o.seed,
        stop: Stop {
            budget: (o.runs != 0).then_some(u64::from(o.runs)),
            time_limit,
            target: None,
            // SAFETY: the caller's contract.
            token: unsafe { token_arg(o.stop_token, "opts.stop_token")? },
            // SAFETY: the caller's contract.
            checkpoint: unsafe { checkpoint_plan_arg(o)? },
            ..Stop::default()
        },
        since: None,
    })
}

/// The walk options of C ones: (options, backend); errors name the field.
///
/// # Safety
/// `o.stop_token` must be NULL or a stop token (unregistered pointers are errors); `o.start`
/// NULL or `o.start_count` assignments; `o.checkpoint_path` NULL or a NUL-terminated string.
unsafe fn walk_options(
    o: &MetaoptSatSolveOptions,
    method: SlsMethod,
    cnf: &Cnf,
) -> Result<(SlsOptions, Backend)> {
    let time_limit = crate::interrupt::time_limit_from_secs(o.time_limit_s, "opts.time_limit_s")?;
    if o.max_flips == 0 && time_limit.is_none() {
        return Err(Error::arg(
            "opts.max_flips",
            "0 (until a model) needs a time limit (opts.time_limit_s > 0)",
        ));
    }
    let backend = super::device::backend_on(o.backend, o.device, "opts.backend", "opts.device")?;
    for (name, v) in [("opts.cb", o.cb), ("opts.eps", o.eps)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(Error::arg(
                name,
                format!("{v}; expected 0 (the default) or a finite number > 0"),
            ));
        }
    }
    let given = |v: f64| (v > 0.0).then_some(v);
    let mut opts = SlsOptions {
        method,
        break_function: BreakFunction::from_options(
            given(o.cb),
            given(o.eps),
            max_clause_length(cnf),
        ),
        noise: o.noise,
        seed: o.seed,
        restart_flips: o.restart_flips,
        flips_per_launch: o.flips_per_launch,
        stop: crate::run::Stop {
            budget: (o.max_flips > 0).then_some(o.max_flips),
            time_limit,
            // SAFETY: the caller's contract.
            token: unsafe { token_arg(o.stop_token, "opts.stop_token")? },
            ..crate::run::Stop::default()
        },
        since: None,
        // SAFETY: the caller's contract.
        start: unsafe { start_arg(o.start, o.start_count, cnf.num_vars)? },
    };
    // SAFETY: the caller's contract.
    opts.stop.checkpoint = unsafe { checkpoint_plan_arg(o)? };
    opts.check().map_err(|e| match e {
        Error::InvalidArgument { arg, msg } => Error::arg(
            match arg {
                "cb" => "opts.cb",
                "eps" => "opts.eps",
                "noise" => "opts.noise",
                "restart_flips" => "opts.restart_flips",
                "flips_per_launch" => "opts.flips_per_launch",
                "max_flips" => "opts.max_flips",
                "time_limit" => "opts.time_limit_s",
                a => a,
            },
            msg,
        ),
        e => e,
    })?;
    Ok((opts, backend))
}

/// The checkpoint plan of the options (errors name the fields).
///
/// # Safety
/// `o.checkpoint_path` must be NULL or a NUL-terminated string.
unsafe fn checkpoint_plan_arg(
    o: &MetaoptSatSolveOptions,
) -> Result<Option<crate::run::checkpoint::Checkpointing>> {
    // SAFETY: the caller's contract.
    unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s) }.map_err(|e| {
        renamed_opt(
            e,
            &[
                ("checkpoint_path", "opts.checkpoint_path"),
                ("checkpoint_every_s", "opts.checkpoint_every_s"),
            ],
        )
    })
}

/// `e` with its argument renamed by `table`.
fn renamed_opt(e: Error, table: &[(&'static str, &'static str)]) -> Error {
    match e {
        Error::InvalidArgument { arg, msg } => Error::arg(
            table
                .iter()
                .find(|(a, _)| *a == arg)
                .map_or(arg, |(_, b)| *b),
            msg,
        ),
        e => e,
    }
}

/// The warm-start assignments of `count` bit-packed rows at `start` (errors name `opts.start`).
///
/// # Safety
/// `start` must be NULL or hold `count` rows of the formula's words.
unsafe fn start_arg(start: *const u32, count: u32, n: usize) -> Result<Vec<Assignment>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let words = Assignment::words_for(n);
    let total = (count as usize).checked_mul(words).ok_or_else(|| {
        Error::arg(
            "opts.start_count",
            format!("{count} rows overflow the address space"),
        )
    })?;
    // SAFETY: the caller's contract.
    let flat: Vec<u32> = unsafe { copy_in(start.cast(), total, "opts.start")? };
    let pad = if n.is_multiple_of(32) {
        0
    } else {
        !((1u32 << (n % 32)) - 1)
    };
    flat.chunks_exact(words.max(1))
        .enumerate()
        .map(|(i, row)| {
            if row.last().is_some_and(|&w| w & pad != 0) {
                return Err(Error::arg(
                    "opts.start",
                    format!("assignment {i} sets bits past variable {n}"),
                ));
            }
            Assignment::from_words(n, row.to_vec()).map_err(|e| match e {
                Error::InvalidArgument { msg, .. } => {
                    Error::arg("opts.start", format!("assignment {i}: {msg}"))
                }
                e => e,
            })
        })
        .collect()
}

/// The model of `m` as signed literals.
fn model_literals(m: Option<&crate::problem::sat::Model>) -> Result<*mut i32> {
    Ok(match m {
        Some(m) => {
            let a = m.assignment();
            let lits: Vec<i32> = (1..=a.num_vars())
                .map(|v| if a.get(v) { v as i32 } else { -(v as i32) })
                .collect();
            CArray::from_slice(&lits)?.into_raw()
        }
        None => ptr::null_mut(),
    })
}

/// Searches for a model of the formula of `h` (`opts.method`): many probSAT (the default) or
/// WalkSAT walks on the device in use or the CPU backend (docs/specs/SAT_SLS.md) until a model,
/// `opts.max_flips` flips per walk or the time limit; or HC12 on the device (docs/specs/SAT.md):
/// runs from random assignments, each moving to its best neighbour (the tabu list keeps it off
/// recent assignments) until a model, `opts.runs` or the time limit. A model is verified against
/// every clause before it is reported. A formula with no variables (HC12: or no clauses) is an
/// error; invalid options are `METAOPT_ERR_INVALID_ARGUMENT` naming the field. `opts` is
/// borrowed for the call (NULL: an error; use `metaopt_sat_default_solve_options`). The arrays
/// and message of the result are the caller's: free them with `metaopt_sat_free_solve_result`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `opts` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_solve(
    h: *mut MetaoptSatInstance,
    opts: *const MetaoptSatSolveOptions,
) -> MetaoptSatSolveResult {
    ffi_boundary!({
        // the time limit counts from here: making the solver (indexing and uploading the
        // formula, building the kernels) is inside it
        let t0 = std::time::Instant::now();
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or readable by the caller's contract.
        let o = unsafe { opts.as_ref() }.ok_or(Error::NullPointer("opts"))?;
        // the fields every method's result `r` fills alike
        macro_rules! common_fields {
            ($r:expr) => {
                solve_result(
                    h.cnf.num_vars,
                    o.method,
                    $r.satisfiable,
                    $r.best_unsatisfied,
                    &$r.best,
                    $r.model.as_ref(),
                    $r.stop,
                    $r.seconds,
                )
            };
        }
        let method = match o.method {
            0 => Some(SlsMethod::ProbSat),
            1 => Some(SlsMethod::WalkSat),
            2 => None,
            m => {
                return Err(Error::arg(
                    "opts.method",
                    format!("{m}; expected 0 (probsat), 1 (walksat) or 2 (hc12)"),
                ))
            }
        };
        // a loaded state is used up by the next search, which must be of its method
        let pending_hc12 = h.hc12_resume.take();
        let mismatch = match method {
            Some(_) => pending_hc12.is_some(),
            None => h.sls_resume.take().is_some(),
        };
        if mismatch {
            return Err(Error::arg(
                "state",
                if method.is_some() {
                    "the loaded state is of an hc12 search; this search is probsat or walksat"
                } else {
                    "the loaded state is of a walk search (probsat, walksat); this search is hc12"
                },
            ));
        }
        if let Some(method) = method {
            // SAFETY: the caller's contract for `o.stop_token`.
            let (mut options, backend) = unsafe { walk_options(o, method, &h.cnf)? };
            options.since = Some(t0);
            if o.walks > 1 << 24 {
                return Err(Error::arg(
                    "opts.walks",
                    format!("{}; expected at most 2^24 walks", o.walks),
                ));
            }
            let walks = (o.walks > 0).then_some(o.walks);
            h.last_hc12 = false;
            let sls = h.sls(walks, backend)?;
            let r = sls.solve(&options);
            // a loaded state is used up by this search, which fails if its options differ
            sls.take_loaded_state();
            let r = r.map_err(|e| renamed_opt(e, &[("start", "opts.start")]))?;
            let common = common_fields!(r)?;
            return Ok(MetaoptSatSolveResult {
                walks: r.walks,
                flips: r.flips,
                restarts: r.restarts(),
                flips_per_second: r.flips_per_second,
                ..common
            });
        }
        // SAFETY: the caller's contract for `o.stop_token`.
        let mut options = unsafe { solve_options(o)? };
        options.since = Some(t0);
        let cut = crate::interrupt::Cut {
            clock: crate::interrupt::Clock::since(t0, options.stop.time_limit),
            watch: crate::interrupt::Watch::new(options.stop.token.as_ref()),
        };
        if !o.start.is_null() || o.start_count != 0 {
            return Err(Error::arg(
                "opts.start",
                "applies to the walks (probsat, walksat), not hc12",
            ));
        }
        let tabu_len = options.tabu.as_ref().map_or(0, |t| t.max_length);
        let backend = match super::device::backend_on(0, o.device, "opts.backend", "opts.device")? {
            Backend::Device(None) => Backend::Device(Some(crate::device::get_device_number()?)),
            b => b,
        };
        let fits = h.solver.as_ref().is_some_and(|(m, t, b, _)| {
            *m == options.mask_order && *t == tabu_len && *b == backend
        });
        if !fits {
            h.solver = None; // free the old device buffers first
            let solver = SatSolver::new_within(
                h.cnf.clone(),
                options.mask_order,
                tabu_len,
                backend,
                Some(&cut),
            )?;
            h.solver = Some((options.mask_order, tabu_len, backend, solver));
        }
        h.last_hc12 = true;
        let (_, _, _, solver) = h.solver.as_mut().expect("made above");
        if let Some(bytes) = pending_hc12 {
            solver.load_state(&bytes, &options)?;
        }
        let r = solver.solve(&options)?;
        let common = common_fields!(r)?;
        MetaoptSatSolveResult {
            runs: r.runs,
            iterations: r.iterations,
            evaluations: r.evaluations,
            ..common
        }
    })
}

/// The result fields every search fills alike (the best assignment, the model, status and
/// time); the per-method counters (runs, iterations, evaluations; walks, flips, restarts) zero.
#[allow(clippy::too_many_arguments)]
fn solve_result(
    num_vars: usize,
    method: i32,
    satisfiable: bool,
    best_unsatisfied: u32,
    best: &Assignment,
    model: Option<&crate::problem::sat::Model>,
    stop: StopReason,
    seconds: f64,
) -> Result<MetaoptSatSolveResult> {
    let assignment = CArray::from_slice(best.words())?;
    let (error_code, error_message) =
        stop_status(stop == StopReason::Interrupted, "metaopt_sat_solve");
    Ok(MetaoptSatSolveResult {
        satisfiable: satisfiable as u8,
        best_unsatisfied,
        assignment: assignment.into_raw(),
        words: best.words().len() as u32,
        model_literals: model_literals(model)?,
        num_vars: num_vars as u32,
        runs: 0,
        iterations: 0,
        evaluations: 0,
        method,
        walks: 0,
        flips: 0,
        restarts: 0,
        flips_per_second: 0.0,
        seconds,
        error_code,
        error_message,
        stop_reason: stop.code(),
    })
}

/// Frees the arrays and the message of a `MetaoptSatSolveResult` and sets them to NULL and their
/// lengths to 0 (so a second call is harmless); the struct itself belongs to the caller. NULL is
/// a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_sat_solve` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_free_solve_result(r: *mut MetaoptSatSolveResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// Releases an instance, its formula and its device buffers. NULL, and a pointer that is not a
/// live instance (e.g. one freed already), are ignored.
///
/// # Safety
/// `h` must not be in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_free(h: *mut MetaoptSatInstance) {
    ffi_boundary!({
        // SAFETY: the caller's contract; unregistered pointers are ignored.
        unsafe { handle::free(h) }
    })
}

/// The whole state of the last search on `h`, whichever its method: of probSAT or WalkSAT
/// (every walk's assignment, best assignment, flip log and counters, the unsatisfied lists of
/// walks whose state persists, the launches and the time taken) or of HC12 (runs made,
/// counters, the best assignment and every run's figures, the seconds taken; taken between
/// runs) as checkpoint bytes, the caller's to free with `metaopt_bytes_free_result`. An error
/// if no search has run on `h`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_save_state(h: *mut MetaoptSatInstance) -> MetaoptBytesResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let bytes = if h.last_hc12 {
            match h.solver.as_ref() {
                Some((_, _, _, s)) => s.save_state()?,
                None => {
                    return Err(Error::arg(
                        "h",
                        "no search has run on this instance: nothing to save",
                    ))
                }
            }
        } else {
            let Some((_, _, s)) = h.sls.as_mut() else {
                return Err(Error::arg(
                    "h",
                    "no search has run on this instance: nothing to save",
                ));
            };
            s.save_state()?
        };
        MetaoptBytesResult::ok(&bytes)?
    })
}

/// The next `metaopt_sat_solve` on `h` continues the search whose state `data` holds (`length`
/// bytes of `metaopt_sat_save_state` or of a checkpoint file) instead of starting afresh, as if
/// it had never stopped: it must be of the state's method (probSAT or WalkSAT for a walk state,
/// HC12 for an HC12 state; else it fails naming `state`) and its options those of the saved
/// search (its flip or run budget and time limit may be larger; they count the work already
/// done). Checked now: the bytes' frame and checksum, the library version, the solver and the
/// formula; the options when the search starts (errors name `state`), and that search uses the
/// state up, failing or not. `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_sat_load_state(
    h: *mut MetaoptSatInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(h, "h", data, length, |h, bytes| {
            let hc12 = crate::run::checkpoint::header(&bytes, "data")?.solver == "sat_hc12";
            if hc12 {
                crate::hc12::sat::check_state(&h.cnf, &bytes, "data")?;
            } else {
                // checked now on walks over the formula (any count, any backend: the header is
                // the same)
                let mut probe =
                    SatSls::new(h.cnf.clone(), Some(1), Backend::Cpu).map_err(|e| match e {
                        Error::InvalidArgument { arg: "cnf", msg } => Error::arg("h", msg),
                        e => e,
                    })?;
                probe.load_state(bytes.clone())?;
            }
            if let Some((_, _, s)) = h.sls.as_mut() {
                s.take_loaded_state();
            }
            if hc12 {
                h.sls_resume = None;
                h.hc12_resume = Some(bytes);
            } else {
                h.hc12_resume = None;
                h.sls_resume = Some(bytes);
            }
            Ok(())
        })
    }
}
