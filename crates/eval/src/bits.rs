//! Set-wise pawn geometry on bitboards, written once for both colours.

use kestrel_chess::{Bitboard, Color, Square};

const NOT_A: u64 = !Bitboard::FILE_A.0;
const NOT_H: u64 = !Bitboard::FILE_H.0;

/// One file towards h.
#[inline]
pub(crate) fn east(b: Bitboard) -> Bitboard {
    Bitboard((b.0 & NOT_H) << 1)
}

/// One file towards a.
#[inline]
pub(crate) fn west(b: Bitboard) -> Bitboard {
    Bitboard((b.0 & NOT_A) >> 1)
}

/// The squares on the files next to the squares of `b` (same ranks).
#[inline]
pub(crate) fn beside(b: Bitboard) -> Bitboard {
    east(b) | west(b)
}

/// `b` plus every square ahead of it (towards `color`'s promotion rank).
#[inline]
pub(crate) fn fill_forward(b: Bitboard, color: Color) -> Bitboard {
    let mut x = b.0;
    match color {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        }
    }
    Bitboard(x)
}

/// Squares strictly ahead of `b` on the same files.
#[inline]
pub(crate) fn front_span(b: Bitboard, color: Color) -> Bitboard {
    fill_forward(b.forward(color), color)
}

/// Squares strictly behind `b` on the same files.
#[inline]
pub(crate) fn rear_span(b: Bitboard, color: Color) -> Bitboard {
    front_span(b, color.flip())
}

/// Whole files occupied by `b`.
#[inline]
pub(crate) fn file_fill(b: Bitboard) -> Bitboard {
    fill_forward(b, Color::White) | fill_forward(b, Color::Black)
}

/// The captures of pawns `pawns` of `color`, as two sets (towards a, towards h) so that a
/// square attacked by two pawns counts twice when both sets are counted.
#[inline]
pub(crate) fn pawn_captures(pawns: Bitboard, color: Color) -> (Bitboard, Bitboard) {
    let ahead = pawns.forward(color);
    (west(ahead), east(ahead))
}

/// Every square attacked by a pawn of `color` in `pawns`.
#[inline]
pub(crate) fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let (w, e) = pawn_captures(pawns, color);
    w | e
}

/// King-step distance between two squares.
#[inline]
pub(crate) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The rank `relative` (0 = own back rank) of `color`, as a set.
#[inline]
pub(crate) fn relative_rank(color: Color, relative: u8) -> Bitboard {
    match color {
        Color::White => Bitboard::rank(relative),
        Color::Black => Bitboard::rank(7 - relative),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn spans_and_captures_are_mirror_images() {
        let e4 = sq("e4").bb();
        assert_eq!(front_span(e4, Color::White).count(), 4);
        assert!(front_span(e4, Color::White).contains(sq("e8")));
        assert!(rear_span(e4, Color::White).contains(sq("e1")));
        assert_eq!(front_span(e4, Color::Black), rear_span(e4, Color::White));
        let a2 = sq("a2").bb();
        assert_eq!(pawn_attacks(a2, Color::White), sq("b3").bb());
        assert_eq!(pawn_attacks(sq("h7").bb(), Color::Black), sq("g6").bb());
        assert_eq!(beside(sq("a5").bb()), sq("b5").bb());
        assert_eq!(file_fill(e4).count(), 8);
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert_eq!(relative_rank(Color::Black, 6), Bitboard::rank(1));
    }
}
