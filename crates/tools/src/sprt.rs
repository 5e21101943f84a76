//! Sequential probability ratio test: stop a match as soon as the results say "elo1 rather
//! than elo0" (accept H1) or the reverse (accept H0).
//!
//! Two models (state which, because SPRT numbers depend on it). The default,
//! [`SprtModel::Pentanomial`], is the generalised SPRT of fastchess and OpenBench on game
//! pairs (see [`crate::gsprt`]): logistic Elo bounds, outcomes the five pair scores, decided
//! only when a pair is complete.
//!
//! [`SprtModel::Trinomial`]: logistic Elo, game results as a
//! trinomial (1, 1/2, 0) whose mean is approximated as normal with the variance measured from
//! the W/D/L counts (no BayesElo draw model). Under H_i the expected score is
//! `s_i = 1 / (1 + 10^(-elo_i/400))`, and the log-likelihood ratio of N games with mean score
//! `x` and per-game variance `v` is `N (s1 - s0)(2x - s0 - s1) / (2v)`. Wald's bounds are
//! `ln(beta/(1-alpha))` (accept H0) and `ln((1-beta)/alpha)` (accept H1). While every game
//! has had the same result the measured variance is zero; the variance is then taken from
//! the counts plus half a game of each result, so that a run of losses still ends the test.

use crate::pentanomial::Penta;
use crate::stats::{Wdl, score_from_elo};

/// Which results the LLR is computed from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Game pairs (LL, LD, WL+DD, WD, WW): fastchess's and OpenBench's default.
    #[default]
    Pentanomial,
    /// Game pairs with the bounds in normalised Elo (fastchess's "normalized" model).
    Normalized,
    /// Single games (W, D, L), normal approximation.
    Trinomial,
}

impl SprtModel {
    /// Parses `pentanomial` or `trinomial`.
    pub fn parse(text: &str) -> Result<SprtModel, String> {
        match text.to_ascii_lowercase().as_str() {
            "pentanomial" | "penta" => Ok(SprtModel::Pentanomial),
            "normalized" | "normalised" => Ok(SprtModel::Normalized),
            "trinomial" | "tri" => Ok(SprtModel::Trinomial),
            _ => Err(format!(
                "SPRT model '{text}' must be pentanomial, normalized or trinomial"
            )),
        }
    }
}

/// Test settings: the two hypotheses (in Elo), the error rates and the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0: logistic Elo, or normalised Elo for [`SprtModel::Normalized`].
    pub elo0: f64,
    /// Elo difference under H1, above `elo0` (same scale).
    pub elo1: f64,
    /// False-positive rate: the probability of accepting H1 when H0 holds, in (0, 1).
    pub alpha: f64,
    /// False-negative rate: the probability of accepting H0 when H1 holds, in (0, 1).
    pub beta: f64,
    /// Which results the LLR is computed from (pentanomial unless changed).
    pub model: SprtModel,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// H0 (elo0) accepted: the change is not the improvement hoped for.
    AcceptH0,
    /// H1 (elo1) accepted.
    AcceptH1,
}

impl Sprt {
    /// Checks the settings (elo0 < elo1, error rates strictly between 0 and 1); pentanomial.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(format!(
                "SPRT needs finite elo0 and elo1 (got {elo0}, {elo1})"
            ));
        }
        if elo0 >= elo1 {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0}, {elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(format!("SPRT {name} must be in (0, 1), got {v}"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT alpha + beta must be below 1 (got {alpha} + {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Pentanomial,
        })
    }

    /// The same test on another model.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// Parses `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| {
                p.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("'{p}' in SPRT spec '{text}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        match parts.as_slice() {
            [e0, e1] => Sprt::new(*e0, *e1, 0.05, 0.05),
            [e0, e1, a, b] => Sprt::new(*e0, *e1, *a, *b),
            _ => Err(format!(
                "SPRT spec '{text}' must be elo0,elo1 or elo0,elo1,alpha,beta"
            )),
        }
    }

    /// Accept H0 at or below this.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Accept H1 at or above this.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of the results on this test's model: the pairs for the
    /// pentanomial model, the games for the trinomial one.
    pub fn llr_of(&self, wdl: &Wdl, penta: &Penta) -> f64 {
        match self.model {
            SprtModel::Pentanomial => self.llr_penta(penta),
            SprtModel::Normalized => self.llr_penta_normalized(penta),
            SprtModel::Trinomial => self.llr(wdl),
        }
    }

    /// Pentanomial generalised-SPRT LLR of these pairs (fastchess's logistic model).
    pub fn llr_penta(&self, penta: &Penta) -> f64 {
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        crate::gsprt::llr(&scores, &penta.five(), s0, s1)
    }

    /// Pentanomial LLR with elo0 and elo1 read as normalised Elo (fastchess's "normalized").
    pub fn llr_penta_normalized(&self, penta: &Penta) -> f64 {
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let scale = std::f64::consts::SQRT_2 / (800.0 / std::f64::consts::LN_10);
        crate::gsprt::llr_normalized(&scores, &penta.five(), self.elo0 * scale, self.elo1 * scale)
    }

    /// Where an LLR stands against the bounds.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// Trinomial log-likelihood ratio of H1 against H0 for these games (normal
    /// approximation; 0 until the variance is known).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = wdl.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let var = if wdl.variance() > 0.0 {
            wdl.variance()
        } else {
            pseudo_count_variance(wdl)
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * wdl.score() - s0 - s1) / (2.0 * var)
    }

    /// The trinomial decision for these games.
    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        self.decide(self.llr(wdl))
    }
}

/// Per-game variance of the counts plus half a game of each result.
fn pseudo_count_variance(wdl: &Wdl) -> f64 {
    let (w, d, l) = (
        wdl.wins as f64 + 0.5,
        wdl.draws as f64 + 0.5,
        wdl.losses as f64 + 0.5,
    );
    let n = w + d + l;
    let mu = (w + 0.5 * d) / n;
    (w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2)) / n
}

impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SPRT elo0={} elo1={} alpha={} beta={} {} (bounds {:.3}, {:.3})",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                SprtModel::Pentanomial => "pentanomial",
                SprtModel::Normalized => "pentanomial, normalised Elo",
                SprtModel::Trinomial => "trinomial",
            },
            self.lower_bound(),
            self.upper_bound()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wald_bounds() {
        // alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!((s.lower_bound() + 2.944_439).abs() < 1e-6);
        assert!((s.upper_bound() - 2.944_439).abs() < 1e-6);
        // alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap();
        assert!((s.lower_bound() + 2.251_292).abs() < 1e-6);
        assert!((s.upper_bound() - 2.890_372).abs() < 1e-6);
    }

    #[test]
    fn llr_known_value() {
        // W 60 D 0 L 40, elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 0.514387, x = 0.6, v = 0.24;
        // LLR = 100 * 0.0143872 * (1.2 - 1.0143872) / 0.48 = 0.556343.
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let llr = s.llr(&Wdl::new(60, 0, 40));
        assert!((llr - 0.556_343).abs() < 1e-5, "{llr}");
        // Results exactly between the hypotheses give no evidence.
        assert_eq!(s.decision(&Wdl::new(60, 0, 40)), SprtDecision::Continue);
    }

    #[test]
    fn decisions_follow_the_evidence() {
        let s = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        // A clearly stronger player is accepted as H1, a clearly weaker one as H0.
        assert_eq!(s.decision(&Wdl::new(700, 200, 300)), SprtDecision::AcceptH1);
        assert_eq!(s.decision(&Wdl::new(300, 200, 700)), SprtDecision::AcceptH0);
        assert_eq!(s.decision(&Wdl::new(3, 2, 2)), SprtDecision::Continue);
        assert_eq!(s.llr(&Wdl::default()), 0.0);
        // Only losses: zero measured variance, yet the evidence piles up against H1.
        // 12 losses: pseudo counts W 0.5 D 0.5 L 12.5 (n 13.5), mean 0.75/13.5 = 0.055556,
        // variance (0.5*0.944444^2 + 0.5*0.444444^2 + 12.5*0.055556^2)/13.5 = 0.043210;
        // s1 = 0.528751, LLR = 12 * 0.028751 * (0 - 1.028751) / 0.086420 = -4.1070.
        let llr = s.llr(&Wdl::new(0, 0, 12));
        assert!((llr + 4.1070).abs() < 1e-3, "{llr}");
        assert_eq!(s.decision(&Wdl::new(0, 0, 12)), SprtDecision::AcceptH0);
        // Only draws: a 50% score is nearer elo0 = 0 than elo1 = 20.
        assert!(s.llr(&Wdl::new(0, 7, 0)) < 0.0);
    }

    #[test]
    fn parse_and_validate() {
        let s = Sprt::parse("0,5").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        let s = Sprt::parse("-1.5, 3, 0.1, 0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 3.0, 0.1, 0.2));
        assert!(Sprt::parse("5,0").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("0,x").is_err());
        assert!(Sprt::parse("0,5,1.5,0.05").is_err());
    }
}
