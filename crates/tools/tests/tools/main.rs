//! The integration tests of the match and engine tools, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod arena_epd;
mod arena_games;
mod arena_tournament;
mod arena_uci_faults;
mod engine_pool;
mod pentanomial;
