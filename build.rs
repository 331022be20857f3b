//! Generates `include/metaopt.h` from `src/ffi` with cbindgen and `cbindgen.toml`, writing it into
//! the source tree when it changed. The header is committed; `tests/it/abi/header.rs` checks that it is
//! what this generator writes. With the environment variable `CI` set the build only warns about
//! a stale header and leaves the file alone, so that the test catches an uncommitted change.
//!
//! The version macros of the header (`METAOPT_VERSION_MAJOR`, ... `METAOPT_VERSION_STRING`) come
//! from the crate version, as do the functions of `src/ffi/version.rs`, so header and library
//! agree. On Linux the shared library gets the SONAME `libmetaopt.so.MAJOR` (`make install`
//! installs it as `libmetaopt.so.MAJOR.MINOR.PATCH` with the two symlinks), and a symlink
//! `libmetaopt.so.MAJOR -> libmetaopt.so` beside the build's library lets programs linked against
//! the build tree (the C examples, the tests, the MEX gateway) find it by that name.

use std::path::{Path, PathBuf};

/// The header text for the crate at `crate_dir` (also used by `tests/it/abi/header.rs`).
pub fn header_text(crate_dir: &Path) -> Result<Vec<u8>, String> {
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))?;
    config.after_includes = Some(version_macros(env!("CARGO_PKG_VERSION")));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .generate()
        .map_err(|e| e.to_string())?;
    let mut text = Vec::new();
    bindings.write(&mut text);
    Ok(text)
}

/// The header's version macros for the crate version `version` ("MAJOR.MINOR.PATCH", perhaps
/// with a pre-release or build suffix, which only the string keeps).
pub fn version_macros(version: &str) -> String {
    let core = version.split(['-', '+']).next().unwrap_or(version);
    let mut parts = core.split('.').map(|p| {
        p.parse::<u32>()
            .expect("the crate version is MAJOR.MINOR.PATCH")
    });
    let (major, minor, patch) = (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    );
    format!(
        "\n/* The version of this header (the crate version of Cargo.toml); metaopt_version() and\n \
         * metaopt_version_major/minor/patch/number() return the library's, which should agree. */\n\
         #define METAOPT_VERSION_MAJOR {major}\n\
         #define METAOPT_VERSION_MINOR {minor}\n\
         #define METAOPT_VERSION_PATCH {patch}\n\
         #define METAOPT_VERSION_NUMBER {}\n\
         #define METAOPT_VERSION_STRING \"{version}\"",
        major * 10_000 + minor * 100 + patch
    )
}

/// On Linux: the SONAME of the cdylib, and the symlink `libmetaopt.so.MAJOR -> libmetaopt.so` in
/// the folders cargo puts the library in (`target/<profile>` and its `deps/`), so that a program
/// linked against the build tree (its NEEDED entry is the SONAME) runs from there too.
fn soname() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    let name = format!("libmetaopt.so.{major}");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{name}");
    // OUT_DIR is <target>/[<triple>/]<profile>/build/metaopt-<hash>/out
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let Some(profile) = out.ancestors().nth(3) else {
        return;
    };
    if !profile.join("deps").is_dir() {
        return; // not cargo's usual layout: leave it alone
    }
    for dir in [profile.to_path_buf(), profile.join("deps")] {
        let link = dir.join(&name);
        if std::fs::read_link(&link).ok().as_deref() == Some(Path::new("libmetaopt.so")) {
            continue;
        }
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        if let Err(e) = std::os::unix::fs::symlink("libmetaopt.so", &link) {
            println!(
                "cargo:warning=cannot link {} to libmetaopt.so: {e}",
                link.display()
            );
        }
    }
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
    soname();
    let dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
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
    // In CI the committed header is checked, not rewritten: tests/it/abi/header.rs then fails on it.
    if std::env::var_os("CI").is_some() {
        println!("cargo:warning=include/metaopt.h is stale (CI is set, so it is not rewritten)");
        return;
    }
    let written = std::fs::create_dir_all(path.parent().expect("include/"))
        .and_then(|_| std::fs::write(&path, &text));
    if let Err(e) = written {
        println!("cargo:warning=cannot write {}: {e}", path.display());
    }
}
