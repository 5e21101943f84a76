//! [`GameFitness`]: a GA fitness for parameter sets measured by play. Genes are the values of
//! named SEARCH_TABLE/EVAL_TABLE elements (rounded, clamped to their declared ranges); every
//! organism plays game pairs (one opening, organism White then the reference White) against a
//! reference engine (default: the current defaults), raced by [`super::race`]. Fitness =
//! rounds survived + mean score; objective = the organism's Elo against the reference. The
//! openings of a generation come from its sample seed; at fixed nodes or depth the scores are
//! the same on any thread count.

use super::race::{RaceEntry, RaceSettings, race};
use crate::spsa::chess::TunedElement;
use crate::spsa::step::iteration_rng;
use kestrel_ga::{Evaluation, FitnessFunction, RealGenome, RealSpace};
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::builtin::BuiltinPlayer;
use kestrel_tools::match_runner::outcome_for_a;
use kestrel_tools::{GameSettings, Opening, Outcome, play_game};
use rand::Rng;

/// The pieces of a [`GameFitness`] a cluster spec is written from.
pub(crate) struct Parts<'a> {
    pub base: &'a EngineParams,
    pub reference: &'a EngineParams,
    pub elements: &'a [TunedElement],
    pub game: &'a GameSettings,
    pub race: RaceSettings,
    pub hash_mb: usize,
    pub openings: &'a [Opening],
}

/// Elo reported for a score of 0% or 100% (the GA's log needs finite numbers).
const ELO_CAP: f64 = 1000.0;

/// Organisms scored by racing game pairs against a reference.
pub struct GameFitness {
    base: EngineParams,
    elements: Vec<TunedElement>,
    /// The reference's values (what a cluster spec ships) and its engine configuration.
    reference_params: EngineParams,
    reference: EngineConfig,
    openings: Vec<Opening>,
    game: GameSettings,
    race: RaceSettings,
    hash_mb: usize,
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
    /// Checks the elements exist, the openings are there and the race settings are sound.
    pub fn new(
        base: EngineParams,
        elements: Vec<TunedElement>,
        reference: EngineParams,
        openings: Vec<Opening>,
        game: GameSettings,
        race: RaceSettings,
        hash_mb: usize,
    ) -> Result<GameFitness, String> {
        race.validate()?;
        if openings.is_empty() {
            return Err("game fitness needs at least one opening".into());
        }
        if elements.is_empty() {
            return Err("game fitness needs at least one parameter".into());
        }
        let hash_mb = hash_mb.max(1);
        let values_hash =
            values_hash(&[&base.eval, &base.search, &reference.eval, &reference.search]);
        let mut reference_config = EngineConfig {
            hash_mb,
            ..EngineConfig::default()
        };
        reference.apply_to(&mut reference_config);
        let fitness = GameFitness {
            base,
            elements,
            reference_params: reference,
            reference: reference_config,
            openings,
            game,
            race,
            hash_mb,
            values_hash,
        };
        for e in &fitness.elements {
            fitness.range(e)?;
        }
        Ok(fitness)
    }

    /// What the fitness is made of, for its cluster spec ([`super::remote`]).
    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts {
            base: &self.base,
            reference: &self.reference_params,
            elements: &self.elements,
            game: &self.game,
            race: self.race,
            hash_mb: self.hash_mb,
            openings: &self.openings,
        }
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
        let mut config = EngineConfig {
            hash_mb: self.hash_mb,
            ..EngineConfig::default()
        };
        // Genes are clamped into the checked ranges, so this cannot fail.
        self.params_of(genes)
            .expect("elements checked in new")
            .apply_to(&mut config);
        config
    }

    /// One pair of `config` against the reference from fresh engines: its two outcomes.
    fn play_pair(&self, config: &EngineConfig, opening: &Opening) -> (Outcome, Outcome) {
        let mut me = BuiltinPlayer::new("organism".into(), config.clone());
        let mut other = BuiltinPlayer::new("reference".into(), self.reference.clone());
        let first = play_game(&mut me, &mut other, opening, &self.game);
        let second = play_game(&mut other, &mut me, opening, &self.game);
        (outcome_for_a(0, &first), outcome_for_a(1, &second))
    }

    /// Every organism's race on the openings of `sample_seed`.
    pub fn measure(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<RaceEntry> {
        let configs: Vec<EngineConfig> = genomes.iter().map(|g| self.config(&g.0)).collect();
        let most = self.race.pairs_after(self.race.rounds);
        let mut rng = iteration_rng(sample_seed, 0);
        let picks: Vec<usize> = (0..most)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect();
        race(&self.race, genomes.len(), &|c, j| {
            self.play_pair(&configs[c], &self.openings[picks[j]])
        })
    }
}

impl FitnessFunction<RealGenome> for GameFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        self.measure(sample_seed, genomes)
            .iter()
            .map(|e| Evaluation {
                fitness: e.fitness(),
                objective: e.penta.elo().clamp(-ELO_CAP, ELO_CAP),
            })
            .collect()
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
            "games {} | {} | race {:?} | {} openings | hash {} | values {:016x}",
            names.join(","),
            self.game.limit,
            self.race,
            self.openings.len(),
            self.hash_mb,
            self.values_hash
        )
    }
}
