//! Differential test of Chess960 and double Chess960 against shakmaty in its Chess960 castling
//! mode: seeded random playouts from numbered start arrays and from the Chess960 perft
//! positions, comparing legal moves (in Chess960 UCI notation, king takes rook), check and
//! game-end states, SAN, FEN round trips and make/unmake at every ply.

use crate::playout::{Referee, compare_san, random_playout};
use kestrel_chess::Board;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn shakmaty_960(fen: &str) -> Chess {
    let setup: Fen = fen.parse().unwrap();
    setup.into_position(CastlingMode::Chess960).unwrap()
}

fn compare(board: &Board, chess: &Chess) {
    let fen = board.to_fen();
    let mut ours: Vec<String> = board
        .legal_moves()
        .iter()
        .map(|&m| board.uci_move(m))
        .collect();
    let mut theirs: Vec<String> = chess
        .legal_moves()
        .iter()
        .map(|&m| UciMove::from_chess960(m).to_string())
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "legal moves differ in {fen}");
    assert_eq!(board.in_check(), chess.is_check(), "check in {fen}");
    assert_eq!(board.is_checkmate(), chess.is_checkmate(), "mate in {fen}");
    assert_eq!(
        board.is_stalemate(),
        chess.is_stalemate(),
        "stalemate in {fen}"
    );
    assert_eq!(
        board.hash(),
        board.compute_hash(),
        "incremental key in {fen}"
    );
    // Both FEN dialects re-read to the same position, and shakmaty reads ours back.
    for text in [fen.clone(), board.to_shredder_fen()] {
        assert_eq!(
            &Board::from_fen(&text).unwrap(),
            board,
            "round trip of {text}"
        );
        let again = shakmaty_960(&text);
        let their = Fen::from_position(&again, EnPassantMode::Legal).to_string();
        let their_original = Fen::from_position(chess, EnPassantMode::Legal).to_string();
        assert_eq!(their, their_original, "shakmaty reads {text} differently");
    }
    compare_san(board, chess, &chess960_uci);
}

fn chess960_uci(m: shakmaty::Move) -> String {
    UciMove::from_chess960(m).to_string()
}

/// Random playout with comparison at every ply, then unmake back to the start.
fn playout(start: &Board, plies: usize, rng: &mut ChaCha8Rng) -> usize {
    let referee = Referee {
        uci: &chess960_uci,
        compare: &compare,
        snapshot: &Board::to_shredder_fen,
    };
    let chess = shakmaty_960(&start.to_shredder_fen());
    random_playout(start.clone(), chess, plies, rng, &referee)
}

#[test]
fn chess960_playouts_from_every_hundredth_array_and_random_ones() {
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    let mut plies = 0;
    for game in 0..240u16 {
        let number = if game < 10 {
            game * 100
        } else {
            rng.random_range(0..960)
        };
        let start = Board::chess960_start(number).unwrap();
        plies += playout(&start, 120, &mut rng);
    }
    assert!(plies > 15_000, "only {plies} plies");
}

#[test]
fn double_chess960_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(1920);
    let mut plies = 0;
    for _ in 0..120 {
        let (white, black) = (rng.random_range(0..960), rng.random_range(0..960));
        let start = Board::double_chess960_start(white, black).unwrap();
        plies += playout(&start, 120, &mut rng);
    }
    assert!(plies > 7_000, "only {plies} plies");
}

#[test]
fn perft_suite_positions_playouts() {
    let path = kestrel_testdata::shared_or_fixture("perft/chess960.perft", "chess960-perft.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let cases = kestrel_chess::perft::parse_perft_blocks(&text).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for case in cases.iter().step_by(4) {
        let mut start = case.board.clone();
        start.set_chess960(true);
        playout(&start, 40, &mut rng);
    }
}
