//! The strength curve: the points file is read strictly (every malformed line is an error naming
//! its line), and the chart holds one legend entry per series, its points joined in increasing
//! training positions.

use kestrel_nnue_train::curve::{CurvePoint, parse_points, read_points, write_curve_chart};
use kestrel_testdata::ScratchDir;
use std::path::PathBuf;

const HEADER: &str = "labels,hidden,positions,elo,error,games,limit";

/// An empty folder for one test, removed when the test passes.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("curve-{name}"))
}

/// The error of parsing the header followed by `lines`.
fn error_of(lines: &[&str]) -> String {
    let text = format!("{HEADER}\n{}\n", lines.join("\n"));
    parse_points(&text).expect_err(&text)
}

/// The texts of the SVG's `<text>` elements (plotters writes each between its tags, alone on a
/// line).
fn texts(svg: &str) -> Vec<&str> {
    let lines: Vec<&str> = svg.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].starts_with("<text"))
        .map(|w| w[1].trim())
        .collect()
}

fn point(labels: &str, hidden: u64, positions: u64, elo: f64, limit: &str) -> CurvePoint {
    CurvePoint {
        labels: labels.into(),
        hidden,
        positions,
        elo,
        error: 30.0,
        games: 400,
        limit: limit.into(),
    }
}

/// Draws `points` into a fresh temporary folder named after `name` and returns the SVG text.
fn drawn_chart(name: &str, points: &[CurvePoint]) -> String {
    let dir = temp_dir(name);
    let out = dir.join("curve.svg");
    write_curve_chart(&out, points).unwrap();
    std::fs::read_to_string(&out).unwrap()
}

#[test]
fn a_good_file_is_read_field_by_field() {
    let text = format!(
        "{HEADER}\nself,128,397494,-442.8,99.8,200,5000 nodes\n\n sf8 , 256 , 1774651 , 12 , 0 , 400 , 5+0.05 \n"
    );
    let points = parse_points(&text).unwrap();
    assert_eq!(
        points,
        vec![
            CurvePoint {
                labels: "self".into(),
                hidden: 128,
                positions: 397_494,
                elo: -442.8,
                error: 99.8,
                games: 200,
                limit: "5000 nodes".into(),
            },
            CurvePoint {
                labels: "sf8".into(),
                hidden: 256,
                positions: 1_774_651,
                elo: 12.0,
                error: 0.0,
                games: 400,
                limit: "5+0.05".into(),
            },
        ]
    );
}

#[test]
fn the_repository_points_file_is_valid() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/nnue-curve.csv");
    let points = read_points(&path).unwrap();
    assert!(
        points
            .iter()
            .any(|p| p.hidden == 256 && p.positions == 1_774_651)
    );
}

#[test]
fn each_kind_of_bad_line_is_an_error_naming_its_line() {
    let good = "self,128,397494,-442.8,99.8,200,5000 nodes";
    let cases = [
        ("self,128,397494,-442.8,99.8,200", "expected 7 fields"),
        ("self,128,397494,-442.8,99.8,200,5000 nodes,x", "found 8"),
        ("self,wide,397494,-442.8,99.8,200,5000 nodes", "hidden"),
        ("self,128,many,-442.8,99.8,200,5000 nodes", "positions"),
        ("self,128,-5,-442.8,99.8,200,5000 nodes", "positions"),
        ("self,128,0,-442.8,99.8,200,5000 nodes", "positions"),
        ("self,128,397494,strong,99.8,200,5000 nodes", "elo"),
        ("self,128,397494,NaN,99.8,200,5000 nodes", "elo"),
        ("self,128,397494,-442.8,-1,200,5000 nodes", "error"),
        ("self,128,397494,-442.8,99.8,2.5,5000 nodes", "games"),
        (",128,397494,-442.8,99.8,200,5000 nodes", "labels"),
        ("self,128,397494,-442.8,99.8,200,", "limit"),
    ];
    for (bad, names) in cases {
        // The bad line is the file's third line (the header is the first).
        let error = error_of(&[good, bad, good]);
        assert!(error.starts_with("line 3:"), "{bad}: {error}");
        assert!(error.contains(names), "{bad}: {error}");
    }
}

#[test]
fn an_empty_file_a_wrong_header_or_no_point_is_an_error() {
    assert!(parse_points("").unwrap_err().contains("empty file"));
    assert!(parse_points("\n  \n").unwrap_err().contains("empty file"));
    let header_only = parse_points(&format!("{HEADER}\n")).unwrap_err();
    assert!(header_only.contains("no point"), "{header_only}");
    let no_header = parse_points("self,128,397494,-442.8,99.8,200,5000 nodes\n").unwrap_err();
    assert!(
        no_header.starts_with("line 1: expected the header"),
        "{no_header}"
    );
}

#[test]
fn reading_a_missing_file_names_it() {
    let dir = temp_dir("missing");
    let path = dir.join("none.csv");
    let error = read_points(&path).unwrap_err();
    assert!(error.contains("none.csv"), "{error}");
}

#[test]
fn the_chart_has_one_legend_entry_per_series() {
    let svg = drawn_chart(
        "legend",
        &[
            point("self", 256, 3_000_000, -90.0, "5000 nodes"),
            point("self", 128, 397_494, -442.8, "5000 nodes"),
            point("self", 256, 1_000_000, -200.0, "5000 nodes"),
            point("sf8", 256, 1_000_000, -120.0, "5000 nodes"),
        ],
    );
    let texts = texts(&svg);
    for legend in ["self, hidden 128", "self, hidden 256", "sf8, hidden 256"] {
        let count = texts.iter().filter(|t| **t == legend).count();
        assert_eq!(count, 1, "{legend}: {texts:?}");
    }
    let series = texts.iter().filter(|t| t.contains(", hidden ")).count();
    assert_eq!(series, 3, "{texts:?}");
    assert!(texts.contains(&"linear evaluation"), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("5000 nodes")), "{texts:?}");
}

#[test]
fn a_series_is_joined_in_increasing_positions() {
    let svg = drawn_chart(
        "order",
        &[
            point("self", 256, 3_000_000, -90.0, "5000 nodes"),
            point("self", 256, 300_000, -400.0, "5000 nodes"),
            point("self", 256, 1_000_000, -200.0, "5000 nodes"),
        ],
    );
    // The series' line is the one polyline of three points.
    let line = svg
        .lines()
        .filter_map(|l| l.split("points=\"").nth(1))
        .map(|p| {
            p.trim_end_matches("\"/>")
                .split_whitespace()
                .collect::<Vec<_>>()
        })
        .find(|p| p.len() == 3)
        .expect("a polyline of the three points");
    let xs: Vec<i32> = line
        .iter()
        .map(|p| p.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{line:?}");
}

#[test]
fn series_at_different_limits_name_their_limit() {
    let svg = drawn_chart(
        "limits",
        &[
            point("self", 256, 1_000_000, -200.0, "5000 nodes"),
            point("self", 256, 1_000_000, -150.0, "5+0.05"),
        ],
    );
    let texts = texts(&svg);
    assert!(texts.contains(&"self, hidden 256, 5000 nodes"), "{texts:?}");
    assert!(texts.contains(&"self, hidden 256, 5+0.05"), "{texts:?}");
}

#[test]
fn no_point_writes_no_chart() {
    let dir = temp_dir("empty");
    let out = dir.join("curve.svg");
    assert!(write_curve_chart(&out, &[]).is_err());
    assert!(!out.exists());
}
