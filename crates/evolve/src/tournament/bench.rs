//! The games-per-second benchmark: the same round robin on one thread and on the whole pool,
//! which must also give the same points (determinism whatever the thread count).

use crate::tournament::{Organism, OrganismSpace, RoundRobinFitness};
use kestrel_ga::{FitnessFunction, Genome, Purpose, stream_rng};
use std::time::Instant;

/// One timed round robin.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRun {
    /// Threads the round robin ran on (1, or the whole rayon pool).
    pub threads: usize,
    /// Games in the round robin: n·(n−1) for n organisms.
    pub games: usize,
    /// Wall-clock time of the round robin, in seconds.
    pub seconds: f64,
    /// Points per organism.
    pub points: Vec<f64>,
}

impl BenchRun {
    /// Games played per wall-clock second (the time floored at 1 ns).
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
}

/// Plays one round robin of `population` random organisms (from `seed`) on 1 thread, then on
/// the current rayon pool.
pub fn bench_round_robin(
    fitness: &RoundRobinFitness,
    population: usize,
    gene_max: i32,
    seed: u64,
) -> Result<[BenchRun; 2], String> {
    let mut rng = stream_rng(seed, 0, Purpose::Init);
    let space = OrganismSpace { max: gene_max };
    let organisms: Vec<Organism> = (0..population)
        .map(|_| Organism::random(&space, &mut rng))
        .collect();
    let games = population * population.saturating_sub(1);
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| format!("cannot start a thread pool: {e}"))?;
    let timed = |threads: usize, run: &dyn Fn() -> Vec<f64>| {
        let start = Instant::now();
        let points = run();
        BenchRun {
            threads,
            games,
            seconds: start.elapsed().as_secs_f64(),
            points,
        }
    };
    let points = || {
        fitness
            .evaluate(seed, &organisms)
            .iter()
            .map(|e| e.fitness)
            .collect()
    };
    let one = timed(1, &|| single.install(points));
    let all = timed(rayon::current_num_threads(), &points);
    Ok([one, all])
}
