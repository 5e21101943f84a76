//! Chess960 (Fischer random) start positions by their standard number 0-959 (Scharnagl's
//! numbering: 518 is the standard array), and double Chess960 (each side its own array).

use crate::Board;

/// The back rank of start position `number` (0-959), White's pieces as FEN letters from the
/// a-file to the h-file; `None` past 959.
pub fn back_rank(number: u16) -> Option<[char; 8]> {
    if number >= 960 {
        return None;
    }
    let mut rank = [' '; 8];
    let n = number as usize;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[(n % 4) * 2 + 1] = 'B';
    rank[((n / 4) % 4) * 2] = 'B';
    let place_on_empty = |rank: &mut [char; 8], nth: usize, piece: char| {
        let file = (0..8)
            .filter(|&f| rank[f] == ' ')
            .nth(nth)
            .expect("an empty file");
        rank[file] = piece;
    };
    let rest = n / 16;
    place_on_empty(&mut rank, rest % 6, 'Q');
    // The knights' two files among the five empty ones, in the numbering's order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[rest / 6];
    place_on_empty(&mut rank, second, 'N');
    place_on_empty(&mut rank, first, 'N');
    for piece in ['R', 'K', 'R'] {
        place_on_empty(&mut rank, 0, piece);
    }
    Some(rank)
}

/// The FEN of double Chess960's start position with White on array `white` and Black on array
/// `black` (Chess960 when they are equal), castling rights written by file (Shredder-FEN).
pub fn start_fen(white: u16, black: u16) -> Option<String> {
    let white_rank = back_rank(white)?;
    let black_rank = back_rank(black)?;
    let rooks = |rank: &[char; 8]| -> String {
        let mut files: Vec<char> = (0..8u8)
            .filter(|&f| rank[f as usize] == 'R')
            .map(|f| (b'a' + f) as char)
            .collect();
        files.reverse(); // king side first, as in `HAha`
        files.into_iter().collect()
    };
    let white_text: String = white_rank.iter().collect();
    let black_text: String = black_rank.iter().map(|c| c.to_ascii_lowercase()).collect();
    Some(format!(
        "{black_text}/pppppppp/8/8/8/8/PPPPPPPP/{white_text} w {}{} - 0 1",
        rooks(&white_rank).to_ascii_uppercase(),
        rooks(&black_rank)
    ))
}

impl Board {
    /// Chess960 start position `number` (0-959; 518 is the standard array), in Chess960 mode.
    pub fn chess960_start(number: u16) -> Option<Board> {
        Board::double_chess960_start(number, number)
    }

    /// Double Chess960's start position: White on array `white`, Black on array `black`, in
    /// Chess960 mode.
    pub fn double_chess960_start(white: u16, black: u16) -> Option<Board> {
        let mut board = Board::from_fen(&start_fen(white, black)?).ok()?;
        board.set_chess960(true);
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_known_arrays() {
        let text = |n| back_rank(n).unwrap().iter().collect::<String>();
        assert_eq!(text(518), "RNBQKBNR");
        assert_eq!(text(0), "BBQNNRKR");
        assert_eq!(text(959), "RKRNNQBB");
        assert_eq!(back_rank(960), None);
        let standard = Board::chess960_start(518).unwrap();
        assert_eq!(standard.to_fen(), crate::START_FEN);
        assert_eq!(standard.hash(), Board::startpos().hash());
    }

    #[test]
    fn every_array_is_legal_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let rank = back_rank(n).unwrap();
            let files = |p: char| (0..8).filter(|&f| rank[f] == p).collect::<Vec<_>>();
            let (bishops, rooks, king) = (files('B'), files('R'), files('K'));
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "bishops of both colours in {n}"
            );
            assert!(
                rooks[0] < king[0] && king[0] < rooks[1],
                "king between rooks in {n}"
            );
            assert!(seen.insert(rank), "array {n} repeats");
            let board = Board::chess960_start(n).unwrap();
            assert!(board.legal_moves().len() >= 18);
            assert_eq!(Board::from_fen(&board.to_fen()).unwrap(), board);
        }
    }
}
