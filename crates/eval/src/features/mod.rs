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
use context::Context;
pub(crate) use groups::TermSet;
use kestrel_chess::{Bitboard, Board, Color};

/// Reports every feature of `board` to `sink`, skipping groups the sink does not want.
#[inline]
pub(crate) fn extract<S: Sink>(board: &Board, sink: &mut S) {
    let mut ctx = Context::new(board);
    let attack_maps = sink.wants(groups::NEEDS_ATTACK_MAPS);
    if attack_maps {
        ctx.add_attack_maps(board);
    }
    for us in Color::ALL {
        material::material_and_squares(board, us, sink);
        pawns::structure(&ctx, us, sink);
        pieces::pieces(board, &ctx, us, sink);
        if sink.wants(groups::KING_SHELTER) {
            king::shelter(&ctx, us, sink);
        }
        passed::passed_pawns(board, &ctx, us, sink);
        if attack_maps {
            threats::threats(board, &ctx, us, sink);
        }
    }
    if sink.wants(groups::TEMPO) {
        sink.add(board.side_to_move(), Term::TEMPO, 0, 1);
    }
}

/// Population count as a signed feature count.
#[inline]
fn n(b: Bitboard) -> i32 {
    b.count() as i32
}
