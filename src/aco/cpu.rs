//! The rayon engine: one task per ant, the same walk as `aco_ants` in `cl/aco.cl` (the same
//! Philox words, the same quantised integer roulette, the neighbours in the same order) and the
//! same deposit as `aco_deposit` (evaporation, then the ants' deposits in ant order, then the
//! bounds), so a seed gives the device's run.

use super::{local, pow_exact, DepositStep, Engine, Setup, Walks, NONE};
use crate::error::Result;
use crate::problem::graph::Weights;
use crate::rng::philox4x32_10;
use rayon::prelude::*;
use std::sync::Arc;

/// The roulette's draw index (`ACO_DRAW` in the kernel).
const DRAW: u32 = u32::MAX;

/// The four words of (seed; step, iteration, ant, k), as `aco_rng`.
pub fn aco_rng(seed: u64, iter: u32, ant: u32, step: u32, k: u32) -> [u32; 4] {
    philox4x32_10([step, iter, ant, k], [seed as u32, (seed >> 32) as u32])
}

/// The roulette's rule on quantised weights `q` (in neighbour order) and a draw `r` in
/// `[0, sum q)`: the `k` with `x[k] <= r < x[k] + q[k]`, `x` the exclusive prefix sum (the
/// thesis's `x[d-1] < r <= x[d]` was off by one and took nothing at r = 0). A zero weight is never taken;
/// `None` when r is not below the total.
pub fn roulette_pick(q: impl IntoIterator<Item = u64>, r: u64) -> Option<usize> {
    let mut x = 0u64;
    for (k, qk) in q.into_iter().enumerate() {
        if qk > 0 && x <= r && r < x + qk {
            return Some(k);
        }
        x += qk;
    }
    None
}

pub struct CpuEngine {
    setup: Arc<Setup>,
    tau: Vec<f64>,
    /// Per ant: its successor row (n entries).
    succ: Vec<Vec<u32>>,
}

impl CpuEngine {
    pub(crate) fn new(setup: Arc<Setup>) -> CpuEngine {
        let (m, ants) = (setup.graph.m(), setup.opts.ants);
        CpuEngine {
            tau: vec![1.0; m],
            succ: vec![Vec::new(); ants],
            setup,
        }
    }
}

/// One ant's walk: (reached, length bits), its successor row filled.
#[allow(clippy::too_many_arguments)]
fn walk_one(
    s_: &Setup,
    tau: &[f64],
    succ: &mut Vec<u32>,
    visited: &mut Vec<bool>,
    a: u32,
    s: u32,
    t: u32,
    iter: u32,
    max_steps: u32,
) -> (u32, u64) {
    let g = &s_.graph;
    let n = g.n();
    let (alpha, seed, qscale) = (s_.opts.alpha, s_.opts.seed, s_.qscale);
    let gumbel = s_.opts.selection == super::Selection::Gumbel;
    succ.clear();
    succ.resize(n, NONE);
    visited.clear();
    visited.resize(n, false);
    visited[s as usize] = true;
    let targets = g.targets();
    let p_of = |e: usize| pow_exact(tau[e], alpha) * s_.eta[e];
    let (mut li, mut lf) = (0u64, 0.0f64);
    let mut cur = s;
    let mut step = 0u32;
    let reached = loop {
        if cur == t {
            break 1;
        }
        if step >= max_steps {
            break 0;
        }
        let arcs = g.arcs_of(cur as usize);
        let lo = arcs.start;
        let deg = arcs.len();
        let eligible = |k: usize| !visited[targets[lo + k] as usize];
        let mut chosen = None;
        if gumbel {
            let mut best = f64::NEG_INFINITY;
            for k in 0..deg {
                if !eligible(k) {
                    continue;
                }
                let p = p_of(lo + k);
                if p <= 0.0 {
                    continue;
                }
                let r = aco_rng(seed, iter, a, step, k as u32);
                let u =
                    ((((r[0] as u64) << 21) | (r[1] >> 11) as u64) as f64 + 0.5) * 2f64.powi(-53);
                let key = p.ln() - (-u.ln()).ln();
                if chosen.is_none() || key > best {
                    best = key;
                    chosen = Some(k);
                }
            }
        } else {
            let pm = (0..deg)
                .filter(|&k| eligible(k))
                .map(|k| p_of(lo + k))
                .fold(0.0f64, f64::max);
            if pm > 0.0 {
                let q = |k: usize| -> u64 {
                    if !eligible(k) {
                        return 0;
                    }
                    let p = p_of(lo + k);
                    if p > 0.0 {
                        ((p / pm * qscale) as u64).max(1)
                    } else {
                        0
                    }
                };
                let total: u64 = (0..deg).map(q).sum();
                let rw = aco_rng(seed, iter, a, step, DRAW);
                let r =
                    ((((rw[0] as u64) << 32 | rw[1] as u64) as u128 * total as u128) >> 64) as u64;
                chosen = roulette_pick((0..deg).map(q), r);
            }
        }
        let Some(k) = chosen else { break 0 };
        let d = targets[lo + k];
        succ[cur as usize] = k as u32;
        visited[d as usize] = true;
        match g.weights() {
            Weights::U32(w) => li = li.wrapping_add(w[lo + k] as u64),
            Weights::U64(w) => li = li.wrapping_add(w[lo + k]),
            Weights::F32(w) => lf += w[lo + k] as f64,
            Weights::F64(w) => lf += w[lo + k],
        }
        cur = d;
        step += 1;
    };
    let bits = match g.weights() {
        Weights::U32(_) | Weights::U64(_) => li,
        _ => lf.to_bits(),
    };
    (reached, bits)
}

impl Engine for CpuEngine {
    fn fill(&mut self, tau: f64) -> Result<()> {
        self.tau.iter_mut().for_each(|x| *x = tau);
        Ok(())
    }

    fn walk(&mut self, s: u32, t: u32, iter: u32, max_steps: u32) -> Result<Walks> {
        let setup = &*self.setup;
        let tau = &self.tau;
        let ls = setup.opts.local_search;
        let out: Vec<(u32, u64)> = self
            .succ
            .par_iter_mut()
            .enumerate()
            .map_init(
                || (Vec::new(), local::Scratch::default()),
                |(vis, sc), (a, succ)| {
                    let (ok, len) =
                        walk_one(setup, tau, succ, vis, a as u32, s, t, iter, max_steps);
                    match ok {
                        1 if ls => (
                            ok,
                            local::improve_row(
                                &setup.graph,
                                setup.by_weight.as_ref().expect("local search"),
                                succ,
                                s,
                                t,
                                sc,
                            )
                            .unwrap_or(len),
                        ),
                        _ => (ok, len),
                    }
                },
            )
            .collect();
        Ok(Walks {
            ok: out.iter().map(|x| x.0).collect(),
            lengths: out.iter().map(|x| x.1).collect(),
        })
    }

    fn successors(&mut self, ant: usize) -> Result<Vec<u32>> {
        Ok(self.succ[ant].clone())
    }

    fn deposit(&mut self, st: &DepositStep) -> Result<()> {
        let g = &self.setup.graph;
        let succ = &self.succ;
        let offsets = g.offsets();
        // each vertex owns its arcs: split the pheromone by vertex
        let mut rows: Vec<(usize, &mut [f64])> = Vec::with_capacity(g.n());
        let mut rest: &mut [f64] = &mut self.tau;
        for u in 0..g.n() {
            let len = (offsets[u + 1] - offsets[u]) as usize;
            let (row, tail) = rest.split_at_mut(len);
            rows.push((u, row));
            rest = tail;
        }
        rows.par_iter_mut().for_each(|(u, row)| {
            for x in row.iter_mut() {
                *x = if st.reset { st.tau0 } else { *x * st.keep };
            }
            for (a, s) in succ.iter().enumerate() {
                let k = s[*u];
                if k != NONE && st.dep[a] != 0.0 {
                    row[k as usize] += st.dep[a];
                }
            }
            for x in row.iter_mut() {
                *x = x.max(st.tmin).min(st.tmax);
            }
        });
        Ok(())
    }

    fn pheromone(&mut self) -> Result<Vec<f64>> {
        Ok(self.tau.clone())
    }

    fn set_pheromone(&mut self, tau: &[f64]) -> Result<()> {
        self.tau.copy_from_slice(tau);
        Ok(())
    }

    fn describe(&self) -> String {
        crate::device::Backend::Cpu.describe()
    }
}
