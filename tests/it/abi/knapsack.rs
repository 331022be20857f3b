//! The knapsack C ABI called directly from Rust: instances from files, arrays and the generator
//! against the Rust constructors, their data, the exact optimum of knapsack-250 (1533.821142 with
//! 172 items) and of knapsack-100 (609.4956 with 67 items, by the cardinality bound),
//! evaluation, and the errors naming the C
//! argument (NULL pointers, sizes, NaN, bad enums, freed and wrong-kind handles).

use crate::common;
use crate::common::cabi::*;
use metaopt::ffi::*;
use metaopt::problem::knapsack::{GenerateOptions, Knapsack, KnapsackKind};
use std::ffi::CString;
use std::path::PathBuf;
use std::ptr;

fn path(n: usize) -> PathBuf {
    common::data_dir().join(format!("knapsack/knapsack-{n}.txt"))
}

fn from_file(p: &std::path::Path) -> MetaoptKnapsackResult {
    let c = CString::new(p.to_str().unwrap()).unwrap();
    unsafe { metaopt_knapsack_from_file(c.as_ptr()) }
}

fn handle(r: MetaoptKnapsackResult) -> *mut MetaoptKnapsack {
    if r.error_code != OK {
        panic!("error {}: {}", r.error_code, take_message(r.error_message));
    }
    assert!(r.error_message.is_null() && !r.knapsack.is_null());
    r.knapsack
}

fn expect_new_error(r: MetaoptKnapsackResult, want: i32, needle: &str) {
    assert!(r.knapsack.is_null());
    assert_eq!(r.n, 0);
    expect_error(r.error_code, r.error_message, want, needle);
}

/// (weights, profits, capacity, scale, name) of a handle, the data result freed.
fn data(k: *mut MetaoptKnapsack) -> (Vec<f64>, Vec<f64>, f64, u64, String) {
    let mut d = unsafe { metaopt_knapsack_data(k) };
    assert_eq!(d.error_code, OK);
    let n = d.n as usize;
    let w = unsafe { std::slice::from_raw_parts(d.weights, n) }.to_vec();
    let p = unsafe { std::slice::from_raw_parts(d.profits, n) }.to_vec();
    let name = unsafe { std::ffi::CStr::from_ptr(d.name) }
        .to_str()
        .unwrap()
        .to_string();
    let out = (w, p, d.capacity, d.scale, name);
    unsafe {
        metaopt_knapsack_free_data(&mut d);
        metaopt_knapsack_free_data(&mut d); // harmless twice
    }
    assert!(d.weights.is_null() && d.profits.is_null() && d.name.is_null() && d.n == 0);
    out
}

#[test]
fn knapsack_250_optimum_through_c() {
    let _g = shared();
    let r = from_file(&path(250));
    assert_eq!(r.n, 250);
    let k = handle(r);
    let (w, p, cap, scale, name) = data(k);
    let rust = Knapsack::from_file(&path(250)).unwrap();
    assert_eq!(
        (w.as_slice(), p.as_slice(), cap, scale),
        (rust.weights(), rust.profits(), rust.capacity(), 1_000_000)
    );
    assert_eq!(name, "knapsack-250");
    let mut o = unsafe { metaopt_knapsack_optimum(k) };
    assert_eq!(o.error_code, OK);
    assert_eq!(o.value, 1533.821142);
    assert_eq!(o.int_value, 1_533_821_142);
    assert_eq!(o.items_taken, 172);
    assert_eq!(o.n, 250);
    let bits = unsafe { std::slice::from_raw_parts(o.bits, 250) }.to_vec();
    assert_eq!(bits.iter().filter(|&&b| b == 1).count(), 172);
    // the evaluation agrees with the optimum
    let e = unsafe { metaopt_knapsack_evaluate(k, bits.as_ptr(), 250) };
    assert_eq!(e.error_code, OK);
    assert!(e.error_message.is_null());
    assert_eq!(
        (e.int_profit, e.int_weight, e.feasible),
        (o.int_value, o.int_weight, 1)
    );
    assert_eq!((e.profit, e.weight), (o.value, o.weight));
    // everything taken is infeasible
    let all = vec![1u8; 250];
    let e = unsafe { metaopt_knapsack_evaluate(k, all.as_ptr(), 250) };
    assert_eq!(e.feasible, 0);
    unsafe {
        metaopt_knapsack_free_optimum_result(&mut o);
        metaopt_knapsack_free_optimum_result(&mut o);
        metaopt_knapsack_free_optimum_result(ptr::null_mut());
    }
    assert!(o.bits.is_null() && o.n == 0);
    unsafe { metaopt_knapsack_free(k) };
}

#[test]
fn knapsack_100_meets_the_cardinality_bound() {
    let _g = shared();
    let k = handle(from_file(&path(100)));
    let mut o = unsafe { metaopt_knapsack_optimum(k) };
    assert_eq!(o.error_code, 0);
    assert_eq!(
        (o.value, o.int_value, o.items_taken, o.n),
        (609.4956, 609_495_600, 67, 100)
    );
    unsafe { metaopt_knapsack_free_optimum_result(&mut o) };
    unsafe { metaopt_knapsack_free(k) };
}

#[test]
fn arrays_and_generator_match_the_rust_constructors() {
    let _g = shared();
    let w = [2.5, 3.0, 1.25, 4.0];
    let p = [3.0, 4.5, 2.0, 1.0];
    let k = handle(unsafe { metaopt_knapsack_from_arrays(4, w.as_ptr(), p.as_ptr(), 5.0) });
    let (dw, dp, cap, scale, _) = data(k);
    assert_eq!(
        (dw.as_slice(), dp.as_slice(), cap, scale),
        (&w[..], &p[..], 5.0, 100)
    );
    let mut o = unsafe { metaopt_knapsack_optimum(k) };
    // 2.5 + 1.25 fits (3.75 <= 5): 5.0; 3.0 + 1.25 = 4.25: 6.5 is the best
    assert_eq!((o.value, o.items_taken), (6.5, 2));
    unsafe { metaopt_knapsack_free_optimum_result(&mut o) };
    unsafe { metaopt_knapsack_free(k) };

    for (kind, ck) in [
        (
            KnapsackKind::HanKim,
            MetaoptKnapsackKind::MetaoptKnapsackHanKim,
        ),
        (
            KnapsackKind::Uncorrelated,
            MetaoptKnapsackKind::MetaoptKnapsackUncorrelated,
        ),
        (
            KnapsackKind::WeaklyCorrelated,
            MetaoptKnapsackKind::MetaoptKnapsackWeaklyCorrelated,
        ),
        (
            KnapsackKind::StronglyCorrelated,
            MetaoptKnapsackKind::MetaoptKnapsackStronglyCorrelated,
        ),
        (
            KnapsackKind::SubsetSum,
            MetaoptKnapsackKind::MetaoptKnapsackSubsetSum,
        ),
    ] {
        let r = metaopt_knapsack_generate(ck as i32, 60, 500, 9);
        assert_eq!(r.n, 60);
        let k = handle(r);
        let rust = Knapsack::generate(&GenerateOptions {
            kind,
            items: 60,
            range: 500,
            seed: 9,
            ..Default::default()
        })
        .unwrap();
        let (dw, dp, cap, _, name) = data(k);
        assert_eq!(
            (dw.as_slice(), dp.as_slice(), cap),
            (rust.weights(), rust.profits(), rust.capacity()),
            "{kind}"
        );
        assert_eq!(name, rust.name());
        unsafe { metaopt_knapsack_free(k) };
    }
}

#[test]
fn errors_name_the_c_argument() {
    let _g = shared();
    expect_new_error(
        unsafe { metaopt_knapsack_from_file(ptr::null()) },
        NULL,
        "path",
    );
    expect_new_error(
        from_file(&path(250).with_file_name("missing.txt")),
        MetaoptErrorCode::MetaoptErrIo as i32,
        "missing.txt",
    );
    let w = [1.0, 2.0];
    let p = [1.0, 2.0];
    let nan = [1.0, f64::NAN];
    let neg = [1.0, -2.0];
    unsafe {
        expect_new_error(
            metaopt_knapsack_from_arrays(2, ptr::null(), p.as_ptr(), 1.0),
            NULL,
            "weights",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, w.as_ptr(), ptr::null(), 1.0),
            NULL,
            "profits",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(0, w.as_ptr(), p.as_ptr(), 1.0),
            INVALID,
            "n",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(u32::MAX, w.as_ptr(), p.as_ptr(), 1.0),
            INVALID,
            "n",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, nan.as_ptr(), p.as_ptr(), 1.0),
            INVALID,
            "weights",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, w.as_ptr(), nan.as_ptr(), 1.0),
            INVALID,
            "profits",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, neg.as_ptr(), p.as_ptr(), 1.0),
            INVALID,
            "item 1",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, w.as_ptr(), p.as_ptr(), f64::NAN),
            INVALID,
            "capacity",
        );
        expect_new_error(
            metaopt_knapsack_from_arrays(2, w.as_ptr(), p.as_ptr(), -1.0),
            INVALID,
            "capacity",
        );
        expect_new_error(metaopt_knapsack_generate(5, 10, 100, 1), INVALID, "kind");
        expect_new_error(metaopt_knapsack_generate(-1, 10, 100, 1), INVALID, "kind");
        expect_new_error(metaopt_knapsack_generate(1, 0, 100, 1), INVALID, "items");
        expect_new_error(metaopt_knapsack_generate(1, 10, 0, 1), INVALID, "range");
    }
    let k = handle(unsafe { metaopt_knapsack_from_arrays(2, w.as_ptr(), p.as_ptr(), 1.5) });
    let bits = [1u8, 0];
    let two = [2u8, 0];
    unsafe {
        let e = metaopt_knapsack_evaluate(k, ptr::null(), 2);
        expect_error(e.error_code, e.error_message, NULL, "bits");
        let e = metaopt_knapsack_evaluate(k, bits.as_ptr(), 3);
        expect_error(e.error_code, e.error_message, INVALID, "n");
        let e = metaopt_knapsack_evaluate(k, two.as_ptr(), 2);
        expect_error(e.error_code, e.error_message, INVALID, "bits");
        let e = metaopt_knapsack_evaluate(ptr::null(), bits.as_ptr(), 2);
        expect_error(e.error_code, e.error_message, NULL, "knapsack");
        let d = metaopt_knapsack_data(ptr::null());
        assert!(d.weights.is_null());
        expect_error(d.error_code, d.error_message, NULL, "knapsack");
        let o = metaopt_knapsack_optimum(ptr::null_mut());
        expect_error(o.error_code, o.error_message, NULL, "knapsack");
        // a handle of another kind
        let t = metaopt_stop_token_create();
        let e = metaopt_knapsack_evaluate(t.cast(), bits.as_ptr(), 2);
        expect_error(e.error_code, e.error_message, INVALID, "MetaoptKnapsack");
        metaopt_knapsack_free(t.cast()); // ignored
        assert_eq!(metaopt_stop_token_is_requested(t), 0);
        metaopt_stop_token_free(t);
        metaopt_knapsack_free(k);
    }
}

#[test]
fn a_freed_handle_is_an_error() {
    let _g = exclusive();
    let w = [1.0, 2.0];
    let k = handle(unsafe { metaopt_knapsack_from_arrays(2, w.as_ptr(), w.as_ptr(), 2.0) });
    unsafe {
        metaopt_knapsack_free(k);
        metaopt_knapsack_free(k); // ignored
        let d = metaopt_knapsack_data(k);
        expect_error(d.error_code, d.error_message, INVALID, "knapsack");
    }
}
