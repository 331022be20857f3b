//! Clause evaluation of many assignments on the CPU (rayon, one task per assignment): the same
//! outputs as DXAC (`super::eval`), so it is both the devices' reference and the CPU side of
//! `metaopt bench sat`.

use super::eval::DxacResult;
use crate::error::{Error, Result};
use crate::problem::sat::{Assignment, Cnf};
use rayon::prelude::*;

/// True-literal counts of every clause of `cnf` under `a`, into `out` (one per clause); returns the
/// satisfied count. Follows `sat_clause_true` of `cl/sat.cl`.
pub fn counts_into(cnf: &Cnf, a: &Assignment, out: &mut [u32]) -> u32 {
    let w = a.words();
    let mut sat = 0;
    for (c, o) in out.iter_mut().enumerate() {
        let n = clause_true(cnf, c, w);
        *o = n;
        sat += (n > 0) as u32;
    }
    sat
}

#[inline]
fn clause_true(cnf: &Cnf, c: usize, w: &[u32]) -> u32 {
    let lits = &cnf.literals[cnf.offsets[c] as usize..cnf.offsets[c + 1] as usize];
    let mut n = 0;
    for &l in lits {
        let v = l.unsigned_abs() - 1;
        n += ((w[(v >> 5) as usize] >> (v & 31)) & 1) ^ (l < 0) as u32;
    }
    n
}

/// Satisfied clauses of `cnf` under `a`.
pub fn satisfied(cnf: &Cnf, a: &Assignment) -> u32 {
    let w = a.words();
    (0..cnf.num_clauses())
        .map(|c| (clause_true(cnf, c, w) > 0) as u32)
        .sum()
}

/// Satisfied count (and, when `want_counts`, the per-clause counts, assignment-major) of every
/// assignment, in parallel over the assignments.
pub fn evaluate_many(
    cnf: &Cnf,
    assignments: &[Assignment],
    want_counts: bool,
) -> Result<DxacResult> {
    if let Some((i, a)) = assignments
        .iter()
        .enumerate()
        .find(|(_, a)| a.num_vars() != cnf.num_vars)
    {
        return Err(Error::arg(
            "assignments",
            format!(
                "assignment {i} has {} variables for a formula of {}",
                a.num_vars(),
                cnf.num_vars
            ),
        ));
    }
    let m = cnf.num_clauses();
    if want_counts {
        let mut counts = crate::error::try_filled(
            crate::error::size_product("assignments", &[assignments.len(), m])?,
            0u32,
            "assignments",
        )?;
        let mut sat = vec![0u32; assignments.len()];
        if m > 0 {
            counts
                .par_chunks_mut(m)
                .zip(sat.par_iter_mut())
                .zip(assignments.par_iter())
                .for_each(|((row, s), a)| *s = counts_into(cnf, a, row));
        }
        Ok(DxacResult {
            satisfied: sat,
            counts: Some(counts),
            num_clauses: m,
        })
    } else {
        let satisfied = assignments
            .par_iter()
            .with_min_len(16)
            .map(|a| satisfied(cnf, a))
            .collect();
        Ok(DxacResult {
            satisfied,
            counts: None,
            num_clauses: m,
        })
    }
}

/// [`Backend::describe`](crate::device::Backend::describe) of the CPU backend; kept for one
/// release, call `Backend::Cpu.describe()`.
#[deprecated(note = "use `Backend::Cpu.describe()`")]
pub fn backend_description() -> String {
    crate::device::Backend::Cpu.describe()
}
