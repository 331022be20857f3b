//! HC12 local search for SAT (docs/specs/SAT.md) on a DIMACS CNF file: flips of one variable
//! evaluated at once on the device, a tabu list and a variable tenure, restarts; a model is
//! verified against every clause before it is reported.
//!
//! ```text
//! cargo run --release --example sat -- [formula.cnf] [time_limit_s] [cpu]
//! ```
//! Defaults: data/satlib/uf50-218/uf50-01.cnf, 10 s, the default device. Prints the result in
//! the SAT competition's format (`s SATISFIABLE`, `v` lines of literals ending in 0).

use metaopt::device::Backend;
use metaopt::hc12::sat::{SatOptions, SatSolver};
use metaopt::problem::sat::Cnf;
use metaopt::run::Stop;
use std::path::PathBuf;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map(PathBuf::from).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/satlib/uf50-218/uf50-01.cnf"
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

    let cnf = Cnf::from_file(&path)?;
    println!(
        "c {}: {} variables, {} clauses",
        path.display(),
        cnf.num_vars,
        cnf.num_clauses()
    );

    // The default options (flips of one variable, a tabu list of 500 assignments, tenure 10)
    // with runs restarted until a model is found or the time is up.
    let options = SatOptions {
        seed: 7,
        stop: Stop {
            time_limit: metaopt::time_limit_from_secs(seconds, "time_limit_s")?,
            ..Stop::default()
        },
        ..SatOptions::default()
    };
    let tabu_length = options.tabu.as_ref().map_or(0, |t| t.max_length);
    let mut solver = SatSolver::new(cnf, options.mask_order, tabu_length, backend)?;
    let r = solver.solve(&options)?;

    println!(
        "c {} runs, {} iterations, {:.2} s",
        r.runs, r.iterations, r.seconds
    );
    match &r.model {
        Some(model) => {
            // the literals of the model, v for true and -v for false (variables are 1-based)
            println!("s SATISFIABLE\n{}", model.v_lines().trim_end());
        }
        None => println!(
            "s UNKNOWN\nc best assignment leaves {} clauses unsatisfied",
            r.best_unsatisfied
        ),
    }
    Ok(())
}
