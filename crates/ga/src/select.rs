//! Parent selection: fitness-proportional (roulette wheel) and tournament.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How parents are selected from an evaluated generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selection {
    /// Probability proportional to fitness (fitness must be >= 0; the paper's choice).
    Roulette,
    /// Best of `size` organisms drawn uniformly with replacement.
    Tournament {
        /// Organisms per tournament (at least 1); larger means stronger selection pressure.
        size: usize,
    },
}

/// Picks parents from one evaluated generation.
pub struct Selector<'a> {
    kind: Selection,
    fitness: &'a [f64],
    /// Running sums of fitness for the roulette wheel.
    cumulative: Vec<f64>,
}

impl<'a> Selector<'a> {
    /// A selector over one generation's fitness values; panics when `fitness` is empty.
    pub fn new(kind: Selection, fitness: &'a [f64]) -> Selector<'a> {
        assert!(
            !fitness.is_empty(),
            "cannot select from an empty population"
        );
        let cumulative = match kind {
            Selection::Roulette => fitness
                .iter()
                .scan(0.0, |acc, &f| {
                    // Negative or NaN fitness gets no share of the wheel.
                    *acc += if f > 0.0 { f } else { 0.0 };
                    Some(*acc)
                })
                .collect(),
            Selection::Tournament { .. } => Vec::new(),
        };
        Selector {
            kind,
            fitness,
            cumulative,
        }
    }

    /// Index of one selected organism.
    pub fn pick(&self, rng: &mut ChaCha8Rng) -> usize {
        let n = self.fitness.len();
        match self.kind {
            Selection::Roulette => {
                let total = *self.cumulative.last().expect("non-empty");
                if total <= 0.0 || !total.is_finite() {
                    return rng.random_range(0..n);
                }
                let x = rng.random::<f64>() * total;
                self.cumulative.partition_point(|&c| c <= x).min(n - 1)
            }
            Selection::Tournament { size } => {
                let mut best = rng.random_range(0..n);
                for _ in 1..size.max(1) {
                    let i = rng.random_range(0..n);
                    if self.fitness[i] > self.fitness[best] {
                        best = i;
                    }
                }
                best
            }
        }
    }
}

/// Indices ordered fittest first; equal fitness keeps index order, so a ranking is the same
/// on every run (elites, playoffs, niche leaders).
pub fn fittest_first(fitness: impl Fn(usize) -> f64, len: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| fitness(b).total_cmp(&fitness(a)).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn roulette_frequencies_follow_fitness() {
        let fitness = [1.0, 2.0, 3.0, 4.0, 0.0];
        let sel = Selector::new(Selection::Roulette, &fitness);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let draws = 100_000;
        let mut counts = [0usize; 5];
        for _ in 0..draws {
            counts[sel.pick(&mut rng)] += 1;
        }
        assert_eq!(counts[4], 0, "zero fitness is never picked");
        for i in 0..4 {
            let expected = fitness[i] / 10.0;
            let got = counts[i] as f64 / draws as f64;
            // Standard error is at most 0.0016; allow 4 of them.
            assert!((got - expected).abs() < 0.007, "{i}: {got} vs {expected}");
        }
    }

    #[test]
    fn roulette_with_no_fitness_is_uniform() {
        let fitness = [0.0; 4];
        let sel = Selector::new(Selection::Roulette, &fitness);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut counts = [0usize; 4];
        for _ in 0..40_000 {
            counts[sel.pick(&mut rng)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn tournament_prefers_the_fitter() {
        let fitness: Vec<f64> = (0..10).map(f64::from).collect();
        let sel = Selector::new(Selection::Tournament { size: 3 }, &fitness);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = [0usize; 10];
        for _ in 0..100_000 {
            counts[sel.pick(&mut rng)] += 1;
        }
        // P(best of 3 is i) = ((i+1)^3 - i^3) / 1000.
        for (i, &c) in counts.iter().enumerate() {
            let expected = ((i + 1).pow(3) - i.pow(3)) as f64 / 1000.0;
            let got = c as f64 / 100_000.0;
            assert!((got - expected).abs() < 0.01, "{i}: {got} vs {expected}");
        }
    }
}
