//! The pieces' material and piece-square sums carried move by move equal the sums from
//! scratch, and an evaluation given the carried sums equals the plain one: on random playouts
//! from the perft positions (castling, en passant and every promotion among their moves), with
//! the default, the compact and random parameter sets.

use crate::common;

use kestrel_chess::{Board, PieceKind, read_epd_file};
use kestrel_eval::{EVAL_TABLE, EvalCache, Evaluator};
use kestrel_params::ParamValues;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn starts() -> Vec<Board> {
    let path = kestrel_testdata::fixture("perft-cpw.epd");
    let (records, errors) = read_epd_file(&path).expect("perft fixture is readable");
    assert!(errors.is_empty(), "{errors:?}");
    records.into_iter().map(|(_, r)| r.board).collect()
}

/// Special moves seen: castles, en passant captures, promotions to each of N, B, R, Q.
#[derive(Default, Debug)]
struct Seen {
    castles: usize,
    en_passant: usize,
    promotions: [usize; 4],
}

#[test]
fn carried_sums_equal_sums_from_scratch_and_keep_the_score() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut seen = Seen::default();
    for e in common::evaluators(27) {
        let mut cache = EvalCache::new(1 << 12, 1 << 8);
        for start in starts() {
            for _ in 0..30 {
                let mut board = start.clone();
                let mut sums = e.piece_sums(&board);
                for _ in 0..60 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    seen.castles += usize::from(mv.is_castle());
                    seen.en_passant += usize::from(mv.is_en_passant());
                    if let Some(kind) = mv.promotion_kind() {
                        seen.promotions[kind.index() - PieceKind::Knight.index()] += 1;
                    }
                    sums = e.piece_sums_after(&board, mv, sums);
                    board.make_move(mv);
                    assert_eq!(
                        sums,
                        e.piece_sums(&board),
                        "{} after {mv:?}",
                        board.to_fen()
                    );
                    assert_eq!(
                        e.evaluate_cached_with(&board, &mut cache, sums),
                        e.evaluate(&board),
                        "{}",
                        board.to_fen()
                    );
                }
            }
        }
    }
    assert!(seen.castles > 50 && seen.en_passant > 10, "{seen:?}");
    assert!(seen.promotions.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn sums_follow_the_weights() {
    // Ten more for a knight: White a knight up scores exactly ten more through the sums;
    // the start position, a knight each, not at all.
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    let mut more = defaults.clone();
    let (knight, _) = EVAL_TABLE
        .find_element("KNIGHT_VALUE")
        .expect("KNIGHT_VALUE is a parameter");
    more.values[knight] += 10;
    let (a, b) = (Evaluator::new(defaults), Evaluator::new(more));
    let mut cache = EvalCache::new(1 << 10, 1 << 6);
    let mut score = |e: &Evaluator, board: &Board| {
        e.evaluate_cached_with(board, &mut cache, e.piece_sums(board))
    };
    let up = Board::from_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .expect("valid FEN");
    assert_ne!(a.piece_sums(&up), b.piece_sums(&up));
    assert_eq!(score(&b, &up) - score(&a, &up), 10);
    let start = Board::default();
    assert_eq!(a.piece_sums(&start), b.piece_sums(&start));
    assert_eq!(score(&b, &start), score(&a, &start));
}
