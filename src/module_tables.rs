//! Every module has a row in its parent's module table, so the docs list the whole crate.
//!
//! The format: a file that declares file modules (`mod name;`, `pub mod name;`,
//! `pub(crate) mod name;`) holds, in its `//!` doc, a markdown table whose rows start with the
//! module's name in backticks, as an intra-doc link for a public module (``| [`name`] | ... |``)
//! or plain for a private one (``| `name` | ... |``: rustdoc refuses public links to private
//! items). Modules compiled only for tests (`#[cfg(test)]` on the line before) need no row. Every
//! row must name a module the file declares, so a removed module leaves no stale row.
//!
//! The check covers the library (`src/`) and the command-line crate (`cli/src/`), whose
//! `main.rs` and `mod.rs` files follow the same format.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The file modules a source declares (`mod x;` with any visibility), less the test-only ones;
/// and the inline modules (`mod x {`), which may have rows too.
fn declared(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut files, mut inline) = (BTreeSet::new(), BTreeSet::new());
    let mut prev = "";
    for line in text.lines() {
        let t = line.trim();
        let rest = t
            .strip_prefix("pub ")
            .or_else(|| {
                t.strip_prefix("pub(")
                    .and_then(|r| r.split_once(") ").map(|(_, r)| r))
            })
            .unwrap_or(t);
        if let Some(m) = rest.strip_prefix("mod ") {
            let name: String = m
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = m[name.len()..].trim_start();
            if after.starts_with(';') && prev != "#[cfg(test)]" {
                files.insert(name);
            } else if after.starts_with('{') {
                inline.insert(name);
            }
        }
        if !t.is_empty() {
            prev = t;
        }
    }
    (files, inline)
}

/// The names in the first column of the `//!` doc's tables: ``[`name`]`` or `` `name` ``.
fn tabled(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("//! |"))
        .filter_map(|row| {
            let cell = row.split('|').next()?.trim();
            let cell = cell.strip_prefix('[').unwrap_or(cell);
            let name = cell.strip_prefix('`')?.split('`').next()?;
            (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| name.to_string())
        })
        .collect()
}

#[test]
fn every_module_has_a_row_in_its_parents_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "cli/src"] {
        if root.join(dir).is_dir() {
            rust_files(&root.join(dir), &mut files);
        }
    }
    files.sort();
    let mut problems = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (mods, inline) = declared(&text);
        if mods.is_empty() {
            continue;
        }
        checked += 1;
        let rows = tabled(&text);
        let rel = f.strip_prefix(root).unwrap_or(f).display();
        for m in mods.difference(&rows) {
            problems.push(format!(
                "{rel}: module `{m}` has no row in the `//!` module table"
            ));
        }
        for r in rows
            .iter()
            .filter(|r| !mods.contains(*r) && !inline.contains(*r))
        {
            problems.push(format!(
                "{rel}: the module table names `{r}`, which is not declared here"
            ));
        }
    }
    assert!(
        checked > 0,
        "no module declarations found under {}",
        root.display()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_format_is_read_as_documented() {
    let src = [
        "//! | module | what |",
        "//! |---|---|",
        "//! | [`alpha`] | a |",
        "//! | `beta` | b |",
        "pub mod alpha;",
        "mod beta;",
        "pub(crate) mod gamma;",
        "#[cfg(test)]",
        "mod tests;",
        "mod inner {",
    ]
    .join("\n");
    let src = src.as_str();
    let (mods, inline) = declared(src);
    assert_eq!(mods, ["alpha", "beta", "gamma"].map(String::from).into());
    assert_eq!(inline, ["inner"].map(String::from).into());
    assert_eq!(tabled(src), ["alpha", "beta"].map(String::from).into());
}
