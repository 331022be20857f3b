//! `metaopt hc12`: the general HC12 solver on a catalogue function or a user OpenCL objective.

use crate::args::{DeviceArg, JsonArg, ObjectiveArgs, SeedArg, TabuArgs};
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
pub struct Hc12Args {
    #[command(flatten)]
    objective: ObjectiveArgs,
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
    /// Runs (restarts), each from a random string
    #[arg(long, default_value_t = 1, value_name = "N")]
    runs: u32,
    /// Maximise instead of minimise
    #[arg(long)]
    max: bool,
    /// Double precision (needs cl_khr_fp64)
    #[arg(long)]
    double: bool,
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
    #[serde(flatten)]
    result: &'a metaopt::hc12::general::Hc12RunResult,
    profile: Option<Vec<(String, u64, f64)>>,
}

pub fn run(a: &Hc12Args) -> CliResult {
    a.device.select()?;
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
        double: a.double,
    };
    let flag = |e: metaopt::Error| {
        let table = [
            ("nParam", "--dims"),
            ("dims", "--dims"),
            ("nBitParam", "--bits"),
            ("dodParam", "--lower/--upper"),
            ("maskOrder", "--mask-order"),
            ("startSeed", "--start"),
            ("nRuns", "--runs"),
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
                .map(|v| v.trim().parse::<f64>().map_err(|_| Failure(format!("--start: `{v}` is not a number"))))
                .collect::<CliResult<Vec<f64>>>()?,
        ),
        (None, true) => StartPoint::Zeros,
        (None, false) => StartPoint::Random,
    };
    let opts = RunOptions {
        coding: if a.coding == CodingArg::Gc { Coding::Gray } else { Coding::Binary },
        sense: if a.max { Sense::Max } else { Sense::Min },
        stop: metaopt::hc12::restarts::Stop { max_runs: a.runs, ..Default::default() },
        start,
        seed: a.seed.seed,
        ..Default::default()
    };
    let r = s.run(&opts).map_err(flag)?;
    let profile = s.profile.as_ref().map(|p| {
        p.iter().map(|(k, (n, ns))| (k.to_string(), *n, *ns as f64 / 1e6)).collect::<Vec<_>>()
    });
    if a.json.json {
        return out::print_json(&Hc12Json {
            objective: name,
            dims: a.dims,
            bits: a.bits,
            rows: s.rows(),
            device: s.backend_description(),
            result: &r,
            profile,
        });
    }
    let mut t = format!("objective    {name} ({} dimensions, {} bits each, [{lo}, {hi}])\n", a.dims, a.bits);
    t += &format!("device       {}\n", s.backend_description());
    t += &format!("solver       HC12, {} rows, mask order {}, {} runs, seed {}\n", out::thousands(s.rows()), a.mask_order, a.runs, a.seed.seed);
    t += &format!("best value   {}\n", r.value);
    let show = |v: &[f64]| v.iter().map(|x| format!("{x:.6}")).collect::<Vec<_>>().join(" ");
    t += &format!("at           {}\n", show(&r.reals));
    t += &format!("iterations   {} in the best run\nevaluations  {} rows\ntime         {:.3} s\n", r.iterations, out::thousands(r.evaluations), r.seconds);
    if let Some(p) = profile {
        for (k, n, ms) in p {
            t += &format!("kernel       {k}: {n} launches, {ms:.3} ms\n");
        }
    }
    out::print(&t)
}
