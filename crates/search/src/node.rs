//! Alpha-beta at one node, as the list of its steps. Each step is a small function here or in
//! [`crate::pruning`] (before the moves) and [`crate::move_loop`] (the moves); a step that
//! settles the node returns `Some(score)`.

use crate::tt::TtEntry;
use crate::types::{Bound, INFINITY, MATE, MATE_BOUND, MAX_PLY, ONE_PLY};
use crate::worker::Worker;
use kestrel_chess::Move;

/// Everything the steps of one node share. `alpha`, `beta` and `depth` change as the steps
/// go (mate-distance pruning, razoring, null-move verification, extensions).
pub(crate) struct Node {
    pub alpha: i32,
    pub beta: i32,
    /// Remaining depth, quarter plies.
    pub depth: i32,
    pub ply: usize,
    /// An open window: the node may end up on the principal variation.
    pub pv_node: bool,
    pub root: bool,
    /// Expected to fail high (the parent expects to fail low).
    pub cut_node: bool,
    pub in_check: bool,
    /// Null-move fail-highs at this node must be verified (David & Netanyahu).
    pub verify: bool,
    /// Whether the children verify their null moves (off below a verification search).
    pub child_verify: bool,
    /// The null move failed high and the node is being searched to verify it.
    pub null_fail_high: bool,
    /// Passing lost to a mate: the node is extended.
    pub mate_threat: bool,
    /// The hash move proved singular: it is extended by a ply.
    pub singular: bool,
    /// The move left out by a singular-extension test search of this node.
    pub excluded: Option<Move>,
    pub key: u64,
    /// What the transposition table knew on entry.
    pub entry: Option<TtEntry>,
    pub hash_move: Option<Move>,
    /// The static evaluation as the pruning reads it (corrected by the pawn structure's
    /// history, see [`crate::correction`]); `-INFINITY` when in check.
    pub static_eval: i32,
    /// The evaluation's own score, uncorrected (what the hash table keeps); `-INFINITY` when
    /// in check.
    pub raw_eval: i32,
    /// The static evaluation beats ours two plies ago: pruning can be less bold.
    pub improving: bool,
}

/// The result of searching a node's moves.
pub(crate) struct MovesOutcome {
    pub best_score: i32,
    pub best_move: Option<Move>,
    /// At least one move was searched or pruned (so it is not mate or stalemate).
    pub any_legal: bool,
}

impl Worker<'_> {
    /// Negamax alpha-beta; `depth` in quarter plies. `verify`: null-move fail-highs here must
    /// be verified (David & Netanyahu's verified null-move pruning).
    pub fn negamax(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        verify: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        // At the horizon only captures (and checks) can still change the score.
        if depth < ONE_PLY {
            return self.qsearch(alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut node = Node {
            alpha,
            beta,
            depth,
            ply,
            pv_node: beta - alpha > 1,
            root: ply == 0,
            cut_node,
            in_check: self.board.in_check(),
            verify,
            child_verify: verify,
            null_fail_high: false,
            mate_threat: false,
            singular: false,
            excluded: self.stack[ply].excluded,
            key: self.board.hash(),
            entry: None,
            hash_move: None,
            static_eval: -INFINITY,
            raw_eval: -INFINITY,
            improving: false,
        };
        let n = &mut node;
        if let Some(score) = self.early_exit(n) {
            return score;
        }
        if let Some(score) = self.probe_tt(n) {
            return score;
        }
        self.static_evaluation(n);
        if let Some(score) = self.prune_before_moves(n) {
            return score;
        }
        if let Some(score) = self.internal_iterative_deepening(n) {
            return score;
        }
        if let Some(score) = self.singular_test(n) {
            return score;
        }
        self.extend_mate_threat(n);
        self.search_moves(n)
    }

    /// Nodes decided without a search: draws, the ply limit, mate-distance pruning (no mate
    /// found here can beat one already found nearer the root) and blocked pawn endings.
    fn early_exit(&mut self, n: &mut Node) -> Option<i32> {
        if n.root {
            return None;
        }
        if self.is_draw() {
            return Some(0);
        }
        if n.ply >= MAX_PLY - 1 {
            return Some(if n.in_check { 0 } else { self.evaluate() });
        }
        if self.params.use_mate_distance {
            n.alpha = n.alpha.max(-MATE + n.ply as i32);
            n.beta = n.beta.min(MATE - n.ply as i32 - 1);
            if n.alpha >= n.beta {
                return Some(n.alpha);
            }
        }
        self.pawn_ending_blocked().then_some(0)
    }

    /// Reads the transposition table: the hash move, and a cut-off when a deep enough entry
    /// settles a null-window search (PV nodes always search, to keep their PV).
    fn probe_tt(&self, n: &mut Node) -> Option<i32> {
        n.entry = if self.params.use_tt {
            self.shared.tt.probe(n.key, n.ply)
        } else {
            None
        };
        n.hash_move = n
            .entry
            .and_then(|e| e.mv)
            .filter(|&m| self.board.is_legal(m));
        let e = n.entry?;
        (!n.pv_node && n.excluded.is_none() && e.depth >= n.depth && e.cuts_off(n.alpha, n.beta))
            .then_some(e.score)
    }

    /// The static evaluation (the hash entry's when there is one) and whether it improves on
    /// ours two plies ago: when it does not, cut-offs are less likely and pruning bolder.
    fn static_evaluation(&mut self, n: &mut Node) {
        n.raw_eval = if n.in_check {
            -INFINITY
        } else if let Some(e) = n.entry {
            e.eval
        } else {
            self.evaluate()
        };
        n.static_eval = if n.in_check {
            -INFINITY
        } else {
            self.corrected(n.raw_eval)
        };
        self.stack[n.ply].static_eval = n.static_eval;
        n.improving = !self.params.use_improving
            || (!n.in_check && (n.ply < 2 || n.static_eval > self.stack[n.ply - 2].static_eval));
    }

    /// The mate-threat extension: a node where passing gets us mated is searched deeper.
    fn extend_mate_threat(&mut self, n: &mut Node) {
        if n.mate_threat && self.params.use_extensions {
            let ext = self.mate_threat_extension(n.ply);
            n.depth += ext;
            self.stack[n.ply].extended += ext;
        }
    }

    /// Searches the moves; when a null-move fail-high is being verified and the moves do not
    /// confirm it, this may be zugzwang: the moves are searched again a ply deeper with
    /// verification back on. Then the result goes to the transposition table.
    fn search_moves(&mut self, n: &mut Node) -> i32 {
        let original_alpha = n.alpha;
        // Fixed before the loop: a verification re-search keeps the first pass's margins.
        let plies = n.depth / ONE_PLY;
        let futility_base = self.futility_base(n, plies);
        loop {
            let Some(outcome) = self.move_loop(n, plies, futility_base) else {
                return 0;
            };
            if !outcome.any_legal {
                return self.no_move_score(n);
            }
            if n.null_fail_high && outcome.best_score < n.beta {
                n.depth += ONE_PLY;
                n.null_fail_high = false;
                n.child_verify = true;
                n.alpha = original_alpha;
                continue;
            }
            self.record_correction(n, &outcome);
            self.store_tt(n, &outcome);
            return outcome.best_score;
        }
    }

    /// The score of a node without a move to search.
    fn no_move_score(&self, n: &Node) -> i32 {
        if n.excluded.is_some() {
            // The excluded hash move is the only move: singular by definition.
            n.alpha
        } else if n.root {
            // Every root move excluded: cannot happen (MultiPV is clamped).
            0
        } else if n.in_check {
            -MATE + n.ply as i32
        } else {
            0
        }
    }

    /// Teaches the correction history how far this node's result landed from its static
    /// evaluation, where the result says something about it: not in check, not a singular
    /// test or a later MultiPV line, no capture as the best move (the evaluation is about
    /// quiet positions), no mate score, and a bound only on its own side (a fail-high above
    /// the evaluation, a fail-low below it).
    fn record_correction(&mut self, n: &Node, outcome: &MovesOutcome) {
        let score = outcome.best_score;
        if !self.params.use_correction
            || n.in_check
            || n.excluded.is_some()
            || (n.root && !self.root_excluded.is_empty())
            || outcome.best_move.is_some_and(|m| m.is_noisy())
            || score.abs() >= MATE_BOUND
        {
            return;
        }
        let informative = match result_bound(n, outcome) {
            Bound::Lower => score > n.static_eval,
            Bound::Exact => true,
            Bound::Upper => score < n.static_eval,
        };
        if informative {
            self.correction
                .record(&self.board, n.depth / ONE_PLY, score - n.static_eval);
        }
    }

    /// Stores the node's result, except for singular test searches (which left a move out)
    /// and for the later lines of MultiPV at the root.
    fn store_tt(&self, n: &Node, outcome: &MovesOutcome) {
        if !self.params.use_tt || n.excluded.is_some() || (n.root && !self.root_excluded.is_empty())
        {
            return;
        }
        let bound = result_bound(n, outcome);
        self.shared.tt.store(
            n.key,
            outcome.best_move.or(n.hash_move),
            outcome.best_score,
            if n.in_check { 0 } else { n.raw_eval },
            n.depth,
            bound,
            n.ply,
        );
    }
}

/// What a node's result is: a lower bound when it failed high, exact when a PV node found a
/// move inside the window, an upper bound otherwise.
fn result_bound(n: &Node, outcome: &MovesOutcome) -> Bound {
    if outcome.best_score >= n.beta {
        Bound::Lower
    } else if outcome.best_move.is_some() && n.pv_node {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
