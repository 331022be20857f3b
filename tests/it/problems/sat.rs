//! DIMACS parsing, the host references, MCSX and DXAC on the device and the rayon evaluator, on
//! every shared SATLIB family (docs/specs/SAT.md).

use crate::common;
use metaopt::error::Error;
use metaopt::problem::sat::{v_lines, verify, Assignment, ClauseCounts, Cnf, LitType, Model};
use metaopt::rng::Philox;
use metaopt::sat::cpu as cpu_sat;
use metaopt::sat::eval::DeviceSat;
use std::path::{Path, PathBuf};

/// The SATLIB folder of the test data (`common::data_dir`: `METAOPT_DATA_DIR` or `data/`).
fn satlib() -> PathBuf {
    common::satlib("")
}

/// (family, sorted files) of every shared family.
fn families() -> Vec<(String, Vec<PathBuf>)> {
    let mut fams: Vec<(String, Vec<PathBuf>)> = std::fs::read_dir(satlib())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|d| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "cnf"))
                .collect();
            files.sort();
            (d.file_name().unwrap().to_string_lossy().into_owned(), files)
        })
        .collect();
    fams.sort();
    assert!(
        fams.len() >= 20,
        "expected the 20 shared families in {}",
        satlib().display()
    );
    fams
}

/// The `p cnf V C` counts as written in the file.
fn header_counts(path: &Path) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let l = text.lines().find(|l| l.starts_with("p ")).unwrap();
    let t: Vec<&str> = l.split_whitespace().collect();
    (t[2].parse().unwrap(), t[3].parse().unwrap())
}

#[test]
fn every_shared_file_parses_with_the_header_counts() {
    let mut n = 0;
    for (_, files) in families() {
        for f in files {
            let cnf = Cnf::from_file(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let (v, c) = header_counts(&f);
            assert_eq!((cnf.num_vars, cnf.num_clauses()), (v, c), "{}", f.display());
            assert_eq!(*cnf.offsets.last().unwrap() as usize, cnf.literals.len());
            assert!(cnf.clauses().all(|c| !c.is_empty()));
            assert_eq!(cnf.name, f.file_stem().unwrap().to_string_lossy());
            n += 1;
        }
    }
    assert!(n >= 263, "{n} files");
}

#[test]
fn uf20_first_clauses_and_literal_types() {
    let f = satlib().join("uf20-91/uf20-01.cnf");
    let cnf = Cnf::from_file(&f).unwrap();
    assert_eq!(cnf.clause(0), &[4, -18, 19]);
    assert_eq!(cnf.clause(1), &[3, 18, -5]);
    assert_eq!(cnf.lit_type(), LitType::I8);
    assert_eq!(cnf.packed_literals().len(), cnf.literals.len());
    let big = Cnf::from_file(&satlib().join("logistics/logistics.d.cnf")).unwrap();
    assert_eq!(big.lit_type(), LitType::I16);
    assert_eq!(big.packed_literals().len(), 2 * big.literals.len());
}

/// Random assignments plus all-false and all-true.
fn assignments(num_vars: usize, random: usize, seed: u64) -> Vec<Assignment> {
    let mut rng = Philox::new(seed, 0);
    let mut v = vec![
        Assignment::all_false(num_vars),
        Assignment::all_true(num_vars),
    ];
    v.extend((0..random).map(|_| Assignment::random(num_vars, &mut rng)));
    v
}

#[test]
fn rayon_evaluator_equals_the_host_reference_on_every_file() {
    for (_, files) in families() {
        for f in files {
            let cnf = Cnf::from_file(&f).unwrap();
            let asg = assignments(cnf.num_vars, 6, 11);
            let r = cpu_sat::evaluate_many(&cnf, &asg, true).unwrap();
            let counts = r.counts.as_ref().unwrap();
            let plain = cpu_sat::evaluate_many(&cnf, &asg, false).unwrap();
            assert_eq!(plain.satisfied, r.satisfied);
            for (i, a) in asg.iter().enumerate() {
                let m = cnf.num_clauses();
                assert_eq!(
                    &counts[i * m..(i + 1) * m],
                    cnf.true_counts(a).as_slice(),
                    "{} #{i}",
                    f.display()
                );
                assert_eq!(
                    r.satisfied[i],
                    cnf.satisfied_count(a),
                    "{} #{i}",
                    f.display()
                );
                assert_eq!(r.is_model(i), cnf.is_satisfied_by(a));
            }
        }
    }
}

#[test]
fn mcsx_and_dxac_equal_the_host_reference_for_every_family() {
    let mut dev: Option<String> = None;
    for (fam, files) in families() {
        // the first and the last file of each family keep the device part short
        let pick: Vec<&PathBuf> = if files.len() > 1 {
            vec![&files[0], &files[files.len() - 1]]
        } else {
            vec![&files[0]]
        };
        for f in pick {
            let cnf = Cnf::from_file(f).unwrap();
            let mut ds = DeviceSat::new(&cnf).unwrap();
            dev.get_or_insert_with(|| ds.describe());
            // enough assignments for more than one DXAC work-group and a pitch with padding
            let asg = assignments(
                cnf.num_vars,
                if cnf.num_clauses() > 50_000 { 20 } else { 70 },
                5,
            );
            let host_sat: Vec<u32> = asg.iter().map(|a| cnf.satisfied_count(a)).collect();
            let host_counts: Vec<u32> = asg.iter().flat_map(|a| cnf.true_counts(a)).collect();

            let d = ds.dxac(&asg, true).unwrap();
            assert_eq!(d.satisfied, host_sat, "DXAC {fam} {}", f.display());
            assert_eq!(
                d.counts.as_ref().unwrap(),
                &host_counts,
                "DXAC counts {}",
                f.display()
            );
            let d2 = ds.dxac(&asg[..3], false).unwrap();
            assert_eq!(
                d2.satisfied,
                host_sat[..3],
                "DXAC without counts {}",
                f.display()
            );
            assert!(d2.counts.is_none());
            let cpu = cpu_sat::evaluate_many(&cnf, &asg, true).unwrap();
            assert_eq!(cpu, d, "rayon vs DXAC {}", f.display());

            let m = cnf.num_clauses();
            for (i, a) in asg.iter().enumerate().take(6) {
                let r = ds.mcsx(a, i % 2 == 0).unwrap();
                assert_eq!(r.satisfied, host_sat[i], "MCSX {} #{i}", f.display());
                assert_eq!(r.all, host_sat[i] as usize == m);
                if let Some(c) = r.counts {
                    assert_eq!(
                        c,
                        host_counts[i * m..(i + 1) * m],
                        "MCSX counts {} #{i}",
                        f.display()
                    );
                }
            }
        }
    }
    eprintln!("device: {}", dev.unwrap());
}

#[test]
fn the_all_satisfied_flag_on_a_model() {
    // a uf20 model found by brute force on the host, then checked by every evaluator
    let cnf = Cnf::from_file(&satlib().join("uf20-91/uf20-01.cnf")).unwrap();
    let model = (0u32..1 << 20)
        .map(|bits| Assignment::from_words(20, vec![bits]).unwrap())
        .find(|a| cnf.is_satisfied_by(a))
        .expect("uf20-01 is satisfiable");
    verify(&cnf, &model).unwrap();
    let mut ds = DeviceSat::new(&cnf).unwrap();
    let r = ds.mcsx(&model, false).unwrap();
    assert!(r.all);
    assert_eq!(r.satisfied, 91);
    let d = ds
        .dxac(&[model.clone(), Assignment::all_false(20)], false)
        .unwrap();
    assert!(d.is_model(0));
    assert_eq!(
        d.is_model(1),
        cnf.is_satisfied_by(&Assignment::all_false(20))
    );
    let m = Model::verified(&cnf, model).unwrap();
    let v = m.v_lines();
    assert!(v.lines().all(|l| l.starts_with("v ")));
    assert!(v.trim_end().ends_with(" 0"));
}

#[test]
fn tautologies_duplicates_and_wide_literal_types_on_the_device() {
    // 300 variables: 16-bit literals; a clause with v and -v is always true; a repeated literal
    // counts twice
    let n = 300;
    let clauses: Vec<Vec<i32>> = vec![
        vec![1, -1],
        vec![5, 5, -7],
        vec![-300, 299, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        vec![300],
    ];
    let cnf = Cnf::from_clauses("t", n, &clauses).unwrap();
    assert_eq!(cnf.lit_type(), LitType::I16);
    let asg = assignments(n, 30, 3);
    let mut ds = DeviceSat::new(&cnf).unwrap();
    let d = ds.dxac(&asg, true).unwrap();
    for (i, a) in asg.iter().enumerate() {
        let c = &d.counts.as_ref().unwrap()[i * 4..i * 4 + 4];
        assert_eq!(c, cnf.true_counts(a).as_slice());
        assert_eq!(c[0], 1, "a tautology has exactly one true literal");
        assert_eq!(
            c[1],
            2 * a.get(5) as u32 + !a.get(7) as u32,
            "5 counts twice"
        );
        assert_eq!(ds.mcsx(a, true).unwrap().counts.unwrap(), c);
    }
    // 40,000 variables: 32-bit literals
    let big =
        Cnf::from_clauses("b", 40_000, [vec![-40_000, 1], vec![39_999], vec![-2, -3]]).unwrap();
    assert_eq!(big.lit_type(), LitType::I32);
    let asg = assignments(40_000, 5, 9);
    let mut ds = DeviceSat::new(&big).unwrap();
    let want: Vec<u32> = asg.iter().map(|a| big.satisfied_count(a)).collect();
    assert_eq!(ds.dxac(&asg, false).unwrap().satisfied, want);
    for (a, w) in asg.iter().zip(&want) {
        assert_eq!(ds.mcsx(a, false).unwrap().satisfied, *w);
    }
}

#[test]
fn incremental_counts_follow_flips() {
    let cnf = Cnf::from_file(&satlib().join("uf50-218/uf50-01.cnf")).unwrap();
    let occ = cnf.occurrences();
    assert_eq!(occ.clauses.len(), cnf.literals.len());
    for v in 1..=cnf.num_vars {
        let want: Vec<u32> = (0..cnf.num_clauses() as u32)
            .filter(|&c| {
                cnf.clause(c as usize)
                    .iter()
                    .any(|l| l.unsigned_abs() as usize == v)
            })
            .collect();
        let mut got = occ.of_var(v).to_vec();
        got.sort();
        got.dedup();
        assert_eq!(got, want, "variable {v}");
    }
    let mut rng = Philox::new(4, 0);
    let mut st = ClauseCounts::new(&cnf, Assignment::random(cnf.num_vars, &mut rng));
    for _ in 0..500 {
        let v = rng.below(cnf.num_vars as u32) as usize + 1;
        let before = st.unsatisfied;
        let (mk, br) = (st.make_count(&occ, v), st.break_count(&occ, v));
        st.flip(&occ, v);
        assert_eq!(st.unsatisfied as i64, before as i64 - mk as i64 + br as i64);
        assert_eq!(st.counts, cnf.true_counts(&st.assignment));
        assert_eq!(st.unsatisfied, cnf.unsatisfied_count(&st.assignment));
    }
}

#[test]
fn verify_names_a_planted_unsatisfied_clause() {
    let cnf = Cnf::from_clauses("h", 3, [vec![1, 2], vec![-1, 3], vec![-2, -3]]).unwrap();
    let good = Assignment::from_bools(&[true, false, true]);
    verify(&cnf, &good).unwrap();
    assert_eq!(
        Model::verified(&cnf, good.clone()).unwrap().v_lines(),
        "v 1 -2 3 0\n"
    );
    assert_eq!(v_lines(&good), "v 1 -2 3 0\n");
    // x1 = x2 = x3 = true leaves only clause 3 false
    let bad = Assignment::all_true(3);
    let e = verify(&cnf, &bad).unwrap_err().to_string();
    assert!(e.contains("clause 3 of 3") && e.contains("-2 -3 0"), "{e}");
    assert!(Model::verified(&cnf, bad).is_err());
    assert!(verify(&cnf, &Assignment::all_true(4)).is_err());

    // a planted clause in a real instance: the negation of a model's first literals
    let f = satlib().join("uf20-91/uf20-01.cnf");
    let base = Cnf::from_file(&f).unwrap();
    let model = (0u32..1 << 20)
        .map(|bits| Assignment::from_words(20, vec![bits]).unwrap())
        .find(|a| base.is_satisfied_by(a))
        .unwrap();
    let planted: Vec<i32> = (1..=3)
        .map(|v| if model.get(v) { -(v as i32) } else { v as i32 })
        .collect();
    let mut clauses: Vec<Vec<i32>> = base.clauses().map(<[i32]>::to_vec).collect();
    clauses.insert(40, planted.clone());
    let cnf = Cnf::from_clauses("planted", 20, &clauses).unwrap();
    let e = verify(&cnf, &model).unwrap_err().to_string();
    assert!(e.contains("clause 41 of 92"), "{e}");
}

fn parse_err(text: &str) -> (usize, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.cnf");
    std::fs::write(&p, text).unwrap();
    match Cnf::from_file(&p) {
        Err(Error::Parse { path, line, msg }) => {
            assert_eq!(path, p);
            (line, msg)
        }
        other => panic!("expected a parse error for {text:?}, got {other:?}"),
    }
}

#[test]
fn malformed_files_give_the_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("c x\np cnf 3 2\n1 2 0\n4 0\n", 4, "out of range"),
        ("p cnf 3 2\n1 -2 0\n-3 0\n1 0\n", 4, "more clauses"),
        (
            "p cnf 3 3\n1 -2 0\n-3 0\nc end\n",
            4,
            "declares 3 clauses but the file holds 2",
        ),
        ("c only\n1 2 0\n", 2, "before the `p cnf"),
        ("c only comments\n", 1, "no `p cnf"),
        ("p cnf 3\n1 0\n", 1, "bad header"),
        ("p sat 3 1\n1 0\n", 1, "bad header"),
        ("p cnf x 1\n1 0\n", 1, "bad header"),
        ("p cnf 3 1\np cnf 3 1\n1 0\n", 2, "second `p` header"),
        ("p cnf 3 1\n1 a 0\n", 2, "`a` is not an integer"),
        ("p cnf 3 1\n1 2.5 0\n", 2, "not an integer"),
        ("p cnf 3 2\n1 0\n\n0\n", 4, "empty clause"),
        ("p cnf 3 1\n1 -0\n", 2, "`-0` is not a literal"),
        ("p cnf 3 1\n1 99999999999999999999 0\n", 2, "out of range"),
        ("p cnf 3 1\n-4 0\n", 2, "literal -4 is out of range"),
    ];
    for &(text, line, frag) in cases {
        let (l, m) = parse_err(text);
        assert_eq!(l, line, "{text:?}: {m}");
        assert!(m.contains(frag), "{text:?}: `{m}` lacks `{frag}`");
    }
    // the message carries the file and the line
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.cnf");
    std::fs::write(&p, "p cnf 2 1\n3 0\n").unwrap();
    let e = Cnf::from_file(&p).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}:2: ", p.display())), "{e}");
    assert!(matches!(
        Cnf::from_file(&dir.path().join("none.cnf")),
        Err(Error::Io { .. })
    ));
}

#[test]
fn accepted_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("ok.cnf");
    // clauses over lines, several per line, comments between, CRLF, no final 0, % then 0
    std::fs::write(
        &p,
        "c a\r\np  cnf  4  4 \r\n1\r\n-2 0 3 0\r\nc between\r\n-4 1 0 2\r\n 3 4\r\n%\r\n0\r\n",
    )
    .unwrap();
    let c = Cnf::from_file(&p).unwrap();
    assert_eq!(
        c.clauses().collect::<Vec<_>>(),
        vec![&[1, -2][..], &[3], &[-4, 1], &[2, 3, 4]]
    );
    // a missing final 0 at the end of the file
    std::fs::write(&p, "p cnf 2 2\n1 0\n-1 2").unwrap();
    assert_eq!(Cnf::from_file(&p).unwrap().clause(1), &[-1, 2]);
    // an empty formula
    std::fs::write(&p, "p cnf 0 0\n").unwrap();
    let e = Cnf::from_file(&p).unwrap();
    assert_eq!(e.num_clauses(), 0);
    verify(&e, &Assignment::all_false(0)).unwrap();
}
