//! The MNC tournament fitness as data for cluster workers: its spec (the book's path is only
//! a name there) plus the loaded openings as one blob, shipped once per node.

use crate::cluster::openings::{get_openings, put_openings};
use crate::cluster::{BlobStore, FitnessSpec, RemoteFitness, parse_spec, remote_fitness};
use crate::ga::RealGenome;
use crate::mnc::fitness::{TournamentFitness, TournamentSpec};
use serde::{Deserialize, Serialize};

/// A [`TournamentSpec`] and the blob holding its openings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MncRemoteSpec {
    pub spec: TournamentSpec,
    /// Blob hash: the openings (see `cluster::openings`).
    pub openings: String,
}

impl FitnessSpec for MncRemoteSpec {
    const KIND: &'static str = "mnc";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
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

/// The registry builder of `"mnc"` jobs.
pub fn build_remote(
    spec: &serde_json::Value,
    blobs: &BlobStore,
) -> Result<Box<dyn RemoteFitness>, String> {
    let spec: MncRemoteSpec = parse_spec(spec)?;
    spec.spec.validate()?;
    let openings = get_openings(blobs, &spec.openings)?;
    if openings.is_empty() {
        return Err("the opening blob holds no opening".into());
    }
    Ok(remote_fitness::<RealGenome, _>(
        TournamentFitness::with_openings(spec.spec, openings),
    ))
}
