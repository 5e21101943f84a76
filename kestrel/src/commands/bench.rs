//! `kestrel bench [DEPTH]`: the fixed bench positions to a fixed depth, fresh hash, one
//! thread; the last line is `N nodes M nps` (OpenBench convention).

use crate::commands::checked;
use crate::commands::net_option::{NetArgs, describe};
use kestrel_search::bench::{self, DEFAULT_BENCH_DEPTH};
use kestrel_search::{EngineConfig, EngineParams};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth in plies.
    #[arg(default_value_t = DEFAULT_BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 16, value_parser = checked::hash_mb)]
    pub hash: usize,
    /// Params file: its `[eval]` and `[search]` sections (either or both) replace the defaults.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Print one line per position.
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Searches the bench positions and prints the node count and speed (the `Bench:` line).
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let mut config = EngineConfig {
        hash_mb: args.hash.max(1),
        ..EngineConfig::default()
    };
    if let Some(path) = &args.params {
        let params = EngineParams::load(path, "--params")?;
        params.apply_to(&mut config);
        // On stderr: OpenBench reads the bench line from stdout.
        eprintln!(
            "params: {} from {}",
            params.describe_sections(),
            path.display()
        );
    }
    if let Some(net) = args.net.load()? {
        eprintln!("{}", describe(&net));
        config.network = Some(net);
    }
    let verbose = args.verbose;
    let mut index = 0;
    let totals = bench::run_with_stats(&config, args.depth, &mut |e| {
        index += 1;
        if verbose {
            let mv = e.best_move.map_or("none".to_string(), |m| m.to_string());
            println!(
                "{index:>3} {:>10} nodes {:>7} ms  {mv:<6} {}",
                e.nodes,
                e.time.as_millis(),
                e.fen
            );
        }
    });
    let (nodes, time, cache) = (totals.nodes, totals.time, totals.cache);
    // On stderr, like the params line: the last stdout line stays the bench line.
    eprintln!(
        "eval cache: {:.1}% of {} probes hit; pawn cache: {:.1}% of {} probes hit",
        100.0 * cache.eval_hit_rate(),
        cache.eval_probes,
        100.0 * cache.pawn_hit_rate(),
        cache.pawn_probes
    );
    let nps = nodes as u128 * 1000 / time.as_millis().max(1);
    println!("{nodes} nodes {nps} nps");
    Ok(())
}
