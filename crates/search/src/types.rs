//! The search's shared limits and units (plies, depths, scores) and the information it reports.

use kestrel_chess::Move;
use std::time::Duration;

/// Deepest ply the search reaches (extensions included); per-ply tables have this many + 1 or
/// + 2 rows.
pub const MAX_PLY: usize = 128;
/// Deepest iteration the search starts: room for a few plies of extensions and quiescence.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;
/// Quarter plies per ply: depths are counted in quarter plies so that Falcon's fractional
/// extensions add up exactly.
pub const ONE_PLY: i32 = 4;

/// Score of a mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Larger than any score: the bounds of a full window.
pub const INFINITY: i32 = MATE + 1;

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// From an internal score (centipawns or `MATE - plies`).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// Fail high: the score is at least this.
    Lower,
    /// Fail low: the score is at most this.
    Upper,
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: i32,
    /// 1-based line number when MultiPV > 1.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when there is no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Score,
    /// Internal score (side to move's view; mates as `MATE - plies`).
    pub score_internal: i32,
    pub depth: i32,
    pub seldepth: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}
