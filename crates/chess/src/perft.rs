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
