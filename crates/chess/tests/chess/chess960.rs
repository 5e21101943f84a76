//! Chess960 rules: perft on the shared suite of all 960 start positions (with their castling
//! rights by file), a fixture of a few of them that every clone has, and castling details.

use kestrel_chess::perft::{PerftCase, parse_perft_blocks, perft};

fn read_cases(path: &std::path::Path) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path).unwrap();
    parse_perft_blocks(&text).unwrap()
}

/// Checks every count up to `max_depth`; returns how many were checked.
fn check(cases: &[PerftCase], max_depth: u32) -> usize {
    let mut checked = 0;
    for case in cases {
        let mut board = case.board.clone();
        for &(depth, count) in case.counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(
                perft(&mut board, depth),
                count,
                "id {} depth {depth} [{}]",
                case.id,
                case.board.to_fen()
            );
            checked += 1;
        }
        assert_eq!(board, case.board, "perft left the board changed");
    }
    checked
}

#[test]
fn all_960_positions_to_depth_4() {
    let path = kestrel_testdata::shared_or_skip!("perft/chess960.perft");
    let cases = read_cases(&path);
    assert_eq!(cases.len(), 960);
    assert_eq!(check(&cases, 4), 960 * 4);
}

#[test]
fn fixture_positions_to_depth_4() {
    let cases = read_cases(&kestrel_testdata::fixture("chess960-perft.perft"));
    assert!(cases.len() >= 6);
    assert_eq!(check(&cases, 4), cases.len() * 4);
}

#[test]
fn castling_where_king_and_rook_swap_or_stay() {
    // King g1, rook h1 (king side): the king stays, the rook jumps to f1.
    let mut b = kestrel_chess::Board::from_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
    assert!(b.chess960());
    let before = b.clone();
    let castle = b.parse_uci_move("g1h1").unwrap();
    assert!(castle.is_castle() && castle.is_king_side_castle());
    assert_eq!(b.uci_move(castle), "g1h1");
    assert_eq!(b.to_san(castle), "O-O");
    // In Chess960 notation g1h1 is castling; a plain step of the king is still readable.
    assert!(!b.parse_uci_move("g1f1").unwrap().is_castle());
    b.make_move(castle);
    assert_eq!(b.to_fen(), "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    assert_eq!(b.hash(), b.compute_hash());
    b.unmake_move();
    assert_eq!(b, before);
    // Queen side: king b1 -> c1, rook... here the b-file rook is the queen-side one: king g1
    // to c1, rook b1 to d1, crossing each other.
    let long = b.parse_uci_move("g1b1").unwrap();
    assert!(long.is_castle() && !long.is_king_side_castle());
    assert_eq!(b.to_san(long), "O-O-O");
    b.make_move(long);
    assert_eq!(b.to_fen(), "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1");
    b.unmake_move();
    assert_eq!(b, before);
}

#[test]
fn rook_shielding_the_destination_forbids_castling() {
    // White king c1, castling rook b1, black rook a1: after O-O-O the b1 rook would leave c1
    // attacked along the rank, so castling is illegal (the rook is not part of the defence).
    let b = kestrel_chess::Board::from_fen("4k3/8/8/8/8/8/8/rRK5 w B - 0 1").unwrap();
    assert!(b.legal_moves().iter().all(|m| !m.is_castle()));
    // Without the black rook it is legal.
    let b = kestrel_chess::Board::from_fen("4k3/8/8/8/8/8/8/1RK5 w B - 0 1").unwrap();
    assert!(b.legal_moves().iter().any(|m| m.is_castle()));
}

#[test]
fn standard_mode_writes_and_reads_king_destination() {
    let b = kestrel_chess::Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert!(!b.chess960());
    let castle = b.parse_uci_move("e1g1").unwrap();
    assert_eq!(b.uci_move(castle), "e1g1");
    // King takes rook is accepted as castling in either mode.
    assert_eq!(b.parse_uci_move("e1h1").unwrap(), castle);
    let mut chess960 = b.clone();
    chess960.set_chess960(true);
    assert_eq!(chess960.uci_move(castle), "e1h1");
    // e1g1 moves the king two files: castling in Chess960 mode too.
    assert_eq!(chess960.parse_uci_move("e1g1").unwrap(), castle);
    assert_eq!(chess960.to_fen(), b.to_fen(), "standard rights stay KQkq");
}

#[test]
fn pgn_of_a_chess960_game_names_the_variant_and_reads_back() {
    use kestrel_chess::{PgnGame, PgnReader};
    let mut board = kestrel_chess::Board::chess960_start(0).unwrap();
    let start = board.clone();
    let mut moves = Vec::new();
    for _ in 0..12 {
        let mv = board.legal_moves()[0];
        moves.push(mv);
        board.make_move(mv);
    }
    let game = PgnGame {
        tags: vec![("Event".into(), "test".into())],
        start: start.clone(),
        moves: moves.clone(),
        result: "*".into(),
    };
    let text = game.to_pgn_string();
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(
        text.contains("[SetUp \"1\"]") && text.contains("[FEN \"bbqnnrkr/"),
        "{text}"
    );
    let read: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    let again = read[0].as_ref().unwrap();
    assert!(again.start.chess960());
    assert_eq!(again.moves, moves);
}
