//! The general HC12's device side: the program (`cl/hc12_eval.cl` after the objective's
//! source), the string's matrices, the host-callback objective and the row search
//! (`src/hc12/rows.rs`), with kernel traces and profiling.

use super::{Coding, Domain, Hc12, Sense};
use crate::device::{cl_error, event_ns, DeviceBuffer};
use crate::error::{Error, Result};
use crate::hc12::rows::RowSearch;
use crate::hc12::tabu::tabu_defines;
use crate::objective::{fp_bytes, fp_values as fp_from_bytes, Objective};
use opencl3::kernel::{ExecuteKernel, Kernel};

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
        let spec = self.spec.clone().define("HC_GRAY", (coding == Coding::Gray) as u32).define("HC_MAX", (sense == Sense::Max) as u32);
        let program = self.queue.ctx().build(&tabu_defines(spec, tabu_len.max(1), words))?;
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
        Ok(Kernels { built_for: (coding, sense, tabu_len), decode: self.queue.kernel(&program, "hc12g_decode")?, search })
    }

    pub(super) fn record(&mut self, name: &'static str, ev: &opencl3::event::Event, global: usize, wg: usize) {
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
        let (wg, global) = (k.search.wg, k.search.global());
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
    pub(super) fn evaluate(&mut self, coding: Coding, sense: Sense, store_f: bool, tabu_check: bool, aspiration: Option<f64>) -> Result<(f64, u64)> {
        self.callback_values(coding, sense)?;
        let double = self.params.double;
        let store = store_f as u32;
        // the selection compares -f when maximising, so the aspiration bound is turned too
        let aspiration = aspiration.map(|b| {
            let key = if sense == Sense::Max { -b } else { b };
            if double { key.to_bits() } else { (key as f32).to_bits() as u64 }
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
                    e.set_arg(bufs.data.cl()).set_arg(bufs.f.cl()).set_arg(&store);
                },
                tabu_check,
                aspiration,
            )?
        };
        let (global, wg, wg2) = (k.search.global(), k.search.wg, k.search.wg_argmin);
        self.record("hc12g_eval", &found.eval, global, wg);
        self.record("hc12_argmin_groups", &found.argmin, wg2, wg2);
        let key = if double { f64::from_bits(found.bits) } else { f32::from_bits(found.bits as u32) as f64 };
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
