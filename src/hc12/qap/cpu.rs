//! The QAP HC12's CPU evaluator (rayon), the twin of `device.rs`: each row's permutation as
//! `qap_row_order` of `cl/qap.cl` builds it, costed by the problem's full or delta cost
//! (`src/problem/qap/cost.rs`), so integer results are identical to the device's.

use super::eval::{Evaluator, IterState, RowCosts};
use crate::error::Result;
use crate::hc12::tabu::CpuTabu;
use crate::hc12::TabuQuery;
use crate::hc12::{gray_to_binary, Neighbourhood};
use crate::problem::qap::{delta_cost, full_cost, Cost, QapElem};
use rayon::prelude::*;
use std::sync::Arc;

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
        if changed {
            gray_to_binary(g)
        } else {
            st.i_cur[p]
        }
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
            delta_cost(
                self.n,
                self.slices,
                &self.a,
                &self.b,
                &order[..self.n],
                &st.cur,
                st.cur_cost,
            )
        } else {
            full_cost(self.n, self.slices, &self.a, &self.b, &order[..self.n])
        }
    }
}

impl<T: QapElem> Evaluator for CpuEvaluator<T> {
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery<Cost>) -> Result<(Cost, u64)> {
        if tabu.insert {
            self.tabu
                .as_mut()
                .ok_or_else(|| crate::Error::arg("tabu list", "not initialised"))?
                .insert(&st.k);
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
                        if list.contains(cand) && !(tabu.aspiration && f.less(&tabu.best)) {
                            f = worst;
                        }
                    }
                    (f, r)
                },
            )
            .reduce_with(|x, y| {
                if y.0.less(&x.0) || (!x.0.less(&y.0) && y.1 < x.1) {
                    y
                } else {
                    x
                }
            })
            .expect("a neighbourhood has at least row 0");
        Ok(best)
    }

    fn tabu_reset(&mut self, max_length: usize) -> Result<()> {
        self.tabu = (max_length > 0).then(|| CpuTabu::new(max_length));
        Ok(())
    }

    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        Ok(self
            .tabu
            .as_ref()
            .map(|t| t.sorted_strings())
            .unwrap_or_default())
    }

    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        Ok((0..self.nb.rows)
            .into_par_iter()
            .map_init(|| [0u8; 256], |order, r| self.row_cost(st, r, order))
            .collect())
    }

    fn describe(&self) -> String {
        crate::device::Backend::Cpu.describe()
    }
}
