//! `metaopt sat eval` and `metaopt sat solve` (SAT competition output), and `metaopt bench
//! sat-solve` (solved share and median time per family).

use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::device::set_device_number;
use metaopt::hc12::restarts::Stop;
use metaopt::hc12::tabu::TabuConfig;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::sat::{SatOptions, SatSolver};
use metaopt::sateval::DeviceSat;
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

pub fn run(c: SatCommand) -> CliResult {
    match c {
        SatCommand::Eval(a) => eval_cmd(&a),
        SatCommand::Solve(a) => solve_cmd(&a),
    }
}

#[derive(Args)]
pub struct EvalArgs {
    cnf: PathBuf,
    /// File of assignments (`-` for standard input)
    assignments: PathBuf,
    /// Evaluate on the CPU (rayon) instead of an OpenCL device
    #[arg(long)]
    cpu: bool,
    #[arg(long, value_name = "N", conflicts_with = "cpu")]
    device: Option<i32>,
    #[arg(long)]
    json: bool,
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

fn eval_cmd(a: &EvalArgs) -> CliResult {
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
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let (res, device) = if a.cpu {
        (metaopt::cpu::sat::evaluate_many(&cnf, &asg, false)?, "CPU (rayon)".to_string())
    } else {
        let mut d = DeviceSat::new(&cnf)?;
        (d.dxac(&asg, false)?, d.backend_description())
    };
    let m = cnf.num_clauses() as u32;
    if a.json {
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
    #[arg(long, default_value_t = metaopt::sat::DEFAULT_TENURE, value_name = "N")]
    tenure: u32,
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[arg(long, value_name = "N")]
    device: Option<i32>,
    /// One JSON object on stdout instead of the competition format
    #[arg(long)]
    json: bool,
}

fn options(a: &SolveArgs) -> CliResult<SatOptions> {
    if !(a.time_limit.is_finite() && a.time_limit > 0.0) {
        return Err(Failure(format!("--time-limit: {} is not a positive number of seconds", a.time_limit)));
    }
    let mut o = SatOptions { mask_order: a.mask_order, tenure: a.tenure, seed: a.seed, stop: Stop { max_runs: 0, time_limit: Some(Duration::from_secs_f64(a.time_limit)), target: None }, ..Default::default() };
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
    result: metaopt::sat::SatSolveResult,
    /// The model as signed literals, when one was found.
    model: Option<Vec<i64>>,
    device: String,
}

fn solve_cmd(a: &SolveArgs) -> CliResult {
    let cnf = Cnf::from_file(&a.cnf)?;
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let opts = options(a)?;
    let tabu_len = opts.tabu.as_ref().map_or(0, |t: &TabuConfig| t.max_length);
    let mut s = SatSolver::new(cnf.clone(), a.mask_order, tabu_len, metaopt::device::Backend::DEVICE).map_err(|e| match &e {
        metaopt::Error::InvalidArgument { arg: "maskOrder", .. } => flag_error("--mask-order", e),
        _ => e.into(),
    })?;
    let r = s.solve(&opts)?;
    if a.json {
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

#[derive(Args)]
pub struct BenchSatSolveArgs {
    /// Folder of the SATLIB families [default: data/satlib]
    #[arg(long, value_name = "DIR")]
    satlib: Option<PathBuf>,
    /// Families (comma-separated)
    #[arg(long, value_delimiter = ',', default_value = "uf100-430,uf125-538,uf150-645,uf200-860,uf250-1065")]
    families: Vec<String>,
    /// Instances per family (the first N by name)
    #[arg(long, default_value_t = 20, value_name = "N")]
    instances: usize,
    /// Time limit per instance
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    time_limit: f64,
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[arg(long, value_name = "N")]
    device: Option<i32>,
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

#[derive(Serialize)]
struct FamilyRow {
    family: String,
    instances: usize,
    solved: usize,
    solved_percent: f64,
    median_seconds: f64,
    mean_iterations: f64,
    time_limit_s: f64,
    device: String,
}

/// `metaopt bench sat-solve`: per family, the share of instances solved within the time limit and
/// the median time (unsolved instances count as the limit).
pub fn bench_sat_solve(a: &BenchSatSolveArgs) -> CliResult {
    let dir = a.satlib.clone().unwrap_or_else(|| {
        let cwd = PathBuf::from("data/satlib");
        if cwd.is_dir() { cwd } else { Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/satlib") }
    });
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    for fam in &a.families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(fam))
            .map_err(|e| Failure(format!("cannot read {}: {e}", dir.join(fam).display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cnf"))
            .collect();
        files.sort();
        files.truncate(a.instances);
        let (mut solved, mut times, mut iters, mut device) = (0, Vec::new(), 0u64, String::new());
        for f in &files {
            let cnf = Cnf::from_file(f)?;
            let opts = SatOptions { seed: a.seed, stop: Stop { max_runs: 0, time_limit: Some(Duration::from_secs_f64(a.time_limit)), target: None }, ..Default::default() };
            let mut s = SatSolver::new(cnf, 1, opts.tabu.as_ref().map_or(0, |t| t.max_length), metaopt::device::Backend::DEVICE)?;
            let r = s.solve(&opts)?;
            device = s.backend_description();
            solved += r.satisfiable as usize;
            times.push(if r.satisfiable { r.seconds } else { a.time_limit });
            iters += r.iterations;
        }
        times.sort_by(f64::total_cmp);
        let median = if times.is_empty() { f64::NAN } else { times[times.len() / 2] };
        let row = FamilyRow {
            family: fam.clone(),
            instances: files.len(),
            solved,
            solved_percent: 100.0 * solved as f64 / files.len().max(1) as f64,
            median_seconds: median,
            mean_iterations: iters as f64 / files.len().max(1) as f64,
            time_limit_s: a.time_limit,
            device,
        };
        eprintln!("  {:<12} {:>3}/{:<3} solved, median {:.3} s", row.family, row.solved, row.instances, row.median_seconds);
        w.serialize(&row).map_err(|e| Failure(format!("cannot write CSV: {e}")))?;
    }
    out::finish_csv(w, a.csv.as_deref())
}
