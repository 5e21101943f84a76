//! `kestrel nnue train`: fit a perspective network to scored positions on every core, and
//! export it quantised (docs/nnue.md).

use super::job_options::threads_or_all_cores;
use super::run_folder::{Reuse, RunFolder, SUMMARY_FILE, say};
use anyhow::{Context, bail};
use clap::Args;
use kestrel_nnue_train::format::PackedPosition;
use kestrel_nnue_train::train::checkpoint::LogRow;
use kestrel_nnue_train::train::mirror::can_mirror;
use kestrel_nnue_train::train::{
    CHECKPOINT_FILE, DEFAULT_SCALE, HOLDOUT_RUN, Holdout, NET_FILE, StartWeights, TrainConfig,
    load_first, run_train,
};
use std::path::PathBuf;

#[derive(Args)]
pub struct NnueTrainArgs {
    /// Data files (.kpos) or run folders of `nnue data`/`nnue label` (their complete blocks so
    /// far, so a run still writing can be trained on), comma-separated or repeated.
    #[arg(long, value_name = "FILE", num_args = 1.., value_delimiter = ',', required = true)]
    data: Vec<PathBuf>,
    /// Output folder: checkpoint.bin, log.csv, loss.svg, net.knet, summary.txt. A folder
    /// holding a checkpoint of the same settings and data is continued.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Neurons per perspective (512: the shipped network's width, the best measured).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hidden: u64,
    /// Passes over the training positions (40: on 4.4M positions, +23.5 Elo over the shipped
    /// network at 5,000 nodes against +9.9 for 20; docs/nnue.md, "4.4 million positions").
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..))]
    epochs: u64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Peak learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Steps of linear warm-up to the peak rate.
    #[arg(long, default_value_t = 100)]
    warmup_steps: u64,
    /// The last step's rate as a fraction of the peak (cosine decay).
    #[arg(long, default_value_t = 0.05)]
    final_lr_factor: f32,
    /// Target = λ·σ(score/K) + (1−λ)·result.
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// K: centipawns per unit of the sigmoid's argument.
    #[arg(long = "scale", default_value_t = DEFAULT_SCALE)]
    scale: f32,
    /// Share of positions held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// How they are held out: `runs` of 4,096 consecutive positions, so that the held-out
    /// games were never trained on, or single `positions` (the split of the networks trained
    /// before this option, whose held-out positions share games with the training ones).
    #[arg(long, default_value = "runs", value_parser = parse_holdout)]
    holdout: Holdout,
    /// Seed of the initial weights, the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores); the result does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Delete the run in OUT and start again.
    #[arg(long)]
    overwrite: bool,
    /// No per-epoch lines.
    #[arg(long)]
    quiet: bool,
    /// Train on the first N positions of the data only (default: all), for data-size curves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    max_positions: Option<u64>,
    /// Show each training position without castling rights mirrored (a<->h) in a seeded half
    /// of the epochs: the default, since it wins games (docs/nnue.md, "mirroring").
    #[arg(long, conflicts_with_all = ["no_mirror", "king_buckets"])]
    mirror: bool,
    /// Train on the positions as they are, never mirrored.
    #[arg(long = "no-mirror")]
    no_mirror: bool,
    /// Output buckets: N output layers, each position scored by the one of its material,
    /// (pieces - 2) * N / 31, e.g. (pieces - 2) / 4 for 8 (docs/nnue.md, "Output buckets").
    /// 1: the network without buckets.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=kestrel_nnue::MAX_OUTPUT_BUCKETS as u64))]
    output_buckets: u64,
    /// King-relative inputs: each side sees the board mirrored to put its king on files a-d,
    /// through one of N sets of 768 weights chosen by the king's square (1, 2 or 4; docs/nnue.md,
    /// "King buckets"). Positions are then never mirrored for training: the inputs are.
    /// Default: none, the plain inputs.
    #[arg(long, value_name = "N", value_parser = parse_king_buckets)]
    king_buckets: Option<usize>,
    /// Start from this network's weights instead of random ones: a `.knet` file or `builtin`,
    /// of the shape --hidden, --output-buckets and --king-buckets ask for (fine-tuning a
    /// network on new data; docs/nnue.md, "Fine-tuning"). Default: random weights from --seed.
    #[arg(long, value_name = "NET")]
    init: Option<String>,
}

/// A `--holdout` value.
fn parse_holdout(text: &str) -> Result<Holdout, String> {
    match text {
        "runs" => Ok(Holdout::Runs),
        "positions" => Ok(Holdout::Positions),
        _ => Err(format!("{text:?}: use runs or positions")),
    }
}

/// A `--king-buckets` value: one of the counts a layout may have.
fn parse_king_buckets(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    kestrel_nnue::InputLayout::king_buckets(n).map(|_| n)
}

/// Whether the run mirrors training positions: on unless `--no-mirror` (`--mirror` states
/// the default; clap refuses both together) or the inputs are king-relative (mirrored in
/// the features themselves).
fn mirrored(args: &NnueTrainArgs) -> bool {
    (args.mirror || !args.no_mirror) && args.king_buckets.is_none()
}

fn check(args: &NnueTrainArgs) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must lie in [0, 1], not {}", args.lambda);
    }
    if !(args.scale > 0.0 && args.scale.is_finite()) {
        bail!("--scale must be a positive number, not {}", args.scale);
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        bail!("--lr must be a positive number, not {}", args.lr);
    }
    if !(0.0..1.0).contains(&args.validation) {
        bail!("--validation must lie in [0, 1), not {}", args.validation);
    }
    if !(0.0..=1.0).contains(&args.final_lr_factor) {
        bail!(
            "--final-lr-factor must lie in [0, 1], not {}",
            args.final_lr_factor
        );
    }
    Ok(())
}

/// The summary's mirror line: off, in the inputs, or on with how many training positions it
/// applies to.
fn mirror_line(args: &NnueTrainArgs, train: &[PackedPosition]) -> String {
    if args.king_buckets.is_some() {
        return "in the inputs (king-relative: each side's king on files a-d)".into();
    }
    if !mirrored(args) {
        return "off".into();
    }
    let n = train.iter().filter(|r| can_mirror(r)).count();
    format!(
        "on: {n} of {} training positions without castling rights, each mirrored in a seeded half of the epochs",
        train.len()
    )
}

/// The summary's line on how the validation positions were drawn.
fn holdout_line(holdout: Holdout) -> String {
    match holdout {
        Holdout::Runs => format!("runs of {HOLDOUT_RUN} consecutive positions (whole games)"),
        Holdout::Positions => "single positions (sharing games with the training set)".into(),
    }
}

/// `, N output buckets` for a bucketed network and `, K king buckets` for king-relative
/// inputs; nothing for the plain network.
fn buckets_note(args: &NnueTrainArgs) -> String {
    let mut note = String::new();
    if args.output_buckets > 1 {
        note.push_str(&format!(", {} output buckets", args.output_buckets));
    }
    if let Some(k) = args.king_buckets {
        note.push_str(&format!(", {k} king buckets"));
    }
    note
}

/// The weights `--init` names, checked against the shape the run asks for.
fn start_weights(
    args: &NnueTrainArgs,
    config: &TrainConfig,
) -> anyhow::Result<Option<StartWeights>> {
    let Some(spec) = args.init.as_deref() else {
        return Ok(None);
    };
    let net =
        kestrel_nnue::read_network(spec).map_err(|e| anyhow::anyhow!("--init {spec}: {e}"))?;
    let layout = config.layout().map_err(anyhow::Error::msg)?;
    let start =
        StartWeights::new(&net, spec, layout).map_err(|e| anyhow::anyhow!("--init: {e}"))?;
    Ok(Some(start))
}

/// Trains the network, resuming a run it finds, and exports it quantised.
pub fn run(args: NnueTrainArgs) -> anyhow::Result<()> {
    check(&args)?;
    let reuse = Reuse::rerun(args.overwrite, &args.out.join(CHECKPOINT_FILE));
    let mut folder = RunFolder::claim(&args.out, reuse)?;
    let threads = threads_or_all_cores(args.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let mut config = TrainConfig {
        hidden: args.hidden as usize,
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        lr: args.lr,
        warmup_steps: args.warmup_steps,
        final_lr_factor: args.final_lr_factor,
        lambda: args.lambda,
        scale: args.scale,
        validation_fraction: args.validation,
        seed: args.seed,
        mirror: mirrored(&args),
        output_buckets: args.output_buckets as usize,
        king_buckets: args.king_buckets.unwrap_or(0),
        holdout: args.holdout,
        start: None,
    };
    config.start = start_weights(&args, &config)?;
    let data = pool.install(|| {
        load_first(
            &args.data,
            args.max_positions.map(|n| n as usize),
            args.lambda,
            args.validation,
            args.seed,
            args.holdout,
        )
    })?;
    let on_epoch = |r: &LogRow| {
        if !args.quiet {
            eprintln!(
                "epoch {:>4}  train {:.6}  validation {:.6}  lr {:.2e}  {:.1} s",
                r.epoch, r.train_loss, r.validation_loss, r.lr, r.seconds
            );
        }
        true
    };
    let report = pool
        .install(|| run_train(&args.out, &config, &data, &on_epoch))?
        .expect("the run is never stopped early");
    let trained_now = report.resumed_at < config.epochs;
    let summary = args.out.join(SUMMARY_FILE);
    if !trained_now && summary.is_file() {
        // Nothing was trained: the finished run's figures (wall time, speed) stay as they were.
        println!(
            "finished earlier  all {} epochs were trained by an earlier call; {} re-exported, {} unchanged",
            config.epochs,
            args.out.join(NET_FILE).display(),
            summary.display()
        );
        return Ok(());
    }
    if report.resumed_at > 0 {
        say!(
            folder,
            "resumed           after epoch {}",
            report.resumed_at
        );
    }
    let (train, val) = report.positions;
    say!(
        folder,
        "positions         {train} training, {val} validation ({} unscored dropped)",
        report.unscored
    );
    say!(folder, "held out          {}", holdout_line(args.holdout));
    if let Some(start) = &config.start {
        say!(folder, "started from      {}", start.name);
    }
    if let (Some(first), Some(last)) = (report.log.first(), report.log.last()) {
        say!(
            folder,
            "training loss     {:.6} -> {:.6}",
            first.train_loss,
            last.train_loss
        );
        say!(
            folder,
            "validation loss   {:.6} -> {:.6}",
            first.validation_loss,
            last.validation_loss
        );
    }
    say!(
        folder,
        "validation |net - score|  {:.1} cp (mean)",
        report.validation_mean_abs_cp
    );
    let (mean_q, max_q) = report.quantisation_error;
    say!(
        folder,
        "float vs quantised        {mean_q:.2} cp mean, {max_q:.1} cp max (validation set)"
    );
    say!(
        folder,
        "mirror            {}",
        mirror_line(&args, &data.train)
    );
    if trained_now {
        say!(
            folder,
            "speed             {:.0} positions/s with {threads} threads",
            report.positions_per_second
        );
    } else {
        say!(folder, "speed             no epoch trained by this call");
    }
    say!(
        folder,
        "network           {} (hidden {}{})",
        args.out.join(NET_FILE).display(),
        args.hidden,
        buckets_note(&args)
    );
    folder.finish(args.seed)
}
