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

mod cpu;
mod device;

use crate::device::Backend;
use crate::error::{Error, Result};
use crate::objective::Objective;
use cpu::CpuBh;
use device::DeviceBh;

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
}

enum Engine {
    Device(Box<DeviceBh>),
    Cpu(CpuBh),
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
        let hops = p.hops();
        let engine = match backend {
            Backend::Cpu => Engine::Cpu(CpuBh::new(objective, dims, p.chains)?),
            Backend::Device(_) => Engine::Device(Box::new(DeviceBh::new(
                objective, lo, hi, &hops, p, backend,
            )?)),
        };
        let d = dims as f64;
        Ok(BasinHopping {
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

    /// Every chain starts anew from `x` (its value `fx`, or evaluated when None): the anchor
    /// and the search at `x`, the search over, so the next step hops.
    pub fn start(&mut self, x: &[f64], fx: Option<f64>) -> Result<()> {
        let (cols, f) = self.columns(x, fx)?;
        let chains = self.chains;
        match &mut self.engine {
            Engine::Cpu(c) => {
                c.x.clone_from(&cols);
                c.y = cols;
                c.fx = vec![f; chains];
                c.fy = vec![f; chains];
                c.s = vec![0.0; chains];
                c.l = vec![0; chains];
            }
            Engine::Device(d) => d.start(&cols, f, chains)?,
        }
        Ok(())
    }

    /// Every chain's anchor becomes `x` (its value `fx`, or evaluated when None); the searches
    /// under way go on and are compared with it when they end. What a caller does to share the
    /// best anchor among the chains.
    pub fn anchor(&mut self, x: &[f64], fx: Option<f64>) -> Result<()> {
        let (cols, f) = self.columns(x, fx)?;
        let chains = self.chains;
        match &mut self.engine {
            Engine::Cpu(c) => {
                c.x = cols;
                c.fx = vec![f; chains];
            }
            Engine::Device(d) => d.anchor(&cols, f, chains)?,
        }
        Ok(())
    }

    /// `x` checked, repeated for every chain in the column layout, and its value.
    fn columns(&mut self, x: &[f64], fx: Option<f64>) -> Result<(Vec<f64>, f64)> {
        let f = self.value_at(x, fx)?;
        Ok((
            (0..self.dims)
                .flat_map(|j| std::iter::repeat_n(x[j], self.chains))
                .collect(),
            f,
        ))
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

    /// The lowest anchor (ties to the lowest chain): its value and point.
    pub fn best(&self) -> Result<(f64, Vec<f64>)> {
        let (fx, x) = match &self.engine {
            Engine::Cpu(c) => (c.fx.clone(), c.x.clone()),
            Engine::Device(d) => d.read()?,
        };
        let c = (0..self.chains).fold(0, |b, c| if fx[c] < fx[b] { c } else { b });
        Ok((
            fx[c],
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

    /// Evaluations so far (the chains' steps and the starting points evaluated here).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Steps so far (every chain has taken each).
    pub fn steps(&self) -> u64 {
        self.step
    }
}

struct StepArgs {
    step0: u64,
    steps: u32,
    up: f64,
    down: f64,
}
