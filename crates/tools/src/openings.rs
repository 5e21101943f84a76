//! Opening positions for matches: read from EPD or PGN files (optionally gzipped) and
//! sampled with a seed.

use kestrel_chess::{Board, EpdRecord, Move, PgnReader};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::io::BufRead;
use std::path::Path;
use thiserror::Error;

/// Where a game starts: a position plus book moves played from it (shown in the PGN and sent
/// to UCI engines, so repetition history is complete).
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the game starts from (the standard one, a FEN, or a Chess960 array).
    pub start: Board,
    /// Book moves played from `start` before the engines take over.
    pub moves: Vec<Move>,
    /// For the PGN `Opening` tag (EPD `id`, or the PGN's `Opening`/`ECO` tags).
    pub name: Option<String>,
}

/// The opening of game `index` in a match: games `2k` and `2k+1` share opening `k`, the list
/// is used in order and cycled, and an empty list means the standard start position.
pub fn opening_of_game(openings: &[Opening], index: usize) -> Opening {
    if openings.is_empty() {
        return Opening::startpos();
    }
    openings[(index / 2) % openings.len()].clone()
}

impl Opening {
    /// The standard start position, no book moves.
    pub fn startpos() -> Opening {
        Opening::from_board(Board::startpos())
    }

    /// An opening at this position, with no book moves and no name.
    pub fn from_board(board: Board) -> Opening {
        Opening {
            start: board,
            moves: Vec::new(),
            name: None,
        }
    }

    /// The position after the book moves (history included).
    pub fn position(&self) -> Board {
        let mut board = self.start.clone();
        for &mv in &self.moves {
            board.make_move(mv);
        }
        board
    }
}

/// Why openings could not be loaded.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// The file could not be opened or read.
    #[error("cannot read openings file {path}: {source}")]
    Io {
        /// The file's path.
        path: String,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// An entry of the file does not parse.
    #[error("openings file {path}: line {line}: {reason}")]
    Bad {
        /// The file's path.
        path: String,
        /// 1-based line of the bad entry.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The file (this path) was read but holds no position.
    #[error("openings file {0} holds no usable position")]
    Empty(String),
    /// The file's name (this path) ends in none of the known extensions.
    #[error("openings file {0}: unknown format (expected .epd, .fen or .pgn, optionally .gz)")]
    UnknownFormat(String),
}

/// Reads every opening of an `.epd`/`.fen`/`.pgn` file (each optionally `.gz`). A malformed
/// entry is an error with its line number: a broken book should not go unnoticed.
///
/// Two names are not files: `chess960` (alias `frc`) gives the 960 Chess960 start arrays by
/// their standard numbers, `dchess960` (alias `dfrc`) 960 double-Chess960 starts (White on
/// array `i`, Black on a fixed permutation of the arrays). A file in which any position has
/// Chess960 castling (X-FEN or Shredder-FEN rights off the standard squares) makes every
/// opening of it a Chess960 start: UCI engines then play it with `UCI_Chess960`.
pub fn load_openings(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    if let Some(openings) = generated_openings(&path.display().to_string()) {
        return Ok(openings);
    }
    let mut openings = load_opening_file(path)?;
    if openings.iter().any(|o| o.start.chess960()) {
        for opening in &mut openings {
            opening.start.set_chess960(true);
        }
    }
    Ok(openings)
}

/// The Chess960 (`chess960`, `frc`) or double Chess960 (`dchess960`, `dfrc`) start positions,
/// named by their arrays' numbers (`chess960 #518`, `dchess960 #12/#700`).
fn generated_openings(name: &str) -> Option<Vec<Opening>> {
    let double = match name {
        "chess960" | "frc" => false,
        "dchess960" | "dfrc" => true,
        _ => return None,
    };
    let openings = (0..960u16)
        .map(|white| {
            // 389 is prime to 960: a permutation that rarely mirrors White's array.
            let black = if double {
                ((u32::from(white) * 389 + 517) % 960) as u16
            } else {
                white
            };
            let board = Board::double_chess960_start(white, black).expect("numbers below 960");
            let name = if double {
                format!("dchess960 #{white}/#{black}")
            } else {
                format!("chess960 #{white}")
            };
            Opening {
                start: board,
                moves: Vec::new(),
                name: Some(name),
            }
        })
        .collect();
    Some(openings)
}

fn load_opening_file(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    let name = path.display().to_string();
    let io = |source| OpeningError::Io {
        path: name.clone(),
        source,
    };
    let reader = crate::data::open(path).map_err(io)?;
    let lower = name.to_ascii_lowercase();
    let stem = lower.strip_suffix(".gz").unwrap_or(&lower);
    let openings = if stem.ends_with(".pgn") {
        read_pgn(reader, &name)?
    } else if stem.ends_with(".epd") || stem.ends_with(".fen") {
        read_epd(reader, &name)?
    } else {
        return Err(OpeningError::UnknownFormat(name));
    };
    if openings.is_empty() {
        return Err(OpeningError::Empty(name));
    }
    Ok(openings)
}

fn read_epd(reader: impl BufRead, path: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|source| OpeningError::Io {
            path: path.to_string(),
            source,
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let record = EpdRecord::parse(line).map_err(|e| OpeningError::Bad {
            path: path.to_string(),
            line: i + 1,
            reason: e.to_string(),
        })?;
        let name = record.id().map(str::to_string);
        out.push(Opening {
            start: record.board,
            moves: Vec::new(),
            name,
        });
    }
    Ok(out)
}

fn read_pgn(reader: impl BufRead, path: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for game in PgnReader::new(reader) {
        let game = game.map_err(|e| OpeningError::Bad {
            path: path.to_string(),
            line: e.line,
            reason: e.reason.clone(),
        })?;
        let name = game
            .tag("Opening")
            .or(game.tag("ECO"))
            .or(game.tag("Eco"))
            .map(str::to_string);
        out.push(Opening {
            start: game.start,
            moves: game.moves,
            name,
        });
    }
    Ok(out)
}

/// `count` openings drawn without replacement in a seeded random order (cycling through the
/// shuffled list again when more are asked for than the file holds).
pub fn sample_openings(openings: &[Opening], count: usize, seed: u64) -> Vec<Opening> {
    if openings.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..openings.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    (0..count)
        .map(|i| openings[order[i % order.len()]].clone())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn chess960_names_generate_every_array_in_chess960_mode() {
        let single = load_openings(Path::new("chess960")).unwrap();
        assert_eq!(single.len(), 960);
        assert!(single.iter().all(|o| o.start.chess960()));
        assert_eq!(single[518].start, kestrel_chess::Board::startpos());
        let double = load_openings(Path::new("dfrc")).unwrap();
        assert_eq!(double.len(), 960);
        let mirrored = double
            .iter()
            .filter(|o| {
                let fen = o.start.to_fen();
                let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
                ranks[0].to_ascii_uppercase() == ranks[7]
            })
            .count();
        assert!(
            mirrored < 10,
            "double Chess960 mostly differs per side: {mirrored}"
        );
    }

    use super::*;

    #[test]
    fn reads_two_move_epd_book() {
        let path = kestrel_testdata::shared_or_skip!("openings/2moves_v1.epd");
        let all = load_openings(&path).unwrap();
        assert_eq!(all.len(), 40_457);
        // Every line is White to move after two moves each.
        assert!(all.iter().all(|o| o.position().fullmove_number() == 3));
    }

    #[test]
    fn reads_gzipped_pgn_book() {
        let path = kestrel_testdata::shared_or_skip!("openings/8moves_v3.pgn.gz");
        let all = load_openings(&path).unwrap();
        assert_eq!(all.len(), 34_700);
        assert!(all.iter().all(|o| o.moves.len() == 16));
        assert_eq!(all[0].name.as_deref(), Some("A07"));
    }

    #[test]
    fn reads_the_shipped_two_move_excerpt() {
        let all = load_openings(&kestrel_testdata::fixture("openings-2moves-60.epd")).unwrap();
        assert_eq!(all.len(), 60);
        assert!(all.iter().all(|o| o.position().fullmove_number() == 3));
    }

    #[test]
    fn sampling_is_seeded() {
        let all: Vec<Opening> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|n| Opening {
                name: Some(n.to_string()),
                ..Opening::startpos()
            })
            .collect();
        let names = |v: Vec<Opening>| v.into_iter().map(|o| o.name.unwrap()).collect::<Vec<_>>();
        let a = names(sample_openings(&all, 7, 42));
        assert_eq!(a, names(sample_openings(&all, 7, 42)));
        assert_ne!(a, names(sample_openings(&all, 7, 43)));
        // The first five are a permutation; then the cycle repeats.
        let mut first: Vec<_> = a[..5].to_vec();
        first.sort();
        assert_eq!(first, ["a", "b", "c", "d", "e"]);
        assert_eq!(a[5], a[0]);
    }

    #[test]
    fn malformed_files_are_errors() {
        let dir = std::env::temp_dir().join(format!("kestrel-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.epd");
        std::fs::write(
            &bad,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
        )
        .unwrap();
        let err = load_openings(&bad).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let empty = dir.join("empty.pgn");
        std::fs::write(&empty, "").unwrap();
        assert!(matches!(load_openings(&empty), Err(OpeningError::Empty(_))));
        assert!(matches!(
            load_openings(&dir.join("x.txt")),
            Err(OpeningError::Io { .. })
        ));
        let txt = dir.join("x.txt");
        std::fs::write(&txt, "x").unwrap();
        assert!(matches!(
            load_openings(&txt),
            Err(OpeningError::UnknownFormat(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
