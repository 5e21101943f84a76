//! `kestrel match` reports the pentanomial pair counts, and its SPRT model is chosen by
//! `--sprt-model`.

use crate::common;
use common::{fixture, kestrel, stderr, stdout};

fn play(extra: &[&str]) -> std::process::Output {
    let openings = fixture("openings-2moves-60.epd");
    let mut args = vec![
        "match",
        "-a",
        "builtin",
        "-b",
        "builtin",
        "--nodes",
        "200",
        "--openings",
        &openings,
    ];
    args.extend_from_slice(extra);
    kestrel(&args)
}

#[test]
fn pairs_are_reported_and_the_model_is_chosen() {
    // Identical engines at fixed nodes: each pair is a win and a loss or two draws.
    let o = play(&["--games", "7", "--sprt", "0,10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("pentanomial (bounds -2.944, 2.944)"),
        "{text}"
    );
    assert!(
        text.contains("pairs: Ptnml(0-2) [0, 0, 3, 0, 0] (3 pairs"),
        "{text}"
    );
    assert!(
        text.contains("(1 game(s) without their pair left out)"),
        "{text}"
    );
    let o = play(&[
        "--games",
        "4",
        "--sprt",
        "0,10",
        "--sprt-model",
        "trinomial",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("trinomial (bounds"), "{}", stdout(&o));
    let o = play(&["--games", "2", "--sprt", "0,10", "--sprt-model", "bogus"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("must be pentanomial, normalized or trinomial"),
        "{}",
        stderr(&o)
    );
}
