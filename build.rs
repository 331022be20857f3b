//! Generates `include/metaopt.h` from `src/ffi` with cbindgen and `cbindgen.toml`, writing it into
//! the source tree when it changed. The header is committed; `tests/header.rs` checks that it is
//! what this generator writes. With the environment variable `CI` set the build only warns about
//! a stale header and leaves the file alone, so that the test catches an uncommitted change.

use std::path::{Path, PathBuf};

/// The header text for the crate at `crate_dir` (also used by `tests/header.rs`).
pub fn header_text(crate_dir: &Path) -> Result<Vec<u8>, String> {
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))?;
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .generate()
        .map_err(|e| e.to_string())?;
    let mut text = Vec::new();
    bindings.write(&mut text);
    Ok(text)
}

/// Where the committed header lives.
pub fn header_path(crate_dir: &Path) -> PathBuf {
    crate_dir.join("include").join("metaopt.h")
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-env-changed=CI");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // A failure here is reported, not fatal: a syntax error in src/ffi is better explained by
    // rustc, and a read-only source tree (a registry copy) keeps its committed header.
    let text = match header_text(&dir) {
        Ok(t) => t,
        Err(e) => {
            println!("cargo:warning=cbindgen could not generate include/metaopt.h: {e}");
            return;
        }
    };
    let path = header_path(&dir);
    if std::fs::read(&path).ok().as_deref() == Some(&text[..]) {
        return; // unchanged: keep the file's time stamp
    }
    // In CI the committed header is checked, not rewritten: tests/header.rs then fails on it.
    if std::env::var_os("CI").is_some() {
        println!("cargo:warning=include/metaopt.h is stale (CI is set, so it is not rewritten)");
        return;
    }
    let written = std::fs::create_dir_all(path.parent().expect("include/")).and_then(|_| std::fs::write(&path, &text));
    if let Err(e) = written {
        println!("cargo:warning=cannot write {}: {e}", path.display());
    }
}
