//! The one device row search of HC12: an evaluation kernel (`qap_eval`, `hc12g_eval`,
//! `sat_hc12_eval`) whose arguments end with the common ones of `hc12_select` (`cl/hc12.cl`),
//! then `hc12_argmin_groups` over the group winners, and the winner read back. Work-group sizes
//! come from the device's tuning row (`hc12_rows`, `hc12_argmin`); the tabu list lives here
//! because its capacity is a build-time constant of the same program.

use super::tabu::DeviceTabu;
use crate::device::{cl_error, work_group_size, DeviceBuffer, Queue};
use crate::error::{Error, Result};
use crate::run::Pacer;
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::time::Instant;

/// The winner of one search and the two launches' events (for profiling).
pub struct Found {
    /// `FT_TO_BITS` of the winner's value.
    pub bits: u64,
    pub row: u64,
    pub eval: Event,
    pub argmin: Event,
}

/// The launcher of one evaluation kernel of one program.
pub struct RowSearch {
    eval: Kernel,
    argmin: Kernel,
    /// `"clEnqueueNDRangeKernel(<kernel>)"`, for errors.
    eval_call: &'static str,
    rows: u64,
    /// Work-items per group of the evaluation kernel and its number of groups.
    pub wg: usize,
    pub groups: usize,
    /// Work-items of the one group of `hc12_argmin_groups`.
    pub wg_argmin: usize,
    ft_size: usize,
    group_best: DeviceBuffer<u64>,
    out: DeviceBuffer<u64>,
    /// Stands in for the tabu buffers while there is no list.
    no_tabu: DeviceBuffer<u32>,
    tabu: Option<DeviceTabu>,
    /// The call's deadline: when set, a search comes in launches of groups sized by the run
    /// contract's pacer (a neighbourhood of 10^8 rows is minutes on a CPU device), and one that
    /// reaches the deadline returns the best of the rows evaluated so far (row 0, the current
    /// string, is always among them).
    deadline: Option<Instant>,
    pacer: Pacer,
}

/// Groups of the first launch of a deadline-bound search, which is timed to size the others.
const FIRST_CHUNK_GROUPS: u64 = 16;

impl RowSearch {
    /// `program` holds `cl/tabu.cl`, `cl/hc12.cl` and the kernel `eval_name`, built with
    /// `tabu_options(capacity.max(1), words)`; `ft_size` is the size of the value type `FT`.
    /// `tabu`: (capacity, words) of a list to make in it (None: no list). `eval_call` names the
    /// launch in errors: "clEnqueueNDRangeKernel(<eval_name>)".
    pub fn new(
        q: &Queue,
        program: &Program,
        eval_name: &'static str,
        eval_call: &'static str,
        rows: u64,
        ft_size: usize,
        tabu: Option<(usize, usize)>,
    ) -> Result<Self> {
        let ctx = q.ctx();
        let tuning = ctx.tuning();
        let eval = q.kernel(program, eval_name)?;
        let argmin = q.kernel(program, "hc12_argmin_groups")?;
        let wg = work_group_size(ctx, &eval, tuning.hc12_rows);
        let wg_argmin = work_group_size(ctx, &argmin, tuning.hc12_argmin);
        let groups = (rows as usize).div_ceil(wg);
        let tabu = match tabu {
            Some((capacity, words)) if capacity > 0 => {
                Some(DeviceTabu::new(q, program, capacity, words)?)
            }
            _ => None,
        };
        Ok(RowSearch {
            group_best: q.buffer(2 * groups, "group_best")?,
            out: q.buffer(2, "out")?,
            no_tabu: q.buffer_from(&[0u32; 2], "no tabu")?,
            eval,
            argmin,
            eval_call,
            rows,
            wg,
            groups,
            wg_argmin,
            ft_size,
            tabu,
            deadline: None,
            pacer: Pacer::default(),
        })
    }

    /// Sets the deadline of the searches to come (None: one launch over every row).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    pub fn tabu(&self) -> Option<&DeviceTabu> {
        self.tabu.as_ref()
    }

    /// Empties the list, if there is one.
    pub fn clear_tabu(&mut self, q: &Queue) -> Result<()> {
        match &mut self.tabu {
            Some(t) => t.clear(q),
            None => Ok(()),
        }
    }

    /// Lists the string held in `v[offset..]` (enqueued before the next search).
    pub fn insert(&mut self, q: &Queue, v: &DeviceBuffer<u32>, offset: u32) -> Result<()> {
        let t = self
            .tabu
            .as_mut()
            .ok_or_else(|| Error::arg("tabu list", "not initialised"))?;
        t.insert(q, v, offset)
    }

    /// Work-items of the evaluation launch.
    pub fn global(&self) -> usize {
        self.groups * self.wg
    }

    /// One search: the evaluation kernel with the leading arguments `lead` sets and the common
    /// trailing ones (tabu list, `tabu_check`, aspiration with the best value's bits, the
    /// group-best buffer, the local arrays), then `hc12_argmin_groups`; the winner is read back.
    /// The tabu check is made only when a list exists.
    ///
    /// # Safety
    /// `lead` must set exactly the kernel's leading arguments, in type and order, with buffers
    /// that outlive the call (the read at the end waits for both kernels on the in-order queue).
    pub unsafe fn search(
        &mut self,
        q: &Queue,
        lead: impl FnOnce(&mut ExecuteKernel),
        tabu_check: bool,
        aspiration: Option<u64>,
    ) -> Result<Found> {
        let (tx, ti, tm) = match &self.tabu {
            Some(t) => (&t.x, t.index(), &t.meta),
            None => (&self.no_tabu, &self.no_tabu, &self.no_tabu),
        };
        let check = (tabu_check && self.tabu.is_some()) as u32;
        let asp = aspiration.is_some() as u32;
        let best_bits = aspiration.unwrap_or(0);
        let total = self.groups;
        let left = |d: Instant| d.saturating_duration_since(Instant::now());
        let first = match self.deadline {
            Some(d) => {
                self.pacer
                    .size(FIRST_CHUNK_GROUPS, total as u64, Some(left(d))) as usize
            }
            None => total,
        };
        // timed from before the first launch is enqueued: a device that runs it before the
        // enqueue returns (a CPU device under load) must not look infinitely fast
        let mut t = Instant::now();
        // SAFETY: the caller's contract for the leading arguments; the trailing ones are those
        // of `hc12_select`'s callers and of `hc12_argmin_groups` in type and order.
        let (eval, done) = unsafe {
            let mut e = ExecuteKernel::new(&self.eval);
            lead(&mut e);
            let eval = e
                .set_arg(tx.cl())
                .set_arg(ti.cl())
                .set_arg(tm.cl())
                .set_arg(&check)
                .set_arg(&asp)
                .set_arg(&best_bits)
                .set_arg(self.group_best.cl())
                .set_arg_local_buffer(self.wg * self.ft_size)
                .set_arg_local_buffer(self.wg * 4)
                .set_global_work_size(first * self.wg)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(q.cl())
                .map_err(cl_error(self.eval_call))?;
            let (mut eval, mut done, mut last) = (eval, first, first);
            while done < total {
                // the arguments stay set on the kernel: the next launches only move the offset
                let Some(deadline) = self.deadline else { break };
                q.finish()?;
                self.pacer.record(last as u64, t.elapsed().as_secs_f64());
                if Instant::now() >= deadline {
                    break;
                }
                last = self.pacer.size(
                    FIRST_CHUNK_GROUPS,
                    (total - done) as u64,
                    Some(left(deadline)),
                ) as usize;
                t = Instant::now();
                let (offset, size, local) = ([done * self.wg], [last * self.wg], [self.wg]);
                eval = q
                    .cl()
                    .enqueue_nd_range_kernel(
                        self.eval.get(),
                        1,
                        offset.as_ptr(),
                        size.as_ptr(),
                        local.as_ptr(),
                        &[],
                    )
                    .map_err(cl_error(self.eval_call))?;
                done += last;
            }
            (eval, done)
        };
        // a search cut by the deadline picks the best of the groups evaluated
        let groups = done as u32;
        // SAFETY: the arguments of `hc12_argmin_groups` in type and order.
        let argmin = unsafe {
            ExecuteKernel::new(&self.argmin)
                .set_arg(self.group_best.cl())
                .set_arg(&groups)
                .set_arg(self.out.cl())
                .set_arg_local_buffer(self.wg_argmin * self.ft_size)
                .set_arg_local_buffer(self.wg_argmin * 4)
                .set_global_work_size(self.wg_argmin)
                .set_local_work_size(self.wg_argmin)
                .enqueue_nd_range(q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(hc12_argmin_groups)"))?
        };
        let mut out = [0u64; 2];
        self.out.read(q, &mut out)?;
        if out[1] >= self.rows {
            return Err(Error::Panic(format!(
                "device argmin returned row {} of {}",
                out[1], self.rows
            )));
        }
        Ok(Found {
            bits: out[0],
            row: out[1],
            eval,
            argmin,
        })
    }
}
