//! The cached evaluation equals the uncached one: on every position of the perft suites and on
//! random playouts from them, with the default, the compact and random parameter sets, with
//! tables small enough to force replacements, and with one cache passed between evaluators of
//! different parameters (it must never hand one set's score to another).

use crate::common;

use kestrel_chess::{Board, read_epd_file};
use kestrel_eval::{EvalCache, Evaluator};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every position of both perft suites (the CPW fixture stands in for the classic suite on a
/// clone without the shared data).
fn suite_positions() -> Vec<Board> {
    let mut out = Vec::new();
    for path in [
        kestrel_testdata::shared_or_fixture("perft/perftsuite.epd", "perft-cpw.epd"),
        kestrel_testdata::fixture("perft-cpw.epd"),
    ] {
        let (records, errors) = read_epd_file(&path).expect("perft suite is readable");
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        out.extend(records.into_iter().map(|(_, r)| r.board));
    }
    out
}

/// Positions of random playouts of up to `plies` plies from each suite position, with the
/// playout's start revisited after every move (so the tables see repeats, as in a search).
fn playout_positions(starts: &[Board], plies: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for start in starts {
        let mut board = start.clone();
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[rng.random_range(0..moves.len())]);
            out.push(board.clone());
            out.push(start.clone());
        }
    }
    out
}

/// `e`'s evaluation of `b` through `cache` is the plain one.
fn assert_cached_equals_plain(e: &Evaluator, b: &Board, cache: &mut EvalCache) {
    assert_eq!(e.evaluate_cached(b, cache), e.evaluate(b), "{}", b.to_fen());
}

fn positions() -> Vec<Board> {
    let suite = suite_positions();
    assert!(suite.len() >= 6, "{}", suite.len());
    let mut all = playout_positions(&suite, 40, 7);
    all.extend(suite);
    all
}

#[test]
fn cached_evaluation_equals_uncached_for_each_parameter_set() {
    let positions = positions();
    for e in common::evaluators(26) {
        for mut cache in [EvalCache::new(1 << 16, 1 << 12), EvalCache::new(16, 4)] {
            for b in &positions {
                assert_cached_equals_plain(&e, b, &mut cache);
            }
            let s = cache.stats();
            assert_eq!(s.eval_probes, positions.len() as u64);
            assert!(s.eval_hits > 0 && s.pawn_hits > 0, "{s:?}");
            assert!(s.pawn_probes == s.eval_probes - s.eval_hits, "{s:?}");
        }
    }
}

#[test]
fn one_cache_shared_by_several_parameter_sets_never_mixes_them() {
    let positions = positions();
    let evaluators = common::evaluators(26);
    let mut cache = EvalCache::for_hash_mb(1);
    // Each evaluator in turn on the same positions: every switch must empty the tables.
    for (i, b) in positions.iter().enumerate().step_by(3) {
        for e in &evaluators[i % 2..] {
            assert_cached_equals_plain(e, b, &mut cache);
        }
    }
    // A clone has the same weights and so may use the clone's entries.
    let e = evaluators[2].clone();
    let b = &positions[0];
    e.evaluate_cached(b, &mut cache);
    let before = cache.stats();
    assert_eq!(evaluators[2].evaluate_cached(b, &mut cache), e.evaluate(b));
    assert_eq!(cache.stats().eval_hits, before.eval_hits + 1);
}

#[test]
fn sizes_are_powers_of_two_derived_from_the_hash_size() {
    let c = EvalCache::for_hash_mb(16);
    assert!(c.eval_entries().is_power_of_two() && c.pawn_entries().is_power_of_two());
    assert_eq!((c.eval_entries(), c.pawn_entries()), (1 << 15, 1 << 11));
    assert!(c.bytes() <= (16 << 20) / 16, "{}", c.bytes());
    // A tuner's 1 MB searcher: small tables, a small part of its hash table.
    let small = EvalCache::for_hash_mb(0);
    assert_eq!((small.eval_entries(), small.pawn_entries()), (2048, 256));
    assert!(small.bytes() < (1 << 20) / 8, "{}", small.bytes());
    assert_eq!(EvalCache::new(1000, 3).pawn_entries(), 2);
}

/// The pawn table keeps each side's king-shelter sums for one king square: the same pawns
/// with the king elsewhere must work them out again, and coming back must not read the other
/// square's. (A stale shelter would make the cached score differ from the plain one.)
#[test]
fn the_kept_king_shelter_follows_the_king() {
    // Distinct positions (the black rook moves too), so none is answered by the evaluation
    // table, with one pawn structure.
    let boards: Vec<Board> = [
        "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "r5k1/5ppp/8/8/8/8/5PPP/RK6 w - - 0 1",
        "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "r5k1/5ppp/8/8/8/8/5PPP/R4K2 w - - 0 1",
        "1r4k1/5ppp/8/8/8/8/5PPP/RK6 w - - 0 1",
    ]
    .iter()
    .map(|fen| Board::from_fen(fen).expect("valid FEN"))
    .collect();
    let shelter = |e: &Evaluator, b: &Board| -> (i32, i32) {
        let rows = e.breakdown(b).terms;
        rows.iter()
            .filter(|t| t.name.starts_with("KING_NO_") || t.name.starts_with("KING_FRIENDLY"))
            .fold((0, 0), |acc, t| (acc.0 + t.white.0, acc.1 + t.white.1))
    };
    let defaults = &common::evaluators(26)[0];
    assert_ne!(
        shelter(defaults, &boards[0]),
        shelter(defaults, &boards[1]),
        "the test needs king squares whose shelters differ"
    );
    for e in common::evaluators(26) {
        let mut cache = EvalCache::new(1 << 10, 1 << 4);
        for b in &boards {
            assert_cached_equals_plain(&e, b, &mut cache);
        }
        // One pawn structure: every probe after the first hits the pawn table.
        let s = cache.stats();
        assert_eq!((s.pawn_probes, s.pawn_hits), (5, 4), "{s:?}");
    }
}
