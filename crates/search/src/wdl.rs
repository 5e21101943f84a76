//! The win/draw/loss model behind `UCI_ShowWDL`: from a score and the material on the board,
//! the expected share of wins, draws and losses (per mille), as Stockfish's `wdl` output.
//!
//! A win comes with probability `1 / (1 + exp((a - s) / b))` and a loss with
//! `1 / (1 + exp((a + s) / b))` for a score `s` in centipawns (side to move's view); the rest
//! is a draw. `a` (the score at which winning and not winning are even) and `b` (how fast the
//! odds grow) are polynomials in the material `m` (pawn 1, knight and bishop 3, rook 5, queen
//! 9, both sides, clamped to 10..=78) over 58, the start position's material. The constants are
//! fitted to Kestrel's own games by `kestrel wdl-fit` (docs/uci.md gives the command).

use crate::Score;
use kestrel_chess::{Board, PieceKind};

/// `a = A[0] + A[1] x + A[2] x² + ...` with `x = m / 58`: the centipawns at which a win is as
/// likely as not.
pub const WDL_A: [f64; 4] = WDL_FIT.0;
/// `b = B[0] + B[1] x + ...` with `x = m / 58`: the spread of the logistic, in centipawns.
pub const WDL_B: [f64; 4] = WDL_FIT.1;

/// The fitted (A, B), cubics as Stockfish's, from `kestrel wdl-fit --data
/// /work/runs/nnue-selfplay --degree 3`: 1,778,884 positions of 26,560 self-play games at
/// 5,000 nodes a move (`kestrel nnue data`), the last 177,880 (2,727 games) held out. Mean
/// log-loss on them 0.6732, against 0.7206 for the best line in material and 0.7688 for the
/// line fitted before to 160 games played at 15,000 nodes.
const WDL_FIT: ([f64; 4], [f64; 4]) = (
    [1072.24, -3243.37, 3497.89, -1237.34],
    [466.43, -1330.84, 1580.80, -597.57],
);

/// The least and the most material the model tells apart (less or more counts as this).
pub const WDL_MATERIAL_RANGE: (u32, u32) = (10, 78);

/// What one piece of `kind` adds to the model's material: pawn 1, minor 3, rook 5, queen 9,
/// king 0.
pub fn piece_material(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight | PieceKind::Bishop => 3,
        PieceKind::Rook => 5,
        PieceKind::Queen => 9,
        PieceKind::King => 0,
    }
}

/// Material in pawns of both sides (pawn 1, minor 3, rook 5, queen 9), as the model counts it.
pub fn wdl_material(board: &Board) -> u32 {
    PieceKind::ALL
        .iter()
        .map(|&kind| board.kind(kind).count() * piece_material(kind))
        .sum()
}

/// The polynomial with `coefficients` (constant term first) at `x`.
pub fn polynomial(coefficients: &[f64], x: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |acc, &c| acc * x + c)
}

/// The model's parameters `(a, b)` at `material` pawns, with given constants.
pub fn wdl_params(material: u32, a: &[f64], b: &[f64]) -> (f64, f64) {
    let (lo, hi) = WDL_MATERIAL_RANGE;
    let x = f64::from(material.clamp(lo, hi)) / 58.0;
    (polynomial(a, x), polynomial(b, x).max(1.0))
}

/// Win and loss probabilities (0 to 1) for `cp` centipawns with the model's parameters `a`
/// and `b` (as [`wdl_params`] gives them).
pub fn win_loss_at(cp: f64, a: f64, b: f64) -> (f64, f64) {
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    (logistic((cp - a) / b), logistic((-cp - a) / b))
}

/// Win and loss probabilities (0 to 1) for `cp` centipawns at `material`, with given constants.
pub fn win_loss(cp: f64, material: u32, a: &[f64], b: &[f64]) -> (f64, f64) {
    let (a, b) = wdl_params(material, a, b);
    win_loss_at(cp, a, b)
}

/// Win, draw and loss per mille (summing to 1000) for the side to move of `board`, whose
/// search gave `score`. A mate score is a sure win or loss.
pub fn wdl_per_mille(score: Score, board: &Board) -> (u32, u32, u32) {
    match score {
        Score::Mate(m) if m > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let (w, l) = win_loss(f64::from(cp), wdl_material(board), &WDL_A, &WDL_B);
            let w = (w * 1000.0).round() as u32;
            let l = ((l * 1000.0).round() as u32).min(1000 - w);
            (w, 1000 - w - l, l)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_scores_are_symmetric_and_wins_grow_with_the_score() {
        let positions = [
            Board::startpos(),
            Board::from_fen("4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1").unwrap(),
        ];
        for board in &positions {
            let (w, _, l) = wdl_per_mille(Score::Cp(0), board);
            assert_eq!(w, l);
            let (w1, _, l1) = wdl_per_mille(Score::Cp(150), board);
            let (w2, _, l2) = wdl_per_mille(Score::Cp(-150), board);
            assert_eq!((w1, l1), (l2, w2));
            let mut last = (0, 1000);
            for cp in (-3000..=3000).step_by(37) {
                let (w, d, l) = wdl_per_mille(Score::Cp(cp), board);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last.0 && l <= last.1, "monotonic at {cp}");
                last = (w, l);
            }
            assert!(wdl_per_mille(Score::Cp(1500), board).0 > 950);
        }
    }

    #[test]
    fn mates_are_certain() {
        let start = Board::startpos();
        assert_eq!(wdl_per_mille(Score::Mate(3), &start), (1000, 0, 0));
        assert_eq!(wdl_per_mille(Score::Mate(-1), &start), (0, 0, 1000));
    }
}
