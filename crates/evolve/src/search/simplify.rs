//! Simplifying an evolved set: each value that differs from the defaults goes back to its
//! default in turn, least useful first, and stays there when the cost on the positions does
//! not rise above the evolved set's by more than a tolerance. What is left are the changes the
//! positions need; the values a GA moves without effect (drift, which is also where it
//! over-fits its training positions) go back to the defaults that play was tuned with.

use crate::search::fitness::{SuiteScore, score_sets};
use crate::search::solve::CostRule;
use kestrel_params::ParamValues;
use kestrel_tools::epd_suite::SuitePosition;

/// One changed value and what reverting it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimplifyStep {
    /// Name of the scalar parameter.
    pub name: String,
    /// Its value in the evolved set.
    pub evolved: i32,
    /// Its default value.
    pub default: i32,
    /// Cost of the evolved set with only this value reverted (how much the change matters).
    pub alone: SuiteScore,
    /// Cost of the set being simplified with this value reverted, at its turn.
    pub at_turn: SuiteScore,
    /// True when the value went back to its default.
    pub reverted: bool,
}

/// The simplified set and how it was found.
#[derive(Clone, Debug)]
pub struct Simplified {
    /// The simplified parameter set (full table).
    pub values: ParamValues,
    /// The evolved set's score on the positions.
    pub start: SuiteScore,
    /// The simplified set's score.
    pub end: SuiteScore,
    /// The changed values, in the order they were tried.
    pub steps: Vec<SimplifyStep>,
}

/// What one scalar of the table is called and where it differs.
fn changed_scalars(set: &ParamValues, defaults: &ParamValues) -> Vec<(String, i32, i32)> {
    set.table
        .decls
        .iter()
        .filter_map(|d| {
            let (now, was) = (set.get(d.name)?, defaults.get(d.name)?);
            (now.len() == 1 && now != was).then(|| (d.name.to_string(), now[0], was[0]))
        })
        .collect()
}

fn with_value(set: &ParamValues, name: &str, value: i32) -> ParamValues {
    let mut out = set.clone();
    out.set_scalar(name, value)
        .expect("the name comes from the set's own table");
    out
}

/// Simplifies `set` against its table's defaults on `positions`. A revert is kept when the
/// cost stays within `tolerance` (a share, e.g. 0.005) of the evolved set's cost and no fewer
/// positions are solved, so the losses cannot add up beyond it. Deterministic.
pub fn simplify(
    set: &ParamValues,
    positions: &[SuitePosition],
    rule: CostRule,
    hash_mb: usize,
    tolerance: f64,
) -> Simplified {
    let defaults = ParamValues::defaults(set.table);
    let changed = changed_scalars(set, &defaults);
    // The evolved set and every single revert, in one parallel batch.
    let mut batch = vec![set.clone()];
    batch.extend(changed.iter().map(|(n, _, d)| with_value(set, n, *d)));
    let scores = score_sets(&batch, positions, rule, hash_mb);
    let start = scores[0];
    let mut order: Vec<usize> = (0..changed.len()).collect();
    order.sort_by_key(|&i| (scores[i + 1].cost, i));
    let bound = (start.cost as f64 * (1.0 + tolerance.max(0.0))).floor() as u64;
    let mut current = set.clone();
    let mut end = start;
    let mut steps = Vec::with_capacity(changed.len());
    for i in order {
        let (name, evolved, default) = &changed[i];
        let candidate = with_value(&current, name, *default);
        // Until a revert is kept, the candidate is this value's single revert, already scored.
        let at_turn = if current == *set {
            scores[i + 1]
        } else {
            score_sets(std::slice::from_ref(&candidate), positions, rule, hash_mb)[0]
        };
        let reverted = at_turn.cost <= bound && at_turn.solved >= start.solved;
        if reverted {
            current = candidate;
            end = at_turn;
        }
        steps.push(SimplifyStep {
            name: name.clone(),
            evolved: *evolved,
            default: *default,
            alone: scores[i + 1],
            at_turn,
            reverted,
        });
    }
    Simplified {
        values: current,
        start,
        end,
        steps,
    }
}

/// The steps as a table, one line per changed value.
pub fn render_steps(s: &Simplified, positions: usize) -> String {
    let mut out = format!(
        "{:<24} {:>8} {:>8} {:>14} {:>14} {:>9}  kept\n",
        "parameter", "evolved", "default", "cost reverted", "cost at turn", "solved"
    );
    for st in &s.steps {
        out.push_str(&format!(
            "{:<24} {:>8} {:>8} {:>14} {:>14} {:>4}/{:<4}  {}\n",
            st.name,
            st.evolved,
            st.default,
            st.alone.cost,
            st.at_turn.cost,
            st.at_turn.solved,
            positions,
            if st.reverted { "default" } else { "evolved" }
        ));
    }
    let kept = s.steps.iter().filter(|st| !st.reverted).count();
    out.push_str(&format!(
        "{kept} of {} changes kept; cost {} -> {}, solved {} -> {} of {positions}\n",
        s.steps.len(),
        s.start.cost,
        s.end.cost,
        s.start.solved,
        s.end.solved
    ));
    out
}
