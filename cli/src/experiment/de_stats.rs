//! The island DE experiments of the thesis (000, 6.1; docs/specs/DE.md) and the 100-Digit Challenge
//! figure, as reusable computations: running one configuration and keeping the best of every
//! island every k generations, grouping the islands into intervals of F, quantiles, and a
//! DE run with restarts that counts the correct digits of a CEC 2019 optimum.
//!
//! The `metaopt experiment de-sdis`, `experiment de-migration`, `bench de` and `bench de-digits`
//! commands are thin front ends over this module (CSV and plots are theirs).
//!
//! Grouping (the thesis's 10 intervals of F_p): with Np islands and G groups, every group takes
//! `ceil(Np / G)` consecutive islands and the last one takes what is left. For the thesis's
//! Np = 256, F_p = linspace(0.001, 2) and G = 10 that is 9 groups of 26 and one of 22, whose F
//! ranges start and end exactly at the numbers the thesis names: [1.224, 1.42] is group 6 and
//! [1.428, 1.828] is groups 7 and 8 together. When Np is not a multiple of G, fewer than G
//! groups can result (25 islands in 10 groups: 8 groups of 3 and one of 1).

use crate::out::{stats, Stats};
use metaopt::de::{
    Backend, BoundsCorrection, Config, DeMultiPop, DeOptions, DeParams, DeRunResult, FMode,
    Migration, MigrationKind, Mutation, Record,
};
use metaopt::error::{Error, Result};
use metaopt::objective::Objective;
use metaopt::problem::functions;
use metaopt::run::Stop;
use serde::Serialize;
use std::ops::Range;
use std::time::{Duration, Instant};

/// One interval of F: consecutive islands and the F range they cover.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FGroup {
    pub index: usize,
    pub islands: Range<usize>,
    pub f_lo: f64,
    pub f_hi: f64,
}

impl FGroup {
    /// `[1.428, 1.624]`: the F range to three decimals, as the thesis labels its intervals.
    pub fn label(&self) -> String {
        format!("[{}, {}]", short(self.f_lo), short(self.f_hi))
    }
}

/// A number to three decimals without trailing zeros.
fn short(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Splits the islands (with F values `f`, one per island) into at most `groups` groups of
/// `ceil(Np / groups)` consecutive islands, the last one taking the rest. Empty when `f` is
/// empty or `groups` is 0.
pub fn f_groups(f: &[f64], groups: usize) -> Vec<FGroup> {
    if f.is_empty() || groups == 0 {
        return Vec::new();
    }
    let size = f.len().div_ceil(groups);
    (0..f.len())
        .step_by(size)
        .enumerate()
        .map(|(index, start)| {
            let islands = start..(start + size).min(f.len());
            let slice = &f[islands.clone()];
            let f_lo = slice.iter().copied().fold(f64::INFINITY, f64::min);
            let f_hi = slice.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            FGroup {
                index,
                islands,
                f_lo,
                f_hi,
            }
        })
        .collect()
}

/// The F of every island under `options` (the library's rule: linspace or const).
pub fn island_f(islands: u32, options: &DeOptions) -> Result<Vec<f64>> {
    let p = DeParams {
        options: options.clone(),
        ..DeParams::new(islands, 3, 1, 0.0, 1.0, BoundsCorrection::Saturation)
    };
    Ok(Config::new(&p)?.f)
}

/// The statistics of one F group at one recorded generation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupRow {
    pub generation: u64,
    pub group: usize,
    pub f_lo: f64,
    pub f_hi: f64,
    #[serde(flatten)]
    pub stats: Stats,
}

/// For every record and every group, the statistics of the group's island bests.
pub fn group_history(history: &[Record], groups: &[FGroup]) -> Vec<GroupRow> {
    let mut rows = Vec::with_capacity(history.len() * groups.len());
    for r in history {
        for g in groups {
            let end = g.islands.end.min(r.bests.len());
            let start = g.islands.start.min(end);
            rows.push(GroupRow {
                generation: r.generation,
                group: g.index,
                f_lo: g.f_lo,
                f_hi: g.f_hi,
                stats: stats(&r.bests[start..end]),
            });
        }
    }
    rows
}

/// The group with the highest mean at the last recorded generation of `rows` (ties: the
/// lower group), or None without rows.
pub fn worst_group(rows: &[GroupRow]) -> Option<&GroupRow> {
    let last = rows.iter().map(|r| r.generation).max()?;
    rows.iter()
        .filter(|r| r.generation == last)
        .fold(None, |w: Option<&GroupRow>, r| match w {
            Some(w) if w.stats.mean >= r.stats.mean || r.stats.mean.is_nan() => Some(w),
            _ => Some(r),
        })
}

/// The interval of F that the thesis found least successful (6.1): [1.428, 1.828] for every
/// CECxxt, [1.224, 1.42] for F7; None for other functions.
pub fn thesis_worst_interval(function: &str) -> Option<(f64, f64)> {
    let info = functions::lookup(function).ok()?;
    if info.is_transformed() {
        Some((1.428, 1.828))
    } else if info.name == "F7" {
        Some((1.224, 1.42))
    } else {
        None
    }
}

/// Whether the F range [lo, hi] of a group lies inside `interval` (to the thesis's three
/// decimals).
pub fn within(lo: f64, hi: f64, interval: (f64, f64)) -> bool {
    lo >= interval.0 - 5e-4 && hi <= interval.1 + 5e-4
}

/// One DE configuration of the experiments: the thesis's parameters of 6.1 by default.
#[derive(Clone, Debug)]
pub struct Setup {
    pub function: String,
    pub dims: u32,
    pub islands: u32,
    pub members: u32,
    /// [a, b] of every dimension; None: the catalogue function's domain.
    pub limits: Option<(f64, f64)>,
    pub bounds: BoundsCorrection,
    pub mutation: Mutation,
    pub migration: Migration,
    pub options: DeOptions,
    pub generations: u64,
    /// Keep the best of every island every this many generations (0: only at the end).
    pub record_every: u64,
    pub backend: Backend,
}

impl Setup {
    /// Thesis 6.1: Np = 256, CR = 0.7, F = linspace(0.001, 2), DE/rand/1, no migration, 10
    /// dimensions, the thesis's seeds and strict selection (its `DEMULTIPOP_FITNESS_COPY_BETTER_Y2X`);
    /// 32 members and 1000 generations recorded every 10.
    pub fn thesis(function: &str, bounds: BoundsCorrection) -> Self {
        Setup {
            function: function.to_string(),
            dims: 10,
            islands: 256,
            members: 32,
            limits: None,
            bounds,
            mutation: Mutation::Rand1,
            migration: Migration::NONE,
            options: DeOptions {
                f_mode: FMode::Linspace,
                f_min: 0.001,
                f_max: 2.0,
                cr: vec![0.7],
                selection: metaopt::de::Selection::Strict,
                ..DeOptions::default()
            },
            generations: 1000,
            record_every: 10,
            backend: Backend::DEVICE,
        }
    }

    pub fn params(&self) -> Result<DeParams> {
        let (a, b) = match self.limits {
            Some(l) => l,
            None => functions::lookup(&self.function)?.domain,
        };
        let mut p = DeParams::new(self.islands, self.members, self.dims, a, b, self.bounds);
        p.options = self.options.clone();
        Ok(p)
    }
}

/// Runs one configuration for `setup.generations` generations, keeping the island bests every
/// `record_every` generations (and at the start and the end).
///
/// `on_generations` is told the generations done at every record (for progress bars).
pub fn run_observed(setup: &Setup, mut on_generations: impl FnMut(u64)) -> Result<DeRunResult> {
    let mut de = DeMultiPop::new(&setup.params()?, setup.backend)?;
    de.init(
        &Objective::catalogue(&setup.function)?,
        setup.mutation,
        setup.migration,
    )?;
    let every = if setup.record_every == 0 {
        setup.generations.max(1)
    } else {
        setup.record_every
    };
    let g0 = de.generation();
    de.run_observed(
        &Stop {
            budget: Some(setup.generations),
            record_every: every,
            ..Stop::default()
        },
        |r| on_generations(r.generation - g0),
    )
}

/// Correct digits of `value` against `optimum` as the 100-Digit Challenge counts them: k digits
/// when |value - optimum| < 10^-(k-1), at most 10 (1.000005 against 1 gives 6); 0 when the
/// error is 1 or more (or not a number).
pub fn correct_digits(value: f64, optimum: f64) -> u32 {
    let e = (value - optimum).abs();
    (1..=10u32)
        .rev()
        .find(|&k| e < 10f64.powi(1 - k as i32))
        .unwrap_or(0)
}

/// Settings of a DE run with restarts towards a known optimum (the `bench de-digits` figure).
#[derive(Clone, Debug)]
pub struct DigitsSetup {
    pub function: String,
    pub dims: u32,
    pub islands: u32,
    pub members: u32,
    pub mutation: Mutation,
    pub migration: Migration,
    pub bounds: BoundsCorrection,
    /// F (linspace over the islands) and CR (one, or one per island) of every restart.
    pub f_min: f64,
    pub f_max: f64,
    pub cr: Vec<f64>,
    pub double: bool,
    pub backend: Backend,
    /// The whole budget.
    pub time_limit: Duration,
    /// Stop once |f - optimum| <= tolerance.
    pub tolerance: f64,
    /// A run restarts (new seeds) when its best improved by less than `stall_tolerance`
    /// (relative to |optimum| + 1) over the last `stall_generations` generations.
    pub stall_generations: u64,
    pub stall_tolerance: f64,
    /// Seed of the first run; restart r uses seeds `seed + 4 r` .. `seed + 4 r + 3`.
    pub seed: u64,
    /// The DE algorithm (`de`, or an adaptive variant: `metaopt::de::adapt`).
    pub algorithm: metaopt::de::Algorithm,
    /// L-SHADE's and jSO's evaluations per island and run (0 for the others).
    pub lshade_budget: u64,
    /// jDE100's small population per island (the rest of `members` is the big one).
    pub jde_small: u32,
    /// Basin hopping (`metaopt::bh`) for the rest of the budget once the first DE run stalls or
    /// has run `bh_after`,
    /// from its best point, the chains sharing the lowest anchor after every launch of
    /// `BH_STEPS` steps; None: DE restarts instead. Its seed is `seed + 1000003`, its precision
    /// `double`'s.
    pub basin_hopping: Option<metaopt::bh::BhParams>,
    /// With basin hopping, the first DE run also ends (for basin hopping) after this long: a
    /// run that keeps improving a little (HappyCat) never stalls.
    pub bh_after: Duration,
}

/// Steps of every basin-hopping chain between two looks at the best anchor.
const BH_STEPS: u32 = 250;

impl DigitsSetup {
    /// Settings that did best of those tried on CEC04t..CEC10t in D = 10 on an H200 (see
    /// `bench de-digits`): 128 islands of 100 members, DE/rand/1, PermuteN every 200
    /// generations, F from 0.3 to 0.9 over the islands, CR cycling 0.9, 0.5, 0.1, 0.97, restarts
    /// after 3000 generations without improvement.
    pub fn new(function: &str, time_limit: Duration) -> Self {
        DigitsSetup {
            function: function.to_string(),
            dims: 10,
            islands: 128,
            members: 100,
            mutation: Mutation::Rand1,
            migration: Migration::new(MigrationKind::PermuteN, 200),
            bounds: BoundsCorrection::Cotn,
            f_min: 0.3,
            f_max: 0.9,
            cr: vec![0.9, 0.5, 0.1, 0.97],
            double: true,
            backend: Backend::DEVICE,
            time_limit,
            tolerance: 1e-10,
            stall_generations: 3000,
            stall_tolerance: 1e-12,
            seed: 123,
            algorithm: metaopt::de::Algorithm::De,
            lshade_budget: 0,
            jde_small: 25,
            basin_hopping: None,
            bh_after: time_limit / 10,
        }
    }
}

/// The outcome of a run with restarts.
#[derive(Clone, Debug, Serialize)]
pub struct DigitsResult {
    pub function: String,
    pub optimum: f64,
    pub value: f64,
    pub digits: u32,
    pub x: Vec<f64>,
    /// Seconds until the best value was found, and in all.
    pub seconds_to_best: f64,
    pub seconds: f64,
    pub restarts: u32,
    pub generations: u64,
    pub evaluations: u64,
    pub reached: bool,
    /// Of `evaluations`, those of basin hopping (0 without it).
    pub bh_evaluations: u64,
}

/// Runs DE with restarts until the value is within the tolerance of the known optimum or the
/// time is up. A CR list shorter than the islands is repeated over them.
pub fn digits_run(s: &DigitsSetup) -> Result<DigitsResult> {
    let info = functions::lookup(&s.function)?;
    let optimum = info
        .minimum(s.dims as usize)
        .ok_or_else(|| {
            Error::arg(
                "function",
                format!("{} has no known minimum in D = {}", info.name, s.dims),
            )
        })?
        .value;
    if s.cr.is_empty() {
        return Err(Error::arg("cr", "no values"));
    }
    let cr: Vec<f64> = (0..s.islands as usize)
        .map(|i| s.cr[i % s.cr.len()])
        .collect();
    let objective = Objective::catalogue(&s.function)?;
    let target = optimum + s.tolerance;
    let chunk = s.stall_generations.max(1);
    let mut best: Option<(f64, Vec<f64>, f64)> = None;
    let (mut generations, mut evaluations, mut restarts) = (0u64, 0u64, 0u32);
    // the budget starts once the first solver is ready: building the program is not search
    let mut start: Option<Instant> = None;
    let mut bh_evaluations = 0u64;
    'runs: loop {
        let seed = s.seed + 4 * restarts as u64;
        let options = DeOptions {
            f_mode: FMode::Linspace,
            f_min: s.f_min,
            f_max: s.f_max,
            cr: cr.clone(),
            init_seed: seed,
            mutation_seed: seed + 1,
            crossover_seed: seed + 2,
            migration_seed: seed + 3,
            double: s.double,
            precision: if s.double {
                metaopt::Precision::Double
            } else {
                metaopt::Precision::Single
            },
            fitness_precision: metaopt::Precision::Auto,
            shared_random: false,
            fused: true,
            selection: metaopt::de::Selection::Ties,
            algorithm: s.algorithm,
            lshade_budget: s.lshade_budget,
            jde_small: s.jde_small,
            ..DeOptions::default()
        };
        let (a, b) = info.domain;
        let params = DeParams {
            options,
            ..DeParams::new(s.islands, s.members, s.dims, a, b, s.bounds)
        };
        let mut de = DeMultiPop::new(&params, s.backend)?;
        de.init(&objective, s.mutation, s.migration)?;
        let t0 = *start.get_or_insert_with(Instant::now);
        evaluations += de.evaluations();
        let mut last = f64::INFINITY;
        loop {
            let left = s.time_limit.saturating_sub(t0.elapsed());
            let (g0, e0) = (de.generation(), de.evaluations());
            // with no time left this returns at once with the current best
            // records every 20 generations date the improvements
            let mut seen: Vec<(f64, f64)> = Vec::new();
            let stop = Stop {
                budget: Some(chunk),
                target: Some(target),
                time_limit: Some(left),
                record_every: 20,
                evaluations: None,
                token: Some(crate::stop_token()),
                checkpoint: None,
            };
            let r = de.run_observed(&stop, |rec| {
                let v = rec.bests.iter().copied().fold(f64::INFINITY, f64::min);
                seen.push((v, t0.elapsed().as_secs_f64()));
            })?;
            generations += r.generations - g0;
            evaluations += r.evaluations - e0;
            if best.as_ref().is_none_or(|b| r.value < b.0) {
                let when = seen
                    .iter()
                    .find(|(v, _)| *v <= r.value)
                    .map_or(t0.elapsed().as_secs_f64(), |w| w.1);
                best = Some((r.value, r.x.clone(), when));
            }
            if r.value <= target || t0.elapsed() >= s.time_limit {
                break 'runs;
            }
            if last - r.value < s.stall_tolerance * (optimum.abs() + 1.0) {
                break;
            }
            if s.basin_hopping.is_some() && t0.elapsed() >= s.bh_after {
                break;
            }
            last = r.value;
        }
        if let (Some(bp), Some((fb, xb, _))) = (&s.basin_hopping, best.clone()) {
            // the rest of the budget: basin hopping from the best point so far
            let lo = vec![info.domain.0; s.dims as usize];
            let hi = vec![info.domain.1; s.dims as usize];
            let p = metaopt::bh::BhParams {
                seed: s.seed + 1_000_003,
                double: s.double,
                ..bp.clone()
            };
            let mut bh = metaopt::bh::BasinHopping::new(&objective, &lo, &hi, &p, s.backend)?;
            bh.start(&xb, Some(fb))?;
            // every chain continues from the lowest anchor after every launch, until the target,
            // the experiment's time limit (counted from its start) or a stop
            let r = bh.solve_since(
                &metaopt::bh::BhRun {
                    launch_steps: BH_STEPS,
                    share: true,
                    stop: metaopt::run::Stop {
                        target: Some(target),
                        time_limit: Some(s.time_limit),
                        token: Some(crate::stop_token()),
                        ..Default::default()
                    },
                },
                t0,
            )?;
            if r.value < fb {
                best = Some((r.value, r.x, r.seconds_to_best));
            }
            bh_evaluations = bh.evaluations();
            evaluations += bh_evaluations;
            break 'runs;
        }
        restarts += 1;
    }
    let (value, x, seconds_to_best) = best.unwrap_or((f64::INFINITY, Vec::new(), 0.0));
    Ok(DigitsResult {
        function: info.name.to_string(),
        optimum,
        value,
        digits: correct_digits(value, optimum),
        x,
        seconds_to_best,
        seconds: start.map_or(0.0, |t| t.elapsed().as_secs_f64()),
        restarts,
        generations,
        evaluations,
        reached: value <= target,
        bh_evaluations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thesis_f() -> Vec<f64> {
        island_f(
            256,
            &Setup::thesis("CEC04t", BoundsCorrection::Saturation).options,
        )
        .unwrap()
    }

    #[test]
    fn thesis_groups_have_the_thesis_edges() {
        let f = thesis_f();
        assert_eq!(f.len(), 256);
        assert!((f[0] - 0.001).abs() < 1e-15 && (f[255] - 2.0).abs() < 1e-12);
        let g = f_groups(&f, 10);
        assert_eq!(g.len(), 10);
        let sizes: Vec<usize> = g.iter().map(|g| g.islands.len()).collect();
        assert_eq!(sizes, [26, 26, 26, 26, 26, 26, 26, 26, 26, 22]);
        assert_eq!(
            g.iter().map(|g| g.islands.start).collect::<Vec<_>>(),
            [0, 26, 52, 78, 104, 130, 156, 182, 208, 234]
        );
        // the intervals the thesis names
        assert_eq!(g[6].label(), "[1.224, 1.42]");
        assert_eq!(g[7].label(), "[1.428, 1.624]");
        assert_eq!(g[8].label(), "[1.632, 1.828]");
        assert_eq!(g[0].label(), "[0.001, 0.197]");
        assert_eq!(g[9].label(), "[1.835, 2]");
        assert!(
            within(g[7].f_lo, g[7].f_hi, (1.428, 1.828))
                && within(g[8].f_lo, g[8].f_hi, (1.428, 1.828))
        );
        assert!(within(g[6].f_lo, g[6].f_hi, (1.224, 1.42)));
        assert!(
            !within(g[6].f_lo, g[6].f_hi, (1.428, 1.828))
                && !within(g[9].f_lo, g[9].f_hi, (1.428, 1.828))
        );
        assert_eq!(thesis_worst_interval("cec07T"), Some((1.428, 1.828)));
        assert_eq!(thesis_worst_interval("F7"), Some((1.224, 1.42)));
        assert_eq!(thesis_worst_interval("F1"), None);
    }

    #[test]
    fn groups_cover_every_island_once() {
        for np in 1..60usize {
            let f: Vec<f64> = (0..np).map(|i| i as f64).collect();
            for groups in 1..12 {
                let g = f_groups(&f, groups);
                assert!(!g.is_empty() && g.len() <= groups, "{np} {groups}");
                let mut next = 0;
                for (i, gr) in g.iter().enumerate() {
                    assert_eq!(gr.index, i);
                    assert_eq!(gr.islands.start, next);
                    assert!(!gr.islands.is_empty());
                    assert_eq!(
                        (gr.f_lo, gr.f_hi),
                        (gr.islands.start as f64, (gr.islands.end - 1) as f64)
                    );
                    next = gr.islands.end;
                }
                assert_eq!(next, np);
                if np % groups == 0 {
                    assert_eq!(g.len(), groups);
                    assert!(g.iter().all(|gr| gr.islands.len() == np / groups));
                }
            }
        }
        assert!(f_groups(&[], 10).is_empty());
        assert!(f_groups(&[1.0], 0).is_empty());
        // 20 islands in 10 groups of 2 (the CLI tests' size)
        assert_eq!(f_groups(&[0.0; 20], 10).len(), 10);
    }

    #[test]
    fn group_history_and_the_worst_group() {
        let f: Vec<f64> = (0..6).map(|i| i as f64 * 0.4).collect();
        let groups = f_groups(&f, 3);
        let rec = |generation, bests: Vec<f64>| Record {
            generation,
            evaluations: 0,
            seconds: 0.0,
            bests,
        };
        let h = vec![
            rec(0, vec![9.0, 9.0, 8.0, 8.0, 7.0, 7.0]),
            rec(10, vec![1.0, 3.0, 5.0, 7.0, 2.0, 2.0]),
        ];
        let rows = group_history(&h, &groups);
        assert_eq!(rows.len(), 6);
        assert_eq!(
            (rows[3].generation, rows[3].group, rows[3].stats.mean),
            (10, 0, 2.0)
        );
        assert_eq!((rows[4].f_lo, rows[4].f_hi), (0.8, 1.2000000000000002));
        let w = worst_group(&rows).unwrap();
        assert_eq!((w.generation, w.group, w.stats.mean), (10, 1, 6.0));
        assert!(worst_group(&[]).is_none());
    }

    #[test]
    fn digits_as_the_challenge_counts_them() {
        assert_eq!(correct_digits(1.000005, 1.0), 6);
        assert_eq!(correct_digits(1.0, 1.0), 10);
        assert_eq!(correct_digits(1.0 + 5e-11, 1.0), 10);
        assert_eq!(correct_digits(1.0 + 2e-9, 1.0), 9);
        assert_eq!(correct_digits(1.5, 1.0), 1);
        assert_eq!(correct_digits(2.0, 1.0), 0);
        assert_eq!(correct_digits(f64::NAN, 1.0), 0);
        assert_eq!(correct_digits(0.99995, 1.0), 5);
    }
}
