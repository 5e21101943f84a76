//! Term-by-term view of one evaluation (for `kestrel eval`), each side from its own viewpoint.

use crate::accumulate::Weight;
use crate::evaluator::Evaluator;
use crate::features::extract;
use crate::sink::Sink;
use crate::table::{SLOT_COUNT, TERMS, Term};
use crate::taper::{eg_weight, phase, scale_trace_sum};
use kestrel_chess::{Board, Color};

/// One term's middle- and end-game points for each side (positive = good for that side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermScore {
    /// The term's name as declared in the eval table (e.g. in params files).
    pub name: &'static str,
    /// White's `(middle-game, end-game)` points in centipawns, before tapering.
    pub white: (i32, i32),
    /// Black's `(middle-game, end-game)` points in centipawns, from Black's viewpoint.
    pub black: (i32, i32),
}

impl TermScore {
    /// White minus Black, tapered by the phase weights and rounded (rounded per term, so the
    /// rows need not add up exactly to the final score).
    pub fn total(&self, mg_weight: i32, eg_weight: i32) -> i32 {
        let mg = (self.white.0 - self.black.0) as i64;
        let eg = (self.white.1 - self.black.1) as i64;
        scale_trace_sum(mg * mg_weight as i64 + eg * eg_weight as i64)
    }
}

/// Every term's contribution, the phase and the final white-relative score.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// One row per eval term, in table order.
    pub terms: Vec<TermScore>,
    /// Middle-game weight in `0..=PHASE_MAX` (24 = all pieces on, 0 = pawn ending).
    pub phase: i32,
    /// End-game weight: `PHASE_MAX - phase`, less in drawish endings ([`crate::eg_scale`]).
    pub eg_weight: i32,
    /// The full evaluation in centipawns from White's viewpoint (`evaluate_white`).
    pub score_white: i32,
}

impl Evaluator {
    /// Splits the evaluation of `board` by term.
    pub fn breakdown(&self, board: &Board) -> Breakdown {
        let mut split = Split {
            weights: self.weights(),
            points: vec![[[0; 2]; 2]; TERMS.len()],
        };
        extract(board, &mut split);
        let terms = TERMS
            .iter()
            .zip(&split.points)
            .map(|(t, p)| TermScore {
                name: t.decl().name,
                white: (p[0][0], p[0][1]),
                black: (p[1][0], p[1][1]),
            })
            .collect();
        Breakdown {
            terms,
            phase: phase(board),
            eg_weight: eg_weight(board, phase(board)),
            score_white: self.evaluate_white(board),
        }
    }
}

/// Points per term, per colour, per phase.
struct Split<'a> {
    weights: &'a [Weight; SLOT_COUNT],
    points: Vec<[[i32; 2]; 2]>,
}

impl Sink for Split<'_> {
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.add_mg(color, term, i, count);
        self.add_eg(color, term, i, count);
    }

    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.points[term as usize][color.index()][0] += self.weights[term.slot(i)].mg * count;
    }

    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        self.points[term as usize][color.index()][1] += self.weights[term.slot(i)].eg * count;
    }
}
