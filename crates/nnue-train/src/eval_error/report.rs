//! A measurement as an aligned table (stdout) and as CSV with the same rows.

use super::measure::Measurement;
use super::sums::ErrorSummary;
use std::fmt::Write as _;

/// The CSV header: one row per evaluation.
pub const CSV_HEADER: &str =
    "evaluation,positions,mean_abs_cp,rms_cp,loss,bias_cp,data_mean_abs_score_cp";

/// The rows' figures: name and summary, per evaluation in order.
fn rows<'a>(m: &Measurement, names: &'a [&'a str]) -> Vec<(&'a str, ErrorSummary)> {
    names
        .iter()
        .zip(&m.evaluations)
        .map(|(name, sums)| (*name, sums.summary()))
        .collect()
}

/// The line about the data above the table: positions read, scored, skipped, mean |score|.
pub fn data_line(m: &Measurement) -> String {
    let zero = m.zero.summary();
    format!(
        "{} positions read, {} scored ({} without a score skipped); mean |score| {:.2} cp, \
         mean score {:+.2} cp",
        m.records, zero.positions, m.unscored, zero.mean_abs, -zero.bias
    )
}

/// The aligned table: evaluation, positions, mean |eval − score|, RMS, loss at λ 1 with
/// K = `scale`, bias (mean eval − score).
pub fn table(m: &Measurement, names: &[&str], scale: f64) -> String {
    let rows = rows(m, names);
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0).max(10);
    let mut s = String::new();
    let loss_head = format!("loss K={scale}");
    writeln!(
        s,
        "{:<width$}  {:>10}  {:>12}  {:>9}  {:>12}  {:>9}",
        "evaluation", "positions", "mean |d| cp", "RMS cp", loss_head, "bias cp"
    )
    .unwrap();
    for (name, r) in rows {
        writeln!(
            s,
            "{name:<width$}  {:>10}  {:>12.2}  {:>9.2}  {:>12.6}  {:>+9.2}",
            r.positions, r.mean_abs, r.rms, r.loss, r.bias
        )
        .unwrap();
    }
    s
}

/// The CSV text ([`CSV_HEADER`], then one row per evaluation; the data's mean |score| on each).
pub fn csv(m: &Measurement, names: &[&str]) -> String {
    let mean_abs_score = m.zero.summary().mean_abs;
    let mut s = format!("{CSV_HEADER}\n");
    for (name, r) in rows(m, names) {
        let name = if name.contains([',', '"', '\n']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name.to_string()
        };
        writeln!(
            s,
            "{name},{},{:.4},{:.4},{:.8},{:.4},{mean_abs_score:.4}",
            r.positions, r.mean_abs, r.rms, r.loss, r.bias
        )
        .unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval_error::ErrorSums;

    fn sample() -> Measurement {
        let mut zero = ErrorSums::default();
        let mut exact = ErrorSums::default();
        let mut off = ErrorSums::default();
        for score in [100, -300] {
            zero.add(0, score, 400.0);
            exact.add(score, score, 400.0);
            off.add(score + 50, score, 400.0);
        }
        Measurement {
            records: 3,
            unscored: 1,
            zero,
            evaluations: vec![exact, off],
        }
    }

    #[test]
    fn table_and_csv_hold_the_same_rows() {
        let m = sample();
        let names = ["linear", "nets/a,b.knet"];
        let t = table(&m, &names, 400.0);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3, "{t}");
        assert!(lines[0].contains("loss K=400"), "{t}");
        let fields: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(fields, ["linear", "2", "0.00", "0.00", "0.000000", "+0.00"]);
        let fields: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(&fields[..4], ["nets/a,b.knet", "2", "50.00", "50.00"]);
        assert_eq!(fields[5], "+50.00");
        let c = csv(&m, &names);
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines[0], CSV_HEADER);
        assert_eq!(
            lines[1],
            "linear,2,0.0000,0.0000,0.00000000,0.0000,200.0000"
        );
        assert!(
            lines[2].starts_with("\"nets/a,b.knet\",2,50.0000,50.0000,0.0"),
            "{c}"
        );
        let d = data_line(&m);
        assert!(
            d.starts_with("3 positions read, 2 scored (1 without"),
            "{d}"
        );
        assert!(
            d.contains("mean |score| 200.00 cp, mean score -100.00 cp"),
            "{d}"
        );
    }
}
