//! How long each move may take in a game: fixed depth, fixed nodes, fixed time per move, or
//! a clock with base time and increment.

use std::time::Duration;

/// The limit every move of a game is searched under.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Search every move to this depth, in plies.
    Depth(i32),
    /// Search every move for this many nodes.
    Nodes(u64),
    /// A fixed time for every move (exceeding it by more than the time margin forfeits).
    MoveTime(Duration),
    /// A chess clock: `base` for the game, plus `increment` after every move.
    Clock {
        /// Time on each side's clock at the start of the game.
        base: Duration,
        /// Time added to the mover's clock after each of its moves.
        increment: Duration,
        /// Nodes as time: each move is charged its nodes at this many per millisecond, and
        /// the engines think in the same currency (`SearchLimits::nodestime`), so the game
        /// repeats exactly whatever the machine's load. `None`: the wall clock.
        nodes_per_ms: Option<u64>,
    },
}

impl Limit {
    /// Parses a time control `BASE+INC` in seconds (`10+0.1`, `60`, `0.5+0.05`).
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| -> Result<Duration, String> {
            let v: f64 = s.trim().parse().map_err(|_| {
                format!("'{s}' in time control '{text}' is not a number of seconds")
            })?;
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "time control '{text}' has a negative or invalid time"
                ));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let base = secs(base)?;
        if base.is_zero() {
            return Err(format!(
                "time control '{text}' needs a base time above zero"
            ));
        }
        Ok(Limit::Clock {
            base,
            increment: secs(inc)?,
            nodes_per_ms: None,
        })
    }

    /// This clock counted in nodes (`nodes_per_ms` of them per millisecond): an error for a
    /// limit that is not a clock or a rate of 0.
    pub fn with_nodestime(self, nodes_per_ms: u64) -> Result<Limit, String> {
        match self {
            _ if nodes_per_ms == 0 => Err("--nodestime must be at least 1 node per ms".into()),
            Limit::Clock {
                base, increment, ..
            } => Ok(Limit::Clock {
                base,
                increment,
                nodes_per_ms: Some(nodes_per_ms),
            }),
            other => Err(format!(
                "--nodestime counts a clock in nodes; it needs --tc, not {other}"
            )),
        }
    }

    /// Depth and node limits, and a clock counted in nodes, give the same game every time
    /// (given the same engines).
    pub fn is_deterministic(&self) -> bool {
        matches!(
            self,
            Limit::Depth(_)
                | Limit::Nodes(_)
                | Limit::Clock {
                    nodes_per_ms: Some(_),
                    ..
                }
        )
    }

    /// The PGN `TimeControl` tag value (`-` when moves are not timed).
    pub fn pgn_time_control(&self) -> String {
        match self {
            Limit::Clock {
                base, increment, ..
            } if increment.is_zero() => secs(*base),
            Limit::Clock {
                base, increment, ..
            } => format!("{}+{}", secs(*base), secs(*increment)),
            Limit::MoveTime(t) => format!("{}/move", secs(*t)),
            Limit::Depth(_) | Limit::Nodes(_) => "-".to_string(),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::MoveTime(t) => write!(f, "movetime {}ms", t.as_millis()),
            Limit::Clock {
                nodes_per_ms: Some(rate),
                ..
            } => write!(f, "tc {} in nodes ({rate}/ms)", self.pgn_time_control()),
            Limit::Clock { .. } => write!(f, "tc {}", self.pgn_time_control()),
        }
    }
}

/// Seconds without trailing zeros: 10, 0.1, 2.5.
fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        let tc = Limit::parse_tc("10+0.1").unwrap();
        assert_eq!(
            tc,
            Limit::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                nodes_per_ms: None,
            }
        );
        assert_eq!(tc.pgn_time_control(), "10+0.1");
        assert_eq!(Limit::parse_tc("60").unwrap().pgn_time_control(), "60");
        assert!(Limit::parse_tc("abc").is_err());
        assert!(Limit::parse_tc("0+1").is_err());
        assert!(Limit::parse_tc("-5+1").is_err());
        assert!(Limit::parse_tc("5+x").is_err());
        assert!(Limit::Depth(3).is_deterministic() && !tc.is_deterministic());
        assert_eq!(Limit::Nodes(5).pgn_time_control(), "-");
        let nodes_clock = tc.with_nodestime(1000).unwrap();
        assert!(nodes_clock.is_deterministic());
        assert_eq!(nodes_clock.to_string(), "tc 10+0.1 in nodes (1000/ms)");
        assert!(tc.with_nodestime(0).is_err());
        assert!(Limit::Nodes(5).with_nodestime(1000).is_err());
    }
}
