//! Kestrel's search, after Eli David's Falcon: iterative deepening with aspiration windows,
//! NegaScout/PVS, quiescence with SEE, a lock-free transposition table shared by Lazy SMP
//! threads, adaptive and verified null-move pruning, multi-cut, futility pruning and razoring,
//! late-move reductions, reverse futility, internal iterative deepening, selective extensions
//! in quarter plies (plus a singular extension of the hash move), mate-distance pruning and
//! blockage detection in pawn endings. Every heuristic has a switch and its knobs in
//! [`SEARCH_TABLE`]; Falcon's 18 GA-tuned parameters ([`FALCON_SET`]) form a 70-bit chromosome.
//!
//! Control flags: `Searcher::search` does **not** reset its [`SearchControl`]; call
//! `control().reset()` before starting each search (a `stop` sent before the search starts is
//! thus never lost; such a search finishes depth 1 and returns a legal move).

pub mod ablation;
pub mod bench;
mod blockage;
mod checks;
pub mod chessmaps;
mod limits;
pub mod ordering;
mod params;
mod searcher;
pub mod see;
pub mod time;
pub mod tt;
mod types;
mod worker;

pub use blockage::is_blocked_pawn_ending;
pub use limits::SearchLimits;
pub use ordering::{HeuristicOrderer, MoveOrderer, OrderContext, OrdererFactory};
pub use params::{FALCON_SET, ONE_PLY, SEARCH_TABLE, SWITCHES, SearchParams};
pub use searcher::{EngineConfig, SearchControl, Searcher};
pub use types::{Bound, MATE, MATE_BOUND, Score, SearchInfo, SearchResult};
pub use worker::MAX_PLY;
