//! The SAT C ABI called directly from Rust: parsing files and clause arrays, error codes and
//! messages, evaluation of many assignments (device and CPU) against the host reference, the
//! solver's verified models and its answer on an unsatisfiable formula, and handle validation.

use crate::common;
use crate::common::cabi::*;
use metaopt::ffi::*;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::rng::Philox;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::ptr;

const IO: i32 = MetaoptErrorCode::MetaoptErrIo as i32;
const PARSE: i32 = MetaoptErrorCode::MetaoptErrParse as i32;

fn satlib(rel: &str) -> PathBuf {
    common::satlib(rel)
}

fn c_path(p: &Path) -> CString {
    CString::new(p.to_str().unwrap()).unwrap()
}

fn parse(p: &Path) -> MetaoptSatParseResult {
    let c = c_path(p);
    unsafe { metaopt_sat_parse(c.as_ptr()) }
}

fn instance(r: MetaoptSatParseResult) -> *mut MetaoptSatInstance {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null() && !r.instance.is_null());
    r.instance
}

fn expect_parse_error(r: MetaoptSatParseResult, want: i32, needle: &str) {
    assert!(r.instance.is_null());
    assert_eq!((r.num_vars, r.num_clauses), (0, 0));
    expect_error(r.error_code, r.error_message, want, needle);
}

/// `metaopt_sat_evaluate` of a flat array, the counts copied out and the result freed.
fn evaluate(
    h: *mut MetaoptSatInstance,
    flat: &[u32],
    count: u32,
    cpu: bool,
) -> Result<(Vec<u32>, u32), (i32, String)> {
    let mut r = unsafe { metaopt_sat_evaluate(h, flat.as_ptr(), count, cpu as u8) };
    if r.error_code != OK {
        assert!(r.satisfied.is_null() && r.count == 0);
        return Err((r.error_code, take_message(r.error_message)));
    }
    assert!(r.error_message.is_null() && !r.satisfied.is_null());
    assert_eq!(r.count, count);
    let v = unsafe { std::slice::from_raw_parts(r.satisfied, r.count as usize) }.to_vec();
    let clauses = r.num_clauses;
    unsafe {
        metaopt_sat_free_eval_result(&mut r);
        metaopt_sat_free_eval_result(&mut r); // harmless twice
    }
    assert!(r.satisfied.is_null() && r.count == 0);
    Ok((v, clauses))
}

/// A solve's result copied out of the C struct (which is freed).
#[derive(Debug)]
struct Solved {
    satisfiable: bool,
    best_unsatisfied: u32,
    assignment: Vec<u32>,
    model: Option<Vec<i32>>,
    runs: u32,
    iterations: u64,
    method: i32,
    walks: u32,
    flips: u64,
    restarts: u64,
    flips_per_second: f64,
    stop_reason: i32,
}

fn solve(
    h: *mut MetaoptSatInstance,
    o: *const MetaoptSatSolveOptions,
) -> Result<Solved, (i32, String)> {
    let mut r = unsafe { metaopt_sat_solve(h, o) };
    if r.error_code != OK {
        assert!(r.assignment.is_null() && r.model_literals.is_null());
        return Err((r.error_code, take_message(r.error_message)));
    }
    assert!(r.error_message.is_null() && !r.assignment.is_null());
    let s = Solved {
        satisfiable: r.satisfiable != 0,
        best_unsatisfied: r.best_unsatisfied,
        assignment: unsafe { std::slice::from_raw_parts(r.assignment, r.words as usize) }.to_vec(),
        model: (!r.model_literals.is_null()).then(|| {
            unsafe { std::slice::from_raw_parts(r.model_literals, r.num_vars as usize) }.to_vec()
        }),
        runs: r.runs,
        iterations: r.iterations,
        method: r.method,
        walks: r.walks,
        flips: r.flips,
        restarts: r.restarts,
        flips_per_second: r.flips_per_second,
        stop_reason: r.stop_reason,
    };
    assert!(r.seconds >= 0.0 && r.evaluations >= r.iterations);
    unsafe {
        metaopt_sat_free_solve_result(&mut r);
        metaopt_sat_free_solve_result(&mut r);
    }
    assert!(r.assignment.is_null() && r.model_literals.is_null() && r.words == 0);
    Ok(s)
}

#[test]
fn parses_a_satlib_file() {
    let _shared = shared();
    let path = satlib("uf20-91/uf20-01.cnf");
    let r = parse(&path);
    let (vars, clauses) = (r.num_vars, r.num_clauses);
    let h = instance(r);
    assert_eq!((vars, clauses), (20, 91));
    assert_eq!(expect_ok(unsafe { metaopt_sat_words_per_assignment(h) }), 1);
    unsafe { metaopt_sat_free(h) };
}

#[test]
fn file_errors_have_codes_and_line_numbers() {
    let _shared = shared();
    let missing = satlib("uf20-91/no-such-file.cnf");
    expect_parse_error(parse(&missing), IO, "no-such-file.cnf");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.cnf");
    std::fs::write(&bad, "c a comment\np cnf 3 2\n1 -2 0\n2 7 0\n").unwrap();
    expect_parse_error(parse(&bad), PARSE, "bad.cnf:4");
    let header = dir.path().join("header.cnf");
    std::fs::write(&header, "p dnf 3 2\n1 0\n").unwrap();
    expect_parse_error(parse(&header), PARSE, "header.cnf:1");

    let r = unsafe { metaopt_sat_parse(ptr::null()) };
    expect_parse_error(r, NULL, "cnf_path");
}

#[test]
fn clauses_from_an_array() {
    let _shared = shared();
    // (x1 ∨ ¬x2) ∧ (x2 ∨ x3) ∧ (¬x1)
    let lits = [1, -2, 0, 2, 3, 0, -1, 0];
    let r = unsafe { metaopt_sat_from_clauses(3, lits.as_ptr(), lits.len() as u64) };
    assert_eq!((r.num_vars, r.num_clauses), (3, 3));
    let h = instance(r);
    // x1 = 0, x2 = 0, x3 = 1 satisfies all; all true satisfies 2
    let (sat, clauses) = evaluate(h, &[0b100, 0b111], 2, true).unwrap();
    assert_eq!((sat, clauses), (vec![3, 2], 3));
    unsafe { metaopt_sat_free(h) };

    let unterminated = [1, 2];
    let r = unsafe { metaopt_sat_from_clauses(3, unterminated.as_ptr(), 2) };
    expect_parse_error(r, INVALID, "does not end with 0");
    let empty_clause = [1, 0, 0];
    let r = unsafe { metaopt_sat_from_clauses(3, empty_clause.as_ptr(), 3) };
    expect_parse_error(r, INVALID, "empty");
    let out_of_range = [1, -4, 0];
    let r = unsafe { metaopt_sat_from_clauses(3, out_of_range.as_ptr(), 3) };
    expect_parse_error(r, INVALID, "-4");
    let r = unsafe { metaopt_sat_from_clauses(3, ptr::null(), 3) };
    expect_parse_error(r, NULL, "literals");
    // a variable count beyond the maximum names num_vars, not the literals
    let r = unsafe { metaopt_sat_from_clauses(1 << 31, lits.as_ptr(), lits.len() as u64) };
    expect_parse_error(r, INVALID, "`num_vars`");
}

#[test]
fn evaluate_equals_the_host_reference_on_device_and_cpu() {
    let _shared = shared();
    for file in [
        "uf20-91/uf20-01.cnf",
        "uf50-218/uf50-01.cnf",
        "uuf50-218/uuf50-01.cnf",
    ] {
        let path = satlib(file);
        let cnf = Cnf::from_file(&path).unwrap();
        let h = instance(parse(&path));
        let words = expect_ok(unsafe { metaopt_sat_words_per_assignment(h) }) as usize;
        assert_eq!(words, Assignment::words_for(cnf.num_vars));
        let mut rng = Philox::new(7, 0);
        let batch: Vec<Assignment> = (0..300)
            .map(|_| Assignment::random(cnf.num_vars, &mut rng))
            .collect();
        let flat: Vec<u32> = batch.iter().flat_map(|a| a.words().to_vec()).collect();
        let want: Vec<u32> = batch.iter().map(|a| cnf.satisfied_count(a)).collect();
        for cpu in [false, true] {
            let (got, clauses) = evaluate(h, &flat, batch.len() as u32, cpu).unwrap();
            assert_eq!(clauses as usize, cnf.num_clauses());
            assert_eq!(got, want, "{file}, cpu {cpu}");
        }
        unsafe { metaopt_sat_free(h) };
    }
}

#[test]
fn evaluate_checks_its_arguments() {
    let _shared = shared();
    let h = instance(parse(&satlib("uf20-91/uf20-01.cnf")));
    // 20 variables: bits 20..31 of the single word are padding
    for cpu in [false, true] {
        let (code, msg) = evaluate(h, &[0x000f_ffff, 1 << 20], 2, cpu).unwrap_err();
        assert_eq!(code, INVALID, "{msg}");
        assert!(
            msg.contains("assignments")
                && msg.contains("row 1")
                && msg.contains("past variable 20"),
            "{msg}"
        );
        let (code, msg) = evaluate(h, &[0], 0, cpu).unwrap_err();
        assert_eq!(code, INVALID, "{msg}");
        assert!(msg.contains("count"), "{msg}");
    }
    assert_eq!(evaluate(h, &[0x000f_ffff], 1, false).unwrap().1, 91);
    let mut r = unsafe { metaopt_sat_evaluate(h, ptr::null(), 1, 0) };
    assert!(r.satisfied.is_null());
    expect_error(r.error_code, r.error_message, NULL, "assignments");
    r.error_message = ptr::null_mut();
    unsafe { metaopt_sat_free_eval_result(&mut r) };
    let r = unsafe { metaopt_sat_evaluate(ptr::null_mut(), [0u32].as_ptr(), 1, 1) };
    expect_error(r.error_code, r.error_message, NULL, "h");
    let r = unsafe { metaopt_sat_words_per_assignment(ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "h");
    unsafe {
        metaopt_sat_free_eval_result(ptr::null_mut());
        metaopt_sat_free(h);
    }
}

const PROBSAT: i32 = MetaoptSatMethod::MetaoptSatProbsat as i32;
const WALKSAT: i32 = MetaoptSatMethod::MetaoptSatWalksat as i32;
const HC12: i32 = MetaoptSatMethod::MetaoptSatHc12 as i32;
const STOP_TARGET: i32 = 1;
const STOP_TIME_LIMIT: i32 = 2;
const STOP_LIMIT: i32 = 3;

#[test]
fn solve_finds_a_model_that_satisfies_every_clause() {
    let _shared = shared();
    for file in [
        "uf20-91/uf20-01.cnf",
        "uf50-218/uf50-01.cnf",
        "uf100-430/uf100-01.cnf",
    ] {
        let path = satlib(file);
        let cnf = Cnf::from_file(&path).unwrap();
        let h = instance(parse(&path));
        let d = metaopt_sat_default_solve_options();
        for (method, backend, walks) in [
            (PROBSAT, 0, 0),
            (PROBSAT, 1, 2),
            (WALKSAT, 0, 3),
            (WALKSAT, 1, 0),
            (HC12, 0, 0),
        ] {
            let opts = MetaoptSatSolveOptions {
                method,
                backend,
                walks,
                ..d
            };
            let s = solve(h, &opts).unwrap();
            assert!(
                s.satisfiable && s.best_unsatisfied == 0 && s.stop_reason == STOP_TARGET,
                "{file} {method}: {s:?}"
            );
            assert_eq!(s.method, method);
            if method == HC12 {
                assert!(
                    s.runs >= 1 && s.iterations >= 1 && s.walks == 0 && s.flips == 0,
                    "{file}: {s:?}"
                );
            } else {
                assert!(
                    s.runs == 0 && s.walks >= 1 && s.flips >= 1 && s.flips_per_second > 0.0,
                    "{file} {method}: {s:?}"
                );
                if walks > 0 {
                    assert_eq!(s.walks, walks);
                }
            }
            let model = s.model.expect("a model when satisfiable");
            assert_eq!(model.len(), cnf.num_vars);
            for (i, &l) in model.iter().enumerate() {
                assert_eq!(
                    l.unsigned_abs() as usize,
                    i + 1,
                    "literal {i} names its variable"
                );
            }
            // check the literals against the file's clauses, independently of the library
            for (k, clause) in cnf.clauses().enumerate() {
                assert!(
                    clause
                        .iter()
                        .any(|l| model[l.unsigned_abs() as usize - 1] == *l),
                    "{file}: clause {k} unsatisfied"
                );
            }
            // the packed assignment says the same
            for (i, &l) in model.iter().enumerate() {
                assert_eq!((s.assignment[i / 32] >> (i % 32)) & 1 == 1, l > 0);
            }
        }
        // the same seed gives the same search (HC12; one walk on the CPU)
        for opts in [
            MetaoptSatSolveOptions { method: HC12, ..d },
            MetaoptSatSolveOptions {
                walks: 1,
                backend: 1,
                ..d
            },
        ] {
            let s = solve(h, &opts).unwrap();
            let again = solve(h, &opts).unwrap();
            assert_eq!(
                (again.assignment, again.iterations, again.flips),
                (s.assignment, s.iterations, s.flips)
            );
        }
        unsafe { metaopt_sat_free(h) };
    }
}

#[test]
fn unsatisfiable_formula_reports_its_best_count() {
    let _shared = shared();
    let h = instance(parse(&satlib("uuf50-218/uuf50-01.cnf")));
    for method in [PROBSAT, HC12] {
        let opts = MetaoptSatSolveOptions {
            method,
            time_limit_s: 1.0,
            ..metaopt_sat_default_solve_options()
        };
        let s = solve(h, &opts).unwrap();
        assert!(!s.satisfiable && s.model.is_none(), "{s:?}");
        assert!(s.best_unsatisfied >= 1, "{s:?}");
        assert_eq!(s.stop_reason, STOP_TIME_LIMIT, "{s:?}");
        assert_eq!(s.assignment.len(), 2);
        assert_eq!(s.flips > 0, method == PROBSAT, "{s:?}");
    }
    // a flip budget: exactly that many flips per walk, a restart every 1000 flips
    let d = metaopt_sat_default_solve_options();
    let opts = MetaoptSatSolveOptions {
        backend: 1,
        walks: 2,
        max_flips: 5000,
        restart_flips: 1000,
        flips_per_launch: 700,
        time_limit_s: 0.0,
        ..d
    };
    let s = solve(h, &opts).unwrap();
    assert_eq!(
        (s.flips, s.restarts, s.walks, s.stop_reason),
        (10_000, 8, 2, STOP_LIMIT),
        "{s:?}"
    );
    assert!(!s.satisfiable && s.best_unsatisfied >= 1);
    // the device walks go through the same assignments as the CPU backend
    let dev = solve(h, &MetaoptSatSolveOptions { backend: 0, ..opts }).unwrap();
    assert_eq!(
        (dev.flips, dev.restarts, dev.best_unsatisfied),
        (s.flips, s.restarts, s.best_unsatisfied),
        "{dev:?}"
    );
    unsafe { metaopt_sat_free(h) };
}

#[test]
fn solve_checks_its_options() {
    let _shared = shared();
    let h = instance(parse(&satlib("uf20-91/uf20-01.cnf")));
    let d = metaopt_sat_default_solve_options();
    assert_eq!(
        (d.method, d.walks, d.backend, d.max_flips),
        (PROBSAT, 0, 0, 0)
    );
    assert_eq!(
        (d.cb, d.eps, d.noise, d.restart_flips, d.flips_per_launch),
        (0.0, 0.0, 0.567, u64::MAX, 4096)
    );
    assert_eq!((d.mask_order, d.runs, d.seed), (1, 0, 1));
    assert!(
        d.tabu_length > 0
            && d.tabu_max_iterations > 0
            && d.tabu_max_no_improve > 0
            && d.time_limit_s > 0.0
    );
    let hc = MetaoptSatSolveOptions { method: HC12, ..d };
    let cases = [
        (
            MetaoptSatSolveOptions {
                mask_order: 3,
                ..hc
            },
            "opts.mask_order",
        ),
        (
            MetaoptSatSolveOptions {
                time_limit_s: f64::NAN,
                ..hc
            },
            "opts.time_limit_s",
        ),
        (
            MetaoptSatSolveOptions {
                time_limit_s: -1.0,
                ..hc
            },
            "opts.time_limit_s",
        ),
        (
            MetaoptSatSolveOptions {
                time_limit_s: 0.0,
                runs: 0,
                ..hc
            },
            "opts.runs",
        ),
        (
            MetaoptSatSolveOptions {
                tabu_max_no_improve: 0,
                ..hc
            },
            "opts.tabu_max_no_improve",
        ),
        (
            MetaoptSatSolveOptions {
                tabu_length: u32::MAX,
                ..hc
            },
            "opts.tabu_length",
        ),
        (MetaoptSatSolveOptions { method: 3, ..d }, "opts.method"),
        (MetaoptSatSolveOptions { method: -1, ..d }, "opts.method"),
        (
            MetaoptSatSolveOptions {
                time_limit_s: f64::NAN,
                ..d
            },
            "opts.time_limit_s",
        ),
        (
            MetaoptSatSolveOptions {
                time_limit_s: 0.0,
                ..d
            },
            "opts.max_flips",
        ),
        (MetaoptSatSolveOptions { cb: -1.0, ..d }, "opts.cb"),
        (
            MetaoptSatSolveOptions {
                cb: f64::INFINITY,
                ..d
            },
            "opts.cb",
        ),
        (MetaoptSatSolveOptions { eps: f64::NAN, ..d }, "opts.eps"),
        (
            MetaoptSatSolveOptions {
                method: WALKSAT,
                noise: 1.5,
                ..d
            },
            "opts.noise",
        ),
        (MetaoptSatSolveOptions { noise: -0.1, ..d }, "opts.noise"),
        (
            MetaoptSatSolveOptions {
                restart_flips: 0,
                ..d
            },
            "opts.restart_flips",
        ),
        (
            MetaoptSatSolveOptions {
                flips_per_launch: 0,
                ..d
            },
            "opts.flips_per_launch",
        ),
        (MetaoptSatSolveOptions { backend: 2, ..d }, "opts.backend"),
        (
            MetaoptSatSolveOptions {
                walks: u32::MAX,
                ..d
            },
            "opts.walks",
        ),
    ];
    for (o, needle) in cases {
        let (code, msg) = solve(h, &o).unwrap_err();
        assert_eq!(code, INVALID, "{msg}");
        assert!(msg.contains(needle), "`{msg}` should name {needle}");
    }
    let (code, msg) = solve(h, ptr::null()).unwrap_err();
    assert_eq!(code, NULL);
    assert!(msg.contains("opts"), "{msg}");
    // plain HC12 (no tabu list), a few runs: a result, model or not
    let plain = MetaoptSatSolveOptions {
        tabu_length: 0,
        runs: 3,
        time_limit_s: 0.0,
        ..hc
    };
    let s = solve(h, &plain).unwrap();
    assert!(s.runs >= 1 && s.runs <= 3, "{s:?}");
    assert_eq!(s.satisfiable, s.best_unsatisfied == 0);
    // probSAT's own cb and eps, and an exponential cb alone: still models
    for (cb, eps) in [(2.5, 1.0), (3.0, 0.0), (0.0, 0.5)] {
        let s = solve(
            h,
            &MetaoptSatSolveOptions {
                cb,
                eps,
                backend: 1,
                ..d
            },
        )
        .unwrap();
        assert!(
            s.satisfiable && s.model.is_some(),
            "cb {cb}, eps {eps}: {s:?}"
        );
    }
    unsafe { metaopt_sat_free(h) };
}

#[test]
fn forged_and_freed_handles_are_errors() {
    let _exclusive = exclusive();
    let opts = metaopt_sat_default_solve_options();
    let mut fake = vec![0u64; 64];
    let forged = fake.as_mut_ptr().cast::<MetaoptSatInstance>();
    let r = unsafe { metaopt_sat_solve(forged, &opts) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptSatInstance",
    );
    let r = unsafe { metaopt_sat_evaluate(forged, [0u32].as_ptr(), 1, 1) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptSatInstance",
    );
    let r = unsafe { metaopt_sat_words_per_assignment(forged) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptSatInstance",
    );
    unsafe { metaopt_sat_free(forged) }; // ignored
    assert!(
        fake.iter().all(|&w| w == 0),
        "a forged handle must not be written"
    );

    // a handle of another solver is not a MetaoptSatInstance
    let df: Vec<i64> = (0..16)
        .map(|k| {
            if k / 4 == k % 4 {
                0
            } else {
                1 + (k / 4 + k % 4) as i64
            }
        })
        .collect();
    let q = unsafe { metaopt_qap_params(1, 4, 1, df.as_ptr().cast(), c"int64".as_ptr(), 2, 0, 0) };
    assert_eq!(q.error_code, OK);
    let r = unsafe { metaopt_sat_words_per_assignment(q.instance.cast()) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptSatInstance",
    );
    unsafe {
        metaopt_sat_free(q.instance.cast()); // ignored: not ours
        metaopt_qap_free(q.instance);
    }

    let h = instance(parse(&satlib("uf20-91/uf20-01.cnf")));
    unsafe { metaopt_sat_free(h) };
    let r = unsafe { metaopt_sat_solve(h, &opts) };
    expect_error(r.error_code, r.error_message, INVALID, "freed already");
    let r = unsafe { metaopt_sat_evaluate(h, [0u32].as_ptr(), 1, 1) };
    expect_error(r.error_code, r.error_message, INVALID, "freed already");
    unsafe { metaopt_sat_free(h) }; // a double free is ignored
}
