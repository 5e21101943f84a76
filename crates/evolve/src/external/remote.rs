//! An external engine's SPSA pairs as data for cluster workers (registered as
//! `spsa-external`): the engine's command and fixed options, the tuned options, the limit,
//! pairs, seed and the openings as one blob. Each worker checks the engine starts on its
//! machine when it builds the fitness (an error naming the worker's host otherwise); a job
//! lost with its worker is run again by the executor, so its pairs are replayed, not lost.

use super::engine::ExternalEngine;
use super::pairs::ExternalPairs;
use crate::games::remote::{LimitSpec, game_settings};
use crate::openings::{get_openings, put_openings};
use crate::spsa::SpsaParam;
use kestrel_ga::RealGenome;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_tools::GameSettings;
use serde::{Deserialize, Serialize};

/// Everything a worker needs to rebuild an [`ExternalPairs`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalPairsSpec {
    /// The engine and its fixed options.
    pub engine: ExternalEngine,
    /// The tuned options.
    pub params: Vec<SpsaParam>,
    /// Limit, move cut and time margin (flattened into the same JSON object).
    #[serde(flatten)]
    pub game: ExternalGameSpec,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// The seed of the opening picks.
    pub seed: u64,
    /// Blob hash: the openings.
    pub openings: String,
}

/// An external engine's game settings as data: a limit, a move cut and a time margin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalGameSpec {
    /// Every game's limit.
    pub limit: LimitSpec,
    /// Games are drawn after this many moves.
    pub max_moves: Option<usize>,
    /// Clock overrun tolerated before a loss on time, ms.
    pub time_margin_ms: u64,
}

impl ExternalGameSpec {
    /// The spec of `game`; settings that cannot be written as a limit, a move cut and a time
    /// margin are refused.
    pub fn of(game: &GameSettings) -> Result<ExternalGameSpec, String> {
        let spec = ExternalGameSpec {
            limit: LimitSpec::of(game.limit),
            max_moves: game.adjudication.move_limit.map(|m| m.moves),
            time_margin_ms: game.time_margin.as_millis() as u64,
        };
        if spec.settings() != *game {
            return Err("these game settings cannot be sent to workers".into());
        }
        Ok(spec)
    }

    /// The game settings this spec describes.
    pub fn settings(&self) -> GameSettings {
        let mut game = game_settings(self.limit.limit(), self.max_moves);
        game.time_margin = std::time::Duration::from_millis(self.time_margin_ms);
        game
    }
}

/// Checks `engine` starts on this machine; the error names the machine.
pub(crate) fn probe_here(engine: &ExternalEngine) -> Result<(), String> {
    engine
        .probe()
        .map(drop)
        .map_err(|e| format!("worker on {}: {e}", host_name()))
}

impl ExternalPairsSpec {
    /// The spec of `fitness` with its openings stored in `store`.
    pub fn store(fitness: &ExternalPairs, store: &BlobStore) -> Result<ExternalPairsSpec, String> {
        Ok(ExternalPairsSpec {
            engine: fitness.engine().clone(),
            params: fitness.params().to_vec(),
            game: ExternalGameSpec::of(fitness.game())?,
            pairs: fitness.pairs(),
            seed: fitness.seed(),
            openings: put_openings(store, fitness.openings())?,
        })
    }

    /// The fitness this spec describes, after checking the engine starts here.
    pub fn fitness(&self, store: &BlobStore) -> Result<ExternalPairs, String> {
        probe_here(&self.engine)?;
        ExternalPairs::new(
            self.engine.clone(),
            self.params.clone(),
            get_openings(store, &self.openings)?,
            self.pairs,
            self.game.settings(),
            self.seed,
        )
    }
}

/// This machine's name, for errors a worker reports.
pub(crate) fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "an unnamed host".into())
}

impl FitnessSpec for ExternalPairsSpec {
    const KIND: &'static str = "spsa-external";
    fn blobs(&self) -> Vec<String> {
        vec![self.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        Ok(remote_fitness::<RealGenome, _>(self.fitness(blobs)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_tools::{Limit, Opening};

    #[test]
    fn a_worker_without_the_engine_names_itself_and_the_path() {
        let dir = std::env::temp_dir().join(format!("kestrel-ext-spec-{}", std::process::id()));
        let store = BlobStore::new(&dir);
        let engine = ExternalEngine::new("/nonexistent/engine-on-this-worker", &[], Vec::new());
        let fitness = ExternalPairs::new(
            engine,
            Vec::new(),
            vec![Opening::startpos()],
            2,
            game_settings(Limit::Nodes(100), Some(50)),
            1,
        )
        .unwrap();
        let spec = ExternalPairsSpec::store(&fitness, &store).unwrap();
        let json = serde_json::to_value(&spec).unwrap();
        let back: ExternalPairsSpec = serde_json::from_value(json).unwrap();
        assert_eq!(back, spec);
        let err = back.fitness(&store).err().unwrap();
        assert!(
            err.starts_with(&format!("worker on {}: ", host_name())),
            "{err}"
        );
        assert!(
            err.contains("cannot run '/nonexistent/engine-on-this-worker'"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
