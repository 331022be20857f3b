//! Constraints of island DE (docs/specs/DE.md, Constraints): inequalities `g(x) <= 0` and
//! equalities `|h(x)| <= eq_tol`, computed by the objective's OpenCL `constraints` (a user's
//! source, or a CEC 2006 problem) or, for a host callback objective, a host callback giving
//! each point's violation. A point's violation is the sum of its inequalities' positive values
//! and of its equalities' absolute values beyond `eq_tol`; it is feasible when that is 0.
//!
//! Points are compared by Takahama and Sakai's epsilon-level comparison at a level `e`: two
//! points whose violations are both at most `e`, or equal, are compared by value; otherwise the
//! smaller violation wins. Level 0 is Deb's feasibility rules (the default, [`Handling::Deb`]);
//! [`Handling::Epsilon`] is the epsilon-constraint method of epsilon-DE, whose level starts at
//! the violation of the initial population's `theta`-quantile member and falls to 0 by
//! generation `tc` as `(1 - t / tc)^cp`. The kernels (`cl/de.cl`, `DE_CONSTRAINED`) and the CPU
//! backend compare alike.

use super::config::{Algorithm, Config};
use crate::error::{Error, Result};
use crate::objective::{HostCallback, Objective};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How constrained points are compared.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Handling {
    /// Deb's feasibility rules: a feasible point beats an infeasible one, two feasible points
    /// compare by value, two infeasible ones by violation.
    Deb,
    /// The epsilon-level comparison of epsilon-DE (Takahama and Sakai): the level starts at
    /// the violation of the initial population's member at quantile `theta` (in (0, 1]) and
    /// falls as `(1 - t / tc)^cp` to 0 at generation `tc`.
    Epsilon { theta: f64, tc: u64, cp: f64 },
}

impl Handling {
    /// Epsilon-DE's published settings: theta 0.2, tc 1000 generations, cp 5.
    pub const EPSILON_DEFAULT: Handling = Handling::Epsilon {
        theta: 0.2,
        tc: 1000,
        cp: 5.0,
    };

    /// Errors naming `constraints` for settings out of range.
    pub fn check(&self) -> Result<()> {
        if let Handling::Epsilon { theta, tc, cp } = *self {
            if !(theta > 0.0 && theta <= 1.0) {
                return Err(Error::arg(
                    "constraints",
                    format!("epsilon theta {theta}; expected a quantile in (0, 1]"),
                ));
            }
            if tc == 0 {
                return Err(Error::arg(
                    "constraints",
                    "epsilon tc 0; expected at least 1 generation",
                ));
            }
            if !(cp.is_finite() && cp > 0.0) {
                return Err(Error::arg(
                    "constraints",
                    format!("epsilon cp {cp}; expected a positive finite exponent"),
                ));
            }
        }
        Ok(())
    }

    /// The level at generation `gen` from the initial level `e0`.
    pub fn level(&self, e0: f64, gen: u64) -> f64 {
        match *self {
            Handling::Deb => 0.0,
            Handling::Epsilon { tc, cp, .. } => {
                if gen >= tc {
                    0.0
                } else {
                    e0 * (1.0 - gen as f64 / tc as f64).powf(cp)
                }
            }
        }
    }

    /// The initial level from the initial population's violations: the member at quantile
    /// `theta` (0 under Deb's rules).
    pub fn initial_level(&self, violations: &[f64]) -> f64 {
        match *self {
            Handling::Deb => 0.0,
            Handling::Epsilon { theta, .. } => {
                let mut v: Vec<f64> = violations.iter().copied().filter(|v| !v.is_nan()).collect();
                if v.is_empty() {
                    return 0.0;
                }
                v.sort_by(f64::total_cmp);
                let k = ((theta * v.len() as f64).floor() as usize).min(v.len() - 1);
                let e = v[k];
                if e.is_finite() {
                    e
                } else {
                    0.0
                }
            }
        }
    }
}

/// The constraints of a run.
#[derive(Clone, Debug)]
pub struct Constraints {
    /// Inequalities and equalities computed by the objective's OpenCL `constraints` (both 0 for
    /// a host callback objective, whose `violation` callback gives the violations).
    pub inequalities: u32,
    pub equalities: u32,
    /// The equality tolerance (the CEC 2006 report's 1e-4 by default).
    pub eq_tol: f64,
    /// For a host callback objective: each point's violation (the callback's output rows).
    pub violation: Option<HostCallback>,
    pub handling: Handling,
    /// Epsilon-DE's gradient-based repair of infeasible trials (compiled constraints and the
    /// fixed DE only; `None`: none).
    pub repair: Option<Repair>,
}

/// The gradient-based mutation of epsilon-DE (Takahama and Sakai): each trial is picked with
/// probability `probability` (drawn per generation and member from the mutation seed, stream
/// [`Repair::STREAM`]) and, when infeasible, moved by at most `rounds` Newton steps on its
/// violated constraints (`cl/constraints.cl` `mo_repair`: forward-difference Jacobian,
/// least-norm step, kept in the box, integer variables fixed) before it is evaluated. A picked
/// trial counts the most constraint evaluations its repair may make,
/// `1 + rounds (continuous variables + 1)`, whether or not it needed them, so that a run's
/// evaluation count and budget never fall short of the work done.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Repair {
    pub probability: f64,
    pub rounds: u32,
}

impl Repair {
    /// Epsilon-DE's published settings: probability 0.01, 3 rounds.
    pub const EPSILON_DE: Repair = Repair {
        probability: 0.01,
        rounds: 3,
    };
    /// The random stream of the picks (`cl/de.cl` `MO_REPAIR_STREAM`).
    pub const STREAM: u32 = 8;

    /// Errors naming `repair` for settings out of range.
    pub fn check(&self) -> Result<()> {
        if !(self.probability > 0.0 && self.probability <= 1.0) {
            return Err(Error::arg(
                "repair",
                format!(
                    "probability {}; expected a value in (0, 1]",
                    self.probability
                ),
            ));
        }
        if !(1..=1000).contains(&self.rounds) {
            return Err(Error::arg(
                "repair",
                format!("{} rounds; expected 1 to 1000", self.rounds),
            ));
        }
        Ok(())
    }

    /// The kernels' pick threshold: a word below it picks (2^32 picks every trial).
    pub fn threshold(&self) -> u64 {
        (self.probability * 4294967296.0).round() as u64
    }

    /// Whether trial `i` of `members` is repaired in generation `gen`.
    pub fn picked(&self, seed: u64, gen: u64, members: u64, i: u64) -> bool {
        let w = crate::rng::rng4(
            seed,
            Self::STREAM,
            gen.wrapping_mul(members).wrapping_add(i),
        );
        (w[0] as u64) < self.threshold()
    }

    /// The trials of `members` repaired in generation `gen`.
    pub fn picks(&self, seed: u64, gen: u64, members: u64) -> Vec<usize> {
        (0..members)
            .filter(|&i| self.picked(seed, gen, members, i))
            .map(|i| i as usize)
            .collect()
    }

    /// The constraint evaluations a picked trial counts with `continuous` non-integer variables.
    pub fn per_pick(&self, continuous: u64) -> u64 {
        1 + self.rounds as u64 * (continuous + 1)
    }
}

pub use crate::objective::MAX_CONSTRAINTS;

impl Constraints {
    /// Constraints computed by the objective's OpenCL `constraints`: `inequalities` values
    /// `g` then `equalities` values `h` per point.
    pub fn compiled(inequalities: u32, equalities: u32) -> Self {
        Constraints {
            inequalities,
            equalities,
            eq_tol: 1e-4,
            violation: None,
            handling: Handling::Deb,
            repair: None,
        }
    }

    /// Constraints whose violations a host callback gives (for a host callback objective).
    pub fn callback(violation: HostCallback) -> Self {
        Constraints {
            inequalities: 0,
            equalities: 0,
            eq_tol: 1e-4,
            violation: Some(violation),
            handling: Handling::Deb,
            repair: None,
        }
    }

    /// The constraint values per point of a compiled `constraints`.
    pub fn count(&self) -> u32 {
        self.inequalities.saturating_add(self.equalities)
    }

    /// Errors naming `constraints` (or `eq_tol`) unless the settings are usable.
    pub fn check(&self) -> Result<()> {
        self.handling.check()?;
        if let Some(r) = &self.repair {
            r.check()?;
            if self.violation.is_some() {
                return Err(Error::arg(
                    "repair",
                    "the gradient-based repair needs the constraint values of a compiled `constraints`; a violation callback gives only violations",
                ));
            }
        }
        if !(self.eq_tol.is_finite() && self.eq_tol >= 0.0) {
            return Err(Error::arg(
                "eq_tol",
                format!("{}; expected a finite tolerance >= 0", self.eq_tol),
            ));
        }
        match (&self.violation, self.count()) {
            (Some(_), 0) => Ok(()),
            (Some(_), _) => Err(Error::arg(
                "constraints",
                "both a violation callback and compiled constraint counts; give one",
            )),
            (None, 0) => Err(Error::arg(
                "constraints",
                "no constraint: give the counts of the objective's inequalities and equalities, or a violation callback",
            )),
            (None, n) if n > MAX_CONSTRAINTS => Err(Error::arg(
                "constraints",
                format!("{n} constraint values per point; at most {MAX_CONSTRAINTS}"),
            )),
            (None, _) => Ok(()),
        }
    }

    /// The violation of one point's constraint values `c` (inequalities, then equalities), in
    /// the kernels' order (a NaN value gives NaN).
    pub fn violation_of(&self, c: &[f64]) -> f64 {
        let ng = self.inequalities as usize;
        let mut s = 0.0;
        for (i, &a) in c.iter().enumerate() {
            if i < ng {
                s += if a <= 0.0 { 0.0 } else { a };
            } else {
                s += if a.abs() <= self.eq_tol { 0.0 } else { a.abs() };
            }
        }
        s
    }
}

/// Errors naming `constraints` unless a run of `cfg` can take constraints `c` with
/// `objective`: the fixed DE or a SHADE-family variant (not jDE100), a violation callback for a
/// host callback objective, counts for a compiled source (a catalogue function has no
/// constraints).
pub fn check_run(c: Option<&Constraints>, objective: &Objective, cfg: &Config) -> Result<()> {
    let Some(c) = c else {
        return Ok(());
    };
    c.check()?;
    let alg = cfg.options.algorithm;
    if c.repair.is_some() && alg != Algorithm::De {
        return Err(Error::arg(
            "repair",
            format!("the {alg} algorithm does not take the gradient-based repair; use the fixed DE (de)"),
        ));
    }
    if alg == Algorithm::Jde100 {
        return Err(Error::arg(
            "constraints",
            format!("the {alg} algorithm does not take constraints; use the fixed DE (de) or jade, shade, lshade, jso"),
        ));
    }
    match (objective, &c.violation) {
        (Objective::Callback(_), Some(_)) | (Objective::Source { .. }, None) => Ok(()),
        (Objective::Callback(_), None) => Err(Error::arg(
            "constraints",
            "a host callback objective needs a violation callback (it has no OpenCL constraints function)",
        )),
        (Objective::Source { .. }, Some(_)) => Err(Error::arg(
            "constraints",
            "a violation callback goes with a host callback objective; an OpenCL source defines `constraints` and gives their counts",
        )),
        (Objective::Catalogue { name }, _) => Err(Error::arg(
            "constraints",
            format!("the catalogue function {name} has no constraints; give an OpenCL source defining `objective` and `constraints` (or a CEC 2006 problem)"),
        )),
    }
}

/// The constraint evaluations the repair of generation `gen`'s trials counts in a run of
/// `cfg` with constraints `c` (0 without a repair): [`Repair::per_pick`] for each picked trial.
pub fn repair_charge(c: Option<&Constraints>, cfg: &Config, gen: u64) -> u64 {
    let Some(r) = c.and_then(|c| c.repair) else {
        return 0;
    };
    let members = cfg.np as u64 * cfg.nm as u64;
    let continuous = cfg.integral.iter().filter(|&&i| !i).count() as u64;
    r.picks(cfg.options.mutation_seed, gen, members).len() as u64 * r.per_pick(continuous)
}

/// A constrained run's objective, box (one interval per variable) and constraints.
pub type ConstrainedRun = (Objective, Vec<(f64, f64)>, Constraints);

/// CEC 2006 problem `problem` (`"G06"` or 6: [`crate::problem::cec2006`]) as a constrained
/// run: its objective (`cl/cec2006.cl` built for it, as an OpenCL source), its box, and its
/// constraints (the report's counts and equality tolerance, Deb's rules).
pub fn cec2006(problem: &str) -> Result<ConstrainedRun> {
    let p = crate::problem::cec2006::info(problem)?;
    let code = format!(
        "#define CEC06_ID {}\n{}",
        p.id,
        crate::device::kernel_source("cec2006.cl")?
    );
    let bounds = p
        .lower
        .iter()
        .copied()
        .zip(p.upper.iter().copied())
        .collect();
    let mut c = Constraints::compiled(p.ng as u32, p.nh as u32);
    c.eq_tol = crate::problem::cec2006::EQUALITY_TOLERANCE;
    Ok((Objective::source(code, Vec::new()), bounds, c))
}

/// A violation as the comparisons take it: NaN and +inf are +inf.
pub fn sanitized(v: f64) -> f64 {
    if v < f64::INFINITY {
        v
    } else {
        f64::INFINITY
    }
}

/// Whether `(f, v)` is strictly better than `(g, w)` at level `e` (`cl/de.cl` `de_better`).
pub fn better(f: f64, v: f64, g: f64, w: f64, e: f64) -> bool {
    if (v <= e && w <= e) || v == w {
        f < g
    } else {
        v < w
    }
}

/// Whether `(f, v)` is at least as good as `(g, w)` at level `e` (equal values are;
/// `cl/constraints.cl` `mo_no_worse`).
pub fn no_worse(f: f64, v: f64, g: f64, w: f64, e: f64) -> bool {
    if (v <= e && w <= e) || v == w {
        f <= g
    } else {
        v < w
    }
}

/// The order of two points at level `e` (NaN values last).
pub fn order(f: f64, v: f64, g: f64, w: f64, e: f64) -> Ordering {
    if (v <= e && w <= e) || v == w {
        f.total_cmp(&g)
    } else {
        v.total_cmp(&w)
    }
}

/// Keys that order `fx` with violations `vx` as [`order`] at level `e` does: each value's rank
/// (equal points share one), so the host's plans that compare values (migration) compare
/// constrained points rightly.
pub fn keys(fx: &[f64], vx: &[f64], e: f64) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..fx.len()).collect();
    idx.sort_by(|&a, &b| order(fx[a], vx[a], fx[b], vx[b], e));
    let mut out = vec![0.0; fx.len()];
    let mut rank = 0.0;
    for (k, &i) in idx.iter().enumerate() {
        if k > 0 {
            let j = idx[k - 1];
            if order(fx[j], vx[j], fx[i], vx[i], e) != Ordering::Equal {
                rank = k as f64;
            }
        }
        out[i] = if fx[i].is_nan() { f64::NAN } else { rank };
    }
    out
}

/// The best of points `fx`, `vx` by Deb's rules (ties: the first); `None` when every value is
/// NaN.
pub fn best_of(fx: &[f64], vx: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for i in 0..fx.len() {
        if fx[i].is_nan() {
            continue;
        }
        match best {
            None => best = Some(i),
            Some(b) if better(fx[i], vx[i], fx[b], vx[b], 0.0) => best = Some(i),
            _ => {}
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deb_rules_and_epsilon_level() {
        // feasible beats infeasible, feasible by value, infeasible by violation
        assert!(better(5.0, 0.0, 1.0, 0.1, 0.0));
        assert!(better(1.0, 0.0, 2.0, 0.0, 0.0));
        assert!(better(9.0, 0.1, 1.0, 0.2, 0.0));
        // within the level, by value
        assert!(better(1.0, 0.2, 9.0, 0.1, 0.3));
        assert!(!better(1.0, 0.4, 9.0, 0.1, 0.3));
        // equal violations, by value
        assert!(better(1.0, 0.5, 2.0, 0.5, 0.0));
    }

    #[test]
    fn keys_follow_the_order() {
        let fx = [3.0, 1.0, 2.0, 0.5, 2.0];
        let vx = [0.0, 0.3, 0.0, 0.1, 0.0];
        let k = keys(&fx, &vx, 0.0);
        // feasible 2.0 (twice), 3.0, then infeasible 0.1, 0.3
        assert_eq!(k, vec![2.0, 4.0, 0.0, 3.0, 0.0]);
        assert_eq!(best_of(&fx, &vx), Some(2));
    }

    #[test]
    fn epsilon_schedule() {
        let h = Handling::Epsilon {
            theta: 0.5,
            tc: 10,
            cp: 2.0,
        };
        let e0 = h.initial_level(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!(e0, 3.0);
        assert_eq!(h.level(e0, 0), 3.0);
        assert!((h.level(e0, 5) - 0.75).abs() < 1e-15);
        assert_eq!(h.level(e0, 10), 0.0);
        assert_eq!(Handling::Deb.level(7.0, 0), 0.0);
    }

    #[test]
    fn violation_sums_the_violated() {
        let c = Constraints::compiled(2, 1);
        assert_eq!(c.violation_of(&[-1.0, 0.5, 5e-5]), 0.5);
        assert_eq!(c.violation_of(&[0.25, 0.5, -0.5]), 1.25);
        assert!(c.violation_of(&[f64::NAN, 0.0, 0.0]).is_nan());
    }
}
