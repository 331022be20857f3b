//! The general HC12 on a device: the program (`cl/hc12_eval.cl` after the objective's source),
//! the string's matrices, the host-callback objective and the row search (`src/hc12/rows.rs`),
//! with kernel traces and profiling. The climb over it is `mod.rs`'s.

use super::params::{Coding, Domain, Hc12Params, Profile, Sense};
use crate::device::{cl_error, event_ns, Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::{Error, Result};
use crate::hc12::restarts::Checkpoints;
use crate::hc12::rows::RowSearch;
use crate::hc12::tabu::{tabu_defines, TabuConfig};
use crate::hc12::{binary_to_gray, gray_to_binary, Neighbourhood};
use crate::objective::{fp_bytes, fp_values as fp_from_bytes, Objective};
use crate::rng::Philox;
use opencl3::kernel::{ExecuteKernel, Kernel};
use std::sync::Arc;

/// The general HC12 solver on one device.
pub struct Hc12 {
    pub(super) params: Hc12Params,
    pub(super) objective: Objective,
    pub(super) nb: Neighbourhood,
    /// per string bit: its parameter and value-bit mask
    pub(super) bit_param: Vec<u32>,
    pub(super) bit_mask: Vec<u32>,
    pub(super) lo: Vec<f64>,
    pub(super) step: Vec<f64>,
    pub(super) queue: Queue,
    /// The program without the coding, the sense and the tabu capacity.
    pub(super) spec: ProgramSpec,
    pub(super) kernels: Option<Kernels>,
    pub(super) bufs: Buffers,
    pub(super) tabu: Option<TabuConfig>,
    /// Print every kernel launch to stderr (thesis `kernel-verbose`).
    pub verbose: bool,
    /// When set, kernel timings are summed here (thesis `profiler-on` / `profiler-output`).
    pub profile: Option<Profile>,
    /// The run in progress: its coding and sense, the current string and its value.
    pub(super) coding: Coding,
    pub(super) sense: Sense,
    pub(super) k: Vec<u32>,
    pub(super) cur: f64,
    /// The course the next run continues ([`Hc12::load_state`]), and the last run's course
    /// with its checkpoint header ([`Hc12::save_state`]).
    pub(super) checkpoints: Checkpoints<Vec<u32>, f64>,
}

/// The most bits of a general HC12 string (all parameters together).
const MAX_STRING_BITS: u64 = 1 << 24;

impl Hc12 {
    /// Checks the parameters, builds the kernels for `objective` and allocates the matrices on
    /// the device in use (or `device`).
    pub fn new(params: Hc12Params, objective: Objective, backend: Backend) -> Result<Self> {
        let n = params.n_param as usize;
        if n == 0 {
            return Err(Error::arg("nParam", "0; expected at least 1"));
        }
        // the size limit is checked before anything of size nParam is made: each parameter has
        // at least one bit, so more than 2^24 parameters exceed the bit limit below
        if n > MAX_STRING_BITS as usize {
            return Err(Error::arg(
                "nParam",
                format!("{n} parameters; at most 2^24 bits in all, so at most 2^24 parameters"),
            ));
        }
        if let [b] = params.bits[..] {
            let total = u64::from(b).saturating_mul(n as u64);
            if (1..=32).contains(&b) && total > MAX_STRING_BITS {
                return Err(Error::arg(
                    "nParam",
                    format!("{n} parameters of {b} bits = {total} bits; at most 2^24 bits"),
                ));
            }
        }
        let bits = Hc12Params::per_param(&params.bits, n, "nBitParam")?;
        if let Some(b) = bits.iter().find(|b| !(1..=32).contains(*b)) {
            return Err(Error::arg("nBitParam", format!("{b} bits; expected 1..32")));
        }
        let bounds = Hc12Params::per_param(&params.bounds, n, "dodParam")?;
        let total: u64 = bits.iter().map(|&b| b as u64).sum();
        // a window of more bits would exceed the row limit anyway; this keeps the sum in range
        if total > MAX_STRING_BITS {
            return Err(Error::arg(
                "nParam",
                format!("{n} parameters of {total} bits in all; at most 2^24 bits"),
            ));
        }
        let total = total as u32;
        let nb = Neighbourhood::new(
            total,
            1,
            params.mask_order,
            params.start_bit,
            params.bit_length,
        )?;
        let (mut bit_param, mut bit_mask) = (
            crate::error::try_vec(total as usize, "nBitParam")?,
            crate::error::try_vec(total as usize, "nBitParam")?,
        );
        for (p, &nbit) in bits.iter().enumerate() {
            for q in 0..nbit {
                bit_param.push(p as u32);
                bit_mask.push(1u32 << (nbit - 1 - q));
            }
        }
        let lo: Vec<f64> = bounds.iter().map(|b| b.0).collect();
        let step: Vec<f64> = bounds
            .iter()
            .zip(&bits)
            .map(|(b, &nbit)| (b.1 - b.0) / ((1u64 << nbit) - 1) as f64)
            .collect();
        if params.domain == Domain::Real {
            objective.check_dims(n)?;
        }
        let ctx = backend.context("the general HC12")?;
        // the precision is resolved here, once: Auto is double where the device has fp64
        let mut params = params;
        params.precision = params.precision.resolve(params.double, ctx.info.fp64);
        params.double = params.precision.is_double();
        if params.double {
            ctx.require_fp64()?;
        }
        crate::objective::check_intervals("dodParam", &bounds, params.double)?;
        let queue = ctx.queue()?;
        let rows = nb.rows as usize;
        let external = matches!(objective, Objective::Callback(_));
        let fp = if params.double { "double" } else { "float" };
        let mut spec = ProgramSpec::files(&["common.cl", "tabu.cl", "hc12.cl"])
            .define("FT_KIND", if params.double { 4 } else { 3 })
            .define("FP", fp)
            .define("FP_DOUBLE", params.double as u32);
        if !external {
            spec = spec
                .flags(&objective.build_options(params.double))
                .text(objective.program_source()?);
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
        let data = if external {
            Vec::new()
        } else {
            objective.data_bytes(n, params.double)?
        };
        let matrix_len = crate::error::size_product("nParam", &[rows, n, fp_size])? / fp_size;
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
            u: queue.buffer(
                u_len,
                if params.domain == Domain::Binary {
                    "B"
                } else {
                    "I"
                },
            )?,
            r: queue.buffer(r_len, "R")?,
            data: queue.buffer_from(
                &if data.is_empty() { vec![0u8; 8] } else { data },
                "func-data",
            )?,
            f: queue.buffer(
                crate::error::size_product("maskOrder", &[rows, fp_size])?,
                "F",
            )?,
        };
        let mut s = Hc12 {
            params: Hc12Params {
                bits,
                bounds,
                ..params
            },
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
            checkpoints: Checkpoints::default(),
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

    describe_alias!();

    pub fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        i.describe()
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
            _ => {
                return Err(Error::arg(
                    "func-data",
                    "only a user OpenCL source objective takes a data buffer",
                ))
            }
        }
        let bytes = if data.is_empty() {
            vec![0u8; 8]
        } else {
            data.to_vec()
        };
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
            return Err(Error::arg(
                "startSeed",
                format!("{} values; expected nParam = {n}", x.len()),
            ));
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
        let reals = ints
            .iter()
            .enumerate()
            .map(|(p, &i)| self.lo[p] + i as f64 * self.step[p])
            .collect();
        (ints, reals)
    }

    pub(super) fn random_string(&self, rng: &mut Philox) -> Vec<u32> {
        self.params
            .bits
            .iter()
            .map(|&b| {
                if b == 32 {
                    rng.next_u32()
                } else {
                    rng.next_u32() & ((1u32 << b) - 1)
                }
            })
            .collect()
    }

    pub fn objective(&self) -> &Objective {
        &self.objective
    }

    /// Shares the objective with callers that rebuild solvers.
    pub fn objective_arc(&self) -> Arc<Objective> {
        Arc::new(self.objective.clone())
    }
}

/// The kernels of one build: (coding, sense, tabu capacity) are build-time constants.
pub(super) struct Kernels {
    pub(super) built_for: (Coding, Sense, usize),
    decode: Kernel,
    pub(super) search: RowSearch,
}

pub(super) struct Buffers {
    pub(super) k: DeviceBuffer<u32>,
    pub(super) bit_param: DeviceBuffer<u32>,
    pub(super) bit_mask: DeviceBuffer<u32>,
    pub(super) lo: DeviceBuffer<u8>,
    pub(super) step: DeviceBuffer<u8>,
    pub(super) u: DeviceBuffer<u32>,
    pub(super) r: DeviceBuffer<u8>,
    pub(super) data: DeviceBuffer<u8>,
    pub(super) f: DeviceBuffer<u8>,
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
    pub(super) fn kernels(&mut self, coding: Coding, sense: Sense) -> Result<&mut Kernels> {
        let tabu_len = self.tabu.as_ref().map_or(0, |c| c.max_length);
        let want = (coding, sense, tabu_len);
        if self.kernels.as_ref().is_none_or(|k| k.built_for != want) {
            self.kernels = None;
            self.kernels = Some(self.build(want)?);
        }
        Ok(self.kernels.as_mut().expect("built above"))
    }

    fn build(&self, (coding, sense, tabu_len): (Coding, Sense, usize)) -> Result<Kernels> {
        let words = self.params.n_param as usize;
        let spec = self
            .spec
            .clone()
            .define("HC_GRAY", (coding == Coding::Gray) as u32)
            .define("HC_MAX", (sense == Sense::Max) as u32);
        let program = self
            .queue
            .ctx()
            .build(&tabu_defines(spec, tabu_len.max(1), words))?;
        let fp = if self.params.double { 8 } else { 4 };
        let search = RowSearch::new(
            &self.queue,
            &program,
            "hc12g_eval",
            "clEnqueueNDRangeKernel(hc12g_eval)",
            self.nb.rows,
            fp,
            Some((tabu_len, words)),
        )?;
        Ok(Kernels {
            built_for: (coding, sense, tabu_len),
            decode: self.queue.kernel(&program, "hc12g_decode")?,
            search,
        })
    }

    pub(super) fn record(
        &mut self,
        name: &'static str,
        ev: &opencl3::event::Event,
        global: usize,
        wg: usize,
    ) {
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

    pub(super) fn check_string(&self, k: &[u32]) -> Result<()> {
        if k.len() != self.params.n_param as usize {
            return Err(Error::arg(
                "K",
                format!(
                    "{} words; expected nParam = {}",
                    k.len(),
                    self.params.n_param
                ),
            ));
        }
        for (p, (&w, &b)) in k.iter().zip(&self.params.bits).enumerate() {
            if b < 32 && w >> b != 0 {
                return Err(Error::arg(
                    "K",
                    format!("word {p} = {w} has bits above its {b} bits"),
                ));
            }
        }
        Ok(())
    }

    /// A host callback's values: the matrix it reads is made on the device, read back, handed to
    /// the callback row by row, and its values go back for the selection kernel.
    fn callback_values(&mut self, coding: Coding, sense: Sense) -> Result<()> {
        let Objective::Callback(cb) = &self.objective else {
            return Ok(());
        };
        let cb = cb.clone();
        let (rows, n) = (self.nb.rows as usize, self.params.n_param as usize);
        self.kernels(coding, sense)?;
        let k = self.kernels.as_ref().expect("built above");
        let (wg, global) = (k.search.wg, k.search.global());
        // SAFETY: the arguments match `hc12g_decode`; the buffers outlive the kernel.
        let ev = unsafe {
            let mut e = ExecuteKernel::new(&k.decode);
            self.bufs.set_string_args(&mut e);
            e.set_global_work_size(global)
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
        self.bufs
            .f
            .write(&self.queue, &fp_bytes(&f, self.params.double))?;
        Ok(())
    }

    /// One evaluation of the neighbourhood of the uploaded K: (value, row) of the best row.
    pub(super) fn evaluate(
        &mut self,
        coding: Coding,
        sense: Sense,
        store_f: bool,
        tabu_check: bool,
        aspiration: Option<f64>,
    ) -> Result<(f64, u64)> {
        self.callback_values(coding, sense)?;
        let double = self.params.double;
        let store = store_f as u32;
        // the selection compares -f when maximising, so the aspiration bound is turned too
        let aspiration = aspiration.map(|b| {
            let key = if sense == Sense::Max { -b } else { b };
            if double {
                key.to_bits()
            } else {
                (key as f32).to_bits() as u64
            }
        });
        self.kernels(coding, sense)?;
        let k = self.kernels.as_mut().expect("built above");
        let bufs = &self.bufs;
        // SAFETY: the leading arguments of `hc12g_eval` in type and order; the buffers outlive
        // the search, which reads its result before returning.
        let found = unsafe {
            k.search.search(
                &self.queue,
                |e| {
                    bufs.set_string_args(e);
                    e.set_arg(bufs.data.cl())
                        .set_arg(bufs.f.cl())
                        .set_arg(&store);
                },
                tabu_check,
                aspiration,
            )?
        };
        let (global, wg, wg2) = (k.search.global(), k.search.wg, k.search.wg_argmin);
        self.record("hc12g_eval", &found.eval, global, wg);
        self.record("hc12_argmin_groups", &found.argmin, wg2, wg2);
        let key = if double {
            f64::from_bits(found.bits)
        } else {
            f32::from_bits(found.bits as u32) as f64
        };
        let value = if sense == Sense::Max { -key } else { key };
        Ok((value, found.row))
    }

    /// The value of string `k` (its row 0).
    pub(super) fn value_of(&mut self, k: &[u32], coding: Coding, sense: Sense) -> Result<f64> {
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
}
