//! Racing by successive halving, chess-free: round 0 plays `first_pairs` pairs for every
//! candidate; each later round keeps the best `keep` share of the survivors (by score, ties to
//! the lower index) and plays them `growth` times as many pairs in total. Every candidate plays
//! pair `j` on the same opening (common random numbers), so comparisons share their noise.
//! The pairs of a round run in parallel and are combined in order: the result is the same on
//! any thread count.

use kestrel_tools::{Outcome, Penta};
use rayon::prelude::*;

/// Racing settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceSettings {
    /// Pairs every candidate plays in round 0.
    pub first_pairs: usize,
    /// Rounds (1: every candidate plays `first_pairs`, no racing).
    pub rounds: usize,
    /// Share of the survivors kept for the next round, in (0, 1].
    pub keep: f64,
    /// Total pairs of a survivor grow by this factor each round (>= 2).
    pub growth: usize,
}

impl RaceSettings {
    /// A clear error for settings that cannot race.
    pub fn validate(&self) -> Result<(), String> {
        if self.first_pairs == 0 || self.rounds == 0 {
            return Err("racing needs at least one pair and one round".into());
        }
        if !(self.keep > 0.0 && self.keep <= 1.0) {
            return Err(format!(
                "racing keep share must be in (0, 1], got {}",
                self.keep
            ));
        }
        if self.growth < 2 {
            return Err(format!(
                "racing growth must be at least 2, got {}",
                self.growth
            ));
        }
        Ok(())
    }

    /// Total pairs a candidate that survives `rounds` rounds has played.
    pub fn pairs_after(&self, rounds: usize) -> usize {
        self.first_pairs * self.growth.pow(rounds.saturating_sub(1) as u32)
    }
}

/// One candidate's race: its pairs and the rounds it played in.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaceEntry {
    /// Pentanomial counts of every pair the candidate played, from its point of view.
    pub penta: Penta,
    /// Rounds the candidate took part in (1 to `RaceSettings::rounds`): higher means it
    /// survived longer.
    pub rounds: usize,
}

impl RaceEntry {
    /// Rounds first, then the score: a candidate measured longer ranks above one dropped
    /// early, whatever its lucky start.
    pub fn fitness(&self) -> f64 {
        self.rounds as f64 + self.penta.score()
    }
}

/// Races `candidates`; `play(c, j)` is candidate `c`'s pair `j` (its two outcomes).
pub fn race(
    settings: &RaceSettings,
    candidates: usize,
    play: &(dyn Fn(usize, usize) -> (Outcome, Outcome) + Sync),
) -> Vec<RaceEntry> {
    let mut entries = vec![RaceEntry::default(); candidates];
    let mut alive: Vec<usize> = (0..candidates).collect();
    let mut played = 0;
    for round in 0..settings.rounds {
        let target = settings.pairs_after(round + 1);
        let tasks: Vec<(usize, usize)> = alive
            .iter()
            .flat_map(|&c| (played..target).map(move |j| (c, j)))
            .collect();
        let results: Vec<(Outcome, Outcome)> = tasks.par_iter().map(|&(c, j)| play(c, j)).collect();
        for (&(c, _), &(a, b)) in tasks.iter().zip(&results) {
            entries[c].penta.add_pair(a, b);
        }
        for &c in &alive {
            entries[c].rounds = round + 1;
        }
        played = target;
        if round + 1 == settings.rounds {
            break;
        }
        alive.sort_by(|&x, &y| {
            entries[y]
                .penta
                .score()
                .total_cmp(&entries[x].penta.score())
                .then(x.cmp(&y))
        });
        let keep = ((alive.len() as f64 * settings.keep).ceil() as usize).max(1);
        alive.truncate(keep);
        alive.sort_unstable();
    }
    entries
}
