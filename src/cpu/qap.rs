//! The qapswap2 evaluation on the CPU, and the host cost that both backends use for the current
//! permutation. The loops follow `cl/qap.cl` term by term, so integer results are identical to the
//! device's and float results differ only by the device's rounding.

use crate::device::ClScalar;
use crate::error::Result;
use crate::hc12::qap::{Cost, ElemType, Evaluator, IterState, RowCosts, TabuQuery};
use crate::hc12::tabu::CpuTabu;
use crate::hc12::{gray_to_binary, Neighbourhood};
use rayon::prelude::*;
use std::sync::Arc;

/// An element type of QAP matrices with its accumulation rules (as the `MUL`, `ACC_TO_FT`,
/// `ADD_DELTA` macros of `cl/qap.cl`).
pub trait QapElem: ClScalar + PartialEq + std::fmt::Debug {
    type Acc: Copy + Send + Sync;
    const TYPE: ElemType;
    fn zero() -> Self::Acc;
    fn mul(a: Self, b: Self) -> Self::Acc;
    fn add(acc: Self::Acc, x: Self::Acc) -> Self::Acc;
    fn sub(x: Self::Acc, y: Self::Acc) -> Self::Acc;
    fn to_cost(acc: Self::Acc) -> Cost;
    fn add_delta(cur: Cost, acc: Self::Acc) -> Cost;
    fn is_finite(self) -> bool;
}

// Integers wrap in 64-bit unsigned arithmetic, exactly as the kernel does.
macro_rules! int_elem {
    ($t:ty, $wide:ty, $ty:ident, $cost:ident, $to:expr) => {
        impl QapElem for $t {
            type Acc = u64;
            const TYPE: ElemType = ElemType::$ty;
            fn zero() -> u64 { 0 }
            fn mul(a: Self, b: Self) -> u64 { (a as $wide as u64).wrapping_mul(b as $wide as u64) }
            fn add(acc: u64, x: u64) -> u64 { acc.wrapping_add(x) }
            fn sub(x: u64, y: u64) -> u64 { x.wrapping_sub(y) }
            fn to_cost(acc: u64) -> Cost { Cost::$cost($to(acc)) }
            fn add_delta(cur: Cost, acc: u64) -> Cost { Cost::$cost($to(cur.bits().wrapping_add(acc))) }
            fn is_finite(self) -> bool { true }
        }
    };
}
int_elem!(i32, i64, I32, I64, |v: u64| v as i64);
int_elem!(i64, i64, I64, I64, |v: u64| v as i64);
int_elem!(u32, u64, U32, U64, |v: u64| v);
int_elem!(u64, u64, U64, U64, |v: u64| v);

macro_rules! float_elem {
    ($t:ty, $ty:ident, $cost:ident) => {
        impl QapElem for $t {
            type Acc = $t;
            const TYPE: ElemType = ElemType::$ty;
            fn zero() -> $t { 0.0 }
            fn mul(a: Self, b: Self) -> $t { a * b }
            fn add(acc: $t, x: $t) -> $t { acc + x }
            fn sub(x: $t, y: $t) -> $t { x - y }
            fn to_cost(acc: $t) -> Cost { Cost::$cost(acc) }
            fn add_delta(cur: Cost, acc: $t) -> Cost {
                match cur {
                    Cost::$cost(c) => Cost::$cost(c + acc),
                    other => unreachable!("cost {other:?} for a {} instance", stringify!($t)),
                }
            }
            fn is_finite(self) -> bool { <$t>::is_finite(self) }
        }
    };
}
float_elem!(f32, F32, F32);
float_elem!(f64, F64, F64);

/// The full cost of `order` summed as the full kernel sums it.
pub fn full_cost<T: QapElem>(n: usize, slices: usize, a: &[T], b: &[T], order: &[u8]) -> Cost {
    let mut acc = T::zero();
    for s in 0..slices {
        let (a_s, b_s) = (&a[s * n * n..(s + 1) * n * n], &b[s * n * n..(s + 1) * n * n]);
        for i in 0..n {
            let arow = &a_s[i * n..(i + 1) * n];
            let brow = &b_s[order[i] as usize * n..(order[i] as usize + 1) * n];
            for j in 0..n {
                acc = T::add(acc, T::mul(arow[j], brow[order[j] as usize]));
            }
        }
    }
    T::to_cost(acc)
}

/// The cost of `order` as the current cost plus the change over the positions where it differs
/// from `cur` (the delta kernel's arithmetic).
pub fn delta_cost<T: QapElem>(
    n: usize,
    slices: usize,
    a: &[T],
    b: &[T],
    order: &[u8],
    cur: &[u8],
    cur_cost: Cost,
) -> Cost {
    let mut d = [0usize; 12];
    let mut nd = 0;
    for e in 0..n {
        if order[e] != cur[e] && nd < d.len() {
            d[nd] = e;
            nd += 1;
        }
    }
    if nd == 0 {
        return cur_cost;
    }
    let d = &d[..nd];
    let mut acc = T::zero();
    for s in 0..slices {
        let (a_s, b_s) = (&a[s * n * n..(s + 1) * n * n], &b[s * n * n..(s + 1) * n * n]);
        for &i in d {
            let (pn, po) = (order[i] as usize, cur[i] as usize);
            for j in 0..n {
                let (ar, ac) = (a_s[i * n + j], a_s[j * n + i]);
                acc = T::add(acc, T::sub(T::mul(ar, b_s[pn * n + order[j] as usize]), T::mul(ar, b_s[po * n + cur[j] as usize])));
                acc = T::add(acc, T::sub(T::mul(ac, b_s[order[j] as usize * n + pn]), T::mul(ac, b_s[cur[j] as usize * n + po])));
            }
        }
        for &i in d {
            for &j in d {
                let x = a_s[i * n + j];
                let t = T::sub(
                    T::mul(x, b_s[order[i] as usize * n + order[j] as usize]),
                    T::mul(x, b_s[cur[i] as usize * n + cur[j] as usize]),
                );
                acc = T::sub(acc, t);
            }
        }
    }
    T::add_delta(cur_cost, acc)
}

/// Builds the permutation of mask row `row` into `order` (as `qap_row_order` in the kernel).
pub fn row_order(nb: &Neighbourhood, st: &IterState, row: u64, order: &mut [u8]) {
    let (bits, h) = nb.row_bits(row);
    let mut mp = [0u32; 3];
    let mut mm = [0u32; 3];
    for t in 0..h {
        mp[t] = bits[t] / nb.nbit;
        mm[t] = 1 << (nb.nbit - 1 - bits[t] % nb.nbit);
    }
    let n = st.base.len();
    order[..n].copy_from_slice(&st.base);
    let value = |p: usize| -> u32 {
        let mut g = st.k[p];
        let mut changed = false;
        for t in 0..h {
            if mp[t] as usize == p {
                g ^= mm[t];
                changed = true;
            }
        }
        if changed { gray_to_binary(g) } else { st.i_cur[p] }
    };
    for k in 0..st.k.len() / 2 {
        let p1 = value(2 * k) as usize % n;
        let p2 = value(2 * k + 1) as usize % n;
        order.swap(p1, p2);
    }
}

/// The CPU evaluator of one problem.
pub struct CpuEvaluator<T: QapElem> {
    pub n: usize,
    pub slices: usize,
    pub a: Arc<Vec<T>>,
    pub b: Arc<Vec<T>>,
    pub nb: Neighbourhood,
    pub delta: bool,
    pub tabu: Option<CpuTabu>,
}

impl<T: QapElem> CpuEvaluator<T> {
    fn row_cost(&self, st: &IterState, row: u64, order: &mut [u8; 256]) -> Cost {
        row_order(&self.nb, st, row, order);
        if self.delta {
            delta_cost(self.n, self.slices, &self.a, &self.b, &order[..self.n], &st.cur, st.cur_cost)
        } else {
            full_cost(self.n, self.slices, &self.a, &self.b, &order[..self.n])
        }
    }
}

impl<T: QapElem> Evaluator for CpuEvaluator<T> {
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery) -> Result<(Cost, u64)> {
        if tabu.insert {
            self.tabu.as_mut().ok_or_else(|| crate::Error::arg("tabu list", "not initialised"))?.insert(&st.k);
        }
        let list = self.tabu.as_ref().filter(|_| tabu.check);
        let worst = st.cur_cost.worst();
        let best = (0..self.nb.rows)
            .into_par_iter()
            .map_init(
                || ([0u8; 256], st.k.clone()),
                |(order, cand), r| {
                    let mut f = self.row_cost(st, r, order);
                    if let Some(list) = list {
                        cand.copy_from_slice(&st.k);
                        self.nb.apply_row(cand, r);
                        if list.contains(cand) && !tabu.aspiration.is_some_and(|b| f.less(&b)) {
                            f = worst;
                        }
                    }
                    (f, r)
                },
            )
            .reduce_with(|x, y| if y.0.less(&x.0) || (!x.0.less(&y.0) && y.1 < x.1) { y } else { x })
            .expect("a neighbourhood has at least row 0");
        Ok(best)
    }

    fn tabu_reset(&mut self, max_length: usize) -> Result<()> {
        self.tabu = (max_length > 0).then(|| CpuTabu::new(max_length));
        Ok(())
    }

    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        Ok(self.tabu.as_ref().map(|t| t.sorted_strings()).unwrap_or_default())
    }

    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        Ok((0..self.nb.rows)
            .into_par_iter()
            .map_init(|| [0u8; 256], |order, r| self.row_cost(st, r, order))
            .collect())
    }

    fn description(&self) -> String {
        format!("CPU ({} threads, rayon)", rayon::current_num_threads())
    }
}
