//! The sector map of Greer, Ojha & Bell (1999), as drawn in the seed
//! (`chessmaps-heuristic.txt`): the board split into 11 numbered areas. The three file groups
//! (a-c, d-e, f-h) are cut by ranks into 2+2+2+2 squares-high blocks on the wings and 3+2+3
//! on the centre files. The drawing labels 11 sectors that cover all 64 squares (ten of six
//! squares and the four-square centre), so the network has one output per labelled sector.

use kestrel_chess::{Bitboard, Square};

/// Number of sectors (outputs of the network).
pub const SECTORS: usize = 11;

/// The seed's sector numbers (1-based), rank 8 first, files a to h.
#[rustfmt::skip]
const MAP: [[u8; 8]; 8] = [
    [11, 11, 11, 7, 7, 9, 9, 9],
    [11, 11, 11, 7, 7, 9, 9, 9],
    [10, 10, 10, 7, 7, 8, 8, 8],
    [10, 10, 10, 6, 6, 8, 8, 8],
    [ 2,  2,  2, 6, 6, 4, 4, 4],
    [ 2,  2,  2, 5, 5, 4, 4, 4],
    [ 1,  1,  1, 5, 5, 3, 3, 3],
    [ 1,  1,  1, 5, 5, 3, 3, 3],
];

/// Sector index (0-based: the seed's number minus one) of every square a1 = 0 .. h8 = 63.
pub const SECTOR_OF: [u8; 64] = {
    let mut out = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = MAP[7 - sq / 8][sq % 8] - 1;
        sq += 1;
    }
    out
};

/// The squares of each sector.
pub const SECTOR_MASKS: [Bitboard; SECTORS] = {
    let mut out = [Bitboard(0); SECTORS];
    let mut sq = 0;
    while sq < 64 {
        let s = SECTOR_OF[sq] as usize;
        out[s] = Bitboard(out[s].0 | 1 << sq);
        sq += 1;
    }
    out
};

/// The sector a colour flip (ranks mirrored) maps each sector onto: the map is symmetric, so
/// a sector of the flipped board is a whole sector of the real one.
pub const FLIPPED_SECTOR: [u8; SECTORS] = {
    let mut out = [0; SECTORS];
    let mut sq = 0;
    while sq < 64 {
        out[SECTOR_OF[sq] as usize] = SECTOR_OF[sq ^ 56];
        sq += 1;
    }
    out
};

/// The sector (0-based) of `sq`.
#[inline]
pub fn sector_of(sq: Square) -> usize {
    SECTOR_OF[sq.index()] as usize
}

/// Which of the three file groups (a-c, d-e, f-h: the sector columns) a file falls in.
#[inline]
pub fn file_group(file: u8) -> usize {
    match file {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sectors_partition_the_board_as_drawn() {
        let all = SECTOR_MASKS.iter().fold(0u64, |acc, m| {
            assert_eq!(acc & m.0, 0, "sectors overlap");
            acc | m.0
        });
        assert_eq!(all, !0);
        let sizes: Vec<u32> = SECTOR_MASKS.iter().map(|m| m.count()).collect();
        assert_eq!(sizes, [6, 6, 6, 6, 6, 4, 6, 6, 6, 6, 6]);
        let at = |s: &str| sector_of(s.parse().unwrap()) + 1;
        assert_eq!(
            (at("a1"), at("c2"), at("d1"), at("e3"), at("h1")),
            (1, 1, 5, 5, 3)
        );
        assert_eq!((at("d4"), at("e5"), at("d6"), at("e8")), (6, 6, 7, 7));
        assert_eq!((at("b4"), at("c5"), at("g4"), at("f6")), (2, 10, 4, 8));
        assert_eq!((at("a8"), at("h7")), (11, 9));
    }

    #[test]
    fn colour_flip_maps_sectors_onto_sectors() {
        for sq in 0..64 {
            assert_eq!(
                FLIPPED_SECTOR[SECTOR_OF[sq] as usize],
                SECTOR_OF[sq ^ 56],
                "square {sq}"
            );
        }
        // 1 <-> 11, 2 <-> 10, 3 <-> 9, 4 <-> 8, 5 <-> 7, 6 <-> 6 (1-based)
        assert_eq!(FLIPPED_SECTOR, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }
}
