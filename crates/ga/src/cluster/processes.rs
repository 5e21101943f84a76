//! Fitness on worker processes of this machine: each speaks the worker protocol (one job line
//! in, one reply line out) on its stdin and stdout, as a Ray actor's worker does, without Ray.
//! The workers read blobs from a cache folder on this machine (the leader's blob folder).

use crate::cluster::jobs::{JobCutting, JobRunner};
use crate::cluster::protocol::{JobEnvelope, TaggedSpec, WorkerReply};
use crate::{Evaluation, Executor, FitnessFunction, FitnessJob, Genome, TaskResult};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

/// One worker's two ends: where jobs go and where replies come from.
pub type WorkerStreams = (Box<dyn Write + Send>, Box<dyn BufRead + Send>);

/// One worker: its streams and, when it is a process, the process.
struct Link {
    input: Box<dyn Write + Send>,
    output: Box<dyn BufRead + Send>,
    child: Option<Child>,
}

impl Link {
    /// Sends one job and reads its reply.
    fn ask(&mut self, job: &JobEnvelope) -> Result<WorkerReply, String> {
        let line = serde_json::to_string(job).map_err(|e| e.to_string())?;
        let sent = writeln!(self.input, "{line}").and_then(|()| self.input.flush());
        sent.map_err(|e| format!("cannot send a job to a worker: {e}"))?;
        let mut reply = String::new();
        let read = self.output.read_line(&mut reply);
        match read {
            Ok(0) => Err("a worker closed its output (it exited)".into()),
            Ok(_) => serde_json::from_str(&reply)
                .map_err(|e| format!("malformed worker reply ({e}): {}", reply.trim_end())),
            Err(e) => Err(format!("cannot read a worker's reply: {e}")),
        }
    }
}

/// Runs fitness jobs on worker processes (or any streams speaking the worker protocol).
pub struct WorkerProcesses {
    links: Vec<Mutex<Link>>,
    cutting: JobCutting,
}

impl WorkerProcesses {
    /// Starts `count` processes of `program args` (each must serve the worker protocol, e.g.
    /// `kestrel worker --cache DIR`) for the fitness `spec`.
    pub fn spawn(
        program: &Path,
        args: &[String],
        count: usize,
        spec: TaggedSpec,
    ) -> Result<Self, String> {
        let mut links = Vec::new();
        for _ in 0..count.max(1) {
            let mut child = Command::new(program)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|e| format!("cannot start worker '{}': {e}", program.display()))?;
            let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                return Err("a worker process has no pipes".into());
            };
            links.push(Mutex::new(Link {
                input: Box::new(input),
                output: Box::new(BufReader::new(output)),
                child: Some(child),
            }));
        }
        Ok(Self::with_links(links, spec))
    }

    /// Workers behind ready-made streams (e.g. pipes to threads serving a `Worker`).
    pub fn from_streams(streams: Vec<WorkerStreams>, spec: TaggedSpec) -> Self {
        let links = streams
            .into_iter()
            .map(|(input, output)| {
                Mutex::new(Link {
                    input,
                    output,
                    child: None,
                })
            })
            .collect();
        Self::with_links(links, spec)
    }

    fn with_links(links: Vec<Mutex<Link>>, spec: TaggedSpec) -> Self {
        let workers = links.len().max(1);
        WorkerProcesses {
            links,
            cutting: JobCutting {
                spec,
                workers,
                job_genomes: None,
                job_tasks: None,
            },
        }
    }

    /// Workers running jobs.
    pub fn workers(&self) -> usize {
        self.links.len()
    }
}

impl JobRunner for WorkerProcesses {
    /// Job `i` goes to worker `i % workers`; each worker answers its jobs in turn.
    fn run_jobs(&self, _generation: u64, jobs: &[JobEnvelope]) -> Result<Vec<WorkerReply>, String> {
        let n = self.links.len();
        if n == 0 {
            return Err("no workers".into());
        }
        let answers: Vec<Result<Vec<(usize, WorkerReply)>, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..n)
                .map(|w| {
                    s.spawn(move || {
                        let mut link = self.links[w].lock().map_err(|_| "worker lock poisoned")?;
                        let mut out = Vec::new();
                        for (i, job) in jobs.iter().enumerate().skip(w).step_by(n) {
                            out.push((i, link.ask(job)?));
                        }
                        Ok(out)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a worker thread panicked".into()))
                })
                .collect()
        });
        let mut replies: Vec<Option<WorkerReply>> = vec![None; jobs.len()];
        for answer in answers {
            for (i, reply) in answer? {
                replies[i] = Some(reply);
            }
        }
        Ok(replies.into_iter().flatten().collect())
    }
}

impl<G: Genome> Executor<G> for WorkerProcesses {
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

impl Drop for WorkerProcesses {
    /// Closes every worker's input (a worker stops at the end of its input) and waits for it.
    fn drop(&mut self) {
        for link in self.links.drain(..) {
            let mut link = link.into_inner().unwrap_or_else(|e| e.into_inner());
            link.input = Box::new(std::io::sink());
            if let Some(mut child) = link.child.take() {
                let _ = child.wait();
            }
        }
    }
}
