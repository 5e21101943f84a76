//! SVG chart of the training and validation loss per epoch (log scale).

use super::checkpoint::LogRow;
use plotters::prelude::*;
use std::path::Path;

/// Writes the loss chart of `log` to `path` (atomically).
pub fn write_loss_chart(path: &Path, log: &[LogRow]) -> Result<(), String> {
    if log.is_empty() {
        return Err("no epoch to chart".into());
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw chart: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        let values = log
            .iter()
            .flat_map(|r| [r.train_loss, r.validation_loss])
            .filter(|v| v.is_finite() && *v > 0.0);
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo > hi {
            (1e-4, 1.0)
        } else {
            (lo * 0.8, hi * 1.25)
        };
        let last = log.last().map_or(1, |r| r.epoch) + 1;
        let mut chart = ChartBuilder::on(&root)
            .caption("NNUE training: loss per epoch", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0usize..last, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("mean squared error of σ")
            .y_labels(10)
            .y_label_formatter(&|v| format!("{v:.2e}"))
            .draw()
            .map_err(err)?;
        let series = |pick: fn(&LogRow) -> f64| {
            log.iter()
                .map(move |r| (r.epoch, pick(r).clamp(lo, hi)))
                .collect::<Vec<_>>()
        };
        chart
            .draw_series(LineSeries::new(series(|r| r.train_loss), &BLUE))
            .map_err(err)?
            .label("training")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
        chart
            .draw_series(LineSeries::new(series(|r| r.validation_loss), &RED))
            .map_err(err)?
            .label("validation")
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
