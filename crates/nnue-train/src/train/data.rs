//! The training positions: read from data files, those without a needed score dropped, split
//! into a training and a held-out validation set by a seeded shuffle (of positions, or of
//! runs of consecutive positions so that a game's positions stay on one side), and their
//! targets.

use crate::format::PackedPosition;
use crate::progress::{RunError, read_records};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// Consecutive records held out together by [`Holdout::Runs`]: about 60 self-play games, so
/// only the games cut at a run's two ends have positions on both sides.
pub const HOLDOUT_RUN: usize = 4096;

/// How the validation positions are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Holdout {
    /// Single positions: the held-out set shares games with the training set, so its loss
    /// also rewards remembering those games (the only split before `Runs`).
    #[default]
    Positions,
    /// Runs of [`HOLDOUT_RUN`] consecutive records: a data file keeps each game's positions
    /// together, so the held-out games are (but for the runs' ends) games never trained on.
    Runs,
}

/// The positions of a training run.
pub struct TrainData {
    /// Training positions (in file order).
    pub train: Vec<PackedPosition>,
    /// Held-out positions (in file order).
    pub validation: Vec<PackedPosition>,
    /// Positions dropped for lacking a score while λ > 0.
    pub unscored: usize,
    /// FNV-1a of every record read, for the checkpoint's fingerprint.
    pub fingerprint: u64,
}

/// The default K of `σ(score/K)`: centipawns per unit of the sigmoid's argument (`nnue train
/// --scale`, `nnue error --scale`).
pub const DEFAULT_SCALE: f32 = 400.0;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// [`sigmoid`] in `f64`, for the figures and data tools that need its width.
#[inline]
pub fn sigmoid_f64(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How a record's target is made: `λ·σ(score/K) + (1−λ)·result`, both from the side to
/// move's view.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Weight of the score against the result.
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f32,
}

impl Target {
    /// The target of `record` (a missing score counts as 0: such records are dropped unless
    /// λ = 0).
    pub fn of(&self, record: &PackedPosition) -> f32 {
        let score = record.score().unwrap_or(0) as f32;
        let result = record.outcome().score_for(record.side_to_move());
        self.lambda * sigmoid(score / self.scale) + (1.0 - self.lambda) * result
    }
}

/// FNV-1a 64 of the records' bytes (streamed: the data set is never copied).
fn fingerprint_of(records: &[PackedPosition]) -> u64 {
    records
        .iter()
        .flat_map(|r| r.0)
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        })
}

/// Reads `files` (data files or run folders, see [`crate::progress::read_data`]), drops unscored positions when `lambda > 0`, and holds out a seeded
/// `validation_fraction` of the rest.
pub fn load(
    files: &[PathBuf],
    lambda: f32,
    validation_fraction: f64,
    seed: u64,
) -> Result<TrainData, RunError> {
    load_first(
        files,
        None,
        lambda,
        validation_fraction,
        seed,
        Holdout::Positions,
    )
}

/// As [`load`], with only the first `max_positions` records of the files (in order) when
/// given (the points of a data-size curve come from one growing data set), holding out by
/// `holdout`.
pub fn load_first(
    files: &[PathBuf],
    max_positions: Option<usize>,
    lambda: f32,
    validation_fraction: f64,
    seed: u64,
    holdout: Holdout,
) -> Result<TrainData, RunError> {
    let mut all = read_records(files, max_positions)?;
    let fingerprint = fingerprint_of(&all);
    let before = all.len();
    if lambda > 0.0 {
        all.retain(|r| r.score().is_some());
    }
    let unscored = before - all.len();
    if all.len() < 2 {
        return Err(RunError::Input(format!(
            "{} usable positions ({unscored} without a score): training needs at least 2",
            all.len()
        )));
    }
    let n_val = ((all.len() as f64 * validation_fraction).round() as usize).min(all.len() - 1);
    let is_val = held_out(all.len(), n_val, seed, holdout);
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for (r, v) in all.into_iter().zip(is_val) {
        if v { validation.push(r) } else { train.push(r) }
    }
    Ok(TrainData {
        train,
        validation,
        unscored,
        fingerprint,
    })
}

/// Which of `len` records are held out: `n_val` single positions drawn by the seed, or the
/// runs of [`HOLDOUT_RUN`] records drawn by the seed until `n_val` are out (the last run
/// taken only in part, so the count is the same either way).
/// Mixed into the seed of the validation split, so it differs from the shuffles of training.
const SPLIT_SALT: u64 = 0x5eed_da7a;

fn held_out(len: usize, n_val: usize, seed: u64, holdout: Holdout) -> Vec<bool> {
    let unit = match holdout {
        Holdout::Positions => 1,
        Holdout::Runs => HOLDOUT_RUN,
    };
    let mut order: Vec<usize> = (0..len.div_ceil(unit)).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ SPLIT_SALT));
    let mut is_val = vec![false; len];
    let mut left = n_val;
    for run in order {
        if left == 0 {
            break;
        }
        let start = run * unit;
        let end = (start + unit).min(len).min(start + left);
        is_val[start..end].iter_mut().for_each(|v| *v = true);
        left -= end - start;
    }
    is_val
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Outcome;
    use kestrel_chess::Board;

    #[test]
    fn runs_hold_out_whole_stretches_and_positions_scatter() {
        let len = 10 * HOLDOUT_RUN + 123;
        let n_val = len / 20;
        let runs = held_out(len, n_val, 3, Holdout::Runs);
        let single = held_out(len, n_val, 3, Holdout::Positions);
        assert_eq!(runs.iter().filter(|v| **v).count(), n_val);
        assert_eq!(single.iter().filter(|v| **v).count(), n_val);
        // Held-out stretches start on a run's boundary; one run is taken only in part.
        let starts: Vec<usize> = (0..len)
            .filter(|&i| runs[i] && (i == 0 || !runs[i - 1]))
            .collect();
        assert!(starts.iter().all(|s| s % HOLDOUT_RUN == 0), "{starts:?}");
        let changes = |v: &[bool]| v.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(changes(&runs) <= 4, "{} changes", changes(&runs));
        assert!(changes(&single) > n_val, "{} changes", changes(&single));
        // The single-position split is the one before runs existed (seeded shuffle).
        let mut order: Vec<usize> = (0..len).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(3 ^ SPLIT_SALT));
        assert!(order[..n_val].iter().all(|&i| single[i]));
    }

    #[test]
    fn the_fingerprint_is_fnv_of_the_record_bytes() {
        let r = PackedPosition::pack(&Board::startpos(), 5, Outcome::Draw);
        let bytes: Vec<u8> = [r.0, r.0].concat();
        assert_eq!(fingerprint_of(&[r, r]), kestrel_nnue::file::fnv1a64(&bytes));
    }

    #[test]
    fn targets_blend_score_and_result_from_the_side_to_move() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        let r = PackedPosition::pack(&board, 400, Outcome::WhiteWin);
        let t = Target {
            lambda: 0.5,
            scale: 400.0,
        };
        // Black to move scores +400 (σ(1)), and White won: 0 for Black.
        assert!((t.of(&r) - 0.5 * sigmoid(1.0)).abs() < 1e-6);
    }
}
