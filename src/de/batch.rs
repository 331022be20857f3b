//! Batched differential evolution (paper 002, Farkov & Legalov 2014): many independent
//! problems at once, each with its own catalogue objective, dimensions, bounds, members, F, CR,
//! mutation, bound correction, seed, generation budget and target.
//!
//! On a device one fused kernel (`deb_run` of `cl/de_batch.cl`, whose body the island DE's fused
//! path shares) runs K generations per launch, one work-group per problem and one work-item per
//! member (looping when the members exceed the group), the population in local memory when it
//! fits, else in global memory. The CPU backend runs the same algorithm with rayon over problems.
//!
//! Random numbers: those of the island DE with one population (`super::ops`), keyed by three
//! seeds derived from the problem's own seed ([`BatchProblem::seeds`]) and counters made of the
//! generation, member and dimension only, so a problem's result does not depend on its position
//! in the batch, and both backends draw the same numbers (in double they agree to rounding of the
//! objective).

use super::ade;
use super::config::{integer_limits, rounded, Algorithm, BoundsCorrection, Mutation, Selection};
use super::constraints::{self as cons, Handling, MAX_CONSTRAINTS};
use super::jde::{self, JdeState};
use super::ops;
use crate::device::{
    bytes, check_fits, covering_group, Backend, DeviceBuffer, DeviceContext, Footprint,
    ProgramSpec, Queue,
};
use crate::error::{Error, Result};
use crate::interrupt::check_time_limit;
use crate::objective::{check_intervals, fp_bytes, fp_values, Objective};
use crate::precision::Precision;
use crate::problem::functions::{self, FunctionInfo};
use crate::run::cancel::Cut;
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::{Progress, Stop, StopReason, STEP_SECONDS};
use opencl3::kernel::{ExecuteKernel, Kernel};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The objective of a batched problem: a catalogue function (by name or by its number in
/// [`functions::catalogue`]) or a user's OpenCL source with its own data.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BatchFunction {
    /// A catalogue name (`F1`, `CEC04t`, ...; case-insensitive).
    Name(String),
    /// A catalogue number (`FunctionInfo::id`).
    Id(u32),
    /// OpenCL C defining `objective` as for the island DE
    /// (`FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)`;
    /// FP is defined before it) and the bytes of this problem's data: its own slice of the
    /// batch's data buffer, which `data` points to. Problems with the same code share one
    /// compiled function. On the CPU backend the source is evaluated through an OpenCL device
    /// (as the island DE's CPU backend does), a generation's trials in one launch.
    Source { code: String, data: Vec<u8> },
}

impl BatchFunction {
    /// A user source objective with its data.
    pub fn source(code: impl Into<String>, data: Vec<u8>) -> Self {
        BatchFunction::Source {
            code: code.into(),
            data,
        }
    }
}

impl From<&str> for BatchFunction {
    fn from(s: &str) -> Self {
        BatchFunction::Name(s.to_string())
    }
}

impl From<String> for BatchFunction {
    fn from(s: String) -> Self {
        BatchFunction::Name(s)
    }
}

impl From<u32> for BatchFunction {
    fn from(id: u32) -> Self {
        BatchFunction::Id(id)
    }
}

impl BatchFunction {
    /// The catalogue entry, or `None` for a user source.
    fn info(&self) -> Result<Option<&'static FunctionInfo>> {
        match self {
            BatchFunction::Name(n) => functions::lookup(n).map(Some),
            BatchFunction::Id(id) => functions::catalogue()
                .get(*id as usize)
                .map(Some)
                .ok_or_else(|| {
                    Error::arg(
                        "function",
                        format!(
                            "unknown catalogue number {id}; expected 0..{}",
                            functions::catalogue().len() - 1
                        ),
                    )
                }),
            BatchFunction::Source { code, .. } => {
                if code.trim().is_empty() {
                    return Err(Error::arg(
                        "function",
                        "an empty OpenCL source; expected code defining `objective`",
                    ));
                }
                Ok(None)
            }
        }
    }
}

/// One problem of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchProblem {
    pub function: BatchFunction,
    pub dims: u32,
    /// Lower bounds: one for every dimension, or one per dimension.
    pub lower: Vec<f64>,
    /// Upper bounds, alike.
    pub upper: Vec<f64>,
    /// Population size NP (at least 4, and at least what the mutation draws plus one).
    pub members: u32,
    pub f: f64,
    pub cr: f64,
    pub mutation: Mutation,
    pub bounds: BoundsCorrection,
    pub seed: u64,
    /// Generations after the initial population (0: the initial population only).
    pub max_generations: u64,
    /// Stop when the best value is at most this.
    pub target: Option<f64>,
    /// `De` (the default: F, CR and the mutation above); `Jade`, `Shade`, `LShade` or `Jso`
    /// (docs/specs/DE.md "Adaptive DE, on the device": F, CR and the mutation not used, each
    /// variant's own); or `Jde100` (docs/specs/DE.md "jDE100": `members` = big + `jde_small`, F,
    /// CR and the mutation not used, a "generation" is a cycle, the result the best ever).
    pub algorithm: Algorithm,
    /// jDE100's small population (default 25).
    pub jde_small: u32,
    /// L-SHADE's and jSO's evaluation budget MAX_NFE (the initial population's included): their
    /// population shrinks linearly to 4 over it, and the problem stops (`Budget`) when it is
    /// spent. 0 (the default): `members` x (`max_generations` + 1).
    pub lshade_budget: u64,
    /// Integer variables (scipy's `integrality`): empty (none) or one flag per dimension. An
    /// integer dimension's limits are rounded inward as the island DE's
    /// ([`super::config::integer_limits`]), and every component made in it is rounded, so the
    /// points evaluated and returned are integral there.
    pub integrality: Vec<bool>,
    /// Constraints computed by the source's OpenCL `constraints` (docs/specs/DE.md,
    /// Constraints), compared by Deb's feasibility rules; the fixed DE only. None: unconstrained.
    pub constraints: Option<BatchConstraints>,
}

/// A batched problem's constraints: its OpenCL source defines beside `objective`
/// `void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)`
/// writing `inequalities` values `g` (satisfied when `g <= 0`), then `equalities` values `h`
/// (satisfied when `|h| <= eq_tol`); at most [`MAX_CONSTRAINTS`] in all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchConstraints {
    pub inequalities: u32,
    pub equalities: u32,
    /// The equality tolerance (the CEC 2006 report's 1e-4 by default).
    pub eq_tol: f64,
    /// Deb's feasibility rules (level 0), the only handling a batch takes: the epsilon level
    /// of [`Handling::Epsilon`] is refused (its level is the initial population's quantile,
    /// made on the host by the island DE between generations, which a fused launch has not).
    pub handling: Handling,
}

impl BatchConstraints {
    /// `inequalities` and `equalities` with the tolerance 1e-4 and Deb's rules.
    pub fn new(inequalities: u32, equalities: u32) -> Self {
        BatchConstraints {
            inequalities,
            equalities,
            eq_tol: 1e-4,
            handling: Handling::Deb,
        }
    }
}

impl BatchProblem {
    /// `function` in `dims` dimensions on `[lower, upper]^dims` with the defaults: 50 members,
    /// F 0.5, CR 0.9, `DE/rand/1`, saturation, seed 1, 1000 generations, no target.
    pub fn new(function: impl Into<BatchFunction>, dims: u32, lower: f64, upper: f64) -> Self {
        BatchProblem {
            function: function.into(),
            dims,
            lower: vec![lower],
            upper: vec![upper],
            members: 50,
            f: 0.5,
            cr: 0.9,
            mutation: Mutation::Rand1,
            bounds: BoundsCorrection::Saturation,
            seed: 1,
            max_generations: 1000,
            target: None,
            algorithm: Algorithm::De,
            jde_small: 25,
            lshade_budget: 0,
            integrality: Vec::new(),
            constraints: None,
        }
    }

    /// CEC 2006 problem `problem` (`"G06"`, or `"6"`: [`crate::problem::cec2006`]) with the
    /// defaults of [`BatchProblem::new`]: its objective and constraints (`cl/cec2006.cl` built
    /// for it, an OpenCL source), its box and the report's equality tolerance.
    pub fn cec2006(problem: &str) -> Result<Self> {
        let (objective, bounds, c) = cons::cec2006(problem)?;
        let Objective::Source { code, data } = objective else {
            unreachable!("a CEC 2006 problem is an OpenCL source")
        };
        let mut p = BatchProblem::new(
            BatchFunction::source(code, data),
            bounds.len() as u32,
            0.0,
            1.0,
        );
        p.lower = bounds.iter().map(|b| b.0).collect();
        p.upper = bounds.iter().map(|b| b.1).collect();
        p.constraints = Some(BatchConstraints {
            inequalities: c.inequalities,
            equalities: c.equalities,
            eq_tol: c.eq_tol,
            handling: Handling::Deb,
        });
        Ok(p)
    }

    /// The seeds of the initial population, mutation and crossover (`super::ops`) drawn from
    /// `seed`: an island DE with one population and these seeds in its options draws the same
    /// random numbers.
    pub fn seeds(&self) -> [u64; 3] {
        [
            splitmix(self.seed, 1),
            splitmix(self.seed, 2),
            splitmix(self.seed, 3),
        ]
    }
}

fn splitmix(seed: u64, k: u64) -> u64 {
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where the device keeps the populations during a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Local memory when the largest population fits, else global.
    #[default]
    Auto,
    Local,
    Global,
}

/// Options of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchOptions {
    /// `Auto`: double on the CPU backend and on a device with `cl_khr_fp64`.
    pub precision: Precision,
    /// Generations per kernel launch at most (default 1000); launches are sized from the time a
    /// generation takes to last about 0.1 s (a tenth of the time left under a time limit), so
    /// the stop token and the clock are asked that often.
    pub generations_per_launch: u32,
    pub placement: Placement,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            precision: Precision::Auto,
            generations_per_launch: 1000,
            placement: Placement::Auto,
        }
    }
}

/// What a checkpoint of a batch holds: every problem's state as its backend keeps it (the CPU
/// engine's vectors, or the device's buffers in their layout and precision), the reasons of the
/// problems cut short, and the seconds the run had taken.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
enum BatchState {
    Cpu(Vec<CpuState>),
    /// X, Fx, the statuses, the generations, jDE100's F, CR and counters, the adaptive
    /// variants' memories, archives and ranks, the best-ever rows and values.
    Device(Vec<Vec<u8>>),
    Split(Vec<BatchState>),
}

#[derive(Clone, Debug, Serialize, serde::Deserialize)]
struct BatchSaved {
    state: BatchState,
    cut: Vec<Option<StopReason>>,
    elapsed: f64,
}

/// The memory of a batch (docs/specs/DE.md "Batched DE: memory"): `problems` gives each
/// problem with how many times it repeats (sizes alike), `double` the precision on a device
/// (the CPU backend computes in f64), `device` whether the batch runs on a device. Host: each
/// problem's bounds, function data and result, and on the CPU backend its population, values,
/// jDE100's F and CR, archive and best row, with a working copy of the largest population per
/// rayon thread; on a device the uploads' host copies. Device: two copies of every population
/// (X and the trials Y), six values per member (Fx, Fy, jDE100's F, CR and trials'), the
/// archives, the ranks, the best rows, the bounds and the data. Sizes saturate at `u64::MAX`.
pub fn batch_footprint<'a>(
    problems: impl IntoIterator<Item = (&'a BatchProblem, u64)>,
    double: bool,
    device: bool,
) -> Footprint {
    let fpd: u64 = if double { 8 } else { 4 };
    let mut f = Footprint::default();
    // the device buffers that hold every problem: X (and Y), the data, the archives, F and CR
    let (mut xs, mut data, mut arcs, mut jfs) = (0u64, 0u64, 0u64, 0u64);
    let mut largest_x = 0u64;
    for (p, k) in problems {
        let (np, nn) = (u64::from(p.members), u64::from(p.dims));
        let x = bytes(&[np, nn]);
        largest_x = largest_x.max(x);
        let d = match &p.function {
            BatchFunction::Source { data, .. } => data.len() as u64,
            other => match other.info() {
                Ok(Some(info)) if info.is_transformed() => {
                    bytes(&[nn, nn, 8]).saturating_add(8 * nn)
                }
                _ => 0,
            },
        };
        let (h, acap) = match p.algorithm {
            Algorithm::De | Algorithm::Jde100 => (0, 0),
            a => {
                let par = super::adapt::Params::of(a, p.members);
                (par.h as u64, par.archive_size(p.members) as u64)
            }
        };
        // the data as the device holds it: at an offset aligned to 16 bytes
        let d16 = d.saturating_add(15) / 16 * 16;
        let jde = matches!(p.algorithm, Algorithm::Jde100) as u64;
        // a constrained problem's violations beside its values and its trials' values
        let cons = p.constraints.is_some() as u64;
        // bounds (given and expanded), function data (the problem's and the batch's copy), the
        // result's best row, the structs of the problem, its state and its results
        // a sum of terms, saturating: sizes near the limits multiply past 64 bits
        let sum = |terms: &[u64]| terms.iter().fold(0u64, |a, &t| a.saturating_add(t));
        let arc = bytes(&[acap, nn]);
        f.host(&[k, sum(&[40 * nn, d, d, 1024])]);
        if device {
            f.host(&[k, sum(&[3 * nn * fpd, nn, d])]);
            f.device(&[k, 2, x, fpd])
                .device(&[k, sum(&[(6 + 2 * cons) * np * fpd, 8 * np])])
                .device(&[
                    k,
                    sum(&[bytes(&[sum(&[arc, 3 * nn, 2 * h, 64]), fpd]), nn, d16, 256]),
                ]);
            xs = xs.saturating_add(bytes(&[k, x, fpd]));
            data = data.saturating_add(bytes(&[k, d16]));
            arcs = arcs.saturating_add(bytes(&[k, arc, fpd]));
            jfs = jfs.saturating_add(bytes(&[k, 4, np, fpd]));
        } else {
            f.host(&[
                k,
                sum(&[
                    bytes(&[sum(&[x, (1 + cons) * np, 2 * jde * np, arc, nn, 2 * h]), 8]),
                    512,
                ]),
            ]);
        }
    }
    if device {
        f.largest_buffer = xs.max(data).max(arcs).max(jfs);
    } else {
        // each rayon thread's trials of the problem it advances
        f.host(&[rayon::current_num_threads() as u64, largest_x, 16]);
    }
    f
}

/// A batch's figures between two launches, as [`BatchDe::run_observed`] reports them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchProgress {
    /// Seconds since the run started (the longest of the devices' with several).
    pub elapsed: f64,
    /// Generations run after the initial populations, summed over the problems.
    pub generations: u64,
    /// Problems that reached their target or ran their generations.
    pub finished: usize,
    /// Problems of the batch.
    pub problems: usize,
    /// The least best value of any problem so far (`f64::INFINITY` before the first launch).
    pub best: f64,
}

/// The progress callback of a batch run.
/// Refuses what the batch cannot take of a [`Stop`]: its budgets and targets are per problem.
fn check_stop(stop: &Stop) -> Result<()> {
    let per_problem = |field: &'static str, what: &str| {
        Err(Error::arg(
            field,
            format!(
                "{what}: a batch's budgets and targets are per problem (BatchProblem's generations and target); give only a time limit, a stop token or a checkpoint plan"
            ),
        ))
    };
    if let Some(b) = stop.budget {
        return per_problem("budget", &format!("{b} generations"));
    }
    if let Some(e) = stop.evaluations {
        return per_problem("evaluations", &format!("{e}"));
    }
    if let Some(t) = stop.target {
        return per_problem("target", &format!("{t}"));
    }
    if stop.record_every > 0 {
        return per_problem(
            "record_every",
            &format!("{} (a batch keeps no history)", stop.record_every),
        );
    }
    check_time_limit(stop.time_limit, "time_limit")?;
    if let Some(c) = &stop.checkpoint {
        c.check("checkpoint")?;
    }
    Ok(())
}

type ProgressFn<'a> = &'a mut (dyn FnMut(&BatchProgress) -> bool + Send);

/// A problem's result: its best value and point, +inf and NaN where the stop came before its
/// initial population was evaluated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BatchResult {
    pub best_value: f64,
    pub best: Vec<f64>,
    /// Generations run after the initial population.
    pub generations: u64,
    /// Why the problem stopped; `None` while it runs.
    #[serde(rename = "stopped_by")]
    pub stop: Option<StopReason>,
    /// The best point's violation (the sum of its violated constraints' amounts): 0 when it is
    /// feasible and for an unconstrained problem; +inf before a constrained problem's initial
    /// population was evaluated.
    pub violation: f64,
}

/// A problem's objective, validated.
#[derive(Clone, Debug)]
enum Obj {
    /// A catalogue function and its data (shift, rotation, ...) for the problem's dims.
    Catalogue(&'static FunctionInfo, Vec<f64>),
    /// A user's source (index `k` among the batch's distinct sources) and its data.
    Source {
        k: usize,
        code: std::sync::Arc<str>,
        data: Vec<u8>,
    },
}

/// The kinds byte's flag of an integer dimension.
use crate::objective::INTEGRAL_KIND as INTEGRAL;

/// Function numbers of user sources in the dispatcher: this plus the source's index.
const USER_ID: u32 = 0x8000_0000;

/// A validated problem.
#[derive(Clone, Debug)]
struct Prob {
    obj: Obj,
    nn: usize,
    np: usize,
    lo: Vec<f64>,
    hi: Vec<f64>,
    f: f64,
    crt: u64,
    mutation: Mutation,
    kind: BoundsCorrection,
    seeds: [u64; 3],
    max_gen: u64,
    target: Option<f64>,
    /// jDE100's small population, or None for the fixed DE.
    jde: Option<u32>,
    /// JADE, SHADE, L-SHADE or jSO: the variant (keyed as island 0 of 1 with the seeds).
    ade: Option<ade::Shape>,
    /// The integer dimensions (empty: none).
    integral: Vec<bool>,
    /// The constraints (the fixed DE only) and their set's number among the batch's distinct
    /// (source, counts, tolerance), from 1 (`deb_violation`'s `cset`; 0: unconstrained).
    cons: Option<(cons::Constraints, u32)>,
}

fn named(i: usize, e: Error) -> Error {
    match e {
        Error::InvalidArgument { arg, msg } => Error::arg(arg, format!("problem {i}: {msg}")),
        e => e,
    }
}

/// A constraint set of the batch program: the source's index, the inequalities, all the
/// values, the tolerance's bits.
type ConsSet = (usize, u32, u32, u64);

/// Validates a problem; `sources` collects the distinct user sources of the batch, `csets`
/// its distinct constraint sets.
fn validate(
    p: &BatchProblem,
    double: bool,
    sources: &mut Vec<std::sync::Arc<str>>,
    csets: &mut Vec<ConsSet>,
) -> Result<Prob> {
    let info = p.function.info()?;
    match info {
        Some(info) => info.check_dims(p.dims as usize)?,
        None if p.dims == 0 => return Err(Error::arg("dims", "0; expected at least 1")),
        None => {}
    }
    let min = p.mutation.min_members().max(4);
    if p.members < min {
        return Err(Error::arg(
            "members",
            format!("{}; {} needs at least {min} members", p.members, p.mutation),
        ));
    }
    let nn = p.dims as usize;
    if (p.members as u64) * (p.dims as u64) > 1 << 31 {
        return Err(Error::arg(
            "members",
            format!(
                "{} x {} values; at most 2^31 per problem",
                p.members, p.dims
            ),
        ));
    }
    let expand = |v: &[f64], arg: &'static str| -> Result<Vec<f64>> {
        match v.len() {
            1 => Ok(vec![v[0]; nn]),
            l if l == nn => Ok(v.to_vec()),
            l => Err(Error::arg(
                arg,
                format!("{l} values; expected 1 or one per dimension ({nn})"),
            )),
        }
    };
    let lo = expand(&p.lower, "lower")?;
    let hi = expand(&p.upper, "upper")?;
    let iv: Vec<(f64, f64)> = lo.iter().copied().zip(hi.iter().copied()).collect();
    check_intervals("bounds", &iv, double)?;
    let integral = match p.integrality.len() {
        0 => Vec::new(),
        l if l == nn => p.integrality.clone(),
        l => {
            return Err(Error::arg(
                "integrality",
                format!("{l} flags; expected none or one per dimension ({nn})"),
            ))
        }
    };
    // an integer dimension's limits rounded inward, as the island DE's
    let (lo, hi): (Vec<f64>, Vec<f64>) = if integral.iter().any(|&i| i) {
        integer_limits(&iv, &integral)?.into_iter().unzip()
    } else {
        (lo, hi)
    };
    if !p.f.is_finite() || p.f < 0.0 {
        return Err(Error::arg(
            "f",
            format!("{}; expected a finite F >= 0", p.f),
        ));
    }
    if !(0.0..=1.0).contains(&p.cr) {
        return Err(Error::arg("cr", format!("{}; expected CR in [0, 1]", p.cr)));
    }
    if p.target.is_some_and(f64::is_nan) {
        return Err(Error::arg("target", "NaN; expected a number or none"));
    }
    let jde = match p.algorithm {
        Algorithm::De => None,
        Algorithm::Jde100 => {
            if p.jde_small < 4 || p.members.saturating_sub(p.jde_small) < 4 {
                return Err(Error::arg(
                    "jde_small",
                    format!("{} of {} members; jde100 needs a small population of at least 4 and a big one of at least 4", p.jde_small, p.members),
                ));
            }
            Some(p.jde_small)
        }
        _ => None,
    };
    let ade = match p.algorithm {
        Algorithm::De | Algorithm::Jde100 => None,
        a => {
            let seeds = p.seeds();
            let budget = if p.lshade_budget > 0 {
                p.lshade_budget
            } else {
                (p.members as u64).saturating_mul(p.max_generations.saturating_add(1))
            };
            Some(ade::Shape::new(
                a,
                p.members,
                p.dims,
                1,
                seeds[1],
                seeds[2],
                budget,
                Selection::Ties,
            ))
        }
    };
    let obj = match (&p.function, info) {
        (_, Some(info)) => Obj::Catalogue(info, info.data(nn)?),
        (BatchFunction::Source { code, data }, None) => {
            let k = match sources.iter().position(|c| **c == **code) {
                Some(k) => k,
                None => {
                    sources.push(code.as_str().into());
                    sources.len() - 1
                }
            };
            Obj::Source {
                k,
                code: sources[k].clone(),
                data: data.clone(),
            }
        }
        (_, None) => unreachable!("only a source has no catalogue entry"),
    };
    let cons = match (&p.constraints, &obj) {
        (None, _) => None,
        (Some(_), Obj::Catalogue(info, _)) => {
            return Err(Error::arg(
                "constraints",
                format!("the catalogue function {} has no constraints; give an OpenCL source defining `objective` and `constraints` (or a CEC 2006 problem)", info.name),
            ));
        }
        (Some(c), Obj::Source { k, .. }) => {
            if p.algorithm != Algorithm::De {
                return Err(Error::arg(
                    "constraints",
                    format!("the {} algorithm does not take constraints in a batch; use the fixed DE (de)", p.algorithm),
                ));
            }
            if c.handling != Handling::Deb {
                return Err(Error::arg(
                    "constraints",
                    "the epsilon level is not taken by a batch (a fused launch has no host step to lower it); use Deb's rules",
                ));
            }
            let nc = c.inequalities as u64 + c.equalities as u64;
            if nc == 0 || nc > MAX_CONSTRAINTS as u64 {
                return Err(Error::arg(
                    "constraints",
                    format!(
                        "{} inequalities and {} equalities; expected 1 to {MAX_CONSTRAINTS} in all",
                        c.inequalities, c.equalities
                    ),
                ));
            }
            let mut full = cons::Constraints::compiled(c.inequalities, c.equalities);
            full.eq_tol = c.eq_tol;
            full.check()?;
            let key = (*k, c.inequalities, nc as u32, c.eq_tol.to_bits());
            let j = match csets.iter().position(|s| *s == key) {
                Some(j) => j,
                None => {
                    csets.push(key);
                    csets.len() - 1
                }
            };
            Some((full, j as u32 + 1))
        }
    };
    Ok(Prob {
        obj,
        nn,
        np: p.members as usize,
        lo,
        hi,
        f: p.f,
        crt: ops::cr_threshold(p.cr),
        mutation: p.mutation,
        kind: p.bounds,
        seeds: p.seeds(),
        max_gen: p.max_generations,
        target: p.target,
        jde,
        ade,
        integral,
        cons,
    })
}

/// A problem's state on the CPU: X member by member (`x[m * nn + n]`).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
struct CpuState {
    x: Vec<f64>,
    fx: Vec<f64>,
    /// The violations beside `fx` (a constrained problem's; empty otherwise).
    #[serde(default)]
    vx: Vec<f64>,
    best: usize,
    gen: u64,
    status: u32,
    /// jDE100: F then CR of every member, the counters, the best ever (row and value).
    jf: Vec<f64>,
    jst: JdeState,
    bx: Vec<f64>,
    bfx: f64,
    /// JADE, SHADE, L-SHADE, jSO: the memories, archive and counters.
    ade: Option<ade::State>,
}

impl CpuState {
    /// The best member's violation (0 unconstrained).
    fn violation(&self) -> f64 {
        self.vx.get(self.best).copied().unwrap_or(0.0)
    }
}

const NEW: u32 = 0;
const RUNNING: u32 = 1;
const TARGET: u32 = 2;
const BUDGET: u32 = 3;

impl Prob {
    /// The values of `rows` (members of `nn` values one after another); non-finite ones +inf.
    fn eval_rows(&self, rows: &[f64], double: bool) -> Result<Vec<f64>> {
        let v = match &self.obj {
            Obj::Catalogue(info, data) => rows
                .chunks(self.nn)
                .map(|x| info.eval_with_data(x, data).unwrap_or(f64::NAN))
                .collect(),
            // a user's source runs on the OpenCL device in use, a generation's trials at once
            Obj::Source { code, data, .. } => crate::objective::evaluate_points(
                &Objective::source(code.to_string(), data.clone()),
                rows,
                self.nn,
                double,
                None,
            )?,
        };
        Ok(v.into_iter()
            .map(|v| if v.is_finite() { v } else { f64::INFINITY })
            .collect())
    }

    /// The violations of `rows` (as the kernels sum them: constraints.cl's order), NaN and
    /// +inf as +inf; `None` for an unconstrained problem.
    fn violations(&self, rows: &[f64], double: bool) -> Result<Option<Vec<f64>>> {
        let (Some((c, _)), Obj::Source { code, data, .. }) = (&self.cons, &self.obj) else {
            return Ok(None);
        };
        // the constraint values come from the OpenCL device in use, as the objective's
        let v = crate::objective::constraint_values(
            &Objective::source(code.to_string(), data.clone()),
            rows,
            self.nn,
            c.count(),
            double,
            None,
        )?;
        Ok(Some(
            v.chunks(c.count() as usize)
                .map(|c1| cons::sanitized(c.violation_of(c1)))
                .collect(),
        ))
    }

    /// The best member by Deb's rules where constrained (ties: the first), else by value.
    fn best_of(&self, fx: &[f64], vx: &[f64]) -> usize {
        if self.cons.is_some() {
            cons::best_of(fx, vx).unwrap_or(0)
        } else {
            ops::best_member(fx).unwrap_or(0)
        }
    }

    /// The dispatcher's number of the objective.
    fn func_id(&self) -> u32 {
        match &self.obj {
            Obj::Catalogue(info, _) => info.id,
            Obj::Source { k, .. } => USER_ID + *k as u32,
        }
    }

    /// The data as the device reads it.
    fn data_bytes(&self, double: bool) -> Vec<u8> {
        match &self.obj {
            Obj::Catalogue(_, d) => fp_bytes(d, double),
            Obj::Source { data, .. } => data.clone(),
        }
    }

    /// The status after generation `gen` with the best value `best` and its violation `v` (a
    /// target counts a feasible value only).
    fn status(&self, best: f64, v: f64, gen: u64) -> u32 {
        if v == 0.0 && self.target.is_some_and(|t| best <= t) {
            TARGET
        } else if gen >= self.max_gen {
            BUDGET
        } else {
            RUNNING
        }
    }

    /// Up to `k` generations (the initial population first when new), as `deb_run`.
    fn advance(&self, s: &mut CpuState, k: u64, double: bool) -> Result<()> {
        let (np, nn) = (self.np, self.nn);
        if s.status >= TARGET {
            return Ok(());
        }
        if s.status == NEW {
            // the population and its trials are fallible: memory given away since the batch was
            // made is an error, not an abort
            s.x = crate::error::try_vec(np * nn, "members")?;
            s.x.extend((0..np * nn).map(|i| {
                rounded(
                    ops::initial(
                        self.seeds[0],
                        0,
                        (i / nn) as u32,
                        (i % nn) as u32,
                        np as u32,
                        nn as u32,
                        self.lo[i % nn],
                        self.hi[i % nn],
                    ),
                    self.integral.get(i % nn) == Some(&true),
                )
            }));
            s.fx = self.eval_rows(&s.x, double)?;
            s.vx = self.violations(&s.x, double)?.unwrap_or_default();
            s.best = self.best_of(&s.fx, &s.vx);
            s.gen = 0;
            s.status = self.status(s.fx[s.best], s.violation(), 0);
            if self.jde.is_some() {
                s.jf = [vec![jde::F_INIT; np], vec![jde::CR_INIT; np]].concat();
                s.jst = JdeState::default();
                s.bx = s.x[s.best * nn..(s.best + 1) * nn].to_vec();
                s.bfx = s.fx[s.best];
            }
        }
        if let Some(ns) = self.jde {
            return self.advance_jde(s, k, ns, double);
        }
        if let Some(shape) = &self.ade {
            return self.advance_ade(s, k, shape, double);
        }
        let mut y = crate::error::try_filled(np * nn, 0.0, "members")?;
        for _ in 0..k {
            if s.status != RUNNING {
                break;
            }
            let g = s.gen + 1;
            for m in 0..np {
                let (r, jrand) = ops::indices(
                    self.seeds[1],
                    g,
                    0,
                    m as u32,
                    1,
                    np as u32,
                    nn as u32,
                    self.mutation,
                    false,
                );
                let key = ops::TrialKey {
                    seed: self.seeds[2],
                    gen: g,
                    p: 0,
                    m: m as u32,
                    np: 1,
                    nm: np as u32,
                    nn: nn as u32,
                    shared: false,
                };
                ops::trial(
                    &mut y[m * nn..(m + 1) * nn],
                    key,
                    jrand,
                    self.crt,
                    &self.lo,
                    &self.hi,
                    |_| self.kind,
                    &self.integral,
                    |n| {
                        ops::mutant(self.mutation, self.f, &r, m as u32, s.best as u32, |k| {
                            s.x[k as usize * nn + n]
                        })
                    },
                    |n| s.x[m * nn + n],
                );
            }
            let fy = self.eval_rows(&y, double)?;
            let vy = self.violations(&y, double)?;
            for m in 0..np {
                // the kernels' de_replaces at level 0 (Deb's rules; ties replace)
                let take = match &vy {
                    Some(vy) => cons::no_worse(fy[m], vy[m], s.fx[m], s.vx[m], 0.0),
                    None => fy[m] <= s.fx[m],
                };
                if take {
                    s.fx[m] = fy[m];
                    if let Some(vy) = &vy {
                        s.vx[m] = vy[m];
                    }
                    s.x[m * nn..(m + 1) * nn].copy_from_slice(&y[m * nn..(m + 1) * nn]);
                }
            }
            s.best = self.best_of(&s.fx, &s.vx);
            s.gen = g;
            s.status = self.status(s.fx[s.best], s.violation(), g);
        }
        Ok(())
    }
}

impl Prob {
    /// Up to `k` generations of JADE, SHADE, L-SHADE or jSO (`ade::generation` on one island
    /// keyed as island 0 of 1, as `deb_run`); L-SHADE and jSO also stop when their budget is spent.
    fn advance_ade(
        &self,
        s: &mut CpuState,
        k: u64,
        shape: &ade::Shape,
        double: bool,
    ) -> Result<()> {
        let kinds = vec![self.kind; self.nn];
        let bounds = jde::Bounds {
            lo: &self.lo,
            hi: &self.hi,
            kinds: &kinds,
            integral: &self.integral,
        };
        let st = s.ade.get_or_insert_with(|| ade::State::new(shape));
        for _ in 0..k {
            if s.status != RUNNING {
                break;
            }
            let mut island = [ade::IslandMut {
                x: &mut s.x,
                fx: &mut s.fx,
                st: &mut *st,
            }];
            let mut eval = |rows: &[f64]| self.eval_rows(rows, double);
            ade::generation(shape, s.gen + 1, &mut island, &bounds, &mut eval)?;
            s.best = ops::best_member(&s.fx).unwrap_or(0);
            s.gen += 1;
            s.status = self.status(s.fx[s.best], 0.0, s.gen);
            if s.status == RUNNING && shape.alg.reduces() && st.nfe >= shape.budget {
                s.status = BUDGET;
            }
        }
        Ok(())
    }

    /// Up to `k` jDE100 cycles (`jde::cycle` on one island keyed as island 0 of 1, with the
    /// problem's seeds), the best ever kept beside the population.
    fn advance_jde(&self, s: &mut CpuState, k: u64, ns: u32, double: bool) -> Result<()> {
        let (np, nn) = (self.np, self.nn);
        let shape = jde::Shape {
            nb: np as u32 - ns,
            ns,
            nn: nn as u32,
            np: 1,
            seed_init: self.seeds[0],
            seed_mut: self.seeds[1],
            seed_cross: self.seeds[2],
            eps: 1e-16,
            age_limit: 0,
            selection: super::config::Selection::Ties,
        };
        let kinds = vec![self.kind; nn];
        let bounds = jde::Bounds {
            lo: &self.lo,
            hi: &self.hi,
            kinds: &kinds,
            integral: &self.integral,
        };
        for _ in 0..k {
            if s.status != RUNNING {
                break;
            }
            let mut x = [s.x.as_slice(), &s.bx].concat();
            let mut fx = [s.fx.as_slice(), &[s.bfx]].concat();
            let (f, cr) = s.jf.split_at_mut(np);
            let mut island = [jde::IslandMut {
                x: &mut x,
                fx: &mut fx,
                f,
                cr,
                st: &mut s.jst,
            }];
            let mut eval = |rows: &[f64]| self.eval_rows(rows, double);
            jde::cycle(&shape, s.gen + 1, &mut island, &bounds, &mut eval)?;
            s.x.copy_from_slice(&x[..np * nn]);
            s.bx.copy_from_slice(&x[np * nn..]);
            s.fx.copy_from_slice(&fx[..np]);
            s.bfx = fx[np];
            s.best = ops::best_member(&s.fx).unwrap_or(0);
            s.gen += 1;
            s.status = self.status(s.bfx, 0.0, s.gen);
        }
        Ok(())
    }
}

/// The device side of a batch: buffers, the program and its kernel.
struct DeviceBatch {
    queue: Queue,
    kernel: Kernel,
    /// `deb_results`: each problem's best row and value into `rows` and `values`, for the results.
    best: Kernel,
    rows: DeviceBuffer<u8>,
    values: DeviceBuffer<u8>,
    wg: usize,
    /// Bytes of FP.
    fp: usize,
    local: bool,
    /// Local bytes: X, Fx of the largest population (when local), and the reduction's arrays.
    lx: usize,
    lfx: usize,
    /// Local bytes of the trials and their values (one element when they stay global).
    ly: usize,
    lfy: usize,
    /// Whether the trials are in local memory too (a batch of catalogue functions whose
    /// populations and trials fit).
    trial_local: bool,
    /// Whether the batch has constraints: Fx, Fy and `values` hold the violations after the
    /// values, and the reduction's local array holds both.
    constrained: bool,
    x: DeviceBuffer<u8>,
    fx: DeviceBuffer<u8>,
    y: DeviceBuffer<u8>,
    fy: DeviceBuffer<u8>,
    lo: DeviceBuffer<u8>,
    hi: DeviceBuffer<u8>,
    kinds: DeviceBuffer<u8>,
    data: DeviceBuffer<u8>,
    meta: DeviceBuffer<u32>,
    meta64: DeviceBuffer<u64>,
    fpar: DeviceBuffer<u8>,
    state: DeviceBuffer<u32>,
    jf: DeviceBuffer<u8>,
    jst: DeviceBuffer<u64>,
    am: DeviceBuffer<u8>,
    aa: DeviceBuffer<u8>,
    au: DeviceBuffer<u32>,
    /// Local bytes of the adaptive variants' sums (one element when none).
    ls: usize,
    bx: DeviceBuffer<u8>,
    bf: DeviceBuffer<u8>,
    /// Each problem's offset in the bounds (and in the best-ever rows `bx`).
    boff: Vec<usize>,
    gens: DeviceBuffer<u64>,
    xoff: Vec<usize>,
    foff: Vec<usize>,
}

/// Names a user source may define that the batch renames per source (K its index):
/// `objective` and `constraints`, and what every problem of `cl/cec2006.cl` defines beside them,
/// so that several CEC 2006 problems share a program.
const SOURCE_NAMES: [&str; 4] = [
    "constraints",
    "cec06_violation",
    "cec06_eval",
    "cec06_fp_matches_fp_double",
];

/// Macros of `cl/cec2006.cl` that differ from one of its problems to the next, undefined after
/// each source.
const SOURCE_MACROS: [&str; 10] = [
    "CEC06_ID",
    "CEC06_DOUBLE",
    "CEC06_DIMS",
    "CEC06_NG",
    "CEC06_NH",
    "CEC06_NC",
    "CEC06_EPS",
    "CEC06_ARGS",
    "K",
    "X",
];

/// The batch's user sources, each defining `objective` renamed `deb_user_K` (K its index, its
/// `constraints` `deb_uK_constraints`), and the dispatcher over them and the catalogue functions
/// the batch uses.
fn dispatcher(probs: &[Prob], sources: &[std::sync::Arc<str>]) -> String {
    let mut s = String::new();
    for (k, code) in sources.iter().enumerate() {
        s += &format!("#define objective deb_user_{k}\n");
        for n in SOURCE_NAMES {
            s += &format!("#define {n} deb_u{k}_{n}\n");
        }
        s += &format!(
            "{}\n#undef objective\n",
            crate::objective::source_text(code)
        );
        for n in SOURCE_NAMES.iter().chain(&SOURCE_MACROS) {
            s += &format!("#undef {n}\n");
        }
    }
    let mut ids: Vec<(u32, String)> = probs
        .iter()
        .map(|p| match &p.obj {
            Obj::Catalogue(info, _) => (
                info.id,
                format!(
                    "{}(x, dims, stride, (__global const FP *)data)",
                    info.kernel
                ),
            ),
            Obj::Source { k, .. } => (
                USER_ID + *k as u32,
                format!("deb_user_{k}(x, dims, stride, (__global const void *)data)"),
            ),
        })
        .collect();
    ids.sort();
    ids.dedup();
    // MO_XS: __global, or __local when the trials are in local memory (catalogue functions only)
    s += "FP deb_objective(uint id, MO_XS const FP *x, uint dims, uint stride, __global const uchar *data)\n{\n    switch (id) {\n";
    for (id, call) in ids {
        s += &format!("    case {id}u: return {call};\n");
    }
    s += "    default: return (FP)NAN;\n    }\n}\n";
    s
}

/// `spec` with the batch's constraint sets (`csets`, numbered from 1): constraints.cl again per
/// set, its MO_NC, MO_NG and MO_EQ_TOL the set's and its names renamed (`mo_violation` becomes
/// `deb_violation_J`), then the dispatcher `deb_violation(cset, x, dims, stride, data)` over them
/// (0 for set 0, an unconstrained problem).
fn with_constraint_sets(mut spec: ProgramSpec, csets: &[ConsSet]) -> ProgramSpec {
    // every function constraints.cl defines (a name left out is defined twice)
    const RENAMED: [&str; 7] = [
        "mo_by_value",
        "mo_better",
        "mo_no_worse",
        "mo_violation_of",
        "mo_violation",
        "mo_residual",
        "mo_repair",
    ];
    for (j, &(k, ng, nc, tol)) in csets.iter().enumerate() {
        let j = j + 1;
        let mut pre = format!(
            "#undef MO_VIOLATION\n#define MO_NC {nc}\n#define MO_NG {ng}\n#define MO_EQ_TOL {:e}\n#define constraints deb_u{k}_constraints\n",
            f64::from_bits(tol)
        );
        for n in RENAMED {
            pre += &format!("#define {n} deb_c{j}_{n}\n");
        }
        let mut post = String::from("#undef MO_VIOLATION\n#undef MO_NC\n#undef MO_NG\n#undef MO_EQ_TOL\n#undef constraints\n");
        for n in RENAMED {
            post += &format!("#undef {n}\n");
        }
        spec = spec.text(pre).file("constraints.cl").text(post);
    }
    let mut d = String::from("FP deb_violation(uint cset, __global const FP *x, uint dims, uint stride, __global const uchar *data)\n{\n    switch (cset) {\n");
    for j in 1..=csets.len() {
        d += &format!("    case {j}u: return deb_c{j}_mo_violation(x, dims, stride, (__global const void *)data);\n");
    }
    d += "    default: return (FP)0;\n    }\n}\n";
    spec.text(d)
}

impl DeviceBatch {
    fn new(
        ctx: std::sync::Arc<DeviceContext>,
        probs: &[Prob],
        sources: &[std::sync::Arc<str>],
        csets: &[ConsSet],
        double: bool,
        placement: Placement,
    ) -> Result<Self> {
        let fp = if double { 8 } else { 4 };
        // with constraints every value has its violation in the second half of Fx and Fy
        let constrained = !csets.is_empty();
        let ftot: usize = probs.iter().map(|p| p.np).sum();
        let queue = ctx.queue_unprofiled()?;
        let info = &ctx.info;
        let b = probs.len();
        let mut xoff = Vec::with_capacity(b);
        let mut foff = Vec::with_capacity(b);
        let (mut xt, mut ft, mut bt, mut mt, mut at) = (0usize, 0usize, 0usize, 0usize, 0usize);
        let mut meta = Vec::with_capacity(b * 10);
        let mut meta64 = Vec::with_capacity(b * 12);
        let (mut mem, mut counters) = (Vec::new(), Vec::with_capacity(4 * b));
        let (mut lo, mut hi, mut kinds, mut data, mut fpar) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for p in probs {
            xoff.push(xt);
            foff.push(ft);
            // meta[4]: the algorithm (1-4 the SHADE family, 5 jDE100), meta[6]: jDE100's small
            // population, meta[7], meta[8]: the memories' entries and the archive's rows
            let (alg, ns) = p.jde.map_or((0, 0), |ns| (Algorithm::Jde100 as u32, ns));
            let (alg, h, acap) = p
                .ade
                .as_ref()
                .map_or((alg, 0, 0), |a| (a.alg as u32, a.par.h, a.acap as usize));
            meta.extend_from_slice(&[
                p.func_id(),
                p.nn as u32,
                p.np as u32,
                p.mutation as u32,
                alg,
                p.target.is_some() as u32,
                ns,
                h as u32,
                acap as u32,
                p.cons.as_ref().map_or(0, |c| c.1),
            ]);
            meta64.extend_from_slice(&[
                xt as u64,
                ft as u64,
                data.len() as u64,
                bt as u64,
                p.seeds[0],
                p.seeds[1],
                p.seeds[2],
                p.crt,
                p.max_gen,
                mt as u64,
                at as u64,
                p.ade.as_ref().map_or(0, |a| a.budget),
                (ftot + ft) as u64,
            ]);
            // the memories' initial values and the counters (k, archive length, active
            // members, evaluations) of an adaptive problem
            if let Some(a) = &p.ade {
                let st = ade::State::new(a);
                mem.extend_from_slice(&st.m_f);
                mem.extend_from_slice(&st.m_cr);
                counters.extend_from_slice(&st.counters());
            } else {
                counters.extend_from_slice(&[0; 4]);
            }
            mt += 2 * h;
            at += acap * p.nn;
            lo.extend_from_slice(&p.lo);
            hi.extend_from_slice(&p.hi);
            // the kernels' kinds byte: the bound correction, with de.cl's DE_INTEGRAL for an
            // integer dimension
            kinds.extend((0..p.nn).map(|n| {
                p.kind as u8
                    | if p.integral.get(n) == Some(&true) {
                        INTEGRAL
                    } else {
                        0
                    }
            }));
            // each problem's data at an offset aligned for any type it may hold
            data.extend_from_slice(&p.data_bytes(double));
            data.resize(data.len().next_multiple_of(16), 0);
            let (pmax, arc_rate, c) = p
                .ade
                .as_ref()
                .map_or((0.0, 0.0, 0.0), |a| (a.par.p, a.par.arc_rate, a.par.c));
            fpar.extend_from_slice(&[
                p.f,
                p.target.unwrap_or(f64::NEG_INFINITY),
                pmax,
                arc_rate,
                c,
            ]);
            xt += p.np * p.nn;
            ft += p.np;
            bt += p.nn;
        }
        if data.is_empty() {
            data.resize(16, 0);
        }
        let xbytes = (xt * fp) as u64;
        check_fits(info, xbytes, "X")?;
        let max_np = probs.iter().map(|p| p.np).max().unwrap_or(1);
        let max_x = probs.iter().map(|p| p.np * p.nn).max().unwrap_or(1);
        let cap = ctx.tuning().de_batch.min(info.max_work_group_size).max(1);
        // the smallest power of two covering the members, at most the cap
        let mut wg = covering_group(max_np, cap);
        let ade = probs.iter().any(|p| p.ade.is_some());
        // the reduction's arrays (and the adaptive variants' sums)
        // (with constraints the reduction's violations beside its values)
        let reduce = wg * (fp + 4)
            + if ade { ade::SUMS * wg * fp } else { 0 }
            + if constrained { wg * fp } else { 0 };
        // two copies of the population (the generations alternate between them), its values
        // (and violations), the reduction
        let vals = if constrained { 2 } else { 1 };
        let local_need = 2 * max_x * fp + vals * max_np * fp + reduce;
        let fits = (local_need as u64) <= info.local_mem_bytes;
        // the trials beside the population when they fit too and every objective is from the
        // catalogue (a user's source reads global memory, as its contract says)
        let catalogue_only = probs.iter().all(|p| matches!(p.obj, Obj::Catalogue(..)));
        let trial_fits = ((local_need + max_x * fp + max_np * fp) as u64) <= info.local_mem_bytes;
        let local = match placement {
            Placement::Auto => fits,
            Placement::Global => false,
            Placement::Local if fits => true,
            Placement::Local => {
                return Err(Error::arg(
                    "placement",
                    format!("local: the largest population needs {local_need} bytes of local memory; the device has {}", info.local_mem_bytes),
                ))
            }
        };
        if (reduce as u64) > info.local_mem_bytes {
            return Err(Error::arg(
                "members",
                format!(
                    "the reduction needs {reduce} bytes of local memory; the device has {}",
                    info.local_mem_bytes
                ),
            ));
        }
        let trial_local = local && catalogue_only && trial_fits && !constrained;
        let spec = ProgramSpec::files(&["common.cl", "functions.cl"])
            .define("FP", if double { "double" } else { "float" })
            .define("FP_DOUBLE", double as u8)
            .define("MO_XS", if trial_local { "__local" } else { "__global" })
            .define("DE_NO_KERNELS", 1)
            .define("DEB_LOCAL", local as u8)
            .define("DEB_TRIAL_LOCAL", trial_local as u8)
            .define("DEB_BATCH", 1)
            .define("DEB_JDE", probs.iter().any(|p| p.jde.is_some()) as u8)
            .define("DEB_ADE", ade as u8)
            .define("DEB_CONSTRAINED", constrained as u8)
            .file("constraints.cl")
            .file("de.cl")
            .text(dispatcher(probs, sources));
        let spec = if constrained {
            with_constraint_sets(spec, csets)
        } else {
            spec
        }
        .file("de_batch.cl");
        let program = ctx.build(&spec)?;
        let kernel = queue.kernel(&program, "deb_run")?;
        let best = queue.kernel(&program, "deb_results")?;
        wg = covering_group(wg, kernel.get_work_group_size(info.cl_id()).unwrap_or(1));
        let state = vec![0u32; 2 * b];
        Ok(DeviceBatch {
            x: queue.buffer(xt * fp, "X")?,
            fx: queue.buffer(vals * ft * fp, "Fx")?,
            // the trials' global home, unused when they live in local memory
            y: queue.buffer(if trial_local { fp } else { xt * fp }, "Y")?,
            fy: queue.buffer(if trial_local { fp } else { vals * ft * fp }, "Fy")?,
            lo: queue.buffer_from(&fp_bytes(&lo, double), "lower")?,
            hi: queue.buffer_from(&fp_bytes(&hi, double), "upper")?,
            kinds: queue.buffer_from(&kinds, "bounds")?,
            data: queue.buffer_from(&data, "func-data")?,
            meta: queue.buffer_from(&meta, "problems")?,
            meta64: queue.buffer_from(&meta64, "problems")?,
            fpar: queue.buffer_from(&fp_bytes(&fpar, double), "problems")?,
            state: queue.buffer_from(&state, "state")?,
            gens: queue.buffer_from(&vec![0u64; b], "generations")?,
            // jDE100: F, CR and the trials' F, CR of every member (4 per member), the counters
            // (4 per problem), the best ever (a row per problem at its bounds' offset, a value)
            jf: queue.buffer((4 * ft).max(1) * fp, "F")?,
            jst: queue.buffer_from(&counters, "jde100 state")?,
            // JADE, SHADE, L-SHADE, jSO: the memories and the archive at each problem's offsets,
            // the ranks and archive slots (2 per member; their F, CR and improvement in `jf`)
            am: queue.buffer_from(
                &fp_bytes(if mem.is_empty() { &[0.0] } else { &mem }, double),
                "memories",
            )?,
            aa: queue.buffer(at.max(1) * fp, "archive")?,
            au: queue.buffer_from(&vec![0u32; if ade { 2 * ft } else { 1 }], "ranks")?,
            ls: if ade { ade::SUMS * wg * fp } else { fp },
            bx: queue.buffer(bt.max(1) * fp, "best")?,
            bf: queue.buffer(b.max(1) * fp, "best")?,
            rows: queue.buffer(bt.max(1) * fp, "results")?,
            values: queue.buffer(vals * b.max(1) * fp, "results")?,
            boff: probs
                .iter()
                .scan(0usize, |acc, p| {
                    let o = *acc;
                    *acc += p.nn;
                    Some(o)
                })
                .collect(),
            lx: if local { 2 * max_x * fp } else { fp },
            lfx: if local { vals * max_np * fp } else { fp },
            ly: if trial_local { max_x * fp } else { fp },
            lfy: if trial_local { max_np * fp } else { fp },
            trial_local,
            constrained,
            queue,
            kernel,
            best,
            wg,
            fp,
            local,
            xoff,
            foff,
        })
    }

    /// Every problem's best row (at its bounds' offset, `boff`) and value, then (constrained)
    /// every problem's violation after the values, gathered on the device (`deb_results`) so
    /// that only these are read; a problem not yet started has none.
    fn best_rows(&self, double: bool) -> Result<(Vec<f64>, Vec<f64>)> {
        let count = self.xoff.len() as u32;
        let mut e = ExecuteKernel::new(&self.best);
        // SAFETY: the arguments match `deb_results`; `rows` holds every problem's row at its
        // bounds' offset and `values` one value a problem; the reads below finish the queue.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(self.meta.cl())
                .set_arg(self.meta64.cl())
                .set_arg(self.state.cl())
                .set_arg(self.rows.cl())
                .set_arg(self.values.cl())
                .set_arg(&count);
        }
        crate::device::launch(
            &self.queue,
            &mut e,
            &[count.max(1) as usize],
            None,
            "clEnqueueNDRangeKernel(deb_results)",
        )?;
        Ok((
            fp_values(&self.rows.to_vec(&self.queue)?, double),
            fp_values(&self.values.to_vec(&self.queue)?, double),
        ))
    }

    /// `k` generations of the problems `first..first + problems`.
    fn launch(&mut self, first: usize, problems: usize, k: u32) -> Result<()> {
        let first = first as u32;
        let mut e = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments match `deb_run`; the buffers are fields that outlive the launch
        // (the queue is finished below).
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(self.y.cl())
                .set_arg(self.fy.cl());
            e.set_arg(self.lo.cl())
                .set_arg(self.hi.cl())
                .set_arg(self.kinds.cl())
                .set_arg(self.data.cl());
            e.set_arg(self.meta.cl())
                .set_arg(self.meta64.cl())
                .set_arg(self.fpar.cl());
            e.set_arg(self.state.cl()).set_arg(self.gens.cl());
            e.set_arg(self.jf.cl())
                .set_arg(self.jst.cl())
                .set_arg(self.bx.cl())
                .set_arg(self.bf.cl());
            e.set_arg(self.am.cl())
                .set_arg(self.aa.cl())
                .set_arg(self.au.cl())
                .set_arg(&k)
                .set_arg(&first);
            e.set_arg_local_buffer(self.lx)
                .set_arg_local_buffer(self.lfx);
            e.set_arg_local_buffer(self.wg * self.fp * if self.constrained { 2 } else { 1 })
                .set_arg_local_buffer(self.wg * 4);
            e.set_arg_local_buffer(self.ly)
                .set_arg_local_buffer(self.lfy)
                .set_arg_local_buffer(self.ls);
        }
        crate::device::launch(
            &self.queue,
            &mut e,
            &[problems * self.wg],
            Some(&[self.wg]),
            "clEnqueueNDRangeKernel(deb_run)",
        )?;
        self.queue.finish()
    }

    fn states(&self) -> Result<(Vec<u32>, Vec<u64>)> {
        Ok((
            self.state.to_vec(&self.queue)?,
            self.gens.to_vec(&self.queue)?,
        ))
    }

    /// The buffers a problem's course reads from one launch to the next (the trials are made
    /// afresh each generation), as bytes.
    fn save(&self) -> Result<Vec<Vec<u8>>> {
        let q = &self.queue;
        let words32 = |v: Vec<u32>| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        let words64 = |v: Vec<u64>| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        Ok(vec![
            self.x.to_vec(q)?,
            self.fx.to_vec(q)?,
            words32(self.state.to_vec(q)?),
            words64(self.gens.to_vec(q)?),
            self.jf.to_vec(q)?,
            words64(self.jst.to_vec(q)?),
            self.am.to_vec(q)?,
            self.aa.to_vec(q)?,
            words32(self.au.to_vec(q)?),
            self.bx.to_vec(q)?,
            self.bf.to_vec(q)?,
        ])
    }

    /// Writes back the buffers of [`DeviceBatch::save`] (each its size, else nothing written).
    fn restore(&mut self, b: &[Vec<u8>]) -> Result<()> {
        let bytes8 = [
            self.x.len(),
            self.fx.len(),
            self.jf.len(),
            self.am.len(),
            self.aa.len(),
            self.bx.len(),
            self.bf.len(),
        ];
        let want = [
            bytes8[0],
            bytes8[1],
            self.state.len() * 4,
            self.gens.len() * 8,
            bytes8[2],
            self.jst.len() * 8,
            bytes8[3],
            bytes8[4],
            self.au.len() * 4,
            bytes8[5],
            bytes8[6],
        ];
        if b.len() != want.len() || b.iter().zip(&want).any(|(v, &w)| v.len() != w) {
            return Err(Error::arg(
                "state",
                "a corrupt checkpoint: its buffers do not match the batch's sizes",
            ));
        }
        let q = &self.queue;
        let w32 = |v: &[u8]| -> Vec<u32> {
            v.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let w64 = |v: &[u8]| -> Vec<u64> {
            v.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        };
        self.x.write(q, &b[0])?;
        self.fx.write(q, &b[1])?;
        self.state.write(q, &w32(&b[2]))?;
        self.gens.write(q, &w64(&b[3]))?;
        self.jf.write(q, &b[4])?;
        self.jst.write(q, &w64(&b[5]))?;
        self.am.write(q, &b[6])?;
        self.aa.write(q, &b[7])?;
        self.au.write(q, &w32(&b[8]))?;
        self.bx.write(q, &b[9])?;
        self.bf.write(q, &b[10])
    }
}

enum Inner {
    Cpu(Vec<CpuState>),
    Device(Box<DeviceBatch>),
    /// Several devices ([`BatchDe::on_devices`]): one batch per device with a contiguous block
    /// of the problems.
    Split(Vec<BatchDe>, Vec<std::ops::Range<usize>>),
}

/// A batch of DE problems on one backend.
pub struct BatchDe {
    probs: Vec<Prob>,
    inner: Inner,
    double: bool,
    k: u32,
    /// Problems per launch while one generation of all of them is longer than a launch should
    /// be (sized by the clock; all of them at first).
    block: usize,
    /// Stop reasons of the problems stopped by time or interruption (None: by status).
    cut: Vec<Option<StopReason>>,
    /// The problems as given and the placement, for a checkpoint's header.
    given: Vec<BatchProblem>,
    placement: Placement,
    /// Seconds the last run had taken (or a loaded state's run), for a checkpoint.
    elapsed: f64,
    /// A loaded state whose run the next [`BatchDe::run`] continues (its clock counting
    /// `elapsed`).
    resumed: bool,
}

impl BatchDe {
    /// Validates every problem (errors name the argument and the problem's index) and prepares
    /// the backend: on a device, the program (one build per set of functions and precision) and
    /// the buffers.
    pub fn new(
        problems: Vec<BatchProblem>,
        backend: Backend,
        options: BatchOptions,
    ) -> Result<Self> {
        if problems.is_empty() {
            return Err(Error::arg("problems", "none; expected at least 1"));
        }
        if options.generations_per_launch == 0 {
            return Err(Error::arg(
                "generations_per_launch",
                "0; expected at least 1",
            ));
        }
        let ctx = match backend {
            Backend::Cpu => None,
            Backend::Device(_) => Some(backend.context("batched DE")?),
        };
        let fp64 = ctx.as_ref().is_none_or(|c| c.info.fp64);
        let double = options.precision.resolve(false, fp64).is_double();
        if double {
            if let Some(c) = &ctx {
                c.require_fp64()?;
            }
        }
        // the whole batch's memory, before anything is allocated
        batch_footprint(problems.iter().map(|p| (p, 1)), double, ctx.is_some()).check(
            "problems",
            &format!("a batch of {} problems", problems.len()),
            ctx.as_ref().map(|c| &c.info),
        )?;
        let (mut sources, mut csets) = (Vec::new(), Vec::new());
        let probs = problems
            .iter()
            .enumerate()
            .map(|(i, p)| validate(p, double, &mut sources, &mut csets).map_err(|e| named(i, e)))
            .collect::<Result<Vec<_>>>()?;
        let inner = match ctx {
            None => {
                // a user source that does not compile is refused now, not at the first run
                for (i, p) in probs.iter().enumerate() {
                    if matches!(p.obj, Obj::Source { .. }) {
                        p.eval_rows(&p.lo, double).map_err(|e| named(i, e))?;
                        p.violations(&p.lo, double).map_err(|e| named(i, e))?;
                    }
                }
                Inner::Cpu(vec![
                    CpuState {
                        x: Vec::new(),
                        fx: Vec::new(),
                        vx: Vec::new(),
                        best: 0,
                        gen: 0,
                        status: NEW,
                        jf: Vec::new(),
                        jst: JdeState::default(),
                        bx: Vec::new(),
                        bfx: f64::INFINITY,
                        ade: None
                    };
                    probs.len()
                ])
            }
            Some(c) => Inner::Device(Box::new(DeviceBatch::new(
                c,
                &probs,
                &sources,
                &csets,
                double,
                options.placement,
            )?)),
        };
        let n = probs.len();
        Ok(BatchDe {
            probs,
            inner,
            double,
            k: options.generations_per_launch,
            block: usize::MAX,
            cut: vec![None; n],
            given: problems,
            placement: options.placement,
            elapsed: 0.0,
            resumed: false,
        })
    }

    /// A batch over several OpenCL devices (`metaopt devices`; checked: none twice, each exists,
    /// errors name `devices`): the problems are split into one contiguous block per device, each
    /// run from its own host thread, and the results gathered in problem order. Every problem
    /// draws from its own seeds, so the results equal the one-device results. `Auto` precision is
    /// double when every device has `cl_khr_fp64`, so all blocks compute alike.
    pub fn on_devices(
        problems: Vec<BatchProblem>,
        devices: &[usize],
        options: BatchOptions,
    ) -> Result<Self> {
        crate::multi::check_devices(devices)?;
        if problems.is_empty() {
            return Err(Error::arg("problems", "none; expected at least 1"));
        }
        if problems.len() < devices.len() {
            return Err(Error::arg(
                "devices",
                format!(
                    "{} devices for {} problems; give at least one problem per device",
                    devices.len(),
                    problems.len()
                ),
            ));
        }
        let mut fp64 = true;
        // a CPU device's buffers are host memory
        let mut cpu_device = false;
        for &d in devices {
            let info = &Backend::Device(Some(d)).context("batched DE")?.info;
            fp64 &= info.fp64;
            cpu_device |= info.kind == crate::device::DeviceKind::Cpu;
        }
        let options = BatchOptions {
            precision: options.precision.resolve(false, fp64),
            ..options
        };
        let double = options.precision.is_double();
        // the whole batch's host memory first; each device's block is checked against its
        // device as it is made
        let mut whole = batch_footprint(problems.iter().map(|p| (p, 1)), double, true);
        if cpu_device {
            whole.host = whole.host.saturating_add(whole.device);
        }
        Footprint {
            host: whole.host,
            ..Footprint::default()
        }
        .check(
            "problems",
            &format!("a batch of {} problems", problems.len()),
            None,
        )?;
        // every problem validated first, so an error names its global index
        let (mut sources, mut csets) = (Vec::new(), Vec::new());
        let probs = problems
            .iter()
            .enumerate()
            .map(|(i, p)| validate(p, double, &mut sources, &mut csets).map_err(|e| named(i, e)))
            .collect::<Result<Vec<_>>>()?;
        let ranges = crate::multi::blocks(problems.len(), devices.len());
        let parts = devices
            .iter()
            .zip(&ranges)
            .map(|(&d, r)| {
                BatchDe::new(
                    problems[r.clone()].to_vec(),
                    Backend::Device(Some(d)),
                    options.clone(),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let n = probs.len();
        Ok(BatchDe {
            probs,
            inner: Inner::Split(parts, ranges),
            double,
            k: options.generations_per_launch,
            block: usize::MAX,
            cut: vec![None; n],
            given: problems,
            placement: options.placement,
            elapsed: 0.0,
            resumed: false,
        })
    }

    /// What [`BatchDe::new`] checks before it allocates, for a caller that has not made its
    /// problems yet: a batch of `count` problems of the sizes of `problem` (as `--problems`
    /// makes) on `backend` fits its device and the host ([`batch_footprint`]), with
    /// `caller_bytes` more host bytes per problem that the caller holds beside the batch (its
    /// copies of the problems, its rows of results). Errors name `problems`.
    pub fn check_repeated(
        problem: &BatchProblem,
        count: u64,
        caller_bytes: u64,
        backend: Backend,
        options: &BatchOptions,
    ) -> Result<()> {
        let ctx = match backend {
            Backend::Cpu => None,
            Backend::Device(_) => Some(backend.context("batched DE")?),
        };
        let fp64 = ctx.as_ref().is_none_or(|c| c.info.fp64);
        let double = options.precision.resolve(false, fp64).is_double();
        let mut f = batch_footprint([(problem, count)], double, ctx.is_some());
        f.host(&[count, caller_bytes]);
        f.check(
            "problems",
            &format!("a batch of {count} problems"),
            ctx.as_ref().map(|c| &c.info),
        )
    }

    /// Whether the batch computes in double.
    pub fn is_double(&self) -> bool {
        self.double
    }

    /// Whether the device keeps the populations in local memory (None on the CPU backend).
    pub fn uses_local_memory(&self) -> Option<bool> {
        match &self.inner {
            Inner::Cpu(_) => None,
            Inner::Device(d) => Some(d.local),
            Inner::Split(p, _) => p[0].uses_local_memory(),
        }
    }

    /// Whether the device keeps the trials in local memory too, where the catalogue functions
    /// read them (None on the CPU backend).
    pub fn trials_in_local_memory(&self) -> Option<bool> {
        match &self.inner {
            Inner::Cpu(_) => None,
            Inner::Device(d) => Some(d.trial_local),
            Inner::Split(p, _) => p[0].trials_in_local_memory(),
        }
    }

    fn statuses(&self) -> Result<(Vec<u32>, Vec<u64>)> {
        match &self.inner {
            Inner::Cpu(s) => Ok((
                s.iter().map(|s| s.status).collect(),
                s.iter().map(|s| s.gen).collect(),
            )),
            Inner::Device(d) => {
                let (st, g) = d.states()?;
                Ok((st.chunks(2).map(|c| c[0]).collect(), g))
            }
            Inner::Split(parts, _) => {
                let (mut st, mut g) = (Vec::new(), Vec::new());
                for p in parts {
                    let (a, b) = p.statuses()?;
                    st.extend(a);
                    g.extend(b);
                }
                Ok((st, g))
            }
        }
    }

    /// `k` generations of every problem. A launch of one generation of every problem that takes
    /// much longer than a launch should (a large batch on a slow device) is split into blocks
    /// of problems sized by the clock, and `cut` is asked between them: the problems are
    /// independent, so a problem's course does not depend on the blocks, and a limit that
    /// passes leaves the later blocks a generation behind, as a limit between launches would.
    fn step(&mut self, k: u32, cut: &Cut) -> Result<()> {
        let n = self.probs.len();
        if let Inner::Split(parts, ranges) = &mut self.inner {
            // each device its block, from its own thread
            let mut slots = vec![(); ranges.last().map_or(0, |r| r.end)];
            return crate::multi::run_blocks(parts, ranges, &mut slots, |p, _, _| p.step(k, cut))
                .map(|_| ());
        }
        let mut from = 0;
        while from < n {
            let count = if k == 1 {
                self.block.min(n - from)
            } else {
                n - from
            };
            let t = Instant::now();
            match &mut self.inner {
                Inner::Cpu(states) => {
                    let (probs, double) = (&self.probs[from..from + count], self.double);
                    states[from..from + count]
                        .par_iter_mut()
                        .zip(probs.par_iter())
                        .try_for_each(|(s, p)| p.advance(s, k as u64, double))?
                }
                Inner::Device(d) => d.launch(from, count, k)?,
                Inner::Split(..) => unreachable!("handled above"),
            }
            let seconds = t.elapsed().as_secs_f64();
            if k == 1 && (seconds > 2.0 * STEP_SECONDS || count < n) {
                // the problems a launch of about a step's length takes
                let rate = count as f64 / seconds.max(1e-6);
                self.block = ((rate * STEP_SECONDS) as usize).clamp(1, n);
            }
            from += count;
            if from < n && cut.reason().is_some() {
                break;
            }
        }
        Ok(())
    }

    /// What a checkpoint of this batch is checked against: every problem as given (function,
    /// source and data, sizes, bounds, parameters, seed, budget, target), the precision, the
    /// placement, the backend and the device count. The time limit is not in it.
    fn header(&self) -> Header {
        let devices = match &self.inner {
            Inner::Cpu(_) => 0,
            Inner::Device(_) => 1,
            Inner::Split(p, _) => p.len(),
        };
        Header::new(
            "batch_de",
            checkpoint::fingerprint(
                "batched DE",
                &format!("{} problems", self.given.len()),
                &[format!("{:?}", self.given).as_bytes()],
            ),
        )
        .option("precision", if self.double { "double" } else { "single" })
        .option("placement", format!("{:?}", self.placement))
        .option("backend", if devices == 0 { "cpu" } else { "device" })
        .devices(devices)
    }

    fn saved(&self) -> Result<BatchState> {
        Ok(match &self.inner {
            Inner::Cpu(s) => BatchState::Cpu(s.clone()),
            Inner::Device(d) => BatchState::Device(d.save()?),
            Inner::Split(parts, _) => {
                BatchState::Split(parts.iter().map(|p| p.saved()).collect::<Result<_>>()?)
            }
        })
    }

    fn restore(&mut self, state: BatchState) -> Result<()> {
        let bad = || {
            Error::arg(
                "state",
                "a corrupt checkpoint: its problems' states do not match the batch",
            )
        };
        match (&mut self.inner, state) {
            (Inner::Cpu(states), BatchState::Cpu(saved)) => {
                if saved.len() != states.len() {
                    return Err(bad());
                }
                for (p, s) in self.probs.iter().zip(&saved) {
                    let fits = s.status == NEW
                        || (s.x.len() == p.np * p.nn
                            && s.fx.len() == p.np
                            && s.best < p.np
                            && s.vx.len() == if p.cons.is_some() { p.np } else { 0 }
                            && (p.jde.is_none() || s.bx.len() == p.nn)
                            && s.ade.is_some() == p.ade.is_some());
                    if !fits {
                        return Err(bad());
                    }
                }
                *states = saved;
                Ok(())
            }
            (Inner::Device(d), BatchState::Device(b)) => d.restore(&b),
            (Inner::Split(parts, _), BatchState::Split(saved)) if saved.len() == parts.len() => {
                for (p, s) in parts.iter_mut().zip(saved) {
                    p.restore(s)?;
                }
                Ok(())
            }
            // the header's backend and device count agree: only a damaged state gets here
            _ => Err(bad()),
        }
    }

    /// Every problem's state (populations, values, adaptive memories and archives, jDE100's
    /// per-member F and CR, counters and best ever, generations, statuses), the reasons of the
    /// problems cut short and the seconds taken, as checkpoint bytes; [`load_state`] continues
    /// from them.
    ///
    /// [`load_state`]: BatchDe::load_state
    pub fn save_state(&self) -> Result<Vec<u8>> {
        checkpoint::encode(
            &self.header(),
            &BatchSaved {
                state: self.saved()?,
                cut: self.cut.clone(),
                elapsed: self.elapsed,
            },
        )
    }

    /// Continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or a checkpoint
    /// file) on a batch made of the same problems, options, backend and device count: every
    /// problem's state becomes the saved one, and the next [`run`](Self::run) goes on as the
    /// run that never stopped (its time limit counting the time already taken). Errors name
    /// `state` and say what differs; a refused state changes nothing.
    pub fn load_state(&mut self, bytes: &[u8]) -> Result<()> {
        let s: BatchSaved = checkpoint::decode(bytes, &self.header(), "state")?;
        if s.cut.len() != self.probs.len() {
            return Err(Error::arg(
                "state",
                "a corrupt checkpoint: its problems' states do not match the batch",
            ));
        }
        self.restore(s.state)?;
        self.cut = s.cut;
        self.elapsed = s.elapsed;
        self.resumed = true;
        Ok(())
    }

    /// Runs until every problem reached its target or budget, the time limit passed or the stop
    /// token (or [`crate::interrupt()`]) asked to stop; checked between launches of K generations
    /// (fewer under a time limit, so a launch stays short). May be called again to go on.
    ///
    /// Of `stop` the batch takes the time limit, the token and the checkpoint plan: the budgets
    /// and targets are per problem ([`BatchProblem`]'s `generations` and `target`), so a `stop`
    /// with a budget, evaluations, a target or a record interval is refused, naming the field.
    pub fn run(&mut self, stop: &Stop) -> Result<Vec<BatchResult>> {
        self.run_inner(stop, None)
    }

    /// [`run`](Self::run), calling `progress` before every launch and at the end with the
    /// batch's figures ([`BatchProgress`]); false from it ends the run, the problems still
    /// running stopped by the budget with their best so far. With several devices the figures
    /// add up every device's latest, reported as each device reports.
    pub fn run_observed(
        &mut self,
        stop: &Stop,
        mut progress: impl FnMut(&BatchProgress) -> bool + Send,
    ) -> Result<Vec<BatchResult>> {
        self.run_inner(stop, Some(&mut progress))
    }

    fn run_inner(
        &mut self,
        stop: &Stop,
        progress: Option<ProgressFn<'_>>,
    ) -> Result<Vec<BatchResult>> {
        check_stop(stop)?;
        // a resumed run's clock counts the time the run had taken (another run's its own)
        let before = if std::mem::take(&mut self.resumed) {
            self.elapsed
        } else {
            0.0
        };
        let t0 = checkpoint::resumed_start(Instant::now(), before);
        // (a checkpointing or resumed run takes the loop below, which steps every device at
        // once and writes one state of all)
        if let (Inner::Split(parts, ranges), None, 0.0) =
            (&mut self.inner, &stop.checkpoint, before)
        {
            // each device runs its block on its own thread, with its own launch sizes (a
            // problem's result does not depend on them)
            let mut slots = vec![(); ranges.last().map_or(0, |r| r.end)];
            let Some(progress) = progress else {
                let rs =
                    crate::multi::run_blocks(parts, ranges, &mut slots, |p, _, _| p.run(stop))?;
                self.elapsed = t0.elapsed().as_secs_f64();
                return Ok(rs.into_iter().flatten().collect());
            };
            let problems = slots.len();
            let starts: Vec<usize> = ranges.iter().map(|r| r.start).collect();
            // every device's latest figures, and the callback
            let shared = std::sync::Mutex::new((vec![None; parts.len()], progress));
            let rs = crate::multi::run_blocks(parts, ranges, &mut slots, |p, r, _| {
                let i = starts.iter().position(|&s| s == r.start).expect("a block");
                p.run_inner(
                    stop,
                    Some(&mut |q: &BatchProgress| {
                        let mut g = shared.lock().unwrap_or_else(|e| e.into_inner());
                        g.0[i] = Some(*q);
                        let all = g.0.iter().flatten();
                        let sum = BatchProgress {
                            elapsed: all.clone().map(|q| q.elapsed).fold(0.0, f64::max),
                            generations: all.clone().map(|q| q.generations).sum(),
                            finished: all.clone().map(|q| q.finished).sum(),
                            problems,
                            best: all.map(|q| q.best).fold(f64::INFINITY, f64::min),
                        };
                        (g.1)(&sum)
                    }),
                )
            })?;
            self.elapsed = t0.elapsed().as_secs_f64();
            return Ok(rs.into_iter().flatten().collect());
        }
        self.cut.iter_mut().for_each(|c| *c = None);
        // the statuses, read once a launch (the launch is finished when they are)
        let (mut st, mut gens) = self.statuses()?;
        let problems = st.len();
        // the problems finished, which the progress callback reports beside the driver's figures
        let finished = std::cell::Cell::new(0);
        let observed = progress.is_some();
        // where the run decides to stop (the interrupt or token, the time limit, the progress
        // callback: the problems' own budgets and targets end them in the kernel) and sizes its
        // launches: the first short and timed (one generation under a time limit), the next to
        // end before the time left, never more than `generations_per_launch`
        let mut driver = stop.driver(t0);
        if let Some(p) = progress {
            driver = driver.on_progress(|q: &Progress| {
                p(&BatchProgress {
                    elapsed: q.elapsed,
                    generations: q.work,
                    finished: finished.get(),
                    problems,
                    best: q.best,
                })
            });
        }
        // what a step asks between its blocks of problems; under a time limit the first block
        // is a sixteenth of the problems, timed (a generation of them all may be long)
        let cut = driver.cut().clone();
        if stop.time_limit.is_some() {
            self.block = self.block.min(problems.div_ceil(16));
        }
        let mut schedule = Schedule::new(stop.checkpoint.as_ref());
        let first = if stop.time_limit.is_some() {
            1
        } else {
            self.k.min(8)
        };
        loop {
            finished.set(st.iter().filter(|&&s| s >= TARGET).count());
            // (each problem's best only falls: the least of them is the least so far)
            let best = if observed {
                self.best_values()?
                    .into_iter()
                    .fold(f64::INFINITY, f64::min)
            } else {
                f64::INFINITY
            };
            // asked (and reported) before the end of the batch too, so the last report is its end
            let why = driver.check(gens.iter().sum(), 0, best);
            if finished.get() == problems {
                break;
            }
            if let Some(r) = why {
                for (c, &s) in self.cut.iter_mut().zip(&st) {
                    if s < TARGET {
                        *c = Some(r);
                    }
                }
                break;
            }
            let k = driver.next_size(first as u64, self.k as u64, 0) as u32;
            driver.step(k as u64, |k| self.step(k as u32, &cut))?;
            (st, gens) = self.statuses()?;
            if schedule.due() {
                self.elapsed = t0.elapsed().as_secs_f64();
                schedule.write(|| self.save_state())?;
            }
        }
        self.elapsed = t0.elapsed().as_secs_f64();
        // the run's end, whatever ended it, is a checkpoint
        schedule.write(|| self.save_state())?;
        self.results()
    }

    /// Each problem's best value as it stands (`f64::INFINITY` before its first launch).
    fn best_values(&self) -> Result<Vec<f64>> {
        match &self.inner {
            Inner::Cpu(states) => Ok(states
                .iter()
                .zip(&self.probs)
                .map(|(s, p)| match s.status {
                    NEW => f64::INFINITY,
                    _ if p.jde.is_some() => s.bfx,
                    _ => s.fx[s.best],
                })
                .collect()),
            Inner::Split(parts, _) => {
                let mut v = Vec::with_capacity(self.probs.len());
                for p in parts {
                    v.extend(p.best_values()?);
                }
                Ok(v)
            }
            Inner::Device(d) => {
                // status and best member, two words a problem
                let (st, _) = d.states()?;
                let fx = fp_values(&d.fx.to_vec(&d.queue)?, self.double);
                let bf = if self.probs.iter().any(|p| p.jde.is_some()) {
                    fp_values(&d.bf.to_vec(&d.queue)?, self.double)
                } else {
                    Vec::new()
                };
                Ok((0..self.probs.len())
                    .map(|i| match st[2 * i] {
                        NEW => f64::INFINITY,
                        _ if self.probs[i].jde.is_some() => bf[i],
                        _ => fx[d.foff[i] + st[2 * i + 1] as usize],
                    })
                    .collect())
            }
        }
    }

    /// The results as they stand.
    pub fn results(&self) -> Result<Vec<BatchResult>> {
        let reason = |s: u32, i: usize| match s {
            TARGET => Some(StopReason::Target),
            BUDGET => Some(StopReason::Budget),
            _ => self.cut[i],
        };
        // a constrained problem not yet evaluated has no feasible point
        let unstarted = |i: usize| {
            if self.probs[i].cons.is_some() {
                f64::INFINITY
            } else {
                0.0
            }
        };
        match &self.inner {
            Inner::Cpu(states) => Ok(states
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let p = &self.probs[i];
                    if s.status == NEW {
                        return BatchResult {
                            best_value: f64::INFINITY,
                            best: Vec::new(),
                            generations: 0,
                            stop: reason(s.status, i),
                            violation: unstarted(i),
                        };
                    }
                    if p.jde.is_some() {
                        return BatchResult {
                            best_value: s.bfx,
                            best: s.bx.clone(),
                            generations: s.gen,
                            stop: reason(s.status, i),
                            violation: 0.0,
                        };
                    }
                    BatchResult {
                        best_value: s.fx[s.best],
                        best: s.x[s.best * p.nn..(s.best + 1) * p.nn].to_vec(),
                        generations: s.gen,
                        stop: reason(s.status, i),
                        violation: s.violation(),
                    }
                })
                .collect()),
            Inner::Split(parts, _) => {
                let mut r = Vec::with_capacity(self.probs.len());
                for p in parts {
                    r.extend(p.results()?);
                }
                Ok(r)
            }
            Inner::Device(d) => {
                let (rows, values) = d.best_rows(self.double)?;
                let (st, gens) = d.states()?;
                let jde = self.probs.iter().any(|p| p.jde.is_some());
                let (bx, bf) = if jde {
                    (
                        fp_values(&d.bx.to_vec(&d.queue)?, self.double),
                        fp_values(&d.bf.to_vec(&d.queue)?, self.double),
                    )
                } else {
                    (Vec::new(), Vec::new())
                };
                Ok((0..self.probs.len())
                    .map(|i| {
                        let p = &self.probs[i];
                        let s = st[2 * i];
                        if s == NEW {
                            return BatchResult {
                                best_value: f64::INFINITY,
                                best: Vec::new(),
                                generations: 0,
                                stop: reason(s, i),
                                violation: unstarted(i),
                            };
                        }
                        if p.jde.is_some() {
                            let o = d.boff[i];
                            return BatchResult {
                                best_value: bf[i],
                                best: bx[o..o + p.nn].to_vec(),
                                generations: gens[i],
                                stop: reason(s, i),
                                violation: 0.0,
                            };
                        }
                        let o = d.boff[i];
                        BatchResult {
                            best_value: values[i],
                            best: rows[o..o + p.nn].to_vec(),
                            generations: gens[i],
                            stop: reason(s, i),
                            violation: if d.constrained {
                                values[self.probs.len() + i]
                            } else {
                                0.0
                            },
                        }
                    })
                    .collect())
            }
        }
    }
}
