//! Feature traces: the evaluation as a sparse linear form in the flat parameter vector, so a
//! whole population can be scored with one matrix product.

use crate::features::extract;
use crate::sink::Sink;
use crate::table::{MAX_LEN, SLOT_COUNT, SLOTS, Term};
use crate::taper::{eg_weight, phase, scale_trace_sum};
use kestrel_chess::{Board, Color};

/// `(flat parameter index into EVAL_TABLE, integer coefficient)` pairs, white-relative, with
/// the phase weights folded in: a tapered entry's mg coefficient is `count * phase` and its eg
/// coefficient `count * eg_weight` (`PHASE_MAX - phase`, less in drawish endings); a non-tapered one gets the sum of both. Indices
/// are strictly increasing and no coefficient is zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The `(flat index, coefficient)` pairs, by increasing index.
    pub entries: Vec<(u32, i32)>,
}

/// The trace of `board`: `trace_score(v, &trace(b)) == Evaluator::new(v).evaluate_white(b)`.
pub fn trace(board: &Board) -> Trace {
    let mut counts = Counts {
        mg: [0; SLOT_COUNT],
        eg: [0; SLOT_COUNT],
        touched: [0; TOUCHED_WORDS],
    };
    extract(board, &mut counts);
    let mg_weight = phase(board);
    let eg_weight = eg_weight(board, mg_weight);
    let mut entries = Vec::with_capacity(128);
    // Flat order is term by term, a tapered term's mg entries before its eg entries: eg
    // entries wait in `pending` until the term changes, so no sort is needed.
    let mut pending = [(0u32, 0i32); MAX_LEN];
    let mut pending_len = 0;
    let mut current_term = u16::MAX;
    for s in counts.touched_slots() {
        let info = &SLOTS[s];
        if info.term != current_term {
            entries.extend_from_slice(&pending[..pending_len]);
            pending_len = 0;
            current_term = info.term;
        }
        let (mg, eg) = (counts.mg[s] * mg_weight, counts.eg[s] * eg_weight);
        if info.tapered {
            if mg != 0 {
                entries.push((info.flat_mg, mg));
            }
            if eg != 0 {
                pending[pending_len] = (info.flat_eg, eg);
                pending_len += 1;
            }
        } else if mg + eg != 0 {
            entries.push((info.flat_mg, mg + eg));
        }
    }
    entries.extend_from_slice(&pending[..pending_len]);
    Trace { entries }
}

/// The exact evaluation (white-relative centipawns) of a traced position under `values`.
pub fn trace_score(values: &[i32], trace: &Trace) -> i32 {
    let s: i64 = trace
        .entries
        .iter()
        .map(|&(i, c)| values[i as usize] as i64 * c as i64)
        .sum();
    scale_trace_sum(s)
}

const TOUCHED_WORDS: usize = SLOT_COUNT.div_ceil(64);

/// White-relative feature counts per slot and phase, plus which slots were touched (a
/// position uses about a tenth of the slots, so only those are scanned).
struct Counts {
    mg: [i32; SLOT_COUNT],
    eg: [i32; SLOT_COUNT],
    touched: [u64; TOUCHED_WORDS],
}

impl Counts {
    #[inline]
    fn touch(&mut self, term: Term, i: usize) -> usize {
        let s = term.slot(i);
        self.touched[s / 64] |= 1 << (s % 64);
        s
    }

    /// Touched slots in increasing order.
    fn touched_slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.touched.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

impl Sink for Counts {
    #[inline]
    fn add(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let s = self.touch(term, i);
        self.mg[s] += count * color.sign();
        self.eg[s] += count * color.sign();
    }

    #[inline]
    fn add_mg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let s = self.touch(term, i);
        self.mg[s] += count * color.sign();
    }

    #[inline]
    fn add_eg(&mut self, color: Color, term: Term, i: usize, count: i32) {
        let s = self.touch(term, i);
        self.eg[s] += count * color.sign();
    }
}
