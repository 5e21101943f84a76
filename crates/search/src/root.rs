//! The root of one iteration: aspiration windows around the previous score, widened on each
//! failure, and the line to play when the iteration is cut short.

use crate::types::{Bound, INFINITY, MATE_BOUND, ONE_PLY};
use crate::worker::{RootLine, Worker};
use kestrel_chess::Move;

impl Worker<'_> {
    /// Searches the root to `depth` plies with aspiration windows around `prev`; each
    /// aspiration failure is passed to `on_fail` (score, bound, the fail-high move's line).
    pub fn search_root(
        &mut self,
        depth: i32,
        prev: Option<i32>,
        on_fail: &mut dyn FnMut(&Worker, i32, Bound),
    ) -> Option<RootLine> {
        self.root_depth = depth;
        self.fail_high_line = None;
        let p = self.params;
        let mut delta = p.aspiration_window;
        // A narrow window only once the score has settled, and never around a mate.
        let (mut alpha, mut beta) = match prev {
            Some(s)
                if p.use_aspiration && depth >= p.aspiration_min_depth && s.abs() < MATE_BOUND =>
            {
                ((s - delta).max(-INFINITY), (s + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.negamax(alpha, beta, depth * ONE_PLY, 0, false, true);
            if self.stopped {
                return None;
            }
            if score <= alpha && alpha > -INFINITY {
                on_fail(self, score, Bound::Upper);
                self.fail_high_line = None;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                on_fail(self, score, Bound::Lower);
                self.fail_high_line = self.unfinished_line();
                beta = (score + delta).min(INFINITY);
            } else {
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                return Some(RootLine { score, pv });
            }
            // Each failure doubles the window; a score far away gets the full window at once.
            delta += delta;
            if delta > p.aspiration_max_window {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root line of the current (possibly unfinished) iteration: set once a root move has
    /// been fully searched and scored above alpha, so after a stop it is at least as good as
    /// the previous iteration's move by this iteration's deeper search.
    pub fn root_pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// After a stop inside an iteration: the best fully searched root line of it (see
    /// [`Worker::root_pv`]), else the move that failed high in an earlier aspiration window
    /// of it. `None` when neither exists: the previous iteration's result stands.
    pub fn unfinished_line(&self) -> Option<RootLine> {
        if self.pv_len[0] > 0 {
            Some(RootLine {
                score: self.root_score,
                pv: self.root_pv().to_vec(),
            })
        } else {
            self.fail_high_line.clone()
        }
    }

    /// Adds `nodes` spent under root move `mv` to its effort.
    pub(crate) fn add_root_effort(&mut self, mv: Move, nodes: u64) {
        match self.root_effort.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, effort)) => *effort += nodes,
            None => self.root_effort.push((mv, nodes)),
        }
    }

    /// The share of this thread's nodes since the search began that went under root move
    /// `mv`, in [0, 1]: near 1 when the search barely looked at anything else.
    pub fn root_effort_share(&self, mv: Move) -> f64 {
        let effort = self
            .root_effort
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, e)| *e);
        if self.nodes == 0 {
            0.0
        } else {
            (effort as f64 / self.nodes as f64).min(1.0)
        }
    }

    /// Root moves this search leaves out: earlier MultiPV lines and moves not in `searchmoves`.
    pub(crate) fn root_skips(&self, mv: Move) -> bool {
        self.root_excluded.contains(&mv)
            || (!self.root_allowed.is_empty() && !self.root_allowed.contains(&mv))
    }
}
