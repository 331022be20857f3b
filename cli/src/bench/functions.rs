//! `metaopt bench functions`: the accuracy table of the thesis's Table 6.

use crate::args::BenchIoArgs;
use crate::experiment::accuracy::{accuracy, accuracy_host, AccuracyStats, THESIS_CUDA_ACCURACY};
use crate::out::{self, csv_error, CliResult};
use clap::Args;
use metaopt::problem::functions::{default_fixture_path, ReferenceFixture};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args)]
pub struct BenchFunctionsArgs {
    /// The mpmath reference fixture [default: tests/fixtures of the source tree]
    #[arg(long, value_name = "PATH")]
    fixture: Option<PathBuf>,
    /// Functions (comma-separated) [default: all in the fixture]
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    functions: Vec<String>,
    #[command(flatten)]
    io: BenchIoArgs,
}

#[derive(Serialize)]
struct AccuracyRow {
    function: String,
    implementation: &'static str,
    points: usize,
    max_abs: f64,
    mean_abs: f64,
    std_abs: f64,
}

/// `metaopt bench functions`: max, mean and standard deviation of the absolute error against
/// 50-digit mpmath values for device double, device float and the host f64 code, beside the
/// thesis's CUDA column.
pub fn run(a: &BenchFunctionsArgs) -> CliResult {
    a.io.device.select()?;
    let path = a.fixture.clone().unwrap_or_else(default_fixture_path);
    let fx = ReferenceFixture::load(&path)?;
    let names: Vec<String> = if a.functions.is_empty() {
        fx.functions.iter().map(|f| f.0.clone()).collect()
    } else {
        a.functions.clone()
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let row = |w: &mut csv::Writer<Vec<u8>>, function: &str, implementation, st: AccuracyStats| {
        w.serialize(AccuracyRow {
            function: function.to_string(),
            implementation,
            points: st.count,
            max_abs: st.max_abs,
            mean_abs: st.mean_abs,
            std_abs: st.std_abs,
        })
        .map_err(csv_error)
    };
    eprintln!(
        "{:<8} {:>27} {:>27} {:>27} {:>27}",
        "", "device double", "device float", "host f64", "thesis CUDA (double)"
    );
    eprintln!(
        "{:<8} {:>27} {:>27} {:>27} {:>27}",
        "function", "max / mean / std", "max / mean / std", "max / mean / std", "max / mean / std"
    );
    for name in &names {
        let points = fx.points(name)?;
        let refs = fx.refs(name)?;
        let dev_d = accuracy(name, true, &points, refs)?;
        let dev_f = accuracy(name, false, &points, refs)?;
        let host = accuracy_host(name, &points, refs)?;
        row(&mut w, name, "device-double", dev_d)?;
        row(&mut w, name, "device-float", dev_f)?;
        row(&mut w, name, "host-f64", host)?;
        let thesis = THESIS_CUDA_ACCURACY
            .iter()
            .find(|t| t.0.eq_ignore_ascii_case(name));
        if let Some(t) = thesis {
            row(
                &mut w,
                name,
                "thesis-cuda-double",
                AccuracyStats {
                    max_abs: t.1,
                    mean_abs: t.2,
                    std_abs: t.3,
                    count: 10_000,
                },
            )?;
        }
        let f =
            |s: &AccuracyStats| format!("{:.2e} {:.2e} {:.2e}", s.max_abs, s.mean_abs, s.std_abs);
        eprintln!(
            "{name:<8} {:>27} {:>27} {:>27} {:>27}",
            f(&dev_d),
            f(&dev_f),
            f(&host),
            thesis.map_or("-".into(), |t| format!(
                "{:.2e} {:.2e} {:.2e}",
                t.1, t.2, t.3
            ))
        );
    }
    out::finish_csv(w, a.io.csv.path())
}
