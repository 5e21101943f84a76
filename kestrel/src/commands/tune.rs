//! `kestrel tune`: fit the whole evaluation (or the compact set) by gradient descent to a
//! mentor's scores and/or game results (see docs/tune.md).

use super::job_options::JobOptions;
use super::run_folder::{RunFolder, say};
use crate::commands::checked;
use anyhow::bail;
use clap::{Args, ValueEnum};
use kestrel_eval::EVAL_TABLE;
use kestrel_evolve::mentor::positions::PickRules;
use kestrel_evolve::mentor::run::{MentorSpec, ParamSet};
use kestrel_evolve::tune::run::{KSource, MentorK, TuneConfig, TuneReport, TuneSource, run_tune};
use kestrel_params::ParamValues;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
enum SetArg {
    Full,
    Compact,
}

#[derive(clap::Subcommand)]
enum TuneAction {
    /// Print the SPSA tuner's input (OpenBench format or JSON) for the declared parameters.
    SpsaInput(super::spsa_input::SpsaInputArgs),
    /// SPSA on game pairs of θ+ against θ− (fishtest's and OpenBench's method).
    Spsa(Box<super::spsa_tune::SpsaArgs>),
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TuneArgs {
    #[command(subcommand)]
    action: Option<TuneAction>,
    /// Games to take positions from (each position gets its game's result); default: the
    /// built-in grandmaster games (`builtin:games-gm2600.pgn.gz`).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Or an EPD file (results from a `c9`/`result` operation; `c0 "train"/"test"` honoured)
    /// (default: none: --pgn).
    #[arg(long, value_name = "FILE", conflicts_with = "pgn")]
    positions: Option<PathBuf>,
    /// With --pgn: positions per game, spread over the game.
    #[arg(long, default_value_t = 10, value_parser = checked::positive)]
    per_game: usize,
    /// With --pgn: read only the first N games (default: all).
    #[arg(long, value_name = "N", value_parser = checked::positive)]
    games: Option<usize>,
    /// With --pgn: opening plies never picked.
    #[arg(long, default_value_t = 16)]
    skip_plies: usize,
    /// Share of games held out for the test loss.
    #[arg(long, default_value_t = 0.1, value_parser = checked::share_below_one)]
    test_fraction: f64,
    /// `none` (game results only), `builtin`, or `uci:COMMAND` (e.g. uci:/usr/games/stockfish).
    #[arg(long, default_value = "none")]
    mentor: String,
    /// Mentor search depth in plies (`--depth` is an old spelling).
    #[arg(long = "mentor-depth", alias = "depth", default_value_t = 8, value_parser = clap::value_parser!(i32).range(1..))]
    depth: i32,
    /// Label cache file (default: OUT/labels.tsv); labels are computed once per FEN and mentor.
    #[arg(long, value_name = "FILE", value_parser = checked::writable_file)]
    labels: Option<PathBuf>,
    /// Target = λ·σ(mentor) + (1−λ)·result (default: 1 with a mentor, 0 without).
    #[arg(long, value_parser = checked::probability)]
    lambda: Option<f64>,
    /// The sigmoid's scale K (default: fitted to the game results of the starting values).
    #[arg(long, value_parser = checked::positive_f64)]
    k: Option<f64>,
    /// The K of the mentor's scores in the targets: `fit` (the mentor's scores fitted to the
    /// game results, so the evaluation keeps its own centipawn scale; `same` without results),
    /// `same` as the evaluation's (the evaluation takes over the mentor's scale), or a number.
    #[arg(long, default_value = "fit", value_name = "fit|same|K")]
    mentor_k: String,
    /// Starting values: `defaults` or a params file.
    #[arg(long, default_value = "defaults", value_name = "defaults|FILE")]
    from: String,
    /// Which values move: every evaluation value, or the paper's 35.
    #[arg(long, value_enum, default_value = "full")]
    set: SetArg,
    /// Terms kept at their starting values, comma-separated (e.g. PAWN_VALUE,KNIGHT_VALUE)
    /// (default: none).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    freeze: Vec<String>,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 500)]
    epochs: u64,
    /// Adam's learning rate (centipawns per step, roughly).
    #[arg(long, default_value_t = 1.0, value_parser = checked::positive_f64)]
    lr: f64,
    /// L2 penalty weight on Σ (value − start)², holding values the data says little about
    /// near their start (0: none).
    #[arg(long, default_value_t = 0.0, value_parser = checked::non_negative_f64)]
    l2: f64,
    /// A progress line every N epochs (0: none).
    #[arg(long, default_value_t = 10, value_name = "N")]
    print_every: u64,
    /// Write OUT/checkpoint.json and OUT/log.csv every N epochs.
    #[arg(long, default_value_t = 25, value_name = "N")]
    checkpoint_every: u64,
    /// Seed of the position picks and the train/test split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder: tuned.toml, log.csv, checkpoint.json, labels.tsv.
    #[arg(long, default_value = "tune-out", value_parser = checked::writable_dir)]
    out: PathBuf,
    #[command(flatten)]
    job: JobOptions,
}

/// Runs the gradient tuner, or the tuner the subcommand names.
pub fn run(a: TuneArgs) -> anyhow::Result<()> {
    checked::distinct("--freeze", &a.freeze)?;
    match a.action {
        Some(TuneAction::SpsaInput(spsa)) => return super::spsa_input::run(spsa),
        Some(TuneAction::Spsa(spsa)) => return super::spsa_tune::run(*spsa),
        None => {}
    }
    let threads = a.job.start_threads()?;
    let mentor = match a.mentor.as_str() {
        "none" => None,
        m => Some(
            m.parse::<MentorSpec>()
                .map_err(|e| anyhow::anyhow!("{e}; or none for game results only"))?,
        ),
    };
    if a.depth < 1 {
        bail!("--mentor-depth must be at least 1");
    }
    if a.per_game == 0 {
        bail!("--per-game must be at least 1");
    }
    let mentor_k = match a.mentor_k.as_str() {
        "same" => MentorK::Same,
        "fit" => MentorK::Fit,
        k => MentorK::Given(k.parse().map_err(|_| {
            anyhow::anyhow!("--mentor-k: expected same, fit or a number, not '{k}'")
        })?),
    };
    let start = match a.from.as_str() {
        "defaults" => ParamValues::defaults(&EVAL_TABLE),
        file => kestrel_search::EngineParams::load(std::path::Path::new(file), "--from")?.eval,
    };
    let source = match (a.pgn, a.positions) {
        (None, Some(path)) => TuneSource::Epd(path),
        (pgn, _) => TuneSource::Pgn {
            path: pgn.unwrap_or_else(|| PathBuf::from(kestrel_tools::data::DEFAULT_GAMES)),
            per_game: a.per_game,
            max_games: a.games,
            rules: PickRules {
                skip_plies: a.skip_plies,
                ..PickRules::default()
            },
        },
    };
    let mut folder = a.job.claim(&a.out)?;
    let seed = a.seed;
    let cfg = TuneConfig {
        source,
        test_fraction: a.test_fraction,
        seed: a.seed,
        mentor,
        depth: a.depth,
        labels: a.labels,
        mentor_processes: threads,
        lambda: a.lambda,
        k: a.k,
        mentor_k,
        start,
        set: match a.set {
            SetArg::Full => ParamSet::Full,
            SetArg::Compact => ParamSet::Compact,
        },
        freeze: a.freeze,
        epochs: a.epochs,
        lr: a.lr,
        l2: a.l2,
        print_every: if a.job.quiet { 0 } else { a.print_every },
        checkpoint_every: a.checkpoint_every,
        out_dir: a.out,
        resume: a.job.resume,
        verbose: !a.job.quiet,
    };
    let r = run_tune(&cfg).map_err(anyhow::Error::msg)?;
    print_report(&mut folder, &r);
    folder.finish(seed)
}

fn print_report(folder: &mut RunFolder, r: &TuneReport) {
    if let Some(s) = &r.pgn_stats {
        say!(
            folder,
            "games: {} read, {} malformed, {} without a result, {} without a quiet position",
            s.games,
            s.malformed_games,
            s.games_without_result,
            s.games_without_candidate
        );
    }
    if let (Some(key), Some(s)) = (&r.mentor_key, &r.label_stats) {
        say!(
            folder,
            "mentor {key}: {} labels cached, {} computed, {} failed, {} engine restarts ({:.1} s)",
            s.cached,
            s.computed,
            s.failed,
            s.restarts,
            s.seconds
        );
    }
    let k_source = match r.k_source {
        KSource::Given => "given",
        KSource::FittedToResults => "fitted to the game results",
        KSource::Default => "default: no game results to fit it to",
    };
    say!(
        folder,
        "positions: {} train, {} test ({} dropped: no target); lambda {}, K {:.4} ({k_source})",
        r.train_positions,
        r.test_positions,
        r.dropped,
        r.lambda,
        r.k
    );
    if r.mentor_key.is_some() && r.lambda > 0.0 {
        say!(folder, "mentor's K in the targets: {:.4}", r.k_mentor);
    }
    say!(
        folder,
        "{} values tuned, {} epochs ({} resumed), traces {:.1} s, {:.3} s per epoch",
        r.trainable,
        r.epochs,
        r.resumed_at,
        r.trace_seconds,
        r.seconds_per_epoch
    );
    say!(folder, "{:<28} {:>12} {:>12}", "", "before", "after");
    say!(
        folder,
        "{:<28} {:>12.7} {:>12.7}",
        "train loss",
        r.loss_before.0,
        r.loss_after.0
    );
    say!(
        folder,
        "{:<28} {:>12.7} {:>12.7}",
        "test loss",
        r.loss_before.1,
        r.loss_after.1
    );
    if let (Some(b), Some(a)) = (r.cp_error_before, r.cp_error_after) {
        say!(
            folder,
            "{:<28} {:>12.2} {:>12.2}",
            "train mean |eval - mentor|",
            b.0,
            a.0
        );
        say!(
            folder,
            "{:<28} {:>12.2} {:>12.2}",
            "test mean |eval - mentor|",
            b.1,
            a.1
        );
    }
    if !r.biggest_changes.is_empty() {
        say!(folder, "biggest changes:");
        for (name, before, after) in &r.biggest_changes {
            say!(
                folder,
                "  {name:<28} {before:>6} -> {after:>6} ({:+})",
                after - before
            );
        }
    }
    say!(
        folder,
        "wrote {} and {}",
        r.params_path.display(),
        r.log_path.display()
    );
}
