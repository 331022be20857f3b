//! Generated QAP instances: Li and Pardalos's instances with an optimum known by construction (the
//! families `lipa*a` and `lipa*b` of QAPLIB) and Taillard's real-life-like instances (the family
//! `tai*b`).
//!
//! Both keep the module's conventions (`cost(p) = sum_{i,j} A[i][j] * B[p[i]][p[j]]`, permutations
//! 0-based and direct) and the layout of the QAPLIB files they imitate: which matrix comes first,
//! which one is symmetric, where the zeros are.
//!
//! # Reproducibility
//!
//! Random numbers come from [`Philox`] alone, one stream per purpose, so `(n, seed)` names one
//! instance. The Li–Pardalos generator uses integers only; Taillard's uses floating point, but only
//! the operations IEEE 754 rounds correctly (add, subtract, multiply, divide, square root,
//! rounding to an integer): the exponential of its flows is the module's own polynomial
//! (`det_exp`), not the platform's `exp`, and its random directions come from rejection
//! sampling, not from `sin` and `cos`. The same `(n, seed)` therefore gives the same matrices on
//! every machine; the tests pin a checksum of each generator's output.
//!
//! # What is QAPLIB's and what is not
//!
//! The published papers could not be consulted here; the constructions below were established from
//! the QAPLIB files themselves (all 16 `lipa` and all 13 `tai*b` instances), which are the output
//! of the authors' own generators, and from the descriptions cited on each function. Each doc
//! comment says which parts match QAPLIB exactly, which are fitted to it, and which are this
//! module's choice. No seed reproduces a QAPLIB file: the authors' random number generators are not
//! known.

use super::instance::{QapInstance, MAX_N};
use crate::error::{Error, Result};
use crate::rng::Philox;

/// Philox streams, one per purpose, so that changing one part of a generator leaves the draws of
/// the others as they are (and `lipa` and `taillard_b` of one seed share nothing).
const STREAM_LIPA_DIST: u32 = 0x4c50_0001;
const STREAM_LIPA_FLOW: u32 = 0x4c50_0002;
const STREAM_LIPA_HIDE: u32 = 0x4c50_0003;
const STREAM_TAI_POINTS: u32 = 0x5442_0001;
const STREAM_TAI_FLOWS: u32 = 0x5442_0002;

/// Radius of the circle holding the cluster centres of [`taillard_b`].
pub const TAILLARD_CENTRE_RADIUS: f64 = 1000.0;
/// Radius of one cluster of [`taillard_b`] around its centre.
pub const TAILLARD_CLUSTER_RADIUS: f64 = 100.0;

/// Which of QAPLIB's two Li–Pardalos families [`lipa`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LipaKind {
    /// `lipa*a`: flows 0, 1 or 2 from a minimum and a maximum spanning tree of the distances;
    /// the optimum is hidden by a random relabelling of the facilities, as in QAPLIB.
    A,
    /// `lipa*b`: flows in `0..n` sorted against the distances; the optimum is the identity, as in
    /// QAPLIB.
    B,
}

impl LipaKind {
    fn letter(self) -> char {
        match self {
            LipaKind::A => 'a',
            LipaKind::B => 'b',
        }
    }
}

/// A Li–Pardalos instance with its optimum: `(instance, optimal permutation, optimal cost)`.
///
/// Li, Y. and Pardalos, P. M. (1992), "Generating quadratic assignment test problems with known
/// optimal permutations", Computational Optimization and Applications 1, 163–184
/// (doi:10.1007/BF00253805), generalising Palubeckis's generator; QAPLIB's `lipa20a` … `lipa90b`
/// come from their generator. The permutation is optimal by the proofs below, which do not depend
/// on the random draws; it need not be the only optimum.
///
/// # The distances `B` (both kinds)
///
/// `B` is symmetric with a zero diagonal, and for `k < l`
///
/// ```text
/// B[k][l] = B[l][k] = X + Y,   X, Y independent, uniform on {1, ..., h},   h = ceil(n / 2)
/// ```
///
/// so the entries lie in `2..=2h` with a triangular law of mean `h + 1`. `B` does not satisfy the
/// triangle inequality, and neither do QAPLIB's. The same `n` and `seed` give the same `B` for both
/// kinds, as `lipaNNa` and `lipaNNb` share theirs in QAPLIB.
///
/// # Kind `a` (`lipa*a`): two spanning trees
///
/// Let `T_min` and `T_max` be the spanning trees of least and of greatest weight of the complete
/// graph on the locations weighted by `B`, both grown by Prim's algorithm from vertex 0: the
/// vertex added next is the one of best key, the lowest-numbered on ties, and a vertex's key and
/// parent change only on a strict improvement. Write `m(i)` and `M(i)` for the parent of `i != 0`
/// in `T_min` and `T_max`. The flows, in this construction's numbering, are
///
/// ```text
/// F[i][i] = 0,   F[i][j] = 1 (i != j),   then for every i != 0:
///     F[i][m(i)] += 1,   F[i][M(i)] -= 1
/// ```
///
/// (entries 0, 1 or 2). For any permutation `p`,
///
/// ```text
/// cost(p) = sum_{k != l} B[k][l] + sum_{i != 0} B[p(i)][p(m(i))] - sum_{i != 0} B[p(i)][p(M(i))]
/// ```
///
/// The first sum does not depend on `p`. The edges `{p(i), p(m(i))}` form a spanning tree, so the
/// second sum is at least `w(T_min)`; the edges `{p(i), p(M(i))}` form one too, so the third is at
/// most `w(T_max)`. Hence `cost(p) >= sum B + w(T_min) - w(T_max) = cost(identity)`. The instance
/// then relabels the facilities by a random permutation `s`: `A[i][j] = F[s(i)][s(j)]`, whose
/// optimum is `s` (facility `i` to location `s(i)`).
///
/// This is QAPLIB's construction exactly: in each of the eight `lipaNNa` files (n = 20, 30, …, 90),
/// `A` relabelled by the published optimal permutation equals `F` computed from the file's `B`
/// with the tie rules above, and the published value equals `sum B + w(T_min) - w(T_max)`
/// (tested here on `lipa20a` and `lipa30a`, the two in `data/qaplib`).
///
/// # Kind `b` (`lipa*b`): flows sorted against the distances
///
/// Draw `n (n - 1)` values uniformly from `{0, ..., n - 1}` and sort them in decreasing order;
/// list the off-diagonal pairs `(k, l)` in increasing order of `B[k][l]`, pairs of equal distance
/// in a random order; the `t`-th pair gets the `t`-th value (`A` is asymmetric through the ties;
/// its diagonal is 0). By the rearrangement inequality the sum `sum_{k != l} A[k][l] B[k][l]` of
/// two oppositely ordered sequences is the least of all their pairings, and every permutation `p`
/// pairs them somehow (`(i, j) -> (p(i), p(j))` is a bijection of the off-diagonal pairs), so the
/// identity is optimal. As in QAPLIB it is returned as is, not hidden: permute the instance to
/// hide it.
///
/// In each of the eight `lipaNNb` files, `A` is sorted against `B` in this way, the optimum is the
/// identity, the diagonal is 0 and the flow values spread over `0..n` as uniform draws do (tested
/// here on `lipa20b`).
///
/// # Not established
///
/// The law of `B` is fitted to QAPLIB, not known: the files' entries have a triangular law on
/// about `1..=n` with mean about `n/2 + 1` and variance about `n^2/24`, which the law above
/// matches; yet 5 of their 13,980 distances (pairs `k < l`) equal 1, which it cannot produce.
/// That the kind-`b` values are uniform draws is likewise a fit, and QAPLIB's order among equal
/// distances is not known. The optimality of what this function returns rests on the proofs above
/// only.
///
/// # Errors
///
/// `n` below 2 or above [`MAX_N`] (argument `n`).
pub fn lipa(n: usize, kind: LipaKind, seed: u64) -> Result<(QapInstance, Vec<usize>, i64)> {
    check_n(n)?;
    let b = lipa_distances(n, seed);
    let (a, perm) = match kind {
        LipaKind::A => {
            let f = lipa_a_flows(&b, n);
            let s = Philox::new(seed, STREAM_LIPA_HIDE).permutation(n);
            let mut a = vec![0i64; n * n];
            for (i, row) in a.chunks_exact_mut(n).enumerate() {
                let frow = &f[s[i] * n..(s[i] + 1) * n];
                for (aij, &sj) in row.iter_mut().zip(&s) {
                    *aij = frow[sj];
                }
            }
            (a, s)
        }
        LipaKind::B => {
            let mut rng = Philox::new(seed, STREAM_LIPA_FLOW);
            let values: Vec<i64> = (0..n * (n - 1))
                .map(|_| i64::from(rng.below(n as u32)))
                .collect();
            (lipa_b_flows(&b, n, values, &mut rng), (0..n).collect())
        }
    };
    let inst = QapInstance::new(format!("lipa{n}{}-seed{seed}", kind.letter()), n, a, b)?;
    let cost = inst.cost(&perm);
    Ok((inst, perm, cost))
}

/// A real-life-like instance after Taillard's `tai*b`: Euclidean distances of points in clusters
/// (the first matrix, symmetric) and sparse, strongly skewed, asymmetric flows (the second), the
/// layout of QAPLIB's `tai*b` files.
///
/// Taillard, E. D. (1995), "Comparison of iterative searches for the quadratic assignment
/// problem", Location Science 3(2), 87–105. The point procedure is the one Knowles and Corne state
/// as following that paper ("Instance generators and test suites for the multiobjective quadratic
/// assignment problem", TR/IRIDIA/2002-25, 2002, and the comments of their generator
/// `makeQAPrl.cc`); the law of the flows is fitted to the 13 `tai*b` files of QAPLIB, which
/// Taillard generated, because the only description found of it (Knowles and Corne's:
/// `floor(10^((B - A) X + A))`) does not fit them.
///
/// # Distances (`a`)
///
/// Clusters are drawn until `n` points exist: a centre at distance `R` uniform in `[0, R_c]` from
/// the origin in a uniformly random direction; a size `N` uniform in `{1, ..., ceil(n / 2)}`; then
/// `N` points (fewer for the last cluster), each at distance `r` uniform in `[0, r_c]` from the
/// centre in a uniformly random direction (radius uniform, not area: points crowd towards their
/// centre), with `R_c` = [`TAILLARD_CENTRE_RADIUS`] and `r_c` = [`TAILLARD_CLUSTER_RADIUS`].
/// Coordinates stay real numbers (Knowles and Corne's program truncates them, and the distances,
/// to integers: a detail of theirs). Then
///
/// ```text
/// a[i][j] = round(|P_i - P_j|)   (Euclidean, to the nearest integer; a[i][i] = 0)
/// ```
///
/// QAPLIB's `tai*b` distances are those of points of a plane to within their rounding (the third
/// eigenvalue of their classical scaling is below 0.3% of the first) grouped in a few clusters (2
/// to 7, single linkage at 15% of the largest distance), as these are; their scale varies from
/// file to file (largest distance 130 to 5057), this one's is fixed (largest about 2200).
///
/// # Flows (`b`)
///
/// For every `i != j` independently, with `U` uniform on `(0, 1)`,
///
/// ```text
/// b[i][j] = round(e^x),   x = lo + (hi - lo) U       (b[i][i] = 0)
/// ```
///
/// so that `ln b` is uniform between `ln 1/2` and `hi`, every value below 1/2 rounds to 0 (the
/// share of zeros is `(ln(1/2) - lo) / (hi - lo)`), and the largest flow is `round(e^hi)`. The
/// range is the one QAPLIB's files show for the size (maximum-likelihood fits, rounding to the
/// nearest integer far likelier than truncation, base `e` with integer `hi`: the files' largest
/// flows are 8097 ≈ e^9, 21763 ≈ e^10, 59559 ≈ e^11):
///
/// | n | QAPLIB files | lo | hi | zeros | zeros in the files |
/// |---|---|---|---|---|---|
/// | 12 to 30 | tai12b … tai30b | -10 | 11 | 44.3% | 43.5% |
/// | 31 to 49 | tai35b, tai40b | -13 | 10 | 53.5% | 52.6% |
/// | other | tai10b, tai50b … tai150b | -13 | 9 | 55.9% | 55.5% |
///
/// (`lo` is the least certain: the fits give −9.7, −12.6 and −12.8.) QAPLIB's flows show no
/// correlation between `b[i][j]` and `b[j][i]`, between rows, or with the distances, so they are
/// drawn independently here.
///
/// # Not established
///
/// The paper's own wording and parameters (the radii, the largest cluster size, the flow range
/// per size, whether Taillard chose them per instance) could not be read. Accounts that place the
/// points in a square could not be confirmed; the circles above are the one procedure found
/// written down. The radii and the largest cluster size, `ceil(n / 2)`, are this module's choice
/// (QAPLIB's files show 2 to 7 clusters).
///
/// # Errors
///
/// `n` below 2 or above [`MAX_N`] (argument `n`).
pub fn taillard_b(n: usize, seed: u64) -> Result<QapInstance> {
    check_n(n)?;
    let points = cluster_points(n, seed);
    let mut dist = vec![0i64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let (dx, dy) = (points[i].0 - points[j].0, points[i].1 - points[j].1);
            let d = (dx * dx + dy * dy).sqrt().round() as i64;
            dist[i * n + j] = d;
            dist[j * n + i] = d;
        }
    }
    let (lo, hi) = taillard_flow_exponents(n);
    let mut rng = Philox::new(seed, STREAM_TAI_FLOWS);
    let mut flow = vec![0i64; n * n];
    for (i, row) in flow.chunks_exact_mut(n).enumerate() {
        for (j, f) in row.iter_mut().enumerate() {
            if i != j {
                *f = det_exp(lo + (hi - lo) * rng.unit()).round() as i64;
            }
        }
    }
    QapInstance::new(format!("tai{n}b-seed{seed}"), n, dist, flow)
}

/// The exponent range `(lo, hi)` of [`taillard_b`]'s flows for size `n` (see its table).
pub fn taillard_flow_exponents(n: usize) -> (f64, f64) {
    match n {
        12..=30 => (-10.0, 11.0),
        31..=49 => (-13.0, 10.0),
        _ => (-13.0, 9.0),
    }
}

fn check_n(n: usize) -> Result<()> {
    if n < 2 {
        return Err(Error::arg(
            "n",
            format!("the instance size {n} is below 2, the smallest a generator builds"),
        ));
    }
    if n > MAX_N {
        return Err(Error::arg(
            "n",
            format!("the instance size {n} exceeds the maximum {MAX_N}"),
        ));
    }
    Ok(())
}

/// The symmetric distances of [`lipa`]: `X + Y`, both uniform on `1..=ceil(n/2)`, zero diagonal.
fn lipa_distances(n: usize, seed: u64) -> Vec<i64> {
    let h = n.div_ceil(2) as u32;
    let mut rng = Philox::new(seed, STREAM_LIPA_DIST);
    let mut b = vec![0i64; n * n];
    for k in 0..n {
        for l in k + 1..n {
            let v = 2 + i64::from(rng.below(h)) + i64::from(rng.below(h));
            b[k * n + l] = v;
            b[l * n + k] = v;
        }
    }
    b
}

/// Parents of Prim's spanning tree of the complete graph weighted by the symmetric `w`, grown from
/// vertex 0: of least weight, or of greatest if `maximum`. Ties: the lowest-numbered vertex of best
/// key joins first; a key (and parent) changes only on a strict improvement. `parent[0] = 0`.
fn prim_parents(w: &[i64], n: usize, maximum: bool) -> Vec<usize> {
    let key_of = |v: i64| if maximum { v.saturating_neg() } else { v };
    let mut in_tree = vec![false; n];
    let mut key = vec![i64::MAX; n];
    let mut parent = vec![0usize; n];
    key[0] = i64::MIN;
    for _ in 0..n {
        let mut u = usize::MAX;
        for v in 0..n {
            if !in_tree[v] && (u == usize::MAX || key[v] < key[u]) {
                u = v;
            }
        }
        in_tree[u] = true;
        let row = &w[u * n..(u + 1) * n];
        for v in 0..n {
            let k = key_of(row[v]);
            if !in_tree[v] && k < key[v] {
                key[v] = k;
                parent[v] = u;
            }
        }
    }
    parent
}

/// The kind-`a` flows in the construction's numbering (identity optimal): all ones off the
/// diagonal, plus one towards each vertex's parent in the minimum tree, minus one towards its
/// parent in the maximum tree.
fn lipa_a_flows(b: &[i64], n: usize) -> Vec<i64> {
    let min_parent = prim_parents(b, n, false);
    let max_parent = prim_parents(b, n, true);
    let mut f = vec![1i64; n * n];
    for i in 0..n {
        f[i * n + i] = 0;
    }
    for i in 1..n {
        f[i * n + min_parent[i]] += 1;
        f[i * n + max_parent[i]] -= 1;
    }
    f
}

/// The kind-`b` flows: `values` (one per off-diagonal pair) in decreasing order on the pairs in
/// increasing order of `b`, equal distances in an order drawn from `rng`; zero diagonal.
fn lipa_b_flows(b: &[i64], n: usize, mut values: Vec<i64>, rng: &mut Philox) -> Vec<i64> {
    let pairs: Vec<usize> = (0..n * n).filter(|k| k / n != k % n).collect();
    debug_assert_eq!(values.len(), pairs.len());
    // a uniformly random order of the pairs, then a stable sort by distance: ties stay random
    let mut order: Vec<usize> = rng
        .permutation(pairs.len())
        .into_iter()
        .map(|t| pairs[t])
        .collect();
    order.sort_by_key(|&k| b[k]);
    values.sort_unstable_by(|x, y| y.cmp(x));
    let mut a = vec![0i64; n * n];
    for (&k, v) in order.iter().zip(values) {
        a[k] = v;
    }
    a
}

/// A uniformly random unit vector, by rejection from the square `[-1, 1]^2` (no `sin`, `cos`).
fn unit_direction(rng: &mut Philox) -> (f64, f64) {
    loop {
        let x = 2.0 * rng.unit() - 1.0;
        let y = 2.0 * rng.unit() - 1.0;
        let s = x * x + y * y;
        // away from 0 so that the division is well conditioned; the direction stays uniform
        if (1e-6..=1.0).contains(&s) {
            let r = s.sqrt();
            return (x / r, y / r);
        }
    }
}

/// The `n` points of [`taillard_b`], cluster by cluster.
fn cluster_points(n: usize, seed: u64) -> Vec<(f64, f64)> {
    let max_size = n.div_ceil(2) as u32;
    let mut rng = Philox::new(seed, STREAM_TAI_POINTS);
    let mut points = Vec::with_capacity(n);
    while points.len() < n {
        let (ux, uy) = unit_direction(&mut rng);
        let big = TAILLARD_CENTRE_RADIUS * rng.unit();
        let (cx, cy) = (big * ux, big * uy);
        let size = 1 + rng.below(max_size) as usize;
        for _ in 0..size.min(n - points.len()) {
            let (vx, vy) = unit_direction(&mut rng);
            let r = TAILLARD_CLUSTER_RADIUS * rng.unit();
            points.push((cx + r * vx, cy + r * vy));
        }
    }
    points
}

/// `e^x` from IEEE 754 basic operations only (bit-identical on every machine, unlike the
/// platform's `exp`), for `|x| <= 700`: `x = k ln 2 + r` with `|r| <= ln 2 / 2`, `e^r` by its
/// Taylor polynomial of degree 16 (error below 1e-19 relative before rounding), times `2^k` built
/// from its bits. Relative error within a few units in the last place.
fn det_exp(x: f64) -> f64 {
    // ln 2 split as in fdlibm: the high part has 32 significant bits, so k * LN2_HI is exact
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let x = x.clamp(-700.0, 700.0);
    let k = (x / std::f64::consts::LN_2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut p = 1.0;
    for d in (1..=16).rev() {
        p = 1.0 + p * r / f64::from(d);
    }
    // 2^k for |k| <= 1010, a normal number
    let two_k = f64::from_bits(((1023 + k as i64) as u64) << 52);
    p * two_k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::qap::cost::{ElemType, QapMatrices, QapProblem};
    use crate::problem::qap::instance::read_sln_auto;
    use std::path::{Path, PathBuf};

    fn data_dir() -> PathBuf {
        match std::env::var_os("METAOPT_DATA_DIR") {
            Some(d) => PathBuf::from(d).join("qaplib"),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib"),
        }
    }

    fn off_diagonal(n: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..n).flat_map(move |i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
    }

    /// Weight of a minimum (or maximum) spanning tree by Kruskal's algorithm: a check of Prim's
    /// trees by another method.
    fn kruskal_weight(w: &[i64], n: usize, maximum: bool) -> i64 {
        let mut edges: Vec<(i64, usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| (w[i * n + j], i, j))
            .collect();
        edges.sort();
        if maximum {
            edges.reverse();
        }
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        let mut total = 0;
        for (c, i, j) in edges {
            let (ri, rj) = (find(&mut root, i), find(&mut root, j));
            if ri != rj {
                root[ri] = rj;
                total += c;
            }
        }
        total
    }

    fn checksum(v: &[i64]) -> u64 {
        v.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
            (h ^ x as u64).wrapping_mul(0x0100_0000_01b3)
        })
    }

    fn arg_of<T: std::fmt::Debug>(r: Result<T>) -> &'static str {
        match r {
            Err(Error::InvalidArgument { arg, .. }) => arg,
            other => panic!("expected an invalid-argument error, got {other:?}"),
        }
    }

    #[test]
    fn lipa_returns_a_permutation_of_the_stated_cost() {
        for n in 2..=16 {
            for seed in 0..4 {
                for kind in [LipaKind::A, LipaKind::B] {
                    let (inst, perm, cost) = lipa(n, kind, seed).unwrap();
                    inst.check_permutation(&perm).unwrap();
                    assert_eq!(inst.cost(&perm), cost, "n {n} seed {seed} {kind:?}");
                    let (a, b) = (&inst.a, &inst.b);
                    for k in 0..n {
                        assert_eq!((a[k * n + k], b[k * n + k]), (0, 0));
                    }
                    for (k, l) in off_diagonal(n) {
                        assert_eq!(b[k * n + l], b[l * n + k]);
                        assert!((2..=2 * n.div_ceil(2) as i64).contains(&b[k * n + l]));
                        let lim = if kind == LipaKind::A { 2 } else { n as i64 - 1 };
                        assert!(
                            (0..=lim).contains(&a[k * n + l]),
                            "{kind:?} {}",
                            a[k * n + l]
                        );
                    }
                    if kind == LipaKind::B {
                        assert_eq!(perm, (0..n).collect::<Vec<_>>());
                    }
                    // a and b of one size and seed share the distances, as in QAPLIB
                    let other = if kind == LipaKind::A {
                        LipaKind::B
                    } else {
                        LipaKind::A
                    };
                    assert_eq!(lipa(n, other, seed).unwrap().0.b, inst.b);
                }
            }
        }
    }

    #[test]
    fn lipa_optimum_survives_enumeration() {
        for n in 6..=8 {
            for seed in 0..4 {
                for kind in [LipaKind::A, LipaKind::B] {
                    let (inst, _, cost) = lipa(n, kind, seed).unwrap();
                    let best = inst.optimum_by_enumeration().unwrap();
                    assert_eq!(best, cost, "n {n} seed {seed} {kind:?}");
                }
            }
        }
    }

    #[test]
    fn lipa_a_cost_is_the_spanning_tree_formula() {
        for (n, seed) in [(5, 1), (20, 2), (64, 3), (129, 4)] {
            let (inst, _, cost) = lipa(n, LipaKind::A, seed).unwrap();
            let b = &inst.b;
            let sum: i64 = b.iter().sum();
            let (wmin, wmax) = (kruskal_weight(b, n, false), kruskal_weight(b, n, true));
            assert_eq!(cost, sum + wmin - wmax, "n {n}");
            // the optimum lies strictly below the constant part when the trees differ
            assert!(wmin < wmax);
        }
    }

    #[test]
    fn lipa_b_flows_are_sorted_against_the_distances() {
        let (inst, _, _) = lipa(40, LipaKind::B, 9).unwrap();
        assert_anti_sorted(&inst);
        // asymmetric through the ties, as QAPLIB's
        assert_ne!(inst.a, transpose(&inst.a, 40));
    }

    fn transpose(m: &[i64], n: usize) -> Vec<i64> {
        (0..n * n).map(|k| m[(k % n) * n + k / n]).collect()
    }

    /// Off the diagonal, a larger distance never carries a larger flow.
    fn assert_anti_sorted(inst: &QapInstance) {
        let n = inst.n;
        let mut pairs: Vec<(i64, i64)> = off_diagonal(n)
            .map(|(k, l)| (inst.b[k * n + l], inst.a[k * n + l]))
            .collect();
        pairs.sort_by(|x, y| x.0.cmp(&y.0).then(y.1.cmp(&x.1)));
        assert!(
            pairs.windows(2).all(|w| w[0].1 >= w[1].1),
            "{}: flows not sorted against distances",
            inst.name
        );
    }

    #[test]
    fn qaplib_lipa_a_is_this_construction() {
        let dir = data_dir();
        for name in ["lipa20a", "lipa30a"] {
            let inst = QapInstance::from_dat(&dir.join(format!("{name}.dat"))).unwrap();
            let sol = read_sln_auto(&dir.join("sln").join(format!("{name}.sln"))).unwrap();
            let n = inst.n;
            // relabel the flows by the published optimum: then the identity is optimal
            let mut f = vec![0i64; n * n];
            for (i, j) in (0..n).flat_map(|i| (0..n).map(move |j| (i, j))) {
                f[sol.perm[i] * n + sol.perm[j]] = inst.a[i * n + j];
            }
            assert_eq!(f, lipa_a_flows(&inst.b, n), "{name}");
            let sum: i64 = inst.b.iter().sum();
            let formula =
                sum + kruskal_weight(&inst.b, n, false) - kruskal_weight(&inst.b, n, true);
            assert_eq!(formula, sol.value, "{name}");
            assert_eq!(inst.cost(&sol.perm), sol.value, "{name}");
            // the same family of distances: symmetric, zero diagonal, entries within 1..=n
            assert_eq!(inst.b, transpose(&inst.b, n));
            assert!(off_diagonal(n).all(|(k, l)| (1..=n as i64).contains(&inst.b[k * n + l])));
        }
    }

    #[test]
    fn qaplib_lipa_b_is_this_construction() {
        let dir = data_dir();
        let inst = QapInstance::from_dat(&dir.join("lipa20b.dat")).unwrap();
        let sol = read_sln_auto(&dir.join("sln/lipa20b.sln")).unwrap();
        let n = inst.n;
        assert_eq!(sol.perm, (0..n).collect::<Vec<_>>());
        assert_anti_sorted(&inst);
        // lipa20a and lipa20b share their distances
        let a20 = QapInstance::from_dat(&dir.join("lipa20a.dat")).unwrap();
        assert_eq!(a20.b, inst.b);
        // rebuilt from the file's own distances and flow values, ties in any order: same cost
        let values: Vec<i64> = off_diagonal(n).map(|(k, l)| inst.a[k * n + l]).collect();
        assert!(values.iter().all(|v| (0..n as i64).contains(v)));
        let rebuilt = lipa_b_flows(&inst.b, n, values, &mut Philox::new(5, 0));
        let rebuilt = QapInstance::new("r", n, rebuilt, inst.b.clone()).unwrap();
        assert_anti_sorted(&rebuilt);
        let id: Vec<usize> = (0..n).collect();
        assert_eq!(rebuilt.cost(&id), sol.value);
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        for n in [0, 1, MAX_N + 1, usize::MAX] {
            assert_eq!(arg_of(lipa(n, LipaKind::A, 0)), "n");
            assert_eq!(arg_of(lipa(n, LipaKind::B, 0)), "n");
            assert_eq!(arg_of(taillard_b(n, 0)), "n");
        }
        assert!(lipa(2, LipaKind::A, u64::MAX).is_ok());
        assert!(lipa(2, LipaKind::B, u64::MAX).is_ok());
        assert!(taillard_b(2, u64::MAX).is_ok());
    }

    #[test]
    fn largest_size_passes_the_overflow_check() {
        fn accepted(inst: &QapInstance) {
            let data = QapMatrices::I64(inst.a.clone(), inst.b.clone());
            QapProblem::new(inst.name.clone(), inst.n, 1, data).unwrap();
            QapProblem::from_instance_as(inst, ElemType::I64).unwrap();
            assert_eq!(QapProblem::from_instance(inst).n, inst.n);
        }
        for kind in [LipaKind::A, LipaKind::B] {
            let (inst, perm, cost) = lipa(MAX_N, kind, 11).unwrap();
            accepted(&inst);
            assert_eq!(inst.cost(&perm), cost);
            assert!(cost > 0);
        }
        let inst = taillard_b(MAX_N, 11).unwrap();
        accepted(&inst);
        let (lo, hi) = taillard_flow_exponents(MAX_N);
        assert!(inst
            .b
            .iter()
            .all(|&f| (0..=det_exp(hi).round() as i64).contains(&f)));
        assert!(lo < hi);
    }

    #[test]
    fn generators_are_reproducible() {
        let (a1, p1, c1) = lipa(12, LipaKind::A, 3).unwrap();
        let (a2, p2, c2) = lipa(12, LipaKind::A, 3).unwrap();
        assert_eq!((&a1, &p1, c1), (&a2, &p2, c2));
        assert_ne!(lipa(12, LipaKind::A, 4).unwrap().0, a1);
        assert_eq!(taillard_b(30, 3).unwrap(), taillard_b(30, 3).unwrap());
        assert_ne!(taillard_b(30, 3).unwrap(), taillard_b(30, 4).unwrap());
        assert_eq!(a1.name, "lipa12a-seed3");
        assert_eq!(taillard_b(30, 3).unwrap().name, "tai30b-seed3");
        // pinned outputs: a change of the draws, or a platform computing differently, shows here
        let (la, pa, ca) = lipa(12, LipaKind::A, 1).unwrap();
        let (lb, _, cb) = lipa(12, LipaKind::B, 1).unwrap();
        let t = taillard_b(40, 1).unwrap();
        let got = [
            checksum(&la.a),
            checksum(&la.b),
            checksum(&pa.iter().map(|&x| x as i64).collect::<Vec<_>>()),
            ca as u64,
            checksum(&lb.a),
            cb as u64,
            checksum(&t.a),
            checksum(&t.b),
        ];
        assert_eq!(got, PINNED, "{got:#x?}");
    }

    const PINNED: [u64; 8] = [
        0x2629_fe93_10a5_8543,
        0xaf23_03ac_2e50_558b,
        0xee31_3760_a097_bc63,
        860,
        0xaa04_b258_ec0f_0316,
        4339,
        0x4bfd_5eb4_14c8_c0f3,
        0xdae2_80dd_4142_a913,
    ];

    #[test]
    fn taillard_b_has_the_shape_of_tai_b() {
        for (n, seed) in [(2, 0), (3, 1), (20, 2), (45, 3), (200, 4)] {
            let inst = taillard_b(n, seed).unwrap();
            let (d, f) = (&inst.a, &inst.b);
            for k in 0..n {
                assert_eq!((d[k * n + k], f[k * n + k]), (0, 0));
            }
            assert_eq!(*d, transpose(d, n));
            let dmax = (2.0 * (TAILLARD_CENTRE_RADIUS + TAILLARD_CLUSTER_RADIUS)).ceil() as i64;
            assert!(d.iter().all(|&x| (0..=dmax).contains(&x)));
            // Euclidean up to rounding
            for i in 0..n.min(40) {
                for j in 0..n.min(40) {
                    for k in 0..n.min(40) {
                        assert!(d[i * n + k] <= d[i * n + j] + d[j * n + k] + 1);
                    }
                }
            }
            let (lo, hi) = taillard_flow_exponents(n);
            let fmax = det_exp(hi).round() as i64;
            assert!(f.iter().all(|&x| (0..=fmax).contains(&x)));
            if n >= 20 {
                assert_ne!(*f, transpose(f, n), "flows are asymmetric");
                let zeros = off_diagonal(n).filter(|&(i, j)| f[i * n + j] == 0).count() as f64;
                let share = zeros / (n * (n - 1)) as f64;
                let expected = ((0.5f64).ln() - lo) / (hi - lo);
                let tol = 4.0 * (expected * (1.0 - expected) / (n * (n - 1)) as f64).sqrt();
                assert!(
                    (share - expected).abs() < tol,
                    "n {n}: zeros {share} vs {expected}"
                );
            }
        }
        // the exponent table covers every size with a proper range
        for n in 2..=MAX_N {
            let (lo, hi) = taillard_flow_exponents(n);
            assert!(lo < (0.5f64).ln() && hi > 0.0);
        }
    }

    #[test]
    fn taillard_flow_law_matches_qaplib_tai20b() {
        // QAPLIB's tai20b: distances first (symmetric), flows second (asymmetric, many zeros)
        let q = QapInstance::from_dat(&data_dir().join("tai20b.dat")).unwrap();
        let n = q.n;
        assert_eq!(q.a, transpose(&q.a, n));
        assert_ne!(q.b, transpose(&q.b, n));
        let (lo, hi) = taillard_flow_exponents(n);
        let fmax = det_exp(hi).round() as i64;
        assert!(q.b.iter().all(|&x| (0..=fmax).contains(&x)));
        let share = |f: &[i64]| {
            off_diagonal(n).filter(|&(i, j)| f[i * n + j] == 0).count() as f64
                / (n * (n - 1)) as f64
        };
        let expected = ((0.5f64).ln() - lo) / (hi - lo);
        assert!((share(&q.b) - expected).abs() < 0.05, "{}", share(&q.b));
        // and the largest flows are of the same order as QAPLIB's
        let qmax = *q.b.iter().max().unwrap();
        assert!(qmax as f64 > 0.5 * fmax as f64);
    }

    #[test]
    fn det_exp_is_exp() {
        for t in -2000..=2000 {
            let x = f64::from(t) * 0.01;
            let (got, want) = (det_exp(x), x.exp());
            assert!(
                ((got - want) / want).abs() < 4.0 * f64::EPSILON,
                "{x}: {got} vs {want}"
            );
        }
        assert_eq!(det_exp(0.0), 1.0);
        assert!(det_exp(-1e300) > 0.0 && det_exp(1e300).is_finite());
    }

    #[test]
    fn unit_directions_are_unit_and_spread() {
        let mut rng = Philox::new(1, 2);
        let mut quadrant = [0usize; 4];
        for _ in 0..4000 {
            let (x, y) = unit_direction(&mut rng);
            assert!((x * x + y * y - 1.0).abs() < 1e-12);
            quadrant[usize::from(x < 0.0) + 2 * usize::from(y < 0.0)] += 1;
        }
        assert!(
            quadrant.iter().all(|&c| (850..1150).contains(&c)),
            "{quadrant:?}"
        );
    }
}
