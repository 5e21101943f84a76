//! Fitting the win/draw/loss model of `UCI_ShowWDL` ([`kestrel_search::wdl`]) to games: every
//! scored move gives (score, material, outcome for the mover), and the constants are those
//! that maximise the likelihood of the outcomes (a multinomial logistic fit).

use crate::game::{GameRecord, GameResult};
use crate::wdl_constants::WdlConstants;
use kestrel_search::Score;
use kestrel_search::wdl::{WDL_MATERIAL_RANGE, wdl_material, win_loss_at};
use rayon::prelude::*;

/// Scores beyond this many centipawns (either sign) are left out of a fit: the game is decided
/// there, and the model's tails say nothing new.
pub const WDL_MAX_CP: i32 = 2000;

/// Samples per chunk of the loss's parallel sum (fixed, so the sum is the same on any number
/// of threads).
const LOSS_CHUNK: usize = 1 << 14;

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

/// Mean negative log-likelihood of `samples` under `constants` (summed in fixed chunks on
/// every core: the same result on any thread count).
pub fn loss(samples: &[WdlSample], constants: &WdlConstants) -> f64 {
    let table = constants.table();
    let chunk_sums: Vec<f64> = samples
        .par_chunks(LOSS_CHUNK)
        .map(|chunk| chunk.iter().map(|s| sample_loss(s, &table)).sum())
        .collect();
    chunk_sums.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// The negative log-likelihood of one sample's outcome, with `(a, b)` per material from
/// [`WdlConstants::table`].
fn sample_loss(s: &WdlSample, table: &[(f64, f64)]) -> f64 {
    let (lo, hi) = WDL_MATERIAL_RANGE;
    let (a, b) = table[(s.material.clamp(lo, hi) - lo) as usize];
    let (w, l) = win_loss_at(s.cp, a, b);
    let prob = match s.outcome {
        1 => w,
        -1 => l,
        _ => 1.0 - w - l,
    };
    -prob.max(1e-9).ln()
}

/// The largest `a` or `b` (centipawns) a fit may give at a node: far beyond any real one, a
/// bound that makes every fit end.
const MAX_NODE_VALUE: f64 = 5000.0;

/// The constants of `degree` with least [`loss`], from `start` (of any degree: its curves are
/// sampled at the nodes of `degree`), by coordinate-wise pattern search with shrinking steps
/// on the curves' values at the nodes ([`crate::wdl_constants::nodes`]), each within
/// ±5000 cp. Deterministic.
pub fn fit(samples: &[WdlSample], start: &WdlConstants, degree: usize) -> WdlConstants {
    let (a, b) = start.node_values(degree);
    let mut best: Vec<f64> = a.into_iter().chain(b).collect();
    let n = degree + 1;
    let constants = |v: &[f64]| WdlConstants::from_node_values(&v[..n], &v[n..]);
    let mut best_loss = loss(samples, &constants(&best));
    let mut step = 64.0;
    while step > 0.05 {
        let mut improved = false;
        for i in 0..best.len() {
            for sign in [1.0, -1.0] {
                let mut trial = best.clone();
                trial[i] += sign * step;
                if trial[i].abs() > MAX_NODE_VALUE {
                    continue; // data that tell nothing would flatten the curves forever
                }
                let trial_constants = constants(&trial);
                if !trial_constants.spread_is_positive() {
                    continue;
                }
                let l = loss(samples, &trial_constants);
                if l < best_loss {
                    (best, best_loss, improved) = (trial, l, true);
                }
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    constants(&best)
}

/// A sample at (`cp`, `material`) whose outcome is drawn from the model with constants
/// `a`, `b`: the synthetic data of the fitting tests.
#[cfg(test)]
pub(crate) fn sample_from(
    rng: &mut impl rand::Rng,
    cp: f64,
    material: u32,
    a: &[f64],
    b: &[f64],
) -> WdlSample {
    let (w, l) = kestrel_search::wdl::win_loss(cp, material, a, b);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn recovers_the_constants_that_generated_the_outcomes() {
        let truth = WdlConstants {
            a: vec![180.0, 60.0],
            b: vec![90.0, 40.0],
        };
        let samples = drawn_from(&truth, 40_000, 5);
        let start = WdlConstants {
            a: vec![250.0, 0.0],
            b: vec![60.0, 0.0],
        };
        let found = fit(&samples, &start, 1);
        for (f, t) in found
            .a
            .iter()
            .chain(&found.b)
            .zip(truth.a.iter().chain(&truth.b))
        {
            assert!((f - t).abs() < 25.0, "found {found:?}, truth {truth:?}");
        }
        assert!(loss(&samples, &found) <= loss(&samples, &truth) + 1e-9);
    }

    #[test]
    fn a_cubic_fit_follows_a_curve_that_a_line_cannot() {
        let truth = WdlConstants {
            a: vec![-200.0, 1500.0, -1500.0, 400.0],
            b: vec![60.0, 60.0, 0.0, 0.0],
        };
        let samples = drawn_from(&truth, 40_000, 6);
        let held_out = drawn_from(&truth, 20_000, 7);
        let line = fit(&samples, &WdlConstants::shipped(), 1);
        let cubic = fit(&samples, &WdlConstants::shipped(), 3);
        assert_eq!((line.degree(), cubic.degree()), (1, 3));
        let (line_loss, cubic_loss) = (loss(&held_out, &line), loss(&held_out, &cubic));
        assert!(cubic_loss + 0.01 < line_loss, "{cubic_loss} vs {line_loss}");
        assert!(cubic_loss < loss(&held_out, &truth) + 0.002);
        for (&(a1, _), &(a2, _)) in cubic.table().iter().zip(&truth.table()) {
            assert!((a1 - a2).abs() < 40.0, "{cubic:?}");
        }
    }

    fn drawn_from(truth: &WdlConstants, n: usize, seed: u64) -> Vec<WdlSample> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let cp = rng.random_range(-600.0..600.0);
                let material = rng.random_range(10..78);
                sample_from(&mut rng, cp, material, &truth.a, &truth.b)
            })
            .collect()
    }
}
