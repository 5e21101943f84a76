//! Fitness by playing: a generation's organisms play the games of [`fixtures`] against each
//! other in process (all cores), and each scores its points per game (1 / ½ / 0). Games are at
//! fixed nodes or depth from fresh searchers, so the result is a pure function of the spec,
//! the sample seed and the genomes, whatever the thread count.

use crate::mnc::schedule::{Fixture, fixtures};
use crate::mnc::tables::{base_params, params_of};
use kestrel_chess::Color;
use kestrel_eval::Evaluator;
use kestrel_ga::{
    Evaluation, FitnessFunction, FitnessTasks, RealGenome, TaskResult, evaluate_by_tasks,
};
use kestrel_params::ParamValues;
use kestrel_search::EngineConfig;
use kestrel_tools::builtin::BuiltinPlayer;
use kestrel_tools::{
    Adjudication, GameSettings, Limit, MoveLimit, MoveLimitScoring, Opening, ResignRule,
    load_openings, play_game,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::PathBuf;

/// How long each move may take in the fitness games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum MoveBudget {
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed search depth per move, in plies.
    Depth(i32),
}

/// Everything the tournament fitness needs, as plain data (a worker in another process can
/// rebuild the fitness from it with [`TournamentFitness::build`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    /// Opening book (EPD or PGN, optionally gzipped).
    pub openings: PathBuf,
    /// Random pairings per generation; each pair plays two games (colours reversed).
    pub rounds: usize,
    /// How long each move may take (fixed nodes or depth, so games are reproducible).
    pub budget: MoveBudget,
    /// Games are cut (and drawn) after this many full moves by the engines.
    pub max_moves: usize,
    /// Resign adjudication: both engines see one side this far ahead ...
    pub resign_cp: i32,
    /// ... for this many consecutive moves each.
    pub resign_moves: usize,
    /// Hash table per player (MB).
    pub hash_mb: usize,
}

impl TournamentSpec {
    /// The settings every fitness game is played with.
    pub fn game_settings(&self) -> GameSettings {
        let limit = match self.budget {
            MoveBudget::Nodes(n) => Limit::Nodes(n),
            MoveBudget::Depth(d) => Limit::Depth(d),
        };
        let mut settings = GameSettings::new(limit);
        settings.adjudication = Adjudication {
            resign: (self.resign_moves > 0).then_some(ResignRule {
                score_cp: self.resign_cp,
                moves: self.resign_moves,
            }),
            draw: None,
            move_limit: Some(MoveLimit {
                moves: self.max_moves,
                scoring: MoveLimitScoring::Draw,
            }),
        };
        settings
    }

    /// Rejects specs that cannot run.
    pub fn validate(&self) -> Result<(), String> {
        if self.rounds == 0 {
            return Err("at least one round of games per generation is needed".into());
        }
        match self.budget {
            MoveBudget::Nodes(0) => return Err("nodes per move must be at least 1".into()),
            MoveBudget::Depth(d) if d < 1 => return Err("depth must be at least 1".into()),
            _ => {}
        }
        if self.max_moves == 0 {
            return Err("the move limit must be at least 1".into());
        }
        Ok(())
    }
}

/// Points and games of one organism in one tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Points scored (1 per win, ½ per draw).
    pub points: f64,
    /// Games played.
    pub games: u64,
}

/// The round-robin fitness over PST chromosomes.
pub struct TournamentFitness {
    /// The settings the tournament's games are played with.
    pub spec: TournamentSpec,
    openings: Vec<Opening>,
    base: ParamValues,
}

impl TournamentFitness {
    /// Loads the openings named by `spec`.
    pub fn build(spec: TournamentSpec) -> Result<TournamentFitness, String> {
        spec.validate()?;
        let openings = load_openings(&spec.openings).map_err(|e| e.to_string())?;
        if openings.is_empty() {
            return Err(format!("{} holds no opening", spec.openings.display()));
        }
        Ok(Self::with_openings(spec, openings))
    }

    /// The openings loaded from the spec's book.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// From openings already in memory (tests, benchmarks, cluster workers).
    pub fn with_openings(spec: TournamentSpec, openings: Vec<Opening>) -> TournamentFitness {
        TournamentFitness {
            spec,
            openings,
            base: base_params(),
        }
    }

    /// The engine configuration an organism plays with.
    pub fn config_of(&self, genome: &RealGenome) -> EngineConfig {
        EngineConfig {
            hash_mb: self.spec.hash_mb.max(1),
            evaluator: Evaluator::new(params_of(genome, &self.base)),
            ..EngineConfig::default()
        }
    }

    /// Plays the generation's games; one tally per genome, plus the fixtures' results
    /// (points for White) in fixture order.
    pub fn play(&self, sample_seed: u64, genomes: &[RealGenome]) -> (Vec<Tally>, Vec<f64>) {
        let results = self.play_range(
            sample_seed,
            genomes,
            0..self.schedule(sample_seed, genomes.len()).len(),
        );
        (self.tallies(sample_seed, genomes.len(), &results), results)
    }

    /// The generation's fixtures.
    fn schedule(&self, sample_seed: u64, players: usize) -> Vec<Fixture> {
        fixtures(players, self.spec.rounds, self.openings.len(), sample_seed)
    }

    /// White's points in fixtures `range` of the generation, in order (games in parallel).
    fn play_range(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        range: Range<usize>,
    ) -> Vec<f64> {
        let schedule = self.schedule(sample_seed, genomes.len());
        let configs: Vec<EngineConfig> = genomes.iter().map(|g| self.config_of(g)).collect();
        let settings = self.spec.game_settings();
        schedule[range]
            .par_iter()
            .map(|f| self.play_fixture(f, &configs, &settings))
            .collect()
    }

    /// Every genome's tally from all fixtures' results (summed in fixture order).
    fn tallies(&self, sample_seed: u64, players: usize, results: &[f64]) -> Vec<Tally> {
        let mut tallies = vec![Tally::default(); players];
        for (f, &white_points) in self.schedule(sample_seed, players).iter().zip(results) {
            tallies[f.white].points += white_points;
            tallies[f.white].games += 1;
            tallies[f.black].points += 1.0 - white_points;
            tallies[f.black].games += 1;
        }
        tallies
    }

    fn play_fixture(&self, f: &Fixture, configs: &[EngineConfig], settings: &GameSettings) -> f64 {
        let mut white = BuiltinPlayer::new(format!("org{}", f.white), configs[f.white].clone());
        let mut black = BuiltinPlayer::new(format!("org{}", f.black), configs[f.black].clone());
        let game = play_game(&mut white, &mut black, &self.openings[f.opening], settings);
        game.result.points_for(Color::White)
    }
}

impl FitnessFunction<RealGenome> for TournamentFitness {
    /// Fitness is the mean score per game in [0, 1]; the objective is the points scored.
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        evaluate_by_tasks(self, sample_seed, genomes)
    }

    /// The whole population must play in one tournament.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        format!(
            "pst tournament {} | {} openings",
            serde_json::to_string(&self.spec).expect("a spec is plain data"),
            self.openings.len()
        )
    }

    /// On a cluster, the generation's games are the unit of work.
    fn tasks(&self) -> Option<&dyn FitnessTasks<RealGenome>> {
        Some(self)
    }
}

impl FitnessTasks<RealGenome> for TournamentFitness {
    fn task_count(&self, sample_seed: u64, genomes: &[RealGenome]) -> usize {
        self.schedule(sample_seed, genomes.len()).len()
    }

    /// One task per fixture: White's points.
    fn run_tasks(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        range: Range<usize>,
    ) -> Vec<TaskResult> {
        self.play_range(sample_seed, genomes, range)
            .into_iter()
            .map(|p| vec![p])
            .collect()
    }

    /// Fitness is the mean score per game in [0, 1]; the objective is the points scored.
    fn combine(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        results: &[TaskResult],
    ) -> Vec<Evaluation> {
        let white: Vec<f64> = results.iter().map(|r| r[0]).collect();
        self.tallies(sample_seed, genomes.len(), &white)
            .iter()
            .map(|t| Evaluation {
                fitness: t.points / t.games.max(1) as f64,
                objective: t.points,
            })
            .collect()
    }
}
