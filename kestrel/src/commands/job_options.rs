//! Options every long, resumable job shares (`kestrel evolve mentor`, `kestrel tune`).

use super::run_folder::{Reuse, RunFolder};
use crate::commands::checked;
use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct JobOptions {
    /// Continue from OUT/checkpoint.json (same options needed).
    #[arg(long, conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the run already in OUT (its files are deleted); without it, or --resume, a
    /// folder that holds a run is refused.
    #[arg(long)]
    pub overwrite: bool,
    /// Worker threads (default: all cores); also the number of UCI mentor processes and of
    /// games an external engine plays at once (`--concurrency`).
    #[arg(long, visible_alias = "concurrency", value_parser = checked::positive)]
    pub threads: Option<usize>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

impl JobOptions {
    /// Claims the run's output folder as `--resume`/`--overwrite` say (see [`RunFolder`]).
    pub fn claim(&self, out: &std::path::Path) -> anyhow::Result<RunFolder> {
        RunFolder::claim(out, Reuse::from_flags(self.resume, self.overwrite)?)
    }

    /// Sizes the worker pool (all cores unless `--threads`) and returns the thread count.
    pub fn start_threads(&self) -> anyhow::Result<usize> {
        let threads = threads_or_all_cores(self.threads);
        kestrel_evolve::set_threads(threads).map_err(anyhow::Error::msg)?;
        Ok(threads)
    }
}

/// `--threads` if given, else every core the machine offers.
pub fn threads_or_all_cores(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}
