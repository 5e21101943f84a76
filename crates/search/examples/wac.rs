//! Runs an EPD suite (default: Win At Chess, revised) at a fixed time per position, one thread,
//! and counts the positions where the search's best move is a `bm` move (and no `am` move).
//!
//! `cargo run --release -p kestrel-search --example wac -- [MILLIS|NODESn] [EPD FILE] [NAME=V,...]`
//!
//! A limit ending in `n` is a node budget (`200000n`): deterministic, for comparing parameter
//! sets; the third argument overrides search parameters (`EXT_CHECK=4,MULTICUT_USE=0`).

use kestrel_chess::read_epd_file;
use kestrel_search::{EngineConfig, SearchLimits, Searcher};
use std::path::PathBuf;
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit_arg = args.first().map_or("1000", String::as_str);
    let label = match limit_arg.strip_suffix('n') {
        Some(n) => format!("{n} nodes"),
        None => format!("{limit_arg} ms"),
    };
    let limits = match limit_arg.strip_suffix('n') {
        Some(n) => SearchLimits::nodes(n.parse()?),
        None => SearchLimits::movetime(Duration::from_millis(limit_arg.parse()?)),
    };
    let path = args.get(1).map_or_else(
        || kestrel_testdata::data_dir().join("epd/wac-revised.epd"),
        PathBuf::from,
    );
    let (records, errors) =
        read_epd_file(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    for (line, e) in &errors {
        eprintln!("line {line}: {e}");
    }
    let mut config = EngineConfig::default();
    for pair in args
        .get(2)
        .map_or("", String::as_str)
        .split(',')
        .filter(|s| !s.is_empty())
    {
        let (name, value) = pair.split_once('=').ok_or("overrides look like NAME=V")?;
        config.search_params.set_scalar(name, value.parse()?)?;
    }
    let mut searcher = Searcher::new(config);
    let (mut solved, mut total, mut nodes) = (0, 0, 0u64);
    for (line, rec) in &records {
        let best = rec.best_moves()?;
        let avoid = rec.avoid_moves()?;
        searcher.new_game();
        searcher.control().reset();
        let r = searcher.search(&rec.board, &limits, &mut |_| {});
        nodes += r.nodes;
        total += 1;
        let ok = r
            .best_move
            .is_some_and(|m| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m));
        if ok {
            solved += 1;
        } else {
            let played = r.best_move.map_or("none".into(), |m| rec.board.to_san(m));
            println!(
                "miss line {line} {}: played {played} ({}) depth {}",
                rec.id().unwrap_or("?"),
                r.score,
                r.depth
            );
        }
    }
    println!("solved {solved}/{total} at {label} per position, {nodes} nodes");
    Ok(())
}
