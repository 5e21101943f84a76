//! Move ordering as its own component: the search asks a [`MoveOrderer`] to score moves and
//! tells it about cut-offs. [`HeuristicOrderer`] is the classic one (hash move, MVV-LVA with
//! SEE, killers, counter move, history); a learned ordering (e.g. "Chessmaps") implements the
//! same trait and plugs in through [`crate::Searcher::set_orderer_factory`].

use crate::params::SearchParams;
use crate::see::{capture_gain, see, value};
use crate::types::MAX_PLY;
use kestrel_chess::{Board, Move, MoveList, PieceKind};
use std::mem::MaybeUninit;

/// What the search knows about the node whose moves are being ordered.
#[derive(Clone, Copy, Debug)]
pub struct OrderContext {
    pub hash_move: Option<Move>,
    pub ply: usize,
    /// The opponent's last move (for the counter-move heuristic).
    pub prev_move: Option<Move>,
}

/// Scores moves (higher is searched first) and learns from cut-offs.
pub trait MoveOrderer: Send {
    /// Writes one score per move into `scores`.
    fn score(&self, board: &Board, moves: &[Move], ctx: &OrderContext, scores: &mut [i32]);
    /// `mv` failed high at depth `depth_plies`; `tried_quiets` were searched before it in vain.
    fn on_cutoff(
        &mut self,
        board: &Board,
        mv: Move,
        tried_quiets: &[Move],
        depth_plies: i32,
        ctx: &OrderContext,
    );
    /// Whether `mv` is a killer move at `ply` (late-move reductions spare killers).
    fn is_killer(&self, _mv: Move, _ply: usize) -> bool {
        false
    }
    /// Forgets everything (new game).
    fn clear(&mut self);
}

/// Builds a fresh orderer for each search thread.
pub type OrdererFactory = fn(&SearchParams) -> Box<dyn MoveOrderer>;

/// The default factory: [`HeuristicOrderer`], or the Chessmaps orderer when `QUIET_ORDER` or
/// `USE_SECTOR_KILLER` asks for it.
pub fn heuristic_orderer(params: &SearchParams) -> Box<dyn MoveOrderer> {
    if params.quiet_order != 0 || params.use_sector_killer {
        return crate::chessmaps::chessmaps_orderer(params);
    }
    Box::new(HeuristicOrderer::new(params))
}

const HASH_SCORE: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;
const BAD_NOISY: i32 = -(1 << 28);
const HISTORY_MAX: i32 = 16384;

pub struct HeuristicOrderer {
    use_killers: bool,
    use_history: bool,
    use_counter: bool,
    use_see: bool,
    use_cont: bool,
    killers: Box<[[Move; 2]; MAX_PLY + 2]>,
    /// Butterfly history indexed by side, from, to.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// Reply to a move, indexed by the moved piece and its destination.
    counter: Box<[[Move; 64]; 12]>,
    /// Counter-move history: how well a quiet move (piece, destination) did as a reply to the
    /// previous move (piece, destination); flat `[prev slot][piece * 64 + to]`.
    cont: Vec<i16>,
}

/// Entries per slot of the counter-move history: 12 pieces times 64 squares.
const CONT_SLOTS: usize = 12 * 64;

impl HeuristicOrderer {
    pub fn new(params: &SearchParams) -> HeuristicOrderer {
        HeuristicOrderer {
            use_killers: params.use_killers,
            use_history: params.use_history,
            use_counter: params.use_counter_move,
            use_see: params.use_see_ordering,
            use_cont: params.use_cont_history,
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 2]),
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[Move::NULL; 64]; 12]),
            cont: if params.use_cont_history {
                vec![0; CONT_SLOTS * CONT_SLOTS]
            } else {
                Vec::new()
            },
        }
    }

    /// The counter-move history row for replies to the previous move's `slot`, if any.
    fn cont_row(&self, slot: Option<(usize, usize)>) -> Option<usize> {
        slot.filter(|_| self.use_cont)
            .map(|(p, s)| (p * 64 + s) * CONT_SLOTS)
    }

    fn cont_index(board: &Board, row: usize, mv: Move) -> usize {
        let piece = board.piece_at(mv.from()).map_or(0, |p| p.index());
        row + piece * 64 + mv.to().index()
    }

    fn counter_slot(board: &Board, prev: Option<Move>) -> Option<(usize, usize)> {
        let prev = prev.filter(|m| !m.is_null())?;
        let piece = board.piece_at(prev.to())?;
        Some((piece.index(), prev.to().index()))
    }

    fn noisy_score(&self, board: &Board, mv: Move) -> i32 {
        let attacker = board
            .piece_at(mv.from())
            .map_or(0, |p| p.kind.index() as i32);
        let mvv_lva = capture_gain(board, mv) * 8 - attacker;
        if let Some(kind) = mv.promotion_kind()
            && kind != PieceKind::Queen
        {
            return BAD_NOISY + mvv_lva;
        }
        let victim = capture_gain(board, mv);
        let mover = board.piece_at(mv.from()).map_or(0, |p| value(p.kind));
        if self.use_see && mover > victim && see(board, mv) < 0 {
            BAD_NOISY + mvv_lva
        } else {
            GOOD_NOISY + mvv_lva
        }
    }

    fn bonus(entry: &mut i32, bonus: i32) {
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}

impl MoveOrderer for HeuristicOrderer {
    fn score(&self, board: &Board, moves: &[Move], ctx: &OrderContext, scores: &mut [i32]) {
        let side = board.side_to_move().index();
        let killers = self.killers[ctx.ply.min(MAX_PLY)];
        let slot = Self::counter_slot(board, ctx.prev_move);
        let counter = slot
            .filter(|_| self.use_counter)
            .map(|(p, s)| self.counter[p][s]);
        let cont_row = self.cont_row(slot);
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            let mv = *mv;
            *score = if Some(mv) == ctx.hash_move {
                HASH_SCORE
            } else if mv.is_noisy() {
                self.noisy_score(board, mv)
            } else if self.use_killers && mv == killers[0] {
                KILLER_1
            } else if self.use_killers && mv == killers[1] {
                KILLER_2
            } else if Some(mv) == counter {
                COUNTER
            } else {
                let butterfly = if self.use_history {
                    self.history[side][mv.from().index()][mv.to().index()]
                } else {
                    0
                };
                let cont =
                    cont_row.map_or(0, |row| self.cont[Self::cont_index(board, row, mv)] as i32);
                butterfly + cont
            };
        }
    }

    fn on_cutoff(
        &mut self,
        board: &Board,
        mv: Move,
        tried_quiets: &[Move],
        depth_plies: i32,
        ctx: &OrderContext,
    ) {
        if mv.is_noisy() {
            return;
        }
        let ply = ctx.ply.min(MAX_PLY);
        if self.use_killers && self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let slot = Self::counter_slot(board, ctx.prev_move);
        if self.use_counter
            && let Some((p, s)) = slot
        {
            self.counter[p][s] = mv;
        }
        let bonus = (depth_plies * depth_plies).min(400) * 16;
        if let Some(row) = self.cont_row(slot) {
            let mut update = |m: Move, b: i32| {
                let entry = &mut self.cont[Self::cont_index(board, row, m)];
                let mut v = *entry as i32;
                Self::bonus(&mut v, b);
                *entry = v as i16;
            };
            update(mv, bonus);
            for &q in tried_quiets {
                update(q, -bonus);
            }
        }
        if self.use_history {
            let side = board.side_to_move().index();
            Self::bonus(
                &mut self.history[side][mv.from().index()][mv.to().index()],
                bonus,
            );
            for q in tried_quiets {
                Self::bonus(
                    &mut self.history[side][q.from().index()][q.to().index()],
                    -bonus,
                );
            }
        }
    }

    fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.use_killers && self.killers[ply.min(MAX_PLY)].contains(&mv)
    }

    fn clear(&mut self) {
        self.killers.fill([Move::NULL; 2]);
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                row.fill(0);
            }
        }
        for row in self.counter.iter_mut() {
            row.fill(Move::NULL);
        }
        self.cont.fill(0);
    }
}

/// Hands out moves best-first by lazy selection sort (a cut-off usually comes early, so most
/// lists are never fully sorted).
pub struct MovePicker {
    moves: MoveList,
    /// The ordering scores; only the first `moves.len()` are initialised.
    scores: [MaybeUninit<i32>; kestrel_chess::MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// A picker with no moves; [`MovePicker::fill`] gives it its moves.
    #[inline(always)]
    pub fn empty() -> MovePicker {
        // Written field by field: a struct literal with uninitialised arrays let the compiler
        // zero them at some call sites.
        let mut picker = MaybeUninit::<MovePicker>::uninit();
        let p = picker.as_mut_ptr();
        // SAFETY: every field that is not an array of `MaybeUninit` is written before
        // `assume_init`.
        unsafe {
            std::ptr::addr_of_mut!((*p).moves).write(MoveList::new());
            std::ptr::addr_of_mut!((*p).next).write(0);
            picker.assume_init()
        }
    }

    /// Replaces the moves by those `fill` writes into the list, scored by `orderer`. The
    /// picker is filled where it lives rather than built and moved: a node makes one, and
    /// copying its 1.5 KB showed in the profile.
    #[inline(always)]
    pub fn fill(
        &mut self,
        fill: impl FnOnce(&mut MoveList),
        board: &Board,
        orderer: &dyn MoveOrderer,
        ctx: &OrderContext,
    ) {
        self.moves.clear();
        self.next = 0;
        fill(&mut self.moves);
        let n = self.moves.len();
        for s in &mut self.scores[..n] {
            s.write(0);
        }
        let scores = written_prefix(&mut self.scores, n);
        orderer.score(board, self.moves.as_slice(), ctx, scores);
    }

    /// The scores of the list's moves.
    fn scores_mut(&mut self) -> &mut [i32] {
        written_prefix(&mut self.scores, self.moves.len())
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move and its ordering score.
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let next = self.next;
        if next >= self.moves.len() {
            return None;
        }
        // The first of the highest scores (as a scan keeping the first strict maximum would
        // find), in two passes the compiler vectorises.
        let scores = self.scores_mut();
        let rest = &scores[next..];
        let top = rest.iter().copied().max().expect("moves remain");
        let best = next
            + rest
                .iter()
                .position(|&s| s == top)
                .expect("the max is there");
        scores.swap(next, best);
        self.moves.swap(next, best);
        self.next += 1;
        Some((self.moves[next], top))
    }
}

/// The first `n` scores, which the caller has written (only `MovePicker` calls it, with
/// `n` at most the length its `fill` wrote).
fn written_prefix(scores: &mut [MaybeUninit<i32>], n: usize) -> &mut [i32] {
    let prefix = &mut scores[..n];
    // SAFETY: `MovePicker::fill` writes the first `moves.len()` scores before any read, and
    // the list (private to the picker) only changes in `fill`; `MaybeUninit<i32>` has `i32`'s
    // layout.
    unsafe { std::slice::from_raw_parts_mut(prefix.as_mut_ptr().cast::<i32>(), n) }
}

#[cfg(test)]
mod picker_tests {
    use super::*;

    /// Scores each move by a fixed table lookup on its index in the list, so the test knows
    /// the order to expect.
    struct ByTable(Vec<i32>);

    impl MoveOrderer for ByTable {
        fn score(&self, _: &Board, moves: &[Move], _: &OrderContext, scores: &mut [i32]) {
            assert_eq!(scores.len(), moves.len());
            scores.copy_from_slice(&self.0[..moves.len()]);
        }
        fn on_cutoff(&mut self, _: &Board, _: Move, _: &[Move], _: i32, _: &OrderContext) {}
        fn clear(&mut self) {}
    }

    fn ctx() -> OrderContext {
        OrderContext {
            hash_move: None,
            ply: 0,
            prev_move: None,
        }
    }

    #[test]
    fn hands_out_every_move_best_first_and_refills_cleanly() {
        let board = Board::startpos();
        let mut all = MoveList::new();
        board.generate(kestrel_chess::GenKind::All, &mut all);
        assert_eq!(all.len(), 20);
        let table: Vec<i32> = (0..20).map(|i| [5, -3, 5, 9, 0][i % 5]).collect();
        let orderer = ByTable(table.clone());
        let mut picker = MovePicker::empty();
        picker.fill(
            |m| board.generate(kestrel_chess::GenKind::All, m),
            &board,
            &orderer,
            &ctx(),
        );
        let mut expected: Vec<(Move, i32)> = all.iter().copied().zip(table).collect();
        // Scores come out in descending order; the unique top score names its move.
        expected.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let got: Vec<(Move, i32)> = std::iter::from_fn(|| picker.next_move()).collect();
        assert_eq!(got.len(), 20);
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), {
            expected.iter().map(|e| e.1).collect::<Vec<_>>()
        });
        assert_eq!(got[0].0, expected[0].0);
        // Refilled with fewer moves, the picker forgets the old ones.
        picker.fill(|m| m.push(all[7]), &board, &orderer, &ctx());
        assert_eq!(picker.len(), 1);
        assert_eq!(picker.next_move(), Some((all[7], 5)));
        assert_eq!(picker.next_move(), None);
    }
}
