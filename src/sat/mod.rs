//! SAT local search with HC12 (docs/SAT.md; thesis 000, 5.3.3): the string is the assignment, one
//! bit per variable; mask order 1 flips one variable (the GSAT neighbourhood), 2 flips two. The
//! objective, the number of unsatisfied clauses, is evaluated incrementally on the device (only the
//! clauses of the flipped variables change: `sat_hc12_eval` in `cl/sat.cl`), the tabu list keeps the
//! walk from cycling on plateaus, and runs restart from random assignments. Every model is checked
//! against the original clauses on the host before it is reported.

use crate::device::{ProgramSpec, cl_error, work_group_size, Backend, DeviceBuffer, Queue};
use crate::error::{Error, Result};
use crate::hc12::tabu::{tabu_options, DeviceTabu, TabuConfig};
use crate::hc12::{enqueue_argmin, Neighbourhood};
use crate::problem::sat::{Assignment, ClauseCounts, Cnf, Model, Occurrences};
use crate::rng::Philox;
use crate::sateval::sat_options;
use opencl3::kernel::{ExecuteKernel, Kernel};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Options of [`SatSolver::solve`].
#[derive(Clone, Debug)]
pub struct SatOptions {
    /// 1: flips of one variable; 2: also every pair.
    pub mask_order: u32,
    /// The tabu list (None: plain HC12, which stops at the first local optimum of each run).
    pub tabu: Option<TabuConfig>,
    /// Iterations a flipped variable stays put (0: off), unless flipping it beats the run's best:
    /// the variable tenure of tabu search for SAT, which the list of whole assignments cannot
    /// give (it only forbids exact revisits, so the walk cycles on plateaus).
    pub tenure: u32,
    pub seed: u64,
    /// Most runs (restarts); 0 = until the time limit.
    pub runs: u32,
    pub time_limit: Option<Duration>,
}

impl Default for SatOptions {
    fn default() -> Self {
        // measured on uf75 (PoCL): a long list with early restarts solved every seed tried, where
        // 50 strings and 2,000 iterations without improvement left some at one clause
        let mut tabu = TabuConfig::new(500).expect("a valid length");
        tabu.max_iterations = 100_000;
        tabu.max_no_improve = 300;
        SatOptions { mask_order: 1, tabu: Some(tabu), tenure: DEFAULT_TENURE, seed: 1, runs: 0, time_limit: Some(Duration::from_secs(10)) }
    }
}

/// The default variable tenure.
pub const DEFAULT_TENURE: u32 = 10;

/// The result of [`SatSolver::solve`].
#[derive(Clone, Debug, Serialize)]
pub struct SatResult {
    /// A model, verified against every clause.
    #[serde(skip)]
    pub model: Option<Model>,
    pub satisfiable: bool,
    /// The fewest unsatisfied clauses seen (0 with a model).
    pub best_unsatisfied: u32,
    /// The best assignment seen.
    #[serde(skip)]
    pub best: Assignment,
    pub runs: u32,
    pub iterations: u64,
    pub evaluations: u64,
    pub seconds: f64,
}

/// HC12 over one formula on one device.
pub struct SatSolver {
    cnf: Cnf,
    occ: Occurrences,
    nb: Neighbourhood,
    queue: Queue,
    eval: Kernel,
    argmin: Kernel,
    tabu: Option<DeviceTabu>,
    tabu_len: usize,
    wg: usize,
    wg2: usize,
    groups: usize,
    offsets: DeviceBuffer<u32>,
    literals: DeviceBuffer<u8>,
    occ_off: DeviceBuffer<u32>,
    occ_clauses: DeviceBuffer<u32>,
    x: DeviceBuffer<u32>,
    counts: DeviceBuffer<u32>,
    group_best: DeviceBuffer<u64>,
    out: DeviceBuffer<u64>,
    no_tabu: DeviceBuffer<u32>,
    until: DeviceBuffer<u32>,
}

impl SatSolver {
    /// Uploads `cnf` to the device in use (or `device`) with the neighbourhood of `mask_order`
    /// (1 or 2) and room for a tabu list of `tabu_len` strings (0: none).
    pub fn new(cnf: Cnf, mask_order: u32, tabu_len: usize, backend: Backend) -> Result<Self> {
        if cnf.num_vars == 0 || cnf.num_clauses() == 0 {
            return Err(Error::arg("cnf", "the formula has no variables or no clauses"));
        }
        if !(1..=2).contains(&mask_order) {
            return Err(Error::arg("maskOrder", format!("{mask_order}; expected 1 or 2 for SAT")));
        }
        let nb = Neighbourhood::new(cnf.num_vars as u32, 1, mask_order, 0, 0)?;
        let ctx = backend.context("the SAT local search")?;
        let queue = ctx.queue()?;
        let words = cnf.words();
        let opts = format!(
            "{} -DSAT_LOCAL_SEARCH -DFT_KIND=1 -DHC_ROWS={}u -DHC_BITLEN={} -DHC_START=0 -DHC_ORDER={mask_order} -DHC_NBIT=1 {}",
            sat_options(cnf.lit_type()),
            nb.rows,
            nb.bit_length,
            tabu_options(tabu_len.max(1), words)
        );
        let program = ctx.build(&ProgramSpec::files(&["common.cl", "tabu.cl", "hc12.cl", "sat.cl"]).flags(&opts))?;
        let eval = queue.kernel(&program, "sat_hc12_eval")?;
        let argmin = queue.kernel(&program, "hc12_argmin_groups")?;
        let wg = work_group_size(&ctx, &eval, 256);
        let wg2 = work_group_size(&ctx, &argmin, 256);
        let groups = (nb.rows as usize).div_ceil(wg);
        let occ = cnf.occurrences();
        let tabu = if tabu_len > 0 { Some(DeviceTabu::new(&queue, &program, tabu_len, words)?) } else { None };
        Ok(SatSolver {
            offsets: queue.buffer_from(&cnf.offsets, "clause offsets")?,
            literals: queue.buffer_from(&cnf.packed_literals(), "literals")?,
            occ_off: queue.buffer_from(&occ.offsets, "occurrence offsets")?,
            occ_clauses: queue.buffer_from(&occ.clauses, "occurrences")?,
            x: queue.buffer(words, "assignment")?,
            counts: queue.buffer(cnf.num_clauses(), "clause counts")?,
            group_best: queue.buffer(2 * groups, "group_best")?,
            out: queue.buffer(2, "out")?,
            no_tabu: queue.buffer_from(&[0u32; 2], "no tabu")?,
            until: queue.buffer_from(&vec![0u32; cnf.num_vars], "tenure")?,
            cnf,
            occ,
            nb,
            eval,
            argmin,
            tabu,
            tabu_len,
            wg,
            wg2,
            groups,
            queue,
        })
    }

    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    pub fn rows(&self) -> u64 {
        self.nb.rows
    }

    pub fn backend_description(&self) -> String {
        let i = &self.queue.ctx().info;
        format!("device {}: {} ({}, {})", i.index, i.name, i.platform, i.kind.as_str())
    }

    /// The best row for the current state `cc` (uploaded by the caller): (unsatisfied after its
    /// flips, row); a listed row counts as `i64::MAX` when `tabu_check`.
    fn best_row(&mut self, cc: &ClauseCounts, tabu_check: bool, iteration: u32, best: i64) -> Result<(i64, u64)> {
        let (tx, ti, tm) = match &self.tabu {
            Some(t) => (&t.x, t.index(), &t.meta),
            None => (&self.no_tabu, &self.no_tabu, &self.no_tabu),
        };
        let check = (tabu_check && self.tabu.is_some()) as u32;
        let unsat = cc.unsatisfied;
        // SAFETY: the arguments match `sat_hc12_eval`; the buffers outlive the kernel, whose
        // result is read below on the same in-order queue.
        unsafe {
            ExecuteKernel::new(&self.eval)
                .set_arg(self.offsets.cl())
                .set_arg(self.literals.cl())
                .set_arg(self.occ_off.cl())
                .set_arg(self.occ_clauses.cl())
                .set_arg(self.x.cl())
                .set_arg(self.counts.cl())
                .set_arg(&unsat)
                .set_arg(tx.cl())
                .set_arg(ti.cl())
                .set_arg(tm.cl())
                .set_arg(&check)
                .set_arg(self.until.cl())
                .set_arg(&iteration)
                .set_arg(&best)
                .set_arg(self.group_best.cl())
                .set_arg_local_buffer(self.wg * 8)
                .set_arg_local_buffer(self.wg * 4)
                .set_global_work_size(self.groups * self.wg)
                .set_local_work_size(self.wg)
                .enqueue_nd_range(self.queue.cl())
                .map_err(cl_error("clEnqueueNDRangeKernel(sat_hc12_eval)"))?;
        }
        enqueue_argmin(&self.queue, &self.argmin, &self.group_best, self.groups as u32, &self.out, self.wg2, 8)?;
        let mut out = [0u64; 2];
        self.out.read(&self.queue, &mut out)?;
        Ok((out[0] as i64, out[1]))
    }

    /// The best row of the neighbourhood of `a`: (unsatisfied after its flips, row).
    pub fn best_move(&mut self, a: &Assignment) -> Result<(i64, u64)> {
        let cc = ClauseCounts::new(&self.cnf, a.clone());
        self.x.write(&self.queue, cc.assignment.words())?;
        self.counts.write(&self.queue, &cc.counts)?;
        self.until.write(&self.queue, &vec![0u32; self.cnf.num_vars])?;
        self.best_row(&cc, false, 0, i64::MIN)
    }

    /// Runs until a model, the run count or the time limit.
    pub fn solve(&mut self, opts: &SatOptions) -> Result<SatResult> {
        if let Some(t) = &opts.tabu {
            t.check()?;
            if t.max_length != self.tabu_len {
                return Err(Error::arg("tabu", format!("the solver was built for a tabu list of {}, not {}", self.tabu_len, t.max_length)));
            }
        }
        if opts.runs == 0 && opts.time_limit.is_none() {
            return Err(Error::arg("runs", "0 (unlimited) needs a time limit"));
        }
        let t0 = Instant::now();
        let n = self.cnf.num_vars;
        let mut best: Option<Assignment> = None;
        let mut best_unsat = u32::MAX;
        let (mut runs, mut iterations, mut evaluations) = (0u32, 0u64, 0u64);
        let out_of_time = |t0: &Instant| opts.time_limit.is_some_and(|l| t0.elapsed() >= l);
        'runs: loop {
            if (opts.runs > 0 && runs >= opts.runs) || out_of_time(&t0) {
                break;
            }
            let mut rng = Philox::new(opts.seed, runs);
            runs += 1;
            let mut cc = ClauseCounts::new(&self.cnf, Assignment::random(n, &mut rng));
            if let Some(t) = &mut self.tabu {
                t.clear(&self.queue)?;
            }
            let max_iterations = opts.tabu.as_ref().map_or(u32::MAX, |c| c.max_iterations);
            let (mut it, mut no_improve, mut run_best) = (0u32, 0u32, cc.unsatisfied);
            let mut until = vec![0u32; n];
            loop {
                if cc.unsatisfied < best_unsat {
                    best_unsat = cc.unsatisfied;
                    best = Some(cc.assignment.clone());
                }
                if cc.unsatisfied == 0 {
                    break 'runs;
                }
                if it >= max_iterations || out_of_time(&t0) {
                    break;
                }
                self.x.write(&self.queue, cc.assignment.words())?;
                self.counts.write(&self.queue, &cc.counts)?;
                if let Some(t) = &mut self.tabu {
                    // only the assignment moved to is listed
                    t.insert(&self.queue, &self.x, 0)?;
                }
                if opts.tenure > 0 {
                    self.until.write(&self.queue, &until)?;
                }
                let (f, row) = self.best_row(&cc, opts.tabu.is_some(), if opts.tenure > 0 { it } else { u32::MAX }, run_best as i64)?;
                it += 1;
                iterations += 1;
                evaluations += self.nb.rows;
                if row == 0 || f == i64::MAX {
                    break;
                }
                let (bits, h) = self.nb.row_bits(row);
                for &b in &bits[..h] {
                    cc.flip(&self.occ, b as usize + 1);
                    until[b as usize] = it.saturating_add(opts.tenure);
                }
                debug_assert_eq!(cc.unsatisfied as i64, f);
                if cc.unsatisfied < run_best {
                    run_best = cc.unsatisfied;
                    no_improve = 0;
                } else {
                    no_improve += 1;
                    if opts.tabu.as_ref().is_some_and(|c| no_improve >= c.max_no_improve) {
                        break;
                    }
                }
            }
        }
        let best = best.unwrap_or_else(|| Assignment::all_false(n));
        let model = if best_unsat == 0 { Some(Model::verified(&self.cnf, best.clone())?) } else { None };
        Ok(SatResult {
            satisfiable: model.is_some(),
            model,
            best_unsatisfied: best_unsat,
            best,
            runs,
            iterations,
            evaluations,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}
