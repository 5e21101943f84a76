//! Which chromosome the engine plays: by id, the fittest, or drawn at random with
//! probability proportional to fitness (seeded, so a given seed always picks the same one).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::str::FromStr;

/// A choice of chromosome: `ID`, `best`, `random` or `random:SEED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The chromosome with this database id (`ID` or `id:ID`).
    Id(i64),
    /// The highest fitness (the lowest id on ties).
    Best,
    /// Weighted by fitness (uniform when every fitness is zero).
    Random {
        /// Seeds the draw (`random` alone means seed 0); the same seed picks the same chromosome.
        seed: u64,
    },
}

impl FromStr for Pick {
    type Err = String;

    fn from_str(text: &str) -> Result<Pick, String> {
        let t = text.trim();
        let bad = || format!("chromosome '{text}': expected an id, best, random or random:SEED");
        match t.to_ascii_lowercase().as_str() {
            "best" => Ok(Pick::Best),
            "random" => Ok(Pick::Random { seed: 0 }),
            lower => {
                if let Some(seed) = lower.strip_prefix("random:") {
                    seed.parse()
                        .map(|seed| Pick::Random { seed })
                        .map_err(|_| bad())
                } else {
                    let id = lower.strip_prefix("id:").unwrap_or(lower);
                    id.parse().map(Pick::Id).map_err(|_| bad())
                }
            }
        }
    }
}

impl Pick {
    /// Index into `fitness` for `Best` and `Random` (`None` when empty or for `Id`).
    pub fn choose(&self, fitness: &[f64]) -> Option<usize> {
        if fitness.is_empty() {
            return None;
        }
        match *self {
            Pick::Id(_) => None,
            Pick::Best => {
                let mut best = 0;
                for (i, f) in fitness.iter().enumerate() {
                    if *f > fitness[best] {
                        best = i;
                    }
                }
                Some(best)
            }
            Pick::Random { seed } => {
                let weights: Vec<f64> = fitness
                    .iter()
                    .map(|f| if f.is_finite() { f.max(0.0) } else { 0.0 })
                    .collect();
                let total: f64 = weights.iter().sum();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                if total <= 0.0 {
                    return Some(rng.random_range(0..fitness.len()));
                }
                let mut r = rng.random::<f64>() * total;
                for (i, w) in weights.iter().enumerate() {
                    if r < *w {
                        return Some(i);
                    }
                    r -= w;
                }
                weights.iter().rposition(|w| *w > 0.0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_parse_and_bad_ones_are_rejected() {
        assert_eq!("best".parse::<Pick>(), Ok(Pick::Best));
        assert_eq!("7".parse::<Pick>(), Ok(Pick::Id(7)));
        assert_eq!("id:7".parse::<Pick>(), Ok(Pick::Id(7)));
        assert_eq!("random".parse::<Pick>(), Ok(Pick::Random { seed: 0 }));
        assert_eq!("Random:42".parse::<Pick>(), Ok(Pick::Random { seed: 42 }));
        assert!("worst".parse::<Pick>().is_err());
        assert!("random:x".parse::<Pick>().is_err());
    }

    #[test]
    fn random_follows_fitness_and_is_seeded() {
        let fitness = [0.1, 0.0, 0.3, 0.6];
        let mut counts = [0usize; 4];
        for seed in 0..4000 {
            counts[Pick::Random { seed }.choose(&fitness).unwrap()] += 1;
        }
        assert_eq!(counts[1], 0, "a zero fitness is never drawn");
        // Expected 400 / 1200 / 2400 (sd < 35).
        assert!((300..500).contains(&counts[0]), "{counts:?}");
        assert!((1050..1350).contains(&counts[2]), "{counts:?}");
        assert!((2250..2550).contains(&counts[3]), "{counts:?}");
        let p = Pick::Random { seed: 9 };
        assert_eq!(p.choose(&fitness), p.choose(&fitness));
        assert_eq!(Pick::Best.choose(&fitness), Some(3));
        assert_eq!(Pick::Best.choose(&[]), None);
        assert!(Pick::Random { seed: 1 }.choose(&[0.0, 0.0]).unwrap() < 2);
    }
}
