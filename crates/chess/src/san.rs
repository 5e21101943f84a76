//! Standard Algebraic Notation (SAN): writing moves as PGN and EPD expect them, and reading
//! the many spellings found in real files (`0-0`, `e8Q`, `Nf3!?`, `Ng1f3`).

use crate::{Board, Move, PieceKind, Square};
use thiserror::Error;

/// Why a SAN move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanError {
    /// Not a SAN move at all.
    #[error("'{0}' is not a move in SAN (expected e.g. e4, Nf3, exd5, O-O, e8=Q)")]
    Malformed(String),
    /// A SAN move that is not legal in the position (`fen`).
    #[error("'{san}' is not a legal move in position {fen}")]
    Illegal {
        /// The move as written.
        san: String,
        /// The position.
        fen: String,
    },
    /// A SAN move that fits several legal moves in the position (`fen`).
    #[error("'{san}' is ambiguous in position {fen} (add the origin file or rank)")]
    Ambiguous {
        /// The move as written.
        san: String,
        /// The position.
        fen: String,
    },
}

/// The parts of a SAN string once annotations are stripped.
struct SanParts {
    kind: PieceKind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<PieceKind>,
}

impl Board {
    /// SAN of a legal move, with `+`/`#` suffix. A move that is not legal here is written in
    /// UCI form instead (this never panics, whatever the caller passes).
    pub fn to_san(&self, mv: Move) -> String {
        let legal = self.legal_moves();
        if !legal.contains(mv) {
            return mv.to_string();
        }
        let mut san = self.san_without_suffix(mv, legal.as_slice());
        let mut after = self.position_only();
        after.make_move(mv);
        if after.in_check() {
            san.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        san
    }

    fn san_without_suffix(&self, mv: Move, legal: &[Move]) -> String {
        if mv.is_castle() {
            return if mv.is_king_side_castle() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let kind = self.piece_at(mv.from()).map_or(PieceKind::Pawn, |p| p.kind);
        let mut san = String::with_capacity(8);
        if kind == PieceKind::Pawn {
            if mv.is_capture() {
                san.push(file_char(mv.from().file()));
            }
        } else {
            san.push(kind.char().to_ascii_uppercase());
            san.push_str(&self.disambiguation(mv, kind, legal));
        }
        if mv.is_capture() {
            san.push('x');
        }
        san.push_str(&mv.to().to_string());
        if let Some(promo) = mv.promotion_kind() {
            san.push('=');
            san.push(promo.char().to_ascii_uppercase());
        }
        san
    }

    /// File, rank or both of the origin, when another piece of the same kind can reach `to`.
    fn disambiguation(&self, mv: Move, kind: PieceKind, legal: &[Move]) -> String {
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|m| {
                m.to() == mv.to()
                    && m.from() != mv.from()
                    && !m.is_castle()
                    && self.piece_at(m.from()).map(|p| p.kind) == Some(kind)
            })
            .map(|m| m.from())
            .collect();
        let from = mv.from();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|s| s.file() != from.file()) {
            file_char(from.file()).to_string()
        } else if rivals.iter().all(|s| s.rank() != from.rank()) {
            rank_char(from.rank()).to_string()
        } else {
            from.to_string()
        }
    }

    /// Reads a SAN move and checks it is legal here. Check marks, capture marks, `e.p.` and
    /// trailing annotations (`!`, `?`) are accepted but not verified.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let core = text.trim().trim_end_matches(['!', '?', '+', '#']);
        let core = core.strip_suffix("e.p.").unwrap_or(core).trim_end();
        let illegal = || SanError::Illegal {
            san: text.to_string(),
            fen: self.to_fen(),
        };
        if let Some(king_side) = castling_side(core) {
            return self
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castle() && m.is_king_side_castle() == king_side)
                .ok_or_else(illegal);
        }
        let parts = split_san(core).ok_or_else(|| SanError::Malformed(text.to_string()))?;
        let mut found = None;
        for &m in self.legal_moves().iter() {
            let matches = !m.is_castle()
                && m.to() == parts.to
                && m.promotion_kind() == parts.promotion
                && self.piece_at(m.from()).map(|p| p.kind) == Some(parts.kind)
                && parts.from_file.is_none_or(|f| m.from().file() == f)
                && parts.from_rank.is_none_or(|r| m.from().rank() == r);
            if matches {
                if found.is_some() {
                    return Err(SanError::Ambiguous {
                        san: text.to_string(),
                        fen: self.to_fen(),
                    });
                }
                found = Some(m);
            }
        }
        found.ok_or_else(illegal)
    }
}

/// `Some(true)` for king-side castling, `Some(false)` for queen-side (letter O or digit 0).
fn castling_side(core: &str) -> Option<bool> {
    match core {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    }
}

/// Splits `[piece][from file][from rank][x|-|:]to[=promo]` (annotations already removed).
fn split_san(core: &str) -> Option<SanParts> {
    let mut chars: Vec<char> = core.chars().collect();
    if chars.len() < 2 || !core.is_ascii() {
        return None;
    }
    // Promotion: a piece letter after the destination rank, with or without '='.
    let mut promotion = None;
    let last = *chars.last()?;
    if let Some(k) = PieceKind::from_char(last)
        && chars.len() >= 3
        && matches!(
            k,
            PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen
        )
    {
        let before = chars[chars.len() - 2];
        if before == '=' || before.is_ascii_digit() {
            promotion = Some(k);
            chars.pop();
            if before == '=' {
                chars.pop();
            }
        }
    }
    let n = chars.len();
    if n < 2 {
        return None;
    }
    let to: Square = chars[n - 2..].iter().collect::<String>().parse().ok()?;
    let mut head = &chars[..n - 2];
    let kind = match head.first() {
        Some(&c) if "NBRQKP".contains(c) => {
            head = &head[1..];
            PieceKind::from_char(c)?
        }
        _ => PieceKind::Pawn,
    };
    if let Some((&last, rest)) = head.split_last()
        && matches!(last, 'x' | ':' | '-')
    {
        head = rest;
    }
    let (mut from_file, mut from_rank) = (None, None);
    for &c in head {
        match c {
            'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                from_file = Some(c as u8 - b'a')
            }
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
            _ => return None,
        }
    }
    if promotion.is_some() && kind != PieceKind::Pawn {
        return None;
    }
    Some(SanParts {
        kind,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

fn file_char(file: u8) -> char {
    char::from(b'a' + file)
}

fn rank_char(rank: u8) -> char {
    char::from(b'1' + rank)
}

/// Move text with move numbers (`1. e4 e5 2. Nf3`, or `5... Nf6` when Black starts), read from
/// `board`. Stops at the first move that is not legal in its position.
pub fn san_line(board: &Board, moves: &[Move]) -> String {
    let mut b = board.position_only();
    let mut out = String::new();
    for (i, &mv) in moves.iter().enumerate() {
        if !b.is_legal(mv) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        match b.side_to_move() {
            crate::Color::White => out.push_str(&format!("{}. ", b.fullmove_number())),
            crate::Color::Black if i == 0 => out.push_str(&format!("{}... ", b.fullmove_number())),
            crate::Color::Black => {}
        }
        out.push_str(&b.to_san(mv));
        b.make_move(mv);
    }
    out
}
