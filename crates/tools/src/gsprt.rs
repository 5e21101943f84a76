//! The generalised SPRT log-likelihood ratio of a discrete result distribution, as fastchess
//! computes it for its "logistic" model (Michel Van den Bergh, "Comments on Normalized Elo",
//! proposition 1.1): for each hypothesis score `s`, the distribution closest to the observed
//! frequencies `p̂` (maximum likelihood) whose mean is `s` is `p_i = p̂_i / (1 + θ(a_i − s))`,
//! with `θ` the root of `Σ p̂_i (a_i − s) / (1 + θ(a_i − s)) = 0`; the LLR is
//! `N · Σ p̂_i (ln p1_i − ln p0_i)`. Empty outcome classes count as 1e-3 (fastchess's
//! regularisation), so that the LLR is finite from the first result.
//!
//! With the pentanomial outcomes (pair scores 0, 1/4, 1/2, 3/4, 1 per game) this is the
//! pentanomial LLR of fastchess and OpenBench; with the trinomial ones it is their
//! trinomial GSPRT.

/// Weight of an outcome class nobody has seen.
const EMPTY_CLASS: f64 = 1e-3;

/// LLR of H1 (mean score `s1`) against H0 (`s0`) for `counts[i]` observations of score
/// `scores[i]` (scores in increasing order, `s0` and `s1` strictly inside their range).
pub fn llr(scores: &[f64], counts: &[u64], s0: f64, s1: f64) -> f64 {
    assert_eq!(scores.len(), counts.len());
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_CLASS } else { c as f64 })
        .collect();
    let total: f64 = weights.iter().sum();
    let freq: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let p0 = closest_with_mean(scores, &freq, s0);
    let p1 = closest_with_mean(scores, &freq, s1);
    let mean_log_ratio: f64 = (0..scores.len())
        .map(|i| freq[i] * (p1[i].ln() - p0[i].ln()))
        .sum();
    total * mean_log_ratio
}

/// The maximum-likelihood distribution on `scores` with mean `s` given the observed `freq`.
fn closest_with_mean(scores: &[f64], freq: &[f64], s: f64) -> Vec<f64> {
    let lowest = scores[0];
    let highest = scores[scores.len() - 1];
    // theta must keep every 1 + theta(a_i - s) positive: theta in (-1/(high-s), -1/(low-s)).
    let (mut lo, mut hi) = (-1.0 / (highest - s), -1.0 / (lowest - s));
    let f = |theta: f64| -> f64 {
        (0..scores.len())
            .map(|i| freq[i] * (scores[i] - s) / (1.0 + theta * (scores[i] - s)))
            .sum()
    };
    // f decreases from +inf to -inf on the interval: plain bisection to machine precision.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    (0..scores.len())
        .map(|i| freq[i] / (1.0 + theta * (scores[i] - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distribution_has_the_asked_mean() {
        let scores = [0.0, 0.5, 1.0];
        let freq = [0.3, 0.3, 0.4];
        for s in [0.45, 0.5, 0.55] {
            let p = closest_with_mean(&scores, &freq, s);
            let sum: f64 = p.iter().sum();
            let mean: f64 = p.iter().zip(&scores).map(|(p, a)| p * a).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{sum}");
            assert!((mean - s).abs() < 1e-9, "{mean}");
        }
    }

    #[test]
    fn observed_mean_is_its_own_closest() {
        // The observed mean 0.55 is reached with theta = 0: p = freq.
        let p = closest_with_mean(&[0.0, 0.5, 1.0], &[0.3, 0.3, 0.4], 0.55);
        assert!((p[0] - 0.3).abs() < 1e-9 && (p[2] - 0.4).abs() < 1e-9);
    }
}
