//! Game phase and the one rounding rule that turns a phase-weighted sum into centipawns.

use kestrel_chess::{Board, PieceKind};

/// Phase of a position with all minor and major pieces on the board (1 per knight or bishop,
/// 2 per rook, 4 per queen); 0 is a pure pawn ending.
pub const PHASE_MAX: i32 = 24;

/// Middle-game weight of `board` in `0..=PHASE_MAX` (capped when promotions add material).
#[inline]
pub fn phase(board: &Board) -> i32 {
    let minors = (board.kind(PieceKind::Knight) | board.kind(PieceKind::Bishop)).count() as i32;
    let rooks = board.kind(PieceKind::Rook).count() as i32;
    let queens = board.kind(PieceKind::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// The end-game part is scaled in 64ths of itself (see [`eg_weight`]).
pub const SCALE_MAX: i32 = 64;

/// How much of the end-game score counts, in 64ths: endings whose material is known to be
/// drawish count less, so the search does not trade into them believing it is winning.
/// Depends on the position only (fixed piece counts, never on parameters), which keeps the
/// evaluation linear in its parameters.
pub fn eg_scale(board: &Board) -> i32 {
    use kestrel_chess::Color;
    let count = |c: Color, k: PieceKind| board.pieces(c, k).count() as i32;
    let pieces = |c: Color| {
        3 * (count(c, PieceKind::Knight) + count(c, PieceKind::Bishop))
            + 5 * count(c, PieceKind::Rook)
            + 9 * count(c, PieceKind::Queen)
    };
    let (w, b) = (pieces(Color::White), pieces(Color::Black));
    let (wp, bp) = (
        count(Color::White, PieceKind::Pawn),
        count(Color::Black, PieceKind::Pawn),
    );
    // The side ahead has no pawns and at most a minor piece more (KR v KB, KB v KP...): it
    // can rarely win.
    let (strong, strong_pawns, weak) = if w + wp >= b + bp {
        (w, wp, b)
    } else {
        (b, bp, w)
    };
    if strong_pawns == 0 && strong - weak <= 3 {
        return SCALE_MAX / 8;
    }
    // Bishops of opposite colours with nothing else but pawns: often drawn a pawn or two down.
    let bishops = board.kind(PieceKind::Bishop);
    if w == 3
        && b == 3
        && bishops.count() == 2
        && count(Color::White, PieceKind::Bishop) == 1
        && (bishops & kestrel_chess::Bitboard::LIGHT_SQUARES).count() == 1
    {
        return SCALE_MAX / 2;
    }
    SCALE_MAX
}

/// End-game weight of `board`: `(PHASE_MAX - phase) * eg_scale / SCALE_MAX`; the middle-game
/// weight is `phase` itself.
#[inline]
pub fn eg_weight(board: &Board, phase: i32) -> i32 {
    (PHASE_MAX - phase) * eg_scale(board) / SCALE_MAX
}

/// `s / PHASE_MAX` rounded to the nearest integer, halves away from zero. Odd-symmetric
/// (`f(-s) == -f(s)`), which keeps the evaluation exactly colour-symmetric. The GA applies it to
/// matrix-product sums `S = Σ values[i] * coefficient[i]` of traces.
#[inline]
pub fn scale_trace_sum(s: i64) -> i32 {
    let d = PHASE_MAX as i64;
    let q = if s >= 0 {
        (s + d / 2) / d
    } else {
        -((-s + d / 2) / d)
    };
    q as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_nearest_with_halves_away_from_zero() {
        assert_eq!(scale_trace_sum(0), 0);
        assert_eq!(scale_trace_sum(11), 0);
        assert_eq!(scale_trace_sum(12), 1);
        assert_eq!(scale_trace_sum(-12), -1);
        assert_eq!(scale_trace_sum(-11), 0);
        assert_eq!(scale_trace_sum(24 * 7 + 13), 8);
        for s in -1000..1000 {
            assert_eq!(scale_trace_sum(-s), -scale_trace_sum(s));
        }
    }

    #[test]
    fn start_position_is_full_middle_game() {
        assert_eq!(phase(&Board::startpos()), PHASE_MAX);
        let kp = Board::from_fen("8/4k3/8/8/4P3/8/4K3/8 w - - 0 1").unwrap();
        assert_eq!(phase(&kp), 0);
    }

    #[test]
    fn drawish_endings_scale_the_end_game_down() {
        let scale = |fen: &str| eg_scale(&Board::from_fen(fen).unwrap());
        // KR v KB, and a bare minor ahead: hard to win without pawns.
        assert_eq!(scale("8/8/4k3/8/2b5/8/3RK3/8 w - - 0 1"), SCALE_MAX / 8);
        assert_eq!(scale("8/8/4k3/8/8/8/3NK3/8 w - - 0 1"), SCALE_MAX / 8);
        // KQ v KR and KBN v K are wins: no scaling.
        assert_eq!(scale("8/8/4k3/8/2r5/8/3QK3/8 w - - 0 1"), SCALE_MAX);
        assert_eq!(scale("8/8/4k3/8/8/8/2BNK3/8 w - - 0 1"), SCALE_MAX);
        // Bishops of opposite colours (e3 dark, f5 light), and of the same colour (e3, f6).
        assert_eq!(
            scale("8/5k2/4p3/3p1b2/3P4/4B3/5K2/8 w - - 0 1"),
            SCALE_MAX / 2
        );
        assert_eq!(scale("8/5k2/4pb2/3p4/3P4/4B3/5K2/8 w - - 0 1"), SCALE_MAX);
        // The side ahead keeps a pawn: no scaling; the start position: none.
        assert_eq!(scale("8/8/4k3/8/2b5/4P3/3RK3/8 w - - 0 1"), SCALE_MAX);
        assert_eq!(
            scale("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            SCALE_MAX
        );
    }
}
