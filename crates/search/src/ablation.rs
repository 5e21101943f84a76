//! Ablation: the node count (and solved count) of a fixed-depth search over a suite with each
//! heuristic switched off in turn, against the full search. Answers "what does each
//! heuristic buy?" the way Falcon's authors measured their search.

use crate::params::SWITCHES;
use crate::{EngineConfig, SearchLimits, Searcher};
use kestrel_chess::{Board, Move};
use std::time::{Duration, Instant};

/// A position of the suite, with its `bm`/`am` moves when known.
#[derive(Clone, Debug)]
pub struct SuiteItem {
    /// The position to search.
    pub board: Board,
    /// The `bm` moves: the position counts as solved only with one of these (empty: any move).
    pub best: Vec<Move>,
    /// The `am` moves: playing one of these fails the position.
    pub avoid: Vec<Move>,
}

impl SuiteItem {
    fn has_solution(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }

    fn is_solved_by(&self, mv: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }
}

/// One configuration's totals.
#[derive(Clone, Debug)]
pub struct AblationRow {
    /// "full search" or the heuristic switched off.
    pub label: &'static str,
    /// The parameter set to 0 (`None` for the full search).
    pub param: Option<&'static str>,
    /// Nodes searched over the whole suite.
    pub nodes: u64,
    /// Positions solved (among those with `bm`/`am`).
    pub solved: usize,
    /// Wall time of the whole suite.
    pub time: Duration,
}

/// Totals of one configuration over the suite, one thread, fresh state per position.
pub fn run_suite(config: &EngineConfig, items: &[SuiteItem], depth: i32) -> (u64, usize, Duration) {
    let mut config = config.clone();
    config.threads = 1;
    config.multipv = 1;
    let mut searcher = Searcher::new(config);
    let started = Instant::now();
    let (mut nodes, mut solved) = (0, 0);
    for item in items {
        searcher.new_game();
        searcher.control().reset();
        let r = searcher.search(&item.board, &SearchLimits::depth(depth), &mut |_| {});
        nodes += r.nodes;
        if item.has_solution() && r.best_move.is_some_and(|m| item.is_solved_by(m)) {
            solved += 1;
        }
    }
    (nodes, solved, started.elapsed())
}

/// Runs the full search, then each heuristic of [`SWITCHES`] off; `on_row` sees each row as
/// it completes (the first is the full search).
pub fn ablation(
    base: &EngineConfig,
    items: &[SuiteItem],
    depth: i32,
    on_row: &mut dyn FnMut(&AblationRow),
) -> Vec<AblationRow> {
    let configs = std::iter::once(("full search", None))
        .chain(SWITCHES.iter().map(|&(label, param)| (label, Some(param))));
    let mut rows = Vec::new();
    for (label, param) in configs {
        let mut config = base.clone();
        if let Some(name) = param {
            config
                .search_params
                .set_scalar(name, 0)
                .expect("switches are declared scalars with 0 in range");
        }
        let (nodes, solved, time) = run_suite(&config, items, depth);
        let row = AblationRow {
            label,
            param,
            nodes,
            solved,
            time,
        };
        on_row(&row);
        rows.push(row);
    }
    rows
}

/// The bench positions as a suite (no solutions).
pub fn bench_suite() -> Vec<SuiteItem> {
    crate::bench::positions()
        .into_iter()
        .map(|board| SuiteItem {
            board,
            best: Vec::new(),
            avoid: Vec::new(),
        })
        .collect()
}
