//! The network's shape and its fixed constants: the input features and the quantisation.

use crate::inputs::{InputLayout, Orientation};
use kestrel_chess::{Board, Color, Piece, Square};

/// Input features per perspective: 2 colours (own, other) x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;

/// The output times this is centipawns (the trainer fits σ(score / its scale) to this scale).
pub const EVAL_SCALE: i32 = 400;

/// Quantisation of the first layer: weights and biases times `QA`, as `i16`.
pub const QA: i32 = 255;

/// Quantisation of the output weights: times `QB`, as `i16` (the output bias: times QA·QB).
pub const QB: i32 = 128;

/// The feature of `piece` on `square` seen from `perspective`: own pieces first (0..384),
/// then the other side's (384..768), each as `64 * kind + square`, with the board flipped
/// vertically for Black so that both sides see their pieces from their own first rank.
/// This is [`InputLayout::PLAIN`]'s feature, whichever square the king is on.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    Orientation::plain(perspective).feature(perspective, piece, square)
}

/// Every active feature of `board` from `perspective`, in square order (plain inputs).
pub fn active_features(board: &Board, perspective: Color) -> Vec<usize> {
    InputLayout::PLAIN.active_features(board, perspective)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::PieceKind;

    #[test]
    fn features_are_distinct_and_mirror_between_perspectives() {
        let board = Board::startpos();
        let white = active_features(&board, Color::White);
        let mut black = active_features(&board, Color::Black);
        assert_eq!(white.len(), 32);
        let mut sorted = white.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 32, "no two pieces share a feature");
        // The start position is symmetric: both sides see the same set.
        black.sort_unstable();
        assert_eq!(sorted, black);
        let e1 = Square::new(4, 0);
        let king = Piece::new(Color::White, PieceKind::King);
        assert_eq!(feature_index(Color::White, king, e1), 5 * 64 + 4);
        assert_eq!(feature_index(Color::Black, king, e1), 384 + 5 * 64 + 60);
    }
}
