//! One search thread: iterative deepening, the Falcon alpha-beta (PVS with null move,
//! multi-cut, futility, extensions in quarter plies, ...) and quiescence search.

use crate::blockage::is_blocked_pawn_ending;
use crate::checks::gives_check;
use crate::ordering::{MoveOrderer, MovePicker, OrderContext};
use crate::params::{ONE_PLY, SearchParams};
use crate::see::{capture_gain, see, value};
use crate::time::Clock;
use crate::tt::TranspositionTable;
use crate::{Bound, MATE, MATE_BOUND, SearchControl};
use kestrel_chess::{Board, GenKind, Move, MoveList, PieceKind};
use kestrel_eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;
/// Ordering scores within this bound are history values (butterfly plus counter-move history).
const HISTORY_LIMIT: i32 = 2 * 16384;

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set when the main thread is done (or out of time): helpers stop.
    pub abort: &'a AtomicBool,
    /// Nodes of each thread, published every few hundred nodes.
    pub nodes: &'a [AtomicU64],
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    /// Extensions (quarter plies) granted on the path to this node.
    extended: i32,
    /// The hash move left out by a singular-extension test search of this node.
    excluded: Option<Move>,
}

/// A finished root search of one PV line.
#[derive(Clone)]
pub struct RootLine {
    pub score: i32,
    pub pv: Vec<Move>,
}

pub struct Worker<'a> {
    pub board: Board,
    params: SearchParams,
    eval: Evaluator,
    orderer: &'a mut dyn MoveOrderer,
    shared: &'a Shared<'a>,
    index: usize,
    pub nodes: u64,
    node_limit: Option<u64>,
    pub clock: Option<Clock>,
    /// Stop checks are off until depth 1 is complete, so a legal, searched move always exists.
    can_stop: bool,
    pub stopped: bool,
    pub seldepth: usize,
    root_depth: i32,
    /// Score of the root move last put in the PV (see [`Worker::root_pv`]).
    root_score: i32,
    /// The fail-high line of this iteration's last aspiration failure, if it failed high.
    fail_high_line: Option<RootLine>,
    /// Root moves not to search (earlier MultiPV lines).
    pub root_excluded: Vec<Move>,
    /// Root moves allowed (`searchmoves`); empty means all.
    pub root_allowed: Vec<Move>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    stack: [Frame; MAX_PLY + 2],
    lmr: Box<[[i32; 64]; 64]>,
}

impl<'a> Worker<'a> {
    pub fn new(
        board: Board,
        params: SearchParams,
        eval: Evaluator,
        orderer: &'a mut dyn MoveOrderer,
        shared: &'a Shared<'a>,
        index: usize,
        node_limit: Option<u64>,
    ) -> Worker<'a> {
        let mut lmr = Box::new([[0; 64]; 64]);
        let base = params.lmr_base as f64 / 100.0;
        let div = params.lmr_divisor as f64 / 100.0;
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let plies = base + (d as f64).ln() * (m as f64).ln() / div;
                *r = (plies * ONE_PLY as f64) as i32;
            }
        }
        Worker {
            board,
            params,
            eval,
            orderer,
            shared,
            index,
            nodes: 0,
            node_limit,
            clock: None,
            can_stop: index != 0,
            stopped: false,
            seldepth: 0,
            root_depth: 0,
            root_score: 0,
            fail_high_line: None,
            root_excluded: Vec::new(),
            root_allowed: Vec::new(),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stack: [Frame::default(); MAX_PLY + 2],
            lmr,
        }
    }

    /// Nodes of all threads (this one exact, the others as last published).
    pub fn total_nodes(&self) -> u64 {
        self.publish_nodes();
        self.shared
            .nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    pub fn shared_tt_hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    pub fn shared_control(&self) -> &'a SearchControl {
        self.shared.control
    }

    /// Allows stop checks (called once depth 1 is complete).
    pub fn enable_stop(&mut self) {
        self.can_stop = true;
    }

    /// Makes this thread's node count visible to the others.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.index].store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node and decides whether to stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if !self.can_stop {
            return false;
        }
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.stopped = true;
            return true;
        }
        if self.nodes & 255 == 0 {
            self.publish_nodes();
            self.poll();
        }
        self.stopped
    }

    /// Looks at the outside world: stop, ponderhit, the clock, the other threads.
    pub fn poll(&mut self) {
        let control = self.shared.control;
        if control.is_stopped() || self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(clock) = &mut self.clock {
            if control.is_ponderhit() {
                clock.ponderhit();
            }
            if clock.hard_expired() {
                self.stopped = true;
            }
        }
    }

    // ---- root --------------------------------------------------------------------------

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
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = match prev {
            Some(p) if self.params.use_aspiration && depth >= 4 && p.abs() < MATE_BOUND => {
                ((p - delta).max(-INFINITY), (p + delta).min(INFINITY))
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
            delta += delta;
            if delta > 1000 {
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

    fn root_skips(&self, mv: Move) -> bool {
        self.root_excluded.contains(&mv)
            || (!self.root_allowed.is_empty() && !self.root_allowed.contains(&mv))
    }

    // ---- helpers -----------------------------------------------------------------------

    fn evaluate(&self) -> i32 {
        self.eval
            .evaluate(&self.board)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn is_draw(&self) -> bool {
        self.board.is_repetition()
            || self.board.is_fifty_move_draw()
            || self.board.is_insufficient_material()
    }

    fn pawn_ending_blocked(&self) -> bool {
        self.params.use_blockage
            && !self
                .board
                .has_non_pawn_material(kestrel_chess::Color::White)
            && !self
                .board
                .has_non_pawn_material(kestrel_chess::Color::Black)
            && is_blocked_pawn_ending(&self.board)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn context(&self, hash_move: Option<Move>, ply: usize) -> OrderContext {
        OrderContext {
            hash_move,
            ply,
            prev_move: self.board.last_move(),
        }
    }

    fn picker(&self, kind: GenKind, hash_move: Option<Move>, ply: usize) -> MovePicker {
        let mut moves = MoveList::new();
        self.board.generate(kind, &mut moves);
        let ctx = self.context(hash_move, ply);
        MovePicker::new(moves, &self.board, &*self.orderer, &ctx)
    }

    /// Facts about `mv` the extensions need from the position before it is made:
    /// (recapture on the square of the last capture, pawn arriving on the 7th rank).
    fn extension_facts(&self, mv: Move) -> (bool, bool) {
        let recapture = mv.is_capture()
            && self.board.last_captured().is_some()
            && self.board.last_move().is_some_and(|m| m.to() == mv.to());
        let us = self.board.side_to_move();
        let pawn_to_7th = self
            .board
            .piece_at(mv.from())
            .is_some_and(|pc| pc.kind == PieceKind::Pawn)
            && mv.to().relative_rank(us) == 6;
        (recapture, pawn_to_7th)
    }

    /// A pawn push to the 6th or 7th rank by a passed pawn (no enemy pawn ahead on its own or
    /// an adjacent file): such pushes decide races, so they are never reduced or pruned.
    fn is_passer_push(&self, mv: Move) -> bool {
        let us = self.board.side_to_move();
        let to = mv.to();
        if to.relative_rank(us) < 5
            || self
                .board
                .piece_at(mv.from())
                .is_none_or(|pc| pc.kind != PieceKind::Pawn)
        {
            return false;
        }
        let them = us.flip();
        let rank = to.rank() as i32;
        let ahead = |r: u8| match us {
            kestrel_chess::Color::White => r as i32 > rank,
            kestrel_chess::Color::Black => (r as i32) < rank,
        };
        self.board
            .pieces(them, PieceKind::Pawn)
            .all(|sq| (sq.file() as i32 - to.file() as i32).abs() > 1 || !ahead(sq.rank()))
    }

    /// Quarter plies of extension for a move, capped at one ply per move and by the total
    /// allowed along the path.
    fn extension(
        &self,
        gives_check: bool,
        only_reply: bool,
        facts: (bool, bool),
        singular: bool,
        ply: usize,
    ) -> i32 {
        let p = &self.params;
        if !p.use_extensions || ply as i32 >= 2 * self.root_depth {
            return 0;
        }
        let (recapture, pawn_to_7th) = facts;
        let ext = p.ext_check * gives_check as i32
            + p.ext_one_reply * only_reply as i32
            + p.ext_recapture * recapture as i32
            + p.ext_passed_pawn * pawn_to_7th as i32
            + ONE_PLY * singular as i32;
        ext.min(ONE_PLY)
            .min(p.ext_total_cap - self.stack[ply].extended)
            .max(0)
    }

    // ---- alpha-beta --------------------------------------------------------------------

    /// Negamax alpha-beta; `depth` in quarter plies. `verify`: null-move fail-highs here must
    /// be verified (David & Netanyahu's verified null-move pruning).
    pub fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
        verify: bool,
    ) -> i32 {
        let p = self.params;
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let excluded = self.stack[ply].excluded;
        self.pv_len[ply] = ply;
        if depth < ONE_PLY {
            return self.qsearch(alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.board.in_check();

        if !root {
            if self.is_draw() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate() };
            }
            if p.use_mate_distance {
                alpha = alpha.max(-MATE + ply as i32);
                beta = beta.min(MATE - ply as i32 - 1);
                if alpha >= beta {
                    return alpha;
                }
            }
            if self.pawn_ending_blocked() {
                return 0;
            }
        }

        // Transposition table.
        let key = self.board.hash();
        let entry = if p.use_tt {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let mut hash_move = entry.and_then(|e| e.mv).filter(|&m| self.board.is_legal(m));
        if let Some(e) = entry
            && !pv_node
            && excluded.is_none()
            && e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            }
        {
            return e.score;
        }

        let static_eval = if in_check {
            -INFINITY
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate()
        };
        self.stack[ply].static_eval = static_eval;
        // Improving: better than two plies ago (our previous move), so cut-offs are likelier
        // and pruning can be bolder when it is not.
        let improving = !p.use_improving
            || (!in_check && (ply < 2 || static_eval > self.stack[ply - 2].static_eval));
        let mut mate_threat = false;
        let mut child_verify = verify;
        let mut null_fail_high = false;

        if !pv_node && !in_check && excluded.is_none() {
            let plies = depth / ONE_PLY;
            // Reverse futility: far above beta near the leaves.
            if p.use_rfp
                && plies <= p.rfp_depth
                && beta.abs() < MATE_BOUND
                && static_eval - p.rfp_margin * (plies - improving as i32).max(1) >= beta
            {
                return static_eval;
            }
            // Limited razoring (Heinz) at depth 3: drop a ply when hopelessly below alpha.
            if p.futility_depth >= 3
                && plies == 3
                && alpha.abs() < MATE_BOUND
                && static_eval + p.futility_margin[3] <= alpha
            {
                depth -= ONE_PLY;
            }
            // Null move, adaptive (Falcon) and verified (David & Netanyahu).
            let us = self.board.side_to_move();
            if p.null_use
                && depth >= 2 * ONE_PLY
                && static_eval >= beta
                && beta.abs() < MATE_BOUND
                && self.board.has_non_pawn_material(us)
                && !self.board.last_move().is_some_and(|m| m.is_null())
            {
                let mut r = p.null_r;
                if p.null_adaptivity && depth / ONE_PLY <= p.null_adapt_depth {
                    r -= 1;
                }
                if p.null_eval_div > 0 {
                    r += ((static_eval - beta) / p.null_eval_div).min(3);
                }
                let r = r.max(0);
                self.board.make_null();
                let score = -self.negamax(
                    -beta,
                    -beta + 1,
                    depth - ONE_PLY - r * ONE_PLY,
                    ply + 1,
                    !cut_node,
                    verify,
                );
                self.board.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if !(p.use_verified_null && verify) {
                        return score;
                    }
                    // Verification: search on one ply shallower, children unverified.
                    depth -= ONE_PLY;
                    child_verify = false;
                    null_fail_high = true;
                    if depth < ONE_PLY {
                        return score;
                    }
                } else if score <= -MATE_BOUND {
                    mate_threat = true;
                }
            }
        }

        // Multi-cut (Björnsson & Marsland) at expected cut nodes.
        if !pv_node
            && !in_check
            && excluded.is_none()
            && cut_node
            && p.multicut_use
            && p.multicut_c > 0
            && depth >= p.multicut_depth.max(1) * ONE_PLY
            && beta.abs() < MATE_BOUND
        {
            let mut picker = self.picker(GenKind::All, hash_move, ply);
            let reduced = depth - ONE_PLY - p.multicut_r * ONE_PLY;
            let mut cuts = 0;
            let mut tried = 0;
            while tried < p.multicut_m {
                let Some((mv, _)) = picker.next_move() else {
                    break;
                };
                tried += 1;
                self.board.make_move(mv);
                let score = -self.negamax(-beta, -beta + 1, reduced, ply + 1, false, child_verify);
                self.board.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    cuts += 1;
                    if cuts >= p.multicut_c {
                        return beta;
                    }
                }
            }
        }

        // Internal iterative deepening for a PV node without a hash move.
        if pv_node && hash_move.is_none() && p.use_iid && depth >= p.iid_depth * ONE_PLY {
            self.negamax(alpha, beta, depth - 2 * ONE_PLY, ply, cut_node, verify);
            if self.stopped {
                return 0;
            }
            hash_move = if self.pv_len[ply] > ply {
                Some(self.pv[ply][ply])
            } else {
                self.shared
                    .tt
                    .probe(key, ply)
                    .and_then(|e| e.mv)
                    .filter(|&m| self.board.is_legal(m))
            };
        }

        // Singular extension: when every move but the hash move fails well below the hash
        // move's score, the hash move is forced and gets a ply more. When even the others
        // reach beta, several moves refute this node: cut (a form of multi-cut).
        let mut singular = false;
        if p.use_singular
            && !root
            && excluded.is_none()
            && depth >= p.singular_depth * ONE_PLY
            && let (Some(hm), Some(e)) = (hash_move, entry)
            && e.mv == Some(hm)
            && e.bound != Bound::Upper
            && e.depth >= depth - 3 * ONE_PLY
            && e.score.abs() < MATE_BOUND
        {
            let singular_beta = e.score - p.singular_margin * (depth / ONE_PLY);
            self.stack[ply].excluded = Some(hm);
            let score = self.negamax(
                singular_beta - 1,
                singular_beta,
                (depth - ONE_PLY) / 2,
                ply,
                cut_node,
                verify,
            );
            self.stack[ply].excluded = None;
            self.pv_len[ply] = ply;
            if self.stopped {
                return 0;
            }
            if score < singular_beta {
                singular = true;
            } else if singular_beta >= beta && !pv_node {
                return singular_beta;
            }
        }

        if mate_threat {
            let ext = p
                .ext_mate_threat
                .min(p.ext_total_cap - self.stack[ply].extended)
                .max(0);
            if p.use_extensions {
                depth += ext;
                self.stack[ply].extended += ext;
            }
        }

        let original_alpha = alpha;
        let plies = depth / ONE_PLY;
        let futility_base = (!pv_node
            && !in_check
            && plies >= 1
            && plies <= p.futility_depth.min(2)
            && alpha.abs() < MATE_BOUND)
            .then(|| static_eval + p.futility_margin[plies as usize]);

        loop {
            let mut picker = self.picker(GenKind::All, hash_move, ply);
            let only_reply = picker.len() == 1;
            let mut best_score = -INFINITY;
            let mut best_move = None;
            let mut move_count = 0;
            let mut quiets: MoveList = MoveList::new();
            let mut any_legal = false;

            while let Some((mv, order_score)) = picker.next_move() {
                if (root && self.root_skips(mv)) || excluded == Some(mv) {
                    continue;
                }
                any_legal = true;
                let gain = capture_gain(&self.board, mv);
                let facts = self.extension_facts(mv);
                let killer = self.orderer.is_killer(mv, ply);
                let passer_push = self.is_passer_push(mv);
                // Shallow pruning of late or losing moves (never the first move, never in
                // check, never while being mated, never a passed pawn's run).
                let prunable = !pv_node
                    && !in_check
                    && move_count > 0
                    && best_score > -MATE_BOUND
                    && mv.promotion_kind().is_none()
                    && !passer_push;
                let late_quiet = prunable
                    && p.use_lmp
                    && mv.is_quiet()
                    && !killer
                    && plies <= p.lmp_depth
                    && move_count >= (3 + plies * plies) / (2 - improving as i32);
                let see_losing = prunable
                    && p.use_see_pruning
                    && plies <= p.see_prune_depth
                    && see(&self.board, mv)
                        < if mv.is_quiet() {
                            -p.see_quiet_margin * plies
                        } else {
                            -p.see_noisy_margin * plies
                        };
                self.board.make_move(mv);
                self.shared.tt.prefetch(self.board.hash());
                let gives_check = self.board.in_check();
                if (late_quiet || see_losing) && !gives_check {
                    self.board.unmake_move();
                    continue;
                }

                if let Some(base) = futility_base
                    && move_count > 0
                    && !gives_check
                    && mv.promotion_kind().is_none()
                    && !passer_push
                    && base + gain <= alpha
                {
                    self.board.unmake_move();
                    best_score = best_score.max(base + gain);
                    continue;
                }
                let ext = self.extension(
                    gives_check,
                    only_reply,
                    facts,
                    singular && hash_move == Some(mv),
                    ply,
                );
                self.stack[ply + 1].extended = self.stack[ply].extended + ext;
                let new_depth = depth - ONE_PLY + ext;

                let score = if move_count == 0 {
                    let child_cut = if pv_node { false } else { !cut_node };
                    -self.negamax(-beta, -alpha, new_depth, ply + 1, child_cut, child_verify)
                } else {
                    let mut r = 0;
                    if p.use_lmr
                        && depth >= p.lmr_min_depth * ONE_PLY
                        && move_count >= p.lmr_min_moves + pv_node as i32
                        && mv.is_quiet()
                        && !gives_check
                        && !in_check
                        && ext == 0
                        && !killer
                        && !passer_push
                    {
                        r = self.lmr[(plies as usize).min(63)][move_count.min(63) as usize];
                        if pv_node {
                            r -= ONE_PLY;
                        }
                        if cut_node {
                            r += p.lmr_cut_node;
                        }
                        if !improving {
                            r += ONE_PLY / 2;
                        }
                        // Quiet moves are ordered by history: reduce good ones less.
                        if p.lmr_history_div > 0 && order_score.abs() <= HISTORY_LIMIT {
                            r -= order_score / p.lmr_history_div;
                        }
                        r = r.min(new_depth - ONE_PLY).max(0);
                    }
                    let child_cut = if pv_node { true } else { !cut_node };
                    let (a, b) = if p.use_pvs {
                        (-alpha - 1, -alpha)
                    } else {
                        (-beta, -alpha)
                    };
                    let mut s =
                        -self.negamax(a, b, new_depth - r, ply + 1, child_cut, child_verify);
                    if s > alpha && r > 0 && !self.stopped {
                        s = -self.negamax(a, b, new_depth, ply + 1, !child_cut, child_verify);
                    }
                    if p.use_pvs && s > alpha && s < beta && pv_node && !self.stopped {
                        s = -self.negamax(-beta, -alpha, new_depth, ply + 1, false, child_verify);
                    }
                    s
                };
                self.board.unmake_move();
                if self.stopped {
                    return 0;
                }
                move_count += 1;

                if score > best_score {
                    best_score = score;
                    if score > alpha {
                        best_move = Some(mv);
                        alpha = score;
                        if pv_node {
                            self.update_pv(ply, mv);
                            if root {
                                self.root_score = score;
                            }
                        }
                        if score >= beta {
                            let ctx = self.context(hash_move, ply);
                            self.orderer
                                .on_cutoff(&self.board, mv, quiets.as_slice(), plies, &ctx);
                            break;
                        }
                    }
                }
                if mv.is_quiet() && quiets.len() < 64 {
                    quiets.push(mv);
                }
            }

            if !any_legal {
                return if excluded.is_some() {
                    // The excluded hash move is the only move: singular by definition.
                    alpha
                } else if root {
                    // Every root move excluded: cannot happen (MultiPV is clamped).
                    0
                } else if in_check {
                    -MATE + ply as i32
                } else {
                    0
                };
            }

            // Verified null move: the reduced search did not confirm the cut-off, so this may
            // be zugzwang: search again at full depth.
            if null_fail_high && best_score < beta {
                depth += ONE_PLY;
                null_fail_high = false;
                child_verify = true;
                alpha = original_alpha;
                continue;
            }

            if p.use_tt && excluded.is_none() && (!root || self.root_excluded.is_empty()) {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else if best_move.is_some() && pv_node {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                self.shared.tt.store(
                    key,
                    best_move.or(hash_move),
                    best_score,
                    if in_check { 0 } else { static_eval },
                    depth,
                    bound,
                    ply,
                );
            }
            return best_score;
        }
    }

    // ---- quiescence --------------------------------------------------------------------

    /// Captures and promotions (all evasions when in check), stand pat, SEE and delta pruning.
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qs_depth: i32) -> i32 {
        let p = &self.params;
        let (use_tt, use_qs_see, qs_margin, use_delta, use_checks) = (
            p.use_tt,
            p.use_qs_see,
            p.qs_see_margin,
            p.use_qs_delta,
            p.use_qs_checks,
        );
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.is_draw() {
            return 0;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let pv_node = beta - alpha > 1;
        let key = self.board.hash();
        let entry = if use_tt {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        if let Some(e) = entry
            && !pv_node
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            }
        {
            return e.score;
        }
        let hash_move = entry
            .and_then(|e| e.mv)
            .filter(|&m| (in_check || m.is_noisy()) && self.board.is_legal(m));

        let static_eval;
        let mut best_score;
        if in_check {
            static_eval = -INFINITY;
            best_score = -MATE + ply as i32;
        } else {
            static_eval = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let original_alpha = alpha;

        let kind = if in_check {
            GenKind::All
        } else {
            GenKind::Noisy
        };
        let mut moves = MoveList::new();
        self.board.generate(kind, &mut moves);
        if !in_check && use_checks && qs_depth == 0 {
            let mut quiets = MoveList::new();
            self.board.generate(GenKind::Quiet, &mut quiets);
            for &mv in quiets.iter() {
                if !mv.is_castle() && gives_check(&self.board, mv) {
                    moves.push(mv);
                }
            }
        }
        let ctx = self.context(hash_move, ply);
        let mut picker = MovePicker::new(moves, &self.board, &*self.orderer, &ctx);
        let mut best_move = None;
        while let Some((mv, _)) = picker.next_move() {
            if !in_check && mv.is_quiet() {
                // A quiet check: only when it does not simply hang the checking piece.
                if use_qs_see && see(&self.board, mv) < 0 {
                    continue;
                }
            } else if !in_check {
                if mv.promotion_kind().is_some_and(|k| k != PieceKind::Queen) {
                    continue;
                }
                let gain = capture_gain(&self.board, mv);
                if use_delta && mv.promotion_kind().is_none() && static_eval + gain + 200 <= alpha {
                    continue;
                }
                let mover = self
                    .board
                    .piece_at(mv.from())
                    .map_or(0, |pc| value(pc.kind));
                if use_qs_see && mover > gain && see(&self.board, mv) < -qs_margin {
                    continue;
                }
            }
            self.board.make_move(mv);
            self.shared.tt.prefetch(self.board.hash());
            let score = -self.qsearch(-beta, -alpha, ply + 1, qs_depth + 1);
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        if use_tt {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                best_move,
                best_score,
                if in_check { 0 } else { static_eval },
                0,
                bound,
                ply,
            );
        }
        best_score
    }
}
