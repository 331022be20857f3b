//! Tests that change what a whole process shares (the interrupt epoch, environment variables,
//! signal handlers, the default device, a device marked lost, the OpenCL platform list that is
//! read once per process) run alone in a child process of this test binary, so that they
//! neither disturb the tests running beside them nor depend on what those did first.

use std::process::Command;

/// Set in a child to the name of the one test it runs.
const CHILD: &str = "METAOPT_TEST_CHILD";

/// True in the child process that runs `test` (the caller goes on with its body). In any other
/// process: runs `test` alone in a child of this binary with `env` added to the environment,
/// passes its output on, fails when the child fails or ran no test of that name, and returns
/// false (the caller returns).
pub fn in_own_process(test: &str, env: &[(&str, &str)]) -> bool {
    if std::env::var(CHILD).is_ok_and(|t| t == test) {
        return true;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, test)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {test} in a child process: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(
        out.status.success(),
        "{test} failed in its own process ({})",
        out.status
    );
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "the child process ran no test named {test}"
    );
    false
}

/// Runs the calling test in a process of its own (see [`in_own_process`]), with the environment
/// variables of `env` (a `&[(&str, &str)]`) added there.
macro_rules! own_process {
    () => {
        $crate::common::child::own_process!(&[])
    };
    ($env:expr) => {
        if !$crate::common::child::in_own_process($crate::common::need::test_name!(), $env) {
            return;
        }
    };
}
pub(crate) use own_process;

/// PoCL posing as three devices of one compute unit each, where the environment does not already
/// say which devices to use: PoCL reads these variables when the platform is first opened, so
/// they go to a child process ([`own_process!`]) before its first OpenCL call.
pub fn three_pocl_devices() -> Vec<(&'static str, &'static str)> {
    [
        ("POCL_DEVICES", "pthread pthread pthread"),
        ("POCL_MAX_PTHREAD_COUNT", "1"),
    ]
    .into_iter()
    .filter(|(k, _)| std::env::var_os(k).is_none())
    .collect()
}

/// The start of a test of several devices: it runs in a process of its own with
/// [`three_pocl_devices`] and is skipped where fewer than two devices appear.
macro_rules! several_devices {
    () => {
        $crate::common::child::own_process!(&$crate::common::child::three_pocl_devices());
        $crate::common::need::needs!($crate::common::need::Need::Devices(2));
    };
}
pub(crate) use several_devices;
