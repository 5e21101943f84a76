//! The evaluations an error report compares, named as on the command line: `linear` (the
//! default values), a params `.toml` file (the linear evaluation with its `[eval]` values, read
//! as every `--params` flag reads it), `builtin` (the compiled-in network) or a `.knet` network.

use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_nnue::{BUILTIN_NAMES, LINEAR, NetEval};
use kestrel_params::ParamValues;
use kestrel_search::EngineParams;
use std::path::Path;

/// Why an evaluation could not be made from its name.
#[derive(Debug, thiserror::Error)]
#[error("--eval {spec}: {why}")]
pub struct EvalSpecError {
    /// The name as given.
    pub spec: String,
    /// What is wrong.
    pub why: String,
}

/// How positions are scored.
enum Scorer {
    Linear(Evaluator),
    Network(NetEval),
}

/// One evaluation to measure, with the name it was given.
pub struct Evaluation {
    name: String,
    scorer: Scorer,
}

impl Evaluation {
    /// The evaluation `spec` names: [`LINEAR`], one of [`BUILTIN_NAMES`], a path ending in
    /// `.toml` (params file) or in `.knet` (network file). Anything else is refused.
    pub fn from_spec(spec: &str) -> Result<Evaluation, EvalSpecError> {
        let name = spec.trim();
        let fail = |why: String| EvalSpecError {
            spec: name.to_string(),
            why,
        };
        let scorer = if name == LINEAR {
            Scorer::Linear(Evaluator::new(ParamValues::defaults(&EVAL_TABLE)))
        } else if name.ends_with(".knet") || (!name.is_empty() && BUILTIN_NAMES.contains(&name)) {
            Scorer::Network(NetEval::load(name).map_err(|e| fail(e.to_string()))?)
        } else if name.ends_with(".toml") {
            // The loader's errors already start with "--eval FILE:".
            let params = EngineParams::load(Path::new(name), "--eval").map_err(|e| {
                let text = e.to_string();
                let prefix = format!("--eval {name}: ");
                fail(text.strip_prefix(&prefix).unwrap_or(&text).to_string())
            })?;
            Scorer::Linear(Evaluator::new(params.eval))
        } else {
            return Err(fail(
                "unknown evaluation (give linear, builtin, a params .toml file or a .knet network)"
                    .into(),
            ));
        };
        Ok(Evaluation {
            name: name.to_string(),
            scorer,
        })
    }

    /// The name it was given (`linear`, `builtin`, a path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it is a network (else the linear evaluation).
    pub fn is_network(&self) -> bool {
        matches!(self.scorer, Scorer::Network(_))
    }

    /// One line saying what it is: the linear evaluation's source or the network's size.
    pub fn describe(&self) -> String {
        match &self.scorer {
            Scorer::Linear(_) if self.name == LINEAR => "linear evaluation, default values".into(),
            Scorer::Linear(_) => format!("linear evaluation, [eval] of {}", self.name),
            Scorer::Network(net) => format!("network {} ({})", net.source(), net.shape()),
        }
    }

    /// The static evaluation of `board` in centipawns from the side to move's view (the
    /// convention of a `.kpos` score).
    pub fn evaluate(&self, board: &Board) -> i32 {
        match &self.scorer {
            Scorer::Linear(e) => e.evaluate(board),
            Scorer::Network(n) => n.evaluate(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(spec: &str) -> String {
        match Evaluation::from_spec(spec) {
            Ok(_) => panic!("{spec} accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn linear_is_the_default_evaluator_from_the_side_to_move() {
        let linear = Evaluation::from_spec(" linear ").unwrap();
        assert_eq!(linear.name(), "linear");
        assert!(!linear.is_network());
        let board = Board::from_fen("4k3/8/8/8/8/8/3QK3/8 b - - 0 1").unwrap();
        let want = Evaluator::default().evaluate(&board);
        assert!(want < 0, "Black to move without a queen: {want}");
        assert_eq!(linear.evaluate(&board), want);
    }

    #[test]
    fn a_params_file_changes_the_linear_values() {
        let dir = std::env::temp_dir().join(format!("kestrel-evalspec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("queen.toml");
        std::fs::write(&path, "[eval]\nQUEEN_VALUE = 0\n").unwrap();
        let spec = path.to_str().unwrap();
        let custom = Evaluation::from_spec(spec).unwrap();
        assert!(
            custom.describe().contains("[eval] of"),
            "{}",
            custom.describe()
        );
        let board = Board::from_fen("4k3/8/8/8/8/8/3QK3/8 w - - 0 1").unwrap();
        let default = Evaluator::default().evaluate(&board);
        assert!(custom.evaluate(&board) < default - 500);
        std::fs::write(&path, "[eval]\nNO_SUCH_TERM = 1\n").unwrap();
        let e = err(spec);
        assert!(e.starts_with(&format!("--eval {spec}: ")), "{e}");
        assert!(e.contains("NO_SUCH_TERM"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_names_and_missing_files_are_refused() {
        assert!(err("lnear").contains("unknown evaluation"));
        assert!(err("").contains("unknown evaluation"));
        let e = err("/nonexistent/a.toml");
        assert!(e.starts_with("--eval /nonexistent/a.toml: "), "{e}");
        let e = err("/nonexistent/n.knet");
        assert!(e.starts_with("--eval /nonexistent/n.knet: "), "{e}");
    }

    #[test]
    fn builtin_is_the_compiled_in_network_when_the_build_has_one() {
        match Evaluation::from_spec("builtin") {
            Ok(net) => {
                assert!(kestrel_nnue::has_builtin_network());
                assert!(net.is_network());
                assert!(net.describe().starts_with("network builtin"));
                let board = Board::startpos();
                let want = NetEval::load("builtin").unwrap().evaluate(&board);
                assert_eq!(net.evaluate(&board), want);
            }
            Err(e) => {
                assert!(!kestrel_nnue::has_builtin_network());
                assert!(e.to_string().contains("builtin"), "{e}");
            }
        }
    }
}
