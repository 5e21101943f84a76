//! The shared two-series log chart: what it writes and what it refuses.

use kestrel_ga::{LogChart, write_log_chart};

fn look() -> LogChart<'static> {
    LogChart {
        caption: "Test caption",
        x_desc: "step",
        y_desc: "loss",
        y_label_area: 60,
        y_labels: 5,
        y_format: |v| format!("{v:.1}"),
        fallback_range: (0.1, 1.0),
        labels: ["first series", "second series"],
        empty: "nothing to chart",
    }
}

#[test]
fn a_chart_names_its_axes_and_series_and_refuses_no_points() {
    let dir = std::env::temp_dir().join(format!("kestrel-log-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chart.svg");
    let points = [(0, [100.0, 300.0]), (1, [30.0, 0.0]), (2, [f64::NAN, 90.0])];
    write_log_chart(&path, &look(), &points).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{svg:.80}");
    for text in [
        "Test caption",
        "step",
        "loss",
        "first series",
        "second series",
    ] {
        assert!(svg.contains(text), "the chart lacks {text:?}");
    }
    // Each series (blue, then red) is a line through all three points; values off the log
    // scale (zero, NaN) are drawn at its edge rather than dropped.
    for stroke in ["#0000FF", "#FF0000"] {
        assert_eq!(series_points(&svg, stroke), 3, "series {stroke}");
    }
    let empty = dir.join("empty.svg");
    assert_eq!(
        write_log_chart(&empty, &look(), &[]),
        Err("nothing to chart".to_string())
    );
    assert!(!empty.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How many points the first line drawn in `stroke` passes through.
fn series_points(svg: &str, stroke: &str) -> usize {
    let line = svg
        .lines()
        .flat_map(|l| l.split("<polyline").skip(1))
        .find(|l| l.contains(&format!("stroke=\"{stroke}\"")))
        .unwrap_or_else(|| panic!("no line in {stroke}"));
    let points = line.split("points=\"").nth(1).expect("a points attribute");
    points.split('"').next().unwrap().split_whitespace().count()
}
