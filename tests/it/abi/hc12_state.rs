//! The checkpoints of the HC12 searches over the C ABI (`metaopt_hc12_save_state` /
//! `metaopt_hc12_load_state`, `metaopt_qap_save_state` / `metaopt_qap_load_state`, and
//! `metaopt_sat_save_state` / `metaopt_sat_load_state` for the hc12 method): a search stopped
//! part way, saved, loaded into a fresh handle and continued ends as the uninterrupted search
//! did, bit for bit; the checkpoint file equals the saved bytes; mismatched and damaged states
//! are refused naming `state` (when the search starts) or `data` (when loaded).

use crate::common::cabi::*;
use crate::common::*;
use metaopt::ffi::*;
use std::ffi::{c_void, CString};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

const CPU: i32 = MetaoptBackend::MetaoptBackendCpu as i32;
const DELTA: i32 = MetaoptQapCostForm::MetaoptQapCostDelta as i32;
const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;
const HC12: i32 = MetaoptSatMethod::MetaoptSatHc12 as i32;
const WALKSAT: i32 = MetaoptSatMethod::MetaoptSatWalksat as i32;

/// The bytes of a state result, freed.
fn bytes(r: MetaoptBytesResult) -> Vec<u8> {
    let mut r = r;
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    let v = unsafe { std::slice::from_raw_parts(r.data, r.length) }.to_vec();
    unsafe { metaopt_bytes_free_result(&mut r) };
    v
}

/// An error of a state result: its code and message (freed).
fn bytes_error(r: MetaoptBytesResult) -> (i32, String) {
    assert!(r.data.is_null() && r.length == 0);
    (r.error_code, take_message(r.error_message))
}

fn expect_i32_error(r: MetaoptInt32Result, want: i32, needle: &str) {
    expect_error(r.error_code, r.error_message, want, needle);
}

/// A scratch checkpoint path.
fn scratch(name: &str) -> (tempfile::TempDir, CString) {
    let dir = tempfile::tempdir().unwrap();
    let p = CString::new(dir.path().join(name).to_str().unwrap()).unwrap();
    (dir, p)
}

// ---- the general HC12 -------------------------------------------------------------------------

/// What the host objective counts: calls so far, and after how many it requests `token`.
struct Counter {
    calls: AtomicUsize,
    stop_after: usize,
    token: *mut MetaoptStopToken,
}

/// A shifted sphere evaluated on the host; requests the token after `stop_after` calls.
unsafe extern "C" fn sphere(
    x: *const f64,
    rows: u32,
    dims: u32,
    f: *mut f64,
    user: *mut c_void,
) -> i32 {
    let c = unsafe { &*(user as *const Counter) };
    let (rows, dims) = (rows as usize, dims as usize);
    let x = unsafe { std::slice::from_raw_parts(x, rows * dims) };
    let f = unsafe { std::slice::from_raw_parts_mut(f, rows) };
    for (r, out) in f.iter_mut().enumerate() {
        *out = x[r * dims..(r + 1) * dims]
            .iter()
            .enumerate()
            .map(|(i, v)| (v - 0.3 * i as f64).powi(2))
            .sum();
    }
    if c.calls.fetch_add(1, Ordering::SeqCst) + 1 == c.stop_after && !c.token.is_null() {
        unsafe { metaopt_stop_token_request(c.token) };
    }
    0
}

fn hc12_instance(counter: &Counter) -> *mut MetaoptHc12Instance {
    let obj = MetaoptObjective {
        kind: MetaoptObjectiveKind::MetaoptObjectiveHostCallback as i32,
        function_name: ptr::null(),
        source: ptr::null(),
        callback: Some(sphere),
        user_data: counter as *const Counter as *mut c_void,
    };
    let bits = 10u32;
    let dod = [-2.0, 2.0];
    let real = MetaoptDomain::MetaoptDomainReal as i32;
    let r = unsafe { metaopt_hc12_params(3, &bits, 1, dod.as_ptr(), 2, 1, 0, 0, real, 1, &obj) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    r.instance
}

/// A run's figures (value, string, every run's value and iterations, evaluations, stop reason)
/// and its error code (OK or INTERRUPTED); the result is freed.
type Hc12Out = (f64, Vec<u32>, Vec<f64>, Vec<u32>, u64, i32);

fn hc12_run(h: *mut MetaoptHc12Instance, o: &MetaoptHc12RunOptions) -> (Hc12Out, i32) {
    let mut r = unsafe { metaopt_hc12_run(h, o) };
    let code = r.error_code;
    if code != OK && code != INTERRUPTED {
        panic!("error {code}: {}", take_message(r.error_message));
    }
    if code == INTERRUPTED {
        take_message(r.error_message);
        r.error_message = ptr::null_mut();
    }
    let s = |p: *const u32, n: u32| unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec();
    let out = (
        r.value,
        s(r.string, r.nParam),
        unsafe { std::slice::from_raw_parts(r.run_values, r.runs as usize) }.to_vec(),
        s(r.run_iterations, r.runs),
        r.evaluations,
        r.stop_reason,
    );
    unsafe { metaopt_hc12_free_run_result(&mut r) };
    (out, code)
}

fn hc12_options(runs: u32) -> MetaoptHc12RunOptions {
    MetaoptHc12RunOptions {
        runs,
        max_iterations: 40,
        seed: 7,
        ..metaopt_hc12_default_run_options()
    }
}

#[test]
fn hc12_stopped_saved_loaded_and_continued_ends_as_the_uninterrupted_run() {
    let _shared = shared();
    let d = metaopt_hc12_default_run_options();
    assert!(d.checkpoint_path.is_null() && d.checkpoint_every_s == 0.0);
    let runs = 12;
    // the uninterrupted run
    let whole = Counter {
        calls: AtomicUsize::new(0),
        stop_after: 0,
        token: ptr::null_mut(),
    };
    let h = hc12_instance(&whole);
    let (want, code) = hc12_run(h, &hc12_options(runs));
    assert_eq!(code, OK);
    assert_eq!(want.2.len(), runs as usize);
    unsafe { metaopt_hc12_free(h) };

    // a run stopped part way by a token the objective requests, checkpointing to a file
    let token = metaopt_stop_token_create();
    let cut = Counter {
        calls: AtomicUsize::new(0),
        stop_after: whole.calls.load(Ordering::SeqCst) / 2,
        token,
    };
    let h = hc12_instance(&cut);
    let (dir, path) = scratch("hc12.ckpt");
    let o = MetaoptHc12RunOptions {
        stop_token: token,
        checkpoint_path: path.as_ptr(),
        ..hc12_options(runs)
    };
    let (part, code) = hc12_run(h, &o);
    assert_eq!(code, INTERRUPTED, "{part:?}");
    assert!(part.2.len() < runs as usize, "{part:?}");
    let saved = bytes(unsafe { metaopt_hc12_save_state(h) });
    let file = std::fs::read(dir.path().join("hc12.ckpt")).unwrap();
    assert_eq!(file, saved, "the checkpoint file holds the saved state");
    unsafe {
        metaopt_hc12_free(h);
        metaopt_stop_token_free(token);
    }

    // loaded into a fresh handle and continued: the uninterrupted run's result, bit for bit
    let rest = Counter {
        calls: AtomicUsize::new(0),
        stop_after: 0,
        token: ptr::null_mut(),
    };
    let h = hc12_instance(&rest);
    assert_eq!(
        expect_ok(unsafe { metaopt_hc12_load_state(h, saved.as_ptr(), saved.len()) }),
        0
    );
    let (got, code) = hc12_run(h, &hc12_options(runs));
    assert_eq!(code, OK);
    assert_eq!(got.0.to_bits(), want.0.to_bits());
    assert_eq!(got, want);
    // the state is used up: the next run starts afresh and is the uninterrupted one again
    let (again, _) = hc12_run(h, &hc12_options(runs));
    assert_eq!(again, want);

    // a state of other options is refused when the run starts, naming `state`
    expect_ok(unsafe { metaopt_hc12_load_state(h, saved.as_ptr(), saved.len()) });
    let mut r = unsafe {
        metaopt_hc12_run(
            h,
            &MetaoptHc12RunOptions {
                seed: 8,
                ..hc12_options(runs)
            },
        )
    };
    assert!(r.string.is_null());
    expect_error(r.error_code, r.error_message, INVALID, "`state`");
    r.error_message = ptr::null_mut();
    unsafe { metaopt_hc12_free_run_result(&mut r) };
    unsafe { metaopt_hc12_free(h) };
}

#[test]
fn hc12_states_are_checked() {
    let _shared = shared();
    let f1 = CString::new("F1").unwrap();
    let f2 = CString::new("F2").unwrap();
    let make = |name: &CString| {
        let obj = MetaoptObjective {
            kind: MetaoptObjectiveKind::MetaoptObjectiveCatalogue as i32,
            function_name: name.as_ptr(),
            source: ptr::null(),
            callback: None,
            user_data: ptr::null_mut(),
        };
        let bits = 8u32;
        let dod = [-5.0, 5.0];
        let real = MetaoptDomain::MetaoptDomainReal as i32;
        let r =
            unsafe { metaopt_hc12_params(2, &bits, 1, dod.as_ptr(), 2, 1, 0, 0, real, 0, &obj) };
        assert_eq!(r.error_code, OK);
        r.instance
    };
    let h = make(&f1);
    let (code, msg) = bytes_error(unsafe { metaopt_hc12_save_state(h) });
    assert_eq!(code, INVALID);
    assert!(msg.contains("`state`") && msg.contains("no run"), "{msg}");
    let (code, msg) = bytes_error(unsafe { metaopt_hc12_save_state(ptr::null_mut()) });
    assert_eq!(code, NULL);
    assert!(msg.contains("`h`"), "{msg}");
    let o = MetaoptHc12RunOptions {
        max_iterations: 5,
        runs: 2,
        ..metaopt_hc12_default_run_options()
    };
    let mut r = unsafe { metaopt_hc12_run(h, &o) };
    assert_eq!(r.error_code, OK);
    unsafe { metaopt_hc12_free_run_result(&mut r) };
    let st = bytes(unsafe { metaopt_hc12_save_state(h) });
    unsafe {
        expect_i32_error(metaopt_hc12_load_state(h, ptr::null(), 8), NULL, "`data`");
        expect_i32_error(
            metaopt_hc12_load_state(h, st.as_ptr(), 0),
            INVALID,
            "`data`",
        );
        expect_i32_error(
            metaopt_hc12_load_state(h, st.as_ptr(), st.len() / 2),
            INVALID,
            "`data`",
        );
        let mut flipped = st.clone();
        let at = flipped.len() - 10;
        flipped[at] ^= 0x40;
        expect_i32_error(
            metaopt_hc12_load_state(h, flipped.as_ptr(), flipped.len()),
            INVALID,
            "`data`",
        );
        expect_i32_error(
            metaopt_hc12_load_state(ptr::null_mut(), st.as_ptr(), st.len()),
            NULL,
            "`h`",
        );
        // another objective: refused when loaded
        let other = make(&f2);
        expect_i32_error(
            metaopt_hc12_load_state(other, st.as_ptr(), st.len()),
            INVALID,
            "another problem",
        );
        metaopt_hc12_free(other);
        // a state of another solver
        let q = had12_cpu();
        let qo = MetaoptQapSolveOptions {
            runs: 1,
            ..metaopt_qap_default_solve_options()
        };
        let mut qr = metaopt_qap_solve(q, &qo);
        assert_eq!(qr.error_code, OK);
        metaopt_qap_free_solve_result(&mut qr);
        let qs = bytes(metaopt_qap_save_state(q));
        expect_i32_error(
            metaopt_hc12_load_state(h, qs.as_ptr(), qs.len()),
            INVALID,
            "qap_hc12",
        );
        metaopt_qap_free(q);
        // another tabu list than the saved run's: refused when the run starts
        expect_ok(metaopt_hc12_load_state(h, st.as_ptr(), st.len()));
        expect_ok(metaopt_hc12_init_tabu_list(h, 10));
        let mut r = metaopt_hc12_run(h, &MetaoptHc12RunOptions { taboo: 1, ..o });
        expect_error(r.error_code, r.error_message, INVALID, "`state`");
        r.error_message = ptr::null_mut();
        metaopt_hc12_free_run_result(&mut r);
        // checkpoint fields
        let mut r = metaopt_hc12_run(
            h,
            &MetaoptHc12RunOptions {
                checkpoint_every_s: 1.0,
                ..o
            },
        );
        expect_error(
            r.error_code,
            r.error_message,
            INVALID,
            "`checkpoint_every_s`",
        );
        r.error_message = ptr::null_mut();
        metaopt_hc12_free_run_result(&mut r);
        metaopt_hc12_free(h);
    }
}

// ---- the QAP HC12 solve -----------------------------------------------------------------------

/// had12 from its QAPLIB file, on the CPU backend.
fn had12_cpu() -> *mut MetaoptQapInstance {
    let path = CString::new(qaplib().join("had12.dat").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_qap_params_from_file(path.as_ptr(), 2, 2, 0, 0) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    expect_ok(unsafe { metaopt_qap_set_backend(r.instance, CPU, DELTA) });
    r.instance
}

/// A solve's figures (cost, permutation, runs, iterations, the best run's iterations,
/// evaluations, target reached) and its error code; the result is freed.
type QapOut = (i64, Vec<u16>, u32, u64, u32, u64, u8);

fn qap_solve(h: *mut MetaoptQapInstance, o: &MetaoptQapSolveOptions) -> (QapOut, i32) {
    let mut r = unsafe { metaopt_qap_solve(h, o) };
    let code = r.error_code;
    if code != OK && code != INTERRUPTED {
        panic!("error {code}: {}", take_message(r.error_message));
    }
    if code == INTERRUPTED {
        take_message(r.error_message);
        r.error_message = ptr::null_mut();
    }
    let out = (
        r.f_t1,
        unsafe { std::slice::from_raw_parts(r.permutation, r.permutation_length as usize) }
            .to_vec(),
        r.runs,
        r.iterations,
        r.best_run_iterations,
        r.evaluations,
        r.target_reached,
    );
    unsafe { metaopt_qap_free_solve_result(&mut r) };
    (out, code)
}

#[test]
fn qap_hc12_stopped_saved_loaded_and_continued_ends_as_the_uninterrupted_solve() {
    let _shared = shared();
    let d = metaopt_qap_default_solve_options();
    assert!(d.checkpoint_path.is_null() && d.checkpoint_every_s == 0.0);
    let opts = |runs: u32| MetaoptQapSolveOptions {
        runs,
        seed: 11,
        ..metaopt_qap_default_solve_options()
    };
    let h = had12_cpu();
    let (want, code) = qap_solve(h, &opts(40));
    assert_eq!(code, OK);
    unsafe { metaopt_qap_free(h) };

    // stopped after 15 runs (a smaller run budget), its state written to a file
    let h = had12_cpu();
    let (dir, path) = scratch("qap.ckpt");
    let (part, code) = qap_solve(
        h,
        &MetaoptQapSolveOptions {
            checkpoint_path: path.as_ptr(),
            ..opts(15)
        },
    );
    assert_eq!((code, part.2), (OK, 15));
    let saved = bytes(unsafe { metaopt_qap_save_state(h) });
    assert_eq!(std::fs::read(dir.path().join("qap.ckpt")).unwrap(), saved);
    unsafe { metaopt_qap_free(h) };

    // a fresh instance continues it to the uninterrupted result
    let h = had12_cpu();
    expect_ok(unsafe { metaopt_qap_load_state(h, saved.as_ptr(), saved.len()) });
    let (got, code) = qap_solve(h, &opts(40));
    assert_eq!(code, OK);
    assert_eq!(got, want);
    // and the state is of the continued solve: saved again, it continues further
    let after = bytes(unsafe { metaopt_qap_save_state(h) });
    assert_ne!(after, saved);

    // the tabu search's state of the same instance is another solver's
    unsafe {
        expect_i32_error(
            metaopt_qap_ts_load_state(h, saved.as_ptr(), saved.len()),
            INVALID,
            "a state of the qap_hc12 solver",
        );
        // other options: refused when the solve starts, naming `state`
        expect_ok(metaopt_qap_load_state(h, saved.as_ptr(), saved.len()));
        let mut r = metaopt_qap_solve(
            h,
            &MetaoptQapSolveOptions {
                restart: MetaoptQapRestart::MetaoptQapRestartRandom as i32,
                ..opts(40)
            },
        );
        expect_error(r.error_code, r.error_message, INVALID, "`state`");
        r.error_message = ptr::null_mut();
        metaopt_qap_free_solve_result(&mut r);
        // damaged bytes: refused when loaded, naming `data`
        let mut flipped = saved.clone();
        let at = flipped.len() / 2;
        flipped[at] ^= 1;
        expect_i32_error(
            metaopt_qap_load_state(h, flipped.as_ptr(), flipped.len()),
            INVALID,
            "`data`",
        );
        expect_i32_error(
            metaopt_qap_load_state(h, saved.as_ptr(), 7),
            INVALID,
            "`data`",
        );
        expect_i32_error(metaopt_qap_load_state(h, ptr::null(), 9), NULL, "`data`");
        let (code, msg) = bytes_error(metaopt_qap_save_state(ptr::null_mut()));
        assert_eq!(code, NULL, "{msg}");
        metaopt_qap_free(h);
        let fresh = had12_cpu();
        let (code, msg) = bytes_error(metaopt_qap_save_state(fresh));
        assert_eq!(code, INVALID);
        assert!(msg.contains("`state`"), "{msg}");
        metaopt_qap_free(fresh);
    }
}

// ---- SAT with the hc12 method -----------------------------------------------------------------

fn sat_instance() -> *mut MetaoptSatInstance {
    let p = CString::new(satlib("uuf50-218/uuf50-01.cnf").to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_sat_parse(p.as_ptr()) };
    if r.error_code != OK {
        panic!("{}", take_message(r.error_message));
    }
    r.instance
}

/// An HC12 solve's figures (best count, assignment, runs, iterations, evaluations) and its
/// error code; the result is freed.
type SatOut = (u32, Vec<u32>, u32, u64, u64);

fn sat_solve(h: *mut MetaoptSatInstance, o: &MetaoptSatSolveOptions) -> Result<SatOut, String> {
    let mut r = unsafe { metaopt_sat_solve(h, o) };
    if r.error_code != OK {
        return Err(format!(
            "{} {}",
            r.error_code,
            take_message(r.error_message)
        ));
    }
    let out = (
        r.best_unsatisfied,
        unsafe { std::slice::from_raw_parts(r.assignment, r.words as usize) }.to_vec(),
        r.runs,
        r.iterations,
        r.evaluations,
    );
    unsafe { metaopt_sat_free_solve_result(&mut r) };
    Ok(out)
}

#[test]
fn sat_hc12_stopped_saved_loaded_and_continued_ends_as_the_uninterrupted_solve() {
    let _shared = shared();
    let opts = |runs: u32| MetaoptSatSolveOptions {
        method: HC12,
        runs,
        seed: 5,
        time_limit_s: 0.0,
        ..metaopt_sat_default_solve_options()
    };
    let h = sat_instance();
    let want = sat_solve(h, &opts(6)).unwrap();
    unsafe { metaopt_sat_free(h) };

    let h = sat_instance();
    let (dir, path) = scratch("sat.ckpt");
    let part = sat_solve(
        h,
        &MetaoptSatSolveOptions {
            checkpoint_path: path.as_ptr(),
            ..opts(2)
        },
    )
    .unwrap();
    assert_eq!(part.2, 2);
    let saved = bytes(unsafe { metaopt_sat_save_state(h) });
    assert_eq!(std::fs::read(dir.path().join("sat.ckpt")).unwrap(), saved);
    unsafe { metaopt_sat_free(h) };

    let h = sat_instance();
    expect_ok(unsafe { metaopt_sat_load_state(h, saved.as_ptr(), saved.len()) });
    assert_eq!(sat_solve(h, &opts(6)).unwrap(), want);

    // a loaded HC12 state refuses a walk search, naming `state`, and is used up by it
    expect_ok(unsafe { metaopt_sat_load_state(h, saved.as_ptr(), saved.len()) });
    let walks = MetaoptSatSolveOptions {
        method: WALKSAT,
        backend: CPU,
        walks: 2,
        max_flips: 500,
        time_limit_s: 0.0,
        ..metaopt_sat_default_solve_options()
    };
    let e = sat_solve(h, &walks).unwrap_err();
    assert!(
        e.starts_with(&INVALID.to_string()) && e.contains("`state`"),
        "{e}"
    );
    sat_solve(h, &walks).unwrap();
    // the state saved now is the walks' (the last search), which HC12 refuses
    let walk_state = bytes(unsafe { metaopt_sat_save_state(h) });
    expect_ok(unsafe { metaopt_sat_load_state(h, walk_state.as_ptr(), walk_state.len()) });
    let e = sat_solve(h, &opts(6)).unwrap_err();
    assert!(e.contains("`state`") && e.contains("walk"), "{e}");
    // an HC12 state of other options
    expect_ok(unsafe { metaopt_sat_load_state(h, saved.as_ptr(), saved.len()) });
    let e = sat_solve(h, &MetaoptSatSolveOptions { seed: 6, ..opts(6) }).unwrap_err();
    assert!(e.contains("`state`") && e.contains("seed"), "{e}");
    // damaged bytes and another formula: refused when loaded
    unsafe {
        let mut flipped = saved.clone();
        let at = flipped.len() - 3;
        flipped[at] ^= 8;
        expect_i32_error(
            metaopt_sat_load_state(h, flipped.as_ptr(), flipped.len()),
            INVALID,
            "`data`",
        );
        let lits = [1, -2, 0, 2, 0];
        let other = metaopt_sat_from_clauses(2, lits.as_ptr(), lits.len() as u64);
        assert_eq!(other.error_code, OK);
        expect_i32_error(
            metaopt_sat_load_state(other.instance, saved.as_ptr(), saved.len()),
            INVALID,
            "another problem",
        );
        metaopt_sat_free(other.instance);
        metaopt_sat_free(h);
    }
}
