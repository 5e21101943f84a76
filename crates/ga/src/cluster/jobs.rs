//! A generation cut into worker-protocol jobs and put back together, for every executor that
//! speaks the protocol (Ray, local worker processes): genomes in slices on the fitness's job
//! unit (so a worker chunks exactly as in process), or a tasked fitness's tasks in ranges whose
//! results the leader combines in task order.

use crate::cluster::protocol::{JobEnvelope, PROTOCOL_VERSION, TaggedSpec, WorkerReply};
use crate::{Evaluation, FitnessFunction, FitnessJob, Genome, TaskResult};

/// Runs a generation's jobs somewhere and answers one reply per job, in job order.
pub trait JobRunner {
    /// The replies to `jobs`; a transport failure is an error (failed replies are checked by
    /// [`JobCutting::run`]).
    fn run_jobs(&self, generation: u64, jobs: &[JobEnvelope]) -> Result<Vec<WorkerReply>, String>;
}

/// How a generation becomes jobs: the fitness as a spec and the job sizes.
#[derive(Clone, Debug)]
pub struct JobCutting {
    /// The fitness every job names.
    pub spec: TaggedSpec,
    /// Workers sharing the jobs (sizes default to two jobs per worker).
    pub workers: usize,
    /// Genomes per job (rounded up to the fitness's job unit); `None`: two jobs per worker.
    pub job_genomes: Option<usize>,
    /// Tasks (games, pairings) per job of a tasked fitness; `None`: two jobs per worker.
    pub job_tasks: Option<usize>,
}

impl JobCutting {
    /// Scores `job` through `runner` exactly as the in-process executor would.
    pub fn run<G: Genome>(
        &self,
        runner: &dyn JobRunner,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String> {
        if let Some(tasks) = fitness.tasks() {
            let results = self.run_tasks(runner, fitness, job)?;
            return Ok(tasks.combine(job.sample_seed, &job.genomes, &results));
        }
        let fingerprint = fitness.fingerprint();
        let per_job = self.per_job(job.genomes.len(), fitness.job_unit().max(1));
        let mut jobs = Vec::new();
        for genomes in job.genomes.chunks(per_job) {
            jobs.push(self.envelope(&fingerprint, job, genomes, None)?);
        }
        let mut out = Vec::with_capacity(job.genomes.len());
        for r in checked(
            job.generation,
            &jobs,
            runner.run_jobs(job.generation, &jobs)?,
        )? {
            absorb(fitness, &r)?;
            out.extend(r.evaluations);
        }
        if out.len() != job.genomes.len() {
            return Err(format!(
                "the workers returned {} scores for {} genomes",
                out.len(),
                job.genomes.len()
            ));
        }
        Ok(out)
    }

    /// Genomes per job: a multiple of the fitness's job unit, so the worker chunks exactly as
    /// the in-process executor does (batched fitnesses then agree to the bit).
    fn per_job(&self, genomes: usize, chunk: usize) -> usize {
        let wanted = self
            .job_genomes
            .unwrap_or_else(|| genomes.div_ceil(2 * self.workers.max(1)));
        wanted.max(1).div_ceil(chunk) * chunk
    }

    fn envelope<G: Genome>(
        &self,
        fingerprint: &str,
        job: &FitnessJob<G>,
        genomes: &[G],
        tasks: Option<[usize; 2]>,
    ) -> Result<JobEnvelope, String> {
        Ok(JobEnvelope {
            version: PROTOCOL_VERSION,
            fitness: self.spec.clone(),
            fingerprint: fingerprint.to_string(),
            generation: job.generation,
            sample_seed: job.sample_seed,
            genomes: serde_json::to_value(genomes).map_err(|e| e.to_string())?,
            tasks,
        })
    }

    /// Every task result of a tasked fitness, in task order: the generation's tasks cut into
    /// ranges, every job carrying all genomes (the leader combines them as in process).
    pub fn run_tasks<G: Genome>(
        &self,
        runner: &dyn JobRunner,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<TaskResult>, String> {
        let tasks = fitness
            .tasks()
            .ok_or("this fitness is not split into tasks")?;
        let fingerprint = &fitness.fingerprint();
        let count = tasks.task_count(job.sample_seed, &job.genomes);
        let per_job = self
            .job_tasks
            .unwrap_or_else(|| count.div_ceil(2 * self.workers.max(1)))
            .max(1);
        let mut jobs = Vec::new();
        for start in (0..count).step_by(per_job) {
            let range = [start, (start + per_job).min(count)];
            jobs.push(self.envelope(fingerprint, job, &job.genomes, Some(range))?);
        }
        let mut results = Vec::with_capacity(count);
        for r in checked(
            job.generation,
            &jobs,
            runner.run_jobs(job.generation, &jobs)?,
        )? {
            absorb(fitness, &r)?;
            results.extend(r.task_results);
        }
        if results.len() != count {
            return Err(format!(
                "the workers returned {} results for {count} tasks",
                results.len()
            ));
        }
        Ok(results)
    }
}

/// Adds a reply's report, if any, to the leader's fitness.
fn absorb<G>(fitness: &dyn FitnessFunction<G>, reply: &WorkerReply) -> Result<(), String> {
    match &reply.report {
        Some(report) => fitness
            .absorb_report(report)
            .map_err(|e| format!("a worker's report: {e}")),
        None => Ok(()),
    }
}

/// The replies when there is one per job and none failed; any failed job fails the generation.
fn checked(
    generation: u64,
    jobs: &[JobEnvelope],
    replies: Vec<WorkerReply>,
) -> Result<Vec<WorkerReply>, String> {
    if replies.len() != jobs.len() {
        return Err(format!(
            "the workers answered {} of {} jobs",
            replies.len(),
            jobs.len()
        ));
    }
    for (i, r) in replies.iter().enumerate() {
        if !r.ok {
            return Err(format!(
                "generation {generation} job {i} failed: {}",
                r.error.clone().unwrap_or_default()
            ));
        }
    }
    Ok(replies)
}
