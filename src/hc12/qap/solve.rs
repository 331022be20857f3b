//! The iterated use of the qapswap2 solver: runs from a start, then rebasing (base := best
//! permutation, string := zeros) while that improves, and restarts from a random permutation and
//! a random string when it does not, until the [`Stop`] ends it (its budget counts runs). The
//! loop is the engine's (`src/hc12/restarts.rs`); this file holds the QAP's start policy and
//! its checkpoints.

use super::IterState;
use super::QapHc12;
use crate::error::{Error, Result};
use crate::hc12::climb::Climb;
use crate::hc12::restarts::{resumable_restarts, Checkpoints, Resumable, RunReport};
use crate::interrupt::StopReason;
use crate::problem::qap::{check_perm, gilmore_lawler, lower_bound, Cost, LowerBound, QapInstance};
use crate::rng::Philox;
use crate::run::checkpoint::{self, Header};
use crate::run::Stop;
use serde::Serialize;

/// Where the first run starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Start {
    #[default]
    Random,
    Identity,
    /// The optimal assignment of the Gilmore-Lawler bound's linear assignment problem.
    Glb,
    /// Projected from the eigenvalue bound (thesis Table 5's "HRW"; `problem::qap::eigen`).
    Hrw,
    /// Projected from the projected eigenvalue bound of Hadley, Rendl and Wolkowicz (Table 5's
    /// "PE", which the thesis calls a semidefinite bound).
    Pe,
    /// Projected from the convex quadratic programming bound of Anstreicher and Brixius (Table
    /// 5's "AB").
    Ab,
    Given(Vec<usize>),
}

impl Start {
    /// The named starts: every one but a given permutation.
    pub const NAMED: [Start; 6] = [
        Start::Random,
        Start::Identity,
        Start::Glb,
        Start::Hrw,
        Start::Pe,
        Start::Ab,
    ];

    /// The start's name in the outputs and on the command line ("given" for a permutation).
    pub fn name(&self) -> &'static str {
        match self {
            Start::Random => "random",
            Start::Identity => "identity",
            Start::Glb => "glb",
            Start::Hrw => "hrw",
            Start::Pe => "pe",
            Start::Ab => "ab",
            Start::Given(_) => "given",
        }
    }

    /// The named start of `name` (any case), if there is one.
    pub fn from_name(name: &str) -> Option<Start> {
        Start::NAMED
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// The lower bound a start is projected from (GLB, HRW, PE, AB), if any.
    pub fn bound(&self) -> Option<LowerBound> {
        match self {
            Start::Glb => Some(LowerBound::Glb),
            Start::Hrw => Some(LowerBound::Hrw),
            Start::Pe => Some(LowerBound::Pe),
            Start::Ab => Some(LowerBound::Ab),
            _ => None,
        }
    }

    /// The start projected from `kind`.
    pub fn from_bound(kind: LowerBound) -> Start {
        match kind {
            LowerBound::Glb => Start::Glb,
            LowerBound::Hrw => Start::Hrw,
            LowerBound::Pe => Start::Pe,
            LowerBound::Ab => Start::Ab,
        }
    }
}

/// What follows a run that has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RestartMode {
    /// Rebase on the best permutation while rebasing improves it, else a random restart.
    #[default]
    Rebase,
    /// Always a new random permutation.
    Random,
}

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct QapSolveOptions {
    /// The stop: its budget counts runs (each one HC12 climb; None: no cap), time limit, target
    /// cost, stop token, checkpoint plan.
    pub stop: Stop,
    pub seed: u64,
    pub start: Start,
    pub restart: RestartMode,
}

impl Default for QapSolveOptions {
    fn default() -> Self {
        QapSolveOptions {
            stop: Stop::budget(100),
            seed: 1,
            start: Start::Random,
            restart: RestartMode::Rebase,
        }
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug, Serialize)]
pub struct QapSolveResult {
    pub cost: Cost,
    /// Best permutation, 0-based.
    pub permutation: Vec<usize>,
    pub runs: u32,
    /// Iterations over all runs.
    pub iterations: u64,
    /// Iterations of the run that found the best.
    pub best_run_iterations: u32,
    /// Rows evaluated over all runs.
    pub evaluations: u64,
    pub seconds: f64,
    /// Seconds until the best was first found.
    pub seconds_to_best: f64,
    pub target_reached: bool,
    /// Why the search ended.
    #[serde(rename = "stopped_by")]
    pub stop: StopReason,
}

/// Defined with the QAP instances; named here for one more release.
pub use crate::problem::qap::gap_percent;

/// Runs the iterated HC12 on `solver`. `instance` is needed only for the starts projected from a
/// lower bound (GLB, HRW, PE, AB). After [`QapHc12::load_state`] the solve continues the saved
/// one.
pub fn solve(
    solver: &mut QapHc12,
    opts: &QapSolveOptions,
    instance: Option<&QapInstance>,
    progress: impl FnMut(&RunReport<Cost>),
) -> Result<QapSolveResult> {
    let n = solver.problem().n;
    crate::hc12::restarts::check(&opts.stop, "runs")?;
    if let Start::Given(p) = &opts.start {
        check_perm(p, n, "start permutation")?;
    }
    let header = solver.header(opts);
    let zero = solver.zero_string();
    let (n_param, nbit) = (
        solver.neighbourhood().n_param as usize,
        solver.neighbourhood().nbit,
    );
    // A random start is a random base and a random string: from the zero string only swaps
    // with an end at a position whose Gray code has one or two bits set are one move away, so
    // climbs from it end within a few iterations; a random swap list makes every position
    // reachable (the thesis's runs, whose success grows with the number of swaps).
    let random_string = move |rng: &mut Philox| -> Vec<u32> {
        (0..n_param)
            .map(|_| {
                if nbit == 32 {
                    rng.next_u32()
                } else {
                    rng.next_u32() & ((1u32 << nbit) - 1)
                }
            })
            .collect()
    };
    let tabu = solver.tabu_config().cloned();
    let max_iterations = solver.max_iterations;
    // stream 0 of the seed gives the random starts, in order (the course keeps its position)
    let out = resumable_restarts(
        solver,
        &opts.stop,
        max_iterations,
        tabu.as_ref(),
        header,
        opts.seed,
        |_, _, last: Option<&Climb<IterState, Cost>>, rng: &mut Philox| {
            Ok(match last {
                None => {
                    let base = match &opts.start {
                        Start::Random => rng.permutation(n),
                        Start::Identity => (0..n).collect(),
                        Start::Given(p) => {
                            check_perm(p, n, "start permutation")?;
                            p.clone()
                        }
                        Start::Glb => {
                            let inst = instance.ok_or_else(|| {
                                Error::arg("start", "the GLB start needs the instance's matrices (a QAPLIB instance)")
                            })?;
                            gilmore_lawler(inst).1
                        }
                        Start::Hrw | Start::Pe | Start::Ab => {
                            let kind = opts.start.bound().unwrap_or(LowerBound::Glb);
                            let inst = instance.ok_or_else(|| {
                                Error::arg(
                                    "start",
                                    format!("the {} start needs the instance's matrices (a QAPLIB instance)", kind.name().to_uppercase()),
                                )
                            })?;
                            lower_bound(inst, kind).permutation
                        }
                    };
                    let k = if opts.start == Start::Random {
                        random_string(rng)
                    } else {
                        zero.clone()
                    };
                    (base, k)
                }
                // a run that moved found a better permutation than its base: its neighbourhood
                // seen from the new base is a fresh one, worth climbing; a run that did not move
                // is stuck there
                Some(last) if opts.restart == RestartMode::Rebase && last.iterations > 1 => (
                    last.best.cur.iter().map(|&v| v as usize).collect(),
                    zero.clone(),
                ),
                Some(_) => (rng.permutation(n), random_string(rng)),
            })
        },
        progress,
    )?;
    Ok(QapSolveResult {
        cost: out.value,
        permutation: out.best.cur.iter().map(|&v| v as usize).collect(),
        runs: out.course.runs,
        iterations: out.course.iterations,
        best_run_iterations: out.course.best_run_iterations,
        evaluations: out.course.evaluations,
        seconds: out.course.seconds,
        seconds_to_best: out.course.seconds_to_best,
        target_reached: out.target_reached(),
        stop: out.stop,
    })
}

impl Resumable for QapHc12 {
    fn checkpoints(&mut self) -> &mut Checkpoints<IterState, Cost> {
        &mut self.checkpoints
    }
}

impl QapHc12 {
    /// What a checkpoint of a solve with `opts` on this solver is checked against: the
    /// problem's fingerprint, the string's shape (swaps, bits, mask order, window), the
    /// iteration cap and tabu list, and the options that shape the course (seed, start,
    /// restart mode). Not the stops: a continued solve may have more runs or time.
    fn header(&self, opts: &QapSolveOptions) -> Header {
        let p = self.problem();
        let n = p.n;
        let (a, b) = p.data.bytes();
        let nb = self.neighbourhood();
        let start = match &opts.start {
            Start::Given(perm) => format!("given {perm:?}"),
            s => s.name().to_string(),
        };
        Header::new(
            "qap_hc12",
            checkpoint::fingerprint(
                "QAP",
                &format!("n={n}, {} slices, {:?}", p.slices, p.elem_type()),
                &[a, b],
            ),
        )
        .option("swaps", self.swaps())
        .option("n_bit_param", nb.nbit)
        .option("mask_order", nb.mask_order)
        .option("window", format!("{}+{}", nb.start_bit, nb.bit_length))
        .option("max_iterations", self.max_iterations)
        .option("tabu", format!("{:?}", self.tabu_config()))
        .option("seed", opts.seed)
        .option("start", start)
        .option("restart", format!("{:?}", opts.restart))
    }

    /// The last solve's whole state (runs made, counters, the best and every run's figures,
    /// the last run, the random restarts' position, the seconds taken) as checkpoint bytes,
    /// from which [`load_state`](Self::load_state) continues it. The state is taken between
    /// runs: a run cut short is not in it (a continued solve climbs it again).
    pub fn save_state(&self) -> Result<Vec<u8>> {
        self.checkpoints
            .save("no solve has run on this solver: nothing to save")
    }

    /// The next [`solve`] with options `opts` continues the search that checkpoint `bytes` (of
    /// [`save_state`](Self::save_state) or a checkpoint file) holds, and ends as that search
    /// would have with the same seed and stop. Errors name `state` and say what differs (the
    /// problem, the string's shape, an option) or that the file is damaged.
    pub fn load_state(&mut self, bytes: &[u8], opts: &QapSolveOptions) -> Result<()> {
        let n = self.problem().n;
        let params = self.neighbourhood().n_param as usize;
        let header = self.header(opts);
        self.checkpoints.load(bytes, &header, |b: &IterState| {
            b.cur.len() == n && b.base.len() == n && b.k.len() == params
        })
    }

    /// Checks now what can be checked of a state before the solve that continues it: its
    /// frame, library version, solver and problem (the options when the solve starts). Errors
    /// name `arg`.
    pub fn check_state(&self, bytes: &[u8], arg: &'static str) -> Result<()> {
        checkpoint::check_problem(bytes, &self.header(&QapSolveOptions::default()), arg).map(|_| ())
    }
}
