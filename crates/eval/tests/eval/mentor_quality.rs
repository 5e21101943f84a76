//! The hand-tuned evaluation knows some chess: late positions of decisive GM games mostly get
//! the winner's sign, for the full evaluation (the mentor) and for its compact subset.

use kestrel_chess::{Board, PgnReader};
use kestrel_eval::{EVAL_TABLE, Evaluator, compact_values};
use kestrel_params::ParamValues;
use std::io::BufReader;

/// Positions from ply 40 on (every 6th ply) of the first decisive games, with the winner's sign.
fn decisive_positions(games: &std::path::Path, limit: usize) -> Vec<(Board, i32)> {
    let file = std::fs::File::open(games).expect("GM games file");
    let mut out = Vec::new();
    for game in PgnReader::new(BufReader::new(file)).flatten() {
        let winner = match game.result.as_str() {
            "1-0" => 1,
            "0-1" => -1,
            _ => continue,
        };
        let mut board = game.start.clone();
        for (ply, mv) in game.moves.iter().enumerate() {
            board.make_move(*mv);
            if ply >= 40 && ply.is_multiple_of(6) {
                out.push((board.clone(), winner));
            }
        }
        if out.len() >= limit {
            break;
        }
    }
    out
}

/// Share of positions whose score has the winner's sign (a score of 0 counts one half).
fn agreement(eval: &Evaluator, positions: &[(Board, i32)]) -> f64 {
    let points: f64 = positions
        .iter()
        .map(
            |(b, w)| match (eval.evaluate_white(b).signum() * w).signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            },
        )
        .sum();
    points / positions.len() as f64
}

#[test]
fn evaluation_sign_predicts_the_winner_of_decisive_games() {
    let games = kestrel_testdata::shared_or_skip!("games/gm2600-train.pgn");
    let positions = decisive_positions(&games, 3000);
    assert!(positions.len() >= 3000);
    let full = Evaluator::default();
    let compact = Evaluator::new(compact_values(&ParamValues::defaults(&EVAL_TABLE)));
    let mut material = ParamValues::zeros(&EVAL_TABLE);
    for name in [
        "PAWN_VALUE",
        "KNIGHT_VALUE",
        "BISHOP_VALUE",
        "ROOK_VALUE",
        "QUEEN_VALUE",
    ] {
        material
            .set(name, full.params().get(name).unwrap())
            .unwrap();
    }
    let m = agreement(&Evaluator::new(material), &positions);
    let (f, c) = (
        agreement(&full, &positions),
        agreement(&compact, &positions),
    );
    println!(
        "sign agreement on {} positions: full {f:.3}, compact {c:.3}, material only {m:.3}",
        positions.len()
    );
    assert!(
        f > 0.65,
        "full evaluation agrees with the winner only {f:.3}"
    );
    assert!(
        c > 0.65,
        "compact evaluation agrees with the winner only {c:.3}"
    );
    // Positional knowledge must add to material, not just echo it.
    assert!(
        f > m && c > m,
        "full {f:.3} / compact {c:.3} vs material {m:.3}"
    );
}
