//! Learning from players' moves (David, van den Herik, Koppel, Netanyahu, GECCO 2009): each
//! organism chooses a move in positions from real games with its own evaluation, and its
//! fitness grows with the number of positions where it chooses the move that was played.

pub mod data;
pub mod fitness;
pub mod leaves;
pub mod recognise;
pub mod remote;
pub mod run;
pub mod search_fitness;
