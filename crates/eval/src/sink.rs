//! Where extracted features go. The evaluator, the trace and the breakdown are three sinks fed
//! by one feature extractor, so the score and the trace cannot disagree.

use crate::features::TermSet;
use crate::table::Term;
use kestrel_chess::Color;

/// Receives `count` occurrences of entry `i` of `term` for `color` (the sink applies the
/// colour's sign). `add` counts in both phases; `add_mg`/`add_eg` in one phase only, which
/// keeps even non-tapered terms (king shelter, king distance) exactly linear.
pub(crate) trait Sink {
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32);
    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32);
    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32);

    /// Whether the sink wants any term of `group`; the extractor skips a group's work when not.
    /// Only the evaluator says no (for groups whose weights are all zero), so traces and
    /// breakdowns stay complete.
    #[inline(always)]
    fn wants(&self, _group: TermSet) -> bool {
        true
    }
}
