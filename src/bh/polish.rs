//! The library's polish: a bounded local search from another solver's best point (island DE's,
//! as scipy's `polish=True` runs L-BFGS-B from its best member), made of basin hopping's
//! (1+1)-ES (docs/specs/DE.md, "Polish").
//!
//! Every chain starts at the point and takes a hop of `POLISH_HOP` of each width (the point
//! itself, to rounding: a chain's first step is a hop), then one (1+1)-ES search with the 1/5
//! rule from `POLISH_STEP0` of each width for [`Polish::steps`] steps, and a last step that
//! ends the search: its end becomes the chain's anchor when it is better by Deb's rules. The
//! best anchor of the chains is the result. It needs no gradient, stays in the box, runs where
//! the objective runs (a source or a catalogue function on the device, a host callback on the
//! CPU backend) and never returns a worse point than it was given; a polish cut by a time limit
//! or a stop token before its searches end keeps the given point.

use super::{BasinHopping, BhParams, BhRun};
use crate::de::constraints::{self, Constraints, Handling};
use crate::device::Backend;
use crate::error::{Error, Result};
use crate::objective::Objective;
use crate::run::{Stop, StopReason};
use serde::Serialize;
use std::time::Instant;

/// The hop of a chain's first step, as a fraction of each width (the smallest hop basin
/// hopping takes: the search then starts at the given point, to rounding).
const POLISH_HOP: f64 = 1e-12;
/// The search's first step, as a fraction of each width: the scale of a DE population that
/// has converged to tolerances of scipy's defaults.
const POLISH_STEP0: f64 = 1e-3;
/// The most steps of one launch (the chains search independently: nothing is shared between
/// launches).
const POLISH_LAUNCH: u32 = 250;

/// The settings of a polish.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Polish {
    /// Chains searching side by side, each with its own random numbers.
    pub chains: usize,
    /// Steps of every chain's search: the polish evaluates `chains x (steps + 2)` points (the
    /// first hop, the search, the step that ends it) and the starting point once.
    pub steps: u32,
    /// Seed of the chains' random numbers.
    pub seed: u64,
    /// Double precision on the device (the CPU backend computes in double only).
    pub double: bool,
}

impl Polish {
    /// The defaults for `dims` dimensions: 8 chains of `1000 + 200 dims` steps (at most
    /// 100,000), seed 1, double: enough for a (1+1)-ES to take its step from 1e-3 of the
    /// widths to basin hopping's end step on a smooth minimum.
    pub fn for_dims(dims: usize) -> Self {
        Polish {
            chains: 8,
            steps: 1000u64
                .saturating_add(200u64.saturating_mul(dims as u64))
                .min(100_000) as u32,
            seed: 1,
            double: true,
        }
    }

    /// Basin hopping's settings of this polish.
    pub fn params(&self) -> BhParams {
        BhParams {
            chains: self.chains,
            hop_min: POLISH_HOP,
            hop_max: POLISH_HOP,
            hop_scales: 1,
            step0: POLISH_STEP0,
            step_stop: BhParams::default().step_stop,
            max_search: self.steps,
            seed: self.seed,
            double: self.double,
        }
    }

    /// Errors naming the first setting out of range (`polish.chains`, `polish.steps`).
    pub fn check(&self) -> Result<()> {
        if self.chains == 0 || self.chains > u32::MAX as usize {
            return Err(Error::arg(
                "polish.chains",
                format!("{}; 1 to 2^32 - 1", self.chains),
            ));
        }
        if self.steps == 0 {
            return Err(Error::arg("polish.steps", "0; at least 1"));
        }
        self.params().check()
    }
}

/// What [`polish`] returns: the best point (the given one when nothing better was found), its
/// value and violation, whether it is better than the given point, the evaluations and seconds
/// the polish took and why it stopped (`budget` when its steps are spent, else `time_limit` or
/// `interrupted`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Polished {
    pub value: f64,
    pub x: Vec<f64>,
    pub violation: f64,
    /// The given point's value and violation, as the polish evaluated them.
    pub start_value: f64,
    pub start_violation: f64,
    pub improved: bool,
    pub evaluations: u64,
    pub seconds: f64,
    pub stopped_by: StopReason,
}

/// Polishes `x` in the box `(lo, hi)` of `objective`, with the constraints `cons` compared by
/// Deb's rules (whatever rule the solver that found `x` used; the repair is the island DE's
/// and is not used here). `stop` may add a time limit and a stop token (its budget,
/// evaluations and target are the polish's own and are refused). Errors name the argument:
/// `x` (its length, a point outside the box), `polish.*` (the settings), and those of
/// [`BasinHopping::with_constraints`].
pub fn polish(
    objective: &Objective,
    cons: Option<&Constraints>,
    (lo, hi): (&[f64], &[f64]),
    x: &[f64],
    p: &Polish,
    backend: Backend,
    stop: &Stop,
) -> Result<Polished> {
    let t = Instant::now();
    p.check()?;
    if stop.budget.is_some() || stop.evaluations.is_some() || stop.target.is_some() {
        return Err(Error::arg(
            "stop",
            "a polish takes a time limit and a stop token; its steps are Polish::steps",
        ));
    }
    if x.len() != lo.len() {
        return Err(Error::arg(
            "x",
            format!("{} values for {} dimensions", x.len(), lo.len()),
        ));
    }
    if let Some(j) =
        (0..x.len()).find(|&j| !(x[j] >= lo[j] && hi.get(j).is_some_and(|&h| x[j] <= h)))
    {
        return Err(Error::arg(
            "x",
            format!("dimension {j}: {} is outside the box", x[j]),
        ));
    }
    let cons = cons.map(|c| Constraints {
        handling: Handling::Deb,
        repair: None,
        ..c.clone()
    });
    let mut bh =
        BasinHopping::with_constraints(objective, cons.as_ref(), lo, hi, &p.params(), backend)?;
    bh.start(x, None)?;
    let (start_value, start_violation, _) = bh.best_point()?;
    let run = BhRun {
        launch_steps: POLISH_LAUNCH,
        share: false,
        stop: Stop {
            // the hop, the search, and the step that ends it (and hops again)
            budget: Some(u64::from(p.steps) + 2),
            time_limit: stop.time_limit.map(|l| {
                l.saturating_sub(t.elapsed())
                    .max(std::time::Duration::from_nanos(1))
            }),
            token: stop.token.clone(),
            ..Stop::default()
        },
    };
    let r = bh.solve(&run)?;
    let improved = constraints::better(r.value, r.violation, start_value, start_violation, 0.0);
    let (value, violation, x) = if improved {
        (r.value, r.violation, r.x)
    } else {
        (start_value, start_violation, x.to_vec())
    };
    Ok(Polished {
        value,
        x,
        violation,
        start_value,
        start_violation,
        improved,
        evaluations: r.evaluations,
        seconds: t.elapsed().as_secs_f64(),
        stopped_by: r.stop,
    })
}
