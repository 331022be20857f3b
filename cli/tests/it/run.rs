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

/// `metaopt args` under a 4 GB address-space limit (`ulimit -v 4000000`, through bash), from the
/// repository root: a size the host cannot hold must end with an error and an exit status, never
/// an abort or a kill. Returns the exit status (None: killed by a signal) and standard error.
pub fn metaopt_in_4gb(args: &[&str]) -> (Option<i32>, String) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4000000 && exec {} {}",
            env!("CARGO_BIN_EXE_metaopt"),
            quoted.join(" ")
        ))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("METAOPT_DEVICE")
        .output()
        .expect("bash runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// [`metaopt_in_4gb`] of a run too large for the host: an exit status other than 0 and an
/// out-of-memory error that names `needle` (the flag).
pub fn out_of_memory_in_4gb(args: &[&str], needle: &str) {
    let (code, err) = metaopt_in_4gb(args);
    assert!(
        code.is_some_and(|c| c != 0),
        "metaopt {args:?}: status {code:?}: {err}"
    );
    assert!(
        (err.contains("out of host memory") || err.contains("out of device memory"))
            && err.contains(needle),
        "metaopt {args:?}: expected an out-of-memory error naming `{needle}`: {err}"
    );
}
