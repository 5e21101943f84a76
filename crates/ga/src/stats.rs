//! One line of the per-generation log.

use serde::{Deserialize, Serialize};

/// Summary of one evaluated generation (one line of the CSV log).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// Generation number, from 0.
    pub generation: u64,
    /// Objective of the fittest organism (e.g. mean |error| in centipawns).
    pub best_objective: f64,
    /// Mean objective over the population.
    pub mean_objective: f64,
    /// Highest fitness in the generation.
    pub best_fitness: f64,
    /// Mean fitness over the population.
    pub mean_fitness: f64,
    /// Population spread in [0, 1] (see `Genome::diversity`).
    pub diversity: f64,
    /// Wall time since the previous generation's line (breeding, checkpoint hand-off and this
    /// evaluation), in seconds: the only non-reproducible column.
    pub seconds: f64,
}
