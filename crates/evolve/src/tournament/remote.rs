//! The round-robin fitness as data for cluster workers: the game settings plus the opening
//! FENs as one blob (shipped once per node).

use crate::tournament::{Organism, RoundRobinFitness, TournamentSpec};
use kestrel_ga::cluster::remote_fitness;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, get_lines, put_lines};
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
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let fitness = RoundRobinFitness::build(TournamentSpec {
            openings: get_lines(blobs, &self.openings)?,
            ..self.spec.clone()
        })?;
        Ok(remote_fitness::<Organism, _>(fitness))
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
