//! Whom an organism plays in the game fitness: the reference engine (raced), the other
//! members of the population, or both. Pairings within the population come from the
//! generation's sample seed alone: each cycle shuffles the population into a circle and pairs
//! every organism with its right-hand neighbour, so every organism plays two pairs per cycle
//! (one with each neighbour) and the schedule is the same wherever the fitness runs.

use crate::spsa::step::iteration_rng;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// Who the organisms play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opponents {
    /// Only the reference, raced (the fitness is rounds survived + score).
    #[default]
    Reference,
    /// Only each other (the fitness is the Elo fitted from the population's games).
    Population,
    /// The reference (raced) and each other (rounds survived + the fitted Elo's score).
    Both,
}

impl Opponents {
    /// True for the default (left out of specs and fingerprints, so older runs resume).
    pub fn is_reference(&self) -> bool {
        *self == Opponents::Reference
    }

    /// Whether organisms race against the reference.
    pub fn plays_reference(self) -> bool {
        self != Opponents::Population
    }

    /// Whether organisms play each other.
    pub fn plays_population(self) -> bool {
        self != Opponents::Reference
    }

    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Opponents::Reference => "reference",
            Opponents::Population => "population",
            Opponents::Both => "both",
        }
    }
}

/// One game pair between two organisms on one opening (index into the book).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// White in the pair's first game.
    pub a: usize,
    /// White in the second.
    pub b: usize,
    /// The pair's opening (index into the book).
    pub opening: usize,
}

/// Stream of the population schedule within a generation's sample seed (the race uses 0).
const PAIRING_STREAM: u64 = 1;

/// The population's pairs of one generation: `pairs_each` rounded up to an even number of
/// pairs per organism (two per cycle); none with fewer than two organisms.
pub fn population_pairings(
    players: usize,
    pairs_each: usize,
    openings: usize,
    sample_seed: u64,
) -> Vec<Pairing> {
    if players < 2 || openings == 0 {
        return Vec::new();
    }
    let mut rng = iteration_rng(sample_seed, PAIRING_STREAM);
    let mut out = Vec::new();
    for _ in 0..pairs_each.div_ceil(2) {
        let mut circle: Vec<usize> = (0..players).collect();
        circle.shuffle(&mut rng);
        for i in 0..players {
            out.push(Pairing {
                a: circle[i],
                b: circle[(i + 1) % players],
                opening: rng.random_range(0..openings),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_organism_plays_its_share_and_the_schedule_repeats() {
        let pairs = population_pairings(5, 3, 10, 7);
        // 3 rounds up to 4 pairs each: 2 cycles of 5 pairs.
        assert_eq!(pairs.len(), 10);
        for p in 0..5 {
            let mine = pairs.iter().filter(|x| x.a == p || x.b == p).count();
            assert_eq!(mine, 4, "{pairs:?}");
        }
        assert!(pairs.iter().all(|x| x.a != x.b && x.opening < 10));
        assert_eq!(pairs, population_pairings(5, 3, 10, 7));
        assert_ne!(pairs, population_pairings(5, 3, 10, 8));
        assert!(population_pairings(1, 3, 10, 7).is_empty());
        assert_eq!(population_pairings(2, 1, 10, 7).len(), 2);
    }
}
