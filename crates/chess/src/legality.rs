//! Whether one given move is legal, without generating the position's moves: the search asks
//! this of every hash-table move, and generating a whole list for it showed in the profile.
//!
//! Each case applies the generator's own rule for that kind of move (`movegen.rs`: castling,
//! the check mask, the flags of a plain move and the pawn ranks are its helpers, shared), and the
//! move must equal, bit for bit, the one the generator would write, so the answer is exactly
//! "the generator lists it" (checked over every 16-bit move in `tests/chess/move_checks.rs`).

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::movegen::pawn_ranks;
use crate::{Bitboard, Board, Move, MoveFlag, PieceKind};

impl Board {
    /// Whether `mv` is a legal move here (for moves from the hash table, killers or input):
    /// exactly whether [`Board::generate`] lists it.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() {
            return false;
        }
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(mv.from()).filter(|p| p.color == us) else {
            return false;
        };
        if mv.is_castle() {
            // The flag names the side; the comparison checks the squares.
            return self.castling(mv.is_king_side_castle()) == Some(mv);
        }
        if piece.kind == PieceKind::King {
            return self.king_step_is_legal(mv);
        }
        let checkers = self.checkers();
        if checkers.several() {
            return false;
        }
        let ksq = self.king_square(us);
        let check_mask = self.check_mask();
        let from = mv.from();
        // The pin line, or every square when the piece is not pinned.
        let pin_mask = if line(ksq, from).any() && self.pinned(us).contains(from) {
            line(ksq, from)
        } else {
            Bitboard::ALL
        };
        if piece.kind == PieceKind::Pawn {
            return self.pawn_move_is_legal(mv, check_mask, pin_mask);
        }
        let occ = self.occupied();
        let targets = match piece.kind {
            PieceKind::Knight if pin_mask == Bitboard::ALL => knight_attacks(from),
            PieceKind::Knight => Bitboard::EMPTY,
            PieceKind::Bishop => bishop_attacks(from, occ),
            PieceKind::Rook => rook_attacks(from, occ),
            _ => bishop_attacks(from, occ) | rook_attacks(from, occ),
        } & check_mask
            & pin_mask
            & !self.color(us);
        targets.contains(mv.to()) && mv == self.plain_move(from, mv.to())
    }

    /// A king step (not castling): the destination must not be attacked once the king has
    /// left its square.
    fn king_step_is_legal(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let ksq = self.king_square(us);
        let to = mv.to();
        mv.from() == ksq
            && (king_attacks(ksq) & !self.color(us)).contains(to)
            && mv == self.plain_move(ksq, to)
            && !self.is_attacked_by(to, us.flip(), self.occupied() ^ ksq.bb())
    }

    /// A pawn move: push, double push, capture, promotion (any of the four pieces) or en
    /// passant, each on the generator's conditions.
    fn pawn_move_is_legal(&self, mv: Move, check_mask: Bitboard, pin_mask: Bitboard) -> bool {
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        if mv.is_en_passant() {
            return self.ep_square() == Some(to)
                && pawn_attacks(us, from).contains(to)
                && self.en_passant_is_legal(from, to);
        }
        if !(check_mask & pin_mask).contains(to) {
            return false;
        }
        let occ = self.occupied();
        let (promo_rank, double_rank) = pawn_ranks(us);
        let promotes = promo_rank.contains(to);
        let expected_promotion = |capture: bool| {
            mv.promotion_kind()
                .is_some_and(|kind| mv == Move::promotion(from, to, kind, capture))
        };
        let single = from.bb().forward(us) & !occ;
        if single.contains(to) {
            return if promotes {
                expected_promotion(false)
            } else {
                mv == Move::new(from, to, MoveFlag::Quiet)
            };
        }
        if (single.forward(us) & !occ & double_rank).contains(to) {
            return mv == Move::new(from, to, MoveFlag::DoublePush);
        }
        if (pawn_attacks(us, from) & self.color(us.flip())).contains(to) {
            return if promotes {
                expected_promotion(true)
            } else {
                mv == Move::new(from, to, MoveFlag::Capture)
            };
        }
        false
    }
}
