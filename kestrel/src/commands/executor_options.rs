//! `--executor` and the Ray options every GA command shares (docs/cluster.md).

use crate::commands::checked;
use clap::Args;
use kestrel_ga::cluster::{BlobStore, ExecutorChoice, FitnessExecutor, RayOptions, TaggedSpec};
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct ExecutorOptions {
    /// Where fitness runs: `inprocess`, `ray` (a local Ray on 127.0.0.1, started on demand),
    /// `ray://HOST:10001` (Ray Client) or `ray:HOST:PORT` / `ray:auto` (from a cluster node).
    #[arg(long, default_value = "inprocess")]
    pub executor: String,
    /// Ray actors, each with one `kestrel worker` (default: the cluster's CPUs).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub ray_workers: Option<usize>,
    /// Threads of each Ray worker (and CPUs its actor reserves): a race of the games GA is
    /// one job a generation, played on one worker's threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = checked::positive)]
    pub ray_worker_threads: usize,
    /// Retries of a job whose worker process or node dies.
    #[arg(long, default_value_t = 3)]
    pub max_retries: u32,
    /// Seconds Ray may take to start or connect.
    #[arg(long, default_value_t = 180, value_parser = checked::positive_u64)]
    pub ray_timeout: u64,
    /// Genomes per Ray job (default: two jobs per worker per generation).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub job_genomes: Option<usize>,
    /// Games (or pairings) per Ray job of a game fitness (default: two jobs per worker).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    pub job_tasks: Option<usize>,
}

impl ExecutorOptions {
    /// `None` for in-process, else the Ray options.
    pub fn ray(&self) -> anyhow::Result<Option<RayOptions>> {
        let choice: ExecutorChoice = self.executor.parse().map_err(anyhow::Error::msg)?;
        let ExecutorChoice::Ray(address) = choice else {
            return Ok(None);
        };
        if [self.ray_workers, self.job_genomes, self.job_tasks].contains(&Some(0)) {
            anyhow::bail!("--ray-workers, --job-genomes and --job-tasks must be at least 1");
        }
        let mut opts = RayOptions::new(address).map_err(anyhow::Error::msg)?;
        opts.workers = self.ray_workers;
        opts.worker_threads = self.ray_worker_threads;
        opts.max_retries = self.max_retries;
        opts.startup_timeout = Duration::from_secs(self.ray_timeout.max(1));
        opts.job_genomes = self.job_genomes;
        opts.job_tasks = self.job_tasks;
        Ok(Some(opts))
    }

    /// Starts the chosen executor; `spec` describes the fitness for Ray workers (its large
    /// inputs stored in the given blob folder).
    pub fn start(
        &self,
        spec: impl FnOnce(&BlobStore) -> Result<TaggedSpec, String>,
    ) -> anyhow::Result<FitnessExecutor> {
        FitnessExecutor::start(self.ray()?.as_ref(), spec).map_err(anyhow::Error::msg)
    }
}
