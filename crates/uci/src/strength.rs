//! `UCI_LimitStrength` and `UCI_Elo`: playing like a weaker player. The search is capped in
//! nodes, looks at several root moves (MultiPV) and the move is drawn from those within a
//! score margin of the best, with softmax odds at a temperature; cap, margin and temperature
//! follow the Elo asked for, as Stockfish's skill level does. The draw is seeded by the
//! `Seed` option and the position, so a game replays exactly. The mapping from `UCI_Elo` to
//! these knobs is calibrated against Stockfish's own `UCI_Elo` (docs/strength-limit.md).

use kestrel_chess::Move;
use kestrel_search::Score;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The weakest `UCI_Elo` (Stockfish's lowest).
pub const MIN_ELO: i64 = 1320;
/// The strongest `UCI_Elo` the limit offers: Kestrel's full strength on Stockfish's scale at
/// 5+0.05, as measured by the calibration; at this level play is unrestricted.
pub const MAX_ELO: i64 = 2250;
/// Root moves the limited search compares while the level is weak enough to vary its moves.
pub const LIMIT_MULTIPV: usize = 4;

/// `UCI_Elo` to skill (0 weakest, 1 full strength), fitted to the calibration games against
/// Stockfish's `UCI_Elo` (docs/strength-limit.md); linear between the points.
const CALIBRATION: &[(i64, f64)] = &[(MIN_ELO, 0.190), (MAX_ELO, 1.0)];

/// Nodes per move at skill 0; each step of skill doubles them 9.5 times up to full strength.
const WEAKEST_NODES: f64 = 300.0;
/// Doublings of the node cap from skill 0 to skill 1.
const NODE_DOUBLINGS: f64 = 9.5;
/// Softmax temperature (centipawns) at skill 0, falling as (1 - skill)^2 to 0.
const WEAKEST_TEMPERATURE: f64 = 90.0;

/// The knobs of one Elo level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrengthLimit {
    /// The level asked for, `MIN_ELO..=MAX_ELO`.
    pub elo: i64,
}

impl StrengthLimit {
    /// The level `elo`, clamped to the offered range.
    pub fn new(elo: i64) -> StrengthLimit {
        StrengthLimit {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// The level's skill, 0 (weakest) to 1 (full strength), from the calibration table.
    pub fn skill(&self) -> f64 {
        let elo = self.elo;
        for pair in CALIBRATION.windows(2) {
            let ((e0, s0), (e1, s1)) = (pair[0], pair[1]);
            if elo <= e1 {
                let t = (elo - e0) as f64 / (e1 - e0) as f64;
                return (s0 + t * (s1 - s0)).clamp(0.0, 1.0);
            }
        }
        1.0
    }

    /// Nodes per move (300 at skill 0, doubling with skill), or `None` at full strength.
    pub fn node_cap(&self) -> Option<u64> {
        let skill = self.skill();
        (skill < 1.0).then(|| (WEAKEST_NODES * (NODE_DOUBLINGS * skill).exp2()).round() as u64)
    }

    /// Softmax temperature in centipawns: 90 at skill 0, 0 at full strength.
    pub fn temperature(&self) -> f64 {
        WEAKEST_TEMPERATURE * (1.0 - self.skill()).powi(2)
    }

    /// Only moves within this many centipawns of the best are candidates (three temperatures:
    /// a move that much worse would be drawn about once in twenty anyway).
    pub fn margin(&self) -> i32 {
        (3.0 * self.temperature()).round() as i32
    }

    /// Root moves to search: several while the level still varies its moves, one at the top.
    pub fn multipv(&self) -> usize {
        if self.temperature() >= 1.0 {
            LIMIT_MULTIPV
        } else {
            1
        }
    }

    /// The move to play among `lines` (root move and score, best first), drawn with `seed`.
    pub fn choose(&self, lines: &[(Move, Score)], seed: u64) -> Option<Move> {
        let cp = |s: Score| match s {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 30_000 - m,
            Score::Mate(m) => -30_000 - m,
        };
        let best = lines.iter().map(|&(_, s)| cp(s)).max()?;
        if self.temperature() < 1.0 {
            return lines
                .iter()
                .find(|&&(_, s)| cp(s) == best)
                .map(|&(mv, _)| mv);
        }
        let candidates: Vec<(Move, f64)> = lines
            .iter()
            .filter(|&&(_, s)| cp(s) >= best - self.margin())
            .map(|&(mv, s)| (mv, (f64::from(cp(s) - best) / self.temperature()).exp()))
            .collect();
        let total: f64 = candidates.iter().map(|(_, w)| w).sum();
        let mut pick = ChaCha8Rng::seed_from_u64(seed).random::<f64>() * total;
        for &(mv, weight) in &candidates {
            if pick < weight {
                return Some(mv);
            }
            pick -= weight;
        }
        candidates.last().map(|&(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::Board;

    fn lines() -> Vec<(Move, Score)> {
        let b = Board::startpos();
        let mv = |t| b.parse_uci_move(t).unwrap();
        vec![
            (mv("e2e4"), Score::Cp(40)),
            (mv("d2d4"), Score::Cp(30)),
            (mv("g1f3"), Score::Cp(-20)),
            (mv("b1a3"), Score::Cp(-400)),
        ]
    }

    #[test]
    fn knobs_weaken_monotonically_with_the_elo() {
        let levels: Vec<StrengthLimit> = (MIN_ELO..=MAX_ELO)
            .step_by(20)
            .map(StrengthLimit::new)
            .collect();
        for pair in levels.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(weaker.skill() < stronger.skill());
            assert!(weaker.temperature() > stronger.temperature());
            assert!(weaker.margin() >= stronger.margin());
            if let Some(cap) = stronger.node_cap() {
                assert!(weaker.node_cap().unwrap() < cap);
            }
        }
        let (low, top) = (StrengthLimit::new(MIN_ELO), StrengthLimit::new(MAX_ELO));
        assert_eq!(StrengthLimit::new(100).elo, MIN_ELO);
        assert_eq!(StrengthLimit::new(9000).elo, MAX_ELO);
        assert!(
            matches!(low.node_cap(), Some(n) if (300..2_000).contains(&n)),
            "{low:?}"
        );
        assert_eq!(
            (top.node_cap(), top.multipv()),
            (None, 1),
            "the top is unrestricted"
        );
        assert_eq!(low.multipv(), LIMIT_MULTIPV);
    }

    #[test]
    fn choices_are_seeded_and_stay_within_the_margin() {
        let lines = lines();
        let strong = StrengthLimit::new(MAX_ELO);
        let weak = StrengthLimit::new(1320);
        let mut weak_picks = std::collections::HashSet::new();
        for seed in 0..200 {
            assert_eq!(weak.choose(&lines, seed), weak.choose(&lines, seed));
            let pick = weak.choose(&lines, seed).unwrap();
            assert_ne!(
                pick.to_string(),
                "b1a3",
                "400 cp worse is beyond every margin"
            );
            weak_picks.insert(pick);
            let strong_pick = strong.choose(&lines, seed).unwrap();
            assert_eq!(
                strong_pick.to_string(),
                "e2e4",
                "full strength plays the best"
            );
        }
        assert_eq!(
            weak_picks.len(),
            3,
            "the weak level varies among close moves"
        );
        assert_eq!(weak.choose(&[], 1), None);
    }
}
