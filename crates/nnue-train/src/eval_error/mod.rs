//! How far evaluations are from a data set's scores (`kestrel nnue error`): each evaluation
//! ([`Evaluation`]: the linear one with default or file values, or a network) on every scored
//! position ([`measure`](mod@measure)), its mean absolute and RMS difference, bias and the trainer's loss at
//! λ 1 ([`ErrorSums`]), as a table or CSV ([`report`]).

pub mod evaluation;
pub mod measure;
pub mod report;
pub mod sums;

pub use crate::progress::read_records;
pub use evaluation::{EvalSpecError, Evaluation};
pub use measure::{Measurement, measure};
pub use sums::{ErrorSummary, ErrorSums};
