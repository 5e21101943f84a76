//! The integration tests of the UCI engine, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod book_and_params;
mod chromosome_db;
#[path = "../common/mod.rs"]
mod common;
mod game_over;
mod network;
mod protocol;
mod robustness;
mod variants_and_strength;
