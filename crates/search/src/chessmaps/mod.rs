//! The Chessmaps heuristic (Greer, Ojha & Bell 1999): a chessmap of square control plus king
//! inputs feed a small network that rates the board's sectors; quiet moves are ordered by the
//! number and rank of the sectors they influence, with an optional per-ply "sector killer".
//! See `docs/chessmaps.md`.

pub mod chessmap;
pub mod network;
mod orderer;
pub mod sectors;

pub use chessmap::{Chessmap, INPUTS, chessmap, inputs, king_inputs, move_target};
pub use network::{HIDDEN, Network, active_network, install_network};
pub use orderer::{ChessmapsOrderer, QuietOrder, chessmaps_orderer};
pub use sectors::{SECTORS, sector_of};
