//! Round robins and gauntlets: a match per pairing, then standings and a cross table.

use crate::match_runner::{GameDone, MatchResult, MatchSettings, run_match};
use crate::openings::Opening;
use crate::player::EngineSpec;
use crate::stats::{Wdl, fmt_elo};
use std::fmt::Write as _;

/// Every pairing's match.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Engine names, in the order given; the indices used by `pairings`.
    pub names: Vec<String>,
    /// `(i, j, result)`: engine `i` (as A) against engine `j`.
    pub pairings: Vec<(usize, usize, MatchResult)>,
}

/// One line of the standings.
#[derive(Clone, Debug)]
pub struct Standing {
    /// The engine's index in [`Tournament::names`].
    pub index: usize,
    /// The engine's name.
    pub name: String,
    /// Its results against all the others together.
    pub wdl: Wdl,
}

/// Every engine plays every other one (`settings.games` games per pairing).
pub fn round_robin(
    engines: &[EngineSpec],
    openings: &[Opening],
    settings: &MatchSettings,
    on_game: &(dyn Fn(usize, usize, &GameDone) + Sync),
) -> Tournament {
    let pairs: Vec<(usize, usize)> = (0..engines.len())
        .flat_map(|i| (i + 1..engines.len()).map(move |j| (i, j)))
        .collect();
    play_pairs(engines, &pairs, openings, settings, on_game)
}

/// The first engine plays each of the others.
pub fn gauntlet(
    engines: &[EngineSpec],
    openings: &[Opening],
    settings: &MatchSettings,
    on_game: &(dyn Fn(usize, usize, &GameDone) + Sync),
) -> Tournament {
    let pairs: Vec<(usize, usize)> = (1..engines.len()).map(|j| (0, j)).collect();
    play_pairs(engines, &pairs, openings, settings, on_game)
}

fn play_pairs(
    engines: &[EngineSpec],
    pairs: &[(usize, usize)],
    openings: &[Opening],
    settings: &MatchSettings,
    on_game: &(dyn Fn(usize, usize, &GameDone) + Sync),
) -> Tournament {
    let pairings = pairs
        .iter()
        .map(|&(i, j)| {
            let report = |done: &GameDone| on_game(i, j, done);
            let result = run_match(&engines[i], &engines[j], openings, settings, &report);
            (i, j, result)
        })
        .collect();
    Tournament {
        names: engines.iter().map(|e| e.name().to_string()).collect(),
        pairings,
    }
}

impl Tournament {
    /// Engine `i`'s results against engine `j` (empty when they did not meet).
    pub fn head_to_head(&self, i: usize, j: usize) -> Wdl {
        let mut wdl = Wdl::default();
        for (a, b, r) in &self.pairings {
            if (*a, *b) == (i, j) {
                wdl += r.wdl;
            } else if (*a, *b) == (j, i) {
                wdl += r.wdl.flipped();
            }
        }
        wdl
    }

    /// Totals per engine, best score first (ties keep entry order).
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = (0..self.names.len())
            .map(|i| {
                let mut wdl = Wdl::default();
                for j in 0..self.names.len() {
                    if j != i {
                        wdl += self.head_to_head(i, j);
                    }
                }
                Standing {
                    index: i,
                    name: self.names[i].clone(),
                    wdl,
                }
            })
            .collect();
        rows.sort_by(|x, y| y.wdl.points().total_cmp(&x.wdl.points()));
        rows
    }

    /// Standings with points, Elo against the field, and a cross table of points scored.
    pub fn table(&self) -> String {
        let rows = self.standings();
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(6);
        let mut s = String::new();
        write!(
            s,
            "{:>3} {:<width$} {:>7} {:>6} {:>14} {:>8}",
            "#", "engine", "points", "games", "W-D-L", "Elo"
        )
        .unwrap();
        for (k, _) in rows.iter().enumerate() {
            write!(s, " {:>6}", k + 1).unwrap();
        }
        s.push('\n');
        for (rank, row) in rows.iter().enumerate() {
            let w = row.wdl;
            write!(
                s,
                "{:>3} {:<width$} {:>7.1} {:>6} {:>14} {:>8}",
                rank + 1,
                row.name,
                w.points(),
                w.games(),
                format!("{}-{}-{}", w.wins, w.draws, w.losses),
                fmt_elo(w.elo())
            )
            .unwrap();
            for other in &rows {
                if other.index == row.index {
                    write!(s, " {:>6}", "-").unwrap();
                } else {
                    let h = self.head_to_head(row.index, other.index);
                    if h.games() == 0 {
                        write!(s, " {:>6}", "").unwrap();
                    } else {
                        write!(s, " {:>6}", format!("{}/{}", h.points(), h.games())).unwrap();
                    }
                }
            }
            s.push('\n');
        }
        s
    }
}
