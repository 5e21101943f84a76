//! Differential test against shakmaty (an independent, widely used move generator): seeded
//! random playouts from the start position and from every position of the shared EPD and perft
//! suites, comparing legal moves, game-end states, FEN, Polyglot keys and SAN at every ply.

use crate::playout::{Referee, compare_san, random_playout};
use kestrel_chess::{Board, Move, read_epd_file};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, PositionError};

fn shakmaty_position(fen: &str) -> Option<Chess> {
    let setup: Fen = fen.parse().ok()?;
    setup
        .into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// Compares everything observable in one position; with `san`, also every move's SAN.
fn compare(board: &Board, chess: &Chess, san: bool) {
    let fen = board.to_fen();
    let mut ours: Vec<String> = board.legal_moves().iter().map(Move::to_string).collect();
    let mut theirs: Vec<String> = chess
        .legal_moves()
        .iter()
        .map(|&m| UciMove::from_standard(m).to_string())
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "legal moves differ in {fen}");
    assert_eq!(board.in_check(), chess.is_check(), "check in {fen}");
    assert_eq!(
        board.is_checkmate(),
        chess.is_checkmate(),
        "checkmate in {fen}"
    );
    assert_eq!(
        board.is_stalemate(),
        chess.is_stalemate(),
        "stalemate in {fen}"
    );
    assert_eq!(
        board.is_insufficient_material(),
        chess.is_insufficient_material(),
        "insufficient material in {fen}"
    );
    // Kestrel writes and hashes the ep square only when a capture is pseudo-legal (Polyglot).
    let their_fen = Fen::from_position(chess, EnPassantMode::PseudoLegal).to_string();
    assert_eq!(fen, their_fen, "FEN differs");
    let their_key: Zobrist64 = chess.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(board.hash(), their_key.0, "Polyglot key differs in {fen}");
    assert_eq!(
        board.hash(),
        board.compute_hash(),
        "incremental key drifted in {fen}"
    );
    let reread = Board::from_fen(&fen).expect("own FEN re-reads");
    assert_eq!(&reread, board, "FEN round trip of {fen}");
    assert_eq!(
        reread.hash(),
        board.hash(),
        "key after FEN round trip of {fen}"
    );
    if san {
        compare_san(board, chess, &standard_uci);
    }
}

fn standard_uci(m: shakmaty::Move) -> String {
    UciMove::from_standard(m).to_string()
}

/// Plays up to `plies` random moves in both implementations, comparing at every ply, then
/// takes every move back checking that FEN and key are restored.
fn playout(fen: &str, plies: usize, rng: &mut ChaCha8Rng, san: bool) -> usize {
    let Some(chess) = shakmaty_position(fen) else {
        return 0;
    };
    let compare = |board: &Board, chess: &Chess| compare(board, chess, san);
    let referee = Referee {
        uci: &standard_uci,
        compare: &compare,
        snapshot: &|board: &Board| (board.to_fen(), board.hash()),
    };
    random_playout(Board::from_fen(fen).unwrap(), chess, plies, rng, &referee)
}

#[test]
fn random_playouts_from_the_start_position() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b65_7374);
    let mut plies = 0;
    for game in 0..1000 {
        // SAN is compared for every legal move in a quarter of the games (it is the slow part).
        plies += playout(kestrel_chess::START_FEN, 160, &mut rng, game % 4 == 0);
    }
    assert!(plies > 100_000, "only {plies} plies played");
}

#[test]
fn random_playouts_from_suite_positions() {
    // Every shared EPD and perft suite, or on a clone without them the fixtures (Bratko-Kopec
    // and the CPW perft positions).
    let (mut files, expected) = match kestrel_testdata::shared_if_present("epd") {
        Some(epd_dir) => {
            let data = epd_dir.parent().unwrap().to_path_buf();
            let mut files: Vec<_> = std::fs::read_dir(&epd_dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.push(data.join("perft/perftsuite.epd"));
            files.push(data.join("perft/perft-cpw.epd"));
            (files, 2359)
        }
        None => {
            let fixtures = ["bk.epd", "perft-cpw.epd"].map(kestrel_testdata::fixture);
            (fixtures.to_vec(), 24 + 7)
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x7265_6c21);
    files.sort();
    let (mut positions, mut skipped) = (0, 0);
    for path in files {
        let (records, errors) = read_epd_file(&path).unwrap();
        assert!(errors.is_empty(), "{}", path.display());
        for (_, record) in records {
            let fen = record.board.to_fen();
            if shakmaty_position(&fen).is_none() {
                skipped += 1;
                continue;
            }
            positions += 1;
            playout(&fen, 24, &mut rng, true);
        }
    }
    assert_eq!(
        positions + skipped,
        expected,
        "every suite position is visited"
    );
    assert!(skipped <= 2, "shakmaty refused {skipped} positions");
}

#[test]
fn en_passant_edge_cases_agree() {
    let fens = [
        // Capturing en passant would expose the king along the rank.
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
        // The capturing pawn is pinned diagonally.
        "7K/8/8/2k5/3pP3/8/8/6B1 b - e3 0 1",
        // Two pawns can capture.
        "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
        // Double push that gives check; ep capture removes the checker.
        "8/8/8/8/4p3/8/3P4/3K1k2 w - - 0 1",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        let chess = shakmaty_position(fen).unwrap();
        compare(&board, &chess, true);
        playout(fen, 30, &mut rng, true);
    }
}
