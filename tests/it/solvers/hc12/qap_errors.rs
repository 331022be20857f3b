//! Bad input to the QAP solver gives errors that name the argument.

use crate::common::*;
use metaopt::hc12::qap::*;
use metaopt::problem::qap::{split_df, ElemType, QapMatrices, QapProblem};
use metaopt::Error;
use std::sync::Arc;

fn msg<T>(r: metaopt::Result<T>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn wrong_sizes_and_lengths() {
    let m = |len| QapMatrices::I32(vec![1; len], vec![1; 16]);
    assert!(msg(QapProblem::new("x", 4, 1, m(15))).contains("`A`"));
    assert!(msg(QapProblem::new(
        "x",
        4,
        1,
        QapMatrices::I32(vec![0; 16], vec![0; 12])
    ))
    .contains("`B`"));
    assert!(msg(QapProblem::new("x", 2049, 1, m(2049 * 2049))).contains("nElements"));
    assert!(msg(QapProblem::new("x", 1, 1, m(1))).contains("nElements"));
    assert!(msg(QapProblem::new("x", 4, 0, m(16))).contains("nSlices"));
    // DF: wrong length and a non-zero diagonal
    assert!(msg(split_df(4, 1, &[0i32; 15])).contains("DF"));
    let mut df = vec![0i64; 16];
    df[5] = 3;
    assert!(msg(split_df(4, 1, &df)).contains("diagonal"));
}

#[test]
fn hc12_refuses_instances_above_its_own_limit_naming_it() {
    // the problem takes n = 300 (the tabu search runs it); HC12 builds its rows' permutations in
    // private memory and says where its limit is
    let n = 300;
    let p = Arc::new(
        QapProblem::new("x", n, 1, QapMatrices::I32(vec![1; n * n], vec![1; n * n])).unwrap(),
    );
    for backend in [Backend::Cpu, Backend::Device(None)] {
        let e = msg(QapHc12::new(p.clone(), 4, 1, 0, 0, backend, CostForm::Full));
        assert!(
            e.contains("`n`") && e.contains("300") && e.contains("256") && e.contains("2048"),
            "{e}"
        );
    }
}

#[test]
fn integer_costs_that_could_overflow_64_bits_are_refused() {
    // 2^40 * 2^40 * 2 off-diagonal pairs: beyond i64, so the cost would wrap
    let big = 1i64 << 40;
    let (a, b) = split_df(2, 1, &[0, big, big, 0]).unwrap();
    let e = msg(QapProblem::new("x", 2, 1, QapMatrices::I64(a, b)));
    assert!(e.contains("`DF`") && e.contains("int64"), "{e}");
    let (a, b) = split_df(2, 1, &[0u64, 1 << 63, 1 << 63, 0]).unwrap();
    assert!(msg(QapProblem::new("x", 2, 1, QapMatrices::U64(a, b))).contains("uint64"));
    // int32 products are summed in 64 bits: six pairs of 2^31 - 1 can reach 2.8e19, beyond
    // i64; values of 2^30 stay within (6 * 2^60 < 2^63)
    let m = i32::MAX;
    let (a, b) = split_df(3, 1, &[0, m, m, m, 0, m, m, m, 0]).unwrap();
    assert!(msg(QapProblem::new("x", 3, 1, QapMatrices::I32(a, b))).contains("int32"));
    let m = 1 << 30;
    let (a, b) = split_df(3, 1, &[0, m, m, m, 0, m, m, m, 0]).unwrap();
    assert!(QapProblem::new("x", 3, 1, QapMatrices::I32(a, b)).is_ok());
    // and the bound is the smaller of the two products: one large flow, small distances
    let (a, b) = split_df(2, 1, &[0, 1, big * 1000, 0]).unwrap();
    assert!(QapProblem::new("x", 2, 1, QapMatrices::I64(a, b)).is_ok());
}

#[test]
fn split_df_puts_the_lower_triangle_in_a_and_the_upper_in_b() {
    // DF = [0 1 2; 3 0 4; 5 6 0]: lower (3,5,6) is A, upper (1,2,4) is B
    let (a, b) = split_df(3, 1, &[0, 1, 2, 3, 0, 4, 5, 6, 0]).unwrap();
    assert_eq!(a, vec![0, 3, 5, 3, 0, 6, 5, 6, 0]);
    assert_eq!(b, vec![0, 1, 2, 1, 0, 4, 2, 4, 0]);
}

#[test]
fn unknown_type_name_and_nan() {
    let e = ElemType::from_name("int16").unwrap_err();
    assert!(matches!(e, Error::UnsupportedType { .. }));
    assert!(e.to_string().contains("int16") && e.to_string().contains("float64"));
    for name in [
        "int32", "int64", "uint32", "uint64", "single", "float", "float32", "double", "float64",
    ] {
        ElemType::from_name(name).unwrap();
    }
    let mut a = vec![1.0f32; 16];
    a[3] = f32::NAN;
    assert!(msg(QapProblem::new(
        "x",
        4,
        1,
        QapMatrices::F32(a, vec![1.0; 16])
    ))
    .contains("NaN"));
    let b = vec![f64::INFINITY; 16];
    assert!(QapProblem::new("x", 4, 1, QapMatrices::F64(vec![1.0; 16], b)).is_err());
}

#[test]
fn solver_arguments() {
    let p = Arc::new(QapProblem::from_instance(&instance("had12")));
    let new = |swaps, order, start, len| {
        QapHc12::new(
            p.clone(),
            swaps,
            order,
            start,
            len,
            Backend::Cpu,
            CostForm::Delta,
        )
    };
    assert!(msg(new(0, 2, 0, 0)).contains("swaps"));
    assert!(msg(new(65, 2, 0, 0)).contains("swaps"));
    assert!(msg(new(2, 4, 0, 0)).contains("maskOrder"));
    assert!(msg(new(2, 2, 16, 0)).contains("startBit"));
    assert!(msg(new(2, 2, 4, 13)).contains("bitLength"));
    let mut s = new(2, 2, 4, 8).unwrap();
    // a window of 8 bits: 1 + 8 + 28 rows
    assert_eq!(s.rows(), 37);
    assert!(msg(s.run(Some(&[0; 12]), None)).contains("initOrder"));
    assert!(msg(s.run(None, Some(&[0; 3]))).contains("initK"));
    assert!(msg(s.run(None, Some(&[16, 0, 0, 0]))).contains("initK"));
    // 64 swaps at n = 256 is the documented maximum: about half a million rows
    let big = Arc::new(
        QapProblem::new(
            "big",
            256,
            1,
            QapMatrices::I32(vec![1; 65536], vec![1; 65536]),
        )
        .unwrap(),
    );
    let s = QapHc12::new(big, 64, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    assert_eq!(s.rows(), 1 + 1024 + 1024 * 1023 / 2);
}

#[test]
fn double_data_runs_where_fp64_exists() {
    let inst = instance("had12");
    let p = Arc::new(QapProblem::from_instance_as(&inst, ElemType::F64).unwrap());
    match QapHc12::new(p, 4, 2, 0, 0, Backend::Device(None), CostForm::Delta) {
        Ok(mut s) => {
            let r = s.run(None, None).unwrap();
            assert_eq!(r.cost.as_f64(), inst.cost(&r.order) as f64);
        }
        Err(e) => assert!(matches!(e, Error::Unsupported(_)), "{e}"),
    }
}

#[test]
fn malformed_dat_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.dat");
    std::fs::write(&p, "3\n\n1 2 3\n4 x 6\n").unwrap();
    let e = metaopt::problem::qap::QapInstance::from_dat(&p)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.dat") && e.contains(":4"), "{e}");
}
