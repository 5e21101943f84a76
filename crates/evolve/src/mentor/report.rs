//! What `kestrel evolve mentor` and `kestrel evolve match` print: a mentor run's errors next to
//! the hand-tuned evaluation's, and a paper match's results and search speeds per pairing; and
//! the openings such a match starts from.

use crate::mentor::paper_match::PairingResult;
use crate::mentor::positions::PositionSet;
use crate::mentor::run::{BUILTIN_POSITIONS, MentorRunReport};
use kestrel_tools::{Opening, load_openings, sample_openings};
use std::fmt::Write as _;
use std::path::Path;

/// The report of a finished mentor run (without its output paths).
pub fn render_mentor_report(r: &MentorRunReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "mentor            {}", r.mentor_key);
    let _ = writeln!(s, "fitness on        {}", r.executor);
    let _ = writeln!(
        s,
        "positions         {} train, {} test ({} mate scores and {} mentor failures left out)",
        r.train_positions, r.test_positions, r.dropped_mates, r.dropped_failures
    );
    let _ = writeln!(
        s,
        "labels            {} cached, {} computed in {:.1} s, {} mentor restarts",
        r.labels.cached, r.labels.computed, r.labels.seconds, r.labels.restarts
    );
    let _ = writeln!(
        s,
        "evolution         {} generations in {:.2} s ({:?})",
        r.generations, r.ga_seconds, r.stop
    );
    let _ = writeln!(
        s,
        "best of gen. 0    {:.1} cp mean |error| (random organisms)",
        r.first_generation_best
    );
    let _ = writeln!(s, "train error       {:.1} cp", r.train_error);
    for m in &r.per_mentor {
        let _ = writeln!(
            s,
            "  vs {:<30} organism {:.1} / {:.1} cp train / test; mentor vs combined {:.1} / {:.1} cp",
            m.key, m.organism.0, m.organism.1, m.vs_combined.0, m.vs_combined.1
        );
    }
    let _ = writeln!(s, "test error        {:.1} cp", r.test_error);
    if let Some(f) = &r.floor {
        let _ = writeln!(
            s,
            "linear floor      {:.1} cp train, {:.1} cp test (best fit of the evolved terms; {:.1} / {:.1} cp within their bit ranges)",
            f.train_error, f.test_error, f.bounded_train_error, f.bounded_test_error
        );
    }
    let _ = writeln!(
        s,
        "hand-tuned eval   {:.1} cp train, {:.1} cp test (Kestrel's full static evaluation)",
        r.handtuned_error.0, r.handtuned_error.1
    );
    let _ = writeln!(
        s,
        "hand-tuned set    {:.1} cp train, {:.1} cp test (hand-tuned values of the evolved set alone)",
        r.handtuned_set_error.0, r.handtuned_set_error.1
    );
    s
}

/// The openings of a paper match of `games` games per pairing: a sample (by `seed`) of the
/// book at `book`, or of the built-in test positions.
pub fn match_openings(
    book: Option<&Path>,
    games: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let pool: Vec<Opening> = match book {
        Some(path) => load_openings(path).map_err(|e| e.to_string())?,
        None => PositionSet::parse_epd(BUILTIN_POSITIONS)?
            .test
            .into_iter()
            .map(Opening::from_board)
            .collect(),
    };
    Ok(sample_openings(&pool, games.div_ceil(2), seed))
}

/// Each pairing's result (W/D/L, score, Elo with its 95% interval), then how each side searched.
pub fn render_match_results(results: &[PairingResult]) -> String {
    let mut s = format!(
        "{:<20} {:>5} {:>5} {:>5} {:>7} {:>18}\n",
        "match", "W", "D", "L", "score", "Elo (95% CI)"
    );
    for r in results {
        let e = &r.summary;
        let _ = writeln!(
            s,
            "{:<20} {:>5} {:>5} {:>5} {:>6.1}% {:>+7.0} [{:+.0}, {:+.0}]",
            format!("{} - {}", r.first, r.second),
            e.wdl.wins,
            e.wdl.draws,
            e.wdl.losses,
            100.0 * e.score,
            e.elo,
            e.ci_low,
            e.ci_high
        );
    }
    let _ = writeln!(
        s,
        "{:<20} {:>10} {:>10} {:>12} {:>12}",
        "search", "nps 1st", "nps 2nd", "depth 1st", "depth 2nd"
    );
    for r in results {
        let _ = writeln!(
            s,
            "{:<20} {:>10.0} {:>10.0} {:>12.2} {:>12.2}",
            format!("{} - {}", r.first, r.second),
            r.first_search.nps(),
            r.second_search.nps(),
            r.first_search.mean_depth(),
            r.second_search.mean_depth()
        );
    }
    s
}
