//! `kestrel perft DEPTH [--fen FEN] [--divide]`.

use anyhow::Context;
use kestrel_chess::{Board, perft};
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position to count from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    let mut board = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN '{fen}'"))?,
        None => Board::startpos(),
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = perft::divide(&mut board, args.depth);
        for (mv, n) in &rows {
            println!("{mv}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut board, args.depth)
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
