//! Training data and the trainer for Kestrel's learned evaluation (`kestrel-nnue`): the
//! position format ([`format`](mod@format)), mentor and own scores blended ([`blend`]), self-play and recorded-game data ([`selfplay`]), labels by a
//! UCI mentor ([`label`]), the trainer ([`train`]), how far evaluations are from a data set's
//! scores ([`eval_error`]), the chart of the network's strength by
//! training data and hidden size ([`curve`]), and the samples that fit the
//! win/draw/loss model of `UCI_ShowWDL` ([`wdl_data`]).

#![warn(missing_docs)]

pub mod blend;
pub mod curve;
pub mod eval_error;
pub mod format;
pub mod label;
pub mod progress;
pub mod selfplay;
pub mod train;
pub mod wdl_data;
