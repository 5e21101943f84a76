//! Castling rights as four bits, in Polyglot's order.

use crate::{Color, Square};

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

    /// Rights that survive a move touching `sq` (as origin or destination).
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
