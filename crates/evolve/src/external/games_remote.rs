//! The games GA over an external engine's options as data for cluster workers (registered
//! as `games-external`): the engine, its genes, the opponents, the limit, the race and the
//! openings as one blob. A worker checks every engine starts on its machine when it builds
//! the fitness (an error naming the worker's host otherwise). A generation's race is one job
//! (its rounds depend on the scores so far); the worker's games and faults come back with
//! its reply, so faults.csv counts every game wherever it was played.

use super::engine::ExternalEngine;
use super::ga::{ExternalGameFitness, Gene, Opponent};
use super::remote::{ExternalGameSpec, probe_here};
use crate::games::RaceSettings;
use crate::openings::{get_openings, put_openings};
use kestrel_ga::RealGenome;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use serde::{Deserialize, Serialize};

/// Everything a worker needs to rebuild an [`ExternalGameFitness`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalGamesSpec {
    /// The engine under tuning and its fixed options.
    pub engine: ExternalEngine,
    /// The evolved options.
    pub genes: Vec<Gene>,
    /// The opponents, one drawn per pair.
    pub opponents: Vec<Opponent>,
    /// Limit, move cut and time margin (flattened into the same JSON object).
    #[serde(flatten)]
    pub game: ExternalGameSpec,
    /// Pairs of the race's first round.
    pub first_pairs: usize,
    /// Race rounds.
    pub rounds: usize,
    /// Share of the survivors kept each round.
    pub keep: f64,
    /// Growth of a survivor's pairs per round.
    pub growth: usize,
    /// Blob hash: the openings.
    pub openings: String,
}

impl ExternalGamesSpec {
    /// The spec of `fitness` with its openings stored in `store`; game settings that cannot
    /// be written as a limit, a move cut and a time margin are refused.
    pub fn store(
        fitness: &ExternalGameFitness,
        store: &BlobStore,
    ) -> Result<ExternalGamesSpec, String> {
        let race = fitness.race();
        Ok(ExternalGamesSpec {
            engine: fitness.engine().clone(),
            genes: fitness.genes().to_vec(),
            opponents: fitness.opponents().to_vec(),
            game: ExternalGameSpec::of(fitness.game())?,
            first_pairs: race.first_pairs,
            rounds: race.rounds,
            keep: race.keep,
            growth: race.growth,
            openings: put_openings(store, fitness.openings())?,
        })
    }

    /// The fitness this spec describes, after checking every engine starts here.
    pub fn fitness(&self, store: &BlobStore) -> Result<ExternalGameFitness, String> {
        let engines = std::iter::once(&self.engine).chain(self.opponents.iter().map(|o| &o.engine));
        let mut probed: Vec<&ExternalEngine> = Vec::new();
        for engine in engines {
            if !probed.contains(&engine) {
                probe_here(engine)?;
                probed.push(engine);
            }
        }
        let race = RaceSettings {
            first_pairs: self.first_pairs,
            rounds: self.rounds,
            keep: self.keep,
            growth: self.growth,
        };
        ExternalGameFitness::new(
            self.engine.clone(),
            self.genes.clone(),
            self.opponents.clone(),
            get_openings(store, &self.openings)?,
            self.game.settings(),
            race,
        )
    }
}

impl FitnessSpec for ExternalGamesSpec {
    const KIND: &'static str = "games-external";
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
    use crate::external::remote::host_name;
    use crate::games::game_settings;
    use crate::spsa::SpsaParam;
    use kestrel_ga::FitnessFunction;
    use kestrel_tools::{Limit, Opening};
    use std::time::Duration;

    fn gene() -> Gene {
        Gene {
            param: SpsaParam {
                name: "Accuracy".into(),
                start: 40.0,
                min: 0.0,
                max: 200.0,
                c_end: 10.0,
                r_end: 0.002,
                float: false,
            },
            check: false,
        }
    }

    fn fitness(engine: &str, opponent: &str) -> ExternalGameFitness {
        let race = RaceSettings {
            first_pairs: 2,
            rounds: 2,
            keep: 0.5,
            growth: 2,
        };
        let mut game = game_settings(Limit::Nodes(100), Some(60));
        game.time_margin = Duration::from_millis(250);
        let opponent = Opponent {
            engine: ExternalEngine::new(opponent, &[], Vec::new()),
            options: vec![("Accuracy".into(), "40".into())],
        };
        ExternalGameFitness::new(
            ExternalEngine::new(engine, &[], vec![("Hash".into(), "1".into())]),
            vec![gene()],
            vec![opponent],
            vec![Opening::startpos()],
            game,
            race,
        )
        .unwrap()
    }

    #[test]
    fn the_spec_round_trips_and_a_worker_without_an_opponent_names_itself() {
        let dir = std::env::temp_dir().join(format!("kestrel-ext-games-{}", std::process::id()));
        let store = BlobStore::new(&dir);
        let leader = fitness("/nonexistent/tuned-engine", "/nonexistent/opponent-engine");
        let spec = ExternalGamesSpec::store(&leader, &store).unwrap();
        let json = serde_json::to_value(&spec).unwrap();
        let back: ExternalGamesSpec = serde_json::from_value(json).unwrap();
        assert_eq!(back, spec);
        assert_eq!(back.game.time_margin_ms, 250);
        assert_eq!(back.genes, vec![gene()]);
        let err = back.fitness(&store).err().unwrap();
        assert!(
            err.starts_with(&format!("worker on {}: ", host_name())),
            "{err}"
        );
        assert!(err.contains("/nonexistent/tuned-engine"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_workers_report_adds_to_the_leaders_tally_and_failure() {
        let worker = fitness("/nonexistent/a", "/nonexistent/b");
        let leader = fitness("/nonexistent/a", "/nonexistent/b");
        assert_eq!(worker.take_tally().games, 0);
        let report = worker.take_report().unwrap();
        leader.absorb_report(&report).unwrap();
        leader.absorb_report(&report).unwrap();
        assert_eq!(leader.take_tally().games, 0);
        assert!(leader.failure().is_none());
        let failed = serde_json::json!({
            "tally": {"games": 6, "faults": {"crashes": 1, "hangs": 0, "illegal_moves": 0, "time_losses": 2, "replays": 1}},
            "failure": "a game pair failed 3 times in a row"
        });
        leader.absorb_report(&failed).unwrap();
        leader.absorb_report(&failed).unwrap();
        let tally = leader.take_tally();
        assert_eq!(tally.games, 12);
        assert_eq!(tally.faults.crashes, 2);
        assert_eq!(tally.faults.time_losses, 4);
        assert_eq!(tally.faults.replays, 2);
        assert_eq!(
            leader.failure().unwrap(),
            "a game pair failed 3 times in a row"
        );
        let err = leader
            .absorb_report(&serde_json::json!({"games": "many"}))
            .unwrap_err();
        assert!(err.contains("malformed games tally"), "{err}");
    }
}
