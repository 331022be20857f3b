//! Clause evaluation of a CNF formula on the device (`cl/sat.cl`): MCSX evaluates one
//! assignment in parallel over the clauses, DXAC many assignments with one work-item each. The
//! CPU evaluator with the same outputs is `super::cpu`.
//!
//! [`DeviceSat`] uploads the formula once. Besides the host-in, host-out calls
//! ([`DeviceSat::mcsx`], [`DeviceSat::dxac`]) it exposes its buffers, program and an enqueue-only
//! DXAC over device buffers ([`DeviceSat::enqueue_dxac`]), so that a solver can keep its
//! assignments on the device and build its own kernels against the same `sat.cl` functions
//! (`sat_clause_true`, `sat_count_satisfied`), from a program made with [`sat_program`].
//!
//! # One iteration
//!
//! MCSX counts true literals of every clause of one assignment in parallel and reduces; DXAC gives
//! each of many assignments (stored transposed and pitched) one work-item that walks every clause.

use std::sync::Arc;

use crate::device::{
    cl_error, event_ns, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue,
};
use crate::error::{Error, Result};
use crate::problem::sat::{Assignment, Cnf, LitType};
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

/// The program of `common.cl` and `cl/sat.cl` for literals of type `lit`; a solver adds its
/// own files after them.
pub fn sat_program(lit: LitType) -> ProgramSpec {
    ProgramSpec::files(&["common.cl", "sat.cl"]).define("SAT_LIT", lit.cl_type())
}

/// Result of MCSX on one assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McsxResult {
    /// Satisfied clauses.
    pub satisfied: u32,
    /// Whether every clause is satisfied.
    pub all: bool,
    /// True-literal count of every clause, when asked for.
    pub counts: Option<Vec<u32>>,
}

/// Result of evaluating many assignments (DXAC, and the CPU evaluator `super::cpu`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxacResult {
    /// Satisfied clauses per assignment.
    pub satisfied: Vec<u32>,
    /// True-literal counts when asked for, assignment-major: clause `c` of assignment `a` is
    /// `counts[a * num_clauses + c]`.
    pub counts: Option<Vec<u32>>,
    pub num_clauses: usize,
}

impl DxacResult {
    /// Whether assignment `a` satisfies every clause.
    pub fn is_model(&self, a: usize) -> bool {
        self.satisfied[a] as usize == self.num_clauses
    }

    /// Unsatisfied clauses per assignment.
    pub fn unsatisfied(&self) -> Vec<u32> {
        self.satisfied
            .iter()
            .map(|&s| self.num_clauses as u32 - s)
            .collect()
    }
}

/// The pitch (in words) of a transposed batch of `count` assignments whose pitch is a multiple
/// of `granule` ([`DeviceSat::pitch_granule`]).
pub fn dxac_pitch(count: usize, granule: usize) -> usize {
    count.max(1).div_ceil(granule) * granule
}

/// Assignments transposed for DXAC: word `w` of assignment `a` at `[w * pitch + a]`, the padding
/// columns 0.
pub fn transpose(assignments: &[Assignment], words: usize, pitch: usize) -> Vec<u32> {
    let mut x = vec![0u32; words * pitch];
    for (a, asg) in assignments.iter().enumerate() {
        for (w, &v) in asg.words().iter().enumerate() {
            x[w * pitch + a] = v;
        }
    }
    x
}

struct DxacBuffers {
    pitch: usize,
    x: DeviceBuffer<u32>,
    satisfied: DeviceBuffer<u32>,
    counts: Option<DeviceBuffer<u32>>,
}

/// A formula on the device with its MCSX and DXAC kernels.
pub struct DeviceSat {
    q: Queue,
    program: Arc<Program>,
    pub num_vars: usize,
    pub num_clauses: usize,
    pub words: usize,
    pub lit_type: LitType,
    /// `num_clauses + 1` clause offsets.
    pub offsets: DeviceBuffer<u32>,
    /// The literals, [`LitType`] elements as bytes.
    pub literals: DeviceBuffer<u8>,
    mcsx_count: Kernel,
    mcsx_reduce: Kernel,
    dxac: Kernel,
    wg: usize,
    reduce_wg: usize,
    groups: usize,
    /// The DXAC group cap and the granule of its pitch.
    dxac_wg: usize,
    x1: DeviceBuffer<u32>,
    counts1: DeviceBuffer<u32>,
    partial: DeviceBuffer<u32>,
    result: DeviceBuffer<u32>,
    dummy: DeviceBuffer<u32>,
    batch: Option<DxacBuffers>,
    kernel_ns: u64,
}

impl DeviceSat {
    /// `cnf` on the device in use ([`DeviceContext::current`]).
    pub fn new(cnf: &Cnf) -> Result<Self> {
        Self::on(&DeviceContext::current()?, cnf)
    }

    /// `cnf` on the device of `ctx`.
    pub fn on(ctx: &Arc<DeviceContext>, cnf: &Cnf) -> Result<Self> {
        let q = ctx.queue()?;
        let lit_type = cnf.lit_type();
        let program = ctx.build(&sat_program(lit_type))?;
        let tuning = ctx.tuning();
        let mcsx_count = q.kernel(&program, "sat_mcsx_count")?;
        let mcsx_reduce = q.kernel(&program, "sat_mcsx_reduce")?;
        let dxac = q.kernel(&program, "sat_dxac")?;
        let wg = work_group_size(ctx, &mcsx_count, tuning.sat_mcsx);
        let reduce_wg = work_group_size(ctx, &mcsx_reduce, tuning.sat_mcsx);
        let clauses = cnf.num_clauses();
        let groups = clauses.div_ceil(wg).clamp(1, tuning.sat_mcsx_groups);
        let words = cnf.words();
        Ok(DeviceSat {
            offsets: q.buffer_from(&cnf.offsets, "clause offsets")?,
            literals: q.buffer_from(&cnf.packed_literals(), "literals")?,
            x1: q.buffer(words, "MCSX assignment")?,
            counts1: q.buffer(clauses, "MCSX counts")?,
            partial: q.buffer(groups, "MCSX partial sums")?,
            result: q.buffer(2, "MCSX result")?,
            dummy: q.buffer(1, "no counts")?,
            q,
            program,
            num_vars: cnf.num_vars,
            num_clauses: clauses,
            words,
            lit_type,
            mcsx_count,
            mcsx_reduce,
            dxac,
            wg,
            reduce_wg,
            groups,
            dxac_wg: tuning.sat_dxac,
            batch: None,
            kernel_ns: 0,
        })
    }

    pub fn queue(&self) -> &Queue {
        &self.q
    }

    /// The program of [`sat_program`].
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// What a DXAC pitch must be a multiple of ([`DeviceSat::enqueue_dxac`], [`dxac_pitch`]).
    pub fn pitch_granule(&self) -> usize {
        self.dxac_wg
    }

    describe_alias!();

    /// [`Backend::describe`](crate::device::Backend::describe) of the device, for reports.
    pub fn describe(&self) -> String {
        self.q.ctx().info.describe()
    }

    /// Nanoseconds of kernel execution (profiled) since the last call of this method.
    pub fn take_kernel_ns(&mut self) -> u64 {
        std::mem::take(&mut self.kernel_ns)
    }

    fn check(&self, a: &Assignment, what: &'static str) -> Result<()> {
        if a.num_vars() != self.num_vars {
            return Err(Error::arg(
                what,
                format!(
                    "an assignment of {} variables for a formula of {}",
                    a.num_vars(),
                    self.num_vars
                ),
            ));
        }
        Ok(())
    }

    /// MCSX: satisfied count, all-satisfied flag and (when `want_counts`) per-clause counts of one
    /// assignment.
    pub fn mcsx(&mut self, a: &Assignment, want_counts: bool) -> Result<McsxResult> {
        self.check(a, "assignment")?;
        if self.num_clauses == 0 {
            return Ok(McsxResult {
                satisfied: 0,
                all: true,
                counts: want_counts.then(Vec::new),
            });
        }
        if self.words > 0 {
            self.x1.write(&self.q, a.words())?;
        }
        let clauses = self.num_clauses as u32;
        let write = want_counts as u32;
        let groups = self.groups as u32;
        // SAFETY: the arguments match the kernels' signatures; the buffers live as long as `self`
        // and the blocking read below orders after both kernels on the in-order queue.
        let (e1, e2) = unsafe {
            let e1 = ExecuteKernel::new(&self.mcsx_count)
                .set_arg(self.offsets.cl())
                .set_arg(self.literals.cl())
                .set_arg(&clauses)
                .set_arg(self.x1.cl())
                .set_arg(self.counts1.cl())
                .set_arg(&write)
                .set_arg(self.partial.cl())
                .set_arg_local_buffer(self.wg * 4)
                .set_global_work_size(self.groups * self.wg)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(self.q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(sat_mcsx_count)"))?;
            let e2 = ExecuteKernel::new(&self.mcsx_reduce)
                .set_arg(self.partial.cl())
                .set_arg(&groups)
                .set_arg(&clauses)
                .set_arg(self.result.cl())
                .set_arg_local_buffer(self.reduce_wg * 4)
                .set_global_work_size(self.reduce_wg)
                .set_local_work_size(self.reduce_wg)
                .enqueue_nd_range(self.q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(sat_mcsx_reduce)"))?;
            (e1, e2)
        };
        let mut r = [0u32; 2];
        self.result.read(&self.q, &mut r)?;
        let counts = if want_counts {
            let mut c = vec![0u32; self.num_clauses];
            self.counts1.read(&self.q, &mut c)?;
            Some(c)
        } else {
            None
        };
        self.kernel_ns += event_ns(&e1) + event_ns(&e2);
        Ok(McsxResult {
            satisfied: r[0],
            all: r[1] != 0,
            counts,
        })
    }

    /// Enqueues DXAC over assignments already on the device: `count` assignments transposed with
    /// `pitch` (word `w` of assignment `a` at `x[w * pitch + a]`; `pitch` a multiple of
    /// [`DeviceSat::pitch_granule`] and at least `count`), writing `satisfied[a]` and, when
    /// given, `counts[c * pitch + a]`. Nothing is waited for; the event of the launch is
    /// returned (profiling is on).
    pub fn enqueue_dxac(
        &self,
        x: &DeviceBuffer<u32>,
        pitch: usize,
        count: usize,
        satisfied: &DeviceBuffer<u32>,
        counts: Option<&DeviceBuffer<u32>>,
    ) -> Result<Option<Event>> {
        let granule = self.dxac_wg;
        if !pitch.is_multiple_of(granule) || pitch < count {
            return Err(Error::arg(
                "pitch",
                format!("{pitch}; expected a multiple of {granule} and at least {count}"),
            ));
        }
        if x.len() < self.words * pitch || satisfied.len() < count {
            return Err(Error::arg(
                "x",
                "buffers smaller than words * pitch and count".to_string(),
            ));
        }
        if counts.is_some_and(|c| c.len() < self.num_clauses * pitch) {
            return Err(Error::arg(
                "counts",
                format!(
                    "smaller than clauses * pitch = {}",
                    self.num_clauses * pitch
                ),
            ));
        }
        if count == 0 {
            return Ok(None);
        }
        let (clauses, pitch32, count32) = (self.num_clauses as u32, pitch as u32, count as u32);
        let write = counts.is_some() as u32;
        let counts = counts.unwrap_or(&self.dummy);
        let wg = work_group_size(self.q.ctx(), &self.dxac, granule);
        // SAFETY: the arguments match the kernel's signature; the sizes are checked above.
        let ev = unsafe {
            ExecuteKernel::new(&self.dxac)
                .set_arg(self.offsets.cl())
                .set_arg(self.literals.cl())
                .set_arg(&clauses)
                .set_arg(x.cl())
                .set_arg(&pitch32)
                .set_arg(&count32)
                .set_arg(satisfied.cl())
                .set_arg(counts.cl())
                .set_arg(&write)
                .set_global_work_size(count.div_ceil(wg) * wg)
                .set_local_work_size(wg)
                .enqueue_nd_range(self.q.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(sat_dxac)"))?
        };
        Ok(Some(ev))
    }

    /// DXAC: satisfied count (and, when `want_counts`, the per-clause counts) of every assignment.
    pub fn dxac(&mut self, assignments: &[Assignment], want_counts: bool) -> Result<DxacResult> {
        for a in assignments {
            self.check(a, "assignments")?;
        }
        let n = assignments.len();
        let clauses = self.num_clauses;
        if n == 0 || clauses == 0 {
            return Ok(DxacResult {
                satisfied: vec![0; n],
                counts: want_counts.then(Vec::new),
                num_clauses: clauses,
            });
        }
        let pitch = dxac_pitch(n, self.dxac_wg);
        let fits = self
            .batch
            .as_ref()
            .is_some_and(|b| b.pitch == pitch && (!want_counts || b.counts.is_some()));
        if !fits {
            self.batch = None; // free the old buffers first
            self.batch = Some(DxacBuffers {
                pitch,
                x: self.q.buffer(
                    crate::error::size_product("assignments", &[self.words.max(1), pitch])?,
                    "DXAC assignments",
                )?,
                satisfied: self.q.buffer(pitch, "DXAC satisfied")?,
                counts: if want_counts {
                    Some(self.q.buffer(
                        crate::error::size_product("assignments", &[clauses, pitch])?,
                        "DXAC counts",
                    )?)
                } else {
                    None
                },
            });
        }
        let mut b = self.batch.take().expect("made above");
        let r = (|| {
            if self.words > 0 {
                b.x.write(&self.q, &transpose(assignments, self.words, pitch))?;
            }
            let counts = if want_counts { b.counts.as_ref() } else { None };
            let ev = self.enqueue_dxac(&b.x, pitch, n, &b.satisfied, counts)?;
            let mut satisfied = vec![0u32; n];
            b.satisfied.read(&self.q, &mut satisfied)?;
            self.kernel_ns += ev.as_ref().map_or(0, event_ns);
            let counts = match counts {
                Some(cb) => {
                    let mut t = vec![0u32; clauses * pitch];
                    cb.read(&self.q, &mut t)?;
                    let mut c = vec![0u32; n * clauses];
                    for (a, row) in c.chunks_mut(clauses).enumerate() {
                        for (k, v) in row.iter_mut().enumerate() {
                            *v = t[k * pitch + a];
                        }
                    }
                    Some(c)
                }
                None => None,
            };
            Ok(DxacResult {
                satisfied,
                counts,
                num_clauses: clauses,
            })
        })();
        self.batch = Some(b);
        r
    }
}
