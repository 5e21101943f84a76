//! Quiescence search: beyond the horizon only captures and queen promotions (every evasion
//! in check, and quiet checks at its first ply) are searched, so the static evaluation is
//! only trusted in quiet positions. Stand pat, SEE and delta pruning keep it small.

use crate::picker::MovePicker;
use crate::see::{capture_gain, see_below, value};
use crate::types::{Bound, INFINITY, MATE, MAX_PLY};
use crate::worker::Worker;
use kestrel_chess::{GenKind, Move, MoveList, PieceKind};

impl Worker<'_> {
    /// Captures and promotions (all evasions when in check), stand pat, SEE and delta pruning.
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qs_depth: i32) -> i32 {
        // Fruit and Toga II do without (8% more nodes per second), but here that lost
        // 16.5 +- 22.0 Elo at 5+0.05 (docs/speed.md): the switch stays on.
        let use_tt = self.params.use_tt && self.params.use_qs_tt;
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
            && e.cuts_off(alpha, beta)
        {
            return e.score;
        }
        let hash_move = entry
            .and_then(|e| e.mv)
            .filter(|&m| (in_check || m.is_noisy()) && self.board.is_legal(m));

        // Stand pat: out of check, the side to move can decline every capture.
        // The hash table keeps the evaluation's own score; stand pat reads it corrected.
        let (static_eval, raw_eval);
        let mut best_score;
        if in_check {
            (static_eval, raw_eval) = (-INFINITY, 0);
            best_score = -MATE + ply as i32;
        } else {
            raw_eval = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            static_eval = self.corrected(raw_eval);
            best_score = static_eval;
            if best_score >= beta {
                // A leaf cut by stand pat keeps its evaluation (a lower bound at draft 0): a
                // later visit reads it instead of evaluating again.
                if use_tt && entry.is_none() {
                    self.shared
                        .tt
                        .store(key, None, best_score, raw_eval, 0, Bound::Lower, ply);
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let original_alpha = alpha;

        // Out of check the hash move is staged: noisy scores depend on the board alone, so
        // the order is the same and a hash move that cuts off saves the generation.
        let mut picker = MovePicker::empty();
        match hash_move {
            Some(mv) if !in_check => {
                // The filled moves' buckets are prefetched by the fill; this one is not filled.
                if use_tt {
                    self.shared.tt.prefetch(self.board.key_after(mv));
                }
                picker.stage(mv);
            }
            _ => self.fill_qs_picker(&mut picker, in_check, qs_depth, hash_move, ply),
        }
        let mut best_move = None;
        while let Some((mv, order_score)) = picker.next_staged(|p| {
            self.fill_qs_picker(p, in_check, qs_depth, hash_move, ply);
        }) {
            if !in_check && self.qs_skips(mv, order_score, static_eval, alpha) {
                continue;
            }
            self.prefetch_child_eval(mv);
            self.make(mv);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qs_depth + 1);
            self.unmake();
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
            self.shared
                .tt
                .store(key, best_move, best_score, raw_eval, 0, bound, ply);
        }
        best_score
    }

    /// Fills `picker` with [`Worker::qs_moves`], ordered.
    fn fill_qs_picker(
        &self,
        picker: &mut MovePicker,
        in_check: bool,
        qs_depth: i32,
        hash_move: Option<Move>,
        ply: usize,
    ) {
        let fill = |moves: &mut MoveList| {
            self.qs_moves(in_check, qs_depth, moves);
            // Quiescence probes a child's bucket right after making the move, too soon for a
            // prefetch in the loop; asking for every child's bucket now hides more of it.
            if self.params.use_tt && self.params.use_qs_tt {
                for &mv in moves.iter() {
                    self.shared.tt.prefetch(self.board.key_after(mv));
                }
            }
        };
        self.fill_picker_with(picker, fill, hash_move, ply, 0);
    }

    /// The moves quiescence looks at: every evasion in check; else captures and promotions,
    /// plus quiet checks (not castling) at its first ply.
    fn qs_moves(&self, in_check: bool, qs_depth: i32, moves: &mut MoveList) {
        let kind = if in_check {
            GenKind::All
        } else {
            GenKind::Noisy
        };
        self.board.generate(kind, moves);
        if !in_check && self.params.use_qs_checks && qs_depth == 0 {
            self.board.generate_quiet_checks(moves);
        }
    }

    /// Out of check: a quiet check that hangs the checker, an under-promotion, a capture that
    /// cannot reach alpha even with the delta margin (delta pruning), or one that loses
    /// material by SEE is not worth searching.
    fn qs_skips(&self, mv: Move, order_score: i32, static_eval: i32, alpha: i32) -> bool {
        let p = &self.params;
        if mv.is_quiet() {
            return p.use_qs_see && see_below(&self.board, mv, 0);
        }
        if mv.promotion_kind().is_some_and(|k| k != PieceKind::Queen) {
            return true;
        }
        let gain = capture_gain(&self.board, mv);
        if p.use_qs_delta
            && mv.promotion_kind().is_none()
            && static_eval + gain + p.qs_delta_margin <= alpha
        {
            return true;
        }
        let mover = self
            .board
            .piece_at(mv.from())
            .map_or(0, |pc| value(pc.kind));
        // The margin is never negative, so a move the ordering proved SEE >= 0 is kept unasked.
        p.use_qs_see
            && mover > gain
            && !self.proved_see_safe(mv, order_score)
            && see_below(&self.board, mv, -p.qs_see_margin)
    }
}
