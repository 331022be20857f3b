//! The SHADE family on the device, and its host twin (docs/specs/DE.md "Adaptive DE,
//! on the device"): JADE (J. Zhang, A. C. Sanderson, "JADE: adaptive differential evolution with
//! optional external archive", IEEE TEC 13(5), 2009), SHADE (R. Tanabe, A. Fukunaga,
//! "Success-history based parameter adaptation for differential evolution", CEC 2013), L-SHADE
//! (R. Tanabe, A. Fukunaga, "Improving the search performance of SHADE using linear population
//! size reduction", CEC 2014) and jSO (J. Brest, M. S. Maučec, B. Bošković, "Single objective
//! real-parameter optimization: algorithm jSO", CEC 2017).
//!
//! [`generation`] computes what `ade_gen` of `cl/de_batch.cl` computes, from the same words: the
//! CPU backend of the batched DE runs it, and the tests hold the device to it. The rules' formulas
//! (the means, the schedules, the size reduction) are those of `adapt.rs`.
//!
//! Random numbers, with `t = (g Np + p) Nm + m` (global island p of Np, member m, Nm the initial
//! size; [`key`]): stream 2 of the mutation seed at counter `8 t` gives the memory entry, CR's two
//! normal words and SHADE's p_i, at `8 t + 1` pbest, r1, r2 and j_rand, at `8 t + 2 ..= 8 t + 7`
//! the Cauchy draws of F, four per counter, until one is positive (at most [`CAUCHY_TRIES`]; then
//! F = min(M_F, 1)); stream 3 at t the archive slot of a success when the archive is full;
//! stream 4 at `(g Np + p) Nm + d / 4`, word `d % 4`, the d-th random deletion from the archive
//! when it shrinks; the crossover and bound words are those of the fixed DE with key t (as
//! jDE100's, `jde.rs`). r1 and r2 are drawn by rank (r1 among the members other than m, r2 among
//! the members and archive rows other than m and r1), so no draw is repeated.

use super::adapt::{cauchy, jso_clamp, jso_fw, jso_p, lpsr_size, normal, ranked, Params};
use super::config::{Algorithm, Selection};
use super::jde::{Bounds, Evaluate};
use super::ops;
use crate::error::Result;
use crate::rng::rng4;

/// The sums of the success sets reduced per generation ([`sums`]).
pub const SUMS: usize = 7;
/// Cauchy draws of F at most (six counters of four words).
pub const CAUCHY_TRIES: u32 = 24;
/// An improvement's weight at most (an infinite one: a target never finite).
pub const WMAX: f64 = 1e30;

/// The random key of member m of island p (of `np`) in generation g, for `nm` members initially.
pub fn key(g: u64, p: u32, np: u32, nm: u32, m: u32) -> u64 {
    (g * np as u64 + p as u64) * nm as u64 + m as u64
}

/// A variant and its parameters: the data `ade_gen` reads (`ade_pop`).
#[derive(Clone, Debug)]
pub struct Shape {
    pub alg: Algorithm,
    pub par: Params,
    /// The archive's rows (round(arc_rate Nm)).
    pub acap: u32,
    pub nm: u32,
    pub nn: u32,
    pub np: u32,
    pub seed_mut: u64,
    pub seed_cross: u64,
    /// MAX_NFE of L-SHADE's and jSO's schedules, per island.
    pub budget: u64,
    pub selection: Selection,
}

impl Shape {
    /// `alg` (JADE, SHADE, L-SHADE or jSO) with its paper's parameters for islands of `nm`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        alg: Algorithm,
        nm: u32,
        nn: u32,
        np: u32,
        seed_mut: u64,
        seed_cross: u64,
        budget: u64,
        selection: Selection,
    ) -> Shape {
        let par = Params::of(alg, nm);
        Shape {
            alg,
            acap: par.archive_size(nm) as u32,
            par,
            nm,
            nn,
            np,
            seed_mut,
            seed_cross,
            budget: budget.max(1),
            selection,
        }
    }

    /// The archive's size for n members.
    pub fn cap(&self, n: u32) -> u32 {
        (self.par.archive_size(n) as u32).min(self.acap)
    }

    fn reduces(&self) -> bool {
        self.alg.reduces()
    }
}

/// One island's adaptation: memories, archive, counters (the device's mem, arc and counters).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// M_F and M_CR (NaN in `m_cr`: the terminal value ⊥).
    pub m_f: Vec<f64>,
    pub m_cr: Vec<f64>,
    /// The memory entry the next update writes.
    pub k: u32,
    /// Archive rows `arc[j Nn ..]`, j < alen.
    pub arc: Vec<f64>,
    pub alen: u32,
    /// Active members (slots 0..na; the others +inf).
    pub na: u32,
    /// Evaluations so far, the initial population's included.
    pub nfe: u64,
}

impl State {
    /// After the initial population: the memories at their paper's values (jSO's last entry
    /// 0.9, 0.9), an empty archive, every member active, Nm evaluations.
    pub fn new(s: &Shape) -> State {
        let h = s.par.h;
        let mut st = State {
            m_f: vec![s.par.m_f; h],
            m_cr: vec![s.par.m_cr; h],
            k: 0,
            arc: vec![0.0; s.acap as usize * s.nn as usize],
            alen: 0,
            na: s.nm,
            nfe: s.nm as u64,
        };
        if s.alg == Algorithm::Jso {
            st.m_f[h - 1] = 0.9;
            st.m_cr[h - 1] = 0.9;
        }
        st
    }

    /// The counters as the device keeps them: k, archive length, active members, evaluations.
    pub fn counters(&self) -> [u64; 4] {
        [self.k as u64, self.alen as u64, self.na as u64, self.nfe]
    }
}

/// What member m's trial is made with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    pub f: f64,
    /// F of the pbest difference (jSO's Fw; F elsewhere).
    pub fw: f64,
    pub cr: f64,
    pub pbest: u32,
    pub r1: u32,
    /// Below na a member, else archive row `r2 - na`.
    pub r2: u32,
    pub jrand: u32,
}

/// Member m's draws in generation g of island p whose members by rank are `order`.
pub fn draw(s: &Shape, st: &State, g: u64, p: u32, m: u32, order: &[u32]) -> Draw {
    let (na, h) = (st.na, s.par.h as u32);
    let t = key(g, p, s.np, s.nm, m);
    let w0 = rng4(s.seed_mut, 2, 8 * t);
    let w1 = rng4(s.seed_mut, 2, 8 * t + 1);
    let r = ops::below(w0[0], h) as usize;
    let (mf, mcr) = (st.m_f[r], st.m_cr[r]);
    let mut cr = if mcr.is_nan() {
        0.0
    } else {
        normal(mcr, 0.1, ops::unit(w0[1]), ops::unit(w0[2])).clamp(0.0, 1.0)
    };
    let mut f = (0..CAUCHY_TRIES)
        .map(|i| {
            cauchy(
                mf,
                0.1,
                ops::unit(rng4(s.seed_mut, 2, 8 * t + 2 + (i / 4) as u64)[(i % 4) as usize]),
            )
        })
        .find(|&v| v > 0.0)
        .map_or(mf.min(1.0), |v| v.min(1.0));
    let mut fw = f;
    let mut pf = s.par.p;
    match s.alg {
        Algorithm::Shade => {
            let lo = 2.0 / na as f64;
            pf = lo + ops::unit(w0[3]) * (s.par.p - lo);
        }
        Algorithm::Jso => {
            (f, cr) = jso_clamp(f, cr, st.nfe, s.budget);
            fw = jso_fw(f, st.nfe, s.budget);
            pf = jso_p(s.par.p, st.nfe, s.budget);
        }
        _ => {}
    }
    let top = ((pf * na as f64).round() as u32).clamp(2, na);
    let pbest = order[ops::below(w1[0], top) as usize];
    let mut r1 = ops::below(w1[1], na - 1);
    r1 += (r1 >= m) as u32;
    let mut r2 = ops::below(w1[2], na + st.alen - 2);
    r2 += (r2 >= m.min(r1)) as u32;
    r2 += (r2 >= m.max(r1)) as u32;
    Draw {
        f,
        fw,
        cr,
        pbest,
        r1,
        r2,
        jrand: ops::below(w1[3], s.nn),
    }
}

/// The sums of the success sets `ade_gen` reduces (w = 1 for JADE, else the improvement d):
/// w, w CR, w CR², w F, w F², the count, the count with CR > 0.
pub fn sums(alg: Algorithm, d: &[f64], f: &[f64], cr: &[f64]) -> [f64; SUMS] {
    let mut s = [0.0; SUMS];
    for ((&d, &f), &cr) in d.iter().zip(f).zip(cr) {
        if d > 0.0 {
            let w = if alg == Algorithm::Jade { 1.0 } else { d };
            s[0] += w;
            s[1] += w * cr;
            s[2] += w * cr * cr;
            s[3] += w * f;
            s[4] += w * f * f;
            s[5] += 1.0;
            s[6] += (cr > 0.0) as u32 as f64;
        }
    }
    s
}

/// The memory update from the sums (nothing when no trial succeeded): JADE's means move by c
/// toward the arithmetic mean of S_CR and the Lehmer mean of S_F; SHADE's entry k takes the
/// weighted arithmetic mean of S_CR and the weighted Lehmer mean of S_F; L-SHADE takes the
/// weighted Lehmer means (⊥ once M_CR,k is ⊥ or every S_CR is 0); jSO averages them with the
/// old entry and never writes its last one.
pub fn update(s: &Shape, st: &mut State, sum: &[f64; SUMS]) {
    if sum[5] == 0.0 {
        return;
    }
    let k = st.k as usize;
    let (mf, mcr) = (st.m_f[k], st.m_cr[k]);
    let (lf, lcr) = (sum[4] / sum[3], sum[2] / sum[1]);
    let (nf, ncr) = match s.alg {
        Algorithm::Jade => {
            let c = s.par.c;
            (
                (1.0 - c) * mf + c * lf,
                (1.0 - c) * mcr + c * (sum[1] / sum[0]),
            )
        }
        Algorithm::Shade => (lf, sum[1] / sum[0]),
        _ => {
            let term = mcr.is_nan() || sum[6] == 0.0;
            let jso = s.alg == Algorithm::Jso;
            let ncr = if term {
                f64::NAN
            } else if jso {
                (lcr + mcr) / 2.0
            } else {
                lcr
            };
            (if jso { (lf + mf) / 2.0 } else { lf }, ncr)
        }
    };
    st.m_f[k] = nf;
    st.m_cr[k] = ncr;
    let hk = if s.alg == Algorithm::Jso {
        s.par.h - 1
    } else {
        s.par.h
    };
    st.k = ((k + 1) % hk) as u32;
}

/// The archive slots of the successes (`d[m] > 0`) in member order: the next free row while the
/// archive is below `cap`, else a random one (stream 3 at the member's key); None when the
/// archive has no room at all. A later success into the same slot wins.
pub fn slots(s: &Shape, g: u64, p: u32, alen: u32, cap: u32, d: &[f64]) -> Vec<Option<u32>> {
    let mut before = 0;
    d.iter()
        .enumerate()
        .map(|(m, &d)| {
            if d <= 0.0 || cap == 0 {
                return None;
            }
            let slot = if alen + before < cap {
                alen + before
            } else {
                ops::below(rng4(s.seed_mut, 3, key(g, p, s.np, s.nm, m as u32))[0], cap)
            };
            before += 1;
            Some(slot)
        })
        .collect()
}

/// The random deletions from an archive of `alen` rows down to `cap`: each moves the last row
/// into a random one (stream 4).
pub fn truncate(s: &Shape, g: u64, p: u32, arc: &mut [f64], mut alen: u32, cap: u32) -> u32 {
    let nn = s.nn as usize;
    let mut d = 0u64;
    while alen > cap {
        let w = rng4(
            s.seed_mut,
            4,
            (g * s.np as u64 + p as u64) * s.nm as u64 + d / 4,
        )[(d % 4) as usize];
        let j = ops::below(w, alen) as usize;
        alen -= 1;
        let last = alen as usize;
        arc.copy_within(last * nn..(last + 1) * nn, j * nn);
        d += 1;
    }
    alen
}

/// One island as the twin holds it: X member by member (`x[m Nn ..]`, at least Nm rows), Fx
/// (at least Nm values), the adaptation.
pub struct IslandMut<'a> {
    pub x: &'a mut [f64],
    pub fx: &'a mut [f64],
    pub st: &'a mut State,
}

/// Generation g (1-based) of every island (`islands[p]` is island p), as `ade_gen` computes it;
/// the trials of all islands are evaluated in one call.
pub fn generation(
    s: &Shape,
    g: u64,
    islands: &mut [IslandMut<'_>],
    bounds: &Bounds<'_>,
    eval: &mut Evaluate<'_>,
) -> Result<()> {
    let nn = s.nn as usize;
    let mut rows = Vec::new();
    let mut draws = Vec::with_capacity(islands.len());
    for (p, isl) in islands.iter().enumerate() {
        let na = isl.st.na;
        let order = ranked(isl.fx, na);
        let x = &*isl.x;
        let arc = &isl.st.arc;
        let mut ds = Vec::with_capacity(na as usize);
        for m in 0..na {
            let d = draw(s, isl.st, g, p as u32, m, &order);
            let t = key(g, p as u32, s.np, s.nm, m);
            let tk = ops::TrialKey::counter(s.seed_cross, t, s.nn);
            let (i, pb, r1) = (m as usize * nn, d.pbest as usize * nn, d.r1 as usize * nn);
            let x2 = |j: usize| {
                if d.r2 >= na {
                    arc[(d.r2 - na) as usize * nn + j]
                } else {
                    x[d.r2 as usize * nn + j]
                }
            };
            let start = rows.len();
            rows.resize(start + nn, 0.0);
            ops::trial(
                &mut rows[start..],
                tk,
                d.jrand,
                ops::cr_threshold(d.cr),
                bounds.lo,
                bounds.hi,
                |j| bounds.kinds[j],
                bounds.integral,
                |j| (x[i + j] + d.fw * (x[pb + j] - x[i + j])) + d.f * (x[r1 + j] - x2(j)),
                |j| x[i + j],
            );
            ds.push(d);
        }
        draws.push(ds);
    }
    let v = eval(&rows)?;
    let mut off = 0;
    for (p, (isl, ds)) in islands.iter_mut().zip(&draws).enumerate() {
        let (p, na) = (p as u32, isl.st.na as usize);
        let fy = &v[off..off + na];
        let ys = &rows[off * nn..(off + na) * nn];
        off += na;
        let d: Vec<f64> = (0..na)
            .map(|m| {
                if fy[m] < isl.fx[m] {
                    (isl.fx[m] - fy[m]).min(WMAX)
                } else {
                    0.0
                }
            })
            .collect();
        let f: Vec<f64> = ds.iter().map(|d| d.f).collect();
        let cr: Vec<f64> = ds.iter().map(|d| d.cr).collect();
        let sum = sums(s.alg, &d, &f, &cr);
        // the parents into the archive, then the selection
        let cap = s.cap(na as u32);
        let sl = slots(s, g, p, isl.st.alen, cap, &d);
        for (m, slot) in sl.iter().enumerate() {
            if let Some(j) = *slot {
                if !sl[m + 1..].contains(slot) {
                    isl.st.arc[j as usize * nn..(j as usize + 1) * nn]
                        .copy_from_slice(&isl.x[m * nn..(m + 1) * nn]);
                }
            }
        }
        for m in 0..na {
            if s.selection.replaces(fy[m], isl.fx[m]) {
                isl.fx[m] = fy[m];
                isl.x[m * nn..(m + 1) * nn].copy_from_slice(&ys[m * nn..(m + 1) * nn]);
            }
        }
        if cap > 0 {
            isl.st.alen = (isl.st.alen + sum[5] as u32).min(cap);
        }
        update(s, isl.st, &sum);
        isl.st.nfe += na as u64;
        reduce(s, g, p, isl);
    }
    Ok(())
}

/// L-SHADE's and jSO's linear reduction after a generation: the best N' stay, moved to slots
/// 0..N' in member order, the rest +inf; the archive loses random rows down to its size for N'.
fn reduce(s: &Shape, g: u64, p: u32, isl: &mut IslandMut<'_>) {
    let na = isl.st.na;
    if !s.reduces() {
        return;
    }
    let n2 = lpsr_size(s.nm, isl.st.nfe, s.budget).min(na);
    if n2 >= na {
        return;
    }
    let nn = s.nn as usize;
    let mut keep = ranked(isl.fx, na)[..n2 as usize].to_vec();
    keep.sort_unstable();
    for (to, &m) in keep.iter().enumerate() {
        let m = m as usize;
        isl.x.copy_within(m * nn..(m + 1) * nn, to * nn);
        isl.fx[to] = isl.fx[m];
    }
    isl.fx[n2 as usize..na as usize].fill(f64::INFINITY);
    let cap2 = s.cap(n2);
    isl.st.alen = truncate(s, g, p, &mut isl.st.arc, isl.st.alen, cap2);
    isl.st.na = n2;
}
