//! Whether a move gives check, from the bitboards the move would leave, without making it: a
//! search can then prune a quiet, non-checking move without paying for make and unmake.
//! [`CheckInfo`] answers the same for the ordinary moves of one position from a few bitboards
//! worked out once, as Stockfish's `StateInfo` does: a move loop asks it for every move.

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Board, Move, PieceKind, Square};

/// What decides, in one position, whether a move of the side to move checks the enemy king.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king.
    king: Square,
    /// Per kind, the squares from which a piece of that kind attacks the enemy king now.
    check_squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the enemy king: moving one
    /// off that line uncovers a check.
    discoverers: Bitboard,
}

impl CheckInfo {
    /// Whether the legal move `mv` gives check: exactly [`Board::gives_check`] of the position
    /// this was made for (castling, en passant and promotions are handed to it).
    #[inline]
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            return board.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = board.piece_at(from) else {
            return false;
        };
        // A slider's check squares were taken with the mover still on `from`; that square can
        // only hide a check along a line the mover itself slides on, which it would already
        // be giving, so the squares are exact.
        self.check_targets(from, piece.kind).contains(to)
    }

    /// The squares to which a `kind` on `from` (an ordinary move, no castling, en passant or
    /// promotion) would give check: its check squares, and every square off the line to the
    /// enemy king when `from` blocks one of our sliders.
    #[inline]
    pub(crate) fn check_targets(&self, from: Square, kind: PieceKind) -> Bitboard {
        let direct = self.check_squares[kind.index()];
        if self.discoverers.contains(from) {
            direct | !line(from, self.king)
        } else {
            direct
        }
    }
}

impl Board {
    /// The [`CheckInfo`] of this position, for the side to move's moves.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let them = us.flip();
        let king = self.king_square(them);
        let occ = self.occupied();
        let diagonal = bishop_attacks(king, occ);
        let straight = rook_attacks(king, occ);
        let check_squares = [
            pawn_attacks(them, king),
            knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        let ours = self.color(us);
        let snipers = ((bishop_attacks(king, Bitboard::EMPTY)
            & (self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen)))
            | (rook_attacks(king, Bitboard::EMPTY)
                & (self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen))))
            & ours;
        CheckInfo {
            king,
            check_squares,
            discoverers: self.sole_blockers(king, snipers) & ours,
        }
    }

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
        if mv.is_castle() {
            // King and rook both leave, then both land (in Chess960 on each other's squares).
            let (rook_from, rook_to) = self.castle_rook_squares(mv);
            let left = from.bb() | rook_from.bb();
            let landed = to.bb() | rook_to.bb();
            kinds[PieceKind::King.index()] = (kinds[PieceKind::King.index()] & !left) | to.bb();
            kinds[PieceKind::Rook.index()] =
                (kinds[PieceKind::Rook.index()] & !left) | rook_to.bb();
            ours = (ours & !left) | landed;
            occ = (occ & !left) | landed;
        } else {
            // The mover leaves `from`; a victim on `to` leaves the kind sets (only `ours` is
            // asked).
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
