//! King shelter: friendly pawns in front of the king and enemy pawns on its files (middle game).

use crate::bits::front_span;
use crate::sink::Sink;
use crate::table::Term;
use kestrel_chess::{Bitboard, Color, Square};

/// The shelter terms of `us` with its king on `king` and these pawns (indexed by colour).
pub(super) fn shelter<S: Sink>(king: Square, pawns: [Bitboard; 2], us: Color, sink: &mut S) {
    let own = pawns[us.index()];
    let opp = pawns[us.flip().index()];
    let kf = king.file() as i8;
    for file in (kf - 1).max(0)..=(kf + 1).min(7) {
        let on_king_file = file == kf;
        let ahead = front_span(Square::new(file as u8, king.rank()).bb(), us);
        let shield = own & ahead;
        if shield.is_empty() {
            let term = if on_king_file {
                Term::KING_NO_FRIENDLY_PAWN
            } else {
                Term::KING_NO_FRIENDLY_PAWN_ADJ
            };
            sink.add_mg(us, term, 0, -1);
        } else {
            let nearest = match us {
                Color::White => shield.lsb(),
                Color::Black => shield.msb(),
            };
            if nearest.relative_rank(us) == king.relative_rank(us) + 2 {
                sink.add_mg(us, Term::KING_FRIENDLY_PAWN_ADVANCED1, 0, -1);
            }
        }
        if (opp & Bitboard::file(file as u8)).is_empty() {
            let term = if on_king_file {
                Term::KING_NO_ENEMY_PAWN
            } else {
                Term::KING_NO_ENEMY_PAWN_ADJ
            };
            sink.add_mg(us, term, 0, -1);
        }
    }
}
