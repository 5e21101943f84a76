//! One self-play game: a seeded opening plus a few random plies, then Kestrel against itself at
//! fixed nodes, every qualifying position scored by the search that chose the move, and the
//! result from the rules or from adjudication on the search's scores.

use crate::format::{Outcome, PackedPosition};
use kestrel_chess::{Board, Color, Move};
use kestrel_nnue::NetEval;
use kestrel_search::{EngineConfig, MATE_BOUND, SearchLimits, SearchResult, Searcher};
use kestrel_tools::Opening;
use kestrel_tools::game::{GameResult, rules_end};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How self-play games are played and adjudicated (everything that decides the output).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelfPlaySettings {
    /// The run's seed; game `i` plays from [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Random legal plies played after the opening position.
    pub random_plies: usize,
    /// An opening (after its random plies) the search scores beyond this is drawn again.
    pub max_opening_score: i32,
    /// Hash table of each game's searcher, in MB.
    pub hash_mb: usize,
    /// A side wins when every score of the last `win_plies` plies is at least this for it.
    pub win_score: i32,
    /// Plies the win score must hold.
    pub win_plies: usize,
    /// A draw when, from ply `draw_from_ply` on, the last `draw_plies` scores are all within
    /// ±`draw_score`.
    pub draw_score: i32,
    /// Plies the draw score must hold.
    pub draw_plies: usize,
    /// The first ply at which a draw may be adjudicated.
    pub draw_from_ply: usize,
    /// A game still running after this many plies is a draw.
    pub max_plies: usize,
    /// The network the searches evaluate with, by [`network_id`] (`None`: the linear
    /// evaluation), so that a run is continued only with the network it began with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
}

impl Default for SelfPlaySettings {
    fn default() -> Self {
        SelfPlaySettings {
            seed: 1,
            nodes: 5000,
            random_plies: 4,
            max_opening_score: 300,
            hash_mb: 8,
            win_score: 1000,
            win_plies: 8,
            draw_score: 10,
            draw_plies: 16,
            draw_from_ply: 80,
            max_plies: 400,
            network: None,
        }
    }
}

/// A network's identity in [`SelfPlaySettings::network`]: the checksum of its file bytes.
pub fn network_id(net: &kestrel_nnue::Network) -> String {
    let bytes = kestrel_nnue::file::to_bytes(net);
    format!(
        "hidden {} fnv1a64 {:016x}",
        net.hidden,
        kestrel_nnue::file::fnv1a64(&bytes)
    )
}

/// A one-thread searcher with the settings' hash, evaluating with `network` (or linearly).
pub fn game_searcher(settings: &SelfPlaySettings, network: Option<&Arc<NetEval>>) -> Searcher {
    Searcher::new(EngineConfig {
        hash_mb: settings.hash_mb,
        threads: 1,
        network: network.cloned(),
        ..EngineConfig::default()
    })
}

/// How many times a game draws random plies before it starts from the bare opening.
const OPENING_TRIES: usize = 8;

/// SplitMix64's finaliser: a well-mixed 64-bit value.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run seeded `seed` (independent of threads and blocks).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

/// What one game yields: its positions (carrying its result) and how it ended.
#[derive(Clone, Debug)]
pub struct GameOutput {
    /// The qualifying positions, in the order played.
    pub records: Vec<PackedPosition>,
    /// The result from White's view (`None`: a recorded game without one).
    pub outcome: Option<Outcome>,
    /// Plies played by the engine.
    pub plies: usize,
}

/// Whether a searched position is kept: not in check, a quiet best move (no capture or
/// promotion), and a score that is not a mate.
pub fn keeps(board: &Board, best: Move, score: i32) -> bool {
    !board.in_check() && !best.is_capture() && !best.is_promotion() && score.abs() < MATE_BOUND
}

/// Plays game `index` (openings must not be empty), evaluating with `network` or linearly.
pub fn play_game(
    settings: &SelfPlaySettings,
    network: Option<&Arc<NetEval>>,
    openings: &[Opening],
    index: u64,
) -> GameOutput {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(settings.seed, index));
    let mut searcher = game_searcher(settings, network);
    let limits = SearchLimits::nodes(settings.nodes);
    let (mut board, mut first) = start_position(settings, openings, &mut rng, &mut searcher);
    let mut pending = Vec::new();
    let mut white_scores = Vec::new();
    let mut plies = 0;
    let outcome = loop {
        if let Some((result, _)) = rules_end(&board) {
            break outcome_of(result);
        }
        if plies >= settings.max_plies {
            break Outcome::Draw;
        }
        let result = first
            .take()
            .unwrap_or_else(|| search(&mut searcher, &board, &limits));
        let Some(best) = result.best_move else {
            break Outcome::Draw;
        };
        let score = result.score_internal;
        if keeps(&board, best, score) {
            pending.push(PackedPosition::pack(&board, score as i16, Outcome::Draw));
        }
        white_scores.push(score * board.side_to_move().sign());
        if let Some(verdict) = adjudicate(settings, &white_scores, plies + 1) {
            break verdict;
        }
        board.make_move(best);
        plies += 1;
    };
    let records = pending
        .into_iter()
        .map(|r| {
            let mut r = r;
            r.0[28] = outcome as u8;
            r
        })
        .collect();
    GameOutput {
        records,
        outcome: Some(outcome),
        plies,
    }
}

fn search(searcher: &mut Searcher, board: &Board, limits: &SearchLimits) -> SearchResult {
    searcher.control().reset();
    searcher.search(board, limits, &mut |_| {})
}

fn outcome_of(result: GameResult) -> Outcome {
    match result {
        GameResult::WhiteWins => Outcome::WhiteWin,
        GameResult::BlackWins => Outcome::BlackWin,
        _ => Outcome::Draw,
    }
}

/// The game's start: a random opening and random plies, redrawn while the position is over or
/// the search finds it lopsided; with it the search of its first move.
fn start_position(
    settings: &SelfPlaySettings,
    openings: &[Opening],
    rng: &mut ChaCha8Rng,
    searcher: &mut Searcher,
) -> (Board, Option<SearchResult>) {
    let limits = SearchLimits::nodes(settings.nodes);
    let opening = &openings[rng.random_range(0..openings.len())];
    for _ in 0..OPENING_TRIES {
        let mut board = opening.position();
        for _ in 0..settings.random_plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves.as_slice()[rng.random_range(0..moves.len())]);
        }
        if rules_end(&board).is_some() {
            continue;
        }
        searcher.new_game();
        let first = search(searcher, &board, &limits);
        if first.score_internal.abs() <= settings.max_opening_score {
            return (board, Some(first));
        }
    }
    searcher.new_game();
    (opening.position(), None)
}

/// The adjudicated result after `plies` plies with these scores (White's view), if any.
fn adjudicate(settings: &SelfPlaySettings, white_scores: &[i32], plies: usize) -> Option<Outcome> {
    let last = |n: usize| &white_scores[white_scores.len().saturating_sub(n)..];
    let window = last(settings.win_plies);
    if settings.win_plies > 0 && window.len() == settings.win_plies {
        if window.iter().all(|&s| s >= settings.win_score) {
            return Some(Outcome::win_for(Color::White));
        }
        if window.iter().all(|&s| s <= -settings.win_score) {
            return Some(Outcome::win_for(Color::Black));
        }
    }
    let window = last(settings.draw_plies);
    (plies >= settings.draw_from_ply
        && settings.draw_plies > 0
        && window.len() == settings.draw_plies
        && window.iter().all(|&s| s.abs() <= settings.draw_score))
    .then_some(Outcome::Draw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_the_whole_window() {
        let s = SelfPlaySettings {
            win_plies: 3,
            draw_plies: 3,
            draw_from_ply: 10,
            ..SelfPlaySettings::default()
        };
        assert_eq!(adjudicate(&s, &[1200, 1100], 5), None);
        assert_eq!(
            adjudicate(&s, &[0, 1200, 1100, 1500], 5),
            Some(Outcome::WhiteWin)
        );
        assert_eq!(
            adjudicate(&s, &[-1200, -31000, -1100], 5),
            Some(Outcome::BlackWin)
        );
        assert_eq!(adjudicate(&s, &[1200, 900, 1100], 5), None);
        assert_eq!(adjudicate(&s, &[3, -5, 0], 9), None, "too early for a draw");
        assert_eq!(adjudicate(&s, &[3, -5, 0], 10), Some(Outcome::Draw));
        assert_eq!(adjudicate(&s, &[3, -50, 0], 10), None);
    }

    #[test]
    fn a_game_is_reproducible_and_its_records_carry_its_result() {
        let settings = SelfPlaySettings {
            nodes: 300,
            max_plies: 60,
            ..SelfPlaySettings::default()
        };
        let openings = vec![Opening::startpos()];
        let a = play_game(&settings, None, &openings, 3);
        let b = play_game(&settings, None, &openings, 3);
        assert_eq!(a.records, b.records);
        assert!(!a.records.is_empty());
        assert!(a.records.iter().all(|r| Some(r.outcome()) == a.outcome));
        for r in &a.records {
            let board = r.to_board().unwrap();
            assert!(!board.in_check());
            assert!(r.score().unwrap().abs() < MATE_BOUND as i16);
        }
        let other = play_game(&settings, None, &openings, 4);
        assert_ne!(
            a.records, other.records,
            "another game index plays another game"
        );
    }
}
