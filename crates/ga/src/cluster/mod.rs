//! Fitness on a cluster: a versioned job protocol (fitness as a tagged spec, large inputs by
//! content hash), the worker loop behind `kestrel worker`, a registry from spec tags to
//! builders, and the Ray executor that drives the Python package `kestrel_ray`.
//!
//! A run on Ray equals the same run in process: jobs are pure (spec, sample seed, genomes),
//! they are cut on the fitness's chunk boundaries, and scores travel as round-trip-exact JSON.

pub mod blobs;
mod driver;
pub mod executor;
pub mod jobs;
pub mod processes;
pub mod protocol;
pub mod ray;
pub mod registry;
pub mod worker;

pub use blobs::{BlobStore, content_hash, get_lines, put_lines};
pub use executor::FitnessExecutor;
pub use jobs::{JobCutting, JobRunner};
pub use processes::{WorkerProcesses, WorkerStreams};
pub use protocol::{JobEnvelope, PROTOCOL_VERSION, TaggedSpec, WorkerReply};
pub use ray::{ExecutorChoice, RayExecutor, RayOptions};
pub use registry::{FitnessSpec, Registry, RemoteFitness, parse_spec, remote_fitness};
pub use worker::Worker;
