//! The batched DE C ABI called directly from Rust: `metaopt_batch_de_*` against `BatchDe` of the
//! same problems (values, vectors, generations, stop reasons), the CPU backend against the device
//! in double, a run that goes on, a stop token, and the errors naming the C field and the problem.

use crate::common::cabi::*;
use metaopt::de::{Backend, BatchDe, BatchOptions, BatchProblem, BoundsCorrection, Mutation};
use metaopt::ffi::*;
use metaopt::run::Stop;
use metaopt::Precision;
use std::ffi::CString;
use std::ptr;

const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;

/// The owned strings and bounds a spec points to.
struct Spec {
    name: CString,
    mutation: CString,
    bounds: CString,
    lower: Vec<f64>,
    upper: Vec<f64>,
    dims: u32,
    members: u32,
    seed: u64,
    gens: u64,
    target: Option<f64>,
}

impl Spec {
    fn new(name: &str, dims: u32, w: f64) -> Spec {
        Spec {
            name: CString::new(name).unwrap(),
            mutation: CString::new("DE/rand/1").unwrap(),
            bounds: CString::new("sat").unwrap(),
            lower: vec![-w],
            upper: vec![w],
            dims,
            members: 20,
            seed: 7,
            gens: 30,
            target: None,
        }
    }

    fn c(&self) -> MetaoptBatchDeProblem {
        let mut p = metaopt_batch_de_default_problem();
        p.function = self.name.as_ptr();
        p.mutation = self.mutation.as_ptr();
        p.bounds = self.bounds.as_ptr();
        p.dims = self.dims;
        p.lower = self.lower.as_ptr();
        p.lower_length = self.lower.len() as u32;
        p.upper = self.upper.as_ptr();
        p.upper_length = self.upper.len() as u32;
        p.members = self.members;
        p.seed = self.seed;
        p.max_generations = self.gens;
        if let Some(t) = self.target {
            p.has_target = 1;
            p.target = t;
        }
        p
    }

    fn rust(&self) -> BatchProblem {
        let mut p = BatchProblem::new(self.name.to_str().unwrap(), self.dims, 0.0, 1.0);
        p.lower = self.lower.clone();
        p.upper = self.upper.clone();
        p.mutation = self.mutation.to_str().unwrap().parse().unwrap();
        p.bounds = self.bounds.to_str().unwrap().parse().unwrap();
        p.members = self.members;
        p.seed = self.seed;
        p.max_generations = self.gens;
        p.target = self.target;
        p
    }
}

fn specs() -> Vec<Spec> {
    let mut v = vec![
        Spec::new("F1", 5, 5.12),
        Spec::new("F6", 3, 5.12),
        Spec::new("F8", 4, 600.0),
    ];
    v[1].mutation = CString::new("DE/best/2").unwrap();
    v[1].bounds = CString::new("mir").unwrap();
    v[1].members = 12;
    v[1].seed = 99;
    v[2].lower = vec![-600.0, -500.0, -400.0, -300.0];
    v[2].gens = 17;
    v
}

fn create(specs: &[Spec], o: &MetaoptBatchDeOptions) -> *mut MetaoptBatchDeInstance {
    let c: Vec<MetaoptBatchDeProblem> = specs.iter().map(Spec::c).collect();
    let r = unsafe { metaopt_batch_de_create(c.as_ptr(), c.len() as u32, o) };
    if r.error_code != OK {
        panic!("create: {}", take_message(r.error_message));
    }
    r.instance
}

struct Out {
    values: Vec<f64>,
    gens: Vec<u64>,
    stops: Vec<i32>,
    bests: Vec<Vec<f64>>,
    code: i32,
}

fn collect(h: *mut MetaoptBatchDeInstance, mut r: MetaoptBatchDeRunResult) -> Out {
    if r.error_code != OK && r.error_code != INTERRUPTED {
        panic!("run: {}", take_message(r.error_message));
    }
    let n = r.count as usize;
    let (values, gens, stops) = unsafe {
        (
            std::slice::from_raw_parts(r.best_value, n).to_vec(),
            std::slice::from_raw_parts(r.generations, n).to_vec(),
            std::slice::from_raw_parts(r.stop_reason, n).to_vec(),
        )
    };
    let code = r.error_code;
    unsafe { metaopt_batch_de_free_run_result(&mut r) };
    assert!(r.best_value.is_null() && r.count == 0);
    let bests = (0..n as u32)
        .map(|i| {
            let dims =
                expect_ok(unsafe { metaopt_batch_de_best(h, i, ptr::null_mut(), 0) }) as usize;
            let mut v = vec![f64::NAN; dims];
            assert_eq!(
                expect_ok(unsafe { metaopt_batch_de_best(h, i, v.as_mut_ptr(), dims as u32) })
                    as usize,
                dims
            );
            v
        })
        .collect();
    Out {
        values,
        gens,
        stops,
        bests,
        code,
    }
}

fn options(backend: i32, precision: i32) -> MetaoptBatchDeOptions {
    let mut o = metaopt_batch_de_default_options();
    o.backend = backend;
    o.precision = precision;
    o.generations_per_launch = 8;
    o
}

#[test]
fn c_run_equals_the_rust_api_and_cpu_equals_device_in_double() {
    let _g = shared();
    let s = specs();
    let mut outs = Vec::new();
    for backend in [1, 0] {
        let h = create(&s, &options(backend, 2));
        let out = collect(h, unsafe { metaopt_batch_de_run(h, ptr::null()) });
        let bk = if backend == 1 {
            Backend::Cpu
        } else {
            Backend::DEVICE
        };
        let opts = BatchOptions {
            precision: Precision::Double,
            generations_per_launch: 8,
            ..Default::default()
        };
        let want = BatchDe::new(s.iter().map(Spec::rust).collect(), bk, opts)
            .unwrap()
            .run(&Stop::default())
            .unwrap();
        assert_eq!(out.code, OK);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(out.values[i], w.best_value, "problem {i}");
            assert_eq!(out.bests[i], w.best, "problem {i}");
            assert_eq!(out.gens[i], w.generations);
            assert_eq!(out.gens[i], s[i].gens);
            assert_eq!(
                out.stops[i],
                MetaoptBatchDeStopReason::MetaoptBatchDeStopBudget as i32
            );
            assert!(w.best_value.is_finite() && w.best_value >= 0.0);
        }
        unsafe { metaopt_batch_de_free(h) };
        outs.push(out);
    }
    for i in 0..s.len() {
        let (c, d) = (outs[0].values[i], outs[1].values[i]);
        assert!(
            (c - d).abs() <= 1e-12 * c.abs().max(d.abs()).max(1e-300),
            "problem {i}: {c} vs {d}"
        );
    }
}

#[test]
fn sphere_reaches_its_target_and_a_run_goes_on() {
    let _g = shared();
    let mut s = vec![Spec::new("F1", 10, 5.12), Spec::new("F1", 10, 5.12)];
    s[0].members = 40;
    s[0].gens = 2000;
    s[0].target = Some(1e-10);
    s[1].gens = 10;
    let h = create(&s, &options(1, 0));
    // nothing run yet: +inf and no vector
    let r0 = collect_no_bests(unsafe { metaopt_batch_de_results(h) });
    assert_eq!(r0.0, vec![f64::INFINITY; 2]);
    let mut v = vec![0.0; 10];
    let r = unsafe { metaopt_batch_de_best(h, 0, v.as_mut_ptr(), 10) };
    expect_error(r.error_code, r.error_message, INVALID, "not started");
    let out = collect(h, unsafe { metaopt_batch_de_run(h, ptr::null()) });
    assert!(out.values[0] <= 1e-10, "{}", out.values[0]);
    assert!(out.gens[0] < 2000);
    assert_eq!(
        out.stops[0],
        MetaoptBatchDeStopReason::MetaoptBatchDeStopTarget as i32
    );
    let f: f64 = out.bests[0].iter().map(|x| x * x).sum();
    assert!(
        (f - out.values[0]).abs() <= 1e-12,
        "{f} vs {}",
        out.values[0]
    );
    assert_eq!(
        (out.gens[1], out.stops[1]),
        (
            10,
            MetaoptBatchDeStopReason::MetaoptBatchDeStopBudget as i32
        )
    );
    // a second run changes nothing: both stopped
    let again = collect(h, unsafe { metaopt_batch_de_run(h, ptr::null()) });
    assert_eq!(again.values, out.values);
    assert_eq!(again.gens, out.gens);
    unsafe { metaopt_batch_de_free(h) };
}

fn collect_no_bests(mut r: MetaoptBatchDeRunResult) -> (Vec<f64>, Vec<u64>, Vec<i32>) {
    assert_eq!(r.error_code, OK);
    let n = r.count as usize;
    let out = unsafe {
        (
            std::slice::from_raw_parts(r.best_value, n).to_vec(),
            std::slice::from_raw_parts(r.generations, n).to_vec(),
            std::slice::from_raw_parts(r.stop_reason, n).to_vec(),
        )
    };
    unsafe { metaopt_batch_de_free_run_result(&mut r) };
    out
}

#[test]
fn a_requested_token_interrupts_the_run() {
    let _g = shared();
    let mut s = vec![Spec::new("F1", 4, 5.12)];
    s[0].gens = 1_000_000;
    let h = create(&s, &options(1, 0));
    let t = metaopt_stop_token_create();
    assert!(!t.is_null());
    expect_ok(unsafe { metaopt_stop_token_request(t) });
    let stop = MetaoptBatchDeStop {
        time_limit: 0.3,
        stop_token: ptr::null(),
        checkpoint_path: ptr::null(),
        checkpoint_every_s: 0.0,
    };
    let out = collect(h, unsafe { metaopt_batch_de_run(h, &stop) });
    assert_eq!(out.code, OK);
    assert_eq!(
        out.stops[0],
        MetaoptBatchDeStopReason::MetaoptBatchDeStopTimeLimit as i32
    );
    assert!(out.gens[0] > 0 && out.gens[0] < 1_000_000);
    let first = out.gens[0];
    // then the token: Interrupted, the state kept
    let stop = MetaoptBatchDeStop {
        time_limit: 0.0,
        stop_token: t,
        checkpoint_path: ptr::null(),
        checkpoint_every_s: 0.0,
    };
    let out = collect(h, unsafe { metaopt_batch_de_run(h, &stop) });
    assert_eq!(out.code, INTERRUPTED);
    assert_eq!(
        out.stops[0],
        MetaoptBatchDeStopReason::MetaoptBatchDeStopInterrupted as i32
    );
    assert_eq!(out.gens[0], first);
    unsafe { metaopt_stop_token_free(t) };
    unsafe { metaopt_batch_de_free(h) };
}

fn create_error(
    c: &[MetaoptBatchDeProblem],
    count: u32,
    o: *const MetaoptBatchDeOptions,
    want: i32,
    needles: &[&str],
) {
    let r = unsafe {
        metaopt_batch_de_create(
            if c.is_empty() {
                ptr::null()
            } else {
                c.as_ptr()
            },
            count,
            o,
        )
    };
    assert!(r.instance.is_null());
    let m = take_message(r.error_message);
    assert_eq!(r.error_code, want, "{m}");
    for n in needles {
        assert!(m.contains(n), "`{m}` should mention `{n}`");
    }
}

#[test]
fn bad_specs_and_calls_name_the_field_and_the_problem() {
    let _g = shared();
    let s = specs();
    let good: Vec<MetaoptBatchDeProblem> = s.iter().map(Spec::c).collect();
    create_error(&[], 1, ptr::null(), NULL, &["problems"]);
    create_error(&good, 0, ptr::null(), INVALID, &["count"]);
    let bad = |f: &dyn Fn(&mut MetaoptBatchDeProblem)| {
        let mut c = good.clone();
        f(&mut c[1]);
        c
    };
    let nan = [f64::NAN];
    let three = [1.0, 2.0, 3.0, 4.0];
    let unknown = CString::new("nope").unwrap();
    let cases: Vec<(Vec<MetaoptBatchDeProblem>, i32, &[&str])> = vec![
        (
            bad(&|p| p.function = ptr::null()),
            INVALID,
            &["function", "problem 1"],
        ),
        (
            bad(&|p| p.source = unknown.as_ptr()),
            INVALID,
            &["source", "problem 1"],
        ),
        (
            bad(&|p| p.lower = ptr::null()),
            INVALID,
            &["lower", "problem 1"],
        ),
        (
            bad(&|p| p.lower_length = 2),
            INVALID,
            &["lower_length", "problem 1"],
        ),
        (
            bad(&|p| {
                p.upper = three.as_ptr();
                p.upper_length = 4
            }),
            INVALID,
            &["upper_length", "problem 1"],
        ),
        (
            bad(&|p| {
                p.lower = nan.as_ptr();
                p.lower_length = 1
            }),
            INVALID,
            &["bounds", "problem 1"],
        ),
        (
            bad(&|p| p.mutation = unknown.as_ptr()),
            INVALID,
            &["mutation", "problem 1"],
        ),
        (
            bad(&|p| p.bounds = unknown.as_ptr()),
            INVALID,
            &["bounds", "problem 1"],
        ),
        (bad(&|p| p.function = unknown.as_ptr()), INVALID, &["nope"]),
        (bad(&|p| p.members = 2), INVALID, &["members", "problem 1"]),
        (bad(&|p| p.cr = 1.5), INVALID, &["cr", "problem 1"]),
        (bad(&|p| p.f = f64::NAN), INVALID, &["f", "problem 1"]),
        (
            bad(&|p| {
                p.has_target = 1;
                p.target = f64::NAN
            }),
            INVALID,
            &["target", "problem 1"],
        ),
        (
            bad(&|p| p.has_target = 3),
            INVALID,
            &["has_target", "problem 1"],
        ),
        (
            bad(&|p| {
                p.data_bytes = 8;
                p.source = unknown.as_ptr();
                p.function = ptr::null()
            }),
            INVALID,
            &["data", "problem 1"],
        ),
        (
            bad(&|p| p.algorithm = 9),
            INVALID,
            &["algorithm", "problem 1"],
        ),
        (
            bad(&|p| p.algorithm = 6),
            INVALID,
            &["algorithm", "problem 1"],
        ),
        (
            bad(&|p| {
                p.algorithm = MetaoptDeAlgorithm::MetaoptDeAlgorithmJde100 as i32;
                p.jde_small = 3
            }),
            INVALID,
            &["jde_small", "problem 1"],
        ),
        (
            bad(&|p| {
                p.algorithm = MetaoptDeAlgorithm::MetaoptDeAlgorithmJde100 as i32;
                p.jde_small = u32::MAX
            }),
            INVALID,
            &["jde_small", "problem 1"],
        ),
    ];
    for (c, code, needles) in cases {
        create_error(&c, c.len() as u32, ptr::null(), code, needles);
    }
    for (f, arg) in [
        (
            &(|o: &mut MetaoptBatchDeOptions| o.backend = 5) as &dyn Fn(&mut MetaoptBatchDeOptions),
            "options.backend",
        ),
        (
            &|o: &mut MetaoptBatchDeOptions| o.precision = 9,
            "options.precision",
        ),
        (
            &|o: &mut MetaoptBatchDeOptions| o.placement = -1,
            "options.placement",
        ),
        (
            &|o: &mut MetaoptBatchDeOptions| o.generations_per_launch = 0,
            "options.generations_per_launch",
        ),
    ] {
        let mut o = metaopt_batch_de_default_options();
        f(&mut o);
        create_error(&good, good.len() as u32, &o, INVALID, &[arg]);
    }
    // calls on a batch
    let h = create(&s, &options(1, 0));
    for t in [f64::NAN, -1.0, f64::INFINITY, 2e9] {
        let stop = MetaoptBatchDeStop {
            time_limit: t,
            stop_token: ptr::null(),
            checkpoint_path: ptr::null(),
            checkpoint_every_s: 0.0,
        };
        let r = unsafe { metaopt_batch_de_run(h, &stop) };
        assert!(r.best_value.is_null());
        expect_error(r.error_code, r.error_message, INVALID, "time_limit");
    }
    let r = unsafe { metaopt_batch_de_run(ptr::null_mut(), ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "h");
    let mut v = vec![0.0; 5];
    let r = unsafe { metaopt_batch_de_best(h, 3, v.as_mut_ptr(), 5) };
    expect_error(r.error_code, r.error_message, INVALID, "problem");
    let r = unsafe { metaopt_batch_de_best(h, 0, v.as_mut_ptr(), 4) };
    expect_error(r.error_code, r.error_message, INVALID, "out_length");
    let r = unsafe { metaopt_batch_de_best(h, 0, ptr::null_mut(), 5) };
    expect_error(r.error_code, r.error_message, NULL, "out");
    // a wrong-kind handle
    let t = metaopt_stop_token_create();
    let r = unsafe { metaopt_batch_de_results(t.cast()) };
    assert_ne!(r.error_code, OK);
    take_message(r.error_message);
    unsafe { metaopt_stop_token_free(t) };
    unsafe { metaopt_batch_de_free(h) };
    // the defaults
    let p = metaopt_batch_de_default_problem();
    assert_eq!(
        (
            p.members,
            p.f,
            p.cr,
            p.seed,
            p.max_generations,
            p.has_target
        ),
        (50, 0.5, 0.9, 1, 1000, 0)
    );
    assert_eq!(
        (p.algorithm, p.jde_small),
        (MetaoptDeAlgorithm::MetaoptDeAlgorithmDe as i32, 25)
    );
    let o = metaopt_batch_de_default_options();
    assert_eq!(
        (
            o.backend,
            o.precision,
            o.generations_per_launch,
            o.placement
        ),
        (0, 0, 1000, 0)
    );
    let _ = (Mutation::Rand1, BoundsCorrection::Saturation);
}

/// Problems `algs` (index, algorithm, jDE100's small population) by their C codes beside
/// fixed-DE ones: the same run as the Rust API's `BatchProblem`s, on the CPU backend and the
/// device (double), the two backends equal to 1e-9.
fn codes_equal_the_rust_api(s: &[Spec], algs: &[(usize, metaopt::de::Algorithm, u32)]) {
    let mut outs = Vec::new();
    for backend in [1, 0] {
        let mut c: Vec<MetaoptBatchDeProblem> = s.iter().map(Spec::c).collect();
        for &(i, alg, small) in algs {
            c[i].algorithm = alg as i32;
            c[i].jde_small = small;
        }
        let o = options(backend, 2);
        let r = unsafe { metaopt_batch_de_create(c.as_ptr(), c.len() as u32, &o) };
        assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
        let h = r.instance;
        let out = collect(h, unsafe { metaopt_batch_de_run(h, ptr::null()) });
        let mut rust: Vec<BatchProblem> = s.iter().map(Spec::rust).collect();
        for &(i, alg, small) in algs {
            rust[i].algorithm = alg;
            rust[i].jde_small = small;
        }
        let bk = if backend == 1 {
            Backend::Cpu
        } else {
            Backend::DEVICE
        };
        let opts = BatchOptions {
            precision: Precision::Double,
            generations_per_launch: 8,
            ..Default::default()
        };
        let want = BatchDe::new(rust, bk, opts)
            .unwrap()
            .run(&Stop::default())
            .unwrap();
        for (i, w) in want.iter().enumerate() {
            assert_eq!(out.values[i], w.best_value, "problem {i}");
            assert_eq!(out.bests[i], w.best, "problem {i}");
            assert_eq!(out.gens[i], w.generations, "problem {i}");
        }
        unsafe { metaopt_batch_de_free(h) };
        outs.push(out);
    }
    for i in 0..s.len() {
        let (c, d) = (outs[0].values[i], outs[1].values[i]);
        assert!(
            (c - d).abs() <= 1e-9 * c.abs().max(d.abs()).max(1e-300),
            "problem {i}: {c} vs {d}"
        );
    }
}

/// jDE100 problems beside a fixed-DE one: by the C code 5 with `jde_small`, the same
/// run as the Rust API's `BatchProblem` with `Algorithm::Jde100`, on the CPU backend and the
/// device (double).
#[test]
fn jde100_problems_by_code_equal_the_rust_api_on_both_backends() {
    let _g = shared();
    assert_eq!(MetaoptDeAlgorithm::MetaoptDeAlgorithmJde100 as i32, 5);
    let mut s = [
        Spec::new("F6", 5, 5.12),
        Spec::new("F1", 4, 5.12),
        Spec::new("F8", 3, 600.0),
    ];
    s[0].members = 30;
    s[2].members = 24;
    let jde = metaopt::de::Algorithm::Jde100;
    codes_equal_the_rust_api(&s, &[(0, jde, 10), (2, jde, 6)]);
}

/// JADE, SHADE, L-SHADE and jSO problems beside a fixed-DE one: by the C codes 1-4,
/// the same run as the Rust API's, on both backends.
#[test]
fn adaptive_problems_by_code_equal_the_rust_api_on_both_backends() {
    use metaopt::de::Algorithm as A;
    let _g = shared();
    let codes = [
        MetaoptDeAlgorithm::MetaoptDeAlgorithmJade,
        MetaoptDeAlgorithm::MetaoptDeAlgorithmShade,
    ];
    assert_eq!(codes.map(|c| c as i32), [1, 2]);
    assert_eq!(
        (
            MetaoptDeAlgorithm::MetaoptDeAlgorithmLShade as i32,
            MetaoptDeAlgorithm::MetaoptDeAlgorithmJso as i32
        ),
        (3, 4)
    );
    let mut s = [
        Spec::new("F6", 5, 5.12),
        Spec::new("F1", 4, 5.12),
        Spec::new("F8", 3, 600.0),
        Spec::new("F5", 3, 2.048),
        Spec::new("F6", 4, 5.12),
    ];
    for (i, sp) in s.iter_mut().enumerate() {
        sp.members = 10 + 4 * i as u32;
    }
    codes_equal_the_rust_api(
        &s,
        &[
            (0, A::Jade, 25),
            (2, A::Shade, 25),
            (3, A::LShade, 25),
            (4, A::Jso, 25),
        ],
    );
}

/// A user source with per-problem data: each problem's minimum is its own centre.
#[test]
fn a_source_objective_gets_each_problems_own_data() {
    let _g = shared();
    let code = CString::new(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
         __global const double *c = (__global const double *)data; FP s = 0;\n\
         for (uint j = 0; j < dims; j++) { FP d = x[j * stride] - (FP)c[j]; s += d * d; }\n\
         return s; }\n",
    )
    .unwrap();
    let centres = [[1.0f64, -2.0, 0.5], [-3.0, 0.0, 2.0]];
    let (lo, hi) = ([-5.0f64], [5.0f64]);
    let specs: Vec<MetaoptBatchDeProblem> = centres
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut p = metaopt_batch_de_default_problem();
            p.source = code.as_ptr();
            p.data = c.as_ptr().cast();
            p.data_bytes = 24;
            p.dims = 3;
            p.lower = lo.as_ptr();
            p.lower_length = 1;
            p.upper = hi.as_ptr();
            p.upper_length = 1;
            p.members = 20;
            p.max_generations = 300;
            p.seed = 3 + i as u64;
            p
        })
        .collect();
    let o = options(1, 2);
    let r = unsafe { metaopt_batch_de_create(specs.as_ptr(), 2, &o) };
    assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
    let out = collect(r.instance, unsafe {
        metaopt_batch_de_run(r.instance, ptr::null())
    });
    for (c, x) in centres.iter().zip(&out.bests) {
        for (a, b) in c.iter().zip(x) {
            assert!((a - b).abs() < 1e-4, "{c:?} vs {x:?}");
        }
    }
    unsafe { metaopt_batch_de_free(r.instance) };
}
