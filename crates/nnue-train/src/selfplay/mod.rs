//! Self-play training data: Kestrel against itself at fixed nodes ([`game`]), run in resumable
//! blocks ([`run`]).

pub mod game;
pub mod run;

pub use game::{GameOutput, SelfPlaySettings, game_seed, play_game};
pub use run::{
    DATA_FILE, DataProgress, DataRun, PROGRESS_FILE, RunError, RunReport, read_progress, run,
};
