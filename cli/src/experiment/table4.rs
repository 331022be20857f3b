//! Experiments of the thesis that the `metaopt bench` commands reproduce.
//!
//! Table 4 (thesis 000, 6.3; docs/specs/QAP.md): on small QAPLIB instances with known optima, the share
//! of single HC12 runs (each from a random permutation and a random swap list) that end at the
//! optimum, and the time until the first optimum, for plain HC12 at the thesis's swap counts and
//! for HC12 with the tabu list.

use metaopt::error::Result;
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::problem::qap::QapProblem;
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::qap::QapInstance;
use metaopt::rng::Philox;
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// One row of the thesis's Table 4: instance, minimal swaps, success ratio [%], time to the
/// optimum [s] (NVIDIA RTX 2080, CUDA).
pub const THESIS_TABLE4: [(&str, u32, f64, f64); 8] = [
    ("esc16a", 62, 100.0, 0.0014),
    ("esc32a", 52, 0.1, 5.9462),
    ("had16", 64, 34.8, 0.0288),
    ("had18", 64, 12.3, 0.1476),
    ("had20", 62, 6.7, 0.3072),
    ("rou12", 60, 11.6, 0.0338),
    ("rou15", 50, 2.0, 0.2378),
    ("rou20", 44, 0.1, 8.4109),
];

/// One measured row.
#[derive(Clone, Debug, Serialize)]
pub struct SuccessRow {
    pub instance: String,
    pub n: usize,
    pub swaps: u32,
    /// `plain` or `tabu<length>`.
    pub mode: String,
    pub runs: u32,
    pub successes: u32,
    pub success_ratio_percent: f64,
    /// Seconds from the start of the series to the end of the first run that reached the
    /// optimum (empty when none did).
    pub time_to_optimum_s: Option<f64>,
    pub mean_run_s: f64,
    pub mean_iterations: f64,
    pub best: f64,
    pub optimum: f64,
    pub thesis_success_percent: f64,
    pub thesis_time_s: f64,
    pub device: String,
}

/// Runs `runs` independent HC12 runs on `inst` (plain, or with `tabu`) and counts how many end
/// at `optimum`. Run r starts from stream r of `seed`: the same starts for both modes.
pub fn success_series(
    inst: &QapInstance,
    optimum: i64,
    swaps: u32,
    runs: u32,
    seed: u64,
    tabu: Option<TabuConfig>,
    backend: Backend,
) -> Result<SuccessRow> {
    let p = Arc::new(QapProblem::from_instance(inst));
    let mut s = QapHc12::new(p, swaps, 2, 0, 0, backend, CostForm::Delta)?;
    let mode = match &tabu {
        Some(c) => format!("tabu{}", c.max_length),
        None => "plain".to_string(),
    };
    if let Some(c) = tabu {
        s.init_tabu_list(c)?;
    }
    let nb = *s.neighbourhood();
    // one run outside the clock, so that building the kernels is not timed as search
    s.run(None, None)?;
    let t0 = Instant::now();
    let (mut successes, mut first, mut iterations) = (0u32, None, 0u64);
    let mut best = f64::INFINITY;
    for r in 0..runs {
        let mut rng = Philox::new(seed, r + 1);
        let base = rng.permutation(inst.n);
        let k: Vec<u32> = (0..nb.n_param).map(|_| rng.next_u32() & ((1u64 << nb.nbit) - 1) as u32).collect();
        let out = s.run(Some(&base), Some(&k))?;
        iterations += out.iterations as u64;
        let c = out.cost.as_f64();
        best = best.min(c);
        if c <= optimum as f64 {
            successes += 1;
            first.get_or_insert(t0.elapsed().as_secs_f64());
        }
    }
    let total = t0.elapsed().as_secs_f64();
    let thesis = THESIS_TABLE4.iter().find(|t| t.0 == inst.name);
    Ok(SuccessRow {
        instance: inst.name.clone(),
        n: inst.n,
        swaps,
        mode,
        runs,
        successes,
        success_ratio_percent: 100.0 * successes as f64 / runs.max(1) as f64,
        time_to_optimum_s: first,
        mean_run_s: total / runs.max(1) as f64,
        mean_iterations: iterations as f64 / runs.max(1) as f64,
        best,
        optimum: optimum as f64,
        thesis_success_percent: thesis.map_or(f64::NAN, |t| t.2),
        thesis_time_s: thesis.map_or(f64::NAN, |t| t.3),
        device: s.backend_description(),
    })
}
