//! The chains on an OpenCL device: `bh_steps` of `cl/bh.cl`, one work-item a chain, with the
//! state in column layout in device buffers between launches.

use super::{BhParams, StepArgs};
use crate::de::constraints::Constraints;
use crate::device::{
    launch, work_group_size, Backend, DeviceBuffer, DeviceContext, ProgramSpec, Queue,
};
use crate::error::{Error, Result};
use crate::objective::{fp_bytes, fp_values, Objective};
use opencl3::kernel::{ExecuteKernel, Kernel};
use std::sync::Arc;

pub(super) struct DeviceBh {
    ctx: Arc<DeviceContext>,
    q: Queue,
    kernel: Kernel,
    wg: usize,
    double: bool,
    dims: usize,
    x: DeviceBuffer<u8>,
    fx: DeviceBuffer<u8>,
    y: DeviceBuffer<u8>,
    fy: DeviceBuffer<u8>,
    t: DeviceBuffer<u8>,
    s: DeviceBuffer<u8>,
    l: DeviceBuffer<u32>,
    lo: DeviceBuffer<u8>,
    hi: DeviceBuffer<u8>,
    hops: DeviceBuffer<u8>,
    data: DeviceBuffer<u8>,
    objective: Objective,
    /// With constraints: FX and FY hold the violations after the values (`cl/bh.cl`).
    constrained: bool,
}

impl DeviceBh {
    pub(super) fn new(
        objective: &Objective,
        cons: Option<&Constraints>,
        lo: &[f64],
        hi: &[f64],
        hops: &[f64],
        p: &BhParams,
        backend: Backend,
    ) -> Result<Self> {
        if let Objective::Callback(_) = objective {
            return Err(Error::arg("objective", "a host callback runs on the CPU backend (Backend::Cpu); the device's chains call the objective in the kernel"));
        }
        let ctx = backend.context("basin hopping")?;
        if p.double {
            ctx.require_fp64()?;
        }
        let dims = lo.len();
        let spec = objective.add_to(ProgramSpec::files(&["common.cl"]), p.double)?;
        let spec = match cons {
            Some(c) => spec
                .define("BH_CONSTRAINED", 1)
                .define("MO_NC", c.count())
                .define("MO_NG", c.inequalities)
                .define("MO_EQ_TOL", format!("{:e}", c.eq_tol)),
            None => spec,
        };
        let spec = spec.file("constraints.cl").file("bh.cl");
        // with constraints, the violations after the values
        let nv = if cons.is_some() { 2 } else { 1 };
        let program = ctx.build(&spec)?;
        let q = ctx.queue_unprofiled()?;
        let kernel = q.kernel(&program, "bh_steps")?;
        let wg = work_group_size(&ctx, &kernel, ctx.tuning().objective_eval);
        let fp = if p.double { 8 } else { 4 };
        let n = dims * p.chains;
        let data = objective.data_bytes(dims, p.double)?;
        Ok(DeviceBh {
            x: q.buffer(n * fp, "basin hopping anchors")?,
            fx: q.buffer(nv * p.chains * fp, "basin hopping anchor values")?,
            y: q.buffer(n * fp, "basin hopping searches")?,
            fy: q.buffer(nv * p.chains * fp, "basin hopping search values")?,
            t: q.buffer(n * fp, "basin hopping trials")?,
            s: q.buffer(p.chains * fp, "basin hopping steps")?,
            l: q.buffer(p.chains, "basin hopping search lengths")?,
            lo: q.buffer_from(&fp_bytes(lo, p.double), "lo")?,
            hi: q.buffer_from(&fp_bytes(hi, p.double), "hi")?,
            hops: q.buffer_from(&fp_bytes(hops, p.double), "hops")?,
            data: q.buffer_from(
                if data.is_empty() {
                    &[0u8; 8][..]
                } else {
                    &data
                },
                "data",
            )?,
            ctx,
            q,
            kernel,
            wg,
            double: p.double,
            dims,
            objective: objective.clone(),
            constrained: cons.is_some(),
        })
    }

    /// `f` for every chain, and with constraints `v` after them.
    fn values_of(&self, f: f64, v: f64, chains: usize) -> Vec<u8> {
        let mut vals = vec![f; chains];
        if self.constrained {
            vals.extend(std::iter::repeat_n(v, chains));
        }
        fp_bytes(&vals, self.double)
    }

    /// The violation of `x` (one point) from the objective's `constraints`.
    pub(super) fn violation(&self, x: &[f64], c: &Constraints) -> Result<f64> {
        let index = Some(self.ctx.info.index);
        let v = crate::objective::constraint_values(
            &self.objective,
            x,
            self.dims,
            c.count(),
            self.double,
            index,
        )?;
        Ok(c.violation_of(&v))
    }

    pub(super) fn start(&mut self, cols: &[f64], f: f64, v: f64, chains: usize) -> Result<()> {
        self.anchor(cols, f, v, chains)?;
        self.y.write(&self.q, &fp_bytes(cols, self.double))?;
        let fy = self.values_of(f, v, chains);
        self.fy.write(&self.q, &fy)?;
        self.s
            .write(&self.q, &fp_bytes(&vec![0.0; chains], self.double))?;
        self.l.write(&self.q, &vec![0u32; chains])
    }

    pub(super) fn anchor(&mut self, cols: &[f64], f: f64, v: f64, chains: usize) -> Result<()> {
        self.x.write(&self.q, &fp_bytes(cols, self.double))?;
        let fx = self.values_of(f, v, chains);
        self.fx.write(&self.q, &fx)
    }

    pub(super) fn eval(&self, x: &[f64]) -> Result<f64> {
        let index = Some(self.ctx.info.index);
        let v =
            crate::objective::evaluate_points(&self.objective, x, self.dims, self.double, index)?;
        Ok(v[0])
    }

    pub(super) fn run(&mut self, p: &BhParams, k: &StepArgs) -> Result<()> {
        let (chains, dims, nhops) = (
            p.chains as u32,
            self.dims as u32,
            (self.hops.len() / if self.double { 8 } else { 4 }) as u32,
        );
        let mut e = ExecuteKernel::new(&self.kernel);
        // SAFETY: the arguments are bh_steps's, in its order; the buffers are fields of self and
        // the queue is finished before they change or drop.
        unsafe {
            e.set_arg(self.x.cl())
                .set_arg(self.fx.cl())
                .set_arg(self.y.cl())
                .set_arg(self.fy.cl())
                .set_arg(self.t.cl());
            e.set_arg(self.s.cl())
                .set_arg(self.l.cl())
                .set_arg(self.lo.cl())
                .set_arg(self.hi.cl())
                .set_arg(self.hops.cl());
            e.set_arg(&nhops)
                .set_arg(self.data.cl())
                .set_arg(&chains)
                .set_arg(&dims)
                .set_arg(&p.seed)
                .set_arg(&k.step0)
                .set_arg(&k.steps);
            if self.double {
                e.set_arg(&p.step0)
                    .set_arg(&p.step_stop)
                    .set_arg(&p.max_search)
                    .set_arg(&k.up)
                    .set_arg(&k.down);
            } else {
                e.set_arg(&(p.step0 as f32))
                    .set_arg(&(p.step_stop as f32))
                    .set_arg(&p.max_search)
                    .set_arg(&(k.up as f32))
                    .set_arg(&(k.down as f32));
            }
        }
        launch(
            &self.q,
            &mut e,
            &[(p.chains).div_ceil(self.wg) * self.wg],
            Some(&[self.wg]),
            "clEnqueueNDRangeKernel(bh_steps)",
        )?;
        self.q.finish()
    }

    /// Every chain's state, read back (column layout, as f64: exact for a float device).
    pub(super) fn chains(&self) -> Result<super::Chains> {
        let v = |b: &DeviceBuffer<u8>| -> Result<Vec<f64>> {
            Ok(fp_values(&b.to_vec(&self.q)?, self.double))
        };
        let (mut fx, mut fy) = (v(&self.fx)?, v(&self.fy)?);
        let chains = self.l.len();
        let (vx, vy) = if self.constrained {
            (fx.split_off(chains), fy.split_off(chains))
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(super::Chains {
            x: v(&self.x)?,
            fx,
            y: v(&self.y)?,
            fy,
            s: v(&self.s)?,
            l: self.l.to_vec(&self.q)?,
            vx,
            vy,
        })
    }

    /// Writes every chain's state (a checkpoint's).
    pub(super) fn set_chains(&mut self, c: &super::Chains) -> Result<()> {
        let d = self.double;
        self.x.write(&self.q, &fp_bytes(&c.x, d))?;
        let both = |f: &[f64], v: &[f64]| -> Vec<f64> { f.iter().chain(v).copied().collect() };
        self.fx.write(&self.q, &fp_bytes(&both(&c.fx, &c.vx), d))?;
        self.y.write(&self.q, &fp_bytes(&c.y, d))?;
        self.fy.write(&self.q, &fp_bytes(&both(&c.fy, &c.vy), d))?;
        self.s.write(&self.q, &fp_bytes(&c.s, d))?;
        self.l.write(&self.q, &c.l)
    }

    pub(super) fn values(&self) -> Result<Vec<f64>> {
        let mut v = fp_values(&self.fx.to_vec(&self.q)?, self.double);
        v.truncate(self.l.len());
        Ok(v)
    }

    /// The anchors' violations (with constraints).
    pub(super) fn violations(&self) -> Result<Vec<f64>> {
        let mut v = fp_values(&self.fx.to_vec(&self.q)?, self.double);
        Ok(v.split_off(self.l.len()))
    }

    pub(super) fn read(&self) -> Result<(Vec<f64>, Vec<f64>)> {
        Ok((
            self.values()?,
            fp_values(&self.x.to_vec(&self.q)?, self.double),
        ))
    }
}
