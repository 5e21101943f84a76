//! How deep each move is searched: selective extensions in quarter plies (Falcon's five plus
//! the singular one) and late-move reductions.

use crate::ordering::QUIET_HISTORY_BOUND;
use crate::params::SearchParams;
use crate::types::ONE_PLY;
use crate::worker::Worker;
use kestrel_chess::{Color, Move, PieceKind};

/// Late-move reductions by depth and move number (both capped at 63), quarter plies:
/// `LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR` plies.
pub(crate) struct LmrTable(Box<[[i32; 64]; 64]>);

impl LmrTable {
    pub(crate) fn new(params: &SearchParams) -> LmrTable {
        let mut table = Box::new([[0; 64]; 64]);
        let base = params.lmr_base as f64 / 100.0;
        let div = params.lmr_divisor as f64 / 100.0;
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let plies = base + (d as f64).ln() * (m as f64).ln() / div;
                *r = (plies * ONE_PLY as f64) as i32;
            }
        }
        LmrTable(table)
    }

    #[inline]
    fn get(&self, plies: i32, move_count: i32) -> i32 {
        self.0[(plies as usize).min(63)][move_count.min(63) as usize]
    }
}

/// Facts about a move the extensions need from the position before it is made.
#[derive(Clone, Copy)]
pub(crate) struct ExtensionFacts {
    /// A capture on the square where the opponent just captured.
    pub recapture: bool,
    /// A pawn arriving on the 7th rank.
    pub pawn_to_7th: bool,
}

/// What the move loop knows about the node when it reduces a late move.
pub(crate) struct ReductionContext {
    /// Depth of the node, plies.
    pub plies: i32,
    /// Moves searched before this one.
    pub move_count: i32,
    pub pv_node: bool,
    pub cut_node: bool,
    pub improving: bool,
    /// The move's ordering score (its history, for quiet moves).
    pub order_score: i32,
    /// The child's depth before the reduction, quarter plies.
    pub new_depth: i32,
}

impl Worker<'_> {
    /// See [`ExtensionFacts`].
    pub(crate) fn extension_facts(&self, mv: Move) -> ExtensionFacts {
        let recapture = mv.is_capture()
            && self.board.last_captured().is_some()
            && self.board.last_move().is_some_and(|m| m.to() == mv.to());
        let us = self.board.side_to_move();
        let pawn_to_7th = self
            .board
            .piece_at(mv.from())
            .is_some_and(|pc| pc.kind == PieceKind::Pawn)
            && mv.to().relative_rank(us) == 6;
        ExtensionFacts {
            recapture,
            pawn_to_7th,
        }
    }

    /// A pawn push to the 6th or 7th rank by a passed pawn (no enemy pawn ahead on its own or
    /// an adjacent file): such pushes decide races, so they are never reduced or pruned.
    pub(crate) fn is_passer_push(&self, mv: Move) -> bool {
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
            Color::White => r as i32 > rank,
            Color::Black => (r as i32) < rank,
        };
        self.board
            .pieces(them, PieceKind::Pawn)
            .all(|sq| (sq.file() as i32 - to.file() as i32).abs() > 1 || !ahead(sq.rank()))
    }

    /// Quarter plies of extension for a move, capped per move (`EXT_MOVE_CAP`) and by the
    /// total allowed along the path (`EXT_TOTAL_CAP`); none beyond `EXT_PLY_LIMIT` times the
    /// iteration depth, so extensions cannot make the tree explode.
    pub(crate) fn extension(
        &self,
        gives_check: bool,
        only_reply: bool,
        facts: ExtensionFacts,
        singular: bool,
        ply: usize,
    ) -> i32 {
        let p = &self.params;
        if !p.use_extensions || ply as i32 >= p.ext_ply_limit * self.root_depth {
            return 0;
        }
        let ext = p.ext_check * gives_check as i32
            + p.ext_one_reply * only_reply as i32
            + p.ext_recapture * facts.recapture as i32
            + p.ext_passed_pawn * facts.pawn_to_7th as i32
            + ONE_PLY * singular as i32;
        ext.min(p.ext_move_cap)
            .min(p.ext_total_cap - self.stack[ply].extended)
            .max(0)
    }

    /// The mate-threat extension of a node (quarter plies) once the null move showed that
    /// passing loses to a mate: the node is dangerous, so it is searched deeper.
    pub(crate) fn mate_threat_extension(&self, ply: usize) -> i32 {
        let p = &self.params;
        p.ext_mate_threat
            .min(p.ext_total_cap - self.stack[ply].extended)
            .max(0)
    }

    /// Late-move reduction (quarter plies) of a quiet move the caller found reducible: more
    /// the deeper and the later the move, less at PV nodes and for moves with good history,
    /// more at expected cut nodes and when the position is not improving. Never below the
    /// quiescence horizon.
    pub(crate) fn late_move_reduction(&self, rc: &ReductionContext) -> i32 {
        let p = &self.params;
        let mut r = self.lmr.get(rc.plies, rc.move_count);
        if rc.pv_node {
            r -= p.lmr_pv_node;
        }
        if rc.cut_node {
            r += p.lmr_cut_node;
        }
        if !rc.improving {
            r += p.lmr_not_improving;
        }
        // Quiet moves are ordered by history: reduce good ones less.
        if p.lmr_history_div > 0 && rc.order_score.abs() <= QUIET_HISTORY_BOUND {
            r -= rc.order_score / p.lmr_history_div;
        }
        r.min(rc.new_depth - ONE_PLY).max(0)
    }
}
