//! Island DE on the CPU with rayon: the operators of `crate::de::ops`, so on one seed it draws
//! the random numbers the device draws and (in double) follows the device's run. It computes in
//! f64 whatever the device's storage precision; the fitness values are rounded to the fitness
//! precision as the device stores them (`Config::fitness_value`: f32 in single), so with double
//! storage and single fitness it still follows the device's run. Catalogue objectives use their f64 host twins, callbacks
//! are called with all trials at once, and a user OpenCL source is evaluated on the device in
//! use (it has no host form).

use super::adapt;
use super::ade;
use super::config::Algorithm;
use super::config::{rounded, Config, Mutation};
use super::constraints::{self, Constraints};
use super::engine::{Engine, EngineState, Start};
use super::jde::{self, JdeState};
use super::ops::{self, Move};
use super::pace::{in_pieces, Cut, Rate};
use crate::error::{try_filled, Error, Result};
use crate::objective::{evaluate_points, Objective};
use crate::problem::functions::FunctionInfo;
use rayon::prelude::*;

enum Eval {
    Catalogue(&'static FunctionInfo),
    Other(Objective),
}

/// The CPU engine. X is stored population by population: member m of population p at
/// `x[(p * (Nm + 1) + m) * Nn ..]`, the best copy at m = Nm; values alike in `fx`.
pub struct CpuDe {
    cfg: Config,
    x: Vec<f64>,
    fx: Vec<f64>,
    y: Vec<f64>,
    fy: Vec<f64>,
    eval: Option<Eval>,
    mutation: Mutation,
    func_data: Option<Vec<u8>>,
    /// Measured rates of the phases cut in pieces (`pace.rs`): initial values, trials,
    /// evaluation and selection.
    rates: [Rate; 3],
    /// JADE, SHADE, L-SHADE, jSO (`ade.rs`, the twin of the device's `ade_gen`): the variant
    /// and every population's memories, archive and counters.
    ade: Option<(ade::Shape, Vec<ade::State>)>,
    /// jDE100 (`jde.rs`): F and CR of member m of population p at `p * Nm + m`, and each
    /// population's counters.
    jde: Option<JdeCpu>,
    /// A constrained run's constraints and levels, and the violations beside `fx` and `fy`
    /// (`constraints.rs`; empty without constraints).
    cons: Option<Cons>,
    vx: Vec<f64>,
    vy: Vec<f64>,
    /// A constrained adaptive variant (JADE, SHADE, L-SHADE, jSO): the host-planned path of
    /// `adapt.rs` that the device takes then (`ade_trial`, `ade_select`), and its archive rows
    /// (`acap` per population, slot s of population p at `(p acap + s) Nn`).
    planned: Option<(adapt::Adaptive, Vec<f64>)>,
}

/// A constrained run's constraints, initial level and level now.
struct Cons {
    c: Constraints,
    e0: f64,
    level: f64,
}

struct JdeCpu {
    f: Vec<f64>,
    cr: Vec<f64>,
    st: Vec<JdeState>,
}

/// Rows (members) of the first piece of a phase under a cut.
const FIRST_ROWS: u64 = 64;

/// [`in_pieces`] over rows 0..`count`, pieces from [`FIRST_ROWS`] rows on and nothing to
/// synchronise: `rows(a, b)` does rows a..b; the rows done.
fn in_row_pieces(
    count: usize,
    cut: Option<&Cut>,
    rate: &mut Rate,
    mut rows: impl FnMut(usize, usize) -> Result<()>,
) -> Result<u64> {
    in_pieces(
        count as u64,
        1,
        FIRST_ROWS,
        cut,
        rate,
        |a, len| rows(a as usize, (a + len).min(count as u64) as usize),
        || Ok(()),
    )
}

impl CpuDe {
    pub fn new(cfg: Config) -> Result<Self> {
        let (np, nm, nn) = (cfg.np as usize, cfg.nm as usize, cfg.nn as usize);
        Ok(CpuDe {
            x: try_filled(np * (nm + 1) * nn, 0.0, "islands")?,
            fx: try_filled(np * (nm + 1), f64::INFINITY, "islands")?,
            y: try_filled(np * nm * nn, 0.0, "islands")?,
            fy: try_filled(np * nm, 0.0, "islands")?,
            cfg,
            eval: None,
            mutation: Mutation::Rand1,
            func_data: None,
            rates: [Rate::default(); 3],
            ade: None,
            jde: None,
            cons: None,
            vx: Vec::new(),
            vy: Vec::new(),
            planned: None,
        })
    }

    /// Component n of mutation member k of population p: a member (k < Nm) or archive slot
    /// k - Nm (`cl/de.cl` `ADE_X`).
    fn ade_x(&self, archive: &[f64], acap: u32, p: usize, k: u32, n: usize) -> f64 {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        if (k as usize) < nm {
            self.x[(p * (nm + 1) + k as usize) * nn + n]
        } else {
            archive[(p * acap as usize + (k as usize - nm)) * nn + n]
        }
    }

    /// The level of the comparisons (0 without constraints).
    fn level_now(&self) -> f64 {
        self.cons.as_ref().map_or(0.0, |c| c.level)
    }

    /// The violations of points `rows` (row by row) of a constrained run.
    fn violations_of(&self, rows: &[f64]) -> Result<Vec<f64>> {
        let nn = self.cfg.nn as usize;
        let cons = &self.cons.as_ref().expect("constrained").c;
        let count = rows.len() / nn;
        if let Some(cb) = &cons.violation {
            let mut out = vec![0.0; count];
            cb.call(rows, count, nn, &mut out)?;
            return Ok(out);
        }
        let obj = self.compiled_objective();
        let nc = cons.count() as usize;
        let c = crate::objective::constraint_values(
            &obj,
            rows,
            nn,
            cons.count(),
            self.cfg.options.double,
            None,
        )?;
        Ok(c.chunks_exact(nc).map(|c| cons.violation_of(c)).collect())
    }

    /// The gradient-based repair of generation `gen`'s picked trials (the device's `de_repair`
    /// picks alike), through the objective's program on the evaluation device.
    fn repair_trials(&mut self, gen: u64) -> Result<()> {
        let Some(r) = self.cons.as_ref().and_then(|c| c.c.repair) else {
            return Ok(());
        };
        let c = &self.cfg;
        let nn = c.nn as usize;
        let picks = r.picks(c.options.mutation_seed, gen, c.np as u64 * c.nm as u64);
        if picks.is_empty() {
            return Ok(());
        }
        let obj = self.compiled_objective();
        let cons = &self.cons.as_ref().expect("constrained").c;
        let rows: Vec<f64> = picks
            .iter()
            .flat_map(|&i| self.y[i * nn..(i + 1) * nn].iter().copied())
            .collect();
        let repaired = crate::objective::repair_points(
            &obj,
            &rows,
            &crate::objective::RepairTask {
                lo: &c.lo,
                hi: &c.hi,
                integral: &c.integral,
                inequalities: cons.inequalities,
                equalities: cons.equalities,
                eq_tol: cons.eq_tol,
                rounds: r.rounds,
            },
            c.options.double,
        )?;
        for (k, &i) in picks.iter().enumerate() {
            self.y[i * nn..(i + 1) * nn].copy_from_slice(&repaired[k * nn..(k + 1) * nn]);
        }
        Ok(())
    }

    /// The compiled objective of a constrained run, with its data.
    fn compiled_objective(&self) -> Objective {
        match (self.eval.as_ref().expect("started"), &self.func_data) {
            (Eval::Other(Objective::Source { code, .. }), Some(d)) => {
                Objective::source(code.clone(), d.clone())
            }
            (Eval::Other(o), _) => o.clone(),
            (Eval::Catalogue(_), _) => unreachable!("refused by check_run"),
        }
    }

    fn values(&self, rows: &[f64]) -> Result<Vec<f64>> {
        let nn = self.cfg.nn as usize;
        match self.eval.as_ref().expect("started") {
            Eval::Catalogue(info) => {
                let chunks: Vec<Result<Vec<f64>>> = rows
                    .par_chunks(64 * nn)
                    .map(|c| info.eval_rows(c, nn))
                    .collect();
                let mut out = Vec::with_capacity(rows.len() / nn);
                for c in chunks {
                    out.extend(c?);
                }
                Ok(out)
            }
            Eval::Other(Objective::Callback(cb)) => {
                let mut out = vec![0.0; rows.len() / nn];
                cb.call(rows, rows.len() / nn, nn, &mut out)?;
                Ok(out)
            }
            Eval::Other(obj) => {
                let obj = match (&self.func_data, obj) {
                    (Some(d), Objective::Source { code, .. }) => {
                        Objective::source(code.clone(), d.clone())
                    }
                    _ => obj.clone(),
                };
                evaluate_points(&obj, rows, nn, self.cfg.options.double, None)
            }
        }
    }

    /// Selection of trials `rows` (row `p * Nm + m`), then the bests.
    fn select(&mut self, rows: std::ops::Range<usize>) {
        self.select_rows(rows);
        self.rank();
    }

    /// Selection of trials `rows`.
    fn select_rows(&mut self, rows: std::ops::Range<usize>) {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        let (y, fy) = (&self.y, &self.fy);
        let selection = self.cfg.options.selection;
        if self.cons.is_some() {
            let (vy, e) = (&self.vy, self.level_now());
            self.x
                .par_chunks_mut((nm + 1) * nn)
                .zip(self.fx.par_chunks_mut(nm + 1))
                .zip(self.vx.par_chunks_mut(nm + 1))
                .enumerate()
                .for_each(|(p, ((xp, fxp), vxp))| {
                    let (from, to) = (
                        rows.start.clamp(p * nm, (p + 1) * nm),
                        rows.end.clamp(p * nm, (p + 1) * nm),
                    );
                    for m in from - p * nm..to - p * nm {
                        let f = fy[p * nm + m];
                        let f = if f.is_finite() { f } else { f64::INFINITY };
                        let v = constraints::sanitized(vy[p * nm + m]);
                        if selection.replaces_at(f, v, fxp[m], vxp[m], e) {
                            (fxp[m], vxp[m]) = (f, v);
                            xp[m * nn..(m + 1) * nn]
                                .copy_from_slice(&y[(p * nm + m) * nn..(p * nm + m + 1) * nn]);
                        }
                    }
                });
            return;
        }
        self.x
            .par_chunks_mut((nm + 1) * nn)
            .zip(self.fx.par_chunks_mut(nm + 1))
            .enumerate()
            .for_each(|(p, (xp, fxp))| {
                let (from, to) = (
                    rows.start.clamp(p * nm, (p + 1) * nm),
                    rows.end.clamp(p * nm, (p + 1) * nm),
                );
                for m in from - p * nm..to - p * nm {
                    // a non-finite value is worse than every finite one, as in `cl/de.cl`
                    let f = fy[p * nm + m];
                    let f = if f.is_finite() { f } else { f64::INFINITY };
                    if selection.replaces(f, fxp[m]) {
                        fxp[m] = f;
                        xp[m * nn..(m + 1) * nn]
                            .copy_from_slice(&y[(p * nm + m) * nn..(p * nm + m + 1) * nn]);
                    }
                }
            });
    }

    /// Member `m` of population `p`, or its worst now for [`ops::WORST`].
    fn slot(&self, p: u32, m: u32) -> usize {
        let nm = self.cfg.nm as usize;
        if m == ops::WORST {
            let at = p as usize * (nm + 1);
            if self.cons.is_some() {
                let k = constraints::keys(
                    &self.fx[at..at + nm],
                    &self.vx[at..at + nm],
                    self.level_now(),
                );
                return ops::worst_one(&k) as usize;
            }
            return ops::worst_one(&self.fx[at..at + nm]) as usize;
        }
        m as usize
    }

    fn rank(&mut self) {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        if self.cons.is_some() {
            let e = self.level_now();
            self.x
                .par_chunks_mut((nm + 1) * nn)
                .zip(self.fx.par_chunks_mut(nm + 1))
                .zip(self.vx.par_chunks_mut(nm + 1))
                .for_each(|((xp, fxp), vxp)| {
                    // as `de_best`: the first non-NaN member, then any strictly better one
                    let mut best: Option<usize> = None;
                    for m in 0..nm {
                        let take = match best {
                            None => !fxp[m].is_nan(),
                            Some(b) => constraints::better(fxp[m], vxp[m], fxp[b], vxp[b], e),
                        };
                        if take {
                            best = Some(m);
                        }
                    }
                    if let Some(b) = best {
                        (fxp[nm], vxp[nm]) = (fxp[b], vxp[b]);
                        xp.copy_within(b * nn..(b + 1) * nn, nm * nn);
                    }
                });
            return;
        }
        self.x
            .par_chunks_mut((nm + 1) * nn)
            .zip(self.fx.par_chunks_mut(nm + 1))
            .for_each(|(xp, fxp)| {
                if let Some(b) = ops::best_member(&fxp[..nm]) {
                    fxp[nm] = fxp[b];
                    xp.copy_within(b * nn..(b + 1) * nn, nm * nn);
                }
            });
    }

    /// Evaluation and selection of the trials, in pieces of rows under a cut: returns the rows
    /// evaluated and selected (all, or a leading range when the cut came due).
    fn evaluate(&mut self, cut: Option<&Cut>) -> Result<u64> {
        self.evaluate_from(0, cut)
    }

    /// [`CpuDe::evaluate`] of the trials from row `from` on (the earlier ones evaluated and
    /// selected already): returns the rows evaluated and selected, `from` included.
    fn evaluate_from(&mut self, from: usize, cut: Option<&Cut>) -> Result<u64> {
        let nn = self.cfg.nn as usize;
        let count = self.fy.len();
        let y = std::mem::take(&mut self.y);
        let mut fy = std::mem::take(&mut self.fy);
        let mut rate = self.rates[2];
        // a host callback gets the whole generation in one call unless a time limit needs pieces
        let cut = match self.eval.as_ref() {
            Some(Eval::Other(Objective::Callback(_))) => Cut::with_limit(cut),
            _ => cut,
        };
        let done = in_row_pieces(count - from, cut, &mut rate, |a, b| {
            let (a, b) = (a + from, b + from);
            if a == 0 && b == count {
                fy = self.values(&y)?;
            } else {
                let v = self.values(&y[a * nn..b * nn])?;
                fy[a..b].copy_from_slice(&v);
            }
            Ok(())
        })
        .map(|d| d + from as u64);
        self.rates[2] = rate;
        self.y = y;
        // the values as the fitness precision stores them, before any comparison
        if !self.cfg.fitness_double() {
            fy.iter_mut().for_each(|v| *v = self.cfg.fitness_value(*v));
        }
        self.fy = fy;
        let done = done? as usize;
        if self.cons.is_some() && done > from {
            let v = self.violations_of(&self.y[from * nn..done * nn])?;
            for (k, v) in v.into_iter().enumerate() {
                self.vy[from + k] = self.cfg.fitness_value(constraints::sanitized(v));
            }
        }
        self.select(from..done);
        Ok(done as u64)
    }

    /// Makes the trials of generation `gen` for rows `rows`.
    fn trials_of(&mut self, gen: u64, rows: std::ops::Range<usize>) {
        let c = &self.cfg;
        let (np, nm, nn) = (c.np, c.nm as usize, c.nn as usize);
        let (x, mutation) = (&self.x, self.mutation);
        let o = &c.options;
        let thresholds: Vec<u64> = c.cr.iter().map(|&v| ops::cr_threshold(v)).collect();
        let start = rows.start;
        self.y[rows.start * nn..rows.end * nn]
            .par_chunks_mut(nn)
            .enumerate()
            .for_each(|(i, out)| {
                let row = start + i;
                let (p, m) = (row / nm, row % nm);
                let xp = &x[p * (nm + 1) * nn..(p + 1) * (nm + 1) * nn];
                let (r, jrand) = ops::indices(
                    o.mutation_seed,
                    gen,
                    p as u32,
                    m as u32,
                    np,
                    c.nm,
                    c.nn,
                    mutation,
                    o.shared_random,
                );
                let key = ops::TrialKey {
                    seed: o.crossover_seed,
                    gen,
                    p: p as u32,
                    m: m as u32,
                    np,
                    nm: c.nm,
                    nn: c.nn,
                    shared: o.shared_random,
                };
                let f = ops::dithered_f(
                    c.f[p],
                    c.fd[p],
                    o.mutation_seed,
                    gen,
                    p as u32,
                    np,
                    o.shared_random,
                );
                ops::trial(
                    out,
                    key,
                    jrand,
                    thresholds[p],
                    &c.lo,
                    &c.hi,
                    |n| c.kinds[n],
                    &c.integral,
                    |n| ops::mutant(mutation, f, &r, m as u32, c.nm, |k| xp[k as usize * nn + n]),
                    |n| xp[m * nn + n],
                );
            });
    }
}

impl CpuDe {
    /// Runs `f` over X and Fx (lent out for the call) with the bounds and an evaluation of rows
    /// whose values come in the fitness precision (a non-finite one +inf): the twins' whole
    /// generations (`ade.rs`, `jde.rs`).
    fn over_islands<R>(
        &mut self,
        f: impl FnOnce(&mut [f64], &mut [f64], &jde::Bounds<'_>, &mut jde::Evaluate<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut x = std::mem::take(&mut self.x);
        let mut fx = std::mem::take(&mut self.fx);
        let done = {
            let c = &self.cfg;
            let bounds = jde::Bounds {
                lo: &c.lo,
                hi: &c.hi,
                kinds: &c.kinds,
                integral: &c.integral,
            };
            let this = &*self;
            let mut eval = |rows: &[f64]| -> Result<Vec<f64>> {
                let v = this.values(rows)?;
                Ok(v.into_iter()
                    .map(|v| {
                        if v.is_finite() {
                            this.cfg.fitness_value(v)
                        } else {
                            f64::INFINITY
                        }
                    })
                    .collect())
            };
            f(&mut x, &mut fx, &bounds, &mut eval)
        };
        self.x = x;
        self.fx = fx;
        done
    }

    /// Generation `gen` of JADE, SHADE, L-SHADE or jSO on every island (`ade::generation`),
    /// then each island's best row.
    /// One generation of a constrained adaptive variant on the host-planned path.
    fn planned_generation(&mut self, gen: u64) -> Result<u64> {
        let (mut a, archive) = self.planned.take().expect("planned variant started");
        let rule = self.cfg.options.selection;
        let done = {
            let mut b = CpuPlanned { de: self, archive };
            let done = adapt::generation(&mut a, &mut b, gen, rule);
            (done, b.archive)
        };
        self.planned = Some((a, done.1));
        done.0
    }

    fn ade_generation(&mut self, gen: u64) -> Result<()> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        let (shape, mut st) = self.ade.take().expect("adaptive variant started");
        let done = self.over_islands(|x, fx, bounds, eval| {
            let mut islands: Vec<ade::IslandMut<'_>> = x
                .chunks_mut((nm + 1) * nn)
                .zip(fx.chunks_mut(nm + 1))
                .zip(st.iter_mut())
                .map(|((x, fx), st)| ade::IslandMut { x, fx, st })
                .collect();
            ade::generation(&shape, gen, &mut islands, bounds, eval)
        });
        self.ade = Some((shape, st));
        done?;
        self.rank();
        Ok(())
    }

    /// Cycle `gen` of jDE100 on every island (`jde::cycle`).
    fn jde_cycle(&mut self, gen: u64) -> Result<()> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        let mut st = self.jde.take().expect("jde100 started");
        let shape = jde::Shape::of(&self.cfg);
        let done = self.over_islands(|x, fx, bounds, eval| {
            let mut islands: Vec<jde::IslandMut<'_>> = x
                .chunks_mut((nm + 1) * nn)
                .zip(fx.chunks_mut(nm + 1))
                .zip(st.f.chunks_mut(nm).zip(st.cr.chunks_mut(nm)))
                .zip(st.st.iter_mut())
                .map(|(((x, fx), (f, cr)), st)| jde::IslandMut { x, fx, f, cr, st })
                .collect();
            jde::cycle(&shape, gen, &mut islands, bounds, eval)
        });
        self.jde = Some(st);
        done
    }
}

impl Engine for CpuDe {
    fn start(&mut self, s: &Start<'_>) -> Result<Option<u64>> {
        let (objective, mutation, cut) = (s.objective, s.mutation, s.cut);
        constraints::check_run(s.constraints, objective, &self.cfg)?;
        self.cons = s.constraints.map(|c| Cons {
            c: c.clone(),
            e0: 0.0,
            level: 0.0,
        });
        let constrained = self.cons.is_some();
        let (npc, nmc) = (self.cfg.np as usize, self.cfg.nm as usize);
        self.vx = vec![f64::INFINITY; if constrained { npc * (nmc + 1) } else { 0 }];
        self.vy = vec![f64::INFINITY; if constrained { npc * nmc } else { 0 }];
        self.eval = Some(match objective {
            Objective::Catalogue { name } => {
                Eval::Catalogue(crate::problem::functions::lookup(name)?)
            }
            other => Eval::Other(other.clone()),
        });
        self.func_data = None;
        self.mutation = mutation;
        let c = &self.cfg;
        let (nm, nn) = (c.nm as usize, c.nn as usize);
        let count = self.fy.len();
        let seed = c.options.init_seed;
        self.fx.iter_mut().for_each(|v| *v = f64::INFINITY);
        let mut rate = self.rates[0];
        let y = &mut self.y;
        let made = in_row_pieces(count, cut, &mut rate, |a, b| {
            y[a * nn..b * nn]
                .par_chunks_mut(nn)
                .enumerate()
                .for_each(|(i, row)| {
                    let r = a + i;
                    let (p, m) = ((r / nm) as u32, (r % nm) as u32);
                    for (n, v) in row.iter_mut().enumerate() {
                        *v = rounded(
                            ops::initial(seed, p, m, n as u32, c.nm, c.nn, c.lo[n], c.hi[n]),
                            c.integral[n],
                        );
                    }
                });
            Ok(())
        })?;
        self.rates[0] = rate;
        if made < count as u64 {
            return Ok(None);
        }
        {
            // X takes the initial values before the selection: the members a cut evaluation leaves
            // unevaluated keep them (and +inf), and so does a member of non-finite value under
            // strict selection (+inf < +inf is false), as on the device where `de_init` writes X
            let (x, y) = (&mut self.x, &self.y);
            x.par_chunks_mut((nm + 1) * nn)
                .zip(y.par_chunks(nm * nn))
                .for_each(|(xp, yp)| xp[..nm * nn].copy_from_slice(yp));
        }
        // constrained adaptive variants take the host-planned path (as on the device)
        self.planned = (constrained && self.cfg.options.algorithm.planned()).then(|| {
            let a = adapt::Adaptive::new(&self.cfg);
            let rows = c.np as usize * a.acap as usize * nn;
            (a, vec![0.0; rows])
        });
        self.ade = (self.cfg.options.algorithm.planned() && !constrained).then(|| {
            let o = &self.cfg.options;
            let shape = ade::Shape::new(
                o.algorithm,
                c.nm,
                c.nn,
                c.np,
                o.mutation_seed,
                o.crossover_seed,
                o.lshade_budget,
                o.selection,
            );
            let st = vec![ade::State::new(&shape); c.np as usize];
            (shape, st)
        });
        self.jde = None;
        let evaluated = self.evaluate(cut)?;
        if let Some(c) = self.cons.as_mut() {
            let members: Vec<f64> = self
                .vx
                .chunks_exact(nm + 1)
                .flat_map(|c| c[..nm].iter().copied())
                .collect();
            c.e0 = c.c.handling.initial_level(&members);
            c.level = c.c.handling.level(c.e0, 0);
        }
        if self.cfg.options.algorithm == Algorithm::Jde100 {
            let n = self.cfg.np as usize * nm;
            self.jde = Some(JdeCpu {
                f: vec![jde::F_INIT; n],
                cr: vec![jde::CR_INIT; n],
                st: vec![JdeState::default(); self.cfg.np as usize],
            });
        }
        Ok(Some(evaluated))
    }

    fn generation(&mut self, gen: u64, cut: Option<&Cut>) -> Result<u64> {
        if self.jde.is_some() {
            // a cycle is not cut in pieces (the limit is asked between cycles)
            self.jde_cycle(gen)?;
            return Ok(self.per_generation());
        }
        if self.ade.is_some() {
            // a generation is not cut in pieces (the limit is asked between generations)
            let n = self.per_generation();
            self.ade_generation(gen)?;
            return Ok(n);
        }
        if self.planned.is_some() {
            if let Some(c) = self.cons.as_mut() {
                c.level = c.c.handling.level(c.e0, gen);
            }
            return self.planned_generation(gen);
        }
        if let Some(c) = self.cons.as_mut() {
            c.level = c.c.handling.level(c.e0, gen);
        }
        let count = self.fy.len();
        let mut rate = self.rates[1];
        // every trial is made from the previous generation before any selection writes X
        let made = in_row_pieces(count, cut, &mut rate, |a, b| {
            self.trials_of(gen, a..b);
            Ok(())
        })?;
        self.rates[1] = rate;
        if made < count as u64 {
            return Ok(0);
        }
        self.repair_trials(gen)?;
        self.evaluate(cut)
    }

    fn repair_charge(&self, gen: u64) -> u64 {
        constraints::repair_charge(self.cons.as_ref().map(|c| &c.c), &self.cfg, gen)
    }

    fn fitness(&mut self) -> Result<Vec<f64>> {
        Ok(self.fx.clone())
    }

    fn violations(&mut self) -> Result<Option<Vec<f64>>> {
        Ok(self.cons.as_ref().map(|_| self.vx.clone()))
    }

    fn level(&self) -> f64 {
        self.level_now()
    }

    fn moments(&mut self, nm: usize) -> Result<Vec<f64>> {
        let mut m = ops::moments(&self.fx, nm);
        if self.cons.is_some() {
            // a population with an infeasible member has not converged (`de_moments`)
            for (p, v) in self.vx.chunks_exact(nm + 1).enumerate() {
                if v[..nm].iter().any(|&v| v > 0.0 || v.is_nan()) {
                    m[2 * p] = f64::INFINITY;
                    m[2 * p + 1] = f64::INFINITY;
                }
            }
        }
        Ok(m)
    }

    fn migrate(&mut self, moves: &[Move]) -> Result<()> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        for mv in moves {
            let (s, d) = (mv.src as usize, mv.dst as usize);
            let m = self.slot(mv.dst, mv.member);
            let src = (s * (nm + 1) + nm) * nn;
            let dst = (d * (nm + 1) + m) * nn;
            self.x.copy_within(src..src + nn, dst);
            self.fx[d * (nm + 1) + m] = self.fx[s * (nm + 1) + nm];
            if self.cons.is_some() {
                self.vx[d * (nm + 1) + m] = self.vx[s * (nm + 1) + nm];
            }
        }
        self.rank();
        Ok(())
    }

    fn import(&mut self, slots: &[(u32, u32)], x: &[f64], fx: &[f64]) -> Result<()> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        for (k, &(p, m)) in slots.iter().enumerate() {
            let m = self.slot(p, m);
            let dst = (p as usize * (nm + 1) + m) * nn;
            self.x[dst..dst + nn].copy_from_slice(&x[k * nn..(k + 1) * nn]);
            self.fx[p as usize * (nm + 1) + m] = fx[k];
        }
        self.rank();
        Ok(())
    }

    fn shape(&self) -> (u32, u32) {
        (self.cfg.np, self.cfg.nm)
    }

    fn member(&mut self, p: u32, m: u32) -> Result<Vec<f64>> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        let at = (p as usize * (nm + 1) + m as usize) * nn;
        Ok(self.x[at..at + nn].to_vec())
    }

    fn trials(&mut self) -> Result<(Vec<f64>, Vec<f64>)> {
        Ok((self.y.clone(), self.fy.clone()))
    }

    fn set_func_data(&mut self, data: &[u8]) -> Result<()> {
        self.func_data = Some(data.to_vec());
        // The population's fitness came from the old data: evaluate every member again.
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        let x = &self.x;
        self.y.par_chunks_mut(nn).enumerate().for_each(|(r, row)| {
            let (p, m) = (r / nm, r % nm);
            let at = (p * (nm + 1) + m) * nn;
            row.copy_from_slice(&x[at..at + nn]);
        });
        self.fx.iter_mut().for_each(|v| *v = f64::INFINITY);
        self.vx.iter_mut().for_each(|v| *v = f64::INFINITY);
        self.evaluate(None).map(|_| ())
    }

    fn sync(&mut self) -> Result<()> {
        Ok(())
    }

    fn jde_state(&mut self) -> Result<Vec<JdeState>> {
        Ok(self.jde.as_ref().map_or_else(Vec::new, |j| j.st.clone()))
    }

    fn per_generation(&self) -> u64 {
        if self.cfg.options.algorithm == Algorithm::Jde100 {
            let s = self.cfg.options.jde_small;
            return self.cfg.np as u64 * jde::per_cycle(self.cfg.nm - s, s);
        }
        if let Some((a, _)) = &self.planned {
            return a.per_generation();
        }
        self.ade
            .as_ref()
            .map_or(self.cfg.np as u64 * self.cfg.nm as u64, |(_, st)| {
                st.iter().map(|s| s.na as u64).sum()
            })
    }

    fn configure(&mut self, cfg: &Config) -> Result<()> {
        self.cfg = cfg.clone();
        Ok(())
    }

    fn resume_generation(&mut self, _gen: u64, from: u64, cut: Option<&Cut>) -> Result<u64> {
        // only the fixed DE's generations are cut midway; Y holds their trials
        self.evaluate_from(from as usize, cut)
    }

    fn save(&mut self, trials: bool) -> Result<EngineState> {
        if self.planned.is_some() {
            return Err(Error::arg(
                "state",
                "a constrained adaptive run on the CPU backend cannot be saved (its host-planned state has no checkpoint form); run it on a device, or the fixed DE",
            ));
        }
        let (y, fy) = if trials {
            (self.y.clone(), self.fy.clone())
        } else {
            (Vec::new(), Vec::new())
        };
        // with constraints, the violations and the levels after the values (as a device's Fx)
        let mut fx = self.fx.clone();
        if let Some(c) = &self.cons {
            fx.extend(&self.vx);
            fx.extend([c.level, c.e0]);
        }
        Ok(EngineState::Cpu {
            x: self.x.clone(),
            fx,
            y,
            fy,
            ade: self.ade.as_ref().map(|(_, st)| st.clone()),
            jde: self
                .jde
                .as_ref()
                .map(|j| (j.f.clone(), j.cr.clone(), j.st.clone())),
        })
    }

    fn restore(&mut self, state: EngineState) -> Result<()> {
        let EngineState::Cpu {
            x,
            fx,
            y,
            fy,
            ade,
            jde,
        } = state
        else {
            return Err(super::state::refused("the CPU backend", &state));
        };
        let (np, nm) = (self.cfg.np as usize, self.cfg.nm as usize);
        let extra = if self.cons.is_some() {
            self.vx.len() + 2
        } else {
            0
        };
        if x.len() != self.x.len() || fx.len() != self.fx.len() + extra {
            return Err(super::state::corrupt("populations"));
        }
        if !y.is_empty() && (y.len() != self.y.len() || fy.len() != self.fy.len()) {
            return Err(super::state::corrupt("trials"));
        }
        match (&mut self.ade, ade) {
            (Some((shape, st)), Some(saved)) => {
                let nn = self.cfg.nn as usize;
                if saved.len() != np
                    || saved.iter().any(|s| {
                        s.m_f.len() != shape.par.h
                            || s.m_cr.len() != shape.par.h
                            || s.arc.len() != shape.acap as usize * nn
                    })
                {
                    return Err(super::state::corrupt("adaptive states"));
                }
                *st = saved;
            }
            (None, None) => {}
            _ => return Err(super::state::corrupt("adaptive states")),
        }
        match (&mut self.jde, jde) {
            (Some(j), Some((f, cr, st))) => {
                if f.len() != np * nm || cr.len() != np * nm || st.len() != np {
                    return Err(super::state::corrupt("jde100 states"));
                }
                (j.f, j.cr, j.st) = (f, cr, st);
            }
            (None, None) => {}
            _ => return Err(super::state::corrupt("jde100 states")),
        }
        self.x = x;
        let mut fx = fx;
        if let Some(c) = self.cons.as_mut() {
            let n = self.fx.len();
            (c.level, c.e0) = (fx[fx.len() - 2], fx[fx.len() - 1]);
            let nv = self.vx.len();
            self.vx.copy_from_slice(&fx[n..n + nv]);
            fx.truncate(n);
        }
        self.fx = fx;
        if !y.is_empty() {
            self.y = y;
            self.fy = fy;
        }
        Ok(())
    }

    fn population(&mut self) -> Result<Vec<f64>> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        Ok(self
            .x
            .chunks_exact((nm + 1) * nn)
            .flat_map(|xp| xp[..nm * nn].iter().copied())
            .collect())
    }

    fn set_population(&mut self, x: &[f64]) -> Result<()> {
        let (nm, nn) = (self.cfg.nm as usize, self.cfg.nn as usize);
        if x.len() != self.y.len() {
            return Err(Error::arg(
                "population",
                format!("{} values; expected {}", x.len(), self.y.len()),
            ));
        }
        // as the initial population: X and Y take the rows, every member's value is made afresh
        self.y.copy_from_slice(x);
        self.x
            .par_chunks_mut((nm + 1) * nn)
            .zip(x.par_chunks(nm * nn))
            .for_each(|(xp, rows)| xp[..nm * nn].copy_from_slice(rows));
        self.fx.iter_mut().for_each(|v| *v = f64::INFINITY);
        self.vx.iter_mut().for_each(|v| *v = f64::INFINITY);
        self.evaluate(None).map(|_| ())
    }

    fn devices(&self) -> usize {
        0
    }

    fn describe(&self) -> String {
        crate::device::Backend::Cpu.describe()
    }
}

/// The CPU backend's side of the host-planned adaptive variants (`adapt.rs`), as the device's
/// `ade_trial`, `ade_eval`, `ade_archive` and `ade_select` do it: a constrained JADE, SHADE,
/// L-SHADE or jSO follows the device's run.
struct CpuPlanned<'a> {
    de: &'a mut CpuDe,
    archive: Vec<f64>,
}

impl adapt::AdaptBackend for CpuPlanned<'_> {
    fn fitness_values(&mut self) -> Result<adapt::Values> {
        Ok(adapt::Values {
            f: self.de.fx.clone(),
            v: self.de.cons.as_ref().map(|_| self.de.vx.clone()),
            level: self.de.level_now(),
        })
    }

    fn make_trials(&mut self, gen: u64, plan: &adapt::Plan, na: &[u32]) -> Result<()> {
        let acap = self.planned_acap();
        let mut y = std::mem::take(&mut self.de.y);
        let c = &self.de.cfg;
        let (np, nm, nn) = (c.np as usize, c.nm as usize, c.nn as usize);
        let shared = c.options.shared_random;
        let seed = c.options.crossover_seed;
        y.par_chunks_mut(nn).enumerate().for_each(|(r, row)| {
            let (p, m) = (r / nm, r % nm);
            if m >= na[p] as usize {
                return;
            }
            let id = &plan.idx[r * adapt::IDX..(r + 1) * adapt::IDX];
            let (pk, npk) = if shared {
                (0, 1)
            } else {
                (p as u64, np as u64)
            };
            let t = (gen * npk + pk) * nm as u64 + m as u64;
            let x = |k: u32, n: usize| self.de.ade_x(&self.archive, acap, p, k, n);
            ops::trial(
                row,
                ops::TrialKey::counter(seed, t, c.nn),
                id[5],
                plan.crt[r],
                &c.lo,
                &c.hi,
                |n| c.kinds[n],
                &c.integral,
                |n| {
                    (x(id[0], n) + plan.fw[r] * (x(id[1], n) - x(id[2], n)))
                        + plan.f[r] * (x(id[3], n) - x(id[4], n))
                },
                |n| x(m as u32, n),
            );
        });
        self.de.y = y;
        Ok(())
    }

    fn evaluate_trials(&mut self, na: &[u32]) -> Result<adapt::Values> {
        let de = &mut *self.de;
        let (nm, nn) = (de.cfg.nm as usize, de.cfg.nn as usize);
        let mut rows = Vec::new();
        for (p, &n) in na.iter().enumerate() {
            rows.extend_from_slice(&de.y[p * nm * nn..(p * nm + n as usize) * nn]);
        }
        let f = if rows.is_empty() {
            Vec::new()
        } else {
            de.values(&rows)?
        };
        let v = if rows.is_empty() || de.cons.is_none() {
            Vec::new()
        } else {
            de.violations_of(&rows)?
        };
        let (mut fy, mut vy) = (
            vec![f64::INFINITY; de.fy.len()],
            vec![f64::INFINITY; de.fy.len()],
        );
        let mut at = 0;
        for (p, &n) in na.iter().enumerate() {
            for m in 0..n as usize {
                fy[p * nm + m] = if f[at].is_finite() {
                    de.cfg.fitness_value(f[at])
                } else {
                    f64::INFINITY
                };
                if !v.is_empty() {
                    vy[p * nm + m] = de.cfg.fitness_value(constraints::sanitized(v[at]));
                }
                at += 1;
            }
        }
        de.fy = fy.clone();
        let constrained = de.cons.is_some();
        if constrained {
            de.vy = vy.clone();
        }
        Ok(adapt::Values {
            f: fy,
            v: constrained.then_some(vy),
            level: de.level_now(),
        })
    }

    fn archive(&mut self, moves: &[adapt::ArchiveMove]) -> Result<()> {
        let (nm, nn) = (self.de.cfg.nm as usize, self.de.cfg.nn as usize);
        let acap = self.planned_acap() as usize;
        for mv in moves {
            let (p, m, s) = (mv.p as usize, mv.m as usize, mv.slot as usize);
            let from = (p * (nm + 1) + m) * nn;
            self.archive[(p * acap + s) * nn..(p * acap + s + 1) * nn]
                .copy_from_slice(&self.de.x[from..from + nn]);
        }
        Ok(())
    }

    fn select(&mut self, na: &[u32]) -> Result<()> {
        let nm = self.de.cfg.nm as usize;
        // the active trials (the others hold +inf, which selects nothing but is skipped alike)
        for (p, &n) in na.iter().enumerate() {
            self.de.select_rows(p * nm..p * nm + n as usize);
        }
        self.de.rank();
        Ok(())
    }

    fn compact(&mut self, keep: &[Vec<u32>]) -> Result<()> {
        let de = &mut *self.de;
        let (nm, nn) = (de.cfg.nm as usize, de.cfg.nn as usize);
        let constrained = de.cons.is_some();
        for (p, k) in keep.iter().enumerate() {
            let o = p * (nm + 1);
            for (j, &m) in k.iter().enumerate() {
                let m = m as usize;
                if m != j {
                    de.x.copy_within((o + m) * nn..(o + m + 1) * nn, (o + j) * nn);
                    de.fx[o + j] = de.fx[o + m];
                    if constrained {
                        de.vx[o + j] = de.vx[o + m];
                    }
                }
            }
            for j in k.len()..nm {
                de.fx[o + j] = f64::INFINITY;
                if constrained {
                    de.vx[o + j] = f64::INFINITY;
                }
            }
        }
        de.rank();
        Ok(())
    }
}

impl CpuPlanned<'_> {
    fn planned_acap(&self) -> u32 {
        let c = &self.de.cfg;
        (self.archive.len() / (c.np as usize * c.nn as usize).max(1)) as u32
    }
}
