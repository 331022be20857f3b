//! Tests that keep the help and the README's command table in step with the commands: every
//! command's help lists its subcommands, `bench`'s description names every benchmark, the
//! README's table has a row for every command, and the defaults the help states in words are the
//! ones the code applies.

use super::Cli;
use clap::CommandFactory;

/// The subcommands of `cmd` a user can call (clap's generated `help` left out).
fn subcommands(cmd: &clap::Command) -> Vec<&clap::Command> {
    cmd.get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
        .collect()
}

/// The command at `path` below `metaopt` (e.g. `["sat", "solve"]`).
fn command(path: &[&str]) -> clap::Command {
    let mut cmd = Cli::command();
    cmd.build();
    for name in path {
        cmd = cmd
            .find_subcommand(name)
            .unwrap_or_else(|| panic!("no command {path:?}"))
            .clone();
    }
    cmd
}

/// The words of `text`: runs of letters, digits and `-`, as command names are spelled.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The subcommands of `cmd` that `text` does not name as a word.
fn unnamed<'a>(cmd: &'a clap::Command, text: &str) -> Vec<&'a str> {
    let named = words(text);
    subcommands(cmd)
        .into_iter()
        .map(|s| s.get_name())
        .filter(|n| !named.contains(n))
        .collect()
}

/// `metaopt --help`, `metaopt CMD --help` and so on down: each lists every subcommand of its
/// command, on a line with its description.
#[test]
fn every_help_lists_its_subcommands() {
    fn walk(cmd: &mut clap::Command, path: &str, missing: &mut Vec<String>) {
        let help = cmd.render_help().to_string();
        for sub in subcommands(cmd) {
            let name = sub.get_name();
            let listed = help.lines().any(|l| {
                let mut w = l.split_whitespace();
                w.next() == Some(name) && w.next().is_some()
            });
            if !listed {
                missing.push(format!("{path} --help does not list {name}"));
            }
        }
        let names: Vec<String> = subcommands(cmd)
            .iter()
            .map(|s| s.get_name().to_string())
            .collect();
        for name in names {
            let sub = cmd.find_subcommand_mut(&name).expect("listed above");
            walk(sub, &format!("{path} {name}"), missing);
        }
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut missing = Vec::new();
    walk(&mut cmd, "metaopt", &mut missing);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// `metaopt bench`'s description (in `metaopt --help` and `metaopt bench --help`) names every
/// benchmark.
#[test]
fn bench_help_names_every_benchmark() {
    let bench = command(&["bench"]);
    let about = bench
        .get_about()
        .expect("bench has a description")
        .to_string();
    let long = bench
        .get_long_about()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let text = format!("{about}\n{long}");
    let missing = unnamed(&bench, &text);
    assert!(
        missing.is_empty(),
        "bench's description leaves out {missing:?}:\n{text}"
    );
    let top = Cli::command().render_help().to_string();
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("bench "))
        .expect("metaopt --help lists bench");
    assert!(line.contains(about.as_str()), "{line}");
}

/// The rows of the README's table of commands (the one headed `| command | what |`).
fn readme_command_rows() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md beside the cli crate");
    let mut lines = readme
        .lines()
        .skip_while(|l| l.trim() != "| command | what |");
    assert!(
        lines.next().is_some(),
        "README.md has no `| command | what |` table"
    );
    lines
        .skip(1) // |---|---|
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect()
}

/// The README's command table has a row for every command of `metaopt`, and its `bench` row
/// names every benchmark.
#[test]
fn readme_command_table_lists_every_command() {
    let rows = readme_command_rows();
    let first_cells: Vec<String> = rows
        .iter()
        .map(|r| r.split(" | ").next().unwrap_or("").to_string())
        .collect();
    let cli = Cli::command();
    let missing: Vec<&str> = subcommands(&cli)
        .iter()
        .map(|s| s.get_name())
        .filter(|n| {
            !first_cells.iter().any(|c| {
                let c = c.trim_start_matches('|').trim().trim_start_matches('`');
                c == *n || c.starts_with(&format!("{n} ")) || c.starts_with(&format!("{n}`"))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's command table has no row for {missing:?}"
    );
    let bench_row = first_cells
        .iter()
        .find(|c| c.trim_start_matches('|').trim().starts_with("`bench "))
        .expect("a bench row");
    let bench = command(&["bench"]);
    let missing = unnamed(&bench, bench_row);
    assert!(
        missing.is_empty(),
        "README.md's bench row leaves out {missing:?}: {bench_row}"
    );
}

/// The help text of the argument `id` of the command at `path`.
fn arg_help(path: &[&str], id: &str) -> String {
    let cmd = command(path);
    let arg = cmd
        .get_arguments()
        .find(|a| a.get_id().as_str() == id)
        .unwrap_or_else(|| panic!("{path:?} has no argument {id}"));
    arg.get_long_help()
        .or(arg.get_help())
        .map(|s| s.to_string())
        .unwrap_or_default()
}

/// Asserts that the help of `id` in `path` contains `expected`.
fn says(path: &[&str], id: &str, expected: &str) {
    let help = arg_help(path, id);
    assert!(
        help.contains(expected),
        "{path:?} --{id}: the help does not say {expected:?}: {help}"
    );
}

/// Where a flag's default is applied in code (the flag is optional and absent means the
/// library's or the command's default), the help states it in words; these are those words
/// checked against the values the code uses.
#[test]
fn defaults_stated_in_words_match_the_code() {
    use metaopt::sat_sls::{BreakFunction, SlsOptions};
    let sls = SlsOptions::default();
    let sat = ["sat", "solve"];
    if let BreakFunction::Polynomial { eps, .. } = BreakFunction::for_clause_length(3) {
        says(&sat, "eps", &format!("[default: {eps}]"));
    } else {
        panic!("3-SAT's break function is the polynomial one");
    }
    says(&sat, "noise", &format!("[default: {}]", sls.noise));
    says(
        &sat,
        "flips_per_launch",
        &format!("[default: {}]", sls.flips_per_launch),
    );
    says(
        &["bench", "sat-large"],
        "flips_per_launch",
        &format!("[default: {}]", sls.flips_per_launch),
    );
    let hc12 = metaopt::hc12::sat::SatOptions::default();
    let tabu = hc12.tabu.as_ref().expect("the default has a tabu list");
    says(&sat, "tabu", &format!("[default: {}]", tabu.max_length));
    says(
        &sat,
        "no_improve",
        &format!("[default: {}]", tabu.max_no_improve),
    );
    says(
        &sat,
        "mask_order",
        &format!("[default: {}]", hc12.mask_order),
    );
    says(&sat, "tenure", &format!("[default: {}]", hc12.tenure));
    says(
        &sat,
        "time_limit",
        &format!(
            "[default: {} unless",
            crate::cmd::sat::DEFAULT_TIME_LIMIT.as_secs()
        ),
    );

    use metaopt::qap_ts::{elite_size_for, QapTsOptions};
    let ts = QapTsOptions::default();
    let qap = ["qap", "solve"];
    // chains 0: the library's count per backend, which the help states in words
    assert_eq!(ts.chains, 0);
    says(
        &qap,
        "chains",
        "4 per compute unit on a GPU, one per compute unit on another device, one per thread on \
         the CPU backend]",
    );
    says(
        &qap,
        "launch_iterations",
        &format!("[default: {}]", ts.launch_iterations),
    );
    says(
        &qap,
        "elite",
        &format!(
            "[default: {} with 256 chains or more, else {}]",
            elite_size_for(256),
            elite_size_for(255)
        ),
    );
    says(
        &qap,
        "swaps",
        &format!("[default: {}]", crate::cmd::qap::DEFAULT_SWAPS),
    );

    let aco = metaopt::aco::AcoOptions::default();
    for path in [&["sp", "aco"][..], &["bench", "sp"][..]] {
        says(path, "ants", &format!("[default: {}]", aco.ants));
        says(path, "alpha", &format!("[default: {}]", aco.alpha));
        says(path, "beta", &format!("[default: {}]", aco.beta));
        says(path, "damping", &format!("[default: {}]", aco.damping));
        says(
            path,
            "evaporation",
            &format!("[default: {}]", aco.evaporation),
        );
        says(
            path,
            "deposit_exponent",
            &format!("[default: {}]", aco.deposit_exponent),
        );
        let max_min = aco.max_min.expect("MAX-MIN bounds by default");
        says(path, "max_min", &format!("[default: {max_min}]"));
        let n = aco.stop.budget.expect("an iteration budget by default");
        says(path, "iterations", &format!("[default: {n}]"));
    }
}
