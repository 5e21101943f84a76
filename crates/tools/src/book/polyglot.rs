//! The Polyglot `.bin` format: 16-byte big-endian entries (key u64, move u16, weight u16,
//! learn u32) sorted by key.
//!
//! Moves: bits 0-5 target square, 6-11 origin square, 12-14 promotion (1 knight .. 4 queen).
//! Castling is written as the king taking its own rook (e1h1); Kestrel plays it as e1g1.

use super::{Book, BookEntry, BookError, BookFormat};
use kestrel_chess::{Board, Move, PieceKind, Square};
use std::collections::HashMap;

pub(crate) const ENTRY_SIZE: usize = 16;

/// Encodes a legal move of `board` in Polyglot's 16 bits (castling as king takes rook).
pub fn encode_move(mv: Move) -> u16 {
    let from = mv.from();
    let mut to = mv.to();
    if mv.is_castle() {
        let rook_file = if mv.is_king_side_castle() { 7 } else { 0 };
        to = Square::new(rook_file, to.rank());
    }
    let promo = mv.promotion_kind().map_or(0, |k| k.index() as u16);
    to.0 as u16 | (from.0 as u16) << 6 | promo << 12
}

/// Decodes a Polyglot move against `board`; `None` when it is not legal there.
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let from = Square((raw >> 6 & 63) as u8);
    let mut to = Square((raw & 63) as u8);
    let promotion = match raw >> 12 & 7 {
        0 => None,
        k @ 1..=4 => Some(PieceKind::from_index(k as usize)),
        _ => return None,
    };
    let is_king = board
        .piece_at(from)
        .is_some_and(|p| p.kind == PieceKind::King);
    if is_king && from.file() == 4 && from.rank() == to.rank() {
        match to.file() {
            7 => to = Square::new(6, to.rank()),
            0 => to = Square::new(2, to.rank()),
            _ => {}
        }
    }
    board.find_move(from, to, promotion)
}

/// Reads a Polyglot book, checking its size and key order.
pub(crate) fn decode_polyglot(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.is_empty() {
        return Err(BookError::corrupt("the file is empty"));
    }
    if !bytes.len().is_multiple_of(ENTRY_SIZE) {
        return Err(BookError::corrupt(format!(
            "not a Polyglot book: size {} is not a multiple of {ENTRY_SIZE} bytes",
            bytes.len()
        )));
    }
    let mut entries = Vec::with_capacity(bytes.len() / ENTRY_SIZE);
    let mut previous = 0u64;
    for (i, chunk) in bytes.chunks_exact(ENTRY_SIZE).enumerate() {
        let key = u64::from_be_bytes(chunk[0..8].try_into().expect("8 bytes"));
        let mv = u16::from_be_bytes([chunk[8], chunk[9]]);
        let weight = u16::from_be_bytes([chunk[10], chunk[11]]) as u32;
        if key < previous {
            return Err(BookError::corrupt(format!(
                "not a Polyglot book: entry {i} is out of key order"
            )));
        }
        if mv >> 12 > 4 {
            return Err(BookError::corrupt(format!(
                "not a Polyglot book: entry {i} has an invalid move code {mv:#06x}"
            )));
        }
        previous = key;
        entries.push(BookEntry { key, mv, weight });
    }
    Ok(Book::new(BookFormat::Polyglot, entries, HashMap::new()))
}

/// Writes entries as a Polyglot book (sorted; weights above 65535 must be scaled first).
pub fn encode_polyglot(entries: &[BookEntry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::with_capacity(sorted.len() * ENTRY_SIZE);
    for e in &sorted {
        out.extend_from_slice(&e.key.to_be_bytes());
        out.extend_from_slice(&e.mv.to_be_bytes());
        out.extend_from_slice(&(e.weight.min(u16::MAX as u32) as u16).to_be_bytes());
        out.extend_from_slice(&0u32.to_be_bytes());
    }
    out
}
