//! Perft: counts leaf nodes of the legal move tree, the standard check of a move generator.

use crate::{Board, Move};

/// Leaf count at `depth`, with bulk counting at the last ply.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        board.make_move(mv);
        nodes += perft(board, depth - 1);
        board.unmake_move();
    }
    nodes
}

/// Per-move leaf counts at `depth` (the `--divide` view), in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            board.make_move(mv);
            let n = if depth <= 1 {
                1
            } else {
                perft(board, depth - 1)
            };
            board.unmake_move();
            (mv, n)
        })
        .collect()
}

/// One position of a perft suite with its expected leaf counts.
#[derive(Debug, Clone, PartialEq)]
pub struct PerftCase {
    /// The position's name in the suite (its `id`, or the line number).
    pub id: String,
    /// The position.
    pub board: Board,
    /// Expected `(depth, leaves)`, shallowest first.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft suite in the block format of the Chess960 suite (`id N`, `epd FEN`, then
/// `perft DEPTH COUNT` lines; `#` comments and blank lines ignored). A malformed line is an
/// error naming its line number.
pub fn parse_perft_blocks(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = number + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "id" => pending_id = Some(rest.to_string()),
            "epd" | "fen" => {
                let board = Board::from_fen(rest)
                    .map_err(|e| format!("line {number}: bad position '{rest}': {e}"))?;
                let id = pending_id
                    .take()
                    .unwrap_or_else(|| format!("line {number}"));
                cases.push(PerftCase {
                    id,
                    board,
                    counts: Vec::new(),
                });
            }
            "perft" => {
                let case = cases
                    .last_mut()
                    .ok_or_else(|| format!("line {number}: perft count before any position"))?;
                let mut words = rest.split_whitespace();
                let parsed = (words.next(), words.next(), words.next());
                let (Some(depth), Some(count), None) = parsed else {
                    return Err(format!("line {number}: expected 'perft DEPTH COUNT'"));
                };
                let depth = depth
                    .parse()
                    .map_err(|_| format!("line {number}: depth '{depth}' is not a number"))?;
                let count = count
                    .parse()
                    .map_err(|_| format!("line {number}: count '{count}' is not a number"))?;
                case.counts.push((depth, count));
            }
            other => return Err(format!("line {number}: unknown keyword '{other}'")),
        }
    }
    for case in &mut cases {
        case.counts.sort_unstable();
    }
    Ok(cases)
}
