//! The example's problem (Rastrigin, not chess) evolves in process, and through the worker
//! protocol (workers rebuilding it from its spec and registry line, fed JSON lines over pipes)
//! to exactly the same run; a worker that cannot build or that is gone fails the run clearly.

#[path = "../../examples/rastrigin/problem.rs"]
mod problem;

use kestrel_ga::cluster::{
    BlobStore, FitnessSpec, Registry, Worker, WorkerProcesses, WorkerStreams,
};
use kestrel_ga::{GaOutcome, GenerationStats, InProcessExecutor, RealGenome};
use problem::RastriginSpec;
use std::io::BufReader;

/// `count` workers, each a thread serving a [`Worker`] over a pair of pipes.
fn piped_workers(count: usize) -> Vec<WorkerStreams> {
    (0..count)
        .map(|_| {
            let (job_reader, job_writer) = std::io::pipe().unwrap();
            let (reply_reader, reply_writer) = std::io::pipe().unwrap();
            std::thread::spawn(move || {
                let mut registry = Registry::new();
                problem::register(&mut registry);
                let blobs = BlobStore::new(std::env::temp_dir().join("kestrel-ga-example-blobs"));
                Worker::new(&registry, blobs)
                    .serve(BufReader::new(job_reader), reply_writer)
                    .unwrap();
            });
            let streams: WorkerStreams =
                (Box::new(job_writer), Box::new(BufReader::new(reply_reader)));
            streams
        })
        .collect()
}

/// The log without its wall times (the only non-reproducible column).
fn timeless(history: &[GenerationStats]) -> Vec<GenerationStats> {
    history
        .iter()
        .map(|s| GenerationStats {
            seconds: 0.0,
            ..s.clone()
        })
        .collect()
}

fn same_run(a: &GaOutcome<RealGenome>, b: &GaOutcome<RealGenome>) {
    assert_eq!(a.population, b.population);
    assert_eq!(a.evaluations, b.evaluations);
    assert_eq!(timeless(&a.history), timeless(&b.history));
    assert_eq!(a.stop, b.stop);
}

#[test]
fn rastrigin_evolves_in_process() {
    assert_eq!(problem::rastrigin(&[0.0; 6]), 0.0);
    assert!((problem::rastrigin(&[1.0, 0.0]) - 1.0).abs() < 1e-12);
    let (out, _) = problem::evolve(&InProcessExecutor, 6, 80, 3).unwrap();
    let first = out.history[0].best_objective;
    let last = out.evaluations[out.best_index()].objective;
    assert!(
        first > 20.0,
        "a random start is far from the minimum: {first}"
    );
    assert!(last < first / 4.0, "{first} -> {last}");
    let (again, _) = problem::evolve(&InProcessExecutor, 6, 80, 3).unwrap();
    same_run(&out, &again);
}

/// The same run through workers, and the workers' reports (genomes they scored) add up on
/// the leader to what it counts in process: every genome once.
#[test]
fn worker_protocol_gives_the_in_process_run() {
    let (local, scored) = problem::evolve(&InProcessExecutor, 5, 25, 7).unwrap();
    assert_eq!(scored, 60 * 25, "{scored}: 60 genomes a generation");
    for workers in [1, 3] {
        let spec = RastriginSpec { dimensions: 5 };
        let executor = WorkerProcesses::from_streams(piped_workers(workers), spec.tagged());
        assert_eq!(executor.workers(), workers);
        let (remote, reported) = problem::evolve(&executor, 5, 25, 7).unwrap();
        same_run(&local, &remote);
        assert_eq!(reported, scored, "{workers} workers");
    }
}

#[test]
fn workers_that_cannot_answer_fail_the_run_clearly() {
    let bad = RastriginSpec { dimensions: 0 };
    let executor = WorkerProcesses::from_streams(piped_workers(2), bad.tagged());
    let err = problem::evolve(&executor, 5, 3, 1).unwrap_err();
    assert!(
        err.contains("job 0 failed: rastrigin spec: at least one dimension"),
        "{err}"
    );

    let gone: WorkerStreams = (Box::new(std::io::sink()), Box::new(std::io::empty()));
    let spec = RastriginSpec { dimensions: 5 };
    let executor = WorkerProcesses::from_streams(vec![gone], spec.tagged());
    let err = problem::evolve(&executor, 5, 3, 1).unwrap_err();
    assert!(err.contains("closed its output"), "{err}");
}
