//! `go` in a finished game: a score line (`mate 0` when mated, `cp 0` in stalemate) before
//! `bestmove 0000`, as Stockfish answers.

use crate::common;

use common::{bestmoves, engine, send};

fn answer(fen: &str) -> Vec<String> {
    let (mut e, cap) = engine();
    send(
        &mut e,
        &cap,
        &[&format!("position fen {fen}"), "go depth 3"],
    )
}

#[test]
fn mated_position_reports_mate_0() {
    // Fool's mate: White is checkmated.
    let out = answer("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(
        out.iter().any(|l| l == "info depth 0 score mate 0"),
        "{out:#?}"
    );
    assert_eq!(bestmoves(&out), ["bestmove 0000"]);
}

#[test]
fn stalemate_reports_cp_0() {
    let out = answer("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(
        out.iter().any(|l| l == "info depth 0 score cp 0"),
        "{out:#?}"
    );
    assert_eq!(bestmoves(&out), ["bestmove 0000"]);
}
