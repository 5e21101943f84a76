//! `kestrel nnue label`: rescore a data file's positions by a UCI mentor at fixed depth or nodes
//! (docs/nnue.md).

use super::executor_options::ExecutorOptions;
use super::job_options::threads_or_all_cores;
use super::run_folder::{Reuse, RunFolder, say};
use anyhow::bail;
use clap::Args;
use kestrel_ga::cluster::{FitnessSpec, RayExecutor};
use kestrel_nnue_train::label::{
    LabelProgress, LabelSpec, Labeller, MentorLimit, RemoteLabeller, UciPool, run_label,
};
use kestrel_nnue_train::progress::{DATA_FILE, PROGRESS_FILE};
use kestrel_tools::progress::Progress;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct NnueLabelArgs {
    /// The data file whose positions are rescored (.kpos).
    #[arg(long = "in", value_name = "FILE")]
    input: PathBuf,
    /// The mentor: `uci:COMMAND` (e.g. uci:/usr/games/stockfish).
    #[arg(long, value_name = "uci:COMMAND")]
    mentor: String,
    /// Search depth per position.
    #[arg(long, default_value_t = 8, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Or nodes per position (default: none, the depth is used).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Output folder: positions.kpos, progress.json, summary.txt. A folder holding a run with
    /// the same input and mentor is continued.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Mentor processes (default: all cores; on Ray: `--ray-worker-threads` on each worker).
    #[arg(long)]
    threads: Option<usize>,
    /// Label only the first N positions (a later run with a larger N continues; default: all).
    #[arg(long, value_name = "N")]
    positions: Option<u64>,
    /// Positions per batch (written and checkpointed together).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    batch: u64,
    /// Longest wait for one position, in seconds (a hung engine is restarted).
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
    /// Delete the run in OUT and start again.
    #[arg(long)]
    overwrite: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
    // Where the mentor runs: here, or `--executor ray` (each Ray worker runs
    // `--ray-worker-threads` mentor processes; `--job-tasks` positions a job, default two
    // jobs per worker a batch). The labels are the same bytes either way.
    #[command(flatten)]
    executor: ExecutorOptions,
}

/// Starts the mentor here or on Ray; also says where it runs, for the summary.
fn start_mentor(
    args: &NnueLabelArgs,
    command: &str,
    limit: MentorLimit,
    timeout: Duration,
) -> anyhow::Result<(Box<dyn Labeller>, String)> {
    let Some(opts) = args.executor.ray()? else {
        let threads = threads_or_all_cores(args.threads);
        let pool = UciPool::start(command, limit, threads, timeout).map_err(anyhow::Error::msg)?;
        return Ok((Box::new(pool), format!("{threads} mentor processes")));
    };
    let spec = LabelSpec {
        command: command.to_string(),
        limit,
        processes: opts.worker_threads,
        move_timeout_ms: timeout.as_millis() as u64,
    };
    let ray = RayExecutor::start(&opts, spec.tagged()).map_err(anyhow::Error::msg)?;
    let workers = ray.workers();
    let labeller =
        RemoteLabeller::start(ray, spec, workers, opts.job_tasks).map_err(anyhow::Error::msg)?;
    let each = match opts.worker_threads {
        1 => "1 mentor process".to_string(),
        n => format!("{n} mentor processes"),
    };
    let place = format!("Ray, {workers} workers of {each}");
    Ok((Box::new(labeller), place))
}

/// Rescores the positions by the mentor, resuming a run it finds.
pub fn run(args: NnueLabelArgs) -> anyhow::Result<()> {
    let Some(command) = args.mentor.strip_prefix("uci:") else {
        bail!("--mentor must be uci:COMMAND, not '{}'", args.mentor);
    };
    let reuse = Reuse::rerun(args.overwrite, &args.out.join(PROGRESS_FILE));
    let mut folder = RunFolder::claim(&args.out, reuse)?;
    let limit = match args.nodes {
        Some(n) => MentorLimit::Nodes(n),
        None => MentorLimit::Depth(args.depth),
    };
    let timeout = Duration::from_secs(args.move_timeout.max(1));
    let (mut mentor, place) = start_mentor(&args, command, limit, timeout)?;
    let bar = std::sync::OnceLock::<Progress>::new();
    let on_batch = |p: &LabelProgress| {
        if args.quiet {
            return;
        }
        let bar = bar.get_or_init(|| Progress::new(p.input_records, "positions").with_first_line());
        bar.set(p.consumed, format!("{} labelled", p.written));
    };
    let report = run_label(
        &args.out,
        &args.input,
        args.batch as usize,
        args.positions,
        mentor.as_mut(),
        &on_batch,
    )?;
    if let Some(bar) = bar.get() {
        bar.finish();
    }
    let p = &report.progress;
    if report.resumed {
        say!(
            folder,
            "resumed           at position {}",
            p.consumed - report.consumed_now
        );
    }
    say!(folder, "mentor            {}", p.mentor);
    say!(
        folder,
        "positions in      {} ({} this call)",
        p.consumed,
        report.consumed_now
    );
    say!(folder, "labelled          {}", p.written);
    say!(
        folder,
        "dropped           {} mate scores, {} capture/promotion best moves, {} failures",
        p.mates,
        p.noisy,
        p.failed
    );
    say!(folder, "restarts          {} (this call)", report.restarts);
    say!(
        folder,
        "rate              {:.1} positions/s on {place} over {:.1} s",
        report.consumed_now as f64 / report.seconds.max(1e-9),
        report.seconds
    );
    say!(
        folder,
        "data              {}",
        args.out.join(DATA_FILE).display()
    );
    folder.finish(0)
}
