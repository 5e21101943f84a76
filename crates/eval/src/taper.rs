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
}
