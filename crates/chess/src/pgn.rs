//! PGN games: the game record and its writer; `reader` holds the streaming reader.

mod reader;

pub use reader::PgnReader;

use crate::{Board, Color, Move};
use std::io::{self, Write};
use thiserror::Error;

/// One game: tags in file order, the start position, the main line and the result token.
#[derive(Debug, Clone, PartialEq)]
pub struct PgnGame {
    /// Tag pairs (name, value) in file order.
    pub tags: Vec<(String, String)>,
    /// The start position (from a `FEN` tag, else the standard one).
    pub start: Board,
    /// The main line, as legal moves from `start`.
    pub moves: Vec<Move>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

/// Why a game was skipped. `game_index` counts games from 0 in file order (failed ones
/// included); `line` is the 1-based line where the problem was found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("PGN game #{} (line {line}): {reason}", game_index + 1)]
pub struct PgnError {
    /// Index of the game in the file, from 0.
    pub game_index: usize,
    /// 1-based line where the problem was found.
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

impl PgnGame {
    /// Value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position after the main line (with the moves in its history, for repetition checks).
    /// Stops early if a move is not legal, which only a hand-built game can contain.
    pub fn final_board(&self) -> Board {
        let mut board = self.start.clone();
        for &mv in &self.moves {
            if !board.is_legal(mv) {
                break;
            }
            board.make_move(mv);
        }
        board
    }

    /// The game as PGN text: tags (plus `Variant "Chess960"` for a Chess960 start, and
    /// `SetUp`/`FEN` when the start is not the standard one and no `FEN` tag is given), a blank line, then numbered SAN movetext in lines that fit
    /// 80 columns (79 characters and the newline), ending with the result.
    pub fn to_pgn_string(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape_tag(v)));
        }
        if self.start.chess960() && self.tag("Variant").is_none() {
            out.push_str("[Variant \"Chess960\"]\n");
        }
        if self.tag("FEN").is_none() && self.start != Board::startpos() {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{}\"]\n", self.start.to_fen()));
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 2);
        let mut board = self.start.position_only();
        for (i, &mv) in self.moves.iter().enumerate() {
            if !board.is_legal(mv) {
                tokens.push(format!(
                    "{{move {} ({mv}) is illegal; movetext cut here}}",
                    i + 1
                ));
                break;
            }
            match board.side_to_move() {
                Color::White => tokens.push(format!("{}.", board.fullmove_number())),
                Color::Black if i == 0 => tokens.push(format!("{}...", board.fullmove_number())),
                Color::Black => {}
            }
            tokens.push(board.to_san(mv));
            board.make_move(mv);
        }
        tokens.push(if self.result.is_empty() {
            "*".to_string()
        } else {
            self.result.clone()
        });
        // Lines of at most 79 characters, as PGN export format asks (and python-chess writes).
        let mut line_len = 0;
        for tok in tokens {
            if line_len > 0 && line_len + 1 + tok.len() > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += tok.len();
            out.push_str(&tok);
        }
        out.push('\n');
        out
    }
}

/// Writes one game followed by the blank line that separates games.
pub fn write_pgn<W: Write>(out: &mut W, game: &PgnGame) -> io::Result<()> {
    out.write_all(game.to_pgn_string().as_bytes())?;
    out.write_all(b"\n")
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}
