//! `metaopt de --batch FILE.json` and `metaopt de --problems B`: the batched DE
//! (`metaopt::de::BatchDe`): many independent problems in one batch, one row per problem.

use super::{de_error, DeArgs, DEFAULT_GENERATIONS};
use crate::convergence::ConvergenceArgs;
use crate::out::{self, flag_error, CliResult, Failure};
use metaopt::de::{
    read_batch_file, BatchDe, BatchFileProblem as Named, BatchFunction, BatchOptions, BatchProblem,
    BatchProgress, BatchResult, FMode, Placement,
};
use metaopt::problem::functions;
use metaopt::run::Stop;
use metaopt::StopReason;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// A batch file's problems: `metaopt::de::read_batch_file`, its errors under `--batch`.
fn read_batch(path: &Path) -> CliResult<Vec<Named>> {
    read_batch_file(path).map_err(|e| Failure(format!("--batch: {e}")))
}

/// `--problems B`: B problems from the island flags, problem i with seed S + i and F as island
/// i would have it; the batch's memory is checked (`BatchDe::check_repeated`, errors naming
/// `--problems`) before any of them is made.
fn from_flags(
    a: &DeArgs,
    count: u32,
    backend: metaopt::device::Backend,
    options: &BatchOptions,
) -> CliResult<Vec<Named>> {
    let dims = a.dims.ok_or("--dims is required with --problems")?;
    let obj = a.objective.resolve()?;
    if let Some(info) = obj.info {
        info.check_dims(dims as usize)
            .map_err(|e| flag_error("--dims", e))?;
    }
    let (lo, hi) = a.objective.interval(obj.info);
    let function = match (&a.objective.function, &a.objective.source) {
        (Some(f), _) => BatchFunction::Name(f.clone()),
        _ => {
            let (code, data) = a.objective.read_source()?;
            BatchFunction::source(code, data)
        }
    };
    let mutation = crate::args::parse_mutation(&a.mutation)?;
    let bounds = crate::args::parse_bounds(&a.bounds)?;
    if bounds.len() != 1 {
        return Err(
            "--bounds: the batched DE takes one bound correction for all dimensions".into(),
        );
    }
    let f_mode: FMode = a.f_mode.parse().map_err(|e| flag_error("--F-mode", e))?;
    if f_mode == FMode::Dither {
        return Err(Failure(
            "--F-mode: dither is for island DE; a batch gives each problem its own fixed F".into(),
        ));
    }
    let cr = a.cr.values()?;
    if cr.len() != 1 && cr.len() != count as usize {
        return Err(format!(
            "--CR: {} values; expected 1 or one per problem ({count})",
            cr.len()
        )
        .into());
    }
    let seed = a.seed.unwrap_or(1);
    let generations = a
        .max_generations
        .max_generations
        .unwrap_or(DEFAULT_GENERATIONS);
    let algorithm = a.algorithm.algorithm()?;
    let mut template = BatchProblem::new(function.clone(), dims, lo, hi);
    template.members = a.members;
    template.algorithm = algorithm;
    template.jde_small = a.algorithm.jde_small;
    // this command's own copies of each problem (the named list, the batch's input, a result
    // row) and its function
    let text = match &function {
        BatchFunction::Source { code, data } => code.len() + data.len(),
        _ => 0,
    };
    let caller = 3 * std::mem::size_of::<BatchProblem>()
        + std::mem::size_of::<Named>()
        + 2 * text
        + obj.name.len()
        + 256;
    let devices = a.devices.list_for(a.backend.cpu)?;
    let check_on = match devices.first() {
        Some(&d) => metaopt::device::Backend::Device(Some(d)),
        None => backend,
    };
    BatchDe::check_repeated(&template, count.into(), caller as u64, check_on, options)
        .map_err(|e| flag_error("--problems", e))?;
    Ok((0..count as usize)
        .map(|i| {
            let mut p = BatchProblem::new(function.clone(), dims, lo, hi);
            p.members = a.members;
            p.mutation = mutation;
            p.bounds = bounds[0];
            p.f = match f_mode {
                FMode::Const => a.f_min,
                _ if count == 1 => a.f_min,
                _ => a.f_min + (a.f_max - a.f_min) * i as f64 / (count - 1) as f64,
            };
            p.cr = cr[if cr.len() == 1 { 0 } else { i }];
            p.seed = seed.wrapping_add(i as u64);
            p.max_generations = generations;
            p.target = a.stop.target;
            p.algorithm = algorithm;
            p.jde_small = a.algorithm.jde_small;
            p.lshade_budget = a.algorithm.lshade_budget.unwrap_or(0);
            Named {
                problem: p,
                name: obj.name.clone(),
            }
        })
        .collect())
}

/// A batch error with the flag or key names of the command line.
fn batch_error(e: metaopt::Error, from_file: bool) -> Failure {
    if let metaopt::Error::InvalidArgument {
        arg: "devices" | "state" | "checkpoint",
        ..
    } = e
    {
        return de_error(e);
    }
    if from_file {
        return Failure(format!("--batch: {e}"));
    }
    match e {
        metaopt::Error::InvalidArgument { arg: "f", msg } => {
            Failure(format!("--F-min/--F-max: {msg}"))
        }
        metaopt::Error::InvalidArgument {
            arg: "lower" | "upper" | "bounds",
            msg,
        } => Failure(format!("--lower/--upper: {msg}")),
        e => de_error(e),
    }
}

/// Why a problem stopped, or "running".
pub fn stop_word(s: Option<StopReason>) -> &'static str {
    s.map_or("running", StopReason::word)
}

/// Why the batch as a whole ended: interrupted or the time limit when either cut a problem
/// short, else the budget when a problem ran all its generations, else the target (every problem
/// reached it).
pub fn batch_stop(results: &[BatchResult]) -> StopReason {
    let rank = |s: StopReason| match s {
        StopReason::Interrupted => 3,
        StopReason::TimeLimit => 2,
        StopReason::Target => 0,
        _ => 1,
    };
    results
        .iter()
        .filter_map(|r| r.stop)
        .max_by_key(|&s| rank(s))
        .unwrap_or(StopReason::Budget)
}

#[derive(Serialize)]
struct Row<'a> {
    problem: usize,
    function: &'a str,
    dims: u32,
    members: u32,
    f: f64,
    cr: f64,
    mutation: &'static str,
    bounds: &'static str,
    seed: u64,
    best_value: f64,
    best: &'a [f64],
    /// The best point's violation (0: feasible, and for an unconstrained problem)
    violation: f64,
    generations: u64,
    evaluations: u64,
    stopped_by: &'static str,
    minimum: Option<f64>,
    error: Option<f64>,
}

#[derive(Serialize)]
struct BatchJson<'a> {
    problems: usize,
    backend: &'static str,
    precision: &'static str,
    placement: Option<&'static str>,
    seconds: f64,
    generations_per_second: f64,
    evaluations_per_second: f64,
    /// Why the batch ended ([`batch_stop`]); each result has its own.
    stopped_by: StopReason,
    results: Vec<Row<'a>>,
}

/// Every rank's results, in rank order (so by global problem index), on rank 0; `None` on the
/// other ranks.
fn gather_results(rk: &crate::mpi::Ranks, results: &[BatchResult]) -> Option<Vec<BatchResult>> {
    let values = rk.gather(&results.iter().map(|r| r.best_value).collect::<Vec<_>>());
    let violations = rk.gather(&results.iter().map(|r| r.violation).collect::<Vec<_>>());
    let lens = rk.gather(
        &results
            .iter()
            .map(|r| r.best.len() as u64)
            .collect::<Vec<_>>(),
    );
    let best = rk.gather(
        &results
            .iter()
            .flat_map(|r| r.best.iter().copied())
            .collect::<Vec<_>>(),
    );
    let gens = rk.gather(&results.iter().map(|r| r.generations).collect::<Vec<_>>());
    let stops = rk.gather(
        &results
            .iter()
            .map(|r| r.stop.map_or(0, |s| s.code() as u32))
            .collect::<Vec<_>>(),
    );
    let (values, violations, lens, best, gens, stops) =
        (values?, violations?, lens?, best?, gens?, stops?);
    let mut at = 0;
    Some(
        (0..values.len())
            .map(|i| {
                let n = lens[i] as usize;
                let r = BatchResult {
                    best_value: values[i],
                    best: best[at..at + n].to_vec(),
                    generations: gens[i],
                    stop: StopReason::from_code(stops[i] as i32),
                    violation: violations[i],
                };
                at += n;
                r
            })
            .collect(),
    )
}

pub fn run(a: &DeArgs) -> CliResult {
    let convergence = ConvergenceArgs {
        csv: a.csv.clone(),
        plot: a.plot.clone(),
    };
    convergence.check()?;
    let from_file = a.batch.is_some();
    if a.init.is_some() {
        return Err("--init: island DE only, not with --batch or --problems".into());
    }
    let placement = match a.placement.to_ascii_lowercase().as_str() {
        "auto" => Placement::Auto,
        "local" => Placement::Local,
        "global" => Placement::Global,
        p => return Err(format!("--placement: `{p}`; expected auto, local or global").into()),
    };
    let backend = a.backend.backend()?;
    let precision = if a.precision.storage.single {
        metaopt::Precision::Single
    } else if a.precision.storage.double {
        metaopt::Precision::Double
    } else {
        metaopt::Precision::Auto
    };
    let options = BatchOptions {
        precision,
        generations_per_launch: a.generations_per_launch,
        placement,
    };
    let named = match (&a.batch, a.problems) {
        (Some(p), _) => read_batch(p)?,
        (None, Some(b)) => from_flags(a, b, backend, &options)?,
        (None, None) => unreachable!("batch::run without --batch or --problems"),
    };
    let devices = a.devices.list_for(a.backend.cpu)?;
    // with --mpi, this rank's block of the problems (each problem draws from its own seed, so
    // the split does not change its result), on its devices
    let ranks = a.mpi.ranks()?;
    let block = match &ranks {
        Some(rk) => {
            rk.pick_device(
                a.backend.cpu,
                !devices.is_empty() || a.backend.device.device.is_some(),
            );
            rk.or_abort(crate::mpi::test_failure(rk));
            rk.block(named.len())
        }
        None => 0..named.len(),
    };
    let problems: Vec<BatchProblem> = named[block].iter().map(|n| n.problem.clone()).collect();
    // one checkpoint file per rank, of its block of the problems
    let rank = ranks.as_ref().map(|rk| (rk.rank(), rk.size()));
    let checkpoint = a.checkpoint.plan(rank)?;
    let resume = a.checkpoint.resume(rank)?;
    let bar = a.json.progress().then(out::spinner);
    // with --mpi, this rank's problems
    let log = convergence.log("generations").map(|l| {
        l.columns(&["finished"])
            .label("least best value of any problem")
    });
    let on_progress = |p: &BatchProgress| {
        if let Some(log) = &log {
            log.record_with(p.generations, p.best, &[p.finished as f64]);
        }
        if let Some(bar) = &bar {
            let best = if p.best.is_finite() {
                format!(", least best {}", out::float(p.best))
            } else {
                String::new()
            };
            bar.set_message(format!(
                "{} of {} problems finished{best}",
                p.finished, p.problems
            ));
        }
        true
    };
    let t0 = Instant::now();
    let compute = || -> CliResult<(Vec<BatchResult>, bool, Option<&'static str>)> {
        if problems.is_empty() {
            // a rank with no problems (more ranks than problems)
            return Ok((Vec::new(), false, None));
        }
        let mut de = if devices.is_empty() {
            BatchDe::new(problems.clone(), backend, options.clone())
        } else {
            BatchDe::on_devices(problems.clone(), &devices, options.clone())
        }
        .map_err(|e| batch_error(e, from_file))?;
        if let Some(bytes) = &resume {
            de.load_state(bytes)
                .map_err(|e| batch_error(e, from_file))?;
        }
        let stop = Stop {
            time_limit: crate::time_left(a.stop.time_limit()),
            token: Some(crate::stop_token()),
            checkpoint: checkpoint.clone(),
            ..Stop::default()
        };
        let results = de
            .run_observed(&stop, on_progress)
            .map_err(|e| batch_error(e, from_file))?;
        Ok((
            results,
            !de.is_double(),
            de.uses_local_memory()
                .map(|l| if l { "local" } else { "global" }),
        ))
    };
    let (results, single, placement_used, seconds) = match &ranks {
        None => {
            let r = compute();
            let seconds = t0.elapsed().as_secs_f64();
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            let (results, single, placement_used) = r?;
            (results, single, placement_used, seconds)
        }
        Some(rk) => {
            let (results, single, placement_used) = rk.or_abort(compute());
            let seconds = rk.max_f64(t0.elapsed().as_secs_f64());
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            match gather_results(rk, &results) {
                Some(all) => (all, single, placement_used, seconds),
                None => return Ok(()),
            }
        }
    };
    convergence.write(log.as_ref(), "batched DE: least best value")?;
    let mut results = results;
    for r in &mut results {
        r.best_value = out::rounded(r.best_value, single);
        for x in &mut r.best {
            *x = out::rounded(*x, single);
        }
    }
    let stopped_by = batch_stop(&results);
    let gens: u64 = results.iter().map(|r| r.generations).sum();
    let evals: u64 = results
        .iter()
        .zip(&named)
        .map(|(r, n)| (r.generations + 1) * n.problem.members as u64)
        .sum();
    let rows: Vec<Row> = results
        .iter()
        .zip(&named)
        .enumerate()
        .map(|(i, (r, n))| {
            let p = &n.problem;
            let minimum = match &p.function {
                BatchFunction::Name(f) => functions::lookup(f)
                    .ok()
                    .and_then(|info| info.minimum(p.dims as usize))
                    .map(|m| m.value),
                _ => None,
            };
            Row {
                problem: i,
                function: &n.name,
                dims: p.dims,
                members: p.members,
                f: p.f,
                cr: p.cr,
                mutation: p.mutation.name(),
                bounds: p.bounds.name(),
                seed: p.seed,
                best_value: r.best_value,
                best: &r.best,
                violation: r.violation,
                generations: r.generations,
                evaluations: if r.best.is_empty() {
                    0
                } else {
                    (r.generations + 1) * p.members as u64
                },
                stopped_by: stop_word(r.stop),
                minimum,
                error: minimum.map(|m| r.best_value - m),
            }
        })
        .collect();
    if let Some(path) = &a.results {
        let header = [
            "problem",
            "function",
            "dims",
            "members",
            "f",
            "cr",
            "mutation",
            "bounds",
            "seed",
            "best_value",
            "generations",
            "stopped_by",
        ];
        let lines = rows.iter().map(|r| {
            [
                r.problem.to_string(),
                r.function.to_string(),
                r.dims.to_string(),
                r.members.to_string(),
                out::float(r.f),
                out::float(r.cr),
                r.mutation.to_string(),
                r.bounds.to_string(),
                r.seed.to_string(),
                out::value(r.best_value, single),
                r.generations.to_string(),
                r.stopped_by.to_string(),
            ]
        });
        out::write_csv_file(path, "--results: ", &header, lines)?;
    }
    let precision_name = if single { "single" } else { "double" };
    if a.json.json {
        return out::print_json(&BatchJson {
            problems: rows.len(),
            backend: a.backend.name(),
            precision: precision_name,
            placement: placement_used,
            seconds,
            generations_per_second: gens as f64 / seconds.max(1e-12),
            evaluations_per_second: evals as f64 / seconds.max(1e-12),
            stopped_by,
            results: rows,
        });
    }
    let mut t = format!(
        "batched DE   {} problems, {} backend{}, {precision_name} precision\n",
        rows.len(),
        a.backend.name(),
        placement_used.map_or(String::new(), |p| format!(", populations in {p} memory")),
    );
    t += &format!(
        "time         {seconds:.3} s, {} generations/s, {} evaluations/s\n",
        out::rate(gens as f64 / seconds.max(1e-12)),
        out::rate(evals as f64 / seconds.max(1e-12))
    );
    t += &format!("stopped by   {stopped_by}\n");
    t += &format!(
        "{:>7}  {:<12} {:>5} {:>7} {:<22} {:>24} {:>11}  {}\n",
        "problem",
        "function",
        "dims",
        "members",
        "mutation",
        "best value",
        "generations",
        "stopped by"
    );
    for r in &rows {
        t += &format!(
            "{:>7}  {:<12} {:>5} {:>7} {:<22} {:>24} {:>11}  {}{}\n",
            r.problem,
            r.function,
            r.dims,
            r.members,
            r.mutation,
            out::value(r.best_value, single),
            r.generations,
            r.stopped_by,
            // an infeasible best says so
            if r.violation != 0.0 {
                format!(", violation {}", out::float(r.violation))
            } else {
                String::new()
            }
        );
    }
    if let Some(p) = &a.results {
        t += &format!("results      {}\n", p.display());
    }
    out::print(&t)
}
