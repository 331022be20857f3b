//! The one permutation check of the QAP (readers, solvers, the C ABI).

use crate::error::{Error, Result};

/// Checks that `perm` is a permutation of 0..n; errors name `arg` and the offending entry
/// (1-based, as a reader counts entries).
pub fn check_perm(perm: &[usize], n: usize, arg: &'static str) -> Result<()> {
    if perm.len() != n {
        return Err(Error::arg(
            arg,
            format!("expected {n} entries, found {}", perm.len()),
        ));
    }
    let mut seen = vec![usize::MAX; n];
    for (i, &v) in perm.iter().enumerate() {
        if v >= n {
            return Err(Error::arg(
                arg,
                format!("entry {} = {v} is out of range 0..{n}", i + 1),
            ));
        }
        if seen[v] != usize::MAX {
            return Err(Error::arg(
                arg,
                format!("entry {} = {v} repeats entry {}", i + 1, seen[v] + 1),
            ));
        }
        seen[v] = i;
    }
    Ok(())
}
