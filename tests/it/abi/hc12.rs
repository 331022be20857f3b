//! The C ABI of the general HC12 solver called directly from Rust: argument checks, error codes
//! and messages, handle validation, the three kinds of objective, func-data, the tabu list, the
//! profiler and info, and results equal to the Rust API's.

use crate::common::cabi::*;
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::objective::Objective;
use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

const BINARY: i32 = MetaoptDomain::MetaoptDomainBinary as i32;
const INTEGER: i32 = MetaoptDomain::MetaoptDomainInteger as i32;
const REAL: i32 = MetaoptDomain::MetaoptDomainReal as i32;

fn expect_params_error(r: MetaoptHc12ParamsResult, want: i32, needle: &str) {
    assert!(r.instance.is_null());
    expect_error(r.error_code, r.error_message, want, needle);
}

/// The text of a string result, freed.
fn take_text(r: MetaoptStringResult) -> String {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null());
    take_message(r.text)
}

fn catalogue(name: &CStr) -> MetaoptObjective {
    MetaoptObjective {
        kind: MetaoptObjectiveKind::MetaoptObjectiveCatalogue as i32,
        function_name: name.as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    }
}

fn source(code: &CStr) -> MetaoptObjective {
    MetaoptObjective {
        kind: MetaoptObjectiveKind::MetaoptObjectiveSource as i32,
        source: code.as_ptr(),
        ..catalogue(c"")
    }
}

fn callback(f: MetaoptObjectiveCallback, user_data: *mut c_void) -> MetaoptObjective {
    MetaoptObjective {
        kind: MetaoptObjectiveKind::MetaoptObjectiveHostCallback as i32,
        function_name: ptr::null(),
        callback: f,
        user_data,
        ..catalogue(c"")
    }
}

/// `metaopt_hc12_params` with one bit count and one interval for all parameters.
fn params(
    n: u32,
    bits: u32,
    (a, b): (f64, f64),
    domain: i32,
    double: bool,
    obj: &MetaoptObjective,
) -> MetaoptHc12ParamsResult {
    let dod = [a, b];
    unsafe {
        metaopt_hc12_params(
            n,
            &bits,
            1,
            dod.as_ptr(),
            2,
            2,
            0,
            0,
            domain,
            double as u8,
            obj,
        )
    }
}

fn instance(r: MetaoptHc12ParamsResult) -> *mut MetaoptHc12Instance {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null() && !r.instance.is_null());
    r.instance
}

/// A run's result copied out of the C struct (which is freed).
#[derive(Debug, Clone, PartialEq)]
struct Run {
    value: f64,
    string: Vec<u32>,
    integers: Vec<u32>,
    reals: Vec<f64>,
    iterations: u32,
    evaluations: u64,
    run_values: Vec<f64>,
    run_iterations: Vec<u32>,
}

fn slice<'a, T>(p: *const T, len: u32) -> &'a [T] {
    assert!(!p.is_null());
    unsafe { std::slice::from_raw_parts(p, len as usize) }
}

fn try_run(h: *mut MetaoptHc12Instance, o: &MetaoptHc12RunOptions) -> Result<Run, (i32, String)> {
    let mut r = unsafe { metaopt_hc12_run(h, o) };
    if r.error_code != OK {
        assert!(r.string.is_null() && r.reals.is_null() && r.run_values.is_null());
        assert_eq!((r.nParam, r.runs), (0, 0));
        return Err((r.error_code, take_message(r.error_message)));
    }
    assert!(r.error_message.is_null());
    let out = Run {
        value: r.value,
        string: slice(r.string, r.nParam).to_vec(),
        integers: slice(r.integers, r.nParam).to_vec(),
        reals: slice(r.reals, r.nParam).to_vec(),
        iterations: r.iterations,
        evaluations: r.evaluations,
        run_values: slice(r.run_values, r.runs).to_vec(),
        run_iterations: slice(r.run_iterations, r.runs).to_vec(),
    };
    assert!(r.seconds >= 0.0);
    unsafe { metaopt_hc12_free_run_result(&mut r) };
    assert!(r.string.is_null() && r.integers.is_null() && r.reals.is_null());
    assert!(r.run_values.is_null() && r.run_iterations.is_null() && (r.nParam, r.runs) == (0, 0));
    unsafe { metaopt_hc12_free_run_result(&mut r) }; // a second call is harmless
    Ok(out)
}

fn run(h: *mut MetaoptHc12Instance, o: &MetaoptHc12RunOptions) -> Run {
    try_run(h, o).unwrap_or_else(|(code, m)| panic!("error {code}: {m}"))
}

fn options(runs: u32, seed: u64) -> MetaoptHc12RunOptions {
    MetaoptHc12RunOptions {
        runs,
        seed,
        ..metaopt_hc12_default_run_options()
    }
}

const F1_SOURCE: &CStr = c"
FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += x[j * stride] * x[j * stride];
    return s;
}
";

/// F1 as a C host callback; `user_data` (when not NULL) is an `AtomicUsize` counting calls.
unsafe extern "C" fn f1_callback(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user_data: *mut c_void,
) -> i32 {
    if let Some(calls) = unsafe { (user_data as *const AtomicUsize).as_ref() } {
        calls.fetch_add(1, Ordering::Relaxed);
    }
    let (rows, dims) = (rows as usize, dims as usize);
    let x = unsafe { std::slice::from_raw_parts(x, rows * dims) };
    let f = unsafe { std::slice::from_raw_parts_mut(f, rows) };
    for (r, v) in f.iter_mut().enumerate() {
        *v = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
    }
    0
}

/// F1 until its third call, which fails with status 42; `user_data` is an `AtomicUsize`
/// counting calls.
unsafe extern "C" fn failing_callback(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user_data: *mut c_void,
) -> i32 {
    let calls = unsafe { &*(user_data as *const AtomicUsize) };
    if calls.load(Ordering::Relaxed) == 2 {
        calls.fetch_add(1, Ordering::Relaxed);
        return 42;
    }
    unsafe { f1_callback(x, rows, dims, f, user_data) }
}

#[test]
fn null_pointers_are_errors_naming_the_argument() {
    let _shared = shared();
    let f1 = catalogue(c"F1");
    let (bits, dod) = (8u32, [-5.12, 5.12]);
    unsafe {
        let r = metaopt_hc12_params(3, ptr::null(), 1, dod.as_ptr(), 2, 2, 0, 0, REAL, 0, &f1);
        expect_params_error(r, NULL, "`nBitParam`");
        let r = metaopt_hc12_params(3, &bits, 1, ptr::null(), 2, 2, 0, 0, REAL, 0, &f1);
        expect_params_error(r, NULL, "`dodParam`");
        let r = metaopt_hc12_params(3, &bits, 1, dod.as_ptr(), 2, 2, 0, 0, REAL, 0, ptr::null());
        expect_params_error(r, NULL, "`objective`");
    }
    let mut o = f1;
    o.function_name = ptr::null();
    expect_params_error(
        params(3, 8, (-1.0, 1.0), REAL, false, &o),
        NULL,
        "`objective.function_name`",
    );
    let mut o = source(F1_SOURCE);
    o.source = ptr::null();
    expect_params_error(
        params(3, 8, (-1.0, 1.0), REAL, false, &o),
        NULL,
        "`objective.source`",
    );
    let o = callback(None, ptr::null_mut());
    expect_params_error(
        params(3, 8, (-1.0, 1.0), REAL, false, &o),
        NULL,
        "`objective.callback`",
    );

    // every function taking a handle
    let nul = ptr::null_mut::<MetaoptHc12Instance>();
    let opts = metaopt_hc12_default_run_options();
    let tabu = metaopt_tabu_default_options();
    unsafe {
        let r = metaopt_hc12_run(nul, &opts);
        assert!(r.string.is_null() && r.reals.is_null());
        expect_error(r.error_code, r.error_message, NULL, "`h`");
        let e = metaopt_hc12_init_tabu_list(nul, 10);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let e = metaopt_hc12_set_tabu_options(nul, &tabu);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let e = metaopt_hc12_func_data(nul, [1u8].as_ptr().cast(), 1);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let e = metaopt_hc12_func_data_clean(nul);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let e = metaopt_hc12_kernel_verbose(nul, 1);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let e = metaopt_hc12_profiler_on(nul);
        expect_error(e.error_code, e.error_message, NULL, "`h`");
        let s = metaopt_hc12_profiler_output(nul);
        assert!(s.text.is_null());
        expect_error(s.error_code, s.error_message, NULL, "`h`");
        let s = metaopt_hc12_info(nul);
        assert!(s.text.is_null());
        expect_error(s.error_code, s.error_message, NULL, "`h`");
    }

    // options and data of a live handle
    let h = instance(params(3, 8, (-1.0, 1.0), REAL, false, &source(F1_SOURCE)));
    unsafe {
        let r = metaopt_hc12_run(h, ptr::null());
        expect_error(r.error_code, r.error_message, NULL, "`opts`");
        let mut o = metaopt_hc12_default_run_options();
        o.start = MetaoptHc12Start::MetaoptHc12StartVector as i32;
        let r = metaopt_hc12_run(h, &o);
        expect_error(r.error_code, r.error_message, NULL, "`start_vector`");
        expect_ok(metaopt_hc12_init_tabu_list(h, 10));
        let e = metaopt_hc12_set_tabu_options(h, ptr::null());
        expect_error(e.error_code, e.error_message, NULL, "`opts`");
        let e = metaopt_hc12_func_data(h, ptr::null(), 4);
        expect_error(e.error_code, e.error_message, NULL, "`data`");
        // no bytes: NULL is fine (the same as func-data-clean)
        expect_ok(metaopt_hc12_func_data(h, ptr::null(), 0));
        metaopt_hc12_free(h);

        // the free functions take NULL
        metaopt_hc12_free(ptr::null_mut());
        metaopt_hc12_free_run_result(ptr::null_mut());
    }
}

#[test]
fn lengths_and_values_are_checked() {
    let _shared = shared();
    let f1 = catalogue(c"F1");
    let bits3 = [8u32, 8, 8];
    let dod3 = [-1.0, 1.0, -1.0, 1.0, -1.0, 1.0];
    let p = |n: u32,
             bits: &[u32],
             bl: u32,
             dod: &[f64],
             dl: u32,
             mask: u32,
             domain: i32,
             obj: &MetaoptObjective| unsafe {
        metaopt_hc12_params(
            n,
            bits.as_ptr(),
            bl,
            dod.as_ptr(),
            dl,
            mask,
            0,
            0,
            domain,
            0,
            obj,
        )
    };
    // lengths are checked before the arrays are read
    expect_params_error(
        p(3, &bits3, 2, &dod3, 6, 2, REAL, &f1),
        INVALID,
        "`nBitParamLength`",
    );
    expect_params_error(
        p(3, &bits3, 4, &dod3, 6, 2, REAL, &f1),
        INVALID,
        "`nBitParamLength`",
    );
    expect_params_error(
        p(3, &bits3, 3, &dod3, 3, 2, REAL, &f1),
        INVALID,
        "`dodParamLength`",
    );
    expect_params_error(
        p(3, &bits3, 3, &dod3, 4, 2, REAL, &f1),
        INVALID,
        "`dodParamLength`",
    );
    expect_params_error(p(0, &bits3, 1, &dod3, 2, 2, REAL, &f1), INVALID, "`nParam`");
    // values
    expect_params_error(
        p(3, &[8, 0, 8], 3, &dod3, 6, 2, REAL, &f1),
        INVALID,
        "`nBitParam`",
    );
    expect_params_error(
        p(3, &[33], 1, &dod3, 2, 2, REAL, &f1),
        INVALID,
        "`nBitParam`",
    );
    expect_params_error(
        p(
            3,
            &bits3,
            3,
            &[-1.0, 1.0, 2.0, 2.0, -1.0, 1.0],
            6,
            2,
            REAL,
            &f1,
        ),
        INVALID,
        "`dodParam`",
    );
    expect_params_error(
        p(3, &bits3, 1, &[1.0, -1.0], 2, 2, REAL, &f1),
        INVALID,
        "`dodParam`",
    );
    expect_params_error(
        p(3, &bits3, 1, &[f64::NAN, 1.0], 2, 2, REAL, &f1),
        INVALID,
        "`dodParam`",
    );
    // single precision cannot hold this interval (its width overflows a float); double can
    let wide = [-3e38, 3e38];
    let single = MetaoptPrecision::MetaoptPrecisionSingle as i32;
    let r = unsafe {
        metaopt_hc12_params_precision(
            3,
            bits3.as_ptr(),
            1,
            wide.as_ptr(),
            2,
            2,
            0,
            0,
            REAL,
            single,
            &f1,
        )
    };
    expect_params_error(r, INVALID, "single precision");
    let r = unsafe {
        metaopt_hc12_params_precision(
            3,
            bits3.as_ptr(),
            1,
            wide.as_ptr(),
            2,
            2,
            0,
            0,
            REAL,
            3,
            &f1,
        )
    };
    expect_params_error(r, INVALID, "`precision`");
    let r = unsafe {
        metaopt_hc12_params(
            3,
            bits3.as_ptr(),
            1,
            wide.as_ptr(),
            2,
            2,
            0,
            0,
            REAL,
            1,
            &f1,
        )
    };
    unsafe { metaopt_hc12_free(instance(r)) };
    expect_params_error(
        p(3, &bits3, 1, &dod3, 2, 4, REAL, &f1),
        INVALID,
        "`maskOrder`",
    );
    expect_params_error(p(3, &bits3, 1, &dod3, 2, 2, 5, &f1), INVALID, "`domain`");
    let mut kind9 = f1;
    kind9.kind = 9;
    expect_params_error(
        p(3, &bits3, 1, &dod3, 2, 2, REAL, &kind9),
        INVALID,
        "`objective.kind`",
    );
    // the catalogue
    expect_params_error(
        p(3, &bits3, 1, &dod3, 2, 2, REAL, &catalogue(c"F99")),
        INVALID,
        "unknown function `F99`",
    );
    let bad_utf8 = [0xffu8, 0xfe, 0];
    let mut o = f1;
    o.function_name = bad_utf8.as_ptr().cast();
    expect_params_error(p(3, &bits3, 1, &dod3, 2, 2, REAL, &o), INVALID, "UTF-8");
    // the transformed functions exist in 2 and 10 dimensions only
    expect_params_error(
        p(3, &bits3, 1, &dod3, 2, 2, REAL, &catalogue(c"CEC05t")),
        INVALID,
        "dims",
    );
    // a window outside the string
    let r = unsafe {
        metaopt_hc12_params(
            3,
            bits3.as_ptr(),
            1,
            dod3.as_ptr(),
            2,
            2,
            24,
            0,
            REAL,
            0,
            &f1,
        )
    };
    expect_params_error(r, INVALID, "startBit");

    // run options
    let h = instance(params(3, 8, (-1.0, 1.0), REAL, false, &f1));
    for (field, set) in [
        (
            "`coding`",
            Box::new(|o: &mut MetaoptHc12RunOptions| o.coding = 2)
                as Box<dyn Fn(&mut MetaoptHc12RunOptions)>,
        ),
        ("`sense`", Box::new(|o| o.sense = -1)),
        ("`start`", Box::new(|o| o.start = 7)),
        ("`runs`", Box::new(|o| o.runs = 0)),
        ("`max_iterations`", Box::new(|o| o.max_iterations = 0)),
        ("`taboo`", Box::new(|o| o.taboo = 1)),
        ("`time_limit_s`", Box::new(|o| o.time_limit_s = f64::NAN)),
        ("`time_limit_s`", Box::new(|o| o.time_limit_s = -1.0)),
    ] {
        let mut o = metaopt_hc12_default_run_options();
        set(&mut o);
        let (code, m) = try_run(h, &o).unwrap_err();
        assert_eq!(code, INVALID, "{m}");
        assert!(m.contains(field), "`{m}` should mention {field}");
    }
    let v = [0.5, f64::NAN, 0.0];
    let o = MetaoptHc12RunOptions {
        start: 2,
        start_vector: v.as_ptr(),
        ..metaopt_hc12_default_run_options()
    };
    let (code, m) = try_run(h, &o).unwrap_err();
    assert!(
        code == INVALID && m.contains("`start_vector`") && m.contains("value 1"),
        "{m}"
    );
    // tabu options
    let e = unsafe { metaopt_hc12_set_tabu_options(h, &metaopt_tabu_default_options()) };
    expect_error(
        e.error_code,
        e.error_message,
        INVALID,
        "metaopt_hc12_init_tabu_list",
    );
    expect_ok(unsafe { metaopt_hc12_init_tabu_list(h, 20) });
    let mut t = metaopt_tabu_default_options();
    t.max_no_improve = 0;
    let e = unsafe { metaopt_hc12_set_tabu_options(h, &t) };
    expect_error(e.error_code, e.error_message, INVALID, "maxNoImprove");
    // func-data belongs to user sources
    let e = unsafe { metaopt_hc12_func_data(h, [1u8, 2].as_ptr().cast(), 2) };
    expect_error(e.error_code, e.error_message, INVALID, "func-data");
    let e = unsafe { metaopt_hc12_func_data_clean(h) };
    expect_error(e.error_code, e.error_message, INVALID, "func-data");
    // the handle still works after errors
    assert_eq!(run(h, &options(1, 3)), run(h, &options(1, 3)));
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn a_source_that_does_not_compile_returns_the_build_log() {
    let _shared = shared();
    let bad = source(
        c"FP objective(__global const FP *x, uint dims, uint stride, __global const void *data)
{ return undeclared_thing; }
",
    );
    let r = params(2, 8, (0.0, 1.0), REAL, false, &bad);
    assert!(r.instance.is_null());
    let m = take_message(r.error_message);
    assert_eq!(r.error_code, KERNEL_BUILD, "{m}");
    assert!(
        m.contains("undeclared_thing"),
        "the build log names the error: {m}"
    );
}

#[test]
fn catalogue_source_and_callback_give_the_same_run() {
    let _shared = shared();
    let (n, bits, dom) = (6, 12, (-5.12, 5.12));
    let opts = options(2, 9);
    let h = instance(params(n, bits, dom, REAL, true, &catalogue(c"f1")));
    let want = run(h, &opts);
    unsafe { metaopt_hc12_free(h) };
    assert_eq!((want.run_values.len(), want.run_iterations.len()), (2, 2));
    assert!(want.iterations > 1 && want.evaluations > 0);
    assert_eq!(
        want.value,
        want.run_values
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    );

    // the Rust API gives the same run
    let mut p = Hc12Params::real(n, bits, dom.0, dom.1);
    p.double = true;
    let rust = Hc12::new(p, Objective::catalogue("F1").unwrap(), Backend::DEVICE)
        .unwrap()
        .run(&RunOptions {
            stop: metaopt::run::Stop {
                budget: Some(2),
                ..Default::default()
            },
            seed: 9,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        (want.value, &want.string, &want.reals, want.iterations),
        (rust.value, &rust.string, &rust.reals, rust.iterations)
    );
    assert_eq!(want.evaluations, rust.evaluations);

    let h = instance(params(n, bits, dom, REAL, true, &source(F1_SOURCE)));
    assert_eq!(run(h, &opts), want, "user source");
    unsafe { metaopt_hc12_free(h) };

    let calls = AtomicUsize::new(0);
    let h = instance(params(
        n,
        bits,
        dom,
        REAL,
        true,
        &callback(Some(f1_callback), &calls as *const _ as *mut c_void),
    ));
    let got = run(h, &opts);
    assert_eq!(
        (
            &got.string,
            &got.integers,
            got.iterations,
            &got.run_iterations
        ),
        (
            &want.string,
            &want.integers,
            want.iterations,
            &want.run_iterations
        )
    );
    assert!(
        (got.value - want.value).abs() <= 1e-12,
        "{} vs {}",
        got.value,
        want.value
    );
    let made = calls.load(Ordering::Relaxed);
    assert!(
        made as u64
            >= got
                .run_iterations
                .iter()
                .map(|&i| u64::from(i))
                .sum::<u64>(),
        "user_data reaches the callback"
    );
    unsafe { metaopt_hc12_free(h) };
    assert_eq!(
        calls.load(Ordering::Relaxed),
        made,
        "no call after metaopt_hc12_free"
    );
}

/// F1, slowly: each call sleeps 20 ms.
unsafe extern "C" fn slow_callback(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user_data: *mut c_void,
) -> i32 {
    std::thread::sleep(std::time::Duration::from_millis(20));
    unsafe { f1_callback(x, rows, dims, f, user_data) }
}

#[test]
fn the_time_limit_binds_inside_a_run() {
    let _shared = shared();
    let cb = callback(Some(slow_callback), ptr::null_mut());
    let h = instance(params(8, 20, (-5.0, 5.0), REAL, true, &cb));
    // a thousand runs of up to a million climb steps: only the limit ends it
    let o = MetaoptHc12RunOptions {
        time_limit_s: 0.5,
        max_iterations: 1_000_000,
        ..options(1000, 3)
    };
    let t = std::time::Instant::now();
    let mut r = unsafe { metaopt_hc12_run(h, &o) };
    let took = t.elapsed().as_secs_f64();
    assert_eq!(r.error_code, OK);
    assert_eq!(r.stop_reason, 2, "METAOPT_STOP_TIME_LIMIT");
    assert!(r.value.is_finite() && r.runs >= 1);
    assert!(took < 0.5 + 1.0, "{took} s");
    unsafe { metaopt_hc12_free_run_result(&mut r) };
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn a_failing_callback_is_a_callback_error() {
    let _shared = shared();
    let calls = AtomicUsize::new(0);
    let cb = callback(Some(failing_callback), &calls as *const _ as *mut c_void);
    let h = instance(params(2, 8, (0.0, 1.0), REAL, false, &cb));
    let (code, m) = try_run(h, &options(1, 1)).unwrap_err();
    assert_eq!(code, CALLBACK, "{m}");
    assert!(m.contains("status 42"), "the status is in the message: {m}");
    assert_eq!(
        calls.load(Ordering::Relaxed),
        3,
        "the run ends at the failing call"
    );
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn func_data_feeds_a_user_source() {
    let _shared = shared();
    // integers (params:noR): the distance to the target in func-data; plain binary code
    let code =
        c"FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)
{
    __global const uint *t = (__global const uint *)data;
    FP s = 0;
    for (uint j = 0; j < dims; ++j) s += fabs((FP)v[j * stride] - (FP)t[j]);
    return s;
}
";
    let mut obj = source(code);
    obj.function_name = c"distance to target".as_ptr();
    let h = instance(params(3, 8, (0.0, 1.0), INTEGER, false, &obj));
    let target = [37u32, 5, 200];
    expect_ok(unsafe { metaopt_hc12_func_data(h, target.as_ptr().cast(), 12) });
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(
        info.contains("distance to target") && info.contains("func-data: 12 bytes"),
        "{info}"
    );
    assert!(info.contains("params:noR"), "{info}");
    let mut o = options(4, 1);
    o.coding = MetaoptCoding::MetaoptCodingBinary as i32;
    let r = run(h, &o);
    assert_eq!((r.value, &r.integers[..]), (0.0, &target[..]));
    assert_eq!(
        r.string, r.integers,
        "binary code: the string is the integers"
    );
    // replaced: a new target, Gray code
    let target = [1u32, 2, 3];
    expect_ok(unsafe { metaopt_hc12_func_data(h, target.as_ptr().cast(), 12) });
    let r = run(h, &options(4, 1));
    assert_eq!((r.value, &r.integers[..]), (0.0, &target[..]));
    expect_ok(unsafe { metaopt_hc12_func_data_clean(h) });
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(info.contains("func-data: 0 bytes"), "{info}");
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn binary_domain_maximised_from_zeros_and_a_start_vector() {
    let _shared = shared();
    // OneMax over the bit strings: every bit set is the maximum
    let onemax =
        c"FP objective_u(__global const uint *v, uint dims, uint stride, __global const void *data)
{ FP s = 0; for (uint j = 0; j < dims; ++j) s += (FP)popcount(v[j * stride]); return s; }
";
    let h = instance(params(4, 8, (0.0, 1.0), BINARY, false, &source(onemax)));
    let o = MetaoptHc12RunOptions {
        sense: MetaoptSense::MetaoptSenseMax as i32,
        start: MetaoptHc12Start::MetaoptHc12StartZeros as i32,
        ..metaopt_hc12_default_run_options()
    };
    let r = run(h, &o);
    assert_eq!((r.value, &r.string[..]), (32.0, &[255u32; 4][..]));
    unsafe { metaopt_hc12_free(h) };

    // from a start vector at the optimum of F1 (a grid point of [-511, 512] on 10 bits: step 1),
    // no move improves; off-grid values are rounded to the nearest grid point
    let h = instance(params(
        3,
        10,
        (-511.0, 512.0),
        REAL,
        true,
        &catalogue(c"F1"),
    ));
    let x = [0.2, -0.3, 0.0];
    let o = MetaoptHc12RunOptions {
        start: 2,
        start_vector: x.as_ptr(),
        ..metaopt_hc12_default_run_options()
    };
    let r = run(h, &o);
    assert_eq!(
        (r.value, &r.reals[..], &r.integers[..], r.iterations),
        (0.0, &[0.0; 3][..], &[511u32; 3][..], 1),
        "{r:?}"
    );
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn taboo_switches_the_tabu_list_on_and_off() {
    let _shared = shared();
    let h = instance(params(5, 10, (-5.12, 5.12), REAL, true, &catalogue(c"F6")));
    let plain = run(h, &options(1, 3));
    expect_ok(unsafe { metaopt_hc12_init_tabu_list(h, 50) });
    let mut t = metaopt_tabu_default_options();
    t.max_iterations = 300;
    t.max_no_improve = 40;
    expect_ok(unsafe { metaopt_hc12_set_tabu_options(h, &t) });
    // without `taboo` the list is ignored
    assert_eq!(run(h, &options(1, 3)), plain);
    let taboo = MetaoptHc12RunOptions {
        taboo: 1,
        ..options(1, 3)
    };
    let tabu = run(h, &taboo);
    assert!(
        tabu.iterations > plain.iterations,
        "the tabu walk goes on past the local optimum"
    );
    assert!(
        tabu.value <= plain.value,
        "the best ever seen is kept: {} vs {}",
        tabu.value,
        plain.value
    );
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(
        info.contains("tabu list: 50 strings") && info.contains("300 iterations at most"),
        "{info}"
    );

    // the Rust API's tabu run
    let mut p = Hc12Params::real(5, 10, -5.12, 5.12);
    p.double = true;
    let mut s = Hc12::new(p, Objective::catalogue("F6").unwrap(), Backend::DEVICE).unwrap();
    let mut cfg = TabuConfig::new(50).unwrap();
    cfg.max_iterations = 300;
    cfg.max_no_improve = 40;
    s.init_tabu_list(cfg).unwrap();
    let want = s
        .run(&RunOptions {
            seed: 3,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        (tabu.value, &tabu.string, tabu.iterations),
        (want.value, &want.string, want.iterations)
    );

    // the list's length can change and keeps its options; 0 removes it
    expect_ok(unsafe { metaopt_hc12_init_tabu_list(h, 60) });
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(
        info.contains("tabu list: 60 strings") && info.contains("40 without improvement"),
        "{info}"
    );
    expect_ok(unsafe { metaopt_hc12_init_tabu_list(h, 0) });
    assert_eq!(try_run(h, &taboo).unwrap_err().0, INVALID);
    assert_eq!(run(h, &options(1, 3)), plain);
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn profiler_output_and_kernel_verbose() {
    let _shared = shared();
    let h = instance(params(4, 8, (-5.12, 5.12), REAL, false, &catalogue(c"F1")));
    let s = unsafe { metaopt_hc12_profiler_output(h) };
    assert!(s.text.is_null());
    expect_error(
        s.error_code,
        s.error_message,
        INVALID,
        "metaopt_hc12_profiler_on",
    );
    expect_ok(unsafe { metaopt_hc12_profiler_on(h) });
    assert_eq!(
        take_text(unsafe { metaopt_hc12_profiler_output(h) }),
        "",
        "nothing launched yet"
    );
    expect_ok(unsafe { metaopt_hc12_kernel_verbose(h, 1) });
    let r = run(h, &options(2, 1));
    expect_ok(unsafe { metaopt_hc12_kernel_verbose(h, 0) });
    let text = take_text(unsafe { metaopt_hc12_profiler_output(h) });
    let line = |name: &str| -> (u64, f64, f64) {
        let l = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in:\n{text}"));
        let field = |key: &str| {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .unwrap_or_else(|| panic!("no {key} in `{l}`"))
        };
        (
            field("launches=").parse().unwrap(),
            field("total_ms=").parse().unwrap(),
            field("mean_us=").parse().unwrap(),
        )
    };
    let (launches, total_ms, mean_us) = line("hc12g_eval");
    // one evaluation of the start of each run, then one per iteration
    let evaluations: u64 = r.run_iterations.iter().map(|&i| u64::from(i) + 1).sum();
    assert_eq!(launches, evaluations, "{text}");
    assert!(
        total_ms >= 0.0
            && (mean_us * launches as f64 / 1e3 - total_ms).abs() <= 1e-3 + 1e-6 * total_ms,
        "{text}"
    );
    assert_eq!(line("hc12_argmin_groups").0, launches);
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(
        info.contains("profiler: on") && info.contains("kernel verbose: off"),
        "{info}"
    );
    // profiler-on again starts afresh
    expect_ok(unsafe { metaopt_hc12_profiler_on(h) });
    assert_eq!(take_text(unsafe { metaopt_hc12_profiler_output(h) }), "");
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn info_describes_the_instance() {
    let _shared = shared();
    let bits = [10u32, 12, 8];
    let dod = [-5.12, 5.12, -1.0, 3.0, -5.12, 5.12];
    let r = unsafe {
        metaopt_hc12_params(
            3,
            bits.as_ptr(),
            3,
            dod.as_ptr(),
            6,
            2,
            0,
            0,
            REAL,
            1,
            &catalogue(c"f6"),
        )
    };
    let h = instance(r);
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    for needle in [
        "parameters: 3",
        "bits per parameter: 10, 12, 8",
        "[-1, 3]",
        "domain: real",
        "precision: double",
        "string: 30 bits",
        "mask order 2 over the whole string",
        "466 rows per iteration",
        "catalogue function `F6`",
        "Rastrigin",
        "device ",
        "tabu list: none",
        "profiler: off",
    ] {
        assert!(
            info.contains(needle),
            "info should mention `{needle}`:\n{info}"
        );
    }
    unsafe { metaopt_hc12_free(h) };
    let calls = AtomicUsize::new(0);
    let mut cb = callback(Some(f1_callback), &calls as *const _ as *mut c_void);
    cb.function_name = c"my sphere".as_ptr();
    let h = instance(params(2, 8, (0.0, 1.0), INTEGER, false, &cb));
    let info = take_text(unsafe { metaopt_hc12_info(h) });
    assert!(info.contains("host callback `my sphere`"), "{info}");
    assert!(
        info.contains("bits per parameter: 8 (every parameter)"),
        "{info}"
    );
    // the default precision is auto: double where the device has cl_khr_fp64
    let fp64 = metaopt::device::list_devices().unwrap()
        [metaopt::device::get_device_number().unwrap()]
    .fp64;
    assert!(
        info.contains(if fp64 {
            "precision: double"
        } else {
            "precision: float"
        }) && info.contains("domain: integer"),
        "{info}"
    );
    unsafe { metaopt_hc12_free(h) };
    assert_eq!(
        calls.load(Ordering::Relaxed),
        0,
        "making an instance does not call the callback"
    );
}

#[test]
fn forged_and_freed_handles_are_errors() {
    let _exclusive = exclusive();
    let opts = metaopt_hc12_default_run_options();
    // zeroed memory that looks like nothing the library made
    let mut fake = vec![0u64; 256];
    let forged = fake.as_mut_ptr().cast::<MetaoptHc12Instance>();
    let r = unsafe { metaopt_hc12_run(forged, &opts) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    let e = unsafe { metaopt_hc12_init_tabu_list(forged, 3) };
    expect_error(
        e.error_code,
        e.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    let s = unsafe { metaopt_hc12_info(forged) };
    expect_error(
        s.error_code,
        s.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    // an arbitrary address is never dereferenced
    let wild = 0x10 as *mut MetaoptHc12Instance;
    let r = unsafe { metaopt_hc12_run(wild, &opts) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    unsafe { metaopt_hc12_free(forged) }; // ignored
    assert!(
        fake.iter().all(|&w| w == 0),
        "a forged handle must not be written"
    );

    // a handle of another solver is not an MetaoptHc12Instance
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
    let e = unsafe { metaopt_hc12_kernel_verbose(q.instance.cast(), 1) };
    expect_error(
        e.error_code,
        e.error_message,
        INVALID,
        "not a live MetaoptHc12Instance",
    );
    unsafe { metaopt_hc12_free(q.instance.cast()) }; // ignored: not ours
    let r = unsafe { metaopt_qap_run(q.instance, ptr::null(), ptr::null()) };
    assert_eq!(
        r.error_code, OK,
        "the QAP instance survives metaopt_hc12_free"
    );
    unsafe {
        let mut r = r;
        metaopt_qap_free_run_result(&mut r);
        metaopt_qap_free(q.instance);
    }

    let h = instance(params(2, 8, (0.0, 1.0), REAL, false, &catalogue(c"F1")));
    unsafe { metaopt_hc12_free(h) };
    let r = unsafe { metaopt_hc12_run(h, &opts) };
    expect_error(r.error_code, r.error_message, INVALID, "freed already");
    let s = unsafe { metaopt_hc12_profiler_output(h) };
    expect_error(s.error_code, s.error_message, INVALID, "freed already");
    unsafe { metaopt_hc12_free(h) }; // a double free is ignored
}
