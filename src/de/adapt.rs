//! The host side of the self-adapting DE variants (docs/specs/DE.md, "Adaptive DE"):
//! JADE (J. Zhang, A. C. Sanderson, "JADE: adaptive differential evolution with optional
//! external archive", IEEE TEVC 13(5), 2009), SHADE (R. Tanabe, A. Fukunaga, "Success-history
//! based parameter adaptation for differential evolution", CEC 2013), L-SHADE (R. Tanabe,
//! A. Fukunaga, "Improving the search performance of SHADE using linear population size
//! reduction", CEC 2014) and jSO (J. Brest, M. S. Maučec, B. Bošković, "Single objective
//! real-parameter optimization: algorithm jSO", CEC 2017).
//!
//! Every generation the host draws, for every active member of every population, F, CR and the
//! members of the mutation from the population's memories ([`Adaptive::plan`]); both backends
//! make the trials from that [`Plan`] (`cl/de.cl`'s `ade_trial`, `cpu.rs`), evaluate them, and
//! hand the values back; the host then records the successes, updates the memories, plans the
//! archive's insertions ([`Adaptive::outcome`]), and for L-SHADE and jSO shrinks the population
//! ([`Adaptive::reduce`]). The backends only copy what the plans say (trials, archive rows,
//! selection, compaction), so on one seed the CPU backend follows the device's run.
//!
//! Random numbers (`crate::rng`, Philox), with (Np', p') as in `ops.rs` (shared or not) and
//! `k = (gen * Np' + p') << 32`: the plan of population p in generation `gen` reads stream 2
//! from counter k (member by member: memory index, CR's two normal words, F's Cauchy words until
//! F > 0, SHADE's p_i, pbest, r1, r2, j_rand); the archive's random replacements and random
//! deletions read stream 3 from counter k. The crossover tests and bound corrections are those
//! of the fixed DE (`ops::trial`, seed `crossover`), the plan's seed is `mutation`.
//!
//! The mutation is one formula for every variant, its members as data:
//! `v = (x_a + Fw (x_b - x_c)) + F (x_d - x_e)`; current-to-pbest/1 is a = c = i, b = pbest,
//! d = r1, e = r2 (Fw = F; jSO's current-to-pbest-w/1 its weighted Fw). An index at or past Nm
//! is archive slot `index - Nm` of the population.

use super::config::{Algorithm, Config};
use super::constraints;
use crate::rng::Philox;
use rayon::prelude::*;
use std::borrow::Cow;

/// The smallest population of L-SHADE and jSO (their N_min).
pub const N_MIN: u32 = 4;

/// Words of a plan per member: a, b, c, d, e (the mutation's members) and j_rand.
pub const IDX: usize = 6;

/// Values as the adaptive variants compare them: `f` in `Engine::fitness`'s layout (or the
/// trials', Np Nm), and with constraints each one's violation in `v` and the level of the
/// comparisons (`constraints.rs`).
#[derive(Clone, Debug, Default)]
pub struct Values {
    pub f: Vec<f64>,
    pub v: Option<Vec<f64>>,
    pub level: f64,
}

impl Values {
    /// Unconstrained values.
    pub fn plain(f: Vec<f64>) -> Values {
        Values {
            f,
            v: None,
            level: 0.0,
        }
    }

    /// Keys that order the values as the comparisons do: the values themselves, or with
    /// constraints each one's rank ([`constraints::keys`]).
    pub fn keys(&self) -> Cow<'_, [f64]> {
        match &self.v {
            None => Cow::Borrowed(&self.f),
            Some(v) => Cow::Owned(constraints::keys(&self.f, v, self.level)),
        }
    }

    /// Violation i (0 without constraints).
    fn vi(&self, i: usize) -> f64 {
        self.v.as_ref().map_or(0.0, |v| v[i])
    }
}

/// A variant's parameters, its paper's defaults ([`Params::of`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Entries of the success-history memories (H; JADE keeps one mean of each, H = 1).
    pub h: usize,
    /// Initial memory values of F and CR.
    pub m_f: f64,
    pub m_cr: f64,
    /// The archive holds round(arc_rate * N) members.
    pub arc_rate: f64,
    /// The pbest fraction p (jSO: its initial value p_max, falling linearly to p_max / 2).
    pub p: f64,
    /// JADE's learning rate c.
    pub c: f64,
}

impl Params {
    /// The defaults of `alg`'s paper for populations of `nm` members.
    pub fn of(alg: Algorithm, nm: u32) -> Params {
        match alg {
            // JADE: mu_F = mu_CR = 0.5, c = 0.1, p = 0.05, |A| <= NP
            Algorithm::De | Algorithm::Jade | Algorithm::Jde100 => Params {
                h: 1,
                m_f: 0.5,
                m_cr: 0.5,
                arc_rate: 1.0,
                p: 0.05,
                c: 0.1,
            },
            // SHADE: H = NP, M = 0.5, |A| = NP, p_i in [2/NP, 0.2]
            Algorithm::Shade => Params {
                h: nm as usize,
                m_f: 0.5,
                m_cr: 0.5,
                arc_rate: 1.0,
                p: 0.2,
                c: 0.0,
            },
            // L-SHADE: H = 6, M = 0.5, r_arc = 2.6, p = 0.11
            Algorithm::LShade => Params {
                h: 6,
                m_f: 0.5,
                m_cr: 0.5,
                arc_rate: 2.6,
                p: 0.11,
                c: 0.0,
            },
            // jSO: H = 5, M_F = 0.3, M_CR = 0.8 (M_H = 0.9, 0.9), r_arc = 1, p_max = 0.25
            Algorithm::Jso => Params {
                h: 5,
                m_f: 0.3,
                m_cr: 0.8,
                arc_rate: 1.0,
                p: 0.25,
                c: 0.0,
            },
        }
    }

    /// The archive's capacity for a population of `n` members.
    pub fn archive_size(&self, n: u32) -> usize {
        (self.arc_rate * n as f64).round() as usize
    }
}

/// The state of one population: its memories, archive and size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Island {
    /// Memories of F and CR (NaN in `m_cr`: L-SHADE's terminal value ⊥, CR = 0 from then on).
    pub m_f: Vec<f64>,
    pub m_cr: Vec<f64>,
    /// The memory entry the next update writes.
    pub k: usize,
    /// The archive's occupied slots, in insertion order (a replacement keeps the slot's place).
    pub archive: Vec<u32>,
    /// Active members: slots 0..na (L-SHADE and jSO shrink it; the rest are +inf).
    pub na: u32,
    /// Evaluations of this population so far (the initial population's included).
    pub nfe: u64,
}

/// What the backends make the trials of one generation from; row `p * Nm + m`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub f: Vec<f64>,
    /// F of the x_b - x_c difference (jSO's weighted Fw; F elsewhere).
    pub fw: Vec<f64>,
    pub cr: Vec<f64>,
    /// `ops::cr_threshold` of CR.
    pub crt: Vec<u64>,
    /// [`IDX`] words per member: a, b, c, d, e, j_rand.
    pub idx: Vec<u32>,
}

/// The counter of population `p`'s draws in generation `gen` (module docs: `(gen Np' + p') << 32`).
fn stream_key(shared: bool, np: u32, gen: u64, p: u32) -> u64 {
    let (pk, npk) = if shared {
        (0, 1)
    } else {
        (p as u64, np as u64)
    };
    (gen * npk + pk) << 32
}

/// The rows of one population in a [`Plan`].
struct IslandPlan<'a> {
    f: &'a mut [f64],
    fw: &'a mut [f64],
    cr: &'a mut [f64],
    crt: &'a mut [u64],
    idx: &'a mut [u32],
}

/// One archive insertion: member `m` of population `p` (a parent its trial beat) into `slot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveMove {
    pub p: u32,
    pub m: u32,
    pub slot: u32,
}

/// The adaptation of every population.
#[derive(Clone, Debug)]
pub struct Adaptive {
    pub alg: Algorithm,
    pub par: Params,
    pub np: u32,
    pub nm: u32,
    pub nn: u32,
    /// Archive slots per population (for the initial size Nm).
    pub acap: u32,
    pub seed: u64,
    pub shared: bool,
    pub budget: u64,
    pub islands: Vec<Island>,
}

/// The weighted Lehmer mean Σ w s² / Σ w s (SHADE's mean of F; L-SHADE's and jSO's of CR too).
pub fn lehmer(s: &[f64], w: &[f64]) -> f64 {
    let num: f64 = s.iter().zip(w).map(|(s, w)| w * s * s).sum();
    let den: f64 = s.iter().zip(w).map(|(s, w)| w * s).sum();
    if den > 0.0 {
        num / den
    } else {
        0.0
    }
}

/// A normal value N(mu, sigma) from two uniform values (Box-Muller, the cosine branch).
pub fn normal(mu: f64, sigma: f64, u1: f64, u2: f64) -> f64 {
    mu + sigma * (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A Cauchy value C(mu, gamma) from a uniform value.
pub fn cauchy(mu: f64, gamma: f64, u: f64) -> f64 {
    mu + gamma * (std::f64::consts::PI * (u - 0.5)).tan()
}

/// The linear population size of L-SHADE after `nfe` of `budget` evaluations from `n_init`:
/// round((N_min - N_init) / MAX_NFE * NFE + N_init), at least N_min.
pub fn lpsr_size(n_init: u32, nfe: u64, budget: u64) -> u32 {
    let n = ((N_MIN as f64 - n_init as f64) / budget as f64 * nfe as f64 + n_init as f64).round();
    (n.max(N_MIN as f64) as u32).min(n_init)
}

/// `count` generations of an island of `na` active members (of `n_init`) after `nfe`
/// evaluations: the evaluations they make, and the island's `(na, nfe)` after them. With
/// `reduces` (L-SHADE, jSO) the size follows [`lpsr_size`] after every generation, as the
/// device's and the CPU twin's generations shrink it; else it stays.
pub fn sizes_ahead(
    reduces: bool,
    n_init: u32,
    budget: u64,
    mut na: u32,
    mut nfe: u64,
    count: u64,
) -> (u64, u32, u64) {
    if !reduces {
        let made = count * na as u64;
        return (made, na, nfe + made);
    }
    let mut made = 0;
    for _ in 0..count {
        made += na as u64;
        nfe += na as u64;
        na = lpsr_size(n_init, nfe, budget).min(na);
    }
    (made, na, nfe)
}

/// jSO's weighted F of the pbest term: 0.7 F before 20 % of the budget, 0.8 F before 40 %,
/// 1.2 F after.
pub fn jso_fw(f: f64, nfe: u64, budget: u64) -> f64 {
    let r = nfe as f64 / budget as f64;
    if r < 0.2 {
        0.7 * f
    } else if r < 0.4 {
        0.8 * f
    } else {
        1.2 * f
    }
}

/// jSO's bounds on a drawn CR (at least 0.7 before a quarter of the budget, 0.6 before half)
/// and F (at most 0.7 before 60 %).
pub fn jso_clamp(f: f64, cr: f64, nfe: u64, budget: u64) -> (f64, f64) {
    let r = nfe as f64 / budget as f64;
    let cr = if r < 0.25 {
        cr.max(0.7)
    } else if r < 0.5 {
        cr.max(0.6)
    } else {
        cr
    };
    let f = if r < 0.6 && f > 0.7 { 0.7 } else { f };
    (f, cr)
}

/// jSO's pbest fraction: p_max falling linearly to p_max / 2 over the budget.
pub fn jso_p(p_max: f64, nfe: u64, budget: u64) -> f64 {
    let r = (nfe as f64 / budget as f64).min(1.0);
    p_max - (p_max - p_max / 2.0) * r
}

/// Members `0..na` of `fx` from best to worst (ties: lower index first; non-finite last).
pub fn ranked(fx: &[f64], na: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..na).collect();
    let key = |v: f64| if v.is_nan() { f64::INFINITY } else { v };
    order.sort_by(|&a, &b| {
        key(fx[a as usize])
            .total_cmp(&key(fx[b as usize]))
            .then(a.cmp(&b))
    });
    order
}

impl Adaptive {
    /// The state after the initial population: memories at their initial values, an empty
    /// archive, every member active, Nm evaluations per population.
    pub fn new(cfg: &Config) -> Adaptive {
        let alg = cfg.options.algorithm;
        let par = Params::of(alg, cfg.nm);
        let mut island = Island {
            m_f: vec![par.m_f; par.h],
            m_cr: vec![par.m_cr; par.h],
            k: 0,
            archive: Vec::new(),
            na: cfg.nm,
            nfe: cfg.nm as u64,
        };
        if alg == Algorithm::Jso {
            // jSO: the last entry stays 0.9, 0.9
            island.m_f[par.h - 1] = 0.9;
            island.m_cr[par.h - 1] = 0.9;
        }
        Adaptive {
            alg,
            acap: par.archive_size(cfg.nm).max(1) as u32,
            par,
            np: cfg.np,
            nm: cfg.nm,
            nn: cfg.nn,
            seed: cfg.options.mutation_seed,
            shared: cfg.options.shared_random,
            budget: cfg.options.lshade_budget,
            islands: vec![island; cfg.np as usize],
        }
    }

    /// Active members of every population.
    pub fn na(&self) -> Vec<u32> {
        self.islands.iter().map(|i| i.na).collect()
    }

    /// Evaluations of the next generation (every active member).
    pub fn per_generation(&self) -> u64 {
        self.islands.iter().map(|i| i.na as u64).sum()
    }

    fn key(&self, gen: u64, p: u32) -> u64 {
        stream_key(self.shared, self.np, gen, p)
    }

    /// The plan of generation `gen` from the values `fx` (Np (Nm + 1), `Engine::fitness`).
    /// The populations are planned in parallel (each draws from its own stream).
    pub fn plan(&self, gen: u64, fx: &[f64]) -> Plan {
        let (np, nm) = (self.np as usize, self.nm as usize);
        let rows = np * nm;
        let mut plan = Plan {
            f: vec![0.0; rows],
            fw: vec![0.0; rows],
            cr: vec![0.0; rows],
            crt: vec![0; rows],
            idx: vec![0; rows * IDX],
        };
        let Plan {
            f,
            fw,
            cr,
            crt,
            idx,
        } = &mut plan;
        f.par_chunks_mut(nm)
            .zip(fw.par_chunks_mut(nm))
            .zip(cr.par_chunks_mut(nm))
            .zip(crt.par_chunks_mut(nm))
            .zip(idx.par_chunks_mut(nm * IDX))
            .enumerate()
            .for_each(|(p, ((((f, fw), cr), crt), idx))| {
                let rows = IslandPlan {
                    f,
                    fw,
                    cr,
                    crt,
                    idx,
                };
                self.plan_island(gen, p, &fx[p * (nm + 1)..p * (nm + 1) + nm], rows);
            });
        plan
    }

    /// The plan of population `p` (its values `fx`, Nm) into its rows.
    fn plan_island(&self, gen: u64, p: usize, fx: &[f64], plan: IslandPlan<'_>) {
        {
            let isl = &self.islands[p];
            let na = isl.na;
            let order = ranked(fx, na);
            let mut rng = Philox::at(self.seed, 2, self.key(gen, p as u32));
            let h = self.par.h;
            for m in 0..na {
                let row = m as usize;
                // the memory entry
                let r = if h > 1 {
                    rng.below(h as u32) as usize
                } else {
                    0
                };
                let (u1, u2) = (rng.unit(), rng.unit());
                let mut cr = if isl.m_cr[r].is_nan() {
                    0.0
                } else {
                    normal(isl.m_cr[r], 0.1, u1, u2).clamp(0.0, 1.0)
                };
                // F: Cauchy, drawn again while not positive, 1 when above
                let mut f = loop {
                    let f = cauchy(isl.m_f[r], 0.1, rng.unit());
                    if f > 0.0 {
                        break f.min(1.0);
                    }
                };
                let mut fw = f;
                let mut pfrac = self.par.p;
                match self.alg {
                    Algorithm::Shade => {
                        let lo = 2.0 / na as f64;
                        pfrac = lo + rng.unit() * (self.par.p - lo);
                    }
                    Algorithm::Jso => {
                        (f, cr) = jso_clamp(f, cr, isl.nfe, self.budget);
                        fw = jso_fw(f, isl.nfe, self.budget);
                        pfrac = jso_p(self.par.p, isl.nfe, self.budget);
                    }
                    _ => {}
                }
                let top = ((pfrac * na as f64).round() as u32).clamp(2, na);
                let pbest = order[rng.below(top) as usize];
                let r1 = loop {
                    let r = rng.below(na);
                    if r != m {
                        break r;
                    }
                };
                let pool = na + isl.archive.len() as u32;
                let r2 = loop {
                    let r = rng.below(pool);
                    if r != m && r != r1 {
                        break r;
                    }
                };
                let r2 = if r2 < na {
                    r2
                } else {
                    self.nm + isl.archive[(r2 - na) as usize]
                };
                let jrand = rng.below(self.nn);
                plan.f[row] = f;
                plan.fw[row] = fw;
                plan.cr[row] = cr;
                plan.crt[row] = super::ops::cr_threshold(cr);
                plan.idx[row * IDX..(row + 1) * IDX].copy_from_slice(&[m, pbest, m, r1, r2, jrand]);
            }
        }
    }

    /// After the evaluation of generation `gen`: the successes (trial strictly better than its
    /// target, `fy < fx`) update the memories, their parents go to the archive (random
    /// replacement when full), and the evaluations are counted. Returns the archive's moves,
    /// at most one per slot (the last insertion into a slot wins, as when made in order).
    /// The populations are handled in parallel (each draws from its own stream).
    ///
    /// With constraints a success is a trial better than its target by the comparisons at the
    /// level (`constraints::better`), weighed by its improvement in value where both
    /// violations are within the level or equal, else by its improvement in violation.
    pub fn outcome(&mut self, gen: u64, plan: &Plan, fx: &[f64], fy: &[f64]) -> Vec<ArchiveMove> {
        self.outcome_values(
            gen,
            plan,
            &Values::plain(fx.to_vec()),
            &Values::plain(fy.to_vec()),
        )
    }

    /// [`Adaptive::outcome`] of values that may carry violations ([`Values`]).
    pub fn outcome_values(
        &mut self,
        gen: u64,
        plan: &Plan,
        x: &Values,
        y: &Values,
    ) -> Vec<ArchiveMove> {
        let nm = self.nm as usize;
        let (fx, fy) = (&x.f, &y.f);
        let e = x.level;
        let (seed, alg, slots, shared, np) = (self.seed, self.alg, self.acap, self.shared, self.np);
        let par = &self.par;
        let per: Vec<Vec<ArchiveMove>> = self
            .islands
            .par_iter_mut()
            .enumerate()
            .map(|(p, isl)| {
                let mut rng = Philox::at(seed, 3, stream_key(shared, np, gen, p as u32));
                let acap = par.archive_size(isl.na).min(slots as usize);
                let (mut sf, mut scr, mut w) = (Vec::new(), Vec::new(), Vec::new());
                let mut placed: Vec<ArchiveMove> = Vec::new();
                for m in 0..isl.na as usize {
                    let (old, new) = (fx[p * (nm + 1) + m], fy[p * nm + m]);
                    let new = if new.is_finite() { new } else { f64::INFINITY };
                    let (vo, vn) = (
                        x.vi(p * (nm + 1) + m),
                        constraints::sanitized(y.vi(p * nm + m)),
                    );
                    // a success: strictly better (never with a NaN target: `new` is +inf or finite)
                    if !constraints::better(new, vn, old, vo, e) {
                        continue;
                    }
                    // by value, or by violation where the comparison was by violation
                    let (old, new) = if (vn <= e && vo <= e) || vn == vo {
                        (old, new)
                    } else {
                        (vo, vn)
                    };
                    let row = p * nm + m;
                    sf.push(plan.f[row]);
                    scr.push(plan.cr[row]);
                    // an infinite target (never evaluated to a finite value) weighs as much as the
                    // largest finite improvement can
                    let d = old - new;
                    w.push(if d.is_finite() { d } else { f64::MAX / 4.0 });
                    if acap == 0 {
                        continue;
                    }
                    let slot = if isl.archive.len() < acap {
                        let used: std::collections::HashSet<u32> =
                            isl.archive.iter().copied().collect();
                        let s = (0..slots).find(|s| !used.contains(s)).expect("a free slot");
                        isl.archive.push(s);
                        s
                    } else {
                        isl.archive[rng.below(isl.archive.len() as u32) as usize]
                    };
                    placed.retain(|mv| mv.slot != slot);
                    placed.push(ArchiveMove {
                        p: p as u32,
                        m: m as u32,
                        slot,
                    });
                }
                isl.nfe += isl.na as u64;
                if sf.is_empty() {
                    return placed;
                }
                let total: f64 = w.iter().sum();
                let w: Vec<f64> = w.iter().map(|d| d / total).collect();
                let k = isl.k;
                match alg {
                    Algorithm::De | Algorithm::Jade | Algorithm::Jde100 => {
                        let c = par.c;
                        let mean_cr = scr.iter().sum::<f64>() / scr.len() as f64;
                        let ones = vec![1.0; sf.len()];
                        isl.m_cr[0] = (1.0 - c) * isl.m_cr[0] + c * mean_cr;
                        isl.m_f[0] = (1.0 - c) * isl.m_f[0] + c * lehmer(&sf, &ones);
                    }
                    Algorithm::Shade => {
                        isl.m_cr[k] = scr.iter().zip(&w).map(|(s, w)| s * w).sum();
                        isl.m_f[k] = lehmer(&sf, &w);
                        isl.k = (k + 1) % par.h;
                    }
                    Algorithm::LShade => {
                        let terminal = isl.m_cr[k].is_nan() || scr.iter().all(|&c| c == 0.0);
                        isl.m_cr[k] = if terminal { f64::NAN } else { lehmer(&scr, &w) };
                        isl.m_f[k] = lehmer(&sf, &w);
                        isl.k = (k + 1) % par.h;
                    }
                    Algorithm::Jso => {
                        let terminal = isl.m_cr[k].is_nan() || scr.iter().all(|&c| c == 0.0);
                        isl.m_cr[k] = if terminal {
                            f64::NAN
                        } else {
                            (lehmer(&scr, &w) + isl.m_cr[k]) / 2.0
                        };
                        isl.m_f[k] = (lehmer(&sf, &w) + isl.m_f[k]) / 2.0;
                        // the last entry is never written
                        isl.k = (k + 1) % (par.h - 1);
                    }
                }
                placed
            })
            .collect();
        per.into_iter().flatten().collect()
    }

    /// L-SHADE's and jSO's linear reduction after a generation whose selected values are `fx`
    /// (Np (Nm + 1)): for each population, `None` when it keeps its size, else the members it
    /// keeps (the best N', ascending member index: member `keep[j]` moves to slot j). The
    /// archive shrinks with it by random deletion (stream 3 after the generation's draws; the
    /// slots stay where they are).
    pub fn reduce(&mut self, gen: u64, fx: &[f64]) -> Option<Vec<Vec<u32>>> {
        if !self.alg.reduces() {
            return None;
        }
        let nm = self.nm as usize;
        let mut any = false;
        let mut keeps = Vec::new();
        for p in 0..self.np as usize {
            let key = self.key(gen, p as u32) | (1 << 31);
            let isl = &mut self.islands[p];
            let n = lpsr_size(self.nm, isl.nfe, self.budget).min(isl.na);
            if n >= isl.na {
                keeps.push((0..isl.na).collect());
                continue;
            }
            any = true;
            let mut keep =
                ranked(&fx[p * (nm + 1)..p * (nm + 1) + nm], isl.na)[..n as usize].to_vec();
            keep.sort_unstable();
            isl.na = n;
            let cap = self.par.archive_size(n);
            // the draws of the archive's deletions follow those of its insertions on stream 3
            let mut rng = Philox::at(self.seed, 3, key);
            while isl.archive.len() > cap {
                let j = rng.below(isl.archive.len() as u32) as usize;
                isl.archive.remove(j);
            }
            keeps.push(keep);
        }
        any.then_some(keeps)
    }
}

/// The values after greedy selection of `fy` into `fx` (non-finite trials +inf), as both
/// backends select (`rule` replaces).
pub fn selected(
    fx: &[f64],
    fy: &[f64],
    na: &[u32],
    nm: usize,
    rule: super::config::Selection,
) -> Vec<f64> {
    let mut out = fx.to_vec();
    for (p, &n) in na.iter().enumerate() {
        for m in 0..n as usize {
            let f = fy[p * nm + m];
            let f = if f.is_finite() { f } else { f64::INFINITY };
            if rule.replaces(f, out[p * (nm + 1) + m]) {
                out[p * (nm + 1) + m] = f;
            }
        }
    }
    out
}

/// [`selected`] with constraints: the values and violations after the selection of `y` into
/// `x` at their level (`constraints::sanitized` violations; `Selection::replaces_at`).
pub fn selected_values(
    x: &Values,
    y: &Values,
    na: &[u32],
    nm: usize,
    rule: super::config::Selection,
) -> Values {
    let Some(vx) = &x.v else {
        return Values::plain(selected(&x.f, &y.f, na, nm, rule));
    };
    let (mut f, mut v) = (x.f.clone(), vx.clone());
    for (p, &n) in na.iter().enumerate() {
        for m in 0..n as usize {
            let (i, j) = (p * (nm + 1) + m, p * nm + m);
            let fy = if y.f[j].is_finite() {
                y.f[j]
            } else {
                f64::INFINITY
            };
            let vy = constraints::sanitized(y.vi(j));
            if rule.replaces_at(fy, vy, f[i], v[i], x.level) {
                (f[i], v[i]) = (fy, vy);
            }
        }
    }
    Values {
        f,
        v: Some(v),
        level: x.level,
    }
}

/// What a backend does for the adaptive variants; [`generation`] drives it.
pub trait AdaptBackend {
    /// Every value, `Engine::fitness`'s layout (with constraints their violations and level).
    fn fitness_values(&mut self) -> crate::error::Result<Values>;
    /// Makes the trials of the active members from `plan` (reading X and the archive).
    fn make_trials(&mut self, gen: u64, plan: &Plan, na: &[u32]) -> crate::error::Result<()>;
    /// Evaluates the active trials: Fy (Np Nm), +inf for inactive members (with constraints
    /// their violations, +inf for inactive members).
    fn evaluate_trials(&mut self, na: &[u32]) -> crate::error::Result<Values>;
    /// Copies parents into archive slots (before the selection overwrites them).
    fn archive(&mut self, moves: &[ArchiveMove]) -> crate::error::Result<()>;
    /// Greedy selection of the active trials, then the bests.
    fn select(&mut self, na: &[u32]) -> crate::error::Result<()>;
    /// Moves member `keep[p][j]` of population p to slot j, the slots past it to +inf; then the
    /// bests.
    fn compact(&mut self, keep: &[Vec<u32>]) -> crate::error::Result<()>;
}

/// One generation of an adaptive variant on `b`; returns the evaluations.
pub fn generation(
    a: &mut Adaptive,
    b: &mut dyn AdaptBackend,
    gen: u64,
    rule: super::config::Selection,
) -> crate::error::Result<u64> {
    let fx = b.fitness_values()?;
    let na = a.na();
    let plan = a.plan(gen, &fx.keys());
    b.make_trials(gen, &plan, &na)?;
    let fy = b.evaluate_trials(&na)?;
    let moves = a.outcome_values(gen, &plan, &fx, &fy);
    b.archive(&moves)?;
    b.select(&na)?;
    if a.alg.reduces() {
        let after = selected_values(&fx, &fy, &na, a.nm as usize, rule);
        if let Some(keep) = a.reduce(gen, &after.keys()) {
            b.compact(&keep)?;
        }
    }
    Ok(na.iter().map(|&n| n as u64).sum())
}
