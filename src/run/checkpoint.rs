//! Checkpoints: a run's whole state in one versioned, checksummed file, from which the run
//! continues as if it had never stopped.
//!
//! A file is `MAGIC`, the format version (u32, little-endian), the body's length (u64), the body
//! and a CRC-32 of everything before it. The body is a [`Header`] (library version, solver,
//! problem fingerprint, the options that shape the run, device count, MPI rank) and the solver's
//! state, both in postcard (serde). [`decode`] refuses a file from another format or library
//! version, another solver, problem, option set or device count, and a corrupt or truncated one,
//! with a message that says which, before the state is used.
//!
//! The loop of a solver that checkpoints asks its [`Schedule`] after every step whether a
//! checkpoint is due (every `every` seconds) and writes one when the run ends, whatever ended it
//! (interrupt, SIGTERM, time limit, budget), so a later run with a larger budget continues it.
//! Files are written with [`super::output::write_atomic`]: a kill leaves the previous checkpoint.

use crate::error::{Error, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first bytes of every checkpoint file.
pub const MAGIC: [u8; 8] = *b"METAOPT\x1a";
/// The layout of the file and of every solver's state; a change to either bumps it.
pub const FORMAT: u32 = 2;
/// Bytes before the body: magic, format, body length.
const LEAD: usize = 8 + 4 + 8;
/// The largest body read (a state of a million chains of n = 256 fits).
pub const MAX_BODY: u64 = 1 << 40;

/// What a checkpoint is of: checked against the resuming run before its state is used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The library version that wrote it (`CARGO_PKG_VERSION`).
    pub library: String,
    /// The solver: `qap_ts`, `de`, `qiga`, ...
    pub solver: String,
    /// The problem, as [`fingerprint`] describes it.
    pub problem: String,
    /// The options that shape the run's course (not its stops: a resumed run may have a larger
    /// budget or time limit), by name, each as text.
    pub options: Vec<(String, String)>,
    /// The devices the run used (0: the CPU backend), where the state depends on them; None
    /// where it does not (the solver's result is the same on any split).
    pub devices: Option<u32>,
    /// This process's MPI rank and the rank count (0 and 1 without MPI).
    pub rank: u32,
    pub ranks: u32,
}

impl Header {
    /// A header of this library version for `solver` on `problem`.
    pub fn new(solver: &str, problem: String) -> Self {
        Header {
            library: env!("CARGO_PKG_VERSION").to_string(),
            solver: solver.to_string(),
            problem,
            options: Vec::new(),
            devices: None,
            rank: 0,
            ranks: 1,
        }
    }

    /// Adds an option that shapes the run.
    pub fn option(mut self, name: &str, value: impl std::fmt::Display) -> Self {
        self.options.push((name.to_string(), value.to_string()));
        self
    }

    /// Records the device count the state depends on.
    pub fn devices(mut self, n: usize) -> Self {
        self.devices = Some(n as u32);
        self
    }

    /// Records this process's MPI rank among `ranks`.
    pub fn rank(mut self, rank: usize, ranks: usize) -> Self {
        self.rank = rank as u32;
        self.ranks = ranks as u32;
        self
    }

    /// Why a run with header `self` cannot continue from a file with header `file`, if it cannot.
    pub fn mismatch(&self, file: &Header) -> Option<String> {
        if file.library != self.library {
            return Some(format!(
                "written by metaopt {}; this is metaopt {}",
                file.library, self.library
            ));
        }
        if file.solver != self.solver {
            return Some(format!(
                "a state of the {} solver, not of {}",
                file.solver, self.solver
            ));
        }
        if file.problem != self.problem {
            return Some(format!(
                "for another problem: {} (this run: {})",
                file.problem, self.problem
            ));
        }
        for (name, value) in &self.options {
            match file.options.iter().find(|(n, _)| n == name) {
                Some((_, v)) if v == value => {}
                Some((_, v)) => {
                    return Some(format!("option {name} was {v}; this run has {value}"))
                }
                None => return Some(format!("it has no option {name}")),
            }
        }
        if let Some((name, v)) = file
            .options
            .iter()
            .find(|(n, _)| !self.options.iter().any(|(m, _)| m == n))
        {
            return Some(format!("option {name} was {v}; this run has none"));
        }
        if let (Some(a), Some(b)) = (file.devices, self.devices) {
            if a != b {
                return Some(format!("written by a run on {a} devices; this run has {b}"));
            }
        }
        if (file.rank, file.ranks) != (self.rank, self.ranks) {
            return Some(format!(
                "written by rank {} of {}; this is rank {} of {}",
                file.rank, file.ranks, self.rank, self.ranks
            ));
        }
        None
    }
}

/// A fingerprint of a problem: its kind, its size and a CRC-32 of its data (`parts` in order).
pub fn fingerprint(kind: &str, size: &str, parts: &[&[u8]]) -> String {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    format!("{kind} {size}, data checksum {:08x}", h.finalize())
}

/// The little-endian bytes of `v`, for a [`fingerprint`] (a loop: valgrind takes the branches
/// of a flattening iterator over arrays for reads of uninitialised memory).
pub fn le_bytes<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * N);
    for &x in v {
        out.extend_from_slice(&f(x));
    }
    out
}

#[derive(Serialize)]
struct BodyOut<'a, S> {
    header: &'a Header,
    state: &'a S,
}

/// The bytes of a checkpoint of `state` under `header`.
pub fn encode<S: Serialize>(header: &Header, state: &S) -> Result<Vec<u8>> {
    let body = postcard::to_stdvec(&BodyOut { header, state })
        .map_err(|e| Error::Unsupported(format!("cannot serialise the run's state: {e}")))?;
    Ok(frame(&body))
}

/// A checkpoint of `body` (a header and a state as [`encode`] serialises them): the magic, the
/// format, the length, the body and its checksum.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LEAD + body.len() + 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The body of a checkpoint after its frame is checked (magic, format, length, checksum).
fn body<'a>(bytes: &'a [u8], arg: &'static str) -> Result<&'a [u8]> {
    let bad = |msg: String| Error::arg(arg, msg);
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(bad(
            "not a metaopt checkpoint (no metaopt state header)".into()
        ));
    }
    if bytes.len() < LEAD + 4 {
        return Err(bad(format!(
            "a truncated checkpoint: {} bytes, shorter than its header",
            bytes.len()
        )));
    }
    let format = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if format != FORMAT {
        return Err(bad(format!(
            "a checkpoint of format {format}; this library reads format {FORMAT}"
        )));
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let want = (LEAD as u64 + 4).saturating_add(len);
    if len > MAX_BODY || (bytes.len() as u64) < want {
        return Err(bad(format!(
            "a truncated checkpoint: {} bytes of {want}",
            bytes.len()
        )));
    }
    if bytes.len() as u64 > want {
        return Err(bad(format!(
            "a corrupt checkpoint: {} bytes after its end",
            bytes.len() as u64 - want
        )));
    }
    let end = LEAD + len as usize;
    let crc = u32::from_le_bytes(bytes[end..end + 4].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..end]) != crc {
        return Err(bad(
            "a corrupt checkpoint: its checksum does not match".into()
        ));
    }
    Ok(&bytes[LEAD..end])
}

/// The header of a checkpoint (its frame checked), without its state.
pub fn header(bytes: &[u8], arg: &'static str) -> Result<Header> {
    let body = body(bytes, arg)?;
    let (h, _): (Header, _) = postcard::take_from_bytes(body).map_err(|e| {
        Error::arg(
            arg,
            format!("a corrupt checkpoint: its header does not read ({e})"),
        )
    })?;
    Ok(h)
}

/// The header of checkpoint `bytes` (its frame checked) when it is of `expect`'s library
/// version, solver and problem; its options are checked when the run starts. Errors name `arg`
/// and say what differs.
pub fn check_problem(bytes: &[u8], expect: &Header, arg: &'static str) -> Result<Header> {
    let h = header(bytes, arg)?;
    let probe = Header {
        options: h.options.clone(),
        devices: h.devices,
        rank: h.rank,
        ranks: h.ranks,
        ..expect.clone()
    };
    if let Some(why) = probe.mismatch(&h) {
        return Err(Error::arg(
            arg,
            format!("cannot resume from this checkpoint: {why}"),
        ));
    }
    Ok(h)
}

/// The state of a checkpoint whose header agrees with `expect` ([`Header::mismatch`]); errors
/// name `arg` and say what differs.
pub fn decode<S: DeserializeOwned>(bytes: &[u8], expect: &Header, arg: &'static str) -> Result<S> {
    let h = header(bytes, arg)?;
    if let Some(why) = expect.mismatch(&h) {
        return Err(Error::arg(
            arg,
            format!("cannot resume from this checkpoint: {why}"),
        ));
    }
    // the body is the header and the state in sequence (postcard writes a struct as its fields)
    let (_, state): (Header, S) = postcard::from_bytes(body(bytes, arg)?).map_err(|e| {
        Error::arg(
            arg,
            format!("a corrupt checkpoint: its state does not read ({e})"),
        )
    })?;
    Ok(state)
}

/// Reads a checkpoint file, a regular file (at most [`MAX_BODY`] bytes of state); errors name
/// `arg`.
pub fn read(path: &Path, arg: &'static str) -> Result<Vec<u8>> {
    use crate::files::ReadFailure;
    crate::files::read_regular(path, MAX_BODY + LEAD as u64 + 4).map_err(|e| match e {
        ReadFailure::TooLarge(_) => Error::arg(
            arg,
            format!("{} is larger than any checkpoint", path.display()),
        ),
        e => Error::arg(arg, e.message(path)),
    })
}

/// Where and how often a run writes its checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpointing {
    /// The file (written atomically: a kill leaves the previous checkpoint whole).
    pub path: PathBuf,
    /// Seconds between two checkpoints; None: only when the run ends (interrupted or not).
    pub every: Option<Duration>,
    /// Keep the checkpoint before the last as `FILE.prev` (renamed there before the new one is
    /// renamed in). The ranks of a job write their files at the same step but not at the same
    /// instant: a job killed between two ranks' writes still has, for every rank, a file of the
    /// step before, from which it resumes together ([`previous_path`]).
    pub keep_previous: bool,
}

/// Where a plan that keeps the previous checkpoint puts it: `path` with `.prev` added.
pub fn previous_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".prev");
    PathBuf::from(s)
}

impl Checkpointing {
    /// A plan that writes `path` every `every` (None: only when the run ends), keeping no
    /// previous file.
    pub fn new(path: impl Into<PathBuf>, every: Option<Duration>) -> Self {
        Checkpointing {
            path: path.into(),
            every,
            keep_previous: false,
        }
    }

    /// Checks the plan before a run: the file can be written, the interval is positive.
    pub fn check(&self, arg: &'static str) -> Result<()> {
        if let Some(e) = self.every {
            if e.is_zero() {
                return Err(Error::arg(
                    arg,
                    "a checkpoint interval of 0 s; expected more",
                ));
            }
        }
        super::output::check_writable(&self.path, arg)
    }
}

/// When a running solver writes its checkpoint: after a step once `every` has passed since the
/// last, and when the run ends.
pub struct Schedule<'a> {
    plan: Option<&'a Checkpointing>,
    last: Instant,
}

impl<'a> Schedule<'a> {
    pub fn new(plan: Option<&'a Checkpointing>) -> Self {
        Schedule {
            plan,
            last: Instant::now(),
        }
    }

    /// Whether a checkpoint is due after this step.
    pub fn due(&self) -> bool {
        self.plan
            .and_then(|p| p.every)
            .is_some_and(|e| self.last.elapsed() >= e)
    }

    /// Whether the run writes checkpoints at all.
    pub fn active(&self) -> bool {
        self.plan.is_some()
    }

    /// Writes `bytes()` to the plan's file (when there is a plan), atomically.
    pub fn write(&mut self, bytes: impl FnOnce() -> Result<Vec<u8>>) -> Result<()> {
        if let Some(p) = self.plan {
            let bytes = bytes()?;
            if p.keep_previous && p.path.exists() {
                let prev = previous_path(&p.path);
                std::fs::rename(&p.path, &prev).map_err(|e| {
                    Error::arg(
                        "checkpoint",
                        format!(
                            "cannot keep the previous checkpoint as {}: {e}",
                            prev.display()
                        ),
                    )
                })?;
            }
            super::output::write_atomic(&p.path, &bytes)?;
            self.last = Instant::now();
        }
        Ok(())
    }
}

/// The instant a resumed run's clock starts from: `elapsed` seconds before `now`, so its time
/// limit counts the time the run had already taken.
pub fn resumed_start(now: Instant, elapsed: f64) -> Instant {
    Duration::try_from_secs_f64(elapsed)
        .ok()
        .and_then(|d| now.checked_sub(d))
        .unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header::new("test", fingerprint("QAP", "n=3", &[&[1, 2, 3]]))
            .option("seed", 7)
            .option("chains", 4)
    }

    #[test]
    fn a_state_comes_back_as_written() {
        let h = header();
        let state = (vec![1u64, 2, 3], 2.5f64, "x".to_string());
        let bytes = encode(&h, &state).unwrap();
        let back: (Vec<u64>, f64, String) = decode(&bytes, &h, "state").unwrap();
        assert_eq!(back, state);
        assert_eq!(super::header(&bytes, "state").unwrap(), h);
    }

    fn refused(bytes: &[u8], expect: &Header) -> String {
        decode::<(Vec<u64>, f64, String)>(bytes, expect, "state")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_mismatch_is_refused_with_what_differs() {
        let h = header();
        let bytes = encode(&h, &(vec![1u64], 0.0f64, String::new())).unwrap();
        let other = Header::new("test", fingerprint("QAP", "n=3", &[&[1, 2, 4]]))
            .option("seed", 7)
            .option("chains", 4);
        assert!(refused(&bytes, &other).contains("another problem"));
        let seed = Header::new("test", h.problem.clone())
            .option("seed", 8)
            .option("chains", 4);
        assert!(refused(&bytes, &seed).contains("option seed was 7; this run has 8"));
        let solver = Header {
            solver: "de".into(),
            ..h.clone()
        };
        assert!(refused(&bytes, &solver).contains("of the test solver"));
        let version = Header {
            library: "0.0.0".into(),
            ..h.clone()
        };
        assert!(refused(&bytes, &version).contains("written by metaopt"));
        let dev = encode(&h.clone().devices(2), &(vec![1u64], 0.0f64, String::new())).unwrap();
        assert!(refused(&dev, &h.clone().devices(1)).contains("2 devices"));
        let rank = h.clone().rank(1, 2);
        assert!(refused(&bytes, &rank).contains("rank 0 of 1"));
    }

    #[test]
    fn a_damaged_file_is_refused() {
        let h = header();
        let bytes = encode(&h, &(vec![1u64, 2], 1.0f64, "abc".to_string())).unwrap();
        for cut in [0, 5, 19, 30, bytes.len() - 1] {
            let msg = refused(&bytes[..cut], &h);
            assert!(
                msg.contains("truncated") || msg.contains("not a metaopt"),
                "{cut}: {msg}"
            );
        }
        for at in [LEAD, LEAD + 3, bytes.len() - 5, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x40;
            assert!(refused(&b, &h).contains("checksum"), "{at}");
        }
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(refused(&b, &h).contains("format 9"));
        let mut b = bytes.clone();
        b.push(0);
        assert!(refused(&b, &h).contains("after its end"));
        let mut b = bytes.clone();
        b[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(refused(&b, &h).contains("truncated"));
        // a state of another shape under a valid frame
        let wrong = encode(&h, &"only a string").unwrap();
        assert!(refused(&wrong, &h).contains("does not read"));
    }

    #[test]
    fn a_schedule_writes_when_due_and_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Checkpointing::new(dir.path().join("c.state"), Some(Duration::from_millis(20)));
        plan.check("checkpoint").unwrap();
        let mut s = Schedule::new(Some(&plan));
        assert!(!s.due());
        std::thread::sleep(Duration::from_millis(25));
        assert!(s.due());
        s.write(|| Ok(vec![1, 2, 3])).unwrap();
        assert!(!s.due());
        assert_eq!(std::fs::read(&plan.path).unwrap(), [1, 2, 3]);
        let zero = Checkpointing {
            every: Some(Duration::ZERO),
            ..plan.clone()
        };
        assert!(zero.check("checkpoint").is_err());
        let mut none = Schedule::new(None);
        assert!(!none.due() && !none.active());
        none.write(|| panic!("no plan: nothing serialised"))
            .unwrap();
    }

    #[test]
    fn a_resumed_clock_counts_the_time_taken() {
        let now = Instant::now();
        let s = resumed_start(now, 0.5);
        assert!((now - s).as_secs_f64() > 0.49);
        assert_eq!(resumed_start(now, f64::NAN), now);
        assert_eq!(resumed_start(now, -1.0), now);
    }
}
