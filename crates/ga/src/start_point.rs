//! Real-vector populations around one start point: generation zero as the start and mutants
//! of it, and a population's centre (its mean genome).

use crate::genome::{Genome, RealGenome, RealSpace};
use crate::rng::{Purpose, stream_rng};
use crate::settings::GaSettings;

/// Generation zero of `settings.population` organisms: `start` first, then mutants of it
/// (every gene moved by a normal step of `spread` times its range), drawn from the run's
/// `(seed, 0, Init)` stream.
pub fn start_and_mutants(
    start: &RealGenome,
    space: &RealSpace,
    settings: &GaSettings,
    spread: f64,
) -> Vec<RealGenome> {
    let mut rng = stream_rng(settings.seed, 0, Purpose::Init);
    (0..settings.population)
        .map(|i| {
            let mut g = start.clone();
            if i > 0 {
                g.mutate(space, 1.0, Some(spread), &mut rng);
            }
            g
        })
        .collect()
}

/// The mean of each gene over `population` (empty for an empty population).
pub fn centre(population: &[RealGenome]) -> Vec<f64> {
    let n = population.len() as f64;
    let genes = population.first().map_or(0, |g| g.0.len());
    (0..genes)
        .map(|i| population.iter().map(|g| g.0[i]).sum::<f64>() / n)
        .collect()
}
