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
/// The strongest `UCI_Elo` the limit offers; above it play is unrestricted.
pub const MAX_ELO: i64 = 3000;
/// Root moves the limited search compares.
pub const LIMIT_MULTIPV: usize = 4;

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

    /// How far below the top the level is: 0 at `MAX_ELO`, 1 at `MIN_ELO`.
    fn weakness(&self) -> f64 {
        (MAX_ELO - self.elo) as f64 / (MAX_ELO - MIN_ELO) as f64
    }

    /// Nodes per move: 2^(elo / 200) scaled so that 1320 gets 300 and 3000 about 100,000.
    pub fn node_cap(&self) -> u64 {
        let doublings = (self.elo - MIN_ELO) as f64 / 200.0;
        (300.0 * doublings.exp2()).round() as u64
    }

    /// Softmax temperature in centipawns: 5 at the top, 150 at the bottom.
    pub fn temperature(&self) -> f64 {
        5.0 + 145.0 * self.weakness().powf(1.5)
    }

    /// Only moves within this many centipawns of the best are candidates: 20 to 300.
    pub fn margin(&self) -> i32 {
        (20.0 + 280.0 * self.weakness()).round() as i32
    }

    /// The move to play among `lines` (root move and score, best first), drawn with `seed`.
    pub fn choose(&self, lines: &[(Move, Score)], seed: u64) -> Option<Move> {
        let cp = |s: Score| match s {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 30_000 - m,
            Score::Mate(m) => -30_000 - m,
        };
        let best = lines.iter().map(|&(_, s)| cp(s)).max()?;
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
        let (low, high) = (StrengthLimit::new(1320), StrengthLimit::new(3000));
        assert!(low.node_cap() < high.node_cap());
        assert!(low.temperature() > high.temperature());
        assert!(low.margin() > high.margin());
        assert_eq!(StrengthLimit::new(100).elo, MIN_ELO);
        assert_eq!(low.node_cap(), 300);
    }

    #[test]
    fn choices_are_seeded_and_stay_within_the_margin() {
        let lines = lines();
        let strong = StrengthLimit::new(3000);
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
            assert!(["e2e4", "d2d4"].contains(&strong_pick.to_string().as_str()));
        }
        assert_eq!(
            weak_picks.len(),
            3,
            "the weak level varies among close moves"
        );
        assert_eq!(weak.choose(&[], 1), None);
    }
}
