//! An external UCI engine as a [`Player`]: restarts after a crash, turns protocol failures
//! into [`PlayerError`]s, and reports the engine's last score.

use crate::player::{MoveRequest, Player, PlayerError, PlayerMove, score_to_cp};
use crate::uci_client::UciEngine;
use kestrel_chess::{Board, START_FEN};
use kestrel_search::SearchLimits;
use std::fmt::Write as _;
use std::time::Duration;

/// How long to wait for an external engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciTimeouts {
    /// `uci` → `uciok` and `isready` → `readyok`.
    pub handshake: Duration,
    /// Longest wait for `bestmove` under depth/node limits (no clock to go by).
    pub move_without_clock: Duration,
    /// Extra time allowed past the clock (or movetime) before the engine counts as hung.
    pub grace: Duration,
}

impl Default for UciTimeouts {
    fn default() -> Self {
        UciTimeouts {
            handshake: Duration::from_secs(10),
            move_without_clock: Duration::from_secs(60),
            grace: Duration::from_secs(2),
        }
    }
}

/// An external UCI engine as a [`Player`]: started by the first `new_game`, and started again
/// by the next one after the process died (crash, or killed for hanging).
pub struct UciPlayer {
    name: String,
    command: String,
    args: Vec<String>,
    options: Vec<(String, String)>,
    /// Options sent before every game (a tuner's values), after the fixed ones.
    game_options: Vec<(String, String)>,
    timeouts: UciTimeouts,
    engine: Option<UciEngine>,
    /// Processes started so far (the first start and every restart).
    starts: u64,
    /// The engine's last reported score, White's view (its "evaluation" at a move limit).
    last_score_white: Option<i32>,
    /// The `UCI_Chess960` value sent to the running engine (`None`: not sent yet).
    chess960_sent: Option<bool>,
}

impl UciPlayer {
    /// A player for `command args` with fixed `setoption` values; no process is started yet.
    pub fn new(
        name: String,
        command: String,
        args: Vec<String>,
        options: Vec<(String, String)>,
        timeouts: UciTimeouts,
    ) -> UciPlayer {
        UciPlayer {
            name,
            command,
            args,
            options,
            game_options: Vec::new(),
            timeouts,
            engine: None,
            starts: 0,
            last_score_white: None,
            chess960_sent: None,
        }
    }

    /// Options sent by `setoption` before every following game (a tuner's values for the
    /// next games), after the fixed options.
    pub fn set_game_options(&mut self, options: Vec<(String, String)>) {
        self.game_options = options;
    }

    /// Processes started so far: 1 for an engine that never failed, one more per restart.
    pub fn starts(&self) -> u64 {
        self.starts
    }

    /// The running engine (after a successful `new_game`).
    pub fn engine(&mut self) -> Option<&mut UciEngine> {
        self.engine.as_mut()
    }

    fn start(&mut self) -> Result<UciEngine, PlayerError> {
        self.starts += 1;
        let mut engine = UciEngine::start(&self.command, &self.args, self.timeouts.handshake)?;
        for (name, value) in &self.options {
            engine.set_option(name, value)?;
        }
        engine.sync(self.timeouts.handshake)?;
        Ok(engine)
    }

    fn prepare(&mut self) -> Result<(), PlayerError> {
        let alive = self.engine.as_mut().is_some_and(|e| e.is_alive());
        if !alive {
            self.engine = None;
            self.chess960_sent = None;
            self.engine = Some(self.start()?);
        }
        let handshake = self.timeouts.handshake;
        let engine = self.engine.as_mut().expect("started above");
        for (name, value) in &self.game_options {
            engine.set_option(name, value)?;
        }
        engine.send("ucinewgame")?;
        engine.sync(handshake)
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.last_score_white = None;
        let result = self.prepare();
        if result.is_err() {
            // Whatever went wrong, the next game starts a fresh process.
            self.engine = None;
        }
        result
    }

    fn choose_move(&mut self, request: &MoveRequest) -> Result<PlayerMove, PlayerError> {
        if self.engine.is_none() {
            self.prepare()?;
        }
        let position = position_command(request);
        let go = go_command(request.limits);
        let timeout = move_timeout(request.limits, request.board, &self.timeouts);
        let engine = self.engine.as_mut().expect("prepared above");
        // A Chess960 game switches the engine's notation (and off again for a standard one,
        // sent only to engines that were told before).
        let chess960 = request.start.chess960();
        if self.chess960_sent != Some(chess960) && (chess960 || self.chess960_sent.is_some()) {
            let sent = engine
                .set_option("UCI_Chess960", if chess960 { "true" } else { "false" })
                .and_then(|()| engine.sync(self.timeouts.handshake));
            if let Err(e) = sent {
                self.engine = None;
                return Err(e);
            }
            self.chess960_sent = Some(chess960);
        }
        let outcome = match engine.go(&position, &go, timeout) {
            Ok(o) => o,
            Err(e) => {
                self.engine = None;
                return Err(e);
            }
        };
        let mv = request
            .board
            .parse_uci_move(&outcome.bestmove)
            .map_err(|_| PlayerError::IllegalMove(outcome.bestmove.clone()))?;
        self.last_score_white = outcome
            .score
            .map(|s| score_to_cp(s) * request.board.side_to_move().sign());
        Ok(PlayerMove {
            mv,
            score: outcome.score,
            depth: outcome.depth,
            nodes: outcome.nodes,
        })
    }

    /// An external engine has no static evaluation to ask for: its last search score
    /// stands in for it.
    fn evaluate_white(&mut self, _board: &Board) -> Option<i32> {
        self.last_score_white
    }
}

/// `position startpos moves ...` or `position fen ... moves ...`; in a Chess960 game the moves
/// are written as Chess960 UCI does (castling as king takes rook).
pub fn position_command(request: &MoveRequest) -> String {
    let fen = request.start.to_fen();
    let mut s = if fen == START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    if !request.moves.is_empty() {
        s.push_str(" moves");
        for &mv in request.moves {
            write!(s, " {}", request.start.uci_move(mv)).unwrap();
        }
    }
    s
}

/// `go` with the limits set in `limits`.
pub fn go_command(limits: &SearchLimits) -> String {
    let mut s = String::from("go");
    let ms = |d: Duration| d.as_millis();
    if let Some(d) = limits.depth {
        write!(s, " depth {d}").unwrap();
    }
    if let Some(n) = limits.nodes {
        write!(s, " nodes {n}").unwrap();
    }
    if let Some(t) = limits.movetime {
        write!(s, " movetime {}", ms(t)).unwrap();
    }
    for (key, value) in [
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc),
        ("binc", limits.binc),
    ] {
        if let Some(v) = value {
            write!(s, " {key} {}", ms(v)).unwrap();
        }
    }
    if let Some(m) = limits.movestogo {
        write!(s, " movestogo {m}").unwrap();
    }
    if s == "go" {
        s.push_str(" infinite");
    }
    s
}

/// How long to wait for `bestmove`: the side's clock (or movetime) plus grace, or the fixed
/// limit for depth/node searches.
fn move_timeout(limits: &SearchLimits, board: &Board, t: &UciTimeouts) -> Duration {
    let clock = match board.side_to_move() {
        kestrel_chess::Color::White => limits.wtime,
        kestrel_chess::Color::Black => limits.btime,
    };
    match (limits.movetime, clock) {
        (Some(mt), _) => mt + t.grace,
        (None, Some(c)) => c + t.grace,
        (None, None) => t.move_without_clock,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_uci() {
        let start = Board::startpos();
        let mut board = start.clone();
        let mv = board.parse_uci_move("e2e4").unwrap();
        board.make_move(mv);
        let limits = SearchLimits::depth(3);
        let req = MoveRequest {
            start: &start,
            moves: &[mv],
            board: &board,
            limits: &limits,
        };
        assert_eq!(position_command(&req), "position startpos moves e2e4");
        assert_eq!(go_command(&limits), "go depth 3");
        let clock = SearchLimits {
            wtime: Some(Duration::from_millis(1500)),
            btime: Some(Duration::from_secs(2)),
            winc: Some(Duration::from_millis(100)),
            binc: Some(Duration::from_millis(100)),
            ..Default::default()
        };
        assert_eq!(
            go_command(&clock),
            "go wtime 1500 btime 2000 winc 100 binc 100"
        );
        let other = Board::from_fen("8/8/8/8/8/k7/8/K7 w - - 0 1").unwrap();
        let req = MoveRequest {
            start: &other,
            moves: &[],
            board: &other,
            limits: &limits,
        };
        assert_eq!(
            position_command(&req),
            "position fen 8/8/8/8/8/k7/8/K7 w - - 0 1"
        );
        let t = UciTimeouts::default();
        assert_eq!(move_timeout(&clock, &board, &t), Duration::from_secs(4));
        assert_eq!(move_timeout(&limits, &board, &t), t.move_without_clock);
    }
}
