//! `metaopt hc12`: the general HC12 solver on a catalogue function or a user OpenCL objective.

use crate::args::{
    DeviceArg, JsonArg, MaxRunsArg, ObjectiveArgs, Precision, PrecisionArgs, SeedArg, StopArgs,
    TabuArgs,
};
use crate::out::{self, CliResult, Failure};
use clap::{Args, ValueEnum};
use metaopt::hc12::general::{Coding, Domain, Hc12, Hc12Params, RunOptions, Sense, StartPoint};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DomainArg {
    Real,
    Integer,
    Binary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CodingArg {
    Gc,
    Bc,
}

#[derive(Args)]
#[command(mut_arg("max_runs", |a| a.help(
    "Stop after N runs (restarts from a new start) [default: 1, unlimited with --time-limit or --target]"
)))]
pub struct Hc12Args {
    #[command(flatten)]
    objective: ObjectiveArgs,
    #[command(flatten)]
    convergence: crate::convergence::ConvergenceArgs,
    /// Number of parameters
    #[arg(long, value_name = "D")]
    dims: u32,
    /// Bits per parameter (1..32)
    #[arg(long, default_value_t = 16, value_name = "B")]
    bits: u32,
    /// What the objective reads: the reals R, the integers I or the strings B (a --source
    /// defines `objective_u` over uint for integer and binary)
    #[arg(long, value_enum, default_value_t = DomainArg::Real)]
    domain: DomainArg,
    /// Gray (gc) or plain binary (bc) coding of the parameters
    #[arg(long, value_enum, default_value_t = CodingArg::Gc)]
    coding: CodingArg,
    /// Hamming radius of the neighbourhood (1 to 3)
    #[arg(long, default_value_t = 2, value_name = "ORDER")]
    mask_order: u32,
    #[command(flatten)]
    max_runs: MaxRunsArg,
    #[command(flatten)]
    stop: StopArgs,
    /// Maximise instead of minimise
    #[arg(long)]
    max: bool,
    #[command(flatten)]
    precision: PrecisionArgs,
    /// First run from the all-zero string
    #[arg(long, conflicts_with = "start")]
    start_zeros: bool,
    /// First run from this point "x1,x2,..." (quantised onto the grid)
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    start: Option<String>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    device: DeviceArg,
    /// Print every kernel launch on stderr
    #[arg(long)]
    verbose: bool,
    /// Report kernel times from OpenCL profiling events
    #[arg(long)]
    profile: bool,
    #[command(flatten)]
    tabu: TabuArgs,
    /// Checkpoints of the search between runs (runs, counters, best, every run's figures), and
    /// resuming from one
    #[command(flatten)]
    checkpoint: crate::checkpoint::CheckpointArgs,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct Hc12Json<'a> {
    objective: String,
    dims: u32,
    bits: u32,
    rows: u64,
    device: String,
    precision: Precision,
    sense: Sense,
    /// The runs made.
    run_count: usize,
    target: Option<f64>,
    target_reached: bool,
    #[serde(flatten)]
    result: &'a metaopt::hc12::general::Hc12RunResult,
    profile: Option<Vec<(String, u64, f64)>>,
}

pub fn run(a: &Hc12Args) -> CliResult {
    a.device.select()?;
    a.convergence.check()?;
    if a.max && a.stop.target.is_some() {
        return Err("--target: not with --max yet (the target is reached at or below V)".into());
    }
    let time_limit = a.stop.time_limit();
    // one run by default; no cap when a time limit or a target ends the search
    let runs = match (a.max_runs.max_runs, time_limit, a.stop.target) {
        (Some(n), ..) => Some(u64::from(n)),
        (None, None, None) => Some(1),
        (None, ..) => None,
    };
    let precision = a.precision.resolve(
        metaopt::device::Backend::DEVICE,
        a.json.quiet || a.json.json,
    )?;
    let obj = a.objective.resolve()?;
    let (objective, name) = (obj.objective, obj.name);
    let (lo, hi) = a.objective.interval(obj.info);
    let params = Hc12Params {
        n_param: a.dims,
        bits: vec![a.bits],
        bounds: vec![(lo, hi)],
        mask_order: a.mask_order,
        start_bit: 0,
        bit_length: 0,
        domain: match a.domain {
            DomainArg::Real => Domain::Real,
            DomainArg::Integer => Domain::Integer,
            DomainArg::Binary => Domain::Binary,
        },
        double: precision.is_double(),
        precision: if precision.is_double() {
            metaopt::Precision::Double
        } else {
            metaopt::Precision::Single
        },
    };
    let flag = |e: metaopt::Error| {
        let table = [
            ("nParam", "--dims"),
            ("dims", "--dims"),
            ("nBitParam", "--bits"),
            ("dodParam", "--lower/--upper"),
            ("maskOrder", "--mask-order"),
            ("startSeed", "--start"),
            ("nRuns", "--max-runs"),
            ("target", "--target"),
            ("state", "--resume"),
            ("checkpoint", "--checkpoint"),
        ];
        out::renamed(e, &table)
    };
    let mut s = Hc12::new(params, objective, metaopt::device::Backend::DEVICE).map_err(flag)?;
    s.verbose = a.verbose;
    if a.profile {
        s.profile = Some(Default::default());
    }
    if let Some(cfg) = a.tabu.config()? {
        s.init_tabu_list(cfg).map_err(flag)?;
    }
    let start = match (&a.start, a.start_zeros) {
        (Some(x), _) => StartPoint::Vector(
            x.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<f64>()
                        .map_err(|_| Failure(format!("--start: `{v}` is not a number")))
                })
                .collect::<CliResult<Vec<f64>>>()?,
        ),
        (None, true) => StartPoint::Zeros,
        (None, false) => StartPoint::Random,
    };
    let opts = RunOptions {
        coding: if a.coding == CodingArg::Gc {
            Coding::Gray
        } else {
            Coding::Binary
        },
        sense: if a.max { Sense::Max } else { Sense::Min },
        stop: metaopt::run::Stop {
            budget: runs,
            time_limit: crate::time_left(time_limit),
            target: a.stop.target,
            token: Some(crate::stop_token()),
            ..Default::default()
        },
        start,
        seed: a.seed.seed,
        ..Default::default()
    };
    let mut opts = opts;
    opts.stop.checkpoint = a.checkpoint.plan(None)?;
    if let Some(bytes) = a.checkpoint.resume(None)? {
        s.load_state(&bytes, &opts).map_err(flag)?;
    }
    let bar = a
        .json
        .progress()
        .then(|| out::stop_bar(runs, "run", time_limit));
    let single = !precision.is_double();
    let log = a.convergence.log("runs").map(|l| {
        l.sense(if a.max {
            crate::convergence::Sense::Max
        } else {
            crate::convergence::Sense::Min
        })
    });
    let result = s.run_observed(&opts, |p| {
        if let Some(log) = &log {
            log.record(p.runs as u64, p.best);
        }
        if let Some(bar) = &bar {
            if time_limit.is_none() {
                bar.set_position(p.runs as u64);
            }
            bar.set_message(format!(
                "run {}, best {}",
                p.runs,
                out::value(p.best, single)
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut r = result.map_err(flag)?;
    a.convergence.write(log.as_ref(), "HC12: best value")?;
    r.value = out::rounded(r.value, single);
    for run in &mut r.runs {
        run.value = out::rounded(run.value, single);
    }
    let target_reached = a.stop.target.is_some_and(|t| r.value <= t);
    let profile = s.profile.as_ref().map(|p| {
        p.iter()
            .map(|(k, (n, ns))| (k.to_string(), *n, *ns as f64 / 1e6))
            .collect::<Vec<_>>()
    });
    if a.json.json {
        return out::print_json(&Hc12Json {
            objective: name,
            dims: a.dims,
            bits: a.bits,
            rows: s.rows(),
            device: s.describe(),
            precision,
            sense: opts.sense,
            run_count: r.runs.len(),
            target: a.stop.target,
            target_reached,
            result: &r,
            profile,
        });
    }
    let mut t = format!(
        "objective    {name} ({} dimensions, {} bits each, [{}, {}])\n",
        a.dims,
        a.bits,
        out::float(lo),
        out::float(hi)
    );
    t += &format!("device       {}\n", s.describe());
    t += &format!("precision    {precision}\n");
    t += &format!(
        "solver       HC12, {} rows, mask order {}, {}, seed {}\n",
        out::thousands(s.rows()),
        a.mask_order,
        if a.max { "max" } else { "min" },
        a.seed.seed
    );
    t += &format!("best value   {}\n", out::value(r.value, single));
    let show = |v: &[f64]| {
        v.iter()
            .map(|&x| out::float(x))
            .collect::<Vec<_>>()
            .join(" ")
    };
    t += &format!("at           {}\n", show(&r.reals));
    let tgt = match a.stop.target {
        Some(v) if target_reached => format!(" (target {} reached)", out::float(v)),
        Some(v) => format!(" (target {} not reached)", out::float(v)),
        None => String::new(),
    };
    t += &format!("runs         {}{tgt}\n", r.runs.len());
    t += &format!("stopped by   {}\n", r.stop.word());
    t += &format!(
        "iterations   {} in the best run\nevaluations  {} rows\ntime         {:.3} s\n",
        r.iterations,
        out::thousands(r.evaluations),
        r.seconds
    );
    if let Some(p) = profile {
        for (k, n, ms) in p {
            t += &format!("kernel       {k}: {n} launches, {ms:.3} ms\n");
        }
    }
    out::print(&t)
}
