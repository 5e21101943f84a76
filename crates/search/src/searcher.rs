//! The searcher: engine settings, the shared hash table and Lazy SMP threads (each thread a
//! [`Worker`] running the iterative deepening of [`crate::deepening`]).

use crate::correction::CorrectionHistory;
use crate::deepening::{helper_loop, main_loop};
use crate::ordering::{MoveOrderer, OrdererFactory, heuristic_orderer};
use crate::params::{NotSearchTable, SEARCH_TABLE, SearchParams};
use crate::time::{Clock, TimePlan};
use crate::tt::TranspositionTable;
use crate::types::{MATE, MAX_DEPTH};
use crate::worker::{Shared, ThreadTables, Worker};
use crate::{Score, SearchInfo, SearchLimits, SearchResult};
use kestrel_chess::{Board, Move};
use kestrel_eval::{CacheStats, EvalCache, Evaluator};
use kestrel_nnue::NetEval;
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
    /// Asks the running search to stop; it still returns its best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Whether `stop` was called since the last reset.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Signals `ponderhit`: a pondering search becomes timed, its budget counting from now.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }
    /// Whether `ponderhit` was called since the last reset.
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
    /// Hash table size in MB (default 16); also sizes the evaluation caches.
    pub hash_mb: usize,
    /// Lazy SMP search threads (default 1, at least 1).
    pub threads: usize,
    /// Principal variations reported per iteration (default 1, at least 1).
    pub multipv: usize,
    /// Time kept back from every timed move for process and pipe lag (default 30 ms).
    pub move_overhead: Duration,
    /// The linear (hand-crafted) evaluation, used unless `network` is set.
    pub evaluator: Evaluator,
    /// The network the search evaluates with instead of `evaluator` (`None`: the linear
    /// evaluation, the default).
    pub network: Option<Arc<NetEval>>,
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
            network: None,
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
    /// One evaluation cache per thread, sized from the hash table ([`EvalCache::for_hash_mb`]).
    caches: Vec<EvalCache>,
    /// One correction history per thread, fresh with the orderers (a new game).
    corrections: Vec<CorrectionHistory>,
}

impl Searcher {
    /// A searcher with `config`.
    ///
    /// # Panics
    /// When `config.search_params` holds values of another table than [`SEARCH_TABLE`] (a
    /// programming error: params files and UCI options always yield search-table values).
    /// [`Searcher::try_new`] returns that as an error instead.
    pub fn new(config: EngineConfig) -> Searcher {
        Searcher::try_new(config).unwrap_or_else(|e| panic!("EngineConfig: {e}"))
    }

    /// A searcher with `config`, or an error when `config.search_params` are not values of
    /// [`SEARCH_TABLE`].
    pub fn try_new(config: EngineConfig) -> Result<Searcher, NotSearchTable> {
        let params = SearchParams::from_values(&config.search_params)?;
        let mut s = Searcher {
            tt: TranspositionTable::new(config.hash_mb),
            params,
            control: Arc::new(SearchControl::default()),
            orderer_factory: heuristic_orderer,
            orderers: Vec::new(),
            caches: Vec::new(),
            corrections: Vec::new(),
            config,
        };
        s.config.threads = s.config.threads.max(1);
        s.config.multipv = s.config.multipv.max(1);
        s.rebuild_orderers();
        Ok(s)
    }

    fn rebuild_orderers(&mut self) {
        self.orderers = (0..self.config.threads)
            .map(|_| (self.orderer_factory)(&self.params))
            .collect();
        self.corrections = (0..self.config.threads)
            .map(|_| CorrectionHistory::new())
            .collect();
        self.add_caches();
    }

    /// One cache per thread. Cached evaluations are exact, so caches survive a new game.
    fn add_caches(&mut self) {
        let hash_mb = self.config.hash_mb;
        self.caches
            .resize_with(self.config.threads, || EvalCache::for_hash_mb(hash_mb));
    }

    /// Probe and hit counts of the evaluation caches of every thread, summed.
    pub fn cache_stats(&self) -> CacheStats {
        self.caches
            .iter()
            .fold(CacheStats::default(), |acc, c| acc.merged(c.stats()))
    }

    /// The current settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Resizes (and so clears) the hash table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        if mb != self.config.hash_mb {
            self.config.hash_mb = mb;
            self.tt = TranspositionTable::new(mb);
            self.caches.clear();
            self.add_caches();
        }
    }

    /// Sets the number of search threads (at least 1); every thread gets a fresh orderer.
    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.max(1);
        self.rebuild_orderers();
    }

    /// Sets the number of principal variations to report (at least 1).
    pub fn set_multipv(&mut self, n: usize) {
        self.config.multipv = n.max(1);
    }

    /// Changes the evaluation; clears the hash table, whose entries hold old static evals.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.config.evaluator = evaluator;
        self.tt.clear();
    }

    /// Evaluates with `network` from now on (`None`: the linear evaluation); clears the hash
    /// table, whose entries hold old static evals.
    pub fn set_network(&mut self, network: Option<Arc<NetEval>>) {
        self.config.network = network;
        self.tt.clear();
    }

    /// Changes the search parameters (values of [`SEARCH_TABLE`]; values of another table are
    /// an error and change nothing); starts from a fresh state.
    pub fn set_search_params(&mut self, values: ParamValues) -> Result<(), NotSearchTable> {
        self.params = SearchParams::from_values(&values)?;
        self.config.search_params = values;
        self.new_game();
        Ok(())
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
        let (allowed, root_count) = root_moves(board, limits);
        if root_count == 0 {
            return no_move_result(board, start);
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
        let default_depth = limits
            .mate
            .map_or(MAX_DEPTH, |n| (2 * n.max(1) + 4).min(MAX_DEPTH));
        let max_depth = limits.depth.unwrap_or(default_depth).clamp(1, MAX_DEPTH);
        let params = self.params;
        let evaluator = &self.config.evaluator;
        let network = &self.config.network;
        let overhead = self.config.move_overhead;
        let (main_orderer, helper_orderers) = self
            .orderers
            .split_first_mut()
            .expect("at least one orderer");
        let (main_cache, helper_caches) = self
            .caches
            .split_first_mut()
            .expect("one cache per orderer");
        let (main_correction, helper_corrections) = self
            .corrections
            .split_first_mut()
            .expect("one correction history per orderer");

        let mut result = std::thread::scope(|scope| {
            let helpers = helper_orderers
                .iter_mut()
                .zip(helper_caches.iter_mut())
                .zip(helper_corrections.iter_mut());
            for (i, ((orderer, cache), correction)) in helpers.enumerate() {
                let shared = &shared;
                let board = board.clone();
                let evaluator = evaluator.clone();
                let allowed = allowed.clone();
                let network = network.clone();
                scope.spawn(move || {
                    let mut w = Worker::new(
                        board,
                        params,
                        evaluator,
                        ThreadTables {
                            orderer: orderer.as_mut(),
                            cache,
                            correction,
                        },
                        shared,
                        i + 1,
                        node_limit,
                    );
                    w.root_allowed = allowed;
                    w.set_network(network);
                    helper_loop(&mut w, i + 1, max_depth);
                });
            }
            let mut w = Worker::new(
                board.clone(),
                params,
                evaluator.clone(),
                ThreadTables {
                    orderer: main_orderer.as_mut(),
                    cache: main_cache,
                    correction: main_correction,
                },
                &shared,
                0,
                node_limit,
            );
            w.root_allowed = allowed.clone();
            w.set_network(network.clone());
            let plan = TimePlan::of(&params);
            let clock = Clock::starting_at(start, limits, board.side_to_move(), overhead, &plan);
            let clock = if params.use_time_stability {
                clock.with_stability(root_count)
            } else {
                clock
            };
            w.clock = Some(if params.use_tm_node_share {
                clock.with_node_share()
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

/// The root moves `searchmoves` restricts the search to (empty: every legal move) and how
/// many root moves there are.
fn root_moves(board: &Board, limits: &SearchLimits) -> (Vec<Move>, usize) {
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
    let count = if allowed.is_empty() {
        legal.len()
    } else {
        allowed.len()
    };
    (allowed, count)
}

/// The result when the side to move has no move: mated, or stalemate.
fn no_move_result(board: &Board, start: Instant) -> SearchResult {
    let score_internal = if board.in_check() { -MATE } else { 0 };
    SearchResult {
        best_move: None,
        ponder_move: None,
        score: Score::from_internal(score_internal),
        score_internal,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: start.elapsed(),
        pv: vec![],
    }
}
