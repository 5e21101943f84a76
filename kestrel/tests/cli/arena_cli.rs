//! `kestrel match` and `kestrel epd` from the command line.

use std::process::Output;

use crate::common;
use common::{kestrel, temp_dir};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn match_with_openings_and_pgn_output() {
    let dir = temp_dir("match");
    let pgn = dir.join("games.pgn");
    let openings = kestrel_testdata::fixture("openings-2moves-60.epd");
    let openings = openings.to_str().unwrap();
    let o = kestrel(&[
        "match",
        "--games",
        "4",
        "--depth",
        "2",
        "--max-moves",
        "10",
        "--concurrency",
        "2",
        "--openings",
        openings,
        "--seed",
        "9",
        "--pgn-out",
        pgn.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let summary = out
        .lines()
        .find(|l| l.contains("LOS"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(summary.contains("(4 games)"), "{summary}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Termination ").count(), 4, "{games}");
    assert_eq!(games.matches("[FEN ").count(), 4, "openings are FEN starts");
}

#[test]
fn broken_uci_engine_is_an_error_not_a_result() {
    let o = kestrel(&[
        "match",
        "-a",
        "uci:/nonexistent/engine",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert!(!out.contains("W 0 D 0 L 2"), "no score is reported: {out}");
}

#[test]
fn round_robin_prints_a_table() {
    let o = kestrel(&[
        "match",
        "--round-robin",
        "builtin",
        "builtin",
        "builtin",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-moves",
        "4",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("kestrel#3"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("points") && l.contains("W-D-L")),
        "{out}"
    );
}

#[test]
fn bad_match_arguments_are_errors() {
    for args in [
        &["match", "--sprt", "5,0"][..],
        &["match", "--tc", "fast"],
        &["match", "-a", "stockfish"],
        &["match", "--resign", "500"],
        &["match", "--openings", "/nonexistent/book.epd"],
    ] {
        let o = kestrel(args);
        let (out, err) = text(&o);
        assert!(!o.status.success(), "{args:?} succeeded: {out}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn epd_suite_with_points_and_a_bad_line() {
    let dir = temp_dir("epd");
    let file = dir.join("suite.epd");
    std::fs::write(
        &file,
        "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"mate1\"; c0 \"Re8#=10, Kf2=1\";\n\
         this is not a position\n\
         k7/8/8/8/8/8/q7/7K w - - am Kg1; id \"avoid\";\n",
    )
    .unwrap();
    let o = kestrel(&["epd", file.to_str().unwrap(), "--depth", "3"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains(":2: skipped"), "{err}");
    assert!(out.contains("mate1"), "{out}");
    assert!(out.contains("points 10/10"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("solved ") && l.contains("/2")),
        "{out}"
    );
    let missing = kestrel(&["epd", "/nonexistent.epd", "--depth", "2"]);
    assert!(!missing.status.success());
    let no_limit = kestrel(&["epd", file.to_str().unwrap()]);
    assert!(!no_limit.status.success());
}
