//! Material, piece-square tables and pawn advancement: the per-piece, per-square terms.

use super::groups::{MATERIAL, PAWN_ADVANCE, PST as PST_GROUP};
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::{Bitboard, Board, Color, Piece, PieceKind, Square};

const VALUE: [Term; 5] = [
    Term::PAWN_VALUE,
    Term::KNIGHT_VALUE,
    Term::BISHOP_VALUE,
    Term::ROOK_VALUE,
    Term::QUEEN_VALUE,
];

const PST: [Term; 6] = [
    Term::PST_PAWN,
    Term::PST_KNIGHT,
    Term::PST_BISHOP,
    Term::PST_ROOK,
    Term::PST_QUEEN,
    Term::PST_KING,
];

/// Material, piece-square and advancement terms of `us`'s pawns `pawns`: they depend on the
/// pawns alone, so the pawn-structure cache keeps their sum.
pub(super) fn pawn_material<S: Sink>(pawns: Bitboard, us: Color, sink: &mut S) {
    let p = PieceKind::Pawn.index();
    if sink.wants(MATERIAL) {
        let count = pawns.count() as i32;
        sink.add(us, VALUE[p], 0, count);
        sink.add(us, Term::MATERIAL_TAPER, p, count);
    }
    if sink.wants(PST_GROUP) {
        for sq in pawns {
            sink.add(us, PST[p], sq.relative(us).index(), 1);
        }
    }
    if !sink.wants(PAWN_ADVANCE) {
        return;
    }
    for sq in pawns {
        let advanced = sq.relative_rank(us) as i32 - 1;
        let term = if matches!(sq.file(), 3 | 4) {
            Term::PAWN_ADVANCE_B
        } else {
            Term::PAWN_ADVANCE_A
        };
        sink.add(us, term, 0, advanced);
        sink.add(us, Term::PAWN_ADVANCEMENT, 0, advanced);
    }
}

/// Material and piece-square terms of `us`'s knights, bishops, rooks, queens and king.
pub(super) fn piece_material<S: Sink>(board: &Board, us: Color, sink: &mut S) {
    const PIECES: [PieceKind; 4] = [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];
    if sink.wants(MATERIAL) {
        for kind in PIECES {
            let count = board.pieces(us, kind).count() as i32;
            sink.add(us, VALUE[kind.index()], 0, count);
            sink.add(us, Term::MATERIAL_TAPER, kind.index(), count);
        }
    }
    if sink.wants(PST_GROUP) {
        for kind in PIECES.into_iter().chain([PieceKind::King]) {
            for sq in board.pieces(us, kind) {
                sink.add(us, PST[kind.index()], sq.relative(us).index(), 1);
            }
        }
    }
}

/// The material and piece-square terms of one piece (not a pawn) on `sq`: what
/// [`piece_material`] adds for it, so that a table of these equals its sums.
pub(crate) fn piece_square_terms<S: Sink>(piece: Piece, sq: Square, sink: &mut S) {
    let (us, kind) = (piece.color, piece.kind);
    if kind != PieceKind::King && sink.wants(MATERIAL) {
        sink.add(us, VALUE[kind.index()], 0, 1);
        sink.add(us, Term::MATERIAL_TAPER, kind.index(), 1);
    }
    if sink.wants(PST_GROUP) {
        sink.add(us, PST[kind.index()], sq.relative(us).index(), 1);
    }
}
