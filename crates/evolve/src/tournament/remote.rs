//! The round-robin fitness as data for cluster workers: the game settings plus the opening
//! FENs as one blob (shipped once per node).

use crate::cluster::remote_fitness;
use crate::cluster::{BlobStore, FitnessSpec, RemoteFitness, get_lines, parse_spec, put_lines};
use crate::tournament::{Organism, RoundRobinFitness, TournamentSpec};
use serde::{Deserialize, Serialize};

/// A [`TournamentSpec`] with its openings replaced by a blob hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRobinRemoteSpec {
    pub depth: i32,
    pub max_moves: usize,
    pub margin_cp: i32,
    /// Blob hash: the opening FENs, one per line.
    pub openings: String,
}

impl FitnessSpec for RoundRobinRemoteSpec {
    const KIND: &'static str = "tournament";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
    }
}

impl RoundRobinRemoteSpec {
    /// Stores the spec's openings in `store` and returns the spec that names them.
    pub fn store(spec: &TournamentSpec, store: &BlobStore) -> Result<Self, String> {
        Ok(RoundRobinRemoteSpec {
            depth: spec.depth,
            max_moves: spec.max_moves,
            margin_cp: spec.margin_cp,
            openings: put_lines(store, &spec.openings)?,
        })
    }
}

/// The registry builder of `"tournament"` jobs.
pub fn build_remote(
    spec: &serde_json::Value,
    blobs: &BlobStore,
) -> Result<Box<dyn RemoteFitness>, String> {
    let spec: RoundRobinRemoteSpec = parse_spec(spec)?;
    let fitness = RoundRobinFitness::build(TournamentSpec {
        depth: spec.depth,
        max_moves: spec.max_moves,
        margin_cp: spec.margin_cp,
        openings: get_lines(blobs, &spec.openings)?,
    })?;
    Ok(remote_fitness::<Organism, _>(fitness))
}
