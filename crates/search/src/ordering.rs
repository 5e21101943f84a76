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
    /// Our own previous move, two plies back, as (piece index, destination index): the slot
    /// of the follow-up history (see [`own_previous_move`]).
    pub own_prev: Option<(usize, usize)>,
}

/// The side to move's own previous move (two plies back) as (piece index, destination
/// index), or `None` after a null move or when the piece cannot be told (taken en passant).
/// The piece is the one on its destination, or the one the opponent's last move took there.
pub(crate) fn own_previous_move(board: &Board) -> Option<(usize, usize)> {
    let mut moves = board.move_history().rev();
    let prev = moves.next()?;
    let own = moves.next().filter(|m| !m.is_null())?;
    let piece = if !prev.is_null() && prev.to() == own.to() {
        board.last_captured()?
    } else {
        board.piece_at(own.to())?
    };
    Some((piece.index(), own.to().index()))
}

/// The moves a node searched before the one that cut off (each list capped by the search).
#[derive(Clone, Copy, Debug)]
pub struct TriedMoves<'a> {
    /// Quiet moves, which lose (butterfly and counter-move) history.
    pub quiets: &'a [Move],
    /// Captures, which lose capture history.
    pub captures: &'a [Move],
}

/// Scores moves (higher is searched first) and learns from cut-offs.
pub trait MoveOrderer: Send {
    /// Writes one score per move into `scores`.
    fn score(&self, board: &Board, moves: &[Move], ctx: &OrderContext, scores: &mut [i32]);
    /// `mv` failed high at depth `depth_plies`; `tried.quiets` and `tried.captures` were
    /// searched before it in vain.
    fn on_cutoff(
        &mut self,
        board: &Board,
        mv: Move,
        tried: &TriedMoves,
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
/// A quiet move ordered by history alone scores within this bound (butterfly, counter-move
/// and follow-up history); killers, the counter move and captures score far outside it.
pub(crate) const QUIET_HISTORY_BOUND: i32 = 3 * HISTORY_MAX;
/// Capture history enters a capture's score divided by this: at most a pawn and a bit in the
/// MVV-LVA scale (victim value x 8), so it orders captures of near-equal victims and the SEE
/// split into good and bad captures stays.
const CAPTURE_HISTORY_DIV: i32 = 16;
/// The most capture history can move a score.
const CAPTURE_HISTORY_SPAN: i32 = HISTORY_MAX / CAPTURE_HISTORY_DIV;

/// The classic orderer: hash move, captures by MVV-LVA with SEE and capture history, killer
/// moves, counter move, butterfly and counter-move history, each switched by the search
/// parameters.
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
    use_follow: bool,
    /// Follow-up history: how well a quiet move (piece, destination) did after our own
    /// previous move (piece, destination); laid out as `cont`.
    follow: Vec<i16>,
    use_capture_history: bool,
    /// How well a capture did, flat `[piece * 64 + to][captured kind]` (empty when off).
    captures: Vec<i16>,
}

/// Entries per slot of the counter-move history: 12 pieces times 64 squares.
const CONT_SLOTS: usize = 12 * 64;
/// Kinds a capture can take (pawn to queen).
const VICTIM_KINDS: usize = 5;

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
            use_follow: params.use_follow_up_history,
            follow: if params.use_follow_up_history {
                vec![0; CONT_SLOTS * CONT_SLOTS]
            } else {
                Vec::new()
            },
            use_capture_history: params.use_capture_history,
            captures: if params.use_capture_history {
                vec![0; CONT_SLOTS * VICTIM_KINDS]
            } else {
                Vec::new()
            },
        }
    }

    /// The capture history entry of `mv` if it is a capture and the table is on.
    fn capture_index(&self, board: &Board, mv: Move) -> Option<usize> {
        if !self.use_capture_history || !mv.is_capture() {
            return None;
        }
        let piece = board.piece_at(mv.from())?.index();
        // En passant lands on an empty square: its victim is a pawn (kind 0).
        let victim = board.piece_at(mv.to()).map_or(0, |p| p.kind.index());
        Some((piece * 64 + mv.to().index()) * VICTIM_KINDS + victim.min(VICTIM_KINDS - 1))
    }

    /// Rewards `mv` and punishes the captures tried before it (a no-op when the table is off).
    fn update_capture_history(&mut self, board: &Board, mv: Move, tried: &[Move], bonus: i32) {
        let update = |this: &mut Self, m: Move, b: i32| {
            if let Some(i) = this.capture_index(board, m) {
                Self::bonus_i16(&mut this.captures[i], b);
            }
        };
        update(self, mv, bonus);
        for &c in tried {
            update(self, c, -bonus);
        }
    }

    /// The counter-move history row for replies to the previous move's `slot`, if any.
    fn cont_row(&self, slot: Option<(usize, usize)>) -> Option<usize> {
        slot.filter(|_| self.use_cont)
            .map(|(p, s)| (p * 64 + s) * CONT_SLOTS)
    }

    /// The follow-up history row for moves after our own previous move's `slot`, if any.
    fn follow_row(&self, slot: Option<(usize, usize)>) -> Option<usize> {
        slot.filter(|_| self.use_follow)
            .map(|(p, s)| (p * 64 + s) * CONT_SLOTS)
    }

    /// Rewards `mv` and punishes `tried` in one row of a (piece, square) x (piece, square)
    /// history table.
    fn update_pair_table(
        table: &mut [i16],
        row: usize,
        board: &Board,
        mv: Move,
        tried: &[Move],
        bonus: i32,
    ) {
        Self::bonus_i16(&mut table[Self::cont_index(board, row, mv)], bonus);
        for &q in tried {
            Self::bonus_i16(&mut table[Self::cont_index(board, row, q)], -bonus);
        }
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
        let history = self
            .capture_index(board, mv)
            .map_or(0, |i| self.captures[i] as i32 / CAPTURE_HISTORY_DIV);
        if self.use_see && mover > victim && see_below(board, mv, 0) {
            BAD_NOISY + mvv_lva + history
        } else {
            GOOD_NOISY + mvv_lva + history
        }
    }

    fn bonus(entry: &mut i32, bonus: i32) {
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// [`Self::bonus`] on a compact table entry (gravity keeps it within `HISTORY_MAX`).
    fn bonus_i16(entry: &mut i16, bonus: i32) {
        let mut v = *entry as i32;
        Self::bonus(&mut v, bonus);
        *entry = v as i16;
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
        let follow_row = self.follow_row(ctx.own_prev);
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
                let follow = follow_row.map_or(0, |row| {
                    self.follow[Self::cont_index(board, row, mv)] as i32
                });
                butterfly + cont + follow
            };
        }
    }

    fn on_cutoff(
        &mut self,
        board: &Board,
        mv: Move,
        tried: &TriedMoves,
        depth_plies: i32,
        ctx: &OrderContext,
    ) {
        let bonus = (depth_plies * depth_plies).min(400) * 16;
        self.update_capture_history(board, mv, tried.captures, bonus);
        if mv.is_noisy() {
            return;
        }
        let tried_quiets = tried.quiets;
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
        if let Some(row) = self.cont_row(slot) {
            Self::update_pair_table(&mut self.cont, row, board, mv, tried_quiets, bonus);
        }
        if let Some(row) = self.follow_row(ctx.own_prev) {
            Self::update_pair_table(&mut self.follow, row, board, mv, tried_quiets, bonus);
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
    /// more than the victim) or passed `see_below(mv, 0)` when it was scored. Capture history
    /// moves a score by less than the gap between the bands.
    fn see_proof_scores(&self) -> Range<i32> {
        if self.use_see {
            GOOD_NOISY - 8 - CAPTURE_HISTORY_SPAN..HASH_SCORE
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
        self.follow.fill(0);
        self.captures.fill(0);
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
            own_prev: None,
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

    fn capture_history_params() -> SearchParams {
        SearchParams {
            use_capture_history: true,
            ..SearchParams::default()
        }
    }

    fn root_ctx() -> OrderContext {
        OrderContext {
            hash_move: None,
            ply: 0,
            depth: 4,
            prev_move: None,
            own_prev: None,
        }
    }

    fn captures_of(board: &Board) -> Vec<Move> {
        let moves = board.legal_moves();
        moves.iter().copied().filter(|m| m.is_capture()).collect()
    }

    fn scores_of(orderer: &HeuristicOrderer, board: &Board, moves: &[Move]) -> Vec<i32> {
        let mut scores = vec![0; moves.len()];
        orderer.score(board, moves, &root_ctx(), &mut scores);
        scores
    }

    /// Two captures of equal victims by equal pieces tie on MVV-LVA; a cut-off by one, the
    /// other tried in vain, puts the one that cut off first, in its band.
    #[test]
    fn capture_history_orders_a_capture_that_cut_off_first() {
        // Knights on c3 and f3 can each take an undefended pawn (b5 and g5).
        let board = Board::from_fen("4k3/8/8/1p4p1/8/2N2N2/8/4K3 w - - 0 1").unwrap();
        let moves = captures_of(&board);
        assert_eq!(moves.len(), 2, "{moves:?}");
        let mut orderer = HeuristicOrderer::new(&capture_history_params());
        let before = scores_of(&orderer, &board, &moves);
        assert_eq!(before[0], before[1]);
        let tried = TriedMoves {
            quiets: &[],
            captures: &moves[..1],
        };
        orderer.on_cutoff(&board, moves[1], &tried, 6, &root_ctx());
        let after = scores_of(&orderer, &board, &moves);
        assert!(
            after[1] > before[1] && after[0] < before[0],
            "{before:?} {after:?}"
        );
        let bands = |s: i32| (s - GOOD_NOISY).abs() <= 8 * 1000 + CAPTURE_HISTORY_SPAN;
        assert!(after.iter().all(|&s| bands(s)), "{after:?}");
        // With the table off nothing moves.
        let mut plain = HeuristicOrderer::new(&SearchParams::default());
        plain.on_cutoff(&board, moves[1], &tried, 6, &root_ctx());
        assert_eq!(scores_of(&plain, &board, &moves), before);
        orderer.clear();
        assert_eq!(scores_of(&orderer, &board, &moves), before);
    }

    fn play(board: &mut Board, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = board.parse_uci_move(text).unwrap();
            board.make_move(mv);
        }
    }

    fn slot(board: &Board, square: &str) -> (usize, usize) {
        let sq: Square = square.parse().unwrap();
        (board.piece_at(sq).unwrap().index(), sq.index())
    }

    /// Our previous move is the piece on its square, or the piece taken there since; a null
    /// move or an empty history gives none.
    #[test]
    fn own_previous_move_names_the_piece_and_square() {
        let mut board = Board::startpos();
        assert_eq!(own_previous_move(&board), None);
        play(&mut board, "e2e4");
        assert_eq!(own_previous_move(&board), None);
        play(&mut board, "d7d5");
        assert_eq!(own_previous_move(&board), Some(slot(&board, "e4")));
        let black_pawn_on_d5 = slot(&board, "d5");
        play(&mut board, "e4d5");
        // White's pawn took the pawn of Black's last move: the slot is still that pawn's.
        assert_eq!(own_previous_move(&board), Some(black_pawn_on_d5));
        let white_pawn_on_d5 = slot(&board, "d5");
        assert_ne!(white_pawn_on_d5, black_pawn_on_d5);
        play(&mut board, "d8d5");
        assert_eq!(own_previous_move(&board), Some(white_pawn_on_d5));
        board.make_null();
        board.make_null();
        assert_eq!(own_previous_move(&board), None);
    }

    /// A quiet cut-off after our own previous move lifts the move in that move's row only.
    #[test]
    fn follow_up_history_is_kept_per_own_previous_move() {
        let params = SearchParams {
            use_follow_up_history: true,
            use_killers: false,
            use_history: false,
            use_cont_history: false,
            ..SearchParams::default()
        };
        let mut orderer = HeuristicOrderer::new(&params);
        let mut board = Board::startpos();
        play(&mut board, "g1f3 g8f6");
        let after_knight = OrderContext {
            own_prev: own_previous_move(&board),
            ..root_ctx()
        };
        assert!(after_knight.own_prev.is_some());
        let after_other = OrderContext {
            own_prev: Some(slot(&board, "e1")),
            ..root_ctx()
        };
        let moves: Vec<Move> = ["e2e4", "d2d4"]
            .iter()
            .map(|m| board.parse_uci_move(m).unwrap())
            .collect();
        let score = |o: &HeuristicOrderer, ctx: &OrderContext| {
            let mut s = vec![0; 2];
            o.score(&board, &moves, ctx, &mut s);
            s
        };
        assert_eq!(score(&orderer, &after_knight), [0, 0]);
        let tried = TriedMoves {
            quiets: &moves[1..],
            captures: &[],
        };
        orderer.on_cutoff(&board, moves[0], &tried, 5, &after_knight);
        let lifted = score(&orderer, &after_knight);
        assert!(lifted[0] > 0 && lifted[1] < 0, "{lifted:?}");
        assert!(lifted.iter().all(|s| s.abs() <= QUIET_HISTORY_BOUND));
        assert_eq!(score(&orderer, &after_other), [0, 0]);
        let mut off = HeuristicOrderer::new(&SearchParams {
            use_follow_up_history: false,
            ..params
        });
        off.on_cutoff(&board, moves[0], &tried, 5, &after_knight);
        assert_eq!(score(&off, &after_knight), [0, 0]);
    }

    /// However far capture history has moved the scores, the good band still proves a
    /// capture safe only when SEE says it is.
    #[test]
    fn proof_holds_with_capture_history_saturated() {
        let mut orderer = HeuristicOrderer::new(&capture_history_params());
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let boards = playout_positions();
        for board in boards.iter().take(400) {
            let captures = captures_of(board);
            if captures.len() < 2 {
                continue;
            }
            let winner = captures[rng.random_range(0..captures.len())];
            let losers: Vec<Move> = captures.iter().copied().filter(|&c| c != winner).collect();
            let tried = TriedMoves {
                quiets: &[],
                captures: &losers,
            };
            for _ in 0..4 {
                orderer.on_cutoff(board, winner, &tried, 20, &root_ctx());
            }
        }
        assert!(orderer.captures.iter().any(|&v| v > 8000));
        assert!(orderer.captures.iter().any(|&v| v < -8000));
        let proof = orderer.see_proof_scores();
        let mut proven = 0;
        for board in &boards {
            let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
            for (&mv, &score) in moves.iter().zip(&scores_of(&orderer, board, &moves)) {
                if capture_proved_safe(&proof, mv, score) {
                    assert!(see(board, mv) >= 0, "{} {mv:?}", board.to_fen());
                    proven += 1;
                }
            }
        }
        assert!(proven > 1000, "{proven}");
    }
}
