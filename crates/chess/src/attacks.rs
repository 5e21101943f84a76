//! Attack look-ups backed by tables generated in `build.rs`.

use crate::{Bitboard, Color, PieceKind, Square};

/// One square's entry of a fancy-magic table.
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

mod tables {
    use super::Magic;
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}
pub(crate) use tables::POLYGLOT_RANDOMS;

#[inline]
fn magic_index(m: &Magic, occ: Bitboard) -> usize {
    m.offset + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(tables::KNIGHT_ATTACKS[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(tables::KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables::PAWN_ATTACKS[color.index() * 64 + sq.index()])
}

/// Squares a bishop on `sq` attacks, stopping at the first piece of `occ` on each ray.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &tables::BISHOP_MAGICS[sq.index()];
    Bitboard(tables::SLIDER_ATTACKS[magic_index(m, occ)])
}

/// Squares a rook on `sq` attacks, stopping at the first piece of `occ` on each ray.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let m = &tables::ROOK_MAGICS[sq.index()];
    Bitboard(tables::SLIDER_ATTACKS[magic_index(m, occ)])
}

/// Squares a queen on `sq` attacks (bishop and rook rays through `occ`).
#[inline]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | rook_attacks(sq, occ)
}

/// Attacks of a non-pawn piece kind (pawns need a colour: see [`pawn_attacks`]).
#[inline]
pub fn piece_attacks(kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Queen => queen_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
        PieceKind::Pawn => panic!("pawn attacks depend on colour"),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line through `a` and `b` (edge to edge) if they are aligned, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::LINE[a.index() * 64 + b.index()])
}
