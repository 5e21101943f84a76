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

/// How a search score relates to the true value (also stored in the hash table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score: searched inside the window.
    Exact,
    /// Fail high: the score is at least this.
    Lower,
    /// Fail low: the score is at most this.
    Upper,
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth in plies.
    pub depth: i32,
    /// Deepest ply reached in this iteration (selective depth).
    pub seldepth: i32,
    /// 1-based line number when MultiPV > 1.
    pub multipv: usize,
    /// Score of this line, side to move's view.
    pub score: Score,
    /// Whether `score` is exact or a bound (aspiration fail high or low).
    pub bound: Bound,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Nodes per second since the search started.
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the root move.
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply (the PV's second move), to ponder on.
    pub ponder_move: Option<Move>,
    /// Score of the best move, side to move's view.
    pub score: Score,
    /// Internal score (side to move's view; mates as `MATE - plies`).
    pub score_internal: i32,
    /// Depth of the last completed iteration, in plies (0 without a legal move).
    pub depth: i32,
    /// Deepest ply reached in that iteration (selective depth).
    pub seldepth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time of the whole search.
    pub time: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
}
