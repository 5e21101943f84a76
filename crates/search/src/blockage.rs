//! Blockage detection in pawn endings, after David, Felner & Netanyahu (2004), in a
//! deliberately conservative form: a king-and-pawn ending is declared a draw only when
//!
//! 1. every pawn is fixed for ever (blocked by an enemy pawn, or by a fixed pawn of its own),
//! 2. no pawn can capture now (so, with pawns frozen, never), and
//! 3. neither king can reach a square of an enemy pawn that no enemy pawn defends, walking only
//!    on squares free of its own pawns and not attacked by enemy pawns.
//!
//! Then the pawn structure can never change, nothing can promote, and no checkmate is possible:
//! the game is a draw whatever the kings do. The enemy king is ignored (it can only shrink the
//! region a king reaches), so every approximation errs on the side of "not blocked".

use kestrel_chess::attacks::king_attacks;
use kestrel_chess::{Bitboard, Board, Color, PieceKind};

/// Squares attacked by the pawns in `pawns` of `color`.
fn pawn_attack_set(pawns: Bitboard, color: Color) -> Bitboard {
    let not_a = !Bitboard::FILE_A;
    let not_h = !Bitboard::FILE_H;
    let fwd = pawns.forward(color);
    Bitboard(((fwd & not_a).0 >> 1) | ((fwd & not_h).0 << 1))
}

/// Whether this king-and-pawn position is a dead draw by blockage (see the module docs).
pub fn is_blocked_pawn_ending(board: &Board) -> bool {
    let pawns = board.kind(PieceKind::Pawn);
    let kings = board.kind(PieceKind::King);
    if pawns.is_empty() || (board.occupied() & !(pawns | kings)).any() || board.in_check() {
        return false;
    }
    let white = board.pieces(Color::White, PieceKind::Pawn);
    let black = board.pieces(Color::Black, PieceKind::Pawn);

    // Pawns rammed against an enemy pawn, then pawns stuck behind fixed pawns.
    let mut fixed = (white & black.forward(Color::Black)) | (black & white.forward(Color::White));
    loop {
        let grown =
            fixed | (white & fixed.forward(Color::Black)) | (black & fixed.forward(Color::White));
        if grown == fixed {
            break;
        }
        fixed = grown;
    }
    if fixed != pawns {
        return false;
    }

    let white_attacks = pawn_attack_set(white, Color::White);
    let black_attacks = pawn_attack_set(black, Color::Black);
    if (white_attacks & black).any() || (black_attacks & white).any() {
        return false;
    }

    for (color, own, enemy, enemy_attacks) in [
        (Color::White, white, black, black_attacks),
        (Color::Black, black, white, white_attacks),
    ] {
        let walkable = !own & !enemy_attacks;
        let mut region = board.king_square(color).bb();
        loop {
            let mut next = region;
            for sq in region {
                next |= king_attacks(sq) & walkable;
            }
            if next == region {
                break;
            }
            region = next;
        }
        if (region & enemy).any() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(fen: &str) -> bool {
        is_blocked_pawn_ending(&Board::from_fen(fen).unwrap())
    }

    #[test]
    fn recognises_a_locked_chain_across_the_board() {
        // Eight rammed pairs in a zig-zag: neither king can cross, no pawn can move or capture.
        assert!(blocked(
            "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1"
        ));
        assert!(blocked(
            "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 b - - 0 1"
        ));
        // A doubled pawn behind a rammed one is fixed too.
        assert!(blocked(
            "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/6P1/8/4K3 w - - 0 1"
        ));
    }

    #[test]
    fn rejects_breakable_endings() {
        // Without the g- and h-pawns the white king walks through g4 and eats f6.
        assert!(!blocked("4k3/8/1p1p1p2/pPpPpP2/P1P1P3/8/8/4K3 w - - 0 1"));
        // A free pawn (h-pawn without its blocker) can run.
        assert!(!blocked(
            "4k3/8/1p1p1p2/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1"
        ));
        // A capture is available (e4xd5-type lever).
        assert!(!blocked("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"));
        // A king already inside the enemy camp.
        assert!(!blocked(
            "8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/1k2K3 w - - 0 1"
        ));
        // Pieces other than pawns and kings: not a pawn ending.
        assert!(!blocked(
            "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/3NK3 w - - 0 1"
        ));
        // Bare kings are not a blockage (insufficient material handles them).
        assert!(!blocked("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    }
}
