//! `metaopt`: the command-line front end over the Rust API (docs/DESIGN.md, layer 1).
//!
//! Every failure, including a caught panic, ends as `error: <message>` on stderr and exit status 2
//! (clap's own usage errors use the same status), so scripts can tell a failed command from one
//! that ran.

// One module per command; the thesis experiments and their statistics live here too, not in the library.
mod accuracy;
mod bench;
mod bench_de;
mod bench_sat;
mod bench_tabu;
mod de;
mod devices;
mod experiment;
mod experiments;
mod experiments_de;
mod hc12;
mod out;
mod plot;
mod qap;
mod sat;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit status of every error.
const EXIT_ERROR: u8 = 2;

#[derive(Parser)]
#[command(
    name = "metaopt",
    version,
    about = "GPU metaheuristics over OpenCL: HC12 for the QAP and for continuous functions, device listing and benchmarks",
    after_help = "Device selection: `metaopt devices` numbers every OpenCL device (GPUs first); \
                  choose one with --device N or the METAOPT_DEVICE=N environment variable.\n\
                  Kernel sources are read from $METAOPT_CL_DIR, else cl/ beside the library, else the \
                  source tree's cl/, else the copy built into the binary."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the OpenCL devices, numbered as --device and METAOPT_DEVICE take them
    Devices(devices::DevicesArgs),
    /// Quadratic assignment problem (QAPLIB instances)
    #[command(subcommand)]
    Qap(qap::QapCommand),
    /// SAT: evaluate assignments of a DIMACS CNF file, or look for a model
    #[command(subcommand)]
    Sat(sat::SatCommand),
    /// The test-function catalogue: name, domain, dimensions, minimum
    Functions(hc12::FunctionsArgs),
    /// The general HC12 solver on a catalogue function or a user OpenCL objective
    Hc12(Box<hc12::Hc12Args>),
    /// Island differential evolution on a catalogue function or a user OpenCL objective
    De(Box<de::DeArgs>),
    /// The thesis's experiments (island DE, section 6.1): CSV tables and PNG plots in a folder
    #[command(subcommand)]
    Experiment(experiment::ExperimentCommand),
    /// Benchmarks (throughput measurements, not tests)
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

fn main() -> ExitCode {
    // A panic is a bug, but the user still gets one line and the documented status, not a
    // backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("error: internal error (panic{at}): {msg}");
        std::process::exit(EXIT_ERROR as i32);
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Devices(a) => devices::run(&a),
        Command::Qap(c) => qap::run(c),
        Command::Sat(c) => sat::run(c),
        Command::Functions(a) => hc12::functions_cmd(&a),
        Command::Hc12(a) => hc12::hc12_cmd(&a),
        Command::De(a) => de::de_cmd(&a),
        Command::Experiment(c) => experiment::run(c),
        Command::Bench(c) => bench::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
