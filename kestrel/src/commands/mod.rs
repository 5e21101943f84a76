//! One file per subcommand: its arguments and its `run`.
//!
//! The argument structs carry no doc comment of their own: clap would show it as the `about` of
//! every command that flattens them. Their fields' doc comments are the `--help` text, and each
//! command's description is the doc comment of its variant in `main.rs`.

pub mod bench;
pub mod book;
pub mod checked;
pub mod chessmaps;
pub mod db;
pub mod engine_options;
pub mod epd;
pub mod eval;
pub mod evolve;
pub mod evolve_coevolve;
pub mod evolve_games;
pub mod evolve_games_external;
pub mod evolve_mnc;
pub mod evolve_moves;
pub mod evolve_search;
pub mod evolve_search_games;
pub mod evolve_tournament;
pub mod executor_options;
pub mod ga_options;
pub mod game_fitness_args;
pub mod game_limit;
pub mod job_options;
pub mod matches;
pub mod net_option;
pub mod nnue;
pub mod nnue_blend;
pub mod nnue_curve;
pub mod nnue_data;
pub mod nnue_error;
pub mod nnue_label;
pub mod nnue_train;
pub mod perft;
pub mod run_folder;
pub mod search_stats;
pub mod spsa_external;
pub mod spsa_file;
pub mod spsa_input;
pub mod spsa_tune;
pub mod spsa_verify;
pub mod tune;
pub mod uci;
pub mod wdl_fit;
pub mod worker;
