//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side recapturing with its least valuable attacker (x-rays included) and free to stop.

use kestrel_chess::attacks::{bishop_attacks, rook_attacks};
use kestrel_chess::{Board, Move, PieceKind};

/// Piece values used by SEE and MVV-LVA (fixed: ordering should not move with the evaluation).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20000];

#[inline]
pub fn value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Material the mover gains with `mv` (victim plus promotion gain), ignoring recaptures.
pub fn capture_gain(board: &Board, mv: Move) -> i32 {
    let victim = if mv.is_en_passant() {
        value(PieceKind::Pawn)
    } else if mv.is_capture() {
        board.piece_at(mv.to()).map_or(0, |p| value(p.kind))
    } else {
        0
    };
    victim
        + mv.promotion_kind()
            .map_or(0, |k| value(k) - value(PieceKind::Pawn))
}

/// Whether `see(board, mv) < threshold`, settled without the exchange when the bounds
/// `gain - piece moved <= see <= gain` already decide it (the opponent may recapture once and
/// stop, or not recapture at all).
pub fn see_below(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return 0 < threshold;
    }
    let Some(mover) = board.piece_at(mv.from()) else {
        return 0 < threshold;
    };
    let gain = capture_gain(board, mv);
    let on_square = mv.promotion_kind().map_or(value(mover.kind), value);
    if gain < threshold {
        true
    } else if gain - on_square >= threshold {
        false
    } else {
        see(board, mv) < threshold
    }
}

/// SEE value of `mv` for the side making it.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_castle() {
        return 0;
    }
    let from = mv.from();
    let to = mv.to();
    let Some(mover) = board.piece_at(from) else {
        return 0;
    };
    let mut gains = [0i32; 32];
    let mut occ = board.occupied() ^ from.bb();
    if mv.is_en_passant() {
        occ ^= kestrel_chess::Square(to.0 ^ 8).bb();
    }
    gains[0] = capture_gain(board, mv);
    // The piece now standing on `to` (what the next capture wins).
    let mut on_square = mv.promotion_kind().map_or(value(mover.kind), value);
    let diag = board.kind(PieceKind::Bishop) | board.kind(PieceKind::Queen);
    let orth = board.kind(PieceKind::Rook) | board.kind(PieceKind::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut side = mover.color.flip();
    let mut n = 1;
    loop {
        let ours = attackers & board.color(side);
        if ours.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut lva = None;
        for kind in PieceKind::ALL {
            let set = ours & board.kind(kind);
            if set.any() {
                lva = Some((kind, set.lsb()));
                break;
            }
        }
        let (kind, sq) = lva.expect("ours is not empty");
        // A king may only capture when the square is no longer defended.
        if kind == PieceKind::King && (attackers & board.color(side.flip())).any() {
            break;
        }
        gains[n] = on_square - gains[n - 1];
        on_square = value(kind);
        occ ^= sq.bb();
        // Reveal x-ray attackers behind the piece that just moved: only the line it stood on
        // can open (a pawn or bishop stands on a diagonal, a rook on a rank or file, a knight
        // on neither; a queen or king on either).
        if matches!(
            kind,
            PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen | PieceKind::King
        ) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen | PieceKind::King) {
            attackers |= rook_attacks(to, occ) & orth;
        }
        attackers &= occ;
        side = side.flip();
        n += 1;
        if n == gains.len() {
            break;
        }
    }
    while n > 1 {
        n -= 1;
        gains[n - 1] = -(-gains[n - 1]).max(gains[n]);
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        let mv = b.parse_uci_move(uci).unwrap();
        see(&b, mv)
    }

    /// `see_below` agrees with `see` for every move of a few tactical positions and thresholds.
    #[test]
    fn see_below_agrees_with_see() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/ppp1n1bp/3p1np1/3Pp3/2P1Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 13",
            "3rk3/1P6/8/3p4/4P3/2n5/3R4/3RK3 w - - 0 1",
            "rnbqkb1r/ppp2ppp/4pn2/3pP3/3P4/8/PPP2PPP/RNBQKBNR w KQkq d6 0 4",
        ];
        let mut checked = 0;
        for fen in fens {
            let b = Board::from_fen(fen).unwrap();
            for &mv in b.legal_moves().as_slice() {
                for t in [-900, -320, -240, -100, -60, -1, 0, 1, 100, 320, 500] {
                    assert_eq!(see_below(&b, mv, t), see(&b, mv) < t, "{mv} {t} {fen}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn exchanges() {
        // Undefended pawn: wins a pawn.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Pawn defended by a pawn: rook for pawn.
        assert_eq!(
            see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            100 - 500
        );
        // Knight takes a pawn defended by a pawn; the queen recaptures: N for two pawns.
        assert_eq!(
            see_of("4k3/8/2p5/3p4/8/4N3/8/3QK3 w - - 0 1", "e3d5"),
            200 - 320
        );
        // Doubled rooks (x-ray) win a pawn defended once by a rook.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // Quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1d5"), -500);
    }
}
