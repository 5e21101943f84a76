//! `kestrel match --checkpoint`: a match stopped part-way (even mid-write) and resumed ends
//! where an uninterrupted match ends; a checkpoint of other settings, or a damaged one, is a
//! clear error.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};
use std::path::Path;

fn other_params() -> String {
    format!(
        "{}/../params/distill-sf8-442k.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn play(games: &str, seed: &str, extra: &[&str]) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    let b = other_params();
    let mut args = vec![
        "match",
        "-a",
        "builtin",
        "-b",
        &b,
        "--nodes",
        "400",
        "--games",
        games,
        "--seed",
        seed,
        "--openings",
        &openings,
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

/// The lines that state the match's outcome.
fn outcome(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("endings:") || l.contains(" vs ") || l.starts_with("pairs:"))
        .filter(|l| !l.contains("games,"))
        .map(str::to_string)
        .collect()
}

/// Keeps the header and the first `games` game lines, then a torn half line.
fn cut(path: &Path, games: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = lines[..=games].join("\n");
    kept.push('\n');
    kept.push_str(&lines[games + 1][..lines[games + 1].len() / 2]);
    std::fs::write(path, kept).unwrap();
}

/// The run failed with an error that says `why`.
fn assert_refused(o: &std::process::Output, why: &str) {
    assert!(!o.status.success());
    assert!(stderr(o).contains(why), "{}", stderr(o));
}

#[test]
fn a_resumed_match_ends_where_an_uninterrupted_one_ends() {
    let whole = play("12", "3", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let expected = outcome(&stdout(&whole));
    assert_eq!(expected.len(), 3, "{}", stdout(&whole));

    let dir = temp_dir("match-checkpoint");
    let journal = dir.join("match.jsonl");
    let journal_arg = journal.to_str().unwrap();
    let first = play("12", "3", &["--checkpoint", journal_arg]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(outcome(&stdout(&first)), expected);
    cut(&journal, 5);

    let resumed = play(
        "12",
        "3",
        &["--checkpoint", journal_arg, "--concurrency", "2"],
    );
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let text = stdout(&resumed);
    assert!(text.contains("resumed: 5 finished game(s)"), "{text}");
    assert!(text.contains("7 games in"), "{text}");
    assert_eq!(outcome(&text), expected);
    let lines = std::fs::read_to_string(&journal).unwrap().lines().count();
    assert_eq!(lines, 13, "the header and one line per game");

    // Everything already played: nothing more is played, the same outcome is reported.
    let again = play("12", "3", &["--checkpoint", journal_arg]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stdout(&again).contains("0 games in"), "{}", stdout(&again));
    assert_eq!(outcome(&stdout(&again)), expected);
}

#[test]
fn another_match_or_a_damaged_checkpoint_is_refused() {
    let dir = temp_dir("match-checkpoint-bad");
    let journal = dir.join("match.jsonl");
    let journal_arg = journal.to_str().unwrap();
    let first = play("4", "3", &["--checkpoint", journal_arg]);
    assert!(first.status.success(), "{}", stderr(&first));

    let other = play("4", "4", &["--checkpoint", journal_arg]);
    assert_refused(&other, "written by a different match");

    let text = std::fs::read_to_string(&journal).unwrap();
    let damaged = text.replacen("\"moves\":[\"", "\"moves\":[\"z9", 1);
    std::fs::write(&journal, damaged).unwrap();
    assert_refused(
        &play("4", "3", &["--checkpoint", journal_arg]),
        "game 1: move 'z9",
    );

    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&journal, format!("{}\n{{oops\n{}\n", lines[0], lines[1])).unwrap();
    assert_refused(&play("4", "3", &["--checkpoint", journal_arg]), "line 2:");

    std::fs::write(&journal, "not json\n").unwrap();
    assert_refused(
        &play("4", "3", &["--checkpoint", journal_arg]),
        "not a match checkpoint",
    );
}

#[test]
fn a_tournament_refuses_a_checkpoint() {
    let o = kestrel(&[
        "match",
        "--round-robin",
        "builtin",
        "builtin",
        "--checkpoint",
        "x.jsonl",
        "--nodes",
        "100",
    ]);
    assert_refused(&o, "not a tournament");
}

/// `W,D,L:LL,LD,WL+DD,WD,WW` read off a match report, as `--earlier` takes it.
fn counts_of_report(text: &str) -> String {
    let number_after = |line: &str, key: &str| -> String {
        let rest = &line[line.find(key).unwrap() + key.len()..];
        rest.split_whitespace().next().unwrap().to_string()
    };
    let vs = text
        .lines()
        .find(|l| l.contains(" vs ") && l.contains(" D "))
        .unwrap();
    let wdl = [" W ", " D ", " L "].map(|k| number_after(vs, k)).join(",");
    let pairs = text.lines().find(|l| l.starts_with("pairs:")).unwrap();
    let inside = &pairs[pairs.find('[').unwrap() + 1..pairs.find(']').unwrap()];
    format!("{wdl}:{}", inside.replace(' ', ""))
}

#[test]
fn a_match_continued_from_an_earlier_parts_counts_ends_as_an_uninterrupted_one() {
    let whole = play("12", "3", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let expected: Vec<String> = outcome(&stdout(&whole))
        .into_iter()
        .filter(|l| !l.starts_with("endings"))
        .collect();
    // The first six games alone: the openings are a prefix of the 12-game match's.
    let first = play("6", "3", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let earlier = counts_of_report(&stdout(&first));

    let rest = play("12", "3", &["--earlier", &earlier]);
    assert!(rest.status.success(), "{}", stderr(&rest));
    let text = stdout(&rest);
    assert!(text.contains("continuing after 6 earlier games"), "{text}");
    assert!(
        text.contains("6 games in"),
        "only the later games are played: {text}"
    );
    let got: Vec<String> = outcome(&text)
        .into_iter()
        .filter(|l| !l.starts_with("endings"))
        .map(|l| l.replace(" (with the 6 earlier games)", ""))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn earlier_counts_that_do_not_fit_the_match_are_refused() {
    let o = play("4", "3", &["--earlier", "2,0,2:1,0,0,0,1"]);
    assert_refused(&o, "--games (4) must be larger");
    let o = play("8", "3", &["--earlier", "2,0,2:1,0,0,1,0"]);
    assert_refused(&o, "points");
    let o = play("8", "3", &["--earlier", "2,0,2"]);
    assert_refused(&o, "W,D,L:LL,LD,WL+DD,WD,WW");
}
