//! Compact move encoding and a fixed-capacity move list.

use crate::{PieceKind, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// A move in 16 bits: from (6), to (6), flags (4).
///
/// Castling is encoded as the king's move to its destination (e1g1, as standard UCI writes it)
/// with a castling flag, in Chess960 too, where the king may not move at all (g1g1): the flag,
/// not the squares, says which side it castles ([`Move::is_king_side_castle`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

/// What kind of move a [`Move`] is (its low flag bits; promotions use the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveFlag {
    /// A quiet move.
    Quiet = 0,
    /// A pawn's two-square first move.
    DoublePush = 1,
    /// Castling king side.
    KingCastle = 2,
    /// Castling queen side.
    QueenCastle = 3,
    /// A capture.
    Capture = 4,
    /// An en-passant capture.
    EnPassant = 5,
}

const FLAG_CAPTURE: u16 = 4;
const FLAG_PROMO: u16 = 8;

impl Move {
    /// No move (also the null move made by [`crate::Board::make_null`]).
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of kind `flag`.
    #[inline]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | (flag as u16) << 12)
    }

    /// A promotion to `kind` (knight..queen), capturing or not.
    #[inline]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind, capture: bool) -> Move {
        let flags = FLAG_PROMO | (kind as u16 - 1) | if capture { FLAG_CAPTURE } else { 0 };
        Move(from.0 as u16 | (to.0 as u16) << 6 | flags << 12)
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The square the piece arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    const fn flags(self) -> u16 {
        self.0 >> 12
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Captures, including en passant and capturing promotions.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.flags() & FLAG_CAPTURE != 0
    }

    /// Whether this is an en-passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags() == MoveFlag::EnPassant as u16
    }

    /// Whether this is castling (either side).
    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self.flags(), 2 | 3)
    }

    /// Whether this is castling on the king side (towards the h-file).
    #[inline]
    pub const fn is_king_side_castle(self) -> bool {
        self.flags() == MoveFlag::KingCastle as u16
    }

    /// Whether this is a pawn's double push.
    #[inline]
    pub const fn is_double_push(self) -> bool {
        self.flags() == MoveFlag::DoublePush as u16
    }

    /// Whether this is a promotion (capturing or not).
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.flags() & FLAG_PROMO != 0
    }

    /// Captures and promotions: the moves quiescence search looks at.
    #[inline]
    pub const fn is_noisy(self) -> bool {
        self.flags() & (FLAG_CAPTURE | FLAG_PROMO) != 0
    }

    /// Neither a capture nor a promotion.
    #[inline]
    pub const fn is_quiet(self) -> bool {
        !self.is_noisy()
    }

    /// The piece a promotion makes, if it is one.
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        if self.is_promotion() {
            Some(PieceKind::from_index((self.flags() & 3) as usize + 1))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation (`e2e4`, `e7e8q`, `0000` for the null move).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion_kind() {
            write!(f, "{}", kind.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves any legal chess position has is 218.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves. Its storage is left uninitialised beyond `len`: a list is
/// made at every node of a search, and zeroing 512 bytes there cost more than filling it.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    #[inline(always)]
    fn default() -> Self {
        // Only `len` is written: a struct literal with an uninitialised array let the compiler
        // zero all 520 bytes at some call sites.
        let mut list = MaybeUninit::<MoveList>::uninit();
        // SAFETY: `len` is written before `assume_init`, and `moves` may stay uninitialised
        // (an array of `MaybeUninit`).
        unsafe {
            std::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move (at most [`MAX_MOVES`]; more panics, as no chess position has them).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and `MaybeUninit<Move>` has
        // `Move`'s layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Swaps the moves at `a` and `b`.
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
