//! The cost of one test position under one parameter set: iterative deepening, single-threaded
//! and node-counted from a fresh state, so the cost is a pure function of (position, params).
//!
//! A position is solved at the first iteration whose best move is right (a `bm`, and no `am`)
//! and is still right at the next iteration; its cost is the nodes searched up to the end of
//! that first iteration. The search stops as soon as the solution is confirmed. A position not
//! solved within the node cap costs `cap + penalty`.

use kestrel_search::{Bound, SearchLimits, Searcher};
use kestrel_tools::epd_suite::SuitePosition;

/// How one position went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionCost {
    /// Whether the right move was found and confirmed within the node cap.
    pub solved: bool,
    /// Nodes to solution if solved, else the node cap plus the penalty.
    pub cost: u64,
    /// Nodes the search really spent (solution, its confirmation and anything past it).
    pub searched: u64,
}

/// Node cap and penalty of the fitness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CostRule {
    /// Nodes searched per position at most.
    pub node_cap: u64,
    /// Added to the cap for an unsolved position, so that failing costs more than a solution
    /// found with the last node.
    pub penalty: u64,
}

impl CostRule {
    /// What an unsolved position costs.
    pub fn unsolved_cost(&self) -> u64 {
        self.node_cap + self.penalty
    }
}

/// Searches `p` with `searcher` (whose parameters and a cleared state the caller sets up).
pub fn position_cost(searcher: &mut Searcher, p: &SuitePosition, rule: CostRule) -> PositionCost {
    let control = searcher.control();
    control.reset();
    // Nodes at the end of the latest iteration whose best move was right (none: it was wrong).
    let mut candidate: Option<u64> = None;
    let mut confirmed: Option<u64> = None;
    let limits = SearchLimits::nodes(rule.node_cap.max(1));
    let result = searcher.search(&p.board, &limits, &mut |info| {
        // Only finished iterations count; aspiration fail-high/low reports do not.
        if info.multipv > 1 || info.bound != Bound::Exact || confirmed.is_some() {
            return;
        }
        let right = info.pv.first().is_some_and(|&m| p.is_correct(m));
        match (right, candidate) {
            (true, Some(nodes)) => {
                confirmed = Some(nodes);
                control.stop();
            }
            (true, None) => candidate = Some(info.nodes),
            (false, _) => candidate = None,
        }
    });
    // A search that ends by itself below the cap (nothing more to search) counts its last
    // right iteration as confirmed.
    let ended_early = result.nodes < rule.node_cap && !control.is_stopped();
    let solved_at = confirmed
        .or(candidate.filter(|_| ended_early && result.best_move.is_some_and(|m| p.is_correct(m))));
    match solved_at {
        Some(nodes) => PositionCost {
            solved: true,
            cost: nodes,
            searched: result.nodes,
        },
        None => PositionCost {
            solved: false,
            cost: rule.unsolved_cost(),
            searched: result.nodes,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::suite::parse_positions;
    use kestrel_search::EngineConfig;

    fn searcher() -> Searcher {
        Searcher::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        })
    }

    const RULE: CostRule = CostRule {
        node_cap: 20_000,
        penalty: 20_000,
    };

    #[test]
    fn a_mate_in_one_is_solved_cheaply_and_repeatably() {
        let pos = parse_positions(&["6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#;".into()]).unwrap();
        let mut s = searcher();
        let a = position_cost(&mut s, &pos[0], RULE);
        assert!(a.solved, "{a:?}");
        assert!(a.cost > 0 && a.cost <= a.searched && a.searched < RULE.node_cap);
        s.new_game();
        assert_eq!(position_cost(&mut s, &pos[0], RULE), a);
    }

    #[test]
    fn a_wrong_answer_costs_cap_plus_penalty() {
        // The "best move" a4 is never chosen: mate is on the board.
        let pos = parse_positions(&["6k1/5ppp/8/8/8/8/P7/4R1K1 w - - bm a4;".into()]).unwrap();
        let c = position_cost(&mut searcher(), &pos[0], RULE);
        assert!(!c.solved);
        assert_eq!(c.cost, 40_000);
        // An `am` position is solved by any other move.
        let pos = parse_positions(&["6k1/5ppp/8/8/8/8/P7/4R1K1 w - - am a4;".into()]).unwrap();
        assert!(position_cost(&mut searcher(), &pos[0], RULE).solved);
    }
}
