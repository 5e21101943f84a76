//! The search GA's fitness as data for cluster workers: the spec with its training suite
//! replaced by a blob (shipped once per node) and the genome kind the leader evolves.

use crate::cluster::{
    BlobStore, FitnessSpec, RemoteFitness, get_lines, parse_spec, put_lines, remote_fitness,
};
use crate::ga::{BitGenome, RealGenome};
use crate::mentor::organism::GenomeKind;
use crate::search::fitness::{Objective, SearchFitness, SearchFitnessSpec};
use crate::search::solve::CostRule;
use kestrel_params::Coding;
use serde::{Deserialize, Serialize};

/// A [`SearchFitnessSpec`] with the suite as a blob hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRemoteSpec {
    pub genome: GenomeKind,
    pub set: Vec<String>,
    pub coding: Coding,
    pub rule: CostRule,
    pub hash_mb: usize,
    /// What the GA minimises (the worker must score with the leader's objective).
    #[serde(default, skip_serializing_if = "Objective::is_sum")]
    pub objective: Objective,
    /// Blob hash: the training EPD lines.
    pub train: String,
}

impl FitnessSpec for SearchRemoteSpec {
    const KIND: &'static str = "search";
    fn blobs(&self) -> Vec<String> {
        vec![self.train.clone()]
    }
}

impl SearchRemoteSpec {
    /// Stores the suite of `spec` in `store` and returns the spec that names it.
    pub fn store(
        spec: &SearchFitnessSpec,
        genome: GenomeKind,
        store: &BlobStore,
    ) -> Result<Self, String> {
        Ok(SearchRemoteSpec {
            genome,
            set: spec.set.clone(),
            coding: spec.coding,
            rule: spec.rule,
            hash_mb: spec.hash_mb,
            objective: spec.objective,
            train: put_lines(store, &spec.train)?,
        })
    }
}

/// The registry builder of `"search"` jobs.
pub fn build_remote(
    spec: &serde_json::Value,
    blobs: &BlobStore,
) -> Result<Box<dyn RemoteFitness>, String> {
    let spec: SearchRemoteSpec = parse_spec(spec)?;
    let fitness = SearchFitness::build(SearchFitnessSpec {
        train: get_lines(blobs, &spec.train)?,
        set: spec.set,
        coding: spec.coding,
        rule: spec.rule,
        hash_mb: spec.hash_mb,
        objective: spec.objective,
    })?;
    Ok(match spec.genome {
        GenomeKind::Bits => remote_fitness::<BitGenome, _>(fitness),
        GenomeKind::Real => remote_fitness::<RealGenome, _>(fitness),
    })
}
