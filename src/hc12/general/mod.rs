//! The general HC12 solver (thesis 000, 2.2, 5.1.2): parameters of 1 to 32 bits each (binary or
//! Gray coded) mapped to binary, integer or real domains, any objective of the objective contract
//! (a catalogue function, a user's OpenCL source, a host callback), `min` or `max`, restarts, and
//! the tabu list of `tabu.rs`. [`Hc12`] is the [`Landscape`] the engine climbs
//! (`src/hc12/climb.rs`, `src/hc12/restarts.rs`); its device side (kernels, the host-callback
//! objective, profiling) is `device.rs`. There is no CPU twin.

mod device;

use self::device::{Buffers, Kernels};
use crate::device::{Backend, ProgramSpec, Queue};
use crate::error::{Error, Result};
use crate::hc12::restarts::{restarts, Stop};
use crate::hc12::tabu::TabuConfig;
use crate::hc12::{binary_to_gray, gray_to_binary, Landscape, Neighbourhood, TabuQuery};
use crate::objective::{fp_bytes, Objective};
use crate::rng::Philox;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the objective reads (only that matrix is made: the thesis's `params:noR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
pub enum Coding {
    /// `BC`: plain binary.
    Binary,
    /// `GC`: Gray code (the default).
    #[default]
    Gray,
}

impl Coding {
    pub fn from_name(s: &str) -> Result<Self> {
        match s {
            "BC" | "bc" => Ok(Coding::Binary),
            "GC" | "gc" => Ok(Coding::Gray),
            _ => Err(Error::arg("mCode", format!("`{s}`; expected `GC` (Gray) or `BC` (binary)"))),
        }
    }
}

/// `funOpt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
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
    /// Double precision for R and F (needs `cl_khr_fp64`).
    pub double: bool,
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
        }
    }

    fn per_param<T: Copy>(v: &[T], n: usize, arg: &'static str) -> Result<Vec<T>> {
        match v.len() {
            1 => Ok(vec![v[0]; n]),
            l if l == n => Ok(v.to_vec()),
            l => Err(Error::arg(arg, format!("{l} values; expected 1 or nParam = {n}"))),
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

/// Options of [`Hc12::run`] (thesis `run`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    pub coding: Coding,
    pub sense: Sense,
    /// Runs (`max_runs`, at least 1): the first from `start`, the others random.
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
            stop: Stop::default(),
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

/// The result of [`Hc12::run`]: the best over all runs.
#[derive(Clone, Debug, Serialize)]
pub struct Hc12SolveResult {
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
}

/// Kernel timings from OpenCL profiling events: launches and nanoseconds per kernel.
pub type Profile = BTreeMap<&'static str, (u64, u64)>;

/// The general HC12 solver on one device.
pub struct Hc12 {
    params: Hc12Params,
    objective: Objective,
    nb: Neighbourhood,
    /// per string bit: its parameter and value-bit mask
    bit_param: Vec<u32>,
    bit_mask: Vec<u32>,
    lo: Vec<f64>,
    step: Vec<f64>,
    queue: Queue,
    /// The program without the coding, the sense and the tabu capacity.
    spec: ProgramSpec,
    kernels: Option<Kernels>,
    bufs: Buffers,
    tabu: Option<TabuConfig>,
    /// Print every kernel launch to stderr (thesis `kernel-verbose`).
    pub verbose: bool,
    /// When set, kernel timings are summed here (thesis `profiler-on` / `profiler-output`).
    pub profile: Option<Profile>,
    /// The run in progress: its coding and sense, the current string and its value.
    coding: Coding,
    sense: Sense,
    k: Vec<u32>,
    cur: f64,
}

impl Hc12 {
    /// Checks the parameters, builds the kernels for `objective` and allocates the matrices on
    /// the device in use (or `device`).
    pub fn new(params: Hc12Params, objective: Objective, backend: Backend) -> Result<Self> {
        let n = params.n_param as usize;
        if n == 0 {
            return Err(Error::arg("nParam", "0; expected at least 1"));
        }
        let bits = Hc12Params::per_param(&params.bits, n, "nBitParam")?;
        if let Some(b) = bits.iter().find(|b| !(1..=32).contains(*b)) {
            return Err(Error::arg("nBitParam", format!("{b} bits; expected 1..32")));
        }
        let bounds = Hc12Params::per_param(&params.bounds, n, "dodParam")?;
        crate::objective::check_intervals("dodParam", &bounds, params.double)?;
        let total: u64 = bits.iter().map(|&b| b as u64).sum();
        // a window of more bits would exceed the row limit anyway; this keeps the sum in range
        if total > (1 << 24) {
            return Err(Error::arg("nParam", format!("{n} parameters of {total} bits in all; at most 2^24 bits")));
        }
        let total = total as u32;
        let nb = Neighbourhood::new(total, 1, params.mask_order, params.start_bit, params.bit_length)?;
        let (mut bit_param, mut bit_mask) = (Vec::new(), Vec::new());
        for (p, &nbit) in bits.iter().enumerate() {
            for q in 0..nbit {
                bit_param.push(p as u32);
                bit_mask.push(1u32 << (nbit - 1 - q));
            }
        }
        let lo: Vec<f64> = bounds.iter().map(|b| b.0).collect();
        let step: Vec<f64> = bounds.iter().zip(&bits).map(|(b, &nbit)| (b.1 - b.0) / ((1u64 << nbit) - 1) as f64).collect();
        if params.domain == Domain::Real {
            objective.check_dims(n)?;
        }
        let ctx = backend.context("the general HC12")?;
        if params.double {
            ctx.require_fp64()?;
        }
        let queue = ctx.queue()?;
        let rows = nb.rows as usize;
        let external = matches!(objective, Objective::Callback(_));
        let fp = if params.double { "double" } else { "float" };
        let mut spec = ProgramSpec::files(&["common.cl", "tabu.cl", "hc12.cl"])
            .define("FT_KIND", if params.double { 4 } else { 3 })
            .define("FP", fp)
            .define("FP_DOUBLE", params.double as u32);
        if !external {
            spec = spec.flags(&objective.build_options(params.double)).text(objective.program_source()?);
        }
        let spec = spec
            .file("hc12_eval.cl")
            .define_u("HC_ROWS", rows)
            .define_u("HC_NPARAM", n)
            .define("HC_DOMAIN", params.domain as u32)
            .define("HC_EXTERNAL_F", external as u32)
            .define("HC_BITLEN", nb.bit_length)
            .define("HC_START", nb.start_bit)
            .define("HC_ORDER", nb.mask_order)
            .define("HC_NBIT", 1);
        let fp_size = if params.double { 8 } else { 4 };
        let data = if external { Vec::new() } else { objective.data_bytes(n, params.double)? };
        let matrix_len = rows * n;
        let (u_len, r_len) = match params.domain {
            Domain::Real => (1, matrix_len * fp_size),
            _ => (matrix_len, fp_size),
        };
        let bufs = Buffers {
            k: queue.buffer(n, "K")?,
            bit_param: queue.buffer_from(&bit_param, "bit_param")?,
            bit_mask: queue.buffer_from(&bit_mask, "bit_mask")?,
            lo: queue.buffer_from(&fp_bytes(&lo, params.double), "lo")?,
            step: queue.buffer_from(&fp_bytes(&step, params.double), "step")?,
            u: queue.buffer(u_len, if params.domain == Domain::Binary { "B" } else { "I" })?,
            r: queue.buffer(r_len, "R")?,
            data: queue.buffer_from(&if data.is_empty() { vec![0u8; 8] } else { data }, "func-data")?,
            f: queue.buffer(rows * fp_size, "F")?,
        };
        let mut s = Hc12 {
            params: Hc12Params { bits, bounds, ..params },
            objective,
            nb,
            bit_param,
            bit_mask,
            lo,
            step,
            queue,
            spec,
            kernels: None,
            bufs,
            tabu: None,
            verbose: false,
            profile: None,
            coding: Coding::Gray,
            sense: Sense::Min,
            k: Vec::new(),
            cur: 0.0,
        };
        // build now, so that a user source that does not compile fails here
        s.kernels(Coding::Gray, Sense::Min)?;
        Ok(s)
    }

    /// The kernels for (coding, sense) and the tabu capacity in use, built when they differ from
    /// the last build (a new tabu list starts empty).
    pub fn params(&self) -> &Hc12Params {
        &self.params
    }

    pub fn rows(&self) -> u64 {
        self.nb.rows
    }

    pub fn string_bits(&self) -> u32 {
        self.nb.string_bits()
    }

    pub fn backend_description(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("device {}: {} ({}, {})", i.index, i.name, i.platform, i.kind.as_str())
    }

    /// Turns the tabu list on (thesis `set-tabu-list`); each run starts with an empty list.
    pub fn init_tabu_list(&mut self, cfg: TabuConfig) -> Result<()> {
        cfg.check()?;
        self.tabu = Some(cfg);
        Ok(())
    }

    pub fn clear_tabu_list(&mut self) {
        self.tabu = None;
    }

    pub fn tabu_config(&self) -> Option<&TabuConfig> {
        self.tabu.as_ref()
    }

    /// Replaces the objective's data buffer (thesis `func-data`; empty = `func-data-clean`).
    pub fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        match &mut self.objective {
            Objective::Source { data: d, .. } => *d = data.to_vec(),
            _ => return Err(Error::arg("func-data", "only a user OpenCL source objective takes a data buffer")),
        }
        let bytes = if data.is_empty() { vec![0u8; 8] } else { data.to_vec() };
        self.bufs.data = self.queue.buffer_from(&bytes, "func-data")?;
        Ok(())
    }

    /// The integer of parameter p's word under `coding`.
    fn decode_word(w: u32, coding: Coding) -> u32 {
        match coding {
            Coding::Gray => gray_to_binary(w),
            Coding::Binary => w,
        }
    }

    /// Encodes a real vector: quantised to the nearest grid point of each parameter, clamped.
    pub fn encode(&self, x: &[f64], coding: Coding) -> Result<Vec<u32>> {
        let n = self.params.n_param as usize;
        if x.len() != n {
            return Err(Error::arg("startSeed", format!("{} values; expected nParam = {n}", x.len())));
        }
        x.iter()
            .enumerate()
            .map(|(p, &v)| {
                if !v.is_finite() {
                    return Err(Error::arg("startSeed", format!("value {p} is {v}")));
                }
                let max = ((1u64 << self.params.bits[p]) - 1) as f64;
                let i = ((v - self.lo[p]) / self.step[p]).round().clamp(0.0, max) as u32;
                Ok(match coding {
                    Coding::Gray => binary_to_gray(i),
                    Coding::Binary => i,
                })
            })
            .collect()
    }

    /// The integers and reals of string `k`.
    pub fn decode(&self, k: &[u32], coding: Coding) -> (Vec<u32>, Vec<f64>) {
        let ints: Vec<u32> = k.iter().map(|&w| Self::decode_word(w, coding)).collect();
        let reals = ints.iter().enumerate().map(|(p, &i)| self.lo[p] + i as f64 * self.step[p]).collect();
        (ints, reals)
    }

    fn random_string(&self, rng: &mut Philox) -> Vec<u32> {
        self.params
            .bits
            .iter()
            .map(|&b| if b == 32 { rng.next_u32() } else { rng.next_u32() & ((1u32 << b) - 1) })
            .collect()
    }


    /// `stop.max_runs` runs of HC12 (with the tabu list when one is set); the best over all runs.
    pub fn run(&mut self, opts: &RunOptions) -> Result<Hc12SolveResult> {
        if opts.stop.max_runs == 0 {
            return Err(Error::arg("nRuns", "0; expected at least 1"));
        }
        if opts.max_iterations == 0 {
            return Err(Error::arg("maxIterations", "0; expected at least 1"));
        }
        opts.stop.check("nRuns", "a time limit or a target to end")?;
        self.coding = opts.coding;
        self.sense = opts.sense;
        let tabu = self.tabu.clone();
        let next_start = |s: &mut Self, run: u32, _: Option<&_>| -> Result<Vec<u32>> {
            let mut rng = Philox::new(opts.seed, run);
            Ok(match (&opts.start, run) {
                (StartPoint::Zeros, 0) => vec![0; s.params.n_param as usize],
                (StartPoint::Vector(x), 0) => s.encode(x, opts.coding)?,
                _ => s.random_string(&mut rng),
            })
        };
        let out = restarts(self, &opts.stop, opts.max_iterations, tabu.as_ref(), next_start, |_| {})?;
        let (integers, reals) = self.decode(&out.best, opts.coding);
        Ok(Hc12SolveResult {
            value: out.value,
            string: out.best,
            integers,
            reals,
            iterations: out.best_run_iterations,
            evaluations: out.evaluations,
            seconds: out.seconds,
            runs: out.per_run.iter().map(|&(value, iterations)| RunFigures { value, iterations }).collect(),
        })
    }

    pub fn objective(&self) -> &Objective {
        &self.objective
    }

    /// Shares the objective with callers that rebuild solvers.
    pub fn objective_arc(&self) -> Arc<Objective> {
        Arc::new(self.objective.clone())
    }
}

/// The climb over one string: the value of a row comes from the device (and the host callback),
/// a move flips the row's bits in the host's copy.
impl Landscape for Hc12 {
    type Value = f64;
    type Start = Vec<u32>;
    /// The best string.
    type Best = Vec<u32>;

    fn start_run(&mut self, k: Vec<u32>) -> Result<u64> {
        let (coding, sense) = (self.coding, self.sense);
        self.kernels(coding, sense)?;
        self.cur = self.value_of(&k, coding, sense)?;
        self.k = k;
        Ok(self.nb.rows)
    }

    fn reset_tabu(&mut self, _cfg: &TabuConfig) -> Result<()> {
        // the list was made with the kernels (`start_run`), for the capacity of `self.tabu`
        match &mut self.kernels {
            Some(k) => k.search.clear_tabu(&self.queue),
            None => Ok(()),
        }
    }

    fn rows(&self) -> u64 {
        self.nb.rows
    }

    fn best_row(&mut self, q: &TabuQuery<f64>) -> Result<(f64, u64)> {
        self.bufs.k.write(&self.queue, &self.k)?;
        if q.insert {
            if let Some(k) = self.kernels.as_mut().filter(|k| k.search.tabu().is_some()) {
                k.search.insert(&self.queue, &self.bufs.k, 0)?;
            }
        }
        let (coding, sense) = (self.coding, self.sense);
        self.evaluate(coding, sense, false, q.check, q.aspiration.then_some(q.best))
    }

    fn excluded(&self, value: f64, tabu_checked: bool) -> bool {
        tabu_checked && !value.is_finite()
    }

    fn apply_row(&mut self, row: u64, value: f64, _iteration: u32) -> Result<()> {
        let (bits, h) = self.nb.row_bits(row);
        for &b in &bits[..h] {
            self.k[self.bit_param[b as usize] as usize] ^= self.bit_mask[b as usize];
        }
        self.cur = value;
        Ok(())
    }

    fn current(&self) -> f64 {
        self.cur
    }

    fn best_so_far(&self) -> Vec<u32> {
        self.k.clone()
    }

    fn better(&self, a: f64, b: f64) -> bool {
        if self.sense == Sense::Max { a > b } else { a < b }
    }

    fn better_than_limit(&self, v: f64, limit: f64) -> bool {
        self.better(v, limit)
    }

    fn as_f64(&self, v: f64) -> f64 {
        v
    }
}
