//! The player abstraction: anything that can be asked for a move in a game. Built-in engine
//! configurations and external UCI engines both implement [`Player`], so games, matches and
//! tournaments do not care which kind is playing.

use crate::builtin::BuiltinPlayer;
use crate::uci_player::{UciPlayer, UciTimeouts};
use kestrel_chess::{Board, Move};
use kestrel_params::ParamFileError;
use kestrel_search::{EngineConfig, EngineParams, MATE, Score, SearchLimits};
use std::time::Duration;
use thiserror::Error;

/// What a player is asked: the game so far and the limits for this move.
pub struct MoveRequest<'a> {
    /// Position the game started from (before any opening move).
    pub start: &'a Board,
    /// Every move played since `start`.
    pub moves: &'a [Move],
    /// The current position (`start` plus `moves`, with history for repetitions).
    pub board: &'a Board,
    /// The search limits for this move: depth, nodes, movetime or the clocks.
    pub limits: &'a SearchLimits,
}

/// A player's answer.
#[derive(Clone, Debug)]
pub struct PlayerMove {
    /// The chosen move (the game checks that it is legal).
    pub mv: Move,
    /// The player's own score for the position, side to move's view, when it reports one.
    pub score: Option<Score>,
    /// Depth reached, in plies (0 when an external engine did not say).
    pub depth: i32,
    /// Nodes searched (0 when not reported); on a clock counted in nodes, what the move costs.
    pub nodes: u64,
}

/// Why a player could not produce a move; each one loses the game for that player.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PlayerError {
    /// The engine process could not be run or failed the `uci` handshake.
    #[error("engine failed to start: {0}")]
    StartFailed(String),
    /// The engine exited, or its pipes broke.
    #[error("engine crashed: {0}")]
    Crashed(String),
    /// No answer within this time (the engine is then killed).
    #[error("engine hung: no answer within {0:?}")]
    Hung(Duration),
    /// A move, as the player wrote it, that does not parse or is illegal in the position.
    #[error("illegal move '{0}'")]
    IllegalMove(String),
    /// Any other broken promise, e.g. no move in a position with legal moves.
    #[error("protocol error: {0}")]
    Protocol(String),
}

/// Something that plays chess moves.
pub trait Player {
    /// The player's name, used in PGN tags and reports.
    fn name(&self) -> &str;
    /// Called before every game (clears hash tables; restarts a crashed engine).
    fn new_game(&mut self) -> Result<(), PlayerError>;
    /// Searches `request.board` under `request.limits` and answers a move; an error loses the
    /// game.
    fn choose_move(&mut self, request: &MoveRequest) -> Result<PlayerMove, PlayerError>;
    /// The player's own opinion of `board` from White's point of view, for the move-limit
    /// scoring rule: built-in engines evaluate statically, UCI engines give their last search
    /// score; `None` when there is nothing to give.
    fn evaluate_white(&mut self, board: &Board) -> Option<i32>;
}

/// How to create a player; cheap to clone, so every worker thread makes its own players.
#[derive(Clone, Debug)]
pub enum EngineSpec {
    /// Kestrel's own search with this configuration (evaluation and search parameters).
    Builtin {
        /// Name shown in reports and PGN tags.
        name: String,
        /// The evaluation and search parameters the engine plays with.
        config: EngineConfig,
    },
    /// An external engine run as a subprocess speaking UCI.
    Uci {
        /// Name shown in reports and PGN tags (not the engine's `id name`).
        name: String,
        /// The program to run.
        command: String,
        /// Its command-line arguments.
        args: Vec<String>,
        /// `setoption name NAME value VALUE` sent after the handshake.
        options: Vec<(String, String)>,
        /// How long to wait for the engine's answers.
        timeouts: UciTimeouts,
    },
}

impl EngineSpec {
    /// A built-in engine with this name and configuration.
    pub fn builtin(name: impl Into<String>, config: EngineConfig) -> EngineSpec {
        EngineSpec::Builtin {
            name: name.into(),
            config,
        }
    }

    /// A built-in engine whose evaluation (`[eval]`) and search (`[search]`) parameters come
    /// from a params file; names missing from the file keep their defaults.
    pub fn builtin_from_params(
        name: impl Into<String>,
        path: &std::path::Path,
    ) -> Result<EngineSpec, ParamFileError> {
        let mut config = EngineConfig::default();
        EngineParams::load(path, "params file")?.apply_to(&mut config);
        Ok(EngineSpec::builtin(name, config))
    }

    /// An external UCI engine run as `command`, without arguments or options, with default
    /// timeouts.
    pub fn uci(name: impl Into<String>, command: impl Into<String>) -> EngineSpec {
        EngineSpec::Uci {
            name: name.into(),
            command: command.into(),
            args: Vec::new(),
            options: Vec::new(),
            timeouts: UciTimeouts::default(),
        }
    }

    /// The engine's name, as shown in reports and PGN tags.
    pub fn name(&self) -> &str {
        match self {
            EngineSpec::Builtin { name, .. } | EngineSpec::Uci { name, .. } => name,
        }
    }

    /// Starts a UCI engine once (handshake, options, `ucinewgame`, `isready`) and stops it, so
    /// that an engine that cannot start or dies at once is an error before a match, not a
    /// stream of won games. Built-in engines always pass.
    pub fn check_starts(&self) -> Result<(), PlayerError> {
        match self {
            EngineSpec::Builtin { .. } => Ok(()),
            EngineSpec::Uci { .. } => self.create().new_game(),
        }
    }

    /// A fresh player. A UCI engine is started lazily by its first `new_game`, so a command
    /// that cannot run shows up as a lost game, not as an error here.
    pub fn create(&self) -> Box<dyn Player> {
        match self {
            EngineSpec::Builtin { name, config } => {
                Box::new(BuiltinPlayer::new(name.clone(), config.clone()))
            }
            EngineSpec::Uci {
                name,
                command,
                args,
                options,
                timeouts,
            } => Box::new(UciPlayer::new(
                name.clone(),
                command.clone(),
                args.clone(),
                options.clone(),
                *timeouts,
            )),
        }
    }
}

/// A score as centipawns for comparisons (mates as ±(MATE - distance)).
pub fn score_to_cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => MATE - 2 * m,
        Score::Mate(m) => -MATE - 2 * m,
    }
}
