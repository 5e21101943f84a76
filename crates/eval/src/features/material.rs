//! Material, piece-square tables and pawn advancement: the per-piece, per-square terms.

use super::groups::{MATERIAL, PAWN_ADVANCE, PST as PST_GROUP};
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::{Board, Color, PieceKind};

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

pub(super) fn material_and_squares<S: Sink>(board: &Board, us: Color, sink: &mut S) {
    if sink.wants(MATERIAL) {
        for kind in PieceKind::ALL.into_iter().filter(|&k| k != PieceKind::King) {
            let count = board.pieces(us, kind).count() as i32;
            sink.add(us, VALUE[kind.index()], 0, count);
            sink.add(us, Term::MATERIAL_TAPER, kind.index(), count);
        }
    }
    if sink.wants(PST_GROUP) {
        for kind in PieceKind::ALL {
            for sq in board.pieces(us, kind) {
                sink.add(us, PST[kind.index()], sq.relative(us).index(), 1);
            }
        }
    }
    if !sink.wants(PAWN_ADVANCE) {
        return;
    }
    for sq in board.pieces(us, PieceKind::Pawn) {
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
