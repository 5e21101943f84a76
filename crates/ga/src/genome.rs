//! Genomes and their variation operators: fixed-length bit strings (decoded through a
//! `kestrel_params::BitSchema`) and real vectors with per-gene bounds.

use crate::GaSettings;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How two parents exchange genes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Crossover {
    /// One cut point; the children swap tails (the paper's operator).
    SinglePoint,
    /// Each gene comes from either parent with probability 1/2.
    Uniform,
    /// BLX-α, real genomes only: each child gene is drawn uniformly from the parents' interval
    /// widened by `alpha` times its length on both sides (clamped to the gene's bounds). The
    /// spread follows the population's, so the step per gene shrinks as that gene converges.
    Blend {
        /// Widening of the parents' interval on each side, as a fraction of its length (0..=10).
        alpha: f64,
    },
}

/// A chromosome the GA can create, recombine and mutate.
pub trait Genome: Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// What every genome of a run shares (length, bounds).
    type Space: Sync;

    /// A genome drawn uniformly from `space` (the random initial population).
    fn random(space: &Self::Space, rng: &mut ChaCha8Rng) -> Self;
    /// Rejects settings this genome cannot run (e.g. blend crossover on bits).
    fn check(_space: &Self::Space, _settings: &GaSettings) -> Result<(), String> {
        Ok(())
    }
    /// Two children of `self` and `other`.
    fn crossover(
        &self,
        other: &Self,
        space: &Self::Space,
        kind: Crossover,
        rng: &mut ChaCha8Rng,
    ) -> (Self, Self);
    /// Changes each gene independently with probability `rate`; `step` is the generation's
    /// mutation step as a fraction of each gene's range (reals; `None`: the space's own).
    fn mutate(&mut self, space: &Self::Space, rate: f64, step: Option<f64>, rng: &mut ChaCha8Rng);
    /// Spread of a population in [0, 1] (0: all identical), for the log.
    fn diversity(population: &[Self], space: &Self::Space) -> f64;
}

/// Swaps tails after one cut, or genes by coin flips; shared by every slice genome.
fn cross_slices<T: Copy>(a: &mut [T], b: &mut [T], kind: Crossover, rng: &mut ChaCha8Rng) {
    debug_assert_eq!(a.len(), b.len());
    match kind {
        // Blending needs numbers; `Genome::check` keeps it away from other genomes.
        Crossover::Blend { .. } => unreachable!("blend crossover on a non-real genome"),
        Crossover::SinglePoint => {
            if a.len() >= 2 {
                let cut = rng.random_range(1..a.len());
                a[cut..].swap_with_slice(&mut b[cut..]);
            }
        }
        Crossover::Uniform => {
            for (x, y) in a.iter_mut().zip(b.iter_mut()) {
                if rng.random_bool(0.5) {
                    std::mem::swap(x, y);
                }
            }
        }
    }
}

/// Length of every bit genome of a run.
#[derive(Clone, Copy, Debug)]
pub struct BitSpace {
    /// Number of bits.
    pub len: usize,
}

/// A bit string (serialised as a compact `"0110..."` text).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitGenome(pub Vec<bool>);

impl Genome for BitGenome {
    type Space = BitSpace;

    fn random(space: &BitSpace, rng: &mut ChaCha8Rng) -> Self {
        BitGenome((0..space.len).map(|_| rng.random_bool(0.5)).collect())
    }

    fn check(_space: &BitSpace, settings: &GaSettings) -> Result<(), String> {
        match settings.crossover {
            Crossover::Blend { .. } => Err("blend crossover needs real genomes".into()),
            _ => Ok(()),
        }
    }

    fn crossover(
        &self,
        other: &Self,
        _space: &BitSpace,
        kind: Crossover,
        rng: &mut ChaCha8Rng,
    ) -> (Self, Self) {
        let (mut a, mut b) = (self.clone(), other.clone());
        cross_slices(&mut a.0, &mut b.0, kind, rng);
        (a, b)
    }

    fn mutate(&mut self, _space: &BitSpace, rate: f64, _step: Option<f64>, rng: &mut ChaCha8Rng) {
        for bit in &mut self.0 {
            if rng.random_bool(rate) {
                *bit = !*bit;
            }
        }
    }

    /// Mean pairwise Hamming distance over the length: the average of `2p(1-p)` per locus.
    fn diversity(population: &[Self], space: &BitSpace) -> f64 {
        let n = population.len();
        if n < 2 || space.len == 0 {
            return 0.0;
        }
        let mut ones = vec![0usize; space.len];
        for g in population {
            for (count, &bit) in ones.iter_mut().zip(&g.0) {
                *count += bit as usize;
            }
        }
        let nf = n as f64;
        let sum: f64 = ones
            .iter()
            .map(|&c| {
                let p = c as f64 / nf;
                2.0 * p * (1.0 - p) * nf / (nf - 1.0)
            })
            .sum();
        sum / space.len as f64
    }
}

impl Serialize for BitGenome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text: String = self.0.iter().map(|&b| if b { '1' } else { '0' }).collect();
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for BitGenome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                other => Err(serde::de::Error::custom(format!(
                    "bit genome holds '{other}', expected only 0 and 1"
                ))),
            })
            .collect::<Result<Vec<bool>, _>>()
            .map(BitGenome)
    }
}

/// Bounds and mutation step of every real genome of a run.
#[derive(Clone, Debug)]
pub struct RealSpace {
    /// Lower bound of each gene (inclusive).
    pub min: Vec<f64>,
    /// Upper bound of each gene (inclusive), same length as `min`.
    pub max: Vec<f64>,
    /// Standard deviation of a Gaussian mutation step, as a fraction of each gene's range.
    pub sigma: f64,
}

/// A vector of reals, each kept within its bounds (e.g. piece-square table entries).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RealGenome(pub Vec<f64>);

impl Genome for RealGenome {
    type Space = RealSpace;

    fn random(space: &RealSpace, rng: &mut ChaCha8Rng) -> Self {
        RealGenome(
            space
                .min
                .iter()
                .zip(&space.max)
                .map(|(&lo, &hi)| {
                    if hi > lo {
                        rng.random_range(lo..=hi)
                    } else {
                        lo
                    }
                })
                .collect(),
        )
    }

    fn check(space: &RealSpace, _settings: &GaSettings) -> Result<(), String> {
        if space.min.len() != space.max.len() {
            return Err("real genome bounds differ in length".into());
        }
        match space
            .min
            .iter()
            .zip(&space.max)
            .position(|(lo, hi)| lo.partial_cmp(hi).is_none_or(|o| o.is_gt()))
        {
            Some(i) => Err(format!("real gene {i} has no valid range")),
            None => Ok(()),
        }
    }

    fn crossover(
        &self,
        other: &Self,
        space: &RealSpace,
        kind: Crossover,
        rng: &mut ChaCha8Rng,
    ) -> (Self, Self) {
        let (mut a, mut b) = (self.clone(), other.clone());
        match kind {
            Crossover::Blend { alpha } => {
                for (i, (x, y)) in a.0.iter_mut().zip(b.0.iter_mut()).enumerate() {
                    let (lo, hi) = if *x <= *y { (*x, *y) } else { (*y, *x) };
                    if hi > lo {
                        let pad = alpha * (hi - lo);
                        let (from, to) =
                            ((lo - pad).max(space.min[i]), (hi + pad).min(space.max[i]));
                        *x = rng.random_range(from..=to);
                        *y = rng.random_range(from..=to);
                    }
                }
            }
            _ => cross_slices(&mut a.0, &mut b.0, kind, rng),
        }
        (a, b)
    }

    fn mutate(&mut self, space: &RealSpace, rate: f64, step: Option<f64>, rng: &mut ChaCha8Rng) {
        let sigma = step.unwrap_or(space.sigma);
        for (i, x) in self.0.iter_mut().enumerate() {
            if rng.random_bool(rate) {
                let (lo, hi) = (space.min[i], space.max[i]);
                *x = (*x + gaussian(rng) * sigma * (hi - lo)).clamp(lo, hi);
            }
        }
    }

    /// Mean per-gene standard deviation over the gene's range (times 2, so that a population
    /// split evenly between the two bounds scores 1).
    fn diversity(population: &[Self], space: &RealSpace) -> f64 {
        let n = population.len();
        let len = space.min.len();
        if n < 2 || len == 0 {
            return 0.0;
        }
        let mut total = 0.0;
        for i in 0..len {
            let range = space.max[i] - space.min[i];
            if range <= 0.0 {
                continue;
            }
            let mean = population.iter().map(|g| g.0[i]).sum::<f64>() / n as f64;
            let var = population
                .iter()
                .map(|g| (g.0[i] - mean).powi(2))
                .sum::<f64>()
                / n as f64;
            total += (2.0 * var.sqrt() / range).min(1.0);
        }
        total / len as f64
    }
}

/// A standard normal draw (Box-Muller), so no extra distribution crate is needed.
fn gaussian(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(42)
    }

    #[test]
    fn single_point_crossover_preserves_bits_per_locus() {
        let mut r = rng();
        let space = BitSpace { len: 64 };
        for _ in 0..200 {
            let a = BitGenome::random(&space, &mut r);
            let b = BitGenome::random(&space, &mut r);
            let (c, d) = a.crossover(&b, &space, Crossover::SinglePoint, &mut r);
            // Every locus keeps the parents' pair of values.
            for i in 0..64 {
                let mut parents = [a.0[i], b.0[i]];
                let mut kids = [c.0[i], d.0[i]];
                parents.sort();
                kids.sort();
                assert_eq!(parents, kids);
            }
            // Child 1 is a prefix of `a` followed by a suffix of `b`.
            let cut = (0..=64).find(|&k| c.0[k..] == b.0[k..]).unwrap();
            assert_eq!(c.0[..cut], a.0[..cut]);
        }
    }

    #[test]
    fn uniform_crossover_preserves_bits_and_mixes() {
        let mut r = rng();
        let a = BitGenome(vec![true; 1000]);
        let b = BitGenome(vec![false; 1000]);
        let (c, d) = a.crossover(&b, &BitSpace { len: 1000 }, Crossover::Uniform, &mut r);
        for i in 0..1000 {
            assert_ne!(c.0[i], d.0[i]);
        }
        let from_a = c.0.iter().filter(|&&x| x).count();
        assert!((400..600).contains(&from_a), "{from_a}");
    }

    #[test]
    fn mutation_flips_about_rate_bits() {
        let mut r = rng();
        let space = BitSpace { len: 100_000 };
        let mut g = BitGenome(vec![false; space.len]);
        g.mutate(&space, 0.002, None, &mut r);
        let flipped = g.0.iter().filter(|&&b| b).count();
        // Expected 200, sd ~14.
        assert!((150..250).contains(&flipped), "{flipped}");
        let mut h = BitGenome(vec![false; 100]);
        h.mutate(&BitSpace { len: 100 }, 0.0, None, &mut r);
        assert!(h.0.iter().all(|&b| !b));
    }

    #[test]
    fn bit_genome_serialises_as_text() {
        let g = BitGenome(vec![true, false, true, true]);
        let json = serde_json::to_string(&g).unwrap();
        assert_eq!(json, "\"1011\"");
        assert_eq!(serde_json::from_str::<BitGenome>(&json).unwrap(), g);
        assert!(serde_json::from_str::<BitGenome>("\"10x\"").is_err());
    }

    #[test]
    fn bit_diversity_is_zero_for_clones_and_one_half_for_random() {
        let mut r = rng();
        let space = BitSpace { len: 200 };
        let g = BitGenome::random(&space, &mut r);
        assert_eq!(BitGenome::diversity(&vec![g; 10], &space), 0.0);
        let pop: Vec<BitGenome> = (0..500)
            .map(|_| BitGenome::random(&space, &mut r))
            .collect();
        let d = BitGenome::diversity(&pop, &space);
        assert!((d - 0.5).abs() < 0.02, "{d}");
    }

    #[test]
    fn real_genomes_stay_in_bounds_and_mutate_at_rate() {
        let mut r = rng();
        let space = RealSpace {
            min: vec![-10.0; 1000],
            max: vec![10.0; 1000],
            sigma: 0.5,
        };
        let mut g = RealGenome::random(&space, &mut r);
        let before = g.clone();
        g.mutate(&space, 0.1, None, &mut r);
        let changed = g.0.iter().zip(&before.0).filter(|(a, b)| a != b).count();
        assert!((60..140).contains(&changed), "{changed}");
        assert!(g.0.iter().all(|x| (-10.0..=10.0).contains(x)));
        let other = RealGenome::random(&space, &mut r);
        let (c, d) = g.crossover(&other, &space, Crossover::SinglePoint, &mut r);
        for i in 0..1000 {
            let mut p = [g.0[i], other.0[i]];
            let mut k = [c.0[i], d.0[i]];
            p.sort_by(f64::total_cmp);
            k.sort_by(f64::total_cmp);
            assert_eq!(p, k);
        }
    }

    #[test]
    fn blend_and_annealed_mutation_keep_genes_in_bounds() {
        let mut r = rng();
        let space = RealSpace {
            min: (0..300).map(|i| -(i as f64)).collect(),
            max: (0..300).map(|i| i as f64 * 0.5 + 1.0).collect(),
            sigma: 0.01,
        };
        let inside = |g: &RealGenome| {
            g.0.iter()
                .enumerate()
                .all(|(i, x)| (space.min[i]..=space.max[i]).contains(x))
        };
        let mut pop: Vec<RealGenome> = (0..20)
            .map(|_| RealGenome::random(&space, &mut r))
            .collect();
        for round in 0..200 {
            let (a, b) = (&pop[round % 20], &pop[(round * 7 + 3) % 20]);
            // A wide blend and a huge step push far past the bounds; both must clamp.
            let (mut c, mut d) = a.crossover(b, &space, Crossover::Blend { alpha: 5.0 }, &mut r);
            c.mutate(&space, 0.5, Some(1.0), &mut r);
            d.mutate(&space, 0.5, None, &mut r);
            assert!(inside(&c) && inside(&d), "round {round}");
            pop[round % 20] = c;
        }
        // BLX-0: children lie between the parents, and equal genes stay equal.
        let a = RealGenome(vec![1.0, 5.0, -3.0, 2.0]);
        let b = RealGenome(vec![4.0, 5.0, -1.0, -2.0]);
        let small = RealSpace {
            min: vec![-10.0; 4],
            max: vec![10.0; 4],
            sigma: 0.1,
        };
        for _ in 0..100 {
            let (c, d) = a.crossover(&b, &small, Crossover::Blend { alpha: 0.0 }, &mut r);
            for child in [&c, &d] {
                for i in 0..4 {
                    let (lo, hi) = (a.0[i].min(b.0[i]), a.0[i].max(b.0[i]));
                    assert!((lo..=hi).contains(&child.0[i]));
                }
                assert_eq!(child.0[1], 5.0);
            }
        }
        // The step scales each gene's move with its range.
        let wide = RealSpace {
            min: vec![-1000.0; 2000],
            max: vec![1000.0; 2000],
            sigma: 0.5,
        };
        let mut g = RealGenome(vec![0.0; 2000]);
        g.mutate(&wide, 1.0, Some(0.001), &mut r);
        let sd = (g.0.iter().map(|x| x * x).sum::<f64>() / 2000.0).sqrt();
        assert!((1.8..2.2).contains(&sd), "{sd}");
    }

    #[test]
    fn blend_is_for_real_genomes_only() {
        let settings = GaSettings {
            crossover: Crossover::Blend { alpha: 0.5 },
            ..GaSettings::default()
        };
        assert!(BitGenome::check(&BitSpace { len: 8 }, &settings).is_err());
        let space = RealSpace {
            min: vec![0.0; 3],
            max: vec![1.0; 3],
            sigma: 0.1,
        };
        assert!(RealGenome::check(&space, &settings).is_ok());
        let broken = RealSpace {
            min: vec![2.0, 0.0],
            max: vec![1.0, 1.0],
            sigma: 0.1,
        };
        assert!(RealGenome::check(&broken, &settings).is_err());
    }
}
