//! GA settings (paper defaults) and termination rules.

use crate::{Crossover, Selection};
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

/// A Gaussian mutation step (standard deviation as a fraction of each gene's range) that
/// shrinks geometrically from `start` in the first generation to `end` in the last: large
/// steps explore early, small ones refine late. Real genomes only.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepSchedule {
    /// Step in the first generation (fraction of the gene's range, in (0, 1]).
    pub start: f64,
    /// Step in the last generation (fraction of the gene's range, in (0, 1]).
    pub end: f64,
}

impl StepSchedule {
    /// The step used when breeding from `generation` in a run of `generations`.
    pub fn at(&self, generation: u64, generations: u64) -> f64 {
        let t = if generations > 1 {
            (generation as f64 / (generations - 1) as f64).min(1.0)
        } else {
            0.0
        };
        self.start * (self.end / self.start).powf(t)
    }
}

/// Parameters of a generational GA run; the defaults are the expert-driven GA paper's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaSettings {
    /// Organisms per generation (at least 2; default 1000).
    pub population: usize,
    /// Probability that a selected pair is recombined (otherwise copied).
    pub crossover_rate: f64,
    /// How selected pairs exchange genes (default single point).
    pub crossover: Crossover,
    /// Per-gene mutation probability.
    pub mutation_rate: f64,
    /// How parents are chosen (default roulette).
    pub selection: Selection,
    /// Best organisms copied unchanged into the next generation in place of the worst
    /// offspring ("replicate the best, delete the worst").
    pub elitism: usize,
    /// When the run stops (default 300 generations).
    pub termination: Termination,
    /// Seeds every random stream of the run (initial population, samples, breeding); default 1.
    pub seed: u64,
    /// Annealed mutation step for real genomes (`None`: the genome space's fixed step). Left
    /// out of checkpoints when unset, so bit-string runs write what they always wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation_step: Option<StepSchedule>,
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
            mutation_step: None,
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
        if let Crossover::Blend { alpha } = self.crossover
            && !(0.0..=10.0).contains(&alpha)
        {
            return Err("blend alpha must be within [0, 10]".into());
        }
        if let Some(step) = self.mutation_step
            && !(step.start > 0.0 && step.start <= 1.0 && step.end > 0.0 && step.end <= 1.0)
        {
            return Err("mutation step start and end must be within (0, 1]".into());
        }
        if self.termination.generations == 0 {
            return Err("at least one generation is needed".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_schedule_runs_from_start_to_end() {
        let s = StepSchedule {
            start: 0.1,
            end: 0.001,
        };
        assert_eq!(s.at(0, 101), 0.1);
        assert!((s.at(50, 101) - 0.01).abs() < 1e-12);
        assert!((s.at(100, 101) - 0.001).abs() < 1e-12);
        assert_eq!(s.at(0, 1), 0.1);
    }

    #[test]
    fn bad_real_settings_are_rejected() {
        let blend = GaSettings {
            crossover: Crossover::Blend { alpha: -0.5 },
            ..GaSettings::default()
        };
        assert!(blend.validate().unwrap_err().contains("alpha"));
        let step = GaSettings {
            mutation_step: Some(StepSchedule {
                start: 0.0,
                end: 0.1,
            }),
            ..GaSettings::default()
        };
        assert!(step.validate().unwrap_err().contains("step"));
    }
}
