//! The seam between the GA and fitness computation: a generation's fitness work is plain,
//! serialisable data ([`FitnessJob`]) scored by a pure [`FitnessFunction`]; an [`Executor`]
//! decides where that happens (in process on all cores, or on workers: see `cluster`).

use crate::Genome;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

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
    /// The generation these genomes belong to (0 = the initial population).
    pub generation: u64,
    /// Chooses the generation's sample (e.g. its training positions); same seed, same sample.
    pub sample_seed: u64,
    /// The organisms to score, in order.
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

    /// The fewest genomes a job on another worker may hold without changing any score: a
    /// multiple of this is scored exactly as in process. Default: the chunk size; a fitness
    /// that scores each genome alone but batches for speed may answer 1.
    fn job_unit(&self) -> usize {
        self.chunk_size()
    }

    /// A relative fitness (games among the genomes) split into independent tasks, so that a
    /// cluster executor can spread one generation over several workers. `None`: genomes are
    /// the unit of work.
    fn tasks(&self) -> Option<&dyn FitnessTasks<G>> {
        None
    }

    /// Counts the fitness keeps beside its scores (e.g. an engine's faults) since the last
    /// call, as data. A cluster worker takes them after each job and sends them with its
    /// reply; the leader adds them to its own fitness by [`FitnessFunction::absorb_report`],
    /// so the counts cover every worker. `None` (the default): nothing to report.
    fn take_report(&self) -> Option<serde_json::Value> {
        None
    }

    /// Adds a worker's report (what its [`FitnessFunction::take_report`] answered) to this
    /// fitness's counts; an error when the report is malformed.
    fn absorb_report(&self, _report: &serde_json::Value) -> Result<(), String> {
        Ok(())
    }
}

/// One task's result: a few numbers (e.g. White's points in one game).
pub type TaskResult = Vec<f64>;

/// A generation's scoring as independent tasks (games, pairings) whose results the leader
/// combines in task order. `evaluate` of such a fitness must equal [`evaluate_by_tasks`], so
/// any split of the tasks over workers gives bit-identical scores.
pub trait FitnessTasks<G>: Sync {
    /// How many tasks the generation has (a pure function of the seed and the genome count).
    fn task_count(&self, sample_seed: u64, genomes: &[G]) -> usize;
    /// The results of tasks `range`, in order.
    fn run_tasks(&self, sample_seed: u64, genomes: &[G], range: Range<usize>) -> Vec<TaskResult>;
    /// The genomes' evaluations from every task's result (in task order).
    fn combine(&self, sample_seed: u64, genomes: &[G], results: &[TaskResult]) -> Vec<Evaluation>;
}

/// Runs every task in process and combines them: what a tasked fitness's `evaluate` does.
pub fn evaluate_by_tasks<G>(
    tasks: &dyn FitnessTasks<G>,
    sample_seed: u64,
    genomes: &[G],
) -> Vec<Evaluation> {
    let n = tasks.task_count(sample_seed, genomes);
    let results = tasks.run_tasks(sample_seed, genomes, 0..n);
    tasks.combine(sample_seed, genomes, &results)
}

/// Runs fitness jobs somewhere.
pub trait Executor<G: Genome> {
    /// The evaluations of `job`'s genomes, in order.
    fn run(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String>;

    /// Every task result of a tasked fitness (in task order), for callers that combine the
    /// results themselves (SPSA's duels). In process by default; cluster executors spread
    /// the tasks over their workers.
    fn run_tasks(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<TaskResult>, String> {
        all_tasks_in_process(fitness, job)
    }
}

/// Runs every task of a tasked fitness in this process.
pub fn all_tasks_in_process<G>(
    fitness: &dyn FitnessFunction<G>,
    job: &FitnessJob<G>,
) -> Result<Vec<TaskResult>, String> {
    let tasks = fitness
        .tasks()
        .ok_or("this fitness is not split into tasks")?;
    let count = tasks.task_count(job.sample_seed, &job.genomes);
    Ok(tasks.run_tasks(job.sample_seed, &job.genomes, 0..count))
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
