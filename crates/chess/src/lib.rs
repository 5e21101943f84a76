//! Chess rules for Kestrel: bitboards, a position with make/unmake and Polyglot Zobrist keys,
//! legal move generation, perft, and notation (FEN, EPD, UCI moves, SAN, PGN).

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod epd;
mod fen;
mod gives_check;
mod legality;
mod movegen;
mod moves;
pub mod perft;
mod pgn;
mod quiet_checks;
mod san;
mod types;
mod uci_move;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, START_FEN};
pub use castling::CastlingRights;
pub use epd::{EpdError, EpdFileContents, EpdRecord, parse_epd_text, read_epd_file};
pub use fen::FenError;
pub use gives_check::CheckInfo;
pub use movegen::GenKind;
pub use moves::{MAX_MOVES, Move, MoveFlag, MoveList};
pub use pgn::{PgnError, PgnGame, PgnReader, write_pgn};
pub use san::{SanError, san_line};
pub use types::{Color, Piece, PieceKind, Square};
pub use uci_move::MoveParseError;
