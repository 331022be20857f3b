//! `metaopt qap eval` and `metaopt qap solve`.

use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use metaopt::device::{get_device_number, set_device_number};
use metaopt::hc12::qap::solve::{gap_percent, solve, QapSolveOptions, RestartMode, Start};
use metaopt::hc12::restarts::{RunReport, Stop};
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::problem::qap::{Cost, QapProblem};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::qap::{find_bks, parse_permutation, read_sln, read_sln_auto, QapInstance};
use serde::Serialize;
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Subcommand)]
pub enum QapCommand {
    /// Cost of a permutation (or a QAPLIB .sln file) on an instance
    Eval(EvalArgs),
    /// Solve an instance with the qapswap2 HC12 solver (restarts and rebasing)
    Solve(SolveArgs),
}

pub fn run(c: QapCommand) -> CliResult {
    match c {
        QapCommand::Eval(a) => eval(&a),
        QapCommand::Solve(a) => solve_cmd(&a),
    }
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
    /// Print one JSON object
    #[arg(long)]
    json: bool,
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

fn eval(a: &EvalArgs) -> CliResult {
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
    if a.json {
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

#[derive(Clone, Copy, ValueEnum)]
enum StartArg {
    /// A random permutation from the seed
    Random,
    /// The identity permutation
    Identity,
    /// The assignment of the Gilmore-Lawler bound
    Glb,
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

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

#[derive(Args)]
pub struct SolveArgs {
    /// QAPLIB instance (.dat); the best-known value is looked up in BKS.csv beside it
    instance: PathBuf,
    /// Swaps per string: 2 * N Gray-coded positions, of which each neighbourhood row changes up to
    /// --mask-order bits
    #[arg(long, default_value_t = DEFAULT_SWAPS, value_name = "N")]
    swaps: u32,
    /// Mask order of HC12: rows change 1..=ORDER bits of the string (1 to 3)
    #[arg(long, default_value_t = 2, value_name = "ORDER")]
    mask_order: u32,
    /// Restarts after the first run (runs = N + 1) [default: 99, unlimited with --time-limit]
    #[arg(long, value_name = "N")]
    restarts: Option<u32>,
    /// Stop after this many seconds (checked after each run)
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Seed of the random starts (the same seed gives the same result on every device)
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// OpenCL device number from `metaopt devices` (default: METAOPT_DEVICE, else 0)
    #[arg(long, value_name = "N", conflicts_with = "cpu")]
    device: Option<i32>,
    /// Start of the first run
    #[arg(long, value_enum, default_value_t = StartArg::Random, conflicts_with = "start_permutation")]
    start: StartArg,
    /// Start of the first run as a permutation "3,10,11,..." (1-based unless --zero-based)
    #[arg(long, value_name = "P")]
    start_permutation: Option<String>,
    /// --start-permutation is 0-based
    #[arg(long, requires = "start_permutation")]
    zero_based: bool,
    /// What follows a finished run
    #[arg(long, value_enum, default_value_t = RestartArg::Rebase)]
    restart_mode: RestartArg,
    /// Stop as soon as the best cost is at or below V; `bks` = the best-known value
    #[arg(long, value_name = "V|bks", value_parser = parse_target)]
    target: Option<TargetArg>,
    /// Best-known value for the gap (default: from BKS.csv beside the instance)
    #[arg(long, value_name = "V")]
    bks: Option<i64>,
    /// Sum the whole O(n^2) cost for every row (the thesis's kernel) instead of the O(n) delta
    #[arg(long)]
    full_cost: bool,
    /// Evaluate on the CPU (rayon) instead of an OpenCL device
    #[arg(long)]
    cpu: bool,
    /// Print one JSON object on stdout (no progress bar)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tabu: TabuArgs,
}

/// The tabu list options shared by `qap solve` and `bench tabu`.
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
        let Some(len) = self.tabu else { return Ok(None) };
        let cfg = TabuConfig {
            max_length: len,
            activation_limit: self.activation_limit,
            aspiration: self.aspiration,
            max_iterations: self.tabu_iterations,
            max_no_improve: self.no_improve,
        };
        cfg.check().map_err(|e| {
            let flag = match &e {
                metaopt::Error::InvalidArgument { arg: "maxLength", .. } => "--tabu",
                metaopt::Error::InvalidArgument { arg: "maxIterations", .. } => "--tabu-iterations",
                metaopt::Error::InvalidArgument { arg: "maxNoImprove", .. } => "--no-improve",
                _ => "--activation-limit",
            };
            flag_error(flag, e)
        })?;
        Ok(Some(cfg))
    }
}

/// Swaps per string when `--swaps` is not given. With random restarts (a random permutation and
/// a random swap list), 8 to 32 swaps reach the optimum of had12, nug12 and chr12a within about a
/// second on PoCL for most seeds, and 2 to 4 often do not (chr12a); 16 is the middle of that range.
pub const DEFAULT_SWAPS: u32 = 16;

/// The library's parameter names, as the CLI spells them.
fn solver_error(e: metaopt::Error) -> Failure {
    match &e {
        metaopt::Error::InvalidArgument { arg, .. } => {
            let flag = match *arg {
                "swaps" => "--swaps",
                "maskOrder" => "--mask-order",
                "start permutation" => "--start-permutation",
                "target" => "--target",
                _ => return e.into(),
            };
            flag_error(flag, e)
        }
        metaopt::Error::NoDevice(_) => {
            Failure(format!("{e}; or use --cpu"))
        }
        _ => e.into(),
    }
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
    let (bar, template) = match limit {
        Some(l) => (
            ProgressBar::new(l.as_millis().max(1) as u64),
            format!(
                "{{spinner}} [{{bar:30}}] {{elapsed}} of {:.0}s  {{msg}}",
                l.as_secs_f64()
            ),
        ),
        None => (
            ProgressBar::new(runs.max(1) as u64),
            "{spinner} [{bar:30}] run {pos}/{len}  {elapsed}  {msg}".to_string(),
        ),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

fn solve_cmd(a: &SolveArgs) -> CliResult {
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
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let backend = if a.cpu {
        Backend::Cpu
    } else {
        Backend::Device(None)
    };
    let form = if a.full_cost {
        CostForm::Full
    } else {
        CostForm::Delta
    };
    let start = match &a.start_permutation {
        Some(text) => {
            let base = if a.zero_based { 0 } else { 1 };
            Start::Given(
                parse_permutation(text, inst.n, base)
                    .map_err(|e| permutation_error("--start-permutation", e))?,
            )
        }
        None => match a.start {
            StartArg::Random => Start::Random,
            StartArg::Identity => Start::Identity,
            StartArg::Glb => Start::Glb,
        },
    };
    let runs = match (a.restarts, a.time_limit) {
        (Some(r), _) => r
            .checked_add(1)
            .ok_or_else(|| Failure("--restarts: too large".into()))?,
        (None, Some(_)) => 0,
        (None, None) => 100,
    };
    let opts = QapSolveOptions {
        stop: Stop { max_runs: runs, time_limit: a.time_limit, target },
        seed: a.seed,
        start: start.clone(),
        restart: match a.restart_mode {
            RestartArg::Rebase => RestartMode::Rebase,
            RestartArg::Random => RestartMode::Random,
        },
    };
    let swaps = a.swaps;
    let problem = Arc::new(QapProblem::from_instance(&inst));
    let tabu = a.tabu.config()?;
    let mut solver =
        QapHc12::new(problem, swaps, a.mask_order, 0, 0, backend, form).map_err(solver_error)?;
    if let Some(cfg) = &tabu {
        solver.init_tabu_list(cfg.clone()).map_err(solver_error)?;
    }
    let device = solver.backend_description();
    let device_index = if a.cpu {
        None
    } else {
        get_device_number().ok()
    };

    let bar =
        (!a.json && std::io::stderr().is_terminal()).then(|| progress_bar(runs, a.time_limit));
    let on_progress = |p: &RunReport<Cost>| {
        if let Some(bar) = &bar {
            match a.time_limit {
                Some(_) => bar.set_position(p.elapsed.as_millis() as u64),
                None => bar.set_position(p.runs as u64),
            }
            let gap =
                bks.map(|(v, _)| format!(", gap {:.3} %", gap_percent(p.best.as_f64(), v as f64)));
            bar.set_message(format!("best {}{}", p.best, gap.unwrap_or_default()));
        }
    };
    let result = solve(&mut solver, &opts, Some(&inst), on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = result.map_err(solver_error)?;
    let gap = bks.map(|(v, _)| gap_percent(r.cost.as_f64(), v as f64));
    let perm1 = one_based(&r.permutation);
    let start_name = match start {
        Start::Random => "random",
        Start::Identity => "identity",
        Start::Glb => "glb",
        Start::Given(_) => "given",
    };
    let restart_name = match opts.restart {
        RestartMode::Rebase => "rebase",
        RestartMode::Random => "random",
    };
    let form_name = if a.full_cost { "full" } else { "delta" };
    if a.json {
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
            backend: if a.cpu { "cpu" } else { "device" },
            device,
            device_index,
            swaps,
            mask_order: a.mask_order,
            rows: solver.rows(),
            cost_form: form_name,
            seed: a.seed,
            start: start_name,
            restart_mode: restart_name,
            tabu,
        });
    }
    let mut s = format!("instance     {} (n = {})\n", inst.name, inst.n);
    s += &format!("device       {device}\n");
    s += &format!(
        "solver       HC12 qapswap2, {swaps} swaps, mask order {}, {} rows, {form_name} cost, seed {}, {start_name} start, {restart_name} restarts\n",
        a.mask_order,
        out::thousands(solver.rows()),
        a.seed
    );
    if let Some(t) = &tabu {
        s += &format!(
            "tabu list    {} strings, {} iterations per run, {} without improvement{}{}\n",
            t.max_length,
            t.max_iterations,
            t.max_no_improve,
            t.activation_limit.map(|l| format!(", active below {l}")).unwrap_or_default(),
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
