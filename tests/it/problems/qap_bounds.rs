//! The lower bounds of thesis Table 5 (GLB, HRW = eigenvalue bound, PE = projected eigenvalue
//! bound, AB = convex quadratic programming bound) and their projected start permutations:
//! every bound is at most the optimum of small random instances (by enumeration) and at most the
//! best-known value of every shared QAPLIB instance; QPB's first Frank-Wolfe step is PB, and more
//! steps never weaken it.

use crate::common::qaplib;
use metaopt::problem::qap::eigen::{eigenvalue_bound, projected_eigenvalue_bound, qp_bound};
use metaopt::problem::qap::{lower_bound, read_bks_csv, read_sln_auto, LowerBound, QapInstance};

/// splitmix64
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

/// The optimum by enumeration.
fn brute_force(inst: &QapInstance) -> i64 {
    inst.optimum_by_enumeration().expect("small instance")
}

fn is_perm(p: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    p.len() == n
        && p.iter()
            .all(|&v| v < n && !std::mem::replace(&mut seen[v], true))
}

#[test]
fn every_bound_is_at_most_the_optimum_of_small_random_instances() {
    let mut rng = Rng(12);
    for trial in 0..240 {
        let n = 1 + trial % 7;
        // symmetric / one symmetric / neither; with and without diagonals; some negative entries
        let shape = trial % 3;
        let diag = trial % 2 == 0;
        let neg = trial % 5 == 0;
        let mut m = |sym: bool| {
            let mut v: Vec<i64> = (0..n * n)
                .map(|_| {
                    if neg {
                        rng.below(41) - 20
                    } else {
                        rng.below(30)
                    }
                })
                .collect();
            for i in 0..n {
                for j in 0..i {
                    if sym {
                        v[i * n + j] = v[j * n + i];
                    }
                }
                if !diag {
                    v[i * n + i] = 0;
                }
            }
            v
        };
        let a = m(shape == 0);
        let b = m(shape <= 1);
        let inst = QapInstance::new("r", n, a, b).unwrap();
        let opt = brute_force(&inst);
        let mut pb = i64::MIN;
        for kind in LowerBound::ALL {
            let r = lower_bound(&inst, kind);
            assert!(
                is_perm(&r.permutation, n),
                "trial {trial} {kind:?}: {:?}",
                r.permutation
            );
            assert!(
                r.bound <= opt,
                "trial {trial} {kind:?}: bound {} > optimum {opt}",
                r.bound
            );
            assert!(
                r.value <= opt as f64 + 1e-6,
                "trial {trial} {kind:?}: {} > {opt}",
                r.value
            );
            assert!((r.bound as f64) <= r.value.ceil());
            if kind == LowerBound::Pe {
                pb = r.bound;
            }
            if kind == LowerBound::Ab {
                assert!(r.bound >= pb, "trial {trial}: QPB {} < PB {pb}", r.bound);
            }
        }
    }
}

#[test]
fn every_bound_is_at_most_the_best_known_value_of_every_shared_instance() {
    let dir = qaplib();
    let bks = read_bks_csv(&dir.join("BKS.csv")).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    names.sort();
    println!(
        "{:<10} {:>4} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "instance", "n", "BKS", "GLB", "EVB", "PB", "QPB"
    );
    for path in names {
        let inst = QapInstance::from_dat(&path).unwrap();
        let best = bks[&inst.name].bks;
        let sln = dir.join("sln").join(format!("{}.sln", inst.name));
        let sln_value = sln.is_file().then(|| read_sln_auto(&sln).unwrap().value);
        let mut row = Vec::new();
        for kind in [
            LowerBound::Glb,
            LowerBound::Hrw,
            LowerBound::Pe,
            LowerBound::Ab,
        ] {
            let r = lower_bound(&inst, kind);
            assert!(is_perm(&r.permutation, inst.n), "{} {kind:?}", inst.name);
            assert!(
                r.bound <= best,
                "{} {kind:?}: bound {} > BKS {best}",
                inst.name,
                r.bound
            );
            if let Some(v) = sln_value {
                assert!(r.bound <= v, "{} {kind:?}", inst.name);
            }
            row.push(r.bound);
        }
        assert!(
            row[3] >= row[2],
            "{}: QPB {} < PB {}",
            inst.name,
            row[3],
            row[2]
        );
        println!(
            "{:<10} {:>4} {:>12} {:>12} {:>12} {:>12} {:>12}",
            inst.name, inst.n, best, row[0], row[1], row[2], row[3]
        );
    }
}

#[test]
fn qpb_starts_at_pb_and_more_steps_never_weaken_it() {
    for name in [
        "nug12", "had12", "chr12a", "rou12", "tai12a", "bur26a", "lipa20a",
    ] {
        let inst = QapInstance::from_dat(&qaplib().join(format!("{name}.dat"))).unwrap();
        let pb = projected_eigenvalue_bound(&inst);
        let one = qp_bound(&inst, 1);
        assert!(
            (one.value - pb.value).abs() <= 1e-6 * (1.0 + pb.value.abs()),
            "{name}: {} vs {}",
            one.value,
            pb.value
        );
        let mut last = one.value;
        for it in [5, 20, 100] {
            let v = qp_bound(&inst, it).value;
            assert!(
                v >= last - 1e-9 * (1.0 + last.abs()),
                "{name}: {it} steps {v} < {last}"
            );
            last = v;
        }
        assert!(eigenvalue_bound(&inst).bound <= inst.cost(&pb.permutation));
    }
}

/// The repository's own data (the published values are not part of the shared collection that
/// `METAOPT_DATA_DIR` may replace).
fn repo_qaplib() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/qaplib")
}

#[test]
fn published_bounds_match() {
    let text = std::fs::read_to_string(repo_qaplib().join("published_bounds.csv")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let inst = QapInstance::from_dat(&repo_qaplib().join(format!("{}.dat", f[0]))).unwrap();
        let want: i64 = f[2].parse().unwrap();
        let kind = match f[1] {
            "GLB" => LowerBound::Glb,
            "EVB" => LowerBound::Hrw,
            "PB" => LowerBound::Pe,
            "QPB" => LowerBound::Ab,
            other => panic!("unknown bound {other}"),
        };
        let r = lower_bound(&inst, kind);
        // published values are rounded up
        assert_eq!(
            r.bound, want,
            "{} {}: ours {} ({})",
            f[0], f[1], r.bound, r.value
        );
        assert_eq!(r.value.ceil() as i64, want, "{} {}", f[0], f[1]);
        checked += 1;
    }
    assert_eq!(checked, 6);
}
