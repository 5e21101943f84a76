//! The integration tests of the search, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod bound_reports;
mod chessmaps_orderings;
mod control_and_determinism;
mod legality_and_params;
mod mates_and_draws;
mod network;
