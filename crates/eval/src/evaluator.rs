//! The evaluator used by search: parameters converted once into (mg, eg) weight pairs per
//! feature slot, so each evaluation is one feature pass with no allocation. Feature groups whose
//! weights are all zero are skipped, so a smaller evaluation (the compact set) is faster too.

use crate::accumulate::{PackedSums, Sums, Weight, WideSums, pack, packable};
use crate::cache::{EvalCache, PawnEntry};
use crate::features::{
    Context, PawnFacts, TermSet, extract, king_shelter, pawn_sets, pawn_terms, piece_terms,
};
use crate::psq::{PieceSquareTable, PieceSums};
use crate::table::{EVAL_TABLE, SLOT_COUNT, SLOTS};
use crate::taper::{eg_weight, phase, scale_trace_sum};
use kestrel_chess::{Board, Color, Move};
use kestrel_params::ParamValues;
use std::sync::atomic::{AtomicU64, Ordering};

/// Source of evaluator ids: every [`Evaluator::new`] takes the next one.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// An evaluation function with its parameters, ready for fast use by search.
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: ParamValues,
    weights: Box<[Weight; SLOT_COUNT]>,
    /// The weights packed for [`PackedSums`], when they are [`packable`].
    packed: Option<Box<[i64; SLOT_COUNT]>>,
    /// Terms with a nonzero weight: the extractor skips groups that contain none of them.
    active: TermSet,
    /// The pieces' material and piece-square weights per square, for [`PieceSums`].
    piece_squares: PieceSquareTable,
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
        let packed = packable(&weights).then(|| {
            let mut packed = Box::new([0i64; SLOT_COUNT]);
            for (p, w) in packed.iter_mut().zip(weights.iter()) {
                *p = pack(w.mg as i64, w.eg as i64);
            }
            packed
        });
        Evaluator {
            piece_squares: PieceSquareTable::new(&weights, active),
            params,
            packed,
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

    /// Score in centipawns from White's point of view.
    pub fn evaluate_white(&self, board: &Board) -> i32 {
        match &self.packed {
            Some(packed) => self.extract_into(board, self.packed_sums(packed, 0, 0)),
            None => self.extract_into(board, self.wide_sums(0, 0)),
        }
    }

    fn packed_sums<'a>(&self, packed: &'a [i64; SLOT_COUNT], mg: i64, eg: i64) -> PackedSums<'a> {
        PackedSums {
            weights: packed,
            active: self.active,
            sum: pack(mg, eg),
        }
    }

    fn wide_sums(&self, mg: i64, eg: i64) -> WideSums<'_> {
        WideSums {
            weights: &self.weights,
            active: self.active,
            mg,
            eg,
        }
    }

    #[inline(always)]
    fn extract_into<S: Sums>(&self, board: &Board, mut sums: S) -> i32 {
        extract(board, &mut sums);
        finish(board, &sums)
    }

    /// [`Evaluator::evaluate`] through `cache`: the same score, looked up when the position
    /// (or its pawn structure) was evaluated before with this evaluator's weights.
    #[inline]
    pub fn evaluate_cached(&self, board: &Board, cache: &mut EvalCache) -> i32 {
        self.evaluate_cached_by(board, cache, || self.piece_squares.sums(board))
    }

    /// [`Evaluator::evaluate_cached`] given `pieces`, the [`PieceSums`] of `board` for this
    /// evaluator (kept move by move with [`Evaluator::piece_sums_after`]).
    #[inline]
    pub fn evaluate_cached_with(
        &self,
        board: &Board,
        cache: &mut EvalCache,
        pieces: PieceSums,
    ) -> i32 {
        self.evaluate_cached_by(board, cache, || pieces)
    }

    /// The pieces' material and piece-square sums of `board`, from scratch.
    pub fn piece_sums(&self, board: &Board) -> PieceSums {
        self.piece_squares.sums(board)
    }

    /// The [`PieceSums`] after `mv` is made on `board`, whose sums are `before`.
    #[inline]
    pub fn piece_sums_after(&self, board: &Board, mv: Move, before: PieceSums) -> PieceSums {
        self.piece_squares.after(board, mv, before)
    }

    #[inline(always)]
    fn evaluate_cached_by(
        &self,
        board: &Board,
        cache: &mut EvalCache,
        pieces: impl FnOnce() -> PieceSums,
    ) -> i32 {
        cache.adopt(self.id);
        let key = board.hash();
        if let Some(score) = cache.probe_eval(key) {
            return score;
        }
        let pieces = pieces();
        let white = match &self.packed {
            Some(packed) => self.evaluate_with_pawns(board, cache, pieces, |mg, eg| {
                self.packed_sums(packed, mg, eg)
            }),
            None => self.evaluate_with_pawns(board, cache, pieces, |mg, eg| self.wide_sums(mg, eg)),
        };
        let score = white * board.side_to_move().sign();
        cache.store_eval(key, score);
        score
    }

    /// [`Evaluator::evaluate_white`] with the pawn-only terms and the pawns' classification
    /// taken from (or put into) `cache`'s pawn table and the pieces' material and
    /// piece-square terms from `pieces`; `sums` starts a sink at given sums.
    #[inline(always)]
    fn evaluate_with_pawns<S: Sums>(
        &self,
        board: &Board,
        cache: &mut EvalCache,
        pieces: PieceSums,
        sums: impl Fn(i64, i64) -> S,
    ) -> i32 {
        let pawns = pawn_sets(board);
        let entry = cache.pawn_entry(board.pawn_hash(), || {
            let facts = PawnFacts::new(pawns);
            let mut acc = sums(0, 0);
            pawn_terms(pawns, &facts, &mut acc);
            let (mg, eg) = acc.sums();
            PawnEntry {
                facts,
                mg,
                eg,
                ..PawnEntry::default()
            }
        });
        let (mut mg, mut eg) = (entry.mg + pieces.mg, entry.eg + pieces.eg);
        for us in Color::ALL {
            let king = board.king_square(us);
            let (s_mg, s_eg) = entry.shelter[us.index()].for_king(king, || {
                let mut acc = sums(0, 0);
                king_shelter(king, pawns, us, &mut acc);
                acc.sums()
            });
            mg += s_mg;
            eg += s_eg;
        }
        let mut acc = sums(mg, eg);
        piece_terms(
            board,
            Context::with_pawns(board, pawns, entry.facts),
            false,
            &mut acc,
        );
        finish(board, &acc)
    }

    /// Score in centipawns from the side to move's point of view (what search uses).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_white(board) * board.side_to_move().sign()
    }
}

/// The phase-weighted, rounded score of `sums` for `board`.
#[inline]
fn finish(board: &Board, sums: &impl Sums) -> i32 {
    let phase = phase(board);
    let eg = eg_weight(board, phase) as i64;
    let (mg_sum, eg_sum) = sums.sums();
    scale_trace_sum(mg_sum * phase as i64 + eg_sum * eg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::groups::GROUPS;
    use crate::table::Term;
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

    /// The same evaluator summing in two `i64`s (the path for weights that could overflow
    /// packed sums).
    fn wide_path(e: &Evaluator) -> Evaluator {
        Evaluator {
            packed: None,
            ..e.clone()
        }
    }

    #[test]
    fn packed_sums_equal_wide_sums_and_the_trace() {
        let positions = game_positions(3000);
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let mut evaluators = vec![Evaluator::default()];
        evaluators.extend((0..6).map(|_| Evaluator::new(random_values(&mut rng))));
        for fast in &evaluators {
            assert!(fast.packed.is_some(), "in-range weights are packable");
            let wide = wide_path(fast);
            let mut cache = EvalCache::new(1 << 12, 1 << 10);
            for b in &positions {
                let score = fast.evaluate_white(b);
                assert_eq!(score, wide.evaluate_white(b), "{}", b.to_fen());
                let stm = score * b.side_to_move().sign();
                assert_eq!(stm, fast.evaluate_cached(b, &mut cache), "{}", b.to_fen());
            }
            for b in positions.iter().step_by(10) {
                let values = &fast.params().values;
                assert_eq!(fast.evaluate_white(b), trace_score(values, &trace(b)));
            }
        }
    }

    /// Weights far outside the declared ranges (set directly, as a test or a tool may) would
    /// overflow packed sums: the evaluator then sums wide and still equals the trace.
    #[test]
    fn huge_weights_fall_back_to_wide_sums() {
        let mut values = ParamValues::defaults(&EVAL_TABLE);
        for v in values.values.iter_mut() {
            *v = if *v >= 0 { 3_000_000 } else { -3_000_000 };
        }
        let e = Evaluator::new(values.clone());
        assert!(e.packed.is_none());
        for b in game_positions(300) {
            assert_eq!(
                e.evaluate_white(&b),
                trace_score(&values.values, &trace(&b))
            );
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
