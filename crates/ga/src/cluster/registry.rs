//! Which fitness a worker can rebuild: a map from a spec's `kind` tag to its builder. A problem
//! plugs in by implementing [`FitnessSpec`] (its `KIND`, its blobs and how it rebuilds its
//! fitness) and adding one `registry.add::<Spec>()` line; the registry names no problem.

use crate::cluster::blobs::BlobStore;
use crate::cluster::protocol::TaggedSpec;
use crate::{
    Evaluation, Executor, FitnessFunction, FitnessJob, Genome, InProcessExecutor, TaskResult,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::Range;

/// A fitness rebuilt in a worker: takes genomes as JSON, so the worker needs no genome type.
pub trait RemoteFitness {
    /// The rebuilt fitness's fingerprint (must equal the leader's).
    fn fingerprint(&self) -> String;
    /// Scores JSON genomes exactly as the in-process executor would. A fitness whose jobs
    /// are only tasks (games, positions) keeps the default, which refuses.
    fn evaluate_json(
        &self,
        _sample_seed: u64,
        _genomes: serde_json::Value,
    ) -> Result<Vec<Evaluation>, String> {
        Err("this fitness is split into tasks: its jobs name tasks, not genomes to score".into())
    }
    /// Runs tasks `range` of a tasked (game) fitness among JSON genomes.
    fn run_tasks_json(
        &self,
        sample_seed: u64,
        genomes: serde_json::Value,
        range: Range<usize>,
    ) -> Result<Vec<TaskResult>, String>;
    /// The counts the fitness kept since the last call ([`FitnessFunction::take_report`]).
    fn take_report(&self) -> Option<serde_json::Value>;
}

/// Adapts a typed `FitnessFunction<G>` to [`RemoteFitness`].
struct Typed<G, F> {
    fitness: F,
    genome: PhantomData<fn() -> G>,
}

impl<G: Genome, F: FitnessFunction<G>> RemoteFitness for Typed<G, F> {
    fn fingerprint(&self) -> String {
        self.fitness.fingerprint()
    }

    fn evaluate_json(
        &self,
        sample_seed: u64,
        genomes: serde_json::Value,
    ) -> Result<Vec<Evaluation>, String> {
        let genomes: Vec<G> =
            serde_json::from_value(genomes).map_err(|e| format!("malformed genomes: {e}"))?;
        // The same chunking as in process, so batched fitnesses give bit-identical scores.
        let job = FitnessJob {
            generation: 0,
            sample_seed,
            genomes,
        };
        InProcessExecutor.run(&self.fitness, &job)
    }

    fn run_tasks_json(
        &self,
        sample_seed: u64,
        genomes: serde_json::Value,
        range: Range<usize>,
    ) -> Result<Vec<TaskResult>, String> {
        let tasks = self
            .fitness
            .tasks()
            .ok_or("this fitness is not split into tasks")?;
        let genomes: Vec<G> =
            serde_json::from_value(genomes).map_err(|e| format!("malformed genomes: {e}"))?;
        let count = tasks.task_count(sample_seed, &genomes);
        if range.start > range.end || range.end > count {
            return Err(format!(
                "tasks {}..{} are not within the generation's {count}",
                range.start, range.end
            ));
        }
        Ok(tasks.run_tasks(sample_seed, &genomes, range))
    }

    fn take_report(&self) -> Option<serde_json::Value> {
        self.fitness.take_report()
    }
}

/// Boxes a typed fitness for a worker; what a builder returns.
pub fn remote_fitness<G, F>(fitness: F) -> Box<dyn RemoteFitness>
where
    G: Genome,
    F: FitnessFunction<G> + 'static,
{
    Box::new(Typed::<G, F> {
        fitness,
        genome: PhantomData,
    })
}

/// Rebuilds a fitness from its spec and the node's blob cache.
pub type Builder = fn(&serde_json::Value, &BlobStore) -> Result<Box<dyn RemoteFitness>, String>;

/// A GA's serialisable fitness settings: what the leader ships and the worker rebuilds.
pub trait FitnessSpec: Serialize + DeserializeOwned {
    /// The registry key of this spec.
    const KIND: &'static str;
    /// The content hashes of the blobs the spec names.
    fn blobs(&self) -> Vec<String>;
    /// Rebuilds the fitness in a worker (its blobs are in `blobs`); usually
    /// `Ok(remote_fitness::<Genome, _>(fitness))`.
    fn build(&self, blobs: &BlobStore) -> Result<Box<dyn RemoteFitness>, String>;

    /// The spec as the tagged data a job carries.
    fn tagged(&self) -> TaggedSpec {
        TaggedSpec {
            kind: Self::KIND.to_string(),
            spec: serde_json::to_value(self).expect("a fitness spec is plain data"),
            blobs: self.blobs(),
        }
    }
}

/// Parses a spec of type `S` out of a job's JSON (for builders).
pub fn parse_spec<S: FitnessSpec>(spec: &serde_json::Value) -> Result<S, String> {
    serde_json::from_value(spec.clone()).map_err(|e| format!("malformed {} spec: {e}", S::KIND))
}

/// The [`Builder`] of any [`FitnessSpec`]: parse the spec, then build it.
fn build_spec<S: FitnessSpec>(
    spec: &serde_json::Value,
    blobs: &BlobStore,
) -> Result<Box<dyn RemoteFitness>, String> {
    parse_spec::<S>(spec)?.build(blobs)
}

/// The builders a worker knows, by kind.
#[derive(Default)]
pub struct Registry {
    builders: BTreeMap<&'static str, Builder>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds spec type `S` under its `KIND` (a later one replaces an earlier one).
    pub fn add<S: FitnessSpec>(&mut self) {
        self.register(S::KIND, build_spec::<S>);
    }

    /// Adds the builder of `kind` (a later one replaces an earlier one).
    pub fn register(&mut self, kind: &'static str, builder: Builder) {
        self.builders.insert(kind, builder);
    }

    /// The registered kinds, sorted.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.builders.keys().copied().collect()
    }

    /// Rebuilds the fitness a tagged spec describes.
    pub fn build(
        &self,
        spec: &TaggedSpec,
        blobs: &BlobStore,
    ) -> Result<Box<dyn RemoteFitness>, String> {
        let builder = self.builders.get(spec.kind.as_str()).ok_or_else(|| {
            format!(
                "this worker cannot build fitness '{}' (it knows: {})",
                spec.kind,
                self.kinds().join(", ")
            )
        })?;
        builder(&spec.spec, blobs)
    }
}
