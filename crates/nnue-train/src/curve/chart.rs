//! The SVG chart of the strength curve: Elo against the linear evaluation (a line at 0) by
//! training positions on a log scale, one coloured series per label source, hidden size and
//! match limit, with 95% error bars.

use super::points::CurvePoint;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The series' colours, in the order of the series' keys (repeated beyond eight series).
const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// One series: the points of one label source, hidden size and match limit.
type SeriesKey<'a> = (&'a str, u64, &'a str);

/// The points of each series in increasing training positions, series ordered by key.
fn series_of(points: &[CurvePoint]) -> BTreeMap<SeriesKey<'_>, Vec<&CurvePoint>> {
    let mut series: BTreeMap<SeriesKey, Vec<&CurvePoint>> = BTreeMap::new();
    for p in points {
        let key = (p.labels.as_str(), p.hidden, p.limit.as_str());
        series.entry(key).or_default().push(p);
    }
    for members in series.values_mut() {
        members.sort_by_key(|p| p.positions);
    }
    series
}

/// The legend of a series: `labels, hidden N`, with the limit when the chart holds several.
pub fn legend_entry(labels: &str, hidden: u64, limit: &str, one_limit: bool) -> String {
    if one_limit {
        format!("{labels}, hidden {hidden}")
    } else {
        format!("{labels}, hidden {hidden}, {limit}")
    }
}

/// A position count as an axis label: 400k, 1.5M.
fn count_label(x: f64) -> String {
    if x >= 1e6 {
        format!("{}M", trimmed(x / 1e6))
    } else if x >= 1e3 {
        format!("{}k", trimmed(x / 1e3))
    } else {
        trimmed(x)
    }
}

/// At most one decimal, none when it is zero.
fn trimmed(x: f64) -> String {
    let text = format!("{x:.1}");
    text.strip_suffix(".0").unwrap_or(&text).to_string()
}

/// The ticks of a log axis over `lo..hi` whose mantissa is one of `mantissas` (e.g. 1, 2, 5).
fn log_ticks(lo: f64, hi: f64, mantissas: &[f64]) -> Vec<f64> {
    let mut ticks = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        let in_range = mantissas
            .iter()
            .map(|m| m * decade)
            .filter(|t| (lo..=hi).contains(t));
        ticks.extend(in_range);
        decade *= 10.0;
    }
    ticks
}

/// The x range (positions, a factor of 2 of margin each side on the log scale) and the y range
/// (every error bar and the zero line, 10% margin).
fn ranges(points: &[CurvePoint]) -> ((f64, f64), (f64, f64)) {
    let x = points.iter().map(|p| p.positions as f64);
    let x_lo = x.clone().fold(f64::MAX, f64::min);
    let x_hi = x.fold(f64::MIN, f64::max);
    let y_lo = points.iter().map(|p| p.elo - p.error).fold(0.0, f64::min);
    let y_hi = points.iter().map(|p| p.elo + p.error).fold(0.0, f64::max);
    let margin = ((y_hi - y_lo) * 0.1).max(10.0);
    ((x_lo / 2.0, x_hi * 2.0), (y_lo - margin, y_hi + margin))
}

/// The positions axis over `lo..hi`: a log scale labelled at 1, 2 and 5 of each decade, with
/// a light grid line at every digit.
fn x_axis(lo: f64, hi: f64) -> WithKeyPoints<LogCoord<f64>> {
    let digits: Vec<f64> = (1..10).map(f64::from).collect();
    (lo..hi)
        .log_scale()
        .with_key_points(log_ticks(lo, hi, &[1.0, 2.0, 5.0]))
        .with_light_points(log_ticks(lo, hi, &digits))
}

/// Writes the chart of `points` to `path` (atomically). Fails on no points.
pub fn write_curve_chart(path: &Path, points: &[CurvePoint]) -> Result<(), String> {
    if points.is_empty() {
        return Err("no point to chart".into());
    }
    let svg = draw(points).map_err(|e| format!("cannot draw chart: {e}"))?;
    kestrel_params::atomic::write_atomic(path, svg.as_bytes())
        .map_err(|e| format!("cannot write chart {}: {e}", path.display()))
}

/// The SVG text of the chart of `points` (not empty).
fn draw(points: &[CurvePoint]) -> Result<String, Box<dyn std::error::Error>> {
    let limit = points[0].limit.as_str();
    let one_limit = points.iter().all(|p| p.limit == limit);
    let caption = if one_limit {
        format!("NNUE strength by training data ({limit} a move)")
    } else {
        "NNUE strength by training data".to_string()
    };
    let ((x_lo, x_hi), (y_lo, y_hi)) = ranges(points);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x_axis(x_lo, x_hi), y_lo..y_hi)?;
        chart
            .configure_mesh()
            .x_desc("training positions (log scale)")
            .y_desc("Elo against the linear evaluation (95% error bars)")
            .x_label_formatter(&|x| count_label(*x))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        chart
            .draw_series(LineSeries::new([(x_lo, 0.0), (x_hi, 0.0)], BLACK))?
            .label("linear evaluation")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        for (i, ((labels, hidden, limit), members)) in series_of(points).into_iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let line = members.iter().map(|p| (p.positions as f64, p.elo));
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))?
                .label(legend_entry(labels, hidden, limit, one_limit))
                .legend(move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(0, 0), (20, 0)], color.stroke_width(2))
                        + Circle::new((10, 0), 4, color.filled())
                });
            chart.draw_series(members.iter().map(|p| {
                let (x, lo, hi) = (p.positions as f64, p.elo - p.error, p.elo + p.error);
                ErrorBar::new_vertical(x, lo, p.elo, hi, color.filled().stroke_width(2), 10)
            }))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}
