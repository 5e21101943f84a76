//! Multi-niche crowding settings (defaults: Phoenix's population of 20 and stop rules).

use kestrel_ga::Crossover;
use serde::{Deserialize, Serialize};

/// When a run stops (whichever comes first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MncTermination {
    /// Generations evaluated (Phoenix: 1,000).
    pub generations: u64,
    /// Stop when the best organism has been the same one for this many generations (10).
    pub best_unchanged: Option<u64>,
    /// Stop when the best chromosome moved less than `percent` of the value range from one
    /// generation to the next for `generations` generations in a row (1%, 20).
    pub small_change: Option<SmallChange>,
}

/// The "best changes less than 1% for 20 generations" rule.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmallChange {
    /// Threshold as a percentage of the table value range (255 cp); default 1.
    pub percent: f64,
    /// Generations in a row the change must stay below the threshold (default 20).
    pub generations: u64,
}

/// Where the first population comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MncInit {
    /// Random tables (Phoenix's own start; see `init_range`).
    #[default]
    Random,
    /// Kestrel's tables (the defaults) and mutants of them, as Phoenix's children started
    /// from their parent: organism 0 is the defaults' chromosome, every other one a copy
    /// mutated by the run's own mutation operator.
    Defaults,
}

impl MncInit {
    /// True for the default (left out of checkpoints, so older runs resume).
    pub fn is_random(&self) -> bool {
        *self == MncInit::Random
    }
}

/// Everything that defines an MNC run but its fitness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MncSettings {
    /// Organisms in the population (Phoenix: 20; at least 2).
    pub population: usize,
    /// Children bred (and inserted one at a time) per generation.
    pub offspring: usize,
    /// C_s: random candidates (with replacement) among which a parent's mate is the most
    /// similar.
    pub selection_crowd: usize,
    /// C_f: crowding factor groups in the replacement.
    pub replacement_groups: usize,
    /// s: individuals per crowding factor group.
    pub group_size: usize,
    /// How two parents' genes are recombined (default uniform).
    pub crossover: Crossover,
    /// Probability that a mating recombines (otherwise the child is a mutated copy).
    pub crossover_rate: f64,
    /// Per-gene mutation probability.
    pub mutation_rate: f64,
    /// Gaussian mutation step, as a fraction of the value range (255).
    pub mutation_sigma: f64,
    /// Organisms within this phenotypic distance (cp) of a niche's leader belong to it.
    pub niche_radius: f64,
    /// The initial population's genes are uniform in `[-r, r]` cp (within the table range);
    /// `None`: the whole table range.
    #[serde(default)]
    pub init_range: Option<f64>,
    /// Where the first population comes from.
    #[serde(default, skip_serializing_if = "MncInit::is_random")]
    pub init: MncInit,
    /// When the run stops.
    pub termination: MncTermination,
    /// Seed of every random draw of the run (default 1).
    pub seed: u64,
}

impl Default for MncSettings {
    fn default() -> Self {
        MncSettings {
            population: 20,
            offspring: 10,
            selection_crowd: 3,
            replacement_groups: 3,
            group_size: 3,
            crossover: Crossover::Uniform,
            crossover_rate: 0.9,
            mutation_rate: 0.05,
            mutation_sigma: 0.05,
            niche_radius: 30.0,
            init_range: None,
            init: MncInit::Random,
            termination: MncTermination {
                generations: 1000,
                best_unchanged: Some(10),
                small_change: Some(SmallChange {
                    percent: 1.0,
                    generations: 20,
                }),
            },
            seed: 1,
        }
    }
}

impl MncSettings {
    /// Rejects settings that cannot run.
    pub fn validate(&self) -> Result<(), String> {
        if self.population < 2 {
            return Err("population must be at least 2".into());
        }
        if self.offspring == 0 {
            return Err("at least one child per generation is needed".into());
        }
        if self.selection_crowd == 0 || self.replacement_groups == 0 || self.group_size == 0 {
            return Err("C_s, C_f and s must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.crossover_rate) || !(0.0..=1.0).contains(&self.mutation_rate)
        {
            return Err("crossover and mutation rates must be within [0, 1]".into());
        }
        if !(self.mutation_sigma > 0.0 && self.mutation_sigma <= 1.0) {
            return Err("mutation sigma must be within (0, 1]".into());
        }
        if let Crossover::Blend { alpha } = self.crossover
            && !(0.0..=10.0).contains(&alpha)
        {
            return Err("blend alpha must be within [0, 10]".into());
        }
        if self.niche_radius.is_nan() || self.niche_radius < 0.0 {
            return Err("niche radius must be at least 0".into());
        }
        if self
            .init_range
            .is_some_and(|r| !(r.is_finite() && r >= 0.0))
        {
            return Err("the initial range must be a number of centipawns >= 0".into());
        }
        if self.init == MncInit::Defaults && self.init_range.is_some() {
            return Err(
                "--init-range draws random tables; it makes no sense with --init defaults".into(),
            );
        }
        if self.termination.generations == 0 {
            return Err("at least one generation is needed".into());
        }
        if let Some(s) = self.termination.small_change
            && !(s.percent >= 0.0 && s.generations > 0)
        {
            return Err("the small-change rule needs a percent >= 0 and generations >= 1".into());
        }
        Ok(())
    }
}
