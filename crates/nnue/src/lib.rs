//! Kestrel's learned evaluation (NNUE): a perspective network `768 -> N (x2) -> 1` with a
//! squared clipped ReLU, the float form the trainer works on ([`FloatNetwork`]), its integer
//! form the search runs ([`Network`]), and the file format both are saved in ([`file`]).
//!
//! Inputs: for each perspective (the side to move, the other side), 768 piece-square
//! features ([`feature_index`]); both accumulators share one weight matrix. Output: the side
//! to move's accumulator and then the other's, each through SCReLU, dotted with the output
//! weights, plus the bias, times [`EVAL_SCALE`] = centipawns from the side to move's view.

#![warn(missing_docs)]

mod arch;
pub mod file;
mod float;
mod quantised;

pub use arch::{EVAL_SCALE, INPUTS, QA, QB, active_features, feature_index};
pub use file::NetFileError;
pub use float::FloatNetwork;
pub use quantised::Network;
