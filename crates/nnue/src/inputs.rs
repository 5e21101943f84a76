//! King-relative inputs ([`InputLayout`]): a network may see each perspective's pieces
//! through that side's own king, as Stockfish's HalfKA and most engines' "king buckets" do.
//! The board is mirrored left-right so that the king stands on files a-d (chess without
//! castling rights is symmetric under a↔h, and with them the king rarely crosses the centre),
//! and the king's square then picks one of a few sets of 768 weights. The plain layout, the
//! network of [`crate::feature_index`], has neither the mirror nor the buckets.
//!
//! A move of a king that changes its side's bucket or mirror changes every feature of that
//! perspective: the accumulator is then refreshed, not updated.

use crate::arch::INPUTS;
use kestrel_chess::{Board, Color, Piece, Square};

/// The king bucket counts a layout may have (besides the plain layout).
pub const KING_BUCKET_CHOICES: [usize; 3] = [1, 2, 4];

/// How the first layer's inputs depend on the perspective's king (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputLayout {
    /// 0: the plain layout; otherwise mirrored, with this many king buckets.
    king_buckets: u8,
}

/// Where one perspective's features start and how its squares are turned: the feature of a
/// piece is `base + side + 64·kind + (square ^ flip)`. The default is White's in the plain
/// layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orientation {
    base: u16,
    flip: u8,
}

impl Orientation {
    /// `perspective`'s orientation in the plain layout: the board turned for Black only.
    #[inline]
    pub fn plain(perspective: Color) -> Orientation {
        let flip = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        Orientation { base: 0, flip }
    }

    /// The feature of `piece` on `square` seen from `perspective` in this orientation.
    #[inline]
    pub fn feature(self, perspective: Color, piece: Piece, square: Square) -> usize {
        let side = if piece.color == perspective { 0 } else { 384 };
        self.base as usize + side + 64 * piece.kind.index() + (square.index() ^ self.flip as usize)
    }
}

impl InputLayout {
    /// 768 piece-square features per perspective, no mirror, no buckets.
    pub const PLAIN: InputLayout = InputLayout { king_buckets: 0 };

    /// The mirrored layout with `buckets` king buckets (one of [`KING_BUCKET_CHOICES`]).
    pub fn king_buckets(buckets: usize) -> Result<InputLayout, String> {
        if KING_BUCKET_CHOICES.contains(&buckets) {
            Ok(InputLayout {
                king_buckets: buckets as u8,
            })
        } else {
            Err(format!(
                "{buckets} king buckets: a layout has one of {KING_BUCKET_CHOICES:?}"
            ))
        }
    }

    /// The layout a file's king bucket word names: 0 is plain.
    pub fn from_setting(buckets: usize) -> Result<InputLayout, String> {
        if buckets == 0 {
            Ok(InputLayout::PLAIN)
        } else {
            InputLayout::king_buckets(buckets)
        }
    }

    /// Whether this is the plain layout.
    #[inline]
    pub fn is_plain(self) -> bool {
        self.king_buckets == 0
    }

    /// The king buckets (0 for the plain layout): the value of `--king-buckets`.
    pub fn setting(self) -> usize {
        self.king_buckets as usize
    }

    /// Features per perspective: 768 for each king bucket.
    pub fn inputs(self) -> usize {
        INPUTS * (self.king_buckets as usize).max(1)
    }

    /// The orientation of `perspective` whose king stands on `king`.
    #[inline]
    pub fn orientation(self, perspective: Color, king: Square) -> Orientation {
        let plain = Orientation::plain(perspective);
        if self.is_plain() {
            return plain;
        }
        let vertical = plain.flip;
        let own = king.index() as u8 ^ vertical;
        let horizontal = if own & 7 >= 4 { 7 } else { 0 };
        let bucket = self.bucket(own ^ horizontal);
        Orientation {
            base: (bucket * INPUTS) as u16,
            flip: vertical | horizontal,
        }
    }

    /// The orientation of `perspective` on `board`.
    #[inline]
    pub fn board_orientation(self, board: &Board, perspective: Color) -> Orientation {
        self.orientation(perspective, board.king_square(perspective))
    }

    /// Every active feature of `board` from `perspective`, in square order.
    pub fn active_features(self, board: &Board, perspective: Color) -> Vec<usize> {
        let orientation = self.board_orientation(board, perspective);
        board
            .occupied()
            .map(|sq| {
                let piece = board
                    .piece_at(sq)
                    .expect("an occupied square holds a piece");
                orientation.feature(perspective, piece, sq)
            })
            .collect()
    }

    /// The bucket of a king on `square` (own side's view, mirrored to files a-d): by rank,
    /// the back rank split into the corner (a-b) and the centre (c-d) at four buckets.
    fn bucket(self, square: u8) -> usize {
        let (rank, file) = (square >> 3, square & 7);
        match self.king_buckets {
            2 => (rank > 0) as usize,
            4 => match rank {
                0 if file < 2 => 0,
                0 => 1,
                1 => 2,
                _ => 3,
            },
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::PieceKind;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1')
    }

    #[test]
    fn the_plain_layout_ignores_the_king() {
        for c in Color::ALL {
            let first = InputLayout::PLAIN.orientation(c, Square(0));
            assert!((0..64).all(|k| InputLayout::PLAIN.orientation(c, Square(k)) == first));
            let queen = Piece::new(Color::White, PieceKind::Queen);
            let d1 = first.feature(c, queen, sq("d1"));
            let want = if c == Color::White {
                4 * 64 + 3
            } else {
                384 + 4 * 64 + 59
            };
            assert_eq!(d1, want, "{c:?}");
        }
    }

    #[test]
    fn a_mirrored_position_has_the_same_features() {
        // No castling rights: the position and its a↔h mirror are the same chess position.
        let fen = "r3k3/pp3ppp/2n5/3p4/8/2N2N2/PPP2PPP/3R1K2 w - - 0 1";
        let mirror = "3k3r/ppp3pp/5n2/4p3/8/2N2N2/PPP2PPP/2K1R3 w - - 0 1";
        let (a, b) = (
            Board::from_fen(fen).unwrap(),
            Board::from_fen(mirror).unwrap(),
        );
        for buckets in KING_BUCKET_CHOICES {
            let layout = InputLayout::king_buckets(buckets).unwrap();
            for c in Color::ALL {
                let mut fa = layout.active_features(&a, c);
                let mut fb = layout.active_features(&b, c);
                fa.sort_unstable();
                fb.sort_unstable();
                assert_eq!(fa, fb, "{buckets} buckets, {c:?}");
                assert!(fa.iter().all(|&f| f < layout.inputs()));
            }
        }
    }

    #[test]
    fn buckets_follow_the_kings_square_from_its_own_side() {
        let layout = InputLayout::king_buckets(4).unwrap();
        let base = |c, s| layout.orientation(c, sq(s)).base as usize / INPUTS;
        assert_eq!(base(Color::White, "g1"), 0, "g1 mirrors to b1: the corner");
        assert_eq!(base(Color::White, "e1"), 1);
        assert_eq!(base(Color::White, "d2"), 2);
        assert_eq!(base(Color::White, "e5"), 3);
        assert_eq!(
            base(Color::Black, "g8"),
            0,
            "Black's back rank is its own first"
        );
        assert_eq!(base(Color::Black, "c7"), 2);
        assert_eq!(base(Color::Black, "c1"), 3);
        let two = InputLayout::king_buckets(2).unwrap();
        assert_eq!(two.orientation(Color::White, sq("h1")).base, 0);
        assert_eq!(
            two.orientation(Color::White, sq("h2")).base as usize,
            INPUTS
        );
        assert!(InputLayout::king_buckets(3).is_err());
        assert_eq!(InputLayout::from_setting(0).unwrap(), InputLayout::PLAIN);
    }

    #[test]
    fn the_mirror_turns_squares_with_the_king() {
        let layout = InputLayout::king_buckets(1).unwrap();
        let knight = Piece::new(Color::White, PieceKind::Knight);
        let left = layout.orientation(Color::White, sq("c1"));
        let right = layout.orientation(Color::White, sq("f1"));
        assert_eq!(left.feature(Color::White, knight, sq("b1")), 64 + 1);
        assert_eq!(right.feature(Color::White, knight, sq("g1")), 64 + 1);
        let black = layout.orientation(Color::Black, sq("f8"));
        assert_eq!(black.feature(Color::Black, knight, sq("g1")), 384 + 64 + 57);
    }
}
