//! An external UCI engine under tuning: how to start it (command, arguments, fixed options),
//! a probe that checks it starts and answers before any game, and game pairs between two
//! option sets of engines kept running between games (`setoption` before each game, then
//! `ucinewgame`), with a pair replayed from restarted engines when one crashes, hangs or plays
//! an illegal move.

use crate::spsa::FaultKinds;
use kestrel_tools::match_runner::outcome_for_a;
use kestrel_tools::uci_client::UciEngine;
use kestrel_tools::uci_options::UciOptionDecl;
use kestrel_tools::uci_player::{UciPlayer, UciTimeouts};
use kestrel_tools::{
    GameRecord, GameSettings, Opening, Outcome, PlayerError, Termination, play_game,
};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Attempts at one pair before the tune stops: an engine that fails three times in a row on
/// the same pair keeps failing.
pub const PAIR_ATTEMPTS: u32 = 3;

/// How to run one external engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExternalEngine {
    /// The executable.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption`s sent once after the handshake (`Threads`, `Hash`, `OwnBook`, ...).
    pub options: Vec<(String, String)>,
    /// Handshake timeout in milliseconds (`uciok`, `readyok`).
    pub handshake_ms: u64,
    /// Longest wait for a move at a node or depth limit, milliseconds.
    pub move_ms: u64,
}

impl ExternalEngine {
    /// An engine started as `command args...` with the fixed `options` and default timeouts.
    pub fn new(command: &str, args: &[String], options: Vec<(String, String)>) -> ExternalEngine {
        let t = UciTimeouts::default();
        ExternalEngine {
            command: command.to_string(),
            args: args.to_vec(),
            options,
            handshake_ms: t.handshake.as_millis() as u64,
            move_ms: t.move_without_clock.as_millis() as u64,
        }
    }

    /// The engine's timeouts.
    pub fn timeouts(&self) -> UciTimeouts {
        UciTimeouts {
            handshake: std::time::Duration::from_millis(self.handshake_ms),
            move_without_clock: std::time::Duration::from_millis(self.move_ms),
            ..UciTimeouts::default()
        }
    }

    /// Starts the engine, reads its option list, checks every fixed option exists, sends them
    /// and waits for `readyok`; an engine that does not start or answer within the handshake
    /// timeout is a clear error naming the command.
    pub fn probe(&self) -> Result<Vec<UciOptionDecl>, String> {
        let t = self.timeouts();
        let mut engine = UciEngine::start(&self.command, &self.args, t.handshake)
            .map_err(|e| format!("--engine {}: {e}", self.command))?;
        let decls = engine.option_decls.clone();
        for (name, value) in &self.options {
            if !engine
                .declared_options
                .iter()
                .any(|n| n.eq_ignore_ascii_case(name))
            {
                return Err(format!(
                    "--option {name}={value}: {} has no option '{name}'",
                    self.command
                ));
            }
            engine
                .set_option(name, value)
                .map_err(|e| format!("--engine {}: {e}", self.command))?;
        }
        engine.sync(t.handshake).map_err(|e| {
            format!(
                "--engine {}: no readyok after the options: {e}",
                self.command
            )
        })?;
        engine.quit();
        Ok(decls)
    }

    /// A player for this engine (started by its first game).
    pub fn player(&self, name: &str) -> UciPlayer {
        UciPlayer::new(
            name.to_string(),
            self.command.clone(),
            self.args.clone(),
            self.options.clone(),
            self.timeouts(),
        )
    }
}

/// What one game pair gave: the first side's two outcomes and the faults of the attempts.
pub struct PairOutcome {
    /// Outcomes of side `a` (White in the first game), or `None` when the pair kept failing.
    pub outcomes: Option<(Outcome, Outcome)>,
    /// Faults by kind over every attempt.
    pub kinds: FaultKinds,
}

/// Running engines kept between pairs, so that a pair costs no process start.
#[derive(Default)]
pub struct PlayerPool {
    idle: Mutex<Vec<(ExternalEngine, UciPlayer)>>,
}

impl PlayerPool {
    /// A running player of `engine`, or a new one.
    fn take(&self, engine: &ExternalEngine) -> UciPlayer {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        match idle.iter().position(|(e, _)| e == engine) {
            Some(i) => idle.swap_remove(i).1,
            None => engine.player("engine"),
        }
    }

    /// Gives a player back for later pairs.
    fn give(&self, engine: &ExternalEngine, player: UciPlayer) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.push((engine.clone(), player));
    }

    /// Plays one pair on `opening`: side `a` (engine and per-game options) White first, then
    /// Black. A crash, hang or illegal move drops the engines and replays the pair, up to
    /// [`PAIR_ATTEMPTS`] times; a loss on time is a result.
    pub fn play_pair(
        &self,
        a: (&ExternalEngine, &[(String, String)]),
        b: (&ExternalEngine, &[(String, String)]),
        opening: &Opening,
        game: &GameSettings,
    ) -> PairOutcome {
        let mut kinds = FaultKinds::default();
        for attempt in 1..=PAIR_ATTEMPTS {
            let mut pa = self.take(a.0);
            let mut pb = self.take(b.0);
            pa.set_game_options(a.1.to_vec());
            pb.set_game_options(b.1.to_vec());
            let first = play_game(&mut pa, &mut pb, opening, game);
            let second = play_game(&mut pb, &mut pa, opening, game);
            let faults: Vec<&PlayerError> = [&first, &second]
                .iter()
                .filter_map(|g| fault_of(g))
                .collect();
            if faults.is_empty() {
                kinds.time_losses += [&first, &second]
                    .iter()
                    .filter(|g| matches!(g.termination, Termination::TimeForfeit(_)))
                    .count() as u64;
                self.give(a.0, pa);
                self.give(b.0, pb);
                return PairOutcome {
                    outcomes: Some((outcome_for_a(0, &first), outcome_for_a(1, &second))),
                    kinds,
                };
            }
            for f in &faults {
                count(&mut kinds, f);
                eprintln!(
                    "engine fault (attempt {attempt} of {PAIR_ATTEMPTS} of this pair, replayed): {f}"
                );
            }
            kinds.replays += 1;
            // The faulty engines are dropped (killed); the next attempt starts fresh ones.
        }
        PairOutcome {
            outcomes: None,
            kinds,
        }
    }
}

/// The fault that ended a game, if one did (a time forfeit is a result, not a fault).
fn fault_of(game: &GameRecord) -> Option<&PlayerError> {
    match &game.termination {
        Termination::Fault(_, e) => Some(e),
        Termination::NoGame(_) => Some(&NO_GAME),
        _ => None,
    }
}

/// Stands for a game neither engine could start.
static NO_GAME: PlayerError = PlayerError::StartFailed(String::new());

fn count(kinds: &mut FaultKinds, error: &PlayerError) {
    match error {
        PlayerError::Hung(_) => kinds.hangs += 1,
        PlayerError::IllegalMove(_) => kinds.illegal_moves += 1,
        PlayerError::StartFailed(_) | PlayerError::Crashed(_) | PlayerError::Protocol(_) => {
            kinds.crashes += 1
        }
    }
}
