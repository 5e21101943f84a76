//! The MNC tournament fitness as data for cluster workers: its spec (the book's path is only
//! a name there) plus the loaded openings as one blob, shipped once per node.

use crate::mnc::fitness::{TournamentFitness, TournamentSpec};
use crate::openings::{get_openings, put_openings};
use kestrel_ga::RealGenome;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use serde::{Deserialize, Serialize};

/// A [`TournamentSpec`] and the blob holding its openings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MncRemoteSpec {
    /// The tournament's settings (the openings path is only a name on a worker).
    pub spec: TournamentSpec,
    /// Blob hash: the openings (see `crate::openings`).
    pub openings: String,
}

impl FitnessSpec for MncRemoteSpec {
    const KIND: &'static str = "mnc";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        self.spec.validate()?;
        let openings = get_openings(blobs, &self.openings)?;
        if openings.is_empty() {
            return Err("the opening blob holds no opening".into());
        }
        Ok(remote_fitness::<RealGenome, _>(
            TournamentFitness::with_openings(self.spec.clone(), openings),
        ))
    }
}

impl MncRemoteSpec {
    /// Stores the fitness's openings in `store` and returns the spec that names them.
    pub fn store(fitness: &TournamentFitness, store: &BlobStore) -> Result<Self, String> {
        Ok(MncRemoteSpec {
            spec: fitness.spec.clone(),
            openings: put_openings(store, fitness.openings())?,
        })
    }
}
