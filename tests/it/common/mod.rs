//! Helpers shared by the integration tests: the test data, scratch folders, the C ABI's error
//! codes, the C-program builder, what a test needs, and tests run in a process of their own.

pub mod cabi;
pub mod cbuild;
pub mod child;
pub mod data;
// shared with the CLI's test crate, which needs what this one does not (MPI)
#[allow(dead_code)]
pub mod need;

pub use data::*;
use metaopt::problem::qap::QapInstance;
use std::path::PathBuf;

/// A scratch folder of the test target: `module` (a `module_path!()`) as folders under
/// `CARGO_TARGET_TMPDIR`, so that modules never share one. [`work_dir!`] passes the caller's module.
pub fn work_dir_of(module: &str) -> PathBuf {
    let mut d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    d.extend(module.split("::"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The scratch folder of the calling module (see [`work_dir_of`]).
macro_rules! work_dir {
    () => {
        $crate::common::work_dir_of(module_path!())
    };
}
pub(crate) use work_dir;

pub fn instance(name: &str) -> QapInstance {
    QapInstance::from_dat(&qaplib().join(format!("{name}.dat"))).unwrap()
}

/// Every shared instance name, sorted.
pub fn all_instances() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(qaplib())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "dat").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}

/// The message of an `InvalidArgument` error naming `name`; panics on anything else.
pub fn arg_error<T>(r: metaopt::Result<T>, name: &str) -> String {
    match r {
        Err(metaopt::Error::InvalidArgument { arg, msg }) if arg == name => msg,
        Err(e) => panic!("expected an error naming `{name}`, got {e}"),
        Ok(_) => panic!("expected an error naming `{name}`"),
    }
}

/// The sphere (F1) as a host callback: each row's sum of squares.
pub fn sphere_callback() -> metaopt::objective::Objective {
    use metaopt::objective::{HostCallback, Objective};
    Objective::Callback(HostCallback {
        f: std::sync::Arc::new(|x: &[f64], rows: usize, dims: usize, out: &mut [f64]| {
            for r in 0..rows {
                out[r] = x[r * dims..(r + 1) * dims].iter().map(|v| v * v).sum();
            }
            Ok(())
        }),
    })
}

/// `rng_fill` (common.cl) on the current device for `count` work-items: each one's four Philox
/// words are the host's `rng4(seed, stream, i)`.
pub fn assert_rng_fill_equals_host(count: u32, seed: u64, stream: u32) {
    use metaopt::device::{DeviceContext, ProgramSpec};
    let ctx = DeviceContext::current().unwrap();
    let q = ctx.queue().unwrap();
    let prog = ctx.build(&ProgramSpec::files(&["common.cl"])).unwrap();
    let k = q.kernel(&prog, "rng_fill").unwrap();
    let out = q.buffer::<u32>(4 * count as usize, "out").unwrap();
    // SAFETY: the arguments of rng_fill in type and order; `out` holds 4 words per work-item.
    unsafe {
        opencl3::kernel::ExecuteKernel::new(&k)
            .set_arg(&seed)
            .set_arg(&stream)
            .set_arg(out.cl())
            .set_arg(&count)
            .set_global_work_size(count as usize)
            .enqueue_nd_range(q.cl())
            .unwrap();
    }
    q.finish().unwrap();
    let dev = out.to_vec(&q).unwrap();
    for i in 0..count as usize {
        assert_eq!(
            &dev[4 * i..4 * i + 4],
            &metaopt::rng::rng4(seed, stream, i as u64),
            "counter {i}"
        );
    }
}
