//! Options every long, resumable job shares (`kestrel evolve mentor`, `kestrel tune`).

use clap::Args;

#[derive(Args, Debug, Clone)]
pub struct JobOptions {
    /// Continue from OUT/checkpoint.json (same options needed).
    #[arg(long)]
    pub resume: bool,
    /// Worker threads (default: all cores); also the number of UCI mentor processes.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

impl JobOptions {
    /// Sizes the worker pool (all cores unless `--threads`) and returns the thread count.
    pub fn start_threads(&self) -> anyhow::Result<usize> {
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        kestrel_evolve::set_threads(threads).map_err(anyhow::Error::msg)?;
        Ok(threads)
    }
}
