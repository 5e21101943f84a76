//! The round-robin fitness as data for cluster workers: the game settings plus the opening
//! FENs as one blob (shipped once per node).

use crate::cluster::remote_fitness;
use crate::cluster::{BlobStore, FitnessSpec, RemoteFitness, get_lines, parse_spec, put_lines};
use crate::tournament::{Organism, RoundRobinFitness, TournamentSpec};
use serde::{Deserialize, Serialize};

/// A [`TournamentSpec`] with its openings replaced by a blob hash: the leader's spec travels
/// whole (every game setting) with its `openings` left empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRobinRemoteSpec {
    /// The game settings, `openings` empty.
    pub spec: TournamentSpec,
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
            spec: TournamentSpec {
                openings: Vec::new(),
                ..spec.clone()
            },
            openings: put_lines(store, &spec.openings)?,
        })
    }
}

/// The registry builder of `"tournament"` jobs.
pub fn build_remote(
    spec: &serde_json::Value,
    blobs: &BlobStore,
) -> Result<Box<dyn RemoteFitness>, String> {
    let remote: RoundRobinRemoteSpec = parse_spec(spec)?;
    let fitness = RoundRobinFitness::build(TournamentSpec {
        openings: get_lines(blobs, &remote.openings)?,
        ..remote.spec
    })?;
    Ok(remote_fitness::<Organism, _>(fitness))
}
