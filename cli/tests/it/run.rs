//! Running the `metaopt` binary in the CLI tests: from the repository root, without the caller's
//! METAOPT_DEVICE, with extra environment variables where a test needs them.

use std::process::{Command, Output};

/// `metaopt args` with `env` set.
pub fn metaopt_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_metaopt"));
    c.args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the metaopt binary runs")
}

pub fn metaopt(args: &[&str]) -> Output {
    metaopt_env(args, &[])
}

/// Standard output of a run that must succeed.
pub fn ok_env(args: &[&str], env: &[(&str, &str)]) -> String {
    let o = metaopt_env(args, env);
    assert!(
        o.status.success(),
        "metaopt {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

pub fn ok(args: &[&str]) -> String {
    ok_env(args, &[])
}

/// A usage or input error: exit status 2 and an `error: ` line that contains `needle`.
pub fn fails(args: &[&str], needle: &str) {
    let o = metaopt(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "metaopt {args:?}: {err}");
    assert!(
        err.contains("error: ") && err.contains(needle),
        "metaopt {args:?}: expected `{needle}` in: {err}"
    );
}
