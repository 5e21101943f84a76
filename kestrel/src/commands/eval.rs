//! `kestrel eval`: the evaluation of one position, term by term (like Stockfish's `eval`),
//! and the network's evaluation beside it.

use crate::commands::net_option::NetArgs;
use kestrel_chess::{Board, START_FEN};
use kestrel_eval::{EVAL_TABLE, Evaluator, PHASE_MAX, compact_values, trace};
use kestrel_params::ParamValues;
use kestrel_search::EngineParams;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct EvalArgs {
    /// Position to evaluate (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Params file whose `[eval]` section replaces the defaults (a `[search]` section is
    /// checked like everywhere else, but a static evaluation does not search).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Evaluate with the compact 35-term set only (every other term at zero).
    #[arg(long)]
    pub compact: bool,
    /// Also print the feature trace (flat parameter, coefficient) used by the GA.
    #[arg(long)]
    pub trace: bool,
    /// The network evaluated beside the linear evaluation (default: the compiled-in one;
    /// `linear`: none).
    #[command(flatten)]
    pub net: NetArgs,
}

/// Prints the evaluation of the position, term by term, and the network's score.
pub fn run(args: EvalArgs) -> anyhow::Result<()> {
    let board = Board::from_fen(&args.fen)
        .map_err(|e| anyhow::anyhow!("invalid --fen '{}': {e}", args.fen))?;
    let mut values = match &args.params {
        Some(path) => EngineParams::load(path, "--params")?.eval,
        None => ParamValues::defaults(&EVAL_TABLE),
    };
    if args.compact {
        values = compact_values(&values);
    }
    let evaluator = Evaluator::new(values);
    let net = args.net.load()?;
    print!("{}", render(&evaluator, &board, args.trace));
    print!("{}", render_network(net.as_deref(), &board));
    Ok(())
}

/// The network's evaluation line (or why there is none).
fn render_network(net: Option<&kestrel_nnue::NetEval>, board: &Board) -> String {
    let Some(net) = net else {
        let why = if kestrel_nnue::has_builtin_network() {
            "--net linear"
        } else {
            kestrel_nnue::NO_BUILTIN_NETWORK
        };
        return format!("Network evaluation: none ({why}; give --net FILE)\n");
    };
    let stm = net.evaluate(board);
    format!(
        "Network evaluation: {:+} cp (White's view), {:+} cp (side to move) [{}, {}]\n",
        stm * board.side_to_move().sign(),
        stm,
        net.source(),
        net.shape()
    )
}

/// The breakdown table, phase and final score (and optionally the trace) as text.
fn render(evaluator: &Evaluator, board: &Board, with_trace: bool) -> String {
    let b = evaluator.breakdown(board);
    let mut s = String::new();
    writeln!(s, "Position: {}", board.to_fen()).unwrap();
    writeln!(s).unwrap();
    writeln!(
        s,
        "{:<32} | {:>6} {:>6} | {:>6} {:>6} | {:>7}",
        "term", "W mg", "W eg", "B mg", "B eg", "total"
    )
    .unwrap();
    writeln!(s, "{}", "-".repeat(75)).unwrap();
    let mut hidden = 0;
    for t in &b.terms {
        if t.white == (0, 0) && t.black == (0, 0) {
            hidden += 1;
            continue;
        }
        writeln!(
            s,
            "{:<32} | {:>6} {:>6} | {:>6} {:>6} | {:>7}",
            t.name,
            t.white.0,
            t.white.1,
            t.black.0,
            t.black.1,
            t.total(b.phase, b.eg_weight)
        )
        .unwrap();
    }
    writeln!(s, "{}", "-".repeat(75)).unwrap();
    writeln!(s, "({hidden} terms contribute nothing and are not shown)").unwrap();
    writeln!(
        s,
        "Phase: {}/{PHASE_MAX} (middle-game weight; {PHASE_MAX} = all pieces on), end-game weight {}",
        b.phase, b.eg_weight
    )
    .unwrap();
    let stm = evaluator.evaluate(board);
    writeln!(
        s,
        "Final evaluation: {:+} cp (White's view), {:+} cp (side to move, {})",
        b.score_white,
        stm,
        if board.side_to_move().sign() > 0 {
            "White"
        } else {
            "Black"
        }
    )
    .unwrap();
    if with_trace {
        let names = EVAL_TABLE.flat_names();
        let t = trace(board);
        writeln!(
            s,
            "\nTrace ({} entries; score = round(sum value*coef / {PHASE_MAX})):",
            t.entries.len()
        )
        .unwrap();
        for (i, c) in &t.entries {
            writeln!(s, "  {:<28} {:>6}", names[*i as usize], c).unwrap();
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_lists_terms_and_the_final_score() {
        let board = Board::from_fen("4k3/8/8/8/8/8/3QK3/8 w - - 0 1").unwrap();
        let evaluator = Evaluator::default();
        let text = render(&evaluator, &board, true);
        assert!(text.contains("QUEEN_VALUE"));
        assert!(text.contains("Phase: 4/24"));
        let score = evaluator.evaluate_white(&board);
        assert!(text.contains(&format!("Final evaluation: {score:+} cp")));
        let queen_coef = text
            .lines()
            .find(|l| l.trim_start().starts_with("QUEEN_VALUE") && l.starts_with("  "))
            .expect("trace line for QUEEN_VALUE");
        assert_eq!(queen_coef.split_whitespace().last(), Some("24"), "{text}");
    }

    #[test]
    fn the_network_line_gives_both_views_or_says_why_there_is_none() {
        let board = Board::from_fen("4k3/8/8/8/8/8/3QK3/8 b - - 0 1").unwrap();
        let none = render_network(None, &board);
        let why = if kestrel_nnue::has_builtin_network() {
            "--net linear"
        } else {
            "no built-in network"
        };
        assert!(none.contains(why), "{none}");
        let net = kestrel_nnue::Network {
            hidden: 1,
            buckets: 1,
            inputs: kestrel_nnue::InputLayout::PLAIN,
            ft_weights: vec![0; kestrel_nnue::INPUTS],
            ft_bias: vec![255],
            out_weights: vec![kestrel_nnue::QB as i16, 0],
            out_bias: vec![0],
        };
        let eval = kestrel_nnue::NetEval::with_detected_kernel(&net, "one.knet").unwrap();
        // One neuron at its clamp with weight 1.0: a raw output of 1, EVAL_SCALE centipawns
        // for the side to move (Black), so White's view is negative.
        let line = render_network(Some(&eval), &board);
        assert!(
            line.contains("-400 cp (White's view), +400 cp (side to move) [one.knet"),
            "{line}"
        );
        let bad = EvalArgs {
            fen: START_FEN.into(),
            params: None,
            compact: false,
            trace: false,
            net: NetArgs {
                net: Some("/nonexistent/n.knet".into()),
            },
        };
        let err = run(bad).unwrap_err();
        assert!(
            format!("{err:#}").contains("--net /nonexistent/n.knet"),
            "{err:#}"
        );
    }

    #[test]
    fn bad_fen_and_missing_params_file_are_errors() {
        let bad = EvalArgs {
            fen: "not a fen".into(),
            params: None,
            compact: false,
            trace: false,
            net: NetArgs::default(),
        };
        assert!(run(bad).is_err());
        let missing = EvalArgs {
            fen: START_FEN.into(),
            params: Some(PathBuf::from("/nonexistent/kestrel-params.toml")),
            compact: false,
            trace: false,
            net: NetArgs::default(),
        };
        let err = run(missing).unwrap_err();
        assert!(
            format!("{err:#}").contains("--params /nonexistent/kestrel-params.toml: cannot read"),
            "{err:#}"
        );
    }
}
