//! The CPU twin of the chains: the chains step together on rayon, with the same words and the
//! same arithmetic as `bh_steps` in `cl/bh.cl`; a host callback gets every chain's trial of a
//! step in one call, on the calling thread.

use super::{BhParams, StepArgs};
use crate::de::constraints::{better, no_worse, sanitized};
use crate::error::{Error, Result};
use crate::objective::Objective;
use crate::problem::functions;
use crate::rng::rng4;
use rayon::prelude::*;

/// The random stream of the chains' words (`BH_STREAM` of cl/bh.cl).
const STREAM: u32 = 7;
/// sqrt(3) / 65536 (`BH_NORMAL_SCALE`).
const NORMAL_SCALE: f64 = 2.6429214590853424e-05;

enum HostObjective {
    Catalogue {
        info: &'static functions::FunctionInfo,
        data: Vec<f64>,
    },
    Callback(crate::objective::HostCallback),
}

pub(super) struct CpuBh {
    f: HostObjective,
    /// With constraints, the host callback giving each point's violation (Deb's rules).
    violation: Option<crate::objective::HostCallback>,
    dims: usize,
    pub(super) x: Vec<f64>,
    pub(super) fx: Vec<f64>,
    pub(super) y: Vec<f64>,
    pub(super) fy: Vec<f64>,
    pub(super) s: Vec<f64>,
    pub(super) l: Vec<u32>,
    /// With constraints, the anchors' and the searches' violations (empty without).
    pub(super) vx: Vec<f64>,
    pub(super) vy: Vec<f64>,
}

/// A chain's anchor and value, search point and value, step and search length, and the
/// anchor's and the search's violations (0 without constraints).
type ChainState = (Vec<f64>, f64, Vec<f64>, f64, f64, u32, f64, f64);

/// Word i of chain c's step (`bh_word`).
fn word(seed: u64, step: u64, chains: usize, c: usize, dims: usize, i: usize) -> u32 {
    let per = (2 * dims + 1).div_ceil(4) as u64;
    let base = (step * chains as u64 + c as u64) * per;
    rng4(seed, STREAM, base + (i / 4) as u64)[i & 3]
}

/// Component j's deviate (`bh_normal`): words 2 j and 2 j + 1, half of one counter's four.
fn normal(seed: u64, step: u64, chains: usize, c: usize, dims: usize, j: usize) -> f64 {
    let per = (2 * dims + 1).div_ceil(4) as u64;
    let w = rng4(
        seed,
        STREAM,
        (step * chains as u64 + c as u64) * per + (j / 2) as u64,
    );
    let (a, b) = if j & 1 == 1 {
        (w[2], w[3])
    } else {
        (w[0], w[1])
    };
    let sum = ((a & 0xffff) + (a >> 16) + (b & 0xffff) + (b >> 16)) as i64 - 131_070;
    sum as f64 * NORMAL_SCALE
}

impl CpuBh {
    pub(super) fn new(
        objective: &Objective,
        cons: Option<&crate::de::constraints::Constraints>,
        dims: usize,
        chains: usize,
    ) -> Result<Self> {
        let f = match objective {
            Objective::Catalogue { name } => {
                let info = functions::lookup(name)?;
                HostObjective::Catalogue { info, data: info.data(dims)? }
            }
            Objective::Callback(cb) => HostObjective::Callback(cb.clone()),
            Objective::Source { .. } => {
                return Err(Error::arg("backend", "the CPU backend evaluates catalogue functions and callbacks; a user source runs on a device"))
            }
        };
        let n = dims * chains;
        let violation = match cons {
            None => None,
            Some(c) => Some(c.violation.clone().ok_or_else(|| {
                Error::arg(
                    "constraints",
                    "the CPU backend takes a host callback's violation callback",
                )
            })?),
        };
        let nv = if violation.is_some() { chains } else { 0 };
        Ok(CpuBh {
            f,
            violation,
            vx: vec![f64::INFINITY; nv],
            vy: vec![f64::INFINITY; nv],
            dims,
            x: vec![0.0; n],
            fx: vec![f64::INFINITY; chains],
            y: vec![0.0; n],
            fy: vec![f64::INFINITY; chains],
            s: vec![0.0; chains],
            l: vec![0; chains],
        })
    }

    pub(super) fn eval(&self, x: &[f64]) -> Result<f64> {
        let v = match &self.f {
            HostObjective::Catalogue { info, data } => info.eval_with_data(x, data)?,
            HostObjective::Callback(cb) => {
                let mut out = [0.0];
                cb.call(x, 1, self.dims, &mut out)?;
                out[0]
            }
        };
        Ok(if v.is_finite() { v } else { f64::INFINITY })
    }

    /// The violation of `x` (with constraints; 0 without).
    pub(super) fn violation(&self, x: &[f64]) -> Result<f64> {
        let mut out = [0.0];
        if let Some(v) = &self.violation {
            v.call(x, 1, self.dims, &mut out)?;
        }
        Ok(out[0])
    }

    /// The values of the points `x` (rows of `dims`) in `out`, a non-finite one as +inf: a
    /// catalogue function in parallel, a host callback in one call on this thread.
    fn eval_rows(&self, x: &[f64], out: &mut [f64]) -> Result<()> {
        match &self.f {
            HostObjective::Catalogue { info, data } => out
                .par_iter_mut()
                .zip(x.par_chunks(self.dims))
                .try_for_each(|(f, t)| -> Result<()> {
                    *f = info.eval_with_data(t, data)?;
                    Ok(())
                })?,
            HostObjective::Callback(cb) => cb.call(x, out.len(), self.dims, out)?,
        }
        for f in out.iter_mut() {
            if !f.is_finite() {
                *f = f64::INFINITY;
            }
        }
        Ok(())
    }

    pub(super) fn run(
        &mut self,
        lo: &[f64],
        hi: &[f64],
        hops: &[f64],
        p: &BhParams,
        k: &StepArgs,
    ) -> Result<()> {
        let (dims, chains) = (self.dims, self.fx.len());
        let constrained = self.violation.is_some();
        let v = |w: &[f64], c: usize| if constrained { w[c] } else { 0.0 };
        // chain-major copies for the parallel loop, written back in the column layout
        let mut rows: Vec<ChainState> = (0..chains)
            .map(|c| {
                let col = |v: &[f64]| (0..dims).map(|j| v[j * chains + c]).collect::<Vec<f64>>();
                (
                    col(&self.x),
                    self.fx[c],
                    col(&self.y),
                    self.fy[c],
                    self.s[c],
                    self.l[c],
                    v(&self.vx, c),
                    v(&self.vy, c),
                )
            })
            .collect();
        // the chains go step by step together: every chain's trial, then all trials evaluated
        // (a host callback in one call on this thread, with a row per chain), then every
        // chain's selection; each chain takes the arithmetic of `bh_steps` in its order
        let mut trials = vec![0.0; chains * dims];
        let mut hops_now = vec![false; chains];
        let mut ft = vec![0.0; chains];
        let mut vt = vec![0.0; chains];
        for step in k.step0..k.step0 + k.steps as u64 {
            rows.par_iter_mut()
                .zip(trials.par_chunks_mut(dims))
                .zip(hops_now.par_iter_mut())
                .enumerate()
                .for_each(|(c, (((x, fx, y, fy, s, l, vx, vy), t), hop))| {
                    *hop = *s <= p.step_stop || *l >= p.max_search;
                    // the search is over: monotonic acceptance, then a hop from the anchor
                    if *hop && better(*fy, *vy, *fx, *vx, 0.0) {
                        x.clone_from(y);
                        *fx = *fy;
                        *vx = *vy;
                    }
                    let (scale, from) = if *hop {
                        let w = word(p.seed, step, chains, c, dims, 2 * dims);
                        (hops[((w as u64 * hops.len() as u64) >> 32) as usize], &*x)
                    } else {
                        (*s, &*y)
                    };
                    for j in 0..dims {
                        let width = hi[j] - lo[j];
                        t[j] = (from[j] + scale * width * normal(p.seed, step, chains, c, dims, j))
                            .max(lo[j])
                            .min(hi[j]);
                    }
                });
            self.eval_rows(&trials, &mut ft)?;
            if let Some(v) = &self.violation {
                v.call(&trials, chains, dims, &mut vt)?;
                vt.iter_mut().for_each(|v| *v = sanitized(*v));
            }
            rows.par_iter_mut()
                .zip(trials.par_chunks(dims))
                .zip(hops_now.par_iter().zip(ft.par_iter().zip(vt.par_iter())))
                .for_each(
                    |(((_x, _fx, y, fy, s, l, _vx, vy), t), (&hop, (&ft, &vt)))| {
                        // a tie moves the search and shrinks the step (bh_steps)
                        let (ok, better) = (
                            no_worse(ft, vt, *fy, *vy, 0.0),
                            better(ft, vt, *fy, *vy, 0.0),
                        );
                        if hop || ok {
                            y.copy_from_slice(t);
                            *fy = ft;
                            *vy = vt;
                        }
                        *s = if hop {
                            p.step0
                        } else if better {
                            *s * k.up
                        } else {
                            *s * k.down
                        };
                        *l = if hop { 0 } else { *l + 1 };
                    },
                );
        }
        for (c, (x, fx, y, fy, s, l, vx, vy)) in rows.into_iter().enumerate() {
            for j in 0..dims {
                self.x[j * chains + c] = x[j];
                self.y[j * chains + c] = y[j];
            }
            self.fx[c] = fx;
            self.fy[c] = fy;
            self.s[c] = s;
            self.l[c] = l;
            if constrained {
                self.vx[c] = vx;
                self.vy[c] = vy;
            }
        }
        Ok(())
    }
}
