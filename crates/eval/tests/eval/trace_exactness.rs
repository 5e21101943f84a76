//! The trace contract: `trace_score(v, trace(b)) == Evaluator::new(v).evaluate_white(b)` for
//! every parameter vector, and the evaluation is colour-symmetric.

use crate::common;

use common::{random_values, test_positions};
use kestrel_chess::Board;
use kestrel_eval::{
    EVAL_TABLE, Evaluator, PHASE_MAX, compact_values, phase, scale_trace_sum, trace, trace_score,
};
use kestrel_params::ParamValues;

#[test]
fn trace_reproduces_the_default_evaluation_on_game_positions() {
    let positions = test_positions();
    // Over 3000 with the shared data; the fixture games and Bratko-Kopec alone give over 400.
    let floor = kestrel_testdata::by_data("games/gm2600-train.pgn", 3000, 400);
    assert!(positions.len() > floor, "{}", positions.len());
    let eval = Evaluator::default();
    let defaults = EVAL_TABLE.defaults();
    for b in &positions {
        assert_eq!(
            trace_score(&defaults, &trace(b)),
            eval.evaluate_white(b),
            "{}",
            b.to_fen()
        );
    }
}

#[test]
fn trace_reproduces_random_and_compact_parameter_vectors() {
    let positions = test_positions();
    let traces: Vec<_> = positions.iter().map(trace).collect();
    let mut vectors: Vec<ParamValues> = (0..12).map(random_values).collect();
    vectors.push(compact_values(&ParamValues::defaults(&EVAL_TABLE)));
    vectors.push(compact_values(&random_values(99)));
    for values in vectors {
        let eval = Evaluator::new(values.clone());
        for (b, t) in positions.iter().zip(&traces) {
            assert_eq!(
                trace_score(&values.values, t),
                eval.evaluate_white(b),
                "{}",
                b.to_fen()
            );
        }
    }
}

#[test]
fn trace_is_exact_even_for_values_outside_the_declared_ranges() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let values: Vec<i32> = (0..EVAL_TABLE.len())
        .map(|_| rng.random_range(-(1 << 24)..(1 << 24)))
        .collect();
    let eval = Evaluator::new(ParamValues {
        table: &EVAL_TABLE,
        values: values.clone(),
    });
    for b in test_positions().iter().step_by(5) {
        assert_eq!(trace_score(&values, &trace(b)), eval.evaluate_white(b));
    }
}

#[test]
fn trace_entries_are_sorted_nonzero_and_phase_weighted() {
    for b in test_positions().iter().step_by(17) {
        let t = trace(b);
        assert!(t.entries.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(
            t.entries
                .iter()
                .all(|&(i, c)| c != 0 && (i as usize) < EVAL_TABLE.len())
        );
        // Material is non-tapered: its coefficient is (white - black count) * PHASE_MAX.
        let pawn = t.entries.iter().find(|e| e.0 == 0).map_or(0, |e| e.1);
        let diff = b
            .pieces(kestrel_chess::Color::White, kestrel_chess::PieceKind::Pawn)
            .count() as i32
            - b.pieces(kestrel_chess::Color::Black, kestrel_chess::PieceKind::Pawn)
                .count() as i32;
        assert_eq!(pawn, diff * PHASE_MAX);
        assert!((0..=PHASE_MAX).contains(&phase(b)));
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    let vectors = [ParamValues::defaults(&EVAL_TABLE), random_values(7)];
    for values in vectors {
        let eval = Evaluator::new(values);
        for b in &test_positions() {
            let m = b.mirrored();
            assert_eq!(
                eval.evaluate_white(&m),
                -eval.evaluate_white(b),
                "{}",
                b.to_fen()
            );
            assert_eq!(eval.evaluate(&m), eval.evaluate(b), "{}", b.to_fen());
        }
    }
}

#[test]
fn side_to_move_score_is_white_score_signed() {
    let eval = Evaluator::default();
    let b = Board::from_fen("4k3/8/8/8/8/8/3QK3/8 b - - 0 1").unwrap();
    assert!(eval.evaluate_white(&b) > 800);
    assert_eq!(eval.evaluate(&b), -eval.evaluate_white(&b));
}

#[test]
fn scale_trace_sum_matches_a_manual_product() {
    // The GA multiplies traces by a population matrix itself; its sums go through the same
    // rounding and must agree with the evaluator.
    let b = test_positions().swap_remove(234);
    let values = random_values(3);
    let t = trace(&b);
    let s: i64 = t
        .entries
        .iter()
        .map(|&(i, c)| values.values[i as usize] as i64 * c as i64)
        .sum();
    assert_eq!(
        scale_trace_sum(s),
        Evaluator::new(values).evaluate_white(&b)
    );
}
