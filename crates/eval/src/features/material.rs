//! Material, piece-square tables and pawn advancement: the per-piece, per-square terms.

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
    for kind in PieceKind::ALL {
        let set = board.pieces(us, kind);
        if kind != PieceKind::King {
            sink.add(us, VALUE[kind.index()], 0, set.count() as i32);
        }
        for sq in set {
            sink.add(us, PST[kind.index()], sq.relative(us).index(), 1);
        }
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
