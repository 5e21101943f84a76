#![warn(missing_docs)]
//! Kestrel's search, after Eli David's Falcon: iterative deepening with aspiration windows,
//! NegaScout/PVS, quiescence with SEE, a lock-free transposition table shared by Lazy SMP
//! threads, adaptive and verified null-move pruning, multi-cut, futility pruning and razoring,
//! late-move reductions, reverse futility, internal iterative deepening, selective extensions
//! in quarter plies (plus a singular extension of the hash move), mate-distance pruning and
//! blockage detection in pawn endings. Every heuristic has a switch and its knobs in
//! [`SEARCH_TABLE`]; Falcon's 18 GA-tuned parameters ([`FALCON_SET`]) form a 70-bit chromosome.
//!
//! Layout: [`Searcher`] (settings, threads) runs iterative deepening (`deepening.rs`) on each
//! thread's `Worker` (`worker.rs`); each iteration searches the root with aspiration windows
//! (`root.rs`), and every node is alpha-beta as a list of steps (`node.rs`): early exits and
//! the hash table, pruning before the moves (`pruning.rs`), the move loop (`move_loop.rs`)
//! with extensions and reductions (`reductions.rs`), then quiescence (`qsearch.rs`). Limits
//! and units (`MAX_PLY`, `ONE_PLY`, `MATE`) live in `types.rs`.
//!
//! Control flags: `Searcher::search` does **not** reset its [`SearchControl`]; call
//! `control().reset()` before starting each search (a `stop` sent before the search starts is
//! thus never lost; such a search finishes depth 1 and returns a legal move).

pub mod ablation;
pub mod bench;
mod blockage;
pub mod chessmaps;
mod correction;
mod deepening;
mod engine_params;
mod large_pages;
mod limits;
mod move_loop;
mod node;
pub mod ordering;
mod params;
mod picker;
mod pruning;
mod qsearch;
mod reductions;
mod root;
mod searcher;
pub mod see;
pub mod time;
pub mod tt;
mod types;
pub mod wdl;
mod worker;

pub use blockage::is_blocked_pawn_ending;
pub use engine_params::{ENGINE_TABLES, EngineParams};
pub use limits::SearchLimits;
pub use ordering::{HeuristicOrderer, MoveOrderer, OrderContext, OrdererFactory, TriedMoves};
pub use params::{FALCON_SET, NotSearchTable, SEARCH_TABLE, SWITCHES, SearchParams, names};
pub use searcher::{EngineConfig, SearchControl, Searcher};
pub use types::{
    Bound, INFINITY, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, ONE_PLY, Score, SearchInfo, SearchResult,
};
