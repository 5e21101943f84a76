//! Training data and the trainer for Kestrel's learned evaluation (`kestrel-nnue`): the
//! position format ([`format`]), self-play and recorded-game data ([`selfplay`]), labels by a
//! UCI mentor ([`label`]), the trainer ([`train`]), and the samples that fit the
//! win/draw/loss model of `UCI_ShowWDL` ([`wdl_data`]).

#![warn(missing_docs)]

pub mod format;
pub mod label;
pub mod progress;
pub mod selfplay;
pub mod train;
pub mod wdl_data;
