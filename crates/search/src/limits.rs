//! What the GUI asked for with `go`.

use kestrel_chess::Move;
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
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
    pub fn depth(d: i32) -> SearchLimits {
        SearchLimits {
            depth: Some(d),
            ..Default::default()
        }
    }

    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..Default::default()
        }
    }

    pub fn movetime(t: Duration) -> SearchLimits {
        SearchLimits {
            movetime: Some(t),
            ..Default::default()
        }
    }
}
