//! `metaopt sat eval` and `metaopt sat solve` (SAT competition output).

use crate::args::{BackendArgs, DeviceArg, JsonArg, SeedArg};
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::hc12::restarts::Stop;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::sat::eval::DeviceSat;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum SatCommand {
    /// Satisfied clauses of assignments: one per line, as signed literals ("1 -2 3 ... 0", a
    /// leading `v` allowed) or as a string of 0/1, one character per variable
    Eval(EvalArgs),
    /// Look for a model with HC12 local search; prints `s SATISFIABLE` and `v` lines, or
    /// `s UNKNOWN` and the fewest unsatisfied clauses found
    Solve(SolveArgs),
}

#[derive(Args)]
pub struct EvalArgs {
    cnf: PathBuf,
    /// File of assignments (`-` for standard input)
    assignments: PathBuf,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    json: JsonArg,
}

/// One assignment line: signed literals (any order, missing variables false) or a 0/1 string.
fn parse_assignment(line: &str, n: usize, lineno: usize) -> CliResult<Assignment> {
    let t = line.trim().trim_start_matches(['v', 'V']).trim();
    let bad = |m: String| Failure(format!("assignments line {lineno}: {m}"));
    if !t.is_empty() && t.chars().all(|c| c == '0' || c == '1') && t.len() == n {
        return Ok(Assignment::from_bools(&t.chars().map(|c| c == '1').collect::<Vec<_>>()));
    }
    let mut a = Assignment::all_false(n);
    for tok in t.split_whitespace() {
        let l: i64 = tok.parse().map_err(|_| bad(format!("`{tok}` is not a literal")))?;
        if l == 0 {
            break;
        }
        if l.unsigned_abs() as usize > n {
            return Err(bad(format!("literal {l} is out of range 1..{n}")));
        }
        a.set(l.unsigned_abs() as usize, l > 0);
    }
    Ok(a)
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
    let asg: Vec<Assignment> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('c'))
        .map(|(i, l)| parse_assignment(l, cnf.num_vars, i + 1))
        .collect::<CliResult<_>>()?;
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
    cnf: PathBuf,
    /// Stop after S seconds
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    time_limit: f64,
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

fn options(a: &SolveArgs) -> CliResult<SatOptions> {
    if !(a.time_limit.is_finite() && a.time_limit > 0.0) {
        return Err(Failure(format!("--time-limit: {} is not a positive number of seconds", a.time_limit)));
    }
    let mut o = SatOptions { mask_order: a.mask_order, tenure: a.tenure, seed: a.seed.seed, stop: Stop { max_runs: 0, time_limit: Some(Duration::from_secs_f64(a.time_limit)), target: None }, ..Default::default() };
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
    device: String,
}

pub fn solve(a: &SolveArgs) -> CliResult {
    let cnf = Cnf::from_file(&a.cnf)?;
    a.device.select()?;
    let opts = options(a)?;
    let tabu_len = opts.tabu.as_ref().map_or(0, |t: &TabuConfig| t.max_length);
    let mut s = SatSolver::new(cnf.clone(), a.mask_order, tabu_len, metaopt::device::Backend::DEVICE).map_err(|e| out::renamed(e, &[("maskOrder", "--mask-order")]))?;
    let r = s.solve(&opts)?;
    if a.json.json {
        let model = r.model.as_ref().map(|m| {
            (1..=cnf.num_vars).map(|v| if m.assignment().get(v) { v as i64 } else { -(v as i64) }).collect()
        });
        return out::print_json(&SolveJson {
            instance: cnf.name.clone(),
            variables: cnf.num_vars,
            clauses: cnf.num_clauses(),
            model,
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
