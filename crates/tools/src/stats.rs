//! Match statistics: W/D/L, score, Elo difference with a confidence interval, and likelihood
//! of superiority.
//!
//! The Elo model is the logistic one of the expert-driven GA paper (appendix B): a rating
//! difference `d` gives an expected score `1 / (1 + 10^(-d/400))`. The interval is built on
//! the score scale (mean ± z standard errors, with the per-game variance computed from the
//! W/D/L counts) and then mapped through the inverse of that formula, so it is asymmetric in
//! Elo.

/// Wins, draws and losses from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// z for a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

impl Wdl {
    /// Counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Games played: wins + draws + losses.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The same results seen from the opponent.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Points scored: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game in [0, 1] (0.5 when no game was played).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    /// Per-game variance of the score (results 1, 1/2, 0 weighted by their frequencies).
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let mu = self.score();
        let n = n as f64;
        (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n
    }

    /// Standard error of the mean score.
    pub fn std_error(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            (self.variance() / n as f64).sqrt()
        }
    }

    /// Elo difference implied by the mean score (infinite at a 0% or 100% score).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Elo interval `(low, high)` for mean ± `z` standard errors.
    pub fn elo_interval(&self, z: f64) -> (f64, f64) {
        let mu = self.score();
        let se = self.std_error();
        (elo_from_score(mu - z * se), elo_from_score(mu + z * se))
    }

    /// Likelihood of superiority: the probability that this player is the stronger one, from
    /// the normal approximation of wins against losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if self.wins == self.losses {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    /// Everything at once, for reports.
    pub fn summary(&self) -> EloSummary {
        let (low, high) = self.elo_interval(Z_95);
        EloSummary {
            wdl: *self,
            score: self.score(),
            elo: self.elo(),
            ci_low: low,
            ci_high: high,
            los: self.los(),
        }
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

/// A one-line result report.
#[derive(Clone, Copy, Debug)]
pub struct EloSummary {
    /// The counts summarised.
    pub wdl: Wdl,
    /// Mean score per game in [0, 1] (0.5 with no game).
    pub score: f64,
    /// Elo difference implied by the score (±infinity at 0% or 100%).
    pub elo: f64,
    /// 95% interval.
    pub ci_low: f64,
    /// Upper end of the 95% Elo interval (may be +infinity; `ci_low` may be -infinity).
    pub ci_high: f64,
    /// Likelihood of superiority in [0, 1], from wins against losses (draws ignored).
    pub los: f64,
}

impl std::fmt::Display for EloSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let w = &self.wdl;
        let half_width = (self.ci_high - self.ci_low) / 2.0;
        let err = if half_width.is_nan() {
            f64::INFINITY
        } else {
            half_width
        };
        write!(
            f,
            "W {} D {} L {} ({} games), score {:.1}%, Elo {} ± {:.1} [{}, {}], LOS {:.1}%",
            w.wins,
            w.draws,
            w.losses,
            w.games(),
            100.0 * self.score,
            fmt_elo(self.elo),
            err,
            fmt_elo(self.ci_low),
            fmt_elo(self.ci_high),
            100.0 * self.los
        )
    }
}

/// Formats an Elo value, with `inf` for the unbounded ends of an interval.
pub fn fmt_elo(e: f64) -> String {
    if e.is_nan() {
        "nan".into()
    } else if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // `+ 0.0` turns -0.0 into 0.0 so that an even score prints as +0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// Expected score of the player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Rating difference implied by an expected score; ±infinity at (or beyond) 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function (std has none): the classic Chebyshev fit of `erfc`, with a relative
/// error below 1.2e-7, plenty for LOS.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        // 0.5 -> -400 log10(1) = 0.
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 0.75 -> -400 log10(1/3) = 400 * 0.477121 = 190.849.
        assert!(close(elo_from_score(0.75), 190.849, 1e-3));
        // 0.25 is the mirror image.
        assert!(close(elo_from_score(0.25), -190.849, 1e-3));
        // The paper's Table 2, Falcon - Crafty 173.5 - 126.5: 57.83% -> +55 Elo.
        assert!(close(elo_from_score(173.5 / 300.0), 54.88, 0.01));
        assert!(elo_from_score(1.0).is_infinite() && elo_from_score(0.0) < 0.0);
        for e in [-300.0, -50.0, 0.0, 12.5, 400.0] {
            assert!(close(elo_from_score(score_from_elo(e)), e, 1e-9));
        }
        // 400 Elo stronger expects 10/11 of the points.
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn mean_and_standard_error_from_wdl() {
        // W 6 D 2 L 2: mu = 7/10 = 0.7;
        // variance = (6*0.09 + 2*0.04 + 2*0.49)/10 = (0.54 + 0.08 + 0.98)/10 = 0.16;
        // standard error = sqrt(0.16/10) = 0.126491.
        let w = Wdl::new(6, 2, 2);
        assert!(close(w.score(), 0.7, 1e-12));
        assert!(close(w.variance(), 0.16, 1e-12));
        assert!(close(w.std_error(), 0.126_491, 1e-6));
        // 95%: 0.7 ± 1.96*0.126491 = [0.452082, 0.947918];
        // -400 log10(1/0.452082 - 1) = -400 log10(1.211995) = -33.40,
        // -400 log10(1/0.947918 - 1) = -400 log10(0.054943) = +504.03.
        let (lo, hi) = w.elo_interval(Z_95);
        assert!(close(lo, -33.40, 0.02), "{lo}");
        assert!(close(hi, 504.03, 0.02), "{hi}");
        assert!(lo < w.elo() && w.elo() < hi);
    }

    #[test]
    fn paper_table_one_evol_vs_falcon() {
        // Evol* - Falcon 544.5 - 455.5 over 1000 games: 54.45% -> +31 Elo. The draw count is
        // not given; take W 500 D 89 L 411 (points 500 + 44.5 = 544.5). -400 log10(455.5/544.5)
        // = +31.0; se = sqrt(0.225771/1000) = 0.015026, so mu - 2 se = 0.51445 -> +10.0 > 0.
        let w = Wdl::new(500, 89, 411);
        assert!(close(w.points(), 544.5, 1e-9));
        assert!(close(w.elo(), 31.0, 0.1), "{}", w.elo());
        let (lo, _) = w.elo_interval(2.0);
        assert!(lo > 0.0, "lower end {lo} should be above zero at 2 sigma");
    }

    #[test]
    fn los_known_values() {
        // Equal wins and losses: erf(0) = 0 -> 0.5.
        assert!(close(Wdl::new(10, 5, 10).los(), 0.5, 1e-9));
        assert!(close(Wdl::new(0, 7, 0).los(), 0.5, 1e-12));
        // W 60 L 40: 0.5(1 + erf(20/sqrt(200))) = 0.5(1 + erf(1.41421)) = 0.5(1 + 0.954500) = 0.97725.
        assert!(close(Wdl::new(60, 0, 40).los(), 0.977_25, 1e-5));
        // Symmetry.
        let w = Wdl::new(33, 10, 21);
        assert!(close(w.los() + w.flipped().los(), 1.0, 1e-9));
    }

    #[test]
    fn erf_matches_tables() {
        // erf(0.5) = 0.520499878, erf(1) = 0.842700793, erf(2) = 0.995322265.
        assert!(close(erf(0.5), 0.520_499_878, 2e-7));
        assert!(close(erf(1.0), 0.842_700_793, 2e-7));
        assert!(close(erf(2.0), 0.995_322_265, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_793, 2e-7));
    }

    #[test]
    fn summary_prints_all_parts() {
        let s = Wdl::new(3, 4, 1).summary().to_string();
        assert!(s.contains("W 3 D 4 L 1"), "{s}");
        assert!(s.contains("LOS"), "{s}");
        assert!(s.contains("Elo +"), "{s}");
        let even = Wdl::new(2, 0, 2).summary().to_string();
        assert!(even.contains("Elo +0.0 ± "), "{even}");
    }

    #[test]
    fn empty_and_perfect_matches_do_not_panic() {
        let empty = Wdl::default();
        assert_eq!(empty.score(), 0.5);
        assert_eq!(empty.elo(), 0.0);
        let perfect = Wdl::new(5, 0, 0);
        assert!(perfect.elo().is_infinite());
        let (lo, hi) = perfect.elo_interval(Z_95);
        assert!(lo.is_infinite() && hi.is_infinite());
        let text = perfect.summary().to_string();
        assert!(text.contains("+inf") && !text.contains("NaN"), "{text}");
    }
}
