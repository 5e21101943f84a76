//! Pawn-structure terms: doubled, isolated, backward, holes, supported and phalanx pawns.

use super::context::Context;
use super::groups::{PAWN_CHAINS, PAWN_FLAWS};
use super::n;
use crate::bits::beside;
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::Color;

pub(super) fn structure<S: Sink>(ctx: &Context, us: Color, sink: &mut S) {
    let i = us.index();
    let own = ctx.pawns[i];
    if sink.wants(PAWN_FLAWS) {
        sink.add(us, Term::DOUBLED_PAWN_PENALTY, 0, -n(ctx.doubled[i]));
        sink.add(us, Term::ISOLATED_PAWN_PENALTY, 0, -n(ctx.isolated[i]));
        sink.add(us, Term::BACKWARD_PAWN_PENALTY, 0, -n(ctx.backward[i]));
        sink.add_mg(us, Term::WEAK_SQUARE_PENALTY, 0, -n(ctx.holes[i]));
    }
    if sink.wants(PAWN_CHAINS) {
        sink.add(us, Term::PAWN_SUPPORTED, 0, n(own & ctx.pawn_attacks[i]));
        sink.add(us, Term::PAWN_PHALANX, 0, n(own & beside(own)));
    }
}
