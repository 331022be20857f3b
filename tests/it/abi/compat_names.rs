//! The compatibility names of `include/metaopt.h` (its `trailer`, from `cbindgen.toml`): a C
//! program written against the names of earlier releases and the thesis's
//! (`tests/c/old_names.c`: `metaopt_params_from_file`, `metaopt_run`, `RunResult`,
//! `metaopt_free_run_result`, `params`, `run`, `free_params`, ...) compiles against the current
//! header and library and runs as before; `METAOPT_NO_COMPAT_NAMES` takes the old names away, and
//! every alias names a declaration of the header.

use crate::common::cbuild::*;
use crate::common::*;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_program_with_the_old_names_compiles_and_runs() {
    let out = command(program("tests/c/old_names.c", &[]))
        .arg(qaplib().join("had12.dat"))
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(stdout.contains("instance: n = 12, k = 6"), "{stdout}");
    assert!(
        stdout.contains("run: result type 1 (int64: 1), cost "),
        "{stdout}"
    );
    assert!(stdout.contains(", 12 entries"), "{stdout}");
    assert!(stdout.contains(" after 2 runs"), "{stdout}");
    assert!(stdout.contains("run after free: error 2"), "{stdout}");
    assert!(stdout.contains("thesis run: cost "), "{stdout}");
    assert!(stdout.contains("hc12 params: error 3"), "{stdout}");
    assert!(stdout.contains("hc12 run: error 3"), "{stdout}");
    assert!(stdout.contains("de create: error 3"), "{stdout}");
    assert!(stdout.contains("de run: error 3"), "{stdout}");
    assert!(stdout.contains("de bests: error 3"), "{stdout}");
    assert!(stdout.contains("sat: 2 variables, 2 clauses"), "{stdout}");
}

/// Compiles `src` (syntax only) against the header with the extra `flags`; true when it compiles.
fn compiles(src: &str, flags: &[&str]) -> (bool, String) {
    let dir = work_dir!();
    static N: AtomicUsize = AtomicUsize::new(0);
    let file = dir.join(format!("check_{}.c", N.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&file, src).unwrap();
    let out = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args([
            "-std=c99",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
        ])
        .args(flags)
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn metaopt_no_compat_names_removes_the_old_names_only() {
    let new = "#include \"metaopt.h\"\n\
               int main(void) { MetaoptQapSolveOptions o = metaopt_qap_default_solve_options(); \
               MetaoptQapRunResult r = metaopt_qap_run(0, 0, 0); metaopt_qap_free_run_result(&r); return (int)o.runs == 0; }\n";
    let old = "#include \"metaopt.h\"\n\
               int main(void) { RunResult r = metaopt_run(0, 0, 0); metaopt_free_run_result(&r); return 0; }\n";
    let twice = "#include \"metaopt.h\"\n#include \"metaopt.h\"\nint main(void) { ParamsInstance *h = 0; return h != 0; }\n";
    assert!(
        compiles(new, &["-DMETAOPT_NO_COMPAT_NAMES"]).0,
        "{}",
        compiles(new, &["-DMETAOPT_NO_COMPAT_NAMES"]).1
    );
    assert!(compiles(old, &[]).0, "{}", compiles(old, &[]).1);
    assert!(compiles(twice, &[]).0, "{}", compiles(twice, &[]).1);
    let (ok, err) = compiles(old, &["-DMETAOPT_NO_COMPAT_NAMES"]);
    assert!(
        !ok && err.contains("RunResult"),
        "the old names must be gone under METAOPT_NO_COMPAT_NAMES:\n{err}"
    );
    // the thesis's unprefixed names are opt-in
    let thesis = "#include \"metaopt.h\"\nint main(void) { RunResult r = run(0, 0, 0); return r.error_code == 0; }\n";
    assert!(!compiles(thesis, &[]).0);
    assert!(
        compiles(thesis, &["-DMETAOPT_THESIS_NAMES"]).0,
        "{}",
        compiles(thesis, &["-DMETAOPT_THESIS_NAMES"]).1
    );
    assert!(
        compiles(
            thesis,
            &["-DMETAOPT_THESIS_NAMES", "-DMETAOPT_NO_COMPAT_NAMES"]
        )
        .0
    );
}

/// The C example of README.md uses only the current names.
#[test]
fn the_readme_c_example_uses_the_current_names() {
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).unwrap();
    let start = readme
        .find("```c\n#include")
        .expect("README.md has a C example");
    let code = &readme[start + "```c\n".len()..];
    let code = &code[..code.find("```").expect("end of the C example")];
    assert!(
        code.contains("metaopt_qap_ts_solve") || code.contains("metaopt_qap_solve"),
        "{code}"
    );
    let (ok, err) = compiles(code, &["-DMETAOPT_NO_COMPAT_NAMES"]);
    assert!(
        ok,
        "the README's C example does not compile with the current names only:\n{err}"
    );
}

/// Every `#define old new` and `typedef New Old;` of the compatibility block names a function or
/// type that the header declares, and no old name is also a current one.
#[test]
fn every_alias_names_a_declaration() {
    let header = std::fs::read_to_string(crate_dir().join("include/metaopt.h")).unwrap();
    let (body, trailer) = header
        .split_once("#endif  /* METAOPT_H */")
        .expect("include guard");
    let mut aliases = 0;
    for line in trailer.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (old, new) = match words.as_slice() {
            ["#define", old, new] => (*old, *new),
            ["typedef", new, old] => (old.trim_end_matches(';'), *new),
            _ => continue,
        };
        aliases += 1;
        // a function, an enum constant, a struct or an enum of the header
        let declared = if line.starts_with("#define") {
            body.contains(&format!(" {new}(")) || body.contains(&format!(" {new} = "))
        } else {
            body.contains(&format!("typedef struct {new} "))
                || body.contains(&format!("typedef enum {new} "))
        };
        assert!(
            declared,
            "alias {old} -> {new}: the header declares no {new}"
        );
        for current in [
            format!(" {old}("),
            format!(" {old} = "),
            format!("struct {old} "),
            format!("enum {old} "),
        ] {
            assert!(!body.contains(&current), "{old} is still a current name");
        }
    }
    assert!(aliases >= 60, "{aliases} aliases");
}
