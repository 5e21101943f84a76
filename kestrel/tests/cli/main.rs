//! The integration tests of the `kestrel` command, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod arena_cli;
mod arena_uci;
mod bad_values_cli;
mod book_cli;
#[path = "../common/mod.rs"]
mod common;
mod db_cli;
mod engine_failures_cli;
mod evolve_games_cli;
mod evolve_games_external_cli;
mod flags_cli;
mod fresh_clone_cli;
mod match_checkpoint_cli;
mod match_pentanomial_cli;
mod net_cli;
mod nnue_cli;
mod nnue_curve_cli;
mod nnue_error_cli;
mod nnue_workers;
mod nodestime_cli;
mod params_cli;
mod python_chess_clients;
mod ray_external;
mod tune_external_cli;
mod tune_spsa_cli;
mod uci_subprocess;
mod wdl_fit_cli;
