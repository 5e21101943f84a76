//! Several search parameter sets side by side on one suite: solved count, total cost (nodes to
//! solution, unsolved positions at cap + penalty) and nodes to solution on the positions that
//! every set solved (a like-for-like comparison).

use crate::search::fitness::{position_costs, suite_score};
use crate::search::solve::CostRule;
use kestrel_params::ParamValues;
use kestrel_tools::epd_suite::SuitePosition;

/// One set's line of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareRow {
    /// The set's name as shown in the table (e.g. its params file).
    pub label: String,
    /// Positions the set solved within the node cap.
    pub solved: u32,
    /// Total cost: nodes to solution, unsolved positions at cap + penalty.
    pub cost: u64,
    /// Nodes to solution summed over the positions every set solved.
    pub common_nodes: u64,
    /// Nodes the searches really spent.
    pub searched: u64,
}

/// The comparison table, plus how many positions every set solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Positions in the suite.
    pub positions: usize,
    /// Positions every set solved (those `common_nodes` sums over).
    pub solved_by_all: usize,
    /// One row per set, in the order given.
    pub rows: Vec<CompareRow>,
}

/// Scores `sets` on `positions` (in parallel; deterministic).
pub fn compare_sets(
    sets: &[(String, ParamValues)],
    positions: &[SuitePosition],
    rule: CostRule,
    hash_mb: usize,
) -> Comparison {
    let values: Vec<ParamValues> = sets.iter().map(|(_, v)| v.clone()).collect();
    let costs = position_costs(&values, positions, rule, hash_mb);
    let common: Vec<bool> = (0..positions.len())
        .map(|p| costs.iter().all(|c| c[p].solved))
        .collect();
    let rows = sets
        .iter()
        .zip(&costs)
        .map(|((label, _), c)| {
            let score = suite_score(c);
            CompareRow {
                label: label.clone(),
                solved: score.solved,
                cost: score.cost,
                common_nodes: c
                    .iter()
                    .zip(&common)
                    .filter(|(_, all)| **all)
                    .map(|(pc, _)| pc.cost)
                    .sum(),
                searched: score.searched,
            }
        })
        .collect();
    Comparison {
        positions: positions.len(),
        solved_by_all: common.iter().filter(|c| **c).count(),
        rows,
    }
}

/// The table as text, one line per set.
pub fn render_comparison(c: &Comparison) -> String {
    let mut s = format!(
        "{:<28} {:>9} {:>14} {:>16} {:>14}\n",
        "params", "solved", "total cost", "nodes (common)", "searched"
    );
    for r in &c.rows {
        s.push_str(&format!(
            "{:<28} {:>4}/{:<4} {:>14} {:>16} {:>14}\n",
            r.label, r.solved, c.positions, r.cost, r.common_nodes, r.searched
        ));
    }
    s.push_str(&format!(
        "{} positions; {} solved by every set (\"nodes (common)\" sums those)\n",
        c.positions, c.solved_by_all
    ));
    s
}
