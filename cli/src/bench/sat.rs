//! `metaopt bench sat`: clause evaluations per second (assignments × clauses / s) of DXAC and
//! MCSX on the device and of the rayon CPU evaluator, side by side.
//!
//! Method: N seeded random assignments. DXAC and the CPU evaluator take the whole batch per call;
//! MCSX takes one assignment per call (its use: one assignment at a time), cycling through the
//! batch. Per evaluator one warm-up call, then calls until --seconds have passed (at least one).
//! Host time includes the transfers (and, for DXAC, the host-side transposition); the kernel
//! time column is the profiled device time alone. Every satisfied count must equal the CPU's.

use crate::args::{parse_seconds, CsvArg, DeviceArg};
use crate::out::timed;
use crate::out::{self, csv_error, CliResult, Failure};
use clap::Args;
use metaopt::problem::sat::{Assignment, Cnf};
use metaopt::rng::Philox;
use metaopt::sat::cpu as cpu_sat;
use metaopt::sat::eval::DeviceSat;
use std::path::PathBuf;

/// The formula of the benchmark, relative to the working directory.
const DEFAULT_CNF: &str = "data/satlib/uf250-1065/uf250-01.cnf";

#[derive(Args)]
pub struct BenchSatArgs {
    /// DIMACS CNF file [default: data/satlib/uf250-1065/uf250-01.cnf]
    #[arg(long, value_name = "FILE")]
    cnf: Option<PathBuf>,
    /// Random assignments per batch
    #[arg(long, default_value_t = 65536, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    assignments: u32,
    /// Seconds of timed calls per evaluator (at least one call)
    #[arg(long, default_value_t = 3.0, value_name = "S", value_parser = parse_seconds)]
    seconds: f64,
    #[command(flatten)]
    device: DeviceArg,
    /// Seed of the random assignments
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[command(flatten)]
    csv: CsvArg,
}

struct Measure {
    evaluator: &'static str,
    device: String,
    per_call: usize,
    calls: u64,
    seconds: f64,
    kernel_seconds: Option<f64>,
}

impl Measure {
    fn assignments(&self) -> u64 {
        self.calls * self.per_call as u64
    }
}

pub fn run(a: &BenchSatArgs) -> CliResult {
    let path = out::default_file(&a.cnf, DEFAULT_CNF, "formula", "--cnf FILE")?;
    let cnf = Cnf::from_file(&path)?;
    a.device.select()?;
    let n = a.assignments as usize;
    let m = cnf.num_clauses();
    let mut rng = Philox::new(a.seed, 0);
    let asg: Vec<Assignment> = (0..n)
        .map(|_| Assignment::random(cnf.num_vars, &mut rng))
        .collect();
    eprintln!(
        "bench sat: {} ({} variables, {} clauses, {} literals, {} literals on the device), {} random assignments (seed {}), {} s per evaluator",
        cnf.name,
        cnf.num_vars,
        m,
        out::thousands(cnf.literals.len() as u64),
        cnf.lit_type().as_str(),
        out::thousands(n as u64),
        a.seed,
        a.seconds
    );

    // the reference: the CPU evaluator, checked against the host reference on a sample
    let want = cpu_sat::evaluate_many(&cnf, &asg, false)?.satisfied;
    for i in (0..n).step_by((n / 64).max(1)) {
        if want[i] != cnf.satisfied_count(&asg[i]) {
            return Err(Failure(format!(
                "the CPU evaluator disagrees with the host reference on assignment {i}"
            )));
        }
    }
    let mut mismatch: Vec<String> = Vec::new();
    let mut results = Vec::new();

    let mut ds = DeviceSat::new(&cnf)?;
    let device = ds.describe();

    // the kernel time of the timed calls only (the warm-up call is call 0)
    let mut ok = true;
    let mut kernel_ns = 0u64;
    let (calls, secs) = timed(None, Some(a.seconds), |i| {
        let r = ds.dxac(&asg, false)?;
        let k = ds.take_kernel_ns();
        kernel_ns += if i > 0 { k } else { 0 };
        ok &= r.satisfied == want;
        Ok(())
    })?;
    if !ok {
        mismatch.push("dxac".into());
    }
    results.push(Measure {
        evaluator: "device-dxac",
        device: device.clone(),
        per_call: n,
        calls,
        seconds: secs,
        kernel_seconds: Some(kernel_ns as f64 * 1e-9),
    });

    let mut ok = true;
    let mut kernel_ns = 0u64;
    let (calls, secs) = timed(None, Some(a.seconds), |i| {
        let j = (i as usize) % n;
        let r = ds.mcsx(&asg[j], false)?;
        let k = ds.take_kernel_ns();
        kernel_ns += if i > 0 { k } else { 0 };
        ok &= r.satisfied == want[j] && r.all == (want[j] as usize == m);
        Ok(())
    })?;
    if !ok {
        mismatch.push("mcsx".into());
    }
    results.push(Measure {
        evaluator: "device-mcsx",
        device: device.clone(),
        per_call: 1,
        calls,
        seconds: secs,
        kernel_seconds: Some(kernel_ns as f64 * 1e-9),
    });

    let mut ok = true;
    let (calls, secs) = timed(None, Some(a.seconds), |_| {
        let r = cpu_sat::evaluate_many(&cnf, &asg, false)?;
        ok &= r.satisfied == want;
        Ok(())
    })?;
    if !ok {
        mismatch.push("cpu".into());
    }
    results.push(Measure {
        evaluator: "cpu-rayon",
        device: metaopt::device::Backend::Cpu.describe(),
        per_call: n,
        calls,
        seconds: secs,
        kernel_seconds: None,
    });

    let rate = |x: &Measure| x.assignments() as f64 * m as f64 / x.seconds;
    let cpu = rate(&results[2]);
    for r in &results {
        eprintln!(
            "  {:<12} {:>10} clause evaluations/s  ({} calls of {} assignments in {:.3} s{})",
            r.evaluator,
            out::rate(rate(r)),
            r.calls,
            r.per_call,
            r.seconds,
            r.kernel_seconds
                .map_or(String::new(), |k| format!("; kernels {:.3} s", k))
        );
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "instance",
        "vars",
        "clauses",
        "literal_type",
        "evaluator",
        "device",
        "assignments_per_call",
        "calls",
        "seconds",
        "clause_evals_per_second",
        "kernel_seconds",
        "kernel_clause_evals_per_second",
        "speedup_vs_cpu",
    ])
    .map_err(csv_error)?;
    for r in &results {
        let evals = r.assignments() as f64 * m as f64;
        w.write_record([
            cnf.name.clone(),
            cnf.num_vars.to_string(),
            m.to_string(),
            cnf.lit_type().as_str().to_string(),
            r.evaluator.to_string(),
            r.device.clone(),
            r.per_call.to_string(),
            r.calls.to_string(),
            format!("{:.6}", r.seconds),
            format!("{:.0}", rate(r)),
            r.kernel_seconds
                .map_or(String::new(), |k| format!("{k:.6}")),
            r.kernel_seconds
                .filter(|&k| k > 0.0)
                .map_or(String::new(), |k| format!("{:.0}", evals / k)),
            format!("{:.3}", rate(r) / cpu),
        ])
        .map_err(csv_error)?;
    }
    out::finish_csv(w, a.csv.path())?;
    if mismatch.is_empty() {
        eprintln!("check: DXAC, MCSX and the CPU evaluator gave the same satisfied counts for every assignment they evaluated");
        Ok(())
    } else {
        Err(Failure(format!(
            "{} disagree with the CPU evaluator's satisfied counts",
            mismatch.join(", ")
        )))
    }
}
