//! Evolves the Rastrigin function (a problem that is not chess) on every executor of
//! kestrel-ga, to show how a problem plugs in and that the executors agree:
//!
//! ```text
//! cargo run --release -p kestrel-ga --example rastrigin -- --executor inprocess
//! cargo run --release -p kestrel-ga --example rastrigin -- --executor processes --workers 2
//! cargo run --release -p kestrel-ga --example rastrigin -- --executor ray --workers 2
//! ```
//!
//! The same seed prints the same best value and genome on each. The binary is also its own
//! worker (`rastrigin worker [--threads N] [--cache DIR]`, what worker processes and Ray
//! actors run), serving the registry that [`problem::register`] fills.

mod problem;

use kestrel_ga::cluster::{
    BlobStore, ExecutorChoice, FitnessSpec, RayExecutor, RayOptions, Registry, Worker,
    WorkerProcesses,
};
use kestrel_ga::{Executor, InProcessExecutor, RealGenome};
use problem::RastriginSpec;
use std::process::ExitCode;

/// The command line: `--name value` pairs.
struct Options {
    executor: String,
    workers: usize,
    dimensions: usize,
    generations: u64,
    seed: u64,
    threads: usize,
    cache: Option<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        executor: "inprocess".into(),
        workers: 2,
        dimensions: 8,
        generations: 60,
        seed: 1,
        threads: 1,
        cache: None,
    };
    let mut it = args.iter();
    while let Some(name) = it.next() {
        let value = it.next().ok_or_else(|| format!("{name} needs a value"))?;
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("{what}: '{value}' is not a whole number"))
        };
        match name.as_str() {
            "--executor" => o.executor = value.clone(),
            "--workers" => o.workers = number("--workers")? as usize,
            "--dimensions" => o.dimensions = number("--dimensions")? as usize,
            "--generations" => o.generations = number("--generations")?,
            "--seed" => o.seed = number("--seed")?,
            "--threads" => o.threads = number("--threads")? as usize,
            "--cache" => o.cache = Some(value.clone()),
            _ => return Err(format!("unknown option {name}")),
        }
    }
    Ok(o)
}

/// `rastrigin worker`: answers jobs on stdin until it closes.
fn serve(o: &Options) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build_global()
        .map_err(|e| e.to_string())?;
    let mut registry = Registry::new();
    problem::register(&mut registry);
    let blobs = BlobStore::new(
        o.cache
            .clone()
            .map_or_else(BlobStore::default_dir, Into::into),
    );
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    Worker::new(&registry, blobs)
        .serve(stdin.lock(), stdout.lock())
        .map_err(|e| e.to_string())
}

/// Evolves on the executor `o` names and prints the result.
fn evolve(o: &Options) -> Result<(), String> {
    let spec = RastriginSpec {
        dimensions: o.dimensions,
    };
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let executor: Box<dyn Executor<RealGenome>> = match o.executor.parse::<ExecutorChoice>() {
        Ok(ExecutorChoice::InProcess) => Box::new(InProcessExecutor),
        Ok(ExecutorChoice::Ray(address)) => {
            let mut opts = RayOptions::new(address)?;
            opts.workers = Some(o.workers);
            Box::new(RayExecutor::start(&opts, spec.tagged())?)
        }
        Err(_) if o.executor == "processes" => {
            let args = ["worker".to_string()];
            Box::new(WorkerProcesses::spawn(
                &exe,
                &args,
                o.workers,
                spec.tagged(),
            )?)
        }
        Err(e) => return Err(format!("{e}, or processes")),
    };
    let (outcome, scored) =
        problem::evolve(executor.as_ref(), o.dimensions, o.generations, o.seed)?;
    let best = outcome.best_index();
    for s in &outcome.history {
        println!(
            "generation {:>3}: best {:.6}, mean {:.6}",
            s.generation, s.best_objective, s.mean_objective
        );
    }
    println!(
        "best f = {:?} at {:?} ({})",
        outcome.evaluations[best].objective, outcome.population[best].0, o.executor
    );
    println!("{scored} genomes scored (counted by whoever scored them)");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = args.first().is_some_and(|a| a == "worker");
    let result = parse(&args[usize::from(worker)..])
        .and_then(|o| if worker { serve(&o) } else { evolve(&o) });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rastrigin: {e}");
            ExitCode::FAILURE
        }
    }
}
