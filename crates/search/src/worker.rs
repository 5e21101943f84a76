//! One search thread: its board, node counter, stop checks, PV table and the per-ply stack.
//! The search itself lives beside it: [`crate::root`] (aspiration windows at the root),
//! [`crate::node`] (alpha-beta, step by step), [`crate::pruning`] (before the moves),
//! [`crate::move_loop`], [`crate::reductions`] and [`crate::qsearch`].

use crate::SearchControl;
use crate::blockage::is_blocked_pawn_ending;
use crate::correction::CorrectionHistory;
use crate::ordering::{MoveOrderer, OrderContext, capture_proved_safe, own_previous_move};
use crate::params::SearchParams;
use crate::picker::MovePicker;
use crate::reductions::LmrTable;
use crate::time::Clock;
use crate::tt::TranspositionTable;
use crate::types::{MATE_BOUND, MAX_PLY};
use kestrel_chess::{Board, Color, GenKind, Move, MoveList};
use kestrel_eval::{EvalCache, Evaluator, PieceSums};
use kestrel_nnue::{AccumulatorStack, NetEval};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The transposition table of all threads (Lazy SMP).
    pub tt: &'a TranspositionTable,
    /// `stop` and `ponderhit` from the GUI.
    pub control: &'a SearchControl,
    /// Set when the main thread is done (or out of time): helpers stop.
    pub abort: &'a AtomicBool,
    /// Nodes of each thread, published every few hundred nodes.
    pub nodes: &'a [AtomicU64],
}

/// What one thread keeps from search to search: its move orderer (histories, killers), its
/// evaluation caches and its correction history.
pub(crate) struct ThreadTables<'a> {
    pub orderer: &'a mut dyn MoveOrderer,
    pub cache: &'a mut EvalCache,
    pub correction: &'a mut CorrectionHistory,
}

/// What the search remembers about each ply of the current path.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// Static evaluation at this ply (`-INFINITY` in check), for "improving".
    pub static_eval: i32,
    /// Extensions (quarter plies) granted on the path to this node.
    pub extended: i32,
    /// The hash move left out by a singular-extension test search of this node.
    pub excluded: Option<Move>,
}

/// A finished root search of one PV line.
#[derive(Clone)]
pub struct RootLine {
    /// Score from the root's side to move's view.
    pub score: i32,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

/// One search thread.
pub struct Worker<'a> {
    /// The position being searched (made and unmade along the path, only through
    /// [`Worker::make`] and [`Worker::unmake`], which keep `piece_sums` in step).
    pub(crate) board: Board,
    pub(crate) params: SearchParams,
    eval: Evaluator,
    pub(crate) orderer: &'a mut dyn MoveOrderer,
    /// The orderer's [`MoveOrderer::see_proof_scores`], asked once.
    see_proof: Range<i32>,
    /// This thread's pawn-structure and evaluation caches.
    cache: &'a mut EvalCache,
    /// This thread's correction of the static evaluation by pawn structure.
    pub(crate) correction: &'a mut CorrectionHistory,
    /// The pieces' material and piece-square sums of every position on the path, the current
    /// one last (see [`Worker::make`]); not updated while a network evaluates.
    piece_sums: Vec<PieceSums>,
    /// With a network: its accumulators of every position on the path (kept in step by
    /// [`Worker::make`]/[`Worker::unmake`]; a null move changes none), and the evaluation.
    network: Option<AccumulatorStack>,
    pub(crate) shared: &'a Shared<'a>,
    index: usize,
    /// Nodes searched by this thread.
    pub nodes: u64,
    node_limit: Option<u64>,
    /// The main thread's clock (helpers have none).
    pub clock: Option<Clock>,
    /// Stop checks are off until depth 1 is complete, so a legal, searched move always exists.
    can_stop: bool,
    /// Set once the search must unwind; every score found after it is meaningless.
    pub stopped: bool,
    /// Deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Depth of the current iteration, plies.
    pub(crate) root_depth: i32,
    /// Score of the root move last put in the PV (see [`Worker::root_pv`]).
    pub(crate) root_score: i32,
    /// The fail-high line of this iteration's last aspiration failure, if it failed high.
    pub(crate) fail_high_line: Option<RootLine>,
    /// Root moves not to search (earlier MultiPV lines).
    pub root_excluded: Vec<Move>,
    /// Root moves allowed (`searchmoves`); empty means all.
    pub root_allowed: Vec<Move>,
    /// Nodes this thread has spent under each root move since the search began (the time
    /// manager's `USE_TM_NODE_SHARE`).
    pub(crate) root_effort: Vec<(Move, u64)>,
    pub(crate) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 1],
    pub(crate) stack: [Frame; MAX_PLY + 2],
    pub(crate) lmr: LmrTable,
}

impl<'a> Worker<'a> {
    /// A thread searching `board`; `index` 0 is the main thread.
    pub fn new(
        board: Board,
        params: SearchParams,
        eval: Evaluator,
        tables: ThreadTables<'a>,
        shared: &'a Shared<'a>,
        index: usize,
        node_limit: Option<u64>,
    ) -> Worker<'a> {
        let mut piece_sums = Vec::with_capacity(2 * MAX_PLY + 8);
        piece_sums.push(eval.piece_sums(&board));
        Worker {
            board,
            piece_sums,
            network: None,
            lmr: LmrTable::new(&params),
            params,
            eval,
            see_proof: tables.orderer.see_proof_scores(),
            orderer: tables.orderer,
            cache: tables.cache,
            correction: tables.correction,
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
            root_effort: Vec::new(),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stack: [Frame::default(); MAX_PLY + 2],
        }
    }

    /// Evaluates with `network` (the linear evaluation when `None`) from the current position.
    pub fn set_network(&mut self, network: Option<Arc<NetEval>>) {
        self.network = network.map(|net| AccumulatorStack::new(net, &self.board));
    }

    // ---- nodes and stopping ------------------------------------------------------------

    /// Nodes of all threads (this one exact, the others as last published).
    pub fn total_nodes(&self) -> u64 {
        self.publish_nodes();
        self.shared
            .nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Permille of the shared hash table in use.
    pub fn shared_tt_hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    /// The GUI's `stop`/`ponderhit` flags.
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
    pub(crate) fn tick(&mut self) -> bool {
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
                clock.ponderhit(self.nodes);
            }
            if clock.hard_expired(self.nodes) {
                self.stopped = true;
            }
        }
    }

    // ---- small helpers of every node ---------------------------------------------------

    /// Static evaluation (the network's, or the linear one through this thread's caches),
    /// kept clear of mate scores.
    pub(crate) fn evaluate(&mut self) -> i32 {
        if let Some(stack) = &mut self.network {
            let score = stack.evaluate(&self.board);
            debug_assert_eq!(score, stack.net().evaluate(&self.board));
            return score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let pieces = self.piece_sums[self.piece_sums.len() - 1];
        debug_assert_eq!(pieces, self.eval.piece_sums(&self.board));
        self.eval
            .evaluate_cached_with(&self.board, self.cache, pieces)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// `raw`, the static evaluation of the current position, corrected by its pawn
    /// structure's history (unchanged with `USE_CORRECTION` off), kept clear of mate scores.
    #[inline]
    pub(crate) fn corrected(&self, raw: i32) -> i32 {
        if !self.params.use_correction {
            return raw;
        }
        (raw + self.correction.correction(&self.board)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Makes `mv` on the board and carries the pieces' sums along: a move changes only the
    /// entries of the squares it touches, cheaper than adding them all at each evaluation.
    #[inline]
    pub(crate) fn make(&mut self, mv: Move) {
        let before = self.piece_sums[self.piece_sums.len() - 1];
        // With a network the linear sums are never read: keep the stack's length only.
        let after = match &mut self.network {
            Some(stack) => {
                stack.push_move(&self.board, mv);
                before
            }
            None => self.eval.piece_sums_after(&self.board, mv, before),
        };
        self.piece_sums.push(after);
        self.board.make_move(mv);
    }

    /// Takes back the last [`Worker::make`].
    #[inline]
    pub(crate) fn unmake(&mut self) {
        self.board.unmake_move();
        self.piece_sums.pop();
        if let Some(stack) = &mut self.network {
            stack.pop();
        }
    }

    /// Whether the ordering proved `mv`, which it scored `order_score`, a capture that does
    /// not lose material (SEE >= 0): a SEE test at a threshold at or below 0 is then passed.
    #[inline]
    pub(crate) fn proved_see_safe(&self, mv: Move, order_score: i32) -> bool {
        capture_proved_safe(&self.see_proof, mv, order_score)
    }

    /// Starts loading the hash bucket and the evaluation-cache entry of the position after
    /// `mv` (called before the move is made, so the loads overlap the work before the probes);
    /// returns the key it used ([`Board::key_after`]: not exact for every move).
    #[inline]
    pub(crate) fn prefetch_child(&self, mv: Move) -> u64 {
        let key = self.board.key_after(mv);
        self.shared.tt.prefetch(key);
        self.cache.prefetch(key);
        key
    }

    /// Starts loading the evaluation-cache entry of the position after `mv`.
    #[inline]
    pub(crate) fn prefetch_child_eval(&self, mv: Move) {
        self.cache.prefetch(self.board.key_after(mv));
    }

    /// Repetition, fifty moves or insufficient material.
    pub(crate) fn is_draw(&self) -> bool {
        self.board.is_repetition()
            || self.board.is_fifty_move_draw()
            || self.board.is_insufficient_material()
    }

    /// A pawn ending whose pawns are locked for good: a draw however deep one searches.
    pub(crate) fn pawn_ending_blocked(&self) -> bool {
        self.params.use_blockage
            && !self.board.has_non_pawn_material(Color::White)
            && !self.board.has_non_pawn_material(Color::Black)
            && is_blocked_pawn_ending(&self.board)
    }

    /// `mv` is best at `ply`: the PV here is `mv` followed by the child's PV.
    pub(crate) fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// What the move orderer needs to know about this node (`depth`: plies left, 0 in
    /// quiescence).
    pub(crate) fn context(&self, hash_move: Option<Move>, ply: usize, depth: i32) -> OrderContext {
        OrderContext {
            hash_move,
            ply,
            depth,
            prev_move: self.board.last_move(),
            // Read from the move history only for the table that uses it (a per-node cost).
            own_prev: if self.params.use_follow_up_history {
                own_previous_move(&self.board)
            } else {
                None
            },
        }
    }

    /// Fills `picker` with the moves of `kind`, to be handed out best first.
    pub(crate) fn fill_picker(
        &self,
        picker: &mut MovePicker,
        kind: GenKind,
        hash_move: Option<Move>,
        ply: usize,
        depth: i32,
    ) {
        self.fill_picker_with(
            picker,
            |moves| self.board.generate(kind, moves),
            hash_move,
            ply,
            depth,
        );
    }

    /// Fills `picker` with the moves `fill` lists, to be handed out best first.
    pub(crate) fn fill_picker_with(
        &self,
        picker: &mut MovePicker,
        fill: impl FnOnce(&mut MoveList),
        hash_move: Option<Move>,
        ply: usize,
        depth: i32,
    ) {
        let ctx = self.context(hash_move, ply, depth);
        picker.fill(fill, &self.board, &*self.orderer, &ctx);
    }
}
