//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod cbuild;

use metaopt::problem::qap::QapInstance;
use std::path::PathBuf;

/// The shared QAPLIB folder: `QAPLIB_DIR` when set (test binaries run on another machine), else
/// `../shared/data/qaplib` beside the checkout.
pub fn qaplib() -> PathBuf {
    match std::env::var_os("QAPLIB_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/qaplib"),
    }
}

pub fn instance(name: &str) -> QapInstance {
    QapInstance::from_dat(&qaplib().join(format!("{name}.dat"))).unwrap()
}

/// Every shared instance name, sorted.
pub fn all_instances() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(qaplib())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "dat").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}
