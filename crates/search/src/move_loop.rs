//! The move loop of a node: each move is pruned (late-move pruning, SEE pruning, futility)
//! or searched (first move with the full window, the others with a null window after a
//! late-move reduction, PVS re-searches), and the best one is kept.

use crate::node::{MovesOutcome, Node};
use crate::ordering::TriedMoves;
use crate::picker::MovePicker;
use crate::reductions::{ExtensionFacts, ReductionContext};
use crate::see::{capture_gain, see_below};
use crate::types::{INFINITY, MATE_BOUND, ONE_PLY};
use crate::worker::Worker;
use kestrel_chess::{GenKind, Move, MoveList};

/// Captures that failed before a cut-off and lose capture history, at most this many.
const CAPTURES_TRIED_MAX: usize = 32;

/// What the loop works out about a move before making it.
struct MoveInfo {
    mv: Move,
    order_score: i32,
    /// Material the move captures (centipawns).
    gain: i32,
    facts: ExtensionFacts,
    killer: bool,
    passer_push: bool,
}

/// What stays the same for every move of a node's loop.
#[derive(Clone, Copy)]
struct LoopPlan {
    /// Depth of the node when the loop was planned, plies.
    plies: i32,
    /// Static eval plus the futility margin at frontier nodes (`None`: no futility pruning).
    futility_base: Option<i32>,
    /// The node has a single legal move (extended).
    only_reply: bool,
}

impl Worker<'_> {
    /// Futility pruning at depths 1 and 2 (Falcon's futility and extended futility): static
    /// eval plus the margin, to which each move adds what it captures.
    pub(crate) fn futility_base(&self, n: &Node, plies: i32) -> Option<i32> {
        let p = &self.params;
        (!n.pv_node
            && !n.in_check
            && plies >= 1
            && plies <= p.futility_depth.min(2)
            && n.alpha.abs() < MATE_BOUND)
            .then(|| n.static_eval + p.futility_margin(plies))
    }

    /// Searches the node's moves best first; `None` when the search was stopped.
    pub(crate) fn move_loop(
        &mut self,
        n: &mut Node,
        plies: i32,
        futility_base: Option<i32>,
    ) -> Option<MovesOutcome> {
        let mut picker = MovePicker::empty();
        self.fill_picker(&mut picker, GenKind::All, n.hash_move, n.ply, plies);
        let plan = LoopPlan {
            plies,
            futility_base,
            only_reply: picker.len() == 1,
        };
        let mut out = MovesOutcome {
            best_score: -INFINITY,
            best_move: None,
            any_legal: false,
        };
        let mut move_count = 0;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        // Worked out at the second move: the first is never pruned, and whether it checks is
        // read from the board once it is made (a first move that cuts off never needs it).
        let mut checks = None;
        let killers = self.orderer.killers(n.ply);

        while let Some((mv, order_score)) = picker.next_move() {
            if (n.root && self.root_skips(mv)) || n.excluded == Some(mv) {
                continue;
            }
            out.any_legal = true;
            // Early, so that the child's hash bucket arrives while this move is judged.
            let child_key = self.prefetch_child(mv);
            let m = self.move_info(mv, order_score, killers);
            if move_count > 0 {
                // Known before the move is made, so that a pruned move is never made.
                let checks = checks.get_or_insert_with(|| self.board.check_info());
                let gives_check = checks.gives_check(&self.board, mv);
                if !gives_check && self.late_or_losing(n, &m, &plan, move_count, out.best_score) {
                    continue;
                }
                if let Some(bound) = self.futile(n, &m, &plan, move_count, gives_check) {
                    out.best_score = out.best_score.max(bound);
                    continue;
                }
                debug_assert_eq!(gives_check, self.board.gives_check(mv));
            }
            let nodes_before = self.nodes;
            self.make(mv);
            if self.board.hash() != child_key {
                self.shared.tt.prefetch(self.board.hash());
            }
            let gives_check = self.board.in_check();
            let score = self.search_move(n, &m, &plan, move_count, gives_check);
            self.unmake();
            if n.root {
                self.add_root_effort(mv, self.nodes - nodes_before);
            }
            if self.stopped {
                return None;
            }
            move_count += 1;

            if score > out.best_score {
                out.best_score = score;
                if score > n.alpha {
                    out.best_move = Some(mv);
                    n.alpha = score;
                    if n.pv_node {
                        self.update_pv(n.ply, mv);
                        if n.root {
                            self.root_score = score;
                        }
                    }
                    if score >= n.beta {
                        // The moves tried before the cut-off lose history.
                        let ctx = self.context(n.hash_move, n.ply, plan.plies);
                        let tried = TriedMoves {
                            quiets: quiets.as_slice(),
                            captures: captures.as_slice(),
                        };
                        self.orderer
                            .on_cutoff(&self.board, mv, &tried, plan.plies, &ctx);
                        break;
                    }
                }
            }
            if mv.is_quiet() && (quiets.len() as i32) < self.params.history_quiets_max {
                quiets.push(mv);
            } else if mv.is_capture()
                && self.params.use_capture_history
                && captures.len() < CAPTURES_TRIED_MAX
            {
                captures.push(mv);
            }
        }
        Some(out)
    }

    fn move_info(&self, mv: Move, order_score: i32, killers: [Move; 2]) -> MoveInfo {
        MoveInfo {
            mv,
            order_score,
            gain: capture_gain(&self.board, mv),
            facts: self.extension_facts(mv),
            killer: killers.contains(&mv),
            passer_push: self.is_passer_push(mv),
        }
    }

    /// Shallow pruning of late quiet moves (late-move pruning) and of moves losing material
    /// (SEE pruning) — never the first move, never in check, never while being mated, never
    /// a promotion or a passed pawn's run. The caller asks only from the second move on, and
    /// only for moves that do not check.
    fn late_or_losing(
        &self,
        n: &Node,
        m: &MoveInfo,
        plan: &LoopPlan,
        move_count: i32,
        best_score: i32,
    ) -> bool {
        let p = &self.params;
        let mv = m.mv;
        let plies = plan.plies;
        debug_assert!(move_count > 0, "the first move is never pruned");
        let prunable = !n.pv_node
            && !n.in_check
            && best_score > -MATE_BOUND
            && mv.promotion_kind().is_none()
            && !m.passer_push;
        if !prunable {
            return false;
        }
        let late_quiet = p.use_lmp
            && mv.is_quiet()
            && !m.killer
            && plies <= p.lmp_depth
            && move_count >= (p.lmp_base + plies * plies) / (2 - n.improving as i32);
        // The exchange only when late-move pruning has not already decided.
        // Both margins are at least 0: a capture the ordering proved SEE >= 0 is not losing.
        late_quiet
            || (p.use_see_pruning
                && plies <= p.see_prune_depth
                && !self.proved_see_safe(mv, m.order_score)
                && see_below(
                    &self.board,
                    mv,
                    if mv.is_quiet() {
                        -p.see_quiet_margin * plies
                    } else {
                        -p.see_noisy_margin * plies
                    },
                ))
    }

    /// Futility pruning (move made): a move that cannot lift the score to alpha even with
    /// the margin is skipped; returns the bound it is worth. Asked from the second move on.
    fn futile(
        &self,
        n: &Node,
        m: &MoveInfo,
        plan: &LoopPlan,
        move_count: i32,
        gives_check: bool,
    ) -> Option<i32> {
        debug_assert!(move_count > 0, "the first move is never pruned");
        let base = plan.futility_base?;
        (!gives_check
            && m.mv.promotion_kind().is_none()
            && !m.passer_push
            && base + m.gain <= n.alpha)
            .then_some(base + m.gain)
    }

    /// Searches a made move: extended, maybe reduced, first move with the full window and
    /// the others with a null window (PVS), re-searched when they surprise.
    fn search_move(
        &mut self,
        n: &Node,
        m: &MoveInfo,
        plan: &LoopPlan,
        move_count: i32,
        gives_check: bool,
    ) -> i32 {
        let p = self.params;
        let singular = n.singular && n.hash_move == Some(m.mv);
        let ext = self.extension(gives_check, plan.only_reply, m.facts, singular, n.ply);
        self.stack[n.ply + 1].extended = self.stack[n.ply].extended + ext;
        let new_depth = n.depth - ONE_PLY + ext;
        let (child, verify) = (n.ply + 1, n.child_verify);

        if move_count == 0 {
            let child_cut = if n.pv_node { false } else { !n.cut_node };
            return -self.negamax(-n.beta, -n.alpha, new_depth, child, child_cut, verify);
        }
        let reducible = p.use_lmr
            && n.depth >= p.lmr_min_depth * ONE_PLY
            && move_count >= p.lmr_min_moves + n.pv_node as i32
            && m.mv.is_quiet()
            && !gives_check
            && !n.in_check
            && ext == 0
            && !m.killer
            && !m.passer_push;
        let r = if reducible {
            self.late_move_reduction(&ReductionContext {
                plies: plan.plies,
                move_count,
                pv_node: n.pv_node,
                cut_node: n.cut_node,
                improving: n.improving,
                order_score: m.order_score,
                new_depth,
            })
        } else {
            0
        };
        let child_cut = if n.pv_node { true } else { !n.cut_node };
        let (a, b) = if p.use_pvs {
            (-n.alpha - 1, -n.alpha)
        } else {
            (-n.beta, -n.alpha)
        };
        let mut s = -self.negamax(a, b, new_depth - r, child, child_cut, verify);
        if s > n.alpha && r > 0 && !self.stopped {
            s = -self.negamax(a, b, new_depth, child, !child_cut, verify);
        }
        if p.use_pvs && s > n.alpha && s < n.beta && n.pv_node && !self.stopped {
            s = -self.negamax(-n.beta, -n.alpha, new_depth, child, false, verify);
        }
        s
    }
}
