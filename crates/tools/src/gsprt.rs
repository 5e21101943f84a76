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

/// The normalised model's iteration stops when no probability moves by more than this
/// (fastchess's tolerance: a degenerate result, e.g. only won pairs, converges slowly, and its
/// published LLRs are those of this stopping point).
const MLE_TOLERANCE: f64 = 1e-4;

/// LLR of H1 (mean score `s1`) against H0 (`s0`) for `counts[i]` observations of score
/// `scores[i]` (scores in increasing order, `s0` and `s1` strictly inside their range).
pub fn llr(scores: &[f64], counts: &[u64], s0: f64, s1: f64) -> f64 {
    assert_eq!(scores.len(), counts.len());
    llr_of(counts, |freq, s| closest_with_mean(scores, freq, s), s0, s1)
}

/// LLR of H1 against H0 on the normalised-Elo model (fastchess's "normalized", Van den
/// Bergh section 4.1): the hypotheses fix `t = (μ − 1/2)/σ` at `t0` and `t1` (for pairs,
/// `t = √2 · nElo / (800/ln 10)`); the closest distribution with a given `t` is found by
/// iterating `p_i = p̂_i / (1 + θ φ_i)` with `φ_i = a_i − 1/2 − t σ (1 + ((a_i − μ)/σ)²) / 2`.
pub fn llr_normalized(scores: &[f64], counts: &[u64], t0: f64, t1: f64) -> f64 {
    assert_eq!(scores.len(), counts.len());
    llr_of(counts, |freq, t| closest_with_t(scores, freq, t), t0, t1)
}

/// `N · Σ p̂_i ln(p1_i / p0_i)`: the LLR of the distributions `closest` finds nearest to the
/// observed frequencies `p̂` under H0 (`h0`) and H1 (`h1`). An empty class counts as
/// `EMPTY_CLASS` observations, so no probability is zero.
fn llr_of(counts: &[u64], closest: impl Fn(&[f64], f64) -> Vec<f64>, h0: f64, h1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_CLASS } else { c as f64 })
        .collect();
    let total: f64 = weights.iter().sum();
    let freq: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let p0 = closest(&freq, h0);
    let p1 = closest(&freq, h1);
    let mean_log_ratio: f64 = (0..freq.len())
        .map(|i| freq[i] * (p1[i].ln() - p0[i].ln()))
        .sum();
    total * mean_log_ratio
}

/// The root of `Σ freq_i φ_i / (1 + θ φ_i) = 0` where every `1 + θ φ_i` stays positive
/// (the sum decreases in θ there), by bisection.
fn solve_theta(freq: &[f64], phi: &[f64]) -> f64 {
    let low_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let high_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if low_phi >= 0.0 || high_phi <= 0.0 {
        // No sign change: the target is out of reach; stay as close as the bounds allow.
        return 0.0;
    }
    let (mut lo, mut hi) = (-1.0 / high_phi, -1.0 / low_phi);
    let f = |theta: f64| -> f64 {
        freq.iter()
            .zip(phi)
            .map(|(p, f)| p * f / (1.0 + theta * f))
            .sum()
    };
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
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution with normalised score `t`, from a uniform start.
fn closest_with_t(scores: &[f64], freq: &[f64], t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..10_000 {
        let mu: f64 = p.iter().zip(scores).map(|(p, a)| p * a).sum();
        let var: f64 = p
            .iter()
            .zip(scores)
            .map(|(p, a)| p * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let theta = solve_theta(freq, &phi);
        let next: Vec<f64> = (0..n).map(|i| freq[i] / (1.0 + theta * phi[i])).collect();
        let change = (0..n).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < MLE_TOLERANCE {
            break;
        }
    }
    p
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
