//! Output helpers shared by the subcommands: the CLI's error type and the renaming of library
//! parameters to flags, writing to stdout without panicking on a closed pipe, CSV tables,
//! progress bars, number formatting, the statistics of a set of values, default input files
//! found from the working directory or the source tree, and timed repetitions.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// An error as the user sees it: one line after `error: `.
#[derive(Debug)]
pub struct Failure(pub String);

pub type CliResult<T = ()> = Result<T, Failure>;

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<metaopt::Error> for Failure {
    fn from(e: metaopt::Error) -> Self {
        Failure(e.to_string())
    }
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Self {
        Failure(s.to_string())
    }
}

/// An argument error that names the command-line flag rather than the library's parameter name.
pub fn flag_error(flag: &str, e: metaopt::Error) -> Failure {
    match e {
        metaopt::Error::InvalidArgument { msg, .. } => Failure(format!("{flag}: {msg}")),
        other => Failure(format!("{flag}: {other}")),
    }
}

/// A library error as the user sees it: an invalid argument whose library name `table` maps to a
/// flag (`(library name, flag)`) names the flag; any other error passes through.
pub fn renamed(e: metaopt::Error, table: &[(&str, &str)]) -> Failure {
    if let metaopt::Error::InvalidArgument { arg, .. } = &e {
        if let Some((_, flag)) = table.iter().find(|(name, _)| name == arg) {
            return flag_error(flag, e);
        }
    }
    e.into()
}

/// [`renamed`] for a command with a CPU backend: a missing device suggests `--cpu`.
pub fn renamed_or_cpu(e: metaopt::Error, table: &[(&str, &str)]) -> Failure {
    match e {
        metaopt::Error::NoDevice(_) => Failure(format!("{e}; or use --cpu")),
        e => renamed(e, table),
    }
}

/// The file of `--output`, created at the first [`print`] under a temporary name beside its
/// target and renamed over it by [`commit_output`] when the command ends (successfully, or
/// interrupted with its best so far), so a command that fails leaves no file and a killed one
/// never a truncated file.
struct Output {
    path: PathBuf,
    file: Mutex<Option<OutFile>>,
}

static OUTPUT: OnceLock<Output> = OnceLock::new();

/// `--output FILE`: what [`print`] writes goes to `path` instead of stdout. Set once, in
/// `main`, before the command runs.
pub fn set_output(path: PathBuf) {
    let _ = OUTPUT.set(Output {
        path,
        file: Mutex::new(None),
    });
}

/// Writes `text` to stdout, or to the `--output` file. A reader that went away
/// (`metaopt devices | head -1`) is not an error: the output is simply no longer wanted.
pub fn print(text: &str) -> CliResult {
    if let Some(o) = OUTPUT.get() {
        let fail = |e: std::io::Error| {
            Failure(format!("--output: cannot write {}: {e}", o.path.display()))
        };
        let mut f = o.file.lock().unwrap_or_else(|p| p.into_inner());
        if f.is_none() {
            *f = Some(OutFile::create(&o.path, "--output: ")?);
        }
        let file = f.as_mut().expect("opened above");
        return file
            .write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .map_err(fail);
    }
    let mut so = std::io::stdout().lock();
    match so.write_all(text.as_bytes()).and_then(|_| so.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure(format!("cannot write to stdout: {e}"))),
    }
}

/// Renames the `--output` file, when something was printed, over its target.
pub fn commit_output() -> CliResult {
    let Some(o) = OUTPUT.get() else {
        return Ok(());
    };
    let file = o.file.lock().unwrap_or_else(|p| p.into_inner()).take();
    match file {
        Some(f) => f.commit("--output: "),
        None => Ok(()),
    }
}

/// Removes the temporary file of `--output` unrenamed (after an error, a panic or a second
/// signal). Never waits: from a signal's thread or a panic it gives up if the file is in use.
pub fn discard_output() {
    if let Some(o) = OUTPUT.get() {
        let file = match o.file.try_lock() {
            Ok(mut f) => f.take(),
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().take(),
            Err(std::sync::TryLockError::WouldBlock) => None,
        };
        drop(file);
    }
}

/// Whether `path` is an existing file that is not a regular one (a device such as /dev/null, a
/// FIFO): written in place, since a rename would replace it.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The file a path names: a symbolic link's target, so that the rename replaces the file it
/// points to and keeps the link.
fn resolved(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// An output file: written under a temporary name beside the target and renamed over it
/// ([`metaopt::run::output::AtomicFile`]), or written in place where the target is a device or
/// a FIFO.
pub enum OutFile {
    Atomic(metaopt::run::output::AtomicFile),
    InPlace(File),
}

impl OutFile {
    /// A new output file for `path`; an error starts with `what` (a flag and `: `, or nothing).
    pub fn create(path: &Path, what: &str) -> CliResult<Self> {
        let fail = |e: String| Failure(format!("{what}cannot write {}: {e}", path.display()));
        if is_special(path) {
            return std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map(OutFile::InPlace)
                .map_err(|e| fail(e.to_string()));
        }
        metaopt::run::output::AtomicFile::create(&resolved(path))
            .map(OutFile::Atomic)
            .map_err(|e| Failure(format!("{what}{}", io_cause(e))))
    }

    /// Renames the file over its target (flushes one written in place).
    pub fn commit(self, what: &str) -> CliResult {
        match self {
            OutFile::Atomic(f) => f
                .commit()
                .map_err(|e| Failure(format!("{what}{}", io_cause(e)))),
            OutFile::InPlace(mut f) => f
                .flush()
                .map_err(|e| Failure(format!("{what}cannot write: {e}"))),
        }
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            OutFile::Atomic(f) => f.write(buf),
            OutFile::InPlace(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            OutFile::Atomic(f) => f.flush(),
            OutFile::InPlace(f) => f.flush(),
        }
    }
}

/// A library error of writing a file, as `cannot write PATH: cause` (the library's I/O error
/// says `cannot read`).
fn io_cause(e: metaopt::Error) -> String {
    match e {
        metaopt::Error::Io { path, source } => {
            format!("cannot write {}: {source}", path.display())
        }
        e => e.to_string(),
    }
}

/// Writes `bytes` to `path` as a whole: under a temporary name beside it, renamed over it (in
/// place for a device or a FIFO); an error starts with `what` (a flag and `: `, or nothing).
pub fn write_file(path: &Path, what: &str, bytes: impl AsRef<[u8]>) -> CliResult {
    let mut f = OutFile::create(path, what)?;
    f.write_all(bytes.as_ref())
        .map_err(|e| Failure(format!("{what}cannot write {}: {e}", path.display())))?;
    f.commit(what)
}

/// Checks, before the command's work, that every file it will write (`outputs`: the flag and
/// the path) can be written: `-` is standard output, a device or FIFO is written in place, any
/// other path goes through [`metaopt::run::output::check_writable`]. The error names the flag.
pub fn check_outputs(outputs: &[(&'static str, PathBuf)]) -> CliResult {
    for (flag, path) in outputs {
        if path.as_os_str() == "-" || is_special(path) {
            continue;
        }
        metaopt::run::output::check_writable(&resolved(path), flag)
            .map_err(|e| flag_error(flag, e))?;
    }
    Ok(())
}

/// A CSV writer's error.
pub fn csv_error(e: impl fmt::Display) -> Failure {
    Failure(format!("cannot write CSV: {e}"))
}

/// The bytes of a finished CSV table.
pub fn csv_bytes(w: csv::Writer<Vec<u8>>) -> CliResult<Vec<u8>> {
    w.into_inner().map_err(csv_error)
}

/// A CSV table of `header` and `rows` as a file; a failure to write names `what` (a flag or
/// nothing) and the path.
pub fn write_csv_file<R>(
    path: &Path,
    what: &str,
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> CliResult
where
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(csv_error)?;
    for r in rows {
        w.write_record(r).map_err(csv_error)?;
    }
    write_file(path, what, csv_bytes(w)?)
}

/// Prints a finished CSV table on stdout and, when `file` is given, writes it there too: how
/// every benchmark command ends.
pub fn finish_csv(w: csv::Writer<Vec<u8>>, file: Option<&Path>) -> CliResult {
    let bytes = csv_bytes(w)?;
    let text = String::from_utf8(bytes).map_err(|e| Failure(format!("CSV is not UTF-8: {e}")))?;
    print(&text)?;
    if let Some(f) = file {
        write_file(f, "--csv: ", &text)?;
        eprintln!("CSV written to {}", f.display());
    }
    Ok(())
}

/// One JSON document on stdout, followed by a newline.
pub fn print_json<T: serde::Serialize>(value: &T) -> CliResult {
    let mut s =
        serde_json::to_string(value).map_err(|e| Failure(format!("cannot encode JSON: {e}")))?;
    s.push('\n');
    print(&s)
}

/// A progress bar on stderr with `template` (indicatif's syntax), ticking by itself.
pub fn progress_bar(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.set_draw_target(ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A progress bar over a time limit, its position in milliseconds, moved by a thread of its own
/// until the bar is finished.
pub fn time_bar(limit: Duration) -> ProgressBar {
    let bar = progress_bar(
        ProgressBar::new(limit.as_millis().max(1) as u64),
        &format!(
            "{{spinner}} [{{bar:30}}] {{elapsed}} of {}s  {{msg}}",
            float(limit.as_secs_f64())
        ),
    );
    let (b, t0) = (bar.clone(), std::time::Instant::now());
    std::thread::spawn(move || {
        while !b.is_finished() {
            b.set_position(t0.elapsed().as_millis() as u64);
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    bar
}

/// A spinner with the elapsed time and a message, for a search nothing bounds in advance.
pub fn spinner() -> ProgressBar {
    progress_bar(ProgressBar::new_spinner(), "{spinner} {elapsed}  {msg}")
}

/// The bar of a search stopped by a count (`unit` {pos}/{len}) or a time limit, whichever is
/// given; the time limit wins when both are (the count then shows in the message). The count is
/// moved by the caller.
pub fn stop_bar(count: Option<u64>, unit: &str, time_limit: Option<Duration>) -> ProgressBar {
    match (time_limit, count) {
        (Some(t), _) => time_bar(t),
        (None, Some(n)) => count_bar(
            n,
            &format!("{unit} {{pos}}/{{len}}  {{elapsed}} (eta {{eta}})  {{msg}}"),
        ),
        (None, None) => spinner(),
    }
}

/// An f64 in its shortest representation that reads back as the same number (Rust's `{}`;
/// `1e-7`, not `0.0000001`, for very small and large magnitudes).
pub fn float(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-4..1e16).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` as the f64 nearest the shortest decimal of `v as f32` when `single` (so that JSON shows
/// `0.1`, not `0.10000000149011612`, for an f32 result), else `v`.
pub fn rounded(v: f64, single: bool) -> f64 {
    if single && v.is_finite() {
        format!("{}", v as f32).parse().unwrap_or(v)
    } else {
        v
    }
}

/// A value computed in `f32` (`single`), printed as the shortest representation of that f32,
/// else as an f64.
pub fn value(v: f64, single: bool) -> String {
    if single && v.is_finite() {
        let f = v as f32;
        if f != 0.0 && !(1e-4..1e16).contains(&f.abs()) {
            format!("{f:e}")
        } else {
            format!("{f}")
        }
    } else {
        float(v)
    }
}

/// A count bar: `{spinner} [{bar:30}] <template>`.
pub fn count_bar(len: u64, template: &str) -> ProgressBar {
    progress_bar(
        ProgressBar::new(len.max(1)),
        &format!("{{spinner}} [{{bar:30}}] {template}"),
    )
}

/// Bytes in binary units, e.g. `15.6 GiB`.
pub fn bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// A count with thousands separators, e.g. `28,921`.
pub fn thousands(v: u64) -> String {
    let digits = v.to_string().into_bytes();
    let groups: Vec<&str> = digits
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}

/// A rate in engineering notation, e.g. `1.23e6`.
pub fn rate(v: f64) -> String {
    if v >= 1e4 {
        format!("{v:.3e}")
    } else {
        format!("{v:.1}")
    }
}

/// The mean, quartiles and extremes of a set of values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub mean: f64,
    pub q25: f64,
    pub q50: f64,
    pub q75: f64,
    pub min: f64,
    pub max: f64,
}

/// The q-quantile (0 <= q <= 1) of sorted values by linear interpolation between the closest
/// ranks (NumPy's default, R's type 7). NaN for no values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// Mean, quartiles, min and max of `values` (NaN everywhere for none).
pub fn stats(values: &[f64]) -> Stats {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mean = if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    };
    Stats {
        mean,
        q25: quantile(&v, 0.25),
        q50: quantile(&v, 0.5),
        q75: quantile(&v, 0.75),
        min: v.first().copied().unwrap_or(f64::NAN),
        max: v.last().copied().unwrap_or(f64::NAN),
    }
}

/// The source tree this binary was built from.
fn source_tree() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}

/// The file `given`, else the benchmark's default `rel` relative to the working directory, else
/// the same file seen from the source tree; an error names the `what` and the flag (`hint`).
pub fn default_file(
    given: &Option<PathBuf>,
    rel: &str,
    what: &str,
    hint: &str,
) -> CliResult<PathBuf> {
    if let Some(p) = given {
        return Ok(p.clone());
    }
    [PathBuf::from(rel), source_tree().join(rel)].into_iter().find(|p| p.is_file()).ok_or_else(|| {
        Failure(format!(
            "the default {what} {rel} is not there (relative to the working directory or to {}); give {hint}",
            env!("CARGO_MANIFEST_DIR")
        ))
    })
}

/// The folder `given`, else `rel` relative to the working directory when it is there, else in
/// the source tree.
pub fn default_dir(given: &Option<PathBuf>, rel: &str) -> PathBuf {
    given.clone().unwrap_or_else(|| {
        let cwd = PathBuf::from(rel);
        if cwd.is_dir() {
            cwd
        } else {
            source_tree().join(rel)
        }
    })
}

/// Calls `f(call index)` once to warm up (call 0), then again until `iterations` timed calls or
/// `seconds` have passed, whichever comes first (at least one timed call); (timed calls, seconds).
pub fn timed(
    iterations: Option<u64>,
    seconds: Option<f64>,
    mut f: impl FnMut(u64) -> CliResult,
) -> CliResult<(u64, f64)> {
    f(0)?;
    let t0 = Instant::now();
    let mut calls = 0u64;
    loop {
        calls += 1;
        f(calls)?;
        if iterations.is_some_and(|n| calls >= n)
            || seconds.is_some_and(|s| t0.elapsed().as_secs_f64() >= s)
        {
            break;
        }
    }
    Ok((calls, t0.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(28921), "28,921");
        assert_eq!(super::thousands(1234567), "1,234,567");
    }

    #[test]
    fn floats_round_trip() {
        for v in [0.1, 1.0 / 3.0, 123456.789, 1e-300, 2.5e20, -0.0, 42.0] {
            assert_eq!(super::float(v).parse::<f64>().unwrap(), v);
        }
        assert_eq!(super::float(0.1), "0.1");
        assert_eq!(super::float(1e-7), "1e-7");
        assert_eq!(super::value(0.1f32 as f64, true), "0.1");
        assert_eq!(super::value(0.1f32 as f64, false), "0.10000000149011612");
    }

    #[test]
    fn bytes() {
        assert_eq!(super::bytes(512), "512 B");
        assert_eq!(super::bytes(3 << 30), "3.0 GiB");
    }

    use super::{quantile, stats, Stats};

    #[test]
    fn quantiles_interpolate_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert!((quantile(&v, 0.25) - 1.75).abs() < 1e-15);
        assert!((quantile(&v, 0.5) - 2.5).abs() < 1e-15);
        assert!((quantile(&v, 0.75) - 3.25).abs() < 1e-15);
        assert_eq!(quantile(&[7.0], 0.3), 7.0);
        assert!(quantile(&[], 0.5).is_nan());
        let s = stats(&[5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!(
            s,
            Stats {
                mean: 3.0,
                q25: 2.0,
                q50: 3.0,
                q75: 4.0,
                min: 1.0,
                max: 5.0
            }
        );
        assert!(stats(&[]).mean.is_nan());
    }
}
