//! Batch files of the batched DE (`metaopt de --batch FILE`; docs/specs/DE.md "Batched DE:
//! memory"): a JSON array of problem objects with the keys `function` (a catalogue name, or a
//! CEC 2006 problem `G01` .. `G24` with its box and constraints) or `source` and `data` (files
//! relative to the batch file's folder), `dims`, `lower`, `upper` (a number or one per
//! dimension), `members`, `f`, `cr`, `mutation`, `bounds`, `seed`, `generations`, `target`,
//! `algorithm`, `jde_small`, `lshade_budget`, `integrality` (one flag per dimension),
//! `constraints` (`[NG, NH]`: the counts of a source's `constraints` values) and `eq_tol`.
//! Absent keys take [`BatchProblem::new`]'s defaults and the bounds the function's domain (a
//! source's: 0..1).
//!
//! The files a batch file names must be regular files (not a device, a pipe or a folder); a
//! source holds at most [`MAX_SOURCE_BYTES`], and the batch file, and its sources and data files
//! together, at most [`MAX_FILES_BYTES`] each; nothing past a bound is read.

use super::batch::{BatchConstraints, BatchFunction, BatchProblem};
use crate::error::{Error, Result};
use crate::problem::functions;
use serde::Deserialize;
use std::path::Path;

/// The most bytes one `source` file of a batch file may hold.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;
/// The most bytes of a batch file, and of the `source` and `data` files it names together (a
/// file named by several problems counts for each).
pub const MAX_FILES_BYTES: u64 = 1 << 30;

/// One problem of a batch file; absent keys take `BatchProblem::new`'s defaults, and the bounds
/// the function's domain.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemSpec {
    function: Option<String>,
    /// A user OpenCL source file (relative to the JSON file), instead of `function`.
    source: Option<String>,
    /// Raw bytes for the source's `data` argument (a file relative to the JSON file).
    data: Option<String>,
    dims: u32,
    lower: Option<Bound>,
    upper: Option<Bound>,
    members: Option<u32>,
    f: Option<f64>,
    cr: Option<f64>,
    mutation: Option<String>,
    bounds: Option<String>,
    seed: Option<u64>,
    generations: Option<u64>,
    target: Option<f64>,
    /// `de` (the default), `jade`, `shade`, `lshade`, `jso` (docs/specs/DE.md "Adaptive DE, on
    /// the device") or `jde100` (docs/specs/DE.md "jDE100"; `generations` are its cycles)
    algorithm: Option<String>,
    /// jDE100's small population (default 25; `members` = big + small)
    jde_small: Option<u32>,
    /// L-SHADE's and jSO's evaluation budget (default members x (generations + 1))
    lshade_budget: Option<u64>,
    /// Integer variables: one flag per dimension
    integrality: Option<Vec<bool>>,
    /// `[NG, NH]`: the inequalities and equalities a source's `constraints` writes (a CEC 2006
    /// problem's own by default)
    constraints: Option<[u32; 2]>,
    /// The equalities' tolerance (default 1e-4)
    eq_tol: Option<f64>,
}

/// A bound: one number for every dimension, or one per dimension.
#[derive(Deserialize)]
#[serde(untagged)]
enum Bound {
    One(f64),
    Each(Vec<f64>),
}

impl Bound {
    fn values(self) -> Vec<f64> {
        match self {
            Bound::One(v) => vec![v],
            Bound::Each(v) => v,
        }
    }
}

/// A problem of a batch file and the name its rows show (the function's, or the source's path).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchFileProblem {
    pub problem: BatchProblem,
    pub name: String,
}

/// What serves the files a batch file names ([`parse_batch_file`]): `(key, rel, max)` to the
/// bytes of `rel`, at most `max`, or why not.
pub type BatchFiles<'a> = dyn FnMut(&str, &str, u64) -> std::result::Result<Vec<u8>, String> + 'a;

/// The bytes of the regular file `p`, at most `max` of them ([`crate::files::read_regular`]);
/// errors name `key` and the path.
fn read_regular(p: &Path, key: &str, max: u64) -> std::result::Result<Vec<u8>, String> {
    use crate::files::ReadFailure;
    crate::files::read_regular(p, max).map_err(|e| match e {
        ReadFailure::TooLarge(_) => format!(
            "{key}: {} holds more than {max} bytes (at most {MAX_SOURCE_BYTES} bytes a source, \
             {MAX_FILES_BYTES} bytes a batch file and {MAX_FILES_BYTES} bytes of its sources and \
             data together)",
            p.display()
        ),
        e => format!("{key}: {}", e.message(p)),
    })
}

/// Reads the batch file `path` (a regular file of at most [`MAX_FILES_BYTES`]) and the files its
/// problems name, resolved against its folder. Errors are [`Error::Parse`] of `path`: at the
/// line of a JSON error, else line 0 with the problem's index and key.
pub fn read_batch_file(path: &Path) -> Result<Vec<BatchFileProblem>> {
    let at0 = |msg: String| Error::parse(path, 0, msg);
    let text = read_regular(path, "batch file", MAX_FILES_BYTES).map_err(at0)?;
    let text = String::from_utf8(text).map_err(|_| at0("not UTF-8 text".into()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut files = |key: &str, rel: &str, max: u64| read_regular(&dir.join(rel), key, max);
    parse_batch_file(&text, path, &mut files)
}

/// The problems of a batch file's `text` (`path` names it in errors); `files(key, rel, max)`
/// gives the bytes of the file `rel` of key `source` or `data`, at most `max` of them, or the
/// message of why not ([`read_batch_file`]: read beside the batch file). The bounds of
/// [`MAX_SOURCE_BYTES`] and [`MAX_FILES_BYTES`] are asked of `files` and checked again here.
pub fn parse_batch_file(
    text: &str,
    path: &Path,
    files: &mut BatchFiles<'_>,
) -> Result<Vec<BatchFileProblem>> {
    let specs: Vec<ProblemSpec> = serde_json::from_str(text).map_err(|e| {
        Error::parse(
            path,
            e.line(),
            format!("{e} (expected a JSON array of problem objects)"),
        )
    })?;
    if specs.is_empty() {
        return Err(Error::parse(path, 0, "no problems"));
    }
    // bytes the sources and data files may still take
    let mut budget = MAX_FILES_BYTES;
    let mut read = |key: &str, rel: &str, max: u64| -> std::result::Result<Vec<u8>, String> {
        let bytes = files(key, rel, max)?;
        if bytes.len() as u64 > max {
            return Err(format!("{key}: {rel} holds more than {max} bytes"));
        }
        Ok(bytes)
    };
    specs
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let at = |msg: String| Error::parse(path, 0, format!("problem {i}: {msg}"));
            let mut cec = None;
            let (function, name, domain) = match (s.function, s.source) {
                (Some(f), None)
                    if functions::lookup(&f).is_err()
                        && crate::problem::cec2006::info(&f).is_ok() =>
                {
                    let p = BatchProblem::cec2006(&f).map_err(|e| at(e.to_string()))?;
                    if p.dims != s.dims {
                        return Err(at(format!("dims {}: {f} has {} variables", s.dims, p.dims)));
                    }
                    let r = (p.function.clone(), f.to_uppercase(), (0.0, 1.0));
                    cec = Some(p);
                    r
                }
                (Some(f), None) => {
                    let info = functions::lookup(&f).map_err(|e| at(e.to_string()))?;
                    (BatchFunction::Name(f), info.name.to_string(), info.domain)
                }
                (None, Some(src)) => {
                    let code = read("source", &src, MAX_SOURCE_BYTES.min(budget)).map_err(at)?;
                    budget -= code.len() as u64;
                    let code = String::from_utf8(code)
                        .map_err(|_| at(format!("source: {src} is not UTF-8 text")))?;
                    let data = match &s.data {
                        Some(d) => {
                            let data = read("data", d, budget).map_err(at)?;
                            budget -= data.len() as u64;
                            data
                        }
                        None => Vec::new(),
                    };
                    (BatchFunction::source(code, data), src, (0.0, 1.0))
                }
                (Some(_), Some(_)) => return Err(at("give function or source, not both".into())),
                (None, None) => {
                    return Err(at(
                        "give function (a catalogue name) or source (a file)".into()
                    ))
                }
            };
            if s.data.is_some() && !matches!(function, BatchFunction::Source { .. }) {
                return Err(at("data needs source".into()));
            }
            let mut p = match cec {
                // its box, its constraints
                Some(p) => p,
                None => BatchProblem::new(function, s.dims, domain.0, domain.1),
            };
            if let Some(l) = s.lower {
                p.lower = l.values();
            }
            if let Some(u) = s.upper {
                p.upper = u.values();
            }
            if let Some(m) = s.members {
                p.members = m;
            }
            if let Some(f) = s.f {
                p.f = f;
            }
            if let Some(cr) = s.cr {
                p.cr = cr;
            }
            if let Some(m) = s.mutation {
                p.mutation = m.parse().map_err(|e: Error| at(e.to_string()))?;
            }
            if let Some(b) = s.bounds {
                p.bounds = b.parse().map_err(|e: Error| at(e.to_string()))?;
            }
            if let Some(seed) = s.seed {
                p.seed = seed;
            }
            if let Some(g) = s.generations {
                p.max_generations = g;
            }
            p.target = s.target;
            if let Some(a) = s.algorithm {
                p.algorithm = a.parse().map_err(|e: Error| at(e.to_string()))?;
            }
            if let Some(n) = s.jde_small {
                p.jde_small = n;
            }
            if let Some(b) = s.lshade_budget {
                p.lshade_budget = b;
            }
            if let Some(f) = s.integrality {
                p.integrality = f;
            }
            if let Some([ng, nh]) = s.constraints {
                p.constraints = Some(BatchConstraints::new(ng, nh));
            }
            if let Some(tol) = s.eq_tol {
                match &mut p.constraints {
                    Some(c) => c.eq_tol = tol,
                    None => return Err(at("eq_tol needs constraints".into())),
                }
            }
            Ok(BatchFileProblem { problem: p, name })
        })
        .collect()
}
