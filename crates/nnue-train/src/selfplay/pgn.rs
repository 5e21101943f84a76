//! Positions from recorded games (grandmaster PGN files): each carries its game's result and
//! is either scored by Kestrel's search at fixed nodes or left unscored for
//! `kestrel nnue label`.

use super::game::{GameOutput, SelfPlaySettings, game_searcher, keeps};
use crate::format::{NO_SCORE, Outcome, PackedPosition};
use kestrel_chess::PgnGame;
use kestrel_nnue::NetEval;
use kestrel_search::SearchLimits;
use std::collections::HashSet;
use std::sync::Arc;

/// The game's result, if it has one.
pub fn pgn_outcome(game: &PgnGame) -> Option<Outcome> {
    match game.result.trim() {
        "1-0" => Some(Outcome::WhiteWin),
        "0-1" => Some(Outcome::BlackWin),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// The game's positions from ply `skip_plies` on, not in check, each once. Scored (`score`):
/// searched at `settings.nodes` and kept by the self-play filter (quiet best move, no mate).
/// Unscored: kept when the move played is quiet. A game without a result yields nothing.
/// The search evaluates with `network` (or linearly).
pub fn pgn_positions(
    settings: &SelfPlaySettings,
    network: Option<&Arc<NetEval>>,
    game: &PgnGame,
    skip_plies: usize,
    score: bool,
) -> GameOutput {
    let Some(outcome) = pgn_outcome(game) else {
        return GameOutput {
            records: Vec::new(),
            outcome: None,
            plies: 0,
        };
    };
    let mut searcher = score.then(|| game_searcher(settings, network));
    let limits = SearchLimits::nodes(settings.nodes);
    let mut board = game.start.clone();
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    for (ply, &played) in game.moves.iter().enumerate() {
        if !board.is_legal(played) {
            break;
        }
        if ply >= skip_plies && !board.in_check() && seen.insert(board.hash()) {
            match searcher.as_mut() {
                Some(searcher) => {
                    searcher.control().reset();
                    let result = searcher.search(&board, &limits, &mut |_| {});
                    let s = result.score_internal;
                    if result.best_move.is_some_and(|best| keeps(&board, best, s)) {
                        records.push(PackedPosition::pack(&board, s as i16, outcome));
                    }
                }
                None if !played.is_capture() && !played.is_promotion() => {
                    records.push(PackedPosition::pack(&board, NO_SCORE, outcome));
                }
                None => {}
            }
        }
        board.make_move(played);
    }
    GameOutput {
        records,
        outcome: Some(outcome),
        plies: game.moves.len(),
    }
}
