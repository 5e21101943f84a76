//! SVG chart of the training and validation loss per epoch (log scale).

use super::checkpoint::LogRow;
use kestrel_ga::{LogChart, write_log_chart};
use std::path::Path;

/// Writes the loss chart of `log` to `path` (atomically).
pub fn write_loss_chart(path: &Path, log: &[LogRow]) -> Result<(), String> {
    let look = LogChart {
        caption: "NNUE training: loss per epoch",
        x_desc: "epoch",
        y_desc: "mean squared error of σ",
        y_label_area: 70,
        y_labels: 10,
        y_format: |v| format!("{v:.2e}"),
        fallback_range: (1e-4, 1.0),
        labels: ["training", "validation"],
        empty: "no epoch to chart",
    };
    let points: Vec<_> = log
        .iter()
        .map(|r| (r.epoch as u64, [r.train_loss, r.validation_loss]))
        .collect();
    write_log_chart(path, &look, &points)
}
