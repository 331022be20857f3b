//! Per-handle devices and per-context device loss (docs/ARCHITECTURE.md "Devices"), with PoCL
//! posing as three devices: handles of one solver on devices 0 and 1 driven from two threads
//! give the results of the same seed on one device; device numbers below -1 or past the list
//! are errors naming `device` in every create call; a failure on device 1 leaves the handles on
//! device 0 working while device 1 refuses with `METAOPT_ERR_INVALID_MEM_SPACE` until
//! `metaopt_device_reset`.
//!
//! PoCL reads `POCL_DEVICES` when the platform is first opened, so every test runs in a process of
//! its own that has it from the start (a machine with a real GPU lists it first; the tests need
//! only two devices of any kind).

use crate::common;
use crate::common::cabi::*;
use crate::common::child::several_devices;
use metaopt::ffi::*;
use std::ffi::CString;
use std::ptr;
use std::sync::{Mutex, MutexGuard};

const INVALID_MEM_SPACE: i32 = MetaoptErrorCode::MetaoptErrInvalidMemSpace as i32;

/// The loss test marks a device lost: the tests of this file take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// The device count, with the lock of this file (after [`several_devices!`]).
fn setup() -> (usize, MutexGuard<'static, ()>) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    (expect_ok(metaopt_device_count()) as usize, guard)
}

/// A DE handle (a raw pointer, moved between threads: each handle is used by one thread).
struct De(*mut MetaoptDeInstance);
// SAFETY: the library's handles may be used from any thread, one at a time (their busy flag).
unsafe impl Send for De {}

fn de_create(device: i32) -> MetaoptDeCreateResult {
    let mut o = metaopt_de_default_options();
    o.double_precision = 1;
    o.device = device;
    let limits = [-5.12, 5.12];
    let bounds = CString::new("COTN").unwrap();
    unsafe { metaopt_de_create(4, 16, 5, limits.as_ptr(), 2, bounds.as_ptr(), &o) }
}

fn de_on(device: i32) -> De {
    let r = de_create(device);
    if r.error_code != OK {
        panic!(
            "device {device}: error {}: {}",
            r.error_code,
            take_message(r.error_message)
        );
    }
    let h = r.instance;
    let f1 = CString::new("F1").unwrap();
    let obj = MetaoptObjective {
        kind: 0,
        function_name: f1.as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    };
    let m = CString::new("DE/rand/1").unwrap();
    let g = CString::new("PermuteN").unwrap();
    expect_ok(unsafe { metaopt_de_init(h, &obj, m.as_ptr(), g.as_ptr(), 5, ptr::null()) });
    De(h)
}

/// 40 generations of `h`: (error code, best value, best point); the message is checked away.
fn de_run(h: &De) -> (i32, f64, Vec<f64>) {
    let mut stop = metaopt_de_default_stop();
    stop.generations = 40;
    let mut r = unsafe { metaopt_de_run(h.0, &stop) };
    if r.error_code != OK {
        let code = r.error_code;
        let m = take_message(r.error_message);
        return (code, f64::NAN, vec![m.len() as f64]);
    }
    let x = unsafe { std::slice::from_raw_parts(r.x, r.dims as usize) }.to_vec();
    let v = r.value;
    unsafe { metaopt_de_free_run_result(&mut r) };
    (OK, v, x)
}

#[test]
fn de_handles_on_two_devices_from_two_threads_match_one_device() {
    several_devices!();
    let (_, _lock) = setup();
    let _g = shared();
    // the reference: the same seeds on device 0, alone
    let h = de_on(0);
    let reference = de_run(&h);
    assert_eq!(reference.0, OK);
    assert!(
        reference.1.is_finite() && reference.1 < 25.0,
        "{reference:?}"
    );
    unsafe { metaopt_de_free(h.0) };
    let threads: Vec<_> = [0, 1]
        .into_iter()
        .map(|d| {
            let h = de_on(d);
            std::thread::spawn(move || {
                let r = de_run(&h);
                unsafe { metaopt_de_free(h.0) };
                r
            })
        })
        .collect();
    for (d, t) in threads.into_iter().enumerate() {
        let r = t.join().expect("thread");
        assert_eq!(r, reference, "device {d}");
    }
}

/// HC12 on had12 from the file on `device` (6 runs, seed 7): (cost, permutation).
fn qap_solve_on(device: i32) -> (i64, Vec<u16>) {
    let path = CString::new(common::qaplib().join("had12.dat").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_qap_params_from_file_on_device(path.as_ptr(), 2, 2, 0, 0, device) };
    if r.error_code != OK {
        panic!("device {device}: {}", take_message(r.error_message));
    }
    let h = r.instance;
    let mut o = metaopt_qap_default_solve_options();
    o.runs = 6;
    o.seed = 7;
    let mut s = unsafe { metaopt_qap_solve(h, &o) };
    assert_eq!(s.error_code, OK, "device {device}");
    let perm = unsafe { std::slice::from_raw_parts(s.permutation, s.permutation_length as usize) }
        .to_vec();
    let cost = s.f_t1;
    unsafe { metaopt_qap_free_solve_result(&mut s) };
    // the robust tabu search over the instance runs on the instance's device: 8 chains of 2000
    // iterations reach had12's optimum 1652 from seed 3 (on every device alike)
    let mut t = metaopt_qap_ts_default_options();
    (t.chains, t.max_iterations, t.seed) = (8, 2000, 3);
    let mut ts = unsafe { metaopt_qap_ts_solve(h, &t) };
    assert_eq!(
        (ts.error_code, ts.f_t1),
        (OK, 1652),
        "device {device}: the tabu search"
    );
    unsafe { metaopt_qap_ts_free_solve_result(&mut ts) };
    // the CPU backend and back to this device: the same seed, the same result
    expect_ok(unsafe { metaopt_qap_set_backend_on_device(h, 1, 0, device) });
    let mut c = unsafe { metaopt_qap_solve(h, &o) };
    assert_eq!(
        (c.error_code, c.f_t1),
        (OK, cost),
        "device {device}: the CPU backend"
    );
    unsafe { metaopt_qap_free_solve_result(&mut c) };
    unsafe { metaopt_qap_free(h) };
    (cost, perm)
}

#[test]
fn qap_handles_on_two_devices_from_two_threads_match_one_device() {
    several_devices!();
    let (_, _lock) = setup();
    let _g = shared();
    let reference = qap_solve_on(0);
    assert!(
        reference.0 >= 1652,
        "had12's optimum is 1652: {reference:?}"
    );
    let threads: Vec<_> = [1, 0]
        .into_iter()
        .map(|d| std::thread::spawn(move || (d, qap_solve_on(d))))
        .collect();
    for t in threads {
        let (d, r) = t.join().expect("thread");
        assert_eq!(r, reference, "device {d}");
    }
}

#[test]
fn catalogue_function_on_each_device_equals_the_host_reference() {
    several_devices!();
    let (count, _lock) = setup();
    let f = CString::new("F2").unwrap();
    let points: Vec<f64> = (0..6 * 4).map(|i| (i as f64 * 0.37).sin() * 2.0).collect();
    let eval = |backend: i32, device: i32| {
        let mut r = unsafe {
            metaopt_function_evaluate_on_device(
                f.as_ptr(),
                points.as_ptr(),
                6,
                4,
                backend,
                device,
                2,
            )
        };
        assert_eq!(r.error_code, OK, "device {device}");
        let v = unsafe { std::slice::from_raw_parts(r.values, r.length as usize) }.to_vec();
        unsafe { metaopt_double_array_free_result(&mut r) };
        v
    };
    let host = eval(1, -1);
    let handles: Vec<_> = (0..count.min(3) as i32)
        .map(|d| {
            let (f, points) = (f.clone(), points.clone());
            std::thread::spawn(move || {
                let mut r = unsafe {
                    metaopt_function_evaluate_on_device(f.as_ptr(), points.as_ptr(), 6, 4, 0, d, 2)
                };
                assert_eq!(r.error_code, OK, "device {d}");
                let v = unsafe { std::slice::from_raw_parts(r.values, r.length as usize) }.to_vec();
                unsafe { metaopt_double_array_free_result(&mut r) };
                v
            })
        })
        .collect();
    for (d, t) in handles.into_iter().enumerate() {
        let v = t.join().expect("thread");
        for (a, b) in v.iter().zip(&host) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "device {d}: {a} vs host {b}"
            );
        }
    }
}

#[test]
fn bad_device_numbers_are_errors_naming_device() {
    several_devices!();
    let (count, _lock) = setup();
    let _g = shared();
    for bad in [-2, count as i32, 99] {
        let r = de_create(bad);
        expect_error(r.error_code, r.error_message, INVALID, "device");
        assert!(r.instance.is_null());

        let r = metaopt_device_is_valid(bad);
        expect_error(r.error_code, r.error_message, INVALID, "device");

        let f = CString::new("F1").unwrap();
        let p = [0.5, 0.5];
        let r =
            unsafe { metaopt_function_evaluate_on_device(f.as_ptr(), p.as_ptr(), 1, 2, 0, bad, 0) };
        expect_error(r.error_code, r.error_message, INVALID, "device");

        let mut o = metaopt_batch_de_default_options();
        o.device = bad;
        let mut p = metaopt_batch_de_default_problem();
        let (lo, hi) = ([-1.0, -1.0], [1.0, 1.0]);
        p.function = f.as_ptr();
        p.dims = 2;
        (p.lower, p.lower_length, p.upper, p.upper_length) = (lo.as_ptr(), 2, hi.as_ptr(), 2);
        let r = unsafe { metaopt_batch_de_create(&p, 1, &o) };
        expect_error(r.error_code, r.error_message, INVALID, "device");

        let df: Vec<i64> = vec![0, 1, 2, 1, 0, 3, 2, 3, 0, 0, 5, 2, 5, 0, 3, 2, 3, 0];
        let ty = CString::new("int64").unwrap();
        let r = unsafe {
            metaopt_qap_params_on_device(1, 3, 2, df.as_ptr().cast(), ty.as_ptr(), 1, 0, 0, bad)
        };
        expect_error(r.error_code, r.error_message, INVALID, "device");

        let bits = [8u32];
        let dod = [-1.0, 1.0];
        let src = CString::new("float f(const float* x) { return x[0] * x[0]; }").unwrap();
        let obj = MetaoptObjective {
            kind: 1,
            function_name: ptr::null(),
            source: src.as_ptr(),
            callback: None,
            user_data: ptr::null_mut(),
        };
        let r = unsafe {
            metaopt_hc12_params_on_device(
                1,
                bits.as_ptr(),
                1,
                dod.as_ptr(),
                2,
                1,
                0,
                0,
                2,
                0,
                bad,
                &obj,
            )
        };
        expect_error(r.error_code, r.error_message, INVALID, "device");

        let lits = [1, 2, 0, -1, 0];
        let s = unsafe { metaopt_sat_from_clauses(2, lits.as_ptr(), lits.len() as u64) };
        assert_eq!(s.error_code, OK);
        let a = [0u32];
        let r = unsafe { metaopt_sat_evaluate_on_device(s.instance, a.as_ptr(), 1, 0, bad) };
        expect_error(r.error_code, r.error_message, INVALID, "device");
        let mut so = metaopt_sat_default_solve_options();
        so.device = bad;
        so.runs = 1;
        let r = unsafe { metaopt_sat_solve(s.instance, &so) };
        expect_error(r.error_code, r.error_message, INVALID, "device");
        unsafe { metaopt_sat_free(s.instance) };
    }
}

#[test]
fn a_failure_on_device_1_leaves_device_0_working() {
    several_devices!();
    let (_, _lock) = setup();
    let _g = shared();
    let h0 = de_on(0);
    let h1 = de_on(1);
    let path = CString::new(common::qaplib().join("had12.dat").to_str().unwrap()).unwrap();
    let q1 = unsafe { metaopt_qap_params_from_file_on_device(path.as_ptr(), 2, 2, 0, 0, 1) };
    assert_eq!(q1.error_code, OK);
    let mut t = metaopt_qap_ts_default_options();
    (t.chains, t.max_iterations, t.seed) = (4, 200, 1);
    let before0 = de_run(&h0);
    let before1 = de_run(&h1);
    assert_eq!(before0.0, OK);
    assert_eq!(before0, before1, "the same seeds on both devices");
    assert_eq!(expect_ok(metaopt_device_is_valid(0)), 1);
    assert_eq!(expect_ok(metaopt_device_is_valid(1)), 1);

    metaopt::device::mark_lost_for_test(1).expect("device 1 exists");
    assert_eq!(expect_ok(metaopt_device_is_valid(0)), 1);
    assert_eq!(expect_ok(metaopt_device_is_valid(1)), 0);
    // the default device (0 here, unless METAOPT_DEVICE says otherwise) is unaffected
    if std::env::var_os("METAOPT_DEVICE").is_none() {
        assert_eq!(metaopt_device_is_mem_space_valid(), 1);
    }
    // device 0 goes on: 40 more generations continue the run
    let next0 = de_run(&h0);
    assert_eq!(next0.0, OK);
    assert!(next0.1 <= before0.1, "{next0:?} after {before0:?}");
    // device 1 refuses: its handle and new handles on it
    let r1 = de_run(&h1);
    assert_eq!(r1.0, INVALID_MEM_SPACE, "{r1:?}");
    let r = de_create(1);
    expect_error(r.error_code, r.error_message, INVALID_MEM_SPACE, "device 1");
    // the tabu search over a QAP instance on device 1 asks for device 1's context: refused
    let mut ts = unsafe { metaopt_qap_ts_solve(q1.instance, &t) };
    let (code, msg) = (
        ts.error_code,
        std::mem::replace(&mut ts.error_message, ptr::null_mut()),
    );
    expect_error(code, msg, INVALID_MEM_SPACE, "device 1");
    unsafe { metaopt_qap_ts_free_solve_result(&mut ts) };

    // the reset drops the lost context only: device 1 takes new handles, device 0's handle goes on
    expect_ok(metaopt_device_reset());
    assert_eq!(expect_ok(metaopt_device_is_valid(1)), 1);
    let fresh1 = de_on(1);
    assert_eq!(
        de_run(&fresh1),
        before0,
        "a new handle on device 1 repeats the seed's first run"
    );
    assert_eq!(
        de_run(&h1).0,
        INVALID_MEM_SPACE,
        "the old handle keeps its lost context"
    );
    let again0 = de_run(&h0);
    assert_eq!(again0.0, OK);
    assert!(again0.1 <= next0.1);
    // after the reset the QAP instance's tabu search gets device 1's new context
    let mut ts = unsafe { metaopt_qap_ts_solve(q1.instance, &t) };
    assert_eq!(ts.error_code, OK);
    unsafe { metaopt_qap_ts_free_solve_result(&mut ts) };
    unsafe { metaopt_qap_free(q1.instance) };
    for h in [h0, h1, fresh1] {
        unsafe { metaopt_de_free(h.0) };
    }
}
