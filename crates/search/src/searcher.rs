//! The searcher: engine settings, the shared hash table, Lazy SMP threads, MultiPV and the
//! `info` reports.

use crate::ordering::{MoveOrderer, OrdererFactory, heuristic_orderer};
use crate::params::{SEARCH_TABLE, SearchParams};
use crate::time::Clock;
use crate::tt::TranspositionTable;
use crate::worker::{RootLine, Shared, Worker};
use crate::{Bound, MATE, MATE_BOUND, Score, SearchInfo, SearchLimits, SearchResult};
use kestrel_chess::{Board, Move};
use kestrel_eval::Evaluator;
use kestrel_params::ParamValues;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Shared flags that let another thread stop a search or convert pondering into a timed search.
///
/// `search` never clears these flags: a `stop` that arrives before the search thread starts
/// is honoured (the search then completes depth 1 only, so it still returns a legal move).
/// Callers call [`SearchControl::reset`] before starting each search.
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
    /// Clears both flags before a new search (the caller's job; `search` does not do it).
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
    /// Values of [`SEARCH_TABLE`] (Falcon's defaults unless set).
    pub search_params: ParamValues,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            evaluator: Evaluator::default(),
            search_params: ParamValues::defaults(&SEARCH_TABLE),
        }
    }
}

/// The search engine. With one thread and a depth or node limit, a search from a fresh state
/// (`new` or `new_game`) is deterministic.
pub struct Searcher {
    config: EngineConfig,
    params: SearchParams,
    control: Arc<SearchControl>,
    tt: TranspositionTable,
    orderer_factory: OrdererFactory,
    orderers: Vec<Box<dyn MoveOrderer>>,
}

impl Searcher {
    pub fn new(config: EngineConfig) -> Searcher {
        let params = SearchParams::from_values(&config.search_params);
        let mut s = Searcher {
            tt: TranspositionTable::new(config.hash_mb),
            params,
            control: Arc::new(SearchControl::default()),
            orderer_factory: heuristic_orderer,
            orderers: Vec::new(),
            config,
        };
        s.config.threads = s.config.threads.max(1);
        s.config.multipv = s.config.multipv.max(1);
        s.rebuild_orderers();
        s
    }

    fn rebuild_orderers(&mut self) {
        self.orderers = (0..self.config.threads)
            .map(|_| (self.orderer_factory)(&self.params))
            .collect();
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Resizes (and so clears) the hash table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        if mb != self.config.hash_mb {
            self.config.hash_mb = mb;
            self.tt = TranspositionTable::new(mb);
        }
    }

    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.max(1);
        self.rebuild_orderers();
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.config.multipv = n.max(1);
    }

    /// Changes the evaluation; clears the hash table, whose entries hold old static evals.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.config.evaluator = evaluator;
        self.tt.clear();
    }

    /// Changes the search parameters (values of [`SEARCH_TABLE`]); starts from a fresh state.
    pub fn set_search_params(&mut self, values: ParamValues) {
        self.params = SearchParams::from_values(&values);
        self.config.search_params = values;
        self.new_game();
    }

    /// The search parameters in effect.
    pub fn search_params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces the move-ordering component (e.g. a learned ordering); starts fresh.
    pub fn set_orderer_factory(&mut self, factory: OrdererFactory) {
        self.orderer_factory = factory;
        self.new_game();
    }

    /// Forgets everything learned (hash table, histories): call on `ucinewgame`.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.rebuild_orderers();
    }

    /// Handle for `stop`/`ponderhit` from another thread.
    pub fn control(&self) -> Arc<SearchControl> {
        self.control.clone()
    }

    /// Permille of the hash table filled by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `board` under `limits`, reporting each completed iteration (and MultiPV line)
    /// to `on_info`. Does not reset the control flags (see [`SearchControl`]). An `infinite`
    /// search, or a `ponder` search before `ponderhit`, that finishes early waits for `stop`
    /// (or `ponderhit`) before returning, as UCI requires.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = board.legal_moves();
        let mut allowed: Vec<Move> = limits
            .searchmoves
            .iter()
            .copied()
            .filter(|m| legal.contains(*m))
            .collect();
        if allowed.len() == legal.len() {
            allowed.clear();
        }
        let root_count = if allowed.is_empty() {
            legal.len()
        } else {
            allowed.len()
        };
        if root_count == 0 {
            let score_internal = if board.in_check() { -MATE } else { 0 };
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::from_internal(score_internal),
                score_internal,
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: vec![],
            };
        }

        self.tt.new_search();
        let threads = self.config.threads.max(1);
        if self.orderers.len() != threads {
            self.rebuild_orderers();
        }
        let multipv = self.config.multipv.clamp(1, root_count);
        let abort = AtomicBool::new(false);
        let nodes: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            abort: &abort,
            nodes: &nodes,
        };
        let node_limit = limits.nodes.map(|n| (n / threads as u64).max(1));
        // `go mate n` alone would search forever when there is no mate: stop a little past
        // the mate's depth.
        let default_depth = limits.mate.map_or(crate::worker::MAX_PLY as i32 - 8, |n| {
            (2 * n.max(1) + 4).min(crate::worker::MAX_PLY as i32 - 8)
        });
        let max_depth = limits
            .depth
            .unwrap_or(default_depth)
            .clamp(1, crate::worker::MAX_PLY as i32 - 8);
        let params = self.params;
        let evaluator = &self.config.evaluator;
        let overhead = self.config.move_overhead;
        let (main_orderer, helper_orderers) = self
            .orderers
            .split_first_mut()
            .expect("at least one orderer");

        let mut result = std::thread::scope(|scope| {
            for (i, orderer) in helper_orderers.iter_mut().enumerate() {
                let shared = &shared;
                let board = board.clone();
                let evaluator = evaluator.clone();
                let allowed = allowed.clone();
                scope.spawn(move || {
                    let mut w = Worker::new(
                        board,
                        params,
                        evaluator,
                        orderer.as_mut(),
                        shared,
                        i + 1,
                        node_limit,
                    );
                    w.root_allowed = allowed;
                    let mut prev = None;
                    // Helpers start one ply deeper every other thread to diversify.
                    for depth in (1 + (i as i32 + 1) % 2)..=max_depth {
                        match w.search_root(depth, prev, &mut |_, _, _| {}) {
                            Some(line) => prev = Some(line.score),
                            None => break,
                        }
                        w.poll();
                        if w.stopped {
                            break;
                        }
                    }
                    w.publish_nodes();
                });
            }
            let mut w = Worker::new(
                board.clone(),
                params,
                evaluator.clone(),
                main_orderer.as_mut(),
                &shared,
                0,
                node_limit,
            );
            w.root_allowed = allowed.clone();
            let clock = Clock::starting_at(start, limits, board.side_to_move(), overhead);
            w.clock = Some(if params.use_time_stability {
                clock.with_stability(root_count)
            } else {
                clock
            });
            let result = main_loop(&mut w, limits, max_depth, multipv, start, on_info);
            w.publish_nodes();
            abort.store(true, Ordering::Relaxed);
            result
        });
        result.nodes = nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum();
        result.time = start.elapsed();
        result
    }
}

/// Iterative deepening on the main thread; returns the last complete iteration's result.
fn main_loop(
    w: &mut Worker,
    limits: &SearchLimits,
    max_depth: i32,
    multipv: usize,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut result = SearchResult {
        best_move: None,
        ponder_move: None,
        score: Score::Cp(0),
        score_internal: 0,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: vec![],
    };
    let mut prev_scores: Vec<Option<i32>> = vec![None; multipv];
    'deepening: for depth in 1..=max_depth {
        w.seldepth = 0;
        w.root_excluded.clear();
        let mut lines: Vec<RootLine> = Vec::with_capacity(multipv);
        for (k, prev) in prev_scores.iter_mut().enumerate() {
            // Aspiration failures of the best line: `lowerbound`/`upperbound` reports.
            let last_pv = result.pv.clone();
            // The score of a fail low that is still the last word on this iteration.
            let mut fail_low = None;
            let mut on_fail = |w: &Worker, score: i32, bound: Bound| {
                if k > 0 {
                    return;
                }
                fail_low = (bound == Bound::Upper).then_some(score);
                let pv = match bound {
                    Bound::Lower if !w.root_pv().is_empty() => w.root_pv().to_vec(),
                    _ => last_pv.clone(),
                };
                on_info(&progress(w, depth, start.elapsed(), 1, score, bound, pv));
            };
            let searched = w.search_root(depth, *prev, &mut on_fail);
            let Some(line) = searched else {
                if k == 0 && multipv == 1 {
                    if let Some(line) = w.unfinished_line() {
                        adopt_unfinished(w, line, &mut result, depth, start, on_info);
                    } else if let Some(score) = fail_low {
                        // Stopped while re-searching a fail low: the move stays, but its
                        // score is the deeper bound last reported, as the GUI shows it.
                        result.score_internal = score;
                        result.score = Score::from_internal(score);
                    }
                }
                break 'deepening;
            };
            if line.pv.is_empty() {
                break;
            }
            *prev = Some(line.score);
            w.root_excluded.push(line.pv[0]);
            lines.push(line);
        }
        if lines.is_empty() {
            break;
        }
        // MultiPV lines come out in search order; report them best first.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        w.enable_stop();
        let elapsed = start.elapsed();
        for (k, line) in lines.iter().enumerate() {
            let info = progress(
                w,
                depth,
                elapsed,
                k + 1,
                line.score,
                Bound::Exact,
                line.pv.clone(),
            );
            on_info(&info);
        }
        let best = &lines[0];
        take_line(&mut result, best.score, best.pv.clone());
        result.depth = depth;
        result.seldepth = w.seldepth as i32;

        if let Some(n) = limits.mate
            && best.score >= MATE_BOUND
            && MATE - best.score <= 2 * n
        {
            break;
        }
        w.poll();
        if w.stopped {
            break;
        }
        if let Some(clock) = &mut w.clock {
            clock.iteration_done(best.pv[0], best.score);
            if clock.soft_expired() {
                break;
            }
        }
    }
    // UCI: never answer an infinite search, or a ponder search before ponderhit, unasked.
    let control = w.shared_control();
    if let Some(clock) = &mut w.clock {
        while (limits.infinite || clock.is_pondering()) && !control.is_stopped() {
            if control.is_ponderhit() {
                clock.ponderhit();
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    if result.best_move.is_none() {
        // Depth 1 always completes unless the root has no legal move (handled by the caller).
        result.best_move = w.board.legal_moves().iter().next().copied();
    }
    result
}

/// A search stopped inside an iteration whose root already has a fully searched move
/// scoring above alpha: that deeper result replaces the last complete iteration's (it is
/// the previous best move re-searched deeper, or a move that beat it). Reported as a
/// `lowerbound`, since the root's remaining moves were not searched.
fn adopt_unfinished(
    w: &Worker,
    line: RootLine,
    result: &mut SearchResult,
    depth: i32,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) {
    let RootLine { score, pv } = line;
    on_info(&progress(
        w,
        depth,
        start.elapsed(),
        1,
        score,
        Bound::Lower,
        pv.clone(),
    ));
    take_line(result, score, pv);
}

/// Makes `pv` (non-empty) with `score` the search's answer.
fn take_line(result: &mut SearchResult, score: i32, pv: Vec<Move>) {
    result.best_move = Some(pv[0]);
    result.ponder_move = pv.get(1).copied();
    result.score_internal = score;
    result.score = Score::from_internal(score);
    result.pv = pv;
}

/// One `info` report: the line's score and PV plus the worker's counters.
fn progress(
    w: &Worker,
    depth: i32,
    elapsed: Duration,
    multipv: usize,
    score: i32,
    bound: Bound,
    pv: Vec<Move>,
) -> SearchInfo {
    let nodes = w.total_nodes();
    SearchInfo {
        depth,
        seldepth: w.seldepth as i32,
        multipv,
        score: Score::from_internal(score),
        bound,
        nodes,
        nps: nps(nodes, elapsed),
        hashfull: w.shared_tt_hashfull(),
        time: elapsed,
        pv,
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64
}
