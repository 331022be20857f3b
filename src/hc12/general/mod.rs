//! The general HC12 solver (thesis 000, 2.2, 5.1.2): parameters of 1 to 32 bits each (binary or
//! Gray coded) mapped to binary, integer or real domains, any objective of the objective contract
//! (a catalogue function, a user's OpenCL source, a host callback), `min` or `max`, restarts, and
//! the tabu list of `tabu.rs`. [`Hc12`] (`device.rs`, its only backend: there is no CPU twin) is
//! the [`Landscape`] the engine climbs (`src/hc12/climb.rs`, `src/hc12/restarts.rs`); the
//! options and results are `params.rs`'s.
//!
//! # One iteration
//!
//! The current string K (one word per parameter) is uploaded. `hc12g_eval` runs one work-item per
//! mask row: it flips the row's 0-3 bits (closed form, `cl/hc12.cl`), decodes only what the
//! objective reads (bits, integers or reals), evaluates the objective (catalogue, user source, or
//! values the host callback wrote after `hc12g_decode`), and calls `hc12_select`, which drops
//! listed rows when the tabu check is on and reduces the group to its best (value, row).
//! `hc12_argmin_groups` reduces the group winners; the host reads 16 bytes (value bits, row).
//! `climb.rs` then applies the row to K (or stops at row 0: a local optimum) and lists K in the
//! tabu list.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | `params` | the problem's shape, codings, sense, starts, options and results |
//! | `device` | the program (`cl/hc12_eval.cl` after the objective), the string's matrices, host callbacks and the row search |

mod device;
mod params;

pub use self::device::Hc12;
pub use self::params::{
    Coding, Domain, Hc12Params, Hc12RunResult, Profile, RunFigures, RunOptions, Sense, StartPoint,
};
use crate::error::{Error, Result};
use crate::hc12::climb::Climb;
use crate::hc12::restarts::{resumable_restarts, Checkpoints, Resumable, RunReport};
use crate::hc12::tabu::TabuConfig;
use crate::hc12::{Landscape, TabuQuery};
use crate::objective::Objective;
use crate::rng::Philox;
use crate::run::checkpoint::{self, Header};

impl Hc12 {
    /// Runs of HC12 (with the tabu list when one is set) until `opts.stop` ends them (its budget
    /// counts runs); the best over all runs. After [`load_state`](Self::load_state), the run
    /// continues the saved search.
    pub fn run(&mut self, opts: &RunOptions) -> Result<Hc12RunResult> {
        self.run_observed(opts, |_| {})
    }

    /// [`Hc12::run`], with `on_run` seeing each run's report (for progress bars).
    pub fn run_observed(
        &mut self,
        opts: &RunOptions,
        on_run: impl FnMut(&RunReport<f64>),
    ) -> Result<Hc12RunResult> {
        if opts.max_iterations == 0 {
            return Err(Error::arg("maxIterations", "0; expected at least 1"));
        }
        crate::hc12::restarts::check(&opts.stop, "nRuns")?;
        self.coding = opts.coding;
        self.sense = opts.sense;
        let tabu = self.tabu.clone();
        let header = self.header(opts);
        let next_start = |s: &mut Self,
                          run: u32,
                          _: Option<&Climb<Vec<u32>, f64>>,
                          _: &mut Philox|
         -> Result<Vec<u32>> {
            // each run's start from a stream of its own
            let mut rng = Philox::new(opts.seed, run);
            Ok(match (&opts.start, run) {
                (StartPoint::Zeros, 0) => vec![0; s.params.n_param as usize],
                (StartPoint::Vector(x), 0) => s.encode(x, opts.coding)?,
                _ => s.random_string(&mut rng),
            })
        };
        let out = resumable_restarts(
            self,
            &opts.stop,
            opts.max_iterations,
            tabu.as_ref(),
            header,
            opts.seed,
            next_start,
            on_run,
        )?;
        if !out.value.is_finite() && out.stop != crate::interrupt::StopReason::Interrupted {
            return Err(Error::NonFiniteObjective(format!(
                "the general HC12 evaluated {} strings in {} runs and none had a finite value",
                out.course.evaluations, out.course.runs
            )));
        }
        let (integers, reals) = self.decode(&out.best, opts.coding);
        Ok(Hc12RunResult {
            value: out.value,
            string: out.best,
            integers,
            reals,
            iterations: out.course.best_run_iterations,
            evaluations: out.course.evaluations,
            seconds: out.course.seconds,
            runs: out
                .course
                .per_run
                .iter()
                .map(|&(value, iterations)| RunFigures { value, iterations })
                .collect(),
            stop: out.stop,
            precision: self.params.precision,
        })
    }
}

impl Hc12 {
    /// What a checkpoint of a run with `opts` is checked against: the objective (a catalogue
    /// function's name, a source's code and data; a host callback by its shape alone), the
    /// parameters (bits, intervals, window, domain, precision), and the options that shape the
    /// course (coding, sense, start, seed, iteration cap, tabu list). Not the stops: a
    /// continued run may have more runs or time.
    fn header(&self, opts: &RunOptions) -> Header {
        let p = &self.params;
        let shape = format!(
            "{} parameters, {} bits, {} rows",
            p.n_param,
            self.nb.string_bits(),
            self.nb.rows
        );
        let problem = match &self.objective {
            Objective::Catalogue { name } => checkpoint::fingerprint(name, &shape, &[]),
            Objective::Source { code, data } => {
                checkpoint::fingerprint("OpenCL source objective", &shape, &[code.as_bytes(), data])
            }
            Objective::Callback(_) => {
                checkpoint::fingerprint("host callback objective", &shape, &[])
            }
        };
        Header::new("hc12", problem)
            .option("bits", format!("{:?}", p.bits))
            .option("bounds", format!("{:?}", p.bounds))
            .option("mask_order", p.mask_order)
            .option(
                "window",
                format!("{}+{}", self.nb.start_bit, self.nb.bit_length),
            )
            .option("domain", format!("{:?}", p.domain))
            .option("precision", format!("{:?}", p.precision))
            .option("coding", format!("{:?}", opts.coding))
            .option("sense", format!("{:?}", opts.sense))
            .option("start", format!("{:?}", opts.start))
            .option("seed", opts.seed)
            .option("max_iterations", opts.max_iterations)
            .option("tabu", format!("{:?}", self.tabu))
    }

    /// The last run's whole state (runs made, counters, the best and every run's figures, the
    /// seconds taken) as checkpoint bytes, from which [`load_state`](Self::load_state)
    /// continues it. The state is taken between runs: a run cut short is not in it (a
    /// continued run climbs it again).
    pub fn save_state(&self) -> Result<Vec<u8>> {
        self.checkpoints
            .save("no run has been made on this solver: nothing to save")
    }

    /// The next [`run`](Self::run) with options `opts` continues the search that checkpoint
    /// `bytes` (of [`save_state`](Self::save_state) or a checkpoint file) holds, and ends as
    /// that search would have with the same seed and stop. Errors name `state` and say what
    /// differs (the objective, a parameter, an option) or that the file is damaged.
    pub fn load_state(&mut self, bytes: &[u8], opts: &RunOptions) -> Result<()> {
        let n = self.params.n_param as usize;
        let header = self.header(opts);
        self.checkpoints
            .load(bytes, &header, |k: &Vec<u32>| k.len() == n)
    }
}

impl Hc12 {
    /// Checks now what can be checked of a state before the run that continues it: its frame,
    /// library version, solver and objective (the options when the run starts). Errors name
    /// `arg`.
    pub fn check_state(&self, bytes: &[u8], arg: &'static str) -> Result<()> {
        checkpoint::check_problem(bytes, &self.header(&RunOptions::default()), arg).map(|_| ())
    }
}

impl Resumable for Hc12 {
    fn checkpoints(&mut self) -> &mut Checkpoints<Vec<u32>, f64> {
        &mut self.checkpoints
    }
}

/// The climb over one string: the value of a row comes from the device (and the host callback),
/// a move flips the row's bits in the host's copy.
impl Landscape for Hc12 {
    type Value = f64;
    type Start = Vec<u32>;
    /// The best string.
    type Best = Vec<u32>;

    fn start_run(&mut self, k: Vec<u32>) -> Result<u64> {
        let (coding, sense) = (self.coding, self.sense);
        self.kernels(coding, sense)?;
        // a non-finite start is the worst value, so that any finite row improves on it
        let v = self.value_of(&k, coding, sense)?;
        self.cur = if v.is_finite() {
            v
        } else if sense == Sense::Max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        self.k = k;
        Ok(self.nb.rows)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        if let Some(k) = self.kernels.as_mut() {
            k.search.set_deadline(deadline);
        }
    }

    fn reset_tabu(&mut self, _cfg: &TabuConfig) -> Result<()> {
        // the list was made with the kernels (`start_run`), for the capacity of `self.tabu`
        match &mut self.kernels {
            Some(k) => k.search.clear_tabu(&self.queue),
            None => Ok(()),
        }
    }

    fn rows(&self) -> u64 {
        self.nb.rows
    }

    fn best_row(&mut self, q: &TabuQuery<f64>) -> Result<(f64, u64)> {
        self.bufs.k.write(&self.queue, &self.k)?;
        if q.insert {
            if let Some(k) = self.kernels.as_mut().filter(|k| k.search.tabu().is_some()) {
                k.search.insert(&self.queue, &self.bufs.k, 0)?;
            }
        }
        let (coding, sense) = (self.coding, self.sense);
        self.evaluate(
            coding,
            sense,
            false,
            q.check,
            q.aspiration.then_some(q.best),
        )
    }

    fn excluded(&self, value: f64, tabu_checked: bool) -> bool {
        tabu_checked && !value.is_finite()
    }

    fn apply_row(&mut self, row: u64, value: f64, _iteration: u32) -> Result<()> {
        let (bits, h) = self.nb.row_bits(row);
        for &b in &bits[..h] {
            self.k[self.bit_param[b as usize] as usize] ^= self.bit_mask[b as usize];
        }
        self.cur = value;
        Ok(())
    }

    fn current(&self) -> f64 {
        self.cur
    }

    fn best_so_far(&self) -> Vec<u32> {
        self.k.clone()
    }

    fn better(&self, a: f64, b: f64) -> bool {
        if self.sense == Sense::Max {
            a > b
        } else {
            a < b
        }
    }

    fn better_than_limit(&self, v: f64, limit: f64) -> bool {
        self.better(v, limit)
    }

    fn as_f64(&self, v: f64) -> f64 {
        v
    }
}
