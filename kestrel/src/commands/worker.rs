//! `kestrel worker`: answers fitness and labelling jobs (one JSON line in, one JSON line out) for cluster
//! executors; holds nothing but caches, so any worker on any node can take any job.

use clap::Args;
use kestrel_ga::cluster::{BlobStore, Worker};
use kestrel_nnue_train::label::LabelSpec;
use kestrel_nnue_train::selfplay::SelfPlaySpec;
use std::path::PathBuf;

#[derive(Args)]
pub struct WorkerArgs {
    /// This node's blob cache (content-addressed positions, labels, suites) (default:
    /// $TMPDIR/kestrel-blobs).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Threads for scoring one job.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Answers jobs from stdin until the end of input.
pub fn run(args: WorkerArgs) -> anyhow::Result<()> {
    kestrel_evolve::set_threads(args.threads).map_err(anyhow::Error::msg)?;
    let mut registry = kestrel_evolve::registry();
    // Self-play and labelling jobs (`kestrel nnue data|label --executor ray`) beside the GAs'
    // fitnesses.
    registry.add::<SelfPlaySpec>();
    registry.add::<LabelSpec>();
    let store = BlobStore::new(args.cache.unwrap_or_else(BlobStore::default_dir));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    Worker::new(&registry, store).serve(stdin.lock(), stdout.lock())?;
    Ok(())
}
