#![warn(missing_docs)]
//! Tools around the engine: opening books, EPD suites, games and matches, Elo statistics,
//! and a client for external UCI engines.

pub mod adjudication;
pub mod book;
pub mod builtin;
pub mod data;
pub mod earlier_results;
pub mod engine_pool;
pub mod epd_suite;
pub mod game;
pub mod game_pgn;
pub mod gsprt;
pub mod limits;
pub mod match_checkpoint;
pub mod match_runner;
pub mod openings;
pub mod pentanomial;
pub mod player;
pub mod progress;
pub mod spec_parse;
pub mod sprt;
pub mod stats;
pub mod tournament;
pub mod uci_client;
pub mod uci_options;
pub mod uci_player;
pub mod wdl_by_material;
pub mod wdl_constants;
pub mod wdl_fit;

pub use adjudication::{Adjudication, DrawRule, MoveLimit, MoveLimitScoring, ResignRule};
pub use game::{GameRecord, GameResult, GameSettings, Termination, play_game};
pub use limits::Limit;
pub use match_runner::{MatchResult, MatchSettings, run_match, run_match_guarded};
pub use openings::{Opening, load_openings, sample_openings};
pub use pentanomial::{Outcome, Penta};
pub use player::{EngineSpec, MoveRequest, Player, PlayerError, PlayerMove};
pub use sprt::{Sprt, SprtDecision, SprtModel};
pub use stats::Wdl;
pub use tournament::{Tournament, gauntlet, round_robin};
