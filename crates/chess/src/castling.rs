//! Castling rights as four bits, in Polyglot's order, and where each right's king and rook
//! stand and land (any files, for Chess960).

use crate::attacks::between;
use crate::{Bitboard, Color, Square};

/// Castling rights as four bits: the `WHITE_KING`, `WHITE_QUEEN`, `BLACK_KING` and
/// `BLACK_QUEEN` flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// White may castle king side.
    pub const WHITE_KING: u8 = 1;
    /// White may castle queen side.
    pub const WHITE_QUEEN: u8 = 2;
    /// Black may castle king side.
    pub const BLACK_KING: u8 = 4;
    /// Black may castle queen side.
    pub const BLACK_QUEEN: u8 = 8;
    /// No castling right.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four castling rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// Whether the right `bit` (one of the flags) is held.
    #[inline]
    pub const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// `color`'s king-side flag.
    #[inline]
    pub const fn king_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_KING,
            Color::Black => Self::BLACK_KING,
        }
    }

    /// `color`'s queen-side flag.
    #[inline]
    pub const fn queen_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_QUEEN,
            Color::Black => Self::BLACK_QUEEN,
        }
    }

    /// The flag of `color`'s king-side (`king_side`) or queen-side right.
    #[inline]
    pub const fn flag(color: Color, king_side: bool) -> u8 {
        if king_side {
            Self::king_side(color)
        } else {
            Self::queen_side(color)
        }
    }

    /// Rights that survive a move touching `sq` (as origin or destination) in standard chess.
    #[inline]
    pub const fn kept_after_touching(sq: Square) -> u8 {
        match sq.0 {
            0 => !Self::WHITE_QUEEN,
            4 => !(Self::WHITE_KING | Self::WHITE_QUEEN),
            7 => !Self::WHITE_KING,
            56 => !Self::BLACK_QUEEN,
            60 => !(Self::BLACK_KING | Self::BLACK_QUEEN),
            63 => !Self::BLACK_KING,
            _ => 0xff,
        }
    }

    /// FEN field (`KQkq` or `-`).
    pub fn to_fen(self) -> String {
        let s: String = [
            (Self::WHITE_KING, 'K'),
            (Self::WHITE_QUEEN, 'Q'),
            (Self::BLACK_KING, 'k'),
            (Self::BLACK_QUEEN, 'q'),
        ]
        .iter()
        .filter(|(b, _)| self.has(*b))
        .map(|(_, c)| *c)
        .collect();
        if s.is_empty() { "-".to_string() } else { s }
    }
}

/// The index (0 to 3, the flag's bit) of `color`'s king-side or queen-side right.
#[inline]
pub(crate) const fn right_index(color: Color, king_side: bool) -> usize {
    color.index() * 2 + if king_side { 0 } else { 1 }
}

/// Where the king of `color` lands when castling on one side (g1/c1, g8/c8, in every variant).
#[inline]
pub(crate) const fn king_destination(color: Color, king_side: bool) -> Square {
    Square::new(if king_side { 6 } else { 2 }, back_rank(color))
}

/// Where the rook of `color` lands when castling on one side (f1/d1, f8/d8).
#[inline]
pub(crate) const fn rook_destination(color: Color, king_side: bool) -> Square {
    Square::new(if king_side { 5 } else { 3 }, back_rank(color))
}

const fn back_rank(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// The squares of one game's castling: for each right, the rook's starting square, the squares
/// that must be empty (all between king and its destination and rook and its destination, but
/// those two pieces) and the king's path (which must not be attacked); and per square the rights
/// a move touching it keeps. Fixed for a game: rights are lost, never moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CastlingSetup {
    /// Per right index, the castling rook's starting square (meaningful while the right is held).
    pub rook_from: [Square; 4],
    /// Per right index, the squares that must be empty.
    pub empty: [Bitboard; 4],
    /// Per right index, the squares the king crosses and lands on.
    pub king_path: [Bitboard; 4],
    /// Per square, the rights a move from or to it keeps.
    pub keep: [u8; 64],
}

impl CastlingSetup {
    /// No castling right anywhere: every move keeps every right.
    pub const NONE: CastlingSetup = CastlingSetup {
        rook_from: [Square(7), Square(0), Square(63), Square(56)],
        empty: [Bitboard::EMPTY; 4],
        king_path: [Bitboard::EMPTY; 4],
        keep: [0xff; 64],
    };

    /// Records the right `index` of a king on `king` castling with the rook on `rook`.
    pub fn add(&mut self, index: usize, king: Square, rook: Square) {
        let color = if index < 2 {
            Color::White
        } else {
            Color::Black
        };
        let king_side = index.is_multiple_of(2);
        let king_to = king_destination(color, king_side);
        let rook_to = rook_destination(color, king_side);
        let travel = between(king, king_to) | king_to.bb() | between(rook, rook_to) | rook_to.bb();
        self.rook_from[index] = rook;
        self.empty[index] = travel & !(king.bb() | rook.bb());
        self.king_path[index] = between(king, king_to) | king_to.bb();
        let flag = 1u8 << index;
        self.keep[king.index()] &= !flag;
        self.keep[rook.index()] &= !flag;
    }

    /// Whether right `index` is castled with the king on e1/e8 and the rook in the corner, as
    /// in standard chess.
    pub fn is_standard(&self, index: usize, king: Square) -> bool {
        let color = if index < 2 {
            Color::White
        } else {
            Color::Black
        };
        let file = if index.is_multiple_of(2) { 7 } else { 0 };
        king == Square::new(4, back_rank(color))
            && self.rook_from[index] == Square::new(file, back_rank(color))
    }
}
