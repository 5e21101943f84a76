//! Blending Kestrel's own scores with a mentor's: the mix in win-probability space, the walk
//! that pairs a mentor's rescoring with the positions it kept, and the refusal of files that are
//! not such a pair.

use kestrel_chess::Board;
use kestrel_nnue_train::blend::{BlendCounts, blend, blend_cp};
use kestrel_nnue_train::format::{NO_SCORE, Outcome, PackedPosition};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The successive positions of one seeded random game, each with a score of its own.
fn game_records(count: usize, seed: u64) -> Vec<PackedPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::startpos();
    let mut out = Vec::new();
    while out.len() < count {
        out.push(PackedPosition::pack(
            &board,
            rng.random_range(-900..900),
            Outcome::Draw,
        ));
        let moves = board.legal_moves();
        assert!(
            !moves.is_empty(),
            "the test game ended early; pick another seed"
        );
        board.make_move(moves.as_slice()[rng.random_range(0..moves.len())]);
    }
    out
}

#[test]
fn the_mix_is_taken_in_win_probability_space() {
    for (own, mentor) in [(0, 0), (250, -40), (-700, 900), (3000, -2500)] {
        assert_eq!(blend_cp(own, mentor, 0.0, 400.0), own);
        assert_eq!(blend_cp(own, mentor, 1.0, 400.0), mentor);
        assert_eq!(
            blend_cp(own, mentor, 0.5, 400.0),
            blend_cp(mentor, own, 0.5, 400.0)
        );
    }
    // Symmetric scores meet at 0; a half share lies between the two, nearer the smaller one
    // in centipawns (σ flattens the large one).
    assert_eq!(blend_cp(300, -300, 0.5, 400.0), 0);
    let mid = blend_cp(100, 1000, 0.5, 400.0);
    assert!(100 < mid && mid < 550, "{mid}");
}

#[test]
fn a_mentor_rescoring_is_paired_with_the_positions_it_kept() {
    let own = game_records(40, 3);
    // The mentor dropped every fifth position (as `nnue label` drops noisy ones) and rescored
    // the rest; one of its positions has no own score.
    let mut own_with_gap = own.clone();
    own_with_gap[7] = own_with_gap[7].with_score(NO_SCORE);
    let mentor: Vec<PackedPosition> = own
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 != 0)
        .map(|(i, r)| r.with_score(i as i16 * 10 - 200))
        .collect();
    let (blended, counts) = blend(&own_with_gap, &mentor, 0.25, 400.0).unwrap();
    assert_eq!(
        counts,
        BlendCounts {
            blended: 31,
            not_in_mentor: 8,
            unscored: 1
        }
    );
    let kept: Vec<usize> = (0..40).filter(|i| i % 5 != 0 && *i != 7).collect();
    assert_eq!(blended.len(), kept.len());
    for (record, &i) in blended.iter().zip(&kept) {
        assert_eq!(record.with_score(NO_SCORE), own[i].with_score(NO_SCORE));
        let expected = blend_cp(own[i].score().unwrap(), i as i16 * 10 - 200, 0.25, 400.0);
        assert_eq!(record.score(), Some(expected), "position {i}");
    }
}

#[test]
fn files_that_are_not_a_rescoring_of_each_other_are_refused() {
    let own = game_records(20, 5);
    let mut shuffled = own.clone();
    shuffled.swap(2, 9);
    let e = blend(&own, &shuffled, 0.5, 400.0).unwrap_err();
    assert!(
        e.contains("mentor record 3") && e.contains("from record 10"),
        "{e}"
    );
    let other_game = game_records(20, 6);
    let e = blend(&own, &other_game[1..], 0.5, 400.0).unwrap_err();
    assert!(e.contains("mentor record 0"), "{e}");
}
