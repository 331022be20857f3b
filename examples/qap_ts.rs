//! Robust tabu search for the QAP (docs/specs/QAP_TS.md) on a QAPLIB instance: many chains on
//! the OpenCL device (or the CPU), stopping at the best-known cost or the time limit.
//!
//! ```text
//! cargo run --release --example qap_ts -- [instance.dat] [time_limit_s] [cpu]
//! ```
//! Defaults: data/qaplib/nug12.dat, 30 s, the default device (`METAOPT_DEVICE` picks another).

use metaopt::problem::qap::{read_bks_csv, QapInstance, QapProblem};
use metaopt::qap_ts::{Backend, QapTs, QapTsOptions};
use metaopt::run::Stop;
use std::path::PathBuf;
use std::sync::Arc;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/data/qaplib/nug12.dat").into());
    let seconds: f64 = args.get(1).map_or(30.0, |s| {
        s.parse().expect("time_limit_s is a number of seconds")
    });
    let backend = if args.get(2).map(String::as_str) == Some("cpu") {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };

    // A QAPLIB instance (flow and distance matrices), and its best-known cost when a BKS.csv
    // lies beside it (data/qaplib/BKS.csv does).
    let instance = QapInstance::from_dat(&path)?;
    let bks = read_bks_csv(&path.with_file_name("BKS.csv"))
        .ok()
        .and_then(|m| m.get(&instance.name).map(|b| b.bks));
    println!(
        "{}: n = {}, best known {}",
        instance.name,
        instance.n,
        bks.map_or("unknown".into(), |b| b.to_string())
    );

    // The solver owns the problem (shared, it is read by every chain) and its backend.
    let mut solver = QapTs::new(Arc::new(QapProblem::from_instance(&instance)), backend)?;
    let options = QapTsOptions {
        // no iteration limit: the time limit or the target ends the solve
        stop: Stop {
            time_limit: metaopt::time_limit_from_secs(seconds, "time_limit_s")?,
            target: bks.map(|b| b as f64), // stop as soon as a chain reaches the best-known cost
            ..Stop::default()
        },
        seed: 1,
        ..QapTsOptions::default() // the backend's chains, the 2006 tenure rule, a pool of 8
    };
    let r = solver.solve(&options)?;

    println!("backend: {}", r.backend);
    println!(
        "best cost {} after {} iterations per chain of {} chains, {} restarts, {:.2} s (best at {:.2} s)",
        r.cost, r.iterations, r.chains, r.restarts, r.seconds, r.seconds_to_best
    );
    if let Some(b) = bks {
        println!(
            "gap {:.3} %, target reached: {}",
            100.0 * (r.cost.as_f64() - b as f64) / b as f64,
            r.target_reached
        );
    }
    // The permutation is 0-based: unit i goes to location permutation[i]; QAPLIB prints 1-based.
    let p: Vec<String> = r.permutation.iter().map(|&v| (v + 1).to_string()).collect();
    println!("permutation (1-based): {}", p.join(" "));
    Ok(())
}
