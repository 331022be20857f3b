//! `metaopt bh`: monotonic basin hopping, many chains side by side, on a catalogue function or a
//! user OpenCL objective over a box.

use crate::args::{BackendArgs, JsonArg, ObjectiveArgs, PrecisionArgs, SeedArg, StopArgs};
use crate::convergence::ConvergenceArgs;
use crate::out::{self, CliResult, Failure};
use clap::Args;
use metaopt::bh::{BasinHopping, BhParams, BhResult, BhRun};
use metaopt::run::Stop;
use serde::Serialize;

/// The names of the command's flags for the library's argument names.
const RENAMES: &[(&str, &str)] = &[
    ("chains", "--chains"),
    ("hop_min", "--hop-min/--hop-max"),
    ("hop_scales", "--hop-scales"),
    ("step_stop", "--step0/--step-stop"),
    ("max_search", "--max-search"),
    ("launch_steps", "--launch-steps"),
    ("steps", "--max-steps"),
    ("evaluations", "--evaluations"),
    ("target", "--target"),
    ("time_limit", "--time-limit"),
    ("lo", "--lower/--upper"),
    ("hi", "--lower/--upper"),
    ("objective", "--dims"),
    ("start", "--x0"),
    ("double", "--double"),
    ("state", "--resume"),
    ("checkpoint", "--checkpoint"),
];

#[derive(Args)]
#[command(mut_arg("csv", |a| a.help(
    "Write the convergence log to FILE (CSV: seconds, steps of every chain, evaluations, best; \
     a row per launch)"
)))]
pub struct BhArgs {
    #[command(flatten)]
    objective: ObjectiveArgs,
    /// Constraints of the --source objective, compared by Deb's feasibility rules: its OpenCL
    /// `void constraints(__global const FP *x, uint dims, uint stride, __global const void *data, FP *c)`
    /// writes NG inequality values g (satisfied when g <= 0), then NH equality values h
    /// (satisfied when |h| <= --eq-tol); the best is the best feasible anchor, else the least
    /// violation
    #[arg(long, value_name = "NG,NH", requires = "source")]
    constraints: Option<String>,
    /// The equalities' tolerance [default: 1e-4]
    #[arg(long, value_name = "TOL", requires = "constraints", allow_negative_numbers = true)]
    eq_tol: Option<f64>,
    /// Dimensions
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..))]
    dims: u32,
    /// The starting point: one value for every dimension or D comma-separated values [default:
    /// a point drawn uniformly in the box from --seed]
    #[arg(long, value_name = "V,..", value_delimiter = ',', allow_hyphen_values = true)]
    x0: Vec<f64>,
    /// Chains side by side, each with its own random numbers [default: 4096]
    #[arg(long, value_name = "N")]
    chains: Option<usize>,
    /// The smallest hop, a fraction of each dimension's width [default: 1e-6]
    #[arg(long, value_name = "F")]
    hop_min: Option<f64>,
    /// The largest hop, a fraction of each dimension's width [default: 0.015]
    #[arg(long, value_name = "F")]
    hop_max: Option<f64>,
    /// Hop sizes, spaced evenly in log from --hop-min to --hop-max, one drawn per hop
    /// [default: 16]
    #[arg(long, value_name = "N")]
    hop_scales: Option<usize>,
    /// The local search's first step, a fraction of each dimension's width [default: 0.0015]
    #[arg(long, value_name = "F")]
    step0: Option<f64>,
    /// The local search ends once its step is below this fraction of the widths [default:
    /// 5e-17]
    #[arg(long, value_name = "F")]
    step_stop: Option<f64>,
    /// The local search also ends after N steps [default: 20000]
    #[arg(long, value_name = "N")]
    max_search: Option<u32>,
    /// Steps of every chain per launch; the chains share their lowest anchor after each
    #[arg(long, default_value_t = 250, value_name = "N")]
    launch_steps: u32,
    /// Keep the chains independent (no shared anchor); the lowest anchor is reported
    #[arg(long)]
    independent: bool,
    /// Stop after N steps of every chain [default: 10000, unlimited with --time-limit,
    /// --evaluations or --target]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,
    /// Stop after N objective evaluations (checked between launches)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    evaluations: Option<u64>,
    #[command(flatten)]
    stop: StopArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    precision: PrecisionArgs,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    convergence: ConvergenceArgs,
    /// checkpoints of every chain (anchor, search point, step, search length), the step
    /// counter and the best so far, and resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct BhJson<'a> {
    objective: &'a str,
    dims: u32,
    lower: f64,
    upper: f64,
    chains: usize,
    seed: u64,
    precision: metaopt::Precision,
    backend: &'static str,
    device: &'a str,
    #[serde(flatten)]
    result: &'a BhResult,
}

impl BhArgs {
    fn params(&self, double: bool) -> BhParams {
        let d = BhParams::default();
        BhParams {
            chains: self.chains.unwrap_or(d.chains),
            hop_min: self.hop_min.unwrap_or(d.hop_min),
            hop_max: self.hop_max.unwrap_or(d.hop_max),
            hop_scales: self.hop_scales.unwrap_or(d.hop_scales),
            step0: self.step0.unwrap_or(d.step0),
            step_stop: self.step_stop.unwrap_or(d.step_stop),
            max_search: self.max_search.unwrap_or(d.max_search),
            seed: self.seed.seed,
            double,
        }
    }

    /// `--x0` for `dims` dimensions, else a point drawn uniformly in the box from the seed.
    fn start(&self, lo: f64, hi: f64) -> CliResult<Vec<f64>> {
        let dims = self.dims as usize;
        let x = match self.x0.len() {
            0 => (0..dims)
                .map(|j| {
                    let w = metaopt::rng::rng4(self.seed.seed, 0xb4, j as u64)[0];
                    lo + (hi - lo) * (f64::from(w) / 4_294_967_296.0)
                })
                .collect(),
            1 => vec![self.x0[0]; dims],
            n if n == dims => self.x0.clone(),
            n => {
                return Err(Failure(format!(
                    "--x0: {n} values for {dims} dimensions; give 1 or {dims}"
                )))
            }
        };
        if let Some(j) = x.iter().position(|v| !(lo..=hi).contains(v)) {
            return Err(Failure(format!(
                "--x0: dimension {j}: {} is outside [{lo}, {hi}]",
                x[j]
            )));
        }
        Ok(x)
    }
}

pub fn run(a: &BhArgs) -> CliResult {
    let backend = a.backend.backend()?;
    a.convergence.check()?;
    let time_limit = a.stop.time_limit();
    if a.precision.single && backend == metaopt::device::Backend::Cpu {
        return Err("--single: the CPU backend computes in double".into());
    }
    let precision = a.precision.resolve(backend, a.json.quiet || a.json.json)?;
    let obj = a.objective.resolve()?;
    let (lo, hi) = a.objective.interval(obj.info);
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(Failure(format!(
            "--lower/--upper: [{lo}, {hi}] is not a finite interval with lower < upper"
        )));
    }
    let dims = a.dims as usize;
    let x0 = a.start(lo, hi)?;
    let params = a.params(precision.is_double());
    let renamed = |e: metaopt::Error| out::renamed(e, RENAMES);
    // checked before the device program is built
    params.check().map_err(renamed)?;
    // the default budget only where nothing else ends the solve
    let budget = match (a.max_steps, time_limit, a.evaluations, a.stop.target) {
        (Some(n), ..) => Some(n),
        (None, None, None, None) => Some(10_000),
        _ => None,
    };
    let run = BhRun {
        launch_steps: a.launch_steps,
        share: !a.independent,
        stop: Stop {
            budget,
            evaluations: a.evaluations,
            target: a.stop.target,
            // counted from the command's start (set-up included): see the solve below
            time_limit,
            token: Some(crate::stop_token()),
            checkpoint: a.checkpoint.plan(None)?,
            ..Stop::default()
        },
    };
    let cons = match &a.constraints {
        None => None,
        Some(_) if a.objective.source.is_none() => {
            return Err(
                "--constraints: for a --source objective (its OpenCL constraints function)".into(),
            )
        }
        Some(spec) => {
            let (ng, nh) = crate::args::constraint_counts(spec)?;
            let mut c = metaopt::de::Constraints::compiled(ng, nh);
            if let Some(t) = a.eq_tol {
                c.eq_tol = t;
            }
            Some(c)
        }
    };
    let mut bh = BasinHopping::with_constraints(
        &obj.objective,
        cons.as_ref(),
        &vec![lo; dims],
        &vec![hi; dims],
        &params,
        backend,
    )
    .map_err(renamed)?;
    match a.checkpoint.resume(None)? {
        Some(bytes) => bh.load_state(&bytes, &run).map_err(renamed)?,
        None => bh.start(&x0, None).map_err(renamed)?,
    }
    let bar = a
        .json
        .progress()
        .then(|| out::stop_bar(budget, "step", time_limit));
    let log = a
        .convergence
        .log("steps")
        .map(|l| l.columns(&["evaluations"]));
    let r = bh
        .solve_observed(&run, crate::started(), |p| {
            if let Some(log) = &log {
                log.record_with(p.work, p.best, &[p.evaluations as f64]);
            }
            if let Some(b) = &bar {
                if time_limit.is_none() {
                    b.set_position(p.work);
                }
                b.set_message(format!("best {}", out::float(p.best)));
            }
            true
        })
        .map_err(renamed)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    a.convergence.write(
        log.as_ref(),
        &format!("basin hopping on {} ({dims}-D): best value", obj.name),
    )?;
    let device = backend.describe();
    if a.json.json {
        return out::print_json(&BhJson {
            objective: &obj.name,
            dims: a.dims,
            lower: lo,
            upper: hi,
            chains: params.chains,
            seed: a.seed.seed,
            precision,
            backend: a.backend.name(),
            device: &device,
            result: &r,
        });
    }
    let x: Vec<String> = r.x.iter().map(|v| out::float(*v)).collect();
    let violation = match &cons {
        Some(c) => format!(
            "constraints {} inequalities, {} equalities (tolerance {:e}), Deb's rules: violation {}{}\n",
            c.inequalities,
            c.equalities,
            c.eq_tol,
            r.violation,
            if r.violation == 0.0 {
                " (feasible)"
            } else {
                " (no feasible anchor found: the least violation)"
            }
        ),
        None => String::new(),
    };
    out::print(&format!(
        "basin hopping on {} ({dims}-D, [{}, {}]), {} chains, on {device} ({})\n\
         best {} at [{}]\n\
         {violation}\
         {} steps of every chain in {} launches, {} evaluations, {:.3} s (best after {:.3} s)\n\
         stopped by {}\n",
        obj.name,
        out::float(lo),
        out::float(hi),
        params.chains,
        precision.name(),
        out::float(r.value),
        x.join(", "),
        r.steps,
        r.launches,
        r.evaluations,
        r.seconds,
        r.seconds_to_best,
        r.stop.word()
    ))
}
