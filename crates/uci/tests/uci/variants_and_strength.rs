//! UCI_Chess960 (moves in and out as king takes rook), UCI_ShowWDL, UCI_Opponent and the
//! strength limit (UCI_LimitStrength / UCI_Elo / Seed), driven in-process.

use crate::common;

use common::{bestmoves, engine, info_strings, send};
use kestrel_uci::strength::MAX_ELO;

const FEN_960: &str = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";

#[test]
fn chess960_castling_goes_out_and_comes_in_as_king_takes_rook() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {FEN_960}"),
            "go searchmoves g1h1 depth 3",
        ],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    assert!(best[0].starts_with("bestmove g1h1"), "{out:?}");
    assert!(out.iter().any(|l| l.contains(" pv g1h1")), "{out:?}");
    send(
        &mut e,
        &cap,
        &[&format!("position fen {FEN_960} moves g1h1")],
    );
    assert_eq!(
        e.board().to_fen(),
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1"
    );
    // Switched off, the standard start castles as e1g1 again.
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name UCI_Chess960 value false",
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "go searchmoves e1g1 depth 2",
        ],
    );
    assert!(bestmoves(&out)[0].starts_with("bestmove e1g1"), "{out:?}");
}

#[test]
fn show_wdl_adds_per_mille_triples_and_opponent_is_logged() {
    let (mut e, cap) = engine();
    let out = send(
        &mut e,
        &cap,
        &[
            "setoption name UCI_ShowWDL value true",
            "setoption name UCI_Opponent value GM 2800 human Some Player",
            "position startpos",
            "go depth 4",
        ],
    );
    assert!(
        info_strings(&out)
            .iter()
            .any(|l| l.contains("opponent: GM 2800 human Some Player"))
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty());
    for line in infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| *w == "wdl")
            .expect("wdl on every score line");
        let sum: u32 = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse::<u32>().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{line}");
    }
}

fn limited_game(elo: i64, seed: u64) -> Vec<String> {
    let (mut e, cap) = engine();
    send(
        &mut e,
        &cap,
        &[
            "setoption name UCI_LimitStrength value true",
            &format!("setoption name UCI_Elo value {elo}"),
            &format!("setoption name Seed value {seed}"),
        ],
    );
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..16 {
        let position = format!("position startpos moves {}", moves.join(" "));
        let out = send(
            &mut e,
            &cap,
            &[
                position.trim_end_matches(" moves "),
                "go wtime 60000 btime 60000",
            ],
        );
        let best = bestmoves(&out)[0]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        moves.push(best);
    }
    moves
}

#[test]
fn strength_limit_is_deterministic_for_a_seed_and_varies_with_it() {
    let a = limited_game(1320, 1);
    assert_eq!(a, limited_game(1320, 1), "same seed, same game");
    let others: Vec<Vec<String>> = (2..5).map(|s| limited_game(1320, s)).collect();
    assert!(
        others.iter().any(|g| *g != a),
        "the seed changes the weak level's choices"
    );
}

#[test]
fn elo_outside_the_range_is_refused() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["setoption name UCI_Elo value 900"]);
    assert!(
        info_strings(&out)
            .iter()
            .any(|l| l.contains(&format!("outside 1320..={MAX_ELO}"))),
        "{out:?}"
    );
    assert_eq!(e.settings().elo, 1320);
}
