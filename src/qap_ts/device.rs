//! The device engine: `qap_ts_run` (`cl/qap_ts.cl`), one work-group per chain, a launch runs
//! every chain for the given number of iterations. The host state of the chains goes up before
//! and comes back after each launch (a few bytes per chain); the tabu matrices stay on the
//! device.

use super::{Backend, ChainState, Engine, TenureRule, TsParams};
use crate::device::{
    cl_error, note_failure, work_group_size, DeviceBuffer, DeviceContext, ProgramSpec, Queue,
};
use crate::error::{Error, Result};
use crate::problem::qap::QapProblem;
use opencl3::kernel::{ExecuteKernel, Kernel};
use std::borrow::Cow;
use std::sync::Arc;

pub struct DeviceEngine {
    queue: Queue,
    kernel: Kernel,
    wg: usize,
    n: usize,
    chains: usize,
    params: TsParams,
    a: DeviceBuffer<u8>,
    b: DeviceBuffer<u8>,
    pairs: DeviceBuffer<u16>,
    perm: DeviceBuffer<u16>,
    best_perm: DeviceBuffer<u16>,
    cost: DeviceBuffer<u64>,
    tv: DeviceBuffer<i32>,
    gv: DeviceBuffer<u64>,
    fresh: DeviceBuffer<u8>,
    tabu: DeviceBuffer<i32>,
    delta: DeviceBuffer<u8>,
    layout: Layout,
    /// Integer data with the deltas in global memory: a chain's deltas outlive a launch.
    keeps_deltas: bool,
    /// Per chain: the permutation whose deltas the chain's slice of the delta buffer holds
    /// (empty: none yet), as the last launch left it.
    delta_perm: Vec<Vec<u16>>,
}

/// Where the engine may keep the matrices: `Auto` puts each in local memory where it fits (the
/// delta matrix first); the others force a layout for the tests of every path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Auto,
    /// Both matrices in global memory.
    Global,
    /// The delta matrix in local memory where it fits, the tabu matrix in global memory.
    LocalDelta,
}

/// How a [`DeviceEngine`] lays out its chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutRequest {
    pub placement: Placement,
    /// Work-items per chain (a power of two); None: the device kind's tuning.
    pub group_size: Option<usize>,
    /// Read the matrices across rows (see [`Layout::across`]); None: the device kind's tuning.
    pub across: Option<bool>,
}

impl Default for LayoutRequest {
    fn default() -> Self {
        LayoutRequest {
            placement: Placement::Auto,
            group_size: None,
            across: None,
        }
    }
}

/// Where `qap_ts_run` keeps a chain's matrices, and the width of its deltas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The delta matrix in local memory (else in the chain's slice of global memory).
    pub local_delta: bool,
    /// The tabu matrix in local memory.
    pub local_tabu: bool,
    /// Deltas in 32-bit integers (integer data whose deltas fit them; exact).
    pub delta_i32: bool,
    /// The work-items of a chain read a_sk and b_{p(s) p(k)} across rows, consecutive
    /// work-items (consecutive s) in one row: the matrices' transposes are then kept beside
    /// asymmetric matrices. Else each work-item reads along its own rows. The values and their
    /// order are the same either way.
    pub across: bool,
}

/// Bytes of local memory `qap_ts_run` needs besides its matrices, for `wg` work-items and
/// deltas of `dsize` bytes (the reduction, the permutation, the two costs).
fn fixed_local_bytes(n: usize, wg: usize, dsize: usize) -> u64 {
    (wg * (dsize + 5) + 2 * n + 2 * 8 + 16) as u64
}

/// Bytes of one delta of `p` on a device: 4 for float32 data and for integer data whose deltas
/// fit 32 bits (`deltas_fit_i32`), else 8.
pub fn delta_bytes(p: &QapProblem) -> usize {
    if p.elem_type().ft_kind() == 3 || deltas_fit_i32(p) {
        4
    } else {
        8
    }
}

/// Whether every delta of `p`, and every partial sum `cl/qap_ts.cl` forms on the way, fits a
/// signed 32-bit integer, so that `TS_D32` computes exactly what the CPU's wrapping 64-bit
/// arithmetic does. Bounds per slice, with a = max |A|, b = max |B|: a full delta (either
/// formula) is below 8ab(n - 1), one O(1) update adds below 32ab.
fn deltas_fit_i32(p: &QapProblem) -> bool {
    let Some((ma, mb)) = p.data.integer_max_abs() else {
        return false;
    };
    ma < 1 << 29 && mb < 1 << 29 && ma * mb * p.slices as u128 * (8 * p.n as u128 + 64) < 1 << 31
}

/// The bytes of the stack of n x n matrices `m` followed by the bytes of their transposes.
fn with_transposes<T: crate::problem::qap::cost::QapElem>(n: usize, m: &[T]) -> Vec<u8> {
    let stacked = [m, &super::cpu::transpose(n, m)].concat();
    crate::problem::qap::cost::as_bytes(&stacked).to_vec()
}

impl DeviceEngine {
    pub fn new(
        p: &QapProblem,
        backend: Backend,
        params: TsParams,
        chains: usize,
        request: LayoutRequest,
    ) -> Result<Self> {
        let ctx: Arc<DeviceContext> = backend.context("QAP tabu search")?;
        let ty = p.elem_type();
        if ty == crate::problem::qap::ElemType::F64 {
            ctx.require_fp64()?;
        }
        let n = p.n;
        let sym = crate::with_matrices!(&p.data, |a, b| super::cpu::symmetric(n, a)
            && super::cpu::symmetric(n, b));
        // the kernel indexes the stacked matrices (and, for asymmetric data, their transposes
        // after them) with 32-bit arithmetic
        let across = request.across.unwrap_or(ctx.tuning().qap_ts_across);
        let stack = if sym || !across { 1 } else { 2 };
        if stack * (p.slices as u64) * (n * n) as u64 > u32::MAX as u64 {
            return Err(Error::arg(
                "nSlices",
                format!(
                    "{} slices of n = {n}: more than 2^32 matrix elements, beyond the device \
                     kernel's indexing; use the CPU backend",
                    p.slices
                ),
            ));
        }
        let np = n * (n - 1) / 2;
        let d32 = deltas_fit_i32(p);
        let dsize = delta_bytes(p);
        let queue = ctx.queue_unprofiled()?;
        let mut cap = request
            .group_size
            .unwrap_or(ctx.tuning().qap_ts)
            .min(ctx.info.max_work_group_size)
            .max(1);
        // the group holds at most one work-item per pair, a power of two
        while cap > 1 && cap / 2 >= np {
            cap /= 2;
        }
        let (kernel, wg, layout) = loop {
            let mut wg = 1;
            while wg * 2 <= cap {
                wg *= 2;
            }
            // the delta matrix first (read and written for every pair of every iteration), then
            // the tabu matrix, where they fit with a margin for what the compiler adds
            let fixed = fixed_local_bytes(n, wg, dsize) + 256;
            let (dbytes, tbytes) = ((np * dsize) as u64, (n * n * 4) as u64);
            let local_d = request.placement != Placement::Global
                && fixed + dbytes <= ctx.info.local_mem_bytes;
            let local_t = request.placement == Placement::Auto
                && local_d
                && fixed + dbytes + tbytes <= ctx.info.local_mem_bytes;
            let spec = ProgramSpec::files(&["common.cl", "qap_ts.cl"])
                .define("FT_KIND", ty.ft_kind())
                .define("QAP_TYPE", ty.cl_type())
                .define_u("TS_N", n)
                .define_u("TS_SLICES", p.slices)
                .define_u("TS_NP", np)
                .define_u("TS_WG", wg)
                .define("TS_LOCAL_D", local_d as u32)
                .define("TS_LOCAL_T", local_t as u32)
                .define("TS_D32", d32 as u32)
                .define("TS_SYM", sym as u32)
                .define("TS_ACROSS", across as u32)
                .define("TS_TENURE", (params.tenure == TenureRule::Uniform) as u32);
            let program = ctx.build(&spec)?;
            let kernel = queue.kernel(&program, "qap_ts_run")?;
            if work_group_size(&ctx, &kernel, wg) >= wg || wg == 1 {
                break (
                    kernel,
                    wg,
                    Layout {
                        local_delta: local_d,
                        local_tabu: local_t,
                        delta_i32: d32,
                        across,
                    },
                );
            }
            cap = wg / 2;
        };
        let (ab, bb) = p.data.bytes();
        // asymmetric data read across rows: each matrix followed by its transposes, so that the
        // work-items of a group, which take consecutive pairs (r, s), s = r + 1, ..., read a_sk
        // and b_{p(s) p(k)} along rows of them (cl/qap_ts.cl `AC`, `BC`)
        let (ab, bb): (Cow<[u8]>, Cow<[u8]>) = if stack == 1 {
            (Cow::Borrowed(ab), Cow::Borrowed(bb))
        } else {
            crate::with_matrices!(&p.data, |a, b| (
                Cow::Owned(with_transposes(n, a)),
                Cow::Owned(with_transposes(n, b))
            ))
        };
        let pairs: Vec<u16> = super::cpu::pairs(n)
            .into_iter()
            .flat_map(|(r, s)| [r as u16, s as u16])
            .collect();
        Ok(DeviceEngine {
            a: queue.buffer_from(ab.as_ref(), "A")?,
            b: queue.buffer_from(bb.as_ref(), "B")?,
            pairs: queue.buffer_from(&pairs, "pairs")?,
            perm: queue.buffer(chains * n, "perm")?,
            best_perm: queue.buffer(chains * n, "best_perm")?,
            cost: queue.buffer(2 * chains, "cost")?,
            tv: queue.buffer(chains, "t")?,
            gv: queue.buffer(2 * chains, "g")?,
            fresh: queue.buffer(chains, "fresh")?,
            tabu: queue.buffer(chains * n * n, "tabu")?,
            // the deltas, or (in local memory) where a launch leaves them for the next one
            delta: queue.buffer(chains * np * dsize, "delta")?,
            keeps_deltas: ty.is_integer(),
            delta_perm: vec![Vec::new(); chains],
            queue,
            kernel,
            wg,
            n,
            chains,
            params,
            layout,
        })
    }

    /// Work-items per chain and where the matrices are.
    pub fn layout(&self) -> (usize, Layout) {
        (self.wg, self.layout)
    }
}

impl Engine for DeviceEngine {
    fn advance(&mut self, states: &mut [ChainState], iterations: u32) -> Result<()> {
        if states.len() != self.chains {
            return Err(Error::arg(
                "chains",
                format!(
                    "{} states for an engine of {} chains",
                    states.len(),
                    self.chains
                ),
            ));
        }
        let (n, q) = (self.n, &self.queue);
        let cat = |f: &dyn Fn(&ChainState) -> &[u16]| {
            states
                .iter()
                .flat_map(|s| f(s).iter().copied())
                .collect::<Vec<u16>>()
        };
        // queued writes: the queue orders them before the launch, and the reads below wait for
        // all of it, so the host waits for the device once per launch rather than per upload
        self.perm.write_queued(q, cat(&|s| &s.perm))?;
        self.best_perm.write_queued(q, cat(&|s| &s.best_perm))?;
        self.cost
            .write_queued(q, states.iter().flat_map(|s| [s.cost, s.best]).collect())?;
        self.tv
            .write_queued(q, states.iter().map(|s| s.t).collect())?;
        self.gv
            .write_queued(q, states.iter().flat_map(|s| [s.g, s.best_iter]).collect())?;
        // bit 0: a fresh start (reset the tabu matrix); bit 1: compute the deltas afresh (float
        // data, whose host costs are recomputed, or a permutation other than the one the kept
        // deltas are of)
        let flags: Vec<u8> = states
            .iter()
            .zip(&self.delta_perm)
            .map(|(s, d)| {
                let recompute = !self.keeps_deltas || *d != s.perm;
                s.fresh as u8 | (recompute as u8) << 1
            })
            .collect();
        self.fresh.write_queued(q, flags)?;
        let (seed, horizon, c0) = (
            self.params.seed,
            self.params.horizon as i64,
            self.params.first_chain,
        );
        let mut e = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments of `qap_ts_run` in type and order; the buffers are fields of the
        // engine and the queue is finished before this returns (the blocking reads below come
        // after the launch in the in-order queue).
        unsafe {
            e.set_arg(self.a.cl())
                .set_arg(self.b.cl())
                .set_arg(self.pairs.cl());
            e.set_arg(self.perm.cl())
                .set_arg(self.best_perm.cl())
                .set_arg(self.cost.cl());
            e.set_arg(self.tv.cl())
                .set_arg(self.gv.cl())
                .set_arg(self.fresh.cl());
            e.set_arg(self.tabu.cl()).set_arg(self.delta.cl());
            e.set_arg(&seed)
                .set_arg(&horizon)
                .set_arg(&iterations)
                .set_arg(&c0);
            e.set_global_work_sizes(&[self.chains * self.wg])
                .set_local_work_sizes(&[self.wg]);
            e.enqueue_nd_range(q.cl()).map_err(|err| {
                let err = cl_error("clEnqueueNDRangeKernel(qap_ts_run)")(err);
                note_failure(q, &err);
                err
            })?;
        }
        let perm = self.perm.to_vec(q)?;
        let best_perm = self.best_perm.to_vec(q)?;
        let cost = self.cost.to_vec(q)?;
        let tv = self.tv.to_vec(q)?;
        let gv = self.gv.to_vec(q)?;
        for (c, s) in states.iter_mut().enumerate() {
            s.perm.copy_from_slice(&perm[c * n..(c + 1) * n]);
            s.best_perm.copy_from_slice(&best_perm[c * n..(c + 1) * n]);
            s.cost = cost[2 * c];
            s.best = cost[2 * c + 1];
            s.t = tv[c];
            s.g = gv[2 * c];
            s.best_iter = gv[2 * c + 1];
            s.fresh = false;
            if self.keeps_deltas {
                self.delta_perm[c].clone_from(&s.perm);
            }
        }
        Ok(())
    }

    fn tabu(&mut self, chains: usize) -> Result<Vec<i32>> {
        if chains != self.chains {
            return Err(Error::arg(
                "chains",
                format!("{chains} chains of an engine of {}", self.chains),
            ));
        }
        self.tabu.to_vec(&self.queue)
    }

    fn set_tabu(&mut self, tabu: &[i32]) -> Result<()> {
        if tabu.len() != self.chains * self.n * self.n {
            return Err(Error::arg(
                "tabu",
                format!(
                    "{} stamps for {} chains of n = {}",
                    tabu.len(),
                    self.chains,
                    self.n
                ),
            ));
        }
        self.tabu.write(&self.queue, tabu)
    }

    fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        format!(
            "{}; {} work-items per chain, {} in {} memory, tabu matrix in {} memory",
            i.describe(),
            self.wg,
            if self.layout.delta_i32 {
                "32-bit integer deltas"
            } else {
                "deltas"
            },
            if self.layout.local_delta {
                "local"
            } else {
                "global"
            },
            if self.layout.local_tabu {
                "local"
            } else {
                "global"
            }
        )
    }
}
