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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::qap::instance::tests::{data_dir, files_with_ext, Rng};
    use crate::problem::qap::instance::{find_bks, read_bks_csv, read_sln_auto};

    // ----- Gilmore-Lawler -----------------------------------------------------------------

    fn brute_force(inst: &QapInstance) -> i64 {
        inst.optimum_by_enumeration().expect("small instance")
    }

    #[test]
    fn glb_is_a_bound_on_random_small_instances() {
        let mut rng = Rng(2024);
        for trial in 0..300 {
            let n = 1 + trial % 6;
            let neg = trial % 3 == 0;
            let val = |rng: &mut Rng| {
                let v = rng.below(50) as i64;
                if neg {
                    v - 25
                } else {
                    v
                }
            };
            let a: Vec<i64> = (0..n * n).map(|_| val(&mut rng)).collect();
            let b: Vec<i64> = (0..n * n).map(|_| val(&mut rng)).collect();
            let inst = QapInstance::new("r", n, a, b).unwrap();
            let opt = brute_force(&inst);
            let (bound, p) = gilmore_lawler(&inst);
            inst.check_permutation(&p).unwrap();
            assert!(bound <= opt, "trial {trial}: bound {bound} > optimum {opt}");
            assert!(inst.cost(&p) >= opt);
        }
        // n = 1: the bound is exact
        let one = QapInstance::new("one", 1, vec![3], vec![-4]).unwrap();
        assert_eq!(gilmore_lawler(&one), (-12, vec![0]));
    }

    #[test]
    fn glb_scales_large_entries_and_stays_a_bound() {
        // Entries of a few 1e8 make c[i][k] exceed the solver's safe range (so c is scaled down)
        // while every cost still fits in i64: the bound must stay valid.
        let n = 4;
        let mut rng = Rng(9);
        let mut shifted = 0;
        for _ in 0..20 {
            let val = |rng: &mut Rng| rng.below(600_000_001) as i64 - 300_000_000;
            let a: Vec<i64> = (0..n * n).map(|_| val(&mut rng)).collect();
            let b: Vec<i64> = (0..n * n).map(|_| val(&mut rng)).collect();
            let inst = QapInstance::new("large", n, a, b).unwrap();
            shifted += usize::from(solver_shift(&glb_costs(&inst).unwrap(), n) > 0);
            let (bound, p) = gilmore_lawler(&inst);
            inst.check_permutation(&p).unwrap();
            let opt = brute_force(&inst);
            assert!(bound <= opt, "bound {bound} > optimum {opt}");
            assert!(inst.cost(&p) >= opt);
        }
        assert!(
            shifted >= 10,
            "only {shifted} of 20 instances exercised the scaling"
        );
        // Entries near the i64 limits: costs wrap, but the bound must not panic and the
        // assignment must still be a permutation.
        let a: Vec<i64> = (0..n * n)
            .map(|k| if k % 2 == 0 { i64::MAX } else { i64::MIN })
            .collect();
        let inst = QapInstance::new("extreme", n, a.clone(), a).unwrap();
        let (_, p) = gilmore_lawler(&inst);
        inst.check_permutation(&p).unwrap();
        let _ = inst.cost(&p);
        let _ = inst.cost_symmetric(&p);
    }

    #[test]
    fn glb_bounds_every_shared_instance() {
        let dir = data_dir();
        let bks = read_bks_csv(&dir.join("BKS.csv")).unwrap();
        for path in files_with_ext(&dir, "dat") {
            let inst = QapInstance::from_dat(&path).unwrap();
            let (bound, p) = gilmore_lawler(&inst);
            inst.check_permutation(&p).unwrap();
            let best = bks[&inst.name].bks;
            // GLB <= optimum <= best known, for every instance
            assert!(bound <= best, "{}: GLB {bound} > BKS {best}", inst.name);
            assert!(
                bound >= 0,
                "{}: non-negative data give a non-negative bound",
                inst.name
            );
            let sln = dir.join("sln").join(format!("{}.sln", inst.name));
            if sln.is_file() {
                let sol = read_sln_auto(&sln).unwrap();
                assert!(bound <= sol.value, "{}", inst.name);
                // guaranteed only where the value is optimal, but the projection is far from the
                // best known value on every shared instance
                assert!(inst.cost(&p) >= sol.value, "{}", inst.name);
            }
            if bks[&inst.name].optimal_proven {
                assert!(
                    inst.cost(&p) >= best,
                    "{}: projection beats a proven optimum",
                    inst.name
                );
            }
        }
    }

    /// Exhaustive check of the two instances that have no `.sln` (10! permutations each; run with
    /// `cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn exhaustive_tai10() {
        let dir = data_dir();
        for name in ["tai10a", "tai10b"] {
            let path = dir.join(format!("{name}.dat"));
            let inst = QapInstance::from_dat(&path).unwrap();
            let bks = find_bks(&path).unwrap().unwrap();
            assert_eq!(brute_force(&inst), bks.bks, "{name}");
        }
    }
}
