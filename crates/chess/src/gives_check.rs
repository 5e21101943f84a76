//! Whether a move gives check, from the bitboards the move would leave, without making it: a
//! search can then prune a quiet, non-checking move without paying for make and unmake.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::board::castle_rook_squares;
use crate::{Board, Move, PieceKind, Square};

impl Board {
    /// Whether the legal move `mv` leaves the opponent in check: exactly
    /// `{ make_move(mv); in_check() }`, for every kind of move (direct and discovered checks,
    /// promotions, en passant, castling).
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let mut kinds = PieceKind::ALL.map(|k| self.kind(k));
        let mut ours = self.color(us);
        let mut occ = self.occupied();
        // The mover leaves `from`; a victim on `to` leaves the kind sets (only `ours` is asked).
        kinds[piece.kind.index()] ^= from.bb();
        if let Some(victim) = self.piece_at(to) {
            kinds[victim.kind.index()] ^= to.bb();
        }
        if mv.is_en_passant() {
            occ ^= Square(to.0 ^ 8).bb();
        }
        let placed = mv.promotion_kind().unwrap_or(piece.kind);
        kinds[placed.index()] |= to.bb();
        ours = (ours ^ from.bb()) | to.bb();
        occ = (occ ^ from.bb()) | to.bb();
        if mv.is_castle() {
            let (rook_from, rook_to) = castle_rook_squares(to);
            let both = rook_from.bb() | rook_to.bb();
            kinds[PieceKind::Rook.index()] ^= both;
            ours ^= both;
            occ ^= both;
        }
        let own = |k: PieceKind| kinds[k.index()] & ours;
        let ksq = self.king_square(them);
        let diag = own(PieceKind::Bishop) | own(PieceKind::Queen);
        let orth = own(PieceKind::Rook) | own(PieceKind::Queen);
        let near = (pawn_attacks(them, ksq) & own(PieceKind::Pawn))
            | (knight_attacks(ksq) & own(PieceKind::Knight))
            | (king_attacks(ksq) & own(PieceKind::King));
        near.any()
            || (bishop_attacks(ksq, occ) & diag).any()
            || (rook_attacks(ksq, occ) & orth).any()
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    #[test]
    fn castling_checks_with_the_rook() {
        let b = Board::from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mv = b.parse_uci_move("e1g1").unwrap();
        assert!(b.gives_check(mv));
    }

    #[test]
    fn quiet_king_move_does_not_check() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mv = b.parse_uci_move("e1d1").unwrap();
        assert!(!b.gives_check(mv));
    }
}
