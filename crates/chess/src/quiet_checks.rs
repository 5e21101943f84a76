//! The quiet moves that give check, generated directly: quiescence searches them at its first
//! ply, and generating every quiet move to keep a few cost more than the rest of the node.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, line};
use crate::movegen::pawn_ranks;
use crate::{Bitboard, Board, CheckInfo, Color, Move, MoveFlag, MoveList, PieceKind, Square};

impl Board {
    /// Appends the quiet moves but castling that give check, in the order in which
    /// `generate(GenKind::Quiet, ..)` lists them: exactly that list filtered by
    /// [`CheckInfo::gives_check`], without building the moves that are dropped.
    pub fn generate_quiet_checks(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let empty = !occ;
        let ksq = self.king_square(us);
        let info = self.check_info();

        // The king checks only by uncovering a slider.
        let king_targets = king_attacks(ksq) & empty & info.check_targets(ksq, PieceKind::King);
        let occ_no_king = occ ^ ksq.bb();
        for to in king_targets {
            if !self.is_attacked_by(to, them, occ_no_king) {
                list.push(Move::new(ksq, to, MoveFlag::Quiet));
            }
        }
        if self.checkers().several() {
            return;
        }
        let pinned = self.pinned(us);
        let target = empty & self.check_mask();
        let push = |list: &mut MoveList, from: Square, kind: PieceKind, attacks: Bitboard| {
            let mut t = attacks & target & info.check_targets(from, kind);
            if pinned.contains(from) {
                t &= line(ksq, from);
            }
            for to in t {
                list.push(Move::new(from, to, MoveFlag::Quiet));
            }
        };
        for from in self.pieces(us, PieceKind::Knight) & !pinned {
            push(list, from, PieceKind::Knight, knight_attacks(from));
        }
        // Queens come twice, as in the generator: their diagonal moves, then their straight ones.
        let queens = self.pieces(us, PieceKind::Queen);
        for from in self.pieces(us, PieceKind::Bishop) | queens {
            let kind = if queens.contains(from) {
                PieceKind::Queen
            } else {
                PieceKind::Bishop
            };
            push(list, from, kind, bishop_attacks(from, occ));
        }
        for from in self.pieces(us, PieceKind::Rook) | queens {
            let kind = if queens.contains(from) {
                PieceKind::Queen
            } else {
                PieceKind::Rook
            };
            push(list, from, kind, crate::attacks::rook_attacks(from, occ));
        }
        self.pawn_push_checks(list, &info, target, pinned);
    }

    /// Single then double pawn pushes (no promotion) that give check, as the generator orders them.
    fn pawn_push_checks(
        &self,
        list: &mut MoveList,
        info: &CheckInfo,
        target: Bitboard,
        pinned: Bitboard,
    ) {
        let us = self.side_to_move();
        let ksq = self.king_square(us);
        let (promo_rank, double_rank) = pawn_ranks(us);
        let back: i8 = if us == Color::White { -8 } else { 8 };
        let empty = !self.occupied();
        let single = self.pieces(us, PieceKind::Pawn).forward(us) & empty;
        let double = single.forward(us) & empty & double_rank & target;
        let mut emit = |to: Square, steps: i8, flag: MoveFlag| {
            let from = Square((to.0 as i8 + steps * back) as u8);
            let legal = !pinned.contains(from) || line(ksq, from).contains(to);
            if legal && info.check_targets(from, PieceKind::Pawn).contains(to) {
                list.push(Move::new(from, to, flag));
            }
        };
        for to in single & target & !promo_rank {
            emit(to, 1, MoveFlag::Quiet);
        }
        for to in double {
            emit(to, 2, MoveFlag::DoublePush);
        }
    }
}
