//! `kestrel`: a UCI chess engine that tunes itself with genetic algorithms.
//!
//! With no subcommand it speaks UCI on stdin/stdout; the subcommands are tools in the style of
//! Stockfish/Ethereal command lines (`kestrel bench`, `kestrel perft 6`, `kestrel evolve`, ...).

mod broken_pipe;
mod commands;
#[cfg(test)]
mod help_audit;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "kestrel",
    version = kestrel_uci::VERSION,
    about = "A UCI chess engine that tunes itself with genetic algorithms"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Count leaf nodes of the legal move tree (move generator check and speed).
    Perft(commands::perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth; prints `N nodes M nps` last.
    Bench(commands::bench::BenchArgs),
    /// Print the evaluation of a position term by term.
    Eval(commands::eval::EvalArgs),
    /// Run an EPD test suite (bm/am) and report solved positions and nodes to solution.
    Epd(commands::epd::EpdArgs),
    /// Play a match between two engines (built-in configurations or UCI commands).
    Match(commands::matches::MatchArgs),
    /// Evolve evaluation or search parameters with a genetic algorithm.
    Evolve(Box<commands::evolve::EvolveArgs>),
    /// Fit the evaluation by gradient descent to a mentor's scores and/or game results.
    Tune(commands::tune::TuneArgs),
    /// Build or inspect opening books (text move trees and Polyglot .bin).
    Book(commands::book::BookArgs),
    /// Ablation table: nodes with each search heuristic switched off in turn.
    SearchStats(commands::search_stats::SearchStatsArgs),
    /// Answer fitness jobs (JSON lines) for cluster executors (docs/cluster.md).
    Worker(commands::worker::WorkerArgs),
    /// Chessmaps move ordering: train its network, compare orderings in nodes and time.
    Chessmaps(commands::chessmaps::ChessmapsArgs),
    /// The chromosome database: list runs, show or export a chromosome.
    Db(commands::db::DbArgs),
    /// The learned evaluation (NNUE): training data and trainer.
    Nnue(commands::nnue::NnueArgs),
    /// Fit the UCI_ShowWDL win/draw/loss model to Kestrel's own games at a node limit.
    WdlFit(commands::wdl_fit::WdlFitArgs),
}

fn main() {
    broken_pipe::exit_quietly_on_closed_stdout();
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => commands::uci::run(),
        Some(Command::Perft(args)) => commands::perft::run(args),
        Some(Command::Bench(args)) => commands::bench::run(args),
        Some(Command::Eval(args)) => commands::eval::run(args),
        Some(Command::Epd(args)) => commands::epd::run(args),
        Some(Command::Match(args)) => commands::matches::run(args),
        Some(Command::Evolve(args)) => commands::evolve::run(*args),
        Some(Command::Tune(args)) => commands::tune::run(args),
        Some(Command::Book(args)) => commands::book::run(args),
        Some(Command::SearchStats(args)) => commands::search_stats::run(args),
        Some(Command::Worker(args)) => commands::worker::run(args),
        Some(Command::Chessmaps(args)) => commands::chessmaps::run(args),
        Some(Command::Db(args)) => commands::db::run(args),
        Some(Command::Nnue(args)) => commands::nnue::run(args),
        Some(Command::WdlFit(args)) => commands::wdl_fit::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {}", error_text(&err));
        std::process::exit(1);
    }
}

/// The error and its causes joined by `: `, leaving out a cause whose text the message
/// before it already holds (an error type that formats its `source` into its own message).
fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    let mut last = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if !last.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
        last = part;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[test]
    fn a_cause_already_in_its_parents_message_is_printed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let wrapped = anyhow::Error::new(io).context("cannot read book x.kbk: no such file");
        assert_eq!(error_text(&wrapped), "cannot read book x.kbk: no such file");
        let plain = anyhow::anyhow!("bad header").context("reading net.knet");
        assert_eq!(error_text(&plain), "reading net.knet: bad header");
    }
}
