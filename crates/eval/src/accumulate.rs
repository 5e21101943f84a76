//! The sinks that add up a position's weighted features for the evaluator: white-relative
//! middle- and end-game sums, exact in integers so that the score equals the trace's.
//!
//! The fast one keeps both sums in one `i64` (the middle game in the high 32 bits, the end
//! game in the low ones, as Stockfish packs a `Score`): one multiply-add per feature instead
//! of two. It is exact while neither sum leaves `i32`, which the evaluator checks once per
//! parameter set ([`packable`]); a parameter set that could overflow uses the wide sums.

use crate::features::TermSet;
use crate::sink::Sink;
use crate::table::{SLOT_COUNT, Term};
use kestrel_chess::Color;

/// A slot's middle- and end-game weight (equal for non-tapered terms).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Weight {
    pub mg: i32,
    pub eg: i32,
}

/// Most any one slot can be counted for one side in a position: 64 pieces times 64 squares
/// (far above what chess reaches: a queen's mobility is at most 27, a side has 16 pieces).
const MAX_SLOT_COUNT: i64 = 64 * 64;

/// Whether packed sums are exact for `weights`: every position's middle- and end-game sums
/// are within `i32`, since each is at most the sum of |weight| times the largest count.
pub(crate) fn packable(weights: &[Weight; SLOT_COUNT]) -> bool {
    let bound: i64 = weights
        .iter()
        .map(|w| (w.mg as i64).abs().max((w.eg as i64).abs()))
        .sum();
    bound.saturating_mul(MAX_SLOT_COUNT) < i32::MAX as i64
}

/// `mg` and `eg` in one `i64`.
#[inline(always)]
pub(crate) fn pack(mg: i64, eg: i64) -> i64 {
    (mg << 32) + eg
}

/// A sink that sums the evaluator's weights; `sums` reads the (mg, eg) totals.
pub(crate) trait Sums: Sink {
    fn sums(&self) -> (i64, i64);
}

/// Both sums in one `i64` (see the module doc); only for [`packable`] weights.
pub(crate) struct PackedSums<'a> {
    pub weights: &'a [i64; SLOT_COUNT],
    pub active: TermSet,
    pub sum: i64,
}

impl Sums for PackedSums<'_> {
    #[inline(always)]
    fn sums(&self) -> (i64, i64) {
        let eg = self.sum as i32 as i64;
        ((self.sum - eg) >> 32, eg)
    }
}

impl Sink for PackedSums<'_> {
    /// Zero weights add nothing, so skipping a group with no active term keeps the score exact.
    #[inline(always)]
    fn wants(&self, group: TermSet) -> bool {
        self.active.meets(group)
    }

    #[inline(always)]
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.sum += self.weights[term.slot(i)] * (count * color.sign()) as i64;
    }

    #[inline(always)]
    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let w = self.weights[term.slot(i)];
        let mg = (w - w as i32 as i64) >> 32;
        self.sum += (mg * (count * color.sign()) as i64) << 32;
    }

    #[inline(always)]
    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let eg = self.weights[term.slot(i)] as i32 as i64;
        self.sum += eg * (count * color.sign()) as i64;
    }
}

/// Two `i64` sums, like [`crate::trace_score`]: exact for any weights.
pub(crate) struct WideSums<'a> {
    pub weights: &'a [Weight; SLOT_COUNT],
    pub active: TermSet,
    pub mg: i64,
    pub eg: i64,
}

impl Sums for WideSums<'_> {
    #[inline(always)]
    fn sums(&self) -> (i64, i64) {
        (self.mg, self.eg)
    }
}

impl Sink for WideSums<'_> {
    #[inline(always)]
    fn wants(&self, group: TermSet) -> bool {
        self.active.meets(group)
    }

    #[inline(always)]
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let w = self.weights[term.slot(i)];
        let c = (count * color.sign()) as i64;
        self.mg += w.mg as i64 * c;
        self.eg += w.eg as i64 * c;
    }

    #[inline(always)]
    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.mg += self.weights[term.slot(i)].mg as i64 * (count * color.sign()) as i64;
    }

    #[inline(always)]
    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.eg += self.weights[term.slot(i)].eg as i64 * (count * color.sign()) as i64;
    }
}
