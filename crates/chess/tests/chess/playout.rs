//! What the two differential tests share: a seeded random playout that plays the same moves in
//! Kestrel and shakmaty, compares them at every ply and takes every move back, and the check of
//! every legal move's SAN.

use kestrel_chess::Board;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};
use std::fmt::Debug;

/// How one differential test reads shakmaty: a move in the UCI text Kestrel parses, the
/// comparison made at every ply, and the state that unmaking must restore.
pub struct Referee<'a, S> {
    /// shakmaty's move as UCI text (standard or Chess960 castling).
    pub uci: &'a dyn Fn(shakmaty::Move) -> String,
    /// Everything compared in one position.
    pub compare: &'a dyn Fn(&Board, &Chess),
    /// What each ply must give back when its move is taken back.
    pub snapshot: &'a dyn Fn(&Board) -> S,
}

/// Plays up to `plies` random legal moves in both implementations, comparing at every ply,
/// then unmakes them all, checking each position's snapshot; returns the plies played.
pub fn random_playout<S: PartialEq + Debug>(
    mut board: Board,
    mut chess: Chess,
    plies: usize,
    rng: &mut ChaCha8Rng,
    referee: &Referee<S>,
) -> usize {
    let mut trail = vec![(referee.snapshot)(&board)];
    for _ in 0..plies {
        (referee.compare)(&board, &chess);
        let moves = chess.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let mv = board.parse_uci_move(&(referee.uci)(m)).unwrap();
        board.make_move(mv);
        chess.play_unchecked(m);
        trail.push((referee.snapshot)(&board));
    }
    let played = trail.len() - 1;
    while let Some(expected) = trail.pop() {
        assert_eq!((referee.snapshot)(&board), expected, "unmake restores");
        if trail.is_empty() {
            break;
        }
        board.unmake_move();
    }
    played
}

/// Every legal move's SAN as shakmaty writes it, and read back to the same move.
pub fn compare_san(board: &Board, chess: &Chess, uci: &dyn Fn(shakmaty::Move) -> String) {
    let fen = board.to_fen();
    for m in chess.legal_moves() {
        let text = uci(m);
        let mv = board.parse_uci_move(&text).unwrap();
        let expected = SanPlus::from_move(chess.clone(), m).to_string();
        assert_eq!(board.to_san(mv), expected, "SAN of {text} in {fen}");
        assert_eq!(
            board.parse_san(&expected),
            Ok(mv),
            "reading {expected} in {fen}"
        );
    }
}
