//! The QAP HC12's device evaluator: `qap_eval` (`cl/qap.cl`) through the engine's row search
//! (`src/hc12/rows.rs`), one small state upload and one 16-byte read per iteration.

use super::eval::{CostForm, Evaluator, IterState, RowCosts};
use crate::device::{event_ns, DeviceBuffer, DeviceContext, ProgramSpec, Queue};
use crate::error::Result;
use crate::hc12::rows::RowSearch;
use crate::hc12::tabu::tabu_defines;
use crate::hc12::{Neighbourhood, TabuQuery};
use crate::problem::qap::{Cost, ElemType, QapProblem};

pub struct DeviceEvaluator {
    queue: Queue,
    /// The program without the tabu capacity (a build-time constant).
    spec: ProgramSpec,
    n_param: usize,
    search: RowSearch,
    /// Capacity of the list in `search` (0: none).
    tabu_len: usize,
    a: DeviceBuffer<u8>,
    b: DeviceBuffer<u8>,
    state: DeviceBuffer<u32>,
    all_f: Option<DeviceBuffer<u8>>,
    rows: u64,
    ft_kind: u32,
    ft_size: usize,
    /// Nanoseconds the device spent in the two kernels (profiling events), summed.
    pub kernel_ns: u64,
}

impl DeviceEvaluator {
    pub fn new(
        p: &QapProblem,
        nb: &Neighbourhood,
        swaps: u32,
        form: CostForm,
        device: Option<usize>,
    ) -> Result<Self> {
        let ctx = match device {
            Some(d) => DeviceContext::get(d)?,
            None => DeviceContext::current()?,
        };
        let ty = p.elem_type();
        if ty == ElemType::F64 {
            ctx.require_fp64()?;
        }
        let spec = ProgramSpec::files(&Self::FILES)
            .define("FT_KIND", ty.ft_kind())
            .define("QAP_TYPE", ty.cl_type())
            .define("QAP_N", p.n)
            .define("QAP_SLICES", p.slices)
            .define("QAP_SWAPS", swaps)
            .define_u("QAP_ROWS", nb.rows)
            .define("QAP_DELTA", (form == CostForm::Delta) as u32)
            .define("HC_BITLEN", nb.bit_length)
            .define("HC_START", nb.start_bit)
            .define("HC_ORDER", nb.mask_order)
            .define("HC_NBIT", nb.nbit);
        let queue = ctx.queue()?;
        let n_param = 2 * swaps as usize;
        let ft_size = if ty.ft_kind() == 3 { 4 } else { 8 };
        let search = Self::row_search(&queue, &spec, nb.rows, ft_size, 0, n_param)?;
        let (ab, bb) = p.data.bytes();
        let a = queue.buffer_from(ab, "A")?;
        let b = queue.buffer_from(bb, "B")?;
        let state_len = 4 * swaps as usize + 2 * p.n + 2;
        Ok(DeviceEvaluator {
            spec,
            n_param,
            search,
            tabu_len: 0,
            state: queue.buffer(state_len, "state")?,
            a,
            b,
            all_f: None,
            rows: nb.rows,
            ft_kind: ty.ft_kind(),
            ft_size,
            queue,
            kernel_ns: 0,
        })
    }

    const FILES: [&'static str; 4] = ["common.cl", "tabu.cl", "hc12.cl", "qap.cl"];

    /// The program with a list of `tabu_len` strings (0: none) and its row search.
    fn row_search(
        q: &Queue,
        spec: &ProgramSpec,
        rows: u64,
        ft_size: usize,
        tabu_len: usize,
        words: usize,
    ) -> Result<RowSearch> {
        let program = q
            .ctx()
            .build(&tabu_defines(spec.clone(), tabu_len.max(1), words))?;
        RowSearch::new(
            q,
            &program,
            "qap_eval",
            "clEnqueueNDRangeKernel(qap_eval)",
            rows,
            ft_size,
            Some((tabu_len, words)),
        )
    }

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

    fn launch(&mut self, store_f: bool, tabu: &TabuQuery<Cost>) -> Result<(Cost, u64)> {
        let dummy;
        let all_f = match (&self.all_f, store_f) {
            (Some(b), true) => b,
            _ => {
                dummy = self.queue.buffer::<u8>(8, "all_f")?;
                &dummy
            }
        };
        let store = store_f as u32;
        let (a, b, state) = (&self.a, &self.b, &self.state);
        let aspiration = tabu.aspiration.then(|| tabu.best.bits());
        // SAFETY: the leading arguments of `qap_eval` in type and order; the buffers outlive the
        // search, which reads its result before returning.
        let found = unsafe {
            self.search.search(
                &self.queue,
                |e| {
                    e.set_arg(a.cl())
                        .set_arg(b.cl())
                        .set_arg(state.cl())
                        .set_arg(all_f.cl())
                        .set_arg(&store);
                },
                tabu.check,
                aspiration,
            )?
        };
        self.kernel_ns += event_ns(&found.eval) + event_ns(&found.argmin);
        Ok((Cost::from_bits(self.ft_kind, found.bits), found.row))
    }
}

impl Evaluator for DeviceEvaluator {
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.search.set_deadline(deadline);
    }

    fn take_kernel_ns(&mut self) -> Option<u64> {
        Some(std::mem::take(&mut self.kernel_ns))
    }

    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery<Cost>) -> Result<(Cost, u64)> {
        // one upload serves the insert (which reads K from the state buffer) and the evaluation
        self.upload(st)?;
        if tabu.insert {
            self.search.insert(&self.queue, &self.state, 0)?;
        }
        self.launch(false, tabu)
    }

    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        if self.all_f.is_none() {
            self.all_f = Some(
                self.queue
                    .buffer(self.rows as usize * self.ft_size, "all_f")?,
            );
        }
        self.upload(st)?;
        self.launch(true, &TabuQuery::plain(st.cur_cost, 0))?;
        let raw = self
            .all_f
            .as_ref()
            .expect("allocated above")
            .to_vec(&self.queue)?;
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
        if max_length == self.tabu_len {
            return self.search.clear_tabu(&self.queue);
        }
        // the capacity is a build-time constant of the kernels
        self.search = Self::row_search(
            &self.queue,
            &self.spec,
            self.rows,
            self.ft_size,
            max_length,
            self.n_param,
        )?;
        self.tabu_len = max_length;
        Ok(())
    }

    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        match self.search.tabu() {
            Some(t) => t.sorted_strings(&self.queue),
            None => Ok(Vec::new()),
        }
    }

    fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        i.describe()
    }
}
