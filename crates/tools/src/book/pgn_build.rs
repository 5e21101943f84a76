//! PGN games -> Polyglot book, the way Polyglot's `make-book` weighs moves: every game adds
//! 2 (win), 1 (draw, or unfinished) or 0 (loss) for the side that played the move.

use super::{BookEntry, BookError, encode_move};
use kestrel_chess::{Color, PgnReader};
use std::collections::HashMap;
use std::io::BufRead;

/// Which moves of the games go into the book (default: the first 24 plies, moves played in at
/// least 3 games).
#[derive(Clone, Copy, Debug)]
pub struct PgnBookOptions {
    /// Only the first this many plies of each game are used.
    pub max_ply: usize,
    /// A move must have been played in at least this many games to be kept.
    pub min_games: u32,
}

impl Default for PgnBookOptions {
    fn default() -> Self {
        PgnBookOptions {
            max_ply: 24,
            min_games: 3,
        }
    }
}

/// What building a book from PGN read and produced.
#[derive(Clone, Debug, Default)]
pub struct PgnBookStats {
    /// Games read and used.
    pub games: usize,
    /// Games the PGN reader rejected (with the first few reasons).
    pub skipped: usize,
    /// The reasons for the first skipped games (at most 5).
    pub first_errors: Vec<String>,
    /// Book entries produced (after the `min_games` filter).
    pub entries: usize,
}

/// Reads every game and returns Polyglot entries (weights scaled to fit 16 bits).
pub fn build_polyglot_from_pgn<R: BufRead>(
    reader: R,
    options: PgnBookOptions,
) -> Result<(Vec<BookEntry>, PgnBookStats), BookError> {
    let mut stats = PgnBookStats::default();
    // (key, move) -> (games, score)
    let mut table: HashMap<(u64, u16), (u32, u32)> = HashMap::new();
    for item in PgnReader::new(reader) {
        let game = match item {
            Ok(g) => g,
            Err(e) => {
                if e.reason.starts_with("read error") {
                    return Err(BookError::corrupt(e.to_string()));
                }
                stats.skipped += 1;
                if stats.first_errors.len() < 5 {
                    stats.first_errors.push(e.to_string());
                }
                continue;
            }
        };
        stats.games += 1;
        let white_score = match game.result.as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        let mut board = game.start.clone();
        for &mv in game.moves.iter().take(options.max_ply) {
            let score = match board.side_to_move() {
                Color::White => white_score,
                Color::Black => 2 - white_score,
            };
            let slot = table
                .entry((board.hash(), encode_move(mv)))
                .or_insert((0, 0));
            slot.0 += 1;
            slot.1 += score;
            board.make_move(mv);
        }
    }
    let kept: Vec<((u64, u16), u32)> = table
        .into_iter()
        .filter(|(_, (games, _))| *games >= options.min_games)
        .map(|(k, (_, score))| (k, score))
        .collect();
    let max = kept.iter().map(|(_, s)| *s).max().unwrap_or(0) as u64;
    let scale = |s: u32| {
        if max > u16::MAX as u64 {
            (s as u64 * u16::MAX as u64 / max) as u32
        } else {
            s
        }
    };
    let entries: Vec<BookEntry> = kept
        .into_iter()
        .map(|((key, mv), score)| BookEntry {
            key,
            mv,
            weight: scale(score),
        })
        .collect();
    stats.entries = entries.len();
    Ok((entries, stats))
}
