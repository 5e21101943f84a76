//! `kestrel perft DEPTH [--fen FEN] [--divide]` and `kestrel perft --suite FILE [--max-depth N]`
//! (EPD `;Dn` suites, or the Chess960 suite's block format).

use anyhow::{Context, bail};
use kestrel_chess::{Board, EpdRecord, perft, read_epd_file};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies (not needed with --suite).
    #[arg(required_unless_present = "suite")]
    pub depth: Option<u32>,
    /// Position to count from (default: the start position).
    #[arg(long, conflicts_with = "suite")]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long, conflicts_with = "suite")]
    pub divide: bool,
    /// With --divide: write castling in Chess960 notation (king takes rook).
    #[arg(long, conflicts_with = "suite")]
    pub chess960: bool,
    /// Perft suite: EPD (`FEN ;D1 20 ;D2 400 ...`) or blocks (`id N` / `epd FEN` /
    /// `perft D COUNT`, as the Chess960 suite): check every expected count
    /// (default: none: perft of DEPTH).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: skip expected counts deeper than this (default: every depth).
    #[arg(long, value_name = "N", requires = "suite")]
    pub max_depth: Option<u32>,
}

/// Counts the leaf nodes (or checks a suite) and prints them with the speed.
pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    if let Some(suite) = &args.suite {
        return run_suite(suite, args.max_depth.unwrap_or(u32::MAX));
    }
    let depth = args.depth.context("perft needs a DEPTH")?;
    let mut board = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN '{fen}'"))?,
        None => Board::startpos(),
    };
    board.set_chess960(args.chess960);
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = perft::divide(&mut board, depth);
        for (mv, n) in &rows {
            println!("{}: {n}", board.uci_move(*mv));
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {:.3} s, {:.0} nps",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// The `;Dn count` operations of a record, shallowest first.
fn expected_counts(record: &EpdRecord) -> anyhow::Result<Vec<(u32, u64)>> {
    let mut counts = Vec::new();
    for (opcode, operands) in &record.ops {
        let Some(depth) = opcode.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()) else {
            continue;
        };
        let text = operands.first().map(String::as_str).unwrap_or("");
        let count = text
            .parse::<u64>()
            .with_context(|| format!("{opcode} count '{text}' is not a number"))?;
        counts.push((depth, count));
    }
    counts.sort_unstable();
    Ok(counts)
}

/// A suite's positions as (label, position, expected counts), from either format: EPD with
/// `;Dn count` operations, or the Chess960 suite's blocks (`id`, `epd`, `perft D N` lines).
type SuiteCases = Vec<(String, Board, anyhow::Result<Vec<(u32, u64)>>)>;

fn read_suite(path: &std::path::Path) -> anyhow::Result<(SuiteCases, usize)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let blocks = text
        .lines()
        .any(|l| l.starts_with("perft ") || l.starts_with("epd "));
    if blocks {
        let cases = perft::parse_perft_blocks(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let cases = cases
            .into_iter()
            .map(|c| (format!("id {}", c.id), c.board, Ok(c.counts)))
            .collect();
        return Ok((cases, 0));
    }
    let (records, bad_lines) =
        read_epd_file(path).with_context(|| format!("cannot read {}", path.display()))?;
    for (line, err) in &bad_lines {
        println!("line {line}: unreadable: {err}");
    }
    let cases = records
        .iter()
        .map(|(line, record)| {
            (
                format!("line {line}"),
                record.board.clone(),
                expected_counts(record),
            )
        })
        .collect();
    Ok((cases, bad_lines.len()))
}

fn run_suite(path: &std::path::Path, max_depth: u32) -> anyhow::Result<()> {
    let (records, bad_lines) = read_suite(path)?;
    let start = Instant::now();
    let (mut checked, mut mismatches, mut nodes, mut skipped) = (0usize, 0usize, 0u64, 0usize);
    for (line, start_board, counts) in &records {
        let counts = match counts {
            Ok(c) => c.clone(),
            Err(e) => {
                println!("{line}: {e:#}");
                mismatches += 1;
                continue;
            }
        };
        let record_board = start_board;
        let mut board = record_board.clone();
        let mut ok_depths = Vec::new();
        for (depth, expected) in counts {
            if depth > max_depth {
                skipped += 1;
                continue;
            }
            let got = perft::perft(&mut board, depth);
            checked += 1;
            nodes += got;
            if got == expected {
                ok_depths.push(depth);
            } else {
                mismatches += 1;
                println!(
                    "MISMATCH {line} depth {depth}: expected {expected}, got {got}  [{}]",
                    record_board.to_fen()
                );
            }
        }
        println!(
            "{line}: ok at depths {:?}  [{}]",
            ok_depths,
            record_board.to_fen()
        );
    }
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!(
        "{} positions, {checked} counts checked, {mismatches} mismatches, {skipped} deeper counts skipped, {} unreadable lines",
        records.len(),
        bad_lines
    );
    println!(
        "Nodes: {nodes}, time: {secs:.3} s, {:.0} nps",
        nodes as f64 / secs.max(1e-9)
    );
    if mismatches > 0 || bad_lines > 0 {
        bail!(
            "perft suite {} failed: {mismatches} mismatches, {bad_lines} unreadable lines",
            path.display()
        );
    }
    Ok(())
}
