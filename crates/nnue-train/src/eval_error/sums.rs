//! The error arithmetic of one evaluation against labelled scores: exact integer sums of the
//! differences and a float sum of the trainer's loss, added position by position and merged in
//! a fixed order (so the figures do not depend on how the positions were split over threads).

use crate::train::sigmoid_f64 as sigmoid;

/// The sums of an evaluation's differences from the scores, over the positions added so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ErrorSums {
    /// Positions added.
    pub positions: u64,
    /// Σ |eval − score| (centipawns).
    pub abs_diff: u64,
    /// Σ (eval − score) (centipawns).
    pub signed_diff: i64,
    /// Σ (eval − score)² (centipawns²).
    pub squared_diff: u128,
    /// Σ (σ(eval/K) − σ(score/K))²: the trainer's loss at λ 1, summed.
    pub loss: f64,
}

/// The means of [`ErrorSums`]: what one row of the report shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorSummary {
    /// Positions measured.
    pub positions: u64,
    /// Mean |eval − score| in centipawns.
    pub mean_abs: f64,
    /// Root mean square of eval − score in centipawns.
    pub rms: f64,
    /// Mean (σ(eval/K) − σ(score/K))², comparable with `nnue train`'s validation loss at λ 1.
    pub loss: f64,
    /// Mean eval − score in centipawns (positive: the evaluation thinks better of the side to
    /// move than the scores do).
    pub bias: f64,
}

impl ErrorSums {
    /// Adds one position: the evaluation's `eval` and the data's `score`, both centipawns from
    /// the same side's view, with the sigmoid's scale `scale` (K).
    pub fn add(&mut self, eval: i32, score: i32, scale: f64) {
        let diff = eval as i64 - score as i64;
        self.positions += 1;
        self.abs_diff += diff.unsigned_abs();
        self.signed_diff += diff;
        self.squared_diff += (diff * diff) as u128;
        let e = sigmoid(eval as f64 / scale) - sigmoid(score as f64 / scale);
        self.loss += e * e;
    }

    /// Adds the sums of `other` (the positions after these).
    pub fn merge(&mut self, other: &ErrorSums) {
        self.positions += other.positions;
        self.abs_diff += other.abs_diff;
        self.signed_diff += other.signed_diff;
        self.squared_diff += other.squared_diff;
        self.loss += other.loss;
    }

    /// The means (NaN for no positions).
    pub fn summary(&self) -> ErrorSummary {
        let n = self.positions as f64;
        ErrorSummary {
            positions: self.positions,
            mean_abs: self.abs_diff as f64 / n,
            rms: (self.squared_diff as f64 / n).sqrt(),
            loss: self.loss / n,
            bias: self.signed_diff as f64 / n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums_of(pairs: &[(i32, i32)], scale: f64) -> ErrorSums {
        let mut s = ErrorSums::default();
        for &(eval, score) in pairs {
            s.add(eval, score, scale);
        }
        s
    }

    #[test]
    fn means_of_known_differences() {
        // Differences +30, −40, 0, +10: |d| 80/4, d² 2600/4, bias 0/4.
        let s = sums_of(&[(130, 100), (-40, 0), (55, 55), (-290, -300)], 400.0).summary();
        assert_eq!(s.positions, 4);
        assert_eq!(s.mean_abs, 20.0);
        assert_eq!(s.rms, 650f64.sqrt());
        assert_eq!(s.bias, 0.0);
        let loss = |e: f64, t: f64| (sigmoid(e / 400.0) - sigmoid(t / 400.0)).powi(2);
        let want = (loss(130.0, 100.0) + loss(-40.0, 0.0) + loss(-290.0, -300.0)) / 4.0;
        assert!((s.loss - want).abs() < 1e-15, "{} vs {want}", s.loss);
    }

    #[test]
    fn the_loss_is_the_trainers_squared_sigmoid_difference() {
        // σ(400/400) − σ(0) = 0.7310586 − 0.5: one position, loss 0.0533881.
        let s = sums_of(&[(400, 0)], 400.0).summary();
        assert!((s.loss - 0.053_388_1).abs() < 1e-7, "{}", s.loss);
        assert_eq!(s.bias, 400.0);
        // A larger K flattens the sigmoid: the same difference costs less.
        assert!(sums_of(&[(400, 0)], 800.0).summary().loss < s.loss);
    }

    #[test]
    fn an_exact_evaluation_has_no_error_and_a_shifted_one_its_shift() {
        let scores = [-700, -3, 0, 12, 250, 1999];
        let exact: Vec<(i32, i32)> = scores.iter().map(|&s| (s, s)).collect();
        let s = sums_of(&exact, 400.0).summary();
        assert_eq!((s.mean_abs, s.rms, s.loss, s.bias), (0.0, 0.0, 0.0, 0.0));
        let shifted: Vec<(i32, i32)> = scores.iter().map(|&s| (s - 25, s)).collect();
        let s = sums_of(&shifted, 400.0).summary();
        assert_eq!((s.mean_abs, s.rms, s.bias), (25.0, 25.0, -25.0));
        assert!(s.loss > 0.0);
    }

    #[test]
    fn merging_equals_adding_in_one_run_and_extreme_scores_do_not_overflow() {
        let pairs: Vec<(i32, i32)> = (0..1000)
            .map(|i| ((i * 37) % 2001 - 1000, (i * 91) % 32767 - 16383))
            .chain([(i16::MAX as i32, i16::MIN as i32 + 1); 3])
            .collect();
        let whole = sums_of(&pairs, 400.0);
        let mut merged = ErrorSums::default();
        for part in pairs.chunks(77) {
            merged.merge(&sums_of(part, 400.0));
        }
        assert_eq!(merged.positions, whole.positions);
        assert_eq!(merged.abs_diff, whole.abs_diff);
        assert_eq!(merged.signed_diff, whole.signed_diff);
        assert_eq!(merged.squared_diff, whole.squared_diff);
        assert!((merged.loss - whole.loss).abs() < 1e-9);
        assert!(ErrorSums::default().summary().mean_abs.is_nan());
    }
}
