//! The per-move limit of the game tuners (`tune spsa`, `evolve games`): fixed nodes, fixed
//! depth, a clock, or a clock counted in nodes.

use crate::commands::checked;
use clap::Args;
use kestrel_tools::Limit;

/// `--nodes` | `--depth` | `--tc [--nodestime]`; 5,000 nodes a move when none is given.
#[derive(Args, Debug, Clone)]
pub struct GameLimitArgs {
    /// Fixed nodes per move (the default, 5000, when no limit is given).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Fixed depth per move (default: off).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(i32).range(1..))]
    pub depth: Option<i32>,
    /// Clock `BASE+INC` in seconds (not reproducible unless counted in nodes: --nodestime).
    #[arg(long, group = "limit", value_name = "BASE+INC", value_parser = checked::time_control)]
    pub tc: Option<String>,
    /// Count the --tc clock in nodes, this many per millisecond (Stockfish's `nodestime`):
    /// the engines manage their time as at a clock, and every game repeats exactly (default: off).
    #[arg(long, requires = "tc", value_name = "NODES_PER_MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodestime: Option<u64>,
}

impl GameLimitArgs {
    /// The limit these options name.
    pub fn limit(&self) -> anyhow::Result<Limit> {
        let limit = match (self.nodes, self.depth, self.tc.as_deref()) {
            (_, Some(d), _) => Limit::Depth(d),
            (_, _, Some(tc)) => Limit::parse_tc(tc).map_err(anyhow::Error::msg)?,
            (n, _, _) => Limit::Nodes(n.unwrap_or(5000)),
        };
        match self.nodestime {
            Some(rate) => limit.with_nodestime(rate).map_err(anyhow::Error::msg),
            None => Ok(limit),
        }
    }
}
