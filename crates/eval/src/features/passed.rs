//! Passed-pawn terms: rank, king distances, free path and a rook behind it.

use super::context::Context;
use super::groups::{PASSED_DETAIL, PASSED_PAPER, ROOK_BEHIND_PASSER};
use crate::bits::{distance, front_span, rear_span};
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::attacks::rook_attacks;
use kestrel_chess::{Bitboard, Board, Color, PieceKind, Square};

pub(super) fn passed_pawns<S: Sink>(board: &Board, ctx: &Context, us: Color, sink: &mut S) {
    let them = us.flip();
    let paper = sink.wants(PASSED_PAPER);
    let detail = sink.wants(PASSED_DETAIL);
    let rooks = if sink.wants(ROOK_BEHIND_PASSER) {
        board.pieces(us, PieceKind::Rook)
    } else {
        Bitboard::EMPTY
    };
    if !paper && !detail && rooks.is_empty() {
        return;
    }
    for sq in ctx.p.passed[us.index()] {
        let r = sq.relative_rank(us) as usize;
        if paper {
            let promotion = Square::new(sq.file(), 7).relative(us);
            sink.add(us, Term::PASSED_PAWN_MULT, 0, (r * r) as i32);
            sink.add_eg(
                us,
                Term::PASSED_PAWN_ENEMY_KING_DIST,
                0,
                distance(ctx.king[them.index()], promotion),
            );
        }
        if detail {
            let stop = sq.bb().forward(us).lsb();
            sink.add(us, Term::PASSED_PAWN_RANK, r, 1);
            sink.add(
                us,
                Term::PASSED_PAWN_OWN_KING_DIST,
                0,
                -distance(ctx.king[us.index()], stop),
            );
            if (front_span(sq.bb(), us) & ctx.occ).is_empty() {
                sink.add(us, Term::PASSED_PAWN_FREE, 0, 1);
            }
        }
        for rook in rooks & rear_span(sq.bb(), us) {
            if rook_attacks(rook, ctx.occ).contains(sq) {
                sink.add(us, Term::ROOK_BEHIND_PASSED_PAWN, 0, 1);
            }
        }
    }
}
