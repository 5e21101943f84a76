//! `kestrel evolve games`: a tiny run writes its files and moves a halved knight up; bad input
//! is a clear error.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};

#[test]
fn a_tiny_run_moves_a_halved_knight_up() {
    let dir = temp_dir("evolve-games");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[eval]\nKNIGHT_VALUE = 185\n").unwrap();
    let out = dir.join("out");
    let openings = fixture("openings-2moves-60.epd");
    let o = kestrel(&[
        "evolve",
        "games",
        "--set",
        "KNIGHT_VALUE",
        "--table",
        "eval",
        "--params",
        &broken.display().to_string(),
        "--openings",
        &openings,
        "--nodes",
        "500",
        "--population",
        "6",
        "--generations",
        "4",
        "--first-pairs",
        "2",
        "--rounds",
        "2",
        "--start-spread",
        "0.1",
        "--seed",
        "1",
        "--threads",
        "2",
        "--quiet",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "best.toml",
        "centre.toml",
        "log.csv",
        "evolution.svg",
        "checkpoint.json",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let text = stdout(&o);
    let best: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("KNIGHT_VALUE: start 185 best "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no best value in: {text}"));
    // Seeds 1-3 of this run end at 250, 451 and 310.
    assert!(best > 200.0, "best knight {best}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let openings = fixture("openings-2moves-60.epd");
    let o = kestrel(&[
        "evolve",
        "games",
        "--set",
        "NOT_A_PARAM",
        "--openings",
        &openings,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown parameter 'NOT_A_PARAM'"),
        "{}",
        stderr(&o)
    );
    let o = kestrel(&[
        "evolve",
        "games",
        "--set",
        "KNIGHT_VALUE",
        "--openings",
        &openings,
        "--keep",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("keep share"), "{}", stderr(&o));
}

/// Runs `kestrel` expecting a non-zero exit whose message contains `want`.
fn refused(args: &str, want: &str) {
    let words: Vec<&str> = args.split_whitespace().collect();
    let o = kestrel(&words);
    assert!(!o.status.success(), "kestrel {args} succeeded");
    assert!(stderr(&o).contains(want), "kestrel {args}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn game_fitness_options_that_make_no_sense_are_refused() {
    refused(
        "evolve search --fitness nodes",
        "invalid value 'nodes' for '--fitness",
    );
    refused(
        "evolve mnc --fitness elo",
        "invalid value 'elo' for '--fitness",
    );
    refused(
        "evolve search --first-pairs 2",
        "--first-pairs is an option of the game fitness: add --fitness games",
    );
    refused(
        "evolve search --fitness games --node-cap 100",
        "--node-cap is an option of the suite fitness",
    );
    refused(
        "evolve search --fitness games --suite x.epd",
        "--suite is an option of the suite fitness",
    );
    refused(
        "evolve search --fitness games --opponents population --keep 0.3",
        "--keep is for the race against the reference",
    );
    refused(
        "evolve search --fitness games --set NOT_A_PARAM",
        "NOT_A_PARAM",
    );
    refused(
        "evolve mnc --opponents both",
        "--opponents is an option of the game fitness: add --fitness games",
    );
    refused(
        "evolve mnc --fitness games --algorithm generational",
        "--algorithm mnc only",
    );
    refused(
        "evolve mnc --fitness games --init defaults --init-range 10",
        "makes no sense with --init defaults",
    );
    refused(
        "evolve search --fitness games --first-pairs 0",
        "for '--first-pairs <N>': must be at least 1",
    );
}
