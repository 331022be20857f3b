//! `metaopt_function_evaluate` called directly from Rust: catalogue functions evaluated by name on
//! the device and the host, values at the known minima (CEC04t..CEC10t give 1 at their shift),
//! device against host, and the errors that name their argument.

use crate::common::cabi::*;
use metaopt::ffi::*;
use metaopt::problem::functions::{catalogue, lookup};
use std::ffi::CString;
use std::ptr;

/// The call's values, or (code, message).
fn eval(
    name: &str,
    points: &[f64],
    dims: u32,
    backend: i32,
    precision: i32,
) -> Result<Vec<f64>, (i32, String)> {
    let c = CString::new(name).unwrap();
    let rows = if dims == 0 {
        1
    } else {
        (points.len() / dims as usize) as u32
    };
    let mut r = unsafe {
        metaopt_function_evaluate(c.as_ptr(), points.as_ptr(), rows, dims, backend, precision)
    };
    let out = if r.error_code == OK {
        assert!(r.error_message.is_null());
        assert_eq!(r.length, rows);
        Ok(unsafe { std::slice::from_raw_parts(r.values, r.length as usize) }.to_vec())
    } else {
        assert!(r.values.is_null() && r.length == 0);
        let code = r.error_code;
        let m = take_message(std::mem::replace(&mut r.error_message, ptr::null_mut()));
        Err((code, m))
    };
    unsafe { metaopt_double_array_free_result(&mut r) };
    out
}

fn expect(r: Result<Vec<f64>, (i32, String)>, code: i32, needle: &str) {
    let (c, m) = r.expect_err("an error");
    assert_eq!(c, code, "{m}");
    assert!(m.contains(needle), "`{m}` should mention `{needle}`");
}

#[test]
fn every_function_at_its_known_minimum_on_the_host_and_the_device() {
    for f in catalogue() {
        let dims = if f.dims.allows(10) { 10 } else { 2 };
        let Some(min) = f.minimum(dims) else { continue };
        let Some(at) = min.at else { continue };
        // two rows: the minimum and a second point, so row order is checked too
        let mut x = at.clone();
        x.extend(vec![f.domain.0 * 0.5 + f.domain.1 * 0.5 + 0.25; dims]);
        let host = eval(f.name, &x, dims as u32, 1, 0).unwrap();
        let device = eval(f.name, &x, dims as u32, 0, 2).unwrap();
        let tol = 1e-9 * min.value.abs().max(1.0);
        assert!(
            (host[0] - min.value).abs() <= tol,
            "{} host {} vs {}",
            f.name,
            host[0],
            min.value
        );
        assert!(
            (device[0] - min.value).abs() <= tol,
            "{} device {} vs {}",
            f.name,
            device[0],
            min.value
        );
        let second = lookup(f.name).unwrap().eval(&x[dims..]).unwrap();
        assert_eq!(host[1], second, "{}", f.name);
        assert!(
            (device[1] - second).abs() <= 1e-12 * second.abs().max(1.0),
            "{} {} {}",
            f.name,
            device[1],
            second
        );
        if f.is_transformed() {
            // the CEC 2019 100-Digit Challenge: exactly 1 at the shift o (CEC07t within 1e-12)
            assert!((host[0] - 1.0).abs() < 1e-12, "{} {}", f.name, host[0]);
        }
    }
}

#[test]
fn names_are_case_insensitive_and_float_is_close() {
    let x: Vec<f64> = (0..20).map(|i| (i as f64 * 0.37).sin() * 50.0).collect();
    let a = eval("CEC05t", &x, 10, 1, 2).unwrap();
    let b = eval("cec05T", &x, 10, 0, 0).unwrap();
    let f = eval("CEC05T", &x, 10, 0, 1).unwrap();
    for i in 0..2 {
        assert!((a[i] - b[i]).abs() <= 1e-12 * a[i].abs(), "{a:?} {b:?}");
        assert!((a[i] - f[i]).abs() <= 1e-4 * a[i].abs(), "{a:?} {f:?}");
    }
}

#[test]
fn errors_name_their_argument() {
    let x = [0.5; 10];
    expect(eval("F99", &x, 10, 0, 0), INVALID, "unknown function `F99`");
    expect(eval("CEC05t", &x[..5], 5, 1, 0), INVALID, "`dims`");
    expect(
        eval("CEC05t", &x[..5], 5, 1, 0),
        INVALID,
        "D = 2 and D = 10",
    );
    expect(eval("F1", &x, 0, 1, 0), INVALID, "`dims`");
    let mut nan = x;
    nan[7] = f64::NAN;
    expect(eval("F1", &nan, 5, 1, 0), INVALID, "row 1 column 2 is NaN");
    nan[7] = f64::INFINITY;
    expect(eval("F1", &nan, 5, 0, 0), INVALID, "`points`");
    expect(eval("F1", &x, 5, 2, 0), INVALID, "`backend`");
    expect(eval("F1", &x, 5, 0, 3), INVALID, "`precision`");
    expect(eval("F1", &x, 5, 1, 1), INVALID, "`precision`");
    let c = CString::new("F1").unwrap();
    let calls: [(MetaoptDoubleArrayResult, i32, &str); 4] = unsafe {
        [
            (
                metaopt_function_evaluate(ptr::null(), x.as_ptr(), 1, 10, 0, 0),
                NULL,
                "`function`",
            ),
            (
                metaopt_function_evaluate(c.as_ptr(), ptr::null(), 1, 10, 0, 0),
                NULL,
                "`points`",
            ),
            (
                metaopt_function_evaluate(c.as_ptr(), x.as_ptr(), 0, 10, 0, 0),
                INVALID,
                "`rows`",
            ),
            (
                metaopt_function_evaluate(c.as_ptr(), ptr::null(), 0xFFFF_FFFF, 0xFFFF_FFFF, 1, 0),
                NULL,
                "`points`",
            ),
        ]
    };
    for (mut r, code, needle) in calls {
        let m = std::mem::replace(&mut r.error_message, ptr::null_mut());
        expect_error(r.error_code, m, code, needle);
        unsafe { metaopt_double_array_free_result(&mut r) };
    }
}
