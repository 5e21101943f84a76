//! Non-standard commands for people at a terminal: `d`, `eval`, `perft N`, `bench [depth]`.

use crate::output::Output;
use kestrel_chess::{Board, Color, Square, perft};
use kestrel_eval::{Evaluator, PHASE_MAX};
use kestrel_nnue::NetEval;
use kestrel_search::{EngineConfig, bench};
use std::time::Instant;

/// `d`: the board, its FEN and its Polyglot key.
pub fn display(board: &Board, out: &Output) {
    out.line("");
    for rank in (0..8).rev() {
        out.line(" +---+---+---+---+---+---+---+---+");
        let mut row = String::from(" |");
        for file in 0..8 {
            let c = board
                .piece_at(Square::new(file, rank))
                .map_or(' ', |p| p.char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        out.line(&row);
    }
    out.line(" +---+---+---+---+---+---+---+---+");
    out.line("   a   b   c   d   e   f   g   h");
    out.line("");
    out.line(&format!("Fen: {}", board.to_fen()));
    out.line(&format!("Key: {:016X}", board.hash()));
    let checkers: Vec<String> = board
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    out.line(&format!("Checkers: {}", checkers.join(" ")));
}

/// `eval`: the static evaluation with the current parameters, term by term.
pub fn eval(board: &Board, evaluator: &Evaluator, out: &Output) {
    let b = evaluator.breakdown(board);
    out.line(&format!(
        "{:<32} {:>11} {:>11} {:>7}",
        "term (mg, eg)", "white", "black", "total"
    ));
    for t in b
        .terms
        .iter()
        .filter(|t| t.white != (0, 0) || t.black != (0, 0))
    {
        out.line(&format!(
            "{:<32} {:>11} {:>11} {:>7}",
            t.name,
            format!("{}, {}", t.white.0, t.white.1),
            format!("{}, {}", t.black.0, t.black.1),
            t.total(b.phase, b.eg_weight)
        ));
    }
    let side = match board.side_to_move() {
        Color::White => "white",
        Color::Black => "black",
    };
    out.line(&format!("Phase: {} of {PHASE_MAX}", b.phase));
    out.line(&format!(
        "Evaluation: {:+.2} (white side), {} cp for the side to move ({side})",
        b.score_white as f64 / 100.0,
        evaluator.evaluate(board)
    ));
}

/// The network's line of `eval`: its score when one is loaded, and whether it is in use.
pub fn network_eval(board: &Board, net: Option<&NetEval>, in_use: bool, out: &Output) {
    let Some(net) = net else {
        out.line("Network: none loaded (setoption name UseNNUE value true, or EvalFile)");
        return;
    };
    let stm = net.evaluate(board);
    out.line(&format!(
        "Network evaluation: {:+.2} (white side), {stm} cp for the side to move [{}, {}]",
        (stm * board.side_to_move().sign()) as f64 / 100.0,
        net.source(),
        if in_use {
            "in use"
        } else {
            "not in use: UseNNUE is false or UCI_LimitStrength is on"
        }
    ));
}

/// `perft N`: leaf counts below each move and in total, then the time taken.
pub fn perft_command(board: &Board, args: &[&str], out: &Output) {
    let Some((total, ms)) = divide(board, args, "perft", out) else {
        return;
    };
    out.line(&format!(
        "Time: {ms} ms, {} nps",
        total as u128 * 1000 / ms.max(1)
    ));
}

/// `go perft N` exactly as Stockfish answers it: `move: count` per legal move, a blank line,
/// `Nodes searched: N` and a blank line; no `bestmove` (it is not a search).
pub fn go_perft(board: &Board, args: &[&str], out: &Output) {
    if divide(board, args, "go perft", out).is_some() {
        out.line("");
    }
}

/// The per-move counts and `Nodes searched`; `None` (after a usage line) for a bad depth.
fn divide(board: &Board, args: &[&str], command: &str, out: &Output) -> Option<(u64, u128)> {
    let depth = match args {
        [d] => d.parse::<u32>().ok().filter(|d| (1..=10).contains(d)),
        _ => None,
    };
    let Some(depth) = depth else {
        out.info_string(&format!("usage: {command} N with N from 1 to 10"));
        return None;
    };
    let mut b = board.clone();
    let start = Instant::now();
    let rows = perft::divide(&mut b, depth);
    for (mv, n) in &rows {
        out.line(&format!("{mv}: {n}"));
    }
    let total: u64 = rows.iter().map(|(_, n)| n).sum();
    out.line("");
    out.line(&format!("Nodes searched: {total}"));
    Some((total, start.elapsed().as_millis()))
}

/// `bench [depth]`: the search crate's bench positions to a fixed depth with the current
/// settings (one thread, fresh hash); prints `N nodes M nps` last.
pub fn bench(config: &EngineConfig, args: &[&str], out: &Output) {
    let depth = match args {
        [] => Some(bench::DEFAULT_BENCH_DEPTH),
        [d] => d.parse::<i32>().ok().filter(|d| (1..=64).contains(d)),
        _ => None,
    };
    let Some(depth) = depth else {
        out.info_string("usage: bench [depth] with depth from 1 to 64");
        return;
    };
    let mut i = 0;
    let (nodes, time) = bench::run(config, depth, &mut |entry| {
        i += 1;
        let best = entry
            .best_move
            .map_or("0000".to_string(), |m| m.to_string());
        out.info_string(&format!(
            "bench {i}/{}: {} nodes, best {best}",
            bench::BENCH_FENS.len(),
            entry.nodes
        ));
    });
    let ms = time.as_millis();
    out.line(&format!(
        "{nodes} nodes {} nps",
        nodes as u128 * 1000 / ms.max(1)
    ));
}
