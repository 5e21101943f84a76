//! Kestrel's search (skeleton API; the Falcon search replaces the internals).

mod limits;
mod searcher;
mod types;

pub use limits::SearchLimits;
pub use searcher::{EngineConfig, SearchControl, Searcher};
pub use types::{Bound, MATE, MATE_BOUND, Score, SearchInfo, SearchResult};
