//! The QIGA C ABI called directly from Rust: `metaopt_qiga_run` against `Qiga::run` of the same
//! options bit for bit (values, strings, generations, statistics), the CPU backend against the
//! device, tuning runs over preset names and table texts, a stop token, and the errors naming the
//! C field.

use crate::common;
use crate::common::cabi::*;
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::problem::knapsack::Knapsack;
use metaopt::qiga::{Qiga, QigaOptions, QigaRunResult, Repair, RotationTable};
use std::ffi::{CStr, CString};
use std::ptr;

const INTERRUPTED: i32 = MetaoptErrorCode::MetaoptInterrupted as i32;

fn path250() -> std::path::PathBuf {
    common::data_dir().join("knapsack/knapsack-250.txt")
}

fn knapsack250() -> *mut MetaoptKnapsack {
    let c = CString::new(path250().to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_knapsack_from_file(c.as_ptr()) };
    assert_eq!(r.error_code, OK);
    r.knapsack
}

/// A C run copied out into the Rust result type (the C struct freed).
fn c_run(
    k: *mut MetaoptKnapsack,
    o: &MetaoptQigaOptions,
) -> Result<(QigaRunResult, i32), (i32, String)> {
    let mut r = unsafe { metaopt_qiga_run(k, o) };
    if r.error_code != OK && r.error_code != INTERRUPTED {
        assert!(r.best_value.is_null() && r.count == 0);
        return Err((r.error_code, take_message(r.error_message)));
    }
    let code = r.error_code;
    if code == INTERRUPTED {
        take_message(r.error_message);
        r.error_message = ptr::null_mut();
    }
    let n = r.count as usize;
    let m = r.items as usize;
    let s = |st: &MetaoptQigaStats| metaopt::qiga::QigaStats {
        count: st.count as usize,
        mean: st.mean,
        variance: st.variance,
        median: st.median,
        min: st.min,
        max: st.max,
    };
    let out = unsafe {
        QigaRunResult {
            population: std::slice::from_raw_parts(r.population, n).to_vec(),
            best_value: std::slice::from_raw_parts(r.best_value, n).to_vec(),
            best_value_int: std::slice::from_raw_parts(r.best_value_int, n).to_vec(),
            best_bits: std::slice::from_raw_parts(r.best_bits, n * m).to_vec(),
            best_generation: std::slice::from_raw_parts(r.best_generation, n).to_vec(),
            generations_run: std::slice::from_raw_parts(r.generations_run, n).to_vec(),
            items: m,
            stats: s(&r.stats),
            table_stats: std::slice::from_raw_parts(r.table_stats, r.tables_count as usize)
                .iter()
                .map(s)
                .collect(),
            best_index: r.best_index as usize,
            stop_reason: match r.stop_reason {
                1 => metaopt::interrupt::StopReason::Target,
                2 => metaopt::interrupt::StopReason::TimeLimit,
                3 => metaopt::interrupt::StopReason::Budget,
                _ => metaopt::interrupt::StopReason::Interrupted,
            },
            elapsed_s: r.elapsed_s,
            runs_per_second: r.runs_per_second,
            backend: CStr::from_ptr(r.backend).to_str().unwrap().to_string(),
        }
    };
    unsafe {
        metaopt_qiga_free_run_result(&mut r);
        metaopt_qiga_free_run_result(&mut r); // harmless twice
    }
    assert!(r.best_bits.is_null() && r.backend.is_null() && r.count == 0 && r.tables_count == 0);
    Ok((out, code))
}

fn assert_same(a: &QigaRunResult, b: &QigaRunResult) {
    assert_eq!(a.population, b.population);
    assert_eq!(a.best_value_int, b.best_value_int);
    // bit-identical values, not merely close ones
    assert_eq!(
        a.best_value.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        b.best_value.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    assert!(a.best_bits == b.best_bits, "best strings differ");
    assert_eq!(a.best_generation, b.best_generation);
    assert_eq!(a.generations_run, b.generations_run);
    assert_eq!(a.stats, b.stats);
    assert_eq!(a.table_stats, b.table_stats);
    assert_eq!(
        (a.best_index, a.stop_reason, a.items),
        (b.best_index, b.stop_reason, b.items)
    );
}

fn small() -> MetaoptQigaOptions {
    let mut o = metaopt_qiga_default_options();
    o.populations = 48;
    o.generations = 30;
    o.seed = 77;
    o
}

#[test]
fn defaults_are_the_papers() {
    let o = metaopt_qiga_default_options();
    assert_eq!(
        (
            o.populations,
            o.individuals,
            o.generations,
            o.table,
            o.repair,
            o.seed
        ),
        (1000, 10, 500, 0, 0, 1)
    );
    assert_eq!(
        (
            o.tables_count,
            o.devices_count,
            o.backend,
            o.has_target,
            o.time_limit_s
        ),
        (0, 0, 0, 0, 0.0)
    );
    assert!(o.tables.is_null() && o.devices.is_null() && o.stop_token.is_null());
}

#[test]
fn a_c_run_equals_the_rust_run_and_the_cpu_backend_the_device() {
    let _g = shared();
    let k = knapsack250();
    let rust_k = Knapsack::from_file(&path250()).unwrap();
    let o = small();
    let (dev, code) = c_run(k, &o).unwrap();
    assert_eq!(code, OK);
    assert_eq!(dev.population, (0..48).collect::<Vec<u32>>());
    let rust = Qiga::new(
        &rust_k,
        QigaOptions {
            populations: 48,
            stop: metaopt::run::Stop::budget(30),
            seed: 77,
            backend: Backend::Device(None),
            ..Default::default()
        },
    )
    .unwrap()
    .run()
    .unwrap();
    assert_same(&dev, &rust);
    let mut oc = o;
    oc.backend = MetaoptBackend::MetaoptBackendCpu as i32;
    let (cpu, _) = c_run(k, &oc).unwrap();
    assert_same(&dev, &cpu);
    assert!(
        cpu.backend.to_lowercase().contains("cpu"),
        "{}",
        cpu.backend
    );
    // every string is worth its value and fits
    for i in 0..dev.population.len() {
        let (p, w) = rust_k.value_and_weight(dev.bits(i));
        assert_eq!(p, dev.best_value_int[i]);
        assert!(w <= rust_k.int_capacity());
        assert!(dev.best_value[i] <= 1533.821142);
    }
    assert_eq!(dev.stats.count, 48);
    assert_eq!(dev.stats.max, dev.best_value[dev.best_index]);
    // an explicit device list gives the same
    let dev0 = [0u32];
    let mut od = o;
    od.devices = dev0.as_ptr();
    od.devices_count = 1;
    let (listed, _) = c_run(k, &od).unwrap();
    assert_same(&dev, &listed);
    unsafe { metaopt_knapsack_free(k) };
}

#[test]
fn a_tuning_run_over_names_and_texts_equals_the_rust_run() {
    let _g = shared();
    let k = knapsack250();
    let rust_k = Knapsack::from_file(&path250()).unwrap();
    let text = "0 1 1 10 -1 +1 +1 0\n1 0 0 2 -1 +1 +1 0   # a comment\n1 1 1 5 +1 -1 0 +1\n";
    let names = [
        CString::new("qea2002").unwrap(),
        CString::new(text).unwrap(),
    ];
    let ptrs: Vec<*const std::ffi::c_char> = names.iter().map(|c| c.as_ptr()).collect();
    let mut o = small();
    o.populations = 20;
    o.individuals = 7;
    o.tables = ptrs.as_ptr();
    o.tables_count = 2;
    o.pops_per_table = 5;
    o.pole_signs_random = 1;
    o.repair = MetaoptQigaRepair::MetaoptQigaRepairGreedy as i32;
    o.has_target = 1;
    o.target = 1400.0;
    let (c, _) = c_run(k, &o).unwrap();
    let rust = Qiga::new(
        &rust_k,
        QigaOptions {
            populations: 20,
            individuals: 7,
            stop: metaopt::run::Stop {
                budget: Some(30),
                target: Some(1400.0),
                ..metaopt::run::Stop::default()
            },
            seed: 77,
            tables: vec![
                RotationTable::qea2002().with_random_pole_signs(),
                RotationTable::parse(text).unwrap().with_random_pole_signs(),
            ],
            pops_per_table: 5,
            repair: Repair::Greedy,
            ..Default::default()
        },
    )
    .unwrap()
    .run()
    .unwrap();
    assert_same(&c, &rust);
    assert_eq!(c.table_stats.len(), 2);
    assert_eq!(c.table_stats.iter().map(|s| s.count).sum::<usize>(), 20);
    unsafe { metaopt_knapsack_free(k) };
}

#[test]
fn a_requested_stop_token_returns_interrupted_with_a_filled_result() {
    let _g = shared();
    let k = knapsack250();
    let t = metaopt_stop_token_create();
    unsafe { metaopt_stop_token_request(t) };
    let mut o = small();
    o.stop_token = t;
    let (r, code) = c_run(k, &o).unwrap();
    assert_eq!(code, INTERRUPTED);
    assert_eq!(r.stop_reason, metaopt::interrupt::StopReason::Interrupted);
    assert!(r.population.len() < 48);
    unsafe {
        metaopt_stop_token_free(t);
        metaopt_knapsack_free(k);
    }
}

#[test]
fn errors_name_the_field() {
    let _g = shared();
    let k = knapsack250();
    let err = |o: MetaoptQigaOptions| c_run(k, &o).unwrap_err();
    let check = |(code, msg): (i32, String), want: i32, needle: &str| {
        assert_eq!(code, want, "{msg}");
        assert!(msg.contains(needle), "`{msg}` should mention `{needle}`");
    };
    let r = unsafe { metaopt_qiga_run(ptr::null_mut(), ptr::null()) };
    expect_error(r.error_code, r.error_message, NULL, "knapsack");
    let mut o = small();
    o.table = 2;
    check(err(o), INVALID, "table");
    let mut o = small();
    o.repair = -1;
    check(err(o), INVALID, "repair");
    let mut o = small();
    o.backend = 7;
    check(err(o), INVALID, "backend");
    let mut o = small();
    o.tables_count = 2;
    check(err(o), NULL, "tables");
    let bad = [
        CString::new("gqa2000").unwrap(),
        CString::new("0 1 1 999 -1 +1 +1 0").unwrap(),
    ];
    let ptrs: Vec<*const std::ffi::c_char> = bad.iter().map(|c| c.as_ptr()).collect();
    let mut o = small();
    o.tables = ptrs.as_ptr();
    o.tables_count = 2;
    check(err(o), INVALID, "tables[1]");
    let nulls = [ptr::null::<std::ffi::c_char>()];
    o.tables = nulls.as_ptr();
    o.tables_count = 1;
    check(err(o), NULL, "tables");
    let mut o = small();
    o.has_target = 1;
    o.target = f64::NAN;
    check(err(o), INVALID, "target");
    let mut o = small();
    o.has_target = 2;
    check(err(o), INVALID, "has_target");
    let mut o = small();
    o.pole_signs_random = 3;
    check(err(o), INVALID, "pole_signs_random");
    for t in [f64::NAN, -1.0, f64::INFINITY, 1e300] {
        let mut o = small();
        o.time_limit_s = t;
        check(err(o), INVALID, "time_limit_s");
    }
    let mut o = small();
    o.populations = 0;
    check(err(o), INVALID, "populations");
    let mut o = small();
    o.individuals = 5000;
    check(err(o), INVALID, "individuals");
    let mut o = small();
    o.devices_count = 1;
    check(err(o), NULL, "devices");
    let twice = [0u32, 0];
    o.devices = twice.as_ptr();
    o.devices_count = 2;
    check(err(o), INVALID, "devices");
    let far = [999u32];
    o.devices = far.as_ptr();
    o.devices_count = 1;
    assert!(c_run(k, &o).is_err());
    // a knapsack handle of the wrong kind
    let t = metaopt_stop_token_create();
    let r = unsafe { metaopt_qiga_run(t.cast(), &small()) };
    expect_error(r.error_code, r.error_message, INVALID, "MetaoptKnapsack");
    let mut o = small();
    o.stop_token = k.cast();
    check(err(o), INVALID, "stop_token");
    unsafe {
        metaopt_stop_token_free(t);
        metaopt_knapsack_free(k);
    }
}
