//! Labelling on cluster workers: a batch of positions cut into jobs of the worker protocol
//! (`kestrel_ga::cluster`), each answered by a `kestrel worker` that keeps a pool of mentor
//! processes warm. A job names its positions by FEN and gets one verdict per position back,
//! so any worker can take any job and a retried job gives the same answer. Every position is
//! searched from a cleared state, as in process, so a run on workers writes the bytes a run
//! here writes, and either continues the other.

use super::labeller::Labeller;
use super::pool::{MentorLimit, UciPool, Verdict};
use crate::format::PackedPosition;
use kestrel_chess::Board;
use kestrel_ga::TaskResult;
use kestrel_ga::cluster::{
    BlobStore, FitnessSpec, JobEnvelope, JobRunner, PROTOCOL_VERSION, RemoteFitness, WorkerReply,
};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Mutex;
use std::time::Duration;

/// What a worker needs to label positions: the mentor, its limit and its processes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelSpec {
    /// The mentor's command line (program and arguments), as found on every worker.
    pub command: String,
    /// How far the mentor searches each position.
    pub limit: MentorLimit,
    /// Mentor processes on each worker.
    pub processes: usize,
    /// Longest wait for one position, in milliseconds (a hung engine is restarted).
    pub move_timeout_ms: u64,
}

impl LabelSpec {
    /// What the leader and every worker call this labelling (checked on every job).
    pub fn fingerprint(&self) -> String {
        format!("nnue-label {} {:?}", self.command, self.limit)
    }
}

impl FitnessSpec for LabelSpec {
    const KIND: &'static str = "nnue-label";

    fn blobs(&self) -> Vec<String> {
        Vec::new()
    }

    fn build(&self, _blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String> {
        let timeout = Duration::from_millis(self.move_timeout_ms.max(1));
        // The pool's error names the mentor's command.
        let pool = UciPool::start(&self.command, self.limit, self.processes.max(1), timeout)?;
        Ok(Box::new(LabelWorker {
            fingerprint: self.fingerprint(),
            state: Mutex::new(WorkerState {
                pool,
                restarts_reported: 0,
            }),
        }))
    }
}

/// A worker's mentor pool and the restarts it has already reported.
struct WorkerState {
    pool: UciPool,
    restarts_reported: usize,
}

/// The worker side: a [`RemoteFitness`] whose tasks are positions.
struct LabelWorker {
    fingerprint: String,
    state: Mutex<WorkerState>,
}

/// A worker's report after each job: its mentor's key and the restarts since the last report.
#[derive(Debug, Serialize, Deserialize)]
struct LabelReportLine {
    mentor: String,
    restarts: usize,
}

impl RemoteFitness for LabelWorker {
    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    /// Labels the job's positions `range` (the job carries only its own positions).
    fn run_tasks_json(
        &self,
        _seed: u64,
        genomes: serde_json::Value,
        range: Range<usize>,
    ) -> Result<Vec<TaskResult>, String> {
        let fens: Vec<String> =
            serde_json::from_value(genomes).map_err(|e| format!("malformed positions: {e}"))?;
        let fens = fens.get(range.clone()).ok_or_else(|| {
            format!(
                "positions {}..{} of a job of {}",
                range.start,
                range.end,
                fens.len()
            )
        })?;
        let boards: Vec<Option<Board>> = fens.iter().map(|f| Board::from_fen(f).ok()).collect();
        let mut state = self.state.lock().map_err(|_| "mentor lock poisoned")?;
        let verdicts = state.pool.label_boards(&boards)?;
        Ok(verdicts.into_iter().map(encode).collect())
    }

    fn take_report(&self) -> Option<serde_json::Value> {
        let mut state = self.state.lock().ok()?;
        let restarts = state.pool.restarts();
        let line = LabelReportLine {
            mentor: state.pool.key(),
            restarts: restarts - state.restarts_reported,
        };
        state.restarts_reported = restarts;
        serde_json::to_value(line).ok()
    }
}

/// A verdict as a task result: `[0, cp]`, `[1]` mate, `[2]` noisy, `[3]` failed.
fn encode(verdict: Verdict) -> TaskResult {
    match verdict {
        Verdict::Score(cp) => vec![0.0, f64::from(cp)],
        Verdict::Mate => vec![1.0],
        Verdict::Noisy => vec![2.0],
        Verdict::Failed => vec![3.0],
    }
}

/// The verdict a task result encodes ([`encode`]); anything else is an error.
fn decode(result: &[f64]) -> Result<Verdict, String> {
    let bad = || format!("a worker answered the verdict {result:?}");
    match *result {
        [0.0, cp] => {
            let whole = cp.fract() == 0.0 && cp.abs() <= f64::from(i16::MAX);
            whole.then_some(Verdict::Score(cp as i16)).ok_or_else(bad)
        }
        [1.0] => Ok(Verdict::Mate),
        [2.0] => Ok(Verdict::Noisy),
        [3.0] => Ok(Verdict::Failed),
        _ => Err(bad()),
    }
}

/// The leader side: batches labelled by jobs on `R` (Ray, or worker processes here).
pub struct RemoteLabeller<R: JobRunner> {
    runner: R,
    spec: LabelSpec,
    workers: usize,
    job_positions: Option<usize>,
    key: String,
    restarts: usize,
    batches: u64,
}

impl<R: JobRunner> RemoteLabeller<R> {
    /// Labels through `runner`'s `workers` (which serve [`LabelSpec`]), `job_positions` a job
    /// (default: two jobs per worker a batch). Sends each worker an empty job first, so a
    /// mentor that does not start is an error before any position is labelled, and the
    /// workers must all name the same mentor.
    pub fn start(
        runner: R,
        spec: LabelSpec,
        workers: usize,
        job_positions: Option<usize>,
    ) -> Result<Self, String> {
        let mut labeller = RemoteLabeller {
            runner,
            spec,
            workers: workers.max(1),
            job_positions,
            key: String::new(),
            restarts: 0,
            batches: 0,
        };
        let probes: Vec<Vec<String>> = vec![Vec::new(); labeller.workers];
        labeller.run(&probes)?;
        Ok(labeller)
    }

    /// Runs one job per slice of FENs; the verdicts in slice order.
    fn run(&mut self, slices: &[Vec<String>]) -> Result<Vec<Verdict>, String> {
        let fingerprint = self.spec.fingerprint();
        let jobs: Vec<JobEnvelope> = slices
            .iter()
            .map(|fens| JobEnvelope {
                version: PROTOCOL_VERSION,
                fitness: self.spec.tagged(),
                fingerprint: fingerprint.clone(),
                generation: self.batches,
                sample_seed: 0,
                genomes: serde_json::json!(fens),
                tasks: Some([0, fens.len()]),
            })
            .collect();
        let replies = self.runner.run_jobs(self.batches, &jobs)?;
        self.batches += 1;
        if replies.len() != jobs.len() {
            return Err(format!(
                "the workers answered {} of {} jobs",
                replies.len(),
                jobs.len()
            ));
        }
        let mut verdicts = Vec::new();
        for (i, (reply, fens)) in replies.iter().zip(slices).enumerate() {
            self.absorb(i, reply)?;
            if reply.task_results.len() != fens.len() {
                return Err(format!(
                    "job {i}: {} verdicts for {} positions",
                    reply.task_results.len(),
                    fens.len()
                ));
            }
            for result in &reply.task_results {
                verdicts.push(decode(result)?);
            }
        }
        Ok(verdicts)
    }

    /// Checks one reply and takes its report (the mentor's key, restarts).
    fn absorb(&mut self, job: usize, reply: &WorkerReply) -> Result<(), String> {
        if !reply.ok {
            let why = reply.error.clone().unwrap_or_default();
            return Err(format!("labelling job {job} failed on a worker: {why}"));
        }
        let report = reply
            .report
            .clone()
            .ok_or_else(|| format!("labelling job {job}: the worker sent no report"))?;
        let line: LabelReportLine = serde_json::from_value(report)
            .map_err(|e| format!("labelling job {job}: malformed report ({e})"))?;
        if self.key.is_empty() {
            self.key = line.mentor;
        } else if self.key != line.mentor {
            return Err(format!(
                "the workers run different mentors: '{}' and '{}'; install the same engine \
                 at the same path on every node",
                self.key, line.mentor
            ));
        }
        self.restarts += line.restarts;
        Ok(())
    }
}

impl<R: JobRunner> Labeller for RemoteLabeller<R> {
    fn key(&self) -> String {
        self.key.clone()
    }

    fn restarts(&self) -> usize {
        self.restarts
    }

    /// Readable records go to the workers in slices; unreadable ones fail here.
    fn label(&mut self, records: &[PackedPosition]) -> Result<Vec<Verdict>, String> {
        let fens: Vec<Option<String>> = records
            .iter()
            .map(|r| r.to_board().ok().map(|b| b.to_fen()))
            .collect();
        let readable: Vec<String> = fens.iter().flatten().cloned().collect();
        let per_job = self
            .job_positions
            .unwrap_or_else(|| readable.len().div_ceil(2 * self.workers))
            .max(1);
        let slices: Vec<Vec<String>> = readable.chunks(per_job).map(<[String]>::to_vec).collect();
        let answered = if slices.is_empty() {
            Vec::new()
        } else {
            self.run(&slices)?
        };
        let mut answered = answered.into_iter();
        fens.iter()
            .map(|fen| match fen {
                Some(_) => answered
                    .next()
                    .ok_or_else(|| "the workers answered too few verdicts".to_string()),
                None => Ok(Verdict::Failed),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_survive_the_trip_as_task_results_and_nonsense_is_refused() {
        for v in [
            Verdict::Score(-20_000),
            Verdict::Score(0),
            Verdict::Score(317),
            Verdict::Mate,
            Verdict::Noisy,
            Verdict::Failed,
        ] {
            assert_eq!(decode(&encode(v)), Ok(v));
        }
        for bad in [
            &[][..],
            &[0.0][..],
            &[0.0, 1.5][..],
            &[0.0, 1e9][..],
            &[4.0][..],
        ] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
    }
}
