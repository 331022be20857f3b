//! The device layer on the machine's OpenCL devices (PoCL's CPU device in CI).

use metaopt::device::*;
use metaopt::Error;

#[test]
fn devices_are_listed_gpus_first_and_numbered() {
    let devs = list_devices().unwrap();
    assert!(
        !devs.is_empty(),
        "no OpenCL device; install pocl-opencl-icd"
    );
    for (i, d) in devs.iter().enumerate() {
        assert_eq!(d.index, i);
        assert!(!d.name.is_empty() && d.compute_units > 0 && d.global_mem_bytes > 0);
    }
    assert!(
        devs.windows(2).all(|w| w[0].kind <= w[1].kind),
        "GPUs first"
    );
    assert_eq!(get_device_number().unwrap(), 0);
}

#[test]
fn bad_device_numbers_are_errors() {
    let n = list_devices().unwrap().len() as i32;
    let e = set_device_number(n).unwrap_err();
    assert!(
        matches!(e, Error::InvalidArgument { .. }) && e.to_string().contains("does not exist"),
        "{e}"
    );
    assert!(set_device_number(-1).is_err());
    assert!(DeviceContext::get(n as usize + 5).is_err());
}

#[test]
fn build_errors_carry_the_build_log() {
    let ctx = DeviceContext::current().unwrap();
    let e = ctx
        .build(
            &ProgramSpec::default()
                .text("__kernel void broken(__global int *x) { x[0] = undefined_name; }"),
        )
        .unwrap_err();
    let s = e.to_string();
    assert!(matches!(e, Error::KernelBuild { .. }), "{s}");
    assert!(
        s.contains("undefined_name"),
        "the log names the culprit: {s}"
    );
    assert_eq!(e.code(), 7);
}

#[test]
fn programs_are_built_once_per_source_and_options() {
    let ctx = DeviceContext::current().unwrap();
    let src = "__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2 * FACTOR; }";
    let spec = |factor: u32| ProgramSpec::default().text(src).define("FACTOR", factor);
    let a = ctx.build(&spec(1)).unwrap();
    let before = ctx.cached_programs();
    let b = ctx.build(&spec(1)).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(ctx.cached_programs(), before);
    let c = ctx.build(&spec(2)).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&a, &c));
}

#[test]
fn embedded_kernels_match_the_source_tree() {
    for f in [
        "common.cl",
        "hc12.cl",
        "tabu.cl",
        "qap.cl",
        "hc12_eval.cl",
        "sat.cl",
        "de.cl",
    ] {
        let tree =
            std::fs::read_to_string(format!("{}/cl/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(embedded_source(f), Some(tree.as_str()), "{f}");
        assert_eq!(kernel_source(f).unwrap(), tree);
    }
    assert!(kernel_source("nope.cl").is_err());
}

#[test]
fn buffers_round_trip() {
    let ctx = DeviceContext::current().unwrap();
    let q = ctx.queue().unwrap();
    let data: Vec<u64> = (0..1000).map(|i| i * 0x1_0000_0001).collect();
    let b = q.buffer_from(&data, "test").unwrap();
    assert_eq!(b.to_vec(&q).unwrap(), data);
    let mut small = q.buffer::<u64>(4, "small").unwrap();
    assert!(
        small.write(&q, &data).is_err(),
        "writes past the end are refused"
    );
}

#[test]
fn large_reads_through_pinned_staging_convert_every_element() {
    let ctx = DeviceContext::current().unwrap();
    let q = ctx.queue().unwrap();
    // 5.5 M u64 = 44 MB: two full 32 MB staging chunks would be 8 M; this is one full chunk and a
    // partial one, past the plain-read threshold (8 MB)
    let data: Vec<u64> = (0..5_500_000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let b = q.buffer_from(&data, "test").unwrap();
    let mut out = vec![0u64; data.len()];
    b.read_converted(&q, &mut out, |x| x ^ 1).unwrap();
    assert!(out.iter().zip(&data).all(|(&o, &d)| o == d ^ 1));
    // a small buffer takes the plain read, with the same conversion
    let small = q
        .buffer_from(&[1.5f32, -2.0, f32::INFINITY], "small")
        .unwrap();
    let mut wide = vec![0f64; 3];
    small.read_converted(&q, &mut wide, |x| x as f64).unwrap();
    assert_eq!(wide, [1.5, -2.0, f64::INFINITY]);
    // a shorter output takes the buffer's start (through the staging pair when large), a longer
    // one is refused
    let mut start = vec![0f64; 2];
    small.read_converted(&q, &mut start, |x| x as f64).unwrap();
    assert_eq!(start, [1.5, -2.0]);
    let mut prefix = vec![0u64; 4_321_000];
    b.read_converted(&q, &mut prefix, |x| x).unwrap();
    assert!(prefix.iter().zip(&data).all(|(&o, &d)| o == d));
    let mut wrong = vec![0f64; 4];
    assert!(
        small.read_converted(&q, &mut wrong, |x| x as f64).is_err(),
        "a longer output is refused"
    );
    // reads at an offset, and past the end refused
    let mut mid = vec![0u64; 3];
    b.read_at(&q, 1_000_000, &mut mid).unwrap();
    assert_eq!(mid, data[1_000_000..1_000_003]);
    assert!(
        b.read_at(&q, data.len() - 2, &mut mid).is_err(),
        "a read past the end is refused"
    );
}

#[test]
fn pinned_staging_is_shared_by_the_queues_of_a_device() {
    // two queues of one context, reading at once from two threads: they take turns with the
    // context's staging pair and each gets its own data
    let ctx = DeviceContext::current().unwrap();
    let run = |salt: u32| {
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let q = ctx.queue().unwrap();
            let data: Vec<u32> = (0..3_000_000u32)
                .map(|i| i.wrapping_mul(2_654_435_761) ^ salt)
                .collect();
            let b = q.buffer_from(&data, "test").unwrap();
            for _ in 0..2 {
                let mut out = output_vec::<u64>(data.len());
                b.read_converted(&q, &mut out, |x| x as u64 + 1).unwrap();
                assert!(
                    out.iter().zip(&data).all(|(&o, &d)| o == d as u64 + 1),
                    "queue {salt}: a wrong element"
                );
            }
        })
    };
    let (a, b) = (run(1), run(2));
    a.join().unwrap();
    b.join().unwrap();
}

#[test]
fn output_vectors_are_zeroed_and_sized() {
    for len in [0, 1, 1023, 1024, 1025, 5_000_000] {
        let v = output_vec::<u64>(len);
        assert_eq!(v.len(), len);
        assert!(v.iter().all(|&x| x == 0));
        let f = output_vec::<f64>(len);
        assert!(f.iter().all(|&x| x.to_bits() == 0));
        let p = output_vec::<u32>(len);
        assert_eq!(p.len(), len);
        assert!(p.iter().all(|&x| x == 0));
    }
}

/// A program the compiler takes a while over (many distinct functions), made unique by `tag`
/// so that no cache (the context's, the driver's on disk) has it.
fn slow_program(tag: &str) -> ProgramSpec {
    let mut src = String::new();
    for i in 0..400 {
        src.push_str(&format!(
            "float f{i}(float x) {{ for (int k = 0; k < {}; k++) x = sin(x) * 1.0001f + cos(x * {i}.5f) + TAG; return x; }}\n",
            3 + i % 5
        ));
    }
    src.push_str("__kernel void slow(__global float *x) { float v = x[get_global_id(0)];\n");
    for i in 0..400 {
        src.push_str(&format!("  v = f{i}(v);\n"));
    }
    src.push_str("  x[get_global_id(0)] = v; }\n");
    ProgramSpec::default()
        .text(src)
        .define("TAG", format!("{tag}.0f"))
}

fn unique_tag() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    format!("{}{}", std::process::id(), t.subsec_nanos())
}

#[test]
fn a_build_stops_waiting_when_its_setup_is_cut_and_finishes_for_the_next_call() {
    use metaopt::run::cancel::{Clock, Cut, StopToken, Watch};
    use std::time::{Duration, Instant};
    let ctx = DeviceContext::current().unwrap();
    let spec = slow_program(&unique_tag());
    let limit = Duration::from_millis(20);
    let cut = Cut {
        clock: Clock::since(Instant::now(), Some(limit)),
        watch: Watch::new(None),
    };
    let t = Instant::now();
    let e = cut.during_setup(|| ctx.build(&spec)).unwrap_err();
    let waited = t.elapsed();
    assert!(matches!(e, Error::TimeLimit(_)), "{e}");
    assert!(e.to_string().contains("building the device program"), "{e}");
    assert!(
        builds_in_flight() >= 1,
        "the build goes on in the background"
    );
    // the compiler went on: the next call waits for that build rather than starting another
    let t = Instant::now();
    let a = ctx.build(&spec).unwrap();
    let rest = t.elapsed();
    let b = ctx.build(&spec).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert!(
        rest > waited,
        "the first call waited {waited:?}, the build needed {rest:?} more"
    );

    // a token requested before the build is the solver's to answer after its set-up (so that
    // such a call does not depend on the cache): the build is awaited
    let token = StopToken::new();
    token.request();
    let before = Cut {
        clock: Clock::new(None),
        watch: Watch::new(Some(&token)),
    };
    let spec = slow_program(&unique_tag());
    assert!(before.during_setup(|| ctx.build(&spec)).is_ok());

    // a token requested while the caller waits cuts the wait, and the scope ends with its call
    let spec = slow_program(&unique_tag());
    let token = StopToken::new();
    let cut = Cut {
        clock: Clock::new(None),
        watch: Watch::new(Some(&token)),
    };
    let requester = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            token.request();
        })
    };
    let e = cut.during_setup(|| ctx.build(&spec)).unwrap_err();
    requester.join().unwrap();
    assert!(matches!(e, Error::Interrupted(_)), "{e}");
    assert!(
        ctx.build(&spec).is_ok(),
        "outside the scope the build is awaited"
    );
}
