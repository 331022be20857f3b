//! What the QAP HC12's two evaluators (`device.rs`, `cpu.rs`) share with the solver: the state of
//! one iteration, the evaluator interface and the cost form.

use crate::error::Result;
use crate::hc12::TabuQuery;
use crate::problem::qap::Cost;
use serde::Serialize;

/// Everything an evaluator needs for one iteration: the base permutation, the current string,
/// its decoded parameters, the current permutation and its cost.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct IterState {
    pub base: Vec<u8>,
    pub k: Vec<u32>,
    pub i_cur: Vec<u32>,
    pub cur: Vec<u8>,
    #[serde(with = "crate::hc12::restarts::state_value")]
    pub cur_cost: Cost,
}

/// Every row's cost of one iteration.
pub type RowCosts = Vec<Cost>;

/// Evaluates every row of the neighbourhood of an [`IterState`], and keeps the tabu list.
pub trait Evaluator: Send {
    /// The best row: lowest cost, ties to the lowest row. Listed rows count as worst when
    /// `tabu.check` is set; a row of worst value is then returned only when every row is listed.
    fn best_row(&mut self, st: &IterState, tabu: &TabuQuery<Cost>) -> Result<(Cost, u64)>;
    /// Every row's cost, without the tabu list (for tests and traces).
    fn all_costs(&mut self, st: &IterState) -> Result<RowCosts>;
    /// Makes an empty tabu list of `max_length` entries (0: none).
    fn tabu_reset(&mut self, max_length: usize) -> Result<()>;
    /// The listed strings in sorted order (for tests).
    fn tabu_strings(&mut self) -> Result<Vec<Vec<u32>>>;
    fn describe(&self) -> String;
    /// The deadline of the searches to come (the device evaluator cuts its launches by it).
    fn set_deadline(&mut self, _deadline: Option<std::time::Instant>) {}
    /// Nanoseconds the device spent in its kernels since the last call (profiling events);
    /// `None` for an evaluator without a device.
    fn take_kernel_ns(&mut self) -> Option<u64> {
        None
    }
}

/// How a row's cost is computed: the thesis's full O(n^2) sum or the O(n) delta form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostForm {
    Full,
    #[default]
    Delta,
}
