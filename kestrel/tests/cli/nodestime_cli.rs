//! A clock counted in nodes (`--nodestime`): games at a clock that repeat exactly, and the
//! combinations that make no sense refused with a clear message.

use crate::common;
use common::{fixture, kestrel, stderr, temp_dir};

/// The moves of every game in a PGN file (the tag lines hold the date and time).
fn movetext(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('['))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_match_at_a_clock_in_nodes_repeats_itself() {
    let dir = temp_dir("nodestime-match");
    let openings = fixture("openings-2moves-60.epd");
    let play = |name: &str| {
        let pgn = dir.join(name);
        let pgn_arg = pgn.display().to_string();
        let o = kestrel(&[
            "match",
            "-a",
            "builtin",
            "-b",
            "builtin",
            "--tc",
            "0.4+0.01",
            "--nodestime",
            "20",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--openings",
            &openings,
            "--pgn-out",
            &pgn_arg,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        movetext(&pgn)
    };
    let first = play("a.pgn");
    assert!(
        first
            .iter()
            .any(|l| l.contains("1-0") || l.contains("0-1") || l.contains("1/2"))
    );
    assert_eq!(first, play("b.pgn"));
}

#[test]
fn nodestime_needs_a_clock_and_built_in_engines() {
    let openings = fixture("openings-2moves-60.epd");
    let base = [
        "match",
        "-a",
        "builtin",
        "--games",
        "2",
        "--openings",
        &openings,
    ];
    for (extra, message) in [
        (
            &["-b", "builtin", "--nodes", "100", "--nodestime", "20"][..],
            "needs --tc",
        ),
        (
            &["-b", "uci:/bin/true", "--tc", "1+0.01", "--nodestime", "20"][..],
            "only the built-in engines follow",
        ),
        (
            &["-b", "builtin", "--tc", "1+0.01", "--nodestime", "0"][..],
            "--nodestime",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let o = kestrel(&args);
        assert!(!o.status.success(), "{extra:?} was accepted");
        assert!(stderr(&o).contains(message), "{extra:?}: {}", stderr(&o));
    }
    let dir = temp_dir("nodestime-spsa");
    let out = dir.join("run").display().to_string();
    let o = kestrel(&[
        "tune",
        "spsa",
        "--set",
        "KNIGHT_VALUE",
        "--depth",
        "2",
        "--nodestime",
        "20",
        "--out",
        &out,
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("needs --tc"), "{}", stderr(&o));
}
