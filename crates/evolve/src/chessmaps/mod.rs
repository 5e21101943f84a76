//! Training of the Chessmaps move-ordering network (`kestrel chessmaps train`): examples from
//! grandmaster games ([`data`]) and backpropagation ([`train`](mod@train)). The network itself and its
//! use in search live in `kestrel_search::chessmaps`.

pub mod data;
pub mod train;

pub use data::{Example, examples_from_pgn};
pub use train::{Scores, TrainSettings, evaluate, initial_network, train};
