//! One file per subcommand: its arguments and its `run`.

pub mod bench;
pub mod book;
pub mod db;
pub mod epd;
pub mod eval;
pub mod evolve;
pub mod evolve_mnc;
pub mod ga_options;
pub mod job_options;
pub mod matches;
pub mod perft;
pub mod search_stats;
pub mod tune;
pub mod uci;
