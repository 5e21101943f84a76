//! The engine's own book: loaded lazily when `OwnBook` is on, probed at `go`.

use crate::settings::BUILTIN_BOOK;
use kestrel_chess::{Board, Move};
use kestrel_tools::book::{Book, BookMove, choose_weighted};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

pub struct BookState {
    /// The `BookFile` value the current `book` came from (`None`: nothing tried yet).
    loaded_from: Option<String>,
    book: Option<Book>,
    rng: ChaCha8Rng,
}

impl BookState {
    pub fn new(seed: u64) -> BookState {
        BookState {
            loaded_from: None,
            book: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Restarts the random sequence (on `BookSeed` and `ucinewgame`), so games replay exactly.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Loads `file` unless it is already loaded; returns a message to show the GUI.
    pub fn ensure_loaded(&mut self, file: &str) -> Option<String> {
        if self.loaded_from.as_deref() == Some(file) {
            return None;
        }
        self.loaded_from = Some(file.to_string());
        self.book = None;
        let loaded = match file {
            "" => return Some("no BookFile set; playing without a book".into()),
            BUILTIN_BOOK => Ok(Book::builtin()),
            path => Book::load(Path::new(path)),
        };
        match loaded {
            Ok(book) => {
                let msg = format!("book {file} loaded: {} entries", book.len());
                self.book = Some(book);
                Some(msg)
            }
            Err(e) => Some(format!("{e}; playing without a book")),
        }
    }

    /// A weighted random book move among `allowed` (all moves when empty), if in book.
    pub fn pick(&mut self, board: &Board, allowed: &[Move]) -> Option<(BookMove, u64)> {
        let book = self.book.as_ref()?;
        let moves: Vec<BookMove> = book
            .probe(board)
            .into_iter()
            .filter(|m| allowed.is_empty() || allowed.contains(&m.mv))
            .collect();
        let total = moves.iter().map(|m| m.weight as u64).sum();
        choose_weighted(&moves, &mut self.rng).map(|m| (m, total))
    }
}
