//! Building and running the C examples in tests: the system C compiler against
//! `include/metaopt.h` and the `libmetaopt.so` that `cargo test` built (the crate is also a
//! cdylib), and valgrind's memcheck with suppressions that name only the OpenCL driver's libraries
//! (`tests/valgrind-pocl.supp`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where `cargo test` put the cdylib: `target/<profile>/deps`, the folder of the running test
/// (`target/<profile>/deps/<test>-<hash>`). `cargo test` does not copy it up to
/// `target/<profile>` as `cargo build` does, so a copy there may be stale and is only a fallback.
pub fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let dir = if deps.ends_with("deps") {
        deps.parent().unwrap()
    } else {
        deps
    };
    for d in [deps, dir] {
        if d.join("libmetaopt.so").is_file() {
            return d.to_path_buf();
        }
    }
    panic!(
        "libmetaopt.so is neither in {} nor in {}: is the cdylib crate type gone?",
        dir.display(),
        deps.display()
    );
}

/// The flags of [`compile`]: the examples use only the current names.
pub const CURRENT_NAMES: &[&str] = &["-DMETAOPT_NO_COMPAT_NAMES"];

/// The program built from `src` (relative to the crate: `c_examples/de_islands.c`) with the
/// extra compiler `flags` ([`compile_with`]; a `.cpp` file with [`compile_cpp`], which takes no
/// extra flags), compiled once per test process however many tests ask for it at the same time,
/// into `CARGO_TARGET_TMPDIR/it/c_programs/<file stem>`.
pub fn program(src: &str, flags: &[&str]) -> &'static Path {
    type Built = (Vec<String>, Arc<OnceLock<&'static Path>>);
    static BUILT: OnceLock<Mutex<HashMap<String, Built>>> = OnceLock::new();
    let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    let slot = {
        let mut built = BUILT
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let (first, slot) = built
            .entry(src.to_string())
            .or_insert_with(|| (flags.clone(), Default::default()));
        // one executable per source: a second flag set would overwrite the first's
        assert_eq!(*first, flags, "{src} is built with two flag sets");
        slot.clone()
    };
    slot.get_or_init(|| {
        let src = crate_dir().join(src);
        let exe = crate::common::work_dir_of("it::c_programs").join(src.file_stem().unwrap());
        if src.extension().is_some_and(|e| e == "cpp") {
            assert!(
                flags == CURRENT_NAMES,
                "C++ programs take compile_cpp's flags"
            );
            compile_cpp(&src, &exe);
        } else {
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            compile_with(&src, &exe, &flags);
        }
        Box::leak(exe.into_boxed_path())
    })
}

/// Compiles a C file against the header and the library (warnings are errors), with the
/// header's compatibility names switched off (`METAOPT_NO_COMPAT_NAMES`): the examples use only
/// the current names.
pub fn compile(src: &Path, exe: &Path) {
    compile_with(src, exe, CURRENT_NAMES);
}

/// [`compile`] with the extra compiler flags `flags` instead of `-DMETAOPT_NO_COMPAT_NAMES`.
pub fn compile_with(src: &Path, exe: &Path, flags: &[&str]) {
    let lib = library_dir();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args([
            "-std=c11",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-g",
        ])
        .args(flags)
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .arg(format!("-L{}", lib.display()))
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lmetaopt")
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(
        out.status.success(),
        "{} does not compile:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles a C++ file against `include/metaopt.hpp` and the library with the system C++ compiler
/// (`CXX`, else `c++`) as C++17, warnings are errors, the header's compatibility names off.
pub fn compile_cpp(src: &Path, exe: &Path) {
    let lib = library_dir();
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(&cxx)
        .args([
            "-std=c++17",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-g",
            "-DMETAOPT_NO_COMPAT_NAMES",
        ])
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .arg(format!("-L{}", lib.display()))
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lmetaopt")
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C++ compiler `{cxx}`: {e}"));
    assert!(
        out.status.success(),
        "{} does not compile:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A command that loads the library of [`library_dir`]: cargo's `LD_LIBRARY_PATH` for tests
/// lists `target/<profile>` (where a stale copy from an older `cargo build` may lie) and takes
/// precedence over the executable's RUNPATH, so it is replaced.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    c.env("LD_LIBRARY_PATH", library_dir());
    c
}

/// Standard output and error as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `args` under valgrind's no-op tool to fill PoCL's kernel cache `cache`: PoCL compiles
/// kernels for the CPU it detects, which differs under valgrind's emulated CPU, and a run under
/// the no-op tool (a few times faster than memcheck) builds them for that CPU, so that memcheck
/// checks the library and the example, not PoCL's LLVM compiling. Panics when the run fails.
pub fn warm_kernel_cache(args: &[&std::ffi::OsStr], cache: &Path) {
    let t = Instant::now();
    let warm = command("valgrind")
        .args(["--tool=none", "--log-file=/dev/null"])
        .args(args)
        .env("POCL_KERNEL_CACHE", "1")
        .env("POCL_CACHE_DIR", cache)
        .output()
        .unwrap();
    println!(
        "kernel cache warm-up under valgrind: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(
        warm.status.success(),
        "warm-up run failed:\n{}",
        text(&warm).1
    );
}

/// Runs `args` under memcheck (log `name.valgrind.log` in `dir`); returns (exit code, log).
pub fn memcheck(
    dir: &Path,
    name: &str,
    args: &[&std::ffi::OsStr],
    cache: &Path,
) -> (Option<i32>, String) {
    let log = dir.join(format!("{name}.valgrind.log"));
    let t = Instant::now();
    let out = command("valgrind")
        .args([
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite",
        ])
        .args(["--show-leak-kinds=definite", "--num-callers=40"])
        .arg(format!(
            "--suppressions={}",
            crate_dir().join("tests/valgrind-pocl.supp").display()
        ))
        .arg(format!("--log-file={}", log.display()))
        .args(args)
        .env("POCL_KERNEL_CACHE", "1")
        .env("POCL_CACHE_DIR", cache)
        .output()
        .unwrap();
    println!("memcheck of {name}: {:.1} s", t.elapsed().as_secs_f64());
    (
        out.status.code(),
        std::fs::read_to_string(&log).unwrap_or_default(),
    )
}

/// Asserts that a memcheck run found no invalid access and no definite leak.
pub fn assert_clean(code: Option<i32>, log: &str) {
    assert_eq!(
        code,
        Some(0),
        "memcheck found invalid accesses or definite leaks (exit 99) or the example failed:\n{log}"
    );
    assert!(log.contains("ERROR SUMMARY: 0 errors"), "{log}");
    assert!(
        log.contains("definitely lost: 0 bytes") || log.contains("no leaks are possible"),
        "{log}"
    );
}
