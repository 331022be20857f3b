//! The CPU backend: one rayon task per population, the same arithmetic and the same Philox draws
//! as `cl/qiga.cl`, so a seed gives the identical run on the device and here. Its repair is the
//! sequential statement of the rules the kernel computes by scans, so it is also the reference the
//! tests hold the device's repair to.

use super::{Chunk, Engine, Items, PopSnap, Repair, Setup};
use crate::error::Result;
use crate::rng::rng4;
use rayon::prelude::*;

/// Purposes of the Philox counters (their top two bits), as `QG_OBSERVE`, `QG_SIGN`, `QG_ORDER`.
const OBSERVE: u64 = 0;
const SIGN: u64 = 1;
const ORDER: u64 = 2;

fn ctr(purpose: u64, x: u64) -> u64 {
    (purpose << 62) | x
}

/// The kernel's `qg_mix`: a keyed bijection of [0, 2^bits).
fn order_mix(mut x: u32, k: [u32; 4], bits: u32, mask: u32) -> u32 {
    let sh = bits.div_ceil(2);
    for (key, mul) in k
        .iter()
        .zip([0x9E37_79B1u32, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F])
    {
        x = (x.wrapping_add(*key).wrapping_mul(mul)) & mask;
        x ^= x >> sh;
    }
    x
}

/// The random order of one repair: position -> item, a bijection of [0, m) by cycle walking.
pub(crate) struct RandomOrder {
    key: [u32; 4],
    bits: u32,
    mask: u32,
    m: u32,
}

impl RandomOrder {
    pub(crate) fn new(
        seed: u64,
        pop: u32,
        g: u32,
        individual: u32,
        individuals: u32,
        m: u32,
    ) -> Self {
        let key = rng4(
            seed,
            pop,
            ctr(ORDER, g as u64 * individuals as u64 + individual as u64),
        );
        let mut bits = 1;
        while (1u32 << bits) < m {
            bits += 1;
        }
        RandomOrder {
            key,
            bits,
            mask: (1u32 << bits) - 1,
            m,
        }
    }

    pub(crate) fn item(&self, r: u32) -> u32 {
        let mut x = order_mix(r, self.key, self.bits, self.mask);
        while x >= self.m {
            x = order_mix(x, self.key, self.bits, self.mask);
        }
        x
    }
}

/// QIGA.md's repair, sequentially: clear included items in removal order while the weight is over
/// the capacity, then add excluded items in fill order while they fit, stopping at the first that
/// does not. `remove(r)`/`fill(r)` give the item at position r of each order. Returns the profit
/// and weight of the repaired string.
pub(crate) fn repair_with(
    x: &mut [u8],
    items: &Items,
    remove: impl Fn(usize) -> usize,
    fill: impl Fn(usize) -> usize,
) -> (u64, u64) {
    let m = items.weights.len();
    let mut w: u64 = (0..m)
        .filter(|&k| x[k] != 0)
        .map(|k| items.weights[k])
        .sum();
    let mut r = 0;
    while w > items.capacity && r < m {
        let k = remove(r);
        if x[k] != 0 {
            x[k] = 0;
            w -= items.weights[k];
        }
        r += 1;
    }
    for r in 0..m {
        let k = fill(r);
        if x[k] == 0 {
            if w + items.weights[k] > items.capacity {
                break;
            }
            x[k] = 1;
            w += items.weights[k];
        }
    }
    let p = (0..m)
        .filter(|&k| x[k] != 0)
        .map(|k| items.profits[k])
        .sum();
    (p, w)
}

/// The repair of individual `i` of population `pop` in generation `g` under `mode`.
pub(crate) fn repair(x: &mut [u8], s: &Setup, pop: u32, g: u32, i: u32) -> (u64, u64) {
    let m = s.items.weights.len();
    match s.repair {
        Repair::Index => repair_with(x, &s.items, |r| r, |r| r),
        Repair::Greedy => repair_with(
            x,
            &s.items,
            |r| s.order[m - 1 - r] as usize,
            |r| s.order[r] as usize,
        ),
        Repair::Random => {
            let o = RandomOrder::new(s.seed, pop, g, i, s.individuals as u32, m as u32);
            repair_with(
                x,
                &s.items,
                |r| o.item(r as u32) as usize,
                |r| o.item(r as u32) as usize,
            )
        }
    }
}

/// The quadrant column of angle k (steps of pi/200, 0..400): 0 alpha*beta > 0, 1 alpha*beta < 0,
/// 2 alpha = 0, 3 beta = 0.
pub fn quadrant(k: i16) -> usize {
    match k % 200 {
        0 => 3,
        100 => 2,
        km if km < 100 => 0,
        _ => 1,
    }
}

/// Angle k after the rotation of a table row `cell` (steps, then the sign per column; sign code 2
/// takes +1 when `coin()` is true, else -1), modulo 400, as the kernel's update.
pub fn rotate(k: i16, cell: &[i32], coin: impl FnOnce() -> bool) -> i16 {
    let mut sgn = cell[1 + quadrant(k)];
    if sgn == 2 {
        sgn = if coin() { 1 } else { -1 };
    }
    (k as i32 + sgn * cell[0]).rem_euclid(400) as i16
}

/// One population's run as it stands between two launches: its angles, its best, and the next
/// generation to run (`finished`: the generation it finished in).
pub(crate) struct PopState {
    pop: u32,
    q: Vec<i16>,
    b: Vec<u8>,
    bestv: u64,
    bestg: u32,
    /// The next generation to run.
    g: u32,
    finished: Option<u32>,
    /// A warm start: `b` and `bestv` hold the given string until an individual beats it.
    warm: bool,
}

impl PopState {
    pub(crate) fn new(s: &Setup, pop: u32) -> Self {
        let (m, n) = (s.items.weights.len(), s.individuals);
        PopState {
            pop,
            q: vec![50i16; n * m],
            b: vec![0u8; m],
            bestv: 0,
            bestg: 0,
            g: 0,
            finished: None,
            warm: false,
        }
    }

    /// Population `pop` as `p` holds it, going on from generation `next` (0: a warm start).
    pub(crate) fn from_snap(s: &Setup, pop: u32, next: u32, p: &PopSnap) -> Self {
        let (m, n) = (s.items.weights.len(), s.individuals);
        PopState {
            pop,
            q: if p.angles.is_empty() {
                vec![50i16; n * m]
            } else {
                p.angles.clone()
            },
            b: p.best_bits.clone(),
            bestv: p.best_value,
            bestg: p.best_generation,
            g: p.finished.map_or(next, |f| f + 1),
            finished: p.finished,
            warm: next == 0,
        }
    }

    /// The population as a checkpoint holds it.
    pub(crate) fn snap(&self) -> PopSnap {
        PopSnap {
            angles: if self.finished.is_some() {
                Vec::new()
            } else {
                self.q.clone()
            },
            best_bits: self.b.clone(),
            best_value: self.bestv,
            best_generation: self.bestg,
            finished: self.finished,
        }
    }

    /// Generations run so far after the initial one (the last one run).
    fn generations_run(&self) -> u32 {
        self.finished.unwrap_or(self.g.saturating_sub(1))
    }
}

/// Runs generations of `st` up to `g1` (exclusive) or until it finishes, as the kernel's launch
/// from `st.g` to `g1`.
pub(crate) fn advance_population(s: &Setup, st: &mut PopState, g1: u32) {
    if st.finished.is_some() {
        return;
    }
    let (m, n) = (s.items.weights.len(), s.individuals);
    let n4 = n.div_ceil(4);
    let pop = st.pop;
    let tab = &s.tables[(pop as usize / s.pops_per_table) % s.tables.len()];
    let mut x = vec![0u8; n * m];
    let mut val = vec![0u64; n];
    let (q, b) = (&mut st.q, &mut st.b);
    while st.g < g1 {
        let g = st.g;
        for j in 0..m {
            for i4 in 0..n4 {
                let r = rng4(
                    s.seed,
                    pop,
                    ctr(
                        OBSERVE,
                        (g as u64 * n4 as u64 + i4 as u64) * m as u64 + j as u64,
                    ),
                );
                for (c, word) in r.iter().enumerate() {
                    let i = 4 * i4 + c;
                    if i < n {
                        let k = q[i * m + j] as usize;
                        x[i * m + j] = (*word as u64 >= s.thresholds[k % 200]) as u8;
                    }
                }
            }
        }
        for i in 0..n {
            val[i] = repair(&mut x[i * m..(i + 1) * m], s, pop, g, i as u32).0;
        }
        if g > 0 {
            for i in 0..n {
                let better = (val[i] >= st.bestv) as usize;
                for j in 0..m {
                    let row = x[i * m + j] as usize * 4 + b[j] as usize * 2 + better;
                    let cell = &tab[row * 5..row * 5 + 5];
                    if cell[0] != 0 {
                        let coin = || {
                            rng4(
                                s.seed,
                                pop,
                                ctr(SIGN, (g as u64 * n as u64 + i as u64) * m as u64 + j as u64),
                            )[0] & 1
                                != 0
                        };
                        q[i * m + j] = rotate(q[i * m + j], cell, coin);
                    }
                }
            }
        }
        let mut bi = 0;
        for i in 1..n {
            if val[i] > val[bi] {
                bi = i;
            }
        }
        // generation 0 sets the best, unless a warm start's string holds it
        if (g == 0 && !st.warm) || val[bi] > st.bestv {
            st.bestv = val[bi];
            st.bestg = g;
            b.copy_from_slice(&x[bi * m..(bi + 1) * m]);
        }
        st.g = g + 1;
        if g >= s.generations || s.target.is_some_and(|t| st.bestv >= t) {
            st.finished = Some(g);
            return;
        }
    }
}

/// The rayon engine: the begun populations' states, advanced one rayon task per population.
pub struct CpuEngine {
    setup: std::sync::Arc<Setup>,
    states: Vec<PopState>,
}

impl CpuEngine {
    pub(crate) fn new(setup: std::sync::Arc<Setup>) -> Self {
        CpuEngine {
            setup,
            states: Vec::new(),
        }
    }
}

impl Engine for CpuEngine {
    fn begin(&mut self, offset: usize, count: usize) -> Result<()> {
        let s = &*self.setup;
        self.states = (offset..offset + count)
            .map(|pop| PopState::new(s, pop as u32))
            .collect();
        Ok(())
    }

    fn advance(&mut self, _g0: u32, g1: u32) -> Result<bool> {
        let s = &*self.setup;
        self.states
            .par_iter_mut()
            .for_each(|st| advance_population(s, st, g1));
        Ok(self.states.iter().all(|st| st.finished.is_some()))
    }

    fn snapshot(&mut self) -> Result<Vec<PopSnap>> {
        Ok(self.states.iter().map(PopState::snap).collect())
    }

    fn resume(&mut self, offset: usize, next: u32, pops: &[PopSnap]) -> Result<()> {
        let s = &*self.setup;
        self.states = pops
            .iter()
            .enumerate()
            .map(|(i, p)| PopState::from_snap(s, (offset + i) as u32, next, p))
            .collect();
        Ok(())
    }

    fn take(&mut self) -> Result<Chunk> {
        let m = self.setup.items.weights.len();
        let mut c = Chunk::with_capacity(self.states.len(), m);
        for st in std::mem::take(&mut self.states) {
            c.best_value.push(st.bestv);
            c.best_bits.extend_from_slice(&st.b);
            c.best_generation.push(st.bestg);
            c.generations_run.push(st.generations_run());
        }
        Ok(c)
    }

    fn describe(&self) -> String {
        crate::device::Backend::Cpu.describe()
    }

    fn preferred_chunk(&self) -> usize {
        (rayon::current_num_threads() * 8).max(1)
    }

    fn max_chunk(&self) -> usize {
        // the states' angles and strings: at most about 256 MiB at once
        let s = &*self.setup;
        let per = (s.items.weights.len() * (s.individuals * 2 + 1)).max(1);
        ((256usize << 20) / per).max(1)
    }

    fn peek(&mut self) -> Result<Option<(u64, u64)>> {
        let best = self.states.iter().map(|st| st.bestv).max().unwrap_or(0);
        let run = self
            .states
            .iter()
            .map(|st| u64::from(st.generations_run()))
            .sum();
        Ok(Some((best, run)))
    }
}
