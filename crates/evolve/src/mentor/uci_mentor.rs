//! An external UCI engine as mentor: a pool of engine processes (one per core by default, the
//! shared [`EnginePool`]), each searching positions to a fixed depth. A crashed or hung engine
//! is restarted and the position retried; a position that still fails is reported, not fatal.
//! An engine that keeps failing (many attempts in a row without one answer) stops the
//! labelling with an error, so a hung mentor cannot stall a run. The pool searches every
//! position from a cleared engine, so a label does not depend on which process got it.

use crate::mentor::labels::{Label, Mentor};
use kestrel_chess::Board;
use kestrel_search::Score;
use kestrel_tools::engine_pool::{EnginePool, EngineSearch};
use std::time::Duration;

pub use kestrel_tools::engine_pool::MAX_FAILURES_IN_A_ROW;

/// The default longest wait for one `go depth N`.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(30);

/// A UCI engine searching each position to a fixed depth, as a [`Mentor`].
pub struct UciMentor {
    engines: EnginePool,
    depth: i32,
}

impl UciMentor {
    /// Checks that the engine starts, then keeps `processes` of them.
    pub fn new(command_line: &str, depth: i32, processes: usize) -> Result<UciMentor, String> {
        let engines = EnginePool::start(command_line, processes, DEFAULT_MOVE_TIMEOUT)?;
        Ok(UciMentor { engines, depth })
    }

    /// Sets the longest wait for one position's `go depth N` (default 30 s).
    pub fn with_move_timeout(mut self, timeout: Duration) -> UciMentor {
        self.engines.set_move_timeout(timeout);
        self
    }
}

impl Mentor for UciMentor {
    fn key(&self) -> String {
        self.engines.key(&format!("d{}", self.depth))
    }

    fn restarts(&self) -> usize {
        self.engines.restarts()
    }

    fn label(&mut self, boards: &[Board]) -> Result<Vec<Option<Label>>, String> {
        let go = format!("go depth {}", self.depth);
        let searches: Vec<Option<EngineSearch>> = boards
            .iter()
            .map(|board| {
                Some(EngineSearch {
                    position: format!("position fen {}", board.to_fen()),
                    go: go.clone(),
                })
            })
            .collect();
        let answers = self.engines.search(&searches)?;
        let results: Vec<Option<Label>> = boards
            .iter()
            .zip(answers)
            .map(|(board, answer)| match answer?.score? {
                Score::Cp(cp) => Some(Label::Cp(cp * board.side_to_move().sign())),
                Score::Mate(_) => Some(Label::Mate),
            })
            .collect();
        if results.iter().all(Option::is_none) && !boards.is_empty() {
            return Err(format!(
                "UCI mentor '{}' gave no score for any of {} positions",
                self.engines.command(),
                boards.len()
            ));
        }
        Ok(results)
    }
}
