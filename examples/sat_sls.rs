//! probSAT walks for SAT (docs/specs/SAT_SLS.md) on a DIMACS CNF file: many independent walks
//! on the device or on the CPU backend; a model is verified against every clause before it is
//! reported, and the flip rate is printed.
//!
//! ```text
//! cargo run --release --example sat_sls -- [formula.cnf | random:N:RATIO[:K]] [time_limit_s] [cpu] [walks]
//! ```
//! `random:N:RATIO[:K]`: random k-SAT (`Cnf::random_ksat`, K = 3 by default, seed 1).
//! Defaults: data/satlib/uf250-1065/uf250-01.cnf, 10 s, the default device, the backend's
//! walk count.

use metaopt::device::Backend;
use metaopt::problem::sat::Cnf;
use metaopt::run::Stop;
use metaopt::sat_sls::{SatSls, SlsOptions};
use std::path::PathBuf;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map(PathBuf::from).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/satlib/uf250-1065/uf250-01.cnf"
        )
        .into()
    });
    let seconds: f64 = args.get(1).map_or(10.0, |s| {
        s.parse().expect("time_limit_s is a number of seconds")
    });
    let backend = if args.get(2).map(String::as_str) == Some("cpu") {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };
    let walks: Option<u32> = args.get(3).map(|s| s.parse().expect("walks is a count"));

    let cnf = match path.to_str().and_then(|p| p.strip_prefix("random:")) {
        Some(spec) => {
            let f: Vec<&str> = spec.split(':').collect();
            let n: usize = f[0].parse().expect("random:N:RATIO[:K]: N is a count");
            let ratio: f64 = f
                .get(1)
                .map_or(4.2, |r| r.parse().expect("RATIO is a number"));
            let k: usize = f.get(2).map_or(3, |k| k.parse().expect("K is a count"));
            Cnf::random_ksat(n, ratio, k, 1)?
        }
        None => Cnf::from_file(&path)?,
    };
    println!(
        "c {}: {} variables, {} clauses",
        path.display(),
        cnf.num_vars,
        cnf.num_clauses()
    );
    let mut solver = SatSls::new(cnf, walks, backend)?;
    let opts = SlsOptions {
        seed: 7,
        stop: Stop {
            time_limit: metaopt::time_limit_from_secs(seconds, "time_limit_s")?,
            ..Stop::default()
        },
        ..SlsOptions::default()
    };
    let r = solver.solve(&opts)?;
    println!(
        "c {} on {}, {} walks: {} flips in {:.3} s = {:.2} M flips/s",
        r.method.as_str(),
        solver.describe(),
        r.walks,
        r.flips,
        r.seconds,
        r.flips_per_second / 1e6
    );
    match &r.model {
        Some(m) => println!("s SATISFIABLE\n{}", m.v_lines()),
        None => println!(
            "s UNKNOWN\nc best: {} unsatisfied clauses",
            r.best_unsatisfied
        ),
    }
    Ok(())
}
