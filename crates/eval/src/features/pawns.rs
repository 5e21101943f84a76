//! Pawn-structure terms: doubled, isolated, backward, holes, supported and phalanx pawns.

use super::context::PawnFacts;
use super::groups::{PAWN_CHAINS, PAWN_FLAWS};
use super::n;
use crate::bits::beside;
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::{Bitboard, Color};

pub(super) fn structure<S: Sink>(own: Bitboard, p: &PawnFacts, us: Color, sink: &mut S) {
    let i = us.index();
    if sink.wants(PAWN_FLAWS) {
        sink.add(us, Term::DOUBLED_PAWN_PENALTY, 0, -n(p.doubled[i]));
        sink.add(us, Term::ISOLATED_PAWN_PENALTY, 0, -n(p.isolated[i]));
        sink.add(us, Term::BACKWARD_PAWN_PENALTY, 0, -n(p.backward[i]));
        sink.add_mg(us, Term::WEAK_SQUARE_PENALTY, 0, -n(p.holes[i]));
    }
    if sink.wants(PAWN_CHAINS) {
        sink.add(us, Term::PAWN_SUPPORTED, 0, n(own & p.pawn_attacks[i]));
        sink.add(us, Term::PAWN_PHALANX, 0, n(own & beside(own)));
    }
}
