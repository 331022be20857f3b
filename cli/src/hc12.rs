//! `metaopt functions`, `metaopt hc12` (the general HC12 solver) and `metaopt bench functions`
//! (the accuracy table of the thesis's Table 6).

use crate::out::{self, flag_error, CliResult, Failure};
use crate::qap::TabuArgs;
use clap::{Args, ValueEnum};
use metaopt::device::set_device_number;
use metaopt::hc12::general::{Coding, Domain, Hc12, Hc12Params, RunOptions, Sense, StartPoint};
use crate::accuracy::{accuracy, accuracy_host, AccuracyStats, THESIS_CUDA_ACCURACY};
use metaopt::objective::Objective;
use metaopt::problem::functions::{self, default_fixture_path, ReferenceFixture};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args)]
pub struct FunctionsArgs {
    /// One JSON array instead of the table
    #[arg(long)]
    json: bool,
}

pub fn functions_cmd(a: &FunctionsArgs) -> CliResult {
    let cat = functions::catalogue();
    if a.json {
        return out::print_json(&cat);
    }
    let mut s = format!("{:<8} {:<22} {:<16} {}\n", "name", "domain", "dimensions", "minimum");
    for f in cat {
        s += &format!(
            "{:<8} {:<22} {:<16} {}\n         {}\n",
            f.name,
            format!("[{}, {}]", f.domain.0, f.domain.1),
            f.dims.describe(),
            f.minimum_text,
            f.description
        );
    }
    out::print(&s)
}

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
    /// A catalogue function (`metaopt functions` lists them)
    #[arg(long, value_name = "NAME", required_unless_present = "source", conflicts_with = "source")]
    function: Option<String>,
    /// A user objective: OpenCL C defining `FP objective(__global const FP *x, uint dims,
    /// uint stride, __global const void *data)` (or `objective_u` over uint for --domain
    /// integer|binary)
    #[arg(long, value_name = "FILE.cl")]
    source: Option<PathBuf>,
    /// Raw bytes for the user objective's `data` buffer (the thesis's func-data)
    #[arg(long, value_name = "FILE", requires = "source")]
    data: Option<PathBuf>,
    /// Number of parameters
    #[arg(long, value_name = "D")]
    dims: u32,
    /// Bits per parameter (1..32)
    #[arg(long, default_value_t = 16, value_name = "B")]
    bits: u32,
    /// Lower end of every interval [default: the function's domain]
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    lower: Option<f64>,
    /// Upper end of every interval [default: the function's domain]
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    upper: Option<f64>,
    /// What the objective reads: the reals R, the integers I or the strings B
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
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// OpenCL device number from `metaopt devices`
    #[arg(long, value_name = "N")]
    device: Option<i32>,
    /// Print every kernel launch on stderr
    #[arg(long)]
    verbose: bool,
    /// Report kernel times from OpenCL profiling events
    #[arg(long)]
    profile: bool,
    #[command(flatten)]
    tabu: TabuArgs,
    /// One JSON object on stdout
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Hc12Json<'a> {
    objective: String,
    dims: u32,
    bits: u32,
    rows: u64,
    device: String,
    #[serde(flatten)]
    result: &'a metaopt::hc12::general::Hc12SolveResult,
    profile: Option<Vec<(String, u64, f64)>>,
}

pub fn hc12_cmd(a: &Hc12Args) -> CliResult {
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let (objective, name, domain) = match (&a.function, &a.source) {
        (Some(f), _) => {
            let info = functions::lookup(f).map_err(|e| flag_error("--function", e))?;
            (Objective::catalogue(f)?, info.name.to_string(), Some(info.domain))
        }
        (None, Some(path)) => {
            let code = std::fs::read_to_string(path).map_err(|e| Failure(format!("--source: cannot read {}: {e}", path.display())))?;
            let data = match &a.data {
                Some(d) => std::fs::read(d).map_err(|e| Failure(format!("--data: cannot read {}: {e}", d.display())))?,
                None => Vec::new(),
            };
            (Objective::source(code, data), path.display().to_string(), None)
        }
        (None, None) => return Err("give --function NAME or --source FILE.cl".into()),
    };
    let (lo, hi) = match (a.lower, a.upper, domain) {
        (Some(l), Some(u), _) => (l, u),
        (l, u, Some(d)) => (l.unwrap_or(d.0), u.unwrap_or(d.1)),
        (l, u, None) => (l.unwrap_or(0.0), u.unwrap_or(1.0)),
    };
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
    let flag = |e: metaopt::Error| match &e {
        metaopt::Error::InvalidArgument { arg, .. } => match *arg {
            "nParam" | "dims" => flag_error("--dims", e),
            "nBitParam" => flag_error("--bits", e),
            "dodParam" => flag_error("--lower/--upper", e),
            "maskOrder" => flag_error("--mask-order", e),
            "startSeed" => flag_error("--start", e),
            "nRuns" => flag_error("--runs", e),
            _ => e.into(),
        },
        _ => e.into(),
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
        seed: a.seed,
        ..Default::default()
    };
    let r = s.run(&opts).map_err(flag)?;
    let profile = s.profile.as_ref().map(|p| {
        p.iter().map(|(k, (n, ns))| (k.to_string(), *n, *ns as f64 / 1e6)).collect::<Vec<_>>()
    });
    if a.json {
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
    t += &format!("solver       HC12, {} rows, mask order {}, {} runs, seed {}\n", out::thousands(s.rows()), a.mask_order, a.runs, a.seed);
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

#[derive(Args)]
pub struct BenchFunctionsArgs {
    /// The mpmath reference fixture [default: tests/fixtures of the source tree]
    #[arg(long, value_name = "PATH")]
    fixture: Option<PathBuf>,
    /// Functions (comma-separated) [default: all in the fixture]
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    functions: Vec<String>,
    /// OpenCL device number from `metaopt devices`
    #[arg(long, value_name = "N")]
    device: Option<i32>,
    /// Also write the CSV to FILE
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

#[derive(Serialize)]
struct AccuracyRow {
    function: String,
    implementation: &'static str,
    points: usize,
    max_abs: f64,
    mean_abs: f64,
    std_abs: f64,
}

/// `metaopt bench functions`: max, mean and standard deviation of the absolute error against
/// 50-digit mpmath values for device double, device float and the host f64 code, beside the
/// thesis's CUDA column.
pub fn bench_functions(a: &BenchFunctionsArgs) -> CliResult {
    if let Some(d) = a.device {
        set_device_number(d).map_err(|e| flag_error("--device", e))?;
    }
    let path = a.fixture.clone().unwrap_or_else(default_fixture_path);
    let fx = ReferenceFixture::load(&path)?;
    let names: Vec<String> = if a.functions.is_empty() {
        fx.functions.iter().map(|f| f.0.clone()).collect()
    } else {
        a.functions.clone()
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let row = |w: &mut csv::Writer<Vec<u8>>, function: &str, implementation, st: AccuracyStats| {
        w.serialize(AccuracyRow { function: function.to_string(), implementation, points: st.count, max_abs: st.max_abs, mean_abs: st.mean_abs, std_abs: st.std_abs })
            .map_err(|e| Failure(format!("cannot write CSV: {e}")))
    };
    eprintln!("{:<8} {:>27} {:>27} {:>27} {:>27}", "", "device double", "device float", "host f64", "thesis CUDA (double)");
    eprintln!("{:<8} {:>27} {:>27} {:>27} {:>27}", "function", "max / mean / std", "max / mean / std", "max / mean / std", "max / mean / std");
    for name in &names {
        let points = fx.points(name)?;
        let refs = fx.refs(name)?;
        let dev_d = accuracy(name, true, &points, refs)?;
        let dev_f = accuracy(name, false, &points, refs)?;
        let host = accuracy_host(name, &points, refs)?;
        row(&mut w, name, "device-double", dev_d)?;
        row(&mut w, name, "device-float", dev_f)?;
        row(&mut w, name, "host-f64", host)?;
        let thesis = THESIS_CUDA_ACCURACY.iter().find(|t| t.0.eq_ignore_ascii_case(name));
        if let Some(t) = thesis {
            row(&mut w, name, "thesis-cuda-double", AccuracyStats { max_abs: t.1, mean_abs: t.2, std_abs: t.3, count: 10_000 })?;
        }
        let f = |s: &AccuracyStats| format!("{:.2e} {:.2e} {:.2e}", s.max_abs, s.mean_abs, s.std_abs);
        eprintln!(
            "{name:<8} {:>27} {:>27} {:>27} {:>27}",
            f(&dev_d),
            f(&dev_f),
            f(&host),
            thesis.map_or("-".into(), |t| format!("{:.2e} {:.2e} {:.2e}", t.1, t.2, t.3))
        );
    }
    out::finish_csv(w, a.csv.as_deref())
}
