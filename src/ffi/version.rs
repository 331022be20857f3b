//! The library's version, from the crate version in `Cargo.toml`. The header carries the same
//! numbers as macros (`METAOPT_VERSION_MAJOR`, `_MINOR`, `_PATCH`, `METAOPT_VERSION_STRING`, written
//! by `build.rs`), so a program can compare the header it was compiled with against the library
//! it runs with. These functions cannot fail: they return constants and need no
//! `ffi_boundary!`.

use std::ffi::c_char;

/// The version text with its terminating NUL (the C string `metaopt_version` returns).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// A decimal version component as cargo gives it (`CARGO_PKG_VERSION_MAJOR`, ...).
const fn parse(s: &str) -> i32 {
    let b = s.as_bytes();
    let mut v = 0i32;
    let mut i = 0;
    while i < b.len() {
        assert!(
            b[i].is_ascii_digit(),
            "a version component is a decimal number"
        );
        v = v * 10 + (b[i] - b'0') as i32;
        i += 1;
    }
    v
}

const MAJOR: i32 = parse(env!("CARGO_PKG_VERSION_MAJOR"));
const MINOR: i32 = parse(env!("CARGO_PKG_VERSION_MINOR"));
const PATCH: i32 = parse(env!("CARGO_PKG_VERSION_PATCH"));

/// The library's version as "MAJOR.MINOR.PATCH" (with a pre-release suffix such as "-rc.1" if
/// the release has one): a static string, never NULL, that the caller must not free. Compare it
/// with `METAOPT_VERSION_STRING` to check that the header and the library agree.
#[no_mangle]
pub extern "C" fn metaopt_version() -> *const c_char {
    VERSION.as_ptr() as *const c_char
}

/// The library's major version (`METAOPT_VERSION_MAJOR` of its header). The shared library's
/// SONAME is `libmetaopt.so.MAJOR`.
#[no_mangle]
pub extern "C" fn metaopt_version_major() -> i32 {
    MAJOR
}

/// The library's minor version (`METAOPT_VERSION_MINOR` of its header).
#[no_mangle]
pub extern "C" fn metaopt_version_minor() -> i32 {
    MINOR
}

/// The library's patch version (`METAOPT_VERSION_PATCH` of its header).
#[no_mangle]
pub extern "C" fn metaopt_version_patch() -> i32 {
    PATCH
}

/// The library's version as one number, MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100), for
/// comparisons such as `metaopt_version_number() >= METAOPT_VERSION_NUMBER`.
#[no_mangle]
pub extern "C" fn metaopt_version_number() -> i32 {
    MAJOR * 10_000 + MINOR * 100 + PATCH
}
