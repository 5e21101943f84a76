//! A pool of UCI engine processes scoring positions at a fixed depth or node count (the
//! shared [`EnginePool`]). Every position is searched from a cleared state (`ucinewgame`), so
//! its score does not depend on which process got it or what that process searched before. A
//! crashed or hung engine is restarted and the position retried; after
//! [`MAX_FAILURES_IN_A_ROW`] failures in a row the pool gives up with an error, so a broken
//! mentor cannot stall a run.

use super::labeller::Labeller;
use crate::format::PackedPosition;
use kestrel_chess::Board;
use kestrel_search::Score;
use kestrel_tools::engine_pool::{EnginePool, EngineSearch};
use std::time::Duration;

pub use kestrel_tools::engine_pool::MAX_FAILURES_IN_A_ROW;

/// How far the mentor searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MentorLimit {
    /// `go depth N`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
}

/// The mentor's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Centipawns from the side to move's view.
    Score(i16),
    /// A mate score (the position is dropped).
    Mate,
    /// The mentor's best move is a capture or promotion (dropped: not quiet).
    Noisy,
    /// The engine failed on it every attempt (dropped).
    Failed,
}

/// A pool of mentor processes.
pub struct UciPool {
    engines: EnginePool,
    limit: MentorLimit,
}

impl UciPool {
    /// Starts one engine (checking that it works) and keeps room for `processes`.
    pub fn start(
        command_line: &str,
        limit: MentorLimit,
        processes: usize,
        move_timeout: Duration,
    ) -> Result<UciPool, String> {
        let engines = EnginePool::start(command_line, processes, move_timeout)?;
        Ok(UciPool { engines, limit })
    }

    /// The verdicts on `boards` (`None`: an unreadable record, a failure), in their order,
    /// searched by every process in parallel.
    pub fn label_boards(&mut self, boards: &[Option<Board>]) -> Result<Vec<Verdict>, String> {
        let go = match self.limit {
            MentorLimit::Depth(d) => format!("go depth {d}"),
            MentorLimit::Nodes(n) => format!("go nodes {n}"),
        };
        let searches: Vec<Option<EngineSearch>> = boards
            .iter()
            .map(|board| {
                board.as_ref().map(|b| EngineSearch {
                    position: format!("position fen {}", b.to_fen()),
                    go: go.clone(),
                })
            })
            .collect();
        let answers = self.engines.search(&searches)?;
        Ok(boards
            .iter()
            .zip(answers)
            .map(|(board, answer)| match (board, answer) {
                (Some(board), Some(out)) => verdict(board, &out.bestmove, out.score),
                _ => Verdict::Failed,
            })
            .collect())
    }
}

impl Labeller for UciPool {
    fn restarts(&self) -> usize {
        self.engines.restarts()
    }

    /// Names the mentor and its limit, e.g. `uci:/usr/games/stockfish [Stockfish 15.1]/d8`.
    fn key(&self) -> String {
        let limit = match self.limit {
            MentorLimit::Depth(d) => format!("d{d}"),
            MentorLimit::Nodes(n) => format!("n{n}"),
        };
        self.engines.key(&limit)
    }

    fn label(&mut self, records: &[PackedPosition]) -> Result<Vec<Verdict>, String> {
        let boards: Vec<Option<Board>> = records.iter().map(|r| r.to_board().ok()).collect();
        self.label_boards(&boards)
    }
}

/// The verdict from the engine's best move and last score.
fn verdict(board: &Board, bestmove: &str, score: Option<Score>) -> Verdict {
    let Ok(best) = board.parse_uci_move(bestmove) else {
        return Verdict::Failed;
    };
    if best.is_capture() || best.is_promotion() {
        return Verdict::Noisy;
    }
    match score {
        Some(Score::Cp(cp)) => Verdict::Score(cp.clamp(-20_000, 20_000) as i16),
        Some(Score::Mate(_)) => Verdict::Mate,
        None => Verdict::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_drop_mates_noisy_best_moves_and_nonsense() {
        let board = Board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            verdict(&board, "e1e2", Some(Score::Cp(35))),
            Verdict::Score(35)
        );
        assert_eq!(verdict(&board, "e4d5", Some(Score::Cp(35))), Verdict::Noisy);
        assert_eq!(verdict(&board, "e1e2", Some(Score::Mate(3))), Verdict::Mate);
        assert_eq!(verdict(&board, "e1e2", None), Verdict::Failed);
        assert_eq!(verdict(&board, "a1a8", Some(Score::Cp(1))), Verdict::Failed);
        assert_eq!(
            verdict(&board, "e1e2", Some(Score::Cp(90_000))),
            Verdict::Score(20_000)
        );
    }
}
