//! What a test needs of the machine, declared at its start: where something is missing the test
//! prints `skipped <test>: <reason>` and returns, so that a missing tool or device reads as a
//! skip in the output rather than a failure or a silent pass. Shared by the library's and the
//! CLI's test crates.

use std::process::Command;

/// One requirement of a test.
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// At least one OpenCL device.
    Device,
    /// At least this many OpenCL devices.
    Devices(usize),
    /// valgrind, for the memcheck runs.
    Valgrind,
    /// `mpirun`, for the MPI runs.
    Mpi,
    /// A program that answers `--version` (a compiler, `make`, `pkg-config`, ...).
    Tool(&'static str),
}

fn answers_version(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn devices() -> Vec<metaopt::device::DeviceInfo> {
    metaopt::device::list_devices().unwrap_or_default()
}

impl Need {
    /// Why this machine does not meet the need; `None` when it does.
    pub fn missing(self) -> Option<String> {
        match self {
            Need::Device => devices().is_empty().then(|| "no OpenCL device".to_string()),
            Need::Devices(k) => {
                let n = devices().len();
                (n < k).then(|| {
                    format!("{n} OpenCL device(s), the test needs {k} (POCL_DEVICES gives several on PoCL)")
                })
            }
            Need::Valgrind => {
                (!answers_version("valgrind")).then(|| "valgrind is not installed".into())
            }
            Need::Mpi => (!answers_version("mpirun"))
                .then(|| "mpirun is not installed (apt-get install openmpi-bin)".into()),
            Need::Tool(t) => (!answers_version(t)).then(|| format!("{t} is not available")),
        }
    }
}

/// True when every need is met; otherwise prints `skipped <test>: <reasons>` and returns false.
pub fn met(test: &str, needs: &[Need]) -> bool {
    let missing: Vec<String> = needs.iter().filter_map(|n| n.missing()).collect();
    if missing.is_empty() {
        return true;
    }
    println!("skipped {test}: {}", missing.join("; "));
    false
}

/// The path of the calling function within its crate (`abi::de::a_test`): the name libtest
/// gives a test.
macro_rules! test_name {
    () => {{
        fn f() {}
        let name = std::any::type_name_of_val(&f);
        let name = name.strip_suffix("::f").unwrap_or(name);
        name.split_once("::").map_or(name, |(_, rest)| rest)
    }};
}
pub(crate) use test_name;

/// Returns from the calling test, with the reason printed, unless every `Need` is met.
macro_rules! needs {
    ($($need:expr),+ $(,)?) => {
        if !$crate::common::need::met(
            $crate::common::need::test_name!(),
            &[$($need),+],
        ) {
            return;
        }
    };
}
pub(crate) use needs;
