//! A match's checkpoint: a journal of every finished game (moves, search figures, result, how
//! it ended), one JSON line each, appended and synced as the game ends, so that a match stopped
//! by a crash, a reboot or a closed terminal resumes where it stopped instead of starting over.
//! The first line holds a fingerprint of the match's settings, which guards against resuming a
//! different match from the same file. Only the last line can be torn by a kill mid-write; it
//! is dropped (its game is played again), any other damage is an error.

use crate::game::{GameRecord, GameResult, MoveInfo, Termination};
use crate::limits::Limit;
use crate::openings::{Opening, opening_of_game};
use crate::player::PlayerError;
use kestrel_chess::Color;
use kestrel_search::Score;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// The file's format version; a different one is refused rather than misread.
const VERSION: u32 = 1;

/// The journal's first line.
#[derive(Serialize, Deserialize)]
struct Header {
    version: u32,
    /// The match's settings as text: a resume must present the same.
    fingerprint: String,
}

/// An open journal, ready to append the games that finish next.
pub struct MatchCheckpoint {
    file: File,
}

#[derive(Serialize, Deserialize)]
struct SavedGame {
    index: usize,
    white: String,
    black: String,
    result: String,
    termination: SavedTermination,
    /// The engines' moves in UCI notation, after the opening's book moves.
    moves: Vec<String>,
    infos: Vec<SavedInfo>,
}

#[derive(Serialize, Deserialize)]
struct SavedInfo {
    /// Centipawns, or `None` for a mate (then `mate` is set) or no score.
    cp: Option<i32>,
    mate: Option<i32>,
    depth: i32,
    nodes: u64,
    micros: u64,
}

/// [`Termination`] in a form serde can write; colours as `true` = White.
#[derive(Serialize, Deserialize)]
enum SavedTermination {
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
    InsufficientMaterial,
    ResignAdjudication(bool),
    DrawAdjudication,
    MoveLimit {
        white_eval: Option<i32>,
        black_eval: Option<i32>,
    },
    TimeForfeit(bool),
    Fault(bool, SavedFault),
    NoGame(String),
}

#[derive(Serialize, Deserialize)]
enum SavedFault {
    StartFailed(String),
    Crashed(String),
    HungMillis(u64),
    IllegalMove(String),
    Protocol(String),
}

fn is_white(color: Color) -> bool {
    color == Color::White
}

fn color_of(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

impl From<&Termination> for SavedTermination {
    fn from(t: &Termination) -> Self {
        match t {
            Termination::Checkmate => Self::Checkmate,
            Termination::Stalemate => Self::Stalemate,
            Termination::ThreefoldRepetition => Self::ThreefoldRepetition,
            Termination::FiftyMoveRule => Self::FiftyMoveRule,
            Termination::InsufficientMaterial => Self::InsufficientMaterial,
            Termination::ResignAdjudication(c) => Self::ResignAdjudication(is_white(*c)),
            Termination::DrawAdjudication => Self::DrawAdjudication,
            Termination::MoveLimit {
                white_eval,
                black_eval,
            } => Self::MoveLimit {
                white_eval: *white_eval,
                black_eval: *black_eval,
            },
            Termination::TimeForfeit(c) => Self::TimeForfeit(is_white(*c)),
            Termination::Fault(c, e) => Self::Fault(is_white(*c), SavedFault::from(e)),
            Termination::NoGame(why) => Self::NoGame(why.clone()),
        }
    }
}

impl From<&PlayerError> for SavedFault {
    fn from(e: &PlayerError) -> Self {
        match e {
            PlayerError::StartFailed(s) => Self::StartFailed(s.clone()),
            PlayerError::Crashed(s) => Self::Crashed(s.clone()),
            PlayerError::Hung(d) => Self::HungMillis(d.as_millis() as u64),
            PlayerError::IllegalMove(s) => Self::IllegalMove(s.clone()),
            PlayerError::Protocol(s) => Self::Protocol(s.clone()),
        }
    }
}

impl From<SavedTermination> for Termination {
    fn from(t: SavedTermination) -> Self {
        match t {
            SavedTermination::Checkmate => Self::Checkmate,
            SavedTermination::Stalemate => Self::Stalemate,
            SavedTermination::ThreefoldRepetition => Self::ThreefoldRepetition,
            SavedTermination::FiftyMoveRule => Self::FiftyMoveRule,
            SavedTermination::InsufficientMaterial => Self::InsufficientMaterial,
            SavedTermination::ResignAdjudication(w) => Self::ResignAdjudication(color_of(w)),
            SavedTermination::DrawAdjudication => Self::DrawAdjudication,
            SavedTermination::MoveLimit {
                white_eval,
                black_eval,
            } => Self::MoveLimit {
                white_eval,
                black_eval,
            },
            SavedTermination::TimeForfeit(w) => Self::TimeForfeit(color_of(w)),
            SavedTermination::Fault(w, f) => Self::Fault(color_of(w), f.into()),
            SavedTermination::NoGame(why) => Self::NoGame(why),
        }
    }
}

impl From<SavedFault> for PlayerError {
    fn from(f: SavedFault) -> Self {
        match f {
            SavedFault::StartFailed(s) => Self::StartFailed(s),
            SavedFault::Crashed(s) => Self::Crashed(s),
            SavedFault::HungMillis(ms) => Self::Hung(Duration::from_millis(ms)),
            SavedFault::IllegalMove(s) => Self::IllegalMove(s),
            SavedFault::Protocol(s) => Self::Protocol(s),
        }
    }
}

fn save_game(index: usize, game: &GameRecord) -> SavedGame {
    SavedGame {
        index,
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.pgn().to_string(),
        termination: SavedTermination::from(&game.termination),
        moves: game.moves.iter().map(|m| m.to_string()).collect(),
        infos: game
            .infos
            .iter()
            .map(|i| SavedInfo {
                cp: match i.score {
                    Some(Score::Cp(cp)) => Some(cp),
                    _ => None,
                },
                mate: match i.score {
                    Some(Score::Mate(m)) => Some(m),
                    _ => None,
                },
                depth: i.depth,
                nodes: i.nodes,
                micros: i.time.as_micros() as u64,
            })
            .collect(),
    }
}

/// Rebuilds game `saved.index` on its opening, checking every move for legality.
fn restore_game(
    saved: SavedGame,
    openings: &[Opening],
    limit: Limit,
) -> Result<GameRecord, String> {
    let index = saved.index;
    let opening = opening_of_game(openings, index);
    let mut board = opening.start.clone();
    for mv in &opening.moves {
        board.make_move(*mv);
    }
    let mut moves = Vec::with_capacity(saved.moves.len());
    for text in &saved.moves {
        let mv = board
            .parse_uci_move(text)
            .map_err(|e| format!("game {}: move '{text}': {e}", index + 1))?;
        board.make_move(mv);
        moves.push(mv);
    }
    if saved.infos.len() != moves.len() {
        return Err(format!(
            "game {}: {} moves but {} search records",
            index + 1,
            moves.len(),
            saved.infos.len()
        ));
    }
    let result = match saved.result.as_str() {
        "1-0" => GameResult::WhiteWins,
        "0-1" => GameResult::BlackWins,
        "1/2-1/2" => GameResult::Draw,
        other => return Err(format!("game {}: result '{other}'", index + 1)),
    };
    let infos = saved
        .infos
        .iter()
        .map(|i| MoveInfo {
            score: i.cp.map(Score::Cp).or(i.mate.map(Score::Mate)),
            depth: i.depth,
            nodes: i.nodes,
            time: Duration::from_micros(i.micros),
        })
        .collect();
    Ok(GameRecord {
        white: saved.white,
        black: saved.black,
        opening,
        moves,
        infos,
        result,
        termination: saved.termination.into(),
        limit,
    })
}

/// Parses the journal's text: the games it holds, and the length of its intact part (a torn
/// last line is left out).
fn parse_journal(text: &str, fingerprint: &str) -> Result<(Vec<SavedGame>, usize), String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    let header: Header = serde_json::from_str(first.trim_end())
        .map_err(|e| format!("not a match checkpoint (first line: {e})"))?;
    if header.version != VERSION {
        return Err(format!(
            "checkpoint version {} (this build reads {VERSION})",
            header.version
        ));
    }
    if header.fingerprint != fingerprint {
        return Err(format!(
            "written by a different match:\n  saved: {}\n  now:   {fingerprint}\n(use another --checkpoint file, or the same settings)",
            header.fingerprint
        ));
    }
    let mut intact = first.len();
    let mut games = Vec::new();
    for (number, line) in lines.enumerate() {
        if !line.ends_with('\n') {
            // Killed mid-write: the unfinished last line's game is played again.
            break;
        }
        let game = serde_json::from_str::<SavedGame>(line.trim_end())
            .map_err(|e| format!("line {}: {e}", number + 2))?;
        games.push(game);
        intact += line.len();
    }
    Ok((games, intact))
}

/// Rebuilds saved games on `openings` (the list the match uses) for a match of `games` games.
fn restore_all(
    saved: Vec<SavedGame>,
    openings: &[Opening],
    limit: Limit,
    games: usize,
) -> Result<Vec<(usize, GameRecord)>, String> {
    let mut seen = vec![false; games];
    let mut restored = Vec::with_capacity(saved.len());
    for game in saved {
        let index = game.index;
        match seen.get_mut(index) {
            Some(s) if !*s => *s = true,
            Some(_) => return Err(format!("game {} is saved twice", index + 1)),
            None => return Err(format!("game {} is beyond the match's {games}", index + 1)),
        }
        restored.push((index, restore_game(game, openings, limit)?));
    }
    Ok(restored)
}

impl MatchCheckpoint {
    /// Opens the journal at `path` for the match described by `fingerprint`, creating it when
    /// absent, and returns the games it already holds, rebuilt on `openings` (the list the match
    /// uses). An error when it cannot be read or written, is not a checkpoint, is damaged, or
    /// was written by a match with other settings.
    pub fn open(
        path: &Path,
        fingerprint: &str,
        openings: &[Opening],
        limit: Limit,
        games: usize,
    ) -> Result<(MatchCheckpoint, Vec<(usize, GameRecord)>), String> {
        let at = |e: String| format!("checkpoint {}: {e}", path.display());
        let text = match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(at(e.to_string())),
        };
        let Some(text) = text else {
            let header = serde_json::to_string(&Header {
                version: VERSION,
                fingerprint: fingerprint.to_string(),
            })
            .map_err(|e| at(e.to_string()))?;
            kestrel_params::atomic::write_atomic(path, format!("{header}\n").as_bytes())
                .map_err(|e| at(e.to_string()))?;
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| at(e.to_string()))?;
            return Ok((MatchCheckpoint { file }, Vec::new()));
        };
        let (saved, intact) = parse_journal(&text, fingerprint).map_err(at)?;
        let restored = restore_all(saved, openings, limit, games).map_err(at)?;
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| at(e.to_string()))?;
        // Cut a torn last line so that the next game starts on a line of its own.
        file.set_len(intact as u64).map_err(|e| at(e.to_string()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| at(e.to_string()))?;
        Ok((MatchCheckpoint { file }, restored))
    }

    /// Appends finished game `index` as one line and syncs it to disk.
    pub fn append(&mut self, index: usize, game: &GameRecord) -> std::io::Result<()> {
        let mut line =
            serde_json::to_vec(&save_game(index, game)).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.sync_data()
    }
}
