//! The general HC12 solver (docs/specs/HC12.md): hill climbing over bit strings with the
//! 12-neighbourhood (every string at Hamming distance 1 or 2, evaluated at once on the device),
//! here on a catalogue function of 10 real parameters of 16 bits each.
//!
//! ```text
//! cargo run --release --example hc12 -- [function] [runs] [cpu]
//! ```
//! Defaults: F1 (the sphere), 1 run, the default device.

use metaopt::device::Backend;
use metaopt::hc12::general::{Hc12, Hc12Params, RunOptions};
use metaopt::objective::Objective;
use metaopt::run::Stop;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("F1", String::as_str);
    let runs: u32 = args
        .get(1)
        .map_or(1, |s| s.parse().expect("runs is a whole number"));
    let backend = if args.get(2).map(String::as_str) == Some("cpu") {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };

    // 10 real parameters in [-5.12, 5.12], each coded in 16 bits (a grid of 65536 points).
    let params = Hc12Params::real(10, 16, -5.12, 5.12);
    let mut hc12 = Hc12::new(params, Objective::catalogue(name)?, backend)?;
    // Each run climbs from a random string to a local minimum of the 12-neighbourhood; the
    // result is the best over the runs. Gray coding (the default) and minimisation.
    let options = RunOptions {
        stop: Stop::budget(u64::from(runs)),
        seed: 5,
        ..RunOptions::default()
    };
    let r = hc12.run(&options)?;

    println!(
        "{name}: best value {:e} after {} runs, {} iterations, {} evaluations, {:.2} s",
        r.value,
        r.runs.len(),
        r.iterations,
        r.evaluations,
        r.seconds
    );
    let x: Vec<String> = r.reals.iter().map(|v| format!("{v:.5}")).collect();
    println!("x = [{}]", x.join(", "));
    Ok(())
}
