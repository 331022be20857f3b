//! Thesis 6.2 and 6.3, the two QAP figures: Fig. 19 (`experiment qap-load`: the device stays
//! busy as the number of swaps, and so of rows, grows from 15 to 60 on tho150) and Fig. 20
//! (`experiment qap-swaps`: the fitness HC12 reaches on had20 against the number of swaps).
//! Each writes a CSV and a PNG into `--out` (docs/specs/QAP.md, "Figures 19 and 20").

use super::table4::{hc12_series, wilson, Z95};
use crate::args::{BackendArgs, DeviceArg, SeedArg, TimedCallsArgs};
use crate::out::stats;
use crate::out::{self, CliResult, Failure};
use crate::out::{default_file, timed};
use crate::plot::{self, Panel, Series};
use clap::{Args, ValueEnum};
use metaopt::hc12::qap::{Backend, CostForm, QapHc12};
use metaopt::problem::qap::{find_bks, QapInstance, QapProblem};
use metaopt::rng::Philox;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

fn num(v: f64) -> String {
    v.to_string()
}

fn create_out(out: &Path) -> CliResult {
    std::fs::create_dir_all(out)
        .map_err(|e| Failure(format!("--out: cannot create {}: {e}", out.display())))
}

/// The swap counts: given, distinct, each 1..64 checked by the solver.
fn swap_list(swaps: &[u32]) -> CliResult<Vec<u32>> {
    let mut v: Vec<u32> = Vec::new();
    for &s in swaps {
        if !v.contains(&s) {
            v.push(s);
        }
    }
    if v.is_empty() {
        return Err("--swaps: none given".into());
    }
    Ok(v)
}

// ---- Fig. 19 ---------------------------------------------------------------------------------

/// The swap counts of the thesis's figure.
const SWAPS: &str = "15,20,25,30,35,40,45,50,55,60";

/// The kernel forms `--forms` times by default: both.
const FORMS: &str = "full,delta";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Form {
    /// The thesis's kernel: the whole O(n^2) cost per row
    Full,
    /// The O(n) update per changed position
    Delta,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Full => "full",
            Form::Delta => "delta",
        }
    }
}

/// Seconds of timed calls per point when neither --iterations nor --seconds is given.
const LOAD_DEFAULT_SECONDS: f64 = 2.0;

#[derive(Args)]
#[command(
    mut_arg("iterations", |a| a.help(TimedCallsArgs::iterations_help("per point", "one warm-up call"))),
    mut_arg("seconds", |a| a.help(TimedCallsArgs::seconds_help("per point", LOAD_DEFAULT_SECONDS))),
)]
pub struct QapLoadArgs {
    /// Output folder (created if missing): qap_load.csv and qap_load.png
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// QAPLIB instance [default: data/qaplib/tho150.dat, the thesis's]
    #[arg(long, value_name = "PATH")]
    instance: Option<PathBuf>,
    /// Swap counts, comma-separated (the thesis: 15 to 60, 28,921 to 461,281 rows on tho150)
    #[arg(long, value_delimiter = ',', default_value = SWAPS, value_name = "N,...")]
    swaps: Vec<u32>,
    /// Kernel forms, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = FORMS, value_name = "FORMS")]
    forms: Vec<Form>,
    /// Mask order of HC12 (1 to 3)
    #[arg(long, default_value_t = 2, value_name = "ORDER")]
    mask_order: u32,
    #[command(flatten)]
    timed: TimedCallsArgs,
    /// Seed of the random permutation and swap string the neighbourhood is taken around
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    #[command(flatten)]
    device: DeviceArg,
}

/// A point of a Fig. 19 curve: swaps, kernel share [%], rows per second by the wall clock and
/// in the kernels.
type LoadPoint = (f64, f64, f64, f64);

/// Fig. 19: per kernel form and swap count, the rows per second of the neighbourhood search and
/// the share of the wall time the device spends in its kernels.
pub fn qap_load(a: &QapLoadArgs) -> CliResult {
    let path = default_file(
        &a.instance,
        "data/qaplib/tho150.dat",
        "instance",
        "--instance PATH",
    )?;
    let inst = QapInstance::from_dat(&path)?;
    a.device.select()?;
    let swaps = swap_list(&a.swaps)?;
    let mut forms: Vec<Form> = Vec::new();
    for &f in &a.forms {
        if !forms.contains(&f) {
            forms.push(f);
        }
    }
    if forms.is_empty() {
        return Err("--forms: none given".into());
    }
    let (iterations, seconds) = a.timed.limits(LOAD_DEFAULT_SECONDS);
    create_out(&a.out)?;
    let problem = Arc::new(QapProblem::from_instance(&inst));
    let t0 = Instant::now();
    let mut rows_out: Vec<Vec<String>> = Vec::new();
    let mut curves: Vec<(Form, Vec<LoadPoint>)> = Vec::new();
    let mut text = String::new();
    for &form in &forms {
        let cf = if form == Form::Full {
            CostForm::Full
        } else {
            CostForm::Delta
        };
        let mut curve = Vec::new();
        for &s in &swaps {
            let mut ev = QapHc12::new(problem.clone(), s, a.mask_order, 0, 0, Backend::DEVICE, cf)
                .map_err(|e| {
                    out::renamed(e, &[("swaps", "--swaps"), ("maskOrder", "--mask-order")])
                })?;
            let nb = *ev.neighbourhood();
            let mut rng = Philox::new(a.seed, s);
            let base = rng.permutation(inst.n);
            let k: Vec<u32> = (0..nb.n_param)
                .map(|_| rng.next_u32() & ((1u64 << nb.nbit) - 1) as u32)
                .collect();
            let st = ev.state(&base, &k)?;
            let rows = ev.rows();
            // the warm-up call's kernel time is dropped with the call itself
            let mut best = None;
            let (calls, wall) = timed(iterations, seconds, |i| {
                let r = ev.best_row(&st)?;
                if i == 0 {
                    best = Some(r);
                    ev.take_kernel_ns();
                }
                Ok(())
            })?;
            let kernel = ev.take_kernel_ns().unwrap_or(0) as f64 * 1e-9;
            let device = ev.describe();
            let done = rows as f64 * calls as f64;
            let share = 100.0 * kernel / wall;
            let (rps, krps) = (
                done / wall,
                if kernel > 0.0 {
                    done / kernel
                } else {
                    f64::NAN
                },
            );
            let (cost, row) = best.expect("the warm-up call ran");
            text += &format!(
                "{:<5} {s:>2} swaps {:>8} rows: {:>10} rows/s, {:>6.2} ms per call, kernels {share:5.1} % of the time ({calls} calls in {wall:.3} s)\n",
                form.name(),
                rows,
                out::rate(rps),
                1e3 * wall / calls as f64,
            );
            rows_out.push(vec![
                inst.name.clone(),
                inst.n.to_string(),
                form.name().to_string(),
                s.to_string(),
                rows.to_string(),
                calls.to_string(),
                format!("{wall:.9}"),
                format!("{kernel:.9}"),
                format!("{share:.3}"),
                format!("{:.3}", 1e6 * wall / calls as f64),
                format!("{rps:.0}"),
                format!("{krps:.0}"),
                row.to_string(),
                cost.to_string(),
                device,
            ]);
            curve.push((s as f64, share, rps, krps));
        }
        curves.push((form, curve));
    }
    let csv_path = a.out.join("qap_load.csv");
    out::write_csv_file(
        &csv_path,
        "",
        &[
            "instance",
            "n",
            "form",
            "swaps",
            "rows",
            "calls",
            "wall_s",
            "kernel_s",
            "kernel_share_percent",
            "us_per_call",
            "rows_per_s",
            "kernel_rows_per_s",
            "best_row",
            "best_cost",
            "device",
        ],
        &rows_out,
    )?;
    let mut share = Panel::new(
        "device busy: kernel time / wall time",
        "swaps",
        "kernel share of the wall time [%]",
    );
    share.log_y = false;
    let mut rate = Panel::new(
        "throughput (lines: wall clock, dots: kernel time)",
        "swaps",
        "rows per second",
    );
    rate.legend = false;
    for (i, (form, c)) in curves.iter().enumerate() {
        share.series.push(Series::line(
            format!("{} kernel", form.name()),
            c.iter().map(|p| (p.0, p.1)).collect(),
            plot::color(i),
        ));
        rate.series.push(Series::line(
            format!("{} kernel", form.name()),
            c.iter().map(|p| (p.0, p.2)).collect(),
            plot::color(i),
        ));
        let mut k = Series::line(
            format!("{} kernel, in-kernel rate", form.name()),
            c.iter().map(|p| (p.0, p.3)).collect(),
            plot::color(i),
        );
        k.width = 1;
        k.dots = true;
        rate.series.push(k);
    }
    let png = a.out.join("qap_load.png");
    let title = format!(
        "Fig. 19: HC12 qapswap2 on {} (n = {}), mask order {}",
        inst.name, inst.n, a.mask_order
    );
    plot::write_png(&png, &title, &[share, rate], 2, (620, 440))?;
    text += &format!(
        "{} points in {:.1} s; wrote {} and {} in {}\n",
        rows_out.len(),
        t0.elapsed().as_secs_f64(),
        csv_path.file_name().unwrap_or_default().to_string_lossy(),
        png.file_name().unwrap_or_default().to_string_lossy(),
        a.out.display()
    );
    out::print(&text)
}

// ---- Fig. 20 ---------------------------------------------------------------------------------

#[derive(Args)]
pub struct QapSwapsArgs {
    /// Output folder (created if missing): qap_swaps.csv, qap_swaps_runs.csv and qap_swaps.png
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// QAPLIB instance with a best-known value in the BKS.csv beside it [default:
    /// data/qaplib/had20.dat, the thesis's]
    #[arg(long, value_name = "PATH")]
    instance: Option<PathBuf>,
    /// Swap counts, comma-separated
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64",
        value_name = "N,..."
    )]
    swaps: Vec<u32>,
    /// Independent HC12 runs per swap count, each from a random permutation and swap string
    #[arg(long, default_value_t = 500, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    backend: BackendArgs,
}

/// Fig. 20: per swap count, the distribution of the final costs of independent plain HC12 runs
/// and the share that reached the optimum.
pub fn qap_swaps(a: &QapSwapsArgs) -> CliResult {
    let path = default_file(
        &a.instance,
        "data/qaplib/had20.dat",
        "instance",
        "--instance PATH",
    )?;
    let inst = QapInstance::from_dat(&path)?;
    let optimum = find_bks(&path)?
        .ok_or_else(|| {
            Failure(format!(
                "--instance: no best-known value for {} in BKS.csv beside {}",
                inst.name,
                path.display()
            ))
        })?
        .bks;
    let backend = a.backend.backend()?;
    let swaps = swap_list(&a.swaps)?;
    create_out(&a.out)?;
    let t0 = Instant::now();
    let (mut rows_out, mut run_rows) = (Vec::new(), Vec::new());
    let mut points = Vec::new();
    let mut text = String::new();
    for &s in &swaps {
        let r = hc12_series(
            &inst,
            optimum,
            s,
            a.runs,
            a.seed.seed,
            None,
            backend,
            |_| {},
        )
        .map_err(|e| out::renamed(e, &[("swaps", "--swaps")]))?;
        let st = stats(&r.costs);
        let (lo, hi) = wilson(r.successes, a.runs, Z95);
        let ratio = 100.0 * r.successes as f64 / a.runs as f64;
        let gap = 100.0 * (st.mean - optimum as f64) / optimum as f64;
        let iters = r.iterations.iter().map(|&i| i as f64).sum::<f64>() / a.runs as f64;
        text += &format!(
            "{s:>2} swaps {:>7} rows: mean {:.1} (gap {gap:.2} %), best {}, optimum in {}/{} runs ({ratio:.1} %, 95 % {:.1} to {:.1} %), {:.4} s per run\n",
            r.rows,
            st.mean,
            st.min,
            r.successes,
            a.runs,
            100.0 * lo,
            100.0 * hi,
            r.seconds / a.runs as f64
        );
        rows_out.push(vec![
            inst.name.clone(),
            inst.n.to_string(),
            s.to_string(),
            r.rows.to_string(),
            a.runs.to_string(),
            num(st.mean),
            num(st.min),
            num(st.q25),
            num(st.q50),
            num(st.q75),
            num(st.max),
            format!("{gap:.4}"),
            r.successes.to_string(),
            format!("{ratio:.3}"),
            format!("{:.3}", 100.0 * lo),
            format!("{:.3}", 100.0 * hi),
            format!("{iters:.2}"),
            format!("{:.6}", r.seconds / a.runs as f64),
            r.first.map(|t| format!("{t:.6}")).unwrap_or_default(),
            optimum.to_string(),
            r.device.clone(),
        ]);
        for (i, (c, it)) in r.costs.iter().zip(&r.iterations).enumerate() {
            run_rows.push(vec![s.to_string(), i.to_string(), num(*c), it.to_string()]);
        }
        points.push((s as f64, st, ratio, 100.0 * lo, 100.0 * hi));
    }
    let csv_path = a.out.join("qap_swaps.csv");
    out::write_csv_file(
        &csv_path,
        "",
        &[
            "instance",
            "n",
            "swaps",
            "rows",
            "runs",
            "mean",
            "best",
            "q25",
            "median",
            "q75",
            "worst",
            "mean_gap_percent",
            "successes",
            "success_percent",
            "wilson95_low_percent",
            "wilson95_high_percent",
            "mean_iterations",
            "mean_run_s",
            "time_to_optimum_s",
            "optimum",
            "device",
        ],
        &rows_out,
    )?;
    let runs_path = a.out.join("qap_swaps_runs.csv");
    out::write_csv_file(
        &runs_path,
        "",
        &["swaps", "run", "cost", "iterations"],
        &run_rows,
    )?;
    let mut fit = Panel::new(
        format!("{}: final cost of {} runs", inst.name, a.runs),
        "swaps",
        "cost (fitness)",
    );
    fit.log_y = false;
    fit.series.push(
        Series::line(
            "mean (25-75 % band)",
            points.iter().map(|p| (p.0, p.1.mean)).collect(),
            plot::color(0),
        )
        .with_band(points.iter().map(|p| (p.0, p.1.q25, p.1.q75)).collect()),
    );
    fit.series.push(Series::line(
        "best run",
        points.iter().map(|p| (p.0, p.1.min)).collect(),
        plot::color(2),
    ));
    fit.series.push(Series::line(
        "worst run",
        points.iter().map(|p| (p.0, p.1.max)).collect(),
        plot::color(3),
    ));
    let (x0, x1) = (
        points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min),
        points.iter().map(|p| p.0).fold(0.0, f64::max),
    );
    let mut opt = Series::line(
        "optimum",
        vec![(x0, optimum as f64), (x1, optimum as f64)],
        plot::color(7),
    );
    opt.width = 1;
    fit.series.push(opt);
    let mut succ = Panel::new("runs that reached the optimum", "swaps", "success [%]");
    succ.log_y = false;
    succ.series.push(
        Series::line(
            "success (Wilson 95 % band)",
            points.iter().map(|p| (p.0, p.2)).collect(),
            plot::color(1),
        )
        .with_band(points.iter().map(|p| (p.0, p.3, p.4)).collect()),
    );
    let png = a.out.join("qap_swaps.png");
    let title = format!(
        "Fig. 20: HC12 on QAPLIB {} (n = {}): fitness against the number of swaps",
        inst.name, inst.n
    );
    plot::write_png(&png, &title, &[fit, succ], 2, (620, 440))?;
    text += &format!(
        "{} runs in {:.1} s; wrote {}, {} and {} in {}\n",
        run_rows.len(),
        t0.elapsed().as_secs_f64(),
        csv_path.file_name().unwrap_or_default().to_string_lossy(),
        runs_path.file_name().unwrap_or_default().to_string_lossy(),
        png.file_name().unwrap_or_default().to_string_lossy(),
        a.out.display()
    );
    out::print(&text)
}
