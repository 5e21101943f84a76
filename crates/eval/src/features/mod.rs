//! Feature extraction: one pass over the board that reports every feature occurrence to a
//! [`Sink`]. Everything is written from the point of view of `us` with colour-relative ranks
//! and squares, so the evaluation is exactly colour-symmetric.

mod context;
pub(crate) mod groups;
mod king;
mod material;
mod passed;
mod pawns;
mod pieces;
mod threats;

use crate::sink::Sink;
use crate::table::Term;
pub(crate) use context::{Context, PawnFacts, pawn_sets};
pub(crate) use groups::TermSet;
use kestrel_chess::{Bitboard, Board, Color, Square};
pub(crate) use material::piece_square_terms;

/// Reports every feature of `board` to `sink`, skipping groups the sink does not want.
#[inline]
pub(crate) fn extract<S: Sink>(board: &Board, sink: &mut S) {
    let pawns = pawn_sets(board);
    let facts = PawnFacts::new(pawns);
    pawn_terms(pawns, &facts, sink);
    piece_terms(board, Context::with_pawns(board, pawns, facts), true, sink);
}

/// The features that depend on the pawns alone (`pawns` classified as `facts`): what a
/// pawn-structure cache may keep, summed, for every position with these pawns.
#[inline]
pub(crate) fn pawn_terms<S: Sink>(pawns: [Bitboard; 2], facts: &PawnFacts, sink: &mut S) {
    for us in Color::ALL {
        material::pawn_material(pawns[us.index()], us, sink);
        pawns::structure(pawns[us.index()], facts, us, sink);
    }
}

/// Every feature that [`pawn_terms`] does not report; the pieces' material and
/// piece-square terms and the king shelter only with `complete` (else the caller carries
/// their sums: [`king_shelter`] for the shelter).
#[inline]
pub(crate) fn piece_terms<S: Sink>(board: &Board, mut ctx: Context, complete: bool, sink: &mut S) {
    // Both sides' attack maps come out of the per-piece loops: threats run after both.
    let attack_maps = sink.wants(groups::NEEDS_ATTACK_MAPS);
    for us in Color::ALL {
        if complete {
            material::piece_material(board, us, sink);
        }
        pieces::pieces(board, &mut ctx, us, attack_maps, sink);
        if complete {
            king_shelter(ctx.king[us.index()], ctx.pawns, us, sink);
        }
        passed::passed_pawns(board, &ctx, us, sink);
    }
    if attack_maps {
        for us in Color::ALL {
            threats::threats(board, &ctx, us, sink);
        }
    }
    if sink.wants(groups::TEMPO) {
        sink.add(board.side_to_move(), Term::TEMPO, 0, 1);
    }
}

/// The king-shelter terms of `us` with its king on `king` and these pawns (indexed by
/// colour): they depend on nothing else, so a pawn-structure cache may keep them per square.
#[inline]
pub(crate) fn king_shelter<S: Sink>(king: Square, pawns: [Bitboard; 2], us: Color, sink: &mut S) {
    if sink.wants(groups::KING_SHELTER) {
        king::shelter(king, pawns, us, sink);
    }
}

/// Population count as a signed feature count.
#[inline]
fn n(b: Bitboard) -> i32 {
    b.count() as i32
}
