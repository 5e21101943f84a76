//! What the tuner fits: the mentor's scores (labelled once, cached, mates dropped) and/or the
//! game results, mixed as λ·σ(mentor) + (1−λ)·result, with the sigmoid's scale K fitted to the
//! game results of the starting evaluation.

use crate::mentor::builtin::BuiltinMentor;
use crate::mentor::labels::{Label, LabelCache, LabelStats, Mentor, label_positions};
use crate::mentor::run::MentorSpec;
use crate::mentor::uci_mentor::UciMentor;
use crate::tune::model::sigmoid;
use kestrel_chess::Board;
use std::path::Path;

/// Starts the mentor a spec names.
pub fn make_mentor(
    spec: &MentorSpec,
    depth: i32,
    processes: usize,
) -> Result<Box<dyn Mentor>, String> {
    Ok(match spec {
        MentorSpec::Builtin => Box::new(BuiltinMentor::new(depth)),
        MentorSpec::Uci(cmd) => Box::new(UciMentor::new(cmd, depth, processes)?),
    })
}

/// The mentor's label of every board (cached in `cache_path` under the mentor's key), with a
/// line on stderr per batch when `verbose`.
pub fn label_boards(
    boards: &[Board],
    mentor: &mut dyn Mentor,
    cache_path: &Path,
    verbose: bool,
) -> Result<(Vec<Option<Label>>, LabelStats, String), String> {
    let key = mentor.key();
    let mut cache = LabelCache::open(cache_path, &key)?;
    let start = std::time::Instant::now();
    let (labels, stats) = label_positions(boards, mentor, &mut cache, 500, &mut |done, todo| {
        if verbose {
            let secs = start.elapsed().as_secs_f64();
            let eta = secs / done as f64 * (todo - done) as f64;
            eprintln!("labelled {done}/{todo} ({secs:.0} s, about {eta:.0} s to go)");
        }
    })?;
    Ok((labels, stats, key))
}

/// λ·σ(K·mentor_cp) + (1−λ)·result; `None` when a part with nonzero weight is missing.
pub fn target(lambda: f64, k: f64, mentor_cp: Option<i32>, result: Option<f64>) -> Option<f64> {
    let from_mentor = if lambda > 0.0 {
        lambda * sigmoid(k, mentor_cp? as f64)
    } else {
        0.0
    };
    let from_result = if lambda < 1.0 {
        (1.0 - lambda) * result?
    } else {
        0.0
    };
    Some(from_mentor + from_result)
}

/// The K in [0.01, 10] minimising mean (σ(K·eval) − result)² (a scan on a log grid, then
/// golden-section refinement). `pairs` are (evaluation in cp, result).
pub fn fit_k(pairs: &[(f64, f64)]) -> f64 {
    let loss = |k: f64| -> f64 {
        pairs
            .iter()
            .map(|&(e, r)| (sigmoid(k, e) - r).powi(2))
            .sum::<f64>()
    };
    let grid: Vec<f64> = (0..=60)
        .map(|i| 0.01 * 1000f64.powf(i as f64 / 60.0))
        .collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| loss(grid[a]).total_cmp(&loss(grid[b])))
        .expect("non-empty grid");
    let (mut lo, mut hi) = (grid[best.saturating_sub(1)], grid[(best + 1).min(60)]);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (a, b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if loss(a) <= loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_mix_mentor_and_result() {
        assert_eq!(target(0.0, 1.0, None, Some(1.0)), Some(1.0));
        assert_eq!(target(0.0, 1.0, Some(50), None), None);
        assert_eq!(target(1.0, 1.0, Some(0), None), Some(0.5));
        assert_eq!(target(1.0, 1.0, None, Some(1.0)), None);
        let t = target(0.5, 1.0, Some(400), Some(0.0)).unwrap();
        assert!((t - 0.5 * 10.0 / 11.0).abs() < 1e-12, "{t}");
    }

    #[test]
    fn k_is_recovered_from_results_drawn_with_it() {
        // Results are exactly the expected scores of K = 1.3, so the best K is 1.3.
        let pairs: Vec<(f64, f64)> = (-300..300)
            .map(|cp| (cp as f64, sigmoid(1.3, cp as f64)))
            .collect();
        assert!((fit_k(&pairs) - 1.3).abs() < 1e-4, "{}", fit_k(&pairs));
    }
}
