//! The game fitness as data for cluster workers: the parameter values as plain numbers, the
//! tuned elements by name, and the games ([`PlaySpec`]: limit and move cut, race, opponents,
//! the openings as one blob shipped once per node). A worker rebuilds the very fitness the leader runs (same
//! fingerprint), so a run on Ray equals the run in process.

use super::fitness::GameFitness;
use super::opponents::Opponents;
use super::play::GamePlay;
use super::race::RaceSettings;
use crate::openings::{get_openings, put_openings};
use crate::spsa::chess::TunedElement;
use kestrel_eval::EVAL_TABLE;
use kestrel_ga::RealGenome;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RemoteFitness, remote_fitness};
use kestrel_params::ParamValues;
use kestrel_search::{EngineParams, SEARCH_TABLE};
use kestrel_tools::{GameSettings, Limit, MoveLimit, MoveLimitScoring};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A game's limit as data (the tools crate's [`Limit`] is not serialisable).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum LimitSpec {
    /// Fixed search depth per move, in plies.
    Depth(i32),
    /// Fixed node count per move.
    Nodes(u64),
    /// Fixed thinking time per move, in milliseconds.
    MoveTimeMs(u64),
    /// A chess clock, in milliseconds.
    ClockMs {
        /// Time for the whole game, in milliseconds.
        base: u64,
        /// Time added after every move, in milliseconds.
        increment: u64,
        /// Nodes as time (absent in specs written before it existed: the wall clock).
        #[serde(default)]
        nodes_per_ms: Option<u64>,
    },
}

impl LimitSpec {
    /// The spec of `limit`.
    pub fn of(limit: Limit) -> LimitSpec {
        let ms = |d: Duration| d.as_millis() as u64;
        match limit {
            Limit::Depth(d) => LimitSpec::Depth(d),
            Limit::Nodes(n) => LimitSpec::Nodes(n),
            Limit::MoveTime(t) => LimitSpec::MoveTimeMs(ms(t)),
            Limit::Clock {
                base,
                increment,
                nodes_per_ms,
            } => LimitSpec::ClockMs {
                base: ms(base),
                increment: ms(increment),
                nodes_per_ms,
            },
        }
    }

    /// The limit this spec describes.
    pub fn limit(self) -> Limit {
        match self {
            LimitSpec::Depth(d) => Limit::Depth(d),
            LimitSpec::Nodes(n) => Limit::Nodes(n),
            LimitSpec::MoveTimeMs(t) => Limit::MoveTime(Duration::from_millis(t)),
            LimitSpec::ClockMs {
                base,
                increment,
                nodes_per_ms,
            } => Limit::Clock {
                base: Duration::from_millis(base),
                increment: Duration::from_millis(increment),
                nodes_per_ms,
            },
        }
    }
}

/// The game settings a game fitness plays with: a limit and an optional move cut scored as a
/// draw (what `kestrel evolve games` sets). The one definition leader and worker share.
pub fn game_settings(limit: Limit, max_moves: Option<usize>) -> GameSettings {
    let mut game = GameSettings::new(limit);
    game.adjudication.move_limit = max_moves.map(|moves| MoveLimit {
        moves: moves.max(1),
        scoring: MoveLimitScoring::Draw,
    });
    game
}

/// Everything a worker needs to rebuild a [`GamePlay`]: the reference's values, the game
/// settings, the race, the opponents and the openings' blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaySpec {
    /// The reference's EVAL_TABLE values.
    pub reference_eval: Vec<i32>,
    /// The reference's SEARCH_TABLE values.
    pub reference_search: Vec<i32>,
    /// Every game's limit.
    pub limit: LimitSpec,
    /// Games are drawn after this many moves.
    pub max_moves: Option<usize>,
    /// Pairs of the race's first round ([`RaceSettings`]).
    pub first_pairs: usize,
    /// Race rounds.
    pub rounds: usize,
    /// Share of the survivors kept each round.
    pub keep: f64,
    /// Growth of a survivor's pairs per round.
    pub growth: usize,
    /// Hash table per engine, MB.
    pub hash_mb: usize,
    /// Blob hash: the openings.
    pub openings: String,
    /// Left out when the reference alone (specs written before it existed).
    #[serde(default, skip_serializing_if = "Opponents::is_reference")]
    pub opponents: Opponents,
}

impl PlaySpec {
    /// The spec of `play` with its openings stored in `store`; game settings that cannot be
    /// written as a limit and a move cut are refused.
    pub fn store(play: &GamePlay, store: &BlobStore) -> Result<PlaySpec, String> {
        let game = play.game();
        let max_moves = game.adjudication.move_limit.map(|m| m.moves);
        if game_settings(game.limit, max_moves) != *game {
            return Err("this game fitness's adjudication cannot be sent to workers".into());
        }
        let race = play.race();
        Ok(PlaySpec {
            reference_eval: play.reference().eval.values.clone(),
            reference_search: play.reference().search.values.clone(),
            limit: LimitSpec::of(game.limit),
            max_moves,
            first_pairs: race.first_pairs,
            rounds: race.rounds,
            keep: race.keep,
            growth: race.growth,
            hash_mb: play.hash_mb(),
            openings: put_openings(store, play.openings())?,
            opponents: play.opponents(),
        })
    }

    /// The games this spec describes.
    pub fn play(&self, store: &BlobStore) -> Result<GamePlay, String> {
        GamePlay::new(
            params(&self.reference_eval, &self.reference_search)?,
            get_openings(store, &self.openings)?,
            game_settings(self.limit.limit(), self.max_moves),
            RaceSettings {
                first_pairs: self.first_pairs,
                rounds: self.rounds,
                keep: self.keep,
                growth: self.growth,
            },
            self.hash_mb,
            self.opponents,
        )
    }
}

/// Everything a worker needs to rebuild a [`GameFitness`] (the JSON of the games part is
/// flat, as it was before [`PlaySpec`] was shared).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFitnessSpec {
    /// The start (base) EVAL_TABLE values.
    pub base_eval: Vec<i32>,
    /// The start (base) SEARCH_TABLE values.
    pub base_search: Vec<i32>,
    /// (section, element name) of every gene.
    pub elements: Vec<(String, String)>,
    /// The games (flattened into the same JSON object).
    #[serde(flatten)]
    pub play: PlaySpec,
}

/// Engine params from plain value lists (checked against this build's tables).
pub(crate) fn params(eval: &[i32], search: &[i32]) -> Result<EngineParams, String> {
    if eval.len() != EVAL_TABLE.len() || search.len() != SEARCH_TABLE.len() {
        return Err("game fitness spec: parameter counts differ from this build's tables".into());
    }
    Ok(EngineParams {
        eval: ParamValues {
            table: &EVAL_TABLE,
            values: eval.to_vec(),
        },
        search: ParamValues {
            table: &SEARCH_TABLE,
            values: search.to_vec(),
        },
        sections: Vec::new(),
    })
}

impl GameFitnessSpec {
    /// The spec of `fitness` with its openings stored in `store`.
    pub fn store(fitness: &GameFitness, store: &BlobStore) -> Result<GameFitnessSpec, String> {
        Ok(GameFitnessSpec {
            base_eval: fitness.base().eval.values.clone(),
            base_search: fitness.base().search.values.clone(),
            elements: fitness
                .elements()
                .iter()
                .map(|e| (e.section.to_string(), e.name.clone()))
                .collect(),
            play: PlaySpec::store(fitness.play(), store)?,
        })
    }

    /// The fitness this spec describes.
    pub fn fitness(&self, store: &BlobStore) -> Result<GameFitness, String> {
        let elements = self
            .elements
            .iter()
            .map(|(s, name)| TunedElement::new(s, name))
            .collect::<Result<Vec<_>, String>>()?;
        GameFitness::new(
            params(&self.base_eval, &self.base_search)?,
            elements,
            self.play.play(store)?,
        )
    }
}

impl FitnessSpec for GameFitnessSpec {
    const KIND: &'static str = "games";
    fn blobs(&self) -> Vec<String> {
        vec![self.play.openings.clone()]
    }
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        Ok(remote_fitness::<RealGenome, _>(self.fitness(blobs)?))
    }
}
