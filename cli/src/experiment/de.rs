//! `metaopt experiment de-sdis` and `metaopt experiment de-migration`: the two island DE
//! experiments of the thesis's section 6.1 (docs/specs/DE.md), each one command that writes CSV
//! tables and PNG plots into a folder. The computation is `super::de_stats`.

use super::de_stats::{
    self as ex, f_groups, group_history, island_f, thesis_worst_interval, within, Setup,
};
use crate::args::{
    catalogue_function, catalogue_functions, parse_bounds, parse_mutation, seeds, BackendArgs,
    CrArg, DePrecisionArgs, MaxGenerationsArg, Precision, QuietArg,
};
use crate::cmd::de::de_error;
use crate::out::{self, flag_error, stats, CliResult, Failure, Stats};
use crate::plot::{self, Panel, Series};
use clap::Args;
use indicatif::ProgressBar;
use metaopt::de::{Backend, BoundsCorrection, Migration, MigrationKind};
use std::path::PathBuf;
use std::time::Instant;

/// The DE settings both experiments share (the thesis's: Np = 256, CR = 0.7,
/// F = linspace(0.001, 2), DE/rand/1, 10 dimensions).
#[derive(Args)]
#[command(
    mut_arg("max_generations", |a| a.help(format!(
        "Stop after G generations [default: {DEFAULT_GENERATIONS}]"
    ))),
    mut_arg("cr", |a| a
        .default_value("0.7")
        .help("Crossover rate: one value, or one per population")),
)]
pub struct CommonArgs {
    /// Output folder (created if missing)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    // --max-generations: 10,000 by default, the thesis's length (under a minute per experiment on
    // a GPU; see benchmarks/INDEX.md, 2026-11-23-h100-de)
    #[command(flatten)]
    max_generations: MaxGenerationsArg,
    /// Populations Np
    #[arg(long, default_value_t = 256, value_name = "NP")]
    islands: u32,
    /// Members of every population Nm
    #[arg(long, default_value_t = 32, value_name = "NM")]
    members: u32,
    /// Dimensions (CEC04t..CEC10t exist for 2 and 10)
    #[arg(long, default_value_t = 10, value_name = "D")]
    dims: u32,
    /// Mutation strategy
    #[arg(long, default_value = "DE/rand/1", value_name = "NAME")]
    mutation: String,
    /// Smallest F of the linspace over the populations
    #[arg(long = "F-min", visible_alias = "f-min", default_value_t = 0.001, value_name = "F")]
    f_min: f64,
    /// Largest F of the linspace over the populations
    #[arg(long = "F-max", visible_alias = "f-max", default_value_t = 2.0, value_name = "F")]
    f_max: f64,
    #[command(flatten)]
    cr: CrArg,
    /// Seeds S..S+3 [default: the thesis's 123, 345, 457, 581]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Greedy selection: strict (f(trial) < f(target), the thesis's rule, the default of these
    /// reproductions) or ties (<=, the library's general default)
    #[arg(long, default_value = "strict", value_name = "RULE")]
    selection: String,
    /// Populations share the random numbers of equal member indices (the thesis's device
    /// compromise, 5.2)
    #[arg(long)]
    shared_random: bool,
    #[command(flatten)]
    precision: DePrecisionArgs,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    quiet: QuietArg,
}

/// Generations of every experiment run without --max-generations.
const DEFAULT_GENERATIONS: u64 = 10_000;

impl CommonArgs {
    /// The thesis's setup with these flags, for `function` and `bounds`.
    fn generations(&self) -> u64 {
        self.max_generations
            .max_generations
            .unwrap_or(DEFAULT_GENERATIONS)
    }

    fn setup(
        &self,
        function: &str,
        bounds: BoundsCorrection,
        backend: Backend,
        precision: Precision,
    ) -> CliResult<Setup> {
        let mut s = Setup::thesis(function, bounds);
        s.generations = self.generations();
        s.islands = self.islands;
        s.members = self.members;
        s.dims = self.dims;
        s.mutation = parse_mutation(&self.mutation)?;
        s.options.f_min = self.f_min;
        s.options.f_max = self.f_max;
        s.options.cr = self.cr.values()?;
        let seeds = seeds(self.seed);
        (
            s.options.init_seed,
            s.options.mutation_seed,
            s.options.crossover_seed,
            s.options.migration_seed,
        ) = (seeds[0], seeds[1], seeds[2], seeds[3]);
        s.options.selection = self
            .selection
            .parse()
            .map_err(|e| flag_error("--selection", e))?;
        s.options.shared_random = self.shared_random;
        self.precision.set_options(precision, &mut s.options);
        s.backend = backend;
        Ok(s)
    }

    /// The precisions as the summaries print them: `single` or `double`, with the fitness
    /// precision when --fitness-precision names another (`single storage, double fitness`).
    fn precision_text(&self, precision: Precision) -> String {
        match self.precision.fitness.fitness_precision {
            Some(f) if f != precision => format!("{precision} storage, {f} fitness"),
            _ => format!("{precision} precision"),
        }
    }

    /// The selection rule's name as the runs use it (`strict` or `ties`).
    fn selection_name(&self) -> &'static str {
        self.selection
            .parse::<metaopt::de::Selection>()
            .map_or("strict", |s| s.name())
    }

    /// Creates the output folder; the backend and the precision.
    fn prepare(&self) -> CliResult<(Backend, Precision)> {
        std::fs::create_dir_all(&self.out)
            .map_err(|e| Failure(format!("--out: cannot create {}: {e}", self.out.display())))?;
        let backend = self.backend.backend()?;
        Ok((backend, self.precision.resolve(backend, self.quiet.quiet)?))
    }

    /// The progress bar over `runs` runs, counting generations.
    fn bar(&self, runs: u64) -> Option<ProgressBar> {
        self.quiet.progress().then(|| {
            out::count_bar(
                runs * self.generations(),
                "generation {pos}/{len}  {elapsed} (eta {eta})  {msg}",
            )
        })
    }
}

#[derive(Args)]
pub struct DeSdisArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Functions, comma-separated (each on its catalogue domain)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "CEC04t,CEC05t,CEC06t,CEC07t,CEC08t,CEC09t,CEC10t,F7",
        value_name = "NAMES"
    )]
    functions: Vec<String>,
    /// Bound corrections, comma-separated
    #[arg(long, default_value = "sat,mir,tor,HVB,uni,COTN", value_name = "NAMES")]
    bounds: String,
    /// Intervals of F the populations are grouped into
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    groups: u32,
    /// Record the island bests every K generations [default: generations / 100, at least 1]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    record_every: Option<u64>,
}

#[derive(Args)]
pub struct DeMigrationArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Migration periods, comma-separated
    #[arg(long, value_delimiter = ',', default_value = "1,2,5,10,20,50,100", value_name = "K,...")]
    periods: Vec<u32>,
    /// Migration strategies, comma-separated
    #[arg(
        long,
        default_value = "One2One,One2N,N2One,N2N,PermuteN,RandTarget",
        value_name = "NAMES"
    )]
    strategies: String,
    /// Objective
    #[arg(long, default_value = "CEC07t", value_name = "NAME")]
    function: String,
    /// Bound correction
    #[arg(long, default_value = "COTN", value_name = "NAME")]
    bounds: String,
    /// Independent runs of every strategy and period; run r adds 4r to each of the four seeds.
    /// The statistics pool the final island bests of all runs, and the plot marks each run's best
    #[arg(long, default_value_t = 1, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
}

/// A file name part from a function or strategy name.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn num(v: f64) -> String {
    v.to_string()
}

/// Experiment 1 of thesis 6.1.
pub fn de_sdis(a: &DeSdisArgs) -> CliResult {
    let c = &a.common;
    let kinds = parse_bounds(&a.bounds)?;
    let functions_ok: Vec<&str> = catalogue_functions("--functions", &a.functions, c.dims)?
        .iter()
        .map(|i| i.name)
        .collect();
    let (backend, precision) = c.prepare()?;
    let generations = c.generations();
    let record_every = a
        .record_every
        .unwrap_or_else(|| generations.div_ceil(100).max(1));
    let probe = c.setup(functions_ok[0], kinds[0], backend, precision)?;
    let f = island_f(c.islands, &probe.options).map_err(de_error)?;
    let groups = f_groups(&f, a.groups as usize);
    let bar = c.bar((functions_ok.len() * kinds.len()) as u64);
    let mut done = 0u64;
    let t0 = Instant::now();
    let mut rows = Vec::new();
    let mut summary = Vec::new();
    let mut summary_text = String::new();
    let (mut holds, mut judged) = (0, 0);
    for &function in &functions_ok {
        let mut panels = Vec::new();
        for &kind in &kinds {
            if let Some(b) = &bar {
                b.set_message(format!("{function} {kind}"));
            }
            let mut s = c.setup(function, kind, backend, precision)?;
            s.record_every = record_every;
            let r = ex::run_observed(&s, |g| {
                if let Some(b) = &bar {
                    b.set_position(done + g);
                }
            })
            .map_err(de_error)?;
            done += generations;
            let g = group_history(&r.history, &groups);
            for row in &g {
                rows.push(vec![
                    function.to_string(),
                    kind.name().to_string(),
                    row.generation.to_string(),
                    row.group.to_string(),
                    num(row.f_lo),
                    num(row.f_hi),
                    num(row.stats.mean),
                    num(row.stats.q25),
                    num(row.stats.q50),
                    num(row.stats.q75),
                ]);
            }
            // the worst interval at the final generation, and whether the thesis's holds
            let last = r.history.last().map_or(0, |h| h.generation);
            let finals: Vec<&ex::GroupRow> = g.iter().filter(|x| x.generation == last).collect();
            let worst = ex::worst_group(&g).ok_or_else(|| Failure("no records".into()))?;
            let best_mean = finals
                .iter()
                .map(|x| x.stats.mean)
                .fold(f64::INFINITY, f64::min);
            let tie = 0.01 * (worst.stats.mean - best_mean).abs();
            let thesis = thesis_worst_interval(function);
            let (t_lo, t_hi, t_mean, t_rank, verdict) = match thesis {
                Some(iv) => {
                    let t_mean = finals
                        .iter()
                        .filter(|x| within(x.f_lo, x.f_hi, iv))
                        .map(|x| x.stats.mean)
                        .fold(f64::NEG_INFINITY, f64::max);
                    let ok = t_mean.is_finite() && t_mean >= worst.stats.mean - tie;
                    judged += 1;
                    holds += ok as usize;
                    // 1 = the worst group; groups tied with it share its rank
                    let rank = 1 + finals
                        .iter()
                        .filter(|x| x.stats.mean > t_mean + tie)
                        .count();
                    let known = t_mean.is_finite();
                    (
                        num(iv.0),
                        num(iv.1),
                        if known { num(t_mean) } else { String::new() },
                        if known {
                            rank.to_string()
                        } else {
                            String::new()
                        },
                        ok.to_string(),
                    )
                }
                None => (
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ),
            };
            let label = groups[worst.group].label();
            summary_text += &format!(
                "{function:<8} {:<5} worst F {label:<16} mean {:<12.6e} thesis interval {}\n",
                kind.name(),
                worst.stats.mean,
                match thesis {
                    Some(_) if verdict == "true" => "worst or tied: holds".to_string(),
                    Some(_) => format!("rank {t_rank} of {}: does not hold", finals.len()),
                    None => "-".to_string(),
                }
            );
            summary.push(vec![
                function.to_string(),
                kind.name().to_string(),
                last.to_string(),
                worst.group.to_string(),
                num(worst.f_lo),
                num(worst.f_hi),
                num(worst.stats.mean),
                num(best_mean),
                t_lo,
                t_hi,
                t_mean,
                t_rank,
                num(tie),
                verdict,
            ]);
            let mut panel = sdis_panel(function, kind, &g, &groups);
            // one legend per figure: the groups are the same in every panel
            panel.legend = panels.is_empty();
            panels.push(panel);
        }
        let png = c.out.join(format!("de_sdis_{}.png", file_part(function)));
        let title = format!(
            "{function}, D = {}: {} islands x {} members, CR {}, F linspace({}, {}), no migration",
            c.dims, c.islands, c.members, c.cr.cr, c.f_min, c.f_max
        );
        plot::write_png(&png, &title, &panels, 3.min(panels.len()), (620, 440))?;
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let csv_path = c.out.join("de_sdis.csv");
    out::write_csv_file(
        &csv_path,
        "",
        &[
            "function",
            "bounds",
            "generation",
            "group",
            "F_lo",
            "F_hi",
            "mean",
            "q25",
            "q50",
            "q75",
        ],
        &rows,
    )?;
    let sum_path = c.out.join("de_sdis_summary.csv");
    out::write_csv_file(
        &sum_path,
        "",
        &[
            "function",
            "bounds",
            "generation",
            "worst_group",
            "worst_F_lo",
            "worst_F_hi",
            "worst_mean",
            "best_group_mean",
            "thesis_F_lo",
            "thesis_F_hi",
            "thesis_interval_mean",
            "thesis_interval_rank",
            "tie_tolerance",
            "thesis_holds",
        ],
        &summary,
    )?;
    let mut t = summary_text;
    if judged > 0 {
        t += &format!(
            "thesis finding (worst F interval [1.428, 1.828] for CECxxt, [1.224, 1.42] for F7, or tied within 1 % of the spread of group means): holds in {holds} of {judged} runs\n"
        );
    }
    t += &format!(
        "{} runs of {} generations ({}, {} selection{}) in {:.1} s; wrote {}, {} and {} PNG file(s) in {}\n",
        functions_ok.len() * kinds.len(),
        generations,
        c.precision_text(precision),
        c.selection_name(),
        if c.shared_random { ", shared random numbers" } else { "" },
        t0.elapsed().as_secs_f64(),
        csv_path.file_name().unwrap_or_default().to_string_lossy(),
        sum_path.file_name().unwrap_or_default().to_string_lossy(),
        functions_ok.len(),
        c.out.display()
    );
    out::print(&t)
}

fn sdis_panel(
    function: &str,
    kind: BoundsCorrection,
    g: &[ex::GroupRow],
    groups: &[ex::FGroup],
) -> Panel {
    let mut p = Panel::new(
        format!("{function}, {}", kind.name()),
        "generation",
        "island best (mean, 25-75 %)",
    );
    for gr in groups {
        let rows: Vec<&ex::GroupRow> = g.iter().filter(|x| x.group == gr.index).collect();
        p.series.push(
            Series::line(
                format!("F {}", gr.label()),
                rows.iter()
                    .map(|x| (x.generation as f64, x.stats.mean))
                    .collect(),
                plot::sequential(gr.index, groups.len()),
            )
            .with_band(
                rows.iter()
                    .map(|x| (x.generation as f64, x.stats.q25, x.stats.q75))
                    .collect(),
            ),
        );
    }
    p
}

/// Experiment 2 of thesis 6.1.
pub fn de_migration(a: &DeMigrationArgs) -> CliResult {
    let c = &a.common;
    let kinds: Vec<MigrationKind> = a
        .strategies
        .split(',')
        .map(|k| k.parse().map_err(|e| flag_error("--strategies", e)))
        .collect::<CliResult<_>>()?;
    let bounds = parse_bounds(&a.bounds)?;
    if bounds.len() != 1 {
        return Err(Failure(format!(
            "--bounds: {} names; the experiment takes one bound correction",
            bounds.len()
        )));
    }
    if a.periods.is_empty() || a.periods.contains(&0) {
        return Err("--periods: expected positive periods".into());
    }
    let function = catalogue_function("--function", &a.function, c.dims)?.name;
    let (backend, precision) = c.prepare()?;
    let generations = c.generations();
    let with_baseline = !kinds.contains(&MigrationKind::None);
    let bar =
        c.bar((kinds.len() * a.periods.len() + with_baseline as usize) as u64 * a.runs as u64);
    let done = std::cell::Cell::new(0u64);
    let t0 = Instant::now();
    let mut rows = Vec::new();
    let mut run_rows = Vec::new();
    let mut text = String::new();
    // Every run of one strategy and period: the pooled final island bests and each run's best.
    let one = |kind: MigrationKind,
               period: u32,
               rows: &mut Vec<Vec<String>>,
               run_rows: &mut Vec<Vec<String>>|
     -> CliResult<(Stats, Vec<f64>)> {
        let mut pooled = Vec::new();
        let mut run_bests = Vec::new();
        let mut best: Option<(f64, u32, u32, f64)> = None;
        for run in 0..a.runs {
            if let Some(b) = &bar {
                b.set_message(format!("{kind} every {period}, run {}", run + 1));
            }
            let mut s = c.setup(function, bounds[0], backend, precision)?;
            let o = &mut s.options;
            let shift = 4 * run as u64;
            for seed in [
                &mut o.init_seed,
                &mut o.mutation_seed,
                &mut o.crossover_seed,
                &mut o.migration_seed,
            ] {
                *seed = seed.wrapping_add(shift);
            }
            s.migration = Migration::new(kind, period);
            // records for the progress bar; the statistics read only the last
            s.record_every = generations.div_ceil(100).max(1);
            let r = ex::run_observed(&s, |g| {
                if let Some(b) = &bar {
                    b.set_position(done.get() + g);
                }
            })
            .map_err(de_error)?;
            done.set(done.get() + generations);
            let finals = &r
                .history
                .last()
                .ok_or_else(|| Failure("no records".into()))?
                .bests;
            let f = island_f(c.islands, &s.options).map_err(de_error)?;
            let island_mean = finals.iter().sum::<f64>() / finals.len().max(1) as f64;
            run_rows.push(vec![
                kind.name().to_string(),
                period.to_string(),
                run.to_string(),
                s.options.init_seed.to_string(),
                num(r.value),
                r.island.to_string(),
                num(f[r.island as usize]),
                num(island_mean),
            ]);
            pooled.extend_from_slice(finals);
            run_bests.push(r.value);
            if best.is_none_or(|b| r.value < b.0) {
                best = Some((r.value, run, r.island, f[r.island as usize]));
            }
        }
        let st = stats(&pooled);
        let (value, run, island, f) = best.ok_or_else(|| Failure("no runs".into()))?;
        let rb = stats(&run_bests);
        rows.push(vec![
            kind.name().to_string(),
            period.to_string(),
            a.runs.to_string(),
            num(st.mean),
            num(st.q25),
            num(st.q50),
            num(st.q75),
            num(st.min),
            num(st.max),
            num(value),
            run.to_string(),
            island.to_string(),
            num(f),
            num(rb.q50),
            num(rb.max),
        ]);
        Ok((st, run_bests))
    };
    let baseline = if with_baseline {
        Some(one(MigrationKind::None, 0, &mut rows, &mut run_rows)?.0)
    } else {
        None
    };
    if let Some(st) = &baseline {
        text += &format!(
            "{:<10} {:>6}  mean {:<12.6e} q25 {:<12.6e} q75 {:<12.6e} best {:.6e}\n",
            "None", "-", st.mean, st.q25, st.q75, st.min
        );
    }
    let mut panels = Vec::new();
    for &kind in &kinds {
        let mut per = Vec::new();
        for &period in &a.periods {
            let (st, run_bests) = one(kind, period, &mut rows, &mut run_rows)?;
            text += &format!(
                "{:<10} {period:>6}  mean {:<12.6e} q25 {:<12.6e} q75 {:<12.6e} best {:.6e}",
                kind.name(),
                st.mean,
                st.q25,
                st.q75,
                st.min
            );
            if a.runs > 1 {
                let rb: Vec<String> = run_bests.iter().map(|v| format!("{v:.4e}")).collect();
                text += &format!("  runs {}", rb.join(" "));
            }
            text += "\n";
            per.push((period as f64, st, run_bests));
        }
        let mut p = Panel::new(
            format!("{function}, {}", kind.name()),
            "migration period (generations)",
            "final island best",
        );
        p.log_x = true;
        p.series.push(
            Series::line(
                "mean (25-75 % band)",
                per.iter().map(|(x, s, _)| (*x, s.mean)).collect(),
                plot::color(0),
            )
            .with_band(per.iter().map(|(x, s, _)| (*x, s.q25, s.q75)).collect()),
        );
        p.series.push(Series::line(
            "median",
            per.iter().map(|(x, s, _)| (*x, s.q50)).collect(),
            plot::color(2),
        ));
        p.series.push(Series::line(
            "best island",
            per.iter().map(|(x, s, _)| (*x, s.min)).collect(),
            plot::color(3),
        ));
        if a.runs > 1 {
            let dots = per
                .iter()
                .flat_map(|(x, _, rb)| rb.iter().map(move |v| (*x, *v)))
                .collect();
            p.series
                .push(Series::dots("best of each run", dots, plot::color(1)));
        }
        if let Some(b) = &baseline {
            let (lo, hi) = (
                a.periods.iter().min().copied().unwrap_or(1) as f64,
                a.periods.iter().max().copied().unwrap_or(1) as f64,
            );
            let mut s = Series::line(
                "no migration (mean)",
                vec![(lo, b.mean), (hi, b.mean)],
                plot::color(7),
            );
            s.width = 1;
            p.series.push(s);
        }
        panels.push(p);
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let csv_path = c.out.join("de_migration.csv");
    out::write_csv_file(
        &csv_path,
        "",
        &[
            "strategy",
            "period",
            "runs",
            "mean",
            "q25",
            "q50",
            "q75",
            "min",
            "max",
            "best",
            "best_run",
            "best_island",
            "best_F",
            "run_best_median",
            "run_best_max",
        ],
        &rows,
    )?;
    let runs_path = c.out.join("de_migration_runs.csv");
    out::write_csv_file(
        &runs_path,
        "",
        &[
            "strategy",
            "period",
            "run",
            "init_seed",
            "best",
            "best_island",
            "best_F",
            "island_best_mean",
        ],
        &run_rows,
    )?;
    let png = c.out.join("de_migration.png");
    let title = format!(
        "{function}, D = {}, {}: {} islands x {} members, CR {}, F linspace({}, {}), {} generations, {} run{}",
        c.dims,
        bounds[0],
        c.islands,
        c.members,
        c.cr.cr,
        c.f_min,
        c.f_max,
        generations,
        a.runs,
        if a.runs == 1 { "" } else { "s" }
    );
    plot::write_png(
        &png,
        &title,
        &panels,
        3.min(panels.len().max(1)),
        (620, 440),
    )?;
    text +=
        &format!(
        "{} runs of {} generations ({}, {} selection{}) in {:.1} s; wrote {}, {} and {} in {}\n",
        run_rows.len(),
        generations,
        c.precision_text(precision),
        c.selection_name(),
        if c.shared_random { ", shared random numbers" } else { "" },
        t0.elapsed().as_secs_f64(),
        csv_path.file_name().unwrap_or_default().to_string_lossy(),
        runs_path.file_name().unwrap_or_default().to_string_lossy(),
        png.file_name().unwrap_or_default().to_string_lossy(),
        c.out.display()
    );
    out::print(&text)
}
