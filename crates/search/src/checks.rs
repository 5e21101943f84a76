//! Cheap "does this move give check?" from attack tables, for picking quiet checks in
//! quiescence without making every quiet move.

use kestrel_chess::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use kestrel_chess::{Board, Move, PieceKind};

/// Whether `mv` (legal, not castling, not en passant, not a promotion) checks the enemy king,
/// directly or by discovery.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let Some(piece) = board.piece_at(mv.from()) else {
        return false;
    };
    let us = piece.color;
    let ksq = board.king_square(us.flip());
    let occ = (board.occupied() ^ mv.from().bb()) | mv.to().bb();
    let to = mv.to();
    let direct = match piece.kind {
        PieceKind::Pawn => pawn_attacks(us, to).contains(ksq),
        PieceKind::Knight => knight_attacks(to).contains(ksq),
        PieceKind::Bishop => bishop_attacks(to, occ).contains(ksq),
        PieceKind::Rook => rook_attacks(to, occ).contains(ksq),
        PieceKind::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)).contains(ksq),
        PieceKind::King => false,
    };
    if direct {
        return true;
    }
    let ours = board.color(us) & !mv.from().bb();
    let diag = (board.kind(PieceKind::Bishop) | board.kind(PieceKind::Queen)) & ours;
    let orth = (board.kind(PieceKind::Rook) | board.kind(PieceKind::Queen)) & ours;
    (bishop_attacks(ksq, occ) & diag).any() || (rook_attacks(ksq, occ) & orth).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::GenKind;
    use kestrel_chess::MoveList;

    /// Agrees with making the move, over every quiet move of a few busy positions.
    #[test]
    fn agrees_with_make_move() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "4k3/8/8/3N4/8/8/3R4/3QK2B w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/4r3/8/8/4B3/8/8/4K3 b - - 0 1",
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            let mut list = MoveList::new();
            board.generate(GenKind::All, &mut list);
            for &mv in list.iter() {
                if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
                    continue;
                }
                let fast = gives_check(&board, mv);
                board.make_move(mv);
                let slow = board.in_check();
                board.unmake_move();
                assert_eq!(fast, slow, "{fen} {mv}");
            }
        }
    }
}
