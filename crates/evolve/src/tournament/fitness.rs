//! The relative fitness: a round robin of the whole population, every pair twice with colours
//! reversed, each pair from its own opening. Games run in parallel; each game is a pure
//! function of (spec, sample seed, genomes), so results never depend on the thread count.

use crate::tournament::Organism;
use crate::tournament::teaching::teaching_config;
use kestrel_chess::Board;
use kestrel_ga::{Evaluation, FitnessFunction, FitnessTasks, TaskResult, evaluate_by_tasks};
use kestrel_tools::{
    Adjudication, GameResult, GameSettings, Limit, MoveLimit, MoveLimitScoring, Opening,
    builtin::BuiltinPlayer, play_game,
};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Everything a round robin needs, serialisable so that another process can rebuild it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    /// Search depth in plies (quiescence always follows); the page: 2.
    pub depth: i32,
    /// Full moves before a game is cut and judged; the page: 50.
    pub max_moves: usize,
    /// At the cut, a side wins only if both evaluations see it ahead by more than this.
    pub margin_cp: i32,
    /// Opening positions (FEN); each pair of organisms draws one per generation.
    pub openings: Vec<String>,
}

/// A [`FitnessFunction`] that scores the population by a round robin among itself.
#[derive(Debug)]
pub struct RoundRobinFitness {
    spec: TournamentSpec,
    openings: Vec<Opening>,
}

impl RoundRobinFitness {
    /// Checks the spec (depth, move limit, every opening FEN) and builds the fitness.
    pub fn build(spec: TournamentSpec) -> Result<RoundRobinFitness, String> {
        if !(1..=20).contains(&spec.depth) {
            return Err(format!("depth {} is not in 1..=20", spec.depth));
        }
        if spec.max_moves == 0 {
            return Err("the move limit must be at least 1".into());
        }
        if spec.openings.is_empty() {
            return Err("no opening positions".into());
        }
        let openings = spec
            .openings
            .iter()
            .map(|fen| {
                Board::from_fen(fen)
                    .map(Opening::from_board)
                    .map_err(|e| format!("opening '{fen}': {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RoundRobinFitness { spec, openings })
    }

    /// The spec this fitness was built from.
    pub fn spec(&self) -> &TournamentSpec {
        &self.spec
    }

    fn game_settings(&self) -> GameSettings {
        GameSettings {
            adjudication: Adjudication {
                move_limit: Some(MoveLimit {
                    moves: self.spec.max_moves,
                    scoring: MoveLimitScoring::OwnEvaluation {
                        margin_cp: self.spec.margin_cp,
                    },
                }),
                ..Adjudication::default()
            },
            ..GameSettings::new(Limit::Depth(self.spec.depth))
        }
    }

    /// Points of white and black in one game between two organisms.
    fn play(&self, white: &Organism, black: &Organism, opening: &Opening) -> (f64, f64) {
        let mut w = BuiltinPlayer::new("white".into(), teaching_config(white.to_params()));
        let mut b = BuiltinPlayer::new("black".into(), teaching_config(black.to_params()));
        let game = play_game(&mut w, &mut b, opening, &self.game_settings());
        let white_points = match game.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        (white_points, 1.0 - white_points)
    }

    /// Every game of a round robin of `n` players: (white, black, opening index).
    pub fn schedule(&self, sample_seed: u64, n: usize) -> Vec<(usize, usize, usize)> {
        let mut rng = ChaCha8Rng::seed_from_u64(sample_seed);
        let mut games = Vec::with_capacity(n * n.saturating_sub(1));
        for i in 0..n {
            for j in i + 1..n {
                let opening = rng.random_range(0..self.openings.len());
                games.push((i, j, opening));
                games.push((j, i, opening));
            }
        }
        games
    }
}

impl FitnessFunction<Organism> for RoundRobinFitness {
    /// Fitness = points scored; objective = share of the points available.
    fn evaluate(&self, sample_seed: u64, genomes: &[Organism]) -> Vec<Evaluation> {
        evaluate_by_tasks(self, sample_seed, genomes)
    }

    /// The round robin is relative: the whole population is one chunk.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        serde_json::to_string(&self.spec).expect("a spec is plain data")
    }

    /// On a cluster, the games of a round robin are the unit of work.
    fn tasks(&self) -> Option<&dyn FitnessTasks<Organism>> {
        Some(self)
    }
}

impl FitnessTasks<Organism> for RoundRobinFitness {
    fn task_count(&self, _sample_seed: u64, genomes: &[Organism]) -> usize {
        genomes.len() * genomes.len().saturating_sub(1)
    }

    /// One task per game of [`RoundRobinFitness::schedule`]: White's points.
    fn run_tasks(
        &self,
        sample_seed: u64,
        genomes: &[Organism],
        range: Range<usize>,
    ) -> Vec<TaskResult> {
        let games = self.schedule(sample_seed, genomes.len());
        games[range]
            .par_iter()
            .map(|&(w, b, o)| vec![self.play(&genomes[w], &genomes[b], &self.openings[o]).0])
            .collect()
    }

    fn combine(
        &self,
        sample_seed: u64,
        genomes: &[Organism],
        results: &[TaskResult],
    ) -> Vec<Evaluation> {
        let n = genomes.len();
        let games = self.schedule(sample_seed, n);
        let mut points = vec![0.0; n];
        for (&(w, b, _), r) in games.iter().zip(results) {
            points[w] += r[0];
            points[b] += 1.0 - r[0];
        }
        let available = (2 * n.saturating_sub(1)) as f64;
        points
            .into_iter()
            .map(|p| Evaluation {
                fitness: p,
                objective: if available > 0.0 { p / available } else { 0.0 },
            })
            .collect()
    }
}
