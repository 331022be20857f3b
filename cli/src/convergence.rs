//! `--csv FILE` and `--plot FILE` of an iterative solver: its convergence, one row per progress
//! report (seconds since the command started, the solver's own count of work, the best value so
//! far, and any measures of the solver's own a command adds as named columns), written whole
//! when the run ends, interrupted or not.

use crate::out::{self, CliResult};
use crate::plot::{self, Panel, Series};
use clap::Args;
use std::path::PathBuf;
use std::sync::Mutex;

/// The convergence-log flags an iterative command flattens in.
#[derive(Args, Clone, Debug, Default)]
pub struct ConvergenceArgs {
    /// Write the convergence log to FILE (CSV: seconds, the work done, the best value so far,
    /// and the solver's own measures), a row per progress report
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw the best value so far against time into FILE (PNG)
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// Whether the logged best is minimised (the default) or maximised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sense {
    #[default]
    Min,
    Max,
}

/// One progress report: seconds, work, best, the extra columns.
type Row = (f64, u64, f64, Vec<f64>);

/// The rows of one run's log (shared with the progress callback by reference).
pub struct Convergence {
    work: &'static str,
    extra: &'static [&'static str],
    sense: Sense,
    /// The plot's y label (`None`: "best value so far").
    label: Option<&'static str>,
    rows: Mutex<Vec<Row>>,
}

impl ConvergenceArgs {
    /// Checks `--plot` before the run (the paths are checked for writability by `main`).
    pub fn check(&self) -> CliResult {
        match &self.plot {
            Some(p) => plot::check_png_path("--plot", p),
            None => Ok(()),
        }
    }

    /// A log whose work column is named `work` ("iterations", "runs", "flips"), or none when no
    /// file was asked for.
    pub fn log(&self, work: &'static str) -> Option<Convergence> {
        (self.csv.is_some() || self.plot.is_some()).then(|| Convergence {
            work,
            extra: &[],
            sense: Sense::Min,
            label: None,
            rows: Mutex::new(Vec::new()),
        })
    }

    /// Writes the files asked for from `log` (each atomically); `title` heads the plot.
    pub fn write(&self, log: Option<&Convergence>, title: &str) -> CliResult {
        let Some(log) = log else { return Ok(()) };
        let rows = log.rows.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(path) = &self.csv {
            let header: Vec<&str> = ["seconds", log.work, "best"]
                .into_iter()
                .chain(log.extra.iter().copied())
                .collect();
            out::write_csv_file(
                path,
                "--csv: ",
                &header,
                rows.iter().map(|(s, w, b, x)| {
                    let mut r = vec![out::float(*s), w.to_string(), out::float(*b)];
                    // a row recorded without the extra columns leaves them empty
                    r.extend(
                        (0..log.extra.len())
                            .map(|i| x.get(i).map_or(String::new(), |v| out::float(*v))),
                    );
                    r
                }),
            )?;
        }
        if let Some(path) = &self.plot {
            let label = match (log.label, log.sense) {
                (Some(l), _) => l,
                (None, Sense::Min) => "best value so far",
                (None, Sense::Max) => "best value so far (maximised)",
            };
            let mut p = Panel::new(title, "seconds", label);
            // a maximised value climbs toward its best: a log axis would squeeze that end
            p.log_y = log.sense == Sense::Min && rows.iter().all(|r| r.2 > 0.0);
            p.legend = false;
            p.series.push(Series::line(
                "best",
                rows.iter().map(|r| (r.0, r.2)).collect(),
                plot::color(0),
            ));
            plot::write_png(path, title, &[p], 1, (800, 500))?;
        }
        Ok(())
    }
}

impl Convergence {
    /// The log with columns `names` after `best`, filled by [`record_with`](Self::record_with).
    pub fn columns(mut self, names: &'static [&'static str]) -> Self {
        self.extra = names;
        self
    }

    /// Whether the best is minimised or maximised (the plot's axis and label).
    pub fn sense(mut self, sense: Sense) -> Self {
        self.sense = sense;
        self
    }

    /// The plot's y label, what the best is ("fewest unsatisfied clauses").
    pub fn label(mut self, label: &'static str) -> Self {
        self.label = Some(label);
        self
    }

    /// Records a progress report: seconds since the command started, work done, best so far.
    /// A report without a best yet (not finite) is not recorded.
    pub fn record(&self, work: u64, best: f64) {
        self.record_with(work, best, &[]);
    }

    /// [`record`](Self::record) with the values of the extra [`columns`](Self::columns).
    pub fn record_with(&self, work: u64, best: f64, extra: &[f64]) {
        if !best.is_finite() {
            return;
        }
        let s = crate::started().elapsed().as_secs_f64();
        self.rows
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((s, work, best, extra.to_vec()));
    }
}
