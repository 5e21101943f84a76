//! Turning ECO opening lists (`eco<TAB>name<TAB>pgn` rows, as in Lichess' chess-openings) into
//! a text book, weighted by how often strong players actually chose each line's moves.

use super::{TextLineError, encode_move};
use kestrel_chess::{Board, Move, PgnReader};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::BufRead;

/// One named opening line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcoRow {
    /// ECO code, e.g. `C60`.
    pub eco: String,
    /// Opening name, e.g. `Ruy Lopez`.
    pub name: String,
    /// The line's moves from the standard start position.
    pub moves: Vec<Move>,
    /// Book weight: 0 as read, then the games that played the line's rarest move (see
    /// [`weigh_rows_by_games`]).
    pub weight: u32,
}

/// Reads a TSV ECO list (header row optional); bad rows are returned as errors.
pub fn read_eco_tsv(text: &str) -> (Vec<EcoRow>, Vec<TextLineError>) {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || (i == 0 && line.starts_with("eco\t")) {
            continue;
        }
        let mut err = |message: String| errors.push(TextLineError { line_no, message });
        let cols: Vec<&str> = line.split('\t').collect();
        let [eco, name, pgn] = cols[..] else {
            err(format!(
                "expected 3 tab-separated columns, found {}",
                cols.len()
            ));
            continue;
        };
        let mut board = Board::startpos();
        let mut moves = Vec::new();
        let mut bad = None;
        for token in pgn.split_whitespace() {
            if token.ends_with('.') && token.trim_end_matches('.').parse::<u32>().is_ok() {
                continue;
            }
            match board.parse_san(token) {
                Ok(mv) => {
                    board.make_move(mv);
                    moves.push(mv);
                }
                Err(e) => {
                    bad = Some(e.to_string());
                    break;
                }
            }
        }
        match bad {
            Some(e) => err(e),
            None if moves.is_empty() => err("no moves".into()),
            None => rows.push(EcoRow {
                eco: eco.trim().to_string(),
                name: name.trim().to_string(),
                moves,
                weight: 0,
            }),
        }
    }
    (rows, errors)
}

/// Sets each row's weight to the number of games that played its rarest move in the same
/// position (transpositions count), looking at the first `max_ply` plies of every game.
/// Returns the number of games read.
pub fn weigh_rows_by_games<R: BufRead>(rows: &mut [EcoRow], games: R, max_ply: usize) -> usize {
    let mut edges: HashMap<(u64, u16), u32> = HashMap::new();
    for row in rows.iter() {
        let mut board = Board::startpos();
        for &mv in &row.moves {
            edges.insert((board.hash(), encode_move(mv)), 0);
            board.make_move(mv);
        }
    }
    let mut n_games = 0;
    let mut seen = HashSet::new();
    for game in PgnReader::new(games).flatten() {
        n_games += 1;
        seen.clear();
        let mut board = game.start.clone();
        for &mv in game.moves.iter().take(max_ply) {
            let edge = (board.hash(), encode_move(mv));
            if let Some(count) = edges.get_mut(&edge)
                && seen.insert(edge)
            {
                *count += 1;
            }
            board.make_move(mv);
        }
    }
    for row in rows.iter_mut() {
        let mut board = Board::startpos();
        let mut weight = u32::MAX;
        for &mv in &row.moves {
            weight = weight.min(edges[&(board.hash(), encode_move(mv))]);
            board.make_move(mv);
        }
        row.weight = weight;
    }
    n_games
}

/// Renders rows in the text book format, with a header explaining it.
pub fn eco_rows_to_text(rows: &[EcoRow], header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        writeln!(out, "# {line}").unwrap();
    }
    for row in rows {
        let mut board = Board::startpos();
        let mut sans = Vec::with_capacity(row.moves.len());
        for &mv in &row.moves {
            sans.push(board.to_san(mv));
            board.make_move(mv);
        }
        let name = row.name.replace('"', "'");
        writeln!(
            out,
            "{} \"{}\" | {} | {}",
            row.eco,
            name,
            row.weight,
            sans.join(" ")
        )
        .unwrap();
    }
    out
}
