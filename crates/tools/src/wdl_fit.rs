//! Fitting the win/draw/loss model of `UCI_ShowWDL` ([`kestrel_search::wdl`]) to games: every
//! scored move gives (score, material, outcome for the mover), and the four constants are
//! those that maximise the likelihood of the outcomes (a multinomial logistic fit).

use crate::game::{GameRecord, GameResult};
use kestrel_search::Score;
use kestrel_search::wdl::{wdl_material, win_loss};

/// One scored position of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlSample {
    /// The mover's search score, centipawns.
    pub cp: f64,
    /// Material on the board before the move (as the model counts it).
    pub material: u32,
    /// 1 win, 0 draw, -1 loss, for the mover.
    pub outcome: i8,
}

/// The samples of finished games: every move with a centipawn score (mates and scores beyond
/// `max_cp` are left out, as are the first `skip_plies` plies of each game).
pub fn samples_from_games(games: &[GameRecord], skip_plies: usize, max_cp: i32) -> Vec<WdlSample> {
    let mut samples = Vec::new();
    for game in games {
        let mut board = game.opening.position();
        for (ply, (&mv, info)) in game.moves.iter().zip(&game.infos).enumerate() {
            let mover = board.side_to_move();
            if let (true, Some(Score::Cp(cp))) = (ply >= skip_plies, info.score)
                && cp.abs() <= max_cp
            {
                let outcome = match game.result {
                    GameResult::Draw => 0,
                    r if r == GameResult::win_for(mover) => 1,
                    _ => -1,
                };
                samples.push(WdlSample {
                    cp: f64::from(cp),
                    material: wdl_material(&board),
                    outcome,
                });
            }
            board.make_move(mv);
        }
    }
    samples
}

/// Mean negative log-likelihood of `samples` under constants `p = [a0, a1, b0, b1]`.
pub fn loss(samples: &[WdlSample], p: [f64; 4]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (w, l) = win_loss(s.cp, s.material, [p[0], p[1]], [p[2], p[3]]);
            let prob = match s.outcome {
                1 => w,
                -1 => l,
                _ => 1.0 - w - l,
            };
            -prob.max(1e-9).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The constants `[a0, a1, b0, b1]` of least [`loss`], from `start`, by coordinate-wise
/// pattern search with shrinking steps (deterministic; four parameters need nothing more).
pub fn fit(samples: &[WdlSample], start: [f64; 4]) -> [f64; 4] {
    let mut best = start;
    let mut best_loss = loss(samples, best);
    let mut step = 64.0;
    while step > 0.05 {
        let mut improved = false;
        for i in 0..4 {
            for sign in [1.0, -1.0] {
                let mut trial = best;
                trial[i] += sign * step;
                if trial[2] + trial[3].min(0.0) <= 1.0 {
                    continue; // the spread must stay positive at every material
                }
                let l = loss(samples, trial);
                if l < best_loss {
                    (best, best_loss, improved) = (trial, l, true);
                }
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn recovers_the_constants_that_generated_the_outcomes() {
        let truth = [180.0, 60.0, 90.0, 40.0];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let samples: Vec<WdlSample> = (0..40_000)
            .map(|_| {
                let cp = rng.random_range(-600.0..600.0);
                let material = rng.random_range(10..78);
                let (w, l) = win_loss(cp, material, [truth[0], truth[1]], [truth[2], truth[3]]);
                let u: f64 = rng.random();
                let outcome = if u < w {
                    1
                } else if u < w + l {
                    -1
                } else {
                    0
                };
                WdlSample {
                    cp,
                    material,
                    outcome,
                }
            })
            .collect();
        let found = fit(&samples, [250.0, 0.0, 60.0, 0.0]);
        for (f, t) in found.iter().zip(truth) {
            assert!((f - t).abs() < 25.0, "found {found:?}, truth {truth:?}");
        }
        assert!(loss(&samples, found) <= loss(&samples, truth) + 1e-9);
    }
}
