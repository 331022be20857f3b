//! PNG plots for every plotting command (`de --plot`, `experiment de-sdis`, `experiment
//! de-migration`): a grid of panels, each with lines and optional shaded bands (e.g. the
//! 25-75 % interval around a mean), linear or log axes, drawn with `plotters` on its bitmap
//! backend. Text uses DejaVu Sans embedded in the binary (assets/fonts, Bitstream Vera licence),
//! so nothing depends on the fonts of the machine.

use crate::out::{CliResult, Failure};
use image::ImageEncoder;
use plotters::coord::combinators::{BindKeyPoints, LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::Path;
use std::sync::Once;

/// The embedded font, registered as plotters' `sans-serif`.
static FONT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/DejaVuSans.ttf"
));
const FAMILY: &str = "sans-serif";

fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // a valid TrueType file built into the binary; failure would be a packaging bug
        if register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            panic!("the embedded DejaVuSans.ttf is not a valid font");
        }
    });
}

/// Categorical colours (matplotlib's tab10).
const TAB10: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

/// Colour `i` of the categorical palette.
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = TAB10[i % TAB10.len()];
    RGBColor(r, g, b)
}

/// Colour `i` of `n` on a sequential scale from dark blue through green to yellow-orange
/// (viridis-like): for ordered groups such as F intervals.
pub fn sequential(i: usize, n: usize) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (240.0, 170.0, 20.0),
    ];
    let t = if n <= 1 {
        0.0
    } else {
        i as f64 / (n - 1) as f64
    } * (STOPS.len() - 1) as f64;
    let k = (t.floor() as usize).min(STOPS.len() - 2);
    let u = t - k as f64;
    let mix = |a: f64, b: f64| (a + u * (b - a)).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// One line, with an optional band (x, low, high) shaded in its colour.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub band: Option<Vec<(f64, f64, f64)>>,
    pub color: RGBColor,
    /// Line width in pixels.
    pub width: u32,
    /// Draw the points as unconnected dots instead of a line.
    pub dots: bool,
}

impl Series {
    pub fn line(label: impl Into<String>, points: Vec<(f64, f64)>, color: RGBColor) -> Self {
        Series {
            label: label.into(),
            points,
            band: None,
            color,
            width: 2,
            dots: false,
        }
    }

    /// Unconnected dots (one per run, say).
    pub fn dots(label: impl Into<String>, points: Vec<(f64, f64)>, color: RGBColor) -> Self {
        Series {
            dots: true,
            ..Series::line(label, points, color)
        }
    }

    pub fn with_band(mut self, band: Vec<(f64, f64, f64)>) -> Self {
        self.band = Some(band);
        self
    }
}

/// One chart of a figure.
pub struct Panel {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    /// Log y where every value is positive; zeros are drawn at a floor one decade below the
    /// smallest positive value, and a panel with negative values, or with values within less
    /// than a decade, falls back to linear y (likewise for `log_x`).
    pub log_y: bool,
    pub series: Vec<Series>,
    /// Whether the figure's legend (a column right of the panels) lists this panel's series.
    pub legend: bool,
}

impl Panel {
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Panel {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: true,
            series: Vec::new(),
            legend: true,
        }
    }

    fn xs(&self) -> impl Iterator<Item = f64> + '_ {
        self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.0)
                .chain(s.band.iter().flatten().map(|b| b.0))
        })
    }

    fn ys(&self) -> impl Iterator<Item = f64> + '_ {
        self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.band.iter().flatten().flat_map(|b| [b.1, b.2]))
        })
    }
}

/// A short axis label: `1e-5`, `0.25`, `1.2e4`, `300`.
pub fn axis_number(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.1e}");
        s.replace(".0e", "e")
    } else if a >= 100.0 || (v - v.round()).abs() < 1e-9 * a.max(1.0) {
        format!("{}", v.round())
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The extent of finite values, with a margin; log where asked and possible. Returns
/// (low, high, log, floor for non-positive values on a log axis).
fn extent(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64, bool, f64) {
    let v: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    if v.is_empty() {
        return (0.0, 1.0, false, 0.0);
    }
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if log && lo >= 0.0 {
        let min_pos = v
            .iter()
            .copied()
            .filter(|&x| x > 0.0)
            .fold(f64::INFINITY, f64::min);
        // within less than a decade a log axis would have no labelled points: stay linear
        if min_pos.is_finite() && (lo == 0.0 || hi >= 10.0 * min_pos) {
            let floor = if lo > 0.0 { lo } else { min_pos / 10.0 };
            let (l, h) = (floor.log10(), hi.log10());
            let pad = ((h - l) * 0.04).max(0.05);
            return (10f64.powf(l - pad), 10f64.powf(h + pad), true, floor);
        }
    }
    let span = hi - lo;
    let pad = if span > 0.0 {
        span * 0.05
    } else {
        lo.abs().max(1.0) * 0.05
    };
    (lo - pad, hi + pad, false, f64::NEG_INFINITY)
}

type DrawResult = Result<(), String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// One entry of a figure's legend.
struct LegendEntry<'a> {
    label: &'a str,
    color: RGBColor,
    dots: bool,
    band: bool,
}

/// The legend entries of the panels that show one, each label once, in order.
fn legend_entries(panels: &[Panel]) -> Vec<LegendEntry<'_>> {
    let mut out: Vec<LegendEntry> = Vec::new();
    for s in panels.iter().filter(|p| p.legend).flat_map(|p| &p.series) {
        if !s.label.is_empty() && !out.iter().any(|e| e.label == s.label) {
            out.push(LegendEntry {
                label: &s.label,
                color: s.color,
                dots: s.dots,
                band: s.band.is_some(),
            });
        }
    }
    out
}

/// Pixels of the legend column: the longest label at about 6 pixels a character, and the swatch.
fn legend_width(entries: &[LegendEntry]) -> u32 {
    if entries.is_empty() {
        return 0;
    }
    let chars = entries
        .iter()
        .map(|e| e.label.chars().count())
        .max()
        .unwrap_or(0) as u32;
    (chars * 6 + 52).clamp(120, 420)
}

/// Draws the legend in its own column, right of the panels, so that it never hides data.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> DrawResult {
    let font = (FAMILY, 13).into_font();
    for (i, e) in entries.iter().enumerate() {
        let y = 40 + 22 * i as i32;
        let c = e.color;
        if e.band {
            area.draw(&Rectangle::new(
                [(8, y - 7), (36, y + 7)],
                c.mix(0.18).filled(),
            ))
            .map_err(err)?;
        }
        if e.dots {
            area.draw(&Circle::new((22, y), 3, c.filled()))
                .map_err(err)?;
        } else {
            area.draw(&PathElement::new(vec![(8, y), (36, y)], c.stroke_width(2)))
                .map_err(err)?;
        }
        area.draw(&Text::new(e.label.to_string(), (44, y - 7), font.clone()))
            .map_err(err)?;
    }
    Ok(())
}

/// Draws `panels` in a grid of `cols` columns, `panel` pixels each, under `title`, into the
/// PNG file `path`; the legend (of the panels that show one) is a column of its own on the right.
pub fn write_png(
    path: &Path,
    title: &str,
    panels: &[Panel],
    cols: usize,
    panel: (u32, u32),
) -> CliResult {
    register();
    let cols = cols.clamp(1, panels.len().max(1));
    let rows = panels.len().div_ceil(cols).max(1);
    let head = if title.is_empty() { 0 } else { 40 };
    let entries = legend_entries(panels);
    let legend_w = legend_width(&entries);
    let size = (
        panel.0 * cols as u32 + legend_w,
        panel.1 * rows as u32 + head,
    );
    // drawn into memory, encoded as PNG and written as a whole (a temporary file renamed)
    let mut pixels = vec![255u8; size.0 as usize * size.1 as usize * 3];
    let mut draw = || -> DrawResult {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let body = if title.is_empty() {
            root.clone()
        } else {
            root.titled(title, (FAMILY, 24).into_font()).map_err(err)?
        };
        let (grid, legend) = body.split_horizontally(panel.0 * cols as u32);
        for (area, p) in grid.split_evenly((rows, cols)).iter().zip(panels) {
            draw_panel(area, p)?;
        }
        draw_legend(&legend, &entries)?;
        root.present().map_err(err)
    };
    draw().map_err(|e| Failure(format!("cannot draw {}: {e}", path.display())))?;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&pixels, size.0, size.1, image::ColorType::Rgb8)
        .map_err(|e| Failure(format!("cannot encode {}: {e}", path.display())))?;
    crate::out::write_file(path, "", png)
}

/// Checks before a long run that `path` names a PNG file in an existing folder.
pub fn check_png_path(flag: &str, path: &Path) -> CliResult {
    let ok = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !ok {
        return Err(Failure(format!(
            "{flag}: {} does not end in .png; only PNG plots are written",
            path.display()
        )));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(Failure(format!(
                "{flag}: the folder {} does not exist",
                dir.display()
            )));
        }
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> DrawResult {
    let (x0, x1, log_x, _) = extent(p.xs(), p.log_x);
    let (y0, y1, log_y, floor) = extent(p.ys(), p.log_y);
    match (log_x, log_y) {
        (false, false) => draw_chart(area, p, x0..x1, y0..y1, floor),
        (true, false) => draw_chart(area, p, log_axis(x0, x1), y0..y1, floor),
        (false, true) => draw_chart(area, p, x0..x1, log_axis(y0, y1), floor),
        (true, true) => draw_chart(area, p, log_axis(x0, x1), log_axis(y0, y1), floor),
    }
}

/// A log axis labelled at [`log_ticks`] (plotters labels only powers of ten, or crowds them).
fn log_axis(lo: f64, hi: f64) -> WithKeyPoints<LogCoord<f64>> {
    (lo..hi).log_scale().with_key_points(log_ticks(lo, hi))
}

/// At most 10 ticks in [lo, hi] (0 < lo < hi) at 1, 2, 5 times powers of ten, or 1 and 3, or
/// powers of ten, or every k-th power of ten, the densest of these that fits.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (e0, e1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    for mantissas in [&[1.0, 2.0, 5.0][..], &[1.0, 3.0], &[1.0]] {
        let t: Vec<f64> = (e0..=e1)
            .flat_map(|e| mantissas.iter().map(move |m| m * pow10(e)))
            .filter(|v| (lo..=hi).contains(v))
            .collect();
        if t.len() <= 10 {
            return t;
        }
    }
    let step = ((e1 - e0) as usize).div_ceil(10).max(1);
    (e0..=e1)
        .step_by(step)
        .map(pow10)
        .filter(|v| (lo..=hi).contains(v))
        .collect()
}

/// 10^e, the closest f64 (as the literal `1e<e>` reads), for labels such as 1e-24.
fn pow10(e: i32) -> f64 {
    format!("1e{e}").parse().unwrap_or(f64::NAN)
}

fn draw_chart<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    p: &Panel,
    xr: X,
    yr: Y,
    floor: f64,
) -> DrawResult
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, (FAMILY, 17).into_font())
        .margin(10)
        .x_label_area_size(42)
        .y_label_area_size(62)
        .build_cartesian_2d(xr, yr)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(10)
        .y_labels(9)
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .x_label_formatter(&|v| axis_number(*v))
        .y_label_formatter(&|v| axis_number(*v))
        .label_style((FAMILY, 12).into_font())
        .axis_desc_style((FAMILY, 14).into_font())
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(210, 210, 210))
        .draw()
        .map_err(err)?;
    let y = |v: f64| if v.is_finite() { v.max(floor) } else { v };
    for s in &p.series {
        if let Some(band) = &s.band {
            let band: Vec<&(f64, f64, f64)> = band
                .iter()
                .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
                .collect();
            if band.len() >= 2 {
                let pts: Vec<(f64, f64)> = band
                    .iter()
                    .map(|b| (b.0, y(b.1)))
                    .chain(band.iter().rev().map(|b| (b.0, y(b.2))))
                    .collect();
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        pts,
                        s.color.mix(0.18).filled(),
                    )))
                    .map_err(err)?;
            }
        }
    }
    for s in &p.series {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|q| q.0.is_finite() && q.1.is_finite())
            .map(|q| (q.0, y(q.1)))
            .collect();
        let c = s.color;
        if s.dots {
            chart
                .draw_series(
                    pts.into_iter()
                        .map(|q| Circle::new(q, 3, c.mix(0.7).filled())),
                )
                .map_err(err)?;
        } else {
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(s.width)))
                .map_err(err)?;
        }
    }
    // the legend is drawn by `write_png` beside the panels, outside every plotting area
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(axis_number(0.0), "0");
        assert_eq!(axis_number(1e-5), "1e-5");
        assert_eq!(axis_number(300.0), "300");
        assert_eq!(axis_number(0.25), "0.25");
        assert_eq!(axis_number(2.0), "2");
        assert_eq!(axis_number(123456.0), "1.2e5");
    }

    #[test]
    fn extents() {
        let (lo, hi, log, _) = extent([1.0, 100.0].into_iter(), true);
        assert!(log && lo < 1.0 && hi > 100.0);
        let (lo, _, log, _) = extent([1300.0, 2500.0].into_iter(), true);
        assert!(!log && lo < 1300.0);
        let (_, _, log, floor) = extent([0.0, 1e-3, 10.0].into_iter(), true);
        assert!(log && (floor - 1e-4).abs() < 1e-18);
        let (lo, _, log, _) = extent([-5.0, 10.0].into_iter(), true);
        assert!(!log && lo < -5.0);
        let (lo, hi, _, _) = extent([3.0, 3.0].into_iter(), false);
        assert!(lo < 3.0 && hi > 3.0);
    }

    #[test]
    fn log_ticks_fit() {
        assert_eq!(log_ticks(15.0, 300.0), [20.0, 50.0, 100.0, 200.0]);
        assert_eq!(
            log_ticks(1.0, 1000.0),
            [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]
        );
        assert_eq!(
            log_ticks(1.0, 1e5),
            [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]
        );
        let t = log_ticks(1e-30, 1.0);
        assert!(t.len() <= 11 && t.len() >= 5 && t[0] == 1e-30, "{t:?}");
    }

    #[test]
    fn sequential_ends() {
        assert_eq!(sequential(0, 10), RGBColor(68, 1, 84));
        assert_eq!(sequential(9, 10), RGBColor(240, 170, 20));
        assert_eq!(sequential(0, 1), RGBColor(68, 1, 84));
    }
}
