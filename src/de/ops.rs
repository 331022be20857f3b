//! The operators of island DE on the host, word for word those of `cl/de.cl`: the random numbers
//! (which Philox words each decision uses), the choice of distinct members, the mutation
//! strategies, binomial crossover, the six bound corrections and migration planning. The CPU
//! backend is built from these functions, and the tests hold the device to them.
//!
//! Random numbers, all `rng4(seed, 0, counter)` (`crate::rng`), no state kept anywhere:
//! - initial population, seed `init`: counter `(p * Nm + m) * Nn + n`, word 0;
//! - mutation, seed `mutation`: counters `((g * Np' + p') * Nm + m) * 2 + {0, 1}` give words
//!   w0..w7 for target (p, m) of generation g: w0..w4 the distinct members, w5 j_rand;
//! - crossover, seed `crossover`, with `t = (g * Np' + p') * Nm + m`: the crossover test of
//!   component n (`w < CR * 2^32`, exact in integers) is word `n % 4` of stream 0, counter
//!   `t * ceil(Nn / 4) + n / 4` (one Philox call serves four components); the uniform values of
//!   `uni` and `COTN` (Box-Muller) are words 0 and 1 of stream 1, counter `t * Nn + n`, drawn only
//!   when the component is out of bounds and the correction uses them;
//! - migration, seed `migration`: a sequential [`Philox`] reader on stream g (the generation).
//!
//! where (Np', p') is (Np, p), or (1, 0) when the populations share their random numbers (the
//! thesis's choice: coalesced reads of X, correlated populations).

use super::config::{rounded, BoundsCorrection, MigrationKind, Mutation};
use crate::rng::{rng4, Philox};
use serde::Serialize;

/// A uniform value in (0, 1) from one word.
pub fn unit(w: u32) -> f64 {
    (w as f64 + 0.5) * (1.0 / 4_294_967_296.0)
}

/// The random stream of the dithered F ([`dithered_f`]), beside the index choice (0) and the
/// COTN correction (1) of the same seed.
pub const DITHER_STREAM: u32 = 2;

/// The F of population `p` (of `np`) in generation `gen` under dithering: `f + fd u`, u uniform
/// in [0, 1) from the mutation seed, one draw per population and generation (one per generation
/// when the populations share their random numbers), as the kernels draw it (`deb_trial`,
/// `de_trial_component`); `f` itself where `fd` is 0.
pub fn dithered_f(f: f64, fd: f64, seed: u64, gen: u64, p: u32, np: u32, shared: bool) -> f64 {
    if fd == 0.0 {
        return f;
    }
    let (pk, npk) = if shared {
        (0, 1)
    } else {
        (u64::from(p), u64::from(np))
    };
    f + fd * unit(rng4(seed, DITHER_STREAM, gen * npk + pk)[0])
}

/// A value in 0..n from one word by multiply-shift.
pub fn below(w: u32, n: u32) -> u32 {
    ((w as u64 * n as u64) >> 32) as u32
}

/// The crossover threshold of `cr`: the component comes from the mutant when its word is below.
pub fn cr_threshold(cr: f64) -> u64 {
    (cr.clamp(0.0, 1.0) * 4_294_967_296.0).round() as u64
}

fn population_key(p: u32, np: u32, shared: bool) -> (u64, u64) {
    if shared {
        (0, 1)
    } else {
        (p as u64, np as u64)
    }
}

/// Initial value of component n of member m of population p in [a, b].
#[allow(clippy::too_many_arguments)]
pub fn initial(seed: u64, p: u32, m: u32, n: u32, nm: u32, nn: u32, a: f64, b: f64) -> f64 {
    let c = ((p as u64 * nm as u64) + m as u64) * nn as u64 + n as u64;
    a + unit(rng4(seed, 0, c)[0]) * (b - a)
}

/// The distinct member indices (first `mutation.randoms()` meaningful), all different from m,
/// and j_rand, for target (p, m) of generation `gen`.
#[allow(clippy::too_many_arguments)]
pub fn indices(
    seed: u64,
    gen: u64,
    p: u32,
    m: u32,
    np: u32,
    nm: u32,
    nn: u32,
    mutation: Mutation,
    shared: bool,
) -> ([u32; 5], u32) {
    let (pk, npk) = population_key(p, np, shared);
    let c = ((gen * npk + pk) * nm as u64 + m as u64) * 2;
    let a = rng4(seed, 0, c);
    // at most three random members: one call (j_rand from its fourth word); else a second call
    let w = if mutation.randoms() <= 3 {
        [a[0], a[1], a[2], 0, 0, a[3]]
    } else {
        let b = rng4(seed, 0, c + 1);
        [a[0], a[1], a[2], a[3], b[0], b[1]]
    };
    let mut r = [0u32; 5];
    distinct(&w[..mutation.randoms()], m, nm, &mut r);
    (r, below(w[5], nn))
}

/// `out[t]` for each word `w[t]`: distinct members of `0..n`, all different from `i`, the t-th
/// drawn uniformly among the `n - 1 - t` not yet chosen (word -> rank among the free ones, as
/// `de_indices` in `cl/de.cl` maps it).
pub fn distinct(w: &[u32], i: u32, n: u32, out: &mut [u32]) {
    let mut chosen = vec![i];
    for (t, &word) in w.iter().enumerate() {
        let mut v = below(word, n - 1 - t as u32);
        let mut pos = 0;
        for (s, &c) in chosen.iter().enumerate() {
            if v >= c {
                v += 1;
                pos = s + 1;
            }
        }
        chosen.insert(pos, v);
        out[t] = v;
    }
}

/// Crossover counters of target (p, m) in generation `gen`: `(g * Np' + p') * Nm + m`.
fn crossover_key(gen: u64, p: u32, m: u32, np: u32, nm: u32, shared: bool) -> u64 {
    let (pk, npk) = population_key(p, np, shared);
    (gen * npk + pk) * nm as u64 + m as u64
}

/// The crossover test words of components `4 * block .. 4 * block + 3` of target (p, m) in
/// generation `gen` (one Philox call for four components).
#[allow(clippy::too_many_arguments)]
pub fn crossover_block(
    seed: u64,
    gen: u64,
    p: u32,
    m: u32,
    block: u32,
    np: u32,
    nm: u32,
    nn: u32,
    shared: bool,
) -> [u32; 4] {
    rng4(
        seed,
        0,
        crossover_key(gen, p, m, np, nm, shared) * (nn as u64).div_ceil(4) + block as u64,
    )
}

/// The two words of the `uni` and `COTN` corrections of component n of target (p, m).
#[allow(clippy::too_many_arguments)]
pub fn bound_words(
    seed: u64,
    gen: u64,
    p: u32,
    m: u32,
    n: u32,
    np: u32,
    nm: u32,
    nn: u32,
    shared: bool,
) -> [u32; 2] {
    let w = rng4(
        seed,
        1,
        crossover_key(gen, p, m, np, nm, shared) * nn as u64 + n as u64,
    );
    [w[0], w[1]]
}

/// The crossover words of component n of target (p, m) in generation `gen`: the crossover test's,
/// then the two of the `uni` and `COTN` corrections.
#[allow(clippy::too_many_arguments)]
pub fn crossover_words(
    seed: u64,
    gen: u64,
    p: u32,
    m: u32,
    n: u32,
    np: u32,
    nm: u32,
    nn: u32,
    shared: bool,
) -> [u32; 3] {
    let c = crossover_block(seed, gen, p, m, n / 4, np, nm, nn, shared)[(n % 4) as usize];
    let [w1, w2] = bound_words(seed, gen, p, m, n, np, nm, nn, shared);
    [c, w1, w2]
}

/// Whether correcting `v` into [a, b] with `kind` uses the bound words (`uni` and `COTN` out of
/// bounds): the engines draw them only then.
pub fn needs_bound_words(kind: BoundsCorrection, v: f64, a: f64, b: f64) -> bool {
    matches!(kind, BoundsCorrection::Uniform | BoundsCorrection::Cotn) && (v < a || v > b)
}

/// Whose crossover words a trial draws: the crossover seed, the generation, population p and
/// member m, the sizes Np, Nm, Nn and whether populations share their random numbers.
#[derive(Clone, Copy, Debug)]
pub struct TrialKey {
    pub seed: u64,
    pub gen: u64,
    pub p: u32,
    pub m: u32,
    pub np: u32,
    pub nm: u32,
    pub nn: u32,
    pub shared: bool,
}

impl TrialKey {
    /// The key whose (gen, p, m, Np, Nm) make `(gen Np + p) Nm + m` equal the counter `t` (one
    /// island of one member: gen = t), for the adaptive DEs that number their trials themselves.
    pub(crate) fn counter(seed: u64, t: u64, nn: u32) -> TrialKey {
        TrialKey {
            seed,
            gen: t,
            p: 0,
            m: 0,
            np: 1,
            nm: 1,
            nn,
            shared: false,
        }
    }
}

/// The trial of one target into `out` (Nn values), as the kernels make it: component n is the
/// mutant's (`mutant(n)`) corrected into [lo, hi] by `kind(n)` (and rounded where `integral`
/// says, an empty slice for none) when n is j_rand or its crossover word is below `crt`, else
/// the target's (`target(n)`). The words are drawn as the kernels draw
/// them: one Philox call per four crossover tests, the bound words only when the correction
/// uses them.
#[allow(clippy::too_many_arguments)]
pub fn trial(
    out: &mut [f64],
    key: TrialKey,
    jrand: u32,
    crt: u64,
    lo: &[f64],
    hi: &[f64],
    kind: impl Fn(usize) -> BoundsCorrection,
    integral: &[bool],
    mutant: impl Fn(usize) -> f64,
    target: impl Fn(usize) -> f64,
) {
    let k = key;
    let mut block = [0u32; 4];
    for (n, y) in out.iter_mut().enumerate() {
        if n % 4 == 0 {
            block = crossover_block(
                k.seed,
                k.gen,
                k.p,
                k.m,
                (n / 4) as u32,
                k.np,
                k.nm,
                k.nn,
                k.shared,
            );
        }
        let xi = target(n);
        *y = if n as u32 == jrand || (block[n % 4] as u64) < crt {
            let (v, a, b, kd) = (mutant(n), lo[n], hi[n], kind(n));
            let w = if needs_bound_words(kd, v, a, b) {
                bound_words(
                    k.seed, k.gen, k.p, k.m, n as u32, k.np, k.nm, k.nn, k.shared,
                )
            } else {
                [0, 0]
            };
            rounded(
                correct(kd, v, xi, a, b, w[0], w[1]),
                integral.get(n) == Some(&true),
            )
        } else {
            xi
        };
    }
}

/// Component n of the mutant: `x(m)` reads component n of member m of the population, member
/// Nm being its best; `i` is the target.
pub fn mutant(
    mutation: Mutation,
    f: f64,
    r: &[u32; 5],
    i: u32,
    best: u32,
    x: impl Fn(u32) -> f64,
) -> f64 {
    let xi = x(i);
    match mutation {
        Mutation::Rand1 => x(r[0]) + f * (x(r[1]) - x(r[2])),
        Mutation::Rand2 => (x(r[0]) + f * (x(r[1]) - x(r[2]))) + f * (x(r[3]) - x(r[4])),
        Mutation::Best1 => x(best) + f * (x(r[0]) - x(r[1])),
        Mutation::Best2 => (x(best) + f * (x(r[0]) - x(r[1]))) + f * (x(r[2]) - x(r[3])),
        Mutation::CurrentToRand1 => (xi + f * (x(r[0]) - xi)) + f * (x(r[1]) - x(r[2])),
        Mutation::CurrentToBest1 => (xi + f * (x(best) - xi)) + f * (x(r[0]) - x(r[1])),
    }
}

/// The number r of COTN in [0, 1]: `r0 = 0.32 sqrt(-2 ln u1) cos(2 pi u2)` (Box-Muller) folded
/// into [0, 1] by the thesis's formula (12).
pub fn cotn_unit(w1: u32, w2: u32) -> f64 {
    let r0 = 0.32 * (-2.0 * unit(w1).ln()).sqrt() * (2.0 * std::f64::consts::PI * unit(w2)).cos();
    if r0 < 0.0 {
        (r0 % 1.0).abs()
    } else if r0 > 1.0 {
        ((1.0 - r0) % 1.0).abs()
    } else {
        r0
    }
}

/// Moves mutant component `v` back into [a, b] when it is outside, as `cl/de.cl` does: `x` is
/// the target's component, `w1`, `w2` the component's random words (used by `uni` and `COTN`).
pub fn correct(kind: BoundsCorrection, v: f64, x: f64, a: f64, b: f64, w1: u32, w2: u32) -> f64 {
    // As the kernel's `!(v < a) && !(v > b)`: a NaN component passes through unchanged.
    if v.is_nan() || (a..=b).contains(&v) {
        return v;
    }
    let low = v < a;
    let width = b - a;
    match kind {
        BoundsCorrection::Saturation => {
            if low {
                a
            } else {
                b
            }
        }
        BoundsCorrection::Mirror => {
            let d = if low { a - v } else { v - b };
            match (d > width, low) {
                (true, true) => a,
                (true, false) => b,
                (false, true) => 2.0 * a - v,
                (false, false) => 2.0 * b - v,
            }
        }
        BoundsCorrection::Toroidal => {
            let mut r = (v - a) % width;
            if r < 0.0 {
                r += width;
            }
            a + r
        }
        BoundsCorrection::Halfway => {
            if low {
                (x + a) / 2.0
            } else {
                (x + b) / 2.0
            }
        }
        BoundsCorrection::Uniform => a + unit(w1) * width,
        BoundsCorrection::Cotn => {
            let r = cotn_unit(w1, w2);
            if low {
                a + r * width
            } else {
                b - r * width
            }
        }
    }
}

/// One migrant: the best of population `src` replaces member `member` of population `dst`
/// ([`WORST`]: the member of `dst` that is worst when the migration is applied).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: u32,
    pub dst: u32,
    pub member: u32,
}

/// A [`Move`]'s member meaning "the receiving population's worst member when the move is
/// applied" (`worst_one`'s rule, on the device `de_worst`), for plans made without reading the
/// populations ([`plan_blind`]). A population receives at most one such move per migration.
pub const WORST: u32 = u32::MAX;

/// Members of one population from worst to best by value (NaN worst; ties: higher index
/// first, so the lowest-index best, the one the best row copies, comes last).
fn worst_first(fx: &[f64]) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..fx.len() as u32).collect();
    idx.sort_by(|&i, &j| {
        let (a, b) = (fx[i as usize], fx[j as usize]);
        match (a.is_nan(), b.is_nan()) {
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (true, true) => j.cmp(&i),
            _ => b.partial_cmp(&a).expect("not NaN").then(j.cmp(&i)),
        }
    });
    idx
}

/// Order on best values: lower first, NaN last, ties by population index.
fn better_first(order: &mut [u32], best: impl Fn(u32) -> f64) {
    order.sort_by(|&i, &j| {
        let key = |p: u32| {
            let v = best(p);
            (v.is_nan(), if v.is_nan() { 0.0 } else { v })
        };
        key(i)
            .partial_cmp(&key(j))
            .expect("NaN mapped")
            .then(i.cmp(&j))
    });
}

/// A uniformly random derangement of 0..n (n >= 2) by rejection of permutations with a fixed
/// point (about e tries).
fn derangement(rng: &mut Philox, n: usize) -> Vec<usize> {
    loop {
        let p = rng.permutation(n);
        if p.iter().enumerate().all(|(i, &t)| i != t) {
            return p;
        }
    }
}

/// The worst member of one population, `worst_first(fx)[0]` without the sort: NaN first (the
/// highest-index NaN), else the largest value, ties to the higher index (as `de_worst`).
pub fn worst_one(fx: &[f64]) -> u32 {
    let mut w = 0;
    for (m, &a) in fx.iter().enumerate().skip(1) {
        let b = fx[w];
        if a.is_nan() || (!b.is_nan() && a >= b) {
            w = m;
        }
    }
    w as u32
}

/// How many worst members of a receiving population a migration of `kind` can replace: one
/// where every population receives at most one migrant, else Nm - 1 (a population receives at
/// most Np - 1 and keeps its best).
pub fn worst_needed(kind: MigrationKind, np: u32, nm: u32) -> usize {
    match kind {
        MigrationKind::None => 0,
        MigrationKind::One2One
        | MigrationKind::One2N
        | MigrationKind::PermuteN
        | MigrationKind::RandTarget => 1,
        MigrationKind::N2One | MigrationKind::N2N => {
            np.saturating_sub(1).min(nm.saturating_sub(1)) as usize
        }
    }
}

/// What a migration plan reads of the populations (far less than every value): each
/// population's best value, its `k` worst members (worst first, as `worst_first`), and where
/// the migrants travel between engines, the best rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MigrationView {
    /// Population p's best value (its slot Nm).
    pub best: Vec<f64>,
    /// Population p's `k` worst members at `p * k ..`, worst first.
    pub worst: Vec<u32>,
    pub k: usize,
    /// Population p's best row at `p * Nn ..` (empty unless asked for).
    pub rows: Vec<f64>,
}

impl MigrationView {
    /// The view of every value `fx` (population p's members at `p * (nm + 1) + m`, its best at
    /// m = nm), `k` worst members each (at most Nm).
    pub fn from_fitness(fx: &[f64], np: u32, nm: u32, k: usize) -> Self {
        let stride = nm as usize + 1;
        debug_assert_eq!(fx.len(), np as usize * stride);
        let k = k.min(nm as usize);
        let mut worst = Vec::with_capacity(np as usize * k);
        for p in 0..np as usize {
            let members = &fx[p * stride..p * stride + nm as usize];
            match k {
                0 => {}
                1 => worst.push(worst_one(members)),
                _ => worst.extend(worst_first(members).into_iter().take(k)),
            }
        }
        MigrationView {
            best: (0..np as usize)
                .map(|p| fx[p * stride + nm as usize])
                .collect(),
            worst,
            k,
            rows: Vec::new(),
        }
    }
}

/// The migration of generation `gen`: `fx` holds every value, population p's members at
/// `fx[p * (nm + 1) + m]` and its best at `m = nm`; [`plan_migration_view`] of its
/// [`MigrationView`].
pub fn plan_migration(
    kind: MigrationKind,
    seed: u64,
    gen: u64,
    np: u32,
    nm: u32,
    fx: &[f64],
) -> Vec<Move> {
    plan_migration_view(
        kind,
        seed,
        gen,
        np,
        nm,
        &MigrationView::from_fitness(fx, np, nm, worst_needed(kind, np, nm)),
    )
}

/// The migration of generation `gen` from `view` (its `k` at least [`worst_needed`]). A
/// receiving population loses its worst members, at most Nm - 1 of them, so its best always
/// survives; when more populations send to one than that, the senders with the better bests
/// are taken.
/// - One2One: two random populations swap bests (each one's best replaces the other's worst);
/// - One2N: a random population's best replaces the worst of every other;
/// - N2One: the bests of all others replace the worst members of one random population;
/// - N2N: every population receives the bests of all others;
/// - PermuteN: a random derangement gives each population a distinct target;
/// - RandTarget: each population picks a random other target; a target chosen by several gets
///   the sender with the best value (ties: lowest index).
pub fn plan_migration_view(
    kind: MigrationKind,
    seed: u64,
    gen: u64,
    np: u32,
    nm: u32,
    view: &MigrationView,
) -> Vec<Move> {
    debug_assert_eq!(view.best.len(), np as usize);
    if np < 2 || nm < 2 {
        return Vec::new();
    }
    assert!(
        view.k >= worst_needed(kind, np, nm),
        "a migration view of {} worst members for {kind:?}",
        view.k
    );
    let best = |p: u32| view.best[p as usize];
    let mut incoming = senders(kind, seed, gen, np, best);
    let mut moves = Vec::new();
    for (d, senders) in incoming.iter_mut().enumerate() {
        if senders.is_empty() {
            continue;
        }
        better_first(senders, best);
        let worst = &view.worst[d * view.k..(d + 1) * view.k];
        for (&s, &member) in senders.iter().zip(worst.iter().take(nm as usize - 1)) {
            moves.push(Move {
                src: s,
                dst: d as u32,
                member,
            });
        }
    }
    moves
}

/// Whether a migration of `kind` is planned without reading the populations: every receiving
/// population takes one sender, chosen by the random numbers alone (One2One, One2N, PermuteN).
pub fn is_blind(kind: MigrationKind) -> bool {
    matches!(
        kind,
        MigrationKind::One2One | MigrationKind::One2N | MigrationKind::PermuteN
    )
}

/// The migration of generation `gen` where it reads nothing of the populations ([`is_blind`]),
/// else None: the moves of [`plan_migration_view`], each member [`WORST`] (the receiver's worst
/// member when the move is applied, which is `view.worst` of a view read just before). So a
/// device applies it with no read and no wait (`de_migrate` finds the worst members), and
/// engines on several devices trade only the migrants that cross between them.
pub fn plan_blind(kind: MigrationKind, seed: u64, gen: u64, np: u32, nm: u32) -> Option<Vec<Move>> {
    if !is_blind(kind) {
        return None;
    }
    if np < 2 || nm < 2 {
        return Some(Vec::new());
    }
    let incoming = senders(kind, seed, gen, np, |_| {
        unreachable!("a blind plan reads no value")
    });
    Some(
        incoming
            .iter()
            .enumerate()
            .flat_map(|(d, s)| {
                s.iter().map(move |&src| Move {
                    src,
                    dst: d as u32,
                    member: WORST,
                })
            })
            .collect(),
    )
}

/// The senders of each receiving population for a migration of `kind` (np >= 2): drawn from
/// the migration's random numbers; RandTarget alone reads the senders' best values (`best`).
fn senders(
    kind: MigrationKind,
    seed: u64,
    gen: u64,
    np: u32,
    best: impl Fn(u32) -> f64 + Copy,
) -> Vec<Vec<u32>> {
    let mut rng = Philox::new(seed, gen as u32);
    let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); np as usize];
    match kind {
        MigrationKind::None => {}
        MigrationKind::One2One => {
            let a = rng.below(np);
            let b = (a + 1 + rng.below(np - 1)) % np;
            incoming[b as usize].push(a);
            incoming[a as usize].push(b);
        }
        MigrationKind::One2N => {
            let s = rng.below(np);
            for d in (0..np).filter(|&d| d != s) {
                incoming[d as usize].push(s);
            }
        }
        MigrationKind::N2One => {
            let t = rng.below(np);
            incoming[t as usize] = (0..np).filter(|&s| s != t).collect();
        }
        MigrationKind::N2N => {
            for d in 0..np {
                incoming[d as usize] = (0..np).filter(|&s| s != d).collect();
            }
        }
        MigrationKind::PermuteN => {
            for (s, t) in derangement(&mut rng, np as usize).into_iter().enumerate() {
                incoming[t].push(s as u32);
            }
        }
        MigrationKind::RandTarget => {
            for s in 0..np {
                let t = (s + 1 + rng.below(np - 1)) % np;
                incoming[t as usize].push(s);
            }
            for senders in incoming.iter_mut() {
                better_first(senders, best);
                senders.truncate(1);
            }
        }
    }
    incoming
}

/// Index of the best member (lowest value, ties to the lowest index, NaN never), as `de_best`.
pub fn best_member(fx: &[f64]) -> Option<usize> {
    let mut best = None;
    let mut bf = f64::INFINITY;
    for (m, &v) in fx.iter().enumerate() {
        if v < bf || (best.is_none() && v == bf) {
            bf = v;
            best = Some(m);
        }
    }
    best
}

/// The mean and the standard deviation (numpy's `std`, over N) of every member's value: what
/// scipy's convergence test `std(E) <= atol + tol * |mean(E)|` reads
/// ([`DeMultiPop::spread`](super::DeMultiPop::spread)). A non-finite value makes both
/// non-finite, so the test never holds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub std: f64,
}

impl Spread {
    /// Whether scipy's test holds: `std <= atol + tol * |mean|` (false when either is NaN).
    pub fn converged(&self, tol: f64, atol: f64) -> bool {
        self.std <= atol + tol * self.mean.abs()
    }
}

/// The moments of each population of `fx` (population p's members at `p * (nm + 1) + m`, its
/// best at `m = nm`, which is left out): `[mean, sum of squared deviations]` per population,
/// two passes in member order, as `de_moments` computes them on a device.
pub fn moments(fx: &[f64], nm: usize) -> Vec<f64> {
    fx.chunks_exact(nm + 1)
        .flat_map(|c| {
            let v = &c[..nm];
            let mean = v.iter().sum::<f64>() / nm as f64;
            let m2 = v.iter().map(|&f| (f - mean) * (f - mean)).sum::<f64>();
            [mean, m2]
        })
        .collect()
}

/// The spread of the whole population from the [`moments`] of its populations of `nm`
/// members each (Chan et al.'s pairwise update: exact whatever the number of populations).
pub fn spread(moments: &[f64], nm: usize) -> Spread {
    let islands = moments.len() / 2;
    let n = (islands * nm) as f64;
    let mean = moments.chunks_exact(2).map(|c| c[0]).sum::<f64>() * nm as f64 / n;
    let m2 = moments
        .chunks_exact(2)
        .map(|c| c[1] + nm as f64 * (c[0] - mean) * (c[0] - mean))
        .sum::<f64>();
    Spread {
        mean,
        std: (m2 / n).sqrt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_numpys_over_the_members_without_the_best_slots() {
        // two populations of three members, each with its best slot (which must not count)
        let fx = [1.0, 2.0, 3.0, -99.0, 10.0, 10.0, 10.0, 99.0];
        let s = spread(&moments(&fx, 3), 3);
        let all = [1.0, 2.0, 3.0, 10.0, 10.0, 10.0];
        let mean = all.iter().sum::<f64>() / 6.0;
        let std = (all.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 6.0).sqrt();
        assert!(
            (s.mean - mean).abs() < 1e-12 && (s.std - std).abs() < 1e-12,
            "{s:?}"
        );
        assert!(!s.converged(0.01, 0.0) && s.converged(0.0, std + 1e-9));
        // equal values converge; an infinite one never does
        let s = spread(&moments(&[5.0, 5.0, 0.0, 5.0, 5.0, 0.0], 2), 2);
        assert_eq!((s.mean, s.std), (5.0, 0.0));
        assert!(s.converged(0.01, 0.0));
        let s = spread(&moments(&[5.0, f64::INFINITY, 0.0], 2), 2);
        assert!(!s.converged(0.01, 1e300), "{s:?}");
    }

    #[test]
    fn worst_first_orders_nan_then_descending() {
        let fx = [3.0, f64::NAN, 5.0, 3.0, 1.0];
        assert_eq!(worst_first(&fx), vec![1, 2, 3, 0, 4]);
    }

    #[test]
    fn worst_one_is_the_first_of_worst_first() {
        // values from a small set, so ties and NaNs are frequent
        let mut rng = Philox::new(5, 0);
        for len in 1..12 {
            for _ in 0..300 {
                let fx: Vec<f64> = (0..len)
                    .map(|_| match rng.below(6) {
                        0 => f64::NAN,
                        5 => f64::INFINITY,
                        v => v as f64,
                    })
                    .collect();
                assert_eq!(worst_one(&fx), worst_first(&fx)[0], "{fx:?}");
            }
        }
    }

    /// `len` values of 0 to 3, about one in nine NaN.
    fn values_with_nans(rng: &mut Philox, len: u32) -> Vec<f64> {
        (0..len)
            .map(|_| {
                if rng.below(9) == 0 {
                    f64::NAN
                } else {
                    rng.below(4) as f64
                }
            })
            .collect()
    }

    #[test]
    fn a_view_plans_what_every_value_plans() {
        // the view's k worst members (k = worst_needed) give the moves of the full order
        let (np, nm) = (7u32, 5u32);
        let mut rng = Philox::new(9, 1);
        // every kind but None
        for kind in MigrationKind::ALL[1..].iter().copied() {
            for gen in 0..40 {
                let fx = values_with_nans(&mut rng, np * (nm + 1));
                let full = MigrationView::from_fitness(&fx, np, nm, nm as usize);
                let needed = MigrationView::from_fitness(&fx, np, nm, worst_needed(kind, np, nm));
                let moves = plan_migration_view(kind, 3, gen, np, nm, &needed);
                assert_eq!(
                    moves,
                    plan_migration_view(kind, 3, gen, np, nm, &full),
                    "{kind:?} {gen}"
                );
                assert_eq!(moves, plan_migration(kind, 3, gen, np, nm, &fx));
                assert!(!moves.is_empty());
            }
        }
    }

    #[test]
    fn a_blind_plan_is_the_view_plan_with_each_receivers_worst() {
        // One2One, One2N and PermuteN read no value: their moves, each member the receiver's
        // worst, are those planned from a view; every receiver takes one; the other kinds are
        // not blind
        let mut rng = Philox::new(5, 2);
        for (np, nm) in [(2u32, 2u32), (7, 5), (64, 3)] {
            for kind in MigrationKind::ALL {
                for gen in 0..25 {
                    let fx = values_with_nans(&mut rng, np * (nm + 1));
                    let view = MigrationView::from_fitness(&fx, np, nm, 1);
                    let Some(blind) = plan_blind(kind, 3, gen, np, nm) else {
                        assert!(
                            matches!(
                                kind,
                                MigrationKind::N2One
                                    | MigrationKind::N2N
                                    | MigrationKind::RandTarget
                                    | MigrationKind::None
                            ),
                            "{kind:?}"
                        );
                        continue;
                    };
                    assert!(blind.iter().all(|m| m.member == WORST));
                    let mut dst: Vec<u32> = blind.iter().map(|m| m.dst).collect();
                    dst.sort_unstable();
                    dst.dedup();
                    assert_eq!(dst.len(), blind.len(), "{kind:?}: one move per receiver");
                    let resolved: Vec<Move> = blind
                        .iter()
                        .map(|m| Move {
                            member: view.worst[m.dst as usize],
                            ..*m
                        })
                        .collect();
                    assert_eq!(
                        resolved,
                        plan_migration(kind, 3, gen, np, nm, &fx),
                        "{kind:?} {gen}"
                    );
                }
            }
        }
        assert_eq!(
            plan_blind(MigrationKind::One2One, 3, 1, 1, 5),
            Some(Vec::new())
        );
        assert_eq!(
            plan_blind(MigrationKind::One2One, 3, 1, 4, 1),
            Some(Vec::new())
        );
    }

    #[test]
    fn indices_are_distinct_and_not_the_target() {
        for m in 0..6 {
            for gen in 0..200 {
                let (r, j) = indices(345, gen, 3, m, 8, 6, 4, Mutation::Rand2, false);
                let mut all = r.to_vec();
                all.push(m);
                all.sort();
                all.dedup();
                assert_eq!(all.len(), 6, "{r:?} {m}");
                assert!(r.iter().all(|&v| v < 6) && j < 4);
            }
        }
    }
}
