//! SPSA's game pairs for an external engine: θ+ and θ− are the same engine with the tuned
//! options set by `setoption` before each game, playing one opening each way. The openings
//! are drawn from the seed and the iteration as in the built-in [`crate::spsa::pairs`], so a
//! run at fixed nodes or depth is the same on any thread count (for an engine whose
//! `ucinewgame` forgets everything, as Kestrel's does).

use super::engine::{ExternalEngine, PlayerPool};
use super::tunables::format_value;
use crate::spsa::SpsaParam;
use crate::spsa::fifo::each_in_order;
use crate::spsa::pairs::{duel_evaluations, points};
use crate::spsa::step::iteration_rng;
use kestrel_ga::{
    Evaluation, FitnessFunction, FitnessTasks, RealGenome, TaskResult, evaluate_by_tasks,
};
use kestrel_tools::{GameSettings, Opening};
use rand::Rng;
use std::ops::Range;

/// Game pairs of θ+ (genome 0) against θ− (genome 1) of an external engine.
pub struct ExternalPairs {
    engine: ExternalEngine,
    params: Vec<SpsaParam>,
    openings: Vec<Opening>,
    pairs: usize,
    game: GameSettings,
    seed: u64,
    pool: PlayerPool,
}

/// The `setoption`s of a point: every tuned value, formatted as OpenBench sends it.
pub fn options_of(params: &[SpsaParam], values: &[f64]) -> Vec<(String, String)> {
    params
        .iter()
        .zip(values)
        .map(|(p, &v)| (p.name.clone(), format_value(p, v)))
        .collect()
}

/// θ+'s points in one pair's result; a pair that kept failing (`[-1, attempts]`) counts as
/// two draws, so that neither side gains from it.
fn plus_points(result: &TaskResult) -> f64 {
    if result[0] < 0.0 {
        1.0
    } else {
        result[0] + result[1]
    }
}

impl ExternalPairs {
    /// Checks there are openings and pairs.
    pub fn new(
        engine: ExternalEngine,
        params: Vec<SpsaParam>,
        openings: Vec<Opening>,
        pairs: usize,
        game: GameSettings,
        seed: u64,
    ) -> Result<ExternalPairs, String> {
        if openings.is_empty() {
            return Err("SPSA needs at least one opening".into());
        }
        if pairs == 0 {
            return Err("SPSA needs at least one game pair per iteration".into());
        }
        Ok(ExternalPairs {
            engine,
            params,
            openings,
            pairs,
            game,
            seed,
            pool: PlayerPool::default(),
        })
    }

    /// Game pairs per iteration.
    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// The engine under tuning.
    pub fn engine(&self) -> &ExternalEngine {
        &self.engine
    }

    /// The tuned options.
    pub fn params(&self) -> &[SpsaParam] {
        &self.params
    }

    /// The book.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// Limit and adjudication of every game.
    pub fn game(&self) -> &GameSettings {
        &self.game
    }

    /// The seed of the opening picks.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The opening of every pair of iteration `k` (the stream of the built-in pairs).
    fn picks(&self, k: u64) -> Vec<usize> {
        let mut rng = iteration_rng(self.seed ^ 0x6f70_656e_696e_6773, k);
        (0..self.pairs)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect()
    }

    /// One pair as a task result: θ+'s points, faults, fault kinds; `[-1, attempts]` when
    /// the pair kept failing.
    fn play(
        &self,
        plus: &[(String, String)],
        minus: &[(String, String)],
        opening: &Opening,
    ) -> TaskResult {
        let e = &self.engine;
        let r = self
            .pool
            .play_pair((e, plus), (e, minus), opening, &self.game);
        let Some((first, second)) = r.outcomes else {
            return vec![-1.0, f64::from(super::engine::PAIR_ATTEMPTS)];
        };
        let faults = r.kinds.crashes + r.kinds.hangs + r.kinds.illegal_moves + r.kinds.time_losses;
        let mut out = vec![points(first), points(second), faults as f64];
        out.extend(r.kinds.to_numbers());
        out
    }
}

impl FitnessTasks<RealGenome> for ExternalPairs {
    fn task_count(&self, _sample_seed: u64, genomes: &[RealGenome]) -> usize {
        self.pairs * (genomes.len() / 2)
    }

    fn run_tasks(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        range: Range<usize>,
    ) -> Vec<TaskResult> {
        let duels = (range.start / self.pairs)..range.end.div_ceil(self.pairs);
        let prepared: Vec<_> = duels
            .clone()
            .map(|j| {
                (
                    options_of(&self.params, &genomes[2 * j].0),
                    options_of(&self.params, &genomes[2 * j + 1].0),
                    self.picks(sample_seed + j as u64),
                )
            })
            .collect();
        // One pool job per pair, queued in order (a batch in play behind this one waits).
        each_in_order(range, |task| {
            let (j, pair) = (task / self.pairs, task % self.pairs);
            let (plus, minus, picks) = &prepared[j - duels.start];
            self.play(plus, minus, &self.openings[picks[pair]])
        })
    }

    /// Per duel: θ+'s and θ−'s points (fitness) and the difference (objective).
    fn combine(
        &self,
        _sample_seed: u64,
        _genomes: &[RealGenome],
        results: &[TaskResult],
    ) -> Vec<Evaluation> {
        duel_evaluations(results, self.pairs, plus_points)
    }
}

impl FitnessFunction<RealGenome> for ExternalPairs {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        evaluate_by_tasks(self, sample_seed, genomes)
    }

    /// A job is one chunk (as the built-in pairs).
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        format!(
            "spsa external {} {:?} {:?} | {} | {} | {} pairs | {} openings | seed {}",
            self.engine.command,
            self.engine.args,
            self.engine.options,
            names.join(","),
            self.game.limit,
            self.pairs,
            self.openings.len(),
            self.seed
        )
    }

    fn tasks(&self) -> Option<&dyn FitnessTasks<RealGenome>> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_that_kept_failing_counts_as_two_draws() {
        let won = vec![1.0, 0.5, 0.0];
        let failed = vec![-1.0, f64::from(super::super::engine::PAIR_ATTEMPTS)];
        let e = duel_evaluations(&[won, failed], 2, plus_points);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].fitness, e[0].objective), (2.5, 1.0));
        assert_eq!((e[1].fitness, e[1].objective), (1.5, -1.0));
    }
}
