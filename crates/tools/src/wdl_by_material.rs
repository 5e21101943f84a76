//! How well the win/draw/loss model's form fits at each amount of material: the validation
//! loss of given constants per material bucket, against that of constants fitted to the
//! bucket's own training positions (a line in material within the bucket). Where the
//! bucket's own fit is much better, the compared form is too stiff there.

use crate::wdl_constants::WdlConstants;
use crate::wdl_fit::{WdlSample, fit, loss};

/// Material ranges (both sides, as the model counts it; lower bound included, upper not).
pub const MATERIAL_BUCKETS: [(u32, u32); 6] =
    [(0, 16), (16, 28), (28, 40), (40, 52), (52, 64), (64, 80)];

/// The losses of one material bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketLoss {
    /// The bucket's material range (lower bound included, upper not).
    pub range: (u32, u32),
    /// Training positions in the bucket.
    pub train_positions: usize,
    /// Validation positions in the bucket.
    pub validation_positions: usize,
    /// Mean validation log-loss of each of the compared constants, in the order given.
    pub compared: Vec<f64>,
    /// Mean validation log-loss of constants fitted to the bucket's training positions alone.
    pub own_fit: f64,
}

/// The validation loss per bucket of each of `constants`, and of the bucket's own fit (a line,
/// started from the first of `constants`). Buckets without training or validation positions
/// are left out.
pub fn loss_by_material(
    train: &[WdlSample],
    validation: &[WdlSample],
    constants: &[WdlConstants],
) -> Vec<BucketLoss> {
    let in_range = |samples: &[WdlSample], (lo, hi): (u32, u32)| -> Vec<WdlSample> {
        samples
            .iter()
            .filter(|s| (lo..hi).contains(&s.material))
            .copied()
            .collect()
    };
    let start = constants
        .first()
        .cloned()
        .unwrap_or_else(WdlConstants::shipped);
    MATERIAL_BUCKETS
        .iter()
        .filter_map(|&range| {
            let bucket_train = in_range(train, range);
            let bucket_validation = in_range(validation, range);
            if bucket_train.is_empty() || bucket_validation.is_empty() {
                return None;
            }
            let own = fit(&bucket_train, &start, 1);
            Some(BucketLoss {
                range,
                train_positions: bucket_train.len(),
                validation_positions: bucket_validation.len(),
                compared: constants
                    .iter()
                    .map(|c| loss(&bucket_validation, c))
                    .collect(),
                own_fit: loss(&bucket_validation, &own),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Outcomes from a model whose `a` jumps at material 40: no linear form fits both sides.
    fn stepped_samples(seed: u64, n: usize) -> Vec<WdlSample> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let cp = rng.random_range(-800.0..800.0);
                let material = rng.random_range(10..78);
                let a = if material < 40 { 60.0 } else { 400.0 };
                crate::wdl_fit::sample_from(&mut rng, cp, material, &[a, 0.0], &[100.0, 0.0])
            })
            .collect()
    }

    #[test]
    fn a_bucket_own_fit_beats_a_form_that_cannot_follow_the_data() {
        let train = stepped_samples(1, 30_000);
        let validation = stepped_samples(2, 10_000);
        let linear = fit(&train, &WdlConstants::shipped(), 1);
        let report = loss_by_material(&train, &validation, &[linear]);
        assert_eq!(report.len(), MATERIAL_BUCKETS.len());
        assert_eq!(
            report.iter().map(|b| b.validation_positions).sum::<usize>(),
            validation.len()
        );
        // The buckets just below and above the step, far from where a line can pass through.
        let worst_gap = report
            .iter()
            .map(|b| b.compared[0] - b.own_fit)
            .fold(f64::MIN, f64::max);
        assert!(worst_gap > 0.02, "{report:?}");
    }
}
