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
