//! What `kestrel evolve search` prints after a run: where the fitness ran, the positions, the
//! evolution and fitness speed, and the table of the defaults, a random and the evolved
//! organism (and the validation pick) on the train, validation and test positions.

use crate::search::fitness::SuiteScore;
use crate::search::run::SearchRunReport;
use crate::search::solve::CostRule;
use std::fmt::Write as _;

/// The report of a finished run under cost `rule`, one line per fact, then the table.
pub fn render_report(r: &SearchRunReport, rule: CostRule) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "fitness on        {}", r.executor);
    let _ = writeln!(
        s,
        "positions         {} train, {} validation, {} test; node cap {} + penalty {}",
        r.train_positions, r.validation_positions, r.test_positions, rule.node_cap, rule.penalty
    );
    if let Some(g) = r.selected_generation {
        let _ = writeln!(
            s,
            "validation        picked generation {g}'s best (`selected`; the last training best is `evolved`, train-best.toml)"
        );
    }
    let _ = writeln!(
        s,
        "evolution         {} generations in {:.1} s ({:?}); {} organisms searched, {} from the memo",
        r.generations, r.ga_seconds, r.stop, r.stats.searched_organisms, r.stats.memo_hits
    );
    let _ = writeln!(
        s,
        "fitness speed     {} nodes in {:.1} s = {:.0} nodes/s (all threads)",
        r.stats.nodes,
        r.ga_seconds,
        r.stats.nodes as f64 / r.ga_seconds.max(1e-9)
    );
    s.push_str(&render_table(r));
    s
}

/// Each row's solved count and cost on the train, validation and test positions, and values.
pub fn render_table(r: &SearchRunReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}   values",
        "params",
        "train solved",
        "train cost",
        "valid solved",
        "valid cost",
        "test solved",
        "test cost"
    );
    let cells = |s: Option<SuiteScore>, n: usize| {
        s.map_or(("-".to_string(), "-".to_string()), |s| {
            (format!("{}/{n}", s.solved), s.cost.to_string())
        })
    };
    for row in &r.rows {
        let (vs, vc) = cells(row.validation, r.validation_positions);
        let (ts, tc) = cells(row.test, r.test_positions);
        let _ = writeln!(
            s,
            "{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}   {:?}",
            row.label,
            format!("{}/{}", row.train.solved, r.train_positions),
            row.train.cost,
            vs,
            vc,
            ts,
            tc,
            row.fields
        );
    }
    s
}
