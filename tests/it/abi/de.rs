//! The island DE C ABI called directly from Rust: create/init/iteration/run, the accessors
//! against each other, the device against the CPU backend, a C callback objective with its user
//! pointer, error codes and messages naming the argument, and handle validation.

use crate::common::cabi::*;
use metaopt::ffi::*;
use std::ffi::{c_void, CString};
use std::ptr;

fn create(
    islands: u32,
    members: u32,
    dims: u32,
    limits: &[f64],
    bounds: &str,
    o: Option<&MetaoptDeOptions>,
) -> MetaoptDeCreateResult {
    let b = CString::new(bounds).unwrap();
    unsafe {
        metaopt_de_create(
            islands,
            members,
            dims,
            limits.as_ptr(),
            limits.len() as u32,
            b.as_ptr(),
            o.map_or(ptr::null(), |o| o as *const _),
        )
    }
}

fn instance(r: MetaoptDeCreateResult) -> *mut MetaoptDeInstance {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    r.instance
}

fn catalogue(name: &CString) -> MetaoptObjective {
    MetaoptObjective {
        kind: 0,
        function_name: name.as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    }
}

fn init(
    h: *mut MetaoptDeInstance,
    o: &MetaoptObjective,
    mutation: &str,
    migration: Option<&str>,
    period: u32,
) -> MetaoptInt32Result {
    let m = CString::new(mutation).unwrap();
    let g = migration.map(|s| CString::new(s).unwrap());
    unsafe {
        metaopt_de_init(
            h,
            o,
            m.as_ptr(),
            g.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
            period,
            ptr::null(),
        )
    }
}

fn init_options(
    h: *mut MetaoptDeInstance,
    o: &MetaoptObjective,
    options: &MetaoptDeOptions,
) -> MetaoptInt32Result {
    let m = CString::new("DE/rand/1").unwrap();
    let g = CString::new("PermuteN").unwrap();
    unsafe { metaopt_de_init(h, o, m.as_ptr(), g.as_ptr(), 5, options) }
}

fn array(r: MetaoptDoubleArrayResult) -> Vec<f64> {
    let mut r = r;
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    let v = unsafe { std::slice::from_raw_parts(r.values, r.length as usize) }.to_vec();
    unsafe { metaopt_double_array_free_result(&mut r) };
    assert!(r.values.is_null());
    v
}

fn run(h: *mut MetaoptDeInstance, stop: &MetaoptDeStop) -> (f64, Vec<f64>, MetaoptDeRunResult) {
    let mut r = unsafe { metaopt_de_run(h, stop) };
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    let x = unsafe { std::slice::from_raw_parts(r.x, r.dims as usize) }.to_vec();
    let v = r.value;
    unsafe { metaopt_de_free_run_result(&mut r) };
    unsafe { metaopt_de_free_run_result(&mut r) };
    (v, x, r)
}

#[test]
fn sphere_on_the_device_and_on_the_cpu() {
    let _g = shared();
    let f1 = CString::new("F1").unwrap();
    let mut o = metaopt_de_default_options();
    assert_eq!(
        (
            o.init_seed,
            o.mutation_seed,
            o.crossover_seed,
            o.migration_seed
        ),
        (123, 345, 457, 581)
    );
    o.double_precision = 1;
    o.f_min = 0.5;
    o.f_max = 0.9;
    o.cr = 0.9;
    let mut values = Vec::new();
    for backend in [0, 1] {
        o.backend = backend;
        let h = instance(create(6, 30, 8, &[-5.12, 5.12], "COTN", Some(&o)));
        expect_ok(init(h, &catalogue(&f1), "DE/rand/1", Some("PermuteN"), 10));
        assert_eq!(expect_ok(unsafe { metaopt_de_iteration(h) }), 1);
        let mut stop = metaopt_de_default_stop();
        stop.generations = 500;
        stop.has_target = 1;
        stop.target = 1e-10;
        let (v, x, r) = run(h, &stop);
        assert!(v <= 1e-10, "backend {backend}: {v}");
        assert_eq!(
            r.stopped_by,
            MetaoptDeStopReason::MetaoptDeStopTarget as i32
        );
        assert_eq!(x.len(), 8);
        assert_eq!(r.evaluations, 180 * (r.generations + 1));
        let bests = array(unsafe { metaopt_de_bests_fitness(h) });
        assert_eq!(bests.len(), 6);
        assert_eq!(bests[r.island as usize], v);
        assert_eq!(array(unsafe { metaopt_de_best(h, r.island) }), x);
        let member = array(unsafe { metaopt_de_x(h, 2, 29) });
        assert_eq!(member.len(), 8);
        assert!(member.iter().all(|v| v.abs() <= 5.12));
        let info = unsafe { metaopt_de_info(h) };
        assert_eq!(info.error_code, OK);
        let text = take_message(info.text);
        assert!(
            text.contains("6 populations x 30 members x 8 dimensions") && text.contains("PermuteN"),
            "{text}"
        );
        assert!(text.contains("F1") && text.contains("COTN"), "{text}");
        values.push((r.generations, v));
        unsafe { metaopt_de_free(h) };
    }
    // the same seeds give the same run on both backends
    assert_eq!(values[0].0, values[1].0);
}

struct Counter {
    calls: u32,
    rows: u32,
    fail_after: u32,
}

unsafe extern "C" fn sphere(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user: *mut c_void,
) -> i32 {
    let c = unsafe { &mut *(user as *mut Counter) };
    c.calls += 1;
    c.rows = rows;
    if c.calls > c.fail_after {
        return 42;
    }
    for r in 0..rows as usize {
        let row = unsafe { std::slice::from_raw_parts(x.add(r * dims as usize), dims as usize) };
        unsafe { *f.add(r) = row.iter().map(|v| v * v).sum() };
    }
    0
}

#[test]
fn c_callback_objective() {
    let _g = shared();
    let mut counter = Counter {
        calls: 0,
        rows: 0,
        fail_after: 1000,
    };
    // every access after this goes through the pointer the library also uses
    let user = &mut counter as *mut Counter;
    let o = MetaoptObjective {
        kind: 2,
        function_name: ptr::null(),
        source: ptr::null(),
        callback: Some(sphere),
        user_data: user as *mut c_void,
    };
    let mut opts = metaopt_de_default_options();
    opts.cr_per_island = [0.9, 0.8, 0.7, 0.6].as_ptr();
    let h = instance(create(
        4,
        12,
        3,
        &[-2.0, 2.0, -1.0, 1.0, 0.0, 3.0],
        "sat,mir,HVB",
        Some(&opts),
    ));
    expect_ok(init(h, &o, "DE/current-to-best/1", None, 0));
    assert_eq!(unsafe { ((*user).calls, (*user).rows) }, (1, 48));
    let mut stop = metaopt_de_default_stop();
    stop.generations = 40;
    let (v, x, _) = run(h, &stop);
    assert_eq!(unsafe { (*user).calls }, 41);
    assert!(
        (v - x.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-4 * v.max(1e-3),
        "{v} {x:?}"
    );
    assert!(
        (-2.0..=2.0).contains(&x[0]) && (-1.0..=1.0).contains(&x[1]) && (0.0..=3.0).contains(&x[2]),
        "{x:?}"
    );
    // a failing callback ends the call with its status
    unsafe { (*user).fail_after = (*user).calls };
    let r = unsafe { metaopt_de_iteration(h) };
    expect_error(r.error_code, r.error_message, CALLBACK, "42");
    unsafe { metaopt_de_free(h) };
}

#[test]
fn errors_name_the_argument() {
    let _g = exclusive();
    let f1 = CString::new("F1").unwrap();
    let lim = [-1.0, 1.0];
    let r = create(4, 10, 3, &lim, "bounce", None);
    assert!(r.instance.is_null());
    expect_error(r.error_code, r.error_message, INVALID, "bounds");
    let r = create(4, 10, 3, &lim, "sat,sat", None);
    expect_error(r.error_code, r.error_message, INVALID, "bounds");
    let r = create(4, 10, 3, &[1.0, 1.0], "sat", None);
    expect_error(r.error_code, r.error_message, INVALID, "limits");
    let r = create(4, 10, 3, &[0.0, 1.0, 0.0, 1.0], "sat", None);
    expect_error(r.error_code, r.error_message, INVALID, "limitsLength");
    let r = create(0, 10, 3, &lim, "sat", None);
    expect_error(r.error_code, r.error_message, INVALID, "islands");
    let mut o = metaopt_de_default_options();
    o.cr = f64::NAN;
    let r = create(4, 10, 3, &lim, "sat", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "cr");
    o = metaopt_de_default_options();
    o.backend = 7;
    let r = create(4, 10, 3, &lim, "sat", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "options.backend");
    // the selection rule, 0 ties (the default) or 1 strict
    o = metaopt_de_default_options();
    assert_eq!(
        o.selection,
        MetaoptDeSelection::MetaoptDeSelectionTies as i32
    );
    o.selection = 2;
    let r = create(4, 10, 3, &lim, "sat", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "options.selection");
    o.selection = MetaoptDeSelection::MetaoptDeSelectionStrict as i32;
    let h = instance(create(4, 10, 3, &lim, "sat", Some(&o)));
    unsafe { metaopt_de_free(h) };
    // the fitness precision (the thesis's FPf): 0 the storage precision (the default), 1, 2
    o = metaopt_de_default_options();
    assert_eq!(o.fitness_precision, 0);
    for bad in [3, -1, i32::MIN] {
        o.fitness_precision = bad;
        let r = create(4, 10, 3, &lim, "sat", Some(&o));
        expect_error(
            r.error_code,
            r.error_message,
            INVALID,
            "options.fitness_precision",
        );
    }
    o.backend = 1;
    o.precision = 2;
    o.fitness_precision = 1;
    let h = instance(create(4, 10, 3, &lim, "sat", Some(&o)));
    let r = init(h, &catalogue(&f1), "DE/rand/1", None, 0);
    assert_eq!(r.error_code, 0);
    let mut s = metaopt_de_default_stop();
    s.generations = 2;
    let mut r = unsafe { metaopt_de_run(h, &s) };
    assert_eq!((r.error_code, r.precision, r.fitness_precision), (0, 2, 1));
    assert_eq!(r.value as f32 as f64, r.value);
    unsafe { metaopt_de_free_run_result(&mut r) };
    // fixed at creation: an update in init must be 0 or the precision in use
    o.fitness_precision = 2;
    let r = init_options(h, &catalogue(&f1), &o);
    expect_error(r.error_code, r.error_message, INVALID, "fitness_precision");
    o.fitness_precision = 0;
    assert_eq!(init_options(h, &catalogue(&f1), &o).error_code, 0);
    unsafe { metaopt_de_free(h) };
    let b = CString::new("sat").unwrap();
    let r = unsafe { metaopt_de_create(4, 10, 3, ptr::null(), 2, b.as_ptr(), ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "limits");
    let r = unsafe { metaopt_de_create(4, 10, 3, lim.as_ptr(), 2, ptr::null(), ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "bounds");

    let h = instance(create(4, 5, 3, &lim, "sat", None));
    // use before init
    let r = unsafe { metaopt_de_iteration(h) };
    expect_error(r.error_code, r.error_message, INVALID, "init");
    let mut s = metaopt_de_default_stop();
    s.generations = 1;
    let r = unsafe { metaopt_de_run(h, &s) };
    expect_error(r.error_code, r.error_message, INVALID, "init");
    let r = init(h, &catalogue(&f1), "DE/rand/9", None, 0);
    expect_error(r.error_code, r.error_message, INVALID, "mutation");
    let r = init(h, &catalogue(&f1), "DE/rand/2", None, 0);
    expect_error(r.error_code, r.error_message, INVALID, "members");
    let r = init(h, &catalogue(&f1), "DE/rand/1", Some("Ring"), 5);
    expect_error(r.error_code, r.error_message, INVALID, "migration");
    let r = init(h, &catalogue(&f1), "DE/rand/1", Some("One2One"), 0);
    expect_error(r.error_code, r.error_message, INVALID, "period");
    let cec = CString::new("CEC04t").unwrap();
    let r = init(h, &catalogue(&cec), "DE/rand/1", None, 0);
    expect_error(r.error_code, r.error_message, INVALID, "dims");
    let r = unsafe { metaopt_de_init(h, ptr::null(), ptr::null(), ptr::null(), 0, ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "objective");
    let src = CString::new("FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return undefined_thing; }").unwrap();
    let bad = MetaoptObjective {
        kind: 1,
        function_name: ptr::null(),
        source: src.as_ptr(),
        callback: None,
        user_data: ptr::null_mut(),
    };
    let r = init(h, &bad, "DE/rand/1", None, 0);
    expect_error(
        r.error_code,
        r.error_message,
        KERNEL_BUILD,
        "undefined_thing",
    );
    expect_ok(init(h, &catalogue(&f1), "DE/best/2", Some("N2N"), 3));
    let r = unsafe { metaopt_de_run(h, &metaopt_de_default_stop()) };
    expect_error(r.error_code, r.error_message, INVALID, "stop");
    let r = unsafe { metaopt_de_run(h, ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "stop");
    s.time_limit = f64::NAN;
    let r = unsafe { metaopt_de_run(h, &s) };
    expect_error(r.error_code, r.error_message, INVALID, "stop.time_limit");
    s.time_limit = 1e20;
    let r = unsafe { metaopt_de_run(h, &s) };
    expect_error(r.error_code, r.error_message, INVALID, "stop.time_limit");
    let r = unsafe { metaopt_de_best(h, 4) };
    expect_error(r.error_code, r.error_message, INVALID, "island");
    let r = unsafe { metaopt_de_x(h, 0, 5) };
    expect_error(r.error_code, r.error_message, INVALID, "member");
    // forged, null and freed handles
    let mut fake = [0u64; 16];
    let forged = fake.as_mut_ptr() as *mut MetaoptDeInstance;
    let r = unsafe { metaopt_de_iteration(forged) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptDeInstance",
    );
    let r = unsafe { metaopt_de_iteration(ptr::null_mut()) };
    expect_error(r.error_code, r.error_message, NULL, "h");
    unsafe { metaopt_de_free(h) };
    let r = unsafe { metaopt_de_bests_fitness(h) };
    expect_error(
        r.error_code,
        r.error_message,
        INVALID,
        "not a live MetaoptDeInstance",
    );
    unsafe { metaopt_de_free(h) };
    unsafe { metaopt_de_free(forged) };
    unsafe { metaopt_de_free(ptr::null_mut()) };
}

#[test]
fn user_source_with_func_data() {
    let _g = shared();
    // sum (x_j - c)^2 with c from the data buffer
    let src = CString::new(
        "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) {\n\
           FP c = ((__global const FP *)data)[0]; FP s = 0;\n\
           for (uint j = 0; j < dims; ++j) { FP v = x[j * stride] - c; s += v * v; }\n\
           return s; }",
    )
    .unwrap();
    let name = CString::new("shifted sphere").unwrap();
    let o = MetaoptObjective {
        kind: 1,
        function_name: name.as_ptr(),
        source: src.as_ptr(),
        callback: None,
        user_data: ptr::null_mut(),
    };
    let mut opts = metaopt_de_default_options();
    opts.double_precision = 1;
    opts.f_min = 0.5;
    opts.f_max = 0.8;
    opts.cr = 0.9;
    let h = instance(create(4, 20, 4, &[-5.0, 5.0], "mir", Some(&opts)));
    expect_ok(init(h, &o, "DE/rand/1", None, 0));
    let c = 1.5f64;
    expect_ok(unsafe { metaopt_de_func_data(h, (&c as *const f64).cast(), 8) });
    let mut stop = metaopt_de_default_stop();
    stop.generations = 300;
    let (v, x, _) = run(h, &stop);
    assert!(v < 1e-8, "{v}");
    assert!(x.iter().all(|&xi| (xi - c).abs() < 1e-3), "{x:?}");
    let text = take_message(unsafe { metaopt_de_info(h) }.text);
    assert!(text.contains("shifted sphere"), "{text}");
    unsafe { metaopt_de_free(h) };
}

#[test]
fn init_with_an_options_update_runs_as_a_solver_created_with_them() {
    let _g = shared();
    let f = CString::new("CEC05t").unwrap();
    let limits = [-100.0, 100.0];
    let base = metaopt_de_default_options();
    let mut updated = base;
    updated.f_const = 1;
    updated.f_min = 0.6;
    let cr = [0.2, 0.9, 0.5, 0.7];
    updated.cr_per_island = cr.as_ptr();
    updated.init_seed = 7;
    updated.mutation_seed = 8;
    updated.crossover_seed = 9;
    updated.migration_seed = 10;
    let stop = {
        let mut s = metaopt_de_default_stop();
        s.generations = 40;
        s
    };
    // created with the defaults, then init with the update
    let a = instance(create(4, 12, 10, &limits, "mir", Some(&base)));
    expect_ok(init(a, &catalogue(&f), "DE/rand/1", None, 0));
    let _ = run(a, &stop);
    expect_ok(init_options(a, &catalogue(&f), &updated));
    // created with the updated options
    let b = instance(create(4, 12, 10, &limits, "mir", Some(&updated)));
    expect_ok(init_options(b, &catalogue(&f), &updated));
    let (va, xa, _) = run(a, &stop);
    let (vb, xb, _) = run(b, &stop);
    assert_eq!(
        (va, xa.clone()),
        (vb, xb),
        "the update takes F, CR and the seeds"
    );
    assert_eq!(
        array(unsafe { metaopt_de_bests_fitness(a) }),
        array(unsafe { metaopt_de_bests_fitness(b) })
    );
    // a NULL update keeps the updated options: the same run again
    expect_ok(init(a, &catalogue(&f), "DE/rand/1", Some("PermuteN"), 5));
    assert_eq!(run(a, &stop).0, va);
    // precision and backend are fixed; an invalid update changes nothing
    // (the defaults resolved to double where the device has fp64: ask for the other one)
    let fp64 = metaopt::device::list_devices().unwrap()
        [metaopt::device::get_device_number().unwrap()]
    .fp64;
    let mut bad = updated;
    bad.precision = if fp64 {
        MetaoptPrecision::MetaoptPrecisionSingle
    } else {
        MetaoptPrecision::MetaoptPrecisionDouble
    } as i32;
    let r = init_options(a, &catalogue(&f), &bad);
    expect_error(r.error_code, r.error_message, INVALID, "double");
    let mut bad = updated;
    bad.backend = 1;
    let r = init_options(a, &catalogue(&f), &bad);
    expect_error(r.error_code, r.error_message, INVALID, "options.backend");
    let mut bad = updated;
    bad.cr_per_island = ptr::null();
    bad.cr = 1.5;
    let r = init_options(a, &catalogue(&f), &bad);
    expect_error(r.error_code, r.error_message, INVALID, "cr");
    assert_eq!(
        expect_ok(unsafe { metaopt_de_iteration(a) }),
        41,
        "the run before the refused update goes on"
    );
    unsafe { metaopt_de_free(a) };
    unsafe { metaopt_de_free(b) };
}

/// What the re-entering objective does with its own handle while the library calls it.
struct Reenter {
    h: usize,
    codes: Vec<i32>,
    free: bool,
    /// Set: signal this once inside the callback and wait for the reply before returning.
    meet: Option<(std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>)>,
}

unsafe extern "C" fn reenter(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user: *mut c_void,
) -> i32 {
    let r = unsafe { &mut *(user as *mut Reenter) };
    let h = r.h as *mut MetaoptDeInstance;
    if !h.is_null() {
        let it = unsafe { metaopt_de_iteration(h) };
        r.codes.push(it.error_code);
        if !it.error_message.is_null() {
            take_message(it.error_message);
        }
        if r.free {
            unsafe { metaopt_de_free(h) };
        }
    }
    if let Some((tx, rx)) = r.meet.take() {
        tx.send(()).unwrap();
        rx.recv().unwrap();
    }
    for i in 0..rows as usize {
        let row = unsafe { std::slice::from_raw_parts(x.add(i * dims as usize), dims as usize) };
        unsafe { *f.add(i) = row.iter().map(|v| v * v).sum() };
    }
    0
}

fn reentering(user: *mut Reenter) -> MetaoptObjective {
    MetaoptObjective {
        kind: 2,
        function_name: ptr::null(),
        source: ptr::null(),
        callback: Some(reenter),
        user_data: user.cast(),
    }
}

#[test]
fn a_call_from_the_objective_on_its_own_handle_is_busy_and_a_free_there_waits_for_the_run() {
    let _g = exclusive();
    for backend in [0, 1] {
        let mut o = metaopt_de_default_options();
        o.backend = backend;
        let h = instance(create(2, 6, 3, &[-1.0, 1.0], "sat", Some(&o)));
        let mut state = Reenter {
            h: h as usize,
            codes: Vec::new(),
            free: false,
            meet: None,
        };
        let user = &mut state as *mut Reenter;
        expect_ok(init(h, &reentering(user), "DE/rand/1", None, 0));
        let mut stop = metaopt_de_default_stop();
        stop.generations = 2;
        let (_, _, r) = run(h, &stop);
        assert_eq!(r.generations, 2, "the nested iterations did not run");
        assert_eq!(unsafe { &(*user).codes }, &[BUSY, BUSY, BUSY]);
        // a free from inside the objective takes effect when the run returns
        unsafe { (*user).free = true };
        stop.generations = 1;
        let (v, x, _) = run(h, &stop);
        assert!(
            (v - x.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-5,
            "{v} {x:?}"
        );
        let r = unsafe { metaopt_de_bests_fitness(h) };
        expect_error(
            r.error_code,
            r.error_message,
            INVALID,
            "not a live MetaoptDeInstance",
        );
    }
}

#[test]
fn a_second_thread_gets_busy_while_a_run_holds_the_handle() {
    let _g = shared();
    let h = instance(create(2, 6, 3, &[-1.0, 1.0], "sat", None));
    let (inside_tx, inside_rx) = std::sync::mpsc::channel();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let mut state = Reenter {
        h: 0,
        codes: Vec::new(),
        free: false,
        meet: None,
    };
    let user = &mut state as *mut Reenter;
    expect_ok(init(h, &reentering(user), "DE/rand/1", None, 0));
    unsafe { (*user).meet = Some((inside_tx, done_rx)) };
    let (hh, uu) = (h as usize, user as usize);
    let runner = std::thread::spawn(move || {
        let _ = uu;
        let r = unsafe { metaopt_de_iteration(hh as *mut MetaoptDeInstance) };
        (r.error_code, r.result)
    });
    inside_rx.recv().unwrap();
    let r = unsafe { metaopt_de_bests_fitness(h) };
    expect_error(r.error_code, r.error_message, BUSY, "second thread");
    done_tx.send(()).unwrap();
    assert_eq!(runner.join().unwrap(), (OK, 1));
    assert_eq!(array(unsafe { metaopt_de_bests_fitness(h) }).len(), 2);
    unsafe { metaopt_de_free(h) };
}

unsafe extern "C" fn nan_at_row_2(
    _x: *const f64,
    rows: u32,
    _dims: u32,
    f: *mut f64,
    _user: *mut c_void,
) -> i32 {
    for r in 0..rows as usize {
        unsafe { *f.add(r) = if r == 2 { f64::NAN } else { r as f64 } };
    }
    0
}

#[test]
fn limits_precision_nan_values_and_a_failed_init() {
    let _g = shared();
    // single precision cannot hold [-3e38, 3e38] (its width overflows a float); double can
    let mut o = metaopt_de_default_options();
    o.precision = MetaoptPrecision::MetaoptPrecisionSingle as i32;
    let r = create(2, 6, 3, &[-3e38, 3e38], "sat", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "single precision");
    let mut o = metaopt_de_default_options();
    o.double_precision = 1;
    unsafe { metaopt_de_free(instance(create(2, 6, 3, &[-3e38, 3e38], "sat", Some(&o)))) };
    // the default (auto) is double on the CPU backend
    let mut o = metaopt_de_default_options();
    o.backend = 1;
    unsafe { metaopt_de_free(instance(create(2, 6, 3, &[-3e38, 3e38], "sat", Some(&o)))) };
    // a NaN from a host objective is worse than every finite value (as from a device
    // objective), on both backends: the row is never the best
    for backend in [0, 1] {
        let mut o = metaopt_de_default_options();
        o.backend = backend;
        let h = instance(create(2, 6, 3, &[5.0, 10.0], "sat", Some(&o)));
        let nan = MetaoptObjective {
            kind: 2,
            function_name: ptr::null(),
            source: ptr::null(),
            callback: Some(nan_at_row_2),
            user_data: ptr::null_mut(),
        };
        expect_ok(init(h, &nan, "DE/rand/1", None, 0));
        let stop = MetaoptDeStop {
            generations: 2,
            ..metaopt_de_default_stop()
        };
        let mut r = unsafe { metaopt_de_run(h, &stop) };
        assert_eq!(r.error_code, OK);
        assert!(r.value.is_finite(), "{}", r.value);
        unsafe { metaopt_de_free_run_result(&mut r) };
        unsafe { metaopt_de_free(h) };
    }
    // an init whose objective fails to build keeps the options it was given before
    let h = instance(create(4, 6, 3, &[-1.0, 1.0], "sat", None));
    let f1 = CString::new("F1").unwrap();
    expect_ok(init(h, &catalogue(&f1), "DE/rand/1", None, 0));
    let before = take_message(unsafe { metaopt_de_info(h) }.text);
    let mut update = metaopt_de_default_options();
    update.f_min = 0.9;
    update.f_max = 0.9;
    update.cr = 0.2;
    let src = CString::new("FP objective(__global const FP *x, uint d, uint s, __global const void *p) { return nope; }").unwrap();
    let bad = MetaoptObjective {
        kind: 1,
        function_name: ptr::null(),
        source: src.as_ptr(),
        callback: None,
        user_data: ptr::null_mut(),
    };
    let r = init_options(h, &bad, &update);
    expect_error(r.error_code, r.error_message, KERNEL_BUILD, "nope");
    expect_ok(init(h, &catalogue(&f1), "DE/rand/1", None, 0));
    assert_eq!(take_message(unsafe { metaopt_de_info(h) }.text), before);
    unsafe { metaopt_de_free(h) };
}

#[test]
fn adaptive_algorithms_by_code_and_bad_codes_named() {
    let _g = shared();
    let lim = [-5.12, 5.12];
    let mut o = metaopt_de_default_options();
    assert_eq!(
        (o.algorithm, o.lshade_budget),
        (MetaoptDeAlgorithm::MetaoptDeAlgorithmDe as i32, 0)
    );
    assert_eq!((o.jde_small, o.jde_eps, o.jde_age), (25, 1e-16, 0));
    for bad in [6, -1, i32::MIN] {
        o.algorithm = bad;
        let r = create(2, 10, 3, &lim, "HVB", Some(&o));
        expect_error(r.error_code, r.error_message, INVALID, "options.algorithm");
    }
    // L-SHADE and jSO need their budget
    o.algorithm = MetaoptDeAlgorithm::MetaoptDeAlgorithmJso as i32;
    let r = create(2, 10, 3, &lim, "HVB", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "lshade_budget");
    // each variant on the sphere through the C ABI, the CPU backend and the device alike
    let f1 = CString::new("F1").unwrap();
    for alg in [
        MetaoptDeAlgorithm::MetaoptDeAlgorithmJade,
        MetaoptDeAlgorithm::MetaoptDeAlgorithmShade,
        MetaoptDeAlgorithm::MetaoptDeAlgorithmLShade,
        MetaoptDeAlgorithm::MetaoptDeAlgorithmJso,
    ] {
        let mut got = Vec::new();
        for backend in [0, 1] {
            o = metaopt_de_default_options();
            o.algorithm = alg as i32;
            o.lshade_budget = 20 * 300;
            o.double_precision = 1;
            o.backend = backend;
            let h = instance(create(1, 20, 5, &lim, "HVB", Some(&o)));
            expect_ok(init(h, &catalogue(&f1), "DE/rand/1", None, 1));
            let mut stop = metaopt_de_default_stop();
            stop.generations = 300;
            stop.has_target = 1;
            stop.target = 1e-10;
            let (v, _, r) = run(h, &stop);
            assert!(v <= 1e-10, "{alg:?} backend {backend}: {v}");
            got.push((r.generations, r.evaluations));
            let info = take_message(unsafe { metaopt_de_info(h) }.text);
            assert!(info.contains("algorithm"), "{info}");
            unsafe { metaopt_de_free(h) };
        }
        assert_eq!(
            got[0], got[1],
            "{alg:?}: device and CPU follow the same run"
        );
    }
    // jDE100 (code 5): 32 big + 8 small members, on Rastrigin; its options named
    let f6 = CString::new("F6").unwrap();
    let mut got = Vec::new();
    for backend in [0, 1] {
        o = metaopt_de_default_options();
        o.algorithm = MetaoptDeAlgorithm::MetaoptDeAlgorithmJde100 as i32;
        o.jde_small = 8;
        o.double_precision = 1;
        o.backend = backend;
        let h = instance(create(1, 40, 5, &lim, "HVB", Some(&o)));
        expect_ok(init(h, &catalogue(&f6), "DE/rand/1", None, 1));
        let mut stop = metaopt_de_default_stop();
        stop.generations = 2000;
        stop.has_target = 1;
        stop.target = 1e-10;
        let (v, _, r) = run(h, &stop);
        assert!(v <= 1e-10, "jde100 backend {backend}: {v}");
        got.push((r.generations, r.evaluations));
        let info = take_message(unsafe { metaopt_de_info(h) }.text);
        assert!(
            info.contains("algorithm: jde100 (big population 32 + small 8"),
            "{info}"
        );
        unsafe { metaopt_de_free(h) };
    }
    assert_eq!(got[0], got[1], "jde100: device and CPU follow the same run");
    o = metaopt_de_default_options();
    o.algorithm = MetaoptDeAlgorithm::MetaoptDeAlgorithmJde100 as i32;
    let r = create(1, 20, 5, &lim, "HVB", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "jde_small");
    o.jde_small = 4;
    o.jde_eps = f64::NAN;
    let r = create(1, 20, 5, &lim, "HVB", Some(&o));
    expect_error(r.error_code, r.error_message, INVALID, "jde_eps");
}
