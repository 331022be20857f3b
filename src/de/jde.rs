//! jDE100 (J. Brest, M. S. Maučec, B. Bošković, "The 100-Digit Challenge: Algorithm jDE100",
//! IEEE CEC 2019, pp. 19-26), following jDE100 as restated by the code of its successor j2020
//! (same authors, CEC 2020) with its CEC 2019 settings (docs/specs/DE.md "jDE100"): the host
//! reference of the device's `jde_cycle` (`cl/de_batch.cl`), word for word, and the CPU twin's
//! cycle built from it, so that on one seed the CPU backend draws the device's numbers and in
//! double follows its run.
//!
//! An island of Nm = bNP + sNP members: members 0..bNP are the big population, bNP.. the small
//! one (`DeOptions::jde_small` members). Each member has its own F and CR (initially 0.5, 0.9).
//! One cycle (one "generation" of the island DE): the big population's restart test, one
//! generation of the big population, the small population's restart or the copy of the best into
//! it, then ceil(bNP / sNP) generations of the small population (the source alternates bNP
//! evaluations of each). The source is steady-state; here each generation is generational.
//!
//! Random numbers, with G = g (k + 1) + s (sub-generation s of cycle g: 0 the big population's,
//! 1..k the small one's; k = ceil(bNP / sNP)) and `t = (G Np + p) Nm + m` for global member m of
//! island p of Np: F and CR from words 0-3 of stream 2 of the mutation seed at counter t (the
//! tau1 test, F, the tau2 test, CR); r1, r2, r3 and j_rand from words 0-3 of stream 0 of the
//! mutation seed at t; the crossover and bound words those of the fixed DE (`ops::trial`) with
//! key t; a restart's values word 0 of stream 1 of the init seed at `((G Np + p) Nm + m) Nn + n`.

use super::config::{BoundsCorrection, Config, Selection};
use super::ops;
use crate::error::Result;
use crate::rng::rng4;

/// tau1 and tau2: the probabilities of drawing a new F and a new CR for a trial.
pub const TAU: f64 = 0.1;
/// F of a new draw: `fl + U * F_SPAN`.
pub const F_SPAN: f64 = 1.1;
/// The initial (and restart) F and CR of every member.
pub const F_INIT: f64 = 0.5;
pub const CR_INIT: f64 = 0.9;

/// The ranges of one population's F and CR draws: `F = fl + U 1.1`, `CR = crl + U crspan`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranges {
    pub fl: f64,
    pub crl: f64,
    pub crspan: f64,
}

/// The big population's: F in [0.1, 1.2), CR in [0, 1).
pub const BIG: Ranges = Ranges {
    fl: 0.1,
    crl: 0.0,
    crspan: 1.0,
};
/// The small population's: F in [0.17, 1.27), CR in [0.1, 0.8).
pub const SMALL: Ranges = Ranges {
    fl: 0.17,
    crl: 0.1,
    crspan: 0.7,
};

/// What an island's restarts have done: the age (big-population evaluations since the island's
/// best ever last improved), the evaluations the restarts made, and the restarts of each
/// population. The device keeps the same four counters (`ST` of `jde_fused`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JdeState {
    pub age: u64,
    pub restart_evaluations: u64,
    pub big_restarts: u64,
    pub small_restarts: u64,
}

impl JdeState {
    pub fn from_words(w: &[u64]) -> JdeState {
        JdeState {
            age: w[0],
            restart_evaluations: w[1],
            big_restarts: w[2],
            small_restarts: w[3],
        }
    }

    /// The four counters in the order of [`JdeState::from_words`] (and of the device's `ST`).
    pub fn words(&self) -> [u64; 4] {
        [
            self.age,
            self.restart_evaluations,
            self.big_restarts,
            self.small_restarts,
        ]
    }
}

/// The sub-generations of a cycle after the big one: ceil(bNP / sNP).
pub fn small_generations(nb: u32, ns: u32) -> u64 {
    nb.div_ceil(ns) as u64
}

/// The evaluations of one cycle without restarts: bNP + ceil(bNP / sNP) sNP.
pub fn per_cycle(nb: u32, ns: u32) -> u64 {
    nb as u64 + small_generations(nb, ns) * ns as u64
}

/// The random key of member m (0..Nm) of island p of `np` in sub-generation `sub`.
pub fn key(sub: u64, p: u32, np: u32, nm: u32, m: u32) -> u64 {
    (sub * np as u64 + p as u64) * nm as u64 + m as u64
}

/// F and CR of a trial with key t whose target has `f` and `cr`: with probability tau1 a new F
/// `fl + U 1.1`, else `f`; with probability tau2 a new CR `crl + U crspan`, else `cr`.
pub fn draw_f_cr(seed_mut: u64, t: u64, f: f64, cr: f64, r: Ranges) -> (f64, f64) {
    let w = rng4(seed_mut, 2, t);
    let f = if ops::unit(w[0]) < TAU {
        r.fl + ops::unit(w[1]) * F_SPAN
    } else {
        f
    };
    let cr = if ops::unit(w[2]) < TAU {
        r.crl + ops::unit(w[3]) * r.crspan
    } else {
        cr
    };
    (f, cr)
}

/// Three distinct members of 0..n, all different from i, from the words w[0..3]: word t picks
/// among the members not yet chosen (the rank mapping of `ops::indices`).
pub fn pick3(w: [u32; 4], i: u32, n: u32) -> [u32; 3] {
    let mut r = [0u32; 3];
    ops::distinct(&w[..3], i, n, &mut r);
    r
}

/// r1, r2, r3 (population-local) and j_rand of the trial with key t of local member i of a
/// population of n.
pub fn indices(seed_mut: u64, t: u64, i: u32, n: u32, nn: u32) -> ([u32; 3], u32) {
    let w = rng4(seed_mut, 0, t);
    (pick3(w, i, n), ops::below(w[3], nn))
}

/// How many of `fx` are within `eps` of `fb` (`|f - fb| < eps`, an absolute difference).
pub fn near(fx: &[f64], fb: f64, eps: f64) -> usize {
    fx.iter().filter(|&&f| (f - fb).abs() < eps).count()
}

/// Whether a population of values `fx` restarts: more than 25 % of it, and more than 2 members,
/// within `eps` of `fb` (the best of both populations).
pub fn restart_due(fx: &[f64], fb: f64, eps: f64) -> bool {
    let c = near(fx, fb, eps);
    4 * c > fx.len() && c > 2
}

/// Component n of member m's new values when its population restarts in sub-generation `sub`.
#[allow(clippy::too_many_arguments)]
pub fn restart_value(
    seed_init: u64,
    sub: u64,
    p: u32,
    np: u32,
    nm: u32,
    m: u32,
    nn: u32,
    n: u32,
    a: f64,
    b: f64,
) -> f64 {
    let c = key(sub, p, np, nm, m) * nn as u64 + n as u64;
    a + ops::unit(rng4(seed_init, 1, c)[0]) * (b - a)
}

/// The best of `fx` (lowest value, ties to the lowest index; index 0 when none is finite) and its
/// value, as the device's `deb_best`.
pub fn best_of(fx: &[f64]) -> (usize, f64) {
    let b = ops::best_member(fx).unwrap_or(0);
    (b, fx[b])
}

/// The parameters of one island's cycle.
#[derive(Clone, Debug)]
pub struct Shape {
    pub nb: u32,
    pub ns: u32,
    pub nn: u32,
    pub np: u32,
    pub seed_init: u64,
    pub seed_mut: u64,
    pub seed_cross: u64,
    pub eps: f64,
    pub age_limit: u64,
    pub selection: Selection,
}

impl Shape {
    pub fn of(cfg: &Config) -> Shape {
        let o = &cfg.options;
        Shape {
            nb: cfg.nm - o.jde_small,
            ns: o.jde_small,
            nn: cfg.nn,
            np: cfg.np,
            seed_init: o.init_seed,
            seed_mut: o.mutation_seed,
            seed_cross: o.crossover_seed,
            eps: o.jde_eps,
            age_limit: o.jde_age,
            selection: o.selection,
        }
    }

    fn nm(&self) -> u32 {
        self.nb + self.ns
    }
}

/// One island's state as the CPU twin holds it: X (member m at `x[m * Nn ..]`, the best ever at
/// m = Nm), Fx (the best ever's value at Nm), F and CR per member, the counters.
pub struct IslandMut<'a> {
    pub x: &'a mut [f64],
    pub fx: &'a mut [f64],
    pub f: &'a mut [f64],
    pub cr: &'a mut [f64],
    pub st: &'a mut JdeState,
}

/// The bounds and corrections of every dimension.
pub struct Bounds<'a> {
    pub lo: &'a [f64],
    pub hi: &'a [f64],
    pub kinds: &'a [BoundsCorrection],
    /// The integer dimensions (empty: none), rounded where components are made.
    pub integral: &'a [bool],
}

/// Rows to evaluate: every island's in one call (values already in the fitness precision, a
/// non-finite one +inf).
pub type Evaluate<'e> = dyn FnMut(&[f64]) -> Result<Vec<f64>> + 'e;

/// Cycle g (1-based) of every island (`islands[p]` is island p), as `jde_cycle` of
/// `cl/de_batch.cl` computes it; the rows of each phase of all islands are evaluated in one call.
pub fn cycle(
    s: &Shape,
    g: u64,
    islands: &mut [IslandMut<'_>],
    bounds: &Bounds<'_>,
    eval: &mut Evaluate<'_>,
) -> Result<()> {
    let (nb, ns, nm, nn) = (s.nb as usize, s.ns as usize, s.nm() as usize, s.nn as usize);
    let k = small_generations(s.nb, s.ns);
    let g0 = g * (k + 1);
    // the big population's restart
    let mut which = Vec::new();
    for (p, isl) in islands.iter_mut().enumerate() {
        let (_, fb) = best_of(&isl.fx[..nm]);
        let due =
            restart_due(&isl.fx[..nb], fb, s.eps) || (s.age_limit > 0 && isl.st.age > s.age_limit);
        if due {
            which.push(p);
            isl.st.restart_evaluations += nb as u64;
            isl.st.big_restarts += 1;
            isl.st.age = 0;
        }
    }
    restart(s, g0, &which, 0, nb, None, islands, bounds, eval)?;
    for &p in &which {
        keep_best(s, &mut islands[p], 0, nb);
    }
    // the big population's generation
    generation(s, g0, 0, nb, BIG, islands, bounds, eval)?;
    for isl in islands.iter_mut() {
        isl.st.age += nb as u64;
        keep_best(s, isl, 0, nb);
    }
    // the small population's restart, or the best copied into it
    let mut which = Vec::new();
    let mut skips = Vec::new();
    for (p, isl) in islands.iter_mut().enumerate() {
        let (b, fb) = best_of(&isl.fx[..nm]);
        if b >= nb {
            if restart_due(&isl.fx[nb..nm], fb, s.eps) {
                which.push(p);
                skips.push(b);
                isl.st.restart_evaluations += ns as u64 - 1;
                isl.st.small_restarts += 1;
            }
        } else {
            isl.x.copy_within(b * nn..(b + 1) * nn, nb * nn);
            isl.fx[nb] = fb;
        }
    }
    restart(
        s,
        g0 + 1,
        &which,
        nb,
        ns,
        Some(&skips),
        islands,
        bounds,
        eval,
    )?;
    for &p in &which {
        keep_best(s, &mut islands[p], nb, ns);
    }
    for sub in 1..=k {
        generation(s, g0 + sub, nb, ns, SMALL, islands, bounds, eval)?;
        for isl in islands.iter_mut() {
            keep_best(s, isl, nb, ns);
        }
    }
    Ok(())
}

/// The best of members base..base+n becomes the best ever (row and value at Nm) when it is below
/// it; the age then restarts.
fn keep_best(s: &Shape, isl: &mut IslandMut<'_>, base: usize, n: usize) {
    let (nm, nn) = (s.nm() as usize, s.nn as usize);
    let (b, bv) = best_of(&isl.fx[base..base + n]);
    if bv < isl.fx[nm] {
        let b = base + b;
        isl.x.copy_within(b * nn..(b + 1) * nn, nm * nn);
        isl.fx[nm] = bv;
        isl.st.age = 0;
    }
}

/// Members base..base+n of the islands `which` anew (but island `which[i]`'s member
/// `skips[i]`), evaluated, with F and CR reset.
#[allow(clippy::too_many_arguments)]
fn restart(
    s: &Shape,
    sub: u64,
    which: &[usize],
    base: usize,
    n: usize,
    skips: Option<&[usize]>,
    islands: &mut [IslandMut<'_>],
    bounds: &Bounds<'_>,
    eval: &mut Evaluate<'_>,
) -> Result<()> {
    if which.is_empty() {
        return Ok(());
    }
    let (nm, nn) = (s.nm(), s.nn as usize);
    let mut rows = Vec::new();
    let mut slots = Vec::new();
    for (i, &p) in which.iter().enumerate() {
        let skip = skips.map(|k| k[i]);
        let isl = &mut islands[p];
        for m in base..base + n {
            if Some(m) == skip {
                continue;
            }
            for j in 0..nn {
                let v = restart_value(
                    s.seed_init,
                    sub,
                    p as u32,
                    s.np,
                    nm,
                    m as u32,
                    s.nn,
                    j as u32,
                    bounds.lo[j],
                    bounds.hi[j],
                );
                let v = super::config::rounded(v, bounds.integral.get(j) == Some(&true));
                isl.x[m * nn + j] = v;
                rows.push(v);
            }
            isl.f[m] = F_INIT;
            isl.cr[m] = CR_INIT;
            slots.push((p, m));
        }
    }
    let v = eval(&rows)?;
    for (&(p, m), &f) in slots.iter().zip(&v) {
        islands[p].fx[m] = f;
    }
    Ok(())
}

/// Generation `sub` of members base..base+n of every island: the trials, their values, the
/// selection (a trial that replaces its target hands it its F and CR).
#[allow(clippy::too_many_arguments)]
fn generation(
    s: &Shape,
    sub: u64,
    base: usize,
    n: usize,
    r: Ranges,
    islands: &mut [IslandMut<'_>],
    bounds: &Bounds<'_>,
    eval: &mut Evaluate<'_>,
) -> Result<()> {
    let (nm, nn) = (s.nm(), s.nn as usize);
    let mut rows = vec![0.0; islands.len() * n * nn];
    let mut fcr = Vec::with_capacity(islands.len() * n);
    for (p, isl) in islands.iter().enumerate() {
        for i in 0..n {
            let m = base + i;
            let t = key(sub, p as u32, s.np, nm, m as u32);
            let (f, cr) = draw_f_cr(s.seed_mut, t, isl.f[m], isl.cr[m], r);
            fcr.push((f, cr));
            let (ri, jrand) = indices(s.seed_mut, t, i as u32, n as u32, s.nn);
            let [a0, a1, a2] = ri.map(|v| base + v as usize);
            // the crossover words of key t
            let tk = ops::TrialKey::counter(s.seed_cross, t, s.nn);
            let x = &*isl.x;
            let out = &mut rows[(p * n + i) * nn..(p * n + i + 1) * nn];
            ops::trial(
                out,
                tk,
                jrand,
                ops::cr_threshold(cr),
                bounds.lo,
                bounds.hi,
                |j| bounds.kinds[j],
                bounds.integral,
                |j| x[a0 * nn + j] + f * (x[a1 * nn + j] - x[a2 * nn + j]),
                |j| x[m * nn + j],
            );
        }
    }
    let v = eval(&rows)?;
    for (p, isl) in islands.iter_mut().enumerate() {
        for i in 0..n {
            let m = base + i;
            let fy = v[p * n + i];
            if s.selection.replaces(fy, isl.fx[m]) {
                isl.fx[m] = fy;
                isl.x[m * nn..(m + 1) * nn]
                    .copy_from_slice(&rows[(p * n + i) * nn..(p * n + i + 1) * nn]);
                (isl.f[m], isl.cr[m]) = fcr[p * n + i];
            }
        }
    }
    Ok(())
}
