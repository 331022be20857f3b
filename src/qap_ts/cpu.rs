//! Robust tabu search of one chain on the host (docs/specs/QAP_TS.md), generic over the element
//! type, and the rayon engine that runs many chains, one per task. It is the reference of the
//! device engine (`cl/qap_ts.cl`): same formulas, same Philox draws, same choice key, so on
//! integer data both give bit-identical chains.

use super::{ChainState, Engine, TenureRule};
use crate::error::{Error, Result};
use crate::problem::qap::{full_cost, QapElem, QapMatrices, QapProblem};
use crate::rng::rng4;
use rayon::prelude::*;
use std::sync::Arc;

/// The arithmetic of deltas and costs of one element type: exact 64-bit wrapping integers on
/// integer data (the bits of `cl/qap.cl`'s sums), the element's own float type on float data.
pub trait TsElem: QapElem {
    /// Deltas are exact (integer data): a maintained delta matrix equals a recomputed one, so
    /// it may be kept from one launch to the next.
    const EXACT: bool;
    /// Deltas and costs.
    type D: Copy + PartialEq + Send + Sync + std::fmt::Debug + 'static;
    fn d(self) -> Self::D;
    fn dadd(a: Self::D, b: Self::D) -> Self::D;
    fn dsub(a: Self::D, b: Self::D) -> Self::D;
    fn dmul(a: Self::D, b: Self::D) -> Self::D;
    fn dzero() -> Self::D;
    /// Deltas are signed, always.
    fn delta_lt(a: Self::D, b: Self::D) -> bool;
    /// Costs compare in the cost's type (unsigned for the unsigned element types).
    fn cost_lt(a: Self::D, b: Self::D) -> bool;
    fn to_bits(v: Self::D) -> u64;
    fn from_bits(u: u64) -> Self::D;
}

macro_rules! int_ts {
    ($t:ty, $signed:expr) => {
        impl TsElem for $t {
            const EXACT: bool = true;
            type D = i64;
            fn d(self) -> i64 {
                self as i64
            }
            fn dadd(a: i64, b: i64) -> i64 {
                a.wrapping_add(b)
            }
            fn dsub(a: i64, b: i64) -> i64 {
                a.wrapping_sub(b)
            }
            fn dmul(a: i64, b: i64) -> i64 {
                a.wrapping_mul(b)
            }
            fn dzero() -> i64 {
                0
            }
            fn delta_lt(a: i64, b: i64) -> bool {
                a < b
            }
            fn cost_lt(a: i64, b: i64) -> bool {
                if $signed {
                    a < b
                } else {
                    (a as u64) < (b as u64)
                }
            }
            fn to_bits(v: i64) -> u64 {
                v as u64
            }
            fn from_bits(u: u64) -> i64 {
                u as i64
            }
        }
    };
}
int_ts!(i32, true);
int_ts!(i64, true);
int_ts!(u32, false);
int_ts!(u64, false);

macro_rules! float_ts {
    ($t:ty, $to:expr, $from:expr) => {
        impl TsElem for $t {
            const EXACT: bool = false;
            type D = $t;
            fn d(self) -> $t {
                self
            }
            fn dadd(a: $t, b: $t) -> $t {
                a + b
            }
            fn dsub(a: $t, b: $t) -> $t {
                a - b
            }
            fn dmul(a: $t, b: $t) -> $t {
                a * b
            }
            fn dzero() -> $t {
                0.0
            }
            fn delta_lt(a: $t, b: $t) -> bool {
                a < b
            }
            fn cost_lt(a: $t, b: $t) -> bool {
                a < b
            }
            fn to_bits(v: $t) -> u64 {
                $to(v)
            }
            fn from_bits(u: u64) -> $t {
                $from(u)
            }
        }
    };
}
float_ts!(f32, |v: f32| v.to_bits() as u64, |u: u64| f32::from_bits(
    u as u32
));
float_ts!(f64, |v: f64| v.to_bits(), f64::from_bits);

/// The fixed parameters of every chain of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TsParams {
    pub seed: u64,
    pub tenure: TenureRule,
    /// The long-term aspiration horizon h.
    pub horizon: u32,
    /// The global index of the engine's first chain: chain `c` of the engine draws the numbers
    /// of chain `first_chain + c` (a block of chains on one of several devices).
    pub first_chain: u32,
}

/// The tie key of pair `idx` under the iteration's word `w`: a bijection of `idx`, so distinct
/// pairs never tie (as `ts_tie_key` in `cl/qap_ts.cl`).
pub fn tie_key(idx: u32, w: u32) -> u32 {
    let mut h = idx.wrapping_mul(0x9E37_79B9).wrapping_add(w);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

/// A tenure from one random word, in integer arithmetic so that every device draws the same
/// (as `ts_tenure` in `cl/qap_ts.cl`). Taillard 2006: floor(u^3 * 8n) with u = (w / 2^11 + 1) /
/// 2^21 in (0, 1]; Taillard 1991: uniform in [floor(0.9n), floor(1.1n)].
pub fn tenure(rule: TenureRule, n: usize, w: u32) -> i32 {
    match rule {
        TenureRule::Cubic => {
            let u = ((w >> 11) + 1) as u64;
            let u3 = u * u * u;
            ((u3 as u128 * (8 * n) as u128) >> 63) as i32
        }
        TenureRule::Uniform => {
            let (lo, hi) = ((9 * n / 10) as u64, (11 * n / 10) as u64);
            (lo + ((w as u64 * (hi - lo + 1)) >> 32)) as i32
        }
    }
}

/// The index of pair (u, v), u < v, in the delta matrix (pairs in row order).
#[inline]
pub fn pair_index(n: usize, u: usize, v: usize) -> usize {
    u * (2 * n - u - 1) / 2 + (v - u - 1)
}

#[inline]
fn row_of<T>(m: &[T], at: usize, n: usize) -> &[T] {
    &m[at..at + n]
}

/// The transpose of every n x n matrix of the stack `m`.
pub fn transpose<T: Copy>(n: usize, m: &[T]) -> Vec<T> {
    let mut t = m.to_vec();
    for (x, y) in m.chunks(n * n).zip(t.chunks_mut(n * n)) {
        for i in 0..n {
            for j in 0..n {
                y[j * n + i] = x[i * n + j];
            }
        }
    }
    t
}

/// Every n x n matrix of the stack `m` is symmetric.
pub fn symmetric<T: PartialEq>(n: usize, m: &[T]) -> bool {
    m.chunks(n * n)
        .all(|x| (0..n).all(|i| (0..i).all(|j| x[i * n + j] == x[j * n + i])))
}

/// Every pair (r, s), r < s, in delta-matrix order.
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|r| (r + 1..n).map(move |s| (r, s)))
        .collect()
}

/// One move a chain made (for traces).
#[derive(Clone, Debug, PartialEq)]
pub struct TsMove {
    pub iteration: i32,
    pub r: usize,
    pub s: usize,
    /// The tabu stamps of the two placements the move made, before it: `T[r][p_s]`, `T[s][p_r]`.
    pub stamps: (i32, i32),
    pub delta_bits: u64,
    pub best_before_bits: u64,
    pub cost_before_bits: u64,
}

/// What every chain of one instance reads and none writes: the matrices, their transposes (so
/// that column reads are row reads), whether both are symmetric and the pairs in delta-matrix
/// order. Made once per engine and shared, so a chain's own memory is its tabu and delta
/// matrices and its permutations.
#[derive(Debug)]
pub struct TsData<T: TsElem> {
    pub n: usize,
    pub slices: usize,
    a: Vec<T>,
    b: Vec<T>,
    at: Vec<T>,
    bt: Vec<T>,
    /// A and B symmetric (every slice): the symmetric shortcut of the formulas.
    pub sym: bool,
    pub pairs: Vec<(u16, u16)>,
}

impl<T: TsElem> TsData<T> {
    pub fn new(n: usize, slices: usize, a: Vec<T>, b: Vec<T>) -> Self {
        TsData {
            n,
            slices,
            sym: symmetric(n, &a) && symmetric(n, &b),
            at: transpose(n, &a),
            bt: transpose(n, &b),
            a,
            b,
            pairs: pairs(n)
                .into_iter()
                .map(|(r, s)| (r as u16, s as u16))
                .collect(),
        }
    }
}

/// One robust tabu search chain: the state of docs/specs/QAP_TS.md.
#[derive(Clone, Debug)]
pub struct TsChain<T: TsElem> {
    pub n: usize,
    data: Arc<TsData<T>>,
    pub perm: Vec<u16>,
    pub cost: T::D,
    pub best: T::D,
    pub best_perm: Vec<u16>,
    /// Tabu stamps T[unit * n + location].
    pub tabu: Vec<i32>,
    pub delta: Vec<T::D>,
    /// Iteration within the current start (tabu stamps are relative to it).
    pub t: i32,
    /// Iterations made since the first start (the Philox counter).
    pub g: u64,
    /// `g` when `best` last improved.
    pub best_iter: u64,
    /// When set, every move is recorded here.
    pub trace: Option<Vec<TsMove>>,
    /// `delta` holds the deltas of `perm` (false for a chain its engine has not started).
    deltas_valid: bool,
}

impl<T: TsElem> TsChain<T> {
    /// A chain of its own instance data (tests, one chain); an engine shares one [`TsData`].
    pub fn new(n: usize, slices: usize, a: Arc<Vec<T>>, b: Arc<Vec<T>>, perm: &[u16]) -> Self {
        let data = Arc::new(TsData::new(n, slices, a.to_vec(), b.to_vec()));
        Self::on(data, perm)
    }

    /// A chain over shared instance data, started from `perm`.
    pub fn on(data: Arc<TsData<T>>, perm: &[u16]) -> Self {
        let mut c = Self::blank(data);
        c.restart(perm);
        c
    }

    /// A chain whose state its engine sets before its first iteration (the identity
    /// permutation, a zero tabu matrix and zero deltas: no O(n^3) start that is thrown away).
    fn blank(data: Arc<TsData<T>>) -> Self {
        let n = data.n;
        let perm: Vec<u16> = (0..n as u16).collect();
        TsChain {
            n,
            data,
            perm: perm.to_vec(),
            cost: T::dzero(),
            best: T::dzero(),
            best_perm: perm.to_vec(),
            tabu: vec![0; n * n],
            delta: vec![T::dzero(); n * (n - 1) / 2],
            t: 0,
            g: 0,
            best_iter: 0,
            trace: None,
            deltas_valid: false,
        }
    }

    /// A and B symmetric: the symmetric shortcut is in use.
    pub fn symmetric(&self) -> bool {
        self.data.sym
    }

    /// A fresh start from `perm`: fresh tabu matrix, full cost and deltas, best = current.
    pub fn restart(&mut self, perm: &[u16]) {
        self.perm.copy_from_slice(perm);
        self.cost = T::from_bits(
            full_cost(self.n, self.data.slices, &self.data.a, &self.data.b, perm).bits(),
        );
        self.best = self.cost;
        self.best_perm.copy_from_slice(perm);
        self.best_iter = self.g;
        self.t = 0;
        self.reset_tabu();
        self.recompute();
    }

    /// `T[i][l] = -(n i + l) - 1`: nothing barred at t = 0, distinct long-term aspiration order.
    pub fn reset_tabu(&mut self) {
        let n = self.n;
        for (k, x) in self.tabu.iter_mut().enumerate() {
            *x = -(k as i32) - 1;
        }
        debug_assert_eq!(self.tabu.len(), n * n);
    }

    /// Every delta from the O(n) formula.
    pub fn recompute(&mut self) {
        self.deltas_valid = true;
        for idx in 0..self.data.pairs.len() {
            let (r, s) = self.data.pairs[idx];
            self.delta[idx] = self.delta_full(r as usize, s as usize);
        }
    }

    /// Δ(p; r, s) from the O(n) formula of docs/specs/QAP_TS.md, general or (when A and B are
    /// symmetric) the symmetric shortcut; the order of the terms is `ts_delta_full`'s in
    /// `cl/qap_ts.cl`.
    pub fn delta_full(&self, r: usize, s: usize) -> T::D {
        let n = self.n;
        let p = &self.perm;
        let (pr, ps) = (p[r] as usize, p[s] as usize);
        let mut acc = T::dzero();
        for sl in 0..self.data.slices {
            let o = sl * n * n;
            // rows of A (r, s) and of B (p_r, p_s); columns as rows of the transposes
            let (ar, as_, br, bs) = (
                row_of(&self.data.a, o + r * n, n),
                row_of(&self.data.a, o + s * n, n),
                row_of(&self.data.b, o + pr * n, n),
                row_of(&self.data.b, o + ps * n, n),
            );
            let t1 = T::dmul(
                T::dsub(ar[r].d(), as_[s].d()),
                T::dsub(bs[ps].d(), br[pr].d()),
            );
            if self.data.sym {
                // the two halves of the sum are equal: a_kr = a_rk, b(k, s) = b(s, k)
                let mut sum = T::dzero();
                for (k, &pk) in p.iter().enumerate() {
                    if k == r || k == s {
                        continue;
                    }
                    let pk = pk as usize;
                    sum = T::dadd(
                        sum,
                        T::dmul(
                            T::dsub(ar[k].d(), as_[k].d()),
                            T::dsub(bs[pk].d(), br[pk].d()),
                        ),
                    );
                }
                acc = T::dadd(acc, T::dadd(t1, T::dadd(sum, sum)));
                continue;
            }
            let (acr, acs, bcr, bcs) = (
                row_of(&self.data.at, o + r * n, n),
                row_of(&self.data.at, o + s * n, n),
                row_of(&self.data.bt, o + pr * n, n),
                row_of(&self.data.bt, o + ps * n, n),
            );
            let t2 = T::dmul(
                T::dsub(ar[s].d(), as_[r].d()),
                T::dsub(bs[pr].d(), br[ps].d()),
            );
            acc = T::dadd(acc, T::dadd(t1, t2));
            for (k, &pk) in p.iter().enumerate() {
                if k == r || k == s {
                    continue;
                }
                let pk = pk as usize;
                let x = T::dmul(
                    T::dsub(acr[k].d(), acs[k].d()),
                    T::dsub(bcs[pk].d(), bcr[pk].d()),
                );
                let y = T::dmul(
                    T::dsub(ar[k].d(), as_[k].d()),
                    T::dsub(bs[pk].d(), br[pk].d()),
                );
                acc = T::dadd(acc, T::dadd(x, y));
            }
        }
        acc
    }

    /// Applies the swap (r, s) (r < s) to the permutation and the cost, and updates every delta:
    /// O(1) for pairs disjoint from it, O(n) for the 2n - 3 that touch it.
    pub fn apply_swap(&mut self, r: usize, s: usize) {
        let n = self.n;
        let idx = pair_index(n, r, s);
        self.cost = T::dadd(self.cost, self.delta[idx]);
        self.perm.swap(r, s);
        let mut delta = std::mem::take(&mut self.delta);
        // the 2n - 3 pairs that touch the move, from scratch
        delta[idx] = self.delta_full(r, s);
        for w in (0..n).filter(|&w| w != r && w != s) {
            for x in [r, s] {
                let (u, v) = (w.min(x), w.max(x));
                delta[pair_index(n, u, v)] = self.delta_full(u, v);
            }
        }
        let p = &self.perm;
        let (pr, ps) = (p[r] as usize, p[s] as usize);
        for sl in 0..self.data.slices {
            let o = sl * n * n;
            let (ar, as_, bpr, bps) = (
                row_of(&self.data.a, o + r * n, n),
                row_of(&self.data.a, o + s * n, n),
                row_of(&self.data.b, o + pr * n, n),
                row_of(&self.data.b, o + ps * n, n),
            );
            let (acr, acs, bcr, bcs) = (
                row_of(&self.data.at, o + r * n, n),
                row_of(&self.data.at, o + s * n, n),
                row_of(&self.data.bt, o + pr * n, n),
                row_of(&self.data.bt, o + ps * n, n),
            );
            let mut k = 0;
            for u in 0..n {
                let pu = p[u] as usize;
                for v in u + 1..n {
                    let here = k;
                    k += 1;
                    if u == r || u == s || v == r || v == s {
                        continue;
                    }
                    let pv = p[v] as usize;
                    let fa = T::dadd(
                        T::dsub(ar[u].d(), ar[v].d()),
                        T::dsub(as_[v].d(), as_[u].d()),
                    );
                    let fb = T::dadd(
                        T::dsub(bps[pu].d(), bps[pv].d()),
                        T::dsub(bpr[pv].d(), bpr[pu].d()),
                    );
                    let add = if self.data.sym {
                        let f = T::dmul(fa, fb);
                        T::dadd(f, f)
                    } else {
                        let ga = T::dadd(
                            T::dsub(acr[u].d(), acr[v].d()),
                            T::dsub(acs[v].d(), acs[u].d()),
                        );
                        let gb = T::dadd(
                            T::dsub(bcs[pu].d(), bcs[pv].d()),
                            T::dsub(bcr[pv].d(), bcr[pu].d()),
                        );
                        T::dadd(T::dmul(fa, fb), T::dmul(ga, gb))
                    };
                    delta[here] = T::dadd(delta[here], add);
                }
            }
        }
        self.delta = delta;
    }

    /// One iteration of robust tabu search: returns the move made, if any.
    pub fn step(&mut self, p: &TsParams, chain: u32) -> Option<(usize, usize)> {
        let n = self.n;
        let w = rng4(p.seed, chain, self.g);
        let t = self.t as i64;
        let h = p.horizon as i64;
        // the tie key is computed only on a tie: it decides nothing else
        let mut best: Option<(bool, T::D, usize)> = None;
        for (idx, &(r, s)) in self.data.pairs.iter().enumerate() {
            let (r, s) = (r as usize, s as usize);
            let d = self.delta[idx];
            let tr = self.tabu[r * n + self.perm[s] as usize] as i64;
            let ts = self.tabu[s * n + self.perm[r] as usize] as i64;
            let aspired = T::cost_lt(T::dadd(self.cost, d), self.best) || tr < t - h || ts < t - h;
            let allowed = tr < t || ts < t;
            if !(aspired || allowed) {
                continue;
            }
            let better = match &best {
                None => true,
                Some((ba, bd, bi)) => {
                    if aspired != *ba {
                        aspired
                    } else if d != *bd {
                        T::delta_lt(d, *bd)
                    } else {
                        tie_key(idx as u32, w[0]) < tie_key(*bi as u32, w[0])
                    }
                }
            };
            if better {
                best = Some((aspired, d, idx));
            }
        }
        let made = best.map(|(_, d, idx)| {
            let (r, s) = self.data.pairs[idx];
            let (r, s) = (r as usize, s as usize);
            let (pr, ps) = (self.perm[r] as usize, self.perm[s] as usize);
            if let Some(tr) = &mut self.trace {
                tr.push(TsMove {
                    iteration: self.t,
                    r,
                    s,
                    stamps: (self.tabu[r * n + ps], self.tabu[s * n + pr]),
                    delta_bits: T::to_bits(d),
                    best_before_bits: T::to_bits(self.best),
                    cost_before_bits: T::to_bits(self.cost),
                });
            }
            self.tabu[r * n + pr] = self.t + tenure(p.tenure, n, w[1]);
            self.tabu[s * n + ps] = self.t + tenure(p.tenure, n, w[2]);
            self.apply_swap(r, s);
            if T::cost_lt(self.cost, self.best) {
                self.best = self.cost;
                self.best_perm.copy_from_slice(&self.perm);
                self.best_iter = self.g;
            }
            (r, s)
        });
        self.t += 1;
        self.g += 1;
        made
    }

    /// `count` iterations.
    pub fn run(&mut self, p: &TsParams, chain: u32, count: u32) {
        for _ in 0..count {
            self.step(p, chain);
        }
    }
}

/// The rayon engine: one [`TsChain`] per chain, one chain per task.
pub struct CpuEngine<T: TsElem> {
    n: usize,
    data: Arc<TsData<T>>,
    params: TsParams,
    chains: Vec<TsChain<T>>,
}

impl<T: TsElem> CpuEngine<T> {
    pub fn new(n: usize, slices: usize, a: &[T], b: &[T], params: TsParams) -> Self {
        CpuEngine {
            n,
            data: Arc::new(TsData::new(n, slices, a.to_vec(), b.to_vec())),
            params,
            chains: Vec::new(),
        }
    }
}

/// A CPU engine over the problem's element type.
pub fn engine(problem: &QapProblem, params: TsParams) -> Box<dyn Engine> {
    let (n, sl) = (problem.n, problem.slices);
    match &problem.data {
        QapMatrices::I32(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
        QapMatrices::I64(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
        QapMatrices::U32(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
        QapMatrices::U64(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
        QapMatrices::F32(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
        QapMatrices::F64(a, b) => Box::new(CpuEngine::new(n, sl, a, b, params)),
    }
}

impl<T: TsElem> Engine for CpuEngine<T> {
    fn advance(&mut self, states: &mut [ChainState], iterations: u32) -> Result<()> {
        // every field of a new chain is set from its state below (a new chain's start is fresh)
        while self.chains.len() < states.len() {
            self.chains.push(TsChain::blank(self.data.clone()));
        }
        let params = self.params;
        self.chains
            .par_iter_mut()
            .zip(states.par_iter_mut())
            .enumerate()
            .for_each(|(c, (ch, st))| {
                // the chain's state is the host's (the driver may restart it); the tabu matrix is
                // the engine's, kept unless the start is fresh. Exact deltas of the same
                // permutation are kept; float deltas drift, so every launch of float data starts
                // from a full recomputation
                let keep = T::EXACT && ch.deltas_valid && ch.perm == st.perm;
                ch.perm.copy_from_slice(&st.perm);
                ch.best_perm.copy_from_slice(&st.best_perm);
                ch.cost = T::from_bits(st.cost);
                ch.best = T::from_bits(st.best);
                ch.t = st.t;
                ch.g = st.g;
                ch.best_iter = st.best_iter;
                if st.fresh {
                    ch.reset_tabu();
                    st.fresh = false;
                }
                if !keep {
                    ch.recompute();
                }
                ch.run(&params, params.first_chain + c as u32, iterations);
                st.perm.copy_from_slice(&ch.perm);
                st.best_perm.copy_from_slice(&ch.best_perm);
                st.cost = T::to_bits(ch.cost);
                st.best = T::to_bits(ch.best);
                st.t = ch.t;
                st.g = ch.g;
                st.best_iter = ch.best_iter;
            });
        Ok(())
    }

    fn tabu(&mut self, chains: usize) -> Result<Vec<i32>> {
        let nn = self.n * self.n;
        let mut out = Vec::with_capacity(chains * nn);
        for c in 0..chains {
            match self.chains.get(c) {
                Some(ch) => out.extend_from_slice(&ch.tabu),
                // a chain not launched yet: its start is fresh, the stamps of a reset matrix
                None => out.extend((0..nn).map(|k| -(k as i32) - 1)),
            }
        }
        Ok(out)
    }

    fn set_tabu(&mut self, tabu: &[i32]) -> Result<()> {
        let nn = self.n * self.n;
        if !tabu.len().is_multiple_of(nn) {
            return Err(Error::arg(
                "tabu",
                format!(
                    "{} stamps, not a whole number of {nn}-stamp matrices",
                    tabu.len()
                ),
            ));
        }
        while self.chains.len() < tabu.len() / nn {
            // the host's state of the chain replaces this one at its first launch
            self.chains.push(TsChain::blank(self.data.clone()));
        }
        for (ch, t) in self.chains.iter_mut().zip(tabu.chunks(nn)) {
            ch.tabu.copy_from_slice(t);
        }
        Ok(())
    }

    fn describe(&self) -> String {
        crate::device::Backend::Cpu.describe()
    }
}
