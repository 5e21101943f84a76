//! `kestrel nnue curve` from the command line: a good points file gives the chart; a malformed
//! or empty one is a clear error naming the line, a non-zero exit, and no chart written.

use crate::common;
use common::{kestrel, stderr, stdout, temp_dir};
use std::path::Path;
use std::process::Output;

const HEADER: &str = "labels,hidden,positions,elo,error,games,limit";

fn curve(points: &Path, out: &Path) -> Output {
    kestrel(&[
        "nnue",
        "curve",
        "--points",
        points.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn a_good_points_file_draws_the_chart() {
    let dir = temp_dir("curve-good");
    let points = dir.join("points.csv");
    let body =
        "self,128,397494,-442.8,99.8,200,5000 nodes\nself,256,1774651,-170.6,35.8,400,5000 nodes";
    std::fs::write(&points, format!("{HEADER}\n{body}\n")).unwrap();
    let out = dir.join("curve.svg");
    let o = curve(&points, &out);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("self, hidden 128") && svg.contains("self, hidden 256"));
    assert!(stdout(&o).contains("2 points"), "{}", stdout(&o));
}

#[test]
fn a_bad_points_file_exits_non_zero_and_writes_no_chart() {
    let dir = temp_dir("curve-bad");
    let points = dir.join("points.csv");
    let out = dir.join("curve.svg");
    let bad_files = [
        (
            format!("{HEADER}\nself,128,397494,-442.8,99.8,200\n"),
            "line 2",
        ),
        (
            format!("{HEADER}\nself,128,-397494,-442.8,99.8,200,5000 nodes\n"),
            "line 2",
        ),
        (
            format!("{HEADER}\nself,128,397494,-442.8,99.8,200,5000 nodes\nself,x,1,2,3,4,5\n"),
            "line 3",
        ),
        (String::new(), "empty file"),
    ];
    for (text, names) in bad_files {
        std::fs::write(&points, &text).unwrap();
        let o = curve(&points, &out);
        assert!(!o.status.success(), "{text}");
        assert!(stderr(&o).contains(names), "{text}: {}", stderr(&o));
        assert!(stderr(&o).contains("points.csv"), "{}", stderr(&o));
        assert!(!out.exists(), "{text}: a chart was written");
    }
    // A chart already there is left as it was.
    std::fs::write(&out, "earlier chart").unwrap();
    let o = curve(&points, &out);
    assert!(!o.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier chart");
}
