//! `kestrel nnue data`: training positions from Kestrel's self-play at fixed nodes (or from
//! recorded games), each scored by Kestrel's search and carrying its game's result
//! (docs/nnue.md).

use super::executor_options::ExecutorOptions;
use super::job_options::threads_or_all_cores;
use super::run_folder::{Reuse, RunFolder, say};
use anyhow::{Context, bail};
use clap::Args;
use kestrel_chess::PgnReader;
use kestrel_ga::cluster::{BlobStore, FitnessSpec, RayExecutor};
use kestrel_nnue_train::progress::{DATA_FILE, PROGRESS_FILE};
use kestrel_nnue_train::selfplay::{
    self, DataProgress, DataRun, GamePlayer, GameSource, LocalPlayer, RemoteGames,
    SelfPlaySettings, SelfPlaySpec,
};
use kestrel_tools::progress::Progress;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Args)]
pub struct NnueDataArgs {
    /// Output folder: positions.kpos, progress.json, summary.txt. A folder holding an
    /// unfinished (or finished) run with the same settings is continued.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Games in total (raise it to extend a finished run); with --from-pgn default all.
    #[arg(long)]
    games: Option<u64>,
    /// Take positions from these recorded games (PGN, optionally .gz, or builtin:
    /// names) instead of self-play; each position carries its game's result.
    #[arg(long, value_name = "FILE", num_args = 1.., value_delimiter = ',')]
    from_pgn: Vec<String>,
    /// With --from-pgn: opening plies never taken.
    #[arg(long, default_value_t = 16)]
    skip_plies: usize,
    /// With --from-pgn: leave the positions unscored (for `kestrel nnue label`) instead of
    /// scoring them by Kestrel's search at --nodes.
    #[arg(long)]
    no_score: bool,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// The searches evaluate with this network (a `.knet` file, or `builtin`) instead of
    /// the linear evaluation (default: `linear`, the fast labeller); a run continues only
    /// with the network it began with.
    #[arg(long, value_name = "FILE")]
    net: Option<String>,
    /// Seed: game i plays from a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; on Ray: `--ray-worker-threads` on each worker); the
    /// output does not depend on it.
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
    // Where the games are played: here, or `--executor ray` (self-play only; each Ray worker
    // plays on `--ray-worker-threads` threads, `--job-tasks` games a job, default two jobs per
    // worker a block). The data is the same bytes either way.
    #[command(flatten)]
    executor: ExecutorOptions,
}

/// The games played here on `job.threads` threads, or on Ray workers.
fn game_player(args: &NnueDataArgs, job: &DataRun) -> anyhow::Result<Box<dyn GamePlayer>> {
    let Some(opts) = args.executor.ray()? else {
        return Ok(Box::new(LocalPlayer::new(job.threads)?));
    };
    let GameSource::SelfPlay(openings) = &job.source else {
        bail!("--executor ray plays self-play games; --from-pgn runs in process");
    };
    let store = BlobStore::new(&opts.blob_dir);
    let spec = SelfPlaySpec::store(&job.settings, openings, args.net.as_deref(), &store)
        .map_err(anyhow::Error::msg)?;
    let ray = RayExecutor::start(&opts, spec.tagged()).map_err(anyhow::Error::msg)?;
    let workers = ray.workers();
    let place = match opts.worker_threads {
        1 => format!("Ray, {workers} workers of 1 thread"),
        n => format!("Ray, {workers} workers of {n} threads"),
    };
    let games = RemoteGames::new(ray, spec, workers, opts.job_tasks, place);
    Ok(Box::new(games))
}

/// Plays (or scores) the games and appends their positions, resuming a run it finds.
pub fn run(args: NnueDataArgs) -> anyhow::Result<()> {
    // Before the folder is claimed: a bad network leaves nothing behind.
    let (network, network_name) = match args.net.as_deref().map(str::trim) {
        None | Some(kestrel_nnue::LINEAR) => (None, None),
        Some(spec) => {
            let (net, id) = load_network(spec)?;
            (Some(net), Some(id))
        }
    };
    let reuse = Reuse::rerun(args.overwrite, &args.out.join(PROGRESS_FILE));
    let mut folder = RunFolder::claim(&args.out, reuse)?;
    let (source, source_name, games) = source(&args)?;
    let threads = threads_or_all_cores(args.threads);
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
            network: network_name,
        },
        source,
        network,
        source_name,
        games,
        block_games: args.block_games,
        threads,
    };
    let bar = (!args.quiet).then(|| Progress::new(games, "games").with_first_line());
    let on_block = |p: &DataProgress| {
        if let Some(bar) = &bar {
            bar.set(p.games_done, format!("{} positions", p.records));
        }
    };
    let mut player = game_player(&args, &job)?;
    let report = selfplay::run_on(&args.out, &job, player.as_mut(), &on_block)?;
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
    say!(
        folder,
        "evaluation        {}",
        p.settings.network.as_deref().unwrap_or("linear")
    );
    say!(folder, "played on         {}", player.place());
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
        args.out.join(DATA_FILE).display()
    );
    folder.finish(args.seed)
}

/// The games' source, its name for the progress file, and the number of games to take.
fn source(args: &NnueDataArgs) -> anyhow::Result<(GameSource, String, u64)> {
    if args.from_pgn.is_empty() {
        if args.no_score {
            bail!(
                "--no-score needs --from-pgn (self-play positions are scored as they are played)"
            );
        }
        let Some(games) = args.games else {
            bail!("self-play needs --games N");
        };
        let openings = kestrel_tools::load_openings(Path::new(&args.openings))
            .with_context(|| format!("cannot read openings {}", args.openings))?;
        return Ok((GameSource::SelfPlay(openings), args.openings.clone(), games));
    }
    let mut games = Vec::new();
    for file in &args.from_pgn {
        let reader = kestrel_tools::data::open(Path::new(file))
            .with_context(|| format!("cannot read {file}"))?;
        let mut bad = 0;
        for game in PgnReader::new(reader) {
            match game {
                Ok(g) => games.push(g),
                Err(_) => bad += 1,
            }
        }
        if bad > 0 {
            eprintln!("{file}: {bad} unreadable games skipped");
        }
    }
    if games.is_empty() {
        bail!("no readable game in {}", args.from_pgn.join(", "));
    }
    let total = args
        .games
        .unwrap_or(games.len() as u64)
        .min(games.len() as u64);
    let name = format!(
        "pgn:{} skip={} {}",
        args.from_pgn.join(","),
        args.skip_plies,
        if args.no_score { "unscored" } else { "scored" }
    );
    let source = GameSource::Pgn {
        games,
        skip_plies: args.skip_plies,
        score: !args.no_score,
    };
    Ok((source, name, total))
}

/// The network `--net` names, laid out for the search, and its identity for `progress.json`.
fn load_network(spec: &str) -> anyhow::Result<(Arc<kestrel_nnue::NetEval>, String)> {
    let net = kestrel_nnue::read_network(spec).map_err(|e| anyhow::anyhow!("--net {spec}: {e}"))?;
    let eval = kestrel_nnue::NetEval::with_detected_kernel(&net, spec)
        .map_err(|e| anyhow::anyhow!("--net {spec}: {e}"))?;
    Ok((Arc::new(eval), selfplay::network_id(&net)))
}
