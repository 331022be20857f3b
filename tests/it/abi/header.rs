//! `include/metaopt.h` must be exactly what the build generates: the header is regenerated here
//! with the build script's own code (cbindgen as a library, the same `cbindgen.toml`) and
//! compared byte for byte. Under `CI` the build script only warns about a stale header instead of
//! rewriting it, so this test is what catches a header that was not committed after a change.

#[allow(dead_code)]
#[path = "../../../build.rs"]
mod build_script;

use crate::common::need::{test_name, Need};
use std::path::Path;
use std::process::Command;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn committed_header_is_what_cbindgen_generates() {
    let generated =
        build_script::header_text(crate_dir()).unwrap_or_else(|e| panic!("cbindgen failed: {e}"));
    let tmp = tempfile::tempdir().unwrap();
    let fresh = tmp.path().join("metaopt.h");
    std::fs::write(&fresh, &generated).unwrap();
    let committed_path = build_script::header_path(crate_dir());
    let committed = std::fs::read(&committed_path).unwrap_or_default();
    if committed == generated {
        return;
    }
    let (c, g) = (
        String::from_utf8_lossy(&committed),
        String::from_utf8_lossy(&generated),
    );
    let (line, a, b) = c
        .lines()
        .chain(std::iter::repeat("<end of file>"))
        .zip(g.lines().chain(std::iter::repeat("<end of file>")))
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| (i + 1, a.to_string(), b.to_string()))
        .unwrap_or((0, String::new(), String::new()));
    let kept = tmp.keep();
    panic!(
        "{} is stale: it differs from what cbindgen generates from src/ffi and cbindgen.toml \
         (fresh copy: {}).\nFirst difference, line {line}:\n  committed: {a}\n  generated: {b}\n\
         Regenerate it with `cargo build` (outside CI) and commit include/metaopt.h.",
        committed_path.display(),
        kept.join("metaopt.h").display()
    );
}

/// The header compiles on its own as strict C and as C++ (`cpp_compat`).
#[test]
fn header_compiles_as_c_and_cpp() {
    let include = crate_dir().join("include");
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("use.c");
    std::fs::write(
        &src,
        "#include \"metaopt.h\"\n\
         int main(void) { MetaoptQapSolveOptions o = metaopt_qap_default_solve_options(); return (int)o.runs == 0; }\n",
    )
    .unwrap();
    for (compiler, std) in [("cc", "-std=c99"), ("c++", "-std=c++11")] {
        let lang = if compiler == "cc" { "c" } else { "c++" };
        if let Some(why) = Need::Tool(compiler).missing() {
            println!("skipped the {lang} check of {}: {why}", test_name!());
            continue;
        }
        let out = Command::new(compiler)
            .args([
                std,
                "-pedantic",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsyntax-only",
                "-x",
                lang,
            ])
            .arg("-I")
            .arg(&include)
            .arg(&src)
            .output();
        match out {
            Ok(o) => assert!(
                o.status.success(),
                "{compiler} rejects the header:\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => panic!("cannot run {compiler}: {e}"),
        }
    }
}
