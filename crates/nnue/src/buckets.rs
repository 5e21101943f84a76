//! Output buckets: a network may carry several output layers (weights and bias), one per
//! range of material on the board, and each position is scored by the layer of its range.
//! The first layer and the accumulators are shared, so only the output layer changes.

use kestrel_chess::Board;

/// The most output buckets a network may have: one per piece count from 2 to 32.
pub const MAX_OUTPUT_BUCKETS: usize = 31;

/// Piece counts a legal position can have (2 to 32): the buckets split these evenly.
const PIECE_COUNTS: usize = 31;

/// The output bucket of a position with `pieces` pieces (kings included) in a network of
/// `buckets` buckets: `(pieces − 2) · buckets / 31`, so the 31 piece counts from 2 to 32 are
/// shared out evenly and every bucket is used. When `buckets` divides 32 this is the usual
/// `(pieces − 2) / (32 / buckets)`: `(pieces − 2) / 4` for 8 buckets. One bucket is always 0.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    debug_assert!((1..=MAX_OUTPUT_BUCKETS).contains(&buckets));
    // Clamped so that a board beyond 32 pieces (never legal) still has a bucket.
    (pieces.saturating_sub(2) as usize * buckets / PIECE_COUNTS).min(buckets - 1)
}

/// The output bucket of `board` in a network of `buckets` buckets.
#[inline]
pub fn board_bucket(board: &Board, buckets: usize) -> usize {
    output_bucket(board.occupied().count(), buckets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_buckets_are_the_usual_divisor_of_four() {
        for pieces in 2..=32u32 {
            assert_eq!(output_bucket(pieces, 8), (pieces as usize - 2) / 4);
            assert_eq!(output_bucket(pieces, 1), 0);
            assert_eq!(output_bucket(pieces, 16), (pieces as usize - 2) / 2);
        }
        assert_eq!(output_bucket(40, 8), 7, "clamped beyond 32 pieces");
        assert_eq!(output_bucket(0, 8), 0);
    }

    #[test]
    fn every_bucket_is_used_and_they_rise_with_material() {
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let seen: Vec<usize> = (2..=32).map(|p| output_bucket(p, buckets)).collect();
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{buckets}: {seen:?}");
            assert_eq!(seen[0], 0);
            assert_eq!(*seen.last().unwrap(), buckets - 1, "{buckets}: {seen:?}");
            assert!(
                seen.windows(2).all(|w| w[1] - w[0] <= 1),
                "no bucket skipped"
            );
        }
    }

    #[test]
    fn the_start_position_is_in_the_top_bucket() {
        let board = Board::startpos();
        assert_eq!(board_bucket(&board, 8), 7);
        let kings = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(board_bucket(&kings, 8), 0);
    }
}
