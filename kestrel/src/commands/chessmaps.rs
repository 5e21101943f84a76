//! `kestrel chessmaps train|bench`: train the Chessmaps move-ordering network on grandmaster
//! games, and compare the quiet-move orderings (random, history, Chessmaps, Chessmaps +
//! sector killer, both) in nodes and time to a fixed depth.

use super::search_stats::load_suite;
use crate::commands::checked;
use anyhow::Context;
use kestrel_evolve::chessmaps::{
    TrainSettings, evaluate, examples_from_pgn, initial_network, train,
};
use kestrel_search::ablation::run_suite;
use kestrel_search::chessmaps::{Network, SECTORS, install_network};
use kestrel_search::{EngineConfig, SEARCH_TABLE};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ChessmapsArgs {
    #[command(subcommand)]
    pub command: ChessmapsCommand,
}

#[derive(clap::Subcommand)]
pub enum ChessmapsCommand {
    /// Train the network by backpropagation on positions from GM games.
    Train(TrainArgs),
    /// Nodes and time to a fixed depth for every quiet-move ordering.
    Bench(BenchArgs),
}

#[derive(clap::Args)]
pub struct TrainArgs {
    /// PGN file of games (one seeded random position per game).
    #[arg(long, default_value = kestrel_tools::data::DEFAULT_GAMES)]
    pub pgn: PathBuf,
    /// Training positions.
    #[arg(long, default_value_t = 10_000, value_parser = checked::positive)]
    pub positions: usize,
    /// Test positions (from other games).
    #[arg(long, default_value_t = 2_000, value_parser = checked::positive)]
    pub test_positions: usize,
    /// Training passes over the positions.
    #[arg(long, default_value_t = 30, value_parser = checked::positive)]
    pub epochs: usize,
    /// Learning rate of the network's gradient steps.
    #[arg(long, default_value_t = 0.02, value_parser = checked::positive_f32)]
    pub learning_rate: f32,
    /// Random seed (weights, shuffles).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the network (`--out` is an old spelling).
    #[arg(
        long = "output",
        alias = "out",
        value_name = "FILE",
        default_value = "chessmaps.net",
        value_parser = checked::writable_file
    )]
    pub out: PathBuf,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// EPD suite; default: the bench positions.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Use only the first N positions of the suite (default: all).
    #[arg(long, value_parser = checked::positive)]
    pub limit: Option<usize>,
    /// Search depth per position.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// A network file instead of the shipped one.
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Hash table size per search, in MB (1 to 65536).
    #[arg(long, default_value_t = 16, value_parser = checked::hash_mb)]
    pub hash: usize,
}

/// Trains the Chessmaps network or measures its move ordering, as the subcommand says.
pub fn run(args: ChessmapsArgs) -> anyhow::Result<()> {
    match args.command {
        ChessmapsCommand::Train(a) => run_train(a),
        ChessmapsCommand::Bench(a) => run_bench(a),
    }
}

fn run_train(args: TrainArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.positions > 0 && args.test_positions > 0,
        "need positions in both sets"
    );
    let (train_set, test_set) =
        examples_from_pgn(&args.pgn, args.positions, args.test_positions, args.seed)
            .map_err(anyhow::Error::msg)?;
    println!(
        "{} training and {} test positions from {} (seed {})",
        train_set.len(),
        test_set.len(),
        args.pgn.display(),
        args.seed
    );
    let settings = TrainSettings {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        seed: args.seed,
    };
    let mut net = initial_network(args.seed);
    let start = (
        evaluate(&net, &train_set).loss,
        evaluate(&net, &test_set).loss,
    );
    println!(
        "epoch 0: train loss {:.4}, test loss {:.4}",
        start.0, start.1
    );
    train(&mut net, &train_set, &settings, &mut |epoch, loss| {
        if epoch % 5 == 0 || epoch == settings.epochs {
            println!("epoch {epoch}: train loss {loss:.4}");
        }
    });
    let (tr, te) = (evaluate(&net, &train_set), evaluate(&net, &test_set));
    println!("final: train loss {:.4}, test loss {:.4}", tr.loss, te.loss);
    println!("sector  test accuracy  majority baseline  train accuracy");
    for s in 0..SECTORS {
        println!(
            "{:>6}  {:>12.1}%  {:>16.1}%  {:>13.1}%",
            s + 1,
            te.accuracy[s] * 100.0,
            te.baseline[s] * 100.0,
            tr.accuracy[s] * 100.0
        );
    }
    net.save(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The orderings compared: label, QUIET_ORDER, USE_SECTOR_KILLER.
const MODES: [(&str, i32, i32); 5] = [
    ("random", 3, 0),
    ("history", 0, 0),
    ("chessmaps", 1, 0),
    ("chessmaps + sector killer", 1, 1),
    ("both (history + chessmaps)", 2, 0),
];

fn run_bench(args: BenchArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.network {
        install_network(Network::load(path).map_err(anyhow::Error::msg)?)
            .map_err(anyhow::Error::msg)?;
    }
    let mut items = match &args.epd {
        Some(path) => load_suite(path)?,
        None => kestrel_search::ablation::bench_suite(),
    };
    items.truncate(args.limit.unwrap_or(usize::MAX).max(1));
    println!(
        "{} positions, depth {}, 1 thread, fresh hash per position",
        items.len(),
        args.depth
    );
    println!(
        "{:<28} {:>12} {:>10} {:>7} {:>8} {:>8}",
        "quiet ordering", "nodes", "vs random", "solved", "time", "us/node"
    );
    let mut random_nodes = None;
    for (label, order, killer) in MODES {
        let mut config = EngineConfig {
            hash_mb: args.hash.max(1),
            ..EngineConfig::default()
        };
        let p = &mut config.search_params;
        p.set_scalar("QUIET_ORDER", order)
            .and_then(|_| p.set_scalar("USE_SECTOR_KILLER", killer))
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        debug_assert!(std::ptr::eq(p.table, &SEARCH_TABLE));
        let (nodes, solved, time) = run_suite(&config, &items, args.depth);
        let base = *random_nodes.get_or_insert(nodes);
        println!(
            "{:<28} {:>12} {:>9.1}% {:>7} {:>7.1}s {:>8.3}",
            label,
            nodes,
            100.0 - nodes as f64 * 100.0 / base.max(1) as f64,
            solved,
            time.as_secs_f64(),
            time.as_secs_f64() * 1e6 / nodes.max(1) as f64
        );
    }
    Ok(())
}
