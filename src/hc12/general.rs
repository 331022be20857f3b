//! The general HC12 solver (thesis 000, 2.2, 5.1.2; docs/HC12.md): parameters of 1 to 32 bits
//! each (binary or Gray coded) mapped to binary, integer or real domains, any objective of the
//! objective contract (a catalogue function, a user's OpenCL source, a host callback), `min` or
//! `max`, restarts, and the tabu list of `tabu.rs`.

use crate::device::{cl_error, event_ns, work_group_size, Backend, DeviceBuffer, Queue};
use crate::error::{Error, Result};
use crate::hc12::tabu::{tabu_options, DeviceTabu, TabuConfig};
use crate::hc12::{binary_to_gray, enqueue_argmin, gray_to_binary, Neighbourhood};
use crate::objective::{fp_bytes, fp_values as fp_from_bytes, Objective};
use crate::rng::Philox;
use opencl3::kernel::{ExecuteKernel, Kernel};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

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
    /// Runs (restarts); the first from `start`, the others random.
    pub runs: u32,
    pub start: StartPoint,
    pub seed: u64,
    /// Cap on iterations per run without a tabu list.
    pub max_iterations: u32,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { coding: Coding::Gray, sense: Sense::Min, runs: 1, start: StartPoint::Random, seed: 1, max_iterations: 1_000_000 }
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
pub struct Hc12Result {
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
    /// build options without the coding, the sense and the tabu capacity
    options: String,
    kernels: Option<Kernels>,
    bufs: Buffers,
    tabu: Option<TabuConfig>,
    /// Print every kernel launch to stderr (thesis `kernel-verbose`).
    pub verbose: bool,
    /// When set, kernel timings are summed here (thesis `profiler-on` / `profiler-output`).
    pub profile: Option<Profile>,
}

/// The kernels of one build: (coding, sense, tabu capacity) are build-time constants.
struct Kernels {
    built_for: (Coding, Sense, usize),
    eval: Kernel,
    decode: Kernel,
    argmin: Kernel,
    list: Option<DeviceTabu>,
    wg: usize,
    wg2: usize,
    groups: usize,
}

struct Buffers {
    k: DeviceBuffer<u32>,
    bit_param: DeviceBuffer<u32>,
    bit_mask: DeviceBuffer<u32>,
    lo: DeviceBuffer<u8>,
    step: DeviceBuffer<u8>,
    u: DeviceBuffer<u32>,
    r: DeviceBuffer<u8>,
    data: DeviceBuffer<u8>,
    f: DeviceBuffer<u8>,
    group_best: DeviceBuffer<u64>,
    out: DeviceBuffer<u64>,
    no_tabu: DeviceBuffer<u32>,
}

impl Buffers {
    /// The arguments `hc12g_decode` and `hc12g_eval` begin with: K, the bit tables, the
    /// intervals and the two matrices (only one of which the objective reads).
    ///
    /// # Safety
    /// `e` must be one of those two kernels (the order and types above are theirs).
    unsafe fn set_string_args(&self, e: &mut ExecuteKernel) {
        // SAFETY: the caller's contract; OpenCL copies the handles when they are set.
        unsafe {
            e.set_arg(self.k.cl())
                .set_arg(self.bit_param.cl())
                .set_arg(self.bit_mask.cl())
                .set_arg(self.lo.cl())
                .set_arg(self.step.cl())
                .set_arg(self.u.cl())
                .set_arg(self.r.cl());
        }
    }
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
        let options = format!(
            "-DFT_KIND={} -DFP={fp} -DFP_DOUBLE={} {} -DHC_ROWS={rows}u -DHC_NPARAM={n}u -DHC_DOMAIN={} \
             -DHC_EXTERNAL_F={} -DHC_BITLEN={} -DHC_START={} -DHC_ORDER={} -DHC_NBIT=1",
            if params.double { 4 } else { 3 },
            params.double as u32,
            if external { String::new() } else { objective.build_options(params.double) },
            params.domain as u32,
            external as u32,
            nb.bit_length,
            nb.start_bit,
            nb.mask_order,
        );
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
            group_best: queue.buffer(2, "group_best")?,
            out: queue.buffer(2, "out")?,
            no_tabu: queue.buffer_from(&[0u32; 2], "no tabu")?,
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
            options,
            kernels: None,
            bufs,
            tabu: None,
            verbose: false,
            profile: None,
        };
        // build now, so that a user source that does not compile fails here
        s.kernels(Coding::Gray, Sense::Min)?;
        Ok(s)
    }

    /// The kernels for (coding, sense) and the tabu capacity in use, built when they differ from
    /// the last build (a new tabu list starts empty).
    fn kernels(&mut self, coding: Coding, sense: Sense) -> Result<&mut Kernels> {
        let tabu_len = self.tabu.as_ref().map_or(0, |c| c.max_length);
        let want = (coding, sense, tabu_len);
        if self.kernels.as_ref().is_none_or(|k| k.built_for != want) {
            self.kernels = None;
            self.kernels = Some(self.build(want)?);
        }
        Ok(self.kernels.as_mut().expect("built above"))
    }

    fn build(&self, (coding, sense, tabu_len): (Coding, Sense, usize)) -> Result<Kernels> {
        let ctx = self.queue.ctx().clone();
        let mut src = String::new();
        for f in ["common.cl", "tabu.cl", "hc12.cl"] {
            src += &crate::device::kernel_source(f)?;
            src.push('\n');
        }
        if !matches!(self.objective, Objective::Callback(_)) {
            src += &self.objective.program_source()?;
            src.push('\n');
        }
        src += &crate::device::kernel_source("hc12_eval.cl")?;
        let words = self.params.n_param as usize;
        let opts = format!(
            "{} -DHC_GRAY={} -DHC_MAX={} {}",
            self.options,
            (coding == Coding::Gray) as u32,
            (sense == Sense::Max) as u32,
            tabu_options(tabu_len.max(1), words)
        );
        let program = ctx.program_from_source(&src, &opts)?;
        let eval = self.queue.kernel(&program, "hc12g_eval")?;
        let wg = work_group_size(&ctx, &eval, 256);
        let argmin = self.queue.kernel(&program, "hc12_argmin_groups")?;
        Ok(Kernels {
            built_for: (coding, sense, tabu_len),
            wg2: work_group_size(&ctx, &argmin, 256),
            groups: (self.nb.rows as usize).div_ceil(wg),
            decode: self.queue.kernel(&program, "hc12g_decode")?,
            list: if tabu_len > 0 { Some(DeviceTabu::new(&self.queue, &program, tabu_len, words)?) } else { None },
            eval,
            argmin,
            wg,
        })
    }

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

    fn record(&mut self, name: &'static str, ev: &opencl3::event::Event, global: usize, wg: usize) {
        if self.verbose {
            eprintln!("metaopt: kernel {name}: {global} work-items, work-group {wg}");
        }
        if let Some(p) = &mut self.profile {
            let e = p.entry(name).or_insert((0, 0));
            e.0 += 1;
            e.1 += event_ns(ev);
        }
    }

    /// Every row's value for string `k` (for tests and callbacks), in row order.
    pub fn all_values(&mut self, k: &[u32], coding: Coding) -> Result<Vec<f64>> {
        self.check_string(k)?;
        self.bufs.k.write(&self.queue, k)?;
        self.evaluate(coding, Sense::Min, true, false, None)?;
        let rows = self.nb.rows as usize;
        let fp = if self.params.double { 8 } else { 4 };
        let mut raw = vec![0u8; rows * fp];
        self.bufs.f.read(&self.queue, &mut raw)?;
        Ok(fp_from_bytes(&raw, self.params.double))
    }

    fn check_string(&self, k: &[u32]) -> Result<()> {
        if k.len() != self.params.n_param as usize {
            return Err(Error::arg("K", format!("{} words; expected nParam = {}", k.len(), self.params.n_param)));
        }
        for (p, (&w, &b)) in k.iter().zip(&self.params.bits).enumerate() {
            if b < 32 && w >> b != 0 {
                return Err(Error::arg("K", format!("word {p} = {w} has bits above its {b} bits")));
            }
        }
        Ok(())
    }

    /// A host callback's values: the matrix it reads is made on the device, read back, handed to
    /// the callback row by row, and its values go back for the selection kernel.
    fn callback_values(&mut self, coding: Coding, sense: Sense) -> Result<()> {
        let Objective::Callback(cb) = &self.objective else { return Ok(()) };
        let cb = cb.clone();
        let (rows, n) = (self.nb.rows as usize, self.params.n_param as usize);
        self.kernels(coding, sense)?;
        let k = self.kernels.as_ref().expect("built above");
        let (wg, global) = (k.wg, k.groups * k.wg);
        // SAFETY: the arguments match `hc12g_decode`; the buffers outlive the kernel.
        let ev = unsafe {
            let mut e = ExecuteKernel::new(&k.decode);
            self.bufs.set_string_args(&mut e);
            e
                .set_global_work_size(global)
                .set_local_work_size(wg)
                .enqueue_nd_range(self.queue.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(hc12g_decode)"))?
        };
        self.queue.finish()?;
        self.record("hc12g_decode", &ev, global, wg);
        let columns: Vec<f64> = match self.params.domain {
            Domain::Real => {
                let mut raw = vec![0u8; rows * n * if self.params.double { 8 } else { 4 }];
                self.bufs.r.read(&self.queue, &mut raw)?;
                fp_from_bytes(&raw, self.params.double)
            }
            _ => {
                let mut u = vec![0u32; rows * n];
                self.bufs.u.read(&self.queue, &mut u)?;
                u.into_iter().map(f64::from).collect()
            }
        };
        // column-wise on the device, row by row for the callback
        let mut x = vec![0.0; rows * n];
        for p in 0..n {
            for r in 0..rows {
                x[r * n + p] = columns[p * rows + r];
            }
        }
        let mut f = vec![0.0; rows];
        cb.call(&x, rows, n, &mut f)?;
        self.bufs.f.write(&self.queue, &fp_bytes(&f, self.params.double))?;
        Ok(())
    }

    /// One evaluation of the neighbourhood of the uploaded K: (value, row) of the best row.
    fn evaluate(&mut self, coding: Coding, sense: Sense, store_f: bool, tabu_check: bool, aspiration: Option<f64>) -> Result<(f64, u64)> {
        self.callback_values(coding, sense)?;
        let double = self.params.double;
        let store = store_f as u32;
        let asp = aspiration.is_some() as u32;
        // the selection compares -f when maximising, so the aspiration bound is turned too
        let key = aspiration.map_or(0.0, |b| if sense == Sense::Max { -b } else { b });
        let best_bits = if double { key.to_bits() } else { (key as f32).to_bits() as u64 };
        let fp = if double { 8 } else { 4 };
        let groups = self.kernels(coding, sense)?.groups;
        if groups * 2 > self.bufs.group_best.len() {
            self.bufs.group_best = self.queue.buffer(2 * groups, "group_best")?;
        }
        let k = self.kernels.as_ref().expect("built above");
        let (global, wg, wg2, groups) = (k.groups * k.wg, k.wg, k.wg2, k.groups as u32);
        let (tx, ti, tm) = match &k.list {
            Some(t) => (&t.x, t.index(), &t.meta),
            None => (&self.bufs.no_tabu, &self.bufs.no_tabu, &self.bufs.no_tabu),
        };
        let check = (tabu_check && k.list.is_some()) as u32;
        // SAFETY: arguments match `hc12g_eval` and `hc12_argmin_groups`; the buffers outlive
        // the kernels, which finish before the read below (in-order queue).
        let (e1, e2) = unsafe {
            let mut e = ExecuteKernel::new(&k.eval);
            self.bufs.set_string_args(&mut e);
            let e1 = e
                .set_arg(self.bufs.data.cl())
                .set_arg(self.bufs.f.cl())
                .set_arg(&store)
                .set_arg(tx.cl())
                .set_arg(ti.cl())
                .set_arg(tm.cl())
                .set_arg(&check)
                .set_arg(&asp)
                .set_arg(&best_bits)
                .set_arg(self.bufs.group_best.cl())
                .set_arg_local_buffer(wg * fp)
                .set_arg_local_buffer(wg * 4)
                .set_global_work_size(global)
                .set_local_work_size(wg)
                .enqueue_nd_range(self.queue.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(hc12g_eval)"))?;
            let e2 = enqueue_argmin(&self.queue, &k.argmin, &self.bufs.group_best, groups, &self.bufs.out, wg2, fp)?;
            (e1, e2)
        };
        let mut out = [0u64; 2];
        self.bufs.out.read(&self.queue, &mut out)?;
        self.record("hc12g_eval", &e1, global, wg);
        self.record("hc12_argmin_groups", &e2, wg2, wg2);
        let key = if self.params.double { f64::from_bits(out[0]) } else { f32::from_bits(out[0] as u32) as f64 };
        let value = if sense == Sense::Max { -key } else { key };
        Ok((value, out[1]))
    }

    /// The value of string `k` (its row 0).
    fn value_of(&mut self, k: &[u32], coding: Coding, sense: Sense) -> Result<f64> {
        self.bufs.k.write(&self.queue, k)?;
        let v = self.all_values_uploaded(coding, sense)?;
        Ok(v)
    }

    fn all_values_uploaded(&mut self, coding: Coding, sense: Sense) -> Result<f64> {
        self.evaluate(coding, sense, true, false, None)?;
        let fp = if self.params.double { 8 } else { 4 };
        let mut raw = vec![0u8; fp];
        self.bufs.f.read(&self.queue, &mut raw)?;
        Ok(fp_from_bytes(&raw, self.params.double)[0])
    }

    /// `nRuns` runs of HC12 (with the tabu list when one is set); the best over all runs.
    pub fn run(&mut self, opts: &RunOptions) -> Result<Hc12Result> {
        if opts.runs == 0 {
            return Err(Error::arg("nRuns", "0; expected at least 1"));
        }
        if opts.max_iterations == 0 {
            return Err(Error::arg("maxIterations", "0; expected at least 1"));
        }
        let t0 = Instant::now();
        let better = |a: f64, b: f64| if opts.sense == Sense::Max { a > b } else { a < b };
        let mut best: Option<(f64, Vec<u32>, u32)> = None;
        let mut runs = Vec::new();
        let mut evaluations = 0u64;
        for run in 0..opts.runs {
            let mut rng = Philox::new(opts.seed, run);
            let mut k = match (&opts.start, run) {
                (StartPoint::Zeros, 0) => vec![0; self.params.n_param as usize],
                (StartPoint::Vector(x), 0) => self.encode(x, opts.coding)?,
                _ => self.random_string(&mut rng),
            };
            let tabu = self.tabu.clone();
            self.kernels(opts.coding, opts.sense)?;
            if let Some(t) = self.kernels.as_mut().and_then(|k| k.list.as_mut()) {
                t.clear(&self.queue)?;
            }
            let max_iterations = tabu.as_ref().map_or(opts.max_iterations, |c| c.max_iterations);
            let mut cur = self.value_of(&k, opts.coding, opts.sense)?;
            evaluations += self.nb.rows;
            let mut run_best = (cur, k.clone());
            let (mut iterations, mut no_improve) = (0u32, 0u32);
            while iterations < max_iterations {
                self.bufs.k.write(&self.queue, &k)?;
                let mut check = false;
                let mut aspiration = None;
                if let Some(cfg) = &tabu {
                    if let Some(t) = self.kernels.as_mut().and_then(|k| k.list.as_mut()) {
                        t.insert(&self.queue, &self.bufs.k, 0)?;
                    }
                    let below = match opts.sense {
                        Sense::Min => cfg.activation_limit.is_none_or(|l| cur < l),
                        Sense::Max => cfg.activation_limit.is_none_or(|l| cur > l),
                    };
                    check = below;
                    aspiration = cfg.aspiration.then_some(run_best.0);
                }
                let (v, row) = self.evaluate(opts.coding, opts.sense, false, check, aspiration)?;
                iterations += 1;
                evaluations += self.nb.rows;
                if row == 0 || (check && !v.is_finite()) {
                    break;
                }
                let mut bits = [0u32; 3];
                let (rb, h) = self.nb.row_bits(row);
                bits[..h].copy_from_slice(&rb[..h]);
                for &b in &bits[..h] {
                    k[self.bit_param[b as usize] as usize] ^= self.bit_mask[b as usize];
                }
                cur = v;
                if better(cur, run_best.0) {
                    run_best = (cur, k.clone());
                    no_improve = 0;
                } else {
                    no_improve += 1;
                    if tabu.as_ref().is_some_and(|c| no_improve >= c.max_no_improve) {
                        break;
                    }
                }
            }
            runs.push(RunFigures { value: run_best.0, iterations });
            if best.as_ref().is_none_or(|b| better(run_best.0, b.0)) {
                best = Some((run_best.0, run_best.1, iterations));
            }
        }
        let (value, string, iterations) = best.expect("at least one run");
        let (integers, reals) = self.decode(&string, opts.coding);
        Ok(Hc12Result { value, string, integers, reals, iterations, evaluations, seconds: t0.elapsed().as_secs_f64(), runs })
    }

    pub fn objective(&self) -> &Objective {
        &self.objective
    }

    /// Shares the objective with callers that rebuild solvers.
    pub fn objective_arc(&self) -> Arc<Objective> {
        Arc::new(self.objective.clone())
    }
}
