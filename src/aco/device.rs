//! The device engine: `aco_ants` (`cl/aco.cl`), one work-group per ant walking its whole path, and
//! `aco_deposit`, one work-item per vertex. The graph, the heuristic and the pheromone stay on the
//! device; an iteration reads back each ant's flag and length (and the best ant's successor row
//! when it improves the best path).

use super::{local, DepositStep, Engine, Setup, Walks};
use crate::device::{covering_group, Backend, DeviceBuffer, ProgramSpec, Queue};
use crate::error::{size_product, Error, Result};
use crate::problem::graph::Weights;
use opencl3::kernel::{ExecuteKernel, Kernel};
use rayon::prelude::*;
use std::sync::Arc;

/// The arc weights on the device, in their own type.
enum DevWeights {
    U32(DeviceBuffer<u32>),
    U64(DeviceBuffer<u64>),
    F32(DeviceBuffer<f32>),
    F64(DeviceBuffer<f64>),
}

pub struct DeviceEngine {
    setup: Arc<Setup>,
    queue: Queue,
    ants_k: Kernel,
    deposit_k: Kernel,
    wg: usize,
    dep_wg: usize,
    offsets: DeviceBuffer<u64>,
    targets: DeviceBuffer<u32>,
    weights: DevWeights,
    eta: DeviceBuffer<f64>,
    tau: DeviceBuffer<f64>,
    succ: DeviceBuffer<u32>,
    visited: DeviceBuffer<u32>,
    ok: DeviceBuffer<u32>,
    lengths: DeviceBuffer<u64>,
    dep: DeviceBuffer<f64>,
}

/// The shared launch (`device::launch`) in one dimension. The callers set every argument of
/// the kernel in type and order, with buffers that the engine owns and that outlive the queue's
/// work (every launch is followed by a read).
fn enqueue(
    e: &mut ExecuteKernel,
    q: &Queue,
    global: usize,
    local: usize,
    what: &'static str,
) -> Result<()> {
    crate::device::launch(q, e, &[global], Some(&[local]), what)
}

impl DeviceEngine {
    pub(crate) fn new(setup: Arc<Setup>, backend: Backend) -> Result<Self> {
        let ctx = backend.context("ACO")?;
        ctx.require_fp64()?;
        let queue = ctx.queue_unprofiled()?;
        let g = &setup.graph;
        let (n, ants) = (g.n(), setup.opts.ants);
        let max = ctx.info.max_work_group_size.max(1);
        let cap = setup
            .opts
            .group_size
            .unwrap_or(ctx.tuning().aco)
            .clamp(1, max);
        // at least 4: PoCL 6 (LLVM 15) crashes compiling the kernel for groups of 2
        let mut wg = covering_group(setup.max_degree.max(4), cap);
        let (wt, real) = match g.weights() {
            Weights::U32(_) => ("uint", 0),
            Weights::U64(_) => ("ulong", 0),
            Weights::F32(_) => ("float", 1),
            Weights::F64(_) => ("double", 1),
        };
        let gumbel = (setup.opts.selection == super::Selection::Gumbel) as u32;
        let (ants_k, deposit_k) = loop {
            let spec = ProgramSpec::files(&["common.cl", "aco.cl"])
                .define_u("ACO_WG", wg)
                .define("ACO_WT", wt)
                .define("ACO_REAL", real)
                .define("ACO_GUMBEL", gumbel);
            let program = ctx.build(&spec)?;
            let k = queue.kernel(&program, "aco_ants")?;
            let d = queue.kernel(&program, "aco_deposit")?;
            let lim = k.get_work_group_size(ctx.info.cl_id()).unwrap_or(1);
            if lim >= wg {
                break (k, d);
            }
            if wg == 1 {
                return Err(Error::Unsupported(
                    "aco_ants does not fit one work-item on this device".into(),
                ));
            }
            wg /= 2;
        };
        let dep_wg = covering_group(n, ctx.tuning().aco.max(64)).min(max);
        let q = &queue;
        let weights = match g.weights() {
            Weights::U32(w) => DevWeights::U32(q.buffer_from(w, "weights")?),
            Weights::U64(w) => DevWeights::U64(q.buffer_from(w, "weights")?),
            Weights::F32(w) => DevWeights::F32(q.buffer_from(w, "weights")?),
            Weights::F64(w) => DevWeights::F64(q.buffer_from(w, "weights")?),
        };
        Ok(DeviceEngine {
            offsets: q.buffer_from(g.offsets(), "offsets")?,
            targets: q.buffer_from(g.targets(), "targets")?,
            eta: q.buffer_from(&setup.eta, "eta")?,
            tau: q.buffer(g.m().max(1), "pheromone")?,
            succ: q.buffer(size_product("ants", &[ants, n])?, "successors")?,
            visited: q.buffer(size_product("ants", &[ants, n.div_ceil(32)])?, "visited")?,
            ok: q.buffer(ants, "ant flags")?,
            lengths: q.buffer(ants, "ant lengths")?,
            dep: q.buffer(ants, "deposits")?,
            weights,
            ants_k,
            deposit_k,
            wg,
            dep_wg,
            queue,
            setup,
        })
    }
}

impl Engine for DeviceEngine {
    fn fill(&mut self, tau: f64) -> Result<()> {
        let v = vec![tau; self.setup.graph.m().max(1)];
        self.tau.write(&self.queue, &v)
    }

    fn walk(&mut self, s: u32, t: u32, iter: u32, max_steps: u32) -> Result<Walks> {
        let o = &self.setup.opts;
        let n = self.setup.graph.n() as u32;
        let (alpha, qscale, seed) = (o.alpha, self.setup.qscale, o.seed);
        let mut e = ExecuteKernel::new(&self.ants_k);
        // SAFETY: the arguments of `aco_ants` in type and order.
        unsafe {
            e.set_arg(self.offsets.cl()).set_arg(self.targets.cl());
            match &self.weights {
                DevWeights::U32(b) => e.set_arg(b.cl()),
                DevWeights::U64(b) => e.set_arg(b.cl()),
                DevWeights::F32(b) => e.set_arg(b.cl()),
                DevWeights::F64(b) => e.set_arg(b.cl()),
            };
            e.set_arg(self.eta.cl())
                .set_arg(self.tau.cl())
                .set_arg(&n)
                .set_arg(&s)
                .set_arg(&t);
            e.set_arg(&alpha)
                .set_arg(&qscale)
                .set_arg(&seed)
                .set_arg(&iter)
                .set_arg(&max_steps);
            e.set_arg(self.succ.cl())
                .set_arg(self.visited.cl())
                .set_arg(self.ok.cl())
                .set_arg(self.lengths.cl());
        }
        enqueue(
            &mut e,
            &self.queue,
            o.ants * self.wg,
            self.wg,
            "clEnqueueNDRangeKernel(aco_ants)",
        )?;
        let ok = self.ok.to_vec(&self.queue)?;
        let mut lengths = self.lengths.to_vec(&self.queue)?;
        if o.local_search && ok.iter().any(|&x| x != 0) {
            // the host's local search on the successful ants' rows (the CPU engine's same code)
            let g = &self.setup.graph;
            let bw = self.setup.by_weight.as_ref().expect("local search");
            let mut succ = self.succ.to_vec(&self.queue)?;
            succ.par_chunks_mut(n as usize)
                .zip(lengths.par_iter_mut())
                .zip(ok.par_iter())
                .for_each_init(local::Scratch::default, |sc, ((row, len), &k)| {
                    if k != 0 {
                        if let Some(l) = local::improve_row(g, bw, row, s, t, sc) {
                            *len = l;
                        }
                    }
                });
            self.succ.write(&self.queue, &succ)?;
        }
        Ok(Walks { ok, lengths })
    }

    fn successors(&mut self, ant: usize) -> Result<Vec<u32>> {
        let n = self.setup.graph.n();
        let all = self.succ.to_vec(&self.queue)?;
        Ok(all[ant * n..(ant + 1) * n].to_vec())
    }

    fn deposit(&mut self, st: &DepositStep) -> Result<()> {
        self.dep.write(&self.queue, st.dep)?;
        let n = self.setup.graph.n() as u32;
        let ants = self.setup.opts.ants as u32;
        let reset = st.reset as u32;
        let mut e = ExecuteKernel::new(&self.deposit_k);
        // SAFETY: the arguments of `aco_deposit` in type and order.
        unsafe {
            e.set_arg(self.offsets.cl())
                .set_arg(self.tau.cl())
                .set_arg(self.succ.cl())
                .set_arg(self.dep.cl());
            e.set_arg(&n)
                .set_arg(&ants)
                .set_arg(&st.keep)
                .set_arg(&reset)
                .set_arg(&st.tau0);
            e.set_arg(&st.tmin).set_arg(&st.tmax);
        }
        let global = (n as usize).div_ceil(self.dep_wg) * self.dep_wg;
        enqueue(
            &mut e,
            &self.queue,
            global,
            self.dep_wg,
            "clEnqueueNDRangeKernel(aco_deposit)",
        )
    }

    fn pheromone(&mut self) -> Result<Vec<f64>> {
        let mut v = self.tau.to_vec(&self.queue)?;
        v.truncate(self.setup.graph.m());
        Ok(v)
    }

    fn set_pheromone(&mut self, tau: &[f64]) -> Result<()> {
        let mut v = tau.to_vec();
        // the buffer has at least one entry
        v.resize(self.setup.graph.m().max(1), 0.0);
        self.tau.write(&self.queue, &v)
    }

    fn describe(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("{}; {} work-items per ant", i.describe(), self.wg)
    }
}
