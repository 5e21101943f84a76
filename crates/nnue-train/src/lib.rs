//! Training data and the trainer for Kestrel's learned evaluation (`kestrel-nnue`): the
//! position format ([`format`]), self-play data generation ([`selfplay`]).

#![warn(missing_docs)]

pub mod format;
pub mod selfplay;
