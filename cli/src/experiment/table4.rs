//! Experiments of the thesis that the `metaopt bench` commands reproduce.
//!
//! Table 4 (thesis 000, 6.3; docs/specs/QAP.md): on small QAPLIB instances with known optima, the share
//! of single HC12 runs (each from a random permutation and a random swap list) that end at the
//! optimum, and the time until the first optimum, for plain HC12 at the thesis's swap counts and
//! for HC12 with the tabu list.

use metaopt::error::Result;
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::qap::QapInstance;
use metaopt::problem::qap::QapProblem;
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

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a binomial proportion: `successes` out of `runs` at normal
/// quantile `z` (1.96 for 95 %), as (low, high) fractions in [0, 1]. Unlike the normal
/// approximation it stays inside [0, 1] and is not empty at 0 or `runs` successes, which is
/// what a 0.1 % success rate needs. (0, 1) when `runs` is 0.
pub fn wilson(successes: u32, runs: u32, z: f64) -> (f64, f64) {
    if runs == 0 {
        return (0.0, 1.0);
    }
    let n = runs as f64;
    let p = successes.min(runs) as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // the bounds are exact at p = 0 and p = 1; clamp rounding there
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes >= runs {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

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
    /// The Wilson 95 % interval of the success ratio [%].
    pub wilson95_low_percent: f64,
    pub wilson95_high_percent: f64,
    /// Seconds from the start of the series to the end of the first run that reached the
    /// optimum (empty when none did).
    pub time_to_optimum_s: Option<f64>,
    pub mean_run_s: f64,
    pub mean_iterations: f64,
    pub best: f64,
    pub mean_cost: f64,
    pub optimum: f64,
    pub thesis_success_percent: f64,
    pub thesis_time_s: f64,
    pub device: String,
}

/// What a series of independent HC12 runs measured.
pub struct Series {
    /// The final cost of every run, in run order.
    pub costs: Vec<f64>,
    /// The iterations of every run.
    pub iterations: Vec<u32>,
    /// Runs that ended at or below the optimum.
    pub successes: u32,
    /// Seconds from the start of the series to the end of the first such run.
    pub first: Option<f64>,
    /// Seconds of the whole series (the warm-up run not counted).
    pub seconds: f64,
    pub rows: u64,
    pub device: String,
}

/// Runs `runs` independent HC12 runs (mask order 2) on `inst` (plain, or with `tabu`) and
/// counts how many end at `optimum`. Run r starts from stream r + 1 of `seed`: a random
/// permutation and a random swap string, the same starts for both modes.
#[allow(clippy::too_many_arguments)]
pub fn hc12_series(
    inst: &QapInstance,
    optimum: i64,
    swaps: u32,
    runs: u32,
    seed: u64,
    tabu: Option<TabuConfig>,
    backend: Backend,
    mut after_run: impl FnMut(u32),
) -> Result<Series> {
    let p = Arc::new(QapProblem::from_instance(inst));
    let mut s = QapHc12::new(p, swaps, 2, 0, 0, backend, CostForm::Delta)?;
    if let Some(c) = tabu {
        s.init_tabu_list(c)?;
    }
    let nb = *s.neighbourhood();
    // one run outside the clock, so that building the kernels is not timed as search
    s.run(None, None)?;
    let t0 = Instant::now();
    let (mut successes, mut first) = (0u32, None);
    let mut costs = Vec::with_capacity(runs as usize);
    let mut iterations = Vec::with_capacity(runs as usize);
    for r in 0..runs {
        let mut rng = Philox::new(seed, r + 1);
        let base = rng.permutation(inst.n);
        let k: Vec<u32> = (0..nb.n_param)
            .map(|_| rng.next_u32() & ((1u64 << nb.nbit) - 1) as u32)
            .collect();
        let out = s.run(Some(&base), Some(&k))?;
        iterations.push(out.iterations);
        let c = out.cost.as_f64();
        costs.push(c);
        if c <= optimum as f64 {
            successes += 1;
            first.get_or_insert(t0.elapsed().as_secs_f64());
        }
        after_run(r);
    }
    Ok(Series {
        costs,
        iterations,
        successes,
        first,
        seconds: t0.elapsed().as_secs_f64(),
        rows: s.rows(),
        device: s.describe(),
    })
}

/// [`hc12_series`] as a row of Table 4.
pub fn success_series(
    inst: &QapInstance,
    optimum: i64,
    swaps: u32,
    runs: u32,
    seed: u64,
    tabu: Option<TabuConfig>,
    backend: Backend,
) -> Result<SuccessRow> {
    let mode = match &tabu {
        Some(c) => format!("tabu{}", c.max_length),
        None => "plain".to_string(),
    };
    let s = hc12_series(inst, optimum, swaps, runs, seed, tabu, backend, |_| {})?;
    let per = runs.max(1) as f64;
    let (low, high) = wilson(s.successes, runs, Z95);
    let thesis = THESIS_TABLE4.iter().find(|t| t.0 == inst.name);
    Ok(SuccessRow {
        instance: inst.name.clone(),
        n: inst.n,
        swaps,
        mode,
        runs,
        successes: s.successes,
        success_ratio_percent: 100.0 * s.successes as f64 / per,
        wilson95_low_percent: 100.0 * low,
        wilson95_high_percent: 100.0 * high,
        time_to_optimum_s: s.first,
        mean_run_s: s.seconds / per,
        mean_iterations: s.iterations.iter().map(|&i| i as f64).sum::<f64>() / per,
        best: s.costs.iter().copied().fold(f64::INFINITY, f64::min),
        mean_cost: s.costs.iter().sum::<f64>() / per,
        optimum: optimum as f64,
        thesis_success_percent: thesis.map_or(f64::NAN, |t| t.2),
        thesis_time_s: thesis.map_or(f64::NAN, |t| t.3),
        device: s.device,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_intervals() {
        // Newcombe (1998), Stat. Med. 17:857, Table I, method 3 (the score interval), printed to
        // four places: 81/263, 15/148, 0/20, 1/29
        let four =
            |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5;
        for (k, n, want) in [
            (81, 263, (0.2553, 0.3662)),
            (15, 148, (0.0624, 0.1605)),
            (0, 20, (0.0, 0.1611)),
            (1, 29, (0.0061, 0.1718)),
        ] {
            let w = wilson(k, n, Z95);
            assert!(four(w, want), "{k}/{n}: {w:?}, expected {want:?}");
        }
        // 1 of 1000 (0.1 %, the thesis's rou20 and esc32a): 0.0177 % .. 0.5643 %
        let w = wilson(1, 1000, Z95);
        assert!(
            (w.0 - 0.000_176_55).abs() < 1e-8 && (w.1 - 0.005_642_56).abs() < 1e-8,
            "{w:?}"
        );
        // all successes: the upper bound is 1, the lower one mirrors 0 of n
        let (lo, hi) = wilson(10, 10, Z95);
        assert!(
            (lo - (1.0 - 0.277_533)).abs() < 1e-6 && hi == 1.0,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }
}
