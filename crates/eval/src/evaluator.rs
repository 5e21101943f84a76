//! The evaluator used by search: parameters converted once into (mg, eg) weight pairs per
//! feature slot, so each evaluation is one feature pass with no allocation.

use crate::features::extract;
use crate::sink::Sink;
use crate::table::{EVAL_TABLE, SLOT_COUNT, SLOTS, Term};
use crate::taper::{PHASE_MAX, phase, scale_trace_sum};
use kestrel_chess::{Board, Color};
use kestrel_params::ParamValues;

/// A slot's middle- and end-game weight (equal for non-tapered terms).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Weight {
    pub mg: i32,
    pub eg: i32,
}

/// An evaluation function with its parameters, ready for fast use by search.
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: ParamValues,
    weights: Box<[Weight; SLOT_COUNT]>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(ParamValues::defaults(&EVAL_TABLE))
    }
}

impl Evaluator {
    /// Builds the evaluator. `params` must be values of [`EVAL_TABLE`] (a programming error
    /// otherwise: params files are checked against the table when they are read).
    pub fn new(params: ParamValues) -> Evaluator {
        assert!(
            std::ptr::eq(params.table, &EVAL_TABLE) && params.values.len() == EVAL_TABLE.len(),
            "Evaluator::new needs values of EVAL_TABLE ({} values), got section [{}] with {}",
            EVAL_TABLE.len(),
            params.table.section,
            params.values.len()
        );
        let v = &params.values;
        let mut weights = Box::new([Weight::default(); SLOT_COUNT]);
        for (w, info) in weights.iter_mut().zip(SLOTS.iter()) {
            *w = Weight {
                mg: v[info.flat_mg as usize],
                eg: v[info.flat_eg as usize],
            };
        }
        Evaluator { params, weights }
    }

    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    pub(crate) fn weights(&self) -> &[Weight; SLOT_COUNT] {
        &self.weights
    }

    /// Score in centipawns from White's point of view.
    pub fn evaluate_white(&self, board: &Board) -> i32 {
        let mut acc = Accumulator {
            weights: &self.weights,
            mg: 0,
            eg: 0,
        };
        extract(board, &mut acc);
        let phase = phase(board) as i64;
        scale_trace_sum(acc.mg * phase + acc.eg * (PHASE_MAX as i64 - phase))
    }

    /// Score in centipawns from the side to move's point of view (what search uses).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_white(board) * board.side_to_move().sign()
    }
}

/// Sums white-relative middle- and end-game scores, in i64 like [`crate::trace_score`], so the
/// two agree even for values far outside the declared ranges.
struct Accumulator<'a> {
    weights: &'a [Weight; SLOT_COUNT],
    mg: i64,
    eg: i64,
}

impl Sink for Accumulator<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shareable<T: Clone + Send + Sync + std::fmt::Debug>() {}

    #[test]
    fn evaluator_can_be_shared_between_search_threads() {
        shareable::<Evaluator>();
        let e = Evaluator::default();
        assert_eq!(e.params(), &ParamValues::defaults(&EVAL_TABLE));
    }

    #[test]
    fn weights_follow_the_parameter_values() {
        let mut values = ParamValues::defaults(&EVAL_TABLE);
        values.set("TEMPO", &[7, 3]).unwrap();
        values.set_scalar("BISHOP_PAIR", 41).unwrap();
        let e = Evaluator::new(values);
        let tempo = e.weights()[Term::TEMPO.slot(0)];
        assert_eq!((tempo.mg, tempo.eg), (7, 3));
        let pair = e.weights()[Term::BISHOP_PAIR.slot(0)];
        assert_eq!((pair.mg, pair.eg), (41, 41));
    }
}
