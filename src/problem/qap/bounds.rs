//! Lower bounds of the QAP: Gilmore-Lawler.

use pathfinding::prelude::{kuhn_munkres, Matrix};

use super::instance::QapInstance;

/// Gilmore-Lawler lower bound, and the optimal assignment of its linear assignment problem.
///
/// For facility `i` at location `k`, the cheapest its interactions can possibly be is
/// `c[i][k] = A[i][i]*B[k][k] + min over bijections of sum_{j≠i} A[i][j]*B[k][σ(j)]`; by the
/// rearrangement inequality the inner minimum is the scalar product of row `i` of `A` without
/// its diagonal (ascending) and row `k` of `B` without its diagonal (descending). Every
/// permutation's cost is the sum of terms each at least its `c[i][p(i)]`, so the optimal linear
/// assignment over `c` is a lower bound on the QAP optimum; its assignment (0-based, direct) is
/// also a good start permutation (the thesis's "projection" start).
///
/// `c` is computed exactly in 128-bit arithmetic. If its entries are so large that the
/// assignment solver could overflow `i64`, they are divided by a power of two (rounding down)
/// first: the bound gets weaker but stays valid. A bound beyond the `i64` range saturates. For
/// entries so extreme that `n * max|A| * max|B|` exceeds 128 bits (where [`QapInstance::cost`]
/// wraps anyway) the result is the uninformative `(i64::MIN, identity)`.
pub fn gilmore_lawler(inst: &QapInstance) -> (i64, Vec<usize>) {
    let n = inst.n;
    let Some(c) = glb_costs(inst) else {
        return (i64::MIN, (0..n).collect());
    };
    let shift = solver_shift(&c, n);
    // Arithmetic shift = floor division, so every scaled entry times 2^shift is <= the exact one.
    let weights = Matrix::from_fn(n, n, |(i, k)| -((c[i * n + k] >> shift) as i64));
    let (neg_total, assignment) = kuhn_munkres(&weights);
    let bound = if shift == 0 {
        assignment
            .iter()
            .enumerate()
            .map(|(i, &k)| c[i * n + k])
            .sum::<i128>()
    } else {
        let scaled = -(neg_total as i128);
        scaled
            .checked_mul(1i128 << shift)
            .unwrap_or(if scaled < 0 { i128::MIN } else { i128::MAX })
    };
    let bound = bound.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    (bound, assignment)
}

/// The GLB cost matrix `c` (row-major, exact), or `None` when some entry could overflow `i128`
/// (each is a sum of n products, so that needs `n * max|A| * max|B| < 2^127`).
pub(super) fn glb_costs(inst: &QapInstance) -> Option<Vec<i128>> {
    let n = inst.n;
    let max_abs = |m: &[i64]| {
        m.iter()
            .map(|v| v.unsigned_abs() as u128)
            .max()
            .unwrap_or(0)
    };
    let worst = (n as u128)
        .checked_mul(max_abs(&inst.a))?
        .checked_mul(max_abs(&inst.b))?;
    if worst > i128::MAX as u128 {
        return None;
    }
    let m = n.saturating_sub(1);
    // Off-diagonal rows, A ascending and B descending, packed m values per row.
    let mut ra = Vec::with_capacity(n * m);
    let mut rb = Vec::with_capacity(n * m);
    for i in 0..n {
        let start = ra.len();
        ra.extend((0..n).filter(|&j| j != i).map(|j| inst.a[i * n + j]));
        ra[start..].sort_unstable();
        let start = rb.len();
        rb.extend((0..n).filter(|&j| j != i).map(|j| inst.b[i * n + j]));
        rb[start..].sort_unstable_by(|x, y| y.cmp(x));
    }
    let mut c = vec![0i128; n * n];
    for i in 0..n {
        let arow = &ra[i * m..(i + 1) * m];
        let aii = inst.a[i * n + i] as i128;
        for k in 0..n {
            let brow = &rb[k * m..(k + 1) * m];
            let msp: i128 = arow
                .iter()
                .zip(brow)
                .map(|(&x, &y)| x as i128 * y as i128)
                .sum();
            c[i * n + k] = aii * inst.b[k * n + k] as i128 + msp;
        }
    }
    Some(c)
}

/// How many bits to shift the GLB costs right so that the assignment solver cannot overflow
/// `i64`. The Hungarian method's labels and totals stay within a few multiples of n * max|c|;
/// keeping max|c| below i64::MAX / (4 (n+1)^2) leaves ample room.
pub(super) fn solver_shift(c: &[i128], n: usize) -> u32 {
    let limit = (i64::MAX as u128) / (4 * (n as u128 + 1).pow(2));
    let max_abs = c.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
    let mut shift = 0u32;
    while (max_abs >> shift) + 1 > limit {
        shift += 1;
    }
    shift
}
