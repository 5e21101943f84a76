//! Opening books: Polyglot `.bin` files and Kestrel's own `.kbk` files compiled from a
//! human-editable text format (see `docs/uci.md`).
//!
//! Both formats are held the same way in memory: entries sorted by (Polyglot key, move) plus a
//! hash index from key to its run of entries, so a probe takes constant time. Moves are stored in Polyglot's 16-bit encoding and decoded against
//! the legal moves of the probed position, so a corrupt or colliding entry can never produce an
//! illegal move.

mod choose;
mod compile;
mod eco;
mod error;
mod kbk;
mod pgn_build;
mod polyglot;
mod text;

pub use choose::choose_weighted;
pub use compile::compile_text_book;
pub use eco::{EcoRow, eco_rows_to_text, read_eco_tsv, weigh_rows_by_games};
pub use error::BookError;
pub use kbk::{KBK_MAGIC, encode_kbk};
pub use pgn_build::{PgnBookOptions, PgnBookStats, build_polyglot_from_pgn};
pub use polyglot::{decode_move, encode_move, encode_polyglot};
pub use text::{TextBook, TextLine, TextLineError, parse_text_book};

use kestrel_chess::{Board, Move};
use rand::Rng;
use std::collections::HashMap;
use std::path::Path;

/// One stored book entry: position key, move (Polyglot encoding) and weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BookEntry {
    /// Polyglot Zobrist key of the position (`Board::hash`).
    pub key: u64,
    /// The move in Polyglot's 16-bit encoding (see [`encode_move`]).
    pub mv: u16,
    /// Relative weight for random choice; 0 is never chosen (Polyglot files hold 16 bits).
    pub weight: u32,
}

/// A legal book move in a probed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the probed position.
    pub mv: Move,
    /// Its weight, summed over duplicate entries; 0 is never chosen.
    pub weight: u32,
}

/// The file format a book was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// A Polyglot `.bin` file.
    Polyglot,
    /// Kestrel's `.kbk` format (also a text book compiled in memory).
    Kestrel,
}

/// An opening name attached to the position a text-book line ends in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningName {
    /// ECO code (`C60`); empty when the row gave only a name.
    pub eco: String,
    /// Opening name; empty when the row gave only an ECO code.
    pub name: String,
}

/// A loaded opening book, probed by position key in constant time.
#[derive(Clone, Debug)]
pub struct Book {
    format: BookFormat,
    entries: Vec<BookEntry>,
    /// Key -> (first entry, number of entries) in `entries`.
    index: HashMap<u64, (u32, u32)>,
    names: HashMap<u64, OpeningName>,
}

impl Book {
    /// Builds a book from entries (sorted here) and opening names.
    pub fn new(
        format: BookFormat,
        mut entries: Vec<BookEntry>,
        names: HashMap<u64, OpeningName>,
    ) -> Book {
        entries.sort_unstable();
        let mut index: HashMap<u64, (u32, u32)> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            index.entry(e.key).or_insert((i as u32, 0)).1 += 1;
        }
        Book {
            format,
            entries,
            index,
            names,
        }
    }

    /// Reads a book file; the format is recognised by its content (`.kbk` magic, else Polyglot).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Book::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }

    /// Parses a book from memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.starts_with(KBK_MAGIC) {
            kbk::decode_kbk(bytes)
        } else {
            polyglot::decode_polyglot(bytes)
        }
    }

    /// The book shipped with Kestrel (`books/kestrel.kbk`, compiled from `books/kestrel.txt`).
    pub fn builtin() -> Book {
        Book::from_bytes(BUILTIN_KBK).expect("the shipped book is checked by the tests")
    }

    /// The format the book was read from.
    pub fn format(&self) -> BookFormat {
        self.format
    }

    /// Every stored entry, sorted by key, then move.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Number of stored entries (not positions).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Raw entries stored for a key (possibly including moves illegal in the actual position).
    pub fn entries_for(&self, key: u64) -> &[BookEntry] {
        match self.index.get(&key) {
            Some(&(start, len)) => &self.entries[start as usize..(start + len) as usize],
            None => &[],
        }
    }

    /// The legal book moves of a position, heaviest first (ties in move order).
    pub fn probe(&self, board: &Board) -> Vec<BookMove> {
        let mut moves: Vec<BookMove> = Vec::new();
        for e in self.entries_for(board.hash()) {
            let Some(mv) = decode_move(board, e.mv) else {
                continue;
            };
            if let Some(existing) = moves.iter_mut().find(|m| m.mv == mv) {
                existing.weight = existing.weight.saturating_add(e.weight);
            } else {
                moves.push(BookMove {
                    mv,
                    weight: e.weight,
                });
            }
        }
        moves.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.0.cmp(&b.mv.0)));
        moves
    }

    /// A weighted random book move (weight 0 entries are never chosen); `None` out of book.
    pub fn choose<R: Rng + ?Sized>(&self, board: &Board, rng: &mut R) -> Option<BookMove> {
        choose_weighted(&self.probe(board), rng)
    }

    /// The opening name recorded for this exact position, if any (text books only).
    pub fn opening_name(&self, board: &Board) -> Option<&OpeningName> {
        self.names.get(&board.hash())
    }

    /// Every recorded opening name, by position key.
    pub fn names(&self) -> &HashMap<u64, OpeningName> {
        &self.names
    }
}

/// Bytes of the shipped book, embedded so the engine finds it wherever it is installed.
static BUILTIN_KBK: &[u8] = include_bytes!("../../../../books/kestrel.kbk");

#[cfg(test)]
mod tests;
