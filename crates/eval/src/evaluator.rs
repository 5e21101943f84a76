//! The evaluator used by search: parameters converted once into (mg, eg) weight pairs per
//! feature slot, so each evaluation is one feature pass with no allocation. Feature groups whose
//! weights are all zero are skipped, so a smaller evaluation (the compact set) is faster too.

use crate::cache::{EvalCache, PawnEntry};
use crate::features::{Context, PawnFacts, TermSet, extract, pawn_sets, pawn_terms, piece_terms};
use crate::sink::Sink;
use crate::table::{EVAL_TABLE, SLOT_COUNT, SLOTS, Term};
use crate::taper::{eg_weight, phase, scale_trace_sum};
use kestrel_chess::{Board, Color};
use kestrel_params::ParamValues;
use std::sync::atomic::{AtomicU64, Ordering};

/// Source of evaluator ids: every [`Evaluator::new`] takes the next one.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

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
    /// Terms with a nonzero weight: the extractor skips groups that contain none of them.
    active: TermSet,
    /// Unique per [`Evaluator::new`] (clones share it, as they share the weights): what an
    /// [`EvalCache`] checks so that it never returns another parameter set's result.
    id: u64,
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
        let mut active = TermSet(0);
        for (w, info) in weights.iter_mut().zip(SLOTS.iter()) {
            *w = Weight {
                mg: v[info.flat_mg as usize],
                eg: v[info.flat_eg as usize],
            };
            if w.mg != 0 || w.eg != 0 {
                active = active.union(TermSet(1 << info.term));
            }
        }
        Evaluator {
            params,
            weights,
            active,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The parameter values.
    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    pub(crate) fn weights(&self) -> &[Weight; SLOT_COUNT] {
        &self.weights
    }

    fn accumulator(&self, mg: i64, eg: i64) -> Accumulator<'_> {
        Accumulator {
            weights: &self.weights,
            active: self.active,
            mg,
            eg,
        }
    }

    /// Score in centipawns from White's point of view.
    pub fn evaluate_white(&self, board: &Board) -> i32 {
        let mut acc = self.accumulator(0, 0);
        extract(board, &mut acc);
        finish(board, &acc)
    }

    /// [`Evaluator::evaluate`] through `cache`: the same score, looked up when the position
    /// (or its pawn structure) was evaluated before with this evaluator's weights.
    #[inline]
    pub fn evaluate_cached(&self, board: &Board, cache: &mut EvalCache) -> i32 {
        cache.adopt(self.id);
        let key = board.hash();
        if let Some(score) = cache.probe_eval(key) {
            return score;
        }
        let score = self.evaluate_white_with_pawns(board, cache) * board.side_to_move().sign();
        cache.store_eval(key, score);
        score
    }

    /// [`Evaluator::evaluate_white`] with the pawn-only terms and the pawns' classification
    /// taken from (or put into) `cache`'s pawn table.
    fn evaluate_white_with_pawns(&self, board: &Board, cache: &mut EvalCache) -> i32 {
        let pawns = pawn_sets(board);
        let entry = cache.pawn_entry(board.pawn_hash(), || {
            let facts = PawnFacts::new(pawns);
            let mut acc = self.accumulator(0, 0);
            pawn_terms(pawns, &facts, &mut acc);
            PawnEntry {
                facts,
                mg: acc.mg,
                eg: acc.eg,
                ..PawnEntry::default()
            }
        });
        let mut acc = self.accumulator(entry.mg, entry.eg);
        piece_terms(
            board,
            Context::with_pawns(board, pawns, entry.facts),
            &mut acc,
        );
        finish(board, &acc)
    }

    /// Score in centipawns from the side to move's point of view (what search uses).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_white(board) * board.side_to_move().sign()
    }
}

/// The phase-weighted, rounded score of `acc`'s sums for `board`.
#[inline]
fn finish(board: &Board, acc: &Accumulator) -> i32 {
    let phase = phase(board);
    let eg = eg_weight(board, phase) as i64;
    scale_trace_sum(acc.mg * phase as i64 + acc.eg * eg)
}

/// Sums white-relative middle- and end-game scores, in i64 like [`crate::trace_score`], so the
/// two agree even for values far outside the declared ranges.
struct Accumulator<'a> {
    weights: &'a [Weight; SLOT_COUNT],
    active: TermSet,
    mg: i64,
    eg: i64,
}

impl Sink for Accumulator<'_> {
    /// Zero weights add nothing, so skipping a group with no active term keeps the score exact.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::groups::GROUPS;
    use crate::{compact_values, trace, trace_score};
    use kestrel_chess::PgnReader;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::io::BufReader;

    /// Every third position of the first GM games, `limit` in all.
    fn game_positions(limit: usize) -> Vec<Board> {
        let games =
            kestrel_testdata::shared_or_fixture("games/gm2600-train.pgn", "gm-games-40.pgn");
        let file = std::fs::File::open(games).expect("GM games file is readable");
        let mut out = Vec::with_capacity(limit);
        for game in PgnReader::new(BufReader::new(file)) {
            let game = game.expect("the GM file parses");
            let mut board = game.start.clone();
            for (ply, mv) in game.moves.into_iter().enumerate() {
                board.make_move(mv);
                if ply % 3 == 0 {
                    out.push(board.clone());
                    if out.len() == limit {
                        return out;
                    }
                }
            }
        }
        out
    }

    fn random_values(rng: &mut ChaCha8Rng) -> ParamValues {
        ParamValues::random(&EVAL_TABLE, rng)
    }

    /// The same evaluator with no group skipped: the full feature path.
    fn full_path(e: &Evaluator) -> Evaluator {
        Evaluator {
            active: TermSet::ALL,
            ..e.clone()
        }
    }

    #[test]
    fn compact_evaluator_skips_the_groups_it_does_not_use() {
        use crate::features::groups::{ACTIVITY, KING_DANGER, MATERIAL, PST, ROOK_PLACEMENT};
        let compact = Evaluator::new(compact_values(&ParamValues::defaults(&EVAL_TABLE)));
        for skipped in [PST, ACTIVITY, KING_DANGER] {
            assert!(!compact.active.meets(skipped));
        }
        assert!(compact.active.meets(MATERIAL) && compact.active.meets(ROOK_PLACEMENT));
        let full = Evaluator::default();
        assert!(GROUPS.iter().all(|&g| full.active.meets(g)));
    }

    #[test]
    fn compact_evaluator_equals_the_full_path_for_random_compact_vectors() {
        let positions = game_positions(4000);
        assert!(positions.len() >= 1000, "{}", positions.len());
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..8 {
            let values = compact_values(&random_values(&mut rng));
            let fast = Evaluator::new(values.clone());
            let slow = full_path(&fast);
            for b in &positions {
                assert_eq!(
                    fast.evaluate_white(b),
                    slow.evaluate_white(b),
                    "{}",
                    b.to_fen()
                );
            }
            for b in positions.iter().step_by(8) {
                assert_eq!(
                    fast.evaluate_white(b),
                    trace_score(&values.values, &trace(b))
                );
            }
        }
    }

    /// Zeroing one group at a time (the rest random) exercises every skip, so a skipped block
    /// that also fed another group's term would show up here.
    #[test]
    fn skipping_any_single_group_keeps_the_score_exact() {
        let positions = game_positions(1500);
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for (g, group) in GROUPS.iter().enumerate() {
            for keep_only in [false, true] {
                let mut values = random_values(&mut rng);
                for info in &SLOTS {
                    let inside = group.meets(TermSet(1 << info.term));
                    if inside != keep_only {
                        values.values[info.flat_mg as usize] = 0;
                        values.values[info.flat_eg as usize] = 0;
                    }
                }
                let fast = Evaluator::new(values);
                let slow = full_path(&fast);
                for b in &positions {
                    assert_eq!(
                        fast.evaluate_white(b),
                        slow.evaluate_white(b),
                        "group {g}, only it kept: {keep_only}, {}",
                        b.to_fen()
                    );
                }
            }
        }
    }

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
