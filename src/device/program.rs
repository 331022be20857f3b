//! Device programs as data (the model is CLBlast's `InitProgram`): a solver describes a program
//! as a [`ProgramSpec`] (kernel files of `cl/`, extra source such as a user's objective, in
//! order, and the defines), and [`DeviceContext::build`] builds it once per device, source hash
//! and options, and caches it. No solver concatenates sources or formats `-D` flags itself.
//!
//! A build runs on a thread of its own so that its caller can stop waiting: a solver's set-up
//! counts in its time limit and answers an interrupt ([`Cut::during_setup`]), while the
//! compiler, which cannot be cancelled, finishes in the background into the cache.

use super::{cl_error, kernel_source, DeviceContext};
use crate::error::{Error, Result};
use crate::run::cancel::{setup_cut, Clock, Cut, Watch};
use opencl3::error_codes::ClError;
use opencl3::program::Program;
use opencl3::types::cl_device_id;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// One piece of a program's source.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// A kernel file of `cl/` (found as `device::kernel_source` finds it).
    File(&'static str),
    /// Source text (a user's objective, a catalogue objective's glue).
    Text(String),
}

/// What a program is made of: its sources in order and its preprocessor defines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramSpec {
    parts: Vec<Part>,
    defines: Vec<(String, String)>,
}

impl ProgramSpec {
    /// The kernel files of `cl/`, in order.
    pub fn files(files: &[&'static str]) -> Self {
        ProgramSpec {
            parts: files.iter().map(|f| Part::File(f)).collect(),
            defines: Vec::new(),
        }
    }

    /// Appends a kernel file of `cl/`.
    pub fn file(mut self, name: &'static str) -> Self {
        self.parts.push(Part::File(name));
        self
    }

    /// Appends source text.
    pub fn text(mut self, src: impl Into<String>) -> Self {
        self.parts.push(Part::Text(src.into()));
        self
    }

    /// `-D name=value`; a later define of the same name replaces the earlier one.
    pub fn define(mut self, name: &str, value: impl Display) -> Self {
        let value = value.to_string();
        match self.defines.iter_mut().find(|(n, _)| n == name) {
            Some(d) => d.1 = value,
            None => self.defines.push((name.to_string(), value)),
        }
        self
    }

    /// `-D name=value` with an unsigned literal (`123u`), for sizes compared with `uint`.
    pub fn define_u(self, name: &str, value: impl Display) -> Self {
        self.define(name, format!("{value}u"))
    }

    /// Defines given as `-DNAME=VALUE` flags (what an objective's `build_options` gives); a
    /// flag without `=` defines the name as 1.
    pub fn flags(mut self, flags: &str) -> Self {
        for f in flags.split_whitespace() {
            let d = f.strip_prefix("-D").unwrap_or(f);
            self = match d.split_once('=') {
                Some((n, v)) => self.define(n, v),
                None => self.define(d, 1),
            };
        }
        self
    }

    /// Every define of `other` added to (or replacing those of) this spec.
    pub fn defines_of(mut self, other: &ProgramSpec) -> Self {
        for (n, v) in &other.defines {
            self = self.define(n, v);
        }
        self
    }

    /// The value of define `name`, if any.
    pub fn define_value(&self, name: &str) -> Option<&str> {
        self.defines
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The whole source text, files read now.
    pub fn source(&self) -> Result<String> {
        let mut src = String::new();
        for p in &self.parts {
            match p {
                Part::File(f) => src.push_str(&kernel_source(f)?),
                Part::Text(t) => src.push_str(t),
            }
            src.push('\n');
        }
        Ok(src)
    }

    /// The build options: the defines as `-D` flags, in the order given.
    pub fn options(&self) -> String {
        self.defines
            .iter()
            .map(|(n, v)| format!("-D{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl DeviceContext {
    /// Builds `spec` on this device, once per (source, options): later calls return the cached
    /// program, and a call for a program another call is building waits for that build. A
    /// failed build's error carries the build log and the options.
    ///
    /// The compiler runs on a thread of its own, and the caller waits for it while asking the
    /// cut of the set-up it runs in ([`Cut::during_setup`]; else the process-wide interrupt):
    /// when that cut comes due first, the call returns at once with the cut's error and the
    /// build finishes in the background into the cache, for the next call.
    pub fn build(&self, spec: &ProgramSpec) -> Result<Arc<Program>> {
        let src = spec.source()?;
        let options = format!("-cl-std=CL1.2 {}", spec.options());
        let mut h = DefaultHasher::new();
        src.hash(&mut h);
        let key = (h.finish(), options.clone());
        let cut = setup_cut().unwrap_or_else(|| Cut {
            clock: Clock::new(None),
            watch: Watch::new(None),
        });
        let build = match self.programs.find(&key) {
            Some(b) => b,
            None => {
                let program = Program::create_from_source(&self.context, &src)
                    .map_err(cl_error("clCreateProgramWithSource"))?;
                let (build, fresh) = self.programs.claim(&key);
                if fresh {
                    let job = Job {
                        programs: self.programs.clone(),
                        key,
                        build: build.clone(),
                        device: self.info.cl_id(),
                        name: format!("device {} ({})", self.info.index, self.info.name),
                        options,
                    };
                    job.start(program);
                }
                build
            }
        };
        build.wait(&cut)
    }
}

/// A build's outcome as its waiters share it (an [`Error`] is not `Clone`).
#[derive(Clone, Debug)]
enum Failure {
    /// The compiler's log (`Error::KernelBuild`).
    Log { device: String, log: String },
    /// `clBuildProgram` failed with this code and no log.
    Code(i32),
}

impl Failure {
    fn error(&self) -> Error {
        match self {
            Failure::Log { device, log } => Error::KernelBuild {
                device: device.clone(),
                log: log.clone(),
            },
            Failure::Code(c) => cl_error("clBuildProgram")(ClError(*c)),
        }
    }
}

type Outcome = std::result::Result<Arc<Program>, Failure>;

/// One program of the cache: built, or being built (its waiters are woken when it is done).
#[derive(Default)]
struct Build {
    outcome: Mutex<Option<Outcome>>,
    done: Condvar,
}

impl Build {
    /// The outcome, waited for while `cut` is not due (asked every few milliseconds). A stop
    /// requested before the wait began is left to the solver, which answers it after its
    /// set-up as it always does (with its result), so that such a call does not depend on
    /// whether its program happened to be cached; a stop requested during the wait and the
    /// time limit end it.
    fn wait(&self, cut: &Cut) -> Result<Arc<Program>> {
        let stopped_before = cut.watch.stopped();
        let mut out = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(o) = &*out {
                return o.clone().map_err(|f| f.error());
            }
            let interrupted = !stopped_before && cut.watch.stopped();
            if interrupted || cut.clock.expired() {
                return Err(Error::cut_short(
                    interrupted,
                    "the set-up (building the device program)",
                ));
            }
            out = self
                .done
                .wait_timeout(out, WAIT_STEP)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn finish(&self, outcome: Outcome) {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
        self.done.notify_all();
    }
}

/// How often a caller waiting for a build asks its cut.
const WAIT_STEP: Duration = Duration::from_millis(5);

/// The programs of one device context by (source hash, build options): built, or in flight.
/// A failed build leaves the cache, so that the next call tries again.
#[derive(Clone, Default)]
pub(crate) struct Programs(Arc<Mutex<HashMap<Key, Arc<Build>>>>);

/// A program's key: its source's hash and its build options.
type Key = (u64, String);

impl Programs {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<Build>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn find(&self, key: &Key) -> Option<Arc<Build>> {
        self.map().get(key).cloned()
    }

    /// The build of `key`, and whether this call made it (and so must start it).
    fn claim(&self, key: &Key) -> (Arc<Build>, bool) {
        let mut map = self.map();
        match map.get(key) {
            Some(b) => (b.clone(), false),
            None => {
                let b = Arc::new(Build::default());
                map.insert(key.clone(), b.clone());
                (b, true)
            }
        }
    }

    /// How many programs are built and kept.
    pub(crate) fn built(&self) -> usize {
        self.map()
            .values()
            .filter(|b| {
                b.outcome
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
                    .is_some_and(|o| o.is_ok())
            })
            .count()
    }
}

/// The builds running on their threads, process-wide. A process must not end while one runs:
/// the OpenCL driver's exit handlers would tear the compiler down under it (a crash at exit),
/// and the program would not reach the driver's on-disk cache, so that every later run with the
/// same short time limit would be cut in its build again. The first build registers an exit
/// handler that waits for them ([`finish_builds`]); registered after the driver was loaded, it
/// runs before the driver's own handlers, but not before those the compiler registers during a
/// build: a host that ends its process calls [`finish_builds`] first (the CLI before it returns,
/// the Python module in its exit hook, the MEX gateway in `mexAtExit`).
struct InFlight;

static IN_FLIGHT: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

impl InFlight {
    fn enter() {
        static AT_EXIT: std::sync::Once = std::sync::Once::new();
        AT_EXIT.call_once(|| {
            extern "C" fn at_exit() {
                finish_builds();
            }
            // SAFETY: registering a plain function with no arguments; if it cannot be
            // registered, the process may end during a build as it could before.
            unsafe {
                libc::atexit(at_exit);
            }
        });
        *IN_FLIGHT.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
    }

    fn leave() {
        let mut n = IN_FLIGHT.0.lock().unwrap_or_else(|e| e.into_inner());
        *n = n.saturating_sub(1);
        IN_FLIGHT.1.notify_all();
    }
}

/// How many device program builds are running on their threads (builds whose callers stopped
/// waiting for them, or being waited for).
pub fn builds_in_flight() -> usize {
    *IN_FLIGHT.0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Waits until no device program build runs: what a process does before it ends (the library
/// does it at exit by itself), so that the compiler is not torn down under a build and the
/// program reaches the driver's cache for the next run.
pub fn finish_builds() {
    let mut n = IN_FLIGHT.0.lock().unwrap_or_else(|e| e.into_inner());
    while *n > 0 {
        n = IN_FLIGHT.1.wait(n).unwrap_or_else(|e| e.into_inner());
    }
}

/// One compilation, run on a thread of its own.
struct Job {
    programs: Programs,
    key: Key,
    build: Arc<Build>,
    device: cl_device_id,
    name: String,
    options: String,
}

// SAFETY: a device id is a handle valid in any thread (OpenCL 1.2 appendix A.2).
unsafe impl Send for Job {}

impl Job {
    /// Compiles `program` on a new thread (on this one when no thread can be made).
    fn start(self, program: Program) {
        let slot = Arc::new(Mutex::new(Some((self, program))));
        let take =
            |s: &Mutex<Option<(Job, Program)>>| s.lock().unwrap_or_else(|e| e.into_inner()).take();
        let theirs = slot.clone();
        InFlight::enter();
        let spawned = std::thread::Builder::new()
            .name("metaopt-build".into())
            .spawn(move || match take(&theirs) {
                Some((job, program)) => job.run(program),
                None => InFlight::leave(),
            });
        if spawned.is_err() {
            match take(&slot) {
                Some((job, program)) => job.run(program),
                None => InFlight::leave(),
            }
        }
    }

    /// Compiles, then leaves the builds in flight and hands the outcome to the waiters.
    fn run(self, mut program: Program) {
        let outcome = match program.build(&[self.device], &self.options) {
            Ok(()) => Ok(Arc::new(program)),
            Err(e) => {
                let log = program.get_build_log(self.device).unwrap_or_default();
                // CL_BUILD_PROGRAM_FAILURE (-11) and CL_INVALID_BUILD_OPTIONS (-43) carry a log
                if e.0 == -11 || e.0 == -43 || !log.trim().is_empty() {
                    Err(Failure::Log {
                        device: self.name,
                        log: format!("options: {}\n{}", self.options, log.trim()),
                    })
                } else {
                    Err(Failure::Code(e.0))
                }
            }
        };
        if outcome.is_err() {
            self.programs.map().remove(&self.key);
        }
        // the compiler is done: the build leaves the count before its waiters wake, so that a
        // process whose last wait it was ends without waiting for this thread to be scheduled
        InFlight::leave();
        self.build.finish(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_render_in_order_and_replace() {
        let s = ProgramSpec::files(&["common.cl"])
            .define("FP", "float")
            .define_u("ROWS", 12)
            .flags("-DFP=double -DX");
        assert_eq!(s.options(), "-DFP=double -DROWS=12u -DX=1");
        assert_eq!(s.define_value("ROWS"), Some("12u"));
    }

    #[test]
    fn source_concatenates_files_and_text() {
        let s = ProgramSpec::files(&["common.cl"]).text("// user text");
        let src = s.source().unwrap();
        assert!(src.starts_with(&kernel_source("common.cl").unwrap()));
        assert!(src.ends_with("// user text\n"));
    }
}
