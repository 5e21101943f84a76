//! Polyglot-compatible Zobrist keys, so that opening books keyed by Polyglot hashes can be probed.

use crate::attacks::POLYGLOT_RANDOMS;
use crate::{CastlingRights, Color, Piece, Square};

/// Key of `piece` standing on `sq`. Polyglot orders pieces black pawn, white pawn, black knight, ...
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    let poly_kind = 2 * piece.kind.index() + (piece.color == Color::White) as usize;
    POLYGLOT_RANDOMS[64 * poly_kind + sq.index()]
}

/// Key of a set of castling rights (the xor of one key per right held).
#[inline]
pub fn castling_key(rights: CastlingRights) -> u64 {
    (0..4)
        .filter(|i| rights.0 >> i & 1 != 0)
        .fold(0, |k, i| k ^ POLYGLOT_RANDOMS[768 + i])
}

/// Key of an en-passant file; only hashed when a capture there is pseudo-legal, as Polyglot does.
#[inline]
pub fn en_passant_key(file: u8) -> u64 {
    POLYGLOT_RANDOMS[772 + file as usize]
}

/// Xored in when White is to move.
#[inline]
pub fn white_to_move_key() -> u64 {
    POLYGLOT_RANDOMS[780]
}
