//! `metaopt`: the command-line front end over the Rust API (docs/ARCHITECTURE.md).
//!
//! Every failure, including a caught panic, ends as `error: <message>` on stderr and exit status 2
//! (clap's own usage errors use the same status), so scripts can tell a failed command from one
//! that ran. `sat solve` exits with 10 when it found a model (0 when not); SIGINT (Ctrl-C) and
//! SIGTERM stop a solve with its best so far, printed and written, then exit with 130 and 143
//! (a second signal exits at once). Every file a command writes is checked before its work
//! starts and written under a temporary name beside it, then renamed over it.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`args`] | the argument groups the commands share, flattened into each |
//! | [`cmd`] | one module per command |
//! | [`bench`] | the benchmark drivers (`metaopt bench ...`) |
//! | [`experiment`] | the thesis's experiments and the computations behind its tables |
//! | [`convergence`] | `--csv` and `--plot` convergence logs of the iterative solvers |
//! | [`checkpoint`] | `--checkpoint`, `--checkpoint-every` and `--resume` of the iterative solvers |
//! | [`out`] | the error type, output, CSV, progress bars, number formatting and statistics |
//! | [`plot`] | PNG plots |
//! | [`mpi`] | `--mpi`: one rank of an MPI job per machine |

// The argument groups the commands share (args), one module per command (cmd), the benchmark
// drivers (bench) and the thesis's experiments with their statistics (experiment), which live
// here, not in the library; out and plot are the output helpers.
mod args;
mod bench;
mod checkpoint;
mod cmd;
mod convergence;
mod experiment;
mod mpi;
mod out;
mod plot;

use bench::BenchCommand;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cmd::{awvd, bh, de, devices, hc12, knapsack, qap, qiga, sat, sp};
use experiment::ExperimentCommand;
use metaopt::StopToken;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// Exit status of every error.
const EXIT_ERROR: u8 = 2;

#[derive(Parser)]
#[command(
    name = "metaopt",
    version,
    about = "GPU metaheuristics over OpenCL: robust tabu search and HC12 for the QAP, probSAT and WalkSAT walks (and HC12) for SAT, HC12 and island differential evolution (DE) for continuous functions, the quantum-inspired genetic algorithm (QIGA) for the 0-1 knapsack, shortest paths (exact SSSP, ACO), the Voronoi diagram of balls (AWVD), the thesis's experiments and benchmarks",
    after_help = "Device selection: `metaopt devices` numbers every OpenCL device (GPUs first); \
                  choose one with --device N or the METAOPT_DEVICE=N environment variable.\n\
                  Kernel sources are read from $METAOPT_CL_DIR, else cl/ beside the library, else the \
                  source tree's cl/, else the copy built into the binary."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Write what the command prints on standard output (its text, JSON, CSV, a generated
    /// instance) to FILE instead ("-": standard output), whole: under a temporary name beside it,
    /// renamed over it when the command ends (or is interrupted with its best so far); a failed
    /// command leaves FILE as it was. Under mpirun rank 0 then writes the file itself rather than
    /// through mpirun's forwarding of its output
    #[arg(long, short = 'o', global = true, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// List the OpenCL devices, numbered as --device and METAOPT_DEVICE take them
    Devices(devices::DevicesArgs),
    /// Quadratic assignment problem (QAPLIB instances): cost of a permutation, solve (robust tabu
    /// search by default, or HC12), the thesis's Table 5
    #[command(subcommand)]
    Qap(qap::QapCommand),
    /// SAT (DIMACS CNF): evaluate assignments, look for a model (probSAT walks by default, WalkSAT
    /// walks or HC12), or generate a random k-SAT formula
    #[command(subcommand)]
    Sat(sat::SatCommand),
    /// 0-1 knapsack: the exact optimum of an instance, or generate seeded instances
    #[command(subcommand)]
    Knapsack(knapsack::KnapsackCommand),
    /// The test-function catalogue: name, domain, dimensions, minimum
    Functions(cmd::functions::FunctionsArgs),
    /// The general HC12 solver on a catalogue function or a user OpenCL objective
    Hc12(Box<hc12::Hc12Args>),
    /// Island differential evolution on a catalogue function or a user OpenCL objective
    De(Box<de::DeArgs>),
    /// Basin hopping (monotonic, a (1+1)-ES local search), many chains side by side, on a
    /// catalogue function or a user OpenCL objective
    Bh(Box<bh::BhArgs>),
    /// Quantum-inspired genetic algorithm (Han & Kim) on a 0-1 knapsack, many populations at once
    Qiga(Box<qiga::QigaCmdArgs>),
    /// Shortest paths on graphs: exact SSSP from one, several or all sources; ACO for one pair
    #[command(subcommand)]
    Sp(sp::SpCommand),
    /// The additively weighted Voronoi diagram of the balls (atoms) of a PDB, mmCIF or balls file:
    /// vertices as Voronota's, contacts
    Awvd(Box<awvd::AwvdArgs>),
    /// The thesis's experiments (island DE of 6.1, the QAP figures 19 and 20): CSV tables and PNG
    /// plots in a folder
    #[command(subcommand)]
    Experiment(ExperimentCommand),
    /// Benchmarks, each a CSV table of measurements (not tests): QAP (qap, qap-ts, qap-quality,
    /// qap-scale, tabu), functions, SAT (sat, sat-solve, sat-large), qiga, sp, awvd, DE (de, bde, de-digits,
    /// de-table, constrained) and multi-device scale
    #[command(subcommand)]
    Bench(BenchCommand),
}

/// The first SIGINT (Ctrl-C) or SIGTERM's number (0 before any): it requests [`stop_token`]
/// and calls [`metaopt::interrupt::interrupt`], so every solve of this process stops at its next
/// check between launches, generations or runs and returns its best so far, which the command
/// prints and writes; the binary then exits with 128 + the signal's number. A second signal
/// exits at once, unless it repeats the first within [`SIGNAL_ECHO`].
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// How soon after the first signal the same signal again counts as the same request: coreutils'
/// `timeout` (without `--foreground`), a scheduler or `kill -INT -PGID` after a direct `kill`
/// deliver one signal both to the process and to its group, which no one meant as "quit now".
const SIGNAL_ECHO: std::time::Duration = std::time::Duration::from_millis(300);

/// The exit status after Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit status after SIGTERM (128 + SIGTERM).
pub const EXIT_TERMINATED: u8 = 143;

/// The exit status of `sat solve` when it found a model (as SAT solvers report it; 0 when it
/// found none, since a local search proves nothing else).
pub const EXIT_SATISFIABLE: u8 = 10;

/// When the command started: a `--time-limit` counts from here, so reading files, building
/// kernels and set-up are inside the limit.
pub fn started() -> std::time::Instant {
    static STARTED: OnceLock<std::time::Instant> = OnceLock::new();
    *STARTED.get_or_init(std::time::Instant::now)
}

/// The part of `limit` not yet spent since [`started`] (zero once it has passed).
pub fn time_left(limit: Option<std::time::Duration>) -> Option<std::time::Duration> {
    limit.map(|l| l.saturating_sub(started().elapsed()))
}

/// The stop token every solve of the binary carries: requested by SIGINT or SIGTERM.
pub fn stop_token() -> StopToken {
    static TOKEN: OnceLock<StopToken> = OnceLock::new();
    TOKEN.get_or_init(StopToken::new).clone()
}

/// The exit status of a signal: 128 + its number.
fn signal_status(sig: i32) -> u8 {
    match sig {
        libc::SIGTERM => EXIT_TERMINATED,
        _ => EXIT_INTERRUPTED,
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGTERM => "SIGTERM",
        _ => "Ctrl-C",
    }
}

/// SIGINT and SIGTERM, handled alike by a thread of their own ([`FIRST_SIGNAL`]). They are
/// blocked in the main thread before any other thread exists, so in every thread made after it
/// (the OpenCL drivers' and MPI's included), and the thread takes them with `sigwait`: no
/// signal handler runs for them, ours or a library's. A GPU driver's SIGINT handler, installed
/// after ours, reset the default action and ended the process (status 130, no output) when a
/// signal came twice, as coreutils' `timeout` delivers it. Child processes start with an empty
/// mask (the standard library resets it).
fn catch_signals() {
    // SAFETY: sigset_t is plain data that sigemptyset initialises; the calls only read and
    // write it and this thread's mask
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            // the signals keep their default action
            return;
        }
        set
    };
    let token = stop_token();
    std::thread::spawn(move || {
        let mut first_at = None;
        loop {
            let mut sig = 0;
            // SAFETY: `set` is initialised above and `sig` a valid place for the result
            if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
                continue;
            }
            let first = FIRST_SIGNAL
                .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
            let echo = !first
                && FIRST_SIGNAL.load(Ordering::SeqCst) == sig
                && first_at.is_some_and(|t: std::time::Instant| t.elapsed() < SIGNAL_ECHO);
            if echo {
                continue;
            }
            if first {
                first_at = Some(std::time::Instant::now());
                eprintln!(
                    "\ninterrupted ({}): stopping at the next check with the best so far (a second signal quits at once)",
                    signal_name(sig)
                );
                token.request();
                metaopt::interrupt::interrupt();
            } else {
                out::discard_output();
                // at once: not even waiting for a kernel build in flight (`_exit` runs no exit
                // handler, so none can tear the compiler down under it)
                // SAFETY: ends the process; nothing of it is used after
                unsafe { libc::_exit(signal_status(sig) as i32) };
            }
        }
    });
}

fn main() -> ExitCode {
    started();
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
        out::discard_output();
        std::process::exit(EXIT_ERROR as i32);
    }));
    let command = Cli::command();
    let matches = command.clone().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // every file the command will write, checked before any work
    if let Err(e) = out::check_outputs(&args::output_paths(&command, &matches)) {
        eprintln!("error: {e}");
        return ExitCode::from(EXIT_ERROR);
    }
    if let Some(path) = cli.output.filter(|p| p.as_os_str() != "-") {
        out::set_output(path);
    }
    catch_signals();
    // the whole command is one set-up cut: a kernel build that its time limit or a signal
    // overtakes stops waiting (the compiler finishes in the background)
    let cut = metaopt::run::cancel::Cut {
        clock: metaopt::Clock::since(started(), args::time_limit(&matches)),
        watch: metaopt::run::cancel::Watch::new(Some(&stop_token())),
    };
    let mut status = 0;
    let result = cut.during_setup(|| match cli.command {
        Command::Devices(a) => devices::run(&a),
        Command::Qap(qap::QapCommand::Eval(a)) => qap::eval(&a),
        Command::Qap(qap::QapCommand::Solve(a)) => qap::solve(&a),
        Command::Qap(qap::QapCommand::Table5(a)) => cmd::qap::table5::run(&a),
        Command::Qap(qap::QapCommand::Generate(a)) => qap::generate(&a),
        Command::Sat(sat::SatCommand::Eval(a)) => sat::eval(&a),
        Command::Sat(sat::SatCommand::Solve(a)) => sat::solve(&a).map(|model| {
            if model {
                status = EXIT_SATISFIABLE;
            }
        }),
        Command::Sat(sat::SatCommand::Generate(a)) => sat::generate(&a),
        Command::Knapsack(knapsack::KnapsackCommand::Opt(a)) => knapsack::opt(&a),
        Command::Knapsack(knapsack::KnapsackCommand::Generate(a)) => knapsack::generate(&a),
        Command::Functions(a) => cmd::functions::run(&a),
        Command::Hc12(a) => hc12::run(&a),
        Command::De(a) => de::run(&a),
        Command::Bh(a) => bh::run(&a),
        Command::Qiga(a) => qiga::run(&a),
        Command::Sp(sp::SpCommand::Sssp(a)) => sp::sssp(&a),
        Command::Sp(sp::SpCommand::Aco(a)) => sp::aco(&a),
        Command::Awvd(a) => awvd::run(&a),
        Command::Experiment(ExperimentCommand::DeSdis(a)) => experiment::de::de_sdis(&a),
        Command::Experiment(ExperimentCommand::DeMigration(a)) => experiment::de::de_migration(&a),
        Command::Experiment(ExperimentCommand::QapLoad(a)) => experiment::qap_figs::qap_load(&a),
        Command::Experiment(ExperimentCommand::QapSwaps(a)) => experiment::qap_figs::qap_swaps(&a),
        Command::Bench(BenchCommand::Qap(a)) => bench::qap::run(&a),
        Command::Bench(BenchCommand::QapTs(a)) => bench::qap_ts::throughput(&a),
        Command::Bench(BenchCommand::QapQuality(a)) => bench::qap_ts::quality(&a),
        Command::Bench(BenchCommand::QapScale(a)) => bench::qap_scale::run(&a),
        Command::Bench(BenchCommand::Tabu(a)) => bench::tabu::run(&a),
        Command::Bench(BenchCommand::Functions(a)) => bench::functions::run(&a),
        Command::Bench(BenchCommand::Sat(a)) => bench::sat::run(&a),
        Command::Bench(BenchCommand::SatSolve(a)) => bench::sat_solve::run(&a),
        Command::Bench(BenchCommand::SatLarge(a)) => bench::sat_solve::run_large(&a),
        Command::Bench(BenchCommand::De(a)) => bench::de::throughput(&a),
        Command::Bench(BenchCommand::Bde(a)) => bench::bde::run(&a),
        Command::Bench(BenchCommand::Qiga(a)) => bench::qiga::run(&a),
        Command::Bench(BenchCommand::Sp(a)) => bench::sp::run(&a),
        Command::Bench(BenchCommand::Awvd(a)) => bench::awvd::run(&a),
        Command::Bench(BenchCommand::DeDigits(a)) => bench::de::digits(&a),
        Command::Bench(BenchCommand::DeTable(a)) => bench::de_table::table(&a),
        Command::Bench(BenchCommand::Scale(a)) => bench::scale::run(&a),
        Command::Bench(BenchCommand::Constrained(a)) => bench::constrained::run(&a),
    });
    // the --output file is renamed over its target when the command ended well or was
    // interrupted with its best so far; an error leaves none
    let result = match result {
        Ok(()) => out::commit_output(),
        Err(e) => {
            out::discard_output();
            Err(e)
        }
    };
    let sig = FIRST_SIGNAL.load(Ordering::SeqCst);
    let code = if sig != 0 {
        if let Err(e) = &result {
            eprintln!("error: {e}");
        }
        eprintln!(
            "interrupted ({}): what was printed is the best found before it",
            signal_name(sig)
        );
        signal_status(sig)
    } else {
        match result {
            Ok(()) => status,
            Err(e) => {
                eprintln!("error: {e}");
                EXIT_ERROR
            }
        }
    };
    if metaopt::device::builds_in_flight() > 0 {
        if sig != 0 {
            // a signal asked to stop: the process ends now, without the build (`_exit` runs
            // no exit handler, so none tears the compiler down under it)
            let _ = std::io::Write::flush(&mut std::io::stdout());
            // SAFETY: ends the process; nothing of it is used after
            unsafe { libc::_exit(signal_status(sig) as i32) };
        }
        // a build its limit cut: finished before the process ends, so that the driver caches
        // the program for the next run (the library would wait at exit anyway)
        eprintln!(
            "note: finishing the kernel build the run stopped waiting for, so that the next run finds it in the driver's cache (Ctrl-C to skip)"
        );
        metaopt::device::finish_builds();
    }
    ExitCode::from(code)
}

#[cfg(test)]
mod help_tests;

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument of every command, and every command, is described in --help.
    #[test]
    fn every_argument_has_help() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            let path = format!("{path} {}", cmd.get_name());
            if cmd.get_about().is_none() && path.contains(' ') && cmd.get_name() != "help" {
                missing.push(format!("{path}: no description"));
            }
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &path, missing);
            }
        }
        let cmd = Cli::command();
        // clap's own checks (unique names, globals against each command's own) on every
        // command, not the top one alone
        cmd.clone().build();
        let mut missing = Vec::new();
        for sub in cmd.get_subcommands() {
            walk(sub, "metaopt", &mut missing);
        }
        assert!(
            missing.is_empty(),
            "arguments or commands without help:\n{}",
            missing.join("\n")
        );
    }

    /// Every option whose value is a path is a file the command writes (`args::OUTPUT_ARGS`,
    /// checked before the command's work), a folder it creates, or something it reads: a new
    /// path option has to be put in one of these lists.
    #[test]
    fn every_path_option_is_an_output_or_an_input() {
        // what the commands read (files and folders), by argument id
        const INPUTS: [&str; 20] = [
            "instance",
            "source",
            "data",
            "knapsack",
            "cnf",
            "assignments",
            "file",
            "batch",
            "fixture",
            "qaplib",
            "satlib",
            "qap",
            "all_sources",
            "aco_file",
            "files",
            "dir",
            "solution",
            // a checkpoint to continue (qap solve, de), points to start from (de)
            "resume",
            "init",
            // warm starts (sat solve, qiga)
            "start",
        ];
        fn walk(cmd: &clap::Command, path: &str, wrong: &mut Vec<String>, outputs: &mut usize) {
            let path = format!("{path} {}", cmd.get_name());
            for arg in cmd.get_arguments() {
                if arg.get_value_parser().type_id() != std::any::TypeId::of::<std::path::PathBuf>()
                {
                    continue;
                }
                let id = arg.get_id().as_str();
                let folder = arg
                    .get_value_names()
                    .is_some_and(|v| v.iter().any(|n| n == "DIR"));
                if crate::args::is_output_file(arg) {
                    *outputs += 1;
                } else if !(folder || INPUTS.contains(&id)) {
                    wrong.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &path, wrong, outputs);
            }
        }
        let (mut wrong, mut outputs) = (Vec::new(), 0);
        walk(&Cli::command(), "", &mut wrong, &mut outputs);
        assert!(
            wrong.is_empty(),
            "path options neither written nor read:\n{}",
            wrong.join("\n")
        );
        assert!(outputs > 20, "{outputs} output options");
    }

    /// The files a command line will write are found at every level, each once, with the flag
    /// an error names; a folder to create is not among them.
    #[test]
    fn output_paths_are_found_in_the_parsed_command_line() {
        use std::path::PathBuf;
        let paths = |args: &[&str]| {
            let cmd = Cli::command();
            let m = cmd
                .clone()
                .try_get_matches_from([&["metaopt"][..], args].concat())
                .unwrap();
            crate::args::output_paths(&cmd, &m)
        };
        assert_eq!(
            paths(&[
                "-o",
                "r.txt",
                "qiga",
                "--knapsack",
                "k.txt",
                "--csv",
                "q.csv",
                "--plot",
                "q.png",
                "--values",
                "v.csv",
                "--histogram",
                "h.png"
            ]),
            [
                ("--output", PathBuf::from("r.txt")),
                ("--histogram", PathBuf::from("h.png")),
                ("--values", PathBuf::from("v.csv")),
                ("--plot", PathBuf::from("q.png")),
                ("--csv", PathBuf::from("q.csv")),
            ]
        );
        assert_eq!(
            paths(&["awvd", "b.pdb", "--vertices", "-", "--contacts", "c.txt"]),
            [
                ("--vertices", PathBuf::from("-")),
                ("--contacts", PathBuf::from("c.txt")),
            ]
        );
        assert_eq!(
            paths(&["sp", "sssp", "g.gr", "--out", "d.csv"]),
            [("--out", PathBuf::from("d.csv"))]
        );
        assert_eq!(
            paths(&["bench", "qiga", "--csv", "b.csv"]),
            [("--csv", PathBuf::from("b.csv"))]
        );
        // the convergence logs of the subcommands
        assert_eq!(
            paths(&["sat", "solve", "f.cnf", "--plot", "s.png", "--csv", "s.csv"]),
            [
                ("--plot", PathBuf::from("s.png")),
                ("--csv", PathBuf::from("s.csv")),
            ]
        );
        assert_eq!(
            paths(&[
                "sp", "aco", "--grid", "4x4", "--source", "0", "--target", "1", "--csv", "a.csv"
            ]),
            [("--csv", PathBuf::from("a.csv"))]
        );
        assert!(paths(&["experiment", "de-sdis", "--out", "folder"]).is_empty());
        assert!(paths(&["qap", "solve", "x.dat"]).is_empty());
    }

    /// `metaopt --help` names every command with a description, DE and SAT among them.
    #[test]
    fn top_level_help_lists_every_command() {
        let help = Cli::command().render_help().to_string();
        for name in [
            "devices",
            "qap",
            "sat",
            "knapsack",
            "functions",
            "hc12",
            "de",
            "experiment",
            "bench",
        ] {
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{name} missing:\n{help}"));
            assert!(line.split_whitespace().count() > 2, "{line}");
        }
        assert!(
            help.contains("differential evolution") && help.contains("SAT"),
            "{help}"
        );
    }
}
