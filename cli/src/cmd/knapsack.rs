//! `metaopt knapsack opt` (the exact optimum of an instance) and `metaopt knapsack generate`
//! (seeded instances of Han & Kim's kind and Pisinger's classes).

use crate::args::{JsonArg, SeedArg};
use crate::out::{self, flag_error, CliResult, Failure};
use clap::{Args, Subcommand};
use metaopt::problem::knapsack::{
    CapacityRule, GenerateOptions, Knapsack, KnapsackKind, DEFAULT_MAX_STATES,
};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum KnapsackCommand {
    /// The exact optimum of an instance (the authors' format or `n capacity` then `weight profit`
    /// lines), on the instance's exact integer form
    Opt(OptArgs),
    /// A seeded random instance in the authors' format
    Generate(GenerateArgs),
}

#[derive(Args)]
pub struct OptArgs {
    /// The instance file
    file: PathBuf,
    /// Give up with an error past this many states of the exact solver
    #[arg(long, default_value_t = DEFAULT_MAX_STATES, value_name = "N")]
    max_states: usize,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct OptJson<'a> {
    instance: &'a str,
    items: usize,
    capacity: f64,
    scale: u64,
    int_capacity: u64,
    optimum: f64,
    int_optimum: u64,
    weight: f64,
    int_weight: u64,
    item_count: usize,
    selected: &'a [usize],
    peak_states: usize,
    seconds: f64,
    /// `done`: the exact algorithm finished.
    stopped_by: metaopt::StopReason,
}

pub fn opt(a: &OptArgs) -> CliResult {
    let k = Knapsack::from_file(&a.file)?;
    let t = std::time::Instant::now();
    let o = k
        .optimum_with_limit(a.max_states)
        .map_err(|e| flag_error("--max-states", e))?;
    let seconds = t.elapsed().as_secs_f64();
    let d = k.decimals() as usize;
    if a.json.json {
        return out::print_json(&OptJson {
            instance: k.name(),
            items: k.n(),
            capacity: k.capacity(),
            scale: k.scale(),
            int_capacity: k.int_capacity(),
            optimum: o.value,
            int_optimum: o.int_value,
            weight: o.weight,
            int_weight: o.int_weight,
            item_count: o.items.len(),
            selected: &o.items,
            peak_states: o.peak_states,
            seconds,
            stopped_by: metaopt::StopReason::Done,
        });
    }
    out::print(&format!(
        "{}: {} items, capacity {} (integer form: scale {}, capacity {})\n\
         optimum {:.d$} (integer {}), weight {:.d$} (integer {}), {} items, in {:.3} s ({} states at most)\n\
         stopped by {}\n",
        k.name(),
        k.n(),
        k.capacity(),
        k.scale(),
        k.int_capacity(),
        o.value,
        o.int_value,
        o.weight,
        o.int_weight,
        o.items.len(),
        seconds,
        o.peak_states,
        metaopt::StopReason::Done,
    ))
}

#[derive(Args)]
#[command(mut_arg("seed", |a| a.help(
    "Seed of the instance (the same seed gives the same instance)"
)))]
pub struct GenerateArgs {
    /// hankim (w uniform in [1, 10) with 6 decimals, p = w + 5), or Pisinger's uncorrelated,
    /// weak (p within w ± R/10, >= 1), strong (p = w + R/10), subset-sum (p = w)
    #[arg(long, value_name = "KIND", value_parser = parse_kind)]
    kind: KnapsackKind,
    /// Number of items
    #[arg(long, value_name = "N")]
    items: usize,
    /// Pisinger's range R: weights uniform in [1, R] (not used by hankim)
    #[arg(long, default_value_t = 1000, value_name = "R")]
    range: u64,
    /// Capacity floor(h / (H + 1) · Σw), instance h of Pisinger's series of H (default: half the
    /// total weight)
    #[arg(long, value_name = "h/H", value_parser = parse_series)]
    series: Option<(u32, u32)>,
    #[command(flatten)]
    seed: SeedArg,
}

fn parse_kind(s: &str) -> Result<KnapsackKind, String> {
    s.parse::<KnapsackKind>()
        .map_err(|_| "expected one of hankim, uncorrelated, weak, strong, subset-sum".to_string())
}

fn parse_series(s: &str) -> Result<(u32, u32), String> {
    let (h, of) = s.split_once('/').ok_or("expected h/H, e.g. 1/100")?;
    match (h.trim().parse(), of.trim().parse()) {
        (Ok(h), Ok(of)) => Ok((h, of)),
        _ => Err("expected h/H with whole numbers, e.g. 1/100".into()),
    }
}

pub fn generate(a: &GenerateArgs) -> CliResult {
    let capacity = match a.series {
        Some((h, of)) => CapacityRule::Series { h, of },
        None => CapacityRule::Half,
    };
    let o = GenerateOptions {
        kind: a.kind,
        items: a.items,
        range: a.range,
        seed: a.seed.seed,
        capacity,
    };
    let k = Knapsack::generate(&o).map_err(|e| match &e {
        metaopt::Error::InvalidArgument { arg: "items", .. } => flag_error("--items", e),
        metaopt::Error::InvalidArgument { arg: "range", .. } => flag_error("--range", e),
        metaopt::Error::InvalidArgument {
            arg: "capacity", ..
        } => flag_error("--series", e),
        _ => Failure::from(e),
    })?;
    // to stdout or to the global --output FILE
    out::print(&k.to_text())
}
