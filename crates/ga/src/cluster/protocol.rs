//! The worker protocol: one JSON object per line in each direction. A job names everything a
//! worker needs (the fitness as a tagged spec, large inputs by content hash), so any worker on
//! any node can take any job, and a retried job gives the same answer.

use crate::{Evaluation, TaskResult};
use serde::{Deserialize, Serialize};

/// Bumped whenever a field's meaning changes; a worker refuses jobs of another version.
/// 2: jobs may name a range of tasks (games, pairings) instead of scoring their genomes.
/// 3: a reply may carry the fitness's report (counts kept beside the scores).
pub const PROTOCOL_VERSION: u32 = 3;

/// A fitness as data: which builder (`kind`) and its serialised settings (`spec`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaggedSpec {
    /// The registry key, e.g. `"mentor"`.
    pub kind: String,
    /// The GA's own `XxxFitnessSpec`, serialised.
    pub spec: serde_json::Value,
    /// Content hashes of the large inputs the spec refers to (cached per node).
    pub blobs: Vec<String>,
}

/// One fitness job: score `genomes` on the sample chosen by `sample_seed`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobEnvelope {
    /// The sender's [`PROTOCOL_VERSION`]; a worker refuses jobs of another version.
    pub version: u32,
    /// The fitness to rebuild on the worker.
    pub fitness: TaggedSpec,
    /// What the leader's fitness calls itself; the worker's rebuilt fitness must agree, so a
    /// worker built from other code or data is caught instead of scoring differently.
    pub fingerprint: String,
    /// For logs and fault reports only; the fitness never reads it.
    pub generation: u64,
    /// Chooses the generation's sample (e.g. its training positions); same seed, same sample.
    pub sample_seed: u64,
    /// The genomes, in the genome type's own serde form.
    pub genomes: serde_json::Value,
    /// For a tasked (game) fitness: run tasks `start..end` of the generation among all of
    /// `genomes` and answer their results instead of evaluations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<[usize; 2]>,
}

/// A worker's answer to one job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerReply {
    /// Whether the job succeeded (otherwise `error` says why).
    pub ok: bool,
    /// One per genome, in order (when `ok`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evaluations: Vec<Evaluation>,
    /// One per task of the job's range, in order (tasked jobs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub task_results: Vec<TaskResult>,
    /// Why the job failed (when not `ok`); such a job is not retried: it would fail again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The fitness's counts from this job ([`crate::FitnessFunction::take_report`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<serde_json::Value>,
}

impl WorkerReply {
    /// A successful reply.
    pub fn scores(evaluations: Vec<Evaluation>) -> Self {
        WorkerReply {
            ok: true,
            evaluations,
            task_results: Vec::new(),
            error: None,
            report: None,
        }
    }

    /// A successful reply to a tasked job.
    pub fn task_results(task_results: Vec<TaskResult>) -> Self {
        WorkerReply {
            ok: true,
            evaluations: Vec::new(),
            task_results,
            error: None,
            report: None,
        }
    }

    /// A failed reply.
    pub fn failure(error: impl Into<String>) -> Self {
        WorkerReply {
            ok: false,
            evaluations: Vec::new(),
            task_results: Vec::new(),
            error: Some(error.into()),
            report: None,
        }
    }
}
