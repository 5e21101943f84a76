//! [`GameFitness`]: a GA fitness for parameter sets measured by play. Genes are the values of
//! named SEARCH_TABLE/EVAL_TABLE elements (rounded, clamped to their declared ranges); the
//! organisms play as [`GamePlay`] says (raced pairs against a reference, and optionally
//! against each other). With the reference alone, fitness = rounds survived + mean score and
//! objective = the organism's Elo against the reference.

use super::play::GamePlay;
use super::race::RaceEntry;
use crate::spsa::chess::TunedElement;
use kestrel_ga::{Evaluation, FitnessFunction, RealGenome, RealSpace};
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, EngineParams};

/// Organisms (values of named elements) scored by play.
pub struct GameFitness {
    base: EngineParams,
    elements: Vec<TunedElement>,
    play: GamePlay,
    /// Hash of the base and reference values, for the fingerprint.
    values_hash: u64,
}

/// FNV-1a over parameter values: a checkpoint never resumes against other params.
pub(crate) fn values_hash(sets: &[&ParamValues]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for set in sets {
        for v in &set.values {
            for b in v.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    h
}

impl GameFitness {
    /// Checks the elements exist within the base params.
    pub fn new(
        base: EngineParams,
        elements: Vec<TunedElement>,
        play: GamePlay,
    ) -> Result<GameFitness, String> {
        if elements.is_empty() {
            return Err("game fitness needs at least one parameter".into());
        }
        let reference = play.reference();
        let values_hash =
            values_hash(&[&base.eval, &base.search, &reference.eval, &reference.search]);
        let fitness = GameFitness {
            base,
            elements,
            play,
            values_hash,
        };
        for e in &fitness.elements {
            fitness.range(e)?;
        }
        Ok(fitness)
    }

    /// The base params (start values and every value not evolved).
    pub fn base(&self) -> &EngineParams {
        &self.base
    }

    /// The evolved elements, in gene order.
    pub fn elements(&self) -> &[TunedElement] {
        &self.elements
    }

    /// How the organisms play.
    pub fn play(&self) -> &GamePlay {
        &self.play
    }

    /// The declared range of an element.
    fn range(&self, e: &TunedElement) -> Result<(i32, i32), String> {
        let (_, decl) = e.find(&self.base)?;
        Ok((decl.min, decl.max))
    }

    /// The GA space of the elements: their declared ranges, mutation `sigma` of the range.
    pub fn space(&self, sigma: f64) -> RealSpace {
        let ranges: Vec<(i32, i32)> = self
            .elements
            .iter()
            .map(|e| self.range(e).expect("checked in new"))
            .collect();
        RealSpace {
            min: ranges.iter().map(|r| f64::from(r.0)).collect(),
            max: ranges.iter().map(|r| f64::from(r.1)).collect(),
            sigma,
        }
    }

    /// The base params with the genes put in (rounded, clamped to the declared ranges).
    pub fn params_of(&self, genes: &[f64]) -> Result<EngineParams, String> {
        let mut params = self.base.clone();
        for (e, &g) in self.elements.iter().zip(genes) {
            let (lo, hi) = self.range(e)?;
            let v = (g.round() as i64).clamp(i64::from(lo), i64::from(hi)) as i32;
            e.set(&mut params, v)?;
        }
        Ok(params)
    }

    fn config(&self, genes: &[f64]) -> EngineConfig {
        // Genes are clamped into the checked ranges, so this cannot fail.
        self.play
            .config(&self.params_of(genes).expect("elements checked in new"))
    }

    /// Every organism's race against the reference on the openings of `sample_seed`.
    pub fn measure(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<RaceEntry> {
        let configs: Vec<EngineConfig> = genomes.iter().map(|g| self.config(&g.0)).collect();
        self.play.race_reference(sample_seed, &configs)
    }
}

impl FitnessFunction<RealGenome> for GameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        let configs: Vec<EngineConfig> = genomes.iter().map(|g| self.config(&g.0)).collect();
        self.play.evaluate(sample_seed, &configs)
    }

    /// The race needs the whole population in one call.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        let names: Vec<String> = self
            .elements
            .iter()
            .map(|e| format!("{}:{}", e.section, e.name))
            .collect();
        format!(
            "games {} | {} | values {:016x}",
            names.join(","),
            self.play.fingerprint(),
            self.values_hash
        )
    }
}
