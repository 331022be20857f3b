//! Island differential evolution (docs/specs/DE.md) minimising a function of the catalogue
//! (`metaopt functions` lists them; F1 is the sphere, F6 Rastrigin) in 10 dimensions.
//!
//! ```text
//! cargo run --release --example de -- [function] [generations] [cpu]
//! ```
//! Defaults: F1, 1000 generations, the default device.

use metaopt::de::{
    Backend, BoundsCorrection, DeMultiPop, DeParams, Migration, MigrationKind, Mutation,
};
use metaopt::objective::Objective;
use metaopt::run::Stop;

fn main() -> metaopt::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("F1", String::as_str);
    let generations: u64 = args
        .get(1)
        .map_or(1000, |s| s.parse().expect("generations is a whole number"));
    let backend = if args.get(2).map(String::as_str) == Some("cpu") {
        Backend::Cpu
    } else {
        Backend::DEVICE
    };

    // 8 islands (populations) of 40 members, 10 dimensions in [-5.12, 5.12]; a trial that leaves
    // the box is put back on its bound (saturation).
    let mut params = DeParams::new(8, 40, 10, -5.12, 5.12, BoundsCorrection::Saturation);
    params.options.f_min = 0.5; // the scale factor F is drawn from [f_min, f_max]
    params.options.f_max = 0.9;
    params.options.cr = vec![0.9]; // crossover rate of every island

    let mut de = DeMultiPop::new(&params, backend)?;
    // DE/rand/1 with binomial crossover; every 20 generations the islands exchange members.
    de.init(
        &Objective::catalogue(name)?,
        Mutation::Rand1,
        Migration::new(MigrationKind::PermuteN, 20),
    )?;
    let r = de.run(&Stop {
        budget: Some(generations),
        target: Some(1e-8),
        ..Stop::default()
    })?;

    println!(
        "{name}: best value {:e} on island {} after {} generations ({} evaluations, {:.2} s)",
        r.value, r.island, r.generations, r.evaluations, r.seconds
    );
    println!("stopped by: {:?}", r.stopped_by);
    let x: Vec<String> = r.x.iter().map(|v| format!("{v:.6}")).collect();
    println!("x = [{}]", x.join(", "));
    Ok(())
}
