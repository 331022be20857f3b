//! Sizes from callers checked against the memory of the whole run before anything is allocated
//! (`device::Footprint`): QIGA's populations, the SAT walks and batched DE, through the C ABI
//! and the Rust API. Each call used to abort (a failed allocation) or be killed for memory; now
//! it is `OutOfHostMemory` or `OutOfDeviceMemory` naming the argument. Each test runs in a
//! process of its own under a 4 GB address-space limit, so that the refusal does not depend on
//! the memory of the machine.

use crate::common::cabi::*;
use crate::common::child::own_process;
use metaopt::de::{BatchDe, BatchOptions, BatchProblem};
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::problem::sat::Cnf;
use metaopt::sat_sls::SatSls;
use metaopt::Error;
use std::ffi::CString;
use std::ptr;

const OUT_OF_HOST_MEMORY: i32 = MetaoptErrorCode::MetaoptErrOutOfHostMemory as i32;
const OUT_OF_DEVICE_MEMORY: i32 = MetaoptErrorCode::MetaoptErrOutOfDeviceMemory as i32;

/// Limits this process's address space to 4 GB (as `ulimit -v 4000000`).
fn limit_address_space() {
    let bytes = 4_000_000u64 * 1024;
    let rl = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct it is given.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &rl) }, 0);
}

fn is_out_of_memory(code: i32) -> bool {
    code == OUT_OF_HOST_MEMORY || code == OUT_OF_DEVICE_MEMORY
}

fn knapsack100() -> *mut MetaoptKnapsack {
    let path = crate::common::data_dir().join("knapsack/knapsack-100.txt");
    let c = CString::new(path.to_str().unwrap()).unwrap();
    let r = unsafe { metaopt_knapsack_from_file(c.as_ptr()) };
    assert_eq!(r.error_code, OK);
    r.knapsack
}

#[test]
fn qiga_with_u32_max_populations_on_the_cpu_is_out_of_host_memory() {
    own_process!();
    limit_address_space();
    let k = knapsack100();
    let mut o = metaopt_qiga_default_options();
    o.populations = u32::MAX;
    o.backend = 1;
    o.time_limit_s = 1.0;
    let r = unsafe { metaopt_qiga_run(k, &o) };
    let m = take_message(r.error_message);
    assert_eq!(r.error_code, OUT_OF_HOST_MEMORY, "{m}");
    assert!(m.contains("populations") && r.count == 0, "{m}");
    // a run the host can hold still runs
    o.populations = 4;
    o.generations = 3;
    o.time_limit_s = 0.0;
    let mut r = unsafe { metaopt_qiga_run(k, &o) };
    assert_eq!(r.error_code, OK);
    assert_eq!(r.count, 4);
    unsafe { metaopt_qiga_free_run_result(&mut r) };
    unsafe { metaopt_knapsack_free(k) };
}

fn uf50() -> Cnf {
    Cnf::from_file(&crate::common::data_dir().join("satlib/uf50-218/uf50-01.cnf")).unwrap()
}

#[test]
fn walks_the_host_cannot_hold_are_out_of_memory_on_both_backends() {
    own_process!();
    limit_address_space();
    for backend in [Backend::Cpu, Backend::Device(None)] {
        match SatSls::new(uf50(), Some(100_000_000), backend) {
            Err(Error::OutOfHostMemory(m) | Error::OutOfDeviceMemory(m)) => {
                assert!(m.contains("`walks`"), "{m}")
            }
            Err(e) => panic!("{backend:?}: {e}"),
            Ok(_) => panic!("{backend:?}: 10^8 walks were accepted"),
        }
    }
    // the C ABI
    let path = CString::new(
        crate::common::data_dir()
            .join("satlib/uf50-218/uf50-01.cnf")
            .to_str()
            .unwrap(),
    )
    .unwrap();
    let p = unsafe { metaopt_sat_parse(path.as_ptr()) };
    assert_eq!(p.error_code, OK);
    // the C ABI takes at most 2^24 walks: 2^24 on the CPU backend need about 60 GB
    let mut o = metaopt_sat_default_solve_options();
    o.walks = 1 << 24;
    o.max_flips = 10;
    o.backend = 1;
    let r = unsafe { metaopt_sat_solve(p.instance, &o) };
    let m = take_message(r.error_message);
    assert!(is_out_of_memory(r.error_code), "{}: {m}", r.error_code);
    assert!(m.contains("walks"), "{m}");
    unsafe { metaopt_sat_free(p.instance) };
}

#[test]
fn a_batch_too_large_as_a_whole_is_refused_at_creation() {
    own_process!();
    limit_address_space();
    // each problem alone fits (8 MB of population); the batch (80 GB) does not
    let lower = [-5.12f64];
    let upper = [5.12f64];
    let f1 = c"F1";
    let mut p = metaopt_batch_de_default_problem();
    p.function = f1.as_ptr();
    p.dims = 1000;
    p.members = 1000;
    p.lower = lower.as_ptr();
    p.lower_length = 1;
    p.upper = upper.as_ptr();
    p.upper_length = 1;
    let specs = vec![p; 10_000];
    for backend in [1, 0] {
        let mut o = metaopt_batch_de_default_options();
        o.backend = backend;
        let r = unsafe { metaopt_batch_de_create(specs.as_ptr(), specs.len() as u32, &o) };
        let m = take_message(r.error_message);
        assert!(r.instance.is_null(), "backend {backend}: created");
        assert!(is_out_of_memory(r.error_code), "{}: {m}", r.error_code);
        assert!(
            m.contains("problems") && m.contains("10000 problems"),
            "{m}"
        );
    }
    // one problem of those runs
    let r = unsafe { metaopt_batch_de_create(specs.as_ptr(), 1, ptr::null()) };
    assert_eq!(r.error_code, OK, "{}", take_message(r.error_message));
    unsafe { metaopt_batch_de_free(r.instance) };
}

#[test]
fn batch_problems_the_cli_would_repeat_are_checked_before_they_are_made() {
    own_process!();
    limit_address_space();
    let p = BatchProblem::new("F1", 2, -5.12, 5.12);
    let o = BatchOptions::default();
    match BatchDe::check_repeated(&p, 4_000_000_000, 200, Backend::Cpu, &o) {
        Err(Error::OutOfHostMemory(m)) => assert!(m.contains("`problems`"), "{m}"),
        r => panic!("{r:?}"),
    }
    BatchDe::check_repeated(&p, 1000, 200, Backend::Cpu, &o).unwrap();
}
