//! The searcher (skeleton: plain alpha-beta with iterative deepening).

use crate::{Bound, MATE, Score, SearchInfo, SearchLimits, SearchResult};
use kestrel_chess::Board;
use kestrel_eval::Evaluator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Shared flags that let another thread stop a search or convert pondering into a timed search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    ponderhit: AtomicBool,
}

impl SearchControl {
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }
    pub fn is_ponderhit(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
    /// Clears both flags before a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.ponderhit.store(false, Ordering::Relaxed);
    }
}

/// Engine settings (UCI options that matter to search).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub evaluator: Evaluator,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            evaluator: Evaluator::default(),
        }
    }
}

pub struct Searcher {
    config: EngineConfig,
    control: Arc<SearchControl>,
    nodes: u64,
}

impl Searcher {
    pub fn new(config: EngineConfig) -> Searcher {
        Searcher {
            config,
            control: Arc::new(SearchControl::default()),
            nodes: 0,
        }
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.config.hash_mb = mb;
    }

    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.max(1);
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.config.multipv = n.max(1);
    }

    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.config.evaluator = evaluator;
    }

    /// Forgets everything learned (hash table, histories): call on `ucinewgame`.
    pub fn new_game(&mut self) {}

    /// Handle for `stop`/`ponderhit` from another thread.
    pub fn control(&self) -> Arc<SearchControl> {
        self.control.clone()
    }

    pub fn search(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.nodes = 0;
        let mut board = board.clone();
        let mut best = SearchResult {
            best_move: board.legal_moves().iter().next().copied(),
            ponder_move: None,
            score: Score::Cp(0),
            score_internal: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![],
        };
        let max_depth = limits.depth.unwrap_or(4).min(64);
        for depth in 1..=max_depth {
            let mut best_move = None;
            let mut alpha = -MATE;
            for &mv in board.legal_moves().iter() {
                board.make_move(mv);
                let score = -self.alphabeta(&mut board, depth - 1, -MATE, -alpha, 1);
                board.unmake_move();
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                }
            }
            if self.control.is_stopped() {
                break;
            }
            best.best_move = best_move.or(best.best_move);
            best.score_internal = alpha;
            best.score = Score::from_internal(alpha);
            best.depth = depth;
            best.pv = best_move.into_iter().collect();
            on_info(&SearchInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score: best.score,
                bound: Bound::Exact,
                nodes: self.nodes,
                nps: 0,
                hashfull: 0,
                time: start.elapsed(),
                pv: best.pv.clone(),
            });
        }
        best.nodes = self.nodes;
        best.time = start.elapsed();
        best
    }

    fn alphabeta(
        &mut self,
        board: &mut Board,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if depth <= 0 {
            return self.config.evaluator.evaluate(board);
        }
        let moves = board.legal_moves();
        if moves.is_empty() {
            return if board.in_check() { -MATE + ply } else { 0 };
        }
        for &mv in moves.iter() {
            board.make_move(mv);
            let score = -self.alphabeta(board, depth - 1, -beta, -alpha, ply + 1);
            board.unmake_move();
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }
}
