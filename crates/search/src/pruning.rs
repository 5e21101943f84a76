//! The steps of a node before its move loop: reverse futility, razoring, the null move,
//! multi-cut, internal iterative deepening and the singular-extension test. Each returns
//! `Some(score)` when it settles the node (0 when the search was stopped).

use crate::node::Node;
use crate::picker::MovePicker;
use crate::types::{Bound, MATE_BOUND, ONE_PLY};
use crate::worker::Worker;
use kestrel_chess::GenKind;

impl Worker<'_> {
    /// Forward pruning at non-PV nodes: reverse futility, razoring and the null move (never
    /// in check, never in a singular test search), then multi-cut.
    pub(crate) fn prune_before_moves(&mut self, n: &mut Node) -> Option<i32> {
        if !n.pv_node && !n.in_check && n.excluded.is_none() {
            let plies = n.depth / ONE_PLY;
            if self.reverse_futility(n, plies) {
                return Some(n.static_eval);
            }
            self.razor(n, plies);
            if let Some(score) = self.null_move(n) {
                return Some(score);
            }
        }
        self.multi_cut(n)
    }

    /// Reverse futility (static null move): so far above beta near the leaves that no
    /// quiet continuation will bring the opponent back.
    fn reverse_futility(&self, n: &Node, plies: i32) -> bool {
        let p = &self.params;
        p.use_rfp
            && plies <= p.rfp_depth
            && n.beta.abs() < MATE_BOUND
            && n.static_eval - p.rfp_margin * (plies - n.improving as i32).max(1) >= n.beta
    }

    /// Limited razoring (Heinz) at depth 3: hopelessly below alpha, drop a ply.
    fn razor(&self, n: &mut Node, plies: i32) {
        let p = &self.params;
        if p.futility_depth >= 3
            && plies == 3
            && n.alpha.abs() < MATE_BOUND
            && n.static_eval + p.futility_margin(3) <= n.alpha
        {
            n.depth -= ONE_PLY;
        }
    }

    /// The null move, adaptive (Falcon: R-1 at shallow depth, more when far above beta) and
    /// verified (David & Netanyahu: a fail-high is confirmed by searching the node a ply
    /// shallower, so zugzwang cannot fool it). A null search that gets mated flags a mate
    /// threat instead.
    fn null_move(&mut self, n: &mut Node) -> Option<i32> {
        let p = self.params;
        let us = self.board.side_to_move();
        if !(p.null_use
            && n.depth >= 2 * ONE_PLY
            && n.static_eval >= n.beta
            && n.beta.abs() < MATE_BOUND
            && self.board.has_non_pawn_material(us)
            && !self.board.last_move().is_some_and(|m| m.is_null()))
        {
            return None;
        }
        let mut r = p.null_r;
        if p.null_adaptivity && n.depth / ONE_PLY <= p.null_adapt_depth {
            r -= 1;
        }
        if p.null_eval_div > 0 {
            r += ((n.static_eval - n.beta) / p.null_eval_div).min(p.null_eval_max_r);
        }
        let r = r.max(0);
        self.board.make_null();
        let score = -self.negamax(
            -n.beta,
            -n.beta + 1,
            n.depth - ONE_PLY - r * ONE_PLY,
            n.ply + 1,
            !n.cut_node,
            n.verify,
        );
        self.board.unmake_null();
        if self.stopped {
            return Some(0);
        }
        if score >= n.beta {
            let score = if score >= MATE_BOUND { n.beta } else { score };
            if !(p.use_verified_null && n.verify) {
                return Some(score);
            }
            // Verification: search on one ply shallower, children unverified.
            n.depth -= ONE_PLY;
            n.child_verify = false;
            n.null_fail_high = true;
            if n.depth < ONE_PLY {
                return Some(score);
            }
        } else if score <= -MATE_BOUND {
            n.mate_threat = true;
        }
        None
    }

    /// Multi-cut (Björnsson & Marsland) at expected cut nodes: when C of the first M moves
    /// fail high in reduced searches, the node very likely fails high too.
    fn multi_cut(&mut self, n: &Node) -> Option<i32> {
        let p = self.params;
        if !(!n.pv_node
            && !n.in_check
            && n.excluded.is_none()
            && n.cut_node
            && p.multicut_use
            && p.multicut_c > 0
            && n.depth >= p.multicut_depth.max(1) * ONE_PLY
            && n.beta.abs() < MATE_BOUND)
        {
            return None;
        }
        let mut picker = MovePicker::empty();
        self.fill_picker(
            &mut picker,
            GenKind::All,
            n.hash_move,
            n.ply,
            n.depth / ONE_PLY,
        );
        let reduced = n.depth - ONE_PLY - p.multicut_r * ONE_PLY;
        let mut cuts = 0;
        let mut tried = 0;
        while tried < p.multicut_m {
            let Some((mv, _)) = picker.next_move() else {
                break;
            };
            tried += 1;
            self.make(mv);
            let score = -self.negamax(
                -n.beta,
                -n.beta + 1,
                reduced,
                n.ply + 1,
                false,
                n.child_verify,
            );
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if score >= n.beta {
                cuts += 1;
                if cuts >= p.multicut_c {
                    return Some(n.beta);
                }
            }
        }
        None
    }

    /// Internal iterative deepening: a PV node without a hash move searches itself shallower
    /// first, to find one (a good first move is worth most at PV nodes).
    pub(crate) fn internal_iterative_deepening(&mut self, n: &mut Node) -> Option<i32> {
        let p = &self.params;
        if !(n.pv_node && n.hash_move.is_none() && p.use_iid && n.depth >= p.iid_depth * ONE_PLY) {
            return None;
        }
        let depth = n.depth - p.iid_reduction * ONE_PLY;
        self.negamax(n.alpha, n.beta, depth, n.ply, n.cut_node, n.verify);
        if self.stopped {
            return Some(0);
        }
        n.hash_move = if self.pv_len[n.ply] > n.ply {
            Some(self.pv[n.ply][n.ply])
        } else {
            self.shared
                .tt
                .probe(n.key, n.ply)
                .and_then(|e| e.mv)
                .filter(|&m| self.board.is_legal(m))
        };
        None
    }

    /// Singular extension test: when every move but the hash move fails well below the hash
    /// move's score, the hash move is forced and gets a ply more (`n.singular`). When even
    /// the others reach beta, several moves refute this node: cut (a form of multi-cut).
    pub(crate) fn singular_test(&mut self, n: &mut Node) -> Option<i32> {
        let p = self.params;
        let (Some(hm), Some(e)) = (n.hash_move, n.entry) else {
            return None;
        };
        if !(p.use_singular
            && !n.root
            && n.excluded.is_none()
            && n.depth >= p.singular_depth * ONE_PLY
            && e.mv == Some(hm)
            && e.bound != Bound::Upper
            && e.depth >= n.depth - p.singular_tt_slack * ONE_PLY
            && e.score.abs() < MATE_BOUND)
        {
            return None;
        }
        let singular_beta = e.score - p.singular_margin * (n.depth / ONE_PLY);
        self.stack[n.ply].excluded = Some(hm);
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (n.depth - ONE_PLY) / 2,
            n.ply,
            n.cut_node,
            n.verify,
        );
        self.stack[n.ply].excluded = None;
        self.pv_len[n.ply] = n.ply;
        if self.stopped {
            return Some(0);
        }
        if score < singular_beta {
            n.singular = true;
        } else if singular_beta >= n.beta && !n.pv_node {
            return Some(singular_beta);
        }
        None
    }
}
