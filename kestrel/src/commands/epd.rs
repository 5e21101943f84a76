//! `kestrel epd FILE`: run an EPD test suite (`bm`/`am`) under a depth, node or time limit;
//! prints one line per position and the totals (solved, nodes to solution, STS points).

/// `println!` that ignores a closed stdout (e.g. piped into `head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use crate::commands::checked;
use crate::commands::net_option::{NetArgs, describe};
use anyhow::{Context, bail};
use kestrel_chess::parse_epd_text;
use kestrel_search::{EngineConfig, EngineParams};
use kestrel_tools::epd_suite::{EpdLimit, PositionOutcome, positions_from_records, run_suite};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

#[derive(clap::Args)]
pub struct EpdArgs {
    /// The EPD file (positions with `bm` and/or `am`), or a built-in suite such as
    /// `builtin:suites/wac-revised.epd`.
    pub file: PathBuf,
    /// Milliseconds per position (positions are then searched one at a time) (default: none; one
    /// of --movetime, --nodes, --depth is needed).
    #[arg(long, group = "limit", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Nodes per position (default: off).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth per position (default: off).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(i32).range(1..))]
    pub depth: Option<i32>,
    /// Positions searched in parallel under depth/node limits.
    #[arg(long, alias = "threads", default_value_t = 1, value_parser = checked::positive)]
    pub concurrency: usize,
    /// Params file (TOML with `[eval]` and/or `[search]`) for the engine (default: the built-in
    /// values).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Hash table size per search, in MB.
    #[arg(long, default_value_t = 16, value_parser = checked::hash_mb)]
    pub hash: usize,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Runs the suite and prints one line a position and the score.
pub fn run(args: EpdArgs) -> anyhow::Result<()> {
    let limit = match (args.movetime, args.nodes, args.depth) {
        (Some(ms), _, _) => EpdLimit::MoveTime(Duration::from_millis(ms.max(1))),
        (_, Some(n), _) => EpdLimit::Nodes(n.max(1)),
        (_, _, Some(d)) if d >= 1 => EpdLimit::Depth(d),
        (_, _, Some(_)) => bail!("--depth must be at least 1"),
        _ => bail!("give a limit: --movetime MS, --nodes N or --depth D"),
    };
    let mut config = EngineConfig::default();
    if let Some(path) = &args.params {
        EngineParams::load(path, "--params")?.apply_to(&mut config);
    }
    config.hash_mb = args.hash.max(1);
    if let Some(net) = args.net.load()? {
        eprintln!("{}", describe(&net));
        config.network = Some(net);
    }
    let text = kestrel_tools::data::read_text(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let (records, errors) = parse_epd_text(&text);
    for (line, err) in &errors {
        eprintln!("{}:{line}: skipped: {err}", args.file.display());
    }
    let (positions, problems) = positions_from_records(records);
    for (line, why) in &problems {
        eprintln!("{}:{line}: skipped: {why}", args.file.display());
    }
    if positions.is_empty() {
        bail!("{} has no usable test position", args.file.display());
    }
    say!(
        "{}: {} positions, {limit} per position",
        args.file.display(),
        positions.len()
    );
    // Lines are printed as positions finish; under parallel search that order varies, so
    // each line carries the position's line number and id.
    let out = Mutex::new(());
    let on_done = |o: &PositionOutcome| {
        let _guard = out.lock().unwrap_or_else(|e| e.into_inner());
        say!("{}", outcome_line(o));
    };
    let report = run_suite(&positions, &config, limit, args.concurrency, &on_done);
    let n = report.outcomes.len();
    say!(
        "solved {}/{} ({:.1}%), nodes to solution {}, total nodes {}",
        report.solved(),
        n,
        100.0 * report.solved() as f64 / n as f64,
        report.total_nodes_to_solution(),
        report.total_nodes()
    );
    if let Some((points, max)) = report.points() {
        say!(
            "points {points}/{max} ({:.1}%)",
            100.0 * points as f64 / max.max(1) as f64
        );
    }
    Ok(())
}

fn outcome_line(o: &PositionOutcome) -> String {
    let status = if o.solved { "ok  " } else { "FAIL" };
    let found = o.found.map_or(String::new(), |f| {
        format!(
            " found at depth {} nodes {} {}ms",
            f.depth,
            f.nodes,
            f.time.as_millis()
        )
    });
    let points = o
        .points
        .map_or(String::new(), |(p, m)| format!(" points {p}/{m}"));
    format!(
        "{status} line {:>5} {:<32} move {:<7} depth {:>2} nodes {:>10}{found}{points}",
        o.line, o.id, o.chosen_san, o.depth, o.nodes
    )
}
