//! Where extracted features go. The evaluator, the trace and the breakdown are three sinks fed
//! by one feature extractor, so the score and the trace cannot disagree.

use crate::table::Term;
use kestrel_chess::Color;

/// Receives `count` occurrences of entry `i` of `term` for `color` (the sink applies the
/// colour's sign). `add` counts in both phases; `add_mg`/`add_eg` in one phase only, which
/// keeps even non-tapered terms (king shelter, king distance) exactly linear.
pub(crate) trait Sink {
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32);
    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32);
    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32);
}
