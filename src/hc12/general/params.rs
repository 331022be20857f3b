//! The general HC12's options and results: the problem's shape, codings, the sense, starts, the
//! options of a search and what it returns.

use crate::error::{Error, Result};
use crate::interrupt::StopReason;
use crate::precision::Precision;
use crate::run::Stop;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the objective reads (only that matrix is made: the thesis's `params:noR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    /// The bit strings B (one word per parameter).
    Binary,
    /// The decoded integers I.
    Integer,
    /// The reals R = a + I (b - a) / (2^bits - 1).
    Real,
}

/// How a parameter's bits encode its integer (thesis `mCode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Coding {
    /// `BC`: plain binary.
    Binary,
    /// `GC`: Gray code (the default).
    #[default]
    Gray,
}

/// Why `GCi` is refused (docs/specs/HC12.md): the thesis's Table 1 lists it beside
/// `GC` and `BC` but never says what it means, and the library does not guess.
pub const GCI_REFUSED: &str =
    "`GCi`: the thesis (000, Table 1) lists this coding but does not define it, so the library \
     does not implement a guess; use `GC` (Gray code per parameter) or `BC` (plain binary)";

impl Coding {
    /// `GC` or `BC` (also lower-case); `GCi` is refused (the thesis lists it but does not define it).
    pub fn from_name(s: &str) -> Result<Self> {
        match s {
            "BC" | "bc" => Ok(Coding::Binary),
            "GC" | "gc" => Ok(Coding::Gray),
            "GCi" | "gci" | "GCI" => Err(Error::arg("mCode", GCI_REFUSED)),
            _ => Err(Error::arg(
                "mCode",
                format!("`{s}`; expected `GC` (Gray) or `BC` (binary)"),
            )),
        }
    }
}

/// `funOpt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sense {
    #[default]
    Min,
    Max,
}

/// The shape of the problem: what `params` takes in the thesis's API.
#[derive(Clone, Debug, PartialEq)]
pub struct Hc12Params {
    pub n_param: u32,
    /// Bits per parameter: one value for all, or one per parameter (1..32 each).
    pub bits: Vec<u32>,
    /// Interval per parameter: one for all, or one per parameter (a < b; used by `Real`).
    pub bounds: Vec<(f64, f64)>,
    pub mask_order: u32,
    pub start_bit: i64,
    /// 0: to the end of the string.
    pub bit_length: i64,
    pub domain: Domain,
    /// Forces double precision for R and F (needs `cl_khr_fp64`), whatever `precision` says
    /// (the older flag); after [`Hc12::new`](super::Hc12::new), whether double is used.
    pub double: bool,
    /// The precision of R and F: `Auto` (the default) is double where the device has
    /// `cl_khr_fp64`, else single; resolved by [`Hc12::new`](super::Hc12::new) to what is used.
    pub precision: Precision,
}

impl Hc12Params {
    /// Real parameters of `bits` bits on one interval, mask order 2, the whole string, float.
    pub fn real(n_param: u32, bits: u32, a: f64, b: f64) -> Self {
        Hc12Params {
            n_param,
            bits: vec![bits],
            bounds: vec![(a, b)],
            mask_order: 2,
            start_bit: 0,
            bit_length: 0,
            domain: Domain::Real,
            double: false,
            precision: Precision::Auto,
        }
    }

    /// `v` per parameter: one value for all is expanded to `n` (fallibly: `n` comes from the
    /// caller, and [`Hc12::new`](super::Hc12::new) checks the bit total before expanding).
    pub(super) fn per_param<T: Copy>(v: &[T], n: usize, arg: &'static str) -> Result<Vec<T>> {
        match v.len() {
            1 => crate::error::try_filled(n, v[0], arg),
            l if l == n => crate::error::try_expand(v, n, arg),
            l => Err(Error::arg(
                arg,
                format!("{l} values; expected 1 or nParam = {n}"),
            )),
        }
    }
}

/// Where a run starts (thesis `startSeed`).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum StartPoint {
    /// A random string from the run's seed.
    #[default]
    Random,
    /// The all-zero string (`bit-zeros`).
    Zeros,
    /// A real vector, quantised onto the parameters' grids and encoded.
    Vector(Vec<f64>),
}

/// Options of [`Hc12::run`](crate::hc12::general::Hc12::run) (thesis `run`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    pub coding: Coding,
    pub sense: Sense,
    /// The stop; its budget counts runs (at least 1; None: until the time limit, the stop
    /// token or the evaluations end the search): the first from `start`, the others random.
    pub stop: Stop,
    pub start: StartPoint,
    pub seed: u64,
    /// Cap on iterations per run without a tabu list.
    pub max_iterations: u32,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            coding: Coding::Gray,
            sense: Sense::Min,
            stop: Stop::budget(1),
            start: StartPoint::Random,
            seed: 1,
            max_iterations: 1_000_000,
        }
    }
}

/// One run's figures.
#[derive(Clone, Debug, Serialize)]
pub struct RunFigures {
    pub value: f64,
    pub iterations: u32,
}

/// The result of [`Hc12::run`](crate::hc12::general::Hc12::run): the best over all runs.
#[derive(Clone, Debug, Serialize)]
pub struct Hc12RunResult {
    pub value: f64,
    /// The best string as stored (Gray-coded under `GC`, the thesis's `K_GC`), one word per parameter.
    pub string: Vec<u32>,
    /// Its decoded integers.
    pub integers: Vec<u32>,
    /// Its real parameters.
    pub reals: Vec<f64>,
    /// Iterations of the best run.
    pub iterations: u32,
    pub evaluations: u64,
    pub seconds: f64,
    pub runs: Vec<RunFigures>,
    /// Why the search ended.
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
    /// The precision the solver computes in (resolved at creation).
    pub precision: Precision,
}

/// Kernel timings from OpenCL profiling events: launches and nanoseconds per kernel.
pub type Profile = BTreeMap<&'static str, (u64, u64)>;
