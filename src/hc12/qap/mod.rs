//! HC12 over the qapswap2 encoding of the QAP: the thesis's `hc12qs2_v2` (docs/QAP.md).
//!
//! A string holds `2 * swaps` parameters of `ceil(log2 n)` Gray-coded bits; decoded, parameter
//! pair k swaps positions `I[2k] mod n` and `I[2k+1] mod n` of the base permutation, in order.
//! Every row of the neighbourhood is evaluated by an [`Evaluator`] (the device or the CPU); the
//! hill-climbing loop around it is the same for both.

pub mod cpu;
pub mod device;

use self::cpu::CpuEvaluator;
use self::device::DeviceEvaluator;
use crate::error::{Error, Result};
use crate::hc12::tabu::TabuConfig;
use crate::hc12::{gray_to_binary, Neighbourhood};
use crate::problem::qap::{check_perm, Cost, QapMatrices, QapProblem};
use serde::Serialize;
use std::sync::Arc;

/// Most swaps a string may hold (128 parameters; about 500,000 rows at n = 256).
pub const MAX_SWAPS: u32 = 64;

/// Everything an evaluator needs for one iteration: the base permutation, the current string,
/// its decoded parameters, the current permutation and its cost.
#[derive(Clone, Debug)]
pub struct IterState {
    pub base: Vec<u8>,
    pub k: Vec<u32>,
    pub i_cur: Vec<u32>,
    pub cur: Vec<u8>,
    pub cur_cost: Cost,
}

/// Every row's cost of one iteration.
pub type RowCosts = Vec<Cost>;

/// How the tabu list takes part in one evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct TabuQuery {
    /// Put the current string `st.k` on the list before evaluating (only the string moved to is
    /// ever listed, never the whole neighbourhood).
    pub insert: bool,
    /// Rows whose string is listed get the worst value.
    pub check: bool,
    /// With aspiration: the best cost ever seen, which a listed row may still beat.
    pub aspiration: Option<Cost>,
}

/// Evaluates every row of the neighbourhood of an [`IterState`], and keeps the tabu list.
pub trait Evaluator: Send {
    /// The best row: lowest cost, ties to the lowest row. Listed rows count as worst when
    /// `tabu.check` is set; a row of worst value is then returned only when every row is listed.
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery) -> Result<(Cost, u64)>;
    /// Every row's cost, without the tabu list (for tests and traces).
    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts>;
    /// Makes an empty tabu list of `max_length` entries (0: none).
    fn tabu_reset(&mut self, max_length: usize) -> Result<()>;
    /// The listed strings in sorted order (for tests).
    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>>;
    fn description(&self) -> String;
}

pub use crate::device::Backend;

/// How a row's cost is computed: the thesis's full O(n^2) sum or the O(n) delta form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum CostForm {
    Full,
    #[default]
    Delta,
}

/// The result of one HC12 run (to a local optimum or the iteration cap).
#[derive(Clone, Debug, Serialize)]
pub struct RunOutcome {
    pub cost: Cost,
    /// The best permutation, 0-based.
    pub order: Vec<usize>,
    /// The best string, Gray-coded, one parameter per word (relative to the run's base).
    pub k_gc: Vec<u32>,
    /// Iterations made (neighbourhood evaluations).
    pub iterations: u32,
    /// Rows evaluated.
    pub evaluations: u64,
    /// True when the run ended at a local optimum (plain HC12) or because every neighbour was
    /// tabu; false when an iteration limit ended it.
    pub local_optimum: bool,
}

/// One iteration of a traced run: the string the iteration started from (which a tabu run has
/// just put on its list), the row selected, the string moved to and its cost.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    pub from: Vec<u32>,
    pub row: u64,
    pub to: Vec<u32>,
    pub cost: Cost,
}

/// The qapswap2 HC12 solver over one problem.
pub struct QapHc12 {
    problem: Arc<QapProblem>,
    nb: Neighbourhood,
    swaps: u32,
    eval: Box<dyn Evaluator>,
    tabu: Option<TabuConfig>,
    /// Cap on iterations per run of plain HC12 (a tabu run has its own limits).
    pub max_iterations: u32,
    /// When set, every iteration of the following runs is recorded here.
    pub trace: Option<Vec<TraceStep>>,
}

/// Bits per parameter of an n-element problem: ceil(log2 n).
pub fn bits_for(n: usize) -> u32 {
    (usize::BITS - (n - 1).leading_zeros()).max(1)
}

impl QapHc12 {
    /// `start_bit`/`bit_length` select the window of the string the masks act on (`bit_length`
    /// 0 = to the end); `mask_order` is 1..3.
    pub fn new(
        problem: Arc<QapProblem>,
        swaps: u32,
        mask_order: u32,
        start_bit: i64,
        bit_length: i64,
        backend: Backend,
        form: CostForm,
    ) -> Result<Self> {
        if swaps == 0 || swaps > MAX_SWAPS {
            return Err(Error::arg("swaps", format!("{swaps}; expected 1..{MAX_SWAPS}")));
        }
        let nb = Neighbourhood::new(2 * swaps, bits_for(problem.n), mask_order, start_bit, bit_length)?;
        let eval: Box<dyn Evaluator> = match backend {
            Backend::Device(d) => Box::new(DeviceEvaluator::new(&problem, &nb, swaps, form, d)?),
            Backend::Cpu => {
                let (n, slices, delta) = (problem.n, problem.slices, form == CostForm::Delta);
                macro_rules! cpu {
                    ($a:expr, $b:expr) => {
                        Box::new(CpuEvaluator { n, slices, a: Arc::new($a.clone()), b: Arc::new($b.clone()), nb, delta, tabu: None })
                    };
                }
                match &problem.data {
                    QapMatrices::I32(a, b) => cpu!(a, b),
                    QapMatrices::I64(a, b) => cpu!(a, b),
                    QapMatrices::U32(a, b) => cpu!(a, b),
                    QapMatrices::U64(a, b) => cpu!(a, b),
                    QapMatrices::F32(a, b) => cpu!(a, b),
                    QapMatrices::F64(a, b) => cpu!(a, b),
                }
            }
        };
        Ok(QapHc12 { problem, nb, swaps, eval, tabu: None, max_iterations: 1_000_000, trace: None })
    }

    pub fn problem(&self) -> &Arc<QapProblem> {
        &self.problem
    }

    pub fn neighbourhood(&self) -> &Neighbourhood {
        &self.nb
    }

    pub fn swaps(&self) -> u32 {
        self.swaps
    }

    pub fn rows(&self) -> u64 {
        self.nb.rows
    }

    pub fn backend_description(&self) -> String {
        self.eval.description()
    }

    /// The all-zero string, meaning "the base permutation itself".
    pub fn zero_string(&self) -> Vec<u32> {
        vec![0; self.nb.n_param as usize]
    }

    /// The state of string `k` over base permutation `base`.
    pub fn state(&self, base: &[usize], k: &[u32]) -> Result<IterState> {
        check_perm(base, self.problem.n, "initOrder")?;
        self.nb.check_string(k, "initK")?;
        let i_cur: Vec<u32> = k.iter().map(|&g| gray_to_binary(g)).collect();
        let mut cur: Vec<u8> = base.iter().map(|&v| v as u8).collect();
        let n = cur.len();
        for pair in i_cur.chunks_exact(2) {
            cur.swap(pair[0] as usize % n, pair[1] as usize % n);
        }
        let cur_cost = self.problem.cost_order(&cur);
        Ok(IterState { base: base.iter().map(|&v| v as u8).collect(), k: k.to_vec(), i_cur, cur, cur_cost })
    }

    /// The best row of the neighbourhood of (base, k), without the tabu list.
    pub fn best_row(&mut self, st: &IterState) -> Result<(Cost, u64)> {
        self.eval.best_row(st, &TabuQuery::default())
    }

    /// Every row's cost in the neighbourhood of (base, k).
    pub fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        self.eval.all_costs(st)
    }

    /// The permutation of row `row` (host computation, for tests).
    pub fn row_permutation(&self, st: &IterState, row: u64) -> Vec<usize> {
        let mut order = [0u8; 256];
        cpu::row_order(&self.nb, st, row, &mut order);
        order[..self.problem.n].iter().map(|&v| v as usize).collect()
    }

    /// Turns the tabu list on (thesis `initTabuList` / `set-tabu-list`); each run then starts
    /// with an empty list.
    pub fn init_tabu_list(&mut self, cfg: TabuConfig) -> Result<()> {
        cfg.check()?;
        self.eval.tabu_reset(cfg.max_length)?;
        self.tabu = Some(cfg);
        Ok(())
    }

    /// Back to plain HC12.
    pub fn clear_tabu_list(&mut self) -> Result<()> {
        self.eval.tabu_reset(0)?;
        self.tabu = None;
        Ok(())
    }

    pub fn tabu_config(&self) -> Option<&TabuConfig> {
        self.tabu.as_ref()
    }

    /// The strings on the tabu list now, sorted (for tests).
    pub fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>> {
        self.eval.tabu_strings()
    }

    /// One run from `base` (identity when None) and string `k` (zeros when None): plain HC12 to
    /// a local optimum or `max_iterations`, or with the tabu list until its limits; the result is
    /// the best string ever seen.
    pub fn run(&mut self, base: Option<&[usize]>, k: Option<&[u32]>) -> Result<RunOutcome> {
        let identity: Vec<usize> = (0..self.problem.n).collect();
        let base = base.unwrap_or(&identity);
        let zero = self.zero_string();
        let mut st = self.state(base, k.unwrap_or(&zero))?;
        let tabu = self.tabu.clone();
        if let Some(cfg) = &tabu {
            self.eval.tabu_reset(cfg.max_length)?;
        }
        let max_iterations = tabu.as_ref().map_or(self.max_iterations, |c| c.max_iterations);
        let mut best = st.clone();
        let (mut iterations, mut evaluations, mut no_improve) = (0u32, 0u64, 0u32);
        let mut local_optimum = false;
        while iterations < max_iterations {
            let mut query = TabuQuery::default();
            if let Some(cfg) = &tabu {
                query.insert = true;
                query.check = cfg.activation_limit.is_none_or(|l| st.cur_cost.as_f64() < l);
                query.aspiration = cfg.aspiration.then_some(best.cur_cost);
            }
            let (f, row) = self.eval.best_row(&st, &query)?;
            iterations += 1;
            evaluations += self.nb.rows;
            // row 0 is the current string: a local optimum, or (with the list) every row tabu
            if row == 0 || (query.check && f == st.cur_cost.worst()) {
                local_optimum = true;
                break;
            }
            let mut k = st.k.clone();
            self.nb.apply_row(&mut k, row);
            let next = self.state(base, &k)?;
            if let Some(trace) = &mut self.trace {
                trace.push(TraceStep { from: st.k.clone(), row, to: k, cost: next.cur_cost });
            }
            st = next;
            if st.cur_cost.less(&best.cur_cost) {
                best = st.clone();
                no_improve = 0;
            } else {
                no_improve += 1;
                if tabu.as_ref().is_some_and(|c| no_improve >= c.max_no_improve) {
                    break;
                }
            }
        }
        Ok(RunOutcome {
            cost: best.cur_cost,
            order: best.cur.iter().map(|&v| v as usize).collect(),
            k_gc: best.k,
            iterations,
            evaluations,
            local_optimum,
        })
    }
}
