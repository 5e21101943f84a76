//! Player recognition (the expert-driven GA paper's future work): evolve one organism per
//! player from that player's moves, then attribute each held-out game to the organism whose
//! choices agree best with the moves played in it; accuracy against chance (1 / players).

use crate::moves::data::extract_moves;
use crate::moves::fitness::ChildSet;
use crate::moves::run::{MovesRunConfig, base_values, run_moves};
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::ParamValues;

/// One player's part of the experiment.
#[derive(Clone, Debug)]
pub struct PlayerResult {
    /// The player's name, as given (matched against the PGN's White and Black tags).
    pub name: String,
    /// Training positions the player's organism evolved on.
    pub train_positions: usize,
    /// The organism's agreement with its own player's test positions (%).
    pub test_agreement: f64,
    /// The player's held-out test games, each attributed to one organism.
    pub test_games: usize,
    /// Test games attributed to this player correctly.
    pub correct: f64,
}

/// The whole experiment.
#[derive(Clone, Debug)]
pub struct RecognitionReport {
    /// One result per player, in the order given.
    pub players: Vec<PlayerResult>,
    /// Test games attributed, over all players.
    pub test_games: usize,
    /// Correctly attributed test games (ties share credit).
    pub correct: f64,
    /// Share attributed correctly (0..1), and what guessing gives (1 / players).
    pub accuracy: f64,
    /// Accuracy of guessing at random: 1 / number of players.
    pub chance: f64,
    /// `confusion[true][guessed]` (ties split).
    pub confusion: Vec<Vec<f64>>,
}

/// Credit per candidate for one game: 1 to the candidate with the highest agreement, split
/// evenly on ties.
pub fn attribute(agreements: &[f64]) -> Vec<f64> {
    let best = agreements.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let winners = agreements.iter().filter(|&&a| a == best).count() as f64;
    agreements
        .iter()
        .map(|&a| if a == best { 1.0 / winners } else { 0.0 })
        .collect()
}

/// Runs the experiment: `base` is the per-player run configuration (its player filter and out
/// folder are replaced per player).
pub fn run_recognition(
    base: &MovesRunConfig,
    players: &[String],
) -> Result<RecognitionReport, String> {
    if players.len() < 2 {
        return Err("recognition needs at least two players".into());
    }
    let mut organisms: Vec<ParamValues> = Vec::new();
    let mut results = Vec::new();
    let mut tests = Vec::new();
    for name in players {
        let mut cfg = base.clone();
        cfg.extract.player = Some(name.clone());
        cfg.out_dir = base
            .out_dir
            .join(name.replace(|c: char| !c.is_alphanumeric(), "_"));
        let report = run_moves(&cfg)?;
        let (data, _) = extract_moves(&cfg.pgn, &cfg.extract)?;
        results.push(PlayerResult {
            name: name.clone(),
            train_positions: report.train_positions,
            test_agreement: report.evolved.test,
            test_games: 0,
            correct: 0.0,
        });
        organisms.push(report.best);
        tests.push(data.test);
    }
    let expert = Evaluator::new(ParamValues::defaults(&EVAL_TABLE));
    let full = base.set.schema(base.coding);
    let matrix: Vec<f64> = organisms
        .iter()
        .flat_map(|p| {
            full.fields
                .iter()
                .map(move |f| p.values[f.flat_index] as f64)
        })
        .collect();
    let n = players.len();
    let mut confusion = vec![vec![0.0; n]; n];
    for (truth, positions) in tests.iter().enumerate() {
        let set = ChildSet::build(positions, &full, &base_values(), &expert, base.max_captures);
        let credits = set.credits(&matrix, None);
        let mut games: Vec<usize> = positions.iter().map(|p| p.game).collect();
        games.dedup();
        for game in &games {
            let agreements: Vec<f64> = credits
                .iter()
                .map(|c| {
                    positions
                        .iter()
                        .zip(c)
                        .filter(|(p, _)| p.game == *game)
                        .map(|(_, x)| x)
                        .sum()
                })
                .collect();
            for (guess, credit) in attribute(&agreements).into_iter().enumerate() {
                confusion[truth][guess] += credit;
            }
        }
        results[truth].test_games = games.len();
        results[truth].correct = confusion[truth][truth];
    }
    let test_games: usize = results.iter().map(|r| r.test_games).sum();
    let correct: f64 = results.iter().map(|r| r.correct).sum();
    Ok(RecognitionReport {
        players: results,
        test_games,
        correct,
        accuracy: correct / test_games.max(1) as f64,
        chance: 1.0 / n as f64,
        confusion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_agreement_wins_and_ties_split() {
        assert_eq!(attribute(&[1.0, 3.0, 2.0]), vec![0.0, 1.0, 0.0]);
        assert_eq!(attribute(&[2.0, 2.0, 1.0]), vec![0.5, 0.5, 0.0]);
    }
}
