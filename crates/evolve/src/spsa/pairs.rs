//! SPSA iterations' games as a tasked fitness, so that any executor (in process, worker
//! processes, Ray) can play them: the genomes are θ+ and θ− (the tuned elements' integer
//! values) of one iteration or of several consecutive ones (θ+ and θ− of the job's sample
//! seed, then of the next iteration, ...); task `j·pairs + i` is game pair `i` of duel `j`
//! (one opening, θ+ White then θ− White) and answers θ+'s two points and the games lost to a
//! fault. The openings are drawn from the seed and the iteration, so the results do not
//! depend on where tasks run or how iterations are batched.

use super::chess::TunedElement;
use super::fifo::each_in_order;
use super::step::iteration_rng;
use crate::games::fitness::values_hash;
use kestrel_ga::{
    Evaluation, FitnessFunction, FitnessTasks, RealGenome, TaskResult, evaluate_by_tasks,
};
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::builtin::BuiltinPlayer;
use kestrel_tools::match_runner::outcome_for_a;
use kestrel_tools::{GameRecord, GameSettings, Opening, Outcome, Termination, play_game};
use rand::Rng;
use std::ops::Range;

/// Game pairs of θ+ (genome 0) against θ− (genome 1) at iteration `sample_seed`.
pub struct PairsFitness {
    pub(crate) base: EngineParams,
    pub(crate) elements: Vec<TunedElement>,
    pub(crate) openings: Vec<Opening>,
    /// Game pairs per iteration.
    pub(crate) pairs: usize,
    pub(crate) game: GameSettings,
    pub(crate) hash_mb: usize,
    pub(crate) seed: u64,
}

/// A game's points for the side whose outcome it is.
pub(crate) fn points(o: Outcome) -> f64 {
    match o {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    }
}

/// A pair's result as a task result: θ+'s points in its two games, and the faults.
fn pair_result(first: Outcome, second: Outcome, faults: u64) -> TaskResult {
    vec![points(first), points(second), faults as f64]
}

/// Per duel of `pairs` task results: θ+'s and θ−'s points (fitness) and θ+'s points minus
/// θ−'s (objective); `plus_points` reads θ+'s two points from one pair's result.
pub(crate) fn duel_evaluations(
    results: &[TaskResult],
    pairs: usize,
    plus_points: impl Fn(&TaskResult) -> f64,
) -> Vec<Evaluation> {
    results
        .chunks(pairs)
        .flat_map(|duel| {
            let plus: f64 = duel.iter().map(&plus_points).sum();
            let minus = 2.0 * duel.len() as f64 - plus;
            [
                Evaluation {
                    fitness: plus,
                    objective: plus - minus,
                },
                Evaluation {
                    fitness: minus,
                    objective: minus - plus,
                },
            ]
        })
        .collect()
}

/// θ+'s outcome of a game from its points in a task result.
pub fn outcome_of(points: f64) -> Outcome {
    if points > 0.75 {
        Outcome::Win
    } else if points > 0.25 {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

impl PairsFitness {
    /// Checks that there are openings and pairs, and that every element exists in `base` and
    /// takes its current value.
    pub fn new(
        base: EngineParams,
        elements: Vec<TunedElement>,
        openings: Vec<Opening>,
        pairs: usize,
        game: GameSettings,
        hash_mb: usize,
        seed: u64,
    ) -> Result<PairsFitness, String> {
        if openings.is_empty() {
            return Err("SPSA needs at least one opening".into());
        }
        if pairs == 0 {
            return Err("SPSA needs at least one game pair per iteration".into());
        }
        let fitness = PairsFitness {
            base,
            elements,
            openings,
            pairs,
            game,
            hash_mb: hash_mb.max(1),
            seed,
        };
        let current: Vec<i32> = fitness
            .elements
            .iter()
            .map(|e| {
                let (flat, _) = e.find(&fitness.base)?;
                Ok(e.values(&fitness.base)?.values[flat])
            })
            .collect::<Result<_, String>>()?;
        fitness.params_with(&current)?;
        Ok(fitness)
    }

    /// The base params with the tuned elements set to `values`.
    pub fn params_with(&self, values: &[i32]) -> Result<EngineParams, String> {
        let mut params = self.base.clone();
        for (e, &v) in self.elements.iter().zip(values) {
            e.set(&mut params, v)?;
        }
        Ok(params)
    }

    fn config(&self, genome: &RealGenome) -> Result<EngineConfig, String> {
        let values: Vec<i32> = genome.0.iter().map(|&v| v.round() as i32).collect();
        let mut config = EngineConfig {
            hash_mb: self.hash_mb,
            ..EngineConfig::default()
        };
        self.params_with(&values)?.apply_to(&mut config);
        Ok(config)
    }

    /// The opening of every pair of iteration `k`, from its own stream (the perturbation
    /// uses the seed's).
    fn picks(&self, k: u64) -> Vec<usize> {
        let mut rng = iteration_rng(self.seed ^ 0x6f70_656e_696e_6773, k);
        (0..self.pairs)
            .map(|_| rng.random_range(0..self.openings.len()))
            .collect()
    }

    /// One pair from a fresh engine each (reproducible at fixed nodes, depth or a clock in
    /// nodes).
    fn play_pair(
        &self,
        plus: &EngineConfig,
        minus: &EngineConfig,
        opening: &Opening,
    ) -> TaskResult {
        let mut p = BuiltinPlayer::new("theta+".into(), plus.clone());
        let mut m = BuiltinPlayer::new("theta-".into(), minus.clone());
        let first = play_game(&mut p, &mut m, opening, &self.game);
        let second = play_game(&mut m, &mut p, opening, &self.game);
        let faults = [&first, &second]
            .iter()
            .filter(|g: &&&GameRecord| matches!(g.termination, Termination::Fault(..)))
            .count() as u64;
        pair_result(outcome_for_a(0, &first), outcome_for_a(1, &second), faults)
    }
}

impl FitnessTasks<RealGenome> for PairsFitness {
    fn task_count(&self, _sample_seed: u64, genomes: &[RealGenome]) -> usize {
        self.pairs * (genomes.len() / 2)
    }

    fn run_tasks(
        &self,
        sample_seed: u64,
        genomes: &[RealGenome],
        range: Range<usize>,
    ) -> Vec<TaskResult> {
        // Duel `j` is iteration `sample_seed + j`; only the duels the range touches are built.
        let duels = (range.start / self.pairs)..range.end.div_ceil(self.pairs);
        let prepared: Vec<_> = duels
            .clone()
            .map(|j| {
                let configs = (
                    self.config(&genomes[2 * j]),
                    self.config(&genomes[2 * j + 1]),
                );
                let picks = self.picks(sample_seed + j as u64);
                match configs {
                    (Ok(plus), Ok(minus)) => Some((plus, minus, picks)),
                    // Values outside the declared ranges: every game is a fault of θ+ (never
                    // seen from SPSA, which clamps θ± to the ranges).
                    _ => None,
                }
            })
            .collect();
        // One pool job per pair, queued in order (a batch in play behind this one waits).
        each_in_order(range, |task| {
            let (j, pair) = (task / self.pairs, task % self.pairs);
            match &prepared[j - duels.start] {
                Some((plus, minus, picks)) => {
                    self.play_pair(plus, minus, &self.openings[picks[pair]])
                }
                None => vec![0.0, 0.0, 2.0],
            }
        })
    }

    /// Per duel: θ+'s and θ−'s points (fitness) and θ+'s points minus θ−'s (objective).
    fn combine(
        &self,
        _sample_seed: u64,
        _genomes: &[RealGenome],
        results: &[TaskResult],
    ) -> Vec<Evaluation> {
        duel_evaluations(results, self.pairs, |r| r[0] + r[1])
    }
}

impl FitnessFunction<RealGenome> for PairsFitness {
    fn evaluate(&self, sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        evaluate_by_tasks(self, sample_seed, genomes)
    }

    /// A job is one chunk: a duel cannot be split by genome, and the duels of a batch draw
    /// their openings from the job's sample seed and their place in it.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    fn fingerprint(&self) -> String {
        let names: Vec<String> = self
            .elements
            .iter()
            .map(|e| format!("{}:{}", e.section, e.name))
            .collect();
        format!(
            "spsa pairs {} | {} | {} pairs | {} openings | hash {} | seed {} | values {:016x}",
            names.join(","),
            self.game.limit,
            self.pairs,
            self.openings.len(),
            self.hash_mb,
            self.seed,
            values_hash(&[&self.base.eval, &self.base.search])
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
    fn duels_split_two_points_a_pair_between_plus_and_minus() {
        // Two duels of two pairs: θ+ scores 3 of 4, then 0.5 of 4.
        let results = [
            vec![1.0, 0.5, 0.0],
            vec![1.0, 0.5, 0.0],
            vec![0.0, 0.5, 0.0],
            vec![0.0, 0.0, 1.0],
        ];
        let e = duel_evaluations(&results, 2, |r| r[0] + r[1]);
        let pairs: Vec<(f64, f64)> = e.iter().map(|e| (e.fitness, e.objective)).collect();
        assert_eq!(pairs, [(3.0, 2.0), (1.0, -2.0), (0.5, -3.0), (3.5, 3.0)]);
        assert_eq!(points(Outcome::Draw), 0.5);
        assert_eq!(outcome_of(points(Outcome::Win)), Outcome::Win);
    }
}
