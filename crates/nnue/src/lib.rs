//! Kestrel's learned evaluation (NNUE): a perspective network `768 -> N (x2) -> 1` with a
//! squared clipped ReLU, the float form the trainer works on ([`FloatNetwork`]), its integer
//! form the search runs ([`Network`]), and the file format both are saved in ([`file`](mod@file)).
//!
//! Inputs: for each perspective (the side to move, the other side), 768 piece-square
//! features ([`feature_index`]); both accumulators share one weight matrix. Output: the side
//! to move's accumulator and then the other's, each through SCReLU, dotted with the output
//! weights, plus the bias, times [`EVAL_SCALE`] = centipawns from the side to move's view.
//! A network may have several output layers, output buckets chosen by the material on the
//! board ([`output_bucket`]); one bucket is the plain network. It may also see the pieces
//! through each side's king ([`InputLayout`]: the board mirrored to put the king on files
//! a-d, and one set of 768 weights per king bucket).
//!
//! Inference: [`NetEval`] lays a [`Network`] out for the search with the fastest [`Kernel`]
//! of the CPU (AVX2, SSE2 or portable, all giving the same integers); an
//! [`AccumulatorStack`] carries both perspectives' accumulators along the search path,
//! updated from each move's feature changes when a position is evaluated. The compiled-in
//! network ([`builtin_network`]) is `nets/default.knet` when it existed at build time; it is
//! Kestrel's default evaluation ([`default_evaluation`]), [`LINEAR`] selects the linear one.

#![warn(missing_docs)]

mod accumulator;
mod aligned;
mod arch;
mod buckets;
mod builtin;
mod choice;
pub mod file;
mod float;
mod inference;
mod inputs;
mod kernels;
mod quantised;

pub use accumulator::AccumulatorStack;
pub use arch::{EVAL_SCALE, INPUTS, QA, QB, active_features, feature_index};
pub use buckets::{MAX_OUTPUT_BUCKETS, board_bucket, output_bucket};
pub use builtin::{NO_BUILTIN_NETWORK, builtin_network, has_builtin_network};
pub use choice::{LINEAR, default_evaluation, default_evaluation_name, load_evaluation};
pub use file::NetFileError;
pub use float::{FloatNetwork, OUT_WEIGHT_CLIP, WEIGHT_CLIP};
pub use inference::{BUILTIN_NAMES, NetEval, read_network};
pub use inputs::{InputLayout, KING_BUCKET_CHOICES, Orientation};
pub use kernels::{Kernel, MAX_OUT_WEIGHT};
pub use quantised::Network;
