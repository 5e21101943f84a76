//! Picking training positions from PGN games, and the positions file format.

use kestrel_chess::Board;
use kestrel_evolve::mentor::positions::{
    PickRules, PositionSet, extract_from_pgn, has_pending_capture, qualifies,
};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

#[test]
fn pending_captures_are_recognised() {
    // Start position: no capture at all.
    assert!(!has_pending_capture(&Board::startpos()));
    // exd5 wins a pawn for a pawn (equal capture): pending.
    assert!(has_pending_capture(&board(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    )));
    // Nxe5 takes a pawn defended by the c6 knight: losing, so not pending.
    assert!(!has_pending_capture(&board(
        "r1bqkbnr/pppp1ppp/2n5/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 3"
    )));
    // The same capture of an undefended pawn is pending.
    assert!(has_pending_capture(&board(
        "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 3"
    )));
    // A promotion is always pending.
    assert!(has_pending_capture(&board(
        "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1"
    )));
}

#[test]
fn checks_and_mates_do_not_qualify() {
    let rules = PickRules::default();
    let in_check = board("rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3");
    assert!(!qualifies(&in_check, &rules));
    let mated = board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(!qualifies(&mated, &rules));
    assert!(qualifies(&Board::startpos(), &rules));
}

const PGN: &str = r#"[Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O
9. h3 Nb8 10. d4 Nbd7 1-0

[Event "a again"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O
9. h3 Nb8 10. d4 Nbd7 1-0

[Event "b: a capture is pending at every ply past 16"]
[Result "0-1"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 8. a3 Bxc3
9. bxc3 dxc4 10. Bxc4 Qc7 0-1

[Event "broken"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "short"]
[Result "1/2-1/2"]

1. e4 e5 1/2-1/2
"#;

/// A folder holding `games.pgn` (the games above).
fn pgn_folder() -> kestrel_testdata::ScratchDir {
    let dir = kestrel_testdata::ScratchDir::new("positions");
    std::fs::write(dir.join("games.pgn"), PGN).unwrap();
    dir
}

#[test]
fn one_quiet_position_per_game_reproducibly() {
    let dir = pgn_folder();
    let path = dir.join("games.pgn");
    let rules = PickRules::default();
    let (boards, stats) = extract_from_pgn(&path, 10, &rules, 3).unwrap();
    assert_eq!(stats.games, 5);
    assert_eq!(stats.malformed_games, 1);
    assert_eq!(
        stats.games_without_candidate, 2,
        "game b and the 2-ply game"
    );
    assert_eq!(boards.len(), 2);
    assert_ne!(
        boards[0].hash(),
        boards[1].hash(),
        "the repeated game gives another position"
    );
    for b in &boards {
        assert!(b.fullmove_number() >= 9, "{}", b.to_fen());
        assert!(qualifies(b, &rules));
    }
    let (again, _) = extract_from_pgn(&path, 10, &rules, 3).unwrap();
    let fens = |v: &[Board]| v.iter().map(Board::to_fen).collect::<Vec<_>>();
    assert_eq!(fens(&boards), fens(&again));
    // Asking for fewer positions than games keeps a sample of them.
    let (one, _) = extract_from_pgn(&path, 1, &rules, 3).unwrap();
    assert_eq!(one.len(), 1);
    assert!(extract_from_pgn(&path.with_extension("missing"), 1, &rules, 3).is_err());
}

#[test]
fn positions_file_round_trips_and_rejects_bad_lines() {
    let boards: Vec<Board> = (0..7)
        .map(|i| {
            let mut b = Board::startpos();
            let mv = b.legal_moves().as_slice()[i];
            b.make_move(mv);
            b.clear_history();
            b
        })
        .collect();
    let set = PositionSet::split(boards, 5);
    assert_eq!((set.train.len(), set.test.len()), (3, 4));
    let text = set.render_epd();
    assert_eq!(text.lines().count(), 7);
    let back = PositionSet::parse_epd(&text).unwrap();
    let fens = |v: &[Board]| v.iter().map(Board::to_fen).collect::<Vec<_>>();
    assert_eq!(fens(&back.train), fens(&set.train));
    assert_eq!(fens(&back.test), fens(&set.test));
    let err =
        PositionSet::parse_epd("# c\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -;\n")
            .unwrap_err();
    assert!(err.contains("line 2") && err.contains("c0"), "{err}");
    let err = PositionSet::parse_epd("rnbqkbnr/ppp/8/8 w - - c0 \"train\";").unwrap_err();
    assert!(err.contains("line 1"), "{err}");
    assert!(
        PositionSet::parse_epd("")
            .unwrap_err()
            .contains("no training")
    );
}

#[test]
fn shipped_positions_are_complete_and_quiet() {
    let set = PositionSet::parse_epd(kestrel_evolve::mentor::run::BUILTIN_POSITIONS).unwrap();
    assert_eq!((set.train.len(), set.test.len()), (5000, 5000));
    let rules = PickRules::default();
    let mut keys = std::collections::HashSet::new();
    for b in set.train.iter().chain(&set.test) {
        assert!(qualifies(b, &rules), "{}", b.to_fen());
        assert!(keys.insert(b.hash()), "duplicate {}", b.to_fen());
    }
}
