//! Playing one game between two players, with every way a game can end.

use crate::adjudication::{Adjudication, MoveLimitScoring, Verdict, own_evaluation_winner};
use crate::limits::Limit;
use crate::openings::Opening;
use crate::player::{MoveRequest, Player, PlayerError, score_to_cp};
use kestrel_chess::{Board, Color, Move};
use kestrel_search::{Score, SearchLimits};
use std::time::{Duration, Instant};

/// How every game is played: the move limit, adjudication and the clock tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSettings {
    /// Time or search limit for every move.
    pub limit: Limit,
    /// Rules for ending games early (none by default).
    pub adjudication: Adjudication,
    /// Clock overrun tolerated before a time forfeit (process and scheduling overhead).
    pub time_margin: Duration,
}

impl GameSettings {
    /// Settings with this limit, no adjudication and a 100 ms time margin.
    pub fn new(limit: Limit) -> GameSettings {
        GameSettings {
            limit,
            adjudication: Adjudication::default(),
            time_margin: Duration::from_millis(100),
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`); also the score of a game that could not be played.
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points for `color`: 1, 1/2 or 0.
    pub fn points_for(&self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// The same position occurred for the third time: a draw.
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or a pawn move: a draw.
    FiftyMoveRule,
    /// Neither side has the material to mate: a draw.
    InsufficientMaterial,
    /// Both engines agreed this side is lost.
    ResignAdjudication(Color),
    /// Both engines' scores stayed near zero long enough: a draw.
    DrawAdjudication,
    /// The move limit; the final position's evaluations by White's and Black's players.
    MoveLimit {
        /// White's player's evaluation in centipawns, White's view (`None` when it gave none).
        white_eval: Option<i32>,
        /// Black's player's evaluation in centipawns, also White's view (`None` when it gave none).
        black_eval: Option<i32>,
    },
    /// This side overstepped its clock or movetime by more than the time margin and loses.
    TimeForfeit(Color),
    /// The player of this colour failed (crash, hang, illegal move, start failure).
    Fault(Color, PlayerError),
    /// Neither engine could start: no game (scored as a draw so that nobody gains).
    NoGame(String),
}

impl Termination {
    /// A short category, for counting how games ended.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "repetition",
            Termination::FiftyMoveRule => "fifty moves",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ResignAdjudication(_) => "resign adjudication",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::MoveLimit { .. } => "move limit",
            Termination::TimeForfeit(_) => "time forfeit",
            Termination::Fault(_, PlayerError::StartFailed(_)) => "start failure",
            Termination::Fault(_, PlayerError::Crashed(_)) => "crash",
            Termination::Fault(_, PlayerError::Hung(_)) => "hang",
            Termination::Fault(_, PlayerError::IllegalMove(_)) => "illegal move",
            Termination::Fault(_, PlayerError::Protocol(_)) => "protocol error",
            Termination::NoGame(_) => "no game",
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |c: &Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self {
            Termination::Checkmate => write!(f, "checkmate"),
            Termination::Stalemate => write!(f, "stalemate"),
            Termination::ThreefoldRepetition => write!(f, "threefold repetition"),
            Termination::FiftyMoveRule => write!(f, "fifty-move rule"),
            Termination::InsufficientMaterial => write!(f, "insufficient material"),
            Termination::ResignAdjudication(c) => {
                write!(f, "adjudication: {} resigns", side(c))
            }
            Termination::DrawAdjudication => write!(f, "adjudication: draw"),
            Termination::MoveLimit {
                white_eval,
                black_eval,
            } => {
                let ev = |e: &Option<i32>| e.map_or("none".to_string(), |v| v.to_string());
                write!(
                    f,
                    "move limit (evaluations: White's {}, Black's {})",
                    ev(white_eval),
                    ev(black_eval)
                )
            }
            Termination::TimeForfeit(c) => write!(f, "time forfeit: {}", side(c)),
            Termination::Fault(c, e) => write!(f, "{}: {e}", side(c)),
            Termination::NoGame(why) => write!(f, "no game: {why}"),
        }
    }
}

/// What the engine said about one of its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// The engine's score for the position, side to move's view, when it reported one.
    pub score: Option<Score>,
    /// Depth the search reached, in plies (0 when an external engine did not say).
    pub depth: i32,
    /// Nodes searched for the move (0 when an external engine did not say).
    pub nodes: u64,
    /// Wall time the move took.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Name of the player with White.
    pub white: String,
    /// Name of the player with Black.
    pub black: String,
    /// The start position and book moves the game was played from.
    pub opening: Opening,
    /// Moves played by the engines (after the opening's book moves).
    pub moves: Vec<Move>,
    /// One entry per move in `moves`.
    pub infos: Vec<MoveInfo>,
    /// The result for the scoresheet.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// The limit the game was played under (for the PGN `TimeControl` tag).
    pub limit: Limit,
}

impl GameRecord {
    /// Every move from the opening's start position (book moves first).
    pub fn all_moves(&self) -> Vec<Move> {
        self.opening
            .moves
            .iter()
            .chain(&self.moves)
            .copied()
            .collect()
    }

    /// The final position.
    pub fn final_board(&self) -> Board {
        let mut board = self.opening.position();
        for &mv in &self.moves {
            board.make_move(mv);
        }
        board
    }
}

/// Plays one game from `opening`. Never fails: a player that cannot move loses, and the
/// reason is in [`GameRecord::termination`].
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let mut record = GameRecord {
        white: white.name().to_string(),
        black: black.name().to_string(),
        opening: opening.clone(),
        moves: Vec::new(),
        infos: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::NoGame(String::new()),
        limit: settings.limit,
    };
    let (result, termination) = run(white, black, opening, settings, &mut record);
    record.result = result;
    record.termination = termination;
    record
}

fn run(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    settings: &GameSettings,
    record: &mut GameRecord,
) -> (GameResult, Termination) {
    let white_start = white.new_game();
    let black_start = black.new_game();
    match (white_start, black_start) {
        (Err(w), Err(b)) => {
            return (
                GameResult::Draw,
                Termination::NoGame(format!("White: {w}; Black: {b}")),
            );
        }
        (Err(e), _) => return fault(Color::White, e),
        (_, Err(e)) => return fault(Color::Black, e),
        _ => {}
    }
    let mut board = opening.position();
    let all_moves_base = opening.moves.clone();
    let mut clocks = match settings.limit {
        Limit::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    let mut white_scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some(end) = rules_end(&board) {
            return end;
        }
        let side = board.side_to_move();
        if let Some(limit) = settings.adjudication.move_limit
            && record.moves.len() >= 2 * limit.moves
        {
            let white_eval = white.evaluate_white(&board);
            let black_eval = black.evaluate_white(&board);
            let result = match limit.scoring {
                MoveLimitScoring::Draw => GameResult::Draw,
                MoveLimitScoring::OwnEvaluation { margin_cp } => {
                    own_evaluation_winner(white_eval, black_eval, margin_cp)
                        .map_or(GameResult::Draw, GameResult::win_for)
                }
            };
            return (
                result,
                Termination::MoveLimit {
                    white_eval,
                    black_eval,
                },
            );
        }
        let limits = search_limits(&settings.limit, &clocks);
        let moves: Vec<Move> = all_moves_base
            .iter()
            .chain(&record.moves)
            .copied()
            .collect();
        let request = MoveRequest {
            start: &opening.start,
            moves: &moves,
            board: &board,
            limits: &limits,
        };
        let player: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let started = Instant::now();
        let answer = player.choose_move(&request);
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(e) => return fault(side, e),
        };
        if !board.legal_moves().contains(answer.mv) {
            return fault(side, PlayerError::IllegalMove(answer.mv.to_string()));
        }
        let charged = charged_time(&settings.limit, elapsed, answer.nodes);
        if let Some(end) = clock_after_move(settings, &mut clocks, side, charged) {
            return end;
        }
        board.make_move(answer.mv);
        record.moves.push(answer.mv);
        white_scores.push(answer.score.map(|s| score_to_cp(s) * side.sign()));
        record.infos.push(MoveInfo {
            score: answer.score,
            depth: answer.depth,
            nodes: answer.nodes,
            time: elapsed,
        });
        if rules_end(&board).is_none() {
            let full_moves = board.fullmove_number() as usize;
            match settings.adjudication.check(&white_scores, full_moves) {
                Some(Verdict::Resign(loser)) => {
                    return (
                        GameResult::win_for(loser.flip()),
                        Termination::ResignAdjudication(loser),
                    );
                }
                Some(Verdict::Draw) => return (GameResult::Draw, Termination::DrawAdjudication),
                None => {}
            }
        }
    }
}

fn fault(side: Color, error: PlayerError) -> (GameResult, Termination) {
    (
        GameResult::win_for(side.flip()),
        Termination::Fault(side, error),
    )
}

/// The game-ending rules of chess, checked in the current position.
pub fn rules_end(board: &Board) -> Option<(GameResult, Termination)> {
    if board.legal_moves().is_empty() {
        return Some(if board.in_check() {
            (
                GameResult::win_for(board.side_to_move().flip()),
                Termination::Checkmate,
            )
        } else {
            (GameResult::Draw, Termination::Stalemate)
        });
    }
    if board.is_insufficient_material() {
        return Some((GameResult::Draw, Termination::InsufficientMaterial));
    }
    if board.is_threefold() {
        return Some((GameResult::Draw, Termination::ThreefoldRepetition));
    }
    if board.is_fifty_move_draw() {
        return Some((GameResult::Draw, Termination::FiftyMoveRule));
    }
    None
}

fn search_limits(limit: &Limit, clocks: &[Duration; 2]) -> SearchLimits {
    match *limit {
        Limit::Depth(d) => SearchLimits::depth(d),
        Limit::Nodes(n) => SearchLimits::nodes(n),
        Limit::MoveTime(t) => SearchLimits::movetime(t),
        Limit::Clock {
            increment,
            nodes_per_ms,
            ..
        } => SearchLimits {
            wtime: Some(clocks[0]),
            btime: Some(clocks[1]),
            winc: Some(increment),
            binc: Some(increment),
            nodestime: nodes_per_ms,
            ..Default::default()
        },
    }
}

/// What a move costs on the clock: its wall time, or its nodes on a clock counted in nodes.
fn charged_time(limit: &Limit, elapsed: Duration, nodes: u64) -> Duration {
    match *limit {
        Limit::Clock {
            nodes_per_ms: Some(rate),
            ..
        } => Duration::from_micros(nodes.saturating_mul(1000) / rate.max(1)),
        _ => elapsed,
    }
}

/// Charges the move's time to the mover's clock; a flag fall ends the game.
fn clock_after_move(
    settings: &GameSettings,
    clocks: &mut [Duration; 2],
    side: Color,
    elapsed: Duration,
) -> Option<(GameResult, Termination)> {
    let forfeit = Some((
        GameResult::win_for(side.flip()),
        Termination::TimeForfeit(side),
    ));
    match settings.limit {
        Limit::Clock { increment, .. } => {
            let clock = &mut clocks[side.index()];
            if elapsed > *clock + settings.time_margin {
                return forfeit;
            }
            *clock = clock.saturating_sub(elapsed) + increment;
            None
        }
        Limit::MoveTime(t) if elapsed > t + settings.time_margin => forfeit,
        _ => None,
    }
}
