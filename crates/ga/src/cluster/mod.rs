//! Fitness on other processes and machines: a versioned job protocol (fitness as a tagged spec,
//! large inputs by content hash), the worker loop (what `kestrel worker` runs), a registry
//! from spec tags to the problems' builders (filled by the program, e.g.
//! `kestrel_evolve::register_all`), one way of cutting a generation into jobs ([`jobs`]), and
//! two executors on it: [`WorkerProcesses`] on this machine and the Ray executor that drives
//! the Python package `kestrel_ray`.
//!
//! A run on workers equals the same run in process: jobs are pure (spec, sample seed, genomes),
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
