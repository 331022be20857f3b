//! Reliability: each test makes a call that used to abort, panic, hang or outlast its
//! time limit, and checks that it now ends in time or with a clean, named error. Sizes are kept
//! small enough for PoCL on two shared cores; timing margins are generous.

use crate::common::cabi::*;
use metaopt::de::{BoundsCorrection, DeMultiPop, DeParams, Migration, Mutation};
use metaopt::device::Backend;
use metaopt::ffi::*;
use metaopt::hc12::qap::solve::{solve, QapSolveOptions};
use metaopt::hc12::qap::{CostForm, QapHc12};
use metaopt::objective::{HostCallback, Objective};
use metaopt::problem::qap::{QapInstance, QapMatrices, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions};
use metaopt::run::Stop;
use metaopt::{time_limit_from_secs, Error};
use std::ffi::{c_void, CString};
use std::ptr;
use std::sync::Arc;
use std::time::{Duration, Instant};

const OUT_OF_DEVICE_MEMORY: i32 = MetaoptErrorCode::MetaoptErrOutOfDeviceMemory as i32;

fn f1() -> MetaoptObjective {
    MetaoptObjective {
        kind: 0,
        function_name: c"F1".as_ptr(),
        source: ptr::null(),
        callback: None,
        user_data: ptr::null_mut(),
    }
}

/// The margin a time-limited call may take beyond its limit: one short launch, plus the slack of
/// a CPU device shared with other tests.
const MARGIN: Duration = Duration::from_secs(4);

/// The tests of this file one at a time: most time a solver against a limit, and a test that
/// builds kernels beside a timed one (PoCL builds on first use, both cores busy on a cold cache)
/// delayed a timed launch by seconds in a fresh-clone CI run.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

// ---- F1: sizes are checked before anything of their size is allocated -----------------------

#[test]
fn f1_hc12_params_with_one_value_for_all_and_a_huge_n_is_an_error() {
    let _g = serial();
    let _g = shared();
    let bits = 1u32;
    let dod = [-1.0, 1.0];
    // used to expand nBitParam to 2^32 - 1 words and abort on `memory allocation ... failed`
    let r = unsafe {
        metaopt_hc12_params(0xFFFF_FFFF, &bits, 1, dod.as_ptr(), 2, 2, 0, 0, 2, 0, &f1())
    };
    assert!(r.instance.is_null());
    expect_error(r.error_code, r.error_message, INVALID, "nParam");
    // one value for all with many bits: the total is checked before expanding
    let bits = 32u32;
    let r =
        unsafe { metaopt_hc12_params(1 << 20, &bits, 1, dod.as_ptr(), 2, 2, 0, 0, 2, 0, &f1()) };
    expect_error(r.error_code, r.error_message, INVALID, "2^24 bits");
}

#[test]
fn f1_failed_host_allocations_are_out_of_host_memory() {
    let _g = serial();
    let e = metaopt::error::try_filled(usize::MAX / 8, 0u64, "x").unwrap_err();
    assert!(matches!(e, Error::OutOfHostMemory(_)), "{e}");
    assert_eq!(e.code(), MetaoptErrorCode::MetaoptErrOutOfHostMemory as i32);
    assert_eq!(e.code(), 17);
    assert!(metaopt::error::size_product("dims", &[1 << 40, 1 << 40]).is_err());
}

// ---- F3: one time-limit validator ---------------------------------------------------------

#[test]
fn f3_absurd_time_limits_are_refused_everywhere() {
    let _g = serial();
    for bad in [1e19, 1e20, 1e300, f64::INFINITY, f64::NAN, -1.0] {
        assert_eq!(
            time_limit_from_secs(bad, "t").unwrap_err().code(),
            INVALID,
            "{bad}"
        );
    }
    let _g = shared();
    // metaopt_de_run with time_limit = 1e19 used to be accepted and never end
    let b = CString::new("sat").unwrap();
    let lim = [-1.0, 1.0];
    let r = unsafe { metaopt_de_create(2, 8, 2, lim.as_ptr(), 2, b.as_ptr(), ptr::null()) };
    assert_eq!(r.error_code, OK);
    let h = r.instance;
    let m = CString::new("DE/rand/1").unwrap();
    expect_ok(unsafe { metaopt_de_init(h, &f1(), m.as_ptr(), ptr::null(), 0, ptr::null()) });
    for bad in [1e19, f64::INFINITY, -2.0] {
        let stop = MetaoptDeStop {
            time_limit: bad,
            ..metaopt_de_default_stop()
        };
        let r = unsafe { metaopt_de_run(h, &stop) };
        expect_error(r.error_code, r.error_message, INVALID, "stop.time_limit");
    }
    // a target alone may never be reached: refused without a stop token
    let stop = MetaoptDeStop {
        has_target: 1,
        target: -1.0,
        ..metaopt_de_default_stop()
    };
    let r = unsafe { metaopt_de_run(h, &stop) };
    expect_error(r.error_code, r.error_message, INVALID, "stop");
    unsafe { metaopt_de_free(h) };
}

#[test]
fn f4_hc12_run_with_no_stop_that_ends_is_refused() {
    let _g = serial();
    let _g = shared();
    let bits = 8u32;
    let dod = [-1.0, 1.0];
    let r = unsafe { metaopt_hc12_params(2, &bits, 1, dod.as_ptr(), 2, 2, 0, 0, 2, 0, &f1()) };
    assert_eq!(r.error_code, OK);
    let h = r.instance;
    // 2^31 - 1 runs, no time limit, no stop token: accepted before and never ended
    let o = MetaoptHc12RunOptions {
        runs: i32::MAX as u32,
        ..metaopt_hc12_default_run_options()
    };
    let r = unsafe { metaopt_hc12_run(h, &o) };
    expect_error(r.error_code, r.error_message, INVALID, "runs");
    unsafe { metaopt_hc12_free(h) };
    // the Rust rule: runs = 0 with only a target needs a time limit or a stop token
    let stop = Stop {
        target: Some(-1e300),
        ..Stop::default()
    };
    assert!(metaopt::hc12::restarts::check(&stop, "runs")
        .unwrap_err()
        .to_string()
        .contains("time limit or a stop token"));
}

// ---- F8: size products are checked -------------------------------------------------------

#[test]
fn f8_de_create_sizes_do_not_wrap() {
    let _g = serial();
    let _g = shared();
    let b = CString::new("sat").unwrap();
    let lim = [-1.0, 1.0];
    // members + 1 wrapped to 0 in the message (and would panic in a debug build)
    let r = unsafe { metaopt_de_create(1, u32::MAX, 1, lim.as_ptr(), 2, b.as_ptr(), ptr::null()) };
    let m = take_message(r.error_message);
    assert_eq!(r.error_code, INVALID, "{m}");
    assert!(m.contains("4294967296") && !m.contains(" x 0 x "), "{m}");
    // 65536 x 16777216 x 16777216 = 2^64 wrapped to 0 and passed the size check
    let r = unsafe {
        metaopt_de_create(
            65536,
            16_777_215,
            16_777_216,
            lim.as_ptr(),
            2,
            b.as_ptr(),
            ptr::null(),
        )
    };
    expect_error(r.error_code, r.error_message, INVALID, "at most 2^31");
}

// ---- F6: device buffers are checked against the device and the host --------------------------

#[test]
fn f6_a_buffer_that_cannot_fit_is_an_error_before_the_driver_sees_it() {
    let _g = serial();
    let _g = shared();
    let ctx = Backend::DEVICE.context("test").unwrap();
    let info = &ctx.info;
    let too_big = info
        .max_alloc_bytes
        .max(info.global_mem_bytes)
        .saturating_add(1 << 30);
    let e = metaopt::device::check_fits(info, too_big, "X").unwrap_err();
    assert!(matches!(e, Error::OutOfDeviceMemory(_)), "{e}");
    if info.kind == metaopt::device::DeviceKind::Cpu {
        let avail = metaopt::device::host_memory_available().expect("Linux has /proc/meminfo");
        let e = metaopt::device::check_fits(
            info,
            avail
                .saturating_add(1 << 30)
                .min(info.max_alloc_bytes.max(1)),
            "X",
        );
        if avail.saturating_add(1 << 30) <= info.max_alloc_bytes {
            assert!(e.is_err());
        }
    }
    // the reported case: 64 x 32769 x 1023 doubles (17 GB per matrix) on a device (or host)
    // that cannot hold them is refused at creation, not an abort inside the driver at init
    let total = 64u64 * 32769 * 1023 * 8;
    if info.max_alloc_bytes < total
        || info.global_mem_bytes < total
        || metaopt::device::host_memory_available().is_some_and(|a| a < total)
    {
        let b = CString::new("sat").unwrap();
        let lim = [-1.0, 1.0];
        let o = MetaoptDeOptions {
            double_precision: 1,
            ..metaopt_de_default_options()
        };
        let r = unsafe { metaopt_de_create(64, 32768, 1023, lim.as_ptr(), 2, b.as_ptr(), &o) };
        expect_error(
            r.error_code,
            r.error_message,
            OUT_OF_DEVICE_MEMORY,
            "buffer `X`",
        );
    }
}

// ---- F5: non-finite objective values -----------------------------------------------------

#[test]
fn f5_float_qap_data_whose_cost_can_overflow_is_refused() {
    let _g = serial();
    let a = vec![1e308; 16];
    let e = QapProblem::new("x", 4, 1, QapMatrices::F64(a, vec![1.0; 16])).unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
    let e =
        QapProblem::new("x", 4, 1, QapMatrices::F32(vec![3e38; 16], vec![-1.0; 16])).unwrap_err();
    assert!(e.to_string().contains("float32"), "{e}");
    // ordinary data passes
    QapProblem::new("x", 4, 1, QapMatrices::F32(vec![1e3; 16], vec![1e3; 16])).unwrap();
}

#[test]
fn f5_an_objective_of_only_nan_is_an_error_and_nan_never_wins() {
    let _g = serial();
    // DE, host callback: NaN everywhere is a named error, not `best value inf`
    let nan = Objective::Callback(HostCallback::new(|_x, _rows, _dims, out| {
        out.fill(f64::NAN);
        Ok(())
    }));
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let p = DeParams::new(2, 8, 3, -1.0, 1.0, BoundsCorrection::Saturation);
        let mut de = DeMultiPop::new(&p, backend).unwrap();
        de.init(&nan, Mutation::Rand1, Migration::NONE).unwrap();
        let e = de.run(&Stop::budget(3)).unwrap_err();
        assert!(matches!(e, Error::NonFiniteObjective(_)), "{e}");
        assert_eq!(e.code(), 18);
    }
    // DE, NaN for some members only: the best is finite and is a member's value
    let some = Objective::Callback(HostCallback::new(|x, rows, dims, out| {
        for r in 0..rows {
            out[r] = if x[r * dims] > 0.0 {
                f64::NAN
            } else {
                x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum()
            };
        }
        Ok(())
    }));
    let p = DeParams::new(2, 16, 3, -1.0, 1.0, BoundsCorrection::Saturation);
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(&some, Mutation::Rand1, Migration::NONE).unwrap();
    let r = de.run(&Stop::budget(5)).unwrap();
    assert!(
        r.value.is_finite() && r.x[0] <= 0.0,
        "{} at {:?}",
        r.value,
        r.x
    );
    // general HC12, OpenCL objective returning NaN: an error, not `best value NaN`
    use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
    let src = "FP objective(__global const FP *x, uint dims, uint stride, __global const void *data) { return NAN; }";
    let obj = Objective::source(src, Vec::new());
    let mut s = Hc12::new(Hc12Params::real(2, 8, -1.0, 1.0), obj, Backend::DEVICE).unwrap();
    let e = s
        .run(&RunOptions {
            stop: Stop {
                budget: Some(2),
                ..Stop::default()
            },
            ..Default::default()
        })
        .unwrap_err();
    assert!(matches!(e, Error::NonFiniteObjective(_)), "{e}");
}

// ---- F4 + F7: time limits hold on large instances ------------------------------------------

fn tai256c() -> Arc<QapProblem> {
    let inst = QapInstance::from_dat(&crate::common::qaplib().join("tai256c.dat")).unwrap();
    Arc::new(QapProblem::from_instance(&inst))
}

#[test]
fn f4_hc12_qap_mask_order_3_on_tai256c_stops_at_its_limit() {
    let _g = serial();
    // 64 swaps, mask order 3: 178,957,825 rows a step, minutes in one launch on a CPU device
    let mut s = QapHc12::new(tai256c(), 64, 3, 0, 0, Backend::DEVICE, CostForm::Delta).unwrap();
    let limit = Duration::from_secs(1);
    let opts = QapSolveOptions {
        stop: Stop {
            time_limit: Some(limit),
            target: None,
            token: None,
            ..Stop::default()
        },
        ..Default::default()
    };
    let t = Instant::now();
    let r = solve(&mut s, &opts, None, |_| {}).unwrap();
    let took = t.elapsed();
    assert!(took <= limit + MARGIN, "took {took:?}");
    assert_eq!(r.stop, metaopt::StopReason::TimeLimit);
}

#[test]
fn f4_tabu_search_with_unlimited_iterations_stops_at_its_limit() {
    let _g = serial();
    let mut s = QapTs::new(tai256c(), Backend::DEVICE).unwrap();
    let limit = Duration::from_secs(1);
    // one launch of 100000 iterations of 8 chains of n = 256 used to outlast the limit by minutes
    let opts = QapTsOptions {
        chains: 8,
        stop: metaopt::run::Stop {
            time_limit: Some(limit),
            ..metaopt::run::Stop::default()
        },
        launch_iterations: 100_000,
        ..Default::default()
    };
    let t = Instant::now();
    let r = s.solve(&opts).unwrap();
    let took = t.elapsed();
    assert!(took <= limit + MARGIN, "took {took:?}");
    assert!(r.iterations > 0 && r.stop == metaopt::StopReason::TimeLimit);
}

#[test]
fn f4_de_stops_at_its_limit() {
    let _g = serial();
    let p = DeParams::new(4, 256, 256, -5.0, 5.0, BoundsCorrection::Saturation);
    let mut de = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    de.init(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
    )
    .unwrap();
    let limit = Duration::from_millis(700);
    let t = Instant::now();
    let r = de
        .run(&Stop {
            time_limit: Some(limit),
            ..Stop::default()
        })
        .unwrap();
    let took = t.elapsed();
    assert!(took <= limit + MARGIN, "took {took:?}");
    assert!(format!("{:?}", r.stopped_by).contains("TimeLimit"));
}

/// 4 islands x 2048 members in 1024 dimensions: on PoCL (two shared cores) one generation, and
/// the initial population, take seconds, and used to be single launches.
fn big_de(backend: Backend) -> DeMultiPop {
    let p = DeParams::new(4, 2048, 1024, -5.0, 5.0, BoundsCorrection::Saturation);
    DeMultiPop::new(&p, backend).unwrap()
}

/// The sphere (F1) on the host, for checking a reported best against its vector.
fn sphere(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

#[test]
fn f4_de_set_up_and_a_long_generation_stop_at_the_limit() {
    let _g = serial();
    // the programs built and their kernels compiled beforehand (PoCL takes seconds on a cold
    // cache): these limits are for the population and the generations. The same shape of island
    // (2048 members, whose population does not fit local memory) in fewer dimensions builds the
    // same programs.
    let p = DeParams::new(4, 2048, 64, -5.0, 5.0, BoundsCorrection::Saturation);
    let mut warm = DeMultiPop::new(&p, Backend::DEVICE).unwrap();
    warm.init(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
    )
    .unwrap();
    warm.run(&Stop::budget(2)).unwrap();
    let mut de = big_de(Backend::DEVICE);
    // the initial values alone take about 1.2 s: this limit passes during the evaluation
    let limit = Duration::from_secs(3);
    let t = Instant::now();
    let evaluated = de
        .init_within(
            &Objective::catalogue("F1").unwrap(),
            Mutation::Rand1,
            Migration::NONE,
            None,
            Some(limit),
            None,
        )
        .unwrap();
    let took = t.elapsed();
    eprintln!(
        "DE init under 3 s: {took:?}, {evaluated} of {} members evaluated",
        4 * 2048
    );
    assert!(took <= limit + MARGIN, "init took {took:?}");
    assert!(evaluated > 0 && evaluated == de.evaluations());
    // a run that goes on: its generations (seconds each) are cut at the limit
    let limit = Duration::from_secs(1);
    let t = Instant::now();
    let r = de
        .run(&Stop {
            time_limit: Some(limit),
            ..Stop::default()
        })
        .unwrap();
    let took = t.elapsed();
    eprintln!(
        "DE run under 1 s: {took:?}, {} generations, {} evaluations",
        r.generations, r.evaluations
    );
    assert!(took <= limit + MARGIN, "run took {took:?}");
    assert_eq!(r.stopped_by, metaopt::de::StopReason::TimeLimit);
    assert!(r.evaluations >= evaluated);
    // the best reported is a member's, with its own value
    assert!(r.value.is_finite());
    assert!(
        (sphere(&r.x) - r.value).abs() <= 1e-9 * r.value.abs().max(1.0),
        "{} vs {}",
        sphere(&r.x),
        r.value
    );
    let bests = de.bests_fitness().unwrap();
    assert_eq!(bests.iter().copied().fold(f64::INFINITY, f64::min), r.value);
    // the state stays usable: a second run goes on from it and never gets worse
    let r2 = de
        .run(&Stop {
            time_limit: Some(Duration::from_millis(300)),
            ..Stop::default()
        })
        .unwrap();
    assert!(r2.value <= r.value && r2.evaluations >= r.evaluations);
    assert!((sphere(&r2.x) - r2.value).abs() <= 1e-9 * r2.value.abs().max(1.0));
}

#[test]
fn f4_de_a_slow_evaluation_is_cut_in_the_middle() {
    let _g = serial();
    // a host callback of 2 ms a member: 2 x 512 members make an evaluation of about 2 s, while
    // the trials take no time; the limit cuts the initial evaluation and then a generation's
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let obj = Objective::callback(|x, rows, dims, out| {
            std::thread::sleep(Duration::from_millis(2) * rows as u32);
            for (r, o) in out.iter_mut().enumerate() {
                *o = sphere(&x[r * dims..(r + 1) * dims]);
            }
            Ok(())
        });
        let p = DeParams::new(2, 512, 4, -5.0, 5.0, BoundsCorrection::Saturation);
        // every kernel of this shape compiled beforehand by a quick callback (PoCL compiles a
        // kernel at its first launch: seconds on a cold cache), so the limits below time the run
        let quick = Objective::callback(|x, rows, dims, out| {
            for (r, o) in out.iter_mut().enumerate().take(rows) {
                *o = sphere(&x[r * dims..(r + 1) * dims]);
            }
            Ok(())
        });
        let mut warm = DeMultiPop::new(&p, backend).unwrap();
        warm.init(&quick, Mutation::Rand1, Migration::NONE).unwrap();
        warm.run(&Stop::budget(2)).unwrap();
        let limit = Duration::from_millis(700);
        // and the launches of a cut generation (pieces at an offset: PoCL builds a kernel for
        // each launch shape at its first use, seconds when the other tests of this binary
        // build theirs at the same time), untimed
        let mut warm = DeMultiPop::new(&p, backend).unwrap();
        warm.init_within(
            &obj,
            Mutation::Rand1,
            Migration::NONE,
            None,
            Some(limit),
            None,
        )
        .unwrap();
        for _ in 0..2 {
            warm.run(&Stop {
                time_limit: Some(limit),
                ..Stop::default()
            })
            .unwrap();
        }
        let mut de = DeMultiPop::new(&p, backend).unwrap();
        let t = Instant::now();
        let evaluated = de
            .init_within(
                &obj,
                Mutation::Rand1,
                Migration::NONE,
                None,
                Some(limit),
                None,
            )
            .unwrap();
        let took = t.elapsed();
        eprintln!(
            "DE {backend:?} callback init under 0.7 s: {took:?}, {evaluated} of 1024 evaluated"
        );
        assert!(took <= limit + MARGIN, "init took {took:?}");
        assert!(evaluated > 0 && evaluated < 1024, "{evaluated}");
        let mut last = f64::INFINITY;
        for _ in 0..2 {
            let t = Instant::now();
            let r = de
                .run(&Stop {
                    time_limit: Some(limit),
                    ..Stop::default()
                })
                .unwrap();
            let took = t.elapsed();
            eprintln!(
                "DE {backend:?} callback run under 0.7 s: {took:?}, {} generations, {} evaluations",
                r.generations, r.evaluations
            );
            assert!(took <= limit + MARGIN, "run took {took:?}");
            assert_eq!(
                (r.stopped_by, r.generations),
                (metaopt::de::StopReason::TimeLimit, 0)
            );
            // the generation was cut in its evaluation: some trials selected, the state whole
            assert!(
                r.evaluations > evaluated,
                "{} after {evaluated}",
                r.evaluations
            );
            assert!(
                r.value <= last && r.value == sphere(&r.x),
                "{} vs {}",
                r.value,
                sphere(&r.x)
            );
            last = r.value;
        }
        // and a whole generation still runs from there
        de.iteration().unwrap();
        assert_eq!(de.generation(), 1);
    }
}

#[test]
fn f4_de_limit_passing_during_set_up_is_clean() {
    let _g = serial();
    let mut de = big_de(Backend::DEVICE);
    let limit = Duration::from_millis(1);
    let t = Instant::now();
    let r = de.init_within(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        None,
        Some(limit),
        None,
    );
    let took = t.elapsed();
    eprintln!("DE init under 1 ms: {took:?}, {r:?}");
    assert!(took <= limit + MARGIN, "init took {took:?}");
    match r {
        // the population was made but only partly evaluated: a run ends at once with the best
        // of the members evaluated
        Ok(n) => {
            assert!(n > 0 && n < 4 * 2048, "{n}");
            let r = de
                .run(&Stop {
                    time_limit: Some(limit),
                    ..Stop::default()
                })
                .unwrap();
            assert_eq!(r.stopped_by, metaopt::de::StopReason::TimeLimit);
            assert_eq!(r.generations, 0);
            assert!(
                r.value.is_finite() && (sphere(&r.x) - r.value).abs() <= 1e-9 * r.value.max(1.0)
            );
        }
        // the limit passed before the population was made (during the kernels' build, or
        // after it): a named error, no objective
        Err(e) => {
            assert!(
                matches!(e, Error::TimeLimit(_)) && e.to_string().contains("set-up"),
                "{e}"
            );
            assert!(de.run(&Stop::budget(1)).is_err());
        }
    }
}

#[test]
fn f4_de_cpu_generation_stops_at_the_limit() {
    let _g = serial();
    let mut de = big_de(Backend::Cpu);
    let limit = Duration::from_millis(500);
    let t = Instant::now();
    de.init_within(
        &Objective::catalogue("F1").unwrap(),
        Mutation::Rand1,
        Migration::NONE,
        None,
        Some(limit),
        None,
    )
    .unwrap();
    let r = de
        .run(&Stop {
            time_limit: Some(limit),
            ..Stop::default()
        })
        .unwrap();
    let took = t.elapsed();
    eprintln!(
        "DE CPU init + run under 0.5 s each: {took:?}, {} generations",
        r.generations
    );
    assert!(took <= 2 * limit + MARGIN, "took {took:?}");
    assert!(r.value.is_finite() && (sphere(&r.x) - r.value).abs() <= 1e-9 * r.value.max(1.0));
}

#[test]
fn f4_de_in_pieces_gives_the_same_run() {
    let _g = serial();
    // a stop token makes every phase come in pieces; the numbers must not change
    for backend in [Backend::DEVICE, Backend::Cpu] {
        let run = |token: Option<metaopt::StopToken>| {
            let p = DeParams::new(3, 300, 40, -5.0, 5.0, BoundsCorrection::Halfway);
            let mut de = DeMultiPop::new(&p, backend).unwrap();
            de.init_within(
                &Objective::catalogue("F8").unwrap(),
                Mutation::CurrentToBest1,
                Migration::new(metaopt::de::MigrationKind::N2N, 3),
                None,
                None,
                token.as_ref(),
            )
            .unwrap();
            let r = de
                .run(&Stop {
                    budget: Some(7),
                    token,
                    ..Stop::default()
                })
                .unwrap();
            (r.value, r.x, de.fitness().unwrap(), de.trials().unwrap())
        };
        let (whole, pieces) = (run(None), run(Some(metaopt::StopToken::new())));
        assert_eq!(whole.0.to_bits(), pieces.0.to_bits());
        assert_eq!(whole.1, pieces.1);
        assert_eq!(whole.2, pieces.2);
        assert_eq!(whole.3, pieces.3);
    }
}

#[test]
fn f4_sat_stops_at_its_limit() {
    let _g = serial();
    use metaopt::hc12::sat::{SatOptions, SatSolver};
    use metaopt::problem::sat::Cnf;
    // a random 3-SAT formula of 60000 variables at ratio 4.26, mask order 2: 1.8e9 rows a step
    let n = 60_000usize;
    let mut rng = metaopt::rng::Philox::new(5, 0);
    let clauses: Vec<Vec<i32>> = (0..(n as f64 * 4.26) as usize)
        .map(|_| {
            (0..3)
                .map(|_| {
                    let v = rng.below(n as u32) as i32 + 1;
                    if rng.next_u32() & 1 == 0 {
                        v
                    } else {
                        -v
                    }
                })
                .collect()
        })
        .collect();
    let cnf = Cnf::from_clauses("random", n, &clauses).unwrap();
    let mut s = SatSolver::new(cnf, 2, 0, Backend::DEVICE).unwrap();
    let limit = Duration::from_secs(1);
    let opts = SatOptions {
        tabu: None,
        stop: Stop {
            time_limit: Some(limit),
            target: None,
            token: None,
            ..Stop::default()
        },
        ..Default::default()
    };
    let t = Instant::now();
    s.solve(&opts).unwrap();
    let took = t.elapsed();
    assert!(took <= limit + MARGIN, "took {took:?}");
}

#[test]
fn f4_sat_set_up_of_a_big_formula_counts_in_the_limit() {
    let _g = serial();
    use metaopt::hc12::sat::{SatOptions, SatSolver};
    use metaopt::interrupt::{Clock, Cut, Watch};
    use metaopt::problem::sat::Cnf;
    // 2^21 variables, 8.9e6 random 3-clauses: indexing and uploading take seconds on PoCL
    let n = 1usize << 21;
    let mut rng = metaopt::rng::Philox::new(9, 0);
    let mut lit = || {
        let v = rng.below(n as u32) as i32 + 1;
        if rng.next_u32() & 1 == 0 {
            v
        } else {
            -v
        }
    };
    let clauses: Vec<[i32; 3]> = (0..(n as f64 * 4.26) as usize)
        .map(|_| [lit(), lit(), lit()])
        .collect();
    let cnf = Cnf::from_clauses("random", n, &clauses).unwrap();
    drop(clauses);
    let limit = Duration::from_millis(300);
    let t0 = Instant::now();
    let cut = Cut {
        clock: Clock::since(t0, Some(limit)),
        watch: Watch::new(None),
    };
    let r = SatSolver::new_within(cnf, 1, 0, Backend::DEVICE, Some(&cut)).and_then(|mut s| {
        let stop = Stop {
            time_limit: Some(limit),
            target: None,
            token: None,
            ..Stop::default()
        };
        s.solve(&SatOptions {
            tabu: None,
            stop,
            since: Some(t0),
            ..Default::default()
        })
    });
    let took = t0.elapsed();
    eprintln!(
        "SAT set-up + solve of 2^21 variables under 0.3 s: {took:?}, {:?}",
        r.as_ref().map(|r| (r.stop, r.best_unsatisfied))
    );
    assert!(took <= limit + MARGIN, "took {took:?}");
    match r {
        Err(e) => assert!(
            matches!(e, Error::TimeLimit(_)) && e.to_string().contains("set-up"),
            "{e}"
        ),
        Ok(r) => assert_eq!(r.stop, metaopt::StopReason::TimeLimit),
    }
}

#[test]
fn f9_a_negative_bit_length_is_refused() {
    let _g = serial();
    let _g = shared();
    // once silently "to the end", like 0
    assert!(metaopt::hc12::Neighbourhood::new(4, 8, 2, 0, -1)
        .unwrap_err()
        .to_string()
        .contains("bitLength"));
    let bits = 8u32;
    let dod = [-1.0, 1.0];
    let r = unsafe { metaopt_hc12_params(2, &bits, 1, dod.as_ptr(), 2, 2, 0, -1, 2, 0, &f1()) };
    assert!(r.instance.is_null());
    expect_error(r.error_code, r.error_message, INVALID, "bitLength");
    let r = unsafe { metaopt_hc12_params(2, &bits, 1, dod.as_ptr(), 2, 2, -3, 0, 2, 0, &f1()) };
    expect_error(r.error_code, r.error_message, INVALID, "startBit");
    let t = tai256c();
    let e = QapHc12::new(t, 4, 2, 0, -5, Backend::DEVICE, CostForm::Delta)
        .err()
        .unwrap();
    assert!(e.to_string().contains("bitLength"), "{e}");
}

#[allow(dead_code)]
fn unused(_: *mut c_void) {}
