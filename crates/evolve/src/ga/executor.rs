//! The seam between the GA and fitness computation: a generation's fitness work is plain,
//! serialisable data ([`FitnessJob`]) scored by a pure [`FitnessFunction`]; an [`Executor`]
//! decides where that happens (in-process on all cores today, other machines later).

use crate::ga::Genome;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The score of one organism.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Higher is fitter; selection uses this (must be >= 0 for roulette selection).
    pub fitness: f64,
    /// The problem's own measure, logged (e.g. mean |error| in centipawns).
    pub objective: f64,
}

/// One generation's fitness work: genomes plus the seed of the generation's sample.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FitnessJob<G> {
    pub generation: u64,
    /// Chooses the generation's sample (e.g. its training positions); same seed, same sample.
    pub sample_seed: u64,
    pub genomes: Vec<G>,
}

/// A pure fitness: the same genomes and sample seed always give the same evaluations.
pub trait FitnessFunction<G>: Sync {
    /// Scores `genomes` (in order) on the sample chosen by `sample_seed`.
    fn evaluate(&self, sample_seed: u64, genomes: &[G]) -> Vec<Evaluation>;

    /// Genomes per parallel chunk; batching lets a fitness share work within a chunk.
    fn chunk_size(&self) -> usize {
        1
    }

    /// Names the data and settings, so a checkpoint is never resumed against other data.
    fn fingerprint(&self) -> String;
}

/// Runs fitness jobs somewhere.
pub trait Executor<G: Genome> {
    fn run(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String>;
}

/// Scores chunks of the population in parallel on the rayon pool of this process.
#[derive(Clone, Copy, Debug, Default)]
pub struct InProcessExecutor;

impl<G: Genome> Executor<G> for InProcessExecutor {
    fn run(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String> {
        let chunk = fitness.chunk_size().max(1);
        let parts: Vec<Vec<Evaluation>> = job
            .genomes
            .par_chunks(chunk)
            .map(|genomes| fitness.evaluate(job.sample_seed, genomes))
            .collect();
        let out: Vec<Evaluation> = parts.into_iter().flatten().collect();
        if out.len() != job.genomes.len() {
            return Err(format!(
                "fitness returned {} scores for {} genomes",
                out.len(),
                job.genomes.len()
            ));
        }
        Ok(out)
    }
}
