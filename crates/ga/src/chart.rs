//! SVG chart of the best and mean objective per generation (log scale, as errors span orders
//! of magnitude between random and evolved organisms).

use crate::GenerationStats;
use plotters::prelude::*;
use std::path::Path;

/// Writes the chart; `objective` names the y axis (e.g. "mean |error| (cp)").
pub fn write_chart(
    path: &Path,
    history: &[GenerationStats],
    objective: &str,
) -> Result<(), String> {
    if history.is_empty() {
        return Err("no generation to chart".into());
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw chart: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        let values = history
            .iter()
            .flat_map(|h| [h.best_objective, h.mean_objective])
            .filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo > hi {
            (0.1, 1.0)
        } else {
            (lo * 0.8, hi * 1.25)
        };
        let last = history.last().map_or(1, |h| h.generation + 1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Evolution: best and mean objective", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0u64..last, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc(objective)
            .y_labels(12)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        let series = |pick: fn(&GenerationStats) -> f64| {
            history
                .iter()
                .map(move |h| (h.generation, pick(h).clamp(lo, hi)))
                .collect::<Vec<_>>()
        };
        chart
            .draw_series(LineSeries::new(series(|h| h.best_objective), &BLUE))
            .map_err(err)?
            .label("best organism")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
        chart
            .draw_series(LineSeries::new(series(|h| h.mean_objective), &RED))
            .map_err(err)?
            .label("population mean")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
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
