//! Cancellation and the precision default through the C ABI: `metaopt_interrupt` called from a
//! signal handler stops a running `metaopt_de_run`, which reports `METAOPT_INTERRUPTED` with its
//! result filled; a `MetaoptStopToken` requested from another thread stops `metaopt_qap_ts_solve`;
//! the default options ask for the automatic precision, which is double on PoCL.

use crate::common;
use crate::common::cabi::*;
use crate::common::child::own_process;
use crate::common::qaplib;
use metaopt::ffi::*;
use std::ffi::{c_int, CString};
use std::ptr;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;
static LOCK: Mutex<()> = Mutex::new(());

extern "C" {
    fn signal(sig: c_int, handler: extern "C" fn(c_int)) -> usize;
    fn raise(sig: c_int) -> c_int;
}

/// A C result moved back from the thread that ran the call.
struct Sent<T>(T);
// SAFETY: the result's pointers are the caller's own allocations, used by one thread at a time.
unsafe impl<T> Send for Sent<T> {}

/// SIGUSR1 on Linux.
const SIGUSR1: c_int = 10;

extern "C" fn on_signal(_: c_int) {
    metaopt_interrupt();
}

fn de_create(options: &MetaoptDeOptions) -> *mut MetaoptDeInstance {
    let limits = [-100.0, 100.0];
    let b = CString::new("sat").unwrap();
    let r = unsafe { metaopt_de_create(8, 32, 10, limits.as_ptr(), 2, b.as_ptr(), options) };
    assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
    let h = r.instance;
    let f1 = CString::new("F1").unwrap();
    let o = MetaoptObjective {
        kind: 0,
        function_name: f1.as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    };
    let m = CString::new("DE/rand/1").unwrap();
    let r = unsafe { metaopt_de_init(h, &o, m.as_ptr(), ptr::null(), 1, ptr::null()) };
    assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
    h
}

fn fp64() -> bool {
    let n = metaopt::device::get_device_number().unwrap();
    metaopt::device::list_devices().unwrap()[n].fp64
}

#[test]
fn interrupt_from_a_signal_handler_stops_de_run_with_its_best() {
    // the handler and the interrupt are the whole process's
    own_process!();
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let options = metaopt_de_default_options();
    assert_eq!(
        (options.precision, options.double_precision),
        (MetaoptPrecision::MetaoptPrecisionAuto as i32, 0)
    );
    let h = de_create(&options) as usize;
    let run = thread::spawn(move || {
        let mut stop = metaopt_de_default_stop();
        stop.generations = u64::MAX / 2;
        Sent(unsafe { metaopt_de_run(h as *mut MetaoptDeInstance, &stop) })
    });
    thread::sleep(Duration::from_millis(300));
    assert!(!run.is_finished());
    unsafe {
        signal(SIGUSR1, on_signal);
        raise(SIGUSR1);
    }
    let t0 = Instant::now();
    let mut r = run.join().unwrap().0;
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    assert_eq!(r.error_code, INTERRUPTED);
    assert!(
        take_message(std::mem::replace(&mut r.error_message, ptr::null_mut()))
            .contains("interrupted")
    );
    assert_eq!(
        r.stopped_by,
        MetaoptDeStopReason::MetaoptDeStopInterrupted as i32
    );
    let want = if fp64() {
        MetaoptPrecision::MetaoptPrecisionDouble
    } else {
        MetaoptPrecision::MetaoptPrecisionSingle
    };
    assert_eq!(r.precision, want as i32);
    assert!(!r.x.is_null() && r.dims == 10 && r.value.is_finite());
    let x = unsafe { std::slice::from_raw_parts(r.x, 10) }.to_vec();
    let host: f64 = x.iter().map(|v| v * v).sum();
    assert!((host - r.value).abs() <= 1e-6 * host.max(1.0));
    // the handle keeps the state: its getters give the best so far
    let mut b = unsafe { metaopt_de_best(h as *mut MetaoptDeInstance, r.island) };
    assert_eq!(b.error_code, OK);
    assert_eq!(
        unsafe { std::slice::from_raw_parts(b.values, b.length as usize) },
        &x[..]
    );
    unsafe { metaopt_double_array_free_result(&mut b) };
    unsafe { metaopt_de_free_run_result(&mut r) };
    // a run started after the interrupt runs normally
    let mut stop = metaopt_de_default_stop();
    stop.generations = 3;
    let mut r = unsafe { metaopt_de_run(h as *mut MetaoptDeInstance, &stop) };
    assert_eq!(
        (r.error_code, r.stopped_by),
        (OK, MetaoptDeStopReason::MetaoptDeStopGenerations as i32)
    );
    unsafe { metaopt_de_free_run_result(&mut r) };
    unsafe { metaopt_de_free(h as *mut MetaoptDeInstance) };

    // single precision asked for explicitly stays single
    let mut single = metaopt_de_default_options();
    single.precision = MetaoptPrecision::MetaoptPrecisionSingle as i32;
    let h = de_create(&single);
    let mut r = unsafe { metaopt_de_run(h, &stop) };
    assert_eq!(
        (r.error_code, r.precision),
        (OK, MetaoptPrecision::MetaoptPrecisionSingle as i32)
    );
    unsafe { metaopt_de_free_run_result(&mut r) };
    unsafe { metaopt_de_free(h) };
}

#[test]
fn a_stop_token_stops_the_qap_tabu_search() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let path = CString::new(qaplib().join("bur26a.dat").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_qap_params_from_file(path.as_ptr(), 2, 2, 0, 0) };
    assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
    let (h, token) = (r.instance as usize, metaopt_stop_token_create() as usize);
    assert!(token != 0 && unsafe { metaopt_stop_token_is_requested(token as *const _) } == 0);
    let run = thread::spawn(move || {
        let mut o = metaopt_qap_ts_default_options();
        o.max_iterations = u64::MAX / 2;
        o.launch_iterations = 200;
        o.stop_token = token as *const MetaoptStopToken;
        Sent(unsafe { metaopt_qap_ts_solve(h as *mut MetaoptQapInstance, &o) })
    });
    thread::sleep(Duration::from_millis(300));
    assert!(!run.is_finished());
    let t0 = Instant::now();
    let q = unsafe { metaopt_stop_token_request(token as *mut _) };
    assert_eq!(q.error_code, OK);
    let mut r = run.join().unwrap().0;
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    assert_eq!(
        (r.error_code, r.stop_reason),
        (
            INTERRUPTED,
            MetaoptStopReason::MetaoptStopInterrupted as i32
        )
    );
    let mut perm: Vec<u16> =
        unsafe { std::slice::from_raw_parts(r.permutation, r.permutation_length as usize) }
            .to_vec();
    let inst = common::instance("bur26a");
    let cost = inst.cost(&perm.iter().map(|&v| v as usize).collect::<Vec<_>>());
    assert_eq!(cost, r.f_t1);
    perm.sort_unstable();
    assert!(perm.iter().enumerate().all(|(i, &v)| v as usize == i));
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };
    // reset, the token serves another call, which runs to its limit
    assert_eq!(
        unsafe { metaopt_stop_token_reset(token as *mut _) }.error_code,
        OK
    );
    let mut o = metaopt_qap_ts_default_options();
    o.max_iterations = 400;
    o.stop_token = token as *const MetaoptStopToken;
    let mut r = unsafe { metaopt_qap_ts_solve(h as *mut MetaoptQapInstance, &o) };
    assert_eq!(
        (r.error_code, r.stop_reason),
        (OK, MetaoptStopReason::MetaoptStopLimit as i32)
    );
    unsafe { metaopt_qap_ts_free_solve_result(&mut r) };
    unsafe { metaopt_stop_token_free(token as *mut _) };
    // a freed token is an error, not a crash
    let q = unsafe { metaopt_stop_token_request(token as *mut _) };
    expect_error(q.error_code, q.error_message, INVALID, "token");
    unsafe { metaopt_qap_free(h as *mut MetaoptQapInstance) };
}
