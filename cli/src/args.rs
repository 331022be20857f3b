//! The argument groups the commands share, each defined once as a `clap::Args` struct and
//! `#[command(flatten)]`-ed into the commands that take it, with the parsers of their values.
//!
//! A flag keeps its own definition in a command where its meaning differs there (`de --csv` is
//! the convergence history, `functions --json` is an array, `qap solve --target` also takes
//! `bks`, `bench tabu --tabu` is not optional, `--F-min`/`--F-max` have per-command defaults).
//! Where only the default or the wording differs, the group is shared and the command restates
//! its help and default with `mut_arg` ([`CrArg`], [`DeAlgorithmArgs`], [`TimedCallsArgs`]).
//!
//! Stop options: every solver command takes `--time-limit S` ([`TimeLimitArg`], one validator:
//! [`parse_duration`]) and, but `qap solve`, `--target V` ([`StopArgs`]); the count cap is named
//! by its unit: `--max-runs` (HC12: `hc12`, `sat solve`, `qap solve --method hc12`),
//! `--max-generations` (`de`, the experiments), `--max-iterations` (`qap solve --method ts`),
//! each with its old spelling (`--runs`, `--generations`, `--iterations`) as an alias.
//! Precision: [`PrecisionArgs`] (`--single`; `--double`, the default).

use crate::out::{flag_error, CliResult, Failure};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use metaopt::de::constraints::Repair;
use metaopt::de::{BoundsCorrection, MigrationKind, Mutation};
use metaopt::device::{set_device_number, Backend};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::objective::Objective;
use metaopt::problem::functions::{self, FunctionInfo};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

// ---- device group ------------------------------------------------------------------------

/// `--device N`: the OpenCL device of a command that runs on a device.
#[derive(Args, Clone, Debug)]
pub struct DeviceArg {
    /// OpenCL device number from `metaopt devices` (default: METAOPT_DEVICE, else 0)
    #[arg(long, value_name = "N")]
    pub device: Option<i32>,
}

impl DeviceArg {
    /// Makes `--device N`, when given, the device of every solver this process creates.
    pub fn select(&self) -> CliResult {
        if let Some(d) = self.device {
            set_device_number(d).map_err(|e| flag_error("--device", e))?;
        }
        Ok(())
    }
}

/// `--devices 0,1,..|all`: several OpenCL devices of one machine (docs/specs/SCALE.md); the solver
/// splits its work over them by global index, so a seed gives the one-device result.
#[derive(Args, Clone, Debug)]
pub struct DevicesArg {
    /// Several OpenCL devices: comma-separated numbers from `metaopt devices`, or all; the work
    /// is split over them (one host thread each) with the one-device result for a seed
    #[arg(long, value_name = "N,..|all")]
    pub devices: Option<String>,
}

impl DevicesArg {
    /// The device list (empty without `--devices`); errors name `--devices`.
    pub fn list(&self) -> CliResult<Vec<usize>> {
        match &self.devices {
            None => Ok(Vec::new()),
            Some(s) => metaopt::multi::parse_devices(s).map_err(|e| flag_error("--devices", e)),
        }
    }

    /// As [`DevicesArg::list`], refusing `--devices` beside `--cpu`.
    pub fn list_for(&self, cpu: bool) -> CliResult<Vec<usize>> {
        if cpu && self.devices.is_some() {
            return Err(Failure(
                "--devices: not with --cpu (the devices are OpenCL devices)".into(),
            ));
        }
        self.list()
    }
}

/// `--device N` or `--cpu`: a command with a device and a CPU backend.
#[derive(Args, Clone, Debug)]
pub struct BackendArgs {
    #[command(flatten)]
    pub device: DeviceArg,
    /// Evaluate on the CPU (rayon) instead of an OpenCL device
    #[arg(long, conflicts_with = "device")]
    pub cpu: bool,
}

impl BackendArgs {
    /// Selects `--device N` (when given) and returns the backend.
    pub fn backend(&self) -> CliResult<Backend> {
        self.device.select()?;
        Ok(if self.cpu {
            Backend::Cpu
        } else {
            Backend::DEVICE
        })
    }

    /// `cpu` or `device`, as the JSON outputs name the backend.
    pub fn name(&self) -> &'static str {
        if self.cpu {
            "cpu"
        } else {
            "device"
        }
    }
}

// ---- objective group ---------------------------------------------------------------------

/// The most bytes of a `--source` file (as of a batch file's `source`).
pub const MAX_SOURCE_BYTES: u64 = metaopt::de::batch_file::MAX_SOURCE_BYTES;
/// The most bytes of a `--data` file.
pub const MAX_DATA_BYTES: u64 = 1 << 30;
/// The most bytes of the other text files flags name (`--init`, `--start`, the assignments of
/// `sat eval`).
pub const MAX_FLAG_FILE_BYTES: u64 = 1 << 30;

/// The bytes of `path`, a regular file of at most `max` bytes that `flag` names (never a device
/// or a pipe, never more than `max + 1` bytes read); errors name the flag.
pub fn read_flag_file(flag: &str, path: &Path, max: u64) -> CliResult<Vec<u8>> {
    metaopt::files::read_regular(path, max)
        .map_err(|e| Failure(format!("{flag}: {}", e.message(path))))
}

/// The text of `path` as [`read_flag_file`] reads it; bytes that are not UTF-8 are an error
/// naming the flag.
pub fn read_flag_text(flag: &str, path: &Path, max: u64) -> CliResult<String> {
    String::from_utf8(read_flag_file(flag, path, max)?)
        .map_err(|_| Failure(format!("{flag}: {} is not UTF-8 text", path.display())))
}

/// `--constraints NG,NH` of a source objective (`de`, `bh`): the counts of its inequalities and
/// equalities.
pub fn constraint_counts(spec: &str) -> CliResult<(u32, u32)> {
    let bad = || {
        Failure(format!(
            "--constraints: `{spec}`; expected NG,NH (two counts)"
        ))
    };
    let counts: Vec<u32> = spec
        .split(',')
        .map(|w| w.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    match counts[..] {
        [ng, nh] => Ok((ng, nh)),
        _ => Err(bad()),
    }
}

/// The gradient-based repair of epsilon-DE (`de`, `bench constrained`): with constraints
/// computed by a source's `constraints`, each trial is picked with probability P and, when
/// infeasible, moved by at most R Newton steps on its violated constraints before it is
/// evaluated (a picked trial counts 1 + R (continuous variables + 1) evaluations).
#[derive(Args, Clone, Debug)]
pub struct RepairArgs {
    /// Probability of repairing a trial, in (0, 1] (epsilon-DE's is 0.01); none when absent
    #[arg(long, value_name = "P")]
    pub repair: Option<f64>,
    /// --repair: Newton steps at most per repaired trial
    #[arg(long, default_value_t = Repair::EPSILON_DE.rounds, value_name = "R", requires = "repair")]
    pub repair_rounds: u32,
}

impl RepairArgs {
    /// The repair asked for (checked with the constraints, naming `repair`).
    pub fn repair(&self) -> Option<Repair> {
        self.repair.map(|probability| Repair {
            probability,
            rounds: self.repair_rounds,
        })
    }
}

/// The objective of the continuous solvers (`hc12`, `de`): a catalogue function or a user
/// OpenCL source with its `data` buffer, and the search interval.
#[derive(Args)]
pub struct ObjectiveArgs {
    /// A catalogue function (`metaopt functions` lists them); this or --source is required
    #[arg(long, value_name = "NAME", conflicts_with = "source")]
    pub function: Option<String>,
    /// A user objective: OpenCL C defining `FP objective(__global const FP *x, uint dims,
    /// uint stride, __global const void *data)`; a regular file of at most 16 MiB
    #[arg(long, value_name = "FILE.cl")]
    pub source: Option<PathBuf>,
    /// Raw bytes for the user objective's `data` buffer (the thesis's func-data); a regular
    /// file of at most 1 GiB
    #[arg(long, value_name = "FILE", requires = "source")]
    pub data: Option<PathBuf>,
    /// Lower end of every interval [default: the function's domain; 0 for --source]
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub lower: Option<f64>,
    /// Upper end of every interval [default: the function's domain; 1 for --source]
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    pub upper: Option<f64>,
}

/// An objective as the command line named it.
pub struct ResolvedObjective {
    pub objective: Objective,
    /// The catalogue name, or the source file's path.
    pub name: String,
    /// The catalogue entry (None for `--source`).
    pub info: Option<&'static FunctionInfo>,
}

impl ObjectiveArgs {
    /// The catalogue function, or the user source read with its data file.
    pub fn resolve(&self) -> CliResult<ResolvedObjective> {
        match (&self.function, &self.source) {
            (Some(f), _) => {
                let info = functions::lookup(f).map_err(|e| flag_error("--function", e))?;
                Ok(ResolvedObjective {
                    objective: Objective::catalogue(f)?,
                    name: info.name.to_string(),
                    info: Some(info),
                })
            }
            (None, Some(path)) => {
                let (code, data) = self.read_source()?;
                Ok(ResolvedObjective {
                    objective: Objective::source(code, data),
                    name: path.display().to_string(),
                    info: None,
                })
            }
            (None, None) => Err("give --function NAME or --source FILE.cl".into()),
        }
    }

    /// The text of `--source` and the bytes of `--data` (none without it): regular files of at
    /// most [`MAX_SOURCE_BYTES`] and [`MAX_DATA_BYTES`]; errors name the flag.
    pub fn read_source(&self) -> CliResult<(String, Vec<u8>)> {
        let path = self
            .source
            .as_ref()
            .ok_or("give --function NAME or --source FILE.cl")?;
        let code = read_flag_text("--source", path, MAX_SOURCE_BYTES)?;
        let data = match &self.data {
            Some(d) => read_flag_file("--data", d, MAX_DATA_BYTES)?,
            None => Vec::new(),
        };
        Ok((code, data))
    }

    /// `--lower`/`--upper`, else the function's domain, else [0, 1].
    pub fn interval(&self, info: Option<&FunctionInfo>) -> (f64, f64) {
        let (lo, hi) = info.map_or((0.0, 1.0), |i| i.domain);
        (self.lower.unwrap_or(lo), self.upper.unwrap_or(hi))
    }
}

// ---- output group ------------------------------------------------------------------------

/// `--json` and `--quiet`: one JSON object on stdout instead of the text; no progress bar.
#[derive(Args, Clone, Copy, Debug)]
pub struct JsonArg {
    /// Print one JSON object on stdout instead of the text (and no progress bar)
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notes on stderr
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl JsonArg {
    /// Whether a progress bar is drawn: text output, no --quiet and a terminal on stderr.
    pub fn progress(&self) -> bool {
        !self.json && !self.quiet && std::io::stderr().is_terminal()
    }
}

/// `--quiet` of commands without `--json`.
#[derive(Args, Clone, Copy, Debug)]
pub struct QuietArg {
    /// No progress bar and no notes on stderr
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl QuietArg {
    /// Whether a progress bar is drawn: no --quiet and a terminal on stderr.
    pub fn progress(&self) -> bool {
        !self.quiet && std::io::stderr().is_terminal()
    }
}

/// `--csv FILE` of the benchmarks: the table goes to stdout and, with the flag, to FILE too.
#[derive(Args, Clone, Debug)]
pub struct CsvArg {
    /// Also write the CSV to FILE
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

impl CsvArg {
    pub fn path(&self) -> Option<&std::path::Path> {
        self.csv.as_deref()
    }
}

/// `--device N` and `--csv FILE`: the device a benchmark times and the file its table also goes
/// to, the pair most benchmarks take.
#[derive(Args, Clone, Debug)]
pub struct BenchIoArgs {
    #[command(flatten)]
    pub device: DeviceArg,
    #[command(flatten)]
    pub csv: CsvArg,
}

// ---- stop-condition group ----------------------------------------------------------------

/// `--seed N` of the solvers whose random starts come from one seed.
#[derive(Args, Clone, Copy, Debug)]
pub struct SeedArg {
    /// Seed of the random starts (the same seed gives the same result on every device)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
}

/// The stop conditions every solver command takes, spelled and described once: `--time-limit`
/// and `--target`. The count cap is the command's own unit and has its own group
/// ([`MaxRunsArg`], [`MaxGenerationsArg`], [`MaxIterationsArg`]); `qap solve` spells its target
/// `--target V|bks` (the best-known value) and so takes [`TimeLimitArg`] alone.
#[derive(Args, Clone, Copy, Debug)]
pub struct StopArgs {
    #[command(flatten)]
    pub time_limit: TimeLimitArg,
    /// Stop once the best value is at most V
    #[arg(long, value_name = "V", allow_negative_numbers = true, value_parser = parse_target)]
    pub target: Option<f64>,
}

impl StopArgs {
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit.time_limit
    }
}

/// `--time-limit S`.
#[derive(Args, Clone, Copy, Debug)]
pub struct TimeLimitArg {
    /// Stop after S seconds (0 < S <= 1e9; checked between runs, generations or iterations)
    #[arg(long, value_name = "S", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
}

/// `--max-runs N`: the run (restart) cap of the HC12 solvers.
#[derive(Args, Clone, Copy, Debug)]
pub struct MaxRunsArg {
    /// Stop after N runs (restarts from a new start)
    #[arg(long, value_name = "N", visible_alias = "runs", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_runs: Option<u32>,
}

/// `--max-generations G`: the generation cap of DE.
#[derive(Args, Clone, Copy, Debug)]
pub struct MaxGenerationsArg {
    /// Stop after G generations
    #[arg(long, value_name = "G", visible_alias = "generations", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_generations: Option<u64>,
}

/// `--max-iterations N`: the iteration cap of the tabu searches.
#[derive(Args, Clone, Copy, Debug)]
pub struct MaxIterationsArg {
    /// Stop after N iterations (per chain)
    #[arg(long, value_name = "N", visible_alias = "iterations")]
    pub max_iterations: Option<u64>,
}

/// `--iterations N` and `--seconds S` of the benchmarks that time repeated calls of one operation
/// after a warm-up call ([`crate::out::timed`]): whichever is reached first ends the timed calls.
/// The command states what one call is and its default of `--seconds` (taken when neither flag
/// is given) with `mut_arg("iterations", ...)` and `mut_arg("seconds", ...)`, from
/// [`TimedCallsArgs::iterations_help`] and [`TimedCallsArgs::seconds_help`].
#[derive(Args, Clone, Copy, Debug)]
pub struct TimedCallsArgs {
    /// Timed calls (after one warm-up call); with --seconds, whichever ends first
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// Seconds of timed calls (at least one call)
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
}

impl TimedCallsArgs {
    /// The help of `--iterations`: timed calls `per` (e.g. "per evaluator") after `warm_up`
    /// (e.g. "the warm-up call").
    pub fn iterations_help(per: &str, warm_up: &str) -> String {
        format!("Timed calls {per} (after {warm_up}); with --seconds, whichever ends first")
    }

    /// The help of `--seconds`, with its default when neither flag is given.
    pub fn seconds_help(per: &str, default_seconds: f64) -> String {
        format!(
            "Seconds of timed calls {per} (at least one call) [default: {default_seconds} unless \
             --iterations]"
        )
    }

    /// The limits of [`crate::out::timed`]: `--iterations` and `--seconds` as given, and
    /// `default_seconds` when neither is.
    pub fn limits(&self, default_seconds: f64) -> (Option<u64>, Option<f64>) {
        match (self.iterations, self.seconds) {
            (None, None) => (None, Some(default_seconds)),
            given => given,
        }
    }
}

/// A finite number (a target value).
pub fn parse_target(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("`{s}` is not a finite number")),
    }
}

/// A positive number of seconds, at most [`metaopt::MAX_TIME_LIMIT_S`]: the library's one validator
/// ([`metaopt::time_limit_from_secs`]), with 0 refused (a flag given means a limit).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    parse_duration(s).map(|d| d.as_secs_f64())
}

/// The one time-limit validator of the CLI: [`metaopt::time_limit_from_secs`] (finite, at most
/// [`metaopt::MAX_TIME_LIMIT_S`]), and positive.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let secs = s
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("`{s}` is not a positive number of seconds"))?;
    match metaopt::time_limit_from_secs(secs, "--time-limit") {
        Ok(Some(d)) => Ok(d),
        Ok(None) => Err(format!("`{s}` is not a positive number of seconds")),
        Err(metaopt::Error::InvalidArgument { msg, .. }) => Err(msg),
        Err(e) => Err(e.to_string()),
    }
}

// ---- precision ---------------------------------------------------------------------------

/// `--single` / `--double`: the floating-point type of the device computation.
#[derive(Args, Clone, Copy, Debug)]
pub struct PrecisionArgs {
    /// Compute in single precision (float) on the device
    #[arg(long, conflicts_with = "double")]
    pub single: bool,
    /// Compute in double precision: the default where the device has cl_khr_fp64 (without it
    /// the command computes in single precision and says so)
    #[arg(long)]
    pub double: bool,
}

/// `--fitness-precision single|double` of the island DE: the type of the fitness values (the
/// thesis's `FPf`); without it, the storage precision (`--single`/`--double`).
#[derive(Args, Clone, Debug)]
pub struct FitnessPrecisionArg {
    /// Precision of the fitness values, stored and compared in it (the thesis's FPf of
    /// DEMultiPop<FP, FPf>): single or double [default: the storage precision of --single/--double]
    #[arg(long, value_name = "P", value_parser = PossibleValuesParser::new(["single", "double"])
        .try_map(|s| s.parse::<Precision>()))]
    pub fitness_precision: Option<Precision>,
}

impl FitnessPrecisionArg {
    /// The library's option: `Auto` (the storage precision) without the flag.
    pub fn option(&self) -> Precision {
        self.fitness_precision.unwrap_or(Precision::Auto)
    }
}

/// The precision a command computed in (single or double, never auto), as the text and JSON
/// outputs name it.
pub use metaopt::Precision;

/// The precision flags of the island DE: `--single` / `--double` (the storage) and
/// `--fitness-precision`.
#[derive(Args, Clone, Debug)]
pub struct DePrecisionArgs {
    #[command(flatten)]
    pub storage: PrecisionArgs,
    #[command(flatten)]
    pub fitness: FitnessPrecisionArg,
}

impl DePrecisionArgs {
    /// The storage precision on `backend` ([`PrecisionArgs::resolve`]).
    pub fn resolve(&self, backend: Backend, quiet: bool) -> CliResult<Precision> {
        self.storage.resolve(backend, quiet)
    }

    /// Sets the precision options of `o` for a run in `precision` (single or double, as
    /// [`Self::resolve`] gives it): the storage named, not `Auto` (which would be double on a
    /// device with fp64 whatever --single said), and the fitness precision of the flag.
    pub fn set_options(&self, precision: Precision, o: &mut metaopt::de::DeOptions) {
        o.double = precision.is_double();
        o.precision = if precision.is_double() {
            Precision::Double
        } else {
            Precision::Single
        };
        o.fitness_precision = self.fitness.option();
    }
}

impl PrecisionArgs {
    /// Double unless `--single`, or the device has no fp64: then single, with a note on stderr
    /// (unless `quiet`). The CPU backend computes in double. `--double` on a device without
    /// fp64 is an error.
    pub fn resolve(&self, backend: Backend, quiet: bool) -> CliResult<Precision> {
        if self.single {
            return Ok(Precision::Single);
        }
        if backend == Backend::Cpu {
            return Ok(Precision::Double);
        }
        let ctx = backend.context("the precision check")?;
        if ctx.info.fp64 {
            return Ok(Precision::Double);
        }
        if self.double {
            return Err(Failure(format!(
                "--double: device {} ({}) has no double precision (cl_khr_fp64); leave out --double or give --single",
                ctx.info.index, ctx.info.name
            )));
        }
        if !quiet {
            eprintln!("note: device {} ({}) has no double precision (cl_khr_fp64); computing in single precision", ctx.info.index, ctx.info.name);
        }
        Ok(Precision::Single)
    }
}

// ---- search options ----------------------------------------------------------------------

/// The tabu list of the HC12 solvers (`qap solve`, `hc12`).
#[derive(Args, Clone, Debug)]
pub struct TabuArgs {
    /// Keep a tabu list of N strings on the device: runs leave local optima by their best
    /// neighbour not on the list, and end by --tabu-iterations / --no-improve
    #[arg(long, value_name = "N")]
    pub tabu: Option<usize>,
    /// Iterations of one tabu run
    #[arg(long, default_value_t = 10_000, value_name = "N", requires = "tabu")]
    pub tabu_iterations: u32,
    /// A tabu run ends after N iterations without a new best
    #[arg(long, default_value_t = 100, value_name = "N", requires = "tabu")]
    pub no_improve: u32,
    /// Consult the list only while the current cost is below V
    #[arg(long, value_name = "V", requires = "tabu")]
    pub activation_limit: Option<f64>,
    /// A tabu neighbour better than the best ever seen may be selected
    #[arg(long, requires = "tabu")]
    pub aspiration: bool,
}

impl TabuArgs {
    /// The library's configuration, or None without --tabu.
    pub fn config(&self) -> CliResult<Option<TabuConfig>> {
        let Some(len) = self.tabu else {
            return Ok(None);
        };
        let cfg = TabuConfig {
            max_length: len,
            activation_limit: self.activation_limit,
            aspiration: self.aspiration,
            max_iterations: self.tabu_iterations,
            max_no_improve: self.no_improve,
        };
        cfg.check().map_err(|e| {
            let flag = match &e {
                metaopt::Error::InvalidArgument {
                    arg: "maxLength", ..
                } => "--tabu",
                metaopt::Error::InvalidArgument {
                    arg: "maxIterations",
                    ..
                } => "--tabu-iterations",
                metaopt::Error::InvalidArgument {
                    arg: "maxNoImprove",
                    ..
                } => "--no-improve",
                _ => "--activation-limit",
            };
            flag_error(flag, e)
        })?;
        Ok(Some(cfg))
    }
}

// ---- DE parameters -------------------------------------------------------------------------

/// The thesis's default seeds: init, mutation, crossover, migration.
pub const THESIS_SEEDS: [u64; 4] = [123, 345, 457, 581];

/// The four seeds of `--seed S` (S, S+1, S+2, S+3), or the thesis's.
pub fn seeds(seed: Option<u64>) -> [u64; 4] {
    match seed {
        Some(s) => [s, s.wrapping_add(1), s.wrapping_add(2), s.wrapping_add(3)],
        None => THESIS_SEEDS,
    }
}

/// `--algorithm`, `--lshade-budget` and `--jde-small`: the island DE's algorithm and the two
/// settings of its variants. The help is `de`'s; another command that takes the group states its
/// own defaults with `mut_arg`.
#[derive(Args, Clone, Debug)]
pub struct DeAlgorithmArgs {
    /// The DE algorithm: de (the thesis's fixed F and CR per island, the default), or a
    /// self-adapting variant with its paper's defaults: jade, shade, lshade, jso (current-to-pbest/1
    /// with an archive), jde100 (a big and a small population per island, self-adaptive F and CR
    /// per member, restarts; --members = big + --jde-small); --mutation, --F-* and --CR are then
    /// not used
    #[arg(long, default_value = "de", value_name = "NAME")]
    pub algorithm: String,
    /// L-SHADE's and jSO's budget: evaluations per island over which the population shrinks
    /// linearly to 4 members [default: --evaluations / --islands + --members, else
    /// --max-generations x --members; with --problems --members x (generations + 1)]
    #[arg(long, value_name = "N")]
    pub lshade_budget: Option<u64>,
    /// jDE100: members of each island's small population (the paper's 25); the other
    /// --members - N are the big population (the paper's 1000: --members 1025)
    #[arg(long, default_value_t = 25, value_name = "N")]
    pub jde_small: u32,
}

impl DeAlgorithmArgs {
    /// `--algorithm`, parsed (an error names the flag).
    pub fn algorithm(&self) -> CliResult<metaopt::de::Algorithm> {
        self.algorithm
            .parse()
            .map_err(|e| flag_error("--algorithm", e))
    }
}

/// `--CR`: the island DE's crossover rate, one value or a comma-separated list. The help is
/// `de`'s; another command states its own default and meaning with `mut_arg("cr", ...)`.
#[derive(Args, Clone, Debug)]
pub struct CrArg {
    /// Crossover rate: one value, or a comma list with one per population
    #[arg(long = "CR", visible_alias = "cr", default_value = "0.5", value_name = "CR[,CR...]")]
    pub cr: String,
}

impl CrArg {
    /// The values of `--CR` (an error names the flag).
    pub fn values(&self) -> CliResult<Vec<f64>> {
        parse_numbers("--CR", &self.cr)
    }
}

/// One number, or a comma-separated list of numbers.
pub fn parse_numbers(flag: &str, s: &str) -> CliResult<Vec<f64>> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .map_err(|_| Failure(format!("{flag}: `{v}` is not a number")))
        })
        .collect()
}

pub fn parse_mutation(s: &str) -> CliResult<Mutation> {
    s.parse().map_err(|e| flag_error("--mutation", e))
}

pub fn parse_bounds(s: &str) -> CliResult<Vec<BoundsCorrection>> {
    BoundsCorrection::parse_list(s).map_err(|e| flag_error("--bounds", e))
}

pub fn parse_migration(s: &str) -> CliResult<MigrationKind> {
    s.parse().map_err(|e| flag_error("--migration", e))
}

/// Catalogue functions named by `flag` that exist in `dims` dimensions.
pub fn catalogue_functions(
    flag: &str,
    names: &[String],
    dims: u32,
) -> CliResult<Vec<&'static FunctionInfo>> {
    names
        .iter()
        .map(|f| catalogue_function(flag, f, dims))
        .collect()
}

/// `--functions` of the benchmarks that score against each function's known minimum (`bench
/// digits`, `bench de-table`): CEC 2019's shifted functions by default.
#[derive(Args, Clone, Debug)]
pub struct KnownMinimaArg {
    /// Functions, comma-separated (each must have a known minimum in D dimensions)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "CEC04t,CEC05t,CEC06t,CEC07t,CEC08t,CEC09t,CEC10t",
        value_name = "NAMES"
    )]
    pub functions: Vec<String>,
}

impl KnownMinimaArg {
    /// Each named function in `dims` dimensions with its known minimum; a function without one
    /// is an error naming --functions.
    pub fn resolve(&self, dims: u32) -> CliResult<Vec<(&'static FunctionInfo, f64)>> {
        self.functions
            .iter()
            .map(|f| {
                let info = catalogue_function("--functions", f, dims)?;
                let min = info.minimum(dims as usize).ok_or_else(|| {
                    Failure(format!(
                        "--functions: {} has no known minimum in D = {dims}",
                        info.name
                    ))
                })?;
                Ok((info, min.value))
            })
            .collect()
    }
}

/// The catalogue function named by `flag`, checked for `dims` dimensions (an error names --dims).
pub fn catalogue_function(flag: &str, name: &str, dims: u32) -> CliResult<&'static FunctionInfo> {
    let info = functions::lookup(name).map_err(|e| flag_error(flag, e))?;
    info.check_dims(dims as usize)
        .map_err(|e| flag_error("--dims", e))?;
    Ok(info)
}

/// The robust tabu search's tuning options (`qap solve --method ts`, `bench qap-quality`); each
/// left out keeps the library's default (`metaopt::qap_ts::QapTsOptions`).
#[derive(Args, Clone, Debug, Default)]
pub struct TsTuningArgs {
    /// ts: tabu iterations per chain per round, after which the elite pool and the restarts act
    /// (launches are a short step each within a round; the stop rules act between them)
    /// [default: 2000]
    #[arg(long, value_name = "N")]
    pub launch_iterations: Option<u32>,
    /// ts: best distinct permutations kept for restarts (0: no restarts) [default: 16 with 256
    /// chains or more, else 8]
    #[arg(long, value_name = "N")]
    pub elite: Option<usize>,
    /// ts: iterations without a new best after which a chain restarts from a perturbed elite
    /// permutation (0: never) [default: n^2]
    #[arg(long, value_name = "N")]
    pub stagnation: Option<u64>,
    /// ts: random swaps of a restart, MIN,MAX [default: 2,max(2,n/4)]
    #[arg(long, value_name = "MIN,MAX", value_parser = parse_range)]
    pub perturbation: Option<(usize, usize)>,
    /// ts: share of restarts (0 to 1) from a child of two pool members (uniform crossover)
    /// instead of a perturbed member [default: 0]
    #[arg(long, value_name = "P")]
    pub crossover: Option<f64>,
    /// ts: tenure rule: cubic (Taillard 2006, floor(u^3 8n)) or uniform (1991, 0.9n..1.1n)
    /// [default: cubic]
    #[arg(long, value_name = "RULE", value_parser = parse_tenure)]
    pub tenure: Option<metaopt::qap_ts::TenureRule>,
    /// ts: long-term aspiration horizon in iterations [default: 5 n^2]
    #[arg(long, value_name = "N")]
    pub horizon: Option<u32>,
    /// ts: work-items per chain on a device, a power of two up to 1024 [default: the device
    /// kind's tuning, 256 on GPUs]
    #[arg(long, value_name = "N")]
    pub group_size: Option<usize>,
}

impl TsTuningArgs {
    /// The flags given, for commands that refuse them.
    pub fn given(&self) -> Vec<&'static str> {
        let g = [
            ("--launch-iterations", self.launch_iterations.is_some()),
            ("--elite", self.elite.is_some()),
            ("--stagnation", self.stagnation.is_some()),
            ("--perturbation", self.perturbation.is_some()),
            ("--crossover", self.crossover.is_some()),
            ("--tenure", self.tenure.is_some()),
            ("--horizon", self.horizon.is_some()),
            ("--group-size", self.group_size.is_some()),
        ];
        g.iter().filter(|x| x.1).map(|x| x.0).collect()
    }

    /// `opts` with the given options in place of its own.
    pub fn apply(&self, mut opts: metaopt::qap_ts::QapTsOptions) -> metaopt::qap_ts::QapTsOptions {
        if let Some(v) = self.launch_iterations {
            opts.launch_iterations = v;
        }
        opts.elite_size = self
            .elite
            .unwrap_or_else(|| metaopt::qap_ts::elite_size_for(opts.chains));
        if self.stagnation.is_some() {
            opts.stagnation = self.stagnation;
        }
        if self.perturbation.is_some() {
            opts.perturbation = self.perturbation;
        }
        if let Some(x) = self.crossover {
            opts.crossover = x;
        }
        if let Some(t) = self.tenure {
            opts.tenure = t;
        }
        if self.horizon.is_some() {
            opts.aspiration_horizon = self.horizon;
        }
        if self.group_size.is_some() {
            opts.group_size = self.group_size;
        }
        opts.stop.token = Some(crate::stop_token());
        opts
    }

    /// The library's option names as these flags (for error messages).
    pub const RENAMES: [(&'static str, &'static str); 8] = [
        ("launch_iterations", "--launch-iterations"),
        ("elite_size", "--elite"),
        ("stagnation", "--stagnation"),
        ("perturbation", "--perturbation"),
        ("crossover", "--crossover"),
        ("tenure", "--tenure"),
        ("aspiration_horizon", "--horizon"),
        ("group_size", "--group-size"),
    ];
}

/// Three positive counts `AxBxC` (`x` or `X`); an error names them as `what`, e.g. `example`.
pub fn parse_size3(s: &str, what: &str, example: &str) -> Result<(u32, u32, u32), String> {
    let v: Vec<&str> = s.trim().split(['x', 'X']).collect();
    let bad = || format!("`{s}` is not {what}, e.g. {example}");
    if v.len() != 3 {
        return Err(bad());
    }
    let n = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(bad)
    };
    Ok((n(v[0])?, n(v[1])?, n(v[2])?))
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}`: expected MIN,MAX"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{t}` is not a count"))
    };
    Ok((num(a)?, num(b)?))
}

fn parse_tenure(s: &str) -> Result<metaopt::qap_ts::TenureRule, String> {
    match s.to_ascii_lowercase().as_str() {
        "cubic" => Ok(metaopt::qap_ts::TenureRule::Cubic),
        "uniform" => Ok(metaopt::qap_ts::TenureRule::Uniform),
        _ => Err(format!("`{s}`: expected cubic or uniform")),
    }
}

// ---- DE launch group ----------------------------------------------------------------------

/// `--wide auto|on|off` of `de` and `bench de`: the fixed DE's wide generation on a device
/// (`DeOptions::wide`).
#[derive(Args, Clone, Copy, Debug)]
pub struct WideArg {
    /// On a device, the fixed DE's wide generation (a launch a generation over work-groups of
    /// the members) instead of the fused kernel's one work-group per island: auto (where an
    /// island exceeds the fused group and the islands are fewer than the compute units, e.g.
    /// one population of 1000), on, off. The same run either way
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub wide: Wide,
}

/// The values of `--wide`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    Auto,
    On,
    Off,
}

impl WideArg {
    /// `DeOptions::wide`.
    pub fn option(&self) -> Option<bool> {
        match self.wide {
            Wide::Auto => None,
            Wide::On => Some(true),
            Wide::Off => Some(false),
        }
    }
}

// ---- output files ---------------------------------------------------------------------------

/// The options whose value is a file the command writes, with the flag an error names: every
/// one given is checked before the command's work starts (`main`, [`output_paths`]). An option
/// of these names whose value is a folder (value name `DIR`: the experiments' `--out`) is the
/// command's own to create.
pub const OUTPUT_ARGS: [(&str, &str); 11] = [
    ("output", "--output"),
    ("checkpoint", "--checkpoint"),
    ("csv", "--csv"),
    ("plot", "--plot"),
    ("vertices", "--vertices"),
    ("contacts", "--contacts"),
    ("out", "--out"),
    ("values", "--values"),
    ("histogram", "--histogram"),
    ("results", "--results"),
    ("quality_csv", "--quality-csv"),
];

/// Whether `arg` is one of [`OUTPUT_ARGS`] naming a file (not a folder).
pub fn is_output_file(arg: &clap::Arg) -> bool {
    OUTPUT_ARGS.iter().any(|(id, _)| arg.get_id() == *id)
        && !arg
            .get_value_names()
            .is_some_and(|v| v.iter().any(|n| n == "DIR"))
}

/// The files a parsed command line will write: `(flag, path)` for every [`OUTPUT_ARGS`] option
/// given, at every level of subcommands, each once.
pub fn output_paths(cmd: &clap::Command, m: &clap::ArgMatches) -> Vec<(&'static str, PathBuf)> {
    let mut found: Vec<(&'static str, PathBuf)> = Vec::new();
    for arg in cmd.get_arguments().filter(|a| is_output_file(a)) {
        let id = arg.get_id().as_str();
        let flag = OUTPUT_ARGS
            .iter()
            .find(|(a, _)| *a == id)
            .map_or("", |(_, f)| *f);
        if let Ok(Some(paths)) = m.try_get_many::<PathBuf>(id) {
            for p in paths {
                if !found.iter().any(|(f, q)| *f == flag && q == p) {
                    found.push((flag, p.clone()));
                }
            }
        }
    }
    if let Some((name, sub)) = m.subcommand() {
        if let Some(c) = cmd.find_subcommand(name) {
            for o in output_paths(c, sub) {
                if !found.contains(&o) {
                    found.push(o);
                }
            }
        }
    }
    found
}

/// The `--time-limit` of the (innermost) subcommand of `m`, if it takes one and was given:
/// the binary's set-up cut ([`metaopt::run::cancel::Cut::during_setup`]) counts it from the
/// process start, so that building kernels cannot outlast it.
pub fn time_limit(m: &clap::ArgMatches) -> Option<Duration> {
    match m.subcommand() {
        Some((_, sub)) => time_limit(sub),
        None => m
            .try_get_one::<Duration>("time_limit")
            .ok()
            .flatten()
            .copied(),
    }
}
