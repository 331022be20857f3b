//! The AWVD C ABI called directly from Rust: 1UBQ from a PDB file and from arrays equals
//! Voronota's vertices (data/pdb/1ubq.vertices.txt) and `awvd_cpu`, on the CPU backend and on
//! the device (PoCL here); the copies of vertices, edges, contacts and counters; NULL pointers,
//! n = 0, non-finite and negative values, bad options and freed handles give errors naming the
//! argument.

use crate::common;
use crate::common::cabi::*;
use crate::common::need::{needs, Need};
use metaopt::awvd::{self, AwvdOptions};
use metaopt::ffi::*;
use std::ffi::{CStr, CString};
use std::ptr;

const IO: i32 = MetaoptErrorCode::MetaoptErrIo as i32;
const CPU: i32 = MetaoptBackend::MetaoptBackendCpu as i32;

fn pdb(name: &str) -> CString {
    CString::new(common::data_dir().join("pdb").join(name).to_str().unwrap()).unwrap()
}

fn ok(r: &MetaoptAwvdResult) -> *mut MetaoptAwvd {
    if r.error_code != OK {
        panic!(
            "error {}: {}",
            r.error_code,
            unsafe { CStr::from_ptr(r.error_message) }.to_string_lossy()
        );
    }
    assert!(r.error_message.is_null() && !r.awvd.is_null() && !r.backend.is_null());
    r.awvd
}

fn cpu() -> MetaoptAwvdOptions {
    MetaoptAwvdOptions {
        backend: CPU,
        ..metaopt_awvd_default_options()
    }
}

/// Voronota's quadruples of 1UBQ (one line per vertex).
fn voronota_quadruples() -> Vec<[u32; 4]> {
    let text = std::fs::read_to_string(common::data_dir().join("pdb/1ubq.vertices.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u32> = l
                .split_whitespace()
                .take(4)
                .map(|t| t.parse().unwrap())
                .collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect()
}

/// Checks a 1UBQ diagram through every accessor; returns its vertices text.
fn check_1ubq(h: *mut MetaoptAwvd, balls: &[awvd::Ball]) -> String {
    let mut info = unsafe { metaopt_awvd_info(h) };
    assert_eq!(info.error_code, OK);
    assert!(info.awvd.is_null() && info.backend.is_null());
    assert_eq!(info.vertices, 3793);
    assert!(info.searches > 0);
    let mut v = unsafe { metaopt_awvd_vertices(h) };
    assert_eq!(v.error_code, OK);
    assert_eq!(v.n, 3793);
    let n = v.n as usize;
    let q = unsafe { std::slice::from_raw_parts(v.quadruples, 4 * n) };
    let which = unsafe { std::slice::from_raw_parts(v.which, n) };
    let s = unsafe { std::slice::from_raw_parts(v.spheres, 4 * n) };
    let mut got: Vec<[u32; 4]> = q.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    let mut want = voronota_quadruples();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    assert!(which.iter().all(|&w| w <= 1));
    // each sphere touches its four balls
    for (i, c) in q.chunks(4).enumerate() {
        let sp = &s[4 * i..4 * i + 4];
        for &b in c {
            let b = balls[b as usize];
            let d =
                ((sp[0] - b.c[0]).powi(2) + (sp[1] - b.c[1]).powi(2) + (sp[2] - b.c[2]).powi(2))
                    .sqrt();
            assert!(
                (d - (sp[3] + b.r)).abs() < 1e-6,
                "vertex {i}: {d} vs {}",
                sp[3] + b.r
            );
        }
    }
    unsafe { metaopt_awvd_free_vertices(&mut v) };
    unsafe { metaopt_awvd_free_vertices(&mut v) }; // harmless twice
    assert!(v.quadruples.is_null() && v.n == 0);
    let mut e = unsafe { metaopt_awvd_edges(h) };
    assert_eq!((e.error_code, e.n), (OK, 3793));
    let nb = unsafe { std::slice::from_raw_parts(e.neighbours, 4 * n) };
    for (vtx, row) in nb.chunks(4).enumerate() {
        for &m in row {
            assert!(m >= -1 && m < n as i64);
            if m >= 0 {
                assert!(
                    nb[4 * m as usize..4 * m as usize + 4].contains(&(vtx as i64)),
                    "edge {vtx} -> {m} links back"
                );
            }
        }
    }
    unsafe { metaopt_awvd_free_edges(&mut e) };
    let mut c = unsafe { metaopt_awvd_contacts(h) };
    assert_eq!(c.error_code, OK);
    assert_eq!(c.n, info.contacts);
    let pairs = unsafe { std::slice::from_raw_parts(c.pairs, 2 * c.n as usize) };
    assert!(pairs
        .chunks(2)
        .all(|p| p[0] < p[1] && (p[1] as usize) < balls.len()));
    // every pair of balls of a vertex is a contact
    let set: std::collections::HashSet<(u32, u32)> =
        pairs.chunks(2).map(|p| (p[0], p[1])).collect();
    for qd in &got {
        assert!(set.contains(&(qd[0], qd[1])) && set.contains(&(qd[2], qd[3])));
    }
    unsafe { metaopt_awvd_free_contacts(&mut c) };
    let t = unsafe { metaopt_awvd_vertices_text(h) };
    assert_eq!(t.error_code, OK);
    let text = unsafe { CStr::from_ptr(t.text) }
        .to_str()
        .unwrap()
        .to_string();
    unsafe { metaopt_pointer_free(t.text.cast()) };
    assert_eq!(text.lines().count(), 3793);
    unsafe { metaopt_awvd_free_result(&mut info) };
    text
}

#[test]
fn awvd_of_1ubq_from_a_pdb_file_and_from_arrays_equals_voronota_and_the_rust_api() {
    let _g = shared();
    let balls = awvd::read_balls(common::data_dir().join("pdb/1ubq.balls.txt")).unwrap();
    let o = cpu();
    let mut r = unsafe { metaopt_awvd_from_file(pdb("1ubq.pdb").as_ptr(), 0, &o) };
    let h = ok(&r);
    assert_eq!(r.vertices, 3793);
    assert!(r.elapsed_s > 0.0);
    let backend = unsafe { CStr::from_ptr(r.backend) }
        .to_str()
        .unwrap()
        .to_string();
    assert!(backend.contains("CPU"), "{backend}");
    let text = check_1ubq(h, &balls);
    let want = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    assert_eq!(text, want.vertices_text());
    unsafe { metaopt_awvd_free_result(&mut r) };
    assert!(r.backend.is_null());
    unsafe { metaopt_awvd_free(h) };

    // the same balls from arrays, read through the C ABI
    let mut b = unsafe { metaopt_awvd_read_balls(pdb("1ubq.pdb").as_ptr(), 0) };
    assert_eq!((b.error_code, b.n), (OK, 602));
    let col = |p: *mut f64| unsafe { std::slice::from_raw_parts(p, 602) }.to_vec();
    let (x, y, z, rad) = (col(b.x), col(b.y), col(b.z), col(b.r));
    for (i, ball) in balls.iter().enumerate() {
        assert_eq!(
            [x[i], y[i], z[i], rad[i]],
            [ball.c[0], ball.c[1], ball.c[2], ball.r]
        );
    }
    unsafe { metaopt_awvd_free_balls(&mut b) };
    assert!(b.x.is_null() && b.n == 0);
    let mut r =
        unsafe { metaopt_awvd_build(x.as_ptr(), y.as_ptr(), z.as_ptr(), rad.as_ptr(), 602, &o) };
    let h = ok(&r);
    assert_eq!(check_1ubq(h, &balls), text);
    unsafe { metaopt_awvd_free_result(&mut r) };
    unsafe { metaopt_awvd_free(h) };
}

#[test]
fn awvd_of_1ubq_on_the_device_equals_the_cpu() {
    needs!(Need::Device);
    let _g = shared();
    let balls = awvd::read_balls(common::data_dir().join("pdb/1ubq.balls.txt")).unwrap();
    // NULL options: the device in use, float pass
    let mut r = unsafe { metaopt_awvd_from_file(pdb("1ubq.balls.txt").as_ptr(), 0, ptr::null()) };
    if r.error_code == MetaoptErrorCode::MetaoptErrNoDevice as i32 {
        eprintln!("no OpenCL device: {}", take_message(r.error_message));
        return;
    }
    let h = ok(&r);
    let backend = unsafe { CStr::from_ptr(r.backend) }
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        backend.contains("device") && backend.contains("float"),
        "{backend}"
    );
    let text = check_1ubq(h, &balls);
    let want = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    assert_eq!(text, want.vertices_text());
    unsafe { metaopt_awvd_free_result(&mut r) };
    unsafe { metaopt_awvd_free(h) };
}

/// `metaopt_awvd_build` of the columns `[x, y, z, r]` must fail with `want`, naming `needle`.
fn build_err([x, y, z, r]: [&[f64]; 4], n: u32, o: &MetaoptAwvdOptions, want: i32, needle: &str) {
    let res = unsafe { metaopt_awvd_build(x.as_ptr(), y.as_ptr(), z.as_ptr(), r.as_ptr(), n, o) };
    assert!(res.awvd.is_null() && res.backend.is_null());
    expect_error(res.error_code, res.error_message, want, needle);
}

#[test]
fn bad_balls_options_paths_and_handles_are_errors_naming_the_argument() {
    let x = [0.0, 3.0, 0.0, 0.0, 1.0];
    let y = [0.0, 0.0, 3.0, 0.0, 1.0];
    let z = [0.0, 0.0, 0.0, 3.0, 1.0];
    let r = [1.0, 1.2, 0.8, 1.1, 0.5];
    let o = cpu();
    build_err([&x, &y, &z, &r], 0, &o, INVALID, "`n`");
    let res = unsafe { metaopt_awvd_build(ptr::null(), y.as_ptr(), z.as_ptr(), r.as_ptr(), 5, &o) };
    expect_error(res.error_code, res.error_message, NULL, "`x`");
    let res = unsafe { metaopt_awvd_build(x.as_ptr(), y.as_ptr(), z.as_ptr(), ptr::null(), 5, &o) };
    expect_error(res.error_code, res.error_message, NULL, "`r`");
    let mut bad = r;
    bad[2] = -0.5;
    build_err(
        [&x, &y, &z, &bad],
        5,
        &o,
        INVALID,
        "`r`: ball 2: radius -0.5",
    );
    bad[2] = f64::NAN;
    build_err([&x, &y, &z, &bad], 5, &o, INVALID, "`r`: ball 2");
    let mut by = y;
    by[4] = f64::INFINITY;
    build_err([&x, &by, &z, &r], 5, &o, INVALID, "`y`: ball 4");
    build_err(
        [&x, &y, &z, &r],
        5,
        &MetaoptAwvdOptions { cell: -1.0, ..o },
        INVALID,
        "`cell`",
    );
    build_err(
        [&x, &y, &z, &r],
        5,
        &MetaoptAwvdOptions {
            suspect_bound: f64::NAN,
            ..o
        },
        INVALID,
        "`suspect_bound`",
    );
    build_err(
        [&x, &y, &z, &r],
        5,
        &MetaoptAwvdOptions { backend: 7, ..o },
        INVALID,
        "`backend`",
    );
    build_err(
        [&x, &y, &z, &r],
        5,
        &MetaoptAwvdOptions {
            backend: 0,
            device: -2,
            ..o
        },
        INVALID,
        "`device`",
    );
    build_err(
        [&x, &y, &z, &r],
        5,
        &MetaoptAwvdOptions {
            double_precision: 2,
            ..o
        },
        INVALID,
        "`double_precision`",
    );

    // five balls: a small diagram, counters of a CPU run
    let mut ok5 =
        unsafe { metaopt_awvd_build(x.as_ptr(), y.as_ptr(), z.as_ptr(), r.as_ptr(), 5, &o) };
    let h = ok(&ok5);
    assert_eq!((ok5.double_rechecks, ok5.float_replaced), (0, 0));
    unsafe { metaopt_awvd_free_result(&mut ok5) };

    let res = unsafe { metaopt_awvd_from_file(ptr::null(), 0, &o) };
    expect_error(res.error_code, res.error_message, NULL, "`path`");
    let res = unsafe { metaopt_awvd_from_file(pdb("1ubq.pdb").as_ptr(), 8, &o) };
    expect_error(res.error_code, res.error_message, INVALID, "`flags`");
    let missing = CString::new("/nonexistent/x.balls").unwrap();
    let res = unsafe { metaopt_awvd_from_file(missing.as_ptr(), 0, &o) };
    expect_error(res.error_code, res.error_message, IO, "x.balls");
    let b = unsafe { metaopt_awvd_read_balls(missing.as_ptr(), 0) };
    assert!(b.x.is_null());
    expect_error(b.error_code, b.error_message, IO, "x.balls");

    let v = unsafe { metaopt_awvd_vertices(ptr::null_mut()) };
    expect_error(v.error_code, v.error_message, NULL, "`awvd`");
    let e = unsafe { metaopt_awvd_edges(ptr::null_mut()) };
    expect_error(e.error_code, e.error_message, NULL, "`awvd`");
    let c = unsafe { metaopt_awvd_contacts(ptr::null_mut()) };
    expect_error(c.error_code, c.error_message, NULL, "`awvd`");
    let t = unsafe { metaopt_awvd_vertices_text(ptr::null_mut()) };
    expect_error(t.error_code, t.error_message, NULL, "`awvd`");
    let _x = exclusive();
    unsafe { metaopt_awvd_free(h) };
    let i = unsafe { metaopt_awvd_info(h) };
    expect_error(
        i.error_code,
        i.error_message,
        INVALID,
        "not a live MetaoptAwvd",
    );
    unsafe { metaopt_awvd_free(h) }; // a freed handle is ignored
    unsafe { metaopt_awvd_free(ptr::null_mut()) };
    unsafe { metaopt_awvd_free_result(ptr::null_mut()) };
}

const TIME_LIMIT: i32 = MetaoptErrorCode::MetaoptErrTimeLimit as i32;
const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;

/// A C result moved to the thread that joins the call (its pointers are the library's).
struct Sent<T>(T);
// SAFETY: the result's pointers are owned by the result, which moves whole to the joining thread.
unsafe impl<T> Send for Sent<T> {}

/// `time_limit_s` and `stop_token`: a diagram cut short is `METAOPT_ERR_TIME_LIMIT` or
/// `METAOPT_INTERRUPTED` with no handle (a part of a diagram is no result), within a second.
#[test]
fn a_diagram_cut_short_has_no_handle() {
    let _g = shared();
    // 100,000 random balls in a cube of side 140 Å: tens of seconds of work on two cores
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let n = 100_000;
    let cols: Vec<Vec<f64>> = (0..n)
        .map(|_| [140.0 * next(), 140.0 * next(), 140.0 * next(), 1.0 + next()])
        .fold(vec![Vec::new(); 4], |mut c, b| {
            for k in 0..4 {
                c[k].push(b[k]);
            }
            c
        });
    let build = |o: &MetaoptAwvdOptions| unsafe {
        metaopt_awvd_build(
            cols[0].as_ptr(),
            cols[1].as_ptr(),
            cols[2].as_ptr(),
            cols[3].as_ptr(),
            n as u32,
            o,
        )
    };
    let mut o = cpu();
    o.time_limit_s = 0.3;
    let t0 = std::time::Instant::now();
    let mut r = build(&o);
    assert!(t0.elapsed().as_secs_f64() < 1.3, "{:?}", t0.elapsed());
    assert!(r.awvd.is_null() && r.backend.is_null() && r.vertices == 0);
    expect_error(r.error_code, r.error_message, TIME_LIMIT, "time limit");
    r.error_message = ptr::null_mut();
    unsafe { metaopt_awvd_free_result(&mut r) };
    // a token requested from another thread
    let token = metaopt_stop_token_create() as usize;
    o.time_limit_s = 0.0;
    o.stop_token = token as *const MetaoptStopToken;
    let (cols2, o) = (cols.clone(), Sent(o));
    let run = std::thread::spawn(move || {
        let o = o;
        Sent(unsafe {
            metaopt_awvd_build(
                cols2[0].as_ptr(),
                cols2[1].as_ptr(),
                cols2[2].as_ptr(),
                cols2[3].as_ptr(),
                n as u32,
                &o.0,
            )
        })
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!run.is_finished());
    let t0 = std::time::Instant::now();
    assert_eq!(
        unsafe { metaopt_stop_token_request(token as *mut _) }.error_code,
        OK
    );
    let mut r = run.join().unwrap().0;
    assert!(t0.elapsed().as_secs_f64() < 1.0, "{:?}", t0.elapsed());
    assert!(r.awvd.is_null() && r.backend.is_null());
    expect_error(r.error_code, r.error_message, INTERRUPTED, "no result");
    r.error_message = ptr::null_mut();
    unsafe { metaopt_awvd_free_result(&mut r) };
    unsafe { metaopt_stop_token_free(token as *mut _) };
    let mut o = cpu();
    o.time_limit_s = -1.0;
    let mut r = build(&o);
    expect_error(r.error_code, r.error_message, INVALID, "time_limit_s");
    r.error_message = ptr::null_mut();
    unsafe { metaopt_awvd_free_result(&mut r) };
}
