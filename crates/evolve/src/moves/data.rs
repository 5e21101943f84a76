//! Positions with the move a player chose in them, from the games of a PGN file: up to
//! `per_game` qualifying positions per game (the mentor GA's pick rules), optionally only
//! those where a named player is to move, games chosen uniformly over the file (reservoir
//! sampling) and split by game into train and test halves (seeded), so no test game was seen
//! in training.

use crate::mentor::positions::{PickRules, open_games, qualifies};
use kestrel_chess::{Board, Move, PgnGame};
use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::path::Path;

/// A position and the move played in it.
#[derive(Clone, Debug)]
pub struct MovePosition {
    /// The position (history cleared).
    pub board: Board,
    /// The move the player chose.
    pub played: Move,
    /// Index of the game among the games picked (positions of one game share it).
    pub game: usize,
    /// Name of the player to move (the PGN's White or Black tag).
    pub player: String,
}

/// Positions split by game into training and test halves.
#[derive(Clone, Debug, Default)]
pub struct MoveSet {
    /// Positions of the training games.
    pub train: Vec<MovePosition>,
    /// Positions of the test games (no game is in both halves).
    pub test: Vec<MovePosition>,
}

/// What to take from a PGN file.
#[derive(Clone, Debug)]
pub struct MoveExtract {
    /// Games to pick (all qualifying games when the file has fewer).
    pub games: usize,
    /// Positions per game, spread over the game.
    pub per_game: usize,
    /// Which positions of a game may be picked (the mentor GA's rules).
    pub rules: PickRules,
    /// Only positions where this player is to move (case-insensitive part of the name tag).
    pub player: Option<String>,
    /// Seed of the game sampling and of the train/test split.
    pub seed: u64,
}

/// What an extraction read.
#[derive(Clone, Debug, Default)]
pub struct MoveExtractStats {
    /// Games read from the file, malformed ones included.
    pub games_read: usize,
    /// Games that could not be parsed (skipped).
    pub malformed_games: usize,
    /// Games with a qualifying position (and the player, when filtered).
    pub eligible_games: usize,
}

/// Whether `name` (a PGN tag) names `player`: case-insensitive containment.
pub fn names_player(name: &str, player: &str) -> bool {
    name.to_lowercase().contains(&player.to_lowercase())
}

/// The positions of one game that may be picked, with the move played there.
fn candidates(game: &PgnGame, opts: &MoveExtract) -> Vec<(Board, Move, String)> {
    let white = game.tag("White").unwrap_or("?").to_string();
    let black = game.tag("Black").unwrap_or("?").to_string();
    let mut board = game.start.clone();
    let mut out = Vec::new();
    for (ply, &mv) in game.moves.iter().enumerate() {
        let mover = if board.side_to_move() == kestrel_chess::Color::White {
            &white
        } else {
            &black
        };
        let wanted = opts
            .player
            .as_deref()
            .is_none_or(|p| names_player(mover, p));
        if wanted && ply >= opts.rules.skip_plies && qualifies(&board, &opts.rules) {
            let mut b = board.clone();
            b.clear_history();
            out.push((b, mv, mover.clone()));
        }
        board.make_move(mv);
    }
    out
}

/// Up to `n` of `items`, one random item from each of `n` consecutive runs (all when fewer).
fn spread<T: Clone>(items: &[T], n: usize, rng: &mut ChaCha8Rng) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n)
        .map(|k| {
            let (lo, hi) = (k * items.len() / n, (k + 1) * items.len() / n);
            items[rng.random_range(lo..hi)].clone()
        })
        .collect()
}

/// Reads the PGN and returns the picked games' positions, split by game.
pub fn extract_moves(
    path: &Path,
    opts: &MoveExtract,
) -> Result<(MoveSet, MoveExtractStats), String> {
    if opts.games < 2 || opts.per_game == 0 {
        return Err("need at least 2 games and 1 position per game".into());
    }
    let games = open_games(path)?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut stats = MoveExtractStats::default();
    let mut reservoir: Vec<Vec<(Board, Move, String)>> = Vec::new();
    for game in games {
        stats.games_read += 1;
        let Ok(game) = game else {
            stats.malformed_games += 1;
            continue;
        };
        let picked = spread(&candidates(&game, opts), opts.per_game, &mut rng);
        if picked.is_empty() {
            continue;
        }
        if reservoir.len() < opts.games {
            reservoir.push(picked);
        } else {
            let j = rng.random_range(0..=stats.eligible_games);
            if j < opts.games {
                reservoir[j] = picked;
            }
        }
        stats.eligible_games += 1;
    }
    if reservoir.len() < 2 {
        return Err(format!(
            "{}: only {} usable game(s){}",
            path.display(),
            reservoir.len(),
            opts.player
                .as_ref()
                .map_or(String::new(), |p| format!(" with player '{p}' to move"))
        ));
    }
    Ok((split_games(reservoir, opts.seed), stats))
}

/// Shuffles the games (seeded) and puts the first half in train, the rest in test.
fn split_games(mut games: Vec<Vec<(Board, Move, String)>>, seed: u64) -> MoveSet {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(1));
    games.shuffle(&mut rng);
    let half = games.len() / 2;
    let mut set = MoveSet::default();
    for (g, positions) in games.into_iter().enumerate() {
        let side = if g < half {
            &mut set.train
        } else {
            &mut set.test
        };
        side.extend(
            positions
                .into_iter()
                .map(|(board, played, player)| MovePosition {
                    board,
                    played,
                    game: g,
                    player,
                }),
        );
    }
    set
}

/// Games per player name (White and Black tags) in a PGN file, most games first.
pub fn player_counts(path: &Path) -> Result<Vec<(String, usize)>, String> {
    let games = open_games(path)?;
    let mut counts: HashMap<String, usize> = HashMap::new();
    for game in games.flatten() {
        for tag in ["White", "Black"] {
            if let Some(name) = game.tag(tag) {
                *counts.entry(name.to_string()).or_default() += 1;
            }
        }
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = r#"[White "Alpha, A"]
[Black "Beta, B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0

[White "Beta, B"]
[Black "Gamma, C"]
[Result "0-1"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 0-1

[White "Gamma, C"]
[Black "Alpha, A"]
[Result "1/2-1/2"]

1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 6. Bg2 Nb6 7. O-O Be7 1/2-1/2
"#;

    fn write_pgn() -> tempfile_path::TempPath {
        tempfile_path::TempPath::new("moves-data.pgn", PGN)
    }

    mod tempfile_path {
        use std::sync::atomic::{AtomicUsize, Ordering};

        /// Files made so far in this process: tests run in parallel threads of one process,
        /// so the process id alone would give two tests the same file.
        static MADE: AtomicUsize = AtomicUsize::new(0);

        /// A file in the temp folder, removed when dropped.
        pub struct TempPath(pub std::path::PathBuf);
        impl TempPath {
            pub fn new(name: &str, text: &str) -> TempPath {
                let n = MADE.fetch_add(1, Ordering::Relaxed);
                let path =
                    std::env::temp_dir().join(format!("kestrel-{}-{n}-{name}", std::process::id()));
                std::fs::write(&path, text).unwrap();
                TempPath(path)
            }
        }
        impl Drop for TempPath {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }
    }

    fn opts(player: Option<&str>) -> MoveExtract {
        MoveExtract {
            games: 10,
            per_game: 3,
            rules: PickRules {
                skip_plies: 4,
                ..PickRules::default()
            },
            player: player.map(str::to_string),
            seed: 5,
        }
    }

    #[test]
    fn positions_carry_the_played_legal_move_and_split_by_game() {
        let pgn = write_pgn();
        let (set, stats) = extract_moves(&pgn.0, &opts(None)).unwrap();
        assert_eq!(stats.games_read, 3);
        assert_eq!(stats.eligible_games, 3);
        let all: Vec<&MovePosition> = set.train.iter().chain(&set.test).collect();
        assert!(all.len() > 3 && all.len() <= 9);
        for p in &all {
            assert!(p.board.legal_moves().contains(p.played));
        }
        for t in &set.test {
            assert!(
                set.train.iter().all(|r| r.game != t.game),
                "a game in both halves"
            );
        }
        // Same seed, same positions.
        let (again, _) = extract_moves(&pgn.0, &opts(None)).unwrap();
        let fens =
            |s: &MoveSet| -> Vec<String> { s.train.iter().map(|p| p.board.to_fen()).collect() };
        assert_eq!(fens(&set), fens(&again));
    }

    #[test]
    fn player_filter_keeps_only_that_players_moves() {
        let pgn = write_pgn();
        let (set, stats) = extract_moves(&pgn.0, &opts(Some("alpha"))).unwrap();
        assert_eq!(stats.eligible_games, 2);
        for p in set.train.iter().chain(&set.test) {
            assert_eq!(p.player, "Alpha, A");
        }
        let err = extract_moves(&pgn.0, &opts(Some("Nobody"))).unwrap_err();
        assert!(err.contains("Nobody"), "{err}");
        let counts = player_counts(&pgn.0).unwrap();
        assert_eq!(counts[0].1, 2);
        assert_eq!(counts.len(), 3);
    }
}
