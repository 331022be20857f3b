//! Packaging for C users: the version the library reports, the header's version macros and the
//! crate version agree; `make install` (with DESTDIR) lays out the versioned library with its
//! SONAME and symlinks, the header, `metaopt.pc` and the binary; a C program built with
//! `pkg-config --cflags --libs metaopt` against the installed tree runs and prints the version;
//! `make uninstall` removes every file again.

use crate::common::cbuild::{crate_dir, library_dir, text};
use crate::common::need::{needs, Need};
use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn component(name: &str) -> i32 {
    match name {
        "MAJOR" => env!("CARGO_PKG_VERSION_MAJOR"),
        "MINOR" => env!("CARGO_PKG_VERSION_MINOR"),
        _ => env!("CARGO_PKG_VERSION_PATCH"),
    }
    .parse()
    .unwrap()
}

#[test]
fn version_functions_report_the_crate_version() {
    let s = unsafe { CStr::from_ptr(metaopt::ffi::metaopt_version()) };
    assert_eq!(s.to_str().unwrap(), VERSION);
    assert_eq!(metaopt::ffi::metaopt_version_major(), component("MAJOR"));
    assert_eq!(metaopt::ffi::metaopt_version_minor(), component("MINOR"));
    assert_eq!(metaopt::ffi::metaopt_version_patch(), component("PATCH"));
    let number = component("MAJOR") * 10_000 + component("MINOR") * 100 + component("PATCH");
    assert_eq!(metaopt::ffi::metaopt_version_number(), number);
}

/// The value of `#define NAME value` in the committed header.
fn header_define(header: &str, name: &str) -> String {
    header
        .lines()
        .find_map(|l| {
            l.strip_prefix("#define ")?
                .strip_prefix(name)?
                .strip_prefix(' ')
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| panic!("include/metaopt.h defines no {name}"))
}

#[test]
fn header_version_macros_are_the_crate_version() {
    let h = std::fs::read_to_string(crate_dir().join("include/metaopt.h")).unwrap();
    for part in ["MAJOR", "MINOR", "PATCH"] {
        assert_eq!(
            header_define(&h, &format!("METAOPT_VERSION_{part}")),
            component(part).to_string(),
            "{part}"
        );
    }
    assert_eq!(
        header_define(&h, "METAOPT_VERSION_STRING"),
        format!("\"{VERSION}\"")
    );
    assert_eq!(
        header_define(&h, "METAOPT_VERSION_NUMBER"),
        metaopt::ffi::metaopt_version_number().to_string()
    );
    for f in [
        "metaopt_version(void)",
        "metaopt_version_major(void)",
        "metaopt_version_number(void)",
    ] {
        assert!(h.contains(f), "the header declares {f}");
    }
}

/// `make -C <crate> <target> ...` without the variables of a make this test may run under.
fn make(target: &str, vars: &[String]) {
    let out = Command::new("make")
        .arg("-C")
        .arg(crate_dir())
        .arg(target)
        .args(vars)
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .output()
        .unwrap();
    let (o, e) = text(&out);
    assert!(out.status.success(), "make {target} failed:\n{o}\n{e}");
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() && !p.is_symlink() {
            v.extend(files_under(&p));
        } else {
            v.push(p);
        }
    }
    v
}

const PROGRAM: &str = r#"#include <stdio.h>
#include <string.h>
#include <metaopt.h>

int main(void) {
    const char *v = metaopt_version();
    printf("metaopt %s (header %s)\n", v, METAOPT_VERSION_STRING);
    if (strcmp(v, METAOPT_VERSION_STRING) != 0 || metaopt_version_major() != METAOPT_VERSION_MAJOR ||
        metaopt_version_minor() != METAOPT_VERSION_MINOR || metaopt_version_patch() != METAOPT_VERSION_PATCH ||
        metaopt_version_number() != METAOPT_VERSION_NUMBER) {
        fprintf(stderr, "header and library disagree\n");
        return 1;
    }
    return 0;
}
"#;

#[test]
fn make_install_lays_out_a_library_that_pkg_config_users_can_link() {
    needs!(
        Need::Tool("make"),
        Need::Tool("readelf"),
        Need::Tool("pkg-config")
    );
    let tmp = tempfile::tempdir().unwrap();
    let stage = tmp.path().join("stage");
    let prefix = "/opt/metaopt";
    let root = stage.join(prefix.trim_start_matches('/'));
    let lib = library_dir().join("libmetaopt.so");
    // the CLI binary of this build, when the workspace's tests built it
    let bin = library_dir()
        .parent()
        .map(|p| p.join("metaopt"))
        .filter(|b| b.is_file());
    let vars = vec![
        "NO_BUILD=1".to_string(),
        format!("PREFIX={prefix}"),
        format!("DESTDIR={}", stage.display()),
        format!("LIB_SRC={}", lib.display()),
        format!(
            "BIN_SRC={}",
            bin.as_ref()
                .map(|b| b.display().to_string())
                .unwrap_or_default()
        ),
    ];
    make("install", &vars);

    // the library, its two symlinks and its SONAME
    let (major, real) = (
        format!("libmetaopt.so.{}", component("MAJOR")),
        format!("libmetaopt.so.{VERSION}"),
    );
    let libdir = root.join("lib");
    assert!(libdir.join(&real).is_file() && !libdir.join(&real).is_symlink());
    assert_eq!(
        std::fs::read_link(libdir.join(&major)).unwrap(),
        Path::new(&real)
    );
    assert_eq!(
        std::fs::read_link(libdir.join("libmetaopt.so")).unwrap(),
        Path::new(&major)
    );
    let dynamic = Command::new("readelf")
        .arg("-d")
        .arg(libdir.join(&real))
        .output()
        .unwrap();
    let dynamic = text(&dynamic).0;
    assert!(
        dynamic.contains(&format!("Library soname: [{major}]")),
        "{dynamic}"
    );
    // the headers as committed, no kernels (they are embedded), the binary when there was one
    assert_eq!(
        std::fs::read(root.join("include/metaopt.h")).unwrap(),
        std::fs::read(crate_dir().join("include/metaopt.h")).unwrap()
    );
    assert_eq!(
        std::fs::read(root.join("include/metaopt.hpp")).unwrap(),
        std::fs::read(crate_dir().join("include/metaopt.hpp")).unwrap()
    );
    assert!(!libdir.join("cl").exists());
    if let Some(b) = &bin {
        let out = Command::new(root.join("bin/metaopt"))
            .arg("--version")
            .output()
            .unwrap();
        assert!(
            text(&out).0.contains(VERSION),
            "{} --version: {:?}",
            b.display(),
            text(&out)
        );
    }
    let pc = std::fs::read_to_string(libdir.join("pkgconfig/metaopt.pc")).unwrap();
    assert!(
        pc.contains(&format!("prefix={prefix}\n")) && pc.contains(&format!("Version: {VERSION}\n")),
        "{pc}"
    );

    // pkg-config finds it (the sysroot maps the .pc file's /opt/metaopt into the stage)
    let pkg_config = |args: &[&str]| {
        let out = Command::new("pkg-config")
            .args(args)
            .arg("metaopt")
            .env("PKG_CONFIG_PATH", libdir.join("pkgconfig"))
            .env("PKG_CONFIG_LIBDIR", libdir.join("pkgconfig"))
            .env("PKG_CONFIG_SYSROOT_DIR", &stage)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pkg-config {args:?}: {}",
            text(&out).1
        );
        text(&out).0.trim().to_string()
    };
    assert_eq!(pkg_config(&["--modversion"]), VERSION);
    let flags = pkg_config(&["--cflags", "--libs"]);
    assert!(
        flags.contains(&format!("-I{}", root.join("include").display())),
        "{flags}"
    );

    // a C program built with those flags alone, run with the installed library alone
    let src = tmp.path().join("version.c");
    std::fs::write(&src, PROGRAM).unwrap();
    let exe = tmp.path().join("version");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c11", "-pedantic", "-Wall", "-Wextra", "-Werror"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .args(flags.split_whitespace())
        .output()
        .unwrap();
    assert!(out.status.success(), "{cc} {flags}: {}", text(&out).1);
    let needed = text(
        &Command::new("readelf")
            .arg("-d")
            .arg(&exe)
            .output()
            .unwrap(),
    )
    .0;
    assert!(
        needed.contains(&format!("Shared library: [{major}]")),
        "the program needs the SONAME:\n{needed}"
    );
    let out = Command::new(&exe)
        .env("LD_LIBRARY_PATH", &libdir)
        .output()
        .unwrap();
    let (o, e) = text(&out);
    assert!(out.status.success(), "{o}\n{e}");
    assert_eq!(o.trim(), format!("metaopt {VERSION} (header {VERSION})"));

    make("uninstall", &vars);
    let left = files_under(&stage);
    assert!(left.is_empty(), "make uninstall left {left:?}");
}
