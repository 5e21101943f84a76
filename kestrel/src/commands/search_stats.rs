//! `kestrel search-stats`: ablation table of the search heuristics (nodes with each one
//! switched off in turn, against the full search, at a fixed depth).

use crate::commands::checked;
use anyhow::Context;
use kestrel_chess::read_epd_file;
use kestrel_search::ablation::{AblationRow, SuiteItem, ablation, bench_suite};
use kestrel_search::{EngineConfig, EngineParams};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct SearchStatsArgs {
    /// Search depth in plies.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// EPD suite (positions with bm/am also get a solved count); default: the bench positions.
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// Params file (`[eval]` and/or `[search]`) used as the full search (default: the built-in
    /// values).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 16, value_parser = checked::hash_mb)]
    pub hash: usize,
}

/// Reads an EPD suite of positions with their best or avoid moves; a malformed line is an error.
pub fn load_suite(path: &Path) -> anyhow::Result<Vec<SuiteItem>> {
    let (records, errors) =
        read_epd_file(path).with_context(|| format!("cannot read {}", path.display()))?;
    for (line, e) in &errors {
        eprintln!("warning: {}:{line}: {e} (skipped)", path.display());
    }
    let mut items = Vec::new();
    for (line, rec) in records {
        let moves = rec.best_moves().and_then(|b| Ok((b, rec.avoid_moves()?)));
        match moves {
            Ok((best, avoid)) => items.push(SuiteItem {
                board: rec.board,
                best,
                avoid,
            }),
            Err(e) => eprintln!(
                "warning: {}:{line}: bad bm/am: {e} (skipped)",
                path.display()
            ),
        }
    }
    anyhow::ensure!(
        !items.is_empty(),
        "{} holds no usable position",
        path.display()
    );
    Ok(items)
}

/// Prints the ablation table: nodes to solve the suite with each heuristic turned off.
pub fn run(args: SearchStatsArgs) -> anyhow::Result<()> {
    let mut config = EngineConfig {
        hash_mb: args.hash.max(1),
        ..EngineConfig::default()
    };
    if let Some(path) = &args.params {
        EngineParams::load(path, "--params")?.apply_to(&mut config);
    }
    let items = match &args.epd {
        Some(path) => load_suite(path)?,
        None => bench_suite(),
    };
    let with_solutions = items
        .iter()
        .filter(|i| !i.best.is_empty() || !i.avoid.is_empty())
        .count();
    println!(
        "{} positions, depth {}, 1 thread, fresh hash per position",
        items.len(),
        args.depth
    );
    let solved_header = if with_solutions > 0 { " solved" } else { "" };
    println!(
        "{:<30} {:>12} {:>9}{solved_header} {:>8}",
        "heuristic off", "nodes", "% of full", "time"
    );
    let mut full_nodes = None;
    ablation(&config, &items, args.depth, &mut |row: &AblationRow| {
        let full = *full_nodes.get_or_insert(row.nodes);
        let pct = row.nodes as f64 * 100.0 / full.max(1) as f64;
        let solved = if with_solutions > 0 {
            format!(" {:>3}/{with_solutions}", row.solved)
        } else {
            String::new()
        };
        println!(
            "{:<30} {:>12} {:>8.1}%{solved} {:>7.1}s",
            row.label,
            row.nodes,
            pct,
            row.time.as_secs_f64()
        );
    });
    Ok(())
}
