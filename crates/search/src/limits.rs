//! What the GUI asked for with `go`.

use kestrel_chess::Move;
use std::time::Duration;

/// The limits of one search, as `go` gives them; all unset (the default) searches to
/// [`crate::MAX_DEPTH`] or until stopped.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration to search, in plies (clamped to `1..=MAX_DEPTH`).
    pub depth: Option<i32>,
    /// Stop after about this many nodes, shared out among the threads (checked once depth 1
    /// is done).
    pub nodes: Option<u64>,
    /// Think exactly this long (less the move overhead), ignoring the clock.
    pub movetime: Option<Duration>,
    /// White's remaining clock time.
    pub wtime: Option<Duration>,
    /// Black's remaining clock time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control (`None`: the `TM_MOVES_TO_GO` estimate); clamped to
    /// 1..=50.
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until `stop`: no time budget, and no answer before `stop` even when the search
    /// ends.
    pub infinite: bool,
    /// Pondering: search without a time limit until `ponderhit` (then timed) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Nodes as time (Stockfish's `nodestime`): a timed search counts this many of its own
    /// nodes as one millisecond instead of reading the wall clock, so a game at a clock is
    /// reproducible and independent of the machine's load. `None`: real time.
    pub nodestime: Option<u64>,
}

impl SearchLimits {
    /// Search to depth `d` plies only.
    pub fn depth(d: i32) -> SearchLimits {
        SearchLimits {
            depth: Some(d),
            ..Default::default()
        }
    }

    /// Search about `n` nodes only.
    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..Default::default()
        }
    }

    /// Search for exactly `t` (less the move overhead).
    pub fn movetime(t: Duration) -> SearchLimits {
        SearchLimits {
            movetime: Some(t),
            ..Default::default()
        }
    }
}
