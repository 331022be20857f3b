//! HC12 over the qapswap2 encoding of the QAP: the thesis's `hc12qs2_v2`.
//!
//! A string holds `2 * swaps` parameters of `ceil(log2 n)` Gray-coded bits; decoded, parameter
//! pair k swaps positions `I[2k] mod n` and `I[2k+1] mod n` of the base permutation, in order.
//! Every row of the neighbourhood is evaluated by an [`Evaluator`] (`device.rs` or its twin
//! `cpu.rs`); [`QapHc12`] is the [`Landscape`] that the engine's climb (`src/hc12/climb.rs`)
//! moves, and `solve.rs` the iterated use (rebase or restart) over the engine's restarts.
//!
//! # One iteration
//!
//! The state (base permutation, current string and its decoded swaps, current permutation and cost)
//! is uploaded once per iteration. `qap_eval` gives each row its permutation (the string's swaps
//! with the row's bits flipped) and its cost, either in full (O(n²)) or as the current cost plus
//! the change over the positions that moved (O(n), the default), then `hc12_select`. The CPU twin
//! (`cpu.rs`) computes the same rows with the same integer arithmetic, so device and CPU agree bit
//! for bit. `solve.rs` is the iterated use: rebase on the best permutation while that improves,
//! else a random restart.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`eval`] | the state of one iteration, the evaluator interface and the cost form |
//! | [`device`] | `qap_eval` of `cl/qap.cl` through the engine's row search |
//! | [`cpu`] | the rayon twin of `device`, bit for bit |
//! | [`solve`] | the iterated use: rebase on the best permutation while that improves, else restart |

pub mod cpu;
pub mod device;
pub mod eval;
pub mod solve;

use self::cpu::CpuEvaluator;
use self::device::DeviceEvaluator;
pub use self::eval::{CostForm, Evaluator, IterState, RowCosts};
use crate::error::{Error, Result};
use crate::hc12::climb::{climb, ClimbEnd, ClimbLimits};
use crate::hc12::tabu::TabuConfig;
use crate::hc12::{gray_to_binary, Landscape, Neighbourhood, TabuQuery};
use crate::interrupt::Watch;
use crate::problem::qap::{check_perm, Cost, QapMatrices, QapProblem};
use serde::Serialize;
use std::sync::Arc;

/// Most swaps a string may hold (128 parameters; about 500,000 rows at n = 256).
pub const MAX_SWAPS: u32 = 64;

/// Largest instance HC12 takes: each row's permutation is built in a work-item's private memory
/// (`cl/qap.cl`) and in a fixed array per CPU task, one byte per entry. Larger instances are for
/// the robust tabu search (`crate::qap_ts`, up to [`crate::problem::qap::MAX_N`]).
pub const MAX_N: usize = 256;

pub use crate::device::Backend;

/// The result of one HC12 run (to a local optimum or the iteration cap).
#[derive(Clone, Debug, Serialize)]
pub struct QapRunResult {
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
    /// True when `metaopt::interrupt` ended the climb (the result is its best so far).
    pub interrupted: bool,
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
    /// The run in progress: its base permutation and its current state.
    base: Vec<usize>,
    st: Option<IterState>,
    /// The course the next solve continues (`load_state`), and the last solve's course with
    /// its checkpoint header (`save_state`).
    checkpoints: crate::hc12::restarts::Checkpoints<IterState, Cost>,
}

/// Refuses instances above [`MAX_N`], naming `n`, its bound and the tabu search's.
pub fn check_size(n: usize) -> Result<()> {
    if n > MAX_N {
        return Err(Error::arg(
            "n",
            format!(
                "{n}; HC12 for the QAP takes n up to {MAX_N} (its rows' permutations are built in \
                 private memory); the robust tabu search takes n up to {}",
                crate::problem::qap::MAX_N
            ),
        ));
    }
    Ok(())
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
        Self::with_bits(
            problem, swaps, 0, mask_order, start_bit, bit_length, backend, form,
        )
    }

    /// [`QapHc12::new`] with `n_bit_param` bits per parameter (the thesis's `nBitParam` of its
    /// C++ `Params` and MEX `params`; 0 = ceil(log2 n), the default). A parameter decodes to an
    /// integer I below 2^nBitParam and names position `I mod n`, as the thesis's kernel
    /// (`I % nElements`) and docs/specs/QAP.md say, so any width from ceil(log2 n) to 32 is a
    /// valid encoding: more bits make the string longer (more neighbours per iteration) and
    /// map 2^nBitParam values onto n positions. Fewer than ceil(log2 n) bits would leave
    /// positions no swap can reach, and are refused (`nBitParam`).
    #[allow(clippy::too_many_arguments)]
    pub fn with_bits(
        problem: Arc<QapProblem>,
        swaps: u32,
        n_bit_param: u32,
        mask_order: u32,
        start_bit: i64,
        bit_length: i64,
        backend: Backend,
        form: CostForm,
    ) -> Result<Self> {
        check_size(problem.n)?;
        if swaps == 0 || swaps > MAX_SWAPS {
            return Err(Error::arg(
                "swaps",
                format!("{swaps}; expected 1..{MAX_SWAPS}"),
            ));
        }
        let need = bits_for(problem.n);
        let nbit = match n_bit_param {
            0 => need,
            b if b < need => {
                return Err(Error::arg(
                    "nBitParam",
                    format!(
                        "{b} bits per parameter; n = {} needs at least ceil(log2 n) = {need} (fewer leave positions no swap can \
                         reach); 0 takes {need}",
                        problem.n
                    ),
                ))
            }
            b if b > 32 => {
                return Err(Error::arg("nBitParam", format!("{b} bits per parameter; expected {need}..32 (0 takes {need})")))
            }
            b => b,
        };
        let nb = Neighbourhood::new(2 * swaps, nbit, mask_order, start_bit, bit_length)?;
        let eval: Box<dyn Evaluator> = match backend {
            Backend::Device(d) => Box::new(DeviceEvaluator::new(&problem, &nb, swaps, form, d)?),
            Backend::Cpu => {
                let (n, slices, delta) = (problem.n, problem.slices, form == CostForm::Delta);
                macro_rules! cpu {
                    ($a:expr, $b:expr) => {
                        Box::new(CpuEvaluator {
                            n,
                            slices,
                            a: Arc::new($a.clone()),
                            b: Arc::new($b.clone()),
                            nb,
                            delta,
                            tabu: None,
                        })
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
        Ok(QapHc12 {
            problem,
            nb,
            swaps,
            eval,
            tabu: None,
            max_iterations: 1_000_000,
            trace: None,
            base: Vec::new(),
            st: None,
            checkpoints: Default::default(),
        })
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

    describe_alias!();

    pub fn describe(&self) -> String {
        self.eval.describe()
    }

    /// Nanoseconds the device spent in the evaluation kernels (OpenCL profiling events, the
    /// row kernel and the reduction) since the previous call; `None` on the CPU backend.
    pub fn take_kernel_ns(&mut self) -> Option<u64> {
        self.eval.take_kernel_ns()
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
        Ok(IterState {
            base: base.iter().map(|&v| v as u8).collect(),
            k: k.to_vec(),
            i_cur,
            cur,
            cur_cost,
        })
    }

    /// The best row of the neighbourhood of (base, k), without the tabu list.
    pub fn best_row(&mut self, st: &IterState) -> Result<(Cost, u64)> {
        self.eval.best_row(st, &TabuQuery::plain(st.cur_cost, 0))
    }

    /// Every row's cost in the neighbourhood of (base, k).
    pub fn all_costs(&mut self, st: &IterState) -> Result<RowCosts> {
        self.eval.all_costs(st)
    }

    /// The permutation of row `row` (host computation, for tests).
    pub fn row_permutation(&self, st: &IterState, row: u64) -> Vec<usize> {
        let mut order = [0u8; 256];
        cpu::row_order(&self.nb, st, row, &mut order);
        order[..self.problem.n]
            .iter()
            .map(|&v| v as usize)
            .collect()
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
    pub fn run(&mut self, base: Option<&[usize]>, k: Option<&[u32]>) -> Result<QapRunResult> {
        let base = base.map_or_else(|| (0..self.problem.n).collect(), <[usize]>::to_vec);
        let k = k.map_or_else(|| self.zero_string(), <[u32]>::to_vec);
        let tabu = self.tabu.clone();
        let watch = Watch::new(None);
        let limits = ClimbLimits {
            max_iterations: self.max_iterations,
            deadline: None,
            watch: Some(&watch),
        };
        let out = climb(self, (base, k), tabu.as_ref(), limits)?;
        Ok(QapRunResult {
            cost: out.value,
            order: out.best.cur.iter().map(|&v| v as usize).collect(),
            k_gc: out.best.k,
            iterations: out.iterations,
            evaluations: out.evaluations,
            local_optimum: out.end.at_local_optimum(),
            interrupted: out.end == ClimbEnd::Interrupted,
        })
    }

    fn current_state(&self) -> &IterState {
        self.st.as_ref().expect("a run has started")
    }
}

/// The climb over (base permutation, string): the value is the host's cost of the current
/// permutation, a move recomputes the state on the host.
impl Landscape for QapHc12 {
    type Value = Cost;
    /// (base permutation, string).
    type Start = (Vec<usize>, Vec<u32>);
    type Best = IterState;

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.eval.set_deadline(deadline);
    }

    fn start_run(&mut self, (base, k): (Vec<usize>, Vec<u32>)) -> Result<u64> {
        self.st = Some(self.state(&base, &k)?);
        self.base = base;
        Ok(0)
    }

    fn reset_tabu(&mut self, cfg: &TabuConfig) -> Result<()> {
        self.eval.tabu_reset(cfg.max_length)
    }

    fn rows(&self) -> u64 {
        self.nb.rows
    }

    fn best_row(&mut self, q: &TabuQuery<Cost>) -> Result<(Cost, u64)> {
        let st = self.st.as_ref().expect("a run has started");
        self.eval.best_row(st, q)
    }

    fn excluded(&self, value: Cost, tabu_checked: bool) -> bool {
        tabu_checked && value == self.current_state().cur_cost.worst()
    }

    fn apply_row(&mut self, row: u64, _value: Cost, _iteration: u32) -> Result<()> {
        let from = &self.current_state().k;
        let mut k = from.clone();
        self.nb.apply_row(&mut k, row);
        let next = self.state(&self.base, &k)?;
        if let Some(trace) = &mut self.trace {
            let from = self.st.as_ref().expect("a run has started").k.clone();
            trace.push(TraceStep {
                from,
                row,
                to: k,
                cost: next.cur_cost,
            });
        }
        self.st = Some(next);
        Ok(())
    }

    fn current(&self) -> Cost {
        self.current_state().cur_cost
    }

    fn best_so_far(&self) -> IterState {
        self.current_state().clone()
    }

    fn better(&self, a: Cost, b: Cost) -> bool {
        a.less(&b)
    }

    fn better_than_limit(&self, v: Cost, limit: f64) -> bool {
        v.as_f64() < limit
    }

    fn as_f64(&self, v: Cost) -> f64 {
        v.as_f64()
    }
}
