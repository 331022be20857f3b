//! The C ABI of the QAP robust tabu search (`metaopt_qap_ts_*`, src/ffi/qap_ts.rs) called
//! directly from Rust: values (had12 to its optimum), errors naming the option, null pointers,
//! forged and freed handles, and results equal to the Rust API's.

use crate::common::cabi::*;
use crate::common::*;
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::problem::qap::QapProblem;
use metaopt::qap_ts::{QapTs, QapTsOptions};
use std::ffi::{CStr, CString};
use std::ptr;
use std::sync::Arc;

const CPU: i32 = MetaoptBackend::MetaoptBackendCpu as i32;
const DELTA: i32 = MetaoptQapCostForm::MetaoptQapCostDelta as i32;

/// had12 from its QAPLIB file (so with its best-known value), on the CPU backend.
fn had12_cpu() -> *mut MetaoptQapInstance {
    let path = CString::new(qaplib().join("had12.dat").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_qap_params_from_file(path.as_ptr(), 2, 2, 0, 0) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    expect_ok(unsafe { metaopt_qap_set_backend(r.instance, CPU, DELTA) });
    r.instance
}

/// Solves and returns the result, panicking on an error.
fn solve(h: *mut MetaoptQapInstance, o: &MetaoptQapTsOptions) -> MetaoptQapTsSolveResult {
    let r = unsafe { metaopt_qap_ts_solve(h, o) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    assert!(r.error_message.is_null());
    r
}

fn perm_of(r: &MetaoptQapTsSolveResult) -> Vec<usize> {
    unsafe { std::slice::from_raw_parts(r.permutation, r.permutation_length as usize) }
        .iter()
        .map(|&v| v as usize)
        .collect()
}

#[test]
fn defaults_match_the_rust_api() {
    let o = metaopt_qap_ts_default_options();
    let d = QapTsOptions::default();
    assert_eq!(o.chains as usize, d.chains);
    assert_eq!(Some(o.max_iterations), d.stop.budget);
    assert_eq!(o.launch_iterations, d.launch_iterations);
    assert_eq!(o.seed, d.seed);
    assert_eq!(o.tenure, MetaoptQapTsTenure::MetaoptQapTsTenureCubic as i32);
    assert_eq!(o.aspiration_horizon, 0);
    assert_eq!(o.time_limit_s, 0.0);
    assert_eq!(o.has_target, 0);
    assert_eq!(o.elite_size as usize, d.elite_size);
    assert_eq!(o.stagnation, -1);
    assert_eq!((o.perturbation_min, o.perturbation_max), (0, 0));
    assert_eq!(o.crossover, d.crossover);
    assert!(o.starts.is_null());
    assert_eq!(o.starts_count, 0);
}

#[test]
fn had12_reaches_its_optimum() {
    let _shared = shared();
    let h = had12_cpu();
    let mut o = metaopt_qap_ts_default_options();
    o.chains = 4;
    o.has_target = 1;
    o.target = 1652.0;
    o.time_limit_s = 60.0;
    o.max_iterations = 0;
    let mut r = solve(h, &o);
    assert_eq!(
        r.result_type,
        MetaoptQapResultType::MetaoptQapResultInt64 as i32
    );
    assert_eq!(r.f_t1, 1652);
    assert_eq!(r.target_reached, 1);
    assert_eq!(r.has_bks, 1);
    assert_eq!(r.bks, 1652);
    assert_eq!(r.gap_percent, 0.0);
    assert_eq!(r.chains, 4);
    assert_eq!(r.permutation_length, 12);
    let perm = perm_of(&r);
    assert_eq!(instance("had12").cost(&perm), 1652);
    let backend = unsafe { CStr::from_ptr(r.backend) }
        .to_str()
        .unwrap()
        .to_string();
    assert!(backend.contains("CPU"), "{backend}");
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };
    assert!(r.permutation.is_null() && r.backend.is_null() && r.permutation_length == 0);
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) }; // a second call is harmless
    unsafe { metaopt_qap_ts_free_solve_result(ptr::null_mut()) }; // NULL is a no-op
    unsafe { metaopt_qap_free(h) };
}

#[test]
fn results_equal_the_rust_api() {
    let _shared = shared();
    let h = had12_cpu();
    let mut o = metaopt_qap_ts_default_options();
    o.chains = 3;
    o.max_iterations = 700;
    o.launch_iterations = 300;
    o.seed = 11;
    o.tenure = MetaoptQapTsTenure::MetaoptQapTsTenureUniform as i32;
    o.stagnation = 200;
    o.perturbation_min = 2;
    o.perturbation_max = 3;
    o.crossover = 0.5;
    let start: Vec<u16> = (0..12).collect();
    o.starts = start.as_ptr();
    o.starts_count = 1;
    let mut r = solve(h, &o);
    let problem = Arc::new(QapProblem::from_instance(&instance("had12")));
    let want = QapTs::new(problem, Backend::Cpu)
        .unwrap()
        .solve(&QapTsOptions {
            chains: 3,
            stop: metaopt::run::Stop::budget(700),
            launch_iterations: 300,
            seed: 11,
            tenure: metaopt::qap_ts::TenureRule::Uniform,
            stagnation: Some(200),
            perturbation: Some((2, 3)),
            crossover: 0.5,
            starts: vec![(0..12).collect()],
            ..QapTsOptions::default()
        })
        .unwrap();
    assert_eq!(r.f_t1, want.cost.as_f64() as i64);
    assert_eq!(perm_of(&r), want.permutation);
    assert_eq!((r.iterations, r.restarts), (want.iterations, want.restarts));
    assert_eq!(r.iterations, 700);
    // short launches, ending at every round of 300 iterations and at the budget
    assert!(r.launches >= 3, "{}", r.launches);
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };

    // the defaults' struct with a short iteration count
    let mut o = metaopt_qap_ts_default_options();
    o.max_iterations = 50;
    let mut r = solve(h, &o);
    // chains 0: the CPU backend's own count, one per thread
    assert_eq!(o.chains, 0);
    assert_eq!(r.chains as usize, rayon::current_num_threads());
    assert_eq!(r.iterations, 50);
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };
    // with a warm start: checked against the count chosen, not against 0
    let start: Vec<u16> = (0..12).rev().collect();
    o.starts = start.as_ptr();
    o.starts_count = 1;
    let mut r = solve(h, &o);
    assert_eq!(r.iterations, 50);
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };
    unsafe { metaopt_qap_free(h) };
}

#[test]
fn bad_options_are_errors_naming_the_option() {
    let _shared = shared();
    let h = had12_cpu();
    let d = metaopt_qap_ts_default_options();
    let cases: Vec<(MetaoptQapTsOptions, i32, &str)> = vec![
        (
            MetaoptQapTsOptions {
                chains: (1 << 20) + 1,
                ..d
            },
            INVALID,
            "chains",
        ),
        (
            MetaoptQapTsOptions {
                launch_iterations: 0,
                ..d
            },
            INVALID,
            "launch_iterations",
        ),
        (
            MetaoptQapTsOptions {
                max_iterations: 0,
                ..d
            },
            INVALID,
            "max_iterations",
        ),
        (MetaoptQapTsOptions { tenure: 7, ..d }, INVALID, "tenure"),
        (
            MetaoptQapTsOptions {
                crossover: f64::NAN,
                ..d
            },
            INVALID,
            "crossover",
        ),
        (
            MetaoptQapTsOptions {
                crossover: 1.5,
                ..d
            },
            INVALID,
            "crossover",
        ),
        (
            MetaoptQapTsOptions {
                time_limit_s: f64::NAN,
                ..d
            },
            INVALID,
            "time_limit_s",
        ),
        (
            MetaoptQapTsOptions {
                has_target: 1,
                target: f64::INFINITY,
                ..d
            },
            INVALID,
            "target",
        ),
        (
            MetaoptQapTsOptions {
                stagnation: -5,
                ..d
            },
            INVALID,
            "stagnation",
        ),
        (
            MetaoptQapTsOptions {
                perturbation_min: 3,
                perturbation_max: 2,
                ..d
            },
            INVALID,
            "perturbation",
        ),
        (
            MetaoptQapTsOptions {
                starts_count: 1,
                ..d
            },
            NULL,
            "starts",
        ),
    ];
    for (o, code, needle) in cases {
        let r = unsafe { metaopt_qap_ts_solve(h, &o) };
        assert_eq!(r.result_type, 0);
        assert!(r.permutation.is_null() && r.backend.is_null());
        expect_error(r.error_code, r.error_message, code, needle);
    }
    // a start that is not a permutation
    let bad: Vec<u16> = vec![0; 12];
    let o = MetaoptQapTsOptions {
        starts: bad.as_ptr(),
        starts_count: 1,
        ..d
    };
    let r = unsafe { metaopt_qap_ts_solve(h, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "starts");
    // more starts than chains
    let good: Vec<u16> = (0..12).chain(0..12).collect();
    let o = MetaoptQapTsOptions {
        chains: 1,
        starts: good.as_ptr(),
        starts_count: 2,
        ..d
    };
    let r = unsafe { metaopt_qap_ts_solve(h, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "starts");
    unsafe { metaopt_qap_free(h) };
}

#[test]
fn null_forged_and_freed_handles_are_errors() {
    let _exclusive = exclusive();
    let o = metaopt_qap_ts_default_options();
    let r = unsafe { metaopt_qap_ts_solve(ptr::null_mut(), &o) };
    expect_error(r.error_code, r.error_message, NULL, "instance");
    let mut fake = vec![0u64; 256];
    let forged = fake.as_mut_ptr().cast::<MetaoptQapInstance>();
    let r = unsafe { metaopt_qap_ts_solve(forged, &o) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptQapInstance",
    );
    assert!(
        fake.iter().all(|&w| w == 0),
        "a forged handle must not be written"
    );
    // a handle of another kind
    let lits = [1, -2, 0, 2, 0];
    let sat = unsafe { metaopt_sat_from_clauses(2, lits.as_ptr(), lits.len() as u64) };
    assert_eq!(sat.error_code, OK);
    let r = unsafe { metaopt_qap_ts_solve(sat.instance.cast(), &o) };
    assert_ne!(r.error_code, OK);
    let _ = take_message(r.error_message);
    unsafe { metaopt_sat_free(sat.instance) };
    // freed
    let h = had12_cpu();
    unsafe { metaopt_qap_free(h) };
    let r = unsafe { metaopt_qap_ts_solve(h, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "freed already");
}

#[test]
fn the_device_gives_the_cpu_result() {
    let _shared = shared();
    let h = had12_cpu();
    let mut o = metaopt_qap_ts_default_options();
    o.chains = 3;
    o.max_iterations = 600;
    let mut cpu = solve(h, &o);
    expect_ok(unsafe {
        metaopt_qap_set_backend(h, MetaoptBackend::MetaoptBackendDevice as i32, DELTA)
    });
    let mut dev = solve(h, &o);
    assert_eq!(cpu.f_t1, dev.f_t1);
    assert_eq!(perm_of(&cpu), perm_of(&dev));
    unsafe { metaopt_qap_ts_free_solve_result(&mut cpu) };
    unsafe { metaopt_qap_ts_free_solve_result(&mut dev) };
    unsafe { metaopt_qap_free(h) };
}
