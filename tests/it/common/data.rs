//! The test data, shared by the library's and the CLI's test crates.

use std::path::PathBuf;

/// The test data: `METAOPT_DATA_DIR` when set (more instances, or test binaries run on another
/// machine), else the repository's `data/` (data/SOURCES.md). It holds `qaplib/`, `satlib/` and
/// `cec2019/`.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("METAOPT_DATA_DIR") {
        Some(d) => PathBuf::from(d),
        // the library's tests run in the repository root, the CLI's in cli/
        None => {
            let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let root = if crate_dir.join("data").is_dir() {
                crate_dir
            } else {
                crate_dir.join("..")
            };
            root.join("data")
        }
    }
}

/// The QAPLIB folder of the test data.
pub fn qaplib() -> PathBuf {
    data_dir().join("qaplib")
}

/// A file of the SATLIB folder of the test data (`rel` like `uf20-91/uf20-01.cnf`; "" for the folder).
pub fn satlib(rel: &str) -> PathBuf {
    data_dir().join("satlib").join(rel)
}
