//! Text book -> move tree keyed by position.
//!
//! A move's weight in a position is the largest weight of any row that plays it there. Rows
//! usually share prefixes (`e4`, `e4 e5`, `e4 e5 Nf3`, ...), so summing would count the shared
//! moves once per row; the maximum keeps "this row is played N times" meaningful.

use super::{Book, BookEntry, BookFormat, OpeningName, TextBook, encode_move};
use kestrel_chess::Board;
use std::collections::HashMap;

/// Builds the in-memory book of a parsed text book (entries plus names of labelled rows).
pub fn compile_text_book(text: &TextBook) -> Book {
    let mut weights: HashMap<(u64, u16), u32> = HashMap::new();
    let mut names: HashMap<u64, OpeningName> = HashMap::new();
    for line in &text.lines {
        let mut board = Board::startpos();
        for &mv in &line.moves {
            let w = weights.entry((board.hash(), encode_move(mv))).or_insert(0);
            *w = (*w).max(line.weight);
            board.make_move(mv);
        }
        if line.eco.is_some() || line.name.is_some() {
            names.entry(board.hash()).or_insert_with(|| OpeningName {
                eco: line.eco.clone().unwrap_or_default(),
                name: line.name.clone().unwrap_or_default(),
            });
        }
    }
    let entries = weights
        .into_iter()
        .map(|((key, mv), weight)| BookEntry { key, mv, weight })
        .collect();
    Book::new(BookFormat::Kestrel, entries, names)
}
