//! The QAP HC12's device evaluator: `qap_eval` (`cl/qap.cl`) then `hc12_argmin_groups`, one
//! small state upload and one 16-byte read per iteration.

use super::{CostForm, Evaluator, IterState, RowCosts, TabuQuery};
use crate::device::{event_ns, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue};
use crate::error::{Error, Result};
use crate::hc12::tabu::{tabu_options, DeviceTabu};
use crate::hc12::{enqueue_argmin, Neighbourhood};
use crate::problem::qap::{Cost, ElemType, QapProblem};
use opencl3::kernel::{ExecuteKernel, Kernel};

pub struct DeviceEvaluator {
    queue: Queue,
    options: String,
    n_param: usize,
    eval: Kernel,
    argmin: Kernel,
    tabu: Option<DeviceTabu>,
    /// Stands in for the tabu buffers while there is no list.
    no_tabu: DeviceBuffer<u32>,
    a: DeviceBuffer<u8>,
    b: DeviceBuffer<u8>,
    state: DeviceBuffer<u32>,
    group_best: DeviceBuffer<u64>,
    out: DeviceBuffer<u64>,
    all_f: Option<DeviceBuffer<u8>>,
    rows: u64,
    wg: usize,
    wg2: usize,
    groups: usize,
    ft_kind: u32,
    ft_size: usize,
    /// Nanoseconds the device spent in the two kernels (profiling events), summed.
    pub kernel_ns: u64,
}

impl DeviceEvaluator {
    pub fn new(p: &QapProblem, nb: &Neighbourhood, swaps: u32, form: CostForm, device: Option<usize>) -> Result<Self> {
        let ctx = match device {
            Some(d) => DeviceContext::get(d)?,
            None => DeviceContext::current()?,
        };
        let ty = p.elem_type();
        if ty == ElemType::F64 {
            ctx.require_fp64()?;
        }
        let opts = format!(
            "-DFT_KIND={} -DQAP_TYPE={} -DQAP_N={} -DQAP_SLICES={} -DQAP_SWAPS={} -DQAP_ROWS={}u \
             -DQAP_DELTA={} -DHC_BITLEN={} -DHC_START={} -DHC_ORDER={} -DHC_NBIT={}",
            ty.ft_kind(),
            ty.cl_type(),
            p.n,
            p.slices,
            swaps,
            nb.rows,
            (form == CostForm::Delta) as u32,
            nb.bit_length,
            nb.start_bit,
            nb.mask_order,
            nb.nbit
        );
        let queue = ctx.queue()?;
        let n_param = 2 * swaps as usize;
        let program = ctx.build(&ProgramSpec::files(&Self::FILES).flags(&format!("{opts} {}", tabu_options(1, n_param))))?;
        let eval = queue.kernel(&program, "qap_eval")?;
        let argmin = queue.kernel(&program, "hc12_argmin_groups")?;
        let wg = work_group_size(&ctx, &eval, 256);
        let wg2 = work_group_size(&ctx, &argmin, 256);
        let groups = (nb.rows as usize).div_ceil(wg);
        let (ab, bb) = p.data.bytes();
        let a = queue.buffer_from(ab, "A")?;
        let b = queue.buffer_from(bb, "B")?;
        let state_len = 4 * swaps as usize + 2 * p.n + 2;
        Ok(DeviceEvaluator {
            options: opts,
            n_param,
            tabu: None,
            no_tabu: queue.buffer_from(&[0u32; 2], "no tabu")?,
            state: queue.buffer(state_len, "state")?,
            group_best: queue.buffer(2 * groups, "group_best")?,
            out: queue.buffer(2, "out")?,
            a,
            b,
            all_f: None,
            rows: nb.rows,
            wg,
            wg2,
            groups,
            ft_kind: ty.ft_kind(),
            ft_size: if ty.ft_kind() == 3 { 4 } else { 8 },
            eval,
            argmin,
            queue,
            kernel_ns: 0,
        })
    }

    const FILES: [&'static str; 4] = ["common.cl", "tabu.cl", "hc12.cl", "qap.cl"];

    fn upload(&mut self, st: &IterState) -> Result<()> {
        let mut s = Vec::with_capacity(self.state.len());
        s.extend_from_slice(&st.k);
        s.extend_from_slice(&st.i_cur);
        s.extend(st.cur.iter().map(|&v| v as u32));
        let bits = st.cur_cost.bits();
        s.push(bits as u32);
        s.push((bits >> 32) as u32);
        s.extend(st.base.iter().map(|&v| v as u32));
        self.state.write(&self.queue, &s)
    }

    fn launch(&mut self, store_f: bool, tabu: &TabuQuery) -> Result<()> {
        let local_f = self.wg * 8;
        let local_r = self.wg * 4;
        let dummy;
        let all_f = match (&self.all_f, store_f) {
            (Some(b), true) => b,
            _ => {
                dummy = self.queue.buffer::<u8>(8, "all_f")?;
                &dummy
            }
        };
        let store = store_f as u32;
        let groups = self.groups as u32;
        let (tx, ti, tm) = match &self.tabu {
            Some(t) => (&t.x, t.index(), &t.meta),
            None => (&self.no_tabu, &self.no_tabu, &self.no_tabu),
        };
        let check = (tabu.check && self.tabu.is_some()) as u32;
        let aspiration = tabu.aspiration.is_some() as u32;
        let best_bits = tabu.aspiration.map_or(0, |c| c.bits());
        // SAFETY: the arguments match `qap_eval` and `hc12_argmin_groups` in type and order; the
        // buffers outlive the kernels, which finish before `read` returns (in-order queue).
        let (e1, e2) = unsafe {
            let e1 = ExecuteKernel::new(&self.eval)
                .set_arg(self.a.cl())
                .set_arg(self.b.cl())
                .set_arg(self.state.cl())
                .set_arg(self.group_best.cl())
                .set_arg(all_f.cl())
                .set_arg(&store)
                .set_arg(tx.cl())
                .set_arg(ti.cl())
                .set_arg(tm.cl())
                .set_arg(&check)
                .set_arg(&aspiration)
                .set_arg(&best_bits)
                .set_arg_local_buffer(local_f)
                .set_arg_local_buffer(local_r)
                .set_global_work_size(self.groups * self.wg)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(self.queue.cl())
                .map_err(crate::device::cl_error("clEnqueueNDRangeKernel(qap_eval)"))?;
            let e2 = enqueue_argmin(&self.queue, &self.argmin, &self.group_best, groups, &self.out, self.wg2, 8)?;
            (e1, e2)
        };
        self.queue.finish()?;
        self.kernel_ns += event_ns(&e1) + event_ns(&e2);
        Ok(())
    }
}

impl Evaluator for DeviceEvaluator {
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery) -> Result<(Cost, u64)> {
        // one upload serves the insert (which reads K from the state buffer) and the evaluation
        self.upload(st)?;
        if tabu.insert {
            let t = self.tabu.as_mut().ok_or_else(|| Error::arg("tabu list", "not initialised"))?;
            t.insert(&self.queue, &self.state, 0)?;
        }
        self.launch(false, tabu)?;
        let mut out = [0u64; 2];
        self.out.read(&self.queue, &mut out)?;
        if out[1] >= self.rows {
            return Err(Error::Panic(format!("device argmin returned row {} of {}", out[1], self.rows)));
        }
        Ok((Cost::from_bits(self.ft_kind, out[0]), out[1]))
    }

    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        if self.all_f.is_none() {
            self.all_f = Some(self.queue.buffer(self.rows as usize * self.ft_size, "all_f")?);
        }
        self.upload(st)?;
        self.launch(true, &TabuQuery::default())?;
        let raw = self.all_f.as_ref().expect("allocated above").to_vec(&self.queue)?;
        Ok(raw
            .chunks_exact(self.ft_size)
            .take(self.rows as usize)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                Cost::from_bits(self.ft_kind, u64::from_le_bytes(w))
            })
            .collect())
    }

    fn tabu_reset(&mut self, max_length: usize) -> Result<()> {
        if max_length == 0 {
            self.tabu = None;
            return Ok(());
        }
        if let Some(t) = &mut self.tabu {
            if t.max_length == max_length {
                return t.clear(&self.queue);
            }
        }
        // the capacity is a build-time constant of the kernels
        let opts = format!("{} {}", self.options, tabu_options(max_length, self.n_param));
        let program = self.queue.ctx().build(&ProgramSpec::files(&Self::FILES).flags(&opts))?;
        self.eval = self.queue.kernel(&program, "qap_eval")?;
        self.argmin = self.queue.kernel(&program, "hc12_argmin_groups")?;
        self.tabu = Some(DeviceTabu::new(&self.queue, &program, max_length, self.n_param)?);
        Ok(())
    }

    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        match &self.tabu {
            Some(t) => t.sorted_strings(&self.queue),
            None => Ok(Vec::new()),
        }
    }

    fn description(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("device {}: {} ({}, {})", i.index, i.name, i.platform, i.kind.as_str())
    }
}
