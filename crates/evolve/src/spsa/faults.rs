//! What went wrong in a tune's games, by kind: crashes, hangs, illegal moves (each one makes
//! its pair be replayed), losses on time (a result, kept) and the pairs replayed. A task
//! result carries them after θ+'s two points and the fault count.

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

/// Fault counts of the tuned engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultKinds {
    /// The engine died, could not start or stopped answering the protocol.
    pub crashes: u64,
    /// The engine did not answer in time (killed and restarted).
    pub hangs: u64,
    /// The engine played an illegal move.
    pub illegal_moves: u64,
    /// Games lost on time (scored as losses: a slow setting is part of what is tuned).
    pub time_losses: u64,
    /// Pairs played again because of a crash, hang or illegal move.
    pub replays: u64,
}

impl FaultKinds {
    /// Whether nothing went wrong (left out of checkpoints then).
    pub fn is_zero(&self) -> bool {
        *self == FaultKinds::default()
    }

    /// The five counts in task-result order.
    pub fn to_numbers(self) -> [f64; 5] {
        [
            self.crashes,
            self.hangs,
            self.illegal_moves,
            self.time_losses,
            self.replays,
        ]
        .map(|v| v as f64)
    }

    /// The counts from a task result's tail (after points and faults); zero when absent.
    pub fn from_numbers(numbers: &[f64]) -> FaultKinds {
        let at = |i: usize| numbers.get(i).map_or(0, |&v| v as u64);
        FaultKinds {
            crashes: at(0),
            hangs: at(1),
            illegal_moves: at(2),
            time_losses: at(3),
            replays: at(4),
        }
    }

    /// `crashes 1, hangs 0, illegal moves 0, time losses 2, pairs replayed 1`.
    pub fn summary(&self) -> String {
        format!(
            "crashes {}, hangs {}, illegal moves {}, time losses {}, pairs replayed {}",
            self.crashes, self.hangs, self.illegal_moves, self.time_losses, self.replays
        )
    }
}

impl AddAssign for FaultKinds {
    fn add_assign(&mut self, o: FaultKinds) {
        self.crashes += o.crashes;
        self.hangs += o.hangs;
        self.illegal_moves += o.illegal_moves;
        self.time_losses += o.time_losses;
        self.replays += o.replays;
    }
}
