//! Quiet-move ordering by Chessmaps (and the random and combined baselines), as a
//! [`MoveOrderer`] wrapping the classic [`HeuristicOrderer`]: the hash move, captures,
//! killers and the counter move keep their places; only the remaining quiet moves, which the
//! classic orderer sorts by history, are scored by the chosen mode.

use super::network::{Network, active_network};
use super::sectors::{SECTOR_MASKS, SECTORS, sector_of};
use crate::ordering::{
    HeuristicOrderer, MoveOrderer, OrderContext, QUIET_HISTORY_BOUND, TriedMoves,
};
use crate::params::SearchParams;
use crate::types::MAX_PLY;
use kestrel_chess::attacks::{pawn_attacks, piece_attacks};
use kestrel_chess::{Bitboard, Board, Move, PieceKind};

/// How the quiet moves left after hash move, killers and counter move are ordered
/// (parameter `QUIET_ORDER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuietOrder {
    /// Butterfly and counter-move history (Kestrel's default).
    History,
    /// Chessmaps: the number and rank of the sectors a move influences.
    Chessmaps,
    /// History plus `CHESSMAPS_BOTH_WEIGHT` times the Chessmaps score.
    Both,
    /// A fixed pseudo-random order (a hash of position and move): the baseline.
    Random,
}

impl QuietOrder {
    /// From the parameter's value (0 history, 1 chessmaps, 2 both, 3 random).
    pub fn from_param(value: i32) -> QuietOrder {
        match value {
            1 => QuietOrder::Chessmaps,
            2 => QuietOrder::Both,
            3 => QuietOrder::Random,
            _ => QuietOrder::History,
        }
    }

    /// The mode's name.
    pub fn name(self) -> &'static str {
        match self {
            QuietOrder::History => "history",
            QuietOrder::Chessmaps => "chessmaps",
            QuietOrder::Both => "both",
            QuietOrder::Random => "random",
        }
    }
}

/// Chessmaps' blend of history and its own score is clamped to this (butterfly plus
/// counter-move history's range).
const HISTORY_BOUND: i32 = 2 * 16384;
/// Chessmaps and random scores sit above every history value and below the counter move, so
/// late-move reductions do not read them as history.
const QUIET_BASE: i32 = 1 << 20;
/// No sector killer stored at this ply.
const NO_SECTOR: u8 = u8::MAX;

/// The orderer for every `QUIET_ORDER` other than plain history, or for the sector killer.
pub struct ChessmapsOrderer {
    classic: HeuristicOrderer,
    mode: QuietOrder,
    use_sector_killer: bool,
    both_weight: i32,
    /// Nodes nearer the horizon keep the history order (no probe).
    min_depth: i32,
    network: &'static Network,
    /// Per ply, the sector of the last quiet move that caused a cut-off.
    killer_sector: Box<[u8; MAX_PLY + 2]>,
}

impl ChessmapsOrderer {
    /// An orderer for `params` using the active network.
    pub fn new(params: &SearchParams) -> ChessmapsOrderer {
        ChessmapsOrderer {
            classic: HeuristicOrderer::new(params),
            mode: QuietOrder::from_param(params.quiet_order),
            use_sector_killer: params.use_sector_killer,
            both_weight: params.chessmaps_both_weight,
            min_depth: params.chessmaps_min_depth,
            network: active_network(),
            killer_sector: Box::new([NO_SECTOR; MAX_PLY + 2]),
        }
    }

    /// Per real-board sector, the weight of influencing it: `SECTORS - rank`, the sector
    /// killer (if any) ranked first ahead of the network's order.
    fn sector_weights(&self, board: &Board, ply: usize) -> [i32; SECTORS] {
        let mut ranks = self.network.sector_ranks(board);
        let killer = self.killer_sector[ply.min(MAX_PLY)];
        if self.use_sector_killer && killer != NO_SECTOR {
            let old = ranks[killer as usize];
            for r in ranks.iter_mut() {
                if *r < old {
                    *r += 1;
                }
            }
            ranks[killer as usize] = 0;
        }
        ranks.map(|r| (SECTORS - r as usize) as i32)
    }

    /// Squares a quiet move influences: its destination and what the piece attacks from there.
    fn influence(board: &Board, mv: Move) -> Bitboard {
        let Some(piece) = board.piece_at(mv.from()) else {
            return mv.to().bb();
        };
        let occ = (board.occupied() ^ mv.from().bb()) | mv.to().bb();
        let attacks = match piece.kind {
            PieceKind::Pawn => pawn_attacks(piece.color, mv.to()),
            kind => piece_attacks(kind, mv.to(), occ),
        };
        attacks | mv.to().bb()
    }

    /// The Chessmaps score: the summed weights of the sectors the move influences.
    fn chessmaps_score(board: &Board, mv: Move, weights: &[i32; SECTORS]) -> i32 {
        let squares = Self::influence(board, mv);
        SECTOR_MASKS
            .iter()
            .zip(weights)
            .filter(|(mask, _)| (**mask & squares).any())
            .map(|(_, w)| w)
            .sum()
    }

    /// A deterministic pseudo-random score in [0, 65536) for `mv` in this position.
    fn random_score(board: &Board, mv: Move) -> i32 {
        let mut x = board.hash() ^ (mv.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 29;
        (x >> 48) as i32
    }
}

/// A quiet move the classic orderer ranked by history alone.
fn is_history_ranked(mv: Move, score: i32) -> bool {
    !mv.is_noisy() && score.abs() <= QUIET_HISTORY_BOUND
}

impl MoveOrderer for ChessmapsOrderer {
    fn score(&self, board: &Board, moves: &[Move], ctx: &OrderContext, scores: &mut [i32]) {
        self.classic.score(board, moves, ctx, scores);
        if self.mode == QuietOrder::History || ctx.depth < self.min_depth {
            return;
        }
        let any_quiet = moves
            .iter()
            .zip(scores.iter())
            .any(|(m, s)| is_history_ranked(*m, *s));
        if !any_quiet {
            return; // no probe at nodes without quiet moves to order
        }
        let weights = match self.mode {
            QuietOrder::Chessmaps | QuietOrder::Both => self.sector_weights(board, ctx.ply),
            _ => [0; SECTORS],
        };
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            if !is_history_ranked(*mv, *score) {
                continue;
            }
            *score = match self.mode {
                QuietOrder::Random => QUIET_BASE + Self::random_score(board, *mv),
                QuietOrder::Chessmaps => QUIET_BASE + Self::chessmaps_score(board, *mv, &weights),
                _ => (*score + self.both_weight * Self::chessmaps_score(board, *mv, &weights))
                    .clamp(-HISTORY_BOUND, HISTORY_BOUND),
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
        self.classic.on_cutoff(board, mv, tried, depth_plies, ctx);
        if self.use_sector_killer && mv.is_quiet() {
            self.killer_sector[ctx.ply.min(MAX_PLY)] = sector_of(mv.to()) as u8;
        }
    }

    fn killers(&self, ply: usize) -> [Move; 2] {
        self.classic.killers(ply)
    }

    /// Noisy moves keep the classic scores, so the classic orderer's proof holds.
    fn see_proof_scores(&self) -> std::ops::Range<i32> {
        self.classic.see_proof_scores()
    }

    fn clear(&mut self) {
        self.classic.clear();
        self.killer_sector.fill(NO_SECTOR);
    }
}

/// The orderer factory behind `QUIET_ORDER` / `USE_SECTOR_KILLER`.
pub fn chessmaps_orderer(params: &SearchParams) -> Box<dyn MoveOrderer> {
    Box::new(ChessmapsOrderer::new(params))
}
