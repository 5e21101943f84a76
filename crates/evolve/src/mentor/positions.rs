//! Training and test positions: one random quiet position per game of a PGN file, split in
//! two halves, stored as EPD (`c0 "train"` / `c0 "test"`).
//!
//! A position qualifies when it is at least `skip_plies` into the game (past the opening book),
//! the side to move is not in check and has legal moves, and no capture is pending: the side to
//! move has no promotion and no capture of a piece worth at least the capturer or standing on an
//! undefended square (a cheap stand-in for "SEE >= 0"). Such positions are what a static
//! evaluation can judge; tactics are the search's business.

use kestrel_chess::{Board, EpdRecord, PgnReader, PieceKind};
use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::io::BufRead;
use std::path::Path;

/// Which positions of a game may be picked.
#[derive(Clone, Debug)]
pub struct PickRules {
    /// Plies of each game skipped before a position may be picked (default 16, past the book).
    pub skip_plies: usize,
    /// Skip positions where the side to move is in check (default on).
    pub skip_in_check: bool,
    /// Skip positions with a pending promotion or winning capture (default on).
    pub skip_pending_captures: bool,
}

impl Default for PickRules {
    fn default() -> Self {
        PickRules {
            skip_plies: 16,
            skip_in_check: true,
            skip_pending_captures: true,
        }
    }
}

/// Rough piece values for the pending-capture test.
fn rough_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight | PieceKind::Bishop => 3,
        PieceKind::Rook => 5,
        PieceKind::Queen => 9,
        PieceKind::King => 100,
    }
}

/// Whether the side to move can promote, or capture without losing material at once.
pub fn has_pending_capture(board: &Board) -> bool {
    let us = board.side_to_move();
    for &mv in board.legal_moves().iter() {
        if mv.is_promotion() {
            return true;
        }
        if !mv.is_capture() {
            continue;
        }
        if mv.is_en_passant() {
            return true;
        }
        let attacker = board
            .piece_at(mv.from())
            .expect("a move starts on a piece")
            .kind;
        let victim = board
            .piece_at(mv.to())
            .expect("a capture ends on a piece")
            .kind;
        if rough_value(victim) >= rough_value(attacker) {
            return true;
        }
        let occ = board.occupied() ^ mv.from().bb();
        if !board.is_attacked_by(mv.to(), us.flip(), occ) {
            return true;
        }
    }
    false
}

/// Whether `board` may be picked under `rules` (ply count checked by the caller).
pub fn qualifies(board: &Board, rules: &PickRules) -> bool {
    if rules.skip_in_check && board.in_check() {
        return false;
    }
    if board.legal_moves().is_empty() {
        return false;
    }
    !(rules.skip_pending_captures && has_pending_capture(board))
}

/// The plies after which the game's position qualifies and is not in `taken`.
fn candidate_plies(
    start: &Board,
    moves: &[kestrel_chess::Move],
    rules: &PickRules,
    taken: &HashSet<u64>,
) -> Vec<usize> {
    let mut board = start.clone();
    let mut candidates = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        board.make_move(mv);
        if ply + 1 >= rules.skip_plies && !taken.contains(&board.hash()) && qualifies(&board, rules)
        {
            candidates.push(ply + 1);
        }
    }
    candidates
}

/// One random qualifying position of a game (`None` when none qualifies).
/// Positions whose Zobrist key is in `taken` are skipped (no position twice in a data set).
pub fn pick_from_game(
    start: &Board,
    moves: &[kestrel_chess::Move],
    rules: &PickRules,
    taken: &HashSet<u64>,
    rng: &mut ChaCha8Rng,
) -> Option<Board> {
    let candidates = candidate_plies(start, moves, rules, taken);
    if candidates.is_empty() {
        return None;
    }
    let plies = candidates[rng.random_range(0..candidates.len())];
    let mut board = start.clone();
    for &mv in &moves[..plies] {
        board.make_move(mv);
    }
    board.clear_history();
    Some(board)
}

/// Up to `n` qualifying positions of a game, spread over it: the candidates are cut into `n`
/// runs of consecutive plies and one random candidate is taken from each run (all of them when
/// there are at most `n`). Positions whose Zobrist key is in `taken` are skipped and the picked
/// ones are added to it. Returned in game order, histories cleared.
pub fn pick_spread_from_game(
    start: &Board,
    moves: &[kestrel_chess::Move],
    rules: &PickRules,
    taken: &mut HashSet<u64>,
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Board> {
    let candidates = candidate_plies(start, moves, rules, taken);
    let chosen: Vec<usize> = if candidates.len() <= n {
        candidates
    } else {
        (0..n)
            .map(|k| {
                let (lo, hi) = (k * candidates.len() / n, (k + 1) * candidates.len() / n);
                candidates[rng.random_range(lo..hi)]
            })
            .collect()
    };
    let mut picked = Vec::with_capacity(chosen.len());
    let mut board = start.clone();
    let mut next = chosen.iter().peekable();
    for (ply, &mv) in moves.iter().enumerate() {
        if next.peek().is_none() {
            break;
        }
        board.make_move(mv);
        if next.peek() == Some(&&(ply + 1)) {
            next.next();
            // A repeated position within the game is kept once.
            if taken.insert(board.hash()) {
                let mut b = board.clone();
                b.clear_history();
                picked.push(b);
            }
        }
    }
    picked
}

/// What an extraction read.
#[derive(Clone, Debug, Default)]
pub struct ExtractStats {
    /// Games read from the file, malformed ones included.
    pub games: usize,
    /// Games that could not be parsed (skipped).
    pub malformed_games: usize,
    /// Games with no qualifying position under the pick rules.
    pub games_without_candidate: usize,
}

/// `count` positions from distinct games chosen uniformly over the whole file (reservoir
/// sampling), one random qualifying position per game.
pub fn extract_from_pgn(
    path: &Path,
    count: usize,
    rules: &PickRules,
    seed: u64,
) -> Result<(Vec<Board>, ExtractStats), String> {
    let games = open_games(path)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut stats = ExtractStats::default();
    let mut reservoir: Vec<Board> = Vec::with_capacity(count);
    let mut eligible = 0usize;
    let mut taken = HashSet::new();
    for game in games {
        stats.games += 1;
        let Ok(game) = game else {
            stats.malformed_games += 1;
            continue;
        };
        let Some(board) = pick_from_game(&game.start, &game.moves, rules, &taken, &mut rng) else {
            stats.games_without_candidate += 1;
            continue;
        };
        taken.insert(board.hash());
        if reservoir.len() < count {
            reservoir.push(board);
        } else {
            let j = rng.random_range(0..=eligible);
            if j < count {
                reservoir[j] = board;
            }
        }
        eligible += 1;
    }
    if reservoir.is_empty() {
        return Err(format!("no usable position in {}", path.display()));
    }
    Ok((reservoir, stats))
}

/// The games of a PGN file, read lazily, or why the file cannot be opened.
/// A `builtin:` name reads the compiled-in games (`kestrel_tools::data`); `.gz` is decompressed.
pub(crate) fn open_games(path: &Path) -> Result<PgnReader<Box<dyn BufRead + Send>>, String> {
    let reader = kestrel_tools::data::open(path)
        .map_err(|e| format!("cannot open PGN file {}: {e}", path.display()))?;
    Ok(PgnReader::new(reader))
}

/// Positions split into a training and a test half.
#[derive(Clone, Debug, Default)]
pub struct PositionSet {
    /// The training positions (EPD tag `c0 "train"`).
    pub train: Vec<Board>,
    /// The test positions (EPD tag `c0 "test"`).
    pub test: Vec<Board>,
}

impl PositionSet {
    /// Shuffles (seeded) and splits in two halves (the test half gets the odd one).
    pub fn split(mut positions: Vec<Board>, seed: u64) -> PositionSet {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(1));
        positions.shuffle(&mut rng);
        let test = positions.split_off(positions.len() / 2);
        PositionSet {
            train: positions,
            test,
        }
    }

    /// The set as EPD text, one line per position tagged `c0 "train"` or `c0 "test"`.
    pub fn render_epd(&self) -> String {
        let mut s = String::new();
        for (set, boards) in [("train", &self.train), ("test", &self.test)] {
            for b in boards {
                let rec = EpdRecord {
                    board: b.clone(),
                    ops: vec![("c0".to_string(), vec![set.to_string()])],
                };
                s.push_str(&rec.to_line());
                s.push('\n');
            }
        }
        s
    }

    /// Reads EPD lines tagged `c0 "train"` or `c0 "test"` (`#` lines and blank lines ignored).
    pub fn parse_epd(text: &str) -> Result<PositionSet, String> {
        let mut out = PositionSet::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let rec = EpdRecord::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            let set = rec.op("c0").and_then(|v| v.first()).map(String::as_str);
            match set {
                Some("train") => out.train.push(rec.board),
                Some("test") => out.test.push(rec.board),
                _ => {
                    return Err(format!(
                        "line {}: expected c0 \"train\" or c0 \"test\"",
                        i + 1
                    ));
                }
            }
        }
        if out.train.is_empty() {
            return Err("the positions file has no training position".into());
        }
        Ok(out)
    }

    /// Reads an EPD positions file; errs when it cannot be read or fails
    /// [`PositionSet::parse_epd`].
    pub fn load(path: &Path) -> Result<PositionSet, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read positions file {}: {e}", path.display()))?;
        Self::parse_epd(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the set as EPD to `path` atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        kestrel_params::atomic::write_atomic(path, self.render_epd().as_bytes())
    }
}
