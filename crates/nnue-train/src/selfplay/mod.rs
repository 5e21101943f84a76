//! Training positions from Kestrel's self-play at fixed nodes ([`game`]) or from recorded games
//! ([`pgn`]), made in resumable runs ([`run`](mod@run)), the games played here or on cluster
//! workers ([`player`], [`remote`]).

pub mod game;
pub mod pgn;
pub mod player;
pub mod remote;
pub mod run;

pub use game::{GameOutput, SelfPlaySettings, game_searcher, game_seed, network_id, play_game};
pub use pgn::{pgn_outcome, pgn_positions};
pub use player::{GamePlayer, LocalPlayer};
pub use remote::{NetworkSource, RemoteGames, SelfPlaySpec};
pub use run::{DataProgress, DataRun, GameSource, RunReport, run, run_on};
