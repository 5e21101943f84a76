//! The built-in mentor: Kestrel's full hand-tuned evaluation behind its own search.

use crate::mentor::labels::{Label, Mentor};
use kestrel_chess::Board;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_params::ParamValues;
use kestrel_search::{EngineConfig, Score, SearchLimits, Searcher};
use rayon::prelude::*;

/// Varied positions (opening, middle game, endings) whose labels go into the mentor key.
const PROBES: [&str; 6] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "2r3k1/5ppp/p3p3/1p1nP3/3P4/P2B1N2/1P3PPP/6K1 w - - 0 27",
    "8/5pk1/6p1/3P4/1r6/5PP1/R5K1/8 b - - 1 45",
    "r4rk1/1bq1bppp/p3pn2/1p6/3N4/1BN1Q3/PPP2PPP/R4RK1 b - - 4 15",
    "8/8/4k3/8/2P5/8/5K2/8 w - - 0 60",
];

/// Searches each position to a fixed depth on all cores. Every position gets a fresh searcher
/// (small hash), so a label never depends on which positions a thread saw before.
pub struct BuiltinMentor {
    /// Search depth in plies used for every label.
    pub depth: i32,
    /// Evaluation values behind the search (Kestrel's hand-tuned defaults).
    pub params: ParamValues,
}

impl BuiltinMentor {
    /// A mentor searching `depth` plies with Kestrel's default evaluation values.
    pub fn new(depth: i32) -> BuiltinMentor {
        BuiltinMentor {
            depth,
            params: ParamValues::defaults(&EVAL_TABLE),
        }
    }

    /// A short hash of what decides the labels: the engine version, the evaluation values, and
    /// the labels of a few probe positions (so a changed evaluation or search code never reuses
    /// stale cached labels).
    fn fingerprint(&self) -> u32 {
        let probes: Vec<i32> = PROBES
            .iter()
            .map(|fen| {
                let board = Board::from_fen(fen).expect("probe FENs are valid");
                match self.label_one(&board) {
                    Label::Cp(cp) => cp,
                    Label::Mate => i32::MIN,
                }
            })
            .collect();
        let mut h: u32 = 0x811c_9dc5;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ b as u32).wrapping_mul(0x0100_0193);
            }
        };
        eat(env!("CARGO_PKG_VERSION").as_bytes());
        for v in self.params.values.iter().chain(&probes) {
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
