//! One `go`: a thread that searches (or plays a book move), honours the UCI rules for
//! `infinite` and `ponder`, and always ends with exactly one `bestmove` line.

use crate::output::{Output, format_bestmove, format_info};
use crate::strength::StrengthLimit;
use kestrel_chess::{Board, Move};
use kestrel_search::{Bound, Score, SearchControl, SearchLimits, Searcher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// A running search; [`SearchJob::join`] gives the searcher back.
pub struct SearchJob {
    handle: JoinHandle<Searcher>,
    control: Arc<SearchControl>,
}

impl SearchJob {
    /// Starts the search thread. With `book_move` set, that move is played without searching.
    pub fn start(
        mut searcher: Searcher,
        board: Board,
        limits: SearchLimits,
        book_move: Option<Move>,
        out: Output,
        show_wdl: bool,
        strength: Option<(StrengthLimit, u64)>,
    ) -> SearchJob {
        let control = searcher.control();
        control.reset();
        let ctl = control.clone();
        let handle = thread::spawn(move || {
            if board.legal_moves().is_empty() {
                // As Stockfish: the score of a finished game before `bestmove 0000`.
                let score = if board.in_check() { "mate 0" } else { "cp 0" };
                out.line(&format!("info depth 0 score {score}"));
            }
            let (best, ponder) = match book_move {
                Some(mv) => (Some(mv), None),
                None => run_search(&mut searcher, &board, &limits, &out, show_wdl, strength),
            };
            // UCI: in infinite or ponder mode, bestmove waits for `stop` (or `ponderhit`).
            if limits.infinite || limits.ponder {
                while !(ctl.is_stopped() || limits.ponder && ctl.is_ponderhit()) {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            let (best, ponder) = checked_moves(&board, best, ponder);
            out.line(&format_bestmove(best, ponder, &board));
            searcher
        });
        SearchJob { handle, control }
    }

    pub fn stop(&self) {
        self.control.stop();
    }

    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the thread (after its `bestmove`) and returns the searcher.
    pub fn join(self) -> Searcher {
        self.handle
            .join()
            .expect("the search thread catches search panics itself")
    }
}

/// Runs the search, turning a panic inside it into an `info string` and a legal fallback move.
fn run_search(
    searcher: &mut Searcher,
    board: &Board,
    limits: &SearchLimits,
    out: &Output,
    show_wdl: bool,
    strength: Option<(StrengthLimit, u64)>,
) -> (Option<Move>, Option<Move>) {
    // The latest exact line of each MultiPV rank: (move, score, reply).
    let mut lines: Vec<Option<(Move, Score, Option<Move>)>> = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(board, limits, &mut |info| {
            out.line(&format_info(info, board, show_wdl));
            if info.bound == Bound::Exact
                && let Some(&first) = info.pv.first()
            {
                let rank = info.multipv.max(1) - 1;
                if lines.len() <= rank {
                    lines.resize(rank + 1, None);
                }
                lines[rank] = Some((first, info.score, info.pv.get(1).copied()));
            }
        })
    }));
    match result {
        Ok(r) if strength.is_some() && !lines.is_empty() => {
            let (level, seed) = strength.expect("checked");
            let found: Vec<(Move, Score, Option<Move>)> = lines.into_iter().flatten().collect();
            let scored: Vec<(Move, Score)> = found.iter().map(|&(m, s, _)| (m, s)).collect();
            let chosen = level.choose(&scored, seed).or(r.best_move);
            let reply = found.iter().find(|l| Some(l.0) == chosen).and_then(|l| l.2);
            (chosen, reply)
        }
        Ok(r) => {
            let ponder = r.ponder_move.or_else(|| {
                (r.pv.first() == r.best_move.as_ref()).then(|| r.pv.get(1).copied())?
            });
            (r.best_move, ponder)
        }
        Err(_) => {
            out.info_string("internal error: the search failed; playing a legal move instead");
            searcher.new_game();
            (None, None)
        }
    }
}

/// Makes sure what we send is legal: a bad best move is replaced by the first legal move
/// (or `0000` when there is none), a bad ponder move is dropped.
fn checked_moves(
    board: &Board,
    best: Option<Move>,
    ponder: Option<Move>,
) -> (Option<Move>, Option<Move>) {
    let legal = board.legal_moves();
    let best = best
        .filter(|m| legal.contains(*m))
        .or_else(|| legal.iter().next().copied());
    let ponder = best.and_then(|b| {
        let mut after = board.clone();
        after.make_move(b);
        ponder.filter(|p| after.legal_moves().contains(*p))
    });
    (best, ponder)
}
