//! Island differential evolution over the C ABI: the thesis's `DEMultiPop` (5.2.1) under a
//! `metaopt_de_` prefix — create, init, iteration, run with stop conditions, the bests of the
//! populations, any member, func-data, info, free — with the error discipline of the QAP
//! functions (docs/specs/API.md, docs/specs/DE.md).

use super::handle::{self, opaque_handle};
use super::interrupt::{c_stop, stop_status, MetaoptStopToken};
use super::state::{load_state_call, save_state_call, MetaoptBytesResult};
use super::{
    copy_in, ffi_boundary, free_result, func_data_arg, objective_arg, owned_result, plain_result,
    str_arg, CArray, MetaoptDoubleArrayResult, MetaoptInt32Result, MetaoptObjective,
    MetaoptObjectiveCallback, MetaoptStringResult,
};
use crate::de::constraints::{Constraints, Handling, Repair};
use crate::de::{
    BoundsCorrection, DeMultiPop, DeOptions, DeParams, FMode, Migration, MigrationKind, Selection,
    StopReason,
};
use crate::error::{Error, Result};
use crate::precision::Precision;
use std::ffi::{c_char, c_void};
use std::ptr;

/// An island DE instance: populations, settings, objective and device buffers. Opaque: made by
/// `metaopt_de_create`, released by `metaopt_de_free`. A handle may be used by one thread at a
/// time.
pub struct MetaoptDeInstance {
    _opaque: [u8; 0],
}
opaque_handle!(MetaoptDeInstance => Handle, b"metaDE01", "metaopt_de_create");

/// `MetaoptDeCreateResult.instance` of a failed call is NULL; on success it is a new handle owned
/// by the caller, who releases it with `metaopt_de_free`.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptDeCreateResult {
    /// `METAOPT_OK` or a `MetaoptErrorCode`.
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The new instance, or NULL on error.
    pub instance: *mut MetaoptDeInstance,
}

/// `MetaoptDeOptions::f_const` for a dithered F.
const F_DITHER: u8 = 2;

/// Options of `metaopt_de_create` and updates of them in `metaopt_de_init` (the thesis's
/// `OptionsDict`, Table 3); start from `metaopt_de_default_options()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptDeOptions {
    /// 0: F_p evenly from `f_min` to `f_max` over the populations (`linspace`, the default);
    /// 2: each generation, each population draws its F uniformly in
    /// [`f_min`, `f_max`) (`dither`, as scipy's `mutation=(lo, hi)`; the classic DE only); any
    /// other value: F is `f_min` for every population (`const`).
    pub f_const: u8,
    /// F of the first population, or of all with `f_const` (default 0.1).
    pub f_min: f64,
    /// F of the last population under `linspace` (default 1.5).
    pub f_max: f64,
    /// CR of every population when `cr_per_island` is NULL (default 0.5), in [0, 1].
    pub cr: f64,
    /// NULL, or `islands` values: the CR of each population (borrowed for the call).
    pub cr_per_island: *const f64,
    /// Seeds of the initial population, mutation, crossover and migration (defaults 123, 345,
    /// 457, 581): the same seeds give the same run on every device and on the CPU backend.
    pub init_seed: u64,
    pub mutation_seed: u64,
    pub crossover_seed: u64,
    pub migration_seed: u64,
    /// Nonzero forces double precision on the device (needs `cl_khr_fp64`), whatever
    /// `precision` says (the older flag; 0 leaves the choice to `precision`).
    pub double_precision: u8,
    /// Nonzero: populations share the random numbers of mutation and crossover (the thesis's
    /// device compromise); 0 (default): each population draws its own.
    pub shared_random: u8,
    /// A `MetaoptBackend`: 0 the OpenCL device in use, 1 the rayon CPU backend.
    pub backend: i32,
    /// A `MetaoptPrecision`: 0 auto (the default: double where the device has `cl_khr_fp64`,
    /// and on the CPU backend; else single), 1 single, 2 double. Fixed at `metaopt_de_create`;
    /// `metaopt_de_run` reports the one used.
    pub precision: i32,
    /// Nonzero (the default): on a device, the generations between two migrations run in one
    /// launch of the fused kernel whenever an island fits one work-group; 0: one set of
    /// launches per generation (the same random numbers; in double with no migration, the same
    /// run). Ignored by the CPU backend.
    pub fused: u8,
    /// A `MetaoptDeSelection`: 0 `ties` (the default: a trial replaces its target when
    /// f(trial) <= f(target), so populations can move across plateaus), 1 `strict` (only when
    /// f(trial) < f(target), the thesis's `DEMULTIPOP_FITNESS_COPY_BETTER_Y2X`).
    pub selection: i32,
    /// A `MetaoptPrecision` for the fitness values Fx and Fy (the thesis's `FPf` of
    /// `DEMultiPop<FP, FPf>`; `precision` is its `FP`, the type of X and Y): 0 (the default) the
    /// storage precision, 1 single, 2 double (needs `cl_khr_fp64` on a device). The objective
    /// computes in the storage precision; its value is rounded to this one, stored and compared
    /// in it. Fixed at `metaopt_de_create` (in `metaopt_de_init` it must be 0 or the one used);
    /// `metaopt_de_run` reports the one used.
    pub fitness_precision: i32,
    /// A `MetaoptDeAlgorithm`: 0 the thesis's DE with fixed F and CR (the default), 1 JADE,
    /// 2 SHADE, 3 L-SHADE, 4 jSO (docs/specs/DE.md, "Adaptive DE": the variants adapt F and CR
    /// per member, use current-to-pbest/1 with an archive whatever mutation `metaopt_de_init`
    /// names, and keep their papers' defaults), 5 jDE100 (docs/specs/DE.md, "jDE100": a big and
    /// a small population per island, `jde_small` members small, self-adaptive F and CR per
    /// member, restarts; on a device always in the fused kernel, so a host callback objective
    /// is refused there). Another value is an error naming `options.algorithm`.
    pub algorithm: i32,
    /// Evaluations per population over which L-SHADE and jSO shrink the population linearly to
    /// 4 members (their MAX_NFE; needed by those two, ignored by the others; default 0).
    pub lshade_budget: u64,
    /// The device number (`metaopt_device_count`), or -1 (the default) for the device in use
    /// (`metaopt_device_set_number`); instances on different devices may run from different
    /// threads. Ignored by the CPU backend; below -1 or not in the device list is an error naming
    /// `options.device`.
    /// Fixed at `metaopt_de_create` (later options' `device` is ignored).
    pub device: i32,
    /// jDE100: the members of each island's small population (default 25, the paper's sNP); the
    /// other `members - jde_small` are the big population (the paper's 1000). Both need at least
    /// 4 members. Ignored by the other algorithms.
    pub jde_small: u32,
    /// jDE100: a population restarts when more than 25 % (and more than 2) of its members are
    /// within this absolute difference of the best value (default 1e-16); finite, >= 0.
    pub jde_eps: f64,
    /// jDE100: the big population also restarts when its evaluations since the island's best
    /// last improved exceed this (default 0: no age limit).
    pub jde_age: u64,
    /// NULL, or `dims` flags (borrowed for the call): nonzero makes the dimension an integer
    /// variable, as scipy's `integrality` (its limits become the integers inside them and every
    /// component made is rounded, so the points evaluated and returned are integral). Read by
    /// `metaopt_de_create` only: the integer dimensions are fixed with the instance.
    pub integrality: *const u8,
}

/// DE algorithms (`MetaoptDeOptions.algorithm`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptDeAlgorithm {
    /// The thesis's DE: fixed F and CR per population, the mutation of `metaopt_de_init`.
    MetaoptDeAlgorithmDe = 0,
    /// JADE (Zhang & Sanderson 2009).
    MetaoptDeAlgorithmJade = 1,
    /// SHADE (Tanabe & Fukunaga, CEC 2013).
    MetaoptDeAlgorithmShade = 2,
    /// L-SHADE (Tanabe & Fukunaga, CEC 2014).
    MetaoptDeAlgorithmLShade = 3,
    /// jSO (Brest, Maučec & Bošković, CEC 2017).
    MetaoptDeAlgorithmJso = 4,
    /// jDE100 (Brest, Maučec & Bošković, CEC 2019).
    MetaoptDeAlgorithmJde100 = 5,
}

/// Greedy selection rules (`MetaoptDeOptions.selection`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptDeSelection {
    /// f(trial) <= f(target): ties replace the target (the default).
    MetaoptDeSelectionTies = 0,
    /// f(trial) < f(target): the thesis's rule.
    MetaoptDeSelectionStrict = 1,
}

/// Stop conditions of `metaopt_de_run`: a zero field (or `has_target` 0) is no limit; at least
/// one condition must be set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptDeStop {
    /// Generations of this call.
    pub generations: u64,
    /// Objective evaluations of this call.
    pub evaluations: u64,
    /// Nonzero: stop once the best value is at most `target`.
    pub has_target: u8,
    pub target: f64,
    /// Seconds of this call (0..=1e9; 0 = none). NaN, infinite, negative or larger values are
    /// `METAOPT_ERR_INVALID_ARGUMENT`.
    pub time_limit: f64,
    /// NULL, or a token of `metaopt_stop_token_create` (borrowed for the call): requesting it
    /// stops the call as `metaopt_interrupt` does.
    pub stop_token: *const MetaoptStopToken,
    /// NULL, or a file the run writes its whole state to (atomically) when it ends, whatever
    /// ended it, and every `checkpoint_every_s` seconds between generations;
    /// `metaopt_de_load_state` with its bytes continues the run.
    pub checkpoint_path: *const c_char,
    /// Seconds between two checkpoints; 0: only when the run ends.
    pub checkpoint_every_s: f64,
}

/// Why `metaopt_de_run` stopped (`MetaoptDeRunResult.stopped_by`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum MetaoptDeStopReason {
    /// `MetaoptDeStop.generations` generations ran.
    MetaoptDeStopGenerations = 1,
    /// `MetaoptDeStop.evaluations` evaluations were made.
    MetaoptDeStopEvaluations = 2,
    /// The best value reached `MetaoptDeStop.target`.
    MetaoptDeStopTarget = 3,
    /// `MetaoptDeStop.time_limit` seconds passed.
    MetaoptDeStopTimeLimit = 4,
    /// `metaopt_interrupt` or `MetaoptDeStop.stop_token` (the call returns
    /// `METAOPT_INTERRUPTED` with the best so far).
    MetaoptDeStopInterrupted = 5,
}

/// The result of `metaopt_de_run`. `x` is owned by the caller: free it with
/// `metaopt_de_free_run_result` (or `x` and `error_message` with `metaopt_pointer_free`). On error
/// `x` is NULL and the numbers 0.
#[repr(C)]
#[derive(Debug)]
pub struct MetaoptDeRunResult {
    /// The best value over all populations.
    pub value: f64,
    /// Its vector; `dims` entries.
    pub x: *mut f64,
    pub dims: u32,
    /// The population that holds it.
    pub island: u32,
    /// Generations and evaluations since `metaopt_de_init`.
    pub generations: u64,
    pub evaluations: u64,
    /// Wall time of the call in seconds.
    pub seconds: f64,
    /// A `MetaoptDeStopReason` (the older numbers, kept for one release; `stop_reason` has the
    /// numbers every other result uses).
    pub stopped_by: i32,
    /// `METAOPT_OK`, `METAOPT_INTERRUPTED` (the result holds the best so far) or another
    /// `MetaoptErrorCode` (an error: the result is empty).
    pub error_code: i32,
    /// NULL on success, else the message; the caller frees it with `metaopt_pointer_free`.
    pub error_message: *mut c_char,
    /// The `MetaoptPrecision` used: 1 single or 2 double.
    pub precision: i32,
    /// The `MetaoptPrecision` of the fitness values: 1 single or 2 double.
    pub fitness_precision: i32,
    /// A `MetaoptStopReason`: why the run stopped.
    pub stop_reason: i32,
    /// The best point's constraint violation (`metaopt_de_set_constraints`): 0 when it is
    /// feasible, and without constraints. With constraints `value` and `x` are the best point
    /// by Deb's rules: the best feasible one, else the least violation.
    pub violation: f64,
}

/// The constraints of an island DE instance (`metaopt_de_set_constraints`): inequalities
/// `g(x) <= 0` and equalities `|h(x)| <= eq_tol`. A point's violation is the sum of its
/// inequalities' positive values and of its equalities' absolute values beyond `eq_tol`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MetaoptConstraints {
    /// For an OpenCL source objective: the counts of the values its function
    /// `void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)`
    /// writes (the inequalities, then the equalities; at most 256 in all). Both 0 with a
    /// violation callback.
    pub inequalities: u32,
    pub equalities: u32,
    /// The equalities' tolerance (default 1e-4).
    pub eq_tol: f64,
    /// For a host callback objective: a function of the objective callback's signature that
    /// writes each point's violation (0 feasible, > 0 infeasible; NaN counts as infinite).
    /// NULL for a source objective.
    pub violation: MetaoptObjectiveCallback,
    /// Passed unchanged to every call of `violation`.
    pub user_data: *mut c_void,
    /// 0: Deb's feasibility rules (the default); 1: the epsilon level of epsilon-DE, starting at
    /// the violation of the initial population's member at quantile `epsilon_theta` and falling
    /// as `(1 - t / epsilon_tc)^epsilon_cp` to 0 at generation `epsilon_tc`.
    pub handling: i32,
    pub epsilon_theta: f64,
    pub epsilon_tc: u64,
    pub epsilon_cp: f64,
    /// The gradient-based repair of epsilon-DE (a source objective's constraints and the fixed
    /// DE only): each trial is picked with probability `repair_probability` (0: no repair; the
    /// published setting is 0.01) and, when infeasible, moved by at most `repair_rounds` Newton
    /// steps on its violated constraints before it is evaluated. A picked trial counts
    /// `1 + repair_rounds (continuous variables + 1)` evaluations.
    pub repair_probability: f64,
    pub repair_rounds: u32,
}

/// No constraint counts, tolerance 1e-4, Deb's rules, epsilon-DE's published settings
/// (theta 0.2, tc 1000, cp 5) for `handling` 1, and no repair (its rounds at the published 3).
#[no_mangle]
pub extern "C" fn metaopt_default_constraints() -> MetaoptConstraints {
    ffi_boundary!({
        let Handling::Epsilon { theta, tc, cp } = Handling::EPSILON_DEFAULT else {
            unreachable!("the default epsilon handling")
        };
        MetaoptConstraints {
            inequalities: 0,
            equalities: 0,
            eq_tol: 1e-4,
            violation: None,
            user_data: ptr::null_mut(),
            handling: 0,
            epsilon_theta: theta,
            epsilon_tc: tc,
            epsilon_cp: cp,
            repair_probability: 0.0,
            repair_rounds: Repair::EPSILON_DE.rounds,
        }
    })
}

/// The constraints a `MetaoptConstraints` describes (the epsilon settings checked later, with
/// the rest, by `Constraints::check`).
pub(crate) fn constraints_arg(c: &MetaoptConstraints) -> Result<Constraints> {
    let handling = match c.handling {
        0 => Handling::Deb,
        1 => Handling::Epsilon {
            theta: c.epsilon_theta,
            tc: c.epsilon_tc,
            cp: c.epsilon_cp,
        },
        k => {
            return Err(Error::arg(
                "constraints.handling",
                format!("{k}; expected 0 (Deb's rules) or 1 (epsilon level)"),
            ))
        }
    };
    Ok(Constraints {
        inequalities: c.inequalities,
        equalities: c.equalities,
        eq_tol: c.eq_tol,
        violation: c
            .violation
            .map(|f| super::hc12::host_callback(f, c.user_data)),
        handling,
        repair: match c.repair_probability {
            0.0 => None,
            p => Some(Repair {
                probability: p,
                rounds: c.repair_rounds,
            }),
        },
    })
}

/// Sets the constraints of the runs from the next `metaopt_de_init` on (NULL: none). They need
/// the fixed DE or JADE, SHADE, L-SHADE or jSO (not jDE100) on one device or the CPU backend; a source objective computes
/// them with its `constraints` function, a host callback objective takes `violation`.
/// `METAOPT_ERR_INVALID_ARGUMENT` names `constraints`, `eq_tol` or the epsilon settings; the
/// pairing with the objective is checked at init. The result is 0.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks; `c` NULL or valid, its
/// `violation` and `user_data` valid until the instance is freed or its constraints replaced.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_set_constraints(
    h: *mut MetaoptDeInstance,
    c: *const MetaoptConstraints,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let cons = match unsafe { c.as_ref() } {
            None => None,
            Some(c) => Some(constraints_arg(c)?),
        };
        h.solver.set_constraints(cons)?;
        MetaoptInt32Result::ok(0)
    })
}

owned_result!(MetaoptDeCreateResult);
owned_result!(MetaoptDeRunResult: frees x; zeroes dims);
plain_result!(MetaoptDeOptions, MetaoptDeStop, MetaoptConstraints);

pub(crate) struct Handle {
    solver: DeMultiPop,
    objective: Option<String>,
    /// `options.backend` of `metaopt_de_create`.
    backend: i32,
}

/// The thesis's defaults: F linspace 0.1..1.5, CR 0.5, seeds 123, 345, 457, 581, float, own
/// random numbers per population, the device backend.
#[no_mangle]
pub extern "C" fn metaopt_de_default_options() -> MetaoptDeOptions {
    ffi_boundary!({ default_options() })
}

fn default_options() -> MetaoptDeOptions {
    let d = DeOptions::default();
    MetaoptDeOptions {
        f_const: 0,
        f_min: d.f_min,
        f_max: d.f_max,
        cr: d.cr[0],
        cr_per_island: ptr::null(),
        init_seed: d.init_seed,
        mutation_seed: d.mutation_seed,
        crossover_seed: d.crossover_seed,
        migration_seed: d.migration_seed,
        double_precision: 0,
        shared_random: 0,
        backend: 0,
        precision: 0,
        fused: d.fused as u8,
        selection: MetaoptDeSelection::MetaoptDeSelectionTies as i32,
        fitness_precision: 0,
        algorithm: MetaoptDeAlgorithm::MetaoptDeAlgorithmDe as i32,
        lshade_budget: 0,
        device: -1,
        jde_small: d.jde_small,
        jde_eps: d.jde_eps,
        jde_age: d.jde_age,
        integrality: std::ptr::null(),
    }
}

/// No limits: set at least one field before `metaopt_de_run`.
#[no_mangle]
pub extern "C" fn metaopt_de_default_stop() -> MetaoptDeStop {
    ffi_boundary!({
        MetaoptDeStop {
            generations: 0,
            evaluations: 0,
            has_target: 0,
            target: 0.0,
            time_limit: 0.0,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        }
    })
}

/// Creates an island DE instance (the thesis's `DEMultiPop` constructor): `islands` populations
/// (at least 1) of `members` members (at least 3) in `dims` dimensions. `limits` holds the
/// interval [a, b] (finite, a < b) of each dimension as consecutive pairs a, b: one pair for all
/// (`limitsLength` 2) or one per dimension (2 * dims). `bounds` names the bound correction
/// (`sat`, `mir`, `tor`, `HVB`, `uni`, `COTN`): one name for all dimensions or a comma-separated
/// list of `dims` names. `options` may be NULL for `metaopt_de_default_options()`. Nothing runs
/// until `metaopt_de_init`.
///
/// On success `instance` is a new handle the caller releases with `metaopt_de_free`; on error
/// the message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `limits` must be NULL or hold `limitsLength` values; `bounds` NULL or NUL-terminated;
/// `options` NULL or valid, its `cr_per_island` NULL or holding `islands` values.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn metaopt_de_create(
    islands: u32,
    members: u32,
    dims: u32,
    limits: *const f64,
    limitsLength: u32,
    bounds: *const c_char,
    options: *const MetaoptDeOptions,
) -> MetaoptDeCreateResult {
    ffi_boundary!({
        if limits.is_null() {
            return Err(Error::NullPointer("limits"));
        }
        let pairs = u64::from(dims) * 2;
        if limitsLength != 2 && u64::from(limitsLength) != pairs {
            return Err(Error::arg(
                "limitsLength",
                format!("{limitsLength}; expected 2 or 2 * dims = {pairs}"),
            ));
        }
        // SAFETY: the caller's contract, for the length checked above.
        let lim = unsafe { copy_in::<f64>(limits.cast(), limitsLength as usize, "limits")? };
        // SAFETY: the caller's contract.
        let bounds = BoundsCorrection::parse_list(unsafe { str_arg(bounds, "bounds")? })?;
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { options.as_ref() }
            .copied()
            .unwrap_or_else(default_options);
        let backend =
            super::device::backend_on(o.backend, o.device, "options.backend", "options.device")?;
        let params = DeParams {
            islands,
            members,
            dims,
            limits: lim.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
            bounds,
            // SAFETY: the caller's contract for `cr_per_island`.
            options: DeOptions {
                // SAFETY: the caller's contract for `integrality`: NULL or `dims` flags.
                integrality: unsafe { integrality(&o, dims)? },
                // SAFETY: the caller's contract for `cr_per_island`.
                ..unsafe { de_options(&o, islands)? }
            },
        };
        let solver = DeMultiPop::new(&params, backend)?;
        let instance = handle::insert(Handle {
            solver,
            objective: None,
            backend: o.backend,
        });
        MetaoptDeCreateResult {
            error_code: 0,
            error_message: ptr::null_mut(),
            instance,
        }
    })
}

/// The integer dimensions of the C options: none for a NULL `integrality`.
///
/// # Safety
/// `o.integrality` must be NULL or hold `dims` values.
unsafe fn integrality(o: &MetaoptDeOptions, dims: u32) -> Result<Vec<bool>> {
    if o.integrality.is_null() {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's contract: `dims` values.
    let flags =
        unsafe { copy_in::<u8>(o.integrality.cast(), dims as usize, "options.integrality")? };
    Ok(flags.into_iter().map(|f| f != 0).collect())
}

/// `DeOptions` from the C options (the backend aside; `integrality` empty, see [`integrality`]).
///
/// # Safety
/// `o.cr_per_island` must be NULL or hold `islands` values.
unsafe fn de_options(o: &MetaoptDeOptions, islands: u32) -> Result<DeOptions> {
    let cr = if o.cr_per_island.is_null() {
        vec![o.cr]
    } else {
        // SAFETY: the caller's contract: `islands` values.
        unsafe {
            copy_in::<f64>(
                o.cr_per_island.cast(),
                islands as usize,
                "options.cr_per_island",
            )?
        }
    };
    Ok(DeOptions {
        integrality: Vec::new(),
        f_mode: match o.f_const {
            0 => FMode::Linspace,
            F_DITHER => FMode::Dither,
            _ => FMode::Const,
        },
        f_min: o.f_min,
        f_max: o.f_max,
        cr,
        init_seed: o.init_seed,
        mutation_seed: o.mutation_seed,
        crossover_seed: o.crossover_seed,
        migration_seed: o.migration_seed,
        double: o.double_precision != 0,
        precision: Precision::from_code(o.precision, "options.precision")?,
        fitness_precision: Precision::from_code(o.fitness_precision, "options.fitness_precision")?,
        shared_random: o.shared_random != 0,
        fused: o.fused != 0,
        // the wide generation is chosen automatically through the C ABI
        wide: None,
        selection: match o.selection {
            0 => Selection::Ties,
            1 => Selection::Strict,
            s => {
                return Err(Error::arg(
                    "options.selection",
                    format!("{s}; expected 0 (ties, <=) or 1 (strict, <)"),
                ))
            }
        },
        algorithm: crate::de::Algorithm::from_code(o.algorithm, "options.algorithm")?,
        lshade_budget: o.lshade_budget,
        jde_small: o.jde_small,
        jde_eps: o.jde_eps,
        jde_age: o.jde_age,
    })
}

/// Sets the objective (a `MetaoptObjective`: catalogue function, OpenCL source, or a host
/// callback that receives all trials of a generation, row `p * members + m`, in one call; under a
/// time limit that a generation could overrun, in calls over consecutive leading ranges), the mutation
/// strategy by name (`DE/rand/1`, `DE/rand/2`, `DE/best/1`, `DE/best/2`, `DE/current-to-rand/1`,
/// `DE/current-to-best/1`) and the migration strategy by name (`None`, `One2One`, `One2N`,
/// `N2One`, `N2N`, `PermuteN`, `RandTarget`; NULL is `None`) with its period in generations, and
/// makes and evaluates a new initial population (the thesis's `init`). `options` (the thesis's
/// `optionsUpdate`) replaces F, CR, the seeds, `shared_random` and `selection` from now on; NULL keeps the
/// current ones; its `double_precision` and `backend` must stay those of `metaopt_de_create`
/// (`METAOPT_ERR_INVALID_ARGUMENT` naming `double` or `options.backend` otherwise), and an
/// invalid update changes nothing. A source is compiled now
/// (`METAOPT_ERR_KERNEL_BUILD` with the log). A callback and its `user_data` are kept until
/// `metaopt_de_free` or the next init, and called only from the thread running the instance.
/// The result is 0; an error message is the caller's to free with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `objective` NULL or valid (its callback valid until the instance is freed);
/// the strings NULL or NUL-terminated; `options` NULL or valid, its `cr_per_island` NULL or holding
/// `islands` values.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_init(
    h: *mut MetaoptDeInstance,
    objective: *const MetaoptObjective,
    mutation: *const c_char,
    migration: *const c_char,
    period: u32,
    options: *const MetaoptDeOptions,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { objective.as_ref() }.ok_or(Error::NullPointer("objective"))?;
        // SAFETY: the caller's contract for the strings.
        let (obj, what) = unsafe { objective_arg(o)? };
        // SAFETY: as above.
        let mutation = unsafe { str_arg(mutation, "mutation")? }.parse()?;
        let kind = if migration.is_null() {
            MigrationKind::None
        } else {
            // SAFETY: as above.
            unsafe { str_arg(migration, "migration")? }.parse()?
        };
        // SAFETY: NULL or valid by the caller's contract.
        let update = match unsafe { options.as_ref() } {
            None => None,
            Some(o) if o.backend != h.backend => {
                return Err(Error::arg(
                    "options.backend",
                    format!(
                        "{}; the backend is fixed when the instance is created ({})",
                        o.backend, h.backend
                    ),
                ))
            }
            // SAFETY: the caller's contract for `cr_per_island`.
            Some(o) => Some(unsafe { de_options(o, h.solver.config().np)? }),
        };
        h.solver.init_with(
            &obj,
            mutation,
            Migration::new(kind, period),
            update.as_ref(),
        )?;
        h.objective = Some(what);
        MetaoptInt32Result::ok(0)
    })
}

/// One generation (the thesis's `iteration`): trials, evaluation, selection, and migration when
/// its period comes. The result is the generation number since init (saturating at 2^31 - 1).
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_iteration(h: *mut MetaoptDeInstance) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        h.solver.iteration()?;
        MetaoptInt32Result::ok(i32::try_from(h.solver.generation()).unwrap_or(i32::MAX))
    })
}

/// Runs generations until a condition of `stop` holds (borrowed for the call). Free the result
/// with `metaopt_de_free_run_result`. A failing host callback ends the call with
/// `METAOPT_ERR_CALLBACK`. After `metaopt_de_load_state` the call continues the saved run: its
/// generations, evaluations and time limit count from that run's start.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors); `stop` NULL or valid, its `checkpoint_path` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_run(
    h: *mut MetaoptDeInstance,
    stop: *const MetaoptDeStop,
) -> MetaoptDeRunResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: NULL or valid by the caller's contract.
        let s = unsafe { stop.as_ref() }.ok_or(Error::NullPointer("stop"))?;
        let stop = c_stop!(s, generations);
        let r = h.solver.run(&stop)?;
        let x = CArray::from_slice(&r.x)?;
        let (error_code, error_message) =
            stop_status(r.stopped_by == StopReason::Interrupted, "metaopt_de_run");
        MetaoptDeRunResult {
            value: r.value,
            dims: r.x.len() as u32,
            x: x.into_raw(),
            island: r.island,
            generations: r.generations,
            evaluations: r.evaluations,
            seconds: r.seconds,
            stopped_by: r.stopped_by.de_code(),
            stop_reason: r.stopped_by.code(),
            error_code,
            error_message,
            precision: r.precision.code(),
            fitness_precision: r.fitness_precision.code(),
            violation: r.violation,
        }
    })
}

/// Frees the vector and the message of a `MetaoptDeRunResult` and sets them to NULL (a second call
/// is harmless). NULL is a no-op.
///
/// # Safety
/// `r` must be NULL or point to a result of `metaopt_de_run` (or one already freed here).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_free_run_result(r: *mut MetaoptDeRunResult) {
    // SAFETY: the caller's contract.
    ffi_boundary!({ unsafe { free_result(r) } })
}

/// The best value of every population, `islands` entries (the thesis's `getBestsFitness`).
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_bests_fitness(
    h: *mut MetaoptDeInstance,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        MetaoptDoubleArrayResult::ok(&h.solver.bests_fitness()?)?
    })
}

/// The best point, 4 entries `[island, member, value, violation]` (`member` = `members`: the
/// island's best copy, `metaopt_de_best`; else `metaopt_de_x`). Without constraints the best
/// island's best (violation 0); with them the best member by Deb's rules over every island.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_best_point(
    h: *mut MetaoptDeInstance,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let (p, m, f, v) = h.solver.best_point()?;
        MetaoptDoubleArrayResult::ok(&[p as f64, m as f64, f, v])?
    })
}

/// The mean and the standard deviation (over N, as numpy's `std`) of every member's value, 2
/// entries `[mean, std]`: scipy's convergence test is `std <= atol + tol * |mean|`. On a device
/// each population's moments are computed there and only they are read. Non-finite when a
/// value is.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_spread(h: *mut MetaoptDeInstance) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let s = h.solver.spread()?;
        MetaoptDoubleArrayResult::ok(&[s.mean, s.std])?
    })
}

/// The best member of population `island`, `dims` entries (the thesis's `getBest`).
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_best(
    h: *mut MetaoptDeInstance,
    island: u32,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        MetaoptDoubleArrayResult::ok(&h.solver.best(island)?)?
    })
}

/// Member `member` of population `island`, `dims` entries (the thesis's `getX`).
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_x(
    h: *mut MetaoptDeInstance,
    island: u32,
    member: u32,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        MetaoptDoubleArrayResult::ok(&h.solver.x(island, member)?)?
    })
}

/// Replaces the data buffer of a user OpenCL source objective (the `data` argument of its
/// `objective`; the thesis's `func-data`): `bytes` bytes copied (0 empties it). The whole
/// population is evaluated again at once with the new data (islands x members evaluations; the
/// members and the generation count stay), so every fitness held is of the new data. Refused
/// for other objectives. The result is 0.
///
/// # Safety
/// `h` must be NULL or a handle of this library; `data` valid for `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_func_data(
    h: *mut MetaoptDeInstance,
    data: *const c_void,
    bytes: u64,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        // SAFETY: the caller's contract.
        let buffer = unsafe { func_data_arg(data, bytes)? };
        h.solver.set_func_data(&buffer)?;
        MetaoptInt32Result::ok(0)
    })
}

/// A description of the instance: sizes, F, CR, bounds, objective, strategies, device,
/// generations. Free the text with `metaopt_pointer_free`.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_info(h: *const MetaoptDeInstance) -> MetaoptStringResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let h = unsafe { handle::get(h, "h")? };
        let mut s = h.solver.info();
        if let Some(o) = &h.objective {
            s += &format!("objective detail: {o}\n");
        }
        MetaoptStringResult::ok(&s)?
    })
}

/// Releases an instance and its device buffers; NULL and already freed handles are ignored.
///
/// # Safety
/// `h` must be NULL or a handle pointer, which the library checks (freed, forged and wrong-kind
/// handles are errors).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_free(h: *mut MetaoptDeInstance) {
    // SAFETY: the caller's contract; unregistered pointers are ignored.
    ffi_boundary!({ unsafe { handle::free(h) } })
}

/// The whole state of the instance (every population and its values, the adaptive variants'
/// memories, archives, per-member F and CR and counters, the generation and evaluation counts,
/// the last run's progress and time) as checkpoint bytes, the caller's to free with
/// `metaopt_bytes_free_result`. Needs `metaopt_de_init`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_save_state(h: *mut MetaoptDeInstance) -> MetaoptBytesResult {
    // SAFETY: the caller's contract.
    unsafe { save_state_call(h, "h", |h| h.solver.save_state()) }
}

/// Continues from the state `data` holds (`length` bytes of `metaopt_de_save_state` or of a
/// checkpoint file): on an instance created with the saved one's settings (sizes, options,
/// backend) and initialised with its objective, mutation and migration, the populations,
/// values, adaptive state and counters become the saved ones, and the next `metaopt_de_run`
/// continues the saved run as if it had never stopped. Refused (naming `state`, saying what
/// differs): another library version, objective, setting or device count, a corrupt or
/// truncated state. A state that fails to load after its checks leaves the instance needing
/// `metaopt_de_init`. `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `data` NULL or `length` bytes.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_load_state(
    h: *mut MetaoptDeInstance,
    data: *const u8,
    length: usize,
) -> MetaoptInt32Result {
    // SAFETY: the caller's contract.
    unsafe { load_state_call(h, "h", data, length, |h, bytes| h.solver.load_state(&bytes)) }
}

/// Every member of every population, `islands * members * dims` values, row
/// `p * members + m` of `dims` values. Needs `metaopt_de_init`.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked).
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_population(
    h: *mut MetaoptDeInstance,
) -> MetaoptDoubleArrayResult {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        MetaoptDoubleArrayResult::ok(&h.solver.population()?)?
    })
}

/// A warm start after `metaopt_de_init`: `rows` points of `dims` values each (`x`, row by row)
/// replace the first members of population `island` (at most `members` rows), or with `island`
/// -1 the first members in the order `p * members + m` (at most `islands * members` rows: one
/// row is scipy's `x0`, member 0 of population 0); then every member is evaluated afresh
/// (`islands * members` evaluations counted). Points outside the limits are clipped to them when
/// `clip` is nonzero, else refused; every value must be finite. Errors name `x`, `dims` or
/// `island`. `result` is 0 on success.
///
/// # Safety
/// `h` must be NULL or a handle pointer (checked); `x` NULL or `rows * dims` values.
#[no_mangle]
pub unsafe extern "C" fn metaopt_de_set_population(
    h: *mut MetaoptDeInstance,
    island: i64,
    x: *const f64,
    rows: u64,
    dims: u32,
    clip: u8,
) -> MetaoptInt32Result {
    ffi_boundary!({
        // SAFETY: the caller's contract; checked.
        let mut h = unsafe { handle::get(h, "h")? };
        let nn = h.solver.config().nn;
        if dims != nn {
            return Err(Error::arg(
                "dims",
                format!("{dims}; the instance has {nn} dimensions"),
            ));
        }
        let island = match island {
            -1 => None,
            p if (0..u32::MAX as i64).contains(&p) => Some(p as u32),
            p => {
                return Err(Error::arg(
                    "island",
                    format!("{p}; expected a population or -1 for all"),
                ))
            }
        };
        if x.is_null() {
            return Err(Error::NullPointer("x"));
        }
        let len = rows
            .checked_mul(u64::from(dims))
            .filter(|&l| l <= (1 << 31))
            .ok_or_else(|| Error::arg("rows", format!("{rows} rows of {dims}: too many")))?;
        // SAFETY: the caller's contract: `rows * dims` values.
        let values = unsafe { copy_in::<f64>(x.cast(), len as usize, "x")? };
        h.solver
            .set_population(island, &values, clip != 0)
            .map_err(|e| match e {
                Error::InvalidArgument {
                    arg: "population",
                    msg,
                } => Error::arg("x", msg),
                e => e,
            })?;
        MetaoptInt32Result::ok(0)
    })
}
