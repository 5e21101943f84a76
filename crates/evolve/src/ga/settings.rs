//! GA settings (paper defaults) and termination rules.

use crate::ga::{Crossover, Selection};
use serde::{Deserialize, Serialize};

/// When a run stops (whichever comes first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Termination {
    /// Number of generations evaluated.
    pub generations: u64,
    /// Stop once the best fitness reaches this value.
    pub fitness_threshold: Option<f64>,
    /// Stop after this many generations without a new best fitness.
    pub stall_generations: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaSettings {
    pub population: usize,
    /// Probability that a selected pair is recombined (otherwise copied).
    pub crossover_rate: f64,
    pub crossover: Crossover,
    /// Per-gene mutation probability.
    pub mutation_rate: f64,
    pub selection: Selection,
    /// Best organisms copied unchanged into the next generation in place of the worst
    /// offspring ("replicate the best, delete the worst").
    pub elitism: usize,
    pub termination: Termination,
    pub seed: u64,
}

impl Default for GaSettings {
    /// The expert-driven GA paper's settings.
    fn default() -> Self {
        GaSettings {
            population: 1000,
            crossover_rate: 0.75,
            crossover: Crossover::SinglePoint,
            mutation_rate: 0.002,
            selection: Selection::Roulette,
            elitism: 1,
            termination: Termination {
                generations: 300,
                fitness_threshold: None,
                stall_generations: None,
            },
            seed: 1,
        }
    }
}

impl GaSettings {
    /// Rejects settings that cannot run.
    pub fn validate(&self) -> Result<(), String> {
        if self.population < 2 {
            return Err("population must be at least 2".into());
        }
        if !(0.0..=1.0).contains(&self.crossover_rate) {
            return Err("crossover rate must be within [0, 1]".into());
        }
        if !(0.0..=1.0).contains(&self.mutation_rate) {
            return Err("mutation rate must be within [0, 1]".into());
        }
        if self.elitism >= self.population {
            return Err("elitism must be smaller than the population".into());
        }
        if let Selection::Tournament { size } = self.selection
            && size == 0
        {
            return Err("tournament size must be at least 1".into());
        }
        if self.termination.generations == 0 {
            return Err("at least one generation is needed".into());
        }
        Ok(())
    }
}
