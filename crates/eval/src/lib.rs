#![warn(missing_docs)]
//! Kestrel's evaluation: one parametric, linear, tapered evaluation.
//!
//! Every term is declared once in [`EVAL_TABLE`]. One feature extractor feeds three consumers:
//! the [`Evaluator`] (fast (mg, eg) weight pairs for search), [`trace`] (the position as a sparse
//! linear form in the flat parameters, so a GA can score a population with one matrix product)
//! and [`Evaluator::breakdown`] (the `kestrel eval` table). The score is
//! `scale_trace_sum(Σ values[i] * coef_i)` with `coef` folding in the phase weights, so it is
//! exactly linear in the parameters. [`COMPACT_SET`] names the expert-driven GA's 35-term
//! evaluation (230 bits); [`compact_values`] zeroes everything else.

mod accumulate;
mod bits;
mod breakdown;
mod cache;
mod compact;
mod evaluator;
mod features;
mod params_file;
mod psq;
mod sink;
mod table;
mod taper;
mod trace;

pub use breakdown::{Breakdown, TermScore};
pub use cache::{CacheStats, EVAL_ENTRY_BYTES, EvalCache, PAWN_ENTRY_BYTES};
pub use compact::{COMPACT_SET, compact_values, is_compact};
pub use evaluator::Evaluator;
pub use params_file::{FOREIGN_SECTIONS, load_eval_params, parse_eval_params};
pub use psq::PieceSums;
pub use table::EVAL_TABLE;
pub use taper::{PHASE_MAX, SCALE_MAX, eg_scale, eg_weight, phase, scale_trace_sum};
pub use trace::{Trace, trace, trace_score};
