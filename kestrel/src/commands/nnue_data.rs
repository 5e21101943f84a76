//! `kestrel nnue data`: training positions from Kestrel's self-play at fixed nodes, each scored
//! by the search that played it and carrying its game's result (docs/nnue.md).

use super::run_folder::{Reuse, RunFolder, say};
use anyhow::Context;
use clap::Args;
use kestrel_nnue_train::selfplay::{self, DataProgress, DataRun, SelfPlaySettings};
use kestrel_tools::progress::Progress;
use std::path::PathBuf;

#[derive(Args)]
pub struct NnueDataArgs {
    /// Output folder: positions.kpos, progress.json, summary.txt. A folder holding an
    /// unfinished (or finished) run with the same settings is continued.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Games in total (raise it to extend a finished run).
    #[arg(long)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Seed: game i plays from a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores); the output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Opening positions (EPD, FEN or PGN, or a builtin: name).
    #[arg(long, default_value = kestrel_tools::data::DEFAULT_OPENINGS, value_name = "FILE")]
    openings: String,
    /// Random legal plies played after the opening.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Redraw the random plies when the search scores the start beyond this (cp).
    #[arg(long, default_value_t = 300)]
    max_opening_score: i32,
    /// Games per block (written and checkpointed together).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    block_games: u64,
    /// Hash table per game, MB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Win adjudication: |score| at least this (cp) ...
    #[arg(long, default_value_t = 1000)]
    win_score: i32,
    /// ... for this many consecutive plies.
    #[arg(long, default_value_t = 8)]
    win_plies: usize,
    /// Draw adjudication: |score| at most this (cp) ...
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// ... for this many consecutive plies ...
    #[arg(long, default_value_t = 16)]
    draw_plies: usize,
    /// ... from this ply of the game on.
    #[arg(long, default_value_t = 80)]
    draw_from_ply: usize,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Delete the run in OUT and start again.
    #[arg(long)]
    overwrite: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: NnueDataArgs) -> anyhow::Result<()> {
    let has_progress = args.out.join(selfplay::PROGRESS_FILE).exists();
    let reuse = if args.overwrite {
        Reuse::Overwrite
    } else if has_progress {
        Reuse::Resume
    } else {
        Reuse::Refuse
    };
    let mut folder = RunFolder::claim(&args.out, reuse)?;
    let openings = kestrel_tools::load_openings(std::path::Path::new(&args.openings))
        .with_context(|| format!("cannot read openings {}", args.openings))?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let job = DataRun {
        settings: SelfPlaySettings {
            seed: args.seed,
            nodes: args.nodes,
            random_plies: args.random_plies,
            max_opening_score: args.max_opening_score,
            hash_mb: args.hash as usize,
            win_score: args.win_score,
            win_plies: args.win_plies,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            draw_from_ply: args.draw_from_ply,
            max_plies: args.max_plies,
        },
        openings_source: args.openings.clone(),
        openings,
        games: args.games,
        block_games: args.block_games,
        threads,
    };
    let bar = (!args.quiet).then(|| Progress::new(args.games, "games").with_first_line());
    let on_block = |p: &DataProgress| {
        if let Some(bar) = &bar {
            bar.set(p.games_done, format!("{} positions", p.records));
        }
    };
    let report = selfplay::run(&args.out, &job, &on_block)?;
    if let Some(bar) = bar {
        bar.finish();
    }
    let p = &report.progress;
    if report.resumed {
        say!(
            folder,
            "resumed           at game {}",
            p.games_done - report.games_played
        );
    }
    say!(
        folder,
        "games             {} ({} this call)",
        p.games_done,
        report.games_played
    );
    say!(
        folder,
        "positions         {} ({} this call)",
        p.records,
        report.records_written
    );
    say!(
        folder,
        "results           +{} ={} -{} (White's view)",
        p.results[0],
        p.results[1],
        p.results[2]
    );
    say!(
        folder,
        "plies per game    {:.1}",
        p.plies as f64 / p.games_done.max(1) as f64
    );
    say!(folder, "threads           {threads}");
    say!(
        folder,
        "rate              {:.1} positions/s, {:.2} games/s over {:.1} s",
        report.records_written as f64 / report.seconds.max(1e-9),
        report.games_played as f64 / report.seconds.max(1e-9),
        report.seconds
    );
    say!(
        folder,
        "data              {}",
        args.out.join(selfplay::DATA_FILE).display()
    );
    folder.finish(args.seed)
}
