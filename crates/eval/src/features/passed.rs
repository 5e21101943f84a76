//! Passed-pawn terms: rank, king distances, free path and a rook behind it.

use super::context::Context;
use crate::bits::{distance, front_span, rear_span};
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::attacks::rook_attacks;
use kestrel_chess::{Board, Color, PieceKind, Square};

pub(super) fn passed_pawns<S: Sink>(board: &Board, ctx: &Context, us: Color, sink: &mut S) {
    let them = us.flip();
    let rooks = board.pieces(us, PieceKind::Rook);
    for sq in ctx.passed[us.index()] {
        let r = sq.relative_rank(us) as usize;
        sink.add(us, Term::PASSED_PAWN_MULT, 0, (r * r) as i32);
        sink.add(us, Term::PASSED_PAWN_RANK, r, 1);
        let promotion = Square::new(sq.file(), 7).relative(us);
        let stop = sq.bb().forward(us).lsb();
        sink.add_eg(
            us,
            Term::PASSED_PAWN_ENEMY_KING_DIST,
            0,
            distance(ctx.king[them.index()], promotion),
        );
        sink.add(
            us,
            Term::PASSED_PAWN_OWN_KING_DIST,
            0,
            -distance(ctx.king[us.index()], stop),
        );
        if (front_span(sq.bb(), us) & ctx.occ).is_empty() {
            sink.add(us, Term::PASSED_PAWN_FREE, 0, 1);
        }
        for rook in rooks & rear_span(sq.bb(), us) {
            if rook_attacks(rook, ctx.occ).contains(sq) {
                sink.add(us, Term::ROOK_BEHIND_PASSED_PAWN, 0, 1);
            }
        }
    }
}
