//! The search GA's fitness as data for cluster workers: the spec with its training suite
//! replaced by a blob (shipped once per node) and the genome kind the leader evolves.

use crate::mentor::organism::GenomeKind;
use crate::search::fitness::{SearchFitness, SearchFitnessSpec};
use kestrel_ga::cluster::{
    BlobStore, FitnessSpec, RemoteFitness, get_lines, put_lines, remote_fitness,
};
use kestrel_ga::{BitGenome, RealGenome};
use serde::{Deserialize, Serialize};

/// A [`SearchFitnessSpec`] with the suite as a blob hash: the leader's spec travels whole
/// (every setting, so a new one reaches the workers by itself) with its `train` lines left empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRemoteSpec {
    /// Bit or real genomes (the kind the leader evolves).
    pub genome: GenomeKind,
    /// The fitness settings, `train` empty.
    pub spec: SearchFitnessSpec,
    /// Blob hash: the training EPD lines.
    pub train: String,
}

impl FitnessSpec for SearchRemoteSpec {
    const KIND: &'static str = "search";
    fn blobs(&self) -> Vec<String> {
        vec![self.train.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let fitness = SearchFitness::build(SearchFitnessSpec {
            train: get_lines(blobs, &self.train)?,
            ..self.spec.clone()
        })?;
        Ok(match self.genome {
            GenomeKind::Bits => remote_fitness::<BitGenome, _>(fitness),
            GenomeKind::Real => remote_fitness::<RealGenome, _>(fitness),
        })
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
            spec: SearchFitnessSpec {
                train: Vec::new(),
                ..spec.clone()
            },
            train: put_lines(store, &spec.train)?,
        })
    }
}
