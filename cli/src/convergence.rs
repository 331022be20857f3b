//! `--csv FILE` and `--plot FILE` of an iterative solver: its convergence, one row per progress
//! report (seconds since the command started, the solver's own count of work, the best value so
//! far), written whole when the run ends, interrupted or not.

use crate::out::{self, CliResult};
use crate::plot::{self, Panel, Series};
use clap::Args;
use std::path::PathBuf;
use std::sync::Mutex;

/// The convergence-log flags an iterative command flattens in.
#[derive(Args, Clone, Debug, Default)]
pub struct ConvergenceArgs {
    /// Write the convergence log to FILE (CSV: seconds, the work done, the best value so far),
    /// a row per progress report
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw the best value so far against time into FILE (PNG)
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// The rows of one run's log (shared with the progress callback by reference).
pub struct Convergence {
    work: &'static str,
    rows: Mutex<Vec<(f64, u64, f64)>>,
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
            rows: Mutex::new(Vec::new()),
        })
    }

    /// Writes the files asked for from `log` (each atomically); `title` heads the plot.
    pub fn write(&self, log: Option<&Convergence>, title: &str) -> CliResult {
        let Some(log) = log else { return Ok(()) };
        let rows = log.rows.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(path) = &self.csv {
            out::write_csv_file(
                path,
                "--csv: ",
                &["seconds", log.work, "best"],
                rows.iter()
                    .map(|(s, w, b)| [out::float(*s), w.to_string(), out::float(*b)]),
            )?;
        }
        if let Some(path) = &self.plot {
            let mut p = Panel::new(title, "seconds", "best value so far");
            p.log_y = rows.iter().all(|r| r.2 > 0.0);
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
    /// Records a progress report: seconds since the command started, work done, best so far.
    pub fn record(&self, work: u64, best: f64) {
        let s = crate::started().elapsed().as_secs_f64();
        self.rows
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((s, work, best));
    }
}
