//! The options of a game fitness, shared by every GA that can score by play (`evolve games`,
//! `evolve search --fitness games`, `evolve mnc --fitness games`): the reference, the race and
//! the opponents ([`RaceArgs`]), and for the commands without game options of their own the
//! book, the limit, the race's rounds and the move cut ([`GameFitnessArgs`]). Values are
//! optional so that a command can refuse them where they make no sense; the defaults are
//! applied here.

use super::game_limit::GameLimitArgs;
use crate::commands::checked;
use anyhow::bail;
use clap::{Args, ValueEnum};
use kestrel_evolve::games::{GamePlay, Opponents, RaceSettings, game_settings};
use kestrel_search::EngineParams;
use kestrel_tools::{GameSettings, load_openings};
use std::path::PathBuf;

/// Pairs of the race's first round.
const FIRST_PAIRS: usize = 4;
/// Race rounds.
pub const ROUNDS: usize = 3;
/// Share of the survivors kept each round.
const KEEP: f64 = 0.5;
/// Games end as draws after this many moves.
const MAX_MOVES: usize = 200;

/// `--opponents` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpponentsArg {
    /// Race game pairs against the reference.
    Reference,
    /// Play game pairs against other members of the population (fitness: fitted Elo).
    Population,
    /// Both: the race against the reference and pairs against other members.
    Both,
}

/// Reference, race and opponents of a game fitness.
#[derive(Args, Debug, Clone)]
pub struct RaceArgs {
    /// The reference the organisms race; default: the defaults.
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Pairs every organism plays in the race's first round, and against other members with
    /// --opponents population|both (rounded up to even) [default: 4].
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub first_pairs: Option<usize>,
    /// Share of the race's survivors kept each round [default: 0.5].
    #[arg(long, value_parser = checked::probability)]
    pub keep: Option<f64>,
    /// Whom organisms play: the reference (raced), each other (pairings drawn from the seed,
    /// fitness = Elo fitted from the games), or both [default: reference].
    #[arg(long, value_enum)]
    pub opponents: Option<OpponentsArg>,
}

impl RaceArgs {
    /// The first flag given, for commands that refuse them (without `--fitness games`).
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.reference.is_some(), "--reference"),
            (self.first_pairs.is_some(), "--first-pairs"),
            (self.keep.is_some(), "--keep"),
            (self.opponents.is_some(), "--opponents"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// Whom the organisms play.
    pub fn opponents(&self) -> Opponents {
        match self.opponents.unwrap_or(OpponentsArg::Reference) {
            OpponentsArg::Reference => Opponents::Reference,
            OpponentsArg::Population => Opponents::Population,
            OpponentsArg::Both => Opponents::Both,
        }
    }

    /// The games of the fitness; `rounds` is the race's rounds when given on the command line.
    /// Race options are refused with `--opponents population` (there is no race).
    pub fn play(
        &self,
        rounds: Option<usize>,
        game: GameSettings,
        openings: PathBuf,
        hash_mb: usize,
    ) -> anyhow::Result<GamePlay> {
        let opponents = self.opponents();
        if !opponents.plays_reference() {
            let race_flag = [
                (self.reference.is_some(), "--reference"),
                (self.keep.is_some(), "--keep"),
                (rounds.is_some(), "--rounds"),
            ]
            .into_iter()
            .find_map(|(given, flag)| given.then_some(flag));
            if let Some(flag) = race_flag {
                bail!(
                    "{flag} is for the race against the reference; --opponents population has none"
                );
            }
        }
        let reference = match &self.reference {
            Some(p) => EngineParams::load(p, "--reference")?,
            None => EngineParams::default(),
        };
        let race = RaceSettings {
            first_pairs: self.first_pairs.unwrap_or(FIRST_PAIRS),
            rounds: rounds.unwrap_or(ROUNDS),
            keep: self.keep.unwrap_or(KEEP),
            growth: 2,
        };
        let openings = load_openings(&openings)?;
        GamePlay::new(reference, openings, game, race, hash_mb, opponents)
            .map_err(anyhow::Error::msg)
    }
}

/// Book, limit, rounds and move cut of a game fitness, with its [`RaceArgs`].
#[derive(Args, Debug, Clone)]
pub struct GameFitnessArgs {
    /// Opening book of the games (EPD/PGN, optionally gzipped) [default: the built-in
    /// balanced GM openings, builtin:openings-gm2600.epd].
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    #[command(flatten)]
    pub limit: GameLimitArgs,
    /// Race rounds (each keeps --keep of the survivors and doubles their pairs) [default: 3].
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub rounds: Option<usize>,
    /// Games end as draws after this many moves [default: 200].
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub max_moves: Option<usize>,
    #[command(flatten)]
    pub race: RaceArgs,
}

impl GameFitnessArgs {
    /// The first flag given, for commands that refuse them (without `--fitness games`).
    pub fn given(&self) -> Option<&'static str> {
        let l = &self.limit;
        [
            (self.openings.is_some(), "--openings"),
            (l.nodes.is_some(), "--nodes"),
            (l.depth.is_some(), "--depth"),
            (l.tc.is_some(), "--tc"),
            (self.rounds.is_some(), "--rounds"),
            (self.max_moves.is_some(), "--max-moves"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
        .or_else(|| self.race.given())
    }

    /// The games of the fitness at `hash_mb` per engine.
    pub fn play(&self, hash_mb: usize) -> anyhow::Result<GamePlay> {
        let game = game_settings(
            self.limit.limit()?,
            Some(self.max_moves.unwrap_or(MAX_MOVES)),
        );
        let openings = self
            .openings
            .clone()
            .unwrap_or_else(|| PathBuf::from(kestrel_tools::data::DEFAULT_OPENINGS));
        self.race.play(self.rounds, game, openings, hash_mb)
    }
}
