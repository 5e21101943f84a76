//! The Rastrigin function as a GA problem: a known test function with many local minima and
//! its global minimum 0 at the origin. It plugs into the engine as any problem does: a
//! [`FitnessFunction`] for the GA, a [`FitnessSpec`] a worker rebuilds it from, and one
//! registration line. The tests include this file, so the example and the tests share it.

use kestrel_ga::cluster::{BlobStore, FitnessSpec, Registry, RemoteFitness, remote_fitness};
use kestrel_ga::{
    Crossover, Evaluation, Executor, FitnessFunction, GaOutcome, GaRun, GaSettings, GenerationView,
    RealGenome, RealSpace, Selection, Termination,
};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

/// The search box of every coordinate.
const BOUND: f64 = 5.12;

/// f(x) = 10 n + Σ (xᵢ² − 10 cos 2πxᵢ), to be minimised.
pub fn rastrigin(x: &[f64]) -> f64 {
    10.0 * x.len() as f64
        + x.iter()
            .map(|&v| v * v - 10.0 * (2.0 * PI * v).cos())
            .sum::<f64>()
}

/// The fitness: higher for a smaller Rastrigin value; the objective is the value itself. It
/// also counts the genomes it scored, a count kept beside the scores that a worker reports.
pub struct Rastrigin {
    pub dimensions: usize,
    scored: AtomicU64,
}

impl Rastrigin {
    /// The fitness in `dimensions` coordinates, nothing scored yet.
    pub fn new(dimensions: usize) -> Rastrigin {
        Rastrigin {
            dimensions,
            scored: AtomicU64::new(0),
        }
    }

    /// Genomes scored here or reported by workers.
    pub fn scored(&self) -> u64 {
        self.scored.load(Ordering::Relaxed)
    }
}

impl FitnessFunction<RealGenome> for Rastrigin {
    fn evaluate(&self, _sample_seed: u64, genomes: &[RealGenome]) -> Vec<Evaluation> {
        self.scored
            .fetch_add(genomes.len() as u64, Ordering::Relaxed);
        genomes
            .iter()
            .map(|g| {
                let f = rastrigin(&g.0);
                Evaluation {
                    fitness: 1.0 / (1.0 + f),
                    objective: f,
                }
            })
            .collect()
    }

    /// A few genomes per chunk, so jobs are cut on a unit larger than one.
    fn chunk_size(&self) -> usize {
        4
    }

    fn fingerprint(&self) -> String {
        format!("rastrigin-{}", self.dimensions)
    }

    fn take_report(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "scored": self.scored.swap(0, Ordering::Relaxed) }))
    }

    fn absorb_report(&self, report: &serde_json::Value) -> Result<(), String> {
        let n = report["scored"]
            .as_u64()
            .ok_or_else(|| format!("no genome count in {report}"))?;
        self.scored.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }
}

/// What a worker needs to rebuild [`Rastrigin`]: its dimension (no blobs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RastriginSpec {
    pub dimensions: usize,
}

impl FitnessSpec for RastriginSpec {
    const KIND: &'static str = "rastrigin";

    fn blobs(&self) -> Vec<String> {
        Vec::new()
    }

    fn build(&self, _blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        if self.dimensions == 0 {
            return Err("rastrigin spec: at least one dimension".into());
        }
        Ok(remote_fitness::<RealGenome, _>(Rastrigin::new(
            self.dimensions,
        )))
    }
}

/// The problem's one registration line.
pub fn register(registry: &mut Registry) {
    registry.add::<RastriginSpec>();
}

/// Evolves `dimensions` coordinates for `generations` from `seed` on `executor`; the outcome
/// and how many genomes were scored (counted where they were scored).
pub fn evolve(
    executor: &dyn Executor<RealGenome>,
    dimensions: usize,
    generations: u64,
    seed: u64,
) -> Result<(GaOutcome<RealGenome>, u64), String> {
    let space = RealSpace {
        min: vec![-BOUND; dimensions],
        max: vec![BOUND; dimensions],
        sigma: 0.1,
    };
    let settings = GaSettings {
        population: 60,
        crossover_rate: 0.9,
        crossover: Crossover::Blend { alpha: 0.3 },
        mutation_rate: 0.1,
        selection: Selection::Tournament { size: 3 },
        elitism: 2,
        termination: Termination {
            generations,
            fitness_threshold: None,
            stall_generations: None,
        },
        seed,
        mutation_step: None,
    };
    let fitness = Rastrigin::new(dimensions);
    let outcome = GaRun {
        settings,
        space: &space,
        fitness: &fitness,
        executor,
        checkpoint: None,
        resume: false,
        seed_population: None,
    }
    .run(&mut |_: &GenerationView<RealGenome>| ControlFlow::Continue(()))
    .map_err(|e| e.to_string())?;
    Ok((outcome, fitness.scored()))
}
