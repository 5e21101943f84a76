//! [`GamePlay`]: how a game fitness measures engines, whatever its genome: game pairs against
//! a reference engine raced by [`race`](mod@super::race), and (with [`Opponents::Population`] or
//! [`Opponents::Both`]) pairs between the members of the population, combined into one Elo
//! per organism by [`super::elo`]. Every game starts from fresh engines at the settings'
//! limit, and results are combined in a fixed order, so at fixed nodes or depth the scores are
//! the same on any thread count and any executor.

use super::elo::{ELO_CAP, Meeting, expected_score, fit_elo};
use super::opponents::{Opponents, Pairing, population_pairings};
use super::race::{RaceEntry, RaceSettings, race};
use crate::spsa::pairs::points;
use crate::spsa::step::iteration_rng;
use kestrel_ga::Evaluation;
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::builtin::BuiltinPlayer;
use kestrel_tools::match_runner::outcome_for_a;
use kestrel_tools::{GameSettings, Opening, Outcome, Penta, play_game};
use rand::Rng;
use rayon::prelude::*;

/// Stream of the verification match's openings (the race uses 0, the population 1).
const VERIFY_STREAM: u64 = 2;

/// The games side of a game fitness: reference, openings, limit, racing and opponents.
pub struct GamePlay {
    /// The reference's values (what a cluster spec ships) and its engine configuration.
    reference_params: EngineParams,
    reference: EngineConfig,
    openings: Vec<Opening>,
    game: GameSettings,
    race: RaceSettings,
    hash_mb: usize,
    opponents: Opponents,
}

/// One organism's games in a generation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScore {
    /// Its race against the reference (empty without reference games).
    pub race: RaceEntry,
    /// Its pairs against other members (from its side).
    pub population: Penta,
    /// The Elo fitted from all its games (against the reference with reference games, else
    /// against the population's middle), capped at ±1000.
    pub elo: f64,
}

impl GameScore {
    /// What the GA maximises: rounds survived plus the score the fitted Elo expects (only
    /// the race's score against the reference: the GA of `evolve games` as it always was).
    pub fn fitness(&self, opponents: Opponents) -> f64 {
        match opponents {
            Opponents::Reference => self.race.fitness(),
            _ => self.race.rounds as f64 + expected_score(self.elo),
        }
    }

    /// Games this organism played (a game between two members counts half to each).
    pub fn games(&self) -> f64 {
        2.0 * self.race.penta.pairs() as f64 + self.population.pairs() as f64
    }
}

impl GamePlay {
    /// Checks the race settings and the openings.
    pub fn new(
        reference: EngineParams,
        openings: Vec<Opening>,
        game: GameSettings,
        race: RaceSettings,
        hash_mb: usize,
        opponents: Opponents,
    ) -> Result<GamePlay, String> {
        race.validate()?;
        if openings.is_empty() {
            return Err("game fitness needs at least one opening".into());
        }
        let hash_mb = hash_mb.max(1);
        let reference_config = config_of(&reference, hash_mb);
        Ok(GamePlay {
            reference_params: reference,
            reference: reference_config,
            openings,
            game,
            race,
            hash_mb,
            opponents,
        })
    }

    /// The reference's values.
    pub fn reference(&self) -> &EngineParams {
        &self.reference_params
    }

    /// The book the games start from.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// Limit and adjudication of every game.
    pub fn game(&self) -> &GameSettings {
        &self.game
    }

    /// The racing settings.
    pub fn race(&self) -> RaceSettings {
        self.race
    }

    /// Hash table per engine, MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Who the organisms play.
    pub fn opponents(&self) -> Opponents {
        self.opponents
    }

    /// The engine configuration of a parameter set at this fitness's hash size.
    pub fn config(&self, params: &EngineParams) -> EngineConfig {
        config_of(params, self.hash_mb)
    }

    /// Limit, race, book size, hash and (when not the reference alone) the opponents: the
    /// games part of a fingerprint.
    pub fn fingerprint(&self) -> String {
        let opponents = if self.opponents.is_reference() {
            String::new()
        } else {
            format!(" | opponents {}", self.opponents.name())
        };
        format!(
            "{} | race {:?} | {} openings | hash {}{opponents}",
            self.game.limit,
            self.race,
            self.openings.len(),
            self.hash_mb
        )
    }

    /// One pair from fresh engines, `a` White first: `a`'s two outcomes.
    fn play_pair(
        &self,
        a: &EngineConfig,
        b: &EngineConfig,
        opening: &Opening,
    ) -> (Outcome, Outcome) {
        let mut me = BuiltinPlayer::new("a".into(), a.clone());
        let mut other = BuiltinPlayer::new("b".into(), b.clone());
        let first = play_game(&mut me, &mut other, opening, &self.game);
        let second = play_game(&mut other, &mut me, opening, &self.game);
        (outcome_for_a(0, &first), outcome_for_a(1, &second))
    }

    /// Every organism's race against the reference on the openings of `sample_seed`.
    pub fn race_reference(&self, sample_seed: u64, configs: &[EngineConfig]) -> Vec<RaceEntry> {
        let most = self.race.pairs_after(self.race.rounds);
        let mut rng = iteration_rng(sample_seed, 0);
        let picks: Vec<usize> = (0..most)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect();
        race(&self.race, configs.len(), &|c, j| {
            self.play_pair(&configs[c], &self.reference, &self.openings[picks[j]])
        })
    }

    /// The population's pairs of `sample_seed` (in parallel, in schedule order) and each
    /// organism's pentanomial from them.
    fn population_games(
        &self,
        sample_seed: u64,
        configs: &[EngineConfig],
    ) -> (Vec<Pairing>, Vec<(Outcome, Outcome)>, Vec<Penta>) {
        let pairings = population_pairings(
            configs.len(),
            self.race.first_pairs,
            self.openings.len(),
            sample_seed,
        );
        let results: Vec<(Outcome, Outcome)> = pairings
            .par_iter()
            .map(|p| self.play_pair(&configs[p.a], &configs[p.b], &self.openings[p.opening]))
            .collect();
        let mut pentas = vec![Penta::default(); configs.len()];
        for (p, &(first, second)) in pairings.iter().zip(&results) {
            let mut pair = Penta::default();
            pair.add_pair(first, second);
            pentas[p.a] += pair;
            pentas[p.b] += pair.flipped();
        }
        (pairings, results, pentas)
    }

    /// Every organism's games of the generation `sample_seed`.
    pub fn measure(&self, sample_seed: u64, configs: &[EngineConfig]) -> Vec<GameScore> {
        let n = configs.len();
        let races = if self.opponents.plays_reference() {
            self.race_reference(sample_seed, configs)
        } else {
            vec![RaceEntry::default(); n]
        };
        if !self.opponents.plays_population() {
            return races
                .into_iter()
                .map(|race| GameScore {
                    race,
                    population: Penta::default(),
                    elo: race.penta.elo().clamp(-ELO_CAP, ELO_CAP),
                })
                .collect();
        }
        let (pairings, results, pentas) = self.population_games(sample_seed, configs);
        let mut meetings: Vec<Meeting> = races
            .iter()
            .enumerate()
            .filter(|(_, r)| r.penta.pairs() > 0)
            .map(|(c, r)| Meeting {
                a: c,
                b: None,
                points: r.penta.score() * 2.0 * r.penta.pairs() as f64,
                games: 2.0 * r.penta.pairs() as f64,
            })
            .collect();
        meetings.extend(pairings.iter().zip(&results).map(|(p, &(x, y))| Meeting {
            a: p.a,
            b: Some(p.b),
            points: points(x) + points(y),
            games: 2.0,
        }));
        let elo = fit_elo(n, &meetings);
        (0..n)
            .map(|c| GameScore {
                race: races[c],
                population: pentas[c],
                elo: elo[c],
            })
            .collect()
    }

    /// The GA's evaluations of the generation: fitness as [`GameScore::fitness`], objective
    /// the fitted Elo.
    pub fn evaluate(&self, sample_seed: u64, configs: &[EngineConfig]) -> Vec<Evaluation> {
        self.measure(sample_seed, configs)
            .iter()
            .map(|s| Evaluation {
                fitness: s.fitness(self.opponents),
                objective: s.elo,
            })
            .collect()
    }

    /// `pairs` pairs of `params` against the reference on openings drawn from `seed` (a
    /// verification match after a run), from `params`' side.
    pub fn verify(&self, params: &EngineParams, pairs: usize, seed: u64) -> Penta {
        let config = self.config(params);
        let mut rng = iteration_rng(seed, VERIFY_STREAM);
        let picks: Vec<usize> = (0..pairs)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect();
        let results: Vec<(Outcome, Outcome)> = picks
            .par_iter()
            .map(|&o| self.play_pair(&config, &self.reference, &self.openings[o]))
            .collect();
        let mut penta = Penta::default();
        for (a, b) in results {
            penta.add_pair(a, b);
        }
        penta
    }
}

/// A parameter set's engine configuration.
fn config_of(params: &EngineParams, hash_mb: usize) -> EngineConfig {
    let mut config = EngineConfig {
        hash_mb,
        ..EngineConfig::default()
    };
    params.apply_to(&mut config);
    config
}
