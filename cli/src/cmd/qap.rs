//! `metaopt qap eval` and `metaopt qap solve` (`metaopt qap table5`: `qap/table5.rs`).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`table5`] | `qap table5`: the thesis's Table 5 measured again |

pub mod table5;

use crate::args::{BackendArgs, JsonArg, SeedArg, TabuArgs, TimeLimitArg};
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::ProgressBar;
use metaopt::device::get_device_number;
use metaopt::hc12::qap::solve::{solve as hc12_solve, QapSolveOptions, RestartMode, Start};
use metaopt::hc12::qap::{CostForm, QapHc12};
use metaopt::hc12::restarts::RunReport;
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::qap::{find_bks, parse_permutation, read_sln, read_sln_auto, QapInstance};
use metaopt::problem::qap::{gap_percent, Cost, QapProblem};
use metaopt::qap_ts::{QapTs, QapTsOptions, QapTsProgress, ShareRound};
use metaopt::run::Stop;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Subcommand)]
pub enum QapCommand {
    /// Cost of a permutation (or a QAPLIB .sln file) on an instance
    Eval(EvalArgs),
    /// Solve an instance: robust tabu search with many chains (default) or the qapswap2 HC12
    /// solver
    Solve(Box<SolveArgs>),
    /// The thesis's Table 5 (6.3) measured again: HC12 from random starts and from starts
    /// projected from the GLB, HRW, AB and PE lower bounds, beside the thesis's figures
    Table5(table5::Table5Args),
    /// Write a generated instance as a QAPLIB .dat file: Taillard's real-life-like tai*b kind,
    /// or Li and Pardalos's lipa a/b kind, whose optimum is known (written beside it as a .sln)
    Generate(GenerateArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GenKind {
    /// Taillard (1995): clustered points, very skewed flows (QAPLIB's tai*b)
    TaillardB,
    /// Li and Pardalos (1992), QAPLIB's lipa*a: optimum known by construction
    LipaA,
    /// Li and Pardalos (1992), QAPLIB's lipa*b: optimum known by construction
    LipaB,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// The kind of instance
    #[arg(long, value_enum)]
    kind: GenKind,
    /// The instance size (2..2048)
    #[arg(long, value_name = "N")]
    n: usize,
    /// Seed: the same kind, size and seed give the same instance on every machine
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The .dat file to write (a lipa kind also writes its optimum to the .sln beside it:
    /// `n value`, then the 1-based permutation)
    #[arg(long, value_name = "FILE.dat")]
    output: PathBuf,
}

/// `qap generate`.
pub fn generate(a: &GenerateArgs) -> CliResult {
    use metaopt::problem::qap::{lipa, taillard_b, LipaKind};
    let optimum = |k| lipa(a.n, k, a.seed).map(|(i, p, c)| (i, Some((p, c))));
    let (inst, opt) = match a.kind {
        GenKind::TaillardB => taillard_b(a.n, a.seed).map(|i| (i, None)),
        GenKind::LipaA => optimum(LipaKind::A),
        GenKind::LipaB => optimum(LipaKind::B),
    }
    .map_err(|e| flag_error("--n", e))?;
    out::write_file(&a.output, "", inst.to_dat())?;
    let mut said = format!(
        "wrote {} (n = {}, {:?}, seed {})",
        a.output.display(),
        inst.n,
        a.kind,
        a.seed
    );
    if let Some((perm, cost)) = opt {
        let sln = a.output.with_extension("sln");
        out::write_file(
            &sln,
            "",
            format!("{} {cost}\n{}\n", inst.n, spaced(&one_based(&perm))),
        )?;
        said += &format!("; its optimum {cost} to {}", sln.display());
    }
    eprintln!("{said}");
    Ok(())
}

#[derive(Args)]
pub struct EvalArgs {
    /// QAPLIB instance (.dat: n, then the matrices A and B)
    instance: PathBuf,
    /// A .sln file (read with the conventions of sln_conventions.csv beside it, else 1-based),
    /// or the permutation itself: one argument "3,10,11,..." or one argument per entry
    #[arg(required = true, num_args = 1.., value_name = "SLN_OR_PERMUTATION")]
    solution: Vec<String>,
    /// The entries are 0-based (default: 1-based, as QAPLIB)
    #[arg(long)]
    zero_based: bool,
    #[command(flatten)]
    json: JsonArg,
}

/// A permutation error, with the flag that fixes the most common one.
fn permutation_error(what: &str, e: metaopt::Error) -> Failure {
    let mut f = flag_error(what, e);
    if f.0.contains("base 0") {
        f.0.push_str("; give --zero-based");
    }
    f
}

/// True when the positional arguments name a solution file rather than spell a permutation.
fn is_sln_file(args: &[String]) -> bool {
    match args {
        [one] => one.to_ascii_lowercase().ends_with(".sln") || Path::new(one).is_file(),
        _ => false,
    }
}

fn one_based(p: &[usize]) -> Vec<usize> {
    p.iter().map(|v| v + 1).collect()
}

fn spaced(p: &[usize]) -> String {
    p.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A whole number as a JSON integer, anything else as a float.
fn num(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Value::from(v as i64)
    } else {
        Value::from(v)
    }
}

/// The best-known value of the instance: `--bks`, else `BKS.csv` beside the instance. A
/// malformed `BKS.csv` only costs the gap, so it is a warning.
fn best_known(path: &Path, given: Option<i64>) -> Option<(i64, Option<bool>)> {
    if let Some(v) = given {
        return Some((v, None));
    }
    match find_bks(path) {
        Ok(b) => b.map(|b| (b.bks, Some(b.optimal_proven))),
        Err(e) => {
            eprintln!("warning: best-known value unavailable: {e}");
            None
        }
    }
}

fn gap_text(cost: f64, bks: Option<(i64, Option<bool>)>) -> String {
    match bks {
        Some((v, opt)) => {
            let tag = match opt {
                Some(true) => " (proven optimal)",
                Some(false) => "",
                None => " (--bks)",
            };
            format!("{v}{tag}, gap {:.3} %", gap_percent(cost, v as f64))
        }
        None => "unknown (no BKS.csv row beside the instance; give --bks V)".to_string(),
    }
}

#[derive(Serialize)]
struct EvalJson {
    instance: String,
    n: usize,
    cost: i64,
    permutation: Vec<usize>,
    /// The value in the .sln header, when a .sln was given.
    sln_value: Option<i64>,
    matches_sln_value: Option<bool>,
    bks: Option<i64>,
    gap_percent: Option<f64>,
}

pub fn eval(a: &EvalArgs) -> CliResult {
    let inst = QapInstance::from_dat(&a.instance)?;
    let base = if a.zero_based { 0 } else { 1 };
    let (perm, sln_value) = if is_sln_file(&a.solution) {
        let path = Path::new(&a.solution[0]);
        let sol = if a.zero_based {
            read_sln(path, 0, false)?
        } else {
            read_sln_auto(path)?
        };
        if sol.n != inst.n {
            return Err(Failure(format!(
                "{} is a solution of size {}, but {} has n = {}",
                path.display(),
                sol.n,
                a.instance.display(),
                inst.n
            )));
        }
        (sol.perm, Some(sol.value))
    } else {
        let text = a.solution.join(" ");
        let p = parse_permutation(&text, inst.n, base)
            .map_err(|e| permutation_error("permutation", e))?;
        (p, None)
    };
    let cost = inst.cost(&perm);
    let bks = best_known(&a.instance, None);
    if a.json.json {
        return out::print_json(&EvalJson {
            instance: inst.name.clone(),
            n: inst.n,
            cost,
            permutation: one_based(&perm),
            sln_value,
            matches_sln_value: sln_value.map(|v| v == cost),
            bks: bks.map(|b| b.0),
            gap_percent: bks.map(|b| gap_percent(cost as f64, b.0 as f64)),
        });
    }
    let mut s = format!("instance     {} (n = {})\n", inst.name, inst.n);
    s += &format!("permutation  {}  (1-based)\n", spaced(&one_based(&perm)));
    s += &format!("cost         {cost}\n");
    if let Some(v) = sln_value {
        let verdict = if v == cost {
            "equal to the cost"
        } else {
            "DIFFERENT from the cost"
        };
        s += &format!("sln value    {v} ({verdict})\n");
    }
    s += &format!("best known   {}\n", gap_text(cost as f64, bks));
    out::print(&s)
}

/// `--start`: a kind of start, or a file of permutations.
#[derive(Clone, Debug, PartialEq, Eq)]
enum StartSpec {
    Kind(Start),
    File(PathBuf),
}

fn parse_start(s: &str) -> Result<StartSpec, String> {
    match Start::from_name(s) {
        Some(k) => Ok(StartSpec::Kind(k)),
        None if s.is_empty() => Err("expected a kind of start or a file".into()),
        None => Ok(StartSpec::File(PathBuf::from(s))),
    }
}

/// The largest `--start` file read (a permutation of 2,048 units in a line is about 10 KB).
const MAX_START_FILE_BYTES: u64 = 64 << 20;

/// The permutations of a `--start` file, 0-based, for an instance of `n` units.
fn read_starts(path: &Path, n: usize, base: usize) -> CliResult<Vec<Vec<usize>>> {
    let fail = |m: String| Failure(format!("--start: {}: {m}", path.display()));
    let text = crate::args::read_flag_text("--start", path, MAX_START_FILE_BYTES)?;
    let mut starts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p =
            parse_permutation(line, n, base).map_err(|e| fail(format!("line {}: {e}", i + 1)))?;
        starts.push(p);
    }
    if starts.is_empty() {
        return Err(fail("no permutation in the file".into()));
    }
    Ok(starts)
}

/// The given starts of `--start FILE` or `--start-permutation` (none for a kind of start).
fn given_starts(a: &SolveArgs, n: usize) -> CliResult<Vec<Vec<usize>>> {
    let base = if a.zero_based { 0 } else { 1 };
    if let Some(text) = &a.start_permutation {
        return Ok(vec![parse_permutation(text, n, base)
            .map_err(|e| permutation_error("--start-permutation", e))?]);
    }
    match &a.start {
        Some(StartSpec::File(path)) => read_starts(path, n, base),
        _ => Ok(Vec::new()),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum RestartArg {
    /// Continue from the permutation a run reached when it improved on its start, else restart at random
    Rebase,
    /// Every run starts from a new random permutation and swap list
    Random,
}

/// `--target`: a value, or `bks` for the best-known value.
#[derive(Clone, Copy, Debug)]
enum TargetArg {
    Value(f64),
    Bks,
}

fn parse_target(s: &str) -> Result<TargetArg, String> {
    if s.eq_ignore_ascii_case("bks") {
        return Ok(TargetArg::Bks);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(TargetArg::Value(v)),
        _ => Err(format!("`{s}` is neither a number nor `bks`")),
    }
}

/// `--method`: the solver of `qap solve`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MethodArg {
    /// Robust tabu search (Taillard), many independent chains: docs/specs/QAP_TS.md
    Ts,
    /// The qapswap2 HC12 solver with restarts and rebasing: docs/specs/QAP.md
    Hc12,
}

#[derive(Args)]
#[command(
    mut_arg("max_iterations", |a| a.help(format!(
        "ts: stop after N iterations per chain [default: {}, unlimited with --time-limit]",
        QapTsOptions::default().stop.budget.unwrap_or(0)
    ))),
    mut_arg("max_runs", |a| a.help(
        "hc12: stop after N runs (restarts from a new start) [default: 100, unlimited with --time-limit]"
    ))
)]
pub struct SolveArgs {
    /// QAPLIB instance (.dat); the best-known value is looked up in BKS.csv beside it
    instance: PathBuf,
    #[command(flatten)]
    convergence: crate::convergence::ConvergenceArgs,
    /// ts: checkpoints of the chains, tabu matrices, elite pool and draws; hc12: of the search
    /// between runs (runs, counters, best, random restarts); and resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    /// The solver
    #[arg(long, value_enum, default_value_t = MethodArg::Ts)]
    method: MethodArg,
    /// ts: independent tabu chains [default: 4 per compute unit on a GPU, one per compute unit
    /// on another device, one per thread on the CPU backend]
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    chains: Option<usize>,
    #[command(flatten)]
    max_iterations: crate::args::MaxIterationsArg,
    #[command(flatten)]
    ts: crate::args::TsTuningArgs,
    /// hc12: swaps per string: 2 * N Gray-coded positions, of which each neighbourhood row
    /// changes up to --mask-order bits [default: 16]
    #[arg(long, value_name = "N")]
    swaps: Option<u32>,
    /// hc12: mask order: rows change 1..=ORDER bits of the string (1 to 3) [default: 2]
    #[arg(long, value_name = "ORDER")]
    mask_order: Option<u32>,
    /// hc12: restarts after the first run (runs = N + 1) [default: 99, unlimited with --time-limit]
    #[arg(long, value_name = "N", conflicts_with = "max_runs")]
    restarts: Option<u32>,
    #[command(flatten)]
    max_runs: crate::args::MaxRunsArg,
    #[command(flatten)]
    time_limit: TimeLimitArg,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    backend: BackendArgs,
    /// Where the search starts: random, identity, glb, hrw, pe, ab (hc12's first run), or a FILE
    /// of permutations, one per line ("3 10 11 ..." or "3,10,11,...", 1-based unless
    /// --zero-based; '#' lines are comments): ts starts its first chains from them, hc12 its
    /// first run from the first (a regular file of at most 64 MiB) [default: random]
    #[arg(long, value_name = "KIND|FILE", value_parser = parse_start, conflicts_with = "start_permutation")]
    start: Option<StartSpec>,
    /// The first chain's (ts) or the first run's (hc12) start as a permutation "3,10,11,..."
    /// (1-based unless --zero-based)
    #[arg(long, value_name = "P")]
    start_permutation: Option<String>,
    /// The permutations of --start-permutation or a --start file are 0-based
    #[arg(long)]
    zero_based: bool,
    /// hc12: what follows a finished run [default: rebase]
    #[arg(long, value_enum)]
    restart_mode: Option<RestartArg>,
    /// Stop as soon as the best cost is at or below V; `bks` = the best-known value
    #[arg(long, value_name = "V|bks", value_parser = parse_target)]
    target: Option<TargetArg>,
    /// Best-known value for the gap (default: from BKS.csv beside the instance)
    #[arg(long, value_name = "V")]
    bks: Option<i64>,
    /// hc12: sum the whole O(n^2) cost for every row (the thesis's kernel) instead of the O(n) delta
    #[arg(long)]
    full_cost: bool,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    tabu: TabuArgs,
    /// ts: the chains split over several OpenCL devices (comma-separated numbers, or all)
    #[arg(long, value_name = "N,..|all", conflicts_with = "cpu")]
    devices: Option<String>,
    /// ts: --mpi: every rank runs --chains chains of its own (numbered after the lower ranks'),
    /// the ranks share their best permutation before every launch and stop together
    #[command(flatten)]
    mpi: crate::mpi::MpiArg,
}

impl SolveArgs {
    /// The flags given that only `--method hc12` reads.
    fn hc12_flags(&self) -> Vec<&'static str> {
        let given = [
            ("--swaps", self.swaps.is_some()),
            ("--mask-order", self.mask_order.is_some()),
            ("--restarts", self.restarts.is_some()),
            ("--max-runs", self.max_runs.max_runs.is_some()),
            (
                "--start (a kind of start)",
                matches!(&self.start, Some(StartSpec::Kind(k)) if *k != Start::Random),
            ),
            ("--restart-mode", self.restart_mode.is_some()),
            ("--full-cost", self.full_cost),
            ("--tabu", self.tabu.tabu.is_some()),
        ];
        given.iter().filter(|g| g.1).map(|g| g.0).collect()
    }

    /// The flags given that only `--method ts` reads.
    fn ts_flags(&self) -> Vec<&'static str> {
        let given = [
            ("--chains", self.chains.is_some()),
            (
                "--max-iterations",
                self.max_iterations.max_iterations.is_some(),
            ),
            ("--devices", self.devices.is_some()),
            ("--mpi", self.mpi.mpi),
        ];
        let mut v: Vec<&'static str> = given.iter().filter(|g| g.1).map(|g| g.0).collect();
        v.extend(self.ts.given());
        v
    }

    /// Refuses the flags of the other method, naming them.
    fn check_method_flags(&self) -> CliResult {
        let (wrong, method, other) = match self.method {
            MethodArg::Ts => (self.hc12_flags(), "ts", "hc12"),
            MethodArg::Hc12 => (self.ts_flags(), "hc12", "ts"),
        };
        match wrong.first() {
            None => Ok(()),
            Some(flag) => Err(Failure(format!(
                "{flag}: only for --method {other}, not with --method {method}{}",
                if self.method == MethodArg::Ts {
                    " (the default)"
                } else {
                    ""
                }
            ))),
        }
    }
}

/// Swaps per string when `--swaps` is not given. With random restarts (a random permutation and
/// a random swap list), 8 to 32 swaps reach the optimum of had12, nug12 and chr12a within about a
/// second on PoCL for most seeds, and 2 to 4 often do not (chr12a); 16 is the middle of that range.
pub const DEFAULT_SWAPS: u32 = 16;

/// The library's parameter names, as the CLI spells them.
fn solver_error(e: metaopt::Error) -> Failure {
    let table = [
        ("swaps", "--swaps"),
        ("maskOrder", "--mask-order"),
        ("start permutation", "--start-permutation"),
        ("target", "--target"),
        ("runs", "--max-runs"),
        ("state", "--resume"),
        ("checkpoint", "--checkpoint"),
    ];
    out::renamed_or_cpu(e, &table)
}

#[derive(Serialize)]
struct SolveJson {
    instance: String,
    n: usize,
    cost: Cost,
    bks: Option<i64>,
    bks_optimal: Option<bool>,
    gap_percent: Option<f64>,
    /// 1-based, QAPLIB's notation: facility i goes to location permutation[i-1].
    permutation: Vec<usize>,
    runs: u32,
    iterations: u64,
    best_run_iterations: u32,
    evaluations: u64,
    seconds: f64,
    seconds_to_best: f64,
    target: Option<Value>,
    target_reached: bool,
    stopped_by: metaopt::StopReason,
    backend: &'static str,
    device: String,
    device_index: Option<usize>,
    swaps: u32,
    mask_order: u32,
    rows: u64,
    cost_form: &'static str,
    seed: u64,
    start: &'static str,
    restart_mode: &'static str,
    tabu: Option<TabuConfig>,
}

fn progress_bar(runs: u32, limit: Option<Duration>) -> ProgressBar {
    match limit {
        Some(l) => out::time_bar(l),
        None => out::count_bar(runs as u64, "run {pos}/{len}  {elapsed}  {msg}"),
    }
}

pub fn solve(a: &SolveArgs) -> CliResult {
    a.convergence.check()?;
    a.check_method_flags()?;
    let inst = QapInstance::from_dat(&a.instance)?;
    let bks = best_known(&a.instance, a.bks);
    let target = match a.target {
        None => None,
        Some(TargetArg::Value(v)) => Some(v),
        Some(TargetArg::Bks) => match bks {
            Some((v, _)) => Some(v as f64),
            None => {
                return Err(Failure(format!(
                    "--target bks: no best-known value for `{}` (no BKS.csv row beside {}); give --bks V or --target V",
                    inst.name,
                    a.instance.display()
                )))
            }
        },
    };
    let backend = a.backend.backend()?;
    if a.method == MethodArg::Ts {
        return solve_ts(a, &inst, bks, target, backend);
    }
    let form = if a.full_cost {
        CostForm::Full
    } else {
        CostForm::Delta
    };
    let given = given_starts(a, inst.n)?;
    let start = match (given.into_iter().next(), &a.start) {
        (Some(p), _) => Start::Given(p),
        (None, Some(StartSpec::Kind(k))) => k.clone(),
        (None, _) => Start::Random,
    };
    let time_limit = a.time_limit.time_limit;
    let runs = match (a.restarts, time_limit) {
        (None, _) if a.max_runs.max_runs.is_some() => a.max_runs.max_runs.unwrap_or(1),
        (Some(r), _) => r
            .checked_add(1)
            .ok_or_else(|| Failure("--restarts: too large".into()))?,
        (None, Some(_)) => 0,
        (None, None) => 100,
    };
    let opts = QapSolveOptions {
        stop: Stop {
            budget: (runs != 0).then_some(u64::from(runs)),
            time_limit,
            target,
            token: Some(crate::stop_token()),
            ..Stop::default()
        },
        seed: a.seed.seed,
        start: start.clone(),
        restart: match a.restart_mode.unwrap_or(RestartArg::Rebase) {
            RestartArg::Rebase => RestartMode::Rebase,
            RestartArg::Random => RestartMode::Random,
        },
    };
    let swaps = a.swaps.unwrap_or(DEFAULT_SWAPS);
    let mask_order = a.mask_order.unwrap_or(2);
    let problem = Arc::new(QapProblem::from_instance(&inst));
    let tabu = a.tabu.config()?;
    let mut solver =
        QapHc12::new(problem, swaps, mask_order, 0, 0, backend, form).map_err(solver_error)?;
    if let Some(cfg) = &tabu {
        solver.init_tabu_list(cfg.clone()).map_err(solver_error)?;
    }
    let device = solver.describe();
    let device_index = if a.backend.cpu {
        None
    } else {
        get_device_number().ok()
    };

    let bar = a.json.progress().then(|| progress_bar(runs, time_limit));
    let log = a.convergence.log("runs");
    let on_progress = |p: &RunReport<Cost>| {
        if let Some(log) = &log {
            log.record(p.runs as u64, p.best.as_f64());
        }
        if let Some(bar) = &bar {
            match time_limit {
                Some(_) => bar.set_position(p.elapsed.as_millis() as u64),
                None => bar.set_position(p.runs as u64),
            }
            let gap =
                bks.map(|(v, _)| format!(", gap {:.3} %", gap_percent(p.best.as_f64(), v as f64)));
            bar.set_message(format!("best {}{}", p.best, gap.unwrap_or_default()));
        }
    };
    // the limit counts from the command's start: reading and building the solver are in it
    let mut opts = opts;
    opts.stop.time_limit = crate::time_left(opts.stop.time_limit);
    opts.stop.checkpoint = a.checkpoint.plan(None)?;
    if let Some(bytes) = a.checkpoint.resume(None)? {
        solver.load_state(&bytes, &opts).map_err(solver_error)?;
    }
    let result = hc12_solve(&mut solver, &opts, Some(&inst), on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = result.map_err(solver_error)?;
    a.convergence
        .write(log.as_ref(), &format!("{}: HC12 best cost", inst.name))?;
    let gap = bks.map(|(v, _)| gap_percent(r.cost.as_f64(), v as f64));
    let perm1 = one_based(&r.permutation);
    let start_name = start.name();
    let restart_name = match opts.restart {
        RestartMode::Rebase => "rebase",
        RestartMode::Random => "random",
    };
    let form_name = if a.full_cost { "full" } else { "delta" };
    if a.json.json {
        return out::print_json(&SolveJson {
            instance: inst.name.clone(),
            n: inst.n,
            cost: r.cost,
            bks: bks.map(|b| b.0),
            bks_optimal: bks.and_then(|b| b.1),
            gap_percent: gap,
            permutation: perm1,
            runs: r.runs,
            iterations: r.iterations,
            best_run_iterations: r.best_run_iterations,
            evaluations: r.evaluations,
            seconds: r.seconds,
            seconds_to_best: r.seconds_to_best,
            target: target.map(num),
            target_reached: r.target_reached,
            stopped_by: r.stop,
            backend: a.backend.name(),
            device,
            device_index,
            swaps,
            mask_order,
            rows: solver.rows(),
            cost_form: form_name,
            seed: a.seed.seed,
            start: start_name,
            restart_mode: restart_name,
            tabu,
        });
    }
    let mut s = format!("instance     {} (n = {})\n", inst.name, inst.n);
    s += &format!("device       {device}\n");
    s += &format!(
        "solver       HC12 qapswap2, {swaps} swaps, mask order {}, {} rows, {form_name} cost, seed {}, {start_name} start, {restart_name} restarts\n",
        mask_order,
        out::thousands(solver.rows()),
        a.seed.seed
    );
    if let Some(t) = &tabu {
        s += &format!(
            "tabu list    {} strings, {} iterations per run, {} without improvement{}{}\n",
            t.max_length,
            t.max_iterations,
            t.max_no_improve,
            t.activation_limit
                .map(|l| format!(", active below {l}"))
                .unwrap_or_default(),
            if t.aspiration { ", aspiration" } else { "" }
        );
    }
    s += &format!("best cost    {}\n", r.cost);
    s += &format!("best known   {}\n", gap_text(r.cost.as_f64(), bks));
    s += &format!("permutation  {}  (1-based)\n", spaced(&perm1));
    let tgt = match target {
        Some(t) if r.target_reached => format!(" (target {} reached)", num(t)),
        Some(t) => format!(" (target {} not reached)", num(t)),
        None => String::new(),
    };
    s += &format!("runs         {}{tgt}\n", r.runs);
    s += &format!("stopped by   {}\n", r.stop.word());
    s += &format!(
        "iterations   {} ({} in the best run)\n",
        out::thousands(r.iterations),
        r.best_run_iterations
    );
    s += &format!("evaluations  {} rows\n", out::thousands(r.evaluations));
    s += &format!(
        "time         {:.3} s (best found after {:.3} s)\n",
        r.seconds, r.seconds_to_best
    );
    out::print(&s)
}

/// The library's option names of the tabu search, as the CLI spells them.
fn ts_error(e: metaopt::Error) -> Failure {
    let mut table = vec![
        ("chains", "--chains"),
        ("max_iterations", "--max-iterations"),
        ("target", "--target"),
        ("devices", "--devices"),
    ];
    table.extend(crate::args::TsTuningArgs::RENAMES);
    table.extend(crate::checkpoint::RENAMES);
    out::renamed_or_cpu(e, &table)
}

#[derive(Serialize)]
struct SolveTsJson {
    instance: String,
    n: usize,
    method: &'static str,
    cost: Cost,
    bks: Option<i64>,
    bks_optimal: Option<bool>,
    gap_percent: Option<f64>,
    /// 1-based, QAPLIB's notation: facility i goes to location permutation[i-1].
    permutation: Vec<usize>,
    chains: usize,
    /// The default chain count, above `chains` where that many did not fit the memory.
    chains_requested: usize,
    /// Per chain.
    iterations: u64,
    launches: u64,
    restarts: u64,
    seconds: f64,
    seconds_to_best: f64,
    target: Option<Value>,
    target_reached: bool,
    stopped_by: metaopt::StopReason,
    backend: &'static str,
    device: String,
    device_index: Option<usize>,
    seed: u64,
}

/// `qap solve --method ts`: the robust tabu search (`metaopt::qap_ts`).
fn solve_ts(
    a: &SolveArgs,
    inst: &QapInstance,
    bks: Option<(i64, Option<bool>)>,
    target: Option<f64>,
    backend: metaopt::device::Backend,
) -> CliResult {
    let time_limit = a.time_limit.time_limit;
    let defaults = QapTsOptions::default();
    let devices = crate::args::DevicesArg {
        devices: a.devices.clone(),
    }
    .list()?;
    // by default, each device's own default chain count
    let chains = if devices.is_empty() {
        metaopt::qap_ts::default_chains(&[backend])
    } else {
        metaopt::qap_ts::default_chains(
            &devices
                .iter()
                .map(|&d| metaopt::device::Backend::Device(Some(d)))
                .collect::<Vec<_>>(),
        )
    }
    .map_err(|e| out::renamed_or_cpu(e, &[]))?;
    let opts = a.ts.apply(QapTsOptions {
        chains: a.chains.unwrap_or(chains),
        // the default count is lowered to what fits the memory; a count given is run or refused
        fit_chains: a.chains.is_none(),
        stop: metaopt::run::Stop {
            // 0: no limit (then --time-limit ends the solve)
            budget: match (a.max_iterations.max_iterations, time_limit) {
                (Some(n), _) => (n > 0).then_some(n),
                (None, Some(_)) => None,
                (None, None) => defaults.stop.budget,
            },
            time_limit,
            target,
            ..metaopt::run::Stop::default()
        },
        seed: a.seed.seed,
        starts: given_starts(a, inst.n)?,
        ..defaults
    });
    if a.max_iterations.max_iterations == Some(0) && time_limit.is_none() {
        return Err("--max-iterations: 0 (no limit) needs --time-limit".into());
    }
    opts.check(inst.n).map_err(ts_error)?;
    let ranks = a.mpi.ranks()?;
    let mut opts = opts;
    if let Some(rk) = &ranks {
        rk.pick_device(
            a.backend.cpu,
            !devices.is_empty() || a.backend.device.device.is_some(),
        );
        rk.or_abort(crate::mpi::test_failure(rk));
        // the ranks' chains are numbered one after another, so no two ranks run the same chain
        opts.first_chain = rk.rank() * opts.chains;
    }
    let rank = ranks.as_ref().map(|rk| (rk.rank(), rk.size()));
    opts.stop.checkpoint = a.checkpoint.plan(rank)?;
    let problem = Arc::new(QapProblem::from_instance(inst));
    let mut solver = if devices.is_empty() {
        QapTs::new(problem, backend)
    } else {
        QapTs::on_devices(problem, &devices)
    }
    .map_err(ts_error)?;
    // the ranks resume from the newest iteration they all have
    a.checkpoint.resume_together(ranks.as_ref(), |bytes| {
        solver.load_state(bytes).map_err(ts_error)?;
        Ok(solver.loaded_iterations().map_err(ts_error)?.unwrap_or(0))
    })?;
    let device_index = if a.backend.cpu {
        None
    } else if let Some(&d) = devices.first() {
        Some(d)
    } else {
        get_device_number().ok()
    };
    let bar = a.json.progress().then(|| match time_limit {
        Some(l) => out::time_bar(l),
        None => out::count_bar(
            opts.stop.budget.unwrap_or(0),
            "iteration {pos}/{len}  {elapsed}  {msg}",
        ),
    });
    let t0 = std::time::Instant::now();
    let log = a.convergence.log("iterations");
    let on_progress = |p: &QapTsProgress| {
        if let Some(log) = &log {
            log.record(p.iterations, p.best.as_f64());
        }
        if let Some(bar) = &bar {
            match time_limit {
                Some(_) => bar.set_position(t0.elapsed().as_millis() as u64),
                None => bar.set_position(p.iterations),
            }
            let gap =
                bks.map(|(v, _)| format!(", gap {:.3} %", gap_percent(p.best.as_f64(), v as f64)));
            bar.set_message(format!("best {}{}", p.best, gap.unwrap_or_default()));
        }
        true
    };
    opts.stop.time_limit = crate::time_left(opts.stop.time_limit);
    let result = match &ranks {
        None => solver.solve_with_progress(&opts, on_progress),
        Some(rk) => solver.solve_shared(
            &opts,
            on_progress,
            Some(|round: &ShareRound| Ok(rk.share_best(round))),
        ),
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = match &ranks {
        None => result.map_err(ts_error)?,
        Some(rk) => {
            let mut r = rk.or_abort(result.map_err(ts_error));
            // every rank ends with the job's best (shared before the last launch); rank 0 reports
            // the chains and iterations of all
            let work = rk.gather(&[
                r.chains as u64,
                r.iterations * r.chains as u64,
                r.restarts,
                r.chains_requested as u64,
            ]);
            let Some(work) = work else { return Ok(()) };
            let size = rk.size();
            r.chains = work.chunks(4).map(|w| w[0] as usize).sum();
            r.iterations = work.chunks(4).map(|w| w[1]).sum::<u64>() / r.chains.max(1) as u64;
            r.restarts = work.chunks(4).map(|w| w[2]).sum();
            r.chains_requested = work.chunks(4).map(|w| w[3] as usize).sum();
            r.backend = format!(
                "{}; MPI, {size} rank{}",
                r.backend,
                if size == 1 { "" } else { "s" }
            );
            r
        }
    };
    a.convergence.write(
        log.as_ref(),
        &format!("{}: robust tabu search, best cost", inst.name),
    )?;

    let gap = bks.map(|(v, _)| gap_percent(r.cost.as_f64(), v as f64));
    let perm1 = one_based(&r.permutation);
    if a.json.json {
        return out::print_json(&SolveTsJson {
            instance: inst.name.clone(),
            n: inst.n,
            method: "ts",
            cost: r.cost,
            bks: bks.map(|b| b.0),
            bks_optimal: bks.and_then(|b| b.1),
            gap_percent: gap,
            permutation: perm1,
            chains: r.chains,
            chains_requested: r.chains_requested,
            iterations: r.iterations,
            launches: r.launches,
            restarts: r.restarts,
            seconds: r.seconds,
            seconds_to_best: r.seconds_to_best,
            target: target.map(num),
            target_reached: r.target_reached,
            stopped_by: r.stop,
            backend: a.backend.name(),
            device: r.backend,
            device_index,
            seed: a.seed.seed,
        });
    }
    let mut s = format!("instance     {} (n = {})\n", inst.name, inst.n);
    s += &format!("device       {}\n", r.backend);
    let fitted = if r.chains < r.chains_requested {
        format!(
            " (of the default {}: as many as fit the memory)",
            r.chains_requested
        )
    } else {
        String::new()
    };
    s += &format!(
        "solver       robust tabu search, {} chains{fitted}, seed {}\n",
        r.chains, a.seed.seed
    );
    s += &format!("best cost    {}\n", r.cost);
    s += &format!("best known   {}\n", gap_text(r.cost.as_f64(), bks));
    s += &format!("permutation  {}  (1-based)\n", spaced(&perm1));
    let tgt = match target {
        Some(t) if r.target_reached => format!(" (target {} reached)", num(t)),
        Some(t) => format!(" (target {} not reached)", num(t)),
        None => String::new(),
    };
    s += &format!(
        "iterations   {} per chain, {} in total{tgt}\n",
        out::thousands(r.iterations),
        out::thousands(r.iterations * r.chains as u64)
    );
    let launches = if r.launches == 1 {
        "launch"
    } else {
        "launches"
    };
    s += &format!(
        "restarts     {} (from the elite pool), {} {launches}\n",
        r.restarts, r.launches
    );
    s += &format!("stopped by   {}\n", r.stop.word());
    s += &format!(
        "time         {:.3} s (best found after {:.3} s)\n",
        r.seconds, r.seconds_to_best
    );
    out::print(&s)
}
