//! Pawn-structure correction history: for each side to move and pawn structure (a bucket of
//! the pawn hash), a running average of how far the search's result landed from the static
//! evaluation. An evaluation that keeps misjudging a structure (a blocked centre, a weak
//! king's pawn cover) is corrected by it before pruning reads it, so reverse futility,
//! futility and the null move trust the evaluation where it has been right and less where
//! it has not. The idea is the one modern engines share (Stockfish, Ethereal, Weiss); the
//! evaluation itself, linear or network, is never changed.

use kestrel_chess::Board;

/// Buckets per side: 16,384 pawn structures (the pawn hash's low bits).
const BUCKETS: usize = 1 << 14;
/// Units per centipawn of a stored correction: the average is kept finer than a centipawn so
/// small weights still move it.
const GRAIN: i32 = 256;
/// The weights of the running average are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest weight a single result gets (a deep search), out of [`WEIGHT_SCALE`].
const MAX_WEIGHT: i32 = 128;
/// No correction beyond this many centipawns either way.
const MAX_CORRECTION_CP: i32 = 64;

/// One search thread's correction table (kept from search to search within a game, like the
/// move histories; cleared with them by a new game).
pub(crate) struct CorrectionHistory {
    table: Box<[[i32; BUCKETS]; 2]>,
}

impl CorrectionHistory {
    /// An empty table: every correction 0.
    pub(crate) fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: Box::new([[0; BUCKETS]; 2]),
        }
    }

    /// The table's row and bucket for `board`: its side to move and its pawn structure.
    fn slot(board: &Board) -> (usize, usize) {
        let side = board.side_to_move().index();
        (side, board.pawn_hash() as usize & (BUCKETS - 1))
    }

    fn entry(&self, board: &Board) -> &i32 {
        let (side, bucket) = Self::slot(board);
        &self.table[side][bucket]
    }

    /// The correction to add to `board`'s static evaluation, centipawns.
    #[inline]
    pub(crate) fn correction(&self, board: &Board) -> i32 {
        *self.entry(board) / GRAIN
    }

    /// Moves `board`'s correction toward `error` (search result minus corrected static
    /// evaluation, centipawns), weighted by the search's depth in plies: a deep result is
    /// better evidence than a shallow one.
    pub(crate) fn record(&mut self, board: &Board, plies: i32, error: i32) {
        let (side, bucket) = Self::slot(board);
        let entry = &mut self.table[side][bucket];
        let weight = (plies * plies + 2 * plies + 1).min(MAX_WEIGHT);
        // The target is the whole miss: the current correction plus what is still missing.
        let target = (*entry + error.clamp(-4 * MAX_CORRECTION_CP, 4 * MAX_CORRECTION_CP) * GRAIN)
            .clamp(-MAX_CORRECTION_CP * GRAIN, MAX_CORRECTION_CP * GRAIN);
        *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("valid FEN")
    }

    #[test]
    fn follows_a_steady_miss_and_stops_at_its_bound() {
        let mut h = CorrectionHistory::new();
        let b = board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(h.correction(&b), 0);
        // The evaluation misses this structure by 40 cp; each error is measured from the
        // corrected evaluation, as the search measures it.
        for _ in 0..50 {
            h.record(&b, 8, 40 - h.correction(&b));
        }
        let c = h.correction(&b);
        assert!((38..=40).contains(&c), "{c}");
        // Once right, an error of 0 leaves it exactly where it is.
        let before = *h.entry(&b);
        h.record(&b, 8, 0);
        assert_eq!(*h.entry(&b), before);
        for _ in 0..50 {
            h.record(&b, 12, 10_000);
        }
        // Huge misses move it to its bound and never past it.
        let c = h.correction(&b);
        assert!(
            (MAX_CORRECTION_CP - 1..=MAX_CORRECTION_CP).contains(&c),
            "{c}"
        );
        for _ in 0..50 {
            h.record(&b, 12, -10_000);
        }
        let c = h.correction(&b);
        assert!(
            (-MAX_CORRECTION_CP..=1 - MAX_CORRECTION_CP).contains(&c),
            "{c}"
        );
    }

    #[test]
    fn deeper_results_weigh_more() {
        let b = board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let (mut shallow, mut deep) = (CorrectionHistory::new(), CorrectionHistory::new());
        shallow.record(&b, 1, 50);
        deep.record(&b, 6, 50);
        assert!(*shallow.entry(&b) > 0);
        assert!(*deep.entry(&b) > *shallow.entry(&b));
        assert!(deep.correction(&b) > 0);
    }

    #[test]
    fn sides_and_pawn_structures_are_kept_apart() {
        let mut h = CorrectionHistory::new();
        let white = board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let black = board("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        let other = board("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1");
        // Same pawns, pieces elsewhere: the same structure.
        let moved_king = board("3k4/pp6/8/8/8/8/PP6/3K4 w - - 0 1");
        for _ in 0..20 {
            h.record(&white, 8, 50);
        }
        assert!(h.correction(&white) > 0);
        assert_eq!(h.correction(&black), 0);
        assert_eq!(h.correction(&other), 0);
        assert_eq!(h.correction(&moved_king), h.correction(&white));
    }
}
