//! `metaopt sat eval` and `metaopt sat solve` (SAT competition output).

use crate::args::{BackendArgs, DeviceArg, JsonArg, SeedArg};
use crate::convergence::ConvergenceArgs;
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::sat::{parse_assignments, Assignment, Cnf};
use metaopt::run::Stop;
use metaopt::sat::eval::DeviceSat;
use metaopt::sat_sls::{max_clause_length, BreakFunction, SatSls, SlsMethod, SlsOptions};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum SatCommand {
    /// Satisfied clauses of assignments: the output of `sat solve` (`v` lines, together one
    /// assignment), or one per line as signed literals ("1 -2 3 ... 0") or a 0/1 string
    Eval(EvalArgs),
    /// Look for a model with many probSAT (default) or WalkSAT walks, or HC12 local search;
    /// prints `s SATISFIABLE` and `v` lines and exits with 10, or `s UNKNOWN` and the fewest
    /// unsatisfied clauses found and exits with 0 (errors: 2; Ctrl-C: 130, SIGTERM: 143)
    Solve(Box<SolveArgs>),
    /// A uniform random k-SAT formula in DIMACS CNF: round(ratio x vars) clauses of k distinct
    /// variables, random signs (Philox from the seed)
    Generate(GenerateArgs),
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Variables
    #[arg(long, value_name = "N")]
    vars: usize,
    /// Clauses per variable (4.26 is the satisfiability threshold of random 3-SAT)
    #[arg(long, default_value_t = 4.2, value_name = "R")]
    ratio: f64,
    /// Literals per clause
    #[arg(long, default_value_t = 3, value_name = "K")]
    k: usize,
    /// Seed of the formula (the same seed gives the same formula)
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
}

/// `metaopt sat generate`.
pub fn generate(a: &GenerateArgs) -> CliResult {
    let cnf = Cnf::random_ksat(a.vars, a.ratio, a.k, a.seed).map_err(|e| {
        out::renamed(
            e,
            &[("num_vars", "--vars"), ("ratio", "--ratio"), ("k", "--k")],
        )
    })?;
    // to stdout or to the global --output FILE
    out::print(&cnf.to_dimacs())
}

#[derive(Args)]
pub struct EvalArgs {
    /// The formula (DIMACS CNF)
    cnf: PathBuf,
    /// File of assignments (`-` for standard input): SAT competition output (`s` and `v` lines,
    /// the `v` lines up to their final 0 one assignment), or one assignment per line as signed
    /// literals or a 0/1 string; lines starting with `c` are comments; a regular file of at
    /// most 1 GiB
    assignments: PathBuf,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct EvalJson {
    clauses: usize,
    satisfied: Vec<u32>,
    models: Vec<bool>,
    device: String,
}

pub fn eval(a: &EvalArgs) -> CliResult {
    let cnf = Cnf::from_file(&a.cnf)?;
    let text = if a.assignments == Path::new("-") {
        use std::io::Read;
        let max = crate::args::MAX_FLAG_FILE_BYTES;
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure(format!("cannot read standard input: {e}")))?;
        if bytes.len() as u64 > max {
            return Err(Failure(format!(
                "standard input holds more than {max} bytes of assignments"
            )));
        }
        String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8 text")?
    } else {
        crate::args::read_flag_text(
            "ASSIGNMENTS",
            &a.assignments,
            crate::args::MAX_FLAG_FILE_BYTES,
        )?
    };
    let source = if a.assignments == Path::new("-") {
        Path::new("<stdin>")
    } else {
        a.assignments.as_path()
    };
    let asg: Vec<Assignment> = parse_assignments(&text, cnf.num_vars, source)?;
    if asg.is_empty() {
        return Err("no assignment in the input".into());
    }
    a.backend.device.select()?;
    let (res, device) = if a.backend.cpu {
        (
            metaopt::sat::cpu::evaluate_many(&cnf, &asg, false)?,
            metaopt::device::Backend::Cpu.describe(),
        )
    } else {
        let mut d = DeviceSat::new(&cnf)?;
        (d.dxac(&asg, false)?, d.describe())
    };
    let m = cnf.num_clauses() as u32;
    if a.json.json {
        return out::print_json(&EvalJson {
            clauses: cnf.num_clauses(),
            models: res.satisfied.iter().map(|&s| s == m).collect(),
            satisfied: res.satisfied,
            device,
        });
    }
    let mut s = format!(
        "c {} ({} variables, {} clauses) on {device}\n",
        cnf.name, cnf.num_vars, m
    );
    for (i, &k) in res.satisfied.iter().enumerate() {
        s += &format!(
            "{} {k} satisfied, {} unsatisfied{}\n",
            i + 1,
            m - k,
            if k == m { "  (model)" } else { "" }
        );
    }
    out::print(&s)
}

/// The search of `sat solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// probSAT walks (f(break) of Balint & Schöning)
    Probsat,
    /// WalkSAT/SKC walks (freebie, noise, least break)
    Walksat,
    /// HC12 local search with a tabu list (device only)
    Hc12,
}

impl Method {
    pub fn sls(self) -> Option<SlsMethod> {
        match self {
            Method::Probsat => Some(SlsMethod::ProbSat),
            Method::Walksat => Some(SlsMethod::WalkSat),
            Method::Hc12 => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Probsat => "probsat",
            Method::Walksat => "walksat",
            Method::Hc12 => "hc12",
        }
    }
}

#[derive(Args)]
#[command(mut_arg("csv", |a| a.help(
    "Write the convergence log to FILE (CSV: seconds, flips_per_walk, best: the fewest unsatisfied \
     clauses of any walk, a row per launch; --method hc12: seconds, runs, best, iterations, a row \
     per run)"
)))]
pub struct SolveArgs {
    /// The formula (DIMACS CNF)
    cnf: PathBuf,
    /// The search: probSAT or WalkSAT walks (many per launch), or HC12
    #[arg(long, value_enum, default_value_t = Method::Probsat)]
    method: Method,
    /// Walks (probsat, walksat) [default: the device's compute units times its walks per unit;
    /// with --cpu one per thread]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    walks: Option<u32>,
    /// probSAT's cb: f(b) = (eps + b)^-cb, or cb^-b for clauses longer than 3 when --eps is not
    /// given [default: probSAT's SC13 values by the longest clause]
    #[arg(long, value_name = "CB", allow_negative_numbers = true)]
    cb: Option<f64>,
    /// probSAT's eps of the polynomial f(b) = (eps + b)^-cb [default: 0.9]
    #[arg(long, value_name = "EPS", allow_negative_numbers = true)]
    eps: Option<f64>,
    /// WalkSAT's noise: the probability of a random variable of the clause when none has break 0
    /// [default: 0.567]
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    noise: Option<f64>,
    /// A walk restarts from a random assignment after N flips [default: never, as probSAT]
    #[arg(long, value_name = "N")]
    restart_flips: Option<u64>,
    /// Flips of every walk per launch [default: 4096]
    #[arg(long, value_name = "N")]
    flips_per_launch: Option<u32>,
    /// Stop after N flips per walk (probsat, walksat)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_flips: Option<u64>,
    /// Run the walks on the CPU (rayon) instead of an OpenCL device (probsat, walksat)
    #[arg(long, conflicts_with = "device")]
    cpu: bool,
    /// (probsat, walksat) Start the walks from the assignment in FILE: a model line as `sat
    /// solve` prints it (`v 1 -2 3 ... 0`), signed literals on one line or one per line, or a
    /// 0/1 string; several assignments (one per line) start the first walks, the others
    /// starting at random; a regular file of at most 1 GiB
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// (probsat, walksat) checkpoints of every walk (assignment, best, flip log, counters);
    /// (hc12) of the search between runs (runs, counters, best assignment); and resuming from
    /// one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    /// (hc12) Stop after N runs (restarts from a new start)
    #[arg(long, value_name = "N", visible_alias = "runs", value_parser = clap::value_parser!(u32).range(1..))]
    max_runs: Option<u32>,
    /// Stop after S seconds (0 < S <= 1e9) [default: 10 unless --max-runs or --max-flips]
    #[arg(long, value_name = "S", value_parser = crate::args::parse_duration)]
    time_limit: Option<Duration>,
    /// (hc12) Stop once at most V clauses are unsatisfied
    #[arg(long, value_name = "V", allow_negative_numbers = true, value_parser = crate::args::parse_target)]
    target: Option<f64>,
    /// (hc12) Length of the tabu list of visited assignments (0: plain HC12 with restarts)
    /// [default: 500]
    #[arg(long, value_name = "N")]
    tabu: Option<usize>,
    /// (hc12) A run restarts after N iterations without a new best [default: 300]
    #[arg(long, value_name = "N")]
    no_improve: Option<u32>,
    /// (hc12) 1: flip one variable per move (GSAT); 2: also pairs [default: 1]
    #[arg(long, value_name = "ORDER")]
    mask_order: Option<u32>,
    /// (hc12) Iterations a flipped variable stays put unless flipping it beats the run's best
    /// (0: off) [default: 10]
    #[arg(long, value_name = "N")]
    tenure: Option<u32>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    device: DeviceArg,
    #[command(flatten)]
    convergence: ConvergenceArgs,
    #[command(flatten)]
    json: JsonArg,
}

/// The time limit of `sat solve` when neither --time-limit nor --max-runs is given.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

impl SolveArgs {
    /// The given flags of the other searches: an error naming the first, since it would be
    /// ignored.
    fn check_flags(&self) -> CliResult {
        let walk = [
            ("--walks", self.walks.is_some()),
            ("--cb", self.cb.is_some()),
            ("--eps", self.eps.is_some()),
            ("--noise", self.noise.is_some()),
            ("--restart-flips", self.restart_flips.is_some()),
            ("--flips-per-launch", self.flips_per_launch.is_some()),
            ("--max-flips", self.max_flips.is_some()),
            ("--cpu", self.cpu),
            ("--start", self.start.is_some()),
        ];
        let hc12 = [
            ("--max-runs", self.max_runs.is_some()),
            ("--target", self.target.is_some()),
            ("--tabu", self.tabu.is_some()),
            ("--no-improve", self.no_improve.is_some()),
            ("--mask-order", self.mask_order.is_some()),
            ("--tenure", self.tenure.is_some()),
        ];
        let (others, own): (&[(&str, bool)], &str) = match self.method {
            Method::Hc12 => (&walk, "the walks (--method probsat or walksat)"),
            Method::Probsat => (&hc12, "--method hc12"),
            Method::Walksat => (&hc12, "--method hc12"),
        };
        if let Some((flag, _)) = others.iter().find(|f| f.1) {
            return Err(Failure(format!(
                "{flag}: applies to {own}, not --method {}",
                self.method.as_str()
            )));
        }
        let wrong = match self.method {
            Method::Probsat => [("--noise", self.noise.is_some())]
                .into_iter()
                .find(|f| f.1),
            Method::Walksat => [("--cb", self.cb.is_some()), ("--eps", self.eps.is_some())]
                .into_iter()
                .find(|f| f.1),
            Method::Hc12 => None,
        };
        if let Some((flag, _)) = wrong {
            return Err(Failure(format!(
                "{flag}: does not apply to --method {}",
                self.method.as_str()
            )));
        }
        Ok(())
    }
}

fn options(a: &SolveArgs) -> CliResult<SatOptions> {
    let time_limit = match (a.time_limit, a.max_runs) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_TIME_LIMIT),
    };
    let stop = Stop {
        budget: a.max_runs.filter(|&n| n != 0).map(u64::from),
        time_limit,
        target: a.target,
        token: Some(crate::stop_token()),
        ..Stop::default()
    };
    let d = SatOptions::default();
    let mut o = SatOptions {
        mask_order: a.mask_order.unwrap_or(d.mask_order),
        tenure: a.tenure.unwrap_or(d.tenure),
        seed: a.seed.seed,
        stop,
        ..d
    };
    o.tabu = match a.tabu {
        Some(0) => None,
        tabu => {
            let mut t = o.tabu.take().expect("the default has a list");
            if let Some(n) = tabu {
                t.max_length = n;
            }
            if let Some(n) = a.no_improve {
                t.max_no_improve = n;
            }
            t.check().map_err(|e| flag_error("--tabu", e))?;
            Some(t)
        }
    };
    Ok(o)
}

#[derive(Serialize)]
struct SolveJson {
    instance: String,
    variables: usize,
    clauses: usize,
    method: &'static str,
    #[serde(flatten)]
    result: metaopt::hc12::sat::SatSolveResult,
    /// The model as signed literals, when one was found.
    model: Option<Vec<i64>>,
    /// `satisfiable` or `unknown`, as the `s` line.
    status: &'static str,
    target: Option<f64>,
    device: String,
}

#[derive(Serialize)]
struct WalkJson {
    instance: String,
    variables: usize,
    clauses: usize,
    #[serde(flatten)]
    result: metaopt::sat_sls::SatSlsSolveResult,
    /// Restarts of all walks.
    restarts: u64,
    /// Flips per second of one walk (the total over the walks).
    flips_per_second_per_walk: f64,
    /// The model as signed literals, when one was found.
    model: Option<Vec<i64>>,
    /// `satisfiable` or `unknown`, as the `s` line.
    status: &'static str,
    device: String,
}

fn signed(m: &metaopt::problem::sat::Model, n: usize) -> Vec<i64> {
    (1..=n)
        .map(|v| {
            if m.assignment().get(v) {
                v as i64
            } else {
                -(v as i64)
            }
        })
        .collect()
}

/// `metaopt sat solve`: true when it found a model (the binary then exits with 10, as SAT
/// solvers do).
pub fn solve(a: &SolveArgs) -> CliResult<bool> {
    a.check_flags()?;
    a.convergence.check()?;
    let cnf = Cnf::from_file(&a.cnf)?;
    a.device.select()?;
    match a.method.sls() {
        Some(m) => solve_walks(a, cnf, m),
        None => solve_hc12(a, cnf),
    }
}

/// probSAT or WalkSAT walks.
fn solve_walks(a: &SolveArgs, cnf: Cnf, method: SlsMethod) -> CliResult<bool> {
    let d = SlsOptions::default();
    let time_limit = match (a.time_limit, a.max_flips) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_TIME_LIMIT),
    };
    let mut opts = SlsOptions {
        method,
        break_function: BreakFunction::from_options(a.cb, a.eps, max_clause_length(&cnf)),
        noise: a.noise.unwrap_or(d.noise),
        seed: a.seed.seed,
        restart_flips: a.restart_flips.unwrap_or(d.restart_flips),
        flips_per_launch: a.flips_per_launch.unwrap_or(d.flips_per_launch),
        stop: metaopt::run::Stop {
            // 0: no budget
            budget: a.max_flips.filter(|&n| n > 0),
            time_limit,
            token: Some(crate::stop_token()),
            ..metaopt::run::Stop::default()
        },
        // the limit counts from the command's start: reading the formula and set-up are in it
        since: Some(crate::started()),
        start: match &a.start {
            Some(p) => read_start(p, cnf.num_vars)?,
            None => Vec::new(),
        },
    };
    opts.stop.checkpoint = a.checkpoint.plan(None)?;
    let resume = a.checkpoint.resume(None)?;
    let table = [
        ("cb", "--cb"),
        ("eps", "--eps"),
        ("noise", "--noise"),
        ("restart_flips", "--restart-flips"),
        ("flips_per_launch", "--flips-per-launch"),
        ("time_limit", "--time-limit"),
        ("walks", "--walks"),
        ("start", "--start"),
        ("state", "--resume"),
        ("checkpoint", "--checkpoint"),
    ];
    opts.check().map_err(|e| out::renamed(e, &table))?;
    let backend = if a.cpu {
        metaopt::device::Backend::Cpu
    } else {
        metaopt::device::Backend::DEVICE
    };
    let mut s =
        SatSls::new(cnf.clone(), a.walks, backend).map_err(|e| out::renamed_or_cpu(e, &table))?;
    if let Some(bytes) = resume {
        s.load_state(bytes)
            .map_err(|e| out::renamed_or_cpu(e, &table))?;
    }
    let bar = a
        .json
        .progress()
        .then(|| out::stop_bar(opts.max_flips_cap(), "flip", time_limit));
    let log = a
        .convergence
        .log("flips_per_walk")
        .map(|l| l.label("fewest unsatisfied clauses"));
    let result = s.solve_observed(&opts, |p| {
        if let Some(log) = &log {
            log.record(p.work, p.best);
        }
        if let Some(bar) = &bar {
            if time_limit.is_none() {
                bar.set_position(p.work);
            }
            let best = if p.best.is_finite() {
                format!(", fewest unsatisfied {}", p.best)
            } else {
                String::new()
            };
            bar.set_message(format!("{} flips per walk{best}", p.work));
        }
        true
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = result.map_err(|e| out::renamed_or_cpu(e, &table))?;
    a.convergence.write(
        log.as_ref(),
        &format!(
            "{}: {}, fewest unsatisfied clauses",
            cnf.name,
            method.as_str()
        ),
    )?;
    let restarts = r.restarts();
    let per_walk = r.flips_per_second / r.walks.max(1) as f64;
    let found = r.model.is_some();
    if a.json.json {
        let model = r.model.as_ref().map(|m| signed(m, cnf.num_vars));
        out::print_json(&WalkJson {
            instance: cnf.name.clone(),
            variables: cnf.num_vars,
            clauses: cnf.num_clauses(),
            restarts,
            flips_per_second_per_walk: per_walk,
            model,
            status: status_word(r.satisfiable),
            device: s.describe(),
            result: r,
        })?;
        return Ok(found);
    }
    let mut t = instance_line(&cnf);
    t += &format!(
        "c {}; {} walks of {}\n",
        s.describe(),
        r.walks,
        method.as_str()
    );
    t += &format!(
        "c {} flips ({:.3} M flips/s, {:.3} M per walk), {} restarts, {} launches, {:.3} s\n",
        r.flips,
        r.flips_per_second / 1e6,
        per_walk / 1e6,
        restarts,
        r.launches,
        r.seconds
    );
    t += &format!("c stopped by {}\n", r.stop);
    t += &verdict(r.model.as_ref(), r.best_unsatisfied);
    out::print(&t)?;
    Ok(found)
}

/// The assignments of `--start FILE`: what `sat eval` reads (a model's `v` lines, one
/// assignment per line as signed literals or a 0/1 string), or one literal per line (a lone
/// `0` ending them), which is one assignment.
fn read_start(path: &Path, num_vars: usize) -> CliResult<Vec<Assignment>> {
    let text = crate::args::read_flag_text("--start", path, crate::args::MAX_FLAG_FILE_BYTES)?;
    let plain: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(['c', 's', '%']))
        .collect();
    // a literal per line: the lines together are one assignment
    let one_per_line = plain.len() > 1
        && plain
            .iter()
            .all(|l| !l.contains(char::is_whitespace) && l.parse::<i64>().is_ok())
        && plain[..plain.len() - 1].iter().all(|l| *l != "0")
        && !(num_vars > 1 && plain.iter().all(|l| l.len() == num_vars));
    let joined;
    let text = if one_per_line {
        joined = plain.join(" ");
        joined.as_str()
    } else {
        text.as_str()
    };
    let asg =
        parse_assignments(text, num_vars, path).map_err(|e| Failure(format!("--start: {e}")))?;
    if asg.is_empty() {
        return Err(Failure(format!(
            "--start: no assignment in {}",
            path.display()
        )));
    }
    Ok(asg)
}

/// The `s` line and, with a model, the `v` lines.
/// The first comment line of a search's text: the formula's name and size.
fn instance_line(cnf: &Cnf) -> String {
    format!(
        "c {} ({} variables, {} clauses)\n",
        cnf.name,
        cnf.num_vars,
        cnf.num_clauses()
    )
}

/// A search's `status` in JSON: a local search finds models but proves nothing else.
fn status_word(satisfiable: bool) -> &'static str {
    if satisfiable {
        "satisfiable"
    } else {
        "unknown"
    }
}

fn verdict(model: Option<&metaopt::problem::sat::Model>, best: u32) -> String {
    match model {
        Some(m) => format!("c the model was verified against every clause\ns SATISFIABLE\n{}", m.v_lines()),
        None => format!("c best: {best} unsatisfied clauses (local search cannot prove unsatisfiability)\ns UNKNOWN\n"),
    }
}

/// HC12 on the device.
fn solve_hc12(a: &SolveArgs, cnf: Cnf) -> CliResult<bool> {
    let opts = options(a)?;
    let mask_order = opts.mask_order;
    let tabu_len = opts.tabu.as_ref().map_or(0, |t: &TabuConfig| t.max_length);
    // the limit counts from the command's start: the set-up is cut when it passes (or on Ctrl-C)
    let cut = metaopt::interrupt::Cut {
        clock: metaopt::Clock::since(crate::started(), opts.stop.time_limit),
        watch: metaopt::Watch::new(opts.stop.token.as_ref()),
    };
    let mut s = SatSolver::new_within(
        cnf.clone(),
        mask_order,
        tabu_len,
        metaopt::device::Backend::DEVICE,
        Some(&cut),
    )
    .map_err(|e| out::renamed(e, &[("maskOrder", "--mask-order")]))?;
    // the limit counts from the command's start: reading the formula and set-up are in it
    let mut opts = opts;
    opts.stop.time_limit = crate::time_left(opts.stop.time_limit);
    let renames = [
        ("runs", "--max-runs"),
        ("target", "--target"),
        ("state", "--resume"),
        ("checkpoint", "--checkpoint"),
    ];
    opts.stop.checkpoint = a.checkpoint.plan(None)?;
    if let Some(bytes) = a.checkpoint.resume(None)? {
        s.load_state(&bytes, &opts)
            .map_err(|e| out::renamed(e, &renames))?;
    }
    let bar = a
        .json
        .progress()
        .then(|| out::stop_bar(a.max_runs.map(u64::from), "run", opts.stop.time_limit));
    let log = a.convergence.log("runs").map(|l| {
        l.columns(&["iterations"])
            .label("fewest unsatisfied clauses")
    });
    // the iterations of every run so far
    let mut iterations = 0u64;
    let result = s.solve_observed(&opts, |p| {
        iterations += u64::from(p.iterations);
        if let Some(log) = &log {
            log.record_with(p.runs as u64, p.best as f64, &[iterations as f64]);
        }
        if let Some(bar) = &bar {
            if opts.stop.time_limit.is_none() {
                bar.set_position(p.runs as u64);
            }
            bar.set_message(format!("run {}, fewest unsatisfied {}", p.runs, p.best));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let r = result.map_err(|e| out::renamed(e, &renames))?;
    a.convergence.write(
        log.as_ref(),
        &format!("{}: HC12, fewest unsatisfied clauses", cnf.name),
    )?;
    let found = r.model.is_some();
    if a.json.json {
        let model = r.model.as_ref().map(|m| signed(m, cnf.num_vars));
        out::print_json(&SolveJson {
            instance: cnf.name.clone(),
            variables: cnf.num_vars,
            clauses: cnf.num_clauses(),
            method: "hc12",
            model,
            status: status_word(r.satisfiable),
            target: a.target,
            device: s.describe(),
            result: r,
        })?;
        return Ok(found);
    }
    let mut t = instance_line(&cnf);
    t += &format!(
        "c {}; HC12 mask order {mask_order}, tabu list {tabu_len}\n",
        s.describe()
    );
    t += &format!(
        "c {} runs, {} iterations, {:.3} s\n",
        r.runs, r.iterations, r.seconds
    );
    t += &format!("c stopped by {}\n", r.stop);
    t += &verdict(r.model.as_ref(), r.best_unsatisfied);
    out::print(&t)?;
    Ok(found)
}
