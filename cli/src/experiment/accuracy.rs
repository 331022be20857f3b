//! Accuracy of the function catalogue against 50-digit references (the thesis's Table 6):
//! statistics of the absolute error of the device (float, double) and of the host f64 reference,
//! for `metaopt bench functions`. The library evaluates; the statistics are the CLI's.

use metaopt::error::{Error, Result};
use metaopt::objective::evaluate_catalogue;
use metaopt::problem::functions;
use serde::Serialize;

/// Statistics of the absolute error |value - reference| over a set of points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AccuracyStats {
    pub max_abs: f64,
    pub mean_abs: f64,
    /// Sample standard deviation (n - 1), as MATLAB's `std`.
    pub std_abs: f64,
    pub count: usize,
}

/// Error statistics of `values` against references given as double-double pairs (hi, lo): each
/// error is |(v - hi) - lo|, so errors below an ulp of the reference are measured too. A NaN
/// value makes every statistic NaN.
pub fn accuracy_stats(values: &[f64], refs: &[(f64, f64)]) -> Result<AccuracyStats> {
    if values.len() != refs.len() || values.is_empty() {
        return Err(Error::arg(
            "refs",
            format!("{} references for {} values", refs.len(), values.len()),
        ));
    }
    let errs: Vec<f64> = values
        .iter()
        .zip(refs)
        .map(|(&v, &(h, l))| ((v - h) - l).abs())
        .collect();
    let n = errs.len() as f64;
    let max_abs = errs.iter().fold(0.0f64, |m, &e| {
        if e.is_nan() || m.is_nan() {
            f64::NAN
        } else {
            m.max(e)
        }
    });
    let mean_abs = errs.iter().sum::<f64>() / n;
    let var = if errs.len() > 1 {
        errs.iter().map(|e| (e - mean_abs).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    Ok(AccuracyStats {
        max_abs,
        mean_abs,
        std_abs: var.sqrt(),
        count: errs.len(),
    })
}

fn dims_of(points: &[f64], refs: &[(f64, f64)]) -> Result<usize> {
    if refs.is_empty() || !points.len().is_multiple_of(refs.len()) {
        return Err(Error::arg(
            "points",
            format!("{} values for {} references", points.len(), refs.len()),
        ));
    }
    Ok(points.len() / refs.len())
}

/// Device accuracy of catalogue function `name` (double or float) on the device in use:
/// `points` row by row, one reference per point (see `metaopt::problem::functions::ReferenceFixture`).
pub fn accuracy(
    name: &str,
    double: bool,
    points: &[f64],
    refs: &[(f64, f64)],
) -> Result<AccuracyStats> {
    let dims = dims_of(points, refs)?;
    accuracy_stats(&evaluate_catalogue(name, points, dims, double, None)?, refs)
}

/// Accuracy of the f64 host reference of catalogue function `name`.
pub fn accuracy_host(name: &str, points: &[f64], refs: &[(f64, f64)]) -> Result<AccuracyStats> {
    let dims = dims_of(points, refs)?;
    accuracy_stats(&functions::lookup(name)?.eval_rows(points, dims)?, refs)
}

/// The thesis's Table 6, CUDA column (double, 10,000 points in 10 dimensions, against Matlab vpa
/// at 50 digits): (function, max, mean, standard deviation) of the absolute error.
pub const THESIS_CUDA_ACCURACY: [(&str, f64, f64, f64); 26] = [
    ("F1", 5.97e-13, 6.05e-15, 1.44e-14),
    ("F2", 4.89e-12, 2.78e-14, 9.26e-14),
    ("F3", 9.75e-10, 1.00e-11, 2.08e-11),
    ("F4", 2.46e-11, 1.35e-13, 4.62e-13),
    ("F5", 7.82e-11, 3.94e-13, 1.12e-12),
    ("F6", 3.30e-12, 2.26e-14, 7.10e-14),
    ("F7", 2.96e-12, 5.26e-13, 4.14e-13),
    ("F8", 1.71e-13, 2.45e-14, 2.88e-14),
    ("F9", 4.17e-14, 1.55e-16, 5.74e-16),
    ("F10", 1.14e-13, 1.45e-15, 2.21e-15),
    ("F11", 4.86e-16, 1.43e-19, 5.72e-18),
    ("F12", 2.09e-13, 1.15e-15, 3.16e-15),
    ("CEC04", 3.30e-12, 2.26e-14, 7.10e-14),
    ("CEC05", 1.71e-13, 2.45e-14, 2.88e-14),
    ("CEC06", 4.59e-11, 1.41e-12, 1.19e-12),
    ("CEC07", 3.64e-12, 7.94e-13, 6.78e-13),
    ("CEC08", 7.82e-14, 4.53e-16, 9.58e-16),
    ("CEC09", 9.95e-14, 4.90e-16, 1.31e-15),
    ("CEC10", 1.85e-13, 4.18e-15, 4.23e-15),
    ("CEC04t", 5.12e-13, 5.99e-14, 5.72e-14),
    ("CEC05t", 6.82e-13, 6.82e-14, 7.64e-14),
    ("CEC06t", 1.76e-11, 2.84e-12, 2.25e-12),
    ("CEC07t", 2.46e-11, 1.42e-12, 1.23e-12),
    ("CEC08t", 9.77e-15, 6.60e-16, 8.80e-16),
    ("CEC09t", 9.21e-13, 1.92e-15, 9.62e-15),
    ("CEC10t", 3.73e-13, 8.16e-15, 8.00e-15),
];

#[cfg(test)]
mod tests {
    use super::*;
    use metaopt::problem::functions::catalogue;

    #[test]
    fn thesis_table_follows_the_catalogue() {
        let c = catalogue();
        assert_eq!(c.len(), THESIS_CUDA_ACCURACY.len());
        for (f, t) in c.iter().zip(&THESIS_CUDA_ACCURACY) {
            assert_eq!(t.0, f.name);
            assert!(t.1 >= t.2 && t.2 > 0.0 && t.3 > 0.0, "{}", f.name);
        }
    }

    #[test]
    fn statistics_of_double_double_references() {
        // errors |(v - hi) - lo|: 0.5, 0.25 (below an ulp of the reference hi = 1e16 is kept)
        let s = accuracy_stats(&[1.5, 1e16], &[(1.0, 0.0), (1e16, -0.25)]).unwrap();
        assert_eq!((s.max_abs, s.mean_abs, s.count), (0.5, 0.375, 2));
        assert!(
            (s.std_abs - 0.03125f64.sqrt()).abs() < 1e-15,
            "{}",
            s.std_abs
        );
        assert!(accuracy_stats(&[f64::NAN, 1.0], &[(1.0, 0.0), (1.0, 0.0)])
            .unwrap()
            .max_abs
            .is_nan());
        assert!(accuracy_stats(&[1.0], &[]).is_err());
    }
}
