//! The chessmap: who controls each square (+1 the viewing side, -1 the other, 0 neither),
//! seen from the side to move's point of view: when Black views, the board is colour-flipped
//! (ranks mirrored) so the viewer always plays "up" the board, as in Greer's training set.
//! A square is controlled by the side with more attackers on it (pieces attack through
//! nothing: x-rays do not count).

use super::sectors::{SECTOR_MASKS, SECTORS, file_group};
use kestrel_chess::attacks::{king_attacks, knight_attacks, piece_attacks};
use kestrel_chess::{Bitboard, Board, Color, Move, PieceKind};

/// Network inputs: 64 squares of the chessmap, then 6 king inputs.
pub const INPUTS: usize = 70;

/// Square control in the viewer's frame (square `sq` of the frame is `sq ^ 56` on the real
/// board when Black views).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Chessmap {
    /// Squares the viewer controls (+1).
    pub plus: Bitboard,
    /// Squares the opponent controls (-1).
    pub minus: Bitboard,
}

impl Chessmap {
    /// The value (+1, 0, -1) of frame square `sq` (0 = a1 of the frame).
    pub fn value(&self, sq: usize) -> i8 {
        ((self.plus.0 >> sq) & 1) as i8 - ((self.minus.0 >> sq) & 1) as i8
    }

    /// Sum of the square values of each sector (frame sectors).
    pub fn sector_control(&self) -> [i32; SECTORS] {
        let mut out = [0; SECTORS];
        for (o, mask) in out.iter_mut().zip(SECTOR_MASKS.iter()) {
            *o = (self.plus & *mask).count() as i32 - (self.minus & *mask).count() as i32;
        }
        out
    }
}

/// Per-square attacker counts as four bit planes (saturating at 15): adding a set of squares
/// is a handful of bit operations, so a whole side is counted without a per-square loop.
#[derive(Clone, Copy, Default)]
struct Counts([u64; 4]);

impl Counts {
    #[inline]
    fn add(&mut self, squares: u64) {
        let mut carry = squares;
        for plane in self.0.iter_mut() {
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
        }
        for plane in self.0.iter_mut() {
            *plane |= carry;
        }
    }

    /// Squares where `self` counts more than `other`.
    #[inline]
    fn greater(&self, other: &Counts) -> u64 {
        let (mut gt, mut eq) = (0u64, !0u64);
        for i in (0..4).rev() {
            gt |= eq & self.0[i] & !other.0[i];
            eq &= !(self.0[i] ^ other.0[i]);
        }
        gt
    }
}

fn attack_counts(board: &Board, color: Color) -> Counts {
    let occ = board.occupied();
    let mut counts = Counts::default();
    let pawns = board.pieces(color, PieceKind::Pawn).0;
    let (not_a, not_h) = (!Bitboard::FILE_A.0, !Bitboard::FILE_H.0);
    match color {
        Color::White => {
            counts.add((pawns & not_a) << 7);
            counts.add((pawns & not_h) << 9);
        }
        Color::Black => {
            counts.add((pawns & not_a) >> 9);
            counts.add((pawns & not_h) >> 7);
        }
    }
    for sq in board.pieces(color, PieceKind::Knight) {
        counts.add(knight_attacks(sq).0);
    }
    for kind in [PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
        for sq in board.pieces(color, kind) {
            counts.add(piece_attacks(kind, sq, occ).0);
        }
    }
    counts.add(king_attacks(board.king_square(color)).0);
    counts
}

/// The chessmap of `board` as `view` sees it (flipped when `view` is Black).
pub fn chessmap(board: &Board, view: Color) -> Chessmap {
    let ours = attack_counts(board, view);
    let theirs = attack_counts(board, !view);
    let (plus, minus) = (ours.greater(&theirs), theirs.greater(&ours));
    let frame = |b: u64| match view {
        Color::White => Bitboard(b),
        Color::Black => Bitboard(b.swap_bytes()),
    };
    Chessmap {
        plus: frame(plus),
        minus: frame(minus),
    }
}

/// The six king inputs: which sector column (a-c, d-e, f-h) the viewer's king stands in
/// (one-hot, inputs 0-2), then the opponent's king (3-5). Mirroring ranks keeps files, so
/// these are the same in the flipped frame.
pub fn king_inputs(board: &Board, view: Color) -> [i8; 6] {
    let mut out = [0; 6];
    out[file_group(board.king_square(view).file())] = 1;
    out[3 + file_group(board.king_square(!view).file())] = 1;
    out
}

/// The 70 network inputs of `board` from the side to move's point of view.
pub fn inputs(board: &Board) -> [f32; INPUTS] {
    let view = board.side_to_move();
    let map = chessmap(board, view);
    let mut out = [0.0; INPUTS];
    for (sq, o) in out.iter_mut().take(64).enumerate() {
        *o = map.value(sq) as f32;
    }
    for (i, k) in king_inputs(board, view).into_iter().enumerate() {
        out[64 + i] = k as f32;
    }
    out
}

/// The training target of `mv` played in `board`: per sector of the mover's frame, whether the
/// move raised (+1), lowered (-1) or kept (0) the mover's control (sum of the sector's chessmap
/// values). `mv` must be legal.
pub fn move_target(board: &Board, mv: Move) -> [i8; SECTORS] {
    let us = board.side_to_move();
    let before = chessmap(board, us).sector_control();
    let mut after_board = board.clone();
    after_board.make_move(mv);
    let after = chessmap(&after_board, us).sector_control();
    let mut out = [0; SECTORS];
    for ((o, b), a) in out.iter_mut().zip(before).zip(after) {
        *o = (a - b).signum() as i8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    /// Attacker counts square by square, the slow obvious way.
    fn naive_counts(board: &Board, color: Color) -> [u32; 64] {
        let occ = board.occupied();
        let mut counts = [0; 64];
        for sq in board.color(color) {
            let kind = board.piece_at(sq).unwrap().kind;
            let attacks = match kind {
                PieceKind::Pawn => kestrel_chess::attacks::pawn_attacks(color, sq),
                _ => piece_attacks(kind, sq, occ),
            };
            for t in attacks {
                counts[t.index()] += 1;
            }
        }
        counts
    }

    fn naive_map(board: &Board, view: Color) -> [i8; 64] {
        let (ours, theirs) = (naive_counts(board, view), naive_counts(board, !view));
        let mut out = [0; 64];
        for sq in 0..64 {
            let frame = if view == Color::White { sq } else { sq ^ 56 };
            out[frame] = (ours[sq] as i32 - theirs[sq] as i32).signum() as i8;
        }
        out
    }

    fn as_array(map: &Chessmap) -> [i8; 64] {
        std::array::from_fn(|sq| map.value(sq))
    }

    #[test]
    fn start_position_by_hand() {
        let map = chessmap(&Board::startpos(), Color::White);
        // Rank 3 is White's (pawns and knights), rank 6 Black's, ranks 4-5 nobody's.
        assert_eq!(map.plus.0 & 0xff << 16, 0xff << 16);
        assert_eq!(map.minus.0 & 0xff << 40, 0xff << 40);
        assert_eq!((map.plus.0 | map.minus.0) & 0xffff << 24, 0);
        // a1 and h1 are attacked by nobody; b1 by the rook; d2 by four pieces.
        let at = |s: &str| map.value(s.parse::<kestrel_chess::Square>().unwrap().index());
        assert_eq!(
            (at("a1"), at("h1"), at("b1"), at("d2"), at("e8")),
            (0, 0, 1, 1, -1)
        );
        let control = map.sector_control();
        // Sector 1 (a1-c2): b1, c1, a2, b2, c2 white; sector 11 mirrors it for Black.
        assert_eq!((control[0], control[10], control[5]), (5, -5, 0));
    }

    #[test]
    fn hand_checked_middlegame_square() {
        // White: Nf3, Bc4, pawn e4; Black: Nc6, pawn d6, queen d8. e5 is hit by
        // Nf3 (W) and Nc6, d6 (B): Black controls e5. d5 by e4, Bc4 (W) and Qd8 is blocked by
        // d6: White controls d5. g5 is hit by Nf3 and by Qd8 along d8-h4: nobody's.
        let b = board("3qk3/8/2np4/8/2B1P3/5N2/8/4K3 w - - 0 1");
        let map = chessmap(&b, Color::White);
        let at = |s: &str| map.value(s.parse::<kestrel_chess::Square>().unwrap().index());
        assert_eq!((at("e5"), at("d5"), at("g5")), (-1, 1, 0));
        // Seen by Black the same squares flip: e5 is e4 of Black's frame.
        let black = chessmap(&b, Color::Black);
        let e5 = "e5".parse::<kestrel_chess::Square>().unwrap().index() ^ 56;
        assert_eq!(black.value(e5), 1);
    }

    #[test]
    fn bit_planes_match_naive_counts() {
        for fen in [
            kestrel_chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "Q1Q1Q1Q1/1Q1Q1Q1Q/Q1Q1Q1Q1/1Q1Q1Q1Q/Q1Q1k1Q1/1Q1Q1Q1Q/8/K7 b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let b = board(fen);
            for view in Color::ALL {
                assert_eq!(as_array(&chessmap(&b, view)), naive_map(&b, view), "{fen}");
            }
        }
    }

    #[test]
    fn colour_flip_symmetry() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2N1PN2/PPP2PPP/R1BQKB1R b KQkq - 0 5",
        ] {
            let b = board(fen);
            let m = b.mirrored();
            assert_eq!(chessmap(&b, Color::White), chessmap(&m, Color::Black));
            assert_eq!(chessmap(&b, Color::Black), chessmap(&m, Color::White));
            assert_eq!(inputs(&b), inputs(&m));
            assert_eq!(king_inputs(&b, Color::White), king_inputs(&m, Color::Black));
        }
    }

    #[test]
    fn king_inputs_and_targets() {
        let b = board("6k1/8/8/8/8/8/8/2K5 w - - 0 1");
        assert_eq!(king_inputs(&b, Color::White), [1, 0, 0, 0, 0, 1]);
        // 1. e4 from the start: White gains e.g. d5/f5 (sector 6 and 8 of White's frame).
        let s = Board::startpos();
        let e4 = s.parse_uci_move("e2e4").unwrap();
        let t = move_target(&s, e4);
        assert_eq!(t[5], 1, "centre gains control: {t:?}");
        // 1... e5 then gains d4 for Black while d5 stays White's: the centre rises for Black.
        let mut b = s.clone();
        b.make_move(e4);
        let e5 = b.parse_uci_move("e7e5").unwrap();
        assert_eq!(move_target(&b, e5)[5], 1);
    }
}
