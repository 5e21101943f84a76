//! The worker loop (what `kestrel worker` and the example's `rastrigin worker` run): read a
//! job per line, answer a line per job. It keeps only caches (rebuilt fitnesses by spec, blobs
//! on disk), so any worker can take any job.

use crate::cluster::blobs::BlobStore;
use crate::cluster::protocol::{JobEnvelope, PROTOCOL_VERSION, WorkerReply};
use crate::cluster::registry::{Registry, RemoteFitness};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Fitnesses kept warm at once (a run uses one; a shared worker may see a few).
const WARM_FITNESSES: usize = 4;

/// Answers jobs with fitnesses rebuilt from their specs.
pub struct Worker<'a> {
    registry: &'a Registry,
    blobs: BlobStore,
    warm: HashMap<String, Box<dyn RemoteFitness>>,
}

impl<'a> Worker<'a> {
    /// A worker reading blobs from `blobs`.
    pub fn new(registry: &'a Registry, blobs: BlobStore) -> Self {
        Worker {
            registry,
            blobs,
            warm: HashMap::new(),
        }
    }

    /// The reply to one job line.
    pub fn answer(&mut self, line: &str) -> WorkerReply {
        match self.evaluate(line) {
            Ok(reply) => reply,
            Err(e) => WorkerReply::failure(e),
        }
    }

    fn evaluate(&mut self, line: &str) -> Result<WorkerReply, String> {
        let job: JobEnvelope =
            serde_json::from_str(line).map_err(|e| format!("malformed job: {e}"))?;
        if job.version != PROTOCOL_VERSION {
            return Err(format!(
                "job protocol version {} but this worker speaks {PROTOCOL_VERSION}: \
                 run the same kestrel build on every node",
                job.version
            ));
        }
        let key = serde_json::to_string(&job.fitness).expect("a spec is plain data");
        if !self.warm.contains_key(&key) {
            let fitness = self.registry.build(&job.fitness, &self.blobs)?;
            if self.warm.len() >= WARM_FITNESSES {
                self.warm.clear();
            }
            self.warm.insert(key.clone(), fitness);
        }
        let fitness = &self.warm[&key];
        let built = fitness.fingerprint();
        if built != job.fingerprint {
            return Err(format!(
                "the worker's fitness is '{built}' but the leader's is '{}': \
                 run the same kestrel build and data on every node",
                job.fingerprint
            ));
        }
        if let Some([start, end]) = job.tasks {
            let results = fitness.run_tasks_json(job.sample_seed, job.genomes, start..end)?;
            if results.len() != end - start {
                return Err(format!(
                    "fitness returned {} results for {} tasks",
                    results.len(),
                    end - start
                ));
            }
            let mut reply = WorkerReply::task_results(results);
            reply.report = fitness.take_report();
            return Ok(reply);
        }
        let expected = job.genomes.as_array().map_or(0, Vec::len);
        let evaluations = fitness.evaluate_json(job.sample_seed, job.genomes)?;
        if evaluations.len() != expected {
            return Err(format!(
                "fitness returned {} scores for {expected} genomes",
                evaluations.len()
            ));
        }
        let mut reply = WorkerReply::scores(evaluations);
        reply.report = fitness.take_report();
        Ok(reply)
    }

    /// Serves jobs from `input` until it closes, one reply line per job line.
    pub fn serve(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = self.answer(&line);
            serde_json::to_writer(&mut output, &reply)?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
        Ok(())
    }
}
