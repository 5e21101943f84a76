//! Opening positions for the round robins: FENs from an opening file, or lines walked through
//! Kestrel's built-in book choosing weighted moves (as the teaching engine's own opening
//! database picks common replies more often).

use kestrel_chess::Board;
use kestrel_tools::Opening;
use kestrel_tools::book::Book;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Up to `count` distinct positions after at most `plies` weighted book moves from the start.
pub fn book_openings(book: &Book, count: usize, plies: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut fens: Vec<String> = Vec::new();
    // Bounded attempts: a small book has fewer distinct lines than asked for.
    for _ in 0..count * 20 {
        if fens.len() == count {
            break;
        }
        let mut board = Board::startpos();
        for _ in 0..plies {
            match book.choose(&board, &mut rng) {
                Some(m) => board.make_move(m.mv),
                None => break,
            }
        }
        let fen = board.to_fen();
        if !fens.contains(&fen) {
            fens.push(fen);
        }
    }
    fens
}

/// The FEN of each opening's position after its moves.
pub fn opening_fens(openings: &[Opening]) -> Vec<String> {
    openings.iter().map(|o| o.position().to_fen()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_lines_are_distinct_seeded_and_legal() {
        let book = Book::builtin();
        let a = book_openings(&book, 30, 8, 5);
        assert_eq!(a, book_openings(&book, 30, 8, 5));
        assert!(a.len() >= 20, "only {} distinct lines", a.len());
        for fen in &a {
            assert!(Board::from_fen(fen).is_ok(), "{fen}");
        }
        let mut sorted = a.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
    }
}
