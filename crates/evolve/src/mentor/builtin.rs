//! The built-in mentor: Kestrel's full hand-tuned evaluation behind its own search.

use crate::mentor::labels::{Label, Mentor};
use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, Score, SearchLimits, Searcher};
use rayon::prelude::*;

/// Searches each position to a fixed depth on all cores. Every position gets a fresh searcher
/// (small hash), so a label never depends on which positions a thread saw before.
pub struct BuiltinMentor {
    pub depth: i32,
    pub params: ParamValues,
}

impl BuiltinMentor {
    pub fn new(depth: i32) -> BuiltinMentor {
        BuiltinMentor {
            depth,
            params: ParamValues::defaults(&EVAL_TABLE),
        }
    }

    /// A short hash of what decides the labels: the evaluation defaults and the engine version.
    fn fingerprint(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ b as u32).wrapping_mul(0x0100_0193);
            }
        };
        eat(env!("CARGO_PKG_VERSION").as_bytes());
        for v in &self.params.values {
            eat(&v.to_le_bytes());
        }
        h
    }

    /// White-relative label of one position.
    pub fn label_one(&self, board: &Board) -> Label {
        let mut searcher = Searcher::new(EngineConfig {
            hash_mb: 1,
            threads: 1,
            evaluator: Evaluator::new(self.params.clone()),
            ..EngineConfig::default()
        });
        let result = searcher.search(board, &SearchLimits::depth(self.depth), &mut |_| {});
        match result.score {
            Score::Cp(cp) => Label::Cp(cp * board.side_to_move().sign()),
            Score::Mate(_) => Label::Mate,
        }
    }
}

impl Mentor for BuiltinMentor {
    fn key(&self) -> String {
        format!("builtin-{:08x}/d{}", self.fingerprint(), self.depth)
    }

    fn label(&mut self, boards: &[Board]) -> Result<Vec<Option<Label>>, String> {
        Ok(boards.par_iter().map(|b| Some(self.label_one(b))).collect())
    }
}
