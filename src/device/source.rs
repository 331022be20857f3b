//! Kernel source lookup: `METAOPT_CL_DIR`, then `cl/` beside the loaded shared library, then the
//! source tree's `cl/`, and last the copy embedded in the binary, so an installed library still
//! works and a developer can edit kernels without rebuilding.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Environment variable naming a folder of kernel sources that overrides every other.
pub const CL_DIR_ENV: &str = "METAOPT_CL_DIR";

macro_rules! embedded {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/cl/", $name)))),*]
    };
}

/// Every kernel file, embedded at build time.
const EMBEDDED: &[(&str, &str)] = embedded![
    "common.cl",
    "hc12.cl",
    "tabu.cl",
    "qap.cl",
    "hc12_eval.cl",
    "functions.cl",
    "sat.cl",
    "sat_sls.cl",
    "constraints.cl",
    "de.cl",
    "de_batch.cl",
    "qap_ts.cl",
    "qiga.cl",
    "aco.cl",
    "sp.cl",
    "awvd.cl",
    "bh.cl",
    "cec2006.cl",
];

/// The folder of the shared object (or executable) this code was loaded from.
fn loaded_object_dir() -> Option<PathBuf> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the address of a function of this object and fills `info`.
    let ok = unsafe { libc::dladdr(loaded_object_dir as *const libc::c_void, &mut info) };
    if ok == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dli_fname is a NUL-terminated string owned by the dynamic loader.
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }
        .to_str()
        .ok()?;
    let p = std::fs::canonicalize(name).ok()?;
    p.parent().map(Path::to_path_buf)
}

/// The folder kernel sources are read from, or None when the embedded copies are used.
pub fn source_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var(CL_DIR_ENV) {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = loaded_object_dir().map(|d| d.join("cl")) {
        if d.join("common.cl").is_file() {
            return Some(d);
        }
    }
    let tree = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cl"));
    if tree.join("common.cl").is_file() {
        return Some(tree);
    }
    None
}

/// The text of kernel file `name` (e.g. `"qap.cl"`).
pub fn kernel_source(name: &str) -> Result<String> {
    if let Some(dir) = source_dir() {
        let p = dir.join(name);
        match std::fs::read_to_string(&p) {
            Ok(s) => return Ok(s),
            // METAOPT_CL_DIR is the user's explicit choice: a missing file there is an error
            Err(e) if std::env::var(CL_DIR_ENV).is_ok() => {
                return Err(Error::Io { path: p, source: e })
            }
            Err(_) => {}
        }
    }
    EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s.to_string())
        .ok_or_else(|| Error::arg("kernel file", format!("no kernel source named `{name}`")))
}

/// The embedded copy of `name` (for tests that the fallback matches the tree).
pub fn embedded_source(name: &str) -> Option<&'static str> {
    EMBEDDED.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    /// Every kernel file of `cl/` is embedded, so an installed library without the folder finds it.
    #[test]
    fn every_kernel_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cl");
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".cl") {
                assert!(
                    super::EMBEDDED.iter().any(|(n, _)| *n == name),
                    "cl/{name} is not embedded"
                );
            }
        }
    }
}
