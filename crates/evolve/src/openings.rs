//! Opening lists as blob lines: `FEN<TAB>uci moves` per opening, so a worker needs neither
//! the book file nor its path (names are not kept: they never change a game).

use kestrel_chess::Board;
use kestrel_ga::cluster::blobs::{BlobStore, get_lines, put_lines};
use kestrel_tools::Opening;

/// Stores `openings` as one blob; returns its hash.
pub fn put_openings(store: &BlobStore, openings: &[Opening]) -> Result<String, String> {
    let lines: Vec<String> = openings
        .iter()
        .map(|o| {
            let moves: Vec<String> = o.moves.iter().map(|m| m.to_string()).collect();
            format!("{}\t{}", o.start.to_fen(), moves.join(" "))
        })
        .collect();
    put_lines(store, &lines)
}

/// The openings of a blob stored by [`put_openings`].
pub fn get_openings(store: &BlobStore, hash: &str) -> Result<Vec<Opening>, String> {
    get_lines(store, hash)?
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let bad = |e: String| format!("opening blob line {}: {e}", i + 1);
            let (fen, moves) = line.split_once('\t').unwrap_or((line, ""));
            let start = Board::from_fen(fen).map_err(|e| bad(e.to_string()))?;
            let mut board = start.clone();
            let mut played = Vec::new();
            for text in moves.split_whitespace() {
                let mv = board
                    .parse_uci_move(text)
                    .map_err(|e| bad(format!("{text}: {e}")))?;
                board.make_move(mv);
                played.push(mv);
            }
            Ok(Opening {
                start,
                moves: played,
                name: None,
            })
        })
        .collect()
}
