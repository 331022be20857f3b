//! The SAT HC12's device side: the formula and the clause counts on the device, and the row
//! search of `sat_hc12_eval` (`cl/sat.cl`) through the engine's launcher (`src/hc12/rows.rs`).

use super::SatSolver;
use crate::device::{Backend, ProgramSpec};
use crate::error::{Error, Result};
use crate::hc12::rows::RowSearch;
use crate::hc12::tabu::tabu_defines;
use crate::hc12::Neighbourhood;
use crate::interrupt::Cut;
use crate::problem::sat::{Assignment, ClauseCounts, Cnf, Occurrences};

impl SatSolver {
    /// Uploads `cnf` to the device in use (or `device`) with the neighbourhood of `mask_order`
    /// (1 or 2) and room for a tabu list of `tabu_len` strings (0: none).
    pub fn new(cnf: Cnf, mask_order: u32, tabu_len: usize, backend: Backend) -> Result<Self> {
        Self::new_within(cnf, mask_order, tabu_len, backend, None)
    }

    /// [`SatSolver::new`] under a cut: the clock (of the call that makes the solver and then
    /// solves, so the set-up counts in its limit) and the watch are asked between the set-up's
    /// phases and inside its long loops (a formula of 2^27 variables takes seconds to index and
    /// upload). A cut that comes due is `Error::TimeLimit` (an interrupt:
    /// `Error::Interrupted`) naming the set-up: there is no assignment to report yet.
    pub fn new_within(
        cnf: Cnf,
        mask_order: u32,
        tabu_len: usize,
        backend: Backend,
        cut: Option<&Cut>,
    ) -> Result<Self> {
        let due = || cut.is_some_and(Cut::due);
        let check = |phase: &str| -> Result<()> {
            match cut {
                Some(c) if c.due() => Err(Error::cut_short(
                    c.watch.stopped(),
                    &format!(
                        "the set-up of the SAT local search ({phase}), before any assignment was evaluated"
                    ),
                )),
                _ => Ok(()),
            }
        };
        if cnf.num_vars == 0 || cnf.num_clauses() == 0 {
            return Err(Error::arg(
                "cnf",
                "the formula has no variables or no clauses",
            ));
        }
        if !(1..=2).contains(&mask_order) {
            return Err(Error::arg(
                "maskOrder",
                format!("{mask_order}; expected 1 or 2 for SAT"),
            ));
        }
        let nb = Neighbourhood::new(cnf.num_vars as u32, 1, mask_order, 0, 0)?;
        let ctx = backend.context("the SAT local search")?;
        let queue = ctx.queue()?;
        let words = cnf.words();
        let spec = ProgramSpec::files(&["common.cl", "tabu.cl", "hc12.cl", "sat.cl"])
            .define("SAT_LIT", cnf.lit_type().cl_type())
            .define("SAT_LOCAL_SEARCH", 1)
            .define("FT_KIND", 1)
            .define_u("HC_ROWS", nb.rows)
            .define("HC_BITLEN", nb.bit_length)
            .define("HC_START", 0)
            .define("HC_ORDER", mask_order)
            .define("HC_NBIT", 1);
        check("the device")?;
        let build = || ctx.build(&tabu_defines(spec, tabu_len.max(1), words));
        let program = match cut {
            Some(c) => c.during_setup(build),
            None => build(),
        }?;
        check("building the kernels")?;
        let search = RowSearch::new(
            &queue,
            &program,
            "sat_hc12_eval",
            "clEnqueueNDRangeKernel(sat_hc12_eval)",
            nb.rows,
            8,
            Some((tabu_len, words)),
        )?;
        check("the row search")?;
        let occ = Occurrences::new_unless(&cnf, &due);
        check("indexing the occurrences")?;
        let occ = occ.expect("made unless due");
        let offsets = queue.buffer_from(&cnf.offsets, "clause offsets")?;
        check("uploading the clauses")?;
        let literals = queue.buffer_from(&cnf.packed_literals(), "literals")?;
        check("uploading the literals")?;
        let occ_off = queue.buffer_from(&occ.offsets, "occurrence offsets")?;
        let occ_clauses = queue.buffer_from(&occ.clauses, "occurrences")?;
        check("uploading the occurrences")?;
        let until = queue.buffer_from(&vec![0u32; cnf.num_vars], "tenure")?;
        check("uploading the tenures")?;
        Ok(SatSolver {
            offsets,
            literals,
            occ_off,
            occ_clauses,
            x: queue.buffer(words, "assignment")?,
            counts: queue.buffer(cnf.num_clauses(), "clause counts")?,
            until,
            cnf,
            occ,
            nb,
            search,
            tabu_len,
            queue,
            tenure: 0,
            cc: None,
            held_until: Vec::new(),
            checkpoints: Default::default(),
        })
    }

    /// The best row for the state uploaded to `x` and `counts`: (unsatisfied after its flips,
    /// row); a listed row counts as `i64::MAX` when `tabu_check`, a held one unless it beats
    /// `best`.
    pub(super) fn search_rows(
        &mut self,
        tabu_check: bool,
        iteration: u32,
        best: i64,
        aspiration: bool,
    ) -> Result<(i64, u64)> {
        let unsat = self.cc.as_ref().map_or(0, |cc| cc.unsatisfied);
        let (offsets, literals, occ_off, occ_clauses, x, counts, until) = (
            &self.offsets,
            &self.literals,
            &self.occ_off,
            &self.occ_clauses,
            &self.x,
            &self.counts,
            &self.until,
        );
        // SAFETY: the leading arguments of `sat_hc12_eval` in type and order; the buffers
        // outlive the search, which reads its result before returning.
        let found = unsafe {
            self.search.search(
                &self.queue,
                |e| {
                    e.set_arg(offsets.cl())
                        .set_arg(literals.cl())
                        .set_arg(occ_off.cl())
                        .set_arg(occ_clauses.cl())
                        .set_arg(x.cl())
                        .set_arg(counts.cl())
                        .set_arg(&unsat)
                        .set_arg(until.cl())
                        .set_arg(&iteration)
                        .set_arg(&best);
                },
                tabu_check,
                aspiration.then_some(best as u64),
            )?
        };
        Ok((found.bits as i64, found.row))
    }

    /// The best row of the neighbourhood of `a`: (unsatisfied after its flips, row).
    pub fn best_move(&mut self, a: &Assignment) -> Result<(i64, u64)> {
        let cc = ClauseCounts::new(&self.cnf, a.clone());
        self.x.write(&self.queue, cc.assignment.words())?;
        self.counts.write(&self.queue, &cc.counts)?;
        self.until
            .write(&self.queue, &vec![0u32; self.cnf.num_vars])?;
        let saved = self.cc.replace(cc);
        let r = self.search_rows(false, 0, i64::MIN, false);
        self.cc = saved;
        r
    }
}
