//! `metaopt sat eval` and `metaopt sat solve` (SAT competition output).

use crate::args::{BackendArgs, DeviceArg, JsonArg, MaxRunsArg, SeedArg, StopArgs};
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::sat::{parse_assignments, Assignment, Cnf};
use metaopt::hc12::restarts::Stop;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::sat::eval::DeviceSat;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum SatCommand {
    /// Satisfied clauses of assignments: the output of `sat solve` (`v` lines, together one
    /// assignment), or one per line as signed literals ("1 -2 3 ... 0") or a 0/1 string
    Eval(EvalArgs),
    /// Look for a model with HC12 local search; prints `s SATISFIABLE` and `v` lines, or
    /// `s UNKNOWN` and the fewest unsatisfied clauses found
    Solve(SolveArgs),
}

#[derive(Args)]
pub struct EvalArgs {
    /// The formula (DIMACS CNF)
    cnf: PathBuf,
    /// File of assignments (`-` for standard input): SAT competition output (`s` and `v` lines,
    /// the `v` lines up to their final 0 one assignment), or one assignment per line as signed
    /// literals or a 0/1 string; lines starting with `c` are comments
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
        std::io::read_to_string(std::io::stdin()).map_err(|e| Failure(format!("cannot read standard input: {e}")))?
    } else {
        std::fs::read_to_string(&a.assignments).map_err(|e| Failure(format!("cannot read {}: {e}", a.assignments.display())))?
    };
    let source = if a.assignments == Path::new("-") { Path::new("<stdin>") } else { a.assignments.as_path() };
    let asg: Vec<Assignment> = parse_assignments(&text, cnf.num_vars, source)?;
    if asg.is_empty() {
        return Err("no assignment in the input".into());
    }
    a.backend.device.select()?;
    let (res, device) = if a.backend.cpu {
        (metaopt::sat::cpu::evaluate_many(&cnf, &asg, false)?, "CPU (rayon)".to_string())
    } else {
        let mut d = DeviceSat::new(&cnf)?;
        (d.dxac(&asg, false)?, d.backend_description())
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
    let mut s = format!("c {} ({} variables, {} clauses) on {device}\n", cnf.name, cnf.num_vars, m);
    for (i, &k) in res.satisfied.iter().enumerate() {
        s += &format!("{} {k} satisfied, {} unsatisfied{}\n", i + 1, m - k, if k == m { "  (model)" } else { "" });
    }
    out::print(&s)
}

#[derive(Args)]
pub struct SolveArgs {
    /// The formula (DIMACS CNF)
    cnf: PathBuf,
    #[command(flatten)]
    max_runs: MaxRunsArg,
    #[command(flatten)]
    stop: StopArgs,
    /// Length of the tabu list of visited assignments (0: plain HC12 with restarts)
    #[arg(long, default_value_t = 500, value_name = "N")]
    tabu: usize,
    /// A run restarts after N iterations without a new best
    #[arg(long, default_value_t = 300, value_name = "N")]
    no_improve: u32,
    /// 1: flip one variable per move (GSAT); 2: also pairs
    #[arg(long, default_value_t = 1, value_name = "ORDER")]
    mask_order: u32,
    /// Iterations a flipped variable stays put unless flipping it beats the run's best (0: off)
    #[arg(long, default_value_t = metaopt::hc12::sat::DEFAULT_TENURE, value_name = "N")]
    tenure: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    device: DeviceArg,
    #[command(flatten)]
    json: JsonArg,
}

/// The time limit of `sat solve` when neither --time-limit nor --max-runs is given.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

fn options(a: &SolveArgs) -> CliResult<SatOptions> {
    let time_limit = match (a.stop.time_limit(), a.max_runs.max_runs) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_TIME_LIMIT),
    };
    let stop = Stop { max_runs: a.max_runs.max_runs.unwrap_or(0), time_limit, target: a.stop.target, token: Some(crate::stop_token()) };
    let mut o = SatOptions { mask_order: a.mask_order, tenure: a.tenure, seed: a.seed.seed, stop, ..Default::default() };
    o.tabu = if a.tabu == 0 {
        None
    } else {
        let mut t = o.tabu.take().expect("the default has a list");
        t.max_length = a.tabu;
        t.max_no_improve = a.no_improve;
        t.check().map_err(|e| flag_error("--tabu", e))?;
        Some(t)
    };
    Ok(o)
}

#[derive(Serialize)]
struct SolveJson {
    instance: String,
    variables: usize,
    clauses: usize,
    #[serde(flatten)]
    result: metaopt::hc12::sat::SatSolveResult,
    /// The model as signed literals, when one was found.
    model: Option<Vec<i64>>,
    /// `satisfiable` or `unknown`, as the `s` line.
    status: &'static str,
    target: Option<f64>,
    device: String,
}

pub fn solve(a: &SolveArgs) -> CliResult {
    let cnf = Cnf::from_file(&a.cnf)?;
    a.device.select()?;
    let opts = options(a)?;
    let tabu_len = opts.tabu.as_ref().map_or(0, |t: &TabuConfig| t.max_length);
    // the limit counts from the command's start: the set-up is cut when it passes (or on Ctrl-C)
    let cut = metaopt::interrupt::Cut {
        clock: metaopt::Clock::since(crate::started(), opts.stop.time_limit),
        watch: metaopt::Watch::new(opts.stop.token.as_ref()),
    };
    let mut s = SatSolver::new_within(cnf.clone(), a.mask_order, tabu_len, metaopt::device::Backend::DEVICE, Some(&cut)).map_err(|e| out::renamed(e, &[("maskOrder", "--mask-order")]))?;
    // the limit counts from the command's start: reading the formula and set-up are in it
    let mut opts = opts;
    opts.stop.time_limit = crate::time_left(opts.stop.time_limit);
    let bar = a.json.progress().then(|| out::stop_bar(a.max_runs.max_runs.map(u64::from), "run", opts.stop.time_limit));
    let result = s.solve_observed(&opts, |p| {
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
    let r = result.map_err(|e| out::renamed(e, &[("runs", "--max-runs"), ("target", "--target")]))?;
    if a.json.json {
        let model = r.model.as_ref().map(|m| {
            (1..=cnf.num_vars).map(|v| if m.assignment().get(v) { v as i64 } else { -(v as i64) }).collect()
        });
        return out::print_json(&SolveJson {
            instance: cnf.name.clone(),
            variables: cnf.num_vars,
            clauses: cnf.num_clauses(),
            model,
            status: if r.satisfiable { "satisfiable" } else { "unknown" },
            target: a.stop.target,
            device: s.backend_description(),
            result: r,
        });
    }
    let mut t = format!("c {} ({} variables, {} clauses)\n", cnf.name, cnf.num_vars, cnf.num_clauses());
    t += &format!("c {}; HC12 mask order {}, tabu list {tabu_len}\n", s.backend_description(), a.mask_order);
    t += &format!("c {} runs, {} iterations, {:.3} s\n", r.runs, r.iterations, r.seconds);
    match &r.model {
        Some(m) => {
            t += "c the model was verified against every clause\ns SATISFIABLE\n";
            t += &m.v_lines();
        }
        None => {
            t += &format!("c best: {} unsatisfied clauses (local search cannot prove unsatisfiability)\ns UNKNOWN\n", r.best_unsatisfied);
        }
    }
    out::print(&t)
}
