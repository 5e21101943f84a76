#![warn(missing_docs)]
//! Kestrel's genetic-algorithm engine, which knows nothing of chess: genomes (bit strings with
//! binary or Gray coding, real vectors) and their operators, selection, elitism, termination,
//! the generational loop ([`GaRun`]), per-generation checkpoints (exact resume), a CSV log and
//! an SVG chart, progress through [`ProgressReport`], and the [`Executor`] seam that decides
//! where fitness runs: in process ([`InProcessExecutor`]) or through the worker protocol of
//! [`cluster`] (local worker processes, Ray).
//!
//! A problem plugs in as a [`FitnessFunction`] for its genome; to run on workers it also
//! implements [`cluster::FitnessSpec`] and adds one line to a [`cluster::Registry`]. The
//! example `examples/rastrigin` does both for a known test function and evolves it on every
//! executor.
//!
//! Reproducibility: every random draw comes from a ChaCha8 stream derived from `(seed,
//! generation, purpose)` and all draws happen on the calling thread; fitness evaluation is a pure
//! function of the genomes and the generation's sample seed, so parallel scheduling never changes
//! a run, and a resumed run equals an uninterrupted one.

mod chart;
mod checkpoint;
pub mod cluster;
pub mod engine;
mod executor;
mod genome;
mod log;
mod observer;
mod rng;
mod select;
mod settings;
mod start_point;
mod stats;
mod writer;

pub use chart::{LogChart, write_chart, write_log_chart};
pub use checkpoint::Checkpoint;
pub use engine::{GaError, GaOutcome, GaRun, GenerationView, StopReason};
pub use executor::{
    Evaluation, Executor, FitnessFunction, FitnessJob, FitnessTasks, InProcessExecutor, TaskResult,
    all_tasks_in_process, evaluate_by_tasks,
};
pub use genome::{BitGenome, BitSpace, Crossover, Genome, RealGenome, RealSpace};
pub use log::render_log_csv;
pub use observer::{ExtraFiles, ProgressReport, run_logged};
pub use rng::{Purpose, sample_rows, stream_rng};
pub use select::{Selection, Selector, fittest_first};
pub use settings::{GaSettings, StepSchedule, Termination};
pub use start_point::{centre, start_and_mutants};
pub use stats::GenerationStats;
pub use writer::BackgroundWriter;
