//! SPSA's game pairs as data for cluster workers (registered as `spsa`): the base values, the
//! tuned elements by name, the limit and move cut, pairs per iteration, seed and the openings
//! as one blob. A worker rebuilds the very [`PairsFitness`] the leader runs (same fingerprint),
//! so a run on Ray equals the run in process.

use super::chess::TunedElement;
use super::pairs::PairsFitness;
use crate::games::remote::{LimitSpec, game_settings, params};
use crate::openings::{get_openings, put_openings};
use kestrel_ga::RealGenome;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use serde::{Deserialize, Serialize};

/// Everything a worker needs to rebuild a [`PairsFitness`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaPairsSpec {
    /// The base engine's EVAL_TABLE values, before the tuned elements are set.
    pub base_eval: Vec<i32>,
    /// The base engine's SEARCH_TABLE values, before the tuned elements are set.
    pub base_search: Vec<i32>,
    /// (section, element name) of every tuned value.
    pub elements: Vec<(String, String)>,
    /// Every game's limit.
    pub limit: LimitSpec,
    /// Games are drawn after this many moves (`None`: no move cut).
    pub max_moves: Option<usize>,
    /// Game pairs per iteration (at least 1).
    pub pairs: usize,
    /// Hash table per engine, MB.
    pub hash_mb: usize,
    /// Run seed; with the iteration it picks each pair's opening.
    pub seed: u64,
    /// Blob hash: the openings.
    pub openings: String,
}

impl SpsaPairsSpec {
    /// The spec of `fitness` with its openings stored in `store`; game settings that cannot
    /// be written as a limit and a move cut are refused.
    pub fn store(fitness: &PairsFitness, store: &BlobStore) -> Result<SpsaPairsSpec, String> {
        let max_moves = fitness.game.adjudication.move_limit.map(|m| m.moves);
        if game_settings(fitness.game.limit, max_moves) != fitness.game {
            return Err("these game settings cannot be sent to workers".into());
        }
        Ok(SpsaPairsSpec {
            base_eval: fitness.base.eval.values.clone(),
            base_search: fitness.base.search.values.clone(),
            elements: fitness
                .elements
                .iter()
                .map(|e| (e.section.to_string(), e.name.clone()))
                .collect(),
            limit: LimitSpec::of(fitness.game.limit),
            max_moves,
            pairs: fitness.pairs,
            hash_mb: fitness.hash_mb,
            seed: fitness.seed,
            openings: put_openings(store, &fitness.openings)?,
        })
    }

    /// The fitness this spec describes.
    pub fn fitness(&self, store: &BlobStore) -> Result<PairsFitness, String> {
        let elements = self
            .elements
            .iter()
            .map(|(s, name)| TunedElement::new(s, name))
            .collect::<Result<Vec<_>, String>>()?;
        PairsFitness::new(
            params(&self.base_eval, &self.base_search)?,
            elements,
            get_openings(store, &self.openings)?,
            self.pairs,
            game_settings(self.limit.limit(), self.max_moves),
            self.hash_mb,
            self.seed,
        )
    }
}

impl FitnessSpec for SpsaPairsSpec {
    const KIND: &'static str = "spsa";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        Ok(remote_fitness::<RealGenome, _>(self.fitness(blobs)?))
    }
}
