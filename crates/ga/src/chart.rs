//! SVG line charts of two series on a log scale (errors and losses span orders of magnitude),
//! and the GA's chart of the best and mean objective per generation.

use crate::GenerationStats;
use plotters::prelude::*;
use std::path::Path;

/// Everything a two-series log chart shows besides its points: the first series is drawn in
/// blue, the second in red.
pub struct LogChart<'a> {
    /// The title above the chart.
    pub caption: &'a str,
    /// The x axis' name (e.g. "generation").
    pub x_desc: &'a str,
    /// The y axis' name.
    pub y_desc: &'a str,
    /// The width in pixels of the y labels' area.
    pub y_label_area: u32,
    /// How many y labels at most.
    pub y_labels: usize,
    /// How a y label is written.
    pub y_format: fn(&f64) -> String,
    /// The y range when no value is finite and positive.
    pub fallback_range: (f64, f64),
    /// The legend of the two series.
    pub labels: [&'a str; 2],
    /// The error when there is no point (e.g. "no generation to chart").
    pub empty: &'a str,
}

/// Writes the chart of `points`, `(x, [first, second])` in increasing x, to `path` (atomically).
/// Values outside the y range (zero, negative, not finite) are drawn at its edge.
pub fn write_log_chart(
    path: &Path,
    look: &LogChart,
    points: &[(u64, [f64; 2])],
) -> Result<(), String> {
    if points.is_empty() {
        return Err(look.empty.into());
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw chart: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        let values = points
            .iter()
            .flat_map(|(_, ys)| *ys)
            .filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo > hi {
            look.fallback_range
        } else {
            (lo * 0.8, hi * 1.25)
        };
        let last = points.last().map_or(1, |(x, _)| x + 1);
        let mut chart = ChartBuilder::on(&root)
            .caption(look.caption, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(look.y_label_area)
            .build_cartesian_2d(0u64..last, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(look.x_desc)
            .y_desc(look.y_desc)
            .y_labels(look.y_labels)
            .y_label_formatter(&look.y_format)
            .draw()
            .map_err(err)?;
        for (k, color) in [(0, BLUE), (1, RED)] {
            let series = points.iter().map(|&(x, ys)| (x, ys[k].clamp(lo, hi)));
            chart
                .draw_series(LineSeries::new(series, &color))
                .map_err(err)?
                .label(look.labels[k])
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    kestrel_params::atomic::write_atomic(path, svg.as_bytes())
        .map_err(|e| format!("cannot write chart {}: {e}", path.display()))
}

/// Writes the GA's chart of the best and mean objective per generation; `objective` names the
/// y axis (e.g. "mean |error| (cp)").
pub fn write_chart(
    path: &Path,
    history: &[GenerationStats],
    objective: &str,
) -> Result<(), String> {
    let look = LogChart {
        caption: "Evolution: best and mean objective",
        x_desc: "generation",
        y_desc: objective,
        y_label_area: 60,
        y_labels: 12,
        y_format: |v| format!("{v:.0}"),
        fallback_range: (0.1, 1.0),
        labels: ["best organism", "population mean"],
        empty: "no generation to chart",
    };
    let points: Vec<_> = history
        .iter()
        .map(|h| (h.generation, [h.best_objective, h.mean_objective]))
        .collect();
    write_log_chart(path, &look, &points)
}
