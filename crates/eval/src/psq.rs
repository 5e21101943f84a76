//! The pieces' (not the pawns') material and piece-square sums, kept move by move.
//!
//! Those terms are one weight per (piece, square), so their sum changes only by the entries of
//! the squares a move touches; the search carries it along the path ([`PieceSums`]) instead of
//! adding some twenty weights at every evaluation. The pawns' entries live in the
//! pawn-structure cache. The table is built from the same weights and groups as the full
//! extraction, so the carried sum equals the extracted one exactly (tested).

use crate::accumulate::{Weight, WideSums};
use crate::features::{TermSet, piece_square_terms};
use crate::table::SLOT_COUNT;
use kestrel_chess::{Board, Color, Move, Piece, PieceKind, Square};

/// White-relative middle- and end-game sums of the material and piece-square terms of every
/// piece but the pawns, for one [`crate::Evaluator`]'s weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSums {
    pub(crate) mg: i64,
    pub(crate) eg: i64,
}

impl PieceSums {
    #[inline(always)]
    fn add(self, entry: PieceSums) -> PieceSums {
        PieceSums {
            mg: self.mg + entry.mg,
            eg: self.eg + entry.eg,
        }
    }

    #[inline(always)]
    fn sub(self, entry: PieceSums) -> PieceSums {
        PieceSums {
            mg: self.mg - entry.mg,
            eg: self.eg - entry.eg,
        }
    }
}

/// One [`PieceSums`] entry per coloured piece and square (zero for pawns).
#[derive(Clone)]
pub(crate) struct PieceSquareTable {
    entries: Box<[[PieceSums; 64]; 12]>,
}

impl std::fmt::Debug for PieceSquareTable {
    /// The entries follow from the evaluator's weights, which its own `Debug` shows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PieceSquareTable")
    }
}

impl PieceSquareTable {
    /// The table of `weights`, with the groups `active` allows (as the extraction skips them).
    pub(crate) fn new(weights: &[Weight; SLOT_COUNT], active: TermSet) -> PieceSquareTable {
        let mut entries = Box::new([[PieceSums::default(); 64]; 12]);
        for (index, row) in entries.iter_mut().enumerate() {
            let piece = piece_of_index(index);
            if piece.kind == PieceKind::Pawn {
                continue;
            }
            for (sq, entry) in row.iter_mut().enumerate() {
                let mut sums = WideSums {
                    weights,
                    active,
                    mg: 0,
                    eg: 0,
                };
                piece_square_terms(piece, Square(sq as u8), &mut sums);
                *entry = PieceSums {
                    mg: sums.mg,
                    eg: sums.eg,
                };
            }
        }
        PieceSquareTable { entries }
    }

    #[inline(always)]
    fn entry(&self, piece: Piece, sq: Square) -> PieceSums {
        self.entries[piece.index()][sq.index()]
    }

    /// The sums of `board`'s pieces, from scratch.
    pub(crate) fn sums(&self, board: &Board) -> PieceSums {
        let mut sums = PieceSums::default();
        for color in Color::ALL {
            for kind in &PieceKind::ALL[1..] {
                let piece = Piece::new(color, *kind);
                for sq in board.pieces(color, *kind) {
                    sums = sums.add(self.entry(piece, sq));
                }
            }
        }
        sums
    }

    /// The sums after `mv` is made on `board`, given `before`, the sums of `board`.
    #[inline]
    pub(crate) fn after(&self, board: &Board, mv: Move, before: PieceSums) -> PieceSums {
        let (from, to) = (mv.from(), mv.to());
        let Some(mover) = board.piece_at(from) else {
            return before;
        };
        let mut sums = before.sub(self.entry(mover, from));
        sums = match mv.promotion_kind() {
            Some(kind) => sums.add(self.entry(Piece::new(mover.color, kind), to)),
            None => sums.add(self.entry(mover, to)),
        };
        if mv.is_castle() {
            // In Chess960 `to` may hold the castling rook itself: no victim.
            let (rook_from, rook_to) = board.castle_rook_squares(mv);
            let rook = Piece::new(mover.color, PieceKind::Rook);
            return sums
                .sub(self.entry(rook, rook_from))
                .add(self.entry(rook, rook_to));
        }
        // En passant takes a pawn, whose entries are zero; otherwise the victim stands on `to`.
        if let Some(victim) = board.piece_at(to) {
            sums = sums.sub(self.entry(victim, to));
        }
        sums
    }
}

fn piece_of_index(index: usize) -> Piece {
    let color = Color::ALL[index / 6];
    Piece::new(color, PieceKind::ALL[index % 6])
}
