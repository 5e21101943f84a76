//! One file per subcommand: its arguments and its `run`.

pub mod bench;
pub mod book;
pub mod chessmaps;
pub mod db;
pub mod epd;
pub mod eval;
pub mod evolve;
pub mod evolve_coevolve;
pub mod evolve_games;
pub mod evolve_mnc;
pub mod evolve_moves;
pub mod evolve_search;
pub mod evolve_tournament;
pub mod executor_options;
pub mod ga_options;
pub mod job_options;
pub mod matches;
pub mod perft;
pub mod search_stats;
pub mod spsa_file;
pub mod spsa_input;
pub mod spsa_tune;
pub mod spsa_verify;
pub mod tune;
pub mod uci;
pub mod worker;
