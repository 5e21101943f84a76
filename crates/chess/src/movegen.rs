//! Legal move generation with pin and check masks (no make/unmake needed to filter).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::castling::{king_destination, right_index};
use crate::{Bitboard, Board, Color, Move, MoveFlag, MoveList, PieceKind, Square};

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Captures and promotions (quiescence search).
    Noisy,
    /// Everything else: non-capturing, non-promoting moves, castling included.
    Quiet,
}

const PROMOS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Bishop,
];

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::All, &mut list);
        list
    }

    /// Number of legal moves (perft leaves).
    pub fn count_legal_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// Appends the legal moves of `kind` to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        self.generate_masked(kind, |_, _| Bitboard::ALL, list);
        if kind != GenKind::Noisy && self.checkers().is_empty() {
            self.generate_castling(list);
        }
    }

    /// Appends the legal moves of `kind` but castling whose destination lies in
    /// `targets(from, kind of the mover)`, in [`Board::generate`]'s order (a queen's diagonal
    /// moves come before its straight ones). With every target allowed the mask compiles away.
    #[inline(always)]
    pub(crate) fn generate_masked(
        &self,
        kind: GenKind,
        targets: impl Fn(Square, PieceKind) -> Bitboard,
        list: &mut MoveList,
    ) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.color(us);
        let theirs = self.color(them);
        let ksq = self.king_square(us);
        let checkers = self.checkers();

        let (want_noisy, want_quiet) = match kind {
            GenKind::All => (true, true),
            GenKind::Noisy => (true, false),
            GenKind::Quiet => (false, true),
        };
        // Destination filter by move type (promotions are handled with pawns).
        let mut dest = Bitboard::EMPTY;
        if want_noisy {
            dest |= theirs;
        }
        if want_quiet {
            dest |= !occ;
        }

        // King moves: the destination must not be attacked once the king has left its square.
        let occ_no_king = occ ^ ksq.bb();
        for to in king_attacks(ksq) & dest & !ours & targets(ksq, PieceKind::King) {
            if !self.is_attacked_by(to, them, occ_no_king) {
                list.push(self.plain_move(ksq, to));
            }
        }
        if checkers.several() {
            return;
        }

        // Non-king moves must capture the checker or block the check.
        let check_mask = self.check_mask();
        let pinned = self.pinned(us);
        let target = dest & check_mask & !ours;

        for from in self.pieces(us, PieceKind::Knight) & !pinned {
            let t = knight_attacks(from) & target & targets(from, PieceKind::Knight);
            self.push_targets(list, from, t);
        }
        let queens = self.pieces(us, PieceKind::Queen);
        let mover = |from: Square, slider: PieceKind| {
            if queens.contains(from) {
                PieceKind::Queen
            } else {
                slider
            }
        };
        for from in self.pieces(us, PieceKind::Bishop) | queens {
            let mut t = bishop_attacks(from, occ) & target;
            t &= targets(from, mover(from, PieceKind::Bishop));
            if pinned.contains(from) {
                t &= line(ksq, from);
            }
            self.push_targets(list, from, t);
        }
        for from in self.pieces(us, PieceKind::Rook) | queens {
            let mut t = rook_attacks(from, occ) & target;
            t &= targets(from, mover(from, PieceKind::Rook));
            if pinned.contains(from) {
                t &= line(ksq, from);
            }
            self.push_targets(list, from, t);
        }

        let pawn_targets = |from: Square| targets(from, PieceKind::Pawn);
        self.generate_pawn_moves(
            list,
            want_noisy,
            want_quiet,
            check_mask,
            pinned,
            pawn_targets,
        );
    }

    #[inline]
    fn push_targets(&self, list: &mut MoveList, from: Square, targets: Bitboard) {
        for to in targets {
            list.push(self.plain_move(from, to));
        }
    }

    /// A non-pawn move or capture from `from` to `to`, flagged by what stands on `to`.
    #[inline]
    pub(crate) fn plain_move(&self, from: Square, to: Square) -> Move {
        let flag = if self.color(self.side_to_move().flip()).contains(to) {
            MoveFlag::Capture
        } else {
            MoveFlag::Quiet
        };
        Move::new(from, to, flag)
    }

    /// Where a non-king move must land with the side to move in (single) check: on the
    /// checker or between it and the king; every square out of check.
    #[inline]
    pub(crate) fn check_mask(&self) -> Bitboard {
        let checkers = self.checkers();
        if checkers.any() {
            between(self.king_square(self.side_to_move()), checkers.lsb()) | checkers
        } else {
            Bitboard::ALL
        }
    }

    fn generate_pawn_moves(
        &self,
        list: &mut MoveList,
        want_noisy: bool,
        want_quiet: bool,
        check_mask: Bitboard,
        pinned: Bitboard,
        targets: impl Fn(Square) -> Bitboard,
    ) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.color(them);
        let ksq = self.king_square(us);
        let (promo_rank, double_rank) = pawn_ranks(us);
        let back: i8 = if us == Color::White { -8 } else { 8 };

        let pawns = self.pieces(us, PieceKind::Pawn);
        // Pinned pawns are filtered per move with the pin line.
        let allowed = |from: Square, to: Square| {
            (!pinned.contains(from) || line(ksq, from).contains(to)) && targets(from).contains(to)
        };

        // Pushes.
        let single = pawns.forward(us) & !occ;
        if want_quiet {
            let double = single.forward(us) & !occ & double_rank & check_mask;
            for to in single & check_mask & !promo_rank {
                let from = Square((to.0 as i8 + back) as u8);
                if allowed(from, to) {
                    list.push(Move::new(from, to, MoveFlag::Quiet));
                }
            }
            for to in double {
                let from = Square((to.0 as i8 + 2 * back) as u8);
                if allowed(from, to) {
                    list.push(Move::new(from, to, MoveFlag::DoublePush));
                }
            }
        }
        if want_noisy {
            for to in single & check_mask & promo_rank {
                let from = Square((to.0 as i8 + back) as u8);
                if allowed(from, to) {
                    for kind in PROMOS {
                        list.push(Move::promotion(from, to, kind, false));
                    }
                }
            }
            // Captures (including capturing promotions).
            for from in pawns {
                for to in pawn_attacks(us, from) & theirs & check_mask {
                    if !allowed(from, to) {
                        continue;
                    }
                    if promo_rank.contains(to) {
                        for kind in PROMOS {
                            list.push(Move::promotion(from, to, kind, true));
                        }
                    } else {
                        list.push(Move::new(from, to, MoveFlag::Capture));
                    }
                }
            }
            if let Some(ep) = self.ep_square() {
                for from in pawn_attacks(them, ep) & pawns {
                    if targets(from).contains(ep) && self.en_passant_is_legal(from, ep) {
                        list.push(Move::new(from, ep, MoveFlag::EnPassant));
                    }
                }
            }
        }
    }

    /// En passant removes two pawns from a line at once, so it is checked by looking at the
    /// king's attackers on the resulting occupancy.
    pub(crate) fn en_passant_is_legal(&self, from: Square, to: Square) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let captured = Square(to.0 ^ 8);
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | to.bb();
        let ksq = self.king_square(us);
        let attackers = self.attackers_to(ksq, occ) & self.color(them) & !captured.bb();
        attackers.is_empty()
    }

    fn generate_castling(&self, list: &mut MoveList) {
        for king_side in [true, false] {
            if let Some(mv) = self.castling(king_side) {
                list.push(mv);
            }
        }
    }

    /// Castling on one side when it is legal (out of check, with the right, the squares the
    /// king and rook travel over empty but for themselves, and those the king crosses and lands
    /// on not attacked once both have left); the king's move to its destination, castle-flagged.
    pub(crate) fn castling(&self, king_side: bool) -> Option<Move> {
        let us = self.side_to_move();
        let index = right_index(us, king_side);
        if !self.castling_rights().has(1 << index) || self.checkers().any() {
            return None;
        }
        let setup = self.castle_setup();
        let occ = self.occupied();
        if (occ & setup.empty[index]).any() {
            return None;
        }
        let them = us.flip();
        let king = self.king_square(us);
        // Without the rook, which in Chess960 may shield the king's destination.
        let occ_after = occ ^ king.bb() ^ setup.rook_from[index].bb();
        for sq in setup.king_path[index] {
            if self.is_attacked_by(sq, them, occ_after) {
                return None;
            }
        }
        let flag = if king_side {
            MoveFlag::KingCastle
        } else {
            MoveFlag::QueenCastle
        };
        Some(Move::new(king, king_destination(us, king_side), flag))
    }

    /// Finds the legal move with these squares and promotion piece, building the flags.
    pub fn find_move(
        &self,
        from: Square,
        to: Square,
        promotion: Option<PieceKind>,
    ) -> Option<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion_kind() == promotion)
    }

    /// The position is checkmate.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.legal_moves().is_empty()
    }

    /// The position is stalemate.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && self.legal_moves().is_empty()
    }
}

/// The rank a pawn of `us` promotes on, and the rank its double push lands on.
#[inline]
pub(crate) fn pawn_ranks(us: Color) -> (Bitboard, Bitboard) {
    match us {
        Color::White => (Bitboard::rank(7), Bitboard::rank(3)),
        Color::Black => (Bitboard::rank(0), Bitboard::rank(4)),
    }
}
