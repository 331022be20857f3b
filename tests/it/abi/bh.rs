//! Basin hopping over the C ABI called from Rust: the C result against the library's own solve,
//! the device against the CPU backend, a saved and loaded state continuing the solve exactly, a
//! C callback with its user pointer, the stops (time limit, stop token) and errors naming the
//! argument.

use crate::common::cabi::*;
use crate::common::need::{needs, Need};
use metaopt::bh::{BasinHopping, BhParams, BhRun};
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::objective::Objective;
use metaopt::run::{Stop, StopReason};
use std::ffi::{c_void, CString};
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};

const LO: [f64; 3] = [-5.12; 3];
const HI: [f64; 3] = [5.12; 3];
const X0: [f64; 3] = [3.1, -2.4, 4.9];

fn catalogue(name: &CString) -> MetaoptObjective {
    MetaoptObjective {
        kind: 0,
        function_name: name.as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    }
}

fn options(backend: i32) -> MetaoptBhOptions {
    MetaoptBhOptions {
        chains: 64,
        launch_steps: 50,
        max_search: 200,
        seed: 7,
        backend,
        ..metaopt_bh_default_options()
    }
}

fn create(o: &MetaoptObjective, opts: &MetaoptBhOptions) -> MetaoptBhCreateResult {
    unsafe { metaopt_bh_create(o, LO.as_ptr(), HI.as_ptr(), 3, ptr::null(), 0, opts) }
}

fn instance(r: MetaoptBhCreateResult) -> *mut MetaoptBhInstance {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    r.instance
}

fn start(h: *mut MetaoptBhInstance) {
    expect_ok(unsafe { metaopt_bh_start(h, X0.as_ptr(), 3) });
}

/// (value, point, steps, evaluations, stop_reason, error_code) of a solve, freed.
fn solve(h: *mut MetaoptBhInstance, s: &MetaoptBhStop) -> (f64, Vec<f64>, u64, u64, i32, i32) {
    let mut r = unsafe { metaopt_bh_solve(h, s) };
    let out = (
        r.value,
        if r.x.is_null() {
            vec![]
        } else {
            unsafe { std::slice::from_raw_parts(r.x, r.dims as usize) }.to_vec()
        },
        r.steps,
        r.evaluations,
        r.stop_reason,
        r.error_code,
    );
    if r.error_code != OK && r.error_code != MetaoptErrorCode::MetaoptInterrupted as i32 {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    unsafe { metaopt_bh_free_solve_result(&mut r) };
    assert!(r.x.is_null() && r.error_message.is_null());
    out
}

fn steps(n: u64) -> MetaoptBhStop {
    MetaoptBhStop {
        steps: n,
        ..metaopt_bh_default_stop()
    }
}

#[test]
fn a_c_solve_is_the_library_solve() {
    let _g = shared();
    let name = CString::new("F6").unwrap();
    let h = instance(create(&catalogue(&name), &options(1)));
    start(h);
    let (value, x, st, evals, why, code) = solve(h, &steps(300));
    unsafe { metaopt_bh_free(h) };
    assert_eq!((code, why, st), (OK, StopReason::Budget.code(), 300));

    let p = BhParams {
        chains: 64,
        max_search: 200,
        seed: 7,
        ..BhParams::default()
    };
    let obj = Objective::catalogue("F6").unwrap();
    let mut bh = BasinHopping::new(&obj, &LO, &HI, &p, Backend::Cpu).unwrap();
    bh.start(&X0, None).unwrap();
    let r = bh
        .solve(&BhRun {
            launch_steps: 50,
            share: true,
            stop: Stop::budget(300),
        })
        .unwrap();
    assert_eq!((value, x, evals), (r.value, r.x, r.evaluations));
    assert_eq!(evals, 1 + 300 * 64);
}

#[test]
fn the_device_takes_the_cpu_backends_steps_in_double() {
    needs!(Need::Device);
    let _g = shared();
    let name = CString::new("F6").unwrap();
    let mut out = vec![];
    for backend in [0, 1] {
        let mut o = options(backend);
        o.precision = 2;
        let h = instance(create(&catalogue(&name), &o));
        start(h);
        out.push(solve(h, &steps(200)));
        unsafe { metaopt_bh_free(h) };
    }
    assert_eq!(out[0], out[1]);
}

#[test]
fn a_loaded_state_continues_the_solve_exactly() {
    let _g = shared();
    let name = CString::new("F8").unwrap();
    let o = options(1);
    let whole = {
        let h = instance(create(&catalogue(&name), &o));
        start(h);
        let r = solve(h, &steps(400));
        unsafe { metaopt_bh_free(h) };
        r
    };
    let h = instance(create(&catalogue(&name), &o));
    start(h);
    // a first part that ends between two shares of the anchor
    let first = solve(h, &steps(170));
    assert_eq!(first.2, 170);
    let mut st = unsafe { metaopt_bh_save_state(h) };
    assert_eq!(st.error_code, OK);
    let bytes = unsafe { std::slice::from_raw_parts(st.data, st.length) }.to_vec();
    unsafe { metaopt_bytes_free_result(&mut st) };
    unsafe { metaopt_bh_free(h) };

    let h = instance(create(&catalogue(&name), &o));
    expect_ok(unsafe { metaopt_bh_load_state(h, bytes.as_ptr(), bytes.len()) });
    let rest = solve(h, &steps(400));
    unsafe { metaopt_bh_free(h) };
    assert_eq!(rest, whole);

    // a state of other options is refused, naming what differs
    let other = MetaoptBhOptions { seed: 8, ..o };
    let h = instance(create(&catalogue(&name), &other));
    let r = unsafe { metaopt_bh_load_state(h, bytes.as_ptr(), bytes.len()) };
    expect_error(r.error_code, r.error_message, INVALID, "seed");
    unsafe { metaopt_bh_free(h) };
}

static CALLS: AtomicU64 = AtomicU64::new(0);

/// The sphere, counting its points in the u64 behind `user`.
unsafe extern "C" fn sphere(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user: *mut c_void,
) -> i32 {
    let (rows, dims) = (rows as usize, dims as usize);
    let x = unsafe { std::slice::from_raw_parts(x, rows * dims) };
    let f = unsafe { std::slice::from_raw_parts_mut(f, rows) };
    for (r, v) in f.iter_mut().enumerate() {
        *v = x[r * dims..(r + 1) * dims].iter().map(|a| a * a).sum();
    }
    unsafe { &*(user as *const AtomicU64) }.fetch_add(rows as u64, Ordering::Relaxed);
    0
}

#[test]
fn a_c_callback_is_called_for_every_evaluation_with_its_user_pointer() {
    let _g = shared();
    let name = CString::new("sphere").unwrap();
    let o = MetaoptObjective {
        kind: 2,
        function_name: name.as_ptr(),
        source: ptr::null(),
        callback: Some(sphere),
        user_data: &CALLS as *const AtomicU64 as *mut c_void,
    };
    let before = CALLS.load(Ordering::Relaxed);
    let h = instance(create(&o, &options(1)));
    start(h);
    let (value, x, _, evals, _, code) = solve(h, &steps(1000));
    assert_eq!(code, OK);
    assert_eq!(CALLS.load(Ordering::Relaxed) - before, evals);
    assert_eq!(value, x.iter().map(|a| a * a).sum::<f64>());
    assert!(value < 1e-6, "the sphere's minimum: {value}");
    let mut info = unsafe { metaopt_bh_info(h) };
    assert_eq!(info.error_code, OK);
    let text = take_message(std::mem::replace(&mut info.text, ptr::null_mut()));
    assert!(
        text.contains("host callback `sphere`") && text.contains("64 chains"),
        "{text}"
    );
    unsafe { metaopt_bh_free(h) };

    // a callback on the device is refused, naming the objective
    let r = create(&o, &options(0));
    expect_error(r.error_code, r.error_message, INVALID, "objective");
}

#[test]
fn a_time_limit_and_a_stop_token_end_an_unbounded_solve() {
    let _g = shared();
    let name = CString::new("F8").unwrap();
    let mut o = options(1);
    o.chains = 4096;
    let h = instance(create(&catalogue(&name), &o));
    start(h);
    let s = MetaoptBhStop {
        time_limit: 0.3,
        ..metaopt_bh_default_stop()
    };
    let t0 = std::time::Instant::now();
    let (value, _, _, _, why, code) = solve(h, &s);
    let took = t0.elapsed().as_secs_f64();
    assert_eq!((code, why), (OK, StopReason::TimeLimit.code()));
    assert!(value.is_finite());
    assert!(took < 0.3 + 1.0, "a 0.3 s limit took {took} s");

    let token = metaopt_stop_token_create();
    let t = token as usize;
    let requester = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        unsafe { metaopt_stop_token_request(t as *mut MetaoptStopToken) };
    });
    let s = MetaoptBhStop {
        time_limit: 60.0,
        stop_token: token,
        ..metaopt_bh_default_stop()
    };
    let t0 = std::time::Instant::now();
    let (value, _, _, _, why, code) = solve(h, &s);
    let took = t0.elapsed().as_secs_f64();
    requester.join().unwrap();
    assert_eq!(code, MetaoptErrorCode::MetaoptInterrupted as i32);
    assert_eq!(why, StopReason::Interrupted.code());
    assert!(value.is_finite());
    assert!(
        took < 0.3 + 1.0,
        "a request at 0.3 s ended the solve at {took} s"
    );
    unsafe { metaopt_stop_token_free(token) };
    unsafe { metaopt_bh_free(h) };
}

#[test]
fn errors_name_the_argument() {
    let _g = shared();
    let name = CString::new("F1").unwrap();
    let obj = catalogue(&name);
    let r = create(
        &obj,
        &MetaoptBhOptions {
            chains: 0,
            ..options(1)
        },
    );
    expect_error(r.error_code, r.error_message, INVALID, "options.chains");
    let r = create(
        &obj,
        &MetaoptBhOptions {
            hop_min: 0.5,
            hop_max: 0.1,
            ..options(1)
        },
    );
    expect_error(r.error_code, r.error_message, INVALID, "options.hop_min");
    let r = create(
        &obj,
        &MetaoptBhOptions {
            precision: 1,
            ..options(1)
        },
    );
    expect_error(r.error_code, r.error_message, INVALID, "options.precision");
    let data = [0u8; 8];
    let r = unsafe {
        metaopt_bh_create(
            &obj,
            LO.as_ptr(),
            HI.as_ptr(),
            3,
            data.as_ptr().cast(),
            8,
            &options(1),
        )
    };
    expect_error(r.error_code, r.error_message, INVALID, "data");
    let r = unsafe {
        metaopt_bh_create(
            &obj,
            HI.as_ptr(),
            LO.as_ptr(),
            3,
            ptr::null(),
            0,
            &options(1),
        )
    };
    expect_error(r.error_code, r.error_message, INVALID, "lo");

    let h = instance(create(&obj, &options(1)));
    let mut r = unsafe { metaopt_bh_solve(h, &steps(5)) };
    expect_error(
        r.error_code,
        std::mem::replace(&mut r.error_message, ptr::null_mut()),
        INVALID,
        "start",
    );
    unsafe { metaopt_bh_free_solve_result(&mut r) };
    let far = [9.0, 0.0, 0.0];
    let r = unsafe { metaopt_bh_start(h, far.as_ptr(), 3) };
    expect_error(r.error_code, r.error_message, INVALID, "outside");
    start(h);
    let mut r = unsafe { metaopt_bh_solve(h, &metaopt_bh_default_stop()) };
    expect_error(
        r.error_code,
        std::mem::replace(&mut r.error_message, ptr::null_mut()),
        INVALID,
        "no stop condition",
    );
    unsafe { metaopt_bh_free_solve_result(&mut r) };
    unsafe { metaopt_bh_free(h) };
}
