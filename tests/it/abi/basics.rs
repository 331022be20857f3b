//! The C ABI called directly from Rust: argument checks, error codes and messages, handle
//! validation, and results equal to the Rust API's.

use crate::common::cabi::*;
use crate::common::*;
use metaopt::ffi::*;
use metaopt::hc12::qap::solve::{solve, QapSolveOptions, Start};
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::problem::qap::QapInstance;
use metaopt::problem::qap::{lower_bound, Cost, LowerBound, QapProblem};
use metaopt::run::Stop;
use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::sync::Arc;

fn expect_params_error(r: MetaoptQapParamsResult, want: i32, needle: &str) {
    assert!(r.instance.is_null());
    expect_error(r.error_code, r.error_message, want, needle);
}

fn had12_path() -> CString {
    CString::new(qaplib().join("had12.dat").to_str().unwrap()).unwrap()
}

/// The thesis's DF of a symmetric instance: flows below the diagonal, distances above it.
fn df_of(inst: &QapInstance) -> Vec<i64> {
    let n = inst.n;
    (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            if i > j {
                inst.a[k]
            } else {
                inst.b[k]
            }
        })
        .collect()
}

fn params_from_file(swaps: u32) -> *mut MetaoptQapInstance {
    let r = unsafe { metaopt_qap_params_from_file(had12_path().as_ptr(), swaps, 2, 0, 0) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    r.instance
}

fn params_typed(
    swaps: u32,
    n: u32,
    slices: u32,
    df: *const c_void,
    ty: &str,
) -> MetaoptQapParamsResult {
    let ty = CString::new(ty).unwrap();
    unsafe { metaopt_qap_params(swaps, n, slices, df, ty.as_ptr(), 2, 0, 0) }
}

/// Runs and returns (cost, order, iterations, K_GC), freeing the result's arrays.
fn run(
    h: *mut MetaoptQapInstance,
    order: Option<&[u16]>,
    k: Option<&[u32]>,
) -> (Cost, Vec<usize>, u32, Vec<u32>) {
    let mut r = unsafe {
        metaopt_qap_run(
            h,
            order.map_or(ptr::null(), |o| o.as_ptr()),
            k.map_or(ptr::null(), |k| k.as_ptr()),
        )
    };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    let cost = match r.result_type {
        1 => Cost::I64(r.f_t1),
        2 => Cost::U64(r.f_t2),
        3 => Cost::F32(r.f_t3),
        4 => Cost::F64(r.f_t4),
        t => panic!("result_type {t}"),
    };
    let order = unsafe { std::slice::from_raw_parts(r.order, r.orderLength as usize) };
    let k_gc = unsafe { std::slice::from_raw_parts(r.K_GC, r.K_GCLength as usize) }.to_vec();
    let out = (
        cost,
        order.iter().map(|&v| v as usize).collect(),
        r.lastIteration,
        k_gc,
    );
    unsafe { metaopt_qap_free_run_result(&mut r) };
    assert!(r.order.is_null() && r.K_GC.is_null());
    unsafe { metaopt_qap_free_run_result(&mut r) }; // a second call is harmless
    out
}

#[test]
fn null_pointers_are_errors_naming_the_argument() {
    let _shared = shared();
    let df = df_of(&instance("had12"));
    let int64 = c"int64".as_ptr();
    unsafe {
        expect_params_error(
            metaopt_qap_params(2, 12, 1, ptr::null(), int64, 2, 0, 0),
            NULL,
            "`DF`",
        );
        expect_params_error(
            metaopt_qap_params(2, 12, 1, df.as_ptr().cast(), ptr::null(), 2, 0, 0),
            NULL,
            "`DF_type_name`",
        );
        let p = df.as_ptr().cast();
        expect_params_error(
            metaopt_qap_params_ab(2, 12, 1, ptr::null(), p, int64, 2, 0, 0),
            NULL,
            "`A`",
        );
        expect_params_error(
            metaopt_qap_params_ab(2, 12, 1, p, ptr::null(), int64, 2, 0, 0),
            NULL,
            "`B`",
        );
        expect_params_error(
            metaopt_qap_params_ab(2, 12, 1, p, p, ptr::null(), 2, 0, 0),
            NULL,
            "`type_name`",
        );
        expect_params_error(
            metaopt_qap_params_from_file(ptr::null(), 2, 2, 0, 0),
            NULL,
            "`dat_path`",
        );

        let r = metaopt_qap_run(ptr::null_mut(), ptr::null(), ptr::null());
        assert_eq!(
            (r.result_type, r.order.is_null(), r.K_GC.is_null()),
            (0, true, true)
        );
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let opts = metaopt_qap_default_solve_options();
        let r = metaopt_qap_solve(ptr::null_mut(), &opts);
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let r = metaopt_qap_set_backend(ptr::null_mut(), 1, 0);
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let r = metaopt_qap_set_max_iterations(ptr::null_mut(), 5);
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let mut info = MetaoptQapInfo::default();
        let r = metaopt_qap_info(ptr::null(), &mut info);
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let r = metaopt_device_info(0, ptr::null_mut());
        expect_error(r.error_code, r.error_message, NULL, "`out`");

        let h = params_from_file(2);
        let r = metaopt_qap_solve(h, ptr::null());
        expect_error(r.error_code, r.error_message, NULL, "`opts`");
        let r = metaopt_qap_info(h, ptr::null_mut());
        expect_error(r.error_code, r.error_message, NULL, "`out`");
        let mut opts = metaopt_qap_default_solve_options();
        opts.start = MetaoptQapStart::MetaoptQapStartGiven as i32;
        let r = metaopt_qap_solve(h, &opts);
        expect_error(r.error_code, r.error_message, NULL, "`start_order`");
        metaopt_qap_free(h);

        // the free functions take NULL
        metaopt_pointer_free(ptr::null_mut());
        metaopt_qap_free(ptr::null_mut());
        metaopt_qap_free_run_result(ptr::null_mut());
        metaopt_qap_free_solve_result(ptr::null_mut());
        metaopt_device_free_info(ptr::null_mut());
    }
}

#[test]
fn type_names_sizes_and_values_are_checked() {
    let _shared = shared();
    let df = df_of(&instance("had12"));
    let p = df.as_ptr().cast();
    expect_params_error(params_typed(2, 12, 1, p, "int8"), UNSUPPORTED_TYPE, "int8");
    let r = unsafe { metaopt_qap_params_ab(2, 12, 1, p, p, c"complex".as_ptr(), 2, 0, 0) };
    expect_params_error(r, UNSUPPORTED_TYPE, "`type_name`");
    let bad_utf8 = [0xffu8, 0xfe, 0];
    let r = unsafe { metaopt_qap_params(2, 12, 1, p, bad_utf8.as_ptr().cast(), 2, 0, 0) };
    expect_params_error(r, INVALID, "UTF-8");

    // sizes are checked before the matrix is read: a one-element buffer must not be overrun
    let one = [0i64; 1];
    let q = one.as_ptr().cast();
    expect_params_error(params_typed(2, 1, 1, q, "int64"), INVALID, "`nElements`");
    expect_params_error(params_typed(2, 2049, 1, q, "int64"), INVALID, "`nElements`");
    expect_params_error(params_typed(2, 12, 0, q, "int64"), INVALID, "`nSlices`");
    expect_params_error(params_typed(2, 256, u32::MAX, q, "uint64"), INVALID, "`DF`");
    let r = unsafe { metaopt_qap_params_ab(2, 0, 1, q, q, c"int32".as_ptr(), 2, 0, 0) };
    expect_params_error(r, INVALID, "`nElements`");

    // DF must be a zero-diagonal matrix; float data must be finite
    let mut diag = df.clone();
    diag[13] = 1;
    expect_params_error(
        params_typed(2, 12, 1, diag.as_ptr().cast(), "int64"),
        INVALID,
        "diagonal",
    );
    let mut f: Vec<f32> = df.iter().map(|&v| v as f32).collect();
    f[1] = f32::NAN;
    expect_params_error(
        params_typed(2, 12, 1, f.as_ptr().cast(), "float32"),
        INVALID,
        "NaN",
    );
    let mut d: Vec<f64> = df.iter().map(|&v| v as f64).collect();
    d[12] = f64::INFINITY;
    expect_params_error(
        params_typed(2, 12, 1, d.as_ptr().cast(), "double"),
        INVALID,
        "infinite",
    );

    // solver settings
    expect_params_error(params_typed(0, 12, 1, p, "int64"), INVALID, "`swaps`");
    expect_params_error(params_typed(65, 12, 1, p, "int64"), INVALID, "`swaps`");
    let r = unsafe { metaopt_qap_params(2, 12, 1, p, c"int64".as_ptr(), 4, 0, 0) };
    expect_params_error(r, INVALID, "`maskOrder`");
    let r = unsafe { metaopt_qap_params(2, 12, 1, p, c"int64".as_ptr(), 2, 16, 0) };
    expect_params_error(r, INVALID, "`startBit`");

    // files
    let missing = CString::new(qaplib().join("no-such-instance.dat").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_qap_params_from_file(missing.as_ptr(), 2, 2, 0, 0) };
    expect_params_error(r, MetaoptErrorCode::MetaoptErrIo as i32, "no-such-instance");
}

#[test]
fn forged_and_freed_handles_are_errors() {
    let _exclusive = exclusive();
    // zeroed memory that looks like nothing the library made
    let mut fake = vec![0u64; 256];
    let forged = fake.as_mut_ptr().cast::<MetaoptQapInstance>();
    let r = unsafe { metaopt_qap_run(forged, ptr::null(), ptr::null()) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptQapInstance",
    );
    let r = unsafe { metaopt_qap_set_max_iterations(forged, 3) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptQapInstance",
    );
    // an arbitrary address is never dereferenced
    let wild = 0x10 as *mut MetaoptQapInstance;
    let r = unsafe { metaopt_qap_run(wild, ptr::null(), ptr::null()) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptQapInstance",
    );
    unsafe { metaopt_qap_free(forged) }; // ignored
    assert!(
        fake.iter().all(|&w| w == 0),
        "a forged handle must not be written"
    );

    let h = params_from_file(2);
    unsafe { metaopt_qap_free(h) };
    let r = unsafe { metaopt_qap_run(h, ptr::null(), ptr::null()) };
    expect_error(r.error_code, r.error_message, INVALID, "freed already");
    unsafe { metaopt_qap_free(h) }; // a double free is ignored
}

#[test]
fn a_handle_of_another_kind_is_an_error_and_not_freed() {
    let _shared = shared();
    let lits = [1, -2, 0, 2, 0];
    let sat = unsafe { metaopt_sat_from_clauses(2, lits.as_ptr(), lits.len() as u64) };
    assert_eq!(sat.error_code, OK);
    let wrong = sat.instance.cast::<MetaoptQapInstance>();
    let mut info = MetaoptQapInfo::default();
    let r = unsafe { metaopt_qap_info(wrong, &mut info) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptQapInstance: it is a MetaoptSatInstance",
    );
    let r = unsafe { metaopt_hc12_info(sat.instance.cast()) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    // a free of the wrong kind is ignored: the SAT instance stays usable
    unsafe { metaopt_qap_free(wrong) };
    unsafe { metaopt_de_free(sat.instance.cast()) };
    assert_eq!(
        expect_ok(unsafe { metaopt_sat_words_per_assignment(sat.instance) }),
        1
    );
    unsafe { metaopt_sat_free(sat.instance) };
}

#[test]
fn run_from_identity_equals_the_rust_api() {
    let _shared = shared();
    let inst = instance("had12");
    for swaps in [1, 3] {
        let problem = Arc::new(QapProblem::from_instance(&inst));
        let mut solver = QapHc12::new(
            problem,
            swaps,
            2,
            0,
            0,
            Backend::Device(None),
            CostForm::Delta,
        )
        .unwrap();
        let want = solver.run(None, None).unwrap();

        let h = params_from_file(swaps);
        let (cost, order, iterations, k_gc) = run(h, None, None);
        assert_eq!(cost, want.cost, "swaps {swaps}");
        assert_eq!(order, want.order);
        assert_eq!(iterations, want.iterations);
        assert_eq!(k_gc, want.k_gc);
        assert_eq!(inst.cost(&order), want.cost.as_f64() as i64);

        // explicit identity and zero string give the same run
        let identity: Vec<u16> = (0..12).collect();
        let zeros = vec![0u32; 2 * swaps as usize];
        assert_eq!(
            run(h, Some(&identity), Some(&zeros)),
            (cost, order.clone(), iterations, k_gc.clone())
        );

        // continuing from the result's base and string is already at a local optimum
        let k16: Vec<u32> = k_gc.clone();
        let again = run(h, Some(&identity), Some(&k16));
        assert_eq!((again.0, again.2), (cost, 1));
        unsafe { metaopt_qap_free(h) };
    }
}

#[test]
fn run_arguments_with_wrong_content_are_errors() {
    let _shared = shared();
    let h = params_from_file(2);
    let not_perm = [0u16; 12];
    let r = unsafe { metaopt_qap_run(h, not_perm.as_ptr(), ptr::null()) };
    expect_error(r.error_code, r.error_message, INVALID, "`initOrder`");
    let mut out_of_range: Vec<u16> = (0..12).collect();
    out_of_range[3] = 12;
    let r = unsafe { metaopt_qap_run(h, out_of_range.as_ptr(), ptr::null()) };
    expect_error(r.error_code, r.error_message, INVALID, "`initOrder`");
    // parameters of a 12-element problem have 4 bits
    let k = [0u32, 16, 0, 0];
    let r = unsafe { metaopt_qap_run(h, ptr::null(), k.as_ptr()) };
    expect_error(r.error_code, r.error_message, INVALID, "`initK`");
    // the handle still works after errors
    assert_eq!(run(h, None, None).0, run(h, None, None).0);
    unsafe { metaopt_qap_free(h) };
}

#[test]
fn every_element_type_gives_the_int64_result() {
    let _shared = shared();
    let inst = instance("had12");
    let df = df_of(&inst);
    let h = params_from_file(2);
    let (want_cost, want_order, want_iter, want_k) = run(h, None, None);
    unsafe { metaopt_qap_free(h) };
    let want = want_cost.as_f64();

    fn check<T>(df: &[T], ty: &str, result_type: i32, want: (f64, &[usize], u32, &[u32])) {
        let r = params_typed(2, 12, 1, df.as_ptr().cast(), ty);
        if r.error_code != OK {
            panic!("{ty}: {}", take_message(r.error_message));
        }
        let mut info = MetaoptQapInfo::default();
        expect_ok(unsafe { metaopt_qap_info(r.instance, &mut info) });
        assert_eq!(
            (
                info.n_elements,
                info.n_slices,
                info.swaps,
                info.k_length,
                info.bits_per_param
            ),
            (12, 1, 2, 4, 4)
        );
        assert_eq!(info.result_type, result_type, "{ty}");
        let (cost, order, iterations, k) = run(r.instance, None, None);
        assert_eq!(
            (cost.as_f64(), &order[..], iterations, &k[..]),
            want,
            "{ty}"
        );
        assert_eq!(cost.result_type(), result_type, "{ty}");
        unsafe { metaopt_qap_free(r.instance) };
    }
    let w = (want, &want_order[..], want_iter, &want_k[..]);
    check(
        &df.iter().map(|&v| v as i32).collect::<Vec<_>>(),
        "int32",
        1,
        w,
    );
    check(&df, "int64", 1, w);
    check(
        &df.iter().map(|&v| v as u32).collect::<Vec<_>>(),
        "uint32",
        2,
        w,
    );
    check(
        &df.iter().map(|&v| v as u64).collect::<Vec<_>>(),
        "uint64",
        2,
        w,
    );
    check(
        &df.iter().map(|&v| v as f32).collect::<Vec<_>>(),
        "single",
        3,
        w,
    );
    check(
        &df.iter().map(|&v| v as f64).collect::<Vec<_>>(),
        "float64",
        4,
        w,
    );

    // the two-matrix form of the same instance, in two slices (the cost of each slice adds up)
    let a2: Vec<i64> = inst.a.iter().chain(&inst.a).copied().collect();
    let b2: Vec<i64> = inst.b.iter().chain(&inst.b).copied().collect();
    let r = unsafe {
        metaopt_qap_params_ab(
            2,
            12,
            2,
            a2.as_ptr().cast(),
            b2.as_ptr().cast(),
            c"int64".as_ptr(),
            2,
            0,
            0,
        )
    };
    assert_eq!(r.error_code, OK);
    let (cost, order, ..) = run(r.instance, None, None);
    assert_eq!(cost, Cost::I64(2 * inst.cost(&order)));
    unsafe { metaopt_qap_free(r.instance) };
}

#[test]
fn backend_and_iteration_cap() {
    let _shared = shared();
    let h = params_from_file(3);
    let device = run(h, None, None);
    expect_ok(unsafe {
        metaopt_qap_set_backend(
            h,
            MetaoptBackend::MetaoptBackendCpu as i32,
            MetaoptQapCostForm::MetaoptQapCostFull as i32,
        )
    });
    let mut info = MetaoptQapInfo::default();
    expect_ok(unsafe { metaopt_qap_info(h, &mut info) });
    assert_eq!((info.backend, info.cost_form), (1, 1));
    assert_eq!(
        run(h, None, None),
        device,
        "the CPU backend gives the device's result"
    );
    let r = unsafe { metaopt_qap_set_backend(h, 2, 0) };
    expect_error(r.error_code, r.error_message, INVALID, "`backend`");
    let r = unsafe { metaopt_qap_set_backend(h, 0, 7) };
    expect_error(r.error_code, r.error_message, INVALID, "`cost_form`");

    let r = unsafe { metaopt_qap_set_max_iterations(h, 0) };
    expect_error(r.error_code, r.error_message, INVALID, "`max_iterations`");
    expect_ok(unsafe { metaopt_qap_set_max_iterations(h, 1) });
    // the cap survives a backend change
    expect_ok(unsafe { metaopt_qap_set_backend(h, 0, 0) });
    let (_, _, iterations, _) = run(h, None, None);
    assert_eq!(iterations, 1);
    unsafe { metaopt_qap_free(h) };
}

/// The thesis's nBitParam above ceil(log2 n) (positions I mod n); below is refused.
#[test]
fn bits_per_param() {
    let _shared = shared();
    let h = params_from_file(3); // had12: ceil(log2 12) = 4
    let mut info = MetaoptQapInfo::default();
    expect_ok(unsafe { metaopt_qap_info(h, &mut info) });
    assert_eq!((info.bits_per_param, info.rows), (4, 1 + 24 + 24 * 23 / 2));
    expect_ok(unsafe { metaopt_qap_set_max_iterations(h, 50) });
    expect_ok(unsafe { metaopt_qap_set_bits_per_param(h, 7) });
    expect_ok(unsafe { metaopt_qap_info(h, &mut info) });
    assert_eq!(
        (info.bits_per_param, info.rows, info.max_iterations),
        (7, 1 + 42 + 42 * 41 / 2, 50)
    );
    let device = run(h, None, None);
    expect_ok(unsafe { metaopt_qap_set_backend(h, MetaoptBackend::MetaoptBackendCpu as i32, 0) });
    expect_ok(unsafe { metaopt_qap_info(h, &mut info) });
    assert_eq!(info.bits_per_param, 7, "a backend change keeps the bits");
    assert_eq!(
        run(h, None, None),
        device,
        "the CPU backend gives the device's result"
    );
    for bad in [3, 33] {
        let r = unsafe { metaopt_qap_set_bits_per_param(h, bad) };
        expect_error(r.error_code, r.error_message, INVALID, "`nBitParam`");
    }
    expect_ok(unsafe { metaopt_qap_set_bits_per_param(h, 0) });
    expect_ok(unsafe { metaopt_qap_info(h, &mut info) });
    assert_eq!(info.bits_per_param, 4);
    unsafe { metaopt_qap_free(h) };
}

#[test]
fn solve_equals_the_rust_api_and_reports_the_gap() {
    let _shared = shared();
    let inst = instance("had12");
    let h = params_from_file(2);
    let mut opts = metaopt_qap_default_solve_options();
    opts.runs = 6;
    opts.seed = 7;
    let mut r = unsafe { metaopt_qap_solve(h, &opts) };
    assert_eq!(r.error_code, OK);
    let perm: Vec<usize> =
        unsafe { std::slice::from_raw_parts(r.permutation, r.permutation_length as usize) }
            .iter()
            .map(|&v| v as usize)
            .collect();
    assert_eq!((r.result_type, r.runs), (1, 6));
    assert_eq!(inst.cost(&perm), r.f_t1);
    assert_eq!((r.has_bks, r.bks), (1, 1652));
    let gap = 100.0 * (r.f_t1 - 1652) as f64 / 1652.0;
    assert!((r.gap_percent - gap).abs() < 1e-9);

    let problem = Arc::new(QapProblem::from_instance(&inst));
    let mut solver =
        QapHc12::new(problem, 2, 2, 0, 0, Backend::Device(None), CostForm::Delta).unwrap();
    let want = solve(
        &mut solver,
        &QapSolveOptions {
            stop: Stop {
                budget: Some(6),
                ..Stop::default()
            },
            seed: 7,
            ..Default::default()
        },
        Some(&inst),
        |_| {},
    )
    .unwrap();
    assert_eq!(Cost::I64(r.f_t1), want.cost);
    assert_eq!(perm, want.permutation);
    assert_eq!(
        (r.iterations, r.best_run_iterations, r.evaluations),
        (want.iterations, want.best_run_iterations, want.evaluations)
    );
    unsafe { metaopt_qap_free_solve_result(&mut r) };
    assert!(r.permutation.is_null());

    // a target at the BKS ends the solve when it is reached; GLB and given starts work
    opts.runs = 0;
    opts.has_target = 1;
    opts.target = 1e9;
    opts.start = MetaoptQapStart::MetaoptQapStartGlb as i32;
    // runs = 0 with a target alone may never end (the target may be unreachable)
    let mut r = unsafe { metaopt_qap_solve(h, &opts) };
    assert_eq!(r.error_code, INVALID);
    assert!(take_message(r.error_message).contains("stop token"));
    r.error_message = std::ptr::null_mut();
    unsafe { metaopt_qap_free_solve_result(&mut r) };
    opts.time_limit_s = 60.0;
    let mut r = unsafe { metaopt_qap_solve(h, &opts) };
    assert_eq!((r.error_code, r.target_reached, r.runs), (OK, 1, 1));
    unsafe { metaopt_qap_free_solve_result(&mut r) };
    let given: Vec<u16> = (0..12).rev().collect();
    opts = metaopt_qap_default_solve_options();
    opts.runs = 1;
    opts.start = MetaoptQapStart::MetaoptQapStartGiven as i32;
    opts.start_order = given.as_ptr();
    let mut r = unsafe { metaopt_qap_solve(h, &opts) };
    assert_eq!(r.error_code, OK);
    unsafe { metaopt_qap_free_solve_result(&mut r) };
    // the starts projected from the eigenvalue bounds (thesis Table 5): one run climbs from the
    // projected permutation, so it is at most that permutation's cost
    for (start, kind) in [
        (MetaoptQapStart::MetaoptQapStartHrw, LowerBound::Hrw),
        (MetaoptQapStart::MetaoptQapStartPe, LowerBound::Pe),
        (MetaoptQapStart::MetaoptQapStartAb, LowerBound::Ab),
    ] {
        opts = metaopt_qap_default_solve_options();
        opts.runs = 1;
        opts.start = start as i32;
        let mut r = unsafe { metaopt_qap_solve(h, &opts) };
        assert_eq!(r.error_code, OK, "{kind:?}");
        assert!(
            r.f_t1 <= inst.cost(&lower_bound(&inst, kind).permutation),
            "{kind:?}"
        );
        unsafe { metaopt_qap_free_solve_result(&mut r) };
    }

    // option errors
    for (field, set) in [
        (
            "`start`",
            Box::new(|o: &mut MetaoptQapSolveOptions| o.start = 9)
                as Box<dyn Fn(&mut MetaoptQapSolveOptions)>,
        ),
        ("`restart`", Box::new(|o| o.restart = -1)),
        ("`time_limit_s`", Box::new(|o| o.time_limit_s = f64::NAN)),
        (
            "`target`",
            Box::new(|o| {
                o.has_target = 1;
                o.target = f64::NAN;
            }),
        ),
        ("`runs`", Box::new(|o| o.runs = 0)),
    ] {
        let mut o = metaopt_qap_default_solve_options();
        set(&mut o);
        let r = unsafe { metaopt_qap_solve(h, &o) };
        assert!(r.permutation.is_null());
        expect_error(r.error_code, r.error_message, INVALID, field);
    }
    unsafe { metaopt_qap_free(h) };

    // GLB needs the instance of a file, and a DF instance has no BKS
    let df = df_of(&inst);
    let p = params_typed(2, 12, 1, df.as_ptr().cast(), "int64");
    let mut o = metaopt_qap_default_solve_options();
    o.start = MetaoptQapStart::MetaoptQapStartGlb as i32;
    let r = unsafe { metaopt_qap_solve(p.instance, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "GLB");
    o.start = MetaoptQapStart::MetaoptQapStartPe as i32;
    let r = unsafe { metaopt_qap_solve(p.instance, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "PE");
    o.start = MetaoptQapStart::MetaoptQapStartIdentity as i32;
    o.runs = 1;
    let mut r = unsafe { metaopt_qap_solve(p.instance, &o) };
    assert_eq!((r.error_code, r.has_bks), (OK, 0));
    unsafe {
        metaopt_qap_free_solve_result(&mut r);
        metaopt_qap_free(p.instance);
    }
}

#[test]
fn solve_from_identity_matches_start_identity() {
    let _shared = shared();
    let inst = instance("had12");
    let h = params_from_file(2);
    let mut o = metaopt_qap_default_solve_options();
    o.start = MetaoptQapStart::MetaoptQapStartIdentity as i32;
    o.runs = 1;
    let mut r = unsafe { metaopt_qap_solve(h, &o) };
    let (cost, ..) = run(h, None, None);
    assert_eq!(Cost::I64(r.f_t1), cost);
    let problem = Arc::new(QapProblem::from_instance(&inst));
    let mut solver = QapHc12::new(problem, 2, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    let opts = QapSolveOptions {
        stop: Stop {
            budget: Some(1),
            ..Stop::default()
        },
        start: Start::Identity,
        ..Default::default()
    };
    assert_eq!(solve(&mut solver, &opts, None, |_| {}).unwrap().cost, cost);
    unsafe {
        metaopt_qap_free_solve_result(&mut r);
        metaopt_qap_free(h);
    }
}

#[test]
fn devices_are_listed_and_selected() {
    let _shared = shared();
    let count = expect_ok(metaopt_device_count());
    assert!(count >= 1, "PoCL provides at least one device");
    let current = expect_ok(metaopt_device_get_number());
    assert!((0..count).contains(&current));
    let mut info = MetaoptDeviceInfo::default();
    assert_eq!(
        expect_ok(unsafe { metaopt_device_info(current, &mut info) }),
        current
    );
    assert_eq!(info.index, current);
    assert!((0..=3).contains(&info.kind));
    let name = unsafe { CStr::from_ptr(info.name) }.to_str().unwrap();
    assert!(!name.is_empty());
    assert!(info.compute_units >= 1 && info.global_mem_bytes > 0);
    unsafe {
        metaopt_device_free_info(&mut info);
        assert!(info.name.is_null() && info.platform.is_null());
        metaopt_device_free_info(&mut info);
    }
    let r = unsafe { metaopt_device_info(count, &mut info) };
    assert!(info.name.is_null());
    expect_error(r.error_code, r.error_message, INVALID, "does not exist");
    let r = metaopt_device_set_number(-1);
    expect_error(r.error_code, r.error_message, INVALID, "does not exist");
    let r = metaopt_device_set_number(count);
    expect_error(r.error_code, r.error_message, INVALID, "does not exist");
    assert_eq!(expect_ok(metaopt_device_set_number(current)), current);
    assert_eq!(expect_ok(metaopt_device_get_number()), current);
    assert_eq!(metaopt_device_is_mem_space_valid(), 1);
    assert_eq!(expect_ok(metaopt_device_reset()), 0);
    assert_eq!(metaopt_device_is_mem_space_valid(), 1);
}

#[test]
fn tabu_list_through_the_c_abi() {
    let _g = shared();
    let path = had12_path();
    let r = unsafe { metaopt_qap_params_from_file(path.as_ptr(), 3, 2, 0, 0) };
    assert_eq!(r.error_code, OK);
    let h = r.instance;
    // options before a list exists, null options, bad lengths
    let mut o = metaopt_tabu_default_options();
    let e = unsafe { metaopt_qap_set_tabu_options(h, &o) };
    expect_error(
        e.error_code,
        e.error_message,
        INVALID,
        "metaopt_qap_init_tabu_list",
    );
    expect_ok(unsafe { metaopt_qap_init_tabu_list(h, 40) });
    let e = unsafe { metaopt_qap_set_tabu_options(h, ptr::null()) };
    expect_error(e.error_code, e.error_message, NULL, "opts");
    o.max_no_improve = 0;
    let e = unsafe { metaopt_qap_set_tabu_options(h, &o) };
    expect_error(e.error_code, e.error_message, INVALID, "maxNoImprove");
    let e = unsafe { metaopt_qap_init_tabu_list(ptr::null_mut(), 4) };
    expect_error(e.error_code, e.error_message, NULL, "h");
    o.max_no_improve = 20;
    o.max_iterations = 200;
    expect_ok(unsafe { metaopt_qap_set_tabu_options(h, &o) });
    // the C run equals the Rust tabu run from the same start
    let mut run = unsafe { metaopt_qap_run(h, ptr::null(), ptr::null()) };
    assert_eq!(run.error_code, OK);
    let inst = instance("had12");
    let mut s = QapHc12::new(
        Arc::new(QapProblem::from_instance(&inst)),
        3,
        2,
        0,
        0,
        Backend::Device(None),
        CostForm::Delta,
    )
    .unwrap();
    let mut cfg = metaopt::hc12::tabu::TabuConfig::new(40).unwrap();
    cfg.max_no_improve = 20;
    cfg.max_iterations = 200;
    s.init_tabu_list(cfg).unwrap();
    let want = s.run(None, None).unwrap();
    assert_eq!(
        (run.f_t1, run.lastIteration),
        (
            match want.cost {
                Cost::I64(v) => v,
                _ => unreachable!(),
            },
            want.iterations
        )
    );
    assert!(
        run.lastIteration > 1,
        "the tabu walk goes on past the first local optimum"
    );
    unsafe { metaopt_qap_free_run_result(&mut run) };
    // 0 turns the list off: a plain run again, which stops at its first local optimum
    expect_ok(unsafe { metaopt_qap_init_tabu_list(h, 0) });
    let mut plain = unsafe { metaopt_qap_run(h, ptr::null(), ptr::null()) };
    let p = QapHc12::new(
        Arc::new(QapProblem::from_instance(&inst)),
        3,
        2,
        0,
        0,
        Backend::Cpu,
        CostForm::Delta,
    )
    .unwrap()
    .run(None, None)
    .unwrap();
    assert_eq!(plain.lastIteration, p.iterations);
    unsafe { metaopt_qap_free_run_result(&mut plain) };
    unsafe { metaopt_qap_free(h) };
}
