//! UCI long algebraic move strings (`e2e4`, `e7e8q`; castling as `e1g1`, or in Chess960 mode
//! as the king taking its own rook, `e1h1`, as Stockfish, python-chess and fastchess write it).

use crate::{Board, Move, PieceKind, Square};
use thiserror::Error;

/// Why a UCI move (`e2e4`, `e7e8q`) was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Not a move in UCI notation.
    #[error("'{0}' is not a move in UCI notation (expected e.g. e2e4 or e7e8q)")]
    Malformed(String),
    /// Not legal in the position.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
    /// Fits more than one legal move.
    #[error("'{0}' is ambiguous in this position")]
    Ambiguous(String),
}

impl Board {
    /// Parses a UCI move and checks that it is legal here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(malformed());
        }
        let from: Square = text[0..2].parse().map_err(|_| malformed())?;
        let to: Square = text[2..4].parse().map_err(|_| malformed())?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceKind::from_char(c as char) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => return Err(malformed()),
            },
        };
        // King takes own rook is castling in either mode; the king's destination is castling
        // in standard mode, and in Chess960 only when the king moves two or more files (`f1g1`
        // may be a plain king step there).
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| {
                m.from() == from
                    && m.promotion_kind() == promotion
                    && if m.is_castle() {
                        self.castle_rook_squares(*m).0 == to
                            || (m.to() == to
                                && (!self.chess960() || m.from().file().abs_diff(to.file()) >= 2))
                    } else {
                        m.to() == to
                    }
            })
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// The UCI text of `mv`, a move of this position or of a game continuing from it (a PV):
    /// castling as the king's destination (`e1g1`), or as the king taking its own rook (`e1h1`)
    /// in Chess960 mode ([`Board::chess960`]).
    pub fn uci_move(&self, mv: Move) -> String {
        if mv.is_castle() && self.chess960() {
            format!("{}{}", mv.from(), self.castle_rook_squares(mv).0)
        } else {
            mv.to_string()
        }
    }
}
