//! The quantum-inspired genetic algorithm over the C ABI (`crate::qiga`, docs/specs/QIGA.md): many
//! independent populations on a knapsack instance (`knapsack.rs`), on the device in use, given
//! devices or the CPU backend, with per-population results and their statistics.

use super::boundary::not_one_of;
use super::interrupt::{stop_status, token_arg, MetaoptStopToken};
use super::knapsack::{self, MetaoptKnapsack};
use super::qap::MetaoptBackend;
use super::state::{checkpoint_plan, load_state_call, MetaoptBytesResult};
use super::MetaoptInt32Result;
use super::{
    c_string, copy_in, ffi_boundary, free_result, owned_result, plain_result, str_arg, CArray,
};
use crate::error::{Error, Result};
use crate::interrupt::StopReason;
use crate::qiga::{Qiga, QigaOptions, QigaRunResult, QigaStats, Repair, RotationTable};
use std::ffi::c_char;
use std::ptr;

/// The preset rotation tables (`MetaoptQigaOptions.table`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQigaTable {
    /// Han & Kim 2000 as the paper's authors code it (the default).
    MetaoptQigaTableGqa2000 = 0,
    /// Han & Kim's QEA table (IEEE TEVC 2002).
    MetaoptQigaTableQea2002 = 1,
}

/// The order of the two phases of the knapsack repair (`MetaoptQigaOptions.repair`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptQigaRepair {
    /// Index order for both phases (the default).
    MetaoptQigaRepairIndex = 0,
    /// A random order per repair, the same for both phases.
    MetaoptQigaRepairRandom = 1,
    /// By profit/weight: removal from the worst ratio, fill from the best.
    MetaoptQigaRepairGreedy = 2,
}

/// Options of `metaopt_qiga_run`; start from `metaopt_qiga_default_options()` and change fields.
/// The pointers are borrowed for the call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptQigaOptions {
    /// Independent populations (runs), at least 1.
    pub populations: u32,
    /// Quantum individuals per population (1..=1024).
    pub individuals: u32,
    /// Generations after the initial one.
    pub generations: u32,
    /// A `MetaoptQigaTable`: the one rotation table of every population, used when
    /// `tables_count` is 0.
    pub table: i32,
    /// `tables_count` tables for a tuning run (population q uses table
    /// (q / pops_per_table) % tables_count): each a preset name (`gqa2000`, `qea2002`) or a
    /// table's text (`x b better steps s1 s2 s3 s4` lines, docs/specs/QIGA.md). NULL when
    /// `tables_count` is 0.
    pub tables: *const *const c_char,
    /// Entries of `tables`; 0 = the preset `table`.
    pub tables_count: u32,
    /// Populations per table in a tuning run; 0 = populations / tables, rounded up.
    pub pops_per_table: u32,
    /// 1: the pole cells that the sources give as ±1 are drawn at random (every table); 0: fixed
    /// at +1.
    pub pole_signs_random: u8,
    /// A `MetaoptQigaRepair`.
    pub repair: i32,
    /// Seed: a seed and the options give the same result on every device and on the CPU.
    pub seed: u64,
    /// 1: a population stops when its best value reaches `target`.
    pub has_target: u8,
    /// The target (in the problem's units; used when `has_target` is 1).
    pub target: f64,
    /// Time limit in seconds (0..=1e9; checked between launches: populations not started are
    /// not reported); 0 = none. NaN, infinite, negative or larger values are
    /// `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit_s: f64,
    /// A `MetaoptBackend`: the device in use (`metaopt_device_set_number`) or the CPU backend;
    /// ignored when `devices_count` is not 0.
    pub backend: i32,
    /// `devices_count` OpenCL device numbers: the populations are spread over them (the results
    /// do not depend on the spread). NULL when `devices_count` is 0.
    pub devices: *const u32,
    /// Entries of `devices`; 0 = `backend`.
    pub devices_count: u32,
    /// Work-items per population on a device; 0 = the device kind's tuning.
    pub group_size: u32,
    /// Populations per launch; 0 = a multiple of the device's compute units.
    pub launch_populations: u32,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the run between launches as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. Ignored by the CPU backend; below -1 or not in the device list is an error naming
    /// `device`.
    /// Used when `devices_count` is 0.
    pub device: i32,
    /// A warm start: `start_count` best strings of `items` bytes (0/1, within the capacity)
    /// one after another; population q starts from string q % start_count (its best until an
    /// individual beats it, the angles leaning toward its bits). NULL when `start_count` is 0.
    pub start: *const u8,
    /// Strings in `start`.
    pub start_count: u32,
    /// NULL, or a file the run writes its whole state to (atomically) when it ends and every
    /// `checkpoint_every_s` seconds; `metaopt_qiga_load_state` with its bytes continues it.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the run ends.
    pub checkpoint_every_s: f64,
}

/// Statistics of the final values of a run (or of one table's populations).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MetaoptQigaStats {
    /// Populations counted.
    pub count: u64,
    pub mean: f64,
    /// Sample variance (divided by count - 1; 0 for one population).
    pub variance: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl From<&QigaStats> for MetaoptQigaStats {
    fn from(s: &QigaStats) -> Self {
        MetaoptQigaStats {
            count: s.count as u64,
            mean: s.mean,
            variance: s.variance,
            median: s.median,
            min: s.min,
            max: s.max,
        }
    }
}

/// The result of `metaopt_qiga_run`: one entry per population that ran, in population order.
/// The arrays, `backend` and `error_message` are the caller's: free them with
/// `metaopt_qiga_free_run_result` (or each with `metaopt_pointer_free`).
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptQigaRunResult {
    /// Populations that ran (all unless a time limit or an interrupt cut the run).
    pub count: u32,
    /// Items of the instance: the length of each bit string.
    pub items: u32,
    /// The number of each population that ran, `count` entries.
    pub population: *mut u32,
    /// Each population's best value in the problem's units, `count` entries.
    pub best_value: *mut f64,
    /// The same on the integer scale (exact), `count` entries.
    pub best_value_int: *mut u64,
    /// Each population's best item set, `items` bytes (0/1) per population, `count * items`.
    pub best_bits: *mut u8,
    /// The generation (0 = initial) in which each population found its best, `count` entries.
    pub best_generation: *mut u32,
    /// Generations each population ran after the initial one, `count` entries.
    pub generations_run: *mut u32,
    /// Statistics over every population that ran.
    pub stats: MetaoptQigaStats,
    /// Statistics per rotation table, `tables_count` entries (one without a tuning run).
    pub table_stats: *mut MetaoptQigaStats,
    /// Entries of `table_stats`.
    pub tables_count: u32,
    /// The entry of the best population (an index into the arrays).
    pub best_index: u32,
    /// A `MetaoptStopReason`: why the run ended.
    pub stop_reason: i32,
    /// Wall time of the run in seconds (kernel builds excluded).
    pub elapsed_s: f64,
    /// Whole populations per second.
    pub runs_per_second: f64,
    /// The backend that ran the populations, in words.
    pub backend: *mut c_char,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the populations that ran) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
}

owned_result!(MetaoptQigaRunResult: frees population, best_value, best_value_int, best_bits, best_generation, generations_run, table_stats, backend; zeroes count, tables_count);
plain_result!(MetaoptQigaOptions);

/// The defaults of the QIGA paper (1,000 populations of 10 individuals, 500 generations, the
/// `gqa2000` table with fixed pole signs, index repair, seed 1) on the device in use.
#[no_mangle]
pub extern "C" fn metaopt_qiga_default_options() -> MetaoptQigaOptions {
    ffi_boundary!({
        let d = QigaOptions::default();
        MetaoptQigaOptions {
            populations: d.populations as u32,
            individuals: d.individuals as u32,
            generations: d.stop.budget.map_or(0, |g| g as u32),
            table: MetaoptQigaTable::MetaoptQigaTableGqa2000 as i32,
            tables: ptr::null(),
            tables_count: 0,
            pops_per_table: 0,
            pole_signs_random: 0,
            repair: MetaoptQigaRepair::MetaoptQigaRepairIndex as i32,
            seed: d.seed,
            has_target: 0,
            target: 0.0,
            time_limit_s: 0.0,
            backend: MetaoptBackend::MetaoptBackendDevice as i32,
            devices: ptr::null(),
            devices_count: 0,
            group_size: 0,
            launch_populations: 0,
            stop_token: ptr::null(),
            device: -1,
            start: ptr::null(),
            start_count: 0,
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// A table given as text or a preset name.
fn table_of(s: &str, i: usize) -> Result<RotationTable> {
    match s.trim() {
        "gqa2000" => Ok(RotationTable::gqa2000()),
        "qea2002" => Ok(RotationTable::qea2002()),
        t => RotationTable::parse(t).map_err(|e| match e {
            Error::InvalidArgument { msg, .. } => {
                Error::arg("tables", format!("tables[{i}]: {msg}"))
            }
            e => e,
        }),
    }
}

/// The library's options from the C struct for a knapsack of `items` items; errors name the
/// field.
///
/// # Safety
/// `o.tables` and `o.devices` must be NULL or hold their counts of entries (each table a
/// NUL-terminated string); `o.stop_token` NULL or a token; `o.start` NULL or `o.start_count`
/// strings of `items` bytes; `o.checkpoint_path` NULL or a NUL-terminated string.
pub(crate) unsafe fn qiga_options(o: &MetaoptQigaOptions, items: usize) -> Result<QigaOptions> {
    let mut tables = Vec::new();
    if o.tables_count == 0 {
        tables.push(match o.table {
            0 => RotationTable::gqa2000(),
            1 => RotationTable::qea2002(),
            t => return Err(not_one_of("table", t, "0 (gqa2000) or 1 (qea2002)")),
        });
    } else {
        // SAFETY: the caller's contract for `tables_count` pointers.
        let ptrs: Vec<*const c_char> =
            unsafe { copy_in(o.tables.cast(), o.tables_count as usize, "tables")? };
        for (i, &p) in ptrs.iter().enumerate() {
            // SAFETY: the caller's contract: each a NUL-terminated string (NULL is checked).
            let s = unsafe { str_arg(p, "tables")? };
            tables.push(table_of(s, i)?);
        }
    }
    if o.pole_signs_random > 1 {
        return Err(Error::arg(
            "pole_signs_random",
            format!("{}; expected 0 or 1", o.pole_signs_random),
        ));
    }
    if o.pole_signs_random == 1 {
        tables = tables
            .into_iter()
            .map(RotationTable::with_random_pole_signs)
            .collect();
    }
    let repair = match o.repair {
        0 => Repair::Index,
        1 => Repair::Random,
        2 => Repair::Greedy,
        r => {
            return Err(not_one_of(
                "repair",
                r,
                "0 (index), 1 (random) or 2 (greedy)",
            ))
        }
    };
    let backend = super::device::backend_on(o.backend, o.device, "backend", "device")?;
    let devices: Vec<usize> = if o.devices_count == 0 {
        Vec::new()
    } else {
        // SAFETY: the caller's contract for `devices_count` entries.
        let d: Vec<u32> =
            unsafe { copy_in(o.devices.cast(), o.devices_count as usize, "devices")? };
        d.into_iter().map(|v| v as usize).collect()
    };
    let target = match o.has_target {
        0 => None,
        1 if o.target.is_finite() => Some(o.target),
        1 => {
            return Err(Error::arg(
                "target",
                format!("{}; expected a finite value", o.target),
            ))
        }
        h => return Err(Error::arg("has_target", format!("{h}; expected 0 or 1"))),
    };
    let mut opts = QigaOptions {
        populations: o.populations as usize,
        individuals: o.individuals as usize,
        stop: crate::run::Stop {
            budget: Some(u64::from(o.generations)),
            target,
            time_limit: crate::interrupt::time_limit_from_secs(o.time_limit_s, "time_limit_s")?,
            // SAFETY: the caller's contract.
            token: unsafe { token_arg(o.stop_token, "stop_token")? },
            ..crate::run::Stop::default()
        },
        tables,
        pops_per_table: o.pops_per_table as usize,
        repair,
        seed: o.seed,
        backend,
        devices,
        group_size: (o.group_size != 0).then_some(o.group_size as usize),
        launch_populations: (o.launch_populations != 0).then_some(o.launch_populations as usize),
        only: None,
        start: if o.start_count == 0 {
            Vec::new()
        } else {
            let total = (o.start_count as usize)
                .checked_mul(items)
                .ok_or_else(|| Error::arg("start_count", "strings overflow the address space"))?;
            // SAFETY: the caller's contract for `start_count` strings of `items` bytes.
            let flat: Vec<u8> = unsafe { copy_in(o.start.cast(), total, "start")? };
            flat.chunks(items.max(1)).map(<[u8]>::to_vec).collect()
        },
    };
    // SAFETY: the caller's contract: NULL or a string.
    opts.stop.checkpoint = unsafe { checkpoint_plan(o.checkpoint_path, o.checkpoint_every_s)? };
    Ok(opts)
}

/// The C result of a run.
fn run_result(r: &QigaRunResult) -> Result<MetaoptQigaRunResult> {
    let population = CArray::from_slice(&r.population)?;
    let best_value = CArray::from_slice(&r.best_value)?;
    let best_value_int = CArray::from_slice(&r.best_value_int)?;
    let best_bits = CArray::from_slice(&r.best_bits)?;
    let best_generation = CArray::from_slice(&r.best_generation)?;
    let generations_run = CArray::from_slice(&r.generations_run)?;
    let ts: Vec<MetaoptQigaStats> = r.table_stats.iter().map(MetaoptQigaStats::from).collect();
    let table_stats = CArray::from_slice(&ts)?;
    let (error_code, error_message) =
        stop_status(r.stop_reason == StopReason::Interrupted, "metaopt_qiga_run");
    Ok(MetaoptQigaRunResult {
        count: r.population.len() as u32,
        items: r.items as u32,
        population: population.into_raw(),
        best_value: best_value.into_raw(),
        best_value_int: best_value_int.into_raw(),
        best_bits: best_bits.into_raw(),
        best_generation: best_generation.into_raw(),
        generations_run: generations_run.into_raw(),
        stats: MetaoptQigaStats::from(&r.stats),
        table_stats: table_stats.into_raw(),
        tables_count: ts.len() as u32,
        best_index: r.best_index as u32,
        stop_reason: r.stop_reason.code(),
        elapsed_s: r.elapsed_s,
        runs_per_second: r.runs_per_second,
        backend: c_string(&r.backend),
        error_code,
        error_message,
    })
}

/// Runs QIGA on `knapsack`: `options.populations` independent populations until their
/// generations, their target, the time limit or a stop. `options` is borrowed for the call
/// (NULL: `metaopt_qiga_default_options()`). Kernel builds are cached, so a second run with
/// the same sizes starts at once. An interrupted run (`metaopt_interrupt`, the stop token) is
/// `METAOPT_INTERRUPTED` with the result of the populations that ran. Free the result with
/// `metaopt_qiga_free_run_result`.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer, which the library checks (freed, forged and
/// wrong-kind handles are errors); `options` NULL or valid, with its pointers as their
/// documentation says.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qiga_run(
    knapsack: *mut MetaoptKnapsack,
    options: *const MetaoptQigaOptions,
) -> MetaoptQigaRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut k = unsafe { knapsack::get(knapsack, "knapsack")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = match unsafe { options.as_ref() } {
            Some(o) => *o,
            None => metaopt_qiga_default_options(),
        };
        // SAFETY: the caller's contract.
        let opts = unsafe { qiga_options(&o, k.n())? };
        // a loaded state is used up by this run, which fails if its options differ
        let resume = k.qiga_resume.take();
        let mut q = Qiga::new(&k, opts)?;
        if let Some(bytes) = resume {
            q.load_state(bytes)?;
        }
        let r = q.run()?;
        k.qiga_last = q.take_saved()?;
        run_result(&r)?
    })
}

/// Frees the arrays, the backend text and the message of a `MetaoptQigaRunResult` and sets them
/// to NULL and the counts to 0 (so a second call is harmless); the struct itself belongs to the
/// caller. NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_qiga_run` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qiga_free_run_result(r: *mut MetaoptQigaRunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The whole state of the last `metaopt_qiga_run` on `knapsack` (the finished populations'
/// outcomes; the Q-bit angles, best strings, values and generations of the populations begun and
/// not finished; the time taken) as checkpoint bytes, the caller's to free with
/// `metaopt_bytes_free_result`. An error if no run has run on the instance.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_qiga_save_state(
    knapsack: *mut MetaoptKnapsack,
) -> MetaoptBytesResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let k = unsafe { knapsack::get(knapsack, "knapsack")? };
        let Some(saved) = k.qiga_last.as_ref() else {
            return Err(Error::arg(
                "knapsack",
                "no QIGA run has run on this instance: nothing to save",
            ));
        };
        MetaoptBytesResult::ok(&saved.bytes()?)?
    })
}

/// The next `metaopt_qiga_run` on `knapsack` continues the run whose state `data` holds
/// (`length` bytes of `metaopt_qiga_save_state` or of a checkpoint file) instead of starting
/// afresh, as if it had never stopped: its options must be those of the saved run (its time
/// limit may be larger; it counts the time already taken). Checked now: the bytes' frame and
/// checksum, the library version, the solver and the instance; the options when the run starts
/// (errors name `state`), and that run uses the state up, failing or not. `result` is 0 on
/// success.
///
/// # Safety
/// `knapsack` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_qiga_load_state(
    knapsack: *mut MetaoptKnapsack,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe {
        load_state_call(knapsack, "knapsack", data, length, |k, bytes| {
            Qiga::check_state_for(k, &bytes)?;
            k.qiga_resume = Some(bytes);
            Ok(())
        })
    }
}
