//! `--executor ray`: a generation's genomes split into jobs, sent to the Python package
//! `kestrel_ray`, which runs them on Ray actors that each keep a `kestrel worker` warm.

use crate::cluster::blobs::BlobStore;
use crate::cluster::driver::DriverProcess;
use crate::cluster::jobs::{JobCutting, JobRunner};
use crate::cluster::protocol::{JobEnvelope, TaggedSpec, WorkerReply};
use crate::{Evaluation, Executor, FitnessFunction, FitnessJob, Genome, TaskResult};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// Where fitness runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecutorChoice {
    /// On this process's threads.
    InProcess,
    /// On Ray: `None` starts a local (loopback-only) Ray; `Some(address)` joins a cluster
    /// (`ray://HOST:10001` through Ray Client, or `HOST:6379` / `auto` from a cluster node).
    Ray(Option<String>),
}

impl std::str::FromStr for ExecutorChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "inprocess" => Ok(ExecutorChoice::InProcess),
            "ray" => Ok(ExecutorChoice::Ray(None)),
            _ if s.starts_with("ray://") && s.len() > 6 => Ok(ExecutorChoice::Ray(Some(s.into()))),
            _ => match s.strip_prefix("ray:") {
                Some(addr) if !addr.is_empty() => Ok(ExecutorChoice::Ray(Some(addr.into()))),
                _ => Err(format!(
                    "unknown executor '{s}' (expected inprocess, ray, ray://HOST:PORT or ray:HOST:PORT)"
                )),
            },
        }
    }
}

/// How the Ray executor runs.
#[derive(Clone, Debug)]
pub struct RayOptions {
    /// `None`: start a local Ray on 127.0.0.1; otherwise the address given to `ray.init`.
    pub address: Option<String>,
    /// Ray actors, each holding one `kestrel worker` (default: the cluster's CPUs / threads).
    pub workers: Option<usize>,
    /// Threads of each `kestrel worker` (and CPUs each actor reserves).
    pub worker_threads: usize,
    /// Attempts after the first for a job whose worker process or node dies.
    pub max_retries: u32,
    /// How long Ray may take to start or connect and start the workers.
    pub startup_timeout: Duration,
    /// The Python that has `ray` and `kestrel_ray` installed.
    pub python: String,
    /// The `kestrel` binary the workers run (same path on every node).
    pub kestrel: PathBuf,
    /// Genomes per job (rounded up to the fitness's job unit); `None`: two jobs per worker.
    pub job_genomes: Option<usize>,
    /// Tasks (games, pairings) per job of a game fitness; `None`: two jobs per worker.
    pub job_tasks: Option<usize>,
    /// The leader's blob folder (workers cache blobs in their node's temp folder).
    pub blob_dir: PathBuf,
}

impl RayOptions {
    /// Defaults for `address` (this binary as worker, `python3`, 3 retries, 180 s startup).
    pub fn new(address: Option<String>) -> Result<Self, String> {
        Ok(RayOptions {
            address,
            workers: None,
            worker_threads: 1,
            max_retries: 3,
            startup_timeout: Duration::from_secs(180),
            python: std::env::var("KESTREL_PYTHON").unwrap_or_else(|_| "python3".into()),
            kestrel: std::env::current_exe()
                .map_err(|e| format!("cannot find the kestrel binary: {e}"))?,
            job_genomes: None,
            job_tasks: None,
            blob_dir: BlobStore::default_dir(),
        })
    }
}

/// The driver's first line.
#[derive(Deserialize)]
struct Hello {
    ok: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    workers: usize,
}

/// The driver's answer to a `run` request.
#[derive(Deserialize)]
struct RunReply {
    ok: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    replies: Vec<WorkerReply>,
}

/// Runs fitness jobs on Ray through the `kestrel_ray` driver.
pub struct RayExecutor {
    driver: Mutex<DriverProcess>,
    cutting: JobCutting,
}

impl RayExecutor {
    /// Starts Ray (or connects), starts the workers and ships the spec's blobs once.
    pub fn start(opts: &RayOptions, spec: TaggedSpec) -> Result<Self, String> {
        let mut args: Vec<String> = vec![
            "-m".into(),
            "kestrel_ray".into(),
            "--kestrel".into(),
            opts.kestrel.display().to_string(),
            "--worker-threads".into(),
            opts.worker_threads.max(1).to_string(),
            "--max-retries".into(),
            opts.max_retries.to_string(),
            "--timeout".into(),
            opts.startup_timeout.as_secs().to_string(),
        ];
        if let Some(address) = &opts.address {
            args.extend(["--address".into(), address.clone()]);
        }
        if let Some(w) = opts.workers {
            args.extend(["--workers".into(), w.to_string()]);
        }
        let mut driver = DriverProcess::spawn(&opts.python, &args)?;
        let where_ = opts
            .address
            .as_deref()
            .unwrap_or("a local Ray on 127.0.0.1");
        // A little beyond the driver's own limit, so its clearer message arrives first.
        let line = driver
            .receive(Some(opts.startup_timeout + Duration::from_secs(5)))
            .map_err(|e| format!("Ray executor ({where_}): {e}"))?;
        let hello: Hello = serde_json::from_str(&line).map_err(|e| {
            format!(
                "Ray executor ({where_}): unexpected first line '{line}' ({e}); \
                 its last output:\n{}",
                driver.stderr_tail()
            )
        })?;
        if !hello.ok {
            return Err(format!(
                "Ray executor ({where_}): {}",
                hello.error.unwrap_or_else(|| "failed to start".into())
            ));
        }
        driver.set_grace(Duration::from_secs(30));
        let store = BlobStore::new(&opts.blob_dir);
        for hash in &spec.blobs {
            let msg = serde_json::json!({
                "op": "blob", "hash": hash, "path": store.path(hash),
            });
            driver.send(&msg.to_string())?;
            let reply: RunReply = serde_json::from_str(&driver.receive(None)?)
                .map_err(|e| format!("Ray driver: malformed reply ({e})"))?;
            if !reply.ok {
                return Err(format!("Ray executor: {}", reply.error.unwrap_or_default()));
            }
        }
        Ok(RayExecutor {
            driver: Mutex::new(driver),
            cutting: JobCutting {
                spec,
                workers: hello.workers.max(1),
                job_genomes: opts.job_genomes,
                job_tasks: opts.job_tasks,
            },
        })
    }

    /// Ray actors running jobs.
    pub fn workers(&self) -> usize {
        self.cutting.workers
    }
}

impl JobRunner for RayExecutor {
    fn run_jobs(&self, generation: u64, jobs: &[JobEnvelope]) -> Result<Vec<WorkerReply>, String> {
        let msg = serde_json::json!({
            "op": "run", "generation": generation, "blobs": self.cutting.spec.blobs, "jobs": jobs,
        });
        let mut driver = self.driver.lock().map_err(|_| "Ray driver lock poisoned")?;
        driver.send(&msg.to_string())?;
        let line = driver.receive(None)?;
        let reply: RunReply = serde_json::from_str(&line)
            .map_err(|e| format!("Ray driver: malformed reply ({e}): {line}"))?;
        if !reply.ok {
            return Err(format!(
                "generation {generation} on Ray: {}",
                reply.error.unwrap_or_default()
            ));
        }
        Ok(reply.replies)
    }
}

impl<G: Genome> Executor<G> for RayExecutor {
    fn run(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<Evaluation>, String> {
        self.cutting.run(self, fitness, job)
    }

    fn run_tasks(
        &self,
        fitness: &dyn FitnessFunction<G>,
        job: &FitnessJob<G>,
    ) -> Result<Vec<TaskResult>, String> {
        self.cutting.run_tasks(self, fitness, job)
    }
}
