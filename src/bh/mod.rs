//! Monotonic basin hopping with a (1+1)-ES local search: many chains side by side on the device
//! (`cl/bh.cl`, one work-item a chain), with a CPU twin that takes the same steps
//! (docs/specs/DE.md, "Basin hopping").
//!
//! Each chain keeps an anchor, the lowest local minimum it has accepted. It perturbs the anchor
//! (a hop), descends from there with a (1+1)-ES and the 1/5 success rule until the step is below
//! `step_stop`, and keeps the end when it is strictly lower than the anchor (Leary 2000,
//! monotonic basin hopping; Wales and Doye 1997). Scales are fractions of each dimension's width.
//! It finishes what island DE leaves on funnel landscapes whose last basin DE does not enter: on
//! CEC08t (the 100-Digit Challenge's expanded Schaffer F6) every DE variant stops with one to
//! five rotated coordinates on the first ring of g (f = 1.0194 .. 1.0972), while basin hopping
//! from such a point reaches 1 + 1e-9 (docs/specs/DE.md).
//!
//! Every step is one evaluation per chain. The deviates are sums of four 16-bit uniforms
//! (Irwin-Hall, scaled to unit variance) and the hops' scales come from a table, so the device
//! and the twin compute the same additions and multiplications: in double they agree value for
//! value wherever the objective's values do (tests/it/solvers/bh.rs).
//!
//! # One iteration
//!
//! The anchors, search points, steps and search lengths of every chain stay on the device;
//! `bh_steps` runs K steps of every chain, one work-item each: a step draws its words once per
//! counter (two per component, one for the hop's scale), makes a trial (a (1+1)-ES step from the
//! search point, or a hop from the anchor when the search is over, which first accepts its end if
//! strictly lower), evaluates it with the objective (stride `chains`), and applies the 1/5 rule.
//! The host reads the anchors' values between launches and moves every anchor to the lowest
//! (`anchor`). The CPU twin runs the same steps per chain on rayon.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `device` | `bh_steps` of `cl/bh.cl`: one work-item a chain, the state in device buffers between launches |
//! | `cpu` | the rayon twin: the same words, deviates and hop table, so it takes the device's steps |
//! | `polish` | the library's polish: one bounded (1+1)-ES search from another solver's best point |

mod cpu;
mod device;
mod polish;

pub use polish::{polish, Polish, Polished};

use crate::de::constraints::{self, Constraints, Handling};
use crate::device::{bytes, Backend, Footprint};
use crate::error::{Error, Result};
use crate::objective::Objective;
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::{Progress, Stop, StopReason};
use cpu::CpuBh;
use device::DeviceBh;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The settings of a basin-hopping run. The defaults are the ones measured on CEC08t and
/// CEC09t (docs/specs/DE.md): hops of 1e-6 to 1.5e-2 of the width, a search from 1.5e-3 of it
/// down to 5e-17 (HappyCat's minimum lies on a shell about an ulp wide, which a search with a
/// coarser end does not reach).
#[derive(Clone, Debug, PartialEq)]
pub struct BhParams {
    /// Chains run side by side, each with its own random numbers.
    pub chains: usize,
    /// The smallest and largest hop, as fractions of each dimension's width: `hop_scales`
    /// values spaced evenly in log between them, one drawn per hop.
    pub hop_min: f64,
    pub hop_max: f64,
    pub hop_scales: usize,
    /// The local search's first step and the step at which it ends, fractions of the widths.
    pub step0: f64,
    pub step_stop: f64,
    /// The local search also ends after this many steps.
    pub max_search: u32,
    /// Seed of the chains' random numbers.
    pub seed: u64,
    /// Double precision on the device (the CPU twin computes in double only).
    pub double: bool,
}

impl Default for BhParams {
    fn default() -> Self {
        BhParams {
            chains: 4096,
            hop_min: 1e-6,
            hop_max: 0.015,
            hop_scales: 16,
            step0: 0.0015,
            step_stop: 5e-17,
            max_search: 20_000,
            seed: 1,
            double: true,
        }
    }
}

impl BhParams {
    /// Errors naming the first field out of range (what [`BasinHopping::new`] checks; a caller
    /// may check before it builds anything).
    pub fn check(&self) -> Result<()> {
        if self.chains == 0 || self.chains > u32::MAX as usize {
            return Err(Error::arg(
                "chains",
                format!("{}; 1 to 2^32 - 1", self.chains),
            ));
        }
        if !(self.hop_min > 0.0 && self.hop_min <= self.hop_max && self.hop_max.is_finite()) {
            return Err(Error::arg(
                "hop_min",
                format!(
                    "{} .. {}: 0 < hop_min <= hop_max, finite",
                    self.hop_min, self.hop_max
                ),
            ));
        }
        if self.hop_scales == 0 || self.hop_scales > 1024 {
            return Err(Error::arg(
                "hop_scales",
                format!("{}; 1 to 1024", self.hop_scales),
            ));
        }
        if !(self.step_stop > 0.0 && self.step_stop < self.step0 && self.step0.is_finite()) {
            return Err(Error::arg(
                "step_stop",
                format!(
                    "{} with step0 {}: 0 < step_stop < step0, finite",
                    self.step_stop, self.step0
                ),
            ));
        }
        if self.max_search == 0 {
            return Err(Error::arg("max_search", "0; at least 1"));
        }
        Ok(())
    }

    /// The hops' scales: `hop_scales` values from `hop_min` to `hop_max`, evenly in log.
    fn hops(&self) -> Vec<f64> {
        let n = self.hop_scales;
        (0..n)
            .map(|k| {
                if n == 1 {
                    self.hop_min
                } else {
                    self.hop_min * (self.hop_max / self.hop_min).powf(k as f64 / (n - 1) as f64)
                }
            })
            .collect()
    }
}

/// How [`BasinHopping::solve`] runs the chains and when it stops. The chains share their lowest
/// anchor only at multiples of `launch_steps` steps since the start; launches never cross such
/// a multiple and are sized by the clock within it (so that a time limit or an interrupt ends a
/// solve within a short launch), so a seed and these options give one course whatever the
/// machine and however a solve is split into continued solves; the stops are asked between
/// launches.
#[derive(Clone, Debug)]
pub struct BhRun {
    /// Steps between two shares of the lowest anchor, and the most steps of one launch (at
    /// least 1).
    pub launch_steps: u32,
    /// Every `launch_steps` steps every chain's anchor moves to the lowest one when it is lower
    /// than the shared anchor (what a caller does to pool the chains); false: the chains stay
    /// independent and the solve reports the lowest anchor.
    pub share: bool,
    /// When the solve stops: the budget counts steps of every chain, from
    /// [`BasinHopping::start`] (None: no limit; then a time limit or a stop token must end it);
    /// evaluations count the objective's, the starting point's included; the time limit counts
    /// from the solve's start (or from the instant given to [`BasinHopping::solve_since`]); all
    /// are asked between launches, so a solve ends within one launch of them. The checkpoint
    /// holds every chain's anchor, search, step and search length, the step counter and the
    /// best so far ([`BasinHopping::load_state`] continues it), written after a launch when due
    /// and when the solve ends.
    pub stop: Stop,
}

impl Default for BhRun {
    fn default() -> Self {
        BhRun {
            launch_steps: 250,
            share: true,
            stop: Stop::budget(10_000),
        }
    }
}

/// Steps of the first launch of a solve, from which the clock sizes the next ones: one, since a
/// step of many chains on a CPU device can take a large part of a short time limit.
const FIRST_LAUNCH: u64 = 1;

/// What [`BasinHopping::solve`] returns: the best anchor and why the solve ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BhResult {
    pub value: f64,
    pub x: Vec<f64>,
    /// With constraints ([`BasinHopping::with_constraints`]) the best anchor's violation (0:
    /// feasible; the best is then by Deb's rules); 0 without.
    pub violation: f64,
    /// Steps of every chain since [`BasinHopping::start`], launches (as many as the clock made:
    /// not part of the course), evaluations (the starting
    /// point's included).
    pub steps: u64,
    pub launches: u64,
    pub evaluations: u64,
    /// Seconds since the start (of every solve continuing it), and when the best was found.
    pub seconds: f64,
    pub seconds_to_best: f64,
    /// `budget` (its steps), `target`, `time_limit` or `interrupted`.
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
}

/// Every chain's state in the column layout: anchors and their values, search points and their
/// values, steps and search lengths.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Chains {
    x: Vec<f64>,
    fx: Vec<f64>,
    y: Vec<f64>,
    fy: Vec<f64>,
    s: Vec<f64>,
    l: Vec<u32>,
    /// With constraints, the anchors' and the searches' violations (empty without).
    #[serde(default)]
    vx: Vec<f64>,
    #[serde(default)]
    vy: Vec<f64>,
}

/// A solve under way since [`BasinHopping::start`]: what it has found and taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Course {
    /// The best anchor so far and its point.
    best: f64,
    x: Vec<f64>,
    /// The anchor every chain shares (`BhRun::share`).
    anchor: f64,
    /// With constraints, the violations of the best and of the shared anchor.
    #[serde(default)]
    best_v: f64,
    #[serde(default)]
    anchor_v: f64,
    steps: u64,
    launches: u64,
    seconds: f64,
    to_best: f64,
}

/// What a checkpoint holds. Every random word is keyed by (seed, step, chain), so the step
/// counter is the whole random state.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct BhState {
    chains: Chains,
    step: u64,
    evaluations: u64,
    course: Course,
}

/// Chains of basin hopping over a box, on the device or on the CPU.
pub struct BasinHopping {
    dims: usize,
    chains: usize,
    lo: Vec<f64>,
    hi: Vec<f64>,
    p: BhParams,
    hops: Vec<f64>,
    up: f64,
    down: f64,
    step: u64,
    evaluations: u64,
    engine: Engine,
    /// The objective as a checkpoint's header names it.
    problem: String,
    /// The solve under way since the last start (None: no start yet).
    course: Option<Course>,
    /// The constraints (Deb's rules), if any.
    cons: Option<Constraints>,
}

enum Engine {
    Device(Box<DeviceBh>),
    Cpu(Box<CpuBh>),
}

impl BasinHopping {
    /// Chains over the box `lo`..`hi` (one interval per dimension) of `objective`. Errors name
    /// the argument: `lo`/`hi` (lengths, order, finiteness), `objective` (its dimensions), a
    /// parameter of [`BhParams`], `backend` (a user source on the CPU), `double` (a device
    /// without `cl_khr_fp64`).
    pub fn new(
        objective: &Objective,
        lo: &[f64],
        hi: &[f64],
        p: &BhParams,
        backend: Backend,
    ) -> Result<Self> {
        Self::with_constraints(objective, None, lo, hi, p, backend)
    }

    /// [`BasinHopping::new`] with constraints, compared by Deb's feasibility rules (the
    /// epsilon level is island DE's): a source objective's OpenCL `constraints` on a device, a
    /// host callback's violation callback on the CPU backend (`de::constraints`). Every step
    /// moves the search to a trial no worse, an ended search replaces the anchor when better,
    /// the best is the best feasible anchor, else the least violation.
    pub fn with_constraints(
        objective: &Objective,
        cons: Option<&Constraints>,
        lo: &[f64],
        hi: &[f64],
        p: &BhParams,
        backend: Backend,
    ) -> Result<Self> {
        if let Some(c) = cons {
            c.check()?;
            if c.handling != Handling::Deb {
                return Err(Error::arg(
                    "constraints",
                    "basin hopping compares by Deb's feasibility rules; the epsilon level is island DE's",
                ));
            }
            match (objective, &c.violation) {
                (Objective::Callback(_), Some(_)) | (Objective::Source { .. }, None) => {}
                _ => {
                    return Err(Error::arg(
                        "constraints",
                        "a source objective's OpenCL constraints (counts) or a host callback objective's violation callback",
                    ))
                }
            }
        }
        let dims = lo.len();
        if dims == 0 || hi.len() != dims {
            return Err(Error::arg(
                "hi",
                format!(
                    "{} upper ends for {dims} lower ends (at least one)",
                    hi.len()
                ),
            ));
        }
        if let Some(j) =
            (0..dims).find(|&j| !(lo[j].is_finite() && hi[j].is_finite() && lo[j] < hi[j]))
        {
            return Err(Error::arg(
                "lo",
                format!(
                    "dimension {j}: [{}, {}] is not a finite interval with lo < hi",
                    lo[j], hi[j]
                ),
            ));
        }
        objective.check_dims(dims)?;
        p.check()?;
        let device = match backend {
            Backend::Cpu => None,
            Backend::Device(_) => Some(backend.context("basin hopping")?),
        };
        Self::footprint(dims, p, device.is_some()).check(
            "chains",
            "basin hopping",
            device.as_ref().map(|c| &c.info),
        )?;
        let hops = p.hops();
        let engine = match backend {
            Backend::Cpu => Engine::Cpu(Box::new(CpuBh::new(objective, cons, dims, p.chains)?)),
            Backend::Device(_) => Engine::Device(Box::new(DeviceBh::new(
                objective, cons, lo, hi, &hops, p, backend,
            )?)),
        };
        let d = dims as f64;
        let problem = {
            let bounds: Vec<u8> = lo.iter().chain(hi).flat_map(|v| v.to_le_bytes()).collect();
            let (what, code, data): (String, &[u8], &[u8]) = match objective {
                Objective::Catalogue { name } => (format!("catalogue {name}"), &[], &[]),
                Objective::Source { code, data } => ("a source".into(), code.as_bytes(), data),
                // a host function has no fingerprint: the caller answers for it
                Objective::Callback(_) => ("a host callback".into(), &[], &[]),
            };
            let with = match cons {
                Some(c) => format!(
                    ", constraints {} + {} (tolerance {:e})",
                    c.inequalities, c.equalities, c.eq_tol
                ),
                None => String::new(),
            };
            checkpoint::fingerprint(
                "box",
                &format!("{what}, {dims} dimensions{with}"),
                &[&bounds, code, data],
            )
        };
        Ok(BasinHopping {
            problem,
            course: None,
            cons: cons.cloned(),
            dims,
            chains: p.chains,
            lo: lo.to_vec(),
            hi: hi.to_vec(),
            p: p.clone(),
            hops,
            up: (0.8 / d).exp(),
            down: (-0.2 / d).exp(),
            step: 0,
            evaluations: 0,
            engine,
        })
    }

    /// What chains of `p` over `dims` dimensions hold at their peak: on the CPU backend the
    /// columns (anchors, search points, their values, steps, search lengths) and the chain-major
    /// copies a launch works on; on a device its buffers in `p`'s precision, and on the host the
    /// columns read back for a checkpoint.
    pub fn footprint(dims: usize, p: &BhParams, on_device: bool) -> Footprint {
        let (d, c) = (dims as u64, p.chains as u64);
        let mut f = Footprint::default();
        // two points (anchor, search) and per chain three numbers and a search length
        let per_chain = |fp: u64| bytes(&[2, d, fp]).saturating_add(3 * fp + 4);
        if on_device {
            let fp = if p.double { 8 } else { 4 };
            f.device(&[c, d, fp])
                .device(&[c, d, fp])
                .device(&[c, 3 * fp + 4]);
            f.host(&[c, per_chain(8)]);
        } else {
            f.host(&[c, per_chain(8), 2]);
        }
        f
    }

    /// Every chain starts anew from `x` (its value `fx`, or evaluated when None): the anchor
    /// and the search at `x`, the search over, so the next step hops. A [`solve`](Self::solve)
    /// counts its steps, time and best from here.
    pub fn start(&mut self, x: &[f64], fx: Option<f64>) -> Result<()> {
        let (cols, f, v) = self.columns(x, fx)?;
        self.course = Some(Course {
            best: f,
            x: x.to_vec(),
            anchor: f,
            best_v: v,
            anchor_v: v,
            steps: 0,
            launches: 0,
            seconds: 0.0,
            to_best: 0.0,
        });
        let chains = self.chains;
        let vs = if self.cons.is_some() {
            vec![v; chains]
        } else {
            Vec::new()
        };
        match &mut self.engine {
            Engine::Cpu(c) => {
                c.x.clone_from(&cols);
                c.y = cols;
                c.fx = vec![f; chains];
                c.fy = vec![f; chains];
                c.vx.clone_from(&vs);
                c.vy = vs;
                c.s = vec![0.0; chains];
                c.l = vec![0; chains];
            }
            Engine::Device(d) => d.start(&cols, f, v, chains)?,
        }
        Ok(())
    }

    /// Every chain's anchor becomes `x` (its value `fx`, or evaluated when None); the searches
    /// under way go on and are compared with it when they end. What a caller does to share the
    /// best anchor among the chains.
    pub fn anchor(&mut self, x: &[f64], fx: Option<f64>) -> Result<()> {
        let (cols, f, v) = self.columns(x, fx)?;
        self.anchor_at(cols, f, v)
    }

    fn anchor_at(&mut self, cols: Vec<f64>, f: f64, v: f64) -> Result<()> {
        let chains = self.chains;
        let constrained = self.cons.is_some();
        match &mut self.engine {
            Engine::Cpu(c) => {
                c.x = cols;
                c.fx = vec![f; chains];
                if constrained {
                    c.vx = vec![v; chains];
                }
            }
            Engine::Device(d) => d.anchor(&cols, f, v, chains)?,
        }
        Ok(())
    }

    /// `x` checked, repeated for every chain in the column layout, its value and (with
    /// constraints) its violation.
    fn columns(&mut self, x: &[f64], fx: Option<f64>) -> Result<(Vec<f64>, f64, f64)> {
        let f = self.value_at(x, fx)?;
        let v = self.violation_at(x)?;
        Ok((self.repeated(x), f, v))
    }

    /// `x` repeated for every chain in the column layout.
    fn repeated(&self, x: &[f64]) -> Vec<f64> {
        (0..self.dims)
            .flat_map(|j| std::iter::repeat_n(x[j], self.chains))
            .collect()
    }

    /// The violation of `x` (checked by `value_at`): 0 without constraints.
    fn violation_at(&self, x: &[f64]) -> Result<f64> {
        let Some(c) = &self.cons else {
            return Ok(0.0);
        };
        let v = match &self.engine {
            Engine::Cpu(e) => e.violation(x)?,
            Engine::Device(d) => d.violation(x, c)?,
        };
        Ok(constraints::sanitized(v))
    }

    fn value_at(&mut self, x: &[f64], fx: Option<f64>) -> Result<f64> {
        if x.len() != self.dims {
            return Err(Error::arg(
                "x",
                format!("{} values for {} dimensions", x.len(), self.dims),
            ));
        }
        if let Some(j) = (0..self.dims).find(|&j| !(x[j] >= self.lo[j] && x[j] <= self.hi[j])) {
            return Err(Error::arg(
                "x",
                format!(
                    "component {j} = {} is outside [{}, {}]",
                    x[j], self.lo[j], self.hi[j]
                ),
            ));
        }
        let f = match fx {
            Some(f) => f,
            None => {
                self.evaluations += 1;
                match &self.engine {
                    Engine::Cpu(c) => c.eval(x)?,
                    Engine::Device(d) => d.eval(x)?,
                }
            }
        };
        Ok(if f.is_finite() { f } else { f64::INFINITY })
    }

    /// `steps` steps of every chain (one evaluation each).
    pub fn run(&mut self, steps: u32) -> Result<()> {
        let k = StepArgs {
            step0: self.step,
            steps,
            up: self.up,
            down: self.down,
        };
        match &mut self.engine {
            Engine::Cpu(c) => c.run(&self.lo, &self.hi, &self.hops, &self.p, &k)?,
            Engine::Device(d) => d.run(&self.p, &k)?,
        }
        self.step += steps as u64;
        self.evaluations += steps as u64 * self.chains as u64;
        Ok(())
    }

    /// The lowest anchor (ties to the lowest chain): its value and point. With constraints the
    /// best by Deb's rules ([`BasinHopping::best_point`] gives its violation too).
    pub fn best(&self) -> Result<(f64, Vec<f64>)> {
        let (f, _, x) = self.best_point()?;
        Ok((f, x))
    }

    /// The best anchor's value, violation (0 without constraints) and point.
    pub fn best_point(&self) -> Result<(f64, f64, Vec<f64>)> {
        let (fx, x) = match &self.engine {
            Engine::Cpu(c) => (c.fx.clone(), c.x.clone()),
            Engine::Device(d) => d.read()?,
        };
        let vx = self.anchor_violations()?;
        let v = |c: usize| vx.as_ref().map_or(0.0, |v| v[c]);
        let c = (0..self.chains).fold(0, |b, c| {
            if constraints::better(fx[c], v(c), fx[b], v(b), 0.0) {
                c
            } else {
                b
            }
        });
        Ok((
            fx[c],
            v(c),
            (0..self.dims).map(|j| x[j * self.chains + c]).collect(),
        ))
    }

    /// Every chain's anchor value (on a device, the values alone are read).
    pub fn anchors(&self) -> Result<Vec<f64>> {
        match &self.engine {
            Engine::Cpu(c) => Ok(c.fx.clone()),
            Engine::Device(d) => d.values(),
        }
    }

    /// With constraints, every chain's anchor violation; `None` without.
    fn anchor_violations(&self) -> Result<Option<Vec<f64>>> {
        if self.cons.is_none() {
            return Ok(None);
        }
        match &self.engine {
            Engine::Cpu(c) => Ok(Some(c.vx.clone())),
            Engine::Device(d) => d.violations().map(Some),
        }
    }

    /// Evaluations so far (the chains' steps and the starting points evaluated here).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Chains side by side.
    pub fn chains(&self) -> usize {
        self.chains
    }

    /// Steps so far (every chain has taken each).
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Runs the chains from where [`start`](Self::start) (or [`load_state`](Self::load_state),
    /// or an earlier solve) left them until `run` stops them, sharing the lowest anchor after
    /// every launch when `run.share`; returns the best anchor with its stop reason.
    pub fn solve(&mut self, run: &BhRun) -> Result<BhResult> {
        self.solve_since(run, Instant::now())
    }

    /// [`solve`](Self::solve) with the time limit counted from `start` (a caller whose limit
    /// covers more than the solve passes its own start). A continued solve's clock also counts
    /// the seconds the solve had taken before.
    pub fn solve_since(&mut self, run: &BhRun, start: Instant) -> Result<BhResult> {
        self.solve_observed(run, start, |_| true)
    }

    /// [`solve_since`](Self::solve_since), reporting to `progress` before every launch and at
    /// the end ([`Progress`]: seconds, steps as the work, evaluations, the best so far); false
    /// from it ends the solve with its best so far, stopped by the budget.
    pub fn solve_observed(
        &mut self,
        run: &BhRun,
        start: Instant,
        progress: impl FnMut(&Progress) -> bool,
    ) -> Result<BhResult> {
        if run.launch_steps == 0 {
            return Err(Error::arg("launch_steps", "0; at least 1"));
        }
        run.stop.check("steps")?;
        let Some(mut course) = self.course.take() else {
            return Err(Error::arg(
                "start",
                "no starting point: call start (or load_state) before solve",
            ));
        };
        // the course stays with the chains whatever happens, an error included
        let r = self.solve_course(run, start, &mut course, progress);
        self.course = Some(course);
        r
    }

    fn solve_course(
        &mut self,
        run: &BhRun,
        start: Instant,
        course: &mut Course,
        progress: impl FnMut(&Progress) -> bool,
    ) -> Result<BhResult> {
        let start = checkpoint::resumed_start(start, course.seconds);
        let mut driver = run.stop.driver(start).on_progress(progress);
        let header = run.stop.checkpoint.as_ref().map(|_| self.header(run));
        let mut schedule = Schedule::new(run.stop.checkpoint.as_ref());
        let stop = loop {
            // a target counts a feasible best only
            let best = if course.best_v == 0.0 {
                course.best
            } else {
                f64::INFINITY
            };
            if let Some(why) = driver.check(course.steps, self.evaluations, best) {
                break why;
            }
            // a launch never crosses a multiple of `launch_steps`, where the shares fall, so
            // they fall on the same steps however the clock sizes the launches and however the
            // solve was split; the clock ends a launch sooner when the time left is short
            let every = u64::from(run.launch_steps);
            let mut k = every - course.steps % every;
            if let Some(b) = run.stop.budget {
                k = k.min(b - course.steps);
            }
            let k = driver.next_size(FIRST_LAUNCH.min(k), k, course.steps);
            driver.step(k, |k| self.run(k as u32))?;
            course.steps += k;
            course.launches += 1;
            let share = run.share && course.steps.is_multiple_of(every);
            // the anchors' values alone, their points only when one is lower (than the shared
            // anchor at a share, else than the best, which is never above it); with constraints
            // by Deb's rules
            let (bar, bar_v) = if share {
                (course.anchor, course.anchor_v)
            } else {
                (course.best, course.best_v)
            };
            let lower = match self.anchor_violations()? {
                None => self.anchors()?.into_iter().fold(f64::INFINITY, f64::min) < bar,
                Some(vx) => {
                    let fx = self.anchors()?;
                    (0..fx.len()).any(|c| constraints::better(fx[c], vx[c], bar, bar_v, 0.0))
                }
            };
            if lower {
                let (f, v, x) = self.best_point()?;
                if share {
                    // every chain continues from the lowest anchor
                    let cols = self.repeated(&x);
                    self.anchor_at(cols, f, v)?;
                    course.anchor = f;
                    course.anchor_v = v;
                }
                if constraints::better(f, v, course.best, course.best_v, 0.0) {
                    course.best = f;
                    course.best_v = v;
                    course.x = x;
                    course.to_best = driver.elapsed();
                }
            }
            if schedule.due() {
                course.seconds = driver.elapsed();
                let h = header.as_ref().expect("a checkpoint plan");
                let bytes = self.state_bytes(h, course)?;
                schedule.write(|| Ok(bytes))?;
            }
        };
        course.seconds = driver.elapsed();
        // the solve's end, whatever ended it, is a checkpoint: a larger budget continues it
        if let Some(h) = &header {
            let bytes = self.state_bytes(h, course)?;
            schedule.write(|| Ok(bytes))?;
        }
        Ok(BhResult {
            value: course.best,
            violation: course.best_v,
            x: course.x.clone(),
            steps: course.steps,
            launches: course.launches,
            evaluations: self.evaluations,
            seconds: course.seconds,
            seconds_to_best: course.to_best,
            stop: if run
                .stop
                .target
                .is_some_and(|t| course.best <= t && course.best_v == 0.0)
            {
                StopReason::Target
            } else {
                stop
            },
        })
    }

    /// What a checkpoint of these chains is checked against: the objective and the box, and the
    /// parameters and run options that shape the course (not the stops: a continued solve may
    /// have more steps, another target or time limit). The backend is not part of it: the device
    /// and the CPU twin take the same steps in double.
    fn header(&self, run: &BhRun) -> Header {
        let p = &self.p;
        Header::new("basin_hopping", self.problem.clone())
            .option("chains", p.chains)
            .option("hop_min", format!("{:?}", p.hop_min))
            .option("hop_max", format!("{:?}", p.hop_max))
            .option("hop_scales", p.hop_scales)
            .option("step0", format!("{:?}", p.step0))
            .option("step_stop", format!("{:?}", p.step_stop))
            .option("max_search", p.max_search)
            .option("seed", p.seed)
            .option("double", p.double)
            .option("launch_steps", run.launch_steps)
            .option("share", run.share)
    }

    fn state_bytes(&self, header: &Header, course: &Course) -> Result<Vec<u8>> {
        let chains = match &self.engine {
            Engine::Cpu(c) => Chains {
                x: c.x.clone(),
                fx: c.fx.clone(),
                y: c.y.clone(),
                fy: c.fy.clone(),
                s: c.s.clone(),
                l: c.l.clone(),
                vx: c.vx.clone(),
                vy: c.vy.clone(),
            },
            Engine::Device(d) => d.chains()?,
        };
        checkpoint::encode(
            header,
            &BhState {
                chains,
                step: self.step,
                evaluations: self.evaluations,
                course: course.clone(),
            },
        )
    }

    /// The whole state (every chain, the step and evaluation counters, the solve's best, steps,
    /// launches and seconds) as checkpoint bytes for a solve with options `run`, from which
    /// [`load_state`](Self::load_state) continues it. An error before [`start`](Self::start).
    pub fn save_state(&self, run: &BhRun) -> Result<Vec<u8>> {
        let Some(course) = &self.course else {
            return Err(Error::arg(
                "state",
                "no start on these chains: nothing to save",
            ));
        };
        self.state_bytes(&self.header(run), course)
    }

    /// Puts the chains, the counters and the solve's course back as checkpoint `bytes` (of
    /// [`save_state`](Self::save_state) or a checkpoint file) holds them, so that the next
    /// [`solve`](Self::solve) with options `run` continues the saved solve as if it had never
    /// stopped. Errors name `state` and say what differs (the objective, the box, a parameter,
    /// `launch_steps` or `share`), or that the file is damaged.
    pub fn load_state(&mut self, bytes: &[u8], run: &BhRun) -> Result<()> {
        let st: BhState = checkpoint::decode(bytes, &self.header(run), "state")?;
        let (n, c) = (self.dims * self.chains, self.chains);
        let ch = &st.chains;
        if ch.x.len() != n
            || ch.y.len() != n
            || ch.fx.len() != c
            || ch.fy.len() != c
            || ch.s.len() != c
            || ch.l.len() != c
            || ch.vx.len() != if self.cons.is_some() { c } else { 0 }
            || ch.vy.len() != ch.vx.len()
            || st.course.x.len() != self.dims
        {
            return Err(Error::arg(
                "state",
                "a corrupt checkpoint: its chains do not match its options",
            ));
        }
        match &mut self.engine {
            Engine::Cpu(e) => {
                e.x.clone_from(&ch.x);
                e.fx.clone_from(&ch.fx);
                e.y.clone_from(&ch.y);
                e.fy.clone_from(&ch.fy);
                e.s.clone_from(&ch.s);
                e.l.clone_from(&ch.l);
                e.vx.clone_from(&ch.vx);
                e.vy.clone_from(&ch.vy);
            }
            Engine::Device(d) => d.set_chains(ch)?,
        }
        self.step = st.step;
        self.evaluations = st.evaluations;
        self.course = Some(st.course);
        Ok(())
    }
}

struct StepArgs {
    step0: u64,
    steps: u32,
    up: f64,
    down: f64,
}
