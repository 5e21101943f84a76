//! Move ordering as its own component: the search asks a [`MoveOrderer`] to score moves and
//! tells it about cut-offs. [`HeuristicOrderer`] is the classic one (hash move, MVV-LVA with
//! SEE, killers, counter move, history); a learned ordering (e.g. "Chessmaps") implements the
//! same trait and plugs in through [`crate::Searcher::set_orderer_factory`].

use crate::params::SearchParams;
use crate::see::{capture_gain, see_below, value};
use crate::types::MAX_PLY;
use kestrel_chess::{Board, Move, PieceKind};
use std::ops::Range;

/// What the search knows about the node whose moves are being ordered.
#[derive(Clone, Copy, Debug)]
pub struct OrderContext {
    /// The transposition table's move for this node, searched first.
    pub hash_move: Option<Move>,
    /// Distance from the root in plies (indexes the killer moves).
    pub ply: usize,
    /// Plies left to search here (0 in quiescence).
    pub depth: i32,
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
    /// The killer moves at `ply` (late-move reductions and pruning spare them); null moves
    /// where there are none. Asked once per node: only nodes at `ply` change them.
    fn killers(&self, _ply: usize) -> [Move; 2] {
        [Move::NULL; 2]
    }
    /// The ordering scores at which this orderer has shown a capture (not a promotion) not
    /// to lose material (SEE >= 0); empty when it shows nothing. Fixed for the orderer's life,
    /// so the search asks once and keeps it (see `capture_proved_safe`).
    fn see_proof_scores(&self) -> Range<i32> {
        0..0
    }
    /// Forgets everything (new game).
    fn clear(&mut self);
}

/// Whether `mv`, scored `score` by an orderer whose [`MoveOrderer::see_proof_scores`] are
/// `proof`, is a capture (not a promotion) known not to lose material.
#[inline]
pub(crate) fn capture_proved_safe(proof: &Range<i32>, mv: Move, score: i32) -> bool {
    mv.is_capture() && mv.promotion_kind().is_none() && proof.contains(&score)
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

/// The hash move's score: above every other.
pub(crate) const HASH_SCORE: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;
const BAD_NOISY: i32 = -(1 << 28);
const HISTORY_MAX: i32 = 16384;

/// The classic orderer: hash move, captures by MVV-LVA with SEE, killer moves, counter move,
/// butterfly and counter-move history, each switched by the search parameters.
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
    /// An orderer with empty tables and the heuristics that `params` switches on.
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
        if self.use_see && mover > victim && see_below(board, mv, 0) {
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

    fn killers(&self, ply: usize) -> [Move; 2] {
        if self.use_killers {
            self.killers[ply.min(MAX_PLY)]
        } else {
            [Move::NULL; 2]
        }
    }

    /// A capture (not a promotion) in the good band either cannot lose (the mover is worth no
    /// more than the victim) or passed `see_below(mv, 0)` when it was scored.
    fn see_proof_scores(&self) -> Range<i32> {
        if self.use_see {
            GOOD_NOISY - 8..HASH_SCORE
        } else {
            0..0
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::see::see;
    use kestrel_chess::{MoveFlag, Square, read_epd_file};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Positions of random playouts from every position of the CPW perft fixture.
    fn playout_positions() -> Vec<Board> {
        let path = kestrel_testdata::fixture("perft-cpw.epd");
        let (records, errors) = read_epd_file(&path).expect("perft fixture is readable");
        assert!(errors.is_empty(), "{errors:?}");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut out = Vec::new();
        for (_, record) in records {
            for _ in 0..20 {
                let mut board = record.board.clone();
                for _ in 0..40 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    board.make_move(moves[rng.random_range(0..moves.len())]);
                    out.push(board.clone());
                }
            }
        }
        out
    }

    /// The search skips SEE for moves the ordering proves not to lose, so the proof must hold
    /// on every capture of every position (and fire often enough to matter).
    #[test]
    fn proven_captures_never_lose_material() {
        let orderer = HeuristicOrderer::new(&SearchParams::default());
        let proof = orderer.see_proof_scores();
        let ctx = OrderContext {
            hash_move: None,
            ply: 0,
            depth: 0,
            prev_move: None,
        };
        let (mut proven, mut proven_by_see, mut losing) = (0, 0, 0);
        for board in playout_positions() {
            let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
            let mut scores = vec![0; moves.len()];
            orderer.score(&board, &moves, &ctx, &mut scores);
            for (&mv, &score) in moves.iter().zip(&scores) {
                let exchange = see(&board, mv);
                if !capture_proved_safe(&proof, mv, score) {
                    losing += i32::from(mv.is_capture() && exchange < 0);
                    continue;
                }
                assert!(exchange >= 0, "{} {mv:?}: SEE {exchange}", board.to_fen());
                assert!(!see_below(&board, mv, 0), "{} {mv:?}", board.to_fen());
                proven += 1;
                let mover = board.piece_at(mv.from()).map_or(0, |p| value(p.kind));
                proven_by_see += i32::from(mover > capture_gain(&board, mv));
            }
        }
        assert!(proven > 1000, "{proven}");
        assert!(proven_by_see > 100, "{proven_by_see}");
        assert!(losing > 100, "{losing}");
        // The hash move's score proves nothing: it may be any move, a losing capture too.
        let capture = Move::new(Square(0), Square(56), MoveFlag::Capture);
        assert!(!capture_proved_safe(&proof, capture, HASH_SCORE));
        assert!(capture_proved_safe(&proof, capture, GOOD_NOISY));
    }
}
