//! Pentanomial statistics: games are played in pairs (one opening, colours reversed), and a
//! pair scores 0, 1/2, 1, 3/2 or 2 points. The two games of a pair are correlated (the
//! opening favours one side), so the variance of the pair scores is smaller than the
//! trinomial model assumes and the error bars are honest only when counted per pair.
//!
//! The formulas are those of fastchess's `EloPentanomial` (and OpenBench's pentanomial
//! report): the mean score `s` is the mean of the pair scores divided by 2, the variance
//! `v` is that of the per-pair mean on the same [0, 1] scale, the 95% interval is
//! `s ± 1.96·sqrt(v / pairs)` mapped through the logistic Elo formula (the Elo error is half
//! its width), and normalised Elo is `(s − 1/2) / sqrt(2v) · 800 / ln 10`.

use crate::stats::{Z_95, elo_from_score, erf, fmt_elo};

/// The outcome of one game from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Lost: no point.
    Loss,
    /// Drawn: half a point.
    Draw,
    /// Won: one point.
    Win,
}

impl Outcome {
    /// Half-points: 0, 1 or 2.
    fn half_points(self) -> u8 {
        match self {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        }
    }
}

/// Pair counts from one player's point of view. WL (a win and a loss) and DD (two draws) both
/// score one point and are kept apart only for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Pairs with two losses (0 points).
    pub ll: u64,
    /// Pairs with a loss and a draw (1/2 point).
    pub ld: u64,
    /// Pairs with a win and a loss (1 point).
    pub wl: u64,
    /// Pairs with two draws (1 point).
    pub dd: u64,
    /// Pairs with a win and a draw (3/2 points).
    pub wd: u64,
    /// Pairs with two wins (2 points).
    pub ww: u64,
}

/// Elo with its pentanomial 95% error, normalised Elo and LOS.
#[derive(Clone, Copy, Debug)]
pub struct PentaSummary {
    /// The pair counts summarised.
    pub penta: Penta,
    /// Mean score per game in [0, 1] (0.5 with no pair).
    pub score: f64,
    /// Logistic Elo difference of the mean score (±infinity at 0 or 1).
    pub elo: f64,
    /// Half the width of the 95% interval in Elo (infinite when an end is unbounded).
    pub elo_error: f64,
    /// Normalised Elo, `(score − 1/2) / sqrt(2·variance) · 800 / ln 10` (0 with no variance).
    pub nelo: f64,
    /// Half the width of the 95% interval in normalised Elo.
    pub nelo_error: f64,
    /// Likelihood of superiority in [0, 1], from the normal approximation of the mean score.
    pub los: f64,
}

impl Penta {
    /// Adds the pair made of these two games.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        use Outcome::*;
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
        debug_assert!(first.half_points() + second.half_points() <= 4);
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The five counts by pair score 0, 1/2, 1, 3/2, 2 (LL, LD, WL+DD, WD, WW).
    pub fn five(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The same pairs seen from the opponent.
    pub fn flipped(&self) -> Penta {
        Penta {
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    /// Mean score per game in [0, 1] (0.5 with no pair).
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let five = self.five();
        let total: f64 = (0..5).map(|i| 0.25 * i as f64 * five[i] as f64).sum();
        total / n as f64
    }

    /// Variance of one pair's mean score (pair points / 2) around [`Penta::score`].
    pub fn variance(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let mu = self.score();
        let five = self.five();
        let sum: f64 = (0..5)
            .map(|i| five[i] as f64 * (0.25 * i as f64 - mu).powi(2))
            .sum();
        sum / n as f64
    }

    /// Standard error of the mean score.
    pub fn std_error(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            0.0
        } else {
            (self.variance() / n as f64).sqrt()
        }
    }

    /// Logistic Elo of the mean score.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Normalised Elo of a score for this variance (0 when the variance is 0).
    fn nelo_of(&self, score: f64) -> f64 {
        let v = self.variance();
        if v <= 0.0 {
            return 0.0;
        }
        (score - 0.5) / (2.0 * v).sqrt() * (800.0 / std::f64::consts::LN_10)
    }

    /// Everything at once, for reports.
    pub fn summary(&self) -> PentaSummary {
        let s = self.score();
        let se = self.std_error();
        let (lo, hi) = (s - Z_95 * se, s + Z_95 * se);
        let elo_error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
        let los = if se > 0.0 {
            0.5 * (1.0 + erf((s - 0.5) / (std::f64::consts::SQRT_2 * se)))
        } else {
            0.5
        };
        PentaSummary {
            penta: *self,
            score: s,
            elo: self.elo(),
            elo_error: if elo_error.is_nan() {
                f64::INFINITY
            } else {
                elo_error
            },
            nelo: self.nelo_of(s),
            nelo_error: (self.nelo_of(hi) - self.nelo_of(lo)) / 2.0,
            los,
        }
    }
}

impl std::ops::AddAssign for Penta {
    fn add_assign(&mut self, o: Penta) {
        self.ll += o.ll;
        self.ld += o.ld;
        self.wl += o.wl;
        self.dd += o.dd;
        self.wd += o.wd;
        self.ww += o.ww;
    }
}

impl std::fmt::Display for PentaSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [ll, ld, mid, dw, ww] = self.penta.five();
        write!(
            f,
            "Ptnml(0-2) [{ll}, {ld}, {mid}, {dw}, {ww}] ({} pairs, WL {} DD {}), Elo {} ± {:.1}, nElo {} ± {:.1}, LOS {:.1}%",
            self.penta.pairs(),
            self.penta.wl,
            self.penta.dd,
            fmt_elo(self.elo),
            self.elo_error,
            fmt_elo(self.nelo),
            self.nelo_error,
            100.0 * self.los
        )
    }
}
