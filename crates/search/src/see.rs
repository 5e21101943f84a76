//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side recapturing with its least valuable attacker (x-rays included) and free to stop.

use kestrel_chess::attacks::{bishop_attacks, rook_attacks};
use kestrel_chess::{Bitboard, Board, Color, Move, PieceKind, Square};

/// Piece values used by SEE and MVV-LVA (fixed: ordering should not move with the evaluation).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// SEE and MVV-LVA value of a piece kind in centipawns (king 20000).
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
/// stop, or not recapture at all), else by `exchange_reaches`.
#[inline]
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
        !exchange_reaches(board, mv, mover.color, on_square, gain - threshold)
    }
}

/// Whether the exchange that `mv` starts ends at or above the threshold, given `margin`
/// (what the move captures minus the threshold, at least 0) and `on_square` (the value of the
/// piece it leaves on the target square). The same exchange as [`see`] (least valuable
/// attacker first, x-rays, either side free to stop, a king capturing only an undefended
/// square), decided as it goes instead of scored to the end: each side captures only while
/// capturing can still change the verdict, as in Stockfish's `see_ge`.
fn exchange_reaches(board: &Board, mv: Move, us: Color, on_square: i32, margin: i32) -> bool {
    let mut ex = Exchange::start(board, mv);
    let mut attackers = board.attackers_to(ex.to, ex.occ);
    // `swap`: how far the side about to capture is from changing the verdict `reached`
    // (true while the mover's side is at or above the threshold).
    let mut swap = on_square - margin;
    let mut reached = true;
    let mut side = us;
    loop {
        side = side.flip();
        attackers &= ex.occ;
        let Some((kind, sq)) = next_capturer(board, attackers, side) else {
            break;
        };
        reached = !reached;
        swap = value(kind) - swap;
        if swap < reached as i32 {
            break;
        }
        ex.occ ^= sq.bb();
        attackers |= revealed(kind, ex.to, ex.occ, ex.diag, ex.orth);
    }
    reached
}

/// Where an exchange on a move's target square starts: the square, the occupancy once the
/// mover (and an en-passant victim) left, and the diagonal and straight sliders.
struct Exchange {
    to: Square,
    occ: Bitboard,
    diag: Bitboard,
    orth: Bitboard,
}

impl Exchange {
    #[inline(always)]
    fn start(board: &Board, mv: Move) -> Exchange {
        let to = mv.to();
        let mut occ = board.occupied() ^ mv.from().bb();
        if mv.is_en_passant() {
            occ ^= Square(to.0 ^ 8).bb();
        }
        Exchange {
            to,
            occ,
            diag: board.kind(PieceKind::Bishop) | board.kind(PieceKind::Queen),
            orth: board.kind(PieceKind::Rook) | board.kind(PieceKind::Queen),
        }
    }
}

/// `side`'s next capture among `attackers`: its least valuable attacker and that piece's
/// square; none when it has no attacker or only a king facing a defended square.
#[inline(always)]
fn next_capturer(board: &Board, attackers: Bitboard, side: Color) -> Option<(PieceKind, Square)> {
    let ours = attackers & board.color(side);
    for kind in PieceKind::ALL {
        let set = ours & board.kind(kind);
        if set.any() {
            // A king may only capture when the square is no longer defended.
            let defended = (attackers & board.color(side.flip())).any();
            return (kind != PieceKind::King || !defended).then(|| (kind, set.lsb()));
        }
    }
    None
}

/// The x-ray attackers of `to` (among the sliders `diag` and `orth`) that a `kind` leaving
/// for `to` uncovers, `occ` being the occupancy after it left: only the line it stood on can
/// open (a pawn or bishop stands on a diagonal, a rook on a rank or file, a knight on neither;
/// a queen or king on either).
#[inline(always)]
fn revealed(
    kind: PieceKind,
    to: Square,
    occ: Bitboard,
    diag: Bitboard,
    orth: Bitboard,
) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    if matches!(
        kind,
        PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen | PieceKind::King
    ) {
        found |= bishop_attacks(to, occ) & diag;
    }
    if matches!(kind, PieceKind::Rook | PieceKind::Queen | PieceKind::King) {
        found |= rook_attacks(to, occ) & orth;
    }
    found
}

/// SEE value of `mv` for the side making it.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_castle() {
        return 0;
    }
    let Some(mover) = board.piece_at(mv.from()) else {
        return 0;
    };
    let mut gains = [0i32; 32];
    let mut ex = Exchange::start(board, mv);
    gains[0] = capture_gain(board, mv);
    // The piece now standing on the target square (what the next capture wins).
    let mut on_square = mv.promotion_kind().map_or(value(mover.kind), value);
    let mut attackers = board.attackers_to(ex.to, ex.occ) & ex.occ;
    let mut side = mover.color.flip();
    let mut n = 1;
    while let Some((kind, sq)) = next_capturer(board, attackers, side) {
        gains[n] = on_square - gains[n - 1];
        on_square = value(kind);
        ex.occ ^= sq.bb();
        attackers |= revealed(kind, ex.to, ex.occ, ex.diag, ex.orth);
        attackers &= ex.occ;
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

    /// `see_below`'s early-deciding exchange agrees with the full `see` on every move of
    /// random playouts from the perft suite's positions (captures, x-rays, kings recapturing,
    /// promotions, en passant), at thresholds around every piece value.
    #[test]
    fn see_below_agrees_with_see_on_random_playouts() {
        use rand::{Rng, SeedableRng};
        let suite = std::fs::read_to_string(kestrel_testdata::fixture("perft-cpw.epd"))
            .expect("the perft fixture is readable");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let thresholds = [
            -20000, -1000, -901, -900, -580, -500, -421, -330, -320, -230, -220, -101, -100, -99,
            -1, 0, 1, 99, 100, 101, 220, 230, 320, 330, 421, 500, 580, 900, 901, 1000, 20000,
        ];
        let (mut checked, mut exchanges) = (0, 0);
        for line in suite.lines() {
            let fen = line.split(';').next().expect("a FEN").trim();
            for _ in 0..20 {
                let mut b = Board::from_fen(fen).expect("the suite's FENs parse");
                for _ in 0..60 {
                    let moves = b.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &mv in moves.as_slice() {
                        let exact = see(&b, mv);
                        exchanges += (mv.is_capture() && exact != capture_gain(&b, mv)) as usize;
                        for t in thresholds {
                            assert_eq!(see_below(&b, mv, t), exact < t, "{mv} {t} {}", b.to_fen());
                            checked += 1;
                        }
                    }
                    // Captures twice as likely as their share: playouts that keep exchanging.
                    let captures: Vec<Move> =
                        moves.iter().copied().filter(|m| m.is_capture()).collect();
                    let mv = if !captures.is_empty() && rng.random_bool(0.5) {
                        captures[rng.random_range(0..captures.len())]
                    } else {
                        moves[rng.random_range(0..moves.len())]
                    };
                    b.make_move(mv);
                }
            }
        }
        assert!(
            checked > 1_000_000 && exchanges > 1000,
            "{checked} {exchanges}"
        );
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
